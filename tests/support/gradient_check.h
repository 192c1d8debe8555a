// Gradient checks: an analytic gradient against central differences
//   (f(theta + h e_i) - f(theta - h e_i)) / 2h,
// one coordinate at a time, in place (each coordinate is restored).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace cilab::test_support {

// The central difference of f() in the coordinate v[i] (v[i] is restored).
template <class T, class F>
double central_difference(T* v, size_t i, T h, F&& f) {
  const T keep = v[i];
  v[i] = keep + h;
  const double up = f();
  v[i] = keep - h;
  const double down = f();
  v[i] = keep;
  return (up - down) / (2.0 * static_cast<double>(h));
}

// |a - b| / max(|a|, |b|, 1e-3): relative for gradients of a normal size, absolute
// (scaled by 1e3) for the ones near 0.
inline double relative_error(double a, double b) {
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-3});
}

// |analytic - numeric| / max(1, |numeric|): absolute below 1, relative above.
inline double scaled_error(double analytic, double numeric) {
  return std::abs(analytic - numeric) / std::max(1.0, std::abs(numeric));
}

// The worst coordinate of a gradient check.
struct GradientError {
  double error = 0.0;  // the largest error(analytic, numeric)
  size_t index = 0;    // its coordinate
  double analytic = 0.0, numeric = 0.0;
  std::string describe(const char* what = "coordinate") const {
    return std::string(what) + " " + std::to_string(index) + ": analytic " + std::to_string(analytic) +
           ", numeric " + std::to_string(numeric);
  }
};

// Checks analytic[0..n) against central differences of f() in theta[0..n) with step h,
// measured by error(analytic, numeric) (relative_error or scaled_error).
template <class T, class F, class Error>
GradientError check_gradient(T* theta, size_t n, const double* analytic, T h, F&& f, Error error) {
  GradientError worst;
  for (size_t i = 0; i < n; ++i) {
    const double numeric = central_difference(theta, i, h, f);
    const double e = error(analytic[i], numeric);
    // A NaN error is the worst and stays so (the check then fails whatever the threshold).
    if (i == 0 || (!std::isnan(worst.error) && !(e <= worst.error))) worst = {e, i, analytic[i], numeric};
  }
  return worst;
}

}  // namespace cilab::test_support
