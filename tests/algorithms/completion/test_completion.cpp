// Matrix completion: the oracles of course chapter 4 (SVP's monotone observed
// loss and its one-step A_k, ALS's monotone half-steps, zero row gradients and
// Eckart-Young limit, SVT's shrinkage, support and exact recovery), the
// Lanczos truncated SVD against a dense SVD, normalisation, determinism.
#include "tests/support/test_data.h"
#include "algorithms/completion/completion.h"

#include "algorithms/core/observed_matrix.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/data/ratings.h"
#include "algorithms/linalg/lanczos_svd.h"

#include <Eigen/Dense>
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::test_support;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;

Eigen::MatrixXd gaussian(int m, int n, uint64_t seed) {
  Rng rng(seed);
  Eigen::MatrixXd a(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) a(i, j) = rng.normal();
  return a;
}

ParamValues values(const std::vector<std::string>& sets) {
  const Completion probe;
  ParamValues v = default_values(probe.params());
  for (const std::string& s : sets) apply_assignment(probe.params(), v, s, "completion");
  return v;
}

DataPtr small_ratings(int observed = 1500) {
  return make_dataset("ratings:users=60,items=80,observed=" + std::to_string(observed) + ",rank=3,noise=0.3,seed=4");
}

// Equal metric vectors, NaN equal to NaN (n/a entries).
bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

Eigen::MatrixXd dense_estimate(const CompletionSnapshot& s) {
  const std::vector<float> f = s.dense_estimate();
  Eigen::MatrixXd a(s.problem->m, s.problem->n);
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < a.cols(); ++j) a(i, j) = s.predict(i, j);
  CHECK(std::abs(a(0, 0) - f[0]) < 1e-4 * (1 + std::abs(a(0, 0))));
  return a;
}

}  // namespace

TEST_CASE("completion: Lanczos truncated SVD equals a dense SVD") {
  const Eigen::MatrixXd a = gaussian(50, 30, 1) + 3.0 * gaussian(50, 1, 2) * gaussian(1, 30, 3);
  Eigen::BDCSVD<Eigen::MatrixXd> ref(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
  LinearOperator op{50, 30, [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = a * x; },
                    [&](const Eigen::VectorXd& y, Eigen::VectorXd& x) { x = a.transpose() * y; }};
  LanczosOptions lo;
  lo.rank = 6;
  const TruncatedSvd t = lanczos_svd(op, lo);
  REQUIRE(t.sigma.size() == 6);
  for (int i = 0; i < 6; ++i) {
    CHECK(std::abs(t.sigma[i] - ref.singularValues()[i]) <= 1e-9 * ref.singularValues()[0]);
    CHECK(std::abs(std::abs(t.u.col(i).dot(ref.matrixU().col(i))) - 1.0) < 1e-7);
    CHECK(std::abs(std::abs(t.v.col(i).dot(ref.matrixV().col(i))) - 1.0) < 1e-7);
  }
  // "above" mode: exactly the singular values above the threshold.
  LanczosOptions above;
  above.above = 0.5 * (ref.singularValues()[3] + ref.singularValues()[4]);
  const TruncatedSvd t2 = lanczos_svd(op, above);
  CHECK(t2.sigma.size() == 4);
  // A rank-2 matrix asked for 5 gives 2 (the Krylov space is invariant).
  const Eigen::MatrixXd low = gaussian(40, 2, 5) * gaussian(2, 25, 6);
  LinearOperator op2{40, 25, [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = low * x; },
                     [&](const Eigen::VectorXd& y, Eigen::VectorXd& x) { x = low.transpose() * y; }};
  lo.rank = 5;
  CHECK(lanczos_svd(op2, lo).sigma.size() == 2);
}

TEST_CASE("completion: SVP with a full mask and eta = 1 returns A_k in one step") {
  const Eigen::MatrixXd x = gaussian(30, 20, 7);
  Completion c;
  c.reset(matrix_data(x), values({"method=svd_impute", "k=4", "missing=0", "test_fraction=0", "normalize=none"}), 1);
  c.step();
  Eigen::BDCSVD<Eigen::MatrixXd> svd(x, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::MatrixXd ak = svd.matrixU().leftCols(4) * svd.singularValues().head(4).asDiagonal() *
                             svd.matrixV().leftCols(4).transpose();
  const Eigen::MatrixXd got = dense_estimate(*c.completion_snapshot());
  CHECK((got - ak).norm() <= 1e-9 * ak.norm());
  // The observed loss of A_k is Eckart-Young's 1/2 sum_{i>k} sigma_i^2.
  const double tail = svd.singularValues().tail(16).squaredNorm();
  CHECK(c.completion_snapshot()->metrics[Completion::kMetricObservedLoss] == doctest::Approx(0.5 * tail).epsilon(1e-9));
}

TEST_CASE("completion: SVP with eta <= 1 never raises the observed loss") {
  for (const char* eta : {"eta=1", "eta=0.5"}) {
    CAPTURE(eta);
    Completion c;
    c.reset(small_ratings(), values({"method=svd_impute", "k=3", eta, "tol=0"}), 2);
    double prev = c.completion_snapshot()->metrics[Completion::kMetricObservedLoss];
    for (int t = 0; t < 25; ++t) {
      c.step();
      const double now = c.completion_snapshot()->metrics[Completion::kMetricObservedLoss];
      CHECK(now <= prev * (1 + 1e-10));
      prev = now;
    }
    CHECK(c.completion_snapshot()->metrics[Completion::kMetricRank] <= 3);
  }
}

TEST_CASE("completion: the ALS objective never rises after a half-step and each row update zeroes its gradient") {
  Completion c;
  c.reset(small_ratings(), values({"method=als", "k=4", "lambda=0.5", "tol=0"}), 3);
  double prev = c.factor_objective();
  for (int h = 0; h < 20; ++h) {
    c.sub_step();
    const double now = c.factor_objective();
    CHECK(now <= prev * (1 + 1e-12));
    prev = now;
    const double scale = 1.0 + c.user_factors().norm() + c.item_factors().norm();
    if (h % 2 == 0) {  // after a V-sweep every item's gradient is 0
      for (int j = 0; j < 80; j += 7) CHECK(c.item_gradient(j).norm() <= 1e-9 * scale);
    } else {
      for (int i = 0; i < 60; i += 7) CHECK(c.user_gradient(i).norm() <= 1e-9 * scale);
    }
  }
  // The half objective lies between the two whole-iteration objectives.
  const auto s = c.completion_snapshot();
  CHECK(s->phase == 0);
}

TEST_CASE("completion: ALS with a full mask and lambda = 0 reaches 1/2 sum_{i>k} sigma_i^2") {
  const Eigen::MatrixXd x = gaussian(40, 30, 11);
  Completion c;
  c.reset(matrix_data(x), values({"method=als", "k=3", "lambda=0", "missing=0", "test_fraction=0", "normalize=none",
                            "tol=0", "max_iter=3000"}),
          5);
  for (int t = 0; t < 3000; ++t) c.step();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(x);
  const double tail = svd.singularValues().tail(27).squaredNorm();
  CHECK(c.factor_objective() == doctest::Approx(0.5 * tail).epsilon(1e-6));
}

TEST_CASE("completion: SVT shrinks by tau, keeps Y on Omega, and its spectrum is Y's") {
  Completion c;
  c.reset(small_ratings(), values({"method=svt", "tol=0"}), 6);
  for (int t = 0; t < 5; ++t) c.step();
  const auto s = c.completion_snapshot();
  const CompletionProblem& q = *s->problem;
  // Y is stored as one value per training entry: supported on Omega.
  REQUIRE(c.svt_y().size() == q.train_z.size());
  // Its dense form has the Lanczos spectrum the step reports (before the update of this step...):
  // recompute from the current Y after one more step's threshold.
  Eigen::MatrixXd y = Eigen::MatrixXd::Zero(q.m, q.n);
  for (size_t t = 0; t < q.train_z.size(); ++t) y(q.train_row[t], q.train_col[t]) = c.svt_y()[t];
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(y);
  c.step();
  const auto s2 = c.completion_snapshot();
  REQUIRE(!s2->spectrum_before.empty());
  REQUIRE(s2->estimate->s.size() > 0);
  const size_t converged = std::min<size_t>(s2->spectrum_before.size(), static_cast<size_t>(s2->estimate->s.size()) + 1);
  for (size_t i = 0; i < converged; ++i)
    CHECK(s2->spectrum_before[i] == doctest::Approx(svd.singularValues()[static_cast<Eigen::Index>(i)]).epsilon(1e-8));
  // The estimate's singular values are exactly (sigma_i - tau)_+.
  REQUIRE(s2->estimate->s.size() > 0);
  for (Eigen::Index i = 0; i < s2->estimate->s.size(); ++i)
    CHECK(s2->estimate->s[i] == doctest::Approx(std::max(0.0, svd.singularValues()[i] - s2->tau)).epsilon(1e-8));
  CHECK(s2->metrics[Completion::kMetricRank] ==
        static_cast<double>((svd.singularValues().array() > s2->tau).count()));
}

TEST_CASE("completion: SVT recovers an incoherent rank-3 100 x 100 matrix from 40 % of its entries") {
  const Eigen::MatrixXd m = gaussian(100, 3, 21) * gaussian(3, 100, 22);
  Completion c;
  c.reset(matrix_data(m), values({"method=svt", "missing=0.6", "test_fraction=0", "normalize=none", "tol=0",
                            "max_iter=1000"}),
          8);
  for (int t = 0; t < 600; ++t) c.step();
  const Eigen::MatrixXd b = dense_estimate(*c.completion_snapshot());
  CHECK((b - m).norm() / m.norm() < 1e-3);
}

TEST_CASE("completion: masked normalisation centres the observed entries of every row and column") {
  const DataPtr d = small_ratings(600);
  for (const char* norm : {"normalize=columns", "normalize=rows", "normalize=both"}) {
    CAPTURE(norm);
    Completion c;
    c.reset(d, values({"method=svd_impute", norm, "test_fraction=0.2"}), 9);
    const CompletionProblem& q = *c.completion_snapshot()->problem;
    const bool cols = std::string(norm) != "normalize=rows";
    const int count = cols ? q.n : q.m;
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(count), n = sum;
    for (size_t t = 0; t < q.train_z.size(); ++t) {
      const int a = cols ? q.train_col[t] : q.train_row[t];
      sum[a] += q.train_z[t];
      n[a] += 1;
    }
    if (std::string(norm) == "normalize=both") {
      // columns first, then rows of what is left: the rows are centred exactly
      sum.setZero(q.m);
      n.setZero(q.m);
      for (size_t t = 0; t < q.train_z.size(); ++t) {
        sum[q.train_row[t]] += q.train_z[t];
        n[q.train_row[t]] += 1;
      }
    }
    for (Eigen::Index a = 0; a < sum.size(); ++a) {
      CHECK(std::isfinite(sum[a]));  // empty rows and columns: no NaN
      if (n[a] > 0) CHECK(std::abs(sum[a] / n[a]) < 1e-12);
    }
    CHECK(q.train_z.size() + q.test_value.size() == 600);
  }
}

TEST_CASE("completion: same seed, same run, another seed, another split") {
  const DataPtr d = small_ratings();
  for (const char* method : {"method=svd_impute", "method=als", "method=sgd", "method=svt"}) {
    CAPTURE(method);
    Completion a, b, c;
    a.reset(d, values({method, "k=3"}), 12);
    b.reset(d, values({method, "k=3"}), 12);
    c.reset(d, values({method, "k=3"}), 13);
    for (int t = 0; t < 4; ++t) {
      a.step();
      b.step();
      c.step();
    }
    CHECK(same(a.snapshot()->metrics, b.snapshot()->metrics));
    CHECK(a.snapshot()->metrics[Completion::kMetricTestRmse] != c.snapshot()->metrics[Completion::kMetricTestRmse]);
    // A clone continues identically.
    auto cl = a.clone();
    a.step();
    cl->step();
    CHECK(same(a.snapshot()->metrics, cl->snapshot()->metrics));
  }
}

TEST_CASE("completion: every method learns the synthetic ratings (held-out RMSE below the column means')") {
  const DataPtr d = make_dataset("ratings:users=200,items=300,observed=12000,rank=3,noise=0.3,seed=1");
  for (const char* method : {"method=svd_impute", "method=als", "method=sgd", "method=svt"}) {
    CAPTURE(method);
    Completion c;
    c.reset(d, values({method, "k=3", "lambda=1"}), 14);
    const double start = c.snapshot()->metrics[Completion::kMetricTestRmse];
    for (int t = 0; t < 30; ++t) c.step();
    const double end = c.snapshot()->metrics[Completion::kMetricTestRmse];
    CHECK(end < 0.8 * start);
    CHECK(c.snapshot()->status != Status::Diverged);
  }
}

TEST_CASE("completion: bad parameters and data are refused with the reason") {
  Completion c;
  CHECK_THROWS_WITH_AS(c.reset(small_ratings(), values({"k=500"}), 1), doctest::Contains("min(m, n)"),
                       std::invalid_argument);
  CHECK_THROWS_AS(c.reset(nullptr, values({}), 1), std::invalid_argument);
  // A complete picture is completed with `missing` of it hidden.
  Completion p;
  p.reset(make_dataset("photo"), values({"method=svd_impute", "k=5", "missing=0.5"}), 1);
  const auto s = p.completion_snapshot();
  CHECK(s->problem->m == 512);
  CHECK(s->problem->data->fraction() == doctest::Approx(0.5).epsilon(1e-6));
  CHECK(s->message.find("missing") != std::string::npos);
}

// Issue 29: svt with Cai-Candes-Shen's defaults on the default ratings swings after ~30 iterations
// (training RMSE 0.34 <-> 1.2, the objective 5e6 <-> 5e7, steps of 0.8 s) and nothing said so.
// The run now ends Diverged at the swing, naming the cause (delta above 2) and the fix (delta, tau);
// with delta below 2 the same run does not.
TEST_CASE("completion: svt's swing on the default ratings ends Diverged naming delta and tau, a step below 2 does not") {
  const DataPtr ratings = make_dataset("ratings");
  Completion c;
  c.reset(ratings, values({"method=svt"}), 0);
  for (int i = 0; i < 60 && !is_terminal(c.snapshot()->status); ++i) c.step();
  const std::shared_ptr<const Snapshot> s = c.snapshot();
  CHECK(s->status == Status::Diverged);
  CHECK(s->iteration <= 45);
  CHECK(s->message.find("delta") != std::string::npos);
  CHECK(s->message.find("tau") != std::string::npos);
  CHECK(s->message.find("rewind") != std::string::npos);
  c.reset(ratings, values({"method=svt", "delta=1.9"}), 0);
  for (int i = 0; i < 60; ++i) c.step();
  CHECK(c.snapshot()->status == Status::Running);
  CHECK(c.snapshot()->iteration == 60);
}
