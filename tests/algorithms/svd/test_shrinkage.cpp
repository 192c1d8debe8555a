// shrinkage: S_tau(A)'s singular values, its rank and nuclear norm, the prox
// optimality of soft thresholding, Eckart-Young for the hard truncation, the
// shared spectral maps, the shared input, validation.
#include "tests/support/test_data.h"
#include "algorithms/svd/shrinkage.h"

#include "algorithms/core/rng.h"
#include "algorithms/linalg/spectral.h"
#include "algorithms/svd/svd_lowrank.h"

#include <doctest/doctest.h>

#include <Eigen/SVD>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

using namespace cilab;
using namespace cilab::test_support;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;

Eigen::MatrixXd gaussian(int m, int n, uint64_t seed) {
  Rng rng(seed);
  Eigen::MatrixXd a(m, n);
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < m; ++r) a(r, c) = rng.normal();
  return a;
}

ParamValues params(double tau, int k, const std::string& input = "dataset") {
  Shrinkage m;
  ParamValues v = default_values(m.params());
  v["input"] = parse_value(*find_param(m.params(), "input"), input);
  v["tau"] = tau;
  v["k"] = k;
  return v;
}

double metric(const Shrinkage& m, int i) { return m.shrinkage_snapshot()->metrics[static_cast<size_t>(i)]; }

// Singular values of a matrix, computed afresh (the oracle: not the module's factors).
Eigen::VectorXd singular_values(const Eigen::MatrixXd& a) {
  return Eigen::JacobiSVD<Eigen::MatrixXd>(a).singularValues();
}

// 1/2 ||A - B||_F^2 + tau ||B||_*, with ||B||_* from a fresh SVD of B.
double prox_objective(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tau) {
  return 0.5 * (a - b).squaredNorm() + tau * singular_values(b).sum();
}

}  // namespace

TEST_CASE("spectral maps: soft threshold, hard truncation, rank, nuclear norm and the two error forms") {
  Eigen::VectorXd s(5);
  s << 5.0, 3.0, 2.0, 0.5, 0.0;
  const Eigen::VectorXd soft = soft_threshold(s, 1.0);
  for (int i = 0; i < 5; ++i) CHECK(soft[i] == std::max(s[i] - 1.0, 0.0));
  CHECK(soft_threshold(s, 0.0) == s);
  CHECK(soft_threshold(s, 5.0).isZero(0.0));
  for (int k = 0; k <= 5; ++k) {
    const Eigen::VectorXd h = hard_truncate(s, k);
    for (int i = 0; i < 5; ++i) CHECK(h[i] == (i < k ? s[i] : 0.0));
    double tail = 0.0;
    for (int i = k; i < 5; ++i) tail += s[i] * s[i];
    CHECK(hard_truncation_error(s, k) == doctest::Approx(std::sqrt(tail)).epsilon(1e-15));
  }
  CHECK(hard_truncate(s, -3) == Eigen::VectorXd::Zero(5));
  CHECK(hard_truncate(s, 99) == s);
  CHECK(rank_above(s, 0.0) == 4);
  CHECK(rank_above(s, 2.0) == 2);  // strictly above
  CHECK(nuclear_norm(s) == 10.5);
  // ||A - S_tau(A)||_F^2 = sum min(sigma_i, tau)^2 = 1 + 1 + 1 + 0.25.
  CHECK(soft_threshold_error(s, 1.0) == doctest::Approx(std::sqrt(3.25)).epsilon(1e-15));
  CHECK(rank_tolerance(s, 7, 3) == doctest::Approx(7 * 5.0 * std::numeric_limits<double>::epsilon()));
  // from_factors: U diag(s) V^T from the non-zero leading columns; zero for s = 0.
  const Eigen::MatrixXd u = Eigen::MatrixXd::Identity(6, 5);
  Eigen::MatrixXd v4 = Eigen::MatrixXd::Zero(4, 5);
  v4.topLeftCorner(4, 4).setIdentity();
  const Eigen::MatrixXd b = from_factors(u, soft, v4);
  CHECK(b.rows() == 6);
  CHECK(b.cols() == 4);
  for (int i = 0; i < 4; ++i) CHECK(b(i, i) == soft[i]);
  CHECK(from_factors(u, Eigen::VectorXd::Zero(5), v4).isZero(0.0));
}

TEST_CASE("shrinkage: S_tau(A)'s singular values are exactly (sigma_i - tau)_+ (a fresh SVD of the result)") {
  const Eigen::MatrixXd a = gaussian(40, 25, 3);
  const DataPtr data = matrix_data(a);
  const Eigen::VectorXd sigma = singular_values(a);
  for (double frac : {0.05, 0.3, 0.7}) {
    const double tau = frac * sigma[0];
    CAPTURE(tau);
    Shrinkage mod;
    mod.reset(data, params(tau, 5), 1);
    const Eigen::VectorXd got = singular_values(mod.soft());
    const Eigen::VectorXd want = soft_threshold(sigma, tau);
    CHECK((got - want).cwiseAbs().maxCoeff() <= 1e-12 * sigma[0]);
    // Rank and nuclear norm as reported equal those of the returned matrix.
    const double tol = rank_tolerance(got, a.rows(), a.cols());
    CHECK(metric(mod, Shrinkage::kMetricSoftRank) == rank_above(got, tol));
    CHECK(metric(mod, Shrinkage::kMetricSoftNuclear) == doctest::Approx(got.sum()).epsilon(1e-12));
    // The measured error equals its closed form sqrt(sum min(sigma_i, tau)^2).
    CHECK(metric(mod, Shrinkage::kMetricSoftError) ==
          doctest::Approx(metric(mod, Shrinkage::kMetricSoftPredicted)).epsilon(1e-10));
    // The soft result keeps the singular vectors: its column space lies in A's top-rank space.
    const int rank = static_cast<int>(metric(mod, Shrinkage::kMetricSoftRank));
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinU);
    const Eigen::MatrixXd uk = svd.matrixU().leftCols(rank);
    CHECK((mod.soft() - uk * (uk.transpose() * mod.soft())).norm() <= 1e-10 * a.norm());
  }
}

TEST_CASE("shrinkage: rank S_tau(A) never rises as tau grows, S_0 = A, S_tau = 0 for tau >= sigma_1") {
  const Eigen::MatrixXd a = gaussian(30, 30, 5);
  Shrinkage mod;
  mod.reset(matrix_data(a), params(0.0, 3), 1);
  // tau = 0: the identity (up to rounding), full rank, ||S_0||_* = ||A||_*.
  CHECK((mod.soft() - a).norm() <= 1e-12 * a.norm());
  CHECK(metric(mod, Shrinkage::kMetricSoftRank) == 30);
  CHECK(metric(mod, Shrinkage::kMetricSoftNuclear) == metric(mod, Shrinkage::kMetricNuclear));
  const double sigma1 = metric(mod, Shrinkage::kMetricSigma1);
  CHECK(sigma1 == doctest::Approx(singular_values(a)[0]).epsilon(1e-12));
  double prev_rank = 31, prev_nuclear = INFINITY, prev_error = -1;
  for (int j = 0; j <= 60; ++j) {
    const double tau = sigma1 * j / 50.0;  // past sigma_1
    CAPTURE(tau);
    mod.set_live("tau", tau);
    const double rank = metric(mod, Shrinkage::kMetricSoftRank);
    const double nuclear = metric(mod, Shrinkage::kMetricSoftNuclear);
    const double error = metric(mod, Shrinkage::kMetricSoftError);
    CHECK(rank <= prev_rank);
    CHECK(nuclear <= prev_nuclear);
    CHECK(error >= prev_error - 1e-12 * a.norm());
    prev_rank = rank;
    prev_nuclear = nuclear;
    prev_error = error;
    if (tau >= sigma1) {
      CHECK(mod.soft().isZero(0.0));
      CHECK(rank == 0);
      CHECK(nuclear == 0.0);
      CHECK(error == doctest::Approx(a.norm()).epsilon(1e-12));
    }
  }
  CHECK(prev_rank == 0);
}

TEST_CASE("shrinkage: S_tau(A) minimises 1/2 ||A - B||_F^2 + tau ||B||_* (random perturbations never do better)") {
  for (uint64_t seed : {11u, 12u}) {
    const Eigen::MatrixXd a = gaussian(12, 9, seed);
    const Eigen::VectorXd sigma = singular_values(a);
    for (double frac : {0.1, 0.5, 1.2}) {
      const double tau = frac * sigma[0];
      CAPTURE(seed);
      CAPTURE(tau);
      Shrinkage mod;
      mod.reset(matrix_data(a), params(tau, 2), 1);
      const Eigen::MatrixXd& b = mod.soft();
      const double best = prox_objective(a, b, tau);
      CHECK(metric(mod, Shrinkage::kMetricSoftObjective) == doctest::Approx(best).epsilon(1e-10));
      Rng rng(seed + 100);
      int worse = 0;
      for (int t = 0; t < 60; ++t) {
        const double scale = std::pow(10.0, -4 + t % 5);  // 1e-4 .. 1
        Eigen::MatrixXd e(a.rows(), a.cols());
        for (Eigen::Index i = 0; i < e.size(); ++i) e.data()[i] = scale * rng.normal();
        const double other = prox_objective(a, b + e, tau);
        CHECK(other >= best - 1e-10 * best);
        worse += other > best;
      }
      CHECK(worse == 60);  // strictly convex: every perturbation is strictly worse
      // The hard truncation of any rank is no better either.
      Eigen::JacobiSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
      for (int k = 0; k <= 9; ++k)
        CHECK(prox_objective(a, from_factors(svd.matrixU(), hard_truncate(sigma, k), svd.matrixV()), tau) >=
              best - 1e-10 * best);
    }
  }
}

TEST_CASE("shrinkage: [A]_k is Eckart-Young: error sqrt(sum_{i>k} sigma_i^2), singular values sigma_1..sigma_k") {
  const Eigen::MatrixXd a = gaussian(20, 14, 8);
  const Eigen::VectorXd sigma = singular_values(a);
  Shrinkage mod;
  mod.reset(matrix_data(a), params(0.5, 0), 1);
  for (int k = 0; k <= 14; ++k) {
    CAPTURE(k);
    mod.set_live("k", k);
    double tail = 0.0;
    for (int i = k; i < 14; ++i) tail += sigma[i] * sigma[i];
    CHECK(metric(mod, Shrinkage::kMetricHardError) == doctest::Approx(std::sqrt(tail)).epsilon(1e-9));
    CHECK(metric(mod, Shrinkage::kMetricHardPredicted) == doctest::Approx(std::sqrt(tail)).epsilon(1e-12));
    CHECK(metric(mod, Shrinkage::kMetricHardRank) == k);
    CHECK(metric(mod, Shrinkage::kMetricHardNuclear) == doctest::Approx(sigma.head(k).sum()).epsilon(1e-12));
    const Eigen::VectorXd got = singular_values(mod.hard());
    CHECK((got - hard_truncate(sigma, k)).cwiseAbs().maxCoeff() <= 1e-12 * sigma[0]);
    // The soft operator, whatever its rank, never has the smaller prox objective.
    CHECK(metric(mod, Shrinkage::kMetricSoftObjective) <= metric(mod, Shrinkage::kMetricHardObjective) * (1 + 1e-12));
  }
  // Same rank: tau = sigma_{k+1} gives rank k, and the hard error is the smaller (Eckart-Young).
  for (int k : {1, 4, 9}) {
    mod.set_live("k", k);
    mod.set_live("tau", sigma[k]);
    CHECK(metric(mod, Shrinkage::kMetricSoftRank) == k);
    CHECK(metric(mod, Shrinkage::kMetricHardError) < metric(mod, Shrinkage::kMetricSoftError));
    // ... and the soft nuclear norm is smaller by k tau exactly.
    CHECK(metric(mod, Shrinkage::kMetricHardNuclear) - metric(mod, Shrinkage::kMetricSoftNuclear) ==
          doctest::Approx(k * sigma[k]).epsilon(1e-12));
  }
}

TEST_CASE("shrinkage: the input and its SVD are svd-lowrank's (one shared code path)") {
  const DataPtr data = matrix_data(gaussian(25, 16, 21));
  Shrinkage shr;
  shr.reset(data, params(0.1, 3), 1);
  SvdLowRank svd;
  ParamValues v = default_values(svd.params());
  v["input"] = 1;
  svd.reset(data, v, 1);
  const SvdFactors &f = *shr.shrinkage_snapshot()->svd, &g = *svd.svd_snapshot()->svd;
  CHECK(f.sigma == g.sigma);
  CHECK(f.u == g.u);
  CHECK(f.what == g.what);
  // The table: rows soft and hard in table_columns order (minus the operator name).
  const auto snap = shr.shrinkage_snapshot();
  REQUIRE(snap->table.size() == 2);
  CHECK(snap->table_row_names == std::vector<std::string>{"soft", "hard"});
  CHECK(snap->table[0].size() + 1 == shr.info().table_columns.size());
  CHECK(snap->table[0][0] == 0.1);
  CHECK(snap->table[1][0] == 3.0);
  CHECK(snap->table[0][1] == metric(shr, Shrinkage::kMetricSoftRank));
  CHECK(snap->table[1][3] == metric(shr, Shrinkage::kMetricHardError));
  CHECK(snap->status == Status::Converged);
}

TEST_CASE("shrinkage: validation names the parameter, photo default, live changes leave the other side alone") {
  const DataPtr data = matrix_data(gaussian(10, 6, 2));
  Shrinkage mod;
  // k above the input's rank at a reset (another input chosen): lowered to the rank, and said so.
  mod.reset(data, params(0.1, 7), 1);
  CHECK(mod.snapshot()->message.find("k = 7 lowered to 6") != std::string::npos);
  CHECK_THROWS_AS(mod.reset(nullptr, params(0.1, 2), 1), std::invalid_argument);
  mod.reset(data, params(0.1, 2), 1);
  CHECK_THROWS_WITH_AS(mod.set_live("k", 7), doctest::Contains("'k'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(mod.set_live("tau", -1), doctest::Contains("'tau'"), std::invalid_argument);
  CHECK_THROWS_AS(mod.set_live("input", 0), std::invalid_argument);
  const auto before = mod.shrinkage_snapshot();
  mod.set_live("tau", 0.5);
  const auto after = mod.shrinkage_snapshot();
  CHECK(after->hard == before->hard);  // k unchanged: the same buffer
  CHECK(after->soft != before->soft);
  mod.set_live("k", 4);
  CHECK(mod.shrinkage_snapshot()->soft == after->soft);
  // Clone: same state, independent afterwards.
  const std::unique_ptr<Module> c = mod.clone();
  mod.set_live("tau", 0.0);
  CHECK(c->snapshot()->metrics != mod.snapshot()->metrics);
  // The defaults run on the photograph (no dataset needed).
  Shrinkage photo;
  photo.reset(nullptr, default_values(photo.params()), 0);
  CHECK(photo.shrinkage_snapshot()->svd->is_image);
  CHECK(metric(photo, Shrinkage::kMetricSoftRank) == Shrinkage::Params{}.k);  // the defaults match ranks on the photo
}
