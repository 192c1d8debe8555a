// Seeded 2-D / d-D toy data generators (internal; use make_dataset specs).
//
// Each returns n samples with labels = the true component, column names x0..,
// and samples shuffled (Fisher-Yates with cilab::Rng), so any prefix is a fair
// sample. Same arguments and seed -> bit-identical data on every platform.
#pragma once

#include "algorithms/core/dataset.h"

#include <cstdint>

namespace cilab {
namespace data_detail {

// scikit-learn make_blobs: `centers` centres uniform in [-box, box]^dim, each
// with an isotropic Gaussian of std `noise`; n split as evenly as possible.
Dataset gen_blobs(int n, int centers, double noise, int dim, double box, uint64_t seed);

// Blobs in 2-D then the fixed shear x' = x A, A = [[0.6, -0.6], [-0.4, 0.8]]
// (scikit-learn's clustering comparison example): elongated, tilted clusters.
Dataset gen_anisotropic(int n, int centers, double noise, double box, uint64_t seed);

// scikit-learn make_moons: two interleaved half circles (n/2 on the upper
// one, label 0), plus Gaussian noise of std `noise`.
Dataset gen_moons(int n, double noise, uint64_t seed);

// scikit-learn make_circles: an outer unit circle (label 0) and an inner one
// of radius `factor` (label 1), plus Gaussian noise of std `noise`.
Dataset gen_circles(int n, double noise, double factor, uint64_t seed);

// `arms` interleaved Archimedean spirals: arm k at parameter t in (0, 1) is
// t * (cos a, sin a), a = 2 pi (turns t + k / arms), plus noise of std `noise`.
Dataset gen_spirals(int n, int arms, double noise, double turns, uint64_t seed);

// n points uniform in [0, 1]^dim, one component (label 0).
Dataset gen_uniform(int n, int dim, uint64_t seed);

// XOR: four quadrant blobs (points at |x|, |y| in [0.1, 1] plus Gaussian
// noise); label 1 where x and y have opposite signs.
Dataset gen_xor(int n, double noise, uint64_t seed);

// 1-D regression curves: x uniform in [-kCurveHalfWidth, kCurveHalfWidth],
// target y = f(x) + noise * N(0, 1) for f = sin(x), step (sign x), |x| - 1.5,
// or the cubic x^3/9 - x/3 (function 0..3, in that order). No labels.
constexpr double kCurveHalfWidth = 3.0;
double curve_value(int function, double x);
Dataset gen_curve(int n, int function, double noise, uint64_t seed);

}  // namespace data_detail
}  // namespace cilab
