// Unit tests of the ImGui-free axis maths (views/plot/plot_math.h): transforms, clamping, fits,
// zoom/pan invariants, tick niceness and labels, equal aspect.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "views/plot/plot_math.h"

using plot::Axis;
using plot::FitExtents;
using plot::Scale;
using plot::Tick;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// True if step is {1, 2, 5} x 10^k (up to rounding).
bool is_nice(double step) {
    const double e = std::floor(std::log10(step));
    const double m = step / std::pow(10.0, e);
    for (double n : {1.0, 2.0, 5.0, 10.0})
        if (std::fabs(m - n) < 1e-9 * n) return true;
    return false;
}

std::vector<double> majors(const std::vector<Tick>& ticks) {
    std::vector<double> v;
    for (const Tick& t : ticks)
        if (t.major) v.push_back(t.value);
    return v;
}

}  // namespace

TEST_SUITE("plot_math") {

TEST_CASE("axis linear transform round-trips and maps ends to pixel ends, also inverted (y axis)") {
    Axis a;
    REQUIRE(a.set_range(-3.5, 12.25));
    for (bool inverted : {false, true}) {
        if (inverted)
            a.set_pixels(700.0, 100.0);
        else
            a.set_pixels(50.0, 850.0);
        CHECK(a.plot_to_pixels(a.min()) == doctest::Approx(a.pixel_min()));
        CHECK(a.plot_to_pixels(a.max()) == doctest::Approx(a.pixel_max()));
        for (double v : {-3.5, 0.0, 1.0, 7.77, 12.25, 100.0, -42.0}) {
            CHECK(a.pixels_to_plot(a.plot_to_pixels(v)) == doctest::Approx(v).epsilon(1e-12));
        }
        // monotone in the direction of the pixel interval
        const double d = a.plot_to_pixels(5.0) - a.plot_to_pixels(4.0);
        CHECK((inverted ? d < 0.0 : d > 0.0));
    }
}

TEST_CASE("axis log10 transform round-trips and places decades evenly") {
    Axis a;
    a.set_scale(Scale::Log10);
    REQUIRE(a.set_range(1e-3, 1e3));
    a.set_pixels(0.0, 600.0);
    CHECK(a.plot_to_pixels(1e-3) == doctest::Approx(0.0));
    CHECK(a.plot_to_pixels(1.0) == doctest::Approx(300.0));
    CHECK(a.plot_to_pixels(10.0) - a.plot_to_pixels(1.0) == doctest::Approx(a.plot_to_pixels(1000.0) - a.plot_to_pixels(100.0)));
    for (double v : {1e-3, 0.05, 1.0, 3.3, 999.0})
        CHECK(a.pixels_to_plot(a.plot_to_pixels(v)) == doctest::Approx(v).epsilon(1e-10));
    // a log axis refuses a range with no positive part
    CHECK_FALSE(a.set_range(-5.0, -1.0));
    CHECK(a.min() > 0.0);
}

TEST_CASE("axis set_range rejects NaN/Inf, swaps reversed input and keeps a non-degenerate span") {
    Axis a;
    REQUIRE(a.set_range(0.0, 10.0));
    CHECK_FALSE(a.set_range(kNaN, 1.0));
    CHECK_FALSE(a.set_range(0.0, kInf));
    CHECK_FALSE(a.set_range(-kInf, kInf));
    CHECK(a.min() == 0.0);
    CHECK(a.max() == 10.0);
    REQUIRE(a.set_range(5.0, -5.0));
    CHECK(a.min() == -5.0);
    CHECK(a.max() == 5.0);
    REQUIRE(a.set_range(3.0, 3.0));  // zero span is widened around the value
    CHECK(a.min() < 3.0);
    CHECK(a.max() > 3.0);
    CHECK(a.span() >= plot::kMinSpan * 3.0 * 0.999);
    REQUIRE(a.set_range(-1e308, 1e308));  // huge spans are clamped
    CHECK(a.span() <= plot::kMaxSpan * 1.0000001);
    CHECK(std::isfinite(a.min()));
    CHECK(std::isfinite(a.max()));
    a.set_pixels(0.0, 100.0);
    CHECK(std::isfinite(a.plot_to_pixels(0.0)));
}

TEST_CASE("zoom keeps the value under the anchor pixel fixed and scales the span") {
    Axis a;
    a.set_range(-2.0, 8.0);
    a.set_pixels(100.0, 900.0);
    const double anchor = 321.0;
    const double before = a.pixels_to_plot(anchor);
    const double span = a.span();
    a.zoom(0.5, anchor);
    CHECK(a.pixels_to_plot(anchor) == doctest::Approx(before).epsilon(1e-12));
    CHECK(a.span() == doctest::Approx(span * 0.5));
    a.zoom(3.0, anchor);
    CHECK(a.pixels_to_plot(anchor) == doctest::Approx(before).epsilon(1e-12));
    CHECK(a.span() == doctest::Approx(span * 1.5));
    // log axis: the anchor is fixed too
    Axis l;
    l.set_scale(Scale::Log10);
    l.set_range(1.0, 1e4);
    l.set_pixels(0.0, 400.0);
    const double lb = l.pixels_to_plot(250.0);
    l.zoom(0.25, 250.0);
    CHECK(l.pixels_to_plot(250.0) == doctest::Approx(lb).epsilon(1e-9));
}

TEST_CASE("pan moves content with the mouse by exactly the dragged pixels") {
    for (bool inverted : {false, true}) {
        Axis a;
        a.set_range(0.0, 4.0);
        if (inverted)
            a.set_pixels(500.0, 100.0);
        else
            a.set_pixels(100.0, 500.0);
        const double v = 1.7;
        const double p_before = a.plot_to_pixels(v);
        a.pan(37.0);
        CHECK(a.plot_to_pixels(v) == doctest::Approx(p_before + 37.0));
        CHECK(a.span() == doctest::Approx(4.0));
    }
}

TEST_CASE("nice_num and tick steps are always 1, 2 or 5 times a power of ten") {
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> expo(-15.0, 15.0);
    std::uniform_real_distribution<double> len(50.0, 2000.0);
    for (int i = 0; i < 2000; ++i) {
        const double x = std::pow(10.0, expo(rng));
        CHECK(is_nice(plot::nice_num(x, true)));
        CHECK(is_nice(plot::nice_num(x, false)));
        CHECK(plot::nice_num(x, false) >= x * (1 - 1e-12));
        const double lo = -x * 0.3, hi = x * 2.1;
        const double px = len(rng);
        const double step = plot::nice_tick_step(lo, hi, px, 100.0);
        CHECK(is_nice(step));
        const double intervals = (hi - lo) / step;
        const double target = px / 100.0;
        CHECK(intervals <= std::max(1.0, target) * 1.7 + 1.0);
        CHECK(intervals >= std::max(1.0, target) / 1.7 - 1.0);
    }
}

TEST_CASE("tick count grows with pixel length and majors are evenly spaced inside the range") {
    Axis a;
    a.set_range(-0.37, 12.9);
    std::size_t prev = 0;
    for (double px : {120.0, 400.0, 1600.0}) {
        a.set_pixels(0.0, px);
        std::vector<Tick> ticks;
        plot::locate_ticks(a, 80.0, ticks);
        const std::vector<double> m = majors(ticks);
        REQUIRE(m.size() >= 2);
        CHECK(m.size() >= prev);
        prev = m.size();
        const double step = m[1] - m[0];
        CHECK(is_nice(step));
        for (std::size_t i = 0; i < m.size(); ++i) {
            CHECK(m[i] >= a.min() - 1e-9);
            CHECK(m[i] <= a.max() + 1e-9);
            if (i > 0) CHECK(m[i] - m[i - 1] == doctest::Approx(step));
        }
        for (const Tick& t : ticks) {
            CHECK(t.value >= a.min() - 1e-9);
            CHECK(t.value <= a.max() + 1e-9);
        }
    }
}

TEST_CASE("tick labels are distinct, parse back to their values and never show -0") {
    const double ranges[][2] = {{-1.0, 1.0}, {0.0, 1e-7}, {1e6, 1e6 + 5.0}, {-3e9, 7e9}, {0.1, 0.35}, {-1e-12, 1e-12}};
    for (const auto& r : ranges) {
        Axis a;
        REQUIRE(a.set_range(r[0], r[1]));
        a.set_pixels(0.0, 800.0);
        std::vector<Tick> ticks;
        plot::locate_ticks(a, 90.0, ticks);
        const std::vector<double> m = majors(ticks);
        REQUIRE(m.size() >= 2);
        const double step = m[1] - m[0];
        std::set<std::string> seen;
        for (const Tick& t : ticks) {
            if (!t.major) continue;
            const std::string label = t.label;
            CAPTURE(label);
            CHECK(label != "-0");
            CHECK(seen.insert(label).second);
            const double parsed = std::strtod(t.label, nullptr);
            CHECK(std::fabs(parsed - t.value) <= step * 1e-3);
        }
    }
    char buf[32];
    plot::format_tick(-1e-17, 0.1, buf, sizeof(buf));
    CHECK(std::string(buf) == "0.0");
    plot::format_tick(0.5, 0.5, buf, sizeof(buf));
    CHECK(std::string(buf) == "0.5");
    plot::format_tick(20.0, 10.0, buf, sizeof(buf));
    CHECK(std::string(buf) == "20");
}

TEST_CASE("log axis ticks sit on decades with 2..9 minors") {
    Axis a;
    a.set_scale(Scale::Log10);
    a.set_range(0.5, 2e4);
    a.set_pixels(0.0, 600.0);
    std::vector<Tick> ticks;
    plot::locate_ticks(a, 60.0, ticks);
    const std::vector<double> m = majors(ticks);
    REQUIRE(m.size() >= 3);
    for (double v : m) {
        const double e = std::log10(v);
        CHECK(std::fabs(e - std::round(e)) < 1e-9);
    }
    bool has_minor = false;
    for (const Tick& t : ticks) has_minor = has_minor || !t.major;
    CHECK(has_minor);
}

// Labelled majors of a log axis over [lo, hi] on `px` pixels (tick spacing target 48 px).
std::vector<Tick> log_majors(double lo, double hi, double px) {
    Axis a;
    a.set_scale(Scale::Log10);
    REQUIRE(a.set_range(lo, hi));
    a.set_pixels(px, 0.0);  // a y axis
    std::vector<Tick> ticks;
    plot::locate_ticks(a, 48.0, ticks);
    std::vector<Tick> out;
    for (const Tick& t : ticks)
        if (t.major) out.push_back(t);
    return out;
}

TEST_CASE("log axis spanning less than a decade labels intermediate values, at least two") {
    // Issue 9 B7: 0.2..0.9 showed the single label "0.5"; 0.6..0.95 and a sliver showed one or none.
    const double ranges[][2] = {{0.2, 0.9}, {0.6, 0.95}, {0.905, 0.907}, {3.0, 40.0}, {1.5e-7, 9e-7}, {0.11, 0.19}};
    for (const auto& r : ranges) {
        CAPTURE(r[0]);
        CAPTURE(r[1]);
        const std::vector<Tick> m = log_majors(r[0], r[1], 90.0);
        REQUIRE(m.size() >= 2);
        std::set<std::string> seen;
        for (const Tick& t : m) {
            CHECK(t.value >= r[0] * (1 - 1e-9));
            CHECK(t.value <= r[1] * (1 + 1e-9));
            CHECK(seen.insert(t.label).second);
            CHECK(std::strtod(t.label, nullptr) == doctest::Approx(t.value).epsilon(1e-3));
        }
    }
    // 1, 2, 5 x 10^k preferred where they give two labels.
    const std::vector<Tick> m = log_majors(0.15, 0.9, 120.0);
    REQUIRE(m.size() == 2);
    CHECK(m[0].value == doctest::Approx(0.2));
    CHECK(m[1].value == doctest::Approx(0.5));
}

TEST_CASE("log axis labels a decade per tick, thinned on short axes but never below two labels") {
    // Issue 9 B7: ten decades on a short plot labelled only every tenth decade (one label).
    const std::vector<Tick> m = log_majors(3e-11, 0.5, 80.0);
    REQUIRE(m.size() >= 2);
    for (const Tick& t : m) CHECK(std::fabs(std::log10(t.value) - std::round(std::log10(t.value))) < 1e-9);
    // Enough room: every decade is labelled.
    const std::vector<Tick> all = log_majors(1e-6, 1.0, 400.0);
    CHECK(all.size() == 7);
    // Two decades on a tiny axis still give both.
    CHECK(log_majors(0.05, 20.0, 30.0).size() >= 2);
}

TEST_CASE("fit of data constant up to float noise shows a constant, not a drop") {
    // Issue 9 B7: min_eigenvalue 0.90623506..0.90623508 was fitted to [9.0623506e-1, 9.0623508e-1].
    const double lo = 0.90623506, hi = 0.90623508;
    FitExtents e;
    e.extend(lo);
    e.extend(hi);
    CHECK(plot::is_nearly_constant(lo, hi));
    CHECK_FALSE(plot::is_nearly_constant(0.9, 0.91));
    Axis lin;
    REQUIRE(lin.apply_fit(e));
    CHECK(lin.span() >= 0.05 * hi);
    CHECK(lin.min() < lo);
    CHECK(lin.max() > hi);
    Axis lg;
    lg.set_scale(Scale::Log10);
    REQUIRE(lg.apply_fit(e));
    CHECK(std::log10(lg.max() / lg.min()) >= 0.9);
    // A real (small) change is still shown as one.
    FitExtents real;
    real.extend(0.90);
    real.extend(0.91);
    Axis r;
    REQUIRE(r.apply_fit(real, 0.0));
    CHECK(r.span() == doctest::Approx(0.01));
}

TEST_CASE("fit ignores NaN and Inf, pads the extents and contains all finite data") {
    const double data[] = {kNaN, 2.0, -kInf, 7.5, kInf, -1.25, kNaN};
    FitExtents e;
    for (double v : data) e.extend(v);
    REQUIRE(e.valid());
    CHECK(e.min == -1.25);
    CHECK(e.max == 7.5);
    Axis a;
    REQUIRE(a.apply_fit(e, 0.1));
    CHECK(a.min() < -1.25);
    CHECK(a.max() > 7.5);
    CHECK(a.span() == doctest::Approx((7.5 + 1.25) * 1.2));
    // only non-finite data: nothing to fit, range unchanged
    FitExtents bad;
    bad.extend(kNaN);
    bad.extend(kInf);
    CHECK_FALSE(bad.valid());
    const double lo = a.min(), hi = a.max();
    CHECK_FALSE(a.apply_fit(bad));
    CHECK(a.min() == lo);
    CHECK(a.max() == hi);
}

TEST_CASE("fit of constant data gives a sensible non-zero range around the value") {
    for (double v : {0.0, 5.0, -1234.5, 1e-9, 3e12}) {
        FitExtents e;
        e.extend(v);
        e.extend(v);
        Axis a;
        REQUIRE(a.apply_fit(e));
        CHECK(a.min() < v);
        CHECK(a.max() > v);
        CHECK(a.span() > 0.0);
        CHECK(a.span() >= std::fabs(v) * 0.05);
    }
}

TEST_CASE("fit on a log axis ignores non-positive values") {
    FitExtents e;
    for (double v : {-3.0, 0.0, 0.01, 250.0, kNaN}) e.extend(v, true);
    CHECK(e.min == 0.01);
    CHECK(e.max == 250.0);
    Axis a;
    a.set_scale(Scale::Log10);
    REQUIRE(a.apply_fit(e));
    CHECK(a.min() < 0.01);
    CHECK(a.min() > 0.0);
    CHECK(a.max() > 250.0);
}

TEST_CASE("equal aspect gives both axes the same units per pixel and keeps the visible data") {
    Axis x, y;
    x.set_range(0.0, 10.0);
    y.set_range(-1.0, 1.0);
    x.set_pixels(0.0, 800.0);
    y.set_pixels(400.0, 0.0);
    plot::constrain_equal_aspect(x, y);
    CHECK(x.units_per_pixel() == doctest::Approx(y.units_per_pixel()));
    CHECK(x.min() <= 0.0);
    CHECK(x.max() >= 10.0);
    CHECK(y.min() <= -1.0);
    CHECK(y.max() >= 1.0);
    // the other way round
    x.set_range(0.0, 1.0);
    y.set_range(0.0, 100.0);
    plot::constrain_equal_aspect(x, y);
    CHECK(x.units_per_pixel() == doctest::Approx(y.units_per_pixel()));
    CHECK(y.min() <= 0.0);
    CHECK(y.max() >= 100.0);
    CHECK(x.min() <= 0.0);
    CHECK(x.max() >= 1.0);
}

}  // TEST_SUITE
