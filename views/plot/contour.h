// contour.h - ImGui-free geometry for landscape plots: contour lines of a sampled scalar field
// (marching squares), contour level choice (linear or log-spaced above the minimum), and
// pixel-space decimation of long polylines (optimiser trajectories, loss curves) so that a
// 10 000-point path costs about as much to draw as its length in pixels.
//
// Grid convention: values[r * cols + c] is f(x_c, y_r) with x_c = x_min + c (x_max - x_min)/(cols-1)
// and y_r = y_min + r (y_max - y_min)/(rows-1): samples at the nodes, row 0 at the BOTTOM (y_min).
// (PlotHeatmap draws row 0 at the top: flip rows when showing the same grid as a heatmap.)
// A range may be given reversed (y_min > y_max): row 0 then lies at the first value given, so a
// grid stored top row first (a heatmap's layout) is contoured as it is, with y_min = its top y.
//
// Marching squares: each cell's four corners are classified against the level; edges whose ends
// straddle it get a crossing by linear interpolation; the two ambiguous (saddle) cases are
// resolved with the cell-centre average (the "asymptotic decider" light). Cells with a non-finite
// corner produce nothing. Unit-tested in tests/plot/contour_test.cpp (circles of x^2 + y^2 have
// the right radius, segments chain into closed curves, NaN holes, saddles).
// Style: project style (snake_case), like plot_math.h.
#pragma once

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <vector>

namespace plot {

// Contour segments of one or more levels: segment i is (xy[4i], xy[4i+1]) -> (xy[4i+2], xy[4i+3])
// in data coordinates, at levels[level[i]].
struct ContourSegments {
    std::vector<double> xy;
    std::vector<int> level;
    size_t size() const { return level.size(); }
    void clear() {
        xy.clear();
        level.clear();
    }
};

// Appends the segments of every level to out (rows, cols >= 2).
void contour_segments(const double* values, int rows, int cols, double x_min, double x_max, double y_min,
                      double y_max, const std::vector<double>& levels, ContourSegments& out);

// n contour levels strictly inside (v_min, v_max), increasing. Log-spaced: v_min + (v_max - v_min)
// * 10^(-decades (1 - (i+1)/(n+1))), geometric in the height above the minimum (dense near the
// optimum: the right picture for quadratics and Rosenbrock's valley); otherwise evenly spaced,
// v_min + (v_max - v_min) (i+1)/(n+1). Empty if the range is not finite or empty, or n < 1.
std::vector<double> contour_levels(double v_min, double v_max, int n, bool log_spaced, double decades = 4.0);

// True if a grid's values crowd near their minimum (median - min < 30% of the range): the case
// where log-spaced levels show the basin (quadratics, Rosenbrock) and linear levels would not.
bool prefers_log_levels(const double* values, size_t count);

// An affine map of one axis from data to pixels: px = origin + scale * (log10 ? log10(v) : v).
struct PixelMap {
    double origin = 0.0;
    double scale = 1.0;
    bool log10 = false;
    // Pixel coordinate of v (NaN for v <= 0 on a log axis).
    double operator()(double v) const;
};

// Incremental pixel-distance decimation of a polyline: a point is kept when it is at least
// min_px away (in pixels) from the last kept point; the first point, the last point added and
// both ends of every finite run (non-finite points break the line: a NaN is kept as a break)
// are always in the output. Feeding more points later continues where it left off, so a
// growing path costs O(new points) per frame. Output in data coordinates.
//
// With skip_visited (for long noisy paths, e.g. SGD or Adam jittering around an optimum), a
// step of the path that lies entirely on pixel cells (2 x 2 px) covered by the drawn line
// (at least 8 kept points ago, so a slowly advancing path is never cut) is dropped too; the line breaks (NaN) and resumes with the step that leaves the drawn
// cells: no segment is invented, and a cloud of jitter costs about as many points as it
// covers cells instead of one per iteration. Every output segment between finite points is either a
// segment of the path or spans points all within min_px of its first end (as without it).
class PolylineDecimator {
public:
    // Start over with a new mapping (e.g. the plot limits or size changed).
    void reset(const PixelMap& x, const PixelMap& y, double min_px = 1.0, bool skip_visited = false);
    // Add the next point of the path.
    void add(double x, double y);
    // Points fed so far.
    size_t fed() const { return fed_; }
    // The decimated polyline (data coordinates; NaN entries are breaks). Includes the last point
    // added even when it is closer than min_px to the last kept one (unless it was skipped).
    const std::vector<double>& xs() const;
    const std::vector<double>& ys() const;

private:
    static constexpr double kCellPx = 2.0;
    long long cell_of(double px, double py) const;
    // Marks (mark) or tests (all visited?) the cells along a pixel segment.
    bool walk_cells(double ax, double ay, double bx, double by, bool mark);
    // Appends a kept point; joined: the line continues from the last kept point.
    void keep(double x, double y, double px, double py, bool joined);
    PixelMap mx_, my_;
    double min_px2_ = 1.0;
    bool skip_visited_ = false;
    size_t fed_ = 0;
    std::vector<double> x_, y_;           // kept points
    double last_px_ = 0.0, last_py_ = 0.0;  // pixel position of the last kept point
    bool have_last_ = false;               // a finite kept point opens the current run
    double tail_x_ = 0.0, tail_y_ = 0.0;   // last point added if not kept
    bool has_tail_ = false;
    // skip_visited state: drawn cells, the previous input point, whether a run is being skipped.
    std::unordered_map<long long, size_t> visited_;  // cell -> output size when first drawn
    double prev_x_ = 0.0, prev_y_ = 0.0, prev_px_ = 0.0, prev_py_ = 0.0;
    bool have_prev_ = false, skipping_ = false;
    mutable std::vector<double> out_x_, out_y_;
    mutable bool out_dirty_ = true;
};

// One pixel column of a min/max line decimation: its first, lowest, highest and last point (P:
// any point type; lowest and highest by the key given with each point, a pixel y), so that the
// column keeps its envelope with at most 4 points (ColumnDecimator, the plot's line renderer).
template <class P>
struct ColumnExtremes {
    P first{}, lo{}, hi{}, last{};
    double lo_key = 0.0, hi_key = 0.0;
    size_t lo_i = 0, hi_i = 0, count = 0;

    void start(const P& p, double key) {
        first = lo = hi = last = p;
        lo_key = hi_key = key;
        lo_i = hi_i = 0;
        count = 1;
    }
    void add(const P& p, double key) {
        if (key < lo_key) lo = p, lo_key = key, lo_i = count;
        if (key > hi_key) hi = p, hi_key = key, hi_i = count;
        last = p;
        ++count;
    }
    // Calls emit(p) for the kept points after the first, in their original order, each once.
    template <class Emit>
    void emit_after_first(Emit&& emit) const {
        const size_t idx[3] = {std::min(lo_i, hi_i), std::max(lo_i, hi_i), count - 1};
        const P* pts[3] = {lo_i < hi_i ? &lo : &hi, lo_i < hi_i ? &hi : &lo, &last};
        size_t prev = 0;
        for (int k = 0; k < 3; ++k) {
            if (idx[k] == prev) continue;
            prev = idx[k];
            emit(*pts[k]);
        }
    }
};

// Incremental per-pixel-column min/max decimation of a curve whose x never decreases (a metric
// against the iteration): for each pixel column, the first, lowest, highest and last point in
// their original order, so the drawn envelope is exact at pixel resolution (noisy SGD losses
// keep their spread). At most 4 points per column.
class ColumnDecimator {
public:
    // One pixel column's summary: x range, lowest / highest value, the first and last value,
    // and the mean (geometric on a log axis: the mean of log10 y). A break (non-finite input)
    // is a Band with NaN lo.
    struct Band {
        double x0, x1, lo, hi, first, last, mean;
    };
    void reset(const PixelMap& x, const PixelMap& y);
    void add(double x, double y);
    size_t fed() const { return fed_; }
    const std::vector<double>& xs() const;
    const std::vector<double>& ys() const;
    // The same columns as bands (a noisy curve drawn as a min-max band plus its trend through
    // the columns' last values costs far fewer pixels than the zigzag of xs()/ys()).
    const std::vector<Band>& bands() const;

private:
    struct Pt {
        double x, y, py;
    };
    void close_group();
    void emit(double x, double y);
    PixelMap mx_, my_;
    size_t fed_ = 0;
    std::vector<double> x_, y_;
    bool open_ = false;
    long column_ = 0;
    ColumnExtremes<Pt> group_;
    double sum_ = 0.0;  // sum of y (log10 y on a log axis) over the open column
    mutable std::vector<double> out_x_, out_y_;
    mutable bool out_dirty_ = true;
    std::vector<Band> bands_;
    mutable std::vector<Band> out_bands_;
    mutable bool bands_dirty_ = true;
    void append_group(std::vector<double>& ox, std::vector<double>& oy) const;
    Band group_band() const;
};

}  // namespace plot
