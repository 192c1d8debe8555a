// plot_math.h - ImGui-free axis mathematics for the in-house plot library.
//
// Everything here is pure and unit-tested (tests/plot/plot_math_test.cpp):
//   * Axis: a data range [min, max] mapped affinely onto a pixel interval, optionally through a
//     forward/inverse transform hook (linear or log10). For y axes pass pixel_min = bottom,
//     pixel_max = top: the scale goes negative and the screen flip needs no special case.
//         pixel(v) = pixel_min + s * (f(v) - f(min)),   s = (pixel_max - pixel_min) / (f(max) - f(min))
//   * range clamping (rejects NaN/Inf, keeps min < max, spans limited to [~1e-12, 1e300]),
//   * zoom about a pixel, pan by pixels, fit extents with padding, the equal-aspect constraint,
//   * "nice" tick location ({1, 2, 5} x 10^k steps, count from the pixel length) and tick labels.
// Naming: like the rest of views/plot, this file follows project style for an ImGui-free core
// (snake_case functions); the ImGui-facing API in plot.h mirrors ImGui naming.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace plot {

// Axis scale; Log10 maps v -> log10(v) and only shows positive values.
enum class Scale { Linear, Log10 };

// Transform hook type (forward maps data to the linear "transformed" space, inverse goes back).
using TransformFn = double (*)(double);

// Smallest span an axis may show (relative to the magnitude of its centre, absolute near 0).
constexpr double kMinSpan = 1e-12;
// Largest span / magnitude an axis may show.
constexpr double kMaxSpan = 1e300;
// Smallest positive value shown on a log axis.
constexpr double kLogMinValue = 1e-300;
// Data whose spread is at most this fraction of its magnitude is fitted as constant (a few
// float ulps: noise of a converged float computation must not look like a trend).
constexpr double kConstantRelativeSpan = 1e-6;

// Running min/max of finite values (NaN/Inf ignored; non-positive values ignored on log axes).
struct FitExtents {
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    // Include v if finite (and > 0 when positive_only).
    void extend(double v, bool positive_only = false);
    // True once at least one value was included.
    bool valid() const { return min <= max; }
    // Forget everything.
    void reset();
};

// One tick mark: position in data units, major/minor, and its label (majors only).
struct Tick {
    double value = 0.0;
    bool major = true;
    char label[32] = {0};
};

// Data range <-> pixel mapping of one axis.
class Axis {
public:
    Axis();
    // Set the shown range. Non-finite input is rejected (returns false, range unchanged);
    // min > max is swapped; the span is widened to kMinSpan and clamped to kMaxSpan.
    bool set_range(double min, double max);
    // Set the pixel interval the range maps to (pixel_max may be < pixel_min, e.g. y axes).
    void set_pixels(double pixel_min, double pixel_max);
    // Switch scale; switching to Log10 with a non-positive range resets it to [0.1, 10].
    void set_scale(Scale scale);
    // Data value -> pixel.
    double plot_to_pixels(double v) const { return pixel_min_ + scale_to_pixel_ * (forward_(v) - t_min_); }
    // Pixel -> data value.
    double pixels_to_plot(double p) const { return inverse_(t_min_ + (p - pixel_min_) / scale_to_pixel_); }
    // Zoom by factor (< 1 zooms in) keeping the value under pixel `anchor` fixed.
    void zoom(double factor, double anchor);
    // Move the view so that content follows a mouse move of delta_pixels.
    void pan(double delta_pixels);
    // Fit the range to extents with fractional padding on each side. Empty extents keep the range;
    // constant data - also constant up to kConstantRelativeSpan - gets a range around the value
    // (+-10 % linear, +-half a decade log). Returns true if the range changed.
    bool apply_fit(const FitExtents& ext, double padding = 0.05);

    double min() const { return min_; }
    double max() const { return max_; }
    double span() const { return max_ - min_; }
    double pixel_min() const { return pixel_min_; }
    double pixel_max() const { return pixel_max_; }
    // Pixel length of the axis (always >= 0).
    double pixel_length() const;
    // Data units per pixel in transformed space (>= 0).
    double units_per_pixel() const;
    // Transformed-space minimum and pixels per transformed unit (for tight per-point loops:
    // pixel = pixel_min() + scale_to_pixel() * (f(v) - t_min()), f = identity or log10).
    double t_min() const { return t_min_; }
    double scale_to_pixel() const { return scale_to_pixel_; }
    Scale scale() const { return scale_; }
    bool is_log() const { return scale_ == Scale::Log10; }

private:
    void update_cache();
    double min_ = 0.0, max_ = 1.0;
    double pixel_min_ = 0.0, pixel_max_ = 1.0;
    double t_min_ = 0.0, t_max_ = 1.0;
    double scale_to_pixel_ = 1.0;
    Scale scale_ = Scale::Linear;
    TransformFn forward_;
    TransformFn inverse_;
};

// True if [a, b] is constant up to kConstantRelativeSpan of its magnitude (see apply_fit).
bool is_nearly_constant(double a, double b);

// Round x > 0 to a "nice" number {1, 2, 5} x 10^k (round = nearest, else the ceiling).
double nice_num(double x, bool round);

// Major tick step for a linear range shown on pixel_length pixels with about px_per_tick pixels
// between majors; always {1, 2, 5} x 10^k.
double nice_tick_step(double min, double max, double pixel_length, double px_per_tick);

// Fill ticks (cleared first; vector capacity is reused) for the axis' current range:
// majors every nice step with labels, minors in between (4 or 5 per interval); at least two
// majors when the axis is 24 px or longer. Log axes get majors at every decade (every m-th
// decade when their labels would crowd, never fewer than two) and minors at 2..9 x 10^k; a log
// axis spanning less than two decades labels 1, 2, 5 x 10^k or every j x 10^k instead, and
// falls back to linear ticks inside a single [j, j + 1] x 10^k.
void locate_ticks(const Axis& axis, double px_per_tick, std::vector<Tick>& ticks);

// Format value v for a tick with spacing `step` into buf: enough decimals to tell neighbours
// apart, scientific notation for very large/small magnitudes, |v| << step printed as 0.
void format_tick(double v, double step, char* buf, std::size_t size);

// Widen x or y (about its centre) so that one data unit has the same pixel length on both.
// Only meaningful for linear axes; log axes are left untouched.
void constrain_equal_aspect(Axis& x, Axis& y);

}  // namespace plot
