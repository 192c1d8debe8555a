// contour.cpp - marching squares, contour levels and polyline decimation (see contour.h).
#include "views/plot/contour.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plot {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Crossing of `level` on the edge a -> b (values va, vb), in data coordinates.
inline void crossing(double ax, double ay, double va, double bx, double by, double vb, double level, double& x,
                     double& y) {
    const double d = vb - va;
    const double t = d != 0.0 ? std::clamp((level - va) / d, 0.0, 1.0) : 0.5;
    x = ax + t * (bx - ax);
    y = ay + t * (by - ay);
}

}  // namespace

void contour_segments(const double* values, int rows, int cols, double x_min, double x_max, double y_min,
                      double y_max, const std::vector<double>& levels, ContourSegments& out) {
    if (values == nullptr || rows < 2 || cols < 2) return;
    const double dx = (x_max - x_min) / (cols - 1), dy = (y_max - y_min) / (rows - 1);
    for (size_t li = 0; li < levels.size(); ++li) {
        const double l = levels[li];
        if (!std::isfinite(l)) continue;
        for (int r = 0; r + 1 < rows; ++r) {
            const double y0 = y_min + r * dy, y1 = y_min + (r + 1) * dy;
            const double* row0 = values + static_cast<size_t>(r) * cols;
            const double* row1 = row0 + cols;
            for (int c = 0; c + 1 < cols; ++c) {
                const double v00 = row0[c], v10 = row0[c + 1], v11 = row1[c + 1], v01 = row1[c];
                const int code = (v00 > l ? 1 : 0) | (v10 > l ? 2 : 0) | (v11 > l ? 4 : 0) | (v01 > l ? 8 : 0);
                if (code == 0 || code == 15) continue;
                if (!std::isfinite(v00) || !std::isfinite(v10) || !std::isfinite(v11) || !std::isfinite(v01)) continue;
                const double x0 = x_min + c * dx, x1 = x_min + (c + 1) * dx;
                // Edge crossings: 0 bottom (00-10), 1 right (10-11), 2 top (01-11), 3 left (00-01).
                auto edge = [&](int e, double& x, double& y) {
                    switch (e) {
                        case 0: crossing(x0, y0, v00, x1, y0, v10, l, x, y); break;
                        case 1: crossing(x1, y0, v10, x1, y1, v11, l, x, y); break;
                        case 2: crossing(x0, y1, v01, x1, y1, v11, l, x, y); break;
                        default: crossing(x0, y0, v00, x0, y1, v01, l, x, y); break;
                    }
                };
                auto seg = [&](int ea, int eb) {
                    double ax, ay, bx, by;
                    edge(ea, ax, ay);
                    edge(eb, bx, by);
                    out.xy.insert(out.xy.end(), {ax, ay, bx, by});
                    out.level.push_back(static_cast<int>(li));
                };
                const bool centre_high = 0.25 * (v00 + v10 + v11 + v01) > l;
                switch (code) {
                    case 1: case 14: seg(3, 0); break;
                    case 2: case 13: seg(0, 1); break;
                    case 3: case 12: seg(3, 1); break;
                    case 4: case 11: seg(1, 2); break;
                    case 6: case 9: seg(0, 2); break;
                    case 7: case 8: seg(3, 2); break;
                    case 5:  // 00 and 11 high
                        if (centre_high) seg(0, 1), seg(2, 3);
                        else seg(3, 0), seg(1, 2);
                        break;
                    case 10:  // 10 and 01 high
                        if (centre_high) seg(3, 0), seg(1, 2);
                        else seg(0, 1), seg(2, 3);
                        break;
                    default: break;
                }
            }
        }
    }
}

std::vector<double> contour_levels(double v_min, double v_max, int n, bool log_spaced, double decades) {
    std::vector<double> levels;
    if (n < 1 || !std::isfinite(v_min) || !std::isfinite(v_max) || !(v_max > v_min)) return levels;
    const double span = v_max - v_min;
    levels.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const double t = static_cast<double>(i + 1) / (n + 1);
        levels.push_back(log_spaced ? v_min + span * std::pow(10.0, -decades * (1.0 - t)) : v_min + span * t);
    }
    return levels;
}

bool prefers_log_levels(const double* values, size_t count) {
    std::vector<double> v;
    v.reserve(count);
    for (size_t i = 0; i < count; ++i)
        if (std::isfinite(values[i])) v.push_back(values[i]);
    if (v.size() < 3) return false;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const double mn = *lo, mx = *hi;
    if (!(mx > mn)) return false;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2] - mn < 0.3 * (mx - mn);
}

double PixelMap::operator()(double v) const {
    if (log10) return v > 0.0 ? origin + scale * std::log10(v) : kNaN;
    return origin + scale * v;
}

// ---- PolylineDecimator ----

void PolylineDecimator::reset(const PixelMap& x, const PixelMap& y, double min_px, bool skip_visited) {
    mx_ = x;
    my_ = y;
    min_px2_ = min_px * min_px;
    skip_visited_ = skip_visited;
    fed_ = 0;
    x_.clear();
    y_.clear();
    have_last_ = false;
    has_tail_ = false;
    visited_.clear();
    have_prev_ = false;
    skipping_ = false;
    out_dirty_ = true;
}

long long PolylineDecimator::cell_of(double px, double py) const {
    // Clamped (a diverging path reaches 1e300 px; converting that is undefined) and
    // packed through unsigned arithmetic (shifting a negative value is undefined).
    const double lim = 1e9;
    auto cell = [lim](double v) {
        return static_cast<long long>(std::floor(std::isfinite(v) ? std::clamp(v, -lim, lim) : lim));
    };
    const long long cx = cell(px / kCellPx);
    const long long cy = cell(py / kCellPx);
    const unsigned long long key = (static_cast<unsigned long long>(cx) << 32) ^
                                   (static_cast<unsigned long long>(cy) & 0xffffffffULL);
    return static_cast<long long>(key);
}

bool PolylineDecimator::walk_cells(double ax, double ay, double bx, double by, bool mark) {
    // Samples every half cell along the segment (at most kMaxWalk samples: longer steps are
    // never skipped and only partly marked, which is conservative). A cell counts as drawn for
    // skipping only once kFreshKept more points have been kept since it was first drawn: the
    // cells just behind a slowly advancing path are not "old" coverage.
    constexpr int kMaxWalk = 64;
    constexpr size_t kFreshKept = 8;
    const double len = std::hypot(bx - ax, by - ay);
    const int n = static_cast<int>(std::ceil(len / (0.5 * kCellPx))) + 1;
    if (n > kMaxWalk && !mark) return false;
    const int m = std::min(n, kMaxWalk);
    const size_t now = x_.size();
    for (int i = 0; i <= m; ++i) {
        const double t = m > 0 ? static_cast<double>(i) / m : 0.0;
        const long long c = cell_of(ax + t * (bx - ax), ay + t * (by - ay));
        if (mark) {
            visited_.emplace(c, now);
        } else {
            const auto it = visited_.find(c);
            if (it == visited_.end() || it->second + kFreshKept > now) return false;
        }
    }
    return true;
}

void PolylineDecimator::keep(double x, double y, double px, double py, bool joined) {
    if (skip_visited_) {
        if (joined && have_last_) walk_cells(last_px_, last_py_, px, py, true);
        else visited_.emplace(cell_of(px, py), x_.size());
    }
    x_.push_back(x);
    y_.push_back(y);
    last_px_ = px;
    last_py_ = py;
    have_last_ = true;
    has_tail_ = false;
}

void PolylineDecimator::add(double x, double y) {
    ++fed_;
    out_dirty_ = true;
    const double px = mx_(x), py = my_(y);
    if (!std::isfinite(px) || !std::isfinite(py)) {
        if (skipping_ && have_prev_) {
            x_.push_back(kNaN);
            y_.push_back(kNaN);
            keep(prev_x_, prev_y_, prev_px_, prev_py_, false);
        } else if (has_tail_) {
            keep(tail_x_, tail_y_, mx_(tail_x_), my_(tail_y_), true);
        }
        if (!x_.empty() && !std::isnan(x_.back())) {
            x_.push_back(kNaN);
            y_.push_back(kNaN);
        }
        have_last_ = false;
        have_prev_ = false;
        skipping_ = false;
        return;
    }
    const double ppx = prev_px_, ppy = prev_py_, pvx = prev_x_, pvy = prev_y_;
    const bool had_prev = have_prev_;
    prev_x_ = x, prev_y_ = y, prev_px_ = px, prev_py_ = py;
    have_prev_ = true;
    if (have_last_ && !skipping_) {
        const double ddx = px - last_px_, ddy = py - last_py_;
        if (ddx * ddx + ddy * ddy < min_px2_) {
            tail_x_ = x;
            tail_y_ = y;
            has_tail_ = true;
            return;
        }
    }
    if (skip_visited_ && have_last_ && had_prev) {
        if (walk_cells(ppx, ppy, px, py, false)) {  // the whole step lies on drawn cells
            if (!skipping_ && has_tail_) keep(tail_x_, tail_y_, mx_(tail_x_), my_(tail_y_), true);
            skipping_ = true;
            return;
        }
        if (skipping_) {  // resume: break, then the true step (previous point -> this one)
            x_.push_back(kNaN);
            y_.push_back(kNaN);
            keep(pvx, pvy, ppx, ppy, false);
            skipping_ = false;
        }
    }
    keep(x, y, px, py, true);
}

const std::vector<double>& PolylineDecimator::xs() const {
    if (out_dirty_) {
        out_x_ = x_;
        out_y_ = y_;
        if (has_tail_) {
            out_x_.push_back(tail_x_);
            out_y_.push_back(tail_y_);
        }
        out_dirty_ = false;
    }
    return out_x_;
}

const std::vector<double>& PolylineDecimator::ys() const {
    xs();
    return out_y_;
}

// ---- ColumnDecimator ----

void ColumnDecimator::reset(const PixelMap& x, const PixelMap& y) {
    mx_ = x;
    my_ = y;
    fed_ = 0;
    x_.clear();
    y_.clear();
    bands_.clear();
    bands_dirty_ = true;
    open_ = false;
    group_.count = 0;
    out_dirty_ = true;
}

void ColumnDecimator::emit(double x, double y) {
    x_.push_back(x);
    y_.push_back(y);
}

void ColumnDecimator::append_group(std::vector<double>& ox, std::vector<double>& oy) const {
    if (!open_) return;
    const auto out = [&](const Pt& p) {
        ox.push_back(p.x);
        oy.push_back(p.y);
    };
    out(group_.first);
    group_.emit_after_first(out);
}

ColumnDecimator::Band ColumnDecimator::group_band() const {
    const ColumnExtremes<Pt>& g = group_;
    const double m = sum_ / static_cast<double>(std::max<size_t>(g.count, 1));
    return Band{g.first.x, g.last.x, std::min(g.lo.y, g.hi.y), std::max(g.lo.y, g.hi.y), g.first.y, g.last.y,
                my_.log10 ? std::pow(10.0, m) : m};
}

void ColumnDecimator::close_group() {
    if (open_) bands_.push_back(group_band());
    append_group(x_, y_);
    open_ = false;
}

const std::vector<ColumnDecimator::Band>& ColumnDecimator::bands() const {
    if (bands_dirty_) {
        out_bands_ = bands_;
        if (open_) out_bands_.push_back(group_band());
        bands_dirty_ = false;
    }
    return out_bands_;
}

void ColumnDecimator::add(double x, double y) {
    ++fed_;
    out_dirty_ = true;
    bands_dirty_ = true;
    const double px = mx_(x), py = my_(y);
    if (!std::isfinite(px) || !std::isfinite(py)) {
        close_group();
        if (!x_.empty() && !std::isnan(x_.back())) {
            emit(kNaN, kNaN);
            bands_.push_back(Band{kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN});
        }
        return;
    }
    const long col = static_cast<long>(std::floor(px));
    const Pt p{x, y, py};
    if (open_ && col == column_) {
        group_.add(p, py);
        sum_ += my_.log10 ? std::log10(y) : y;
        return;
    }
    close_group();
    open_ = true;
    column_ = col;
    group_.start(p, py);
    sum_ = my_.log10 ? std::log10(y) : y;
}

const std::vector<double>& ColumnDecimator::xs() const {
    if (out_dirty_) {
        out_x_ = x_;
        out_y_ = y_;
        append_group(out_x_, out_y_);
        out_dirty_ = false;
    }
    return out_x_;
}

const std::vector<double>& ColumnDecimator::ys() const {
    xs();
    return out_y_;
}

}  // namespace plot
