// Gradient checks: one central-difference checker for the whole lab (the
// network library's layer tests, every training module's tests and the
// backprop lesson's live table).
//
//   numeric_i = (f(theta + h e_i) - f(theta - h e_i)) / 2h,
//
// one coordinate at a time, in place (each coordinate is restored), in double:
// the truncation error is O(h^2 f''') and the rounding error O(eps f / h), so
// h = 1e-6 leaves about 1e-9 relative on well-scaled functions.
//
//   // a network's parameters and input gradient against L = sum(R .* net(x)):
//   const nn::GradientError e = nn::check_network(net, x, /*train=*/true);
//   CHECK_MESSAGE(e.error < 1e-6, e.describe());
//
// A layer registered in layer_kinds() (layers.h) is checked by the library's
// tests the day it is added (tests/algorithms/nn/test_nn.cpp).
#pragma once

#include "algorithms/nn/sequential.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace cilab::nn {

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

// |a - b| / max(|a|, |b|, floor): relative for gradients of a normal size, absolute
// (scaled by 1/floor) for the ones near 0.
inline double floored_relative_error(double a, double b, double floor) {
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), floor});
}
// The same with floor 1e-3 (the library's tests).
inline double relative_error(double a, double b) { return floored_relative_error(a, b, 1e-3); }

// |analytic - numeric| / max(1, |numeric|): absolute below 1, relative above.
inline double scaled_error(double analytic, double numeric) {
  return std::abs(analytic - numeric) / std::max(1.0, std::abs(numeric));
}

// The worst coordinate of a gradient check.
struct GradientError {
  double error = 0.0;  // the largest error(analytic, numeric) (NaN when one was NaN)
  size_t index = 0;    // its coordinate
  double analytic = 0.0, numeric = 0.0;
  std::string where = "coordinate";  // "parameter", "input", ...
  std::string describe() const {
    return where + " " + std::to_string(index) + ": analytic " + std::to_string(analytic) + ", numeric " +
           std::to_string(numeric) + " (error " + std::to_string(error) + ")";
  }
};

// The worse of two checks (NaN is the worst).
inline const GradientError& worse(const GradientError& a, const GradientError& b) {
  if (std::isnan(a.error)) return a;
  if (std::isnan(b.error)) return b;
  return b.error > a.error ? b : a;
}

// Checks analytic[0..n) against central differences of f() in theta[0..n) with step h,
// measured by error(analytic, numeric) (relative_error or scaled_error).
template <class T, class F, class Error>
GradientError check_gradient(T* theta, size_t n, const double* analytic, T h, F&& f, Error error) {
  GradientError worst;
  for (size_t i = 0; i < n; ++i) {
    const double numeric = central_difference(theta, i, h, f);
    const double e = error(analytic[i], numeric);
    // A NaN error is the worst and stays so (the check then fails whatever the threshold).
    if (i == 0 || (!std::isnan(worst.error) && !(e <= worst.error))) {
      worst.error = e;
      worst.index = i;
      worst.analytic = analytic[i];
      worst.numeric = numeric;
    }
  }
  return worst;
}

// Every parameter and every input entry of `net` at x: backward() against central differences
// (step h) of L = sum(R .* net(x)) for a fixed random R (seeded: `seed`), measured by
// relative_error. Dropout layers keep the mask of the first forward pass (freeze_dropout_mask;
// released afterwards). The worst coordinate, `where` saying "parameter" or "input".
GradientError check_network(Sequential<double>& net, Mat<double> x, bool train, double h = 1e-6, uint64_t seed = 11);

}  // namespace cilab::nn
