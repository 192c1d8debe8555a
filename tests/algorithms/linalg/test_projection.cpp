// The 2-D projection used by scatter views of d > 2 data.
#include "algorithms/core/rng.h"
#include "algorithms/linalg/projection.h"

#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>

using namespace cilab;

namespace {
Eigen::MatrixXd correlated(int n, int d, uint64_t seed) {
  Rng rng(seed);
  Eigen::MatrixXd z(n, d), mix(d, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) z(i, j) = rng.normal();
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) mix(i, j) = rng.normal() * (1.0 + i);
  Eigen::MatrixXd x = z * mix;
  x.rowwise() += Eigen::RowVectorXd::LinSpaced(d, -3, 5);
  return x;
}
}  // namespace

TEST_CASE("projection: axes are orthonormal and are the covariance's top eigenvectors") {
  const Eigen::MatrixXd x = correlated(500, 6, 7);
  const Projection2d p = principal_axes_2d(x);
  CHECK(p.rows_used == 500);
  const Eigen::Matrix2d gram = p.axes.transpose() * p.axes;
  CHECK((gram - Eigen::Matrix2d::Identity()).norm() < 1e-12);
  Eigen::MatrixXd c = x.rowwise() - x.colwise().mean();
  const Eigen::MatrixXd cov = c.transpose() * c / (x.rows() - 1);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  CHECK(p.variance(0) == doctest::Approx(es.eigenvalues()(5)).epsilon(1e-10));
  CHECK(p.variance(1) == doctest::Approx(es.eigenvalues()(4)).epsilon(1e-10));
  CHECK(p.total_variance == doctest::Approx(cov.trace()).epsilon(1e-12));
  // A (unit) eigenvector up to sign: |<u, v>| = 1.
  CHECK(std::abs(p.axes.col(0).dot(es.eigenvectors().col(5))) == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("projection: scores are centred, uncorrelated, with the eigenvalues as variances") {
  const Eigen::MatrixXd x = correlated(400, 5, 11);
  const Projection2d p = principal_axes_2d(x);
  const Eigen::MatrixXd s = project_2d(p, x);
  REQUIRE(s.rows() == 400);
  REQUIRE(s.cols() == 2);
  CHECK(s.col(0).mean() == doctest::Approx(0.0).epsilon(1e-9).scale(1.0));
  const Eigen::MatrixXd cs = s.rowwise() - s.colwise().mean();
  const Eigen::Matrix2d cov = cs.transpose() * cs / (s.rows() - 1);
  CHECK(cov(0, 0) == doctest::Approx(p.variance(0)).epsilon(1e-9));
  CHECK(cov(1, 1) == doctest::Approx(p.variance(1)).epsilon(1e-9));
  CHECK(std::abs(cov(0, 1)) < 1e-9 * cov(0, 0));
}

TEST_CASE("projection: subsampling is deterministic and labelled by rows_used") {
  const Eigen::MatrixXd x = correlated(1000, 4, 3);
  const Projection2d a = principal_axes_2d(x, 100), b = principal_axes_2d(x, 100);
  CHECK(a.rows_used == 100);
  CHECK(a.axes == b.axes);
  CHECK_THROWS_AS(principal_axes_2d(Eigen::MatrixXd(5, 1)), std::invalid_argument);
}
