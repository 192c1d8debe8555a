// svd-lowrank: Eckart-Young identities, layers, optimality, inputs and validation.
#include "tests/support/test_data.h"
#include "algorithms/svd/svd_lowrank.h"

#include "algorithms/core/registry.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"

#include <doctest/doctest.h>

#include <Eigen/QR>
#include <Eigen/SVD>

#include <cmath>
#include <memory>
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

// n image rows of h x w pixels (random, deterministic), labelled.
DataPtr image_data(int n, int h, int w, uint64_t seed) {
  auto d = std::make_shared<Dataset>();
  d->x = gaussian(n, h * w, seed);
  d->image_h = h;
  d->image_w = w;
  d->name = "images";
  for (int i = 0; i < n; ++i) d->labels.push_back(i % 2);
  d->class_names = {"even", "odd"};
  return d;
}

ParamValues params(const std::string& input, int k = 0, int index = 0) {
  SvdLowRank m;
  ParamValues v = default_values(m.params());
  v["input"] = parse_value(*find_param(m.params(), "input"), input);
  v["k"] = k;
  v["index"] = index;
  return v;
}

double metric(const SvdLowRank& m, int i) { return m.svd_snapshot()->metrics[static_cast<size_t>(i)]; }

}  // namespace

TEST_CASE("svd-lowrank: measured errors equal the Eckart-Young expressions (random matrices, several K)") {
  struct Shape { int m, n; uint64_t seed; };
  for (const Shape s : {Shape{30, 20, 1}, Shape{20, 30, 2}, Shape{16, 16, 3}, Shape{40, 7, 4}}) {
    const Eigen::MatrixXd a = gaussian(s.m, s.n, s.seed);
    // Reference singular values from a different algorithm (one-sided Jacobi).
    const Eigen::JacobiSVD<Eigen::MatrixXd> ref(a);
    const Eigen::VectorXd sig = ref.singularValues();
    const int r = static_cast<int>(sig.size());
    SvdLowRank mod;
    mod.reset(matrix_data(a), params("dataset"), 7);
    for (int k : {0, 1, 2, r / 2, r - 1, r}) {
      CAPTURE(s.m);
      CAPTURE(s.n);
      CAPTURE(k);
      mod.set_live("k", k);
      double tail = 0.0;
      for (int i = k; i < r; ++i) tail += sig[i] * sig[i];
      const double scale = sig[0];
      CHECK(metric(mod, SvdLowRank::kMetricRank) == k);
      CHECK(metric(mod, SvdLowRank::kMetricFrobenius) == doctest::Approx(std::sqrt(tail)).epsilon(1e-9).scale(scale));
      CHECK(std::abs(metric(mod, SvdLowRank::kMetricFrobenius) - metric(mod, SvdLowRank::kMetricFrobeniusEY)) <=
            1e-11 * scale);
      const double next = k < r ? sig[k] : 0.0;
      CHECK(std::abs(metric(mod, SvdLowRank::kMetricSpectral) - next) <= 1e-10 * scale);
      CHECK(std::abs(metric(mod, SvdLowRank::kMetricSigmaNext) - next) <= 1e-12 * scale);
      // Direct check of the residual against the reference (independent of the module's norms).
      const Eigen::MatrixXd resid = a - mod.approximation();
      CHECK(resid.norm() == doctest::Approx(std::sqrt(tail)).epsilon(1e-9).scale(scale));
      const Eigen::JacobiSVD<Eigen::MatrixXd> rs(resid);
      CHECK(std::abs(rs.singularValues()[0] - next) <= 1e-10 * scale);
    }
  }
}

TEST_CASE("svd-lowrank: A_K after K steps is the sum of the first K rank-one layers and equals the jump") {
  const Eigen::MatrixXd a = gaussian(25, 18, 11);
  SvdLowRank stepped, jumped;
  stepped.reset(matrix_data(a), params("dataset"), 0);
  jumped.reset(matrix_data(a), params("dataset"), 0);
  const SvdFactors& f = *stepped.svd_snapshot()->svd;
  Eigen::MatrixXd layers = Eigen::MatrixXd::Zero(25, 18);
  for (int k = 1; k <= f.r(); ++k) {
    stepped.step();
    layers += f.sigma[k - 1] * f.u.col(k - 1) * f.v.col(k - 1).transpose();
    jumped.set_live("k", k);
    CAPTURE(k);
    CHECK(stepped.svd_snapshot()->rank == k);
    CHECK((stepped.approximation() - layers).norm() <= 1e-12 * a.norm());
    CHECK((stepped.approximation() - jumped.approximation()).norm() <= 1e-12 * a.norm());
    // The float copy the views draw matches.
    CHECK((stepped.svd_snapshot()->approx->cast<double>() - layers).cwiseAbs().maxCoeff() <=
          1e-5 * (1.0 + a.cwiseAbs().maxCoeff()));
    // rank(A_K) = K: exactly K singular values above rounding.
    const Eigen::JacobiSVD<Eigen::MatrixXd> s(stepped.approximation());
    int nonzero = 0;
    for (int i = 0; i < s.singularValues().size(); ++i) nonzero += s.singularValues()[i] > 1e-9 * f.sigma[0];
    CHECK(nonzero == k);
  }
  CHECK(stepped.status() == Status::Converged);
  CHECK(metric(stepped, SvdLowRank::kMetricFrobenius) <= 1e-12 * a.norm());
  const int it = stepped.svd_snapshot()->iteration;
  stepped.step();  // nothing left to add
  CHECK(stepped.svd_snapshot()->iteration == it);
}

TEST_CASE("svd-lowrank: U and V are orthonormal, A = U Sigma V^T, sigma descending") {
  const Eigen::MatrixXd a = gaussian(21, 13, 5);
  SvdLowRank mod;
  mod.reset(matrix_data(a), params("dataset"), 0);
  const SvdFactors& f = *mod.svd_snapshot()->svd;
  const int r = f.r();
  CHECK(r == 13);
  CHECK((f.u.transpose() * f.u - Eigen::MatrixXd::Identity(r, r)).norm() < 1e-12);
  CHECK((f.v.transpose() * f.v - Eigen::MatrixXd::Identity(r, r)).norm() < 1e-12);
  CHECK((f.u * f.sigma.asDiagonal() * f.v.transpose() - a).norm() < 1e-12 * a.norm());
  for (int i = 1; i < r; ++i) CHECK(f.sigma[i] <= f.sigma[i - 1]);
  CHECK(f.sigma[r - 1] >= 0.0);
  // ||A||_F^2 = sum sigma_i^2 and ||A||_2 = sigma_1.
  CHECK(f.frobenius * f.frobenius == doctest::Approx(f.sigma.squaredNorm()).epsilon(1e-12));
  CHECK(SvdLowRank::spectral_norm(a, 3) == doctest::Approx(f.sigma[0]).epsilon(1e-12));
}

TEST_CASE("svd-lowrank: A_K beats random rank-K matrices (Eckart-Young optimality)") {
  const Eigen::MatrixXd a = gaussian(20, 15, 21);
  SvdLowRank mod;
  mod.reset(matrix_data(a), params("dataset"), 0);
  for (int k : {1, 3, 7}) {
    mod.set_live("k", k);
    const double best_f = metric(mod, SvdLowRank::kMetricFrobenius);
    const double best_2 = metric(mod, SvdLowRank::kMetricSpectral);
    for (int trial = 0; trial < 20; ++trial) {
      // Projection of A on a random K-dimensional column space: B = Q Q^T A, rank K.
      const Eigen::MatrixXd g = gaussian(20, k, 1000 + static_cast<uint64_t>(trial) * 7 + static_cast<uint64_t>(k));
      const Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
      const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(20, k);
      const Eigen::MatrixXd b = q * (q.transpose() * a);
      CHECK((a - b).norm() >= best_f * (1 - 1e-12));
      CHECK(SvdLowRank::spectral_norm(a - b, 5) >= best_2 * (1 - 1e-10));
    }
  }
}

TEST_CASE("svd-lowrank: Lanczos spectral norm matches Jacobi SVD, also with clustered singular values") {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const int m = 30 + static_cast<int>(seed) * 5, n = 25;
    // A = U diag(s) V^T with a tight cluster at the top: s = 1, 1 - 1e-6, 1 - 2e-6, then 0.5 ...
    const Eigen::HouseholderQR<Eigen::MatrixXd> qu(gaussian(m, n, seed)), qv(gaussian(n, n, seed + 50));
    const Eigen::MatrixXd u = qu.householderQ() * Eigen::MatrixXd::Identity(m, n);
    const Eigen::MatrixXd v = qv.householderQ();
    Eigen::VectorXd s(n);
    for (int i = 0; i < n; ++i) s[i] = i < 3 ? 1.0 - 1e-6 * i : 0.5 / (1 + i);
    const Eigen::MatrixXd a = u * s.asDiagonal() * v.transpose();
    CHECK(SvdLowRank::spectral_norm(a, seed) == doctest::Approx(1.0).epsilon(1e-10));
    const Eigen::MatrixXd g = gaussian(m, n, seed + 100);
    const Eigen::JacobiSVD<Eigen::MatrixXd> ref(g);
    CHECK(SvdLowRank::spectral_norm(g, seed) == doctest::Approx(ref.singularValues()[0]).epsilon(1e-11));
  }
  CHECK(SvdLowRank::spectral_norm(Eigen::MatrixXd::Zero(4, 3), 1) == 0.0);
  // Rank one: exact after the first Lanczos step.
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(6, 1, 6), y = Eigen::VectorXd::LinSpaced(4, -1, 2);
  CHECK(SvdLowRank::spectral_norm(x * y.transpose(), 2) == doctest::Approx(x.norm() * y.norm()).epsilon(1e-13));
}

TEST_CASE("svd-lowrank: image data uses the row chosen by index, reshaped row-major") {
  const DataPtr data = image_data(5, 6, 4, 8);
  SvdLowRank mod;
  mod.reset(data, params("dataset", 0, 3), 0);
  const SvdFactors& f = *mod.svd_snapshot()->svd;
  REQUIRE(f.m() == 6);
  REQUIRE(f.n() == 4);
  CHECK(f.is_image);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 4; ++c) CHECK(f.a(r, c) == data->x(3, r * 4 + c));
  CHECK(f.what.find("row 3") != std::string::npos);
  CHECK(f.what.find("odd") != std::string::npos);  // its class name
  CHECK_THROWS_WITH_AS(mod.reset(data, params("dataset", 0, 5), 0),
                       doctest::Contains("parameter 'index' = 5 is out of range"), std::invalid_argument);
}

TEST_CASE("svd-lowrank: a Fashion-MNIST item is a 28 x 28 image of its row") {
  // dataset-fashion-mnist is a declared dependency: a missing dataset fails here (DataError).
  DataPtr data;
  REQUIRE_NOTHROW(data = make_dataset("fashion-mnist:split=test,n=10"));
  SvdLowRank mod;
  mod.reset(data, params("dataset", 0, 2), 0);
  const SvdFactors& f = *mod.svd_snapshot()->svd;
  CHECK(f.m() == 28);
  CHECK(f.n() == 28);
  CHECK(f.a(10, 7) == data->x(2, 10 * 28 + 7));
  CHECK(f.frobenius * f.frobenius == doctest::Approx(f.sigma.squaredNorm()).epsilon(1e-12));
}

TEST_CASE("svd-lowrank: the shipped photograph is a gray image in [0, 1] with ||A||_F^2 = sum sigma^2") {
  SvdLowRank mod;
  mod.reset(nullptr, params("photo", 5), 0);
  const auto s = mod.svd_snapshot();
  const SvdFactors& f = *s->svd;
  CHECK(f.is_image);
  CHECK(f.m() == 512);
  CHECK(f.n() == 512);
  CHECK(f.a.minCoeff() >= 0.0);
  CHECK(f.a.maxCoeff() <= 1.0);
  CHECK(f.a.maxCoeff() - f.a.minCoeff() > 0.5);  // a real photograph, not a flat image
  CHECK(f.frobenius * f.frobenius == doctest::Approx(f.sigma.squaredNorm()).epsilon(1e-12));
  CHECK(s->rank == 5);
  CHECK(s->metrics[SvdLowRank::kMetricSpectral] == doctest::Approx(f.sigma[5]).epsilon(1e-9));
  CHECK(s->metrics[SvdLowRank::kMetricFrobenius] ==
        doctest::Approx(f.eckart_young_frobenius(5)).epsilon(1e-9));
}

TEST_CASE("svd-lowrank: the table has one row per rank computed, sorted, matching the metrics") {
  const Eigen::MatrixXd a = gaussian(12, 9, 3);
  SvdLowRank mod;
  mod.reset(matrix_data(a), params("dataset", 2), 0);
  for (int i = 0; i < 3; ++i) mod.step();  // ranks 2..5
  Intent jump;
  jump.kind = "set_rank";
  jump.index = 0;
  CHECK(mod.apply(jump));  // rank 0 inserted first
  const auto s = mod.svd_snapshot();
  REQUIRE(s->table.size() == 5);
  const int ranks[] = {0, 2, 3, 4, 5};
  for (size_t i = 0; i < 5; ++i) {
    REQUIRE(s->table[i].size() == mod.info().table_columns.size());
    CHECK(s->table[i][0] == ranks[i]);
    CHECK(s->table[i][3] == doctest::Approx(s->svd->sigma_next(ranks[i])));
    CHECK(s->table[i][1] == doctest::Approx(s->svd->eckart_young_frobenius(ranks[i])).epsilon(1e-9));
  }
  CHECK(s->rank == 0);
  CHECK(s->status == Status::Running);
}

TEST_CASE("svd-lowrank: bad parameters and inputs are rejected with clear messages") {
  const Eigen::MatrixXd a = gaussian(6, 4, 1);
  SvdLowRank mod;
  // k above the input's rank is lowered to it, and the run says so (issue 29: switching the input
  // while k was larger than its rank used to be refused).
  mod.reset(matrix_data(a), params("dataset", 5), 0);
  CHECK(mod.snapshot()->message.find("k = 5 lowered to 4, the largest rank of the 6 x 4 input") != std::string::npos);
  CHECK_THROWS_WITH_AS(mod.reset(nullptr, params("dataset"), 0), doctest::Contains("no dataset"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(mod.reset(matrix_data(Eigen::MatrixXd(0, 3)), params("dataset"), 0),
                       doctest::Contains("empty"), std::invalid_argument);
  Eigen::MatrixXd bad = a;
  bad(2, 1) = std::nan("");
  CHECK_THROWS_WITH_AS(mod.reset(matrix_data(bad), params("dataset"), 0),
                       doctest::Contains("non-finite value (nan) at entry (2, 1)"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(mod.reset(matrix_data(Eigen::MatrixXd::Zero(3000, 1000)), params("dataset"), 0),
                       doctest::Contains("try fewer rows"), std::invalid_argument);
  ParamValues v = params("dataset");
  v["k"] = -1;
  CHECK_THROWS_WITH_AS(mod.reset(matrix_data(a), v, 0), doctest::Contains("'k'"), std::invalid_argument);
  v = params("dataset");
  v["input"] = 7;
  CHECK_THROWS_AS(mod.reset(matrix_data(a), v, 0), std::invalid_argument);

  mod.reset(matrix_data(a), params("dataset"), 0);
  CHECK_THROWS_WITH_AS(mod.set_live("k", 9), doctest::Contains("expected an integer in [0, 4]"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(mod.set_live("k", 1.5), doctest::Contains("expected an integer"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(mod.set_live("input", 1), doctest::Contains("cannot change mid-run"),
                       std::invalid_argument);
  Intent bad_rank;
  bad_rank.kind = "set_rank";
  bad_rank.index = 5;
  CHECK_FALSE(mod.apply(bad_rank));
  bad_rank.kind = "move_centroid";
  bad_rank.index = 1;
  CHECK_FALSE(mod.apply(bad_rank));
}

TEST_CASE("svd-lowrank: clones continue identically - registered with a table") {
  const Eigen::MatrixXd a = gaussian(14, 10, 2);
  SvdLowRank mod;
  mod.reset(matrix_data(a), params("dataset"), 4);
  mod.step();
  std::unique_ptr<Module> copy = mod.clone();
  for (int i = 0; i < 4; ++i) {
    mod.step();
    copy->step();
  }
  CHECK(mod.snapshot()->metrics == copy->snapshot()->metrics);
  CHECK(mod.snapshot()->table == copy->snapshot()->table);
  std::unique_ptr<Module> made = make_module("svd-lowrank");
  CHECK(made->info().name == "svd-lowrank");
  CHECK(made->info().table_columns ==
        std::vector<std::string>{"rank", "frobenius_error", "spectral_error", "sigma_next"});
  CHECK(made->info().metrics.size() == 6);
}
