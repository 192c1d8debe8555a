// Small datasets the tests build in code (the built-in generators are in
// algorithms/data/generators.h; these are the shapes tests need beside them).
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/rng.h"

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <string>

namespace cilab::test_support {

// The rows of x as a dataset named "inline", columns x0, x1, ...
inline std::shared_ptr<const Dataset> matrix_data(const Eigen::MatrixXd& x) {
  auto d = std::make_shared<Dataset>();
  d->x = x;
  d->name = "inline";
  for (int c = 0; c < x.cols(); ++c) d->column_names.push_back("x" + std::to_string(c));
  return d;
}

// n rows around `centers` centres drawn uniformly in [-scale, scale]^d (row i around centre
// i mod centers), each coordinate plus spread * N(0, 1).
inline std::shared_ptr<const Dataset> blob_data(int n, int centers, int d, double scale, double spread,
                                                uint64_t seed) {
  Rng rng(seed);
  Eigen::MatrixXd c(centers, d);
  for (int j = 0; j < centers; ++j)
    for (int t = 0; t < d; ++t) c(j, t) = rng.uniform(-scale, scale);
  Eigen::MatrixXd x(n, d);
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < d; ++t) x(i, t) = c(i % centers, t) + spread * rng.normal();
  return matrix_data(x);
}

// n images of h x w pixels, each uniform in [0, 1) (seed 3), named "images".
inline std::shared_ptr<const Dataset> uniform_images(int n, int h, int w) {
  auto d = std::make_shared<Dataset>();
  Rng rng(3);
  d->x.resize(n, h * w);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < h * w; ++j) d->x(i, j) = rng.uniform();
  d->image_h = h;
  d->image_w = w;
  d->name = "images";
  return d;
}

}  // namespace cilab::test_support
