// Toy data generators (blobs, anisotropic, moons, circles, spirals, xor,
// uniform) and the 1-D regression curves (curve).
//
// Each follows the scikit-learn generator of the same name where one exists
// (make_blobs, make_moons, make_circles) with our own seeded cilab::Rng, so the
// shapes match scikit-learn's but not its exact numbers. Output: n x d in rows,
// labels = the generating component, class names, column names x0.., rows
// shuffled.
#include "algorithms/data/generators.h"

#include "algorithms/core/rng.h"

#include <cmath>
#include <string>
#include <utility>

namespace cilab {
namespace data_detail {

namespace {

constexpr double kPi = 3.14159265358979323846;

Dataset empty_dataset(int n, int dim, const std::string& name) {
  Dataset d;
  d.x.resize(n, dim);
  d.labels.resize(static_cast<size_t>(n));
  for (int j = 0; j < dim; ++j) d.column_names.push_back("x" + std::to_string(j));
  d.name = name;
  return d;
}

// Fisher-Yates shuffle of rows (and labels) with the given generator.
void shuffle_rows(Dataset& d, Rng& rng) {
  const int n = d.rows();
  for (int i = n - 1; i > 0; --i) {
    const int j = static_cast<int>(rng.below(static_cast<uint64_t>(i) + 1));
    if (j == i) continue;
    d.x.row(i).swap(d.x.row(j));
    std::swap(d.labels[static_cast<size_t>(i)], d.labels[static_cast<size_t>(j)]);
  }
}

// Count of samples for component c when n is split over k components.
int share(int n, int k, int c) { return n / k + (c < n % k ? 1 : 0); }

}  // namespace

Dataset gen_blobs(int n, int centers, double noise, int dim, double box, uint64_t seed) {
  Rng rng(seed);
  Dataset d = empty_dataset(n, dim, "blobs");
  Eigen::MatrixXd c(centers, dim);
  for (int k = 0; k < centers; ++k)
    for (int j = 0; j < dim; ++j) c(k, j) = rng.uniform(-box, box);
  int row = 0;
  for (int k = 0; k < centers; ++k) {
    const int m = share(n, centers, k);
    for (int i = 0; i < m; ++i, ++row) {
      for (int j = 0; j < dim; ++j) d.x(row, j) = c(k, j) + noise * rng.normal();
      d.labels[static_cast<size_t>(row)] = k;
    }
    d.class_names.push_back("blob " + std::to_string(k));
  }
  shuffle_rows(d, rng);
  return d;
}

Dataset gen_anisotropic(int n, int centers, double noise, double box, uint64_t seed) {
  Dataset d = gen_blobs(n, centers, noise, 2, box, seed);
  for (int i = 0; i < d.rows(); ++i) {
    const double x = d.x(i, 0), y = d.x(i, 1);
    d.x(i, 0) = 0.6 * x - 0.4 * y;
    d.x(i, 1) = -0.6 * x + 0.8 * y;
  }
  d.name = "anisotropic";
  return d;
}

Dataset gen_moons(int n, double noise, uint64_t seed) {
  Rng rng(seed);
  Dataset d = empty_dataset(n, 2, "moons");
  const int n_out = n / 2, n_in = n - n_out;
  // np.linspace(0, pi, m): m points including both ends.
  auto lin = [](int i, int m) { return m > 1 ? kPi * i / (m - 1) : 0.0; };
  for (int i = 0; i < n_out; ++i) {
    d.x(i, 0) = std::cos(lin(i, n_out));
    d.x(i, 1) = std::sin(lin(i, n_out));
    d.labels[static_cast<size_t>(i)] = 0;
  }
  for (int i = 0; i < n_in; ++i) {
    d.x(n_out + i, 0) = 1.0 - std::cos(lin(i, n_in));
    d.x(n_out + i, 1) = 1.0 - std::sin(lin(i, n_in)) - 0.5;
    d.labels[static_cast<size_t>(n_out + i)] = 1;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 2; ++j) d.x(i, j) += noise * rng.normal();
  d.class_names = {"upper moon", "lower moon"};
  shuffle_rows(d, rng);
  return d;
}

Dataset gen_circles(int n, double noise, double factor, uint64_t seed) {
  Rng rng(seed);
  Dataset d = empty_dataset(n, 2, "circles");
  const int n_out = n / 2, n_in = n - n_out;
  // np.linspace(0, 2 pi, m, endpoint=False).
  for (int i = 0; i < n_out; ++i) {
    const double a = 2.0 * kPi * i / n_out;
    d.x(i, 0) = std::cos(a);
    d.x(i, 1) = std::sin(a);
    d.labels[static_cast<size_t>(i)] = 0;
  }
  for (int i = 0; i < n_in; ++i) {
    const double a = 2.0 * kPi * i / n_in;
    d.x(n_out + i, 0) = factor * std::cos(a);
    d.x(n_out + i, 1) = factor * std::sin(a);
    d.labels[static_cast<size_t>(n_out + i)] = 1;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 2; ++j) d.x(i, j) += noise * rng.normal();
  d.class_names = {"outer circle", "inner circle"};
  shuffle_rows(d, rng);
  return d;
}

Dataset gen_spirals(int n, int arms, double noise, double turns, uint64_t seed) {
  Rng rng(seed);
  Dataset d = empty_dataset(n, 2, "spirals");
  int row = 0;
  for (int k = 0; k < arms; ++k) {
    const int m = share(n, arms, k);
    for (int i = 0; i < m; ++i, ++row) {
      const double t = (i + 0.5) / m;
      const double a = 2.0 * kPi * (turns * t + static_cast<double>(k) / arms);
      d.x(row, 0) = t * std::cos(a) + noise * rng.normal();
      d.x(row, 1) = t * std::sin(a) + noise * rng.normal();
      d.labels[static_cast<size_t>(row)] = k;
    }
    d.class_names.push_back("arm " + std::to_string(k));
  }
  shuffle_rows(d, rng);
  return d;
}

Dataset gen_uniform(int n, int dim, uint64_t seed) {
  Rng rng(seed);
  Dataset d = empty_dataset(n, dim, "uniform");
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < dim; ++j) d.x(i, j) = rng.uniform();
    d.labels[static_cast<size_t>(i)] = 0;
  }
  d.class_names = {"uniform"};
  return d;
}

Dataset gen_xor(int n, double noise, uint64_t seed) {
  Rng rng(seed);
  Dataset d = empty_dataset(n, 2, "xor");
  for (int i = 0; i < n; ++i) {
    // Centres of the four quadrant blobs at (+-1, +-1); class = sign(x) xor sign(y).
    const int qx = rng.below(2) ? 1 : -1, qy = rng.below(2) ? 1 : -1;
    d.x(i, 0) = qx * rng.uniform(0.1, 1.0) + noise * rng.normal();
    d.x(i, 1) = qy * rng.uniform(0.1, 1.0) + noise * rng.normal();
    d.labels[static_cast<size_t>(i)] = qx * qy < 0 ? 1 : 0;
  }
  d.class_names = {"same sign", "opposite sign"};
  return d;
}

double curve_value(int function, double x) {
  switch (function) {
    case 0: return std::sin(x);
    case 1: return x < 0 ? -1.0 : 1.0;
    case 2: return std::fabs(x) - 1.5;
    default: return x * x * x / 9.0 - x / 3.0;
  }
}

Dataset gen_curve(int n, int function, double noise, uint64_t seed) {
  Rng rng(seed);
  Dataset d;
  d.x.resize(n, 1);
  d.target.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double x = rng.uniform(-kCurveHalfWidth, kCurveHalfWidth);
    d.x(i, 0) = x;
    d.target[static_cast<size_t>(i)] = curve_value(function, x) + noise * rng.normal();
  }
  d.column_names = {"x"};
  d.target_name = "y";
  d.name = "curve";
  return d;
}

}  // namespace data_detail
}  // namespace cilab
