// power-iteration: agreement with Eigen's eigensolver, convergence rate,
// sub-steps, deflation, the eigen-gap construction and validation.
#include "tests/support/test_data.h"
#include "algorithms/svd/power_iteration.h"

#include "algorithms/core/registry.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"

#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::test_support;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;

// n samples with independent features of standard deviations `sd`, rotated by a random orthogonal map.
DataPtr correlated(int n, const std::vector<double>& sd, uint64_t seed) {
  Rng rng(seed);
  const int d = static_cast<int>(sd.size());
  Eigen::MatrixXd x(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) x(i, j) = sd[static_cast<size_t>(j)] * rng.normal() + 3.0 * j;
  Eigen::MatrixXd g(d, d);
  for (int c = 0; c < d; ++c)
    for (int r = 0; r < d; ++r) g(r, c) = rng.normal();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  const Eigen::MatrixXd rot = qr.householderQ();
  return matrix_data(x * rot);
}

ParamValues params(const std::string& matrix, int dim = 2, double ratio = 0.8, int m = 1,
                   const std::string& init = "random", double tol = 1e-10, int max_iter = 1000) {
  PowerIteration p;
  ParamValues v = default_values(p.params());
  v["matrix"] = parse_value(*find_param(p.params(), "matrix"), matrix);
  v["dim"] = dim;
  v["ratio"] = ratio;
  v["n_components"] = m;
  v["init"] = parse_value(*find_param(p.params(), "init"), init);
  v["tol"] = tol;
  v["max_iter"] = max_iter;
  return v;
}

std::shared_ptr<const PowerSnapshot> snap(const PowerIteration& m) { return m.power_snapshot(); }

void run_to_end(PowerIteration& m, int limit = 100000) {
  for (int i = 0; i < limit && !is_terminal(m.status()); ++i) m.step();
}

// (1/n) Xc^T Xc computed plainly.
Eigen::MatrixXd covariance(const Eigen::MatrixXd& x) {
  const Eigen::MatrixXd xc = x.rowwise() - x.colwise().mean();
  return xc.transpose() * xc / static_cast<double>(x.rows());
}

// Least-squares slope of y over x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

TEST_CASE("power-iteration: agrees with SelfAdjointEigenSolver (eigenvalue rel. error < 1e-10)") {
  SUBCASE("synthetic") {
    for (double ratio : {0.5, 0.9, -0.7}) {
      PowerIteration m;
      m.reset(nullptr, params("synthetic", 6, ratio, 1, "random", 1e-12, 20000), 3);
      run_to_end(m);
      const auto s = snap(m);
      CAPTURE(ratio);
      CHECK(s->status == Status::Converged);
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(s->problem->a);
      const double l1 = es.eigenvalues()[5];  // ascending; all |lambda| <= 1 = lambda_1
      CHECK(std::abs(s->metrics[PowerIteration::kMetricRayleigh] - l1) / std::abs(l1) < 1e-10);
      CHECK(std::abs(std::abs(s->v.dot(es.eigenvectors().col(5))) - 1.0) < 1e-10);
      CHECK(s->metrics[PowerIteration::kMetricAngle] < 1e-9);
    }
  }
  SUBCASE("covariance of iris, against a plainly computed covariance") {
    const DataPtr iris = make_dataset("iris");
    PowerIteration m;
    m.reset(iris, params("covariance", 2, 0.8, 1, "random", 1e-13), 1);
    run_to_end(m);
    const auto s = snap(m);
    CHECK(s->status == Status::Converged);
    const Eigen::MatrixXd c = covariance(iris->x);
    CHECK((s->problem->a - c).norm() < 1e-12 * c.norm());
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(c);
    const double l1 = es.eigenvalues()[3];
    CHECK(std::abs(s->metrics[PowerIteration::kMetricRayleigh] - l1) / l1 < 1e-10);
    CHECK(std::abs(std::abs(s->v.dot(es.eigenvectors().col(3))) - 1.0) < 1e-10);
  }
}

TEST_CASE("power-iteration: the measured rate matches |lambda_2 / lambda_1| (log-angle slope)") {
  for (double ratio : {0.5, 0.8, 0.95, -0.7}) {
    PowerIteration m;
    m.reset(nullptr, params("synthetic", 8, ratio, 1, "random", 0.0, 100000), 11);
    std::vector<double> t, logtan;
    for (int i = 0; i < 2000; ++i) {
      const double theta = snap(m)->metrics[PowerIteration::kMetricAngle];
      // Skip the first iterations (lambda_3, lambda_4 ... still visible) and stop
      // well above rounding.
      if (i >= 10 && theta > 1e-11) {
        t.push_back(i);
        logtan.push_back(std::log(std::tan(theta)));
      }
      if (theta < 1e-12) break;
      m.step();
    }
    CAPTURE(ratio);
    REQUIRE(t.size() >= 8);
    const double measured = std::exp(slope(t, logtan));
    CHECK(measured == doctest::Approx(std::abs(ratio)).epsilon(0.01));
    CHECK(snap(m)->stage->rate == doctest::Approx(std::abs(ratio)).epsilon(1e-12));
  }
}

TEST_CASE("power-iteration: in 2-D, tan theta_t = |lambda_2/lambda_1|^t tan theta_0 exactly") {
  PowerIteration m;
  m.reset(nullptr, params("synthetic", 2, 0.6, 1, "random", 0.0), 5);
  const double tan0 = std::tan(snap(m)->metrics[PowerIteration::kMetricAngle]);
  CHECK(snap(m)->components[0].theta0 == doctest::Approx(std::atan(tan0)));
  for (int t = 1; t <= 40; ++t) {
    m.step();
    const double predicted = std::pow(0.6, t) * tan0;
    CHECK(std::tan(snap(m)->metrics[PowerIteration::kMetricAngle]) == doctest::Approx(predicted).epsilon(1e-9));
  }
}

TEST_CASE("power-iteration: multiply then normalise sub-steps equal one step") {
  const DataPtr data = correlated(300, {3.0, 2.0, 1.0, 0.5}, 2);
  PowerIteration a, b;
  a.reset(data, params("covariance"), 9);
  b.reset(data, params("covariance"), 9);
  for (int t = 0; t < 6; ++t) {
    a.step();
    b.sub_step();
    const auto mid = snap(b);
    CHECK(mid->phase == 1);
    CHECK(mid->iteration == t);
    // The multiply shows w = A v_t.
    CHECK((mid->av - mid->problem->a * mid->v).norm() < 1e-12 * mid->av.norm());
    b.sub_step();
    const auto sa = snap(a), sb = snap(b);
    CHECK(sb->phase == 0);
    CHECK(sa->iteration == sb->iteration);
    CHECK(sa->v == sb->v);  // bit-identical
    CHECK(sa->metrics == sb->metrics);
    CHECK(sa->v.norm() == doctest::Approx(1.0).epsilon(1e-14));
  }
}

TEST_CASE("power-iteration: deflation returns orthonormal vectors whose eigenvalues match the solver") {
  SUBCASE("synthetic, all six") {
    PowerIteration m;
    m.reset(nullptr, params("synthetic", 6, 0.6, 6, "random", 1e-12, 5000), 4);
    run_to_end(m);
    const auto s = snap(m);
    REQUIRE(s->status == Status::Converged);
    REQUIRE(s->found.cols() == 6);
    CHECK((s->found.transpose() * s->found - Eigen::MatrixXd::Identity(6, 6)).norm() < 1e-8);
    for (int j = 0; j < 6; ++j) {
      CAPTURE(j);
      const double want = std::pow(0.6, j);
      CHECK(std::abs(s->components[static_cast<size_t>(j)].lambda - want) / want < 1e-10);
      CHECK(s->components[static_cast<size_t>(j)].angle_to_true < 1e-7);
    }
  }
  SUBCASE("covariance, top three of five; the deflated spectrum drops exactly the found ones") {
    const DataPtr data = correlated(500, {4.0, 2.5, 1.5, 0.7, 0.3}, 6);
    PowerIteration m;
    m.reset(data, params("covariance", 2, 0.8, 3, "random", 1e-12, 5000), 2);
    run_to_end(m);
    const auto s = snap(m);
    REQUIRE(s->status == Status::Converged);
    REQUIRE(s->found.cols() == 3);
    CHECK((s->found.transpose() * s->found - Eigen::MatrixXd::Identity(3, 3)).norm() < 1e-8);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(covariance(data->x));
    for (int j = 0; j < 3; ++j) {
      const double want = es.eigenvalues()[4 - j];
      CHECK(std::abs(s->components[static_cast<size_t>(j)].lambda - want) / want < 1e-10);
    }
    // The third stage's matrix A_3 = A - l1 u1 u1^T - l2 u2 u2^T has spectrum {l3, l4, l5, ~0, ~0}.
    const Eigen::VectorXd& ev = s->stage->eigvals;
    CHECK(ev[0] == doctest::Approx(es.eigenvalues()[2]).epsilon(1e-9));
    CHECK(ev[1] == doctest::Approx(es.eigenvalues()[1]).epsilon(1e-9));
    CHECK(ev[2] == doctest::Approx(es.eigenvalues()[0]).epsilon(1e-9));
    CHECK(std::abs(ev[3]) < 1e-9 * es.eigenvalues()[4]);
    CHECK(std::abs(ev[4]) < 1e-9 * es.eigenvalues()[4]);
    // Components start where the previous one ended plus the deflation step.
    CHECK(s->components[1].start_iteration == s->components[0].start_iteration + s->components[0].iterations + 1);
  }
}

TEST_CASE("power-iteration: the eigen-gap slider produces the requested spectrum") {
  for (double ratio : {0.0, 0.3, 0.8, 0.999, -0.5}) {
    for (int dim : {2, 3, 7}) {
      const Eigen::MatrixXd a = PowerIteration::synthetic_matrix(dim, ratio, 17);
      CHECK((a - a.transpose()).norm() == 0.0);
      Eigen::VectorXd ev;
      PowerIteration::sorted_eigen(a, ev, nullptr);
      for (int i = 0; i < dim; ++i) {
        CAPTURE(ratio);
        CAPTURE(dim);
        CAPTURE(i);
        CHECK(std::abs(ev[i] - std::pow(ratio, i)) < 1e-13);
      }
    }
  }
  PowerIteration m;
  m.reset(nullptr, params("synthetic", 4, 0.3), 1);
  CHECK(snap(m)->stage->rate == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(snap(m)->problem->eigvals[1] / snap(m)->problem->eigvals[0] == doctest::Approx(0.3).epsilon(1e-12));
}

TEST_CASE("power-iteration: a start orthogonal to u_1 heads for u_2 until rounding brings u_1 back") {
  PowerIteration m;
  m.reset(nullptr, params("synthetic", 3, 0.5, 1, "orthogonal", 1e-12, 5000), 8);
  CHECK(snap(m)->metrics[PowerIteration::kMetricAngle] == doctest::Approx(M_PI / 2).epsilon(1e-12));
  for (int i = 0; i < 20; ++i) m.step();
  const auto s20 = snap(m);
  CHECK(s20->metrics[PowerIteration::kMetricAngle] > 1.5);  // still about orthogonal to u_1 ...
  CHECK(PowerIteration::line_angle(s20->v, s20->problem->eigvecs.col(1)) < 1e-4);  // ... close to u_2
  run_to_end(m);
  CHECK(snap(m)->status == Status::Converged);
  CHECK(snap(m)->metrics[PowerIteration::kMetricAngle] < 1e-9);  // u_1 after all
}

TEST_CASE("power-iteration: the Rayleigh quotient never falls for a covariance (PSD)") {
  const DataPtr data = correlated(400, {2.0, 1.8, 1.5, 1.0, 0.4, 0.1}, 12);
  PowerIteration m;
  m.reset(data, params("covariance", 2, 0.8, 1, "random", 0.0, 200), 5);
  double prev = snap(m)->metrics[PowerIteration::kMetricRayleigh];
  for (int i = 0; i < 150; ++i) {
    m.step();
    const double rho = snap(m)->metrics[PowerIteration::kMetricRayleigh];
    CHECK(rho >= prev - 1e-13 * std::abs(prev));
    prev = rho;
  }
}

TEST_CASE("power-iteration: image data keep their shape - set_vector restarts a component") {
  auto d = std::make_shared<Dataset>(*correlated(80, {3, 2, 1, 1, 1, 0.5}, 3));
  d->image_h = 2;
  d->image_w = 3;
  PowerIteration m;
  m.reset(d, params("covariance"), 1);
  CHECK(snap(m)->problem->image_h == 2);
  CHECK(snap(m)->problem->image_w == 3);
  for (int i = 0; i < 5; ++i) m.step();
  Intent in;
  in.kind = "set_vector";
  in.values = {0, 0, 0, 0, 0, 2.0};
  CHECK(m.apply(in));
  const auto s = snap(m);
  CHECK(s->v[5] == 1.0);
  CHECK(s->components[0].start_iteration == 5);
  CHECK(s->components[0].iterations == 0);
  CHECK(s->components[0].theta0 == doctest::Approx(s->metrics[PowerIteration::kMetricAngle]));
  in.values = {1, 2};
  CHECK_FALSE(m.apply(in));
  in.values.assign(6, 0.0);
  CHECK_FALSE(m.apply(in));
  in.values[0] = std::nan("");
  CHECK_FALSE(m.apply(in));
  in.kind = "other";
  CHECK_FALSE(m.apply(in));
}

TEST_CASE("power-iteration: max_iter stops a component - tol and max_iter are live") {
  PowerIteration m;
  m.reset(nullptr, params("synthetic", 4, 0.95, 1, "random", 1e-12, 10), 3);
  run_to_end(m);
  CHECK(snap(m)->status == Status::Stopped);
  CHECK(snap(m)->iteration == 10);
  CHECK(snap(m)->message.find("max_iter") != std::string::npos);
  m.set_live("max_iter", 5000);
  CHECK(snap(m)->status == Status::Running);
  run_to_end(m);
  CHECK(snap(m)->status == Status::Converged);
  const int done = snap(m)->iteration;
  m.set_live("tol", 0.0);  // never converged: it goes on
  CHECK(snap(m)->status == Status::Running);
  m.step();
  CHECK(snap(m)->iteration == done + 1);
  m.set_live("tol", 0.5);
  CHECK(snap(m)->status == Status::Converged);
}

TEST_CASE("power-iteration: bad parameters and data are rejected with clear messages") {
  PowerIteration m;
  const DataPtr small = correlated(20, {1, 2, 3}, 1);
  CHECK_THROWS_WITH_AS(m.reset(small, params("covariance", 2, 0.8, 4), 0),
                       doctest::Contains("parameter 'n_components' = 4 exceeds the matrix size d = 3"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.reset(nullptr, params("covariance"), 0), doctest::Contains("needs a dataset"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.reset(matrix_data(Eigen::MatrixXd::Ones(1, 3)), params("covariance"), 0),
                       doctest::Contains("at least 2 samples"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.reset(matrix_data(Eigen::MatrixXd::Ones(5, 3)), params("covariance"), 0),
                       doctest::Contains("zero matrix"), std::invalid_argument);
  Eigen::MatrixXd bad = Eigen::MatrixXd::Random(5, 2);
  bad(3, 1) = INFINITY;
  CHECK_THROWS_WITH_AS(m.reset(matrix_data(bad), params("covariance"), 0),
                       doctest::Contains("non-finite value (inf) at row 3, column 1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.reset(matrix_data(Eigen::MatrixXd::Random(6, 1)), params("covariance", 2, 0.8, 1, "orthogonal"), 0),
                       doctest::Contains("orthogonal needs d >= 2"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.reset(nullptr, params("synthetic", 2, 1.0), 0), doctest::Contains("ratio"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.reset(nullptr, params("synthetic", 1), 0), doctest::Contains("dim"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.reset(nullptr, params("synthetic", 2, 0.5, 1, "random", -1.0), 0),
                       doctest::Contains("tol"), std::invalid_argument);
  m.reset(nullptr, params("synthetic"), 0);
  CHECK_THROWS_WITH_AS(m.set_live("max_iter", 0), doctest::Contains("expected an integer in [1, 100000]"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.set_live("ratio", 0.5), doctest::Contains("cannot change mid-run"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(m.set_live("nope", 1), doctest::Contains("unknown parameter"), std::invalid_argument);
}

TEST_CASE("power-iteration: same seed same run, other seed other start - clones continue identically") {
  PowerIteration a, b, c;
  a.reset(nullptr, params("synthetic", 5, 0.7), 42);
  b.reset(nullptr, params("synthetic", 5, 0.7), 42);
  c.reset(nullptr, params("synthetic", 5, 0.7), 43);
  for (int i = 0; i < 7; ++i) {
    a.step();
    b.step();
    c.step();
  }
  CHECK(snap(a)->v == snap(b)->v);
  CHECK(snap(a)->metrics != snap(c)->metrics);
  std::unique_ptr<Module> copy = a.clone();
  a.sub_step();
  copy->sub_step();
  a.sub_step();
  copy->sub_step();
  CHECK(a.snapshot()->metrics == copy->snapshot()->metrics);
  std::unique_ptr<Module> made = make_module("power-iteration");
  const std::vector<std::string> names = {"rayleigh", "angle_to_top", "residual"};
  REQUIRE(made->info().metrics.size() == 3);
  for (size_t i = 0; i < 3; ++i) CHECK(made->info().metrics[i].name == names[i]);
  CHECK(made->info().sub_steps == std::vector<std::string>{"multiply", "normalise"});
}
