// Unit tests of the ImGui-free landscape geometry (views/plot/contour.h): marching squares on
// fields with known level sets, contour level spacing, and the two pixel-space decimators.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "views/plot/contour.h"

using plot::ColumnDecimator;
using plot::ContourSegments;
using plot::PixelMap;
using plot::PolylineDecimator;

namespace {

constexpr double kPi = 3.14159265358979323846;

// f sampled on the node grid of contour.h (row 0 at y_min).
template <class F>
std::vector<double> sample(F f, int rows, int cols, double x0, double x1, double y0, double y1) {
    std::vector<double> v(static_cast<size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            v[static_cast<size_t>(r) * cols + c] =
                f(x0 + c * (x1 - x0) / (cols - 1), y0 + r * (y1 - y0) / (rows - 1));
    return v;
}

// Endpoints snapped to a fine lattice, counted (a closed curve visits each an even number of times).
std::map<std::pair<long, long>, int> endpoint_counts(const ContourSegments& s) {
    std::map<std::pair<long, long>, int> m;
    for (size_t i = 0; i < s.size(); ++i)
        for (int e = 0; e < 2; ++e)
            ++m[{std::lround(s.xy[4 * i + 2 * e] * 1e7), std::lround(s.xy[4 * i + 2 * e + 1] * 1e7)}];
    return m;
}

}  // namespace

TEST_CASE("contour: level sets of x^2 + y^2 are circles of radius sqrt(level)") {
    const std::vector<double> v = sample([](double x, double y) { return x * x + y * y; }, 121, 121, -2, 2, -2, 2);
    for (double r : {0.5, 1.0, 1.7}) {
        ContourSegments s;
        plot::contour_segments(v.data(), 121, 121, -2, 2, -2, 2, {r * r}, s);
        REQUIRE(s.size() > 20);
        double length = 0.0;
        for (size_t i = 0; i < s.size(); ++i) {
            const double* p = &s.xy[4 * i];
            CHECK(std::hypot(p[0], p[1]) == doctest::Approx(r).epsilon(0.01));
            CHECK(std::hypot(p[2], p[3]) == doctest::Approx(r).epsilon(0.01));
            CHECK(s.level[i] == 0);
            length += std::hypot(p[2] - p[0], p[3] - p[1]);
        }
        CHECK(length == doctest::Approx(2 * kPi * r).epsilon(0.01));
        // A closed curve: every end point is shared by an even number of segments (two, or four
        // where the curve passes exactly through a grid node).
        for (const auto& [pt, n] : endpoint_counts(s)) CHECK(n % 2 == 0);
    }
}

TEST_CASE("contour: several levels are tagged, NaN cells produce nothing, flat and degenerate grids are empty") {
    std::vector<double> v = sample([](double x, double y) { return x * x + 4 * y * y; }, 61, 61, -1, 1, -1, 1);
    ContourSegments s;
    plot::contour_segments(v.data(), 61, 61, -1, 1, -1, 1, {0.1, 0.4}, s);
    const size_t n0 = static_cast<size_t>(std::count(s.level.begin(), s.level.end(), 0));
    const size_t n1 = static_cast<size_t>(std::count(s.level.begin(), s.level.end(), 1));
    CHECK(n0 > 0);
    CHECK(n1 > n0);  // the larger ellipse crosses more cells
    // A NaN node on the 0.4 ellipse (x = 0, y = ~0.316 -> node row 40 of 61 is y = 1/3 ... use row 40).
    const size_t before = s.size();
    v[40 * 61 + 30] = std::numeric_limits<double>::quiet_NaN();
    ContourSegments t;
    plot::contour_segments(v.data(), 61, 61, -1, 1, -1, 1, {0.1, 0.4}, t);
    CHECK(t.size() < before);
    for (double c : t.xy) CHECK(std::isfinite(c));
    // Flat field, level outside the range, too small a grid.
    const std::vector<double> flat(100, 3.0);
    ContourSegments u;
    plot::contour_segments(flat.data(), 10, 10, 0, 1, 0, 1, {3.0, 2.0, 4.0}, u);
    plot::contour_segments(flat.data(), 1, 100, 0, 1, 0, 1, {2.5}, u);
    plot::contour_segments(nullptr, 10, 10, 0, 1, 0, 1, {2.5}, u);
    CHECK(u.size() == 0);
}

TEST_CASE("contour: saddle cells are split by the cell-centre value") {
    // Corners: (0,0) = 1, (1,0) = -1, (1,1) = 1, (0,1) = -1; centre average 0.
    const double v[4] = {1, -1, -1, 1};  // row 0: f(0,0), f(1,0); row 1: f(0,1), f(1,1)
    // Level -0.5: the centre is above it, so the high corners join and the low corners are cut off.
    ContourSegments lo;
    plot::contour_segments(v, 2, 2, 0, 1, 0, 1, {-0.5}, lo);
    REQUIRE(lo.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        const double mx = 0.5 * (lo.xy[4 * i] + lo.xy[4 * i + 2]), my = 0.5 * (lo.xy[4 * i + 1] + lo.xy[4 * i + 3]);
        const double to_low = std::min(std::hypot(mx - 1, my), std::hypot(mx, my - 1));
        const double to_high = std::min(std::hypot(mx, my), std::hypot(mx - 1, my - 1));
        CHECK(to_low < to_high);
    }
    // Level +0.5: the centre is below it, so the high corners are cut off.
    ContourSegments hi;
    plot::contour_segments(v, 2, 2, 0, 1, 0, 1, {0.5}, hi);
    REQUIRE(hi.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        const double mx = 0.5 * (hi.xy[4 * i] + hi.xy[4 * i + 2]), my = 0.5 * (hi.xy[4 * i + 1] + hi.xy[4 * i + 3]);
        const double to_low = std::min(std::hypot(mx - 1, my), std::hypot(mx, my - 1));
        const double to_high = std::min(std::hypot(mx, my), std::hypot(mx - 1, my - 1));
        CHECK(to_high < to_low);
    }
}

TEST_CASE("contour: levels lie strictly inside the range - log levels are geometric above the minimum") {
    for (bool log_spaced : {false, true}) {
        const std::vector<double> l = plot::contour_levels(2.0, 1002.0, 12, log_spaced);
        REQUIRE(l.size() == 12);
        for (size_t i = 0; i < l.size(); ++i) {
            CHECK(l[i] > 2.0);
            CHECK(l[i] < 1002.0);
            if (i > 0) CHECK(l[i] > l[i - 1]);
        }
        if (log_spaced) {
            const double q = (l[1] - 2.0) / (l[0] - 2.0);
            for (size_t i = 2; i < l.size(); ++i) CHECK((l[i] - 2.0) / (l[i - 1] - 2.0) == doctest::Approx(q));
        } else {
            for (size_t i = 1; i < l.size(); ++i) CHECK(l[i] - l[i - 1] == doctest::Approx(1000.0 / 13));
        }
    }
    CHECK(plot::contour_levels(1.0, 1.0, 5, true).empty());
    CHECK(plot::contour_levels(0.0, std::numeric_limits<double>::infinity(), 5, false).empty());
    CHECK(plot::contour_levels(0.0, 1.0, 0, false).empty());
}

TEST_CASE("contour: log levels are preferred for basins (quadratic, Rosenbrock), not for ramps or saddles") {
    const auto rosen = sample([](double x, double y) { return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x); },
                              80, 80, -2, 2, -1, 3);
    const auto quad = sample([](double x, double y) { return x * x + 20 * y * y; }, 80, 80, -2, 2, -2, 2);
    const auto ramp = sample([](double x, double y) { return x + y; }, 80, 80, -2, 2, -2, 2);
    const auto saddle = sample([](double x, double y) { return x * x - y * y; }, 80, 80, -2, 2, -2, 2);
    CHECK(plot::prefers_log_levels(rosen.data(), rosen.size()));
    CHECK(plot::prefers_log_levels(quad.data(), quad.size()));
    CHECK_FALSE(plot::prefers_log_levels(ramp.data(), ramp.size()));
    CHECK_FALSE(plot::prefers_log_levels(saddle.data(), saddle.size()));
}

TEST_CASE("contour: polyline decimation keeps every dropped point within min_px of the drawn line") {
    // A spiral converging to the origin, 10 000 points, 100 px per unit.
    const int n = 10000;
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        const double r = 2.0 * std::pow(0.999, i), a = 0.05 * i;
        x[i] = r * std::cos(a);
        y[i] = r * std::sin(a);
    }
    const PixelMap mx{400, 100, false}, my{300, -100, false};
    PolylineDecimator d;
    d.reset(mx, my, 1.0);
    for (int i = 0; i < n; ++i) d.add(x[i], y[i]);
    const std::vector<double>& ox = d.xs();
    const std::vector<double>& oy = d.ys();
    REQUIRE(ox.size() == oy.size());
    CHECK(d.fed() == static_cast<size_t>(n));
    CHECK(ox.size() < static_cast<size_t>(n) / 2);  // the converged tail collapses
    CHECK(ox.front() == x.front());
    CHECK(ox.back() == x.back());  // the current point is always drawn
    CHECK(oy.back() == y.back());
    // Kept points are a subsequence of the input; every dropped point is within 1 px of the last
    // kept point before it.
    size_t k = 0;
    for (int i = 1; i < n; ++i) {
        if (k + 1 < ox.size() && ox[k + 1] == x[i] && oy[k + 1] == y[i]) {
            ++k;
            continue;
        }
        CHECK(std::hypot(mx(x[i]) - mx(ox[k]), my(y[i]) - my(oy[k])) < 1.0);
    }
    CHECK(k == ox.size() - 1);
    // Feeding in chunks gives the same polyline as feeding at once.
    PolylineDecimator e;
    e.reset(mx, my, 1.0);
    for (int i = 0; i < 3000; ++i) e.add(x[i], y[i]);
    (void)e.xs();
    for (int i = 3000; i < n; ++i) e.add(x[i], y[i]);
    CHECK(e.xs() == ox);
    CHECK(e.ys() == oy);
}

TEST_CASE("contour: polyline decimation breaks at non-finite points and keeps run ends") {
    PolylineDecimator d;
    d.reset(PixelMap{0, 100, false}, PixelMap{0, 100, false}, 5.0);
    d.add(0.0, 0.0);
    d.add(0.001, 0.0);  // 0.1 px: dropped, but it ends the run before the break
    d.add(std::numeric_limits<double>::quiet_NaN(), 0.0);
    d.add(1.0, 1.0);
    const std::vector<double>& ox = d.xs();
    REQUIRE(ox.size() == 4);
    CHECK(ox[0] == 0.0);
    CHECK(ox[1] == 0.001);
    CHECK(std::isnan(ox[2]));
    CHECK(ox[3] == 1.0);
    // Log axis: non-positive values are breaks too.
    PolylineDecimator l;
    l.reset(PixelMap{0, 1, false}, PixelMap{0, 100, true}, 1.0);
    l.add(0, 1.0);
    l.add(1, 0.0);
    l.add(2, 10.0);
    CHECK(std::isnan(l.xs()[1]));
}

TEST_CASE("contour: column decimation keeps each pixel column's first, min, max and last point") {
    const int n = 10000;
    std::mt19937 rng(5);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = i;
        y[i] = std::exp(-i / 3000.0) * (1.0 + 0.3 * noise(rng)) + 0.01;
    }
    const double width = 200.0;
    const PixelMap mx{10, width / n, false}, my{500, -100, true};
    ColumnDecimator d;
    d.reset(mx, my);
    for (int i = 0; i < n; ++i) d.add(x[i], y[i]);
    const std::vector<double>& ox = d.xs();
    const std::vector<double>& oy = d.ys();
    REQUIRE(ox.size() == oy.size());
    CHECK(ox.size() <= 4 * (static_cast<size_t>(width) + 2));
    CHECK(ox.size() >= 2 * static_cast<size_t>(width));
    CHECK(std::is_sorted(ox.begin(), ox.end()));
    CHECK(ox.front() == 0.0);
    CHECK(ox.back() == n - 1.0);
    // Per column: the min and max of the input appear in the output.
    std::map<long, std::pair<double, double>> in, out;
    auto col = [&](double xv) { return static_cast<long>(std::floor(mx(xv))); };
    for (int i = 0; i < n; ++i) {
        auto& e = in.try_emplace(col(x[i]), y[i], y[i]).first->second;
        e.first = std::min(e.first, y[i]);
        e.second = std::max(e.second, y[i]);
    }
    for (size_t i = 0; i < ox.size(); ++i) {
        auto& e = out.try_emplace(col(ox[i]), oy[i], oy[i]).first->second;
        e.first = std::min(e.first, oy[i]);
        e.second = std::max(e.second, oy[i]);
    }
    CHECK(in == out);
    // Incremental feeding gives the same curve.
    ColumnDecimator e;
    e.reset(mx, my);
    for (int i = 0; i < 4321; ++i) e.add(x[i], y[i]);
    (void)e.xs();
    for (int i = 4321; i < n; ++i) e.add(x[i], y[i]);
    CHECK(e.xs() == ox);
    CHECK(e.ys() == oy);
}

TEST_CASE("contour: skip_visited bounds a jittering path by the cells it covers and invents no segment") {
    // A noisy walk confined to a disc of radius 0.06 (6 px at 100 px per unit), 10 000 points.
    const int n = 10000;
    std::mt19937 rng(11);
    std::normal_distribution<double> step(0.0, 0.02);
    std::vector<double> x(n), y(n);
    double cx = -1.0, cy = 0.5;
    for (int i = 0; i < n; ++i) {
        if (i < 100) {  // a straight approach first
            cx += 0.01;
            cy -= 0.005;
        } else {
            cx += step(rng);
            cy += step(rng);
            const double r = std::hypot(cx, cy);
            if (r > 0.06) cx *= 0.06 / r, cy *= 0.06 / r;
        }
        x[i] = cx;
        y[i] = cy;
    }
    const PixelMap mx{400, 100, false}, my{300, -100, false};
    PolylineDecimator plain, skip;
    plain.reset(mx, my, 1.0, false);
    skip.reset(mx, my, 1.0, true);
    for (int i = 0; i < n; ++i) {
        plain.add(x[i], y[i]);
        skip.add(x[i], y[i]);
    }
    size_t finite = 0;
    for (double v : skip.xs()) finite += std::isfinite(v) ? 1 : 0;
    CHECK(plain.xs().size() > 5000);  // distance decimation alone keeps most of the jitter
    CHECK(finite < 600);              // ~ the 2 x 2 px cells of a 12 px disc, plus the approach
    // Output points are input points in order; each segment between finite points is a path step,
    // or spans input points all within min_px of its first end.
    const std::vector<double>& ox = skip.xs();
    const std::vector<double>& oy = skip.ys();
    std::vector<long> idx;
    long j = 0;
    for (size_t k = 0; k < ox.size(); ++k) {
        if (std::isnan(ox[k])) {
            idx.push_back(-1);
            continue;
        }
        while (j < n && !(x[j] == ox[k] && y[j] == oy[k])) ++j;
        REQUIRE(j < n);
        idx.push_back(j);
    }
    for (size_t k = 1; k < idx.size(); ++k) {
        if (idx[k - 1] < 0 || idx[k] < 0) continue;
        const long a = idx[k - 1], b = idx[k];
        CHECK(b > a);
        for (long m = a + 1; m < b; ++m)
            CHECK(std::hypot(mx(x[m]) - mx(x[a]), my(y[m]) - my(y[a])) < 1.0);
    }
}

TEST_CASE("contour: column bands hold each column's range, first and last value - breaks are NaN bands") {
    ColumnDecimator d;
    d.reset(PixelMap{0, 1, false}, PixelMap{0, -100, false});
    const double ys[] = {1, 5, -2, 3, 4, 0.5};
    for (int i = 0; i < 6; ++i) d.add(i * 0.3, ys[i]);  // columns: x 0,0.3,0.6,0.9 -> col 0; 1.2,1.5 -> col 1
    d.add(2.0, std::numeric_limits<double>::quiet_NaN());
    d.add(3.0, 7.0);
    const auto& b = d.bands();
    REQUIRE(b.size() == 4);
    CHECK(b[0].x0 == 0.0);
    CHECK(b[0].x1 == doctest::Approx(0.9));
    CHECK(b[0].lo == -2);
    CHECK(b[0].hi == 5);
    CHECK(b[0].first == 1);
    CHECK(b[0].last == 3);
    CHECK(b[0].mean == doctest::Approx((1 + 5 - 2 + 3) / 4.0));
    CHECK(b[1].lo == 0.5);
    CHECK(b[1].hi == 4);
    CHECK(b[1].last == 0.5);
    CHECK(std::isnan(b[2].lo));
    CHECK(b[3].first == 7);
    CHECK(b[3].last == 7);
}

TEST_CASE("contour: skip_visited never breaks a slowly advancing smooth path") {
    // 20 000 points along a parabola, 0.05 px apart: nothing is revisited, so no break appears.
    PolylineDecimator d;
    d.reset(PixelMap{400, 100, false}, PixelMap{300, -100, false}, 1.0, true);
    for (int i = 0; i < 20000; ++i) {
        const double x = -1.0 + i * 0.0005;
        d.add(x, x * x);
    }
    for (double v : d.xs()) CHECK_FALSE(std::isnan(v));
    CHECK(d.xs().size() > 150);
}

TEST_CASE("contour: a reversed y range contours a grid stored top row first - the same lines as the flipped grid") {
    const int rows = 31, cols = 41;
    // Stored bottom row first over [-1, 1] x [-1, 1]; an off-centre ellipse, so a wrong flip shows.
    const std::vector<double> up = sample([](double x, double y) { return (x - 0.3) * (x - 0.3) + 2 * (y - 0.4) * (y - 0.4); },
                                          rows, cols, -1, 1, -1, 1);
    std::vector<double> down(up.size());
    for (int r = 0; r < rows; ++r)
        std::copy_n(up.begin() + static_cast<std::ptrdiff_t>(r) * cols, cols,
                    down.begin() + static_cast<std::ptrdiff_t>(rows - 1 - r) * cols);
    ContourSegments a, b;
    plot::contour_segments(up.data(), rows, cols, -1, 1, -1, 1, {0.2, 0.5}, a);
    plot::contour_segments(down.data(), rows, cols, -1, 1, 1, -1, {0.2, 0.5}, b);
    REQUIRE(a.size() > 20);
    REQUIRE(b.size() == a.size());
    // The same set of end points (each segment's ends counted), level by level.
    CHECK(endpoint_counts(a) == endpoint_counts(b));
    CHECK(std::count(a.level.begin(), a.level.end(), 1) == std::count(b.level.begin(), b.level.end(), 1));
    for (size_t i = 0; i < b.size(); ++i) {
        const double* p = &b.xy[4 * i];
        const double lv = b.level[i] == 0 ? 0.2 : 0.5;
        CHECK((p[0] - 0.3) * (p[0] - 0.3) + 2 * (p[1] - 0.4) * (p[1] - 0.4) == doctest::Approx(lv).epsilon(0.05));
    }
}
