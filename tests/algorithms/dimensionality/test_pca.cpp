// PCA: orthonormality, uncorrelated scores, Eckart-Young, agreement with an
// independent eigen-decomposition, standardising, the manual line fit, the
// Gram (d > n) path, determinism and parameter validation.
#include "tests/support/test_data.h"
#include "algorithms/dimensionality/pca.h"
#include "algorithms/core/parallel.h"

#include "algorithms/core/registry.h"
#include "algorithms/core/rng.h"

#include <Eigen/Dense>
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <tuple>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::test_support;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;

// n x d correlated Gaussian data: x = mu + A g, A random (features on different
// scales so that standardising matters), mu far from the origin.
Eigen::MatrixXd correlated_data(int n, int d, uint64_t seed, double offset = 3.0) {
  Rng rng(seed);
  Eigen::MatrixXd a(d, d), g(n, d);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) a(i, j) = rng.normal() * (1.0 + i);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) g(i, j) = rng.normal();
  Eigen::MatrixXd x = g * a.transpose();
  for (int j = 0; j < d; ++j) x.col(j).array() += offset * (j + 1);
  return x;
}

ParamValues params(int components, bool center = true, bool standardize = false,
                   const std::string& mode = "fit") {
  PCA m;
  ParamValues v = default_values(m.params());
  v["components"] = components;
  v["center"] = center ? 1 : 0;
  v["standardize"] = standardize ? 1 : 0;
  v["mode"] = parse_value(*find_param(m.params(), "mode"), mode);
  return v;
}

// Independent reference: the covariance (1/n) X'^T X' formed naively.
Eigen::MatrixXd naive_cov(const Eigen::MatrixXd& x, bool center, bool standardize) {
  const Eigen::Index n = x.rows();
  Eigen::MatrixXd xc = x;
  const Eigen::RowVectorXd mu = x.colwise().mean();
  if (center) xc.rowwise() -= mu;
  if (standardize) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      const double s = std::sqrt((x.col(j).array() - mu[j]).square().mean());
      if (s > 0) xc.col(j) /= s;
    }
  }
  return xc.transpose() * xc / static_cast<double>(n);
}

Eigen::VectorXd descending_eigenvalues(const Eigen::MatrixXd& c) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(c);
  return es.eigenvalues().reverse();
}

std::shared_ptr<const PcaSnapshot> fitted(const DataPtr& data, const ParamValues& v, PCA& m) {
  m.reset(data, v, 0);
  m.step();
  return m.pca_snapshot();
}

}  // namespace

TEST_CASE("pca: components are orthonormal (covariance path and Gram path)") {
  for (auto [n, d] : {std::pair<int, int>{400, 12}, std::pair<int, int>{15, 40}}) {
    CAPTURE(n);
    CAPTURE(d);
    PCA m;
    const auto s = fitted(matrix_data(correlated_data(n, d, 7)), params(0), m);
    REQUIRE(s->fitted);
    const Eigen::MatrixXd& u = *s->components;
    REQUIRE(u.rows() == std::min(n, d));
    const Eigen::MatrixXd gram = u * u.transpose();
    CHECK((gram - Eigen::MatrixXd::Identity(u.rows(), u.rows())).cwiseAbs().maxCoeff() < 1e-10);
    // Sign convention: the largest-|.| entry of each component is positive.
    for (Eigen::Index k = 0; k < u.rows(); ++k) {
      Eigen::Index arg;
      u.row(k).cwiseAbs().maxCoeff(&arg);
      CHECK(u(k, arg) > 0);
    }
  }
}

TEST_CASE("pca: scores are uncorrelated with variances lambda_i and zero mean") {
  const Eigen::MatrixXd x = correlated_data(500, 8, 11);
  PCA m;
  const auto s = fitted(matrix_data(x), params(5), m);
  const Eigen::MatrixXd z = pca_transform(*s, x, 5);  // independent of the held float scores
  const Eigen::RowVectorXd zmean = z.colwise().mean();
  CHECK(zmean.cwiseAbs().maxCoeff() < 1e-9 * s->eigenvalues[0]);
  const Eigen::MatrixXd cz = z.transpose() * z / static_cast<double>(x.rows());
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b) {
      const double expect = a == b ? s->eigenvalues[a] : 0.0;
      CHECK(std::abs(cz(a, b) - expect) < 1e-9 * s->eigenvalues[0]);
    }
  // The held float scores are the same numbers in single precision.
  REQUIRE(s->scores);
  CHECK(s->scores->rows() == 500);
  CHECK(s->scores->cols() == 5);
  CHECK((s->scores->cast<double>() - z).cwiseAbs().maxCoeff() < 1e-5 * std::sqrt(s->eigenvalues[0]));
}

TEST_CASE("pca: eigenvalues sum to the total variance tr C") {
  for (uint64_t seed : {1, 2, 3}) {
    const Eigen::MatrixXd x = correlated_data(300, 6, seed);
    PCA m;
    const auto s = fitted(matrix_data(x), params(0), m);
    const double trace = naive_cov(x, true, false).trace();
    CHECK(s->eigenvalues.sum() == doctest::Approx(trace).epsilon(1e-12));
    CHECK(s->total_variance == doctest::Approx(trace).epsilon(1e-12));
    CHECK(s->metrics[PCA::kMetricTotal] == doctest::Approx(trace).epsilon(1e-12));
    CHECK((s->eigenvalues.array() >= 0).all());
    for (Eigen::Index i = 1; i < s->eigenvalues.size(); ++i)
      CHECK(s->eigenvalues[i] <= s->eigenvalues[i - 1]);
  }
}

TEST_CASE("pca: reconstruction error equals the sum of the dropped eigenvalues (Eckart-Young)") {
  for (auto [n, d, seed] : {std::tuple<int, int, uint64_t>{200, 10, 5}, std::tuple<int, int, uint64_t>{30, 50, 6},
                            std::tuple<int, int, uint64_t>{1000, 3, 8}}) {
    CAPTURE(n);
    CAPTURE(d);
    const Eigen::MatrixXd x = correlated_data(n, d, seed);
    PCA m;
    const auto s = fitted(matrix_data(x), params(0), m);
    const int r = std::min(n, d);
    REQUIRE(s->recon_error.size() == r + 1);
    double prev = INFINITY;
    for (int k = 0; k <= r; ++k) {
      // Direct residual: reconstruct in raw space, subtract, average the squared norms.
      const Eigen::MatrixXd z = pca_transform(*s, x, k);
      const Eigen::MatrixXd xr = pca_inverse_transform(*s, z);
      const double direct = (x - xr).rowwise().squaredNorm().mean();
      const double dropped = s->dropped_sum(k);
      const double tol = 1e-9 * s->total_variance;
      CHECK(std::abs(direct - dropped) < tol);
      CHECK(std::abs(s->recon_error[k] - dropped) < tol);
      CHECK(s->recon_error[k] <= prev + tol);  // non-increasing in K
      prev = s->recon_error[k];
    }
    CHECK(s->recon_error[r] < 1e-9 * s->total_variance);  // zero at K = rank
  }
}

TEST_CASE("pca: explained ratios match an independent SelfAdjointEigenSolver computation") {
  const Eigen::MatrixXd x = correlated_data(700, 9, 21);
  PCA m;
  const auto s = fitted(matrix_data(x), params(4), m);
  const Eigen::VectorXd ref = descending_eigenvalues(naive_cov(x, true, false));
  const double total = ref.sum();
  REQUIRE(s->table.size() == 4);
  double cum = 0.0;
  for (int k = 0; k < 4; ++k) {
    cum += ref[k] / total;
    CHECK(s->table[k][0] == k + 1);
    CHECK(s->table[k][1] == doctest::Approx(ref[k]).epsilon(1e-10));
    CHECK(std::abs(s->table[k][2] - ref[k] / total) < 1e-12);
    CHECK(std::abs(s->table[k][3] - cum) < 1e-12);
  }
  CHECK(std::abs(s->metrics[PCA::kMetricExplained] - cum) < 1e-12);
}

TEST_CASE("pca: standardize gives the eigenvalues of the correlation matrix") {
  const Eigen::MatrixXd x = correlated_data(600, 5, 31);
  PCA m;
  const auto s = fitted(matrix_data(x), params(0, true, true), m);
  const Eigen::MatrixXd cov = naive_cov(x, true, false);
  const Eigen::VectorXd sd = cov.diagonal().cwiseSqrt();
  const Eigen::MatrixXd corr = cov.cwiseQuotient(sd * sd.transpose());
  const Eigen::VectorXd ref = descending_eigenvalues(corr);
  for (int k = 0; k < 5; ++k) CHECK(s->eigenvalues[k] == doctest::Approx(ref[k]).epsilon(1e-10));
  CHECK(s->total_variance == doctest::Approx(5.0).epsilon(1e-12));  // tr(correlation) = d
  CHECK(s->standardized);
  // Without standardising the spectrum differs (the features have different scales).
  PCA m2;
  const auto s2 = fitted(matrix_data(x), params(0), m2);
  CHECK(std::abs(s2->eigenvalues[0] - s->eigenvalues[0]) > 0.1);
}

TEST_CASE("pca: a zero-variance feature is left unscaled when standardising, and the message says so") {
  Eigen::MatrixXd x = correlated_data(100, 3, 4);
  x.col(1).setConstant(2.5);
  PCA m;
  const auto s = fitted(matrix_data(x), params(0, true, true), m);
  CHECK(s->zero_std_features == 1);
  CHECK(s->scale[1] == 1.0);
  CHECK(s->message.find("zero standard deviation") != std::string::npos);
  CHECK(s->total_variance == doctest::Approx(2.0).epsilon(1e-12));
}

TEST_CASE("pca: without centring C is the second-moment matrix and u_1 points towards the mean") {
  Eigen::MatrixXd x = correlated_data(400, 2, 9, 0.0) * 0.1;
  x.col(0).array() += 20.0;
  x.col(1).array() += 10.0;
  PCA m;
  const auto s = fitted(matrix_data(x), params(0, false), m);
  const Eigen::VectorXd ref = descending_eigenvalues(naive_cov(x, false, false));
  CHECK(s->eigenvalues[0] == doctest::Approx(ref[0]).epsilon(1e-10));
  CHECK(s->offset.isZero());
  const Eigen::Vector2d mu_dir = s->mean.normalized();
  CHECK(std::abs(mu_dir.dot(s->components->row(0).transpose())) > 0.999);
}

TEST_CASE("pca: manual direction - captured variance u^T C u, residual tr C - u^T C u, max at u_1") {
  const Eigen::MatrixXd x = correlated_data(300, 2, 13);
  PCA m;
  m.reset(matrix_data(x), params(0, true, false, "manual"), 0);
  const Eigen::MatrixXd c = naive_cov(x, true, false);
  const Eigen::RowVectorXd mu = x.colwise().mean();
  double best = -1.0;
  for (int a = 0; a < 180; a += 5) {
    Intent in;
    in.kind = "set_direction";
    const double t = a * 3.14159265358979 / 180.0;
    in.values = {2.0 * std::cos(t), 2.0 * std::sin(t)};  // not unit: normalised by the module
    REQUIRE(m.apply(in));
    const auto s = m.pca_snapshot();
    const Eigen::Vector2d u(std::cos(t), std::sin(t));
    // Direct: mean of <u, x - mu>^2 and mean squared distance to the line.
    const Eigen::VectorXd proj = (x.rowwise() - mu) * u;
    const Eigen::MatrixXd resid = (x.rowwise() - mu) - proj * u.transpose();
    CHECK(s->captured == doctest::Approx(proj.squaredNorm() / 300).epsilon(1e-10));
    CHECK(s->captured == doctest::Approx(u.dot(c * u)).epsilon(1e-10));
    CHECK(s->residual == doctest::Approx(resid.rowwise().squaredNorm().mean()).epsilon(1e-9));
    CHECK(s->captured + s->residual == doctest::Approx(c.trace()).epsilon(1e-12));
    CHECK(s->iteration == 0);  // intents do not step
    best = std::max(best, s->captured);
  }
  // "solve" before the fit snaps to the top eigenvector of C: no sampled angle beats it.
  Intent solve;
  solve.kind = "solve";
  REQUIRE(m.apply(solve));
  const auto s0 = m.pca_snapshot();
  const Eigen::VectorXd lam = descending_eigenvalues(c);
  CHECK(s0->captured == doctest::Approx(lam[0]).epsilon(1e-12));
  CHECK(s0->captured >= best);
  // Manual mode: the fit leaves u where it was; fit mode snaps it to u_1.
  Intent set;
  set.kind = "set_direction";
  set.values = {1.0, 0.0};
  REQUIRE(m.apply(set));
  m.step();
  auto s1 = m.pca_snapshot();
  CHECK(s1->fitted);
  CHECK(s1->direction[0] == doctest::Approx(1.0));
  m.set_live("mode", 0);
  s1 = m.pca_snapshot();
  CHECK(std::abs(s1->direction.dot(s1->components->row(0).transpose())) == doctest::Approx(1.0));
  CHECK(s1->captured == doctest::Approx(s1->eigenvalues[0]).epsilon(1e-12));
}

TEST_CASE("pca: angle and elevation set u - direction <-> angles round-trip (3-D)") {
  const Eigen::MatrixXd x = correlated_data(200, 3, 17);
  PCA m;
  m.reset(matrix_data(x), params(0, true, false, "manual"), 0);
  m.set_live("angle", 60);
  m.set_live("elevation", -30);
  const auto s = m.pca_snapshot();
  const double pi = 3.14159265358979;
  const Eigen::Vector3d expect(std::cos(-pi / 6) * std::cos(pi / 3), std::cos(-pi / 6) * std::sin(pi / 3),
                               std::sin(-pi / 6));
  CHECK((s->direction - expect).norm() < 1e-12);
  double a = 0, e = 0;
  pca_angles_from_direction(-s->direction, &a, &e);  // -u is the same line
  CHECK(a == doctest::Approx(60.0));
  CHECK(e == doctest::Approx(-30.0));
  CHECK_THROWS_AS(m.set_live("angle", 200), std::invalid_argument);
  CHECK_THROWS_AS(m.set_live("components", 2), std::invalid_argument);  // rebuild parameter
}

TEST_CASE("pca: the manual objective is maximised at u_1 among random 3-D directions") {
  const Eigen::MatrixXd x = correlated_data(250, 3, 19);
  PCA m;
  const auto s = fitted(matrix_data(x), params(0, true, false, "manual"), m);
  REQUIRE(s->covariance);
  Rng rng(3);
  for (int t = 0; t < 200; ++t) {
    const Eigen::Vector3d u(rng.normal(), rng.normal(), rng.normal());
    CHECK(pca_captured_variance(*s->covariance, u) <= s->eigenvalues[0] * (1 + 1e-12));
    CHECK(pca_captured_variance(*s->covariance, u) >= s->eigenvalues[2] * (1 - 1e-12));
  }
  CHECK(pca_captured_variance(*s->covariance, s->components->row(0).transpose()) ==
        doctest::Approx(s->eigenvalues[0]).epsilon(1e-12));
}

TEST_CASE("pca: the Gram path (d > n) matches the d x d covariance eigenvalues") {
  const Eigen::MatrixXd x = correlated_data(20, 60, 23);
  PCA m;
  const auto s = fitted(matrix_data(x), params(0), m);
  REQUIRE(s->eigenvalues.size() == 20);
  const Eigen::VectorXd ref = descending_eigenvalues(naive_cov(x, true, false));
  for (int k = 0; k < 19; ++k) CHECK(s->eigenvalues[k] == doctest::Approx(ref[k]).epsilon(1e-9));
  CHECK(s->eigenvalues[19] < 1e-9 * ref[0]);  // centring removes one dimension
  // The components are eigenvectors of C: C u = lambda u.
  const Eigen::MatrixXd c = naive_cov(x, true, false);
  for (int k = 0; k < 19; ++k) {
    const Eigen::VectorXd u = s->components->row(k).transpose();
    CHECK((c * u - s->eigenvalues[k] * u).norm() < 1e-9 * ref[0]);
  }
}

TEST_CASE("pca: results do not depend on the number of threads") {
  const Eigen::MatrixXd x = correlated_data(3000, 40, 29);
  const DataPtr data = matrix_data(x);
  set_max_threads(1);
  PCA a;
  const auto sa = fitted(data, params(10), a);
  set_max_threads(4);
  PCA b;
  const auto sb = fitted(data, params(10), b);
  set_max_threads(0);
  CHECK((sa->eigenvalues.array() == sb->eigenvalues.array()).all());
  CHECK((sa->components->array() == sb->components->array()).all());
  CHECK((sa->recon_error.array() == sb->recon_error.array()).all());
}

TEST_CASE("pca: bad parameters and data give clear invalid_argument errors") {
  PCA m;
  const DataPtr data = matrix_data(correlated_data(10, 3, 1));
  try {
    m.reset(data, params(4), 0);
    FAIL("components > min(n, d) accepted");
  } catch (const std::invalid_argument& e) {
    const std::string w = e.what();
    CHECK(w.find("components") != std::string::npos);
    CHECK(w.find("min(n, d) = 3") != std::string::npos);
  }
  CHECK_THROWS_AS(m.reset(nullptr, params(0), 0), std::invalid_argument);
  CHECK_THROWS_AS(m.reset(matrix_data(Eigen::MatrixXd(0, 3)), params(0), 0), std::invalid_argument);
  Eigen::MatrixXd bad = correlated_data(10, 3, 1);
  bad(4, 2) = NAN;
  try {
    m.reset(matrix_data(bad), params(0), 0);
    FAIL("NaN accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("row 4") != std::string::npos);
  }
  ParamValues v = params(0);
  v["components"] = -1;
  CHECK_THROWS_AS(m.reset(data, v, 0), std::invalid_argument);
  // Rejected intents.
  m.reset(data, params(0), 0);
  Intent in;
  in.kind = "set_direction";
  in.values = {1.0, 2.0};  // wrong size
  CHECK_FALSE(m.apply(in));
  in.values = {0.0, 0.0, 0.0};
  CHECK_FALSE(m.apply(in));
  in.kind = "unknown";
  CHECK_FALSE(m.apply(in));
}

TEST_CASE("pca: the module is registered - one step completes the fit (CLI default 1 step)") {
  const std::unique_ptr<Module> m = make_module("pca");
  const ModuleInfo& info = m->info();
  CHECK(info.default_cli_steps == 1);
  REQUIRE(info.table_columns.size() == 4);
  CHECK(info.table_columns[0] == "component");
  m->reset(matrix_data(correlated_data(50, 4, 2)), default_values(m->params()), 0);
  CHECK(m->snapshot()->status == Status::Running);
  CHECK(m->snapshot()->table.empty());
  m->step();
  CHECK(m->snapshot()->status == Status::Converged);
  CHECK(m->snapshot()->table.size() == 4);  // components = 0: all min(n, d)
  CHECK(m->snapshot()->table.back()[3] == doctest::Approx(1.0).epsilon(1e-12));
  // A clone continues identically.
  const std::unique_ptr<Module> c = m->clone();
  CHECK(c->snapshot()->table == m->snapshot()->table);
}

TEST_CASE("pca: switching mode applies at once - manual puts u at the angle, fit snaps it back to u_1") {
  PCA m;
  m.reset(matrix_data(correlated_data(300, 2, 11)), params(0), 1);
  m.step();  // fitted: u = u_1
  const Eigen::VectorXd u1 = m.pca_snapshot()->components->row(0).transpose();
  REQUIRE(std::abs(m.pca_snapshot()->direction.dot(u1)) > 1 - 1e-12);
  m.set_live("mode", 1);  // manual: u follows the angle parameter (30 deg) now, not after a reset
  const Eigen::VectorXd want = pca_direction_from_angles(2, 30.0, 0.0);
  CHECK(m.pca_snapshot()->manual);
  CHECK((m.pca_snapshot()->direction - want).norm() < 1e-12);
  CHECK(m.pca_snapshot()->captured == doctest::Approx(pca_captured_variance(*m.pca_snapshot()->covariance, want)));
  m.set_live("angle", 70.0);
  CHECK((m.pca_snapshot()->direction - pca_direction_from_angles(2, 70.0, 0.0)).norm() < 1e-12);
  m.set_live("mode", 0);  // fit: back to u_1
  CHECK(std::abs(m.pca_snapshot()->direction.dot(u1)) > 1 - 1e-12);
}
