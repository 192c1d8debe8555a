// plot_math.cpp - ImGui-free axis maths (see plot_math.h for the model and equations).
#include "views/plot/plot_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace plot {
namespace {

double identity(double v) { return v; }
double log10_forward(double v) { return v > 0.0 ? std::log10(v) : std::log10(kLogMinValue); }
double log10_inverse(double t) { return std::pow(10.0, t); }

bool finite(double v) { return std::isfinite(v); }

// Smallest allowed span for a linear range around a and b.
double min_linear_span(double a, double b) {
    return std::max(kMinSpan * std::max(std::fabs(a), std::fabs(b)), 1e-290);
}

}  // namespace

// --- FitExtents ------------------------------------------------------------------------------

void FitExtents::extend(double v, bool positive_only) {
    if (!std::isfinite(v)) return;
    if (positive_only && !(v > 0.0)) return;
    if (v < min) min = v;
    if (v > max) max = v;
}

void FitExtents::reset() {
    *this = FitExtents();
}

// --- Axis ------------------------------------------------------------------------------------

Axis::Axis() : forward_(&identity), inverse_(&identity) { update_cache(); }

bool Axis::set_range(double a, double b) {
    if (!finite(a) || !finite(b)) return false;
    if (a > b) std::swap(a, b);
    if (scale_ == Scale::Log10) {
        if (!(b > 0.0)) return false;
        a = std::max(a, kLogMinValue);
        b = std::min(std::max(b, kLogMinValue), kMaxSpan);
        double ta = std::log10(a), tb = std::log10(b);
        const double min_t = kMinSpan * std::max(1.0, std::fabs(0.5 * (ta + tb)));
        if (tb - ta < min_t) {
            const double c = 0.5 * (ta + tb);
            ta = c - 0.5 * min_t;
            tb = c + 0.5 * min_t;
        }
        a = std::pow(10.0, ta);
        b = std::pow(10.0, tb);
    } else {
        a = std::clamp(a, -kMaxSpan, kMaxSpan);
        b = std::clamp(b, -kMaxSpan, kMaxSpan);
        const double min_span = min_linear_span(a, b);
        if (b - a < min_span) {
            const double c = 0.5 * (a + b);
            a = c - 0.5 * min_span;
            b = c + 0.5 * min_span;
        }
        if (b - a > kMaxSpan) {
            const double c = 0.5 * a + 0.5 * b;
            a = c - 0.5 * kMaxSpan;
            b = c + 0.5 * kMaxSpan;
        }
    }
    if (!(a < b)) return false;
    min_ = a;
    max_ = b;
    update_cache();
    return true;
}

void Axis::set_pixels(double pixel_min, double pixel_max) {
    if (!finite(pixel_min) || !finite(pixel_max)) return;
    if (pixel_min == pixel_max) pixel_max = pixel_min + 1.0;
    pixel_min_ = pixel_min;
    pixel_max_ = pixel_max;
    update_cache();
}

void Axis::set_scale(Scale scale) {
    if (scale == scale_) return;
    scale_ = scale;
    if (scale == Scale::Log10) {
        forward_ = &log10_forward;
        inverse_ = &log10_inverse;
        if (!(max_ > 0.0)) {
            min_ = 0.1;
            max_ = 10.0;
        } else if (!(min_ > 0.0)) {
            min_ = std::max(max_ * 1e-3, kLogMinValue);
        }
    } else {
        forward_ = &identity;
        inverse_ = &identity;
    }
    set_range(min_, max_);
    update_cache();
}

void Axis::update_cache() {
    t_min_ = forward_(min_);
    t_max_ = forward_(max_);
    double dt = t_max_ - t_min_;
    if (!(dt > 0.0)) dt = 1.0;
    scale_to_pixel_ = (pixel_max_ - pixel_min_) / dt;
}

double Axis::pixel_length() const { return std::fabs(pixel_max_ - pixel_min_); }

double Axis::units_per_pixel() const {
    return std::fabs(t_max_ - t_min_) / std::max(pixel_length(), 1e-9);
}

void Axis::zoom(double factor, double anchor) {
    if (!finite(factor) || !(factor > 0.0) || !finite(anchor)) return;
    const double ta = t_min_ + (anchor - pixel_min_) / scale_to_pixel_;
    const double n_min = ta - (ta - t_min_) * factor;
    const double n_max = ta + (t_max_ - ta) * factor;
    set_range(inverse_(n_min), inverse_(n_max));
}

void Axis::pan(double delta_pixels) {
    if (!finite(delta_pixels)) return;
    const double dt = -delta_pixels / scale_to_pixel_;
    set_range(inverse_(t_min_ + dt), inverse_(t_max_ + dt));
}

bool Axis::apply_fit(const FitExtents& ext, double padding) {
    if (!ext.valid()) return false;
    padding = std::clamp(finite(padding) ? padding : 0.0, 0.0, 1.0);
    double a = ext.min, b = ext.max;
    if (scale_ == Scale::Log10) {
        if (!(b > 0.0)) return false;
        a = std::max(a, kLogMinValue);
        double ta = std::log10(a), tb = std::log10(b);
        if (is_nearly_constant(a, b)) {  // constant up to float noise: half a decade either side
            const double tc = 0.5 * (ta + tb);
            ta = tc - 0.5;
            tb = tc + 0.5;
        }
        const double pad = (tb - ta) * padding;
        return set_range(std::pow(10.0, ta - pad), std::pow(10.0, tb + pad));
    }
    if (b - a <= min_linear_span(a, b) || is_nearly_constant(a, b)) {
        const double v = 0.5 * (a + b);
        const double half = v == 0.0 ? 0.5 : 0.1 * std::fabs(v);
        a = v - half;
        b = v + half;
    }
    const double pad = (b - a) * padding;
    return set_range(a - pad, b + pad);
}

bool is_nearly_constant(double a, double b) {
    if (!finite(a) || !finite(b)) return false;
    const double mag = std::max(std::fabs(a), std::fabs(b));
    return std::fabs(b - a) <= kConstantRelativeSpan * mag;
}

// --- ticks -----------------------------------------------------------------------------------

double nice_num(double x, bool round) {
    if (!finite(x) || !(x > 0.0)) return 1.0;
    const double e = std::floor(std::log10(x));
    const double p = std::pow(10.0, e);
    const double f = x / p;
    double nf;
    if (round)
        nf = f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0;
    else
        nf = f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0;
    return nf * p;
}

double nice_tick_step(double min, double max, double pixel_length, double px_per_tick) {
    const double span = max - min;
    if (!finite(span) || !(span > 0.0)) return 1.0;
    const double n = std::max(1.0, pixel_length / std::max(px_per_tick, 1.0));
    return nice_num(span / n, true);
}

void format_tick(double v, double step, char* buf, std::size_t size) {
    if (size == 0) return;
    step = std::fabs(step);
    if (!finite(v)) {
        std::snprintf(buf, size, "%g", v);
        return;
    }
    if (!(step > 0.0) || !finite(step)) step = std::fabs(v) > 0.0 ? std::fabs(v) : 1.0;
    if (std::fabs(v) < step * 1e-6) v = 0.0;
    const double mag = std::max(std::fabs(v), step);
    const double step_exp = std::floor(std::log10(step) + 1e-9);
    if (step_exp >= -4.0 && mag < 1e6) {
        const int decimals = std::max(0, static_cast<int>(-step_exp));
        std::snprintf(buf, size, "%.*f", decimals, v);
        return;
    }
    // Scientific: enough mantissa digits to separate neighbours, compact exponent ("3.5e-7").
    const double v_exp = v == 0.0 ? step_exp : std::floor(std::log10(std::fabs(v)) + 1e-9);
    const int digits = std::clamp(static_cast<int>(v_exp - step_exp), 0, 15);
    char tmp[64];
    std::snprintf(tmp, sizeof(tmp), "%.*e", digits, v);
    char* e = std::strchr(tmp, 'e');
    if (e == nullptr) {
        std::snprintf(buf, size, "%s", tmp);
        return;
    }
    const int ex = std::atoi(e + 1);
    *e = '\0';
    if (v == 0.0)
        std::snprintf(buf, size, "0");
    else
        std::snprintf(buf, size, "%se%d", tmp, ex);
}

namespace {

void push_tick(std::vector<Tick>& ticks, double v, bool major, double step) {
    Tick t;
    t.value = v;
    t.major = major;
    if (major) format_tick(v, step, t.label, sizeof(t.label));
    ticks.push_back(t);
}

void locate_linear(double min, double max, double pixel_length, double px_per_tick, std::vector<Tick>& ticks) {
    double step = nice_tick_step(min, max, pixel_length, px_per_tick);
    // At least two labelled majors whenever the axis is long enough to hold them: a single
    // label does not tell the scale. Shrink the step ({1, 2, 5} x 10^k) until two fit.
    if (pixel_length >= 24.0) {
        for (int guard = 0; guard < 8; ++guard) {
            const double lo = std::ceil(min / step - 1e-9), hi = std::floor(max / step + 1e-9);
            if (hi - lo >= 1.0) break;
            step = nice_num(step * 0.45, true);
        }
    }
    const double mant = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    const int subdiv = std::fabs(mant - 2.0) < 0.5 ? 4 : 5;
    const double minor = step / subdiv;
    const double first = std::floor(min / step);
    const double tol = step * 1e-9;
    for (int k = 0; k < 2000; ++k) {
        double v = (first + k) * step;
        if (v > max + tol) break;
        if (std::fabs(v) < tol) v = 0.0;
        if (v >= min - tol) push_tick(ticks, v, true, step);
        for (int m = 1; m < subdiv; ++m) {
            const double w = v + m * minor;
            if (w >= min && w <= max) push_tick(ticks, w, false, step);
        }
    }
}

// Label of a log-axis major j x 10^k: plain for moderate exponents, else "2e-7".
void log_label(int j, double k, char* buf, std::size_t size) {
    if (k >= -4 && k <= 5)
        std::snprintf(buf, size, "%g", j * std::pow(10.0, k));
    else if (j == 1)
        std::snprintf(buf, size, "1e%.0f", k);
    else
        std::snprintf(buf, size, "%de%.0f", j, k);
}

// Ticks j x 10^k inside [min, max]: majors (labelled) for j in `labelled`, minors for the
// other j in 1..9. Returns the number of majors.
int locate_log_multiples(double min, double max, std::initializer_list<int> labelled, std::vector<Tick>& ticks) {
    int count = 0;
    const double k_lo = std::floor(std::log10(min)), k_hi = std::floor(std::log10(max));
    for (double k = k_lo; k <= k_hi; k += 1.0) {
        const double base = std::pow(10.0, k);
        for (int j = 1; j <= 9; ++j) {
            const double v = j * base;
            if (v < min * (1.0 - 1e-12) || v > max * (1.0 + 1e-12)) continue;
            Tick t;
            t.value = v;
            t.major = std::find(labelled.begin(), labelled.end(), j) != labelled.end();
            if (t.major) {
                log_label(j, k, t.label, sizeof(t.label));
                ++count;
            }
            ticks.push_back(t);
        }
    }
    return count;
}

}  // namespace

void locate_ticks(const Axis& axis, double px_per_tick, std::vector<Tick>& ticks) {
    ticks.clear();
    const double min = axis.min(), max = axis.max();
    const double len = axis.pixel_length();
    if (!(max > min)) return;
    if (!axis.is_log()) {
        locate_linear(min, max, len, px_per_tick, ticks);
        return;
    }
    const double tmin = std::log10(min), tmax = std::log10(max);
    const double decades = tmax - tmin;
    const double k0 = std::ceil(tmin - 1e-9), k1 = std::floor(tmax + 1e-9);
    const double px_per_decade = len / std::max(decades, 1e-9);
    if (k1 - k0 < 1.0 || (decades < 2.0 && px_per_decade >= 3.0 * px_per_tick)) {
        // Fewer than two decades inside (or room for more labels): label 1, 2, 5 x 10^k, or
        // every j x 10^k, whichever first gives two labels (the renderer drops labels that
        // would touch). Inside one [j, j + 1] x 10^k: linear ticks in data space.
        if (locate_log_multiples(min, max, {1, 2, 5}, ticks) >= 2) return;
        ticks.clear();
        if (locate_log_multiples(min, max, {1, 2, 3, 4, 5, 6, 7, 8, 9}, ticks) >= 2) return;
        ticks.clear();
        locate_linear(min, max, len, px_per_tick, ticks);
        return;
    }
    // Majors at decades: every decade while labels have room (half the comfortable tick
    // spacing), else every m-th decade, m in {1, 2, 3, 5} x 10^j; never fewer than two.
    double m = 1.0;
    const double need = 0.5 * std::max(px_per_tick, 1.0);
    while (m * px_per_decade < need && m < 1e6) {
        const double e = std::pow(10.0, std::floor(std::log10(m) + 1e-9));
        const double f = m / e;
        m = (f < 2.0 ? 2.0 : f < 3.0 ? 3.0 : f < 5.0 ? 5.0 : 10.0) * e;
    }
    auto every = [](double k, double step) { return std::fmod(std::fabs(k), step) < 0.5; };
    int aligned_count = 0;
    for (double k = k0; k <= k1; k += 1.0) aligned_count += every(k, m) ? 1 : 0;
    const bool aligned = aligned_count >= 2;  // else: from k0 on, with a step that reaches k1
    if (!aligned) m = std::max(1.0, std::min(m, k1 - k0));
    const bool minors = m == 1.0 && px_per_decade >= 30.0;
    for (double k = std::floor(tmin); k <= k1 && ticks.size() < 4000; k += 1.0) {
        const double base = std::pow(10.0, k);
        if (k >= k0 && (aligned ? every(k, m) : every(k - k0, m))) {
            Tick t;
            t.value = base;
            t.major = true;
            log_label(1, k, t.label, sizeof(t.label));
            ticks.push_back(t);
        } else if (k >= k0) {
            push_tick(ticks, base, false, base);
        }
        if (minors) {
            for (int j = 2; j <= 9; ++j) {
                const double w = j * base;
                if (w >= min && w <= max) push_tick(ticks, w, false, base);
            }
        }
    }
}

void constrain_equal_aspect(Axis& x, Axis& y) {
    if (x.is_log() || y.is_log()) return;
    const double ux = x.units_per_pixel(), uy = y.units_per_pixel();
    if (!(ux > 0.0) || !(uy > 0.0)) return;
    if (ux < uy) {
        const double c = 0.5 * (x.min() + x.max());
        const double half = 0.5 * uy * x.pixel_length();
        x.set_range(c - half, c + half);
    } else if (uy < ux) {
        const double c = 0.5 * (y.min() + y.max());
        const double half = 0.5 * ux * y.pixel_length();
        y.set_range(c - half, c + half);
    }
}

}  // namespace plot
