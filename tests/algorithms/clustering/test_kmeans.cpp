// k-means: invariants of Lloyd's algorithm, seeding, edits and determinism.
#include "tests/support/test_data.h"
#include "algorithms/clustering/kmeans.h"
#include "algorithms/core/parallel.h"

#include "algorithms/core/registry.h"
#include "algorithms/core/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::test_support;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;

// n points around `centers` random centres in [-scale, scale]^d, unit noise * spread.
DataPtr uniform(int n, int d, uint64_t seed) {
  Rng rng(seed);
  Eigen::MatrixXd x(n, d);
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < d; ++t) x(i, t) = rng.uniform(-1.0, 1.0);
  return matrix_data(x);
}

ParamValues params(int k, const std::string& init, int max_iter = 300) {
  KMeans m;
  ParamValues v = default_values(m.params());
  v["k"] = k;
  v["init"] = parse_value(*find_param(m.params(), "init"), init);
  v["max_iter"] = max_iter;
  return v;
}

std::shared_ptr<const KMeansSnapshot> snap(const KMeans& m) { return m.kmeans_snapshot(); }

double objective(const KMeans& m) { return snap(m)->metrics[KMeans::kMetricObjective]; }

// J(z, U) recomputed directly from a snapshot (independent of the module's bookkeeping).
double direct_objective(const Dataset& data, const KMeansSnapshot& s) {
  double j = 0.0;
  for (int i = 0; i < data.rows(); ++i)
    j += (data.x.row(i) - s.centroids.row(s.assignments()[static_cast<size_t>(i)])).squaredNorm();
  return j;
}

int nearest(const Eigen::MatrixXd& c, const Eigen::RowVectorXd& x) {
  int best = 0;
  double bd = std::numeric_limits<double>::infinity();
  for (int j = 0; j < c.rows(); ++j) {
    const double t = (x - c.row(j)).squaredNorm();
    if (t < bd) {
      bd = t;
      best = j;
    }
  }
  return best;
}

// Runs half-steps to the end; checks that J never rises and matches the direct sum.
void run_and_check_monotone(const DataPtr& data, int k, const std::string& init, uint64_t seed) {
  KMeans m;
  m.reset(data, params(k, init), seed);
  double prev = std::numeric_limits<double>::infinity();
  for (int h = 0; h < 400 && !is_terminal(m.status()); ++h) {
    m.sub_step();
    const auto s = snap(m);
    const double j = s->metrics[KMeans::kMetricObjective];
    REQUIRE(std::isfinite(j));
    CHECK(j <= prev);  // exactly: the module chains J through non-negative decrements
    const double direct = direct_objective(*data, *s);
    CHECK(std::abs(j - direct) <= 1e-9 * std::max(1.0, direct));
    prev = j;
  }
  CHECK(m.status() == Status::Converged);
}

}  // namespace

TEST_CASE("kmeans: objective never rises after any half-step (many seeds and datasets)") {
  struct Case {
    const char* name;
    DataPtr data;
    int k;
  };
  Eigen::MatrixXd dup(60, 2);
  for (int i = 0; i < 60; ++i) dup.row(i) << (i % 3) * 1.0, (i % 3 == 2 ? 5.0 : 0.0);
  Eigen::MatrixXd small_n = uniform(9, 2, 77)->x;
  const std::vector<Case> cases = {
      {"blobs 2-D", blob_data(300, 4, 2, 10.0, 1.0, 1), 4},
      {"uniform 2-D", uniform(250, 2, 2), 6},
      {"overlapping blobs", blob_data(300, 5, 2, 1.0, 1.0, 3), 5},
      {"duplicates", matrix_data(dup), 4},
      {"d = 1", uniform(200, 1, 4), 5},
      {"d = 5 (GEMM path)", blob_data(300, 3, 5, 3.0, 1.0, 5), 4},
      {"d = 12 (GEMM path)", uniform(300, 12, 6), 7},
      {"k = 1", blob_data(200, 3, 2, 5.0, 1.0, 7), 1},
      {"k = n", matrix_data(small_n), 9},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    for (uint64_t seed = 0; seed < 30; ++seed) {
      CAPTURE(seed);
      run_and_check_monotone(c.data, c.k, "kmeans++", seed);
      run_and_check_monotone(c.data, c.k, "random", seed);
    }
  }
}

TEST_CASE("kmeans: identical seeds give bit-identical runs, different seeds differ") {
  const DataPtr data = blob_data(500, 5, 3, 4.0, 1.5, 11);
  auto run = [&](uint64_t seed) {
    KMeans m;
    m.reset(data, params(5, "kmeans++"), seed);
    for (int t = 0; t < 300 && !is_terminal(m.status()); ++t) m.step();
    return snap(m);
  };
  const auto a = run(42), b = run(42);
  CHECK(a->iteration == b->iteration);
  CHECK(a->metrics[0] == b->metrics[0]);  // bit-identical objective
  CHECK((a->centroids.array() == b->centroids.array()).all());
  CHECK(a->assignments() == b->assignments());
  bool any_differs = false;
  for (uint64_t seed = 1; seed < 6; ++seed) {
    KMeans m;
    m.reset(data, params(5, "kmeans++"), seed);
    KMeans m42;
    m42.reset(data, params(5, "kmeans++"), 42);
    if (!(snap(m)->centroids.array() == snap(m42)->centroids.array()).all()) any_differs = true;
  }
  CHECK(any_differs);
}

TEST_CASE("kmeans: results do not depend on the number of threads") {
  const DataPtr low = blob_data(50000, 8, 2, 10.0, 2.0, 12);
  const DataPtr high = blob_data(12000, 6, 16, 3.0, 2.0, 13);
  for (const DataPtr& data : {low, high}) {
    auto run = [&](int threads) {
      set_max_threads(threads);
      KMeans m;
      m.reset(data, params(8, "kmeans++"), 3);
      for (int t = 0; t < 15; ++t) m.step();
      set_max_threads(0);
      return snap(m);
    };
    const auto one = run(1), two = run(2), four = run(4);
    CHECK(one->metrics[0] == two->metrics[0]);
    CHECK(one->metrics[0] == four->metrics[0]);
    CHECK((one->centroids.array() == two->centroids.array()).all());
    CHECK((one->centroids.array() == four->centroids.array()).all());
    CHECK(one->assignments() == two->assignments());
  }
}

TEST_CASE("kmeans: kmeans++ picks distinct rows - D^2 probabilities sum to 1, chosen rows at 0") {
  const DataPtr data = blob_data(400, 6, 2, 8.0, 1.0, 21);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    KMeans m;
    m.reset(data, params(6, "kmeans++"), seed);
    const auto s = snap(m);
    REQUIRE(s->seeding);
    const std::vector<int>& rows = s->seeding->rows;
    REQUIRE(rows.size() == 6u);
    CHECK(std::set<int>(rows.begin(), rows.end()).size() == rows.size());
    // Centroids are stored centred: (x_r - mean) + mean is x_r up to rounding.
    for (int j = 0; j < 6; ++j)
      CHECK((s->centroids.row(j) - data->x.row(rows[static_cast<size_t>(j)])).norm() <= 1e-12);
    CHECK(s->seeding->probs[0].empty());
    for (size_t r = 1; r < rows.size(); ++r) {
      const std::vector<double>& p = s->seeding->probs[r];
      REQUIRE(p.size() == 400u);
      double total = 0.0;
      for (double v : p) {
        CHECK(v >= 0.0);
        total += v;
      }
      CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
      for (size_t q = 0; q < r; ++q) CHECK(p[static_cast<size_t>(rows[q])] == 0.0);
      CHECK(p[static_cast<size_t>(rows[r])] > 0.0);
      // p_i is proportional to the squared distance to the nearest earlier seed.
      const int i = (rows[r] + 17) % 400;
      double d2 = std::numeric_limits<double>::infinity();
      for (size_t q = 0; q < r; ++q)
        d2 = std::min(d2, (data->x.row(i) - data->x.row(rows[q])).squaredNorm());
      const int ref = rows[0] == 5 ? 6 : 5;  // another row, to compare ratios
      double d2r = std::numeric_limits<double>::infinity();
      for (size_t q = 0; q < r; ++q)
        d2r = std::min(d2r, (data->x.row(ref) - data->x.row(rows[q])).squaredNorm());
      if (d2r > 0) CHECK(p[static_cast<size_t>(i)] * d2r == doctest::Approx(p[static_cast<size_t>(ref)] * d2).epsilon(1e-9));
    }
    // Seeding is recorded only at iteration 0.
    m.step();
    CHECK_FALSE(snap(m)->seeding);
  }
}

TEST_CASE("kmeans: kmeans++ on many rows keeps only the last round's probabilities") {
  const DataPtr data = uniform(100000, 1, 22);  // n (k - 1) = 6.3e6 > 4e6
  KMeans m;
  m.reset(data, params(64, "kmeans++"), 1);
  const auto s = snap(m);
  REQUIRE(s->seeding);
  CHECK(std::set<int>(s->seeding->rows.begin(), s->seeding->rows.end()).size() == 64u);
  for (int r = 0; r < 63; ++r) CHECK(s->seeding->probs[static_cast<size_t>(r)].empty());
  CHECK(s->seeding->probs[63].size() == 100000u);
}

TEST_CASE("kmeans: kmeans++ with coincident points still picks distinct rows") {
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(10, 2);
  x.row(9) << 1.0, 1.0;
  KMeans m;
  m.reset(matrix_data(x), params(4, "kmeans++"), 5);
  const std::vector<int>& rows = snap(m)->seeding->rows;
  CHECK(std::set<int>(rows.begin(), rows.end()).size() == 4u);
  run_and_check_monotone(matrix_data(x), 4, "kmeans++", 5);
}

TEST_CASE("kmeans: at convergence each point is at its nearest centroid, each centroid the mean") {
  for (uint64_t seed = 0; seed < 10; ++seed) {
    const DataPtr data = blob_data(400, 4, seed % 2 ? 2 : 6, 3.0, 1.5, 100 + seed);
    KMeans m;
    m.reset(data, params(4, "kmeans++"), seed);
    for (int t = 0; t < 300 && !is_terminal(m.status()); ++t) m.step();
    REQUIRE(m.status() == Status::Converged);
    const auto s = snap(m);
    const std::vector<int>& z = s->assignments();
    Eigen::MatrixXd mean = Eigen::MatrixXd::Zero(4, data->cols());
    std::vector<int> count(4, 0);
    for (int i = 0; i < data->rows(); ++i) {
      const int zi = z[static_cast<size_t>(i)];
      const int best = nearest(s->centroids, data->x.row(i));
      const double gap = (data->x.row(i) - s->centroids.row(zi)).squaredNorm() -
                         (data->x.row(i) - s->centroids.row(best)).squaredNorm();
      CHECK(gap <= 1e-9);  // nearest (up to the documented rounding tolerance)
      mean.row(z[static_cast<size_t>(i)]) += data->x.row(i);
      ++count[static_cast<size_t>(z[static_cast<size_t>(i)])];
    }
    for (int j = 0; j < 4; ++j) {
      REQUIRE(count[static_cast<size_t>(j)] > 0);
      CHECK(count[static_cast<size_t>(j)] == s->cluster_sizes[static_cast<size_t>(j)]);
      CHECK((mean.row(j) / count[static_cast<size_t>(j)] - s->centroids.row(j)).norm() <=
            1e-10 * (1.0 + s->centroids.row(j).norm()));
    }
    // One more step changes nothing.
    m.step();
    CHECK(snap(m)->iteration == s->iteration);
  }
}

TEST_CASE("kmeans: an empty cluster is re-seeded at the farthest point, J does not rise") {
  // Rows 0 and 1 coincide, so with init=first centroids 0 and 1 tie and the
  // lowest index wins every tie: cluster 1 is empty after the first assign.
  Eigen::MatrixXd x(6, 1);
  x << 0.0, 0.0, 5.0, 6.0, 7.0, 20.0;
  const DataPtr data = matrix_data(x);
  KMeans m;
  m.reset(data, params(3, "first"), 0);
  m.sub_step();  // assign
  auto s = snap(m);
  CHECK(s->phase == 1);
  CHECK(s->cluster_sizes[1] == 0);
  const double j_assign = s->metrics[0];
  CHECK(j_assign == doctest::Approx(0 + 0 + 0 + 1 + 4 + 225));
  m.sub_step();  // update: re-seed cluster 1 at row 5 (x = 20, farthest from centroid 5)
  s = snap(m);
  CHECK(s->message.find("cluster 1 was empty: re-seeded at the farthest point (row 5)") !=
        std::string::npos);
  REQUIRE(s->reseeded.size() == 1u);
  CHECK(s->reseeded[0] == 1);
  CHECK(s->metrics[KMeans::kMetricReseeded] == 1.0);
  CHECK(s->centroids(1, 0) == 20.0);
  CHECK(s->assignments()[5] == 1);
  CHECK(s->metrics[0] <= j_assign);
  CHECK(s->metrics[0] == doctest::Approx(direct_objective(*data, *s)));
  CHECK(s->metrics[0] == doctest::Approx(2.0));  // {0,0} {20} {5,6,7}
  for (int t = 0; t < 10 && !is_terminal(m.status()); ++t) m.step();
  CHECK(m.status() == Status::Converged);
  CHECK(objective(m) == doctest::Approx(2.0));
}

TEST_CASE("kmeans: an empty cluster with no movable point keeps its centroid and says so") {
  Eigen::MatrixXd x = Eigen::MatrixXd::Constant(5, 2, 3.0);  // all points identical
  KMeans m;
  m.reset(matrix_data(x), params(3, "first"), 0);
  m.step();
  const auto s = snap(m);
  CHECK(s->message.find("cluster 1 is empty") != std::string::npos);
  CHECK(s->metrics[0] == 0.0);
  m.step();
  CHECK(m.status() == Status::Converged);
}

TEST_CASE("kmeans: init=first uses rows 0..k-1 - iteration 0 has no assignment") {
  const DataPtr data = uniform(50, 3, 31);
  KMeans m;
  m.reset(data, params(5, "first"), 123);
  const auto s = snap(m);
  CHECK(s->iteration == 0);
  CHECK(s->phase == 0);
  CHECK(s->status == Status::Running);
  for (int j = 0; j < 5; ++j) CHECK((s->centroids.row(j) - data->x.row(j)).norm() <= 1e-12);
  CHECK(s->seeding->rows == std::vector<int>({0, 1, 2, 3, 4}));
  CHECK(s->assignments().size() == 50u);
  CHECK(std::all_of(s->assignments().begin(), s->assignments().end(), [](int z) { return z == -1; }));
  CHECK(std::isnan(s->metrics[0]));
  CHECK(s->metrics.size() == m.info().metrics.size());
}

TEST_CASE("kmeans: init=random picks k distinct rows") {
  const DataPtr data = uniform(12, 2, 32);
  for (uint64_t seed = 0; seed < 30; ++seed) {
    KMeans m;
    m.reset(data, params(12, "random"), seed);
    const std::vector<int>& rows = snap(m)->seeding->rows;
    CHECK(std::set<int>(rows.begin(), rows.end()).size() == 12u);
  }
}

TEST_CASE("kmeans: reset validates k, parameters and data") {
  const DataPtr data = uniform(10, 2, 41);
  KMeans m;
  try {
    m.reset(data, params(12, "first"), 0);
    FAIL("k > n accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) ==
          "parameter 'k' = 12 exceeds the number of samples (10); try k <= 10");
  }
  ParamValues bad = params(3, "first");
  bad["init"] = 4;  // no such choice
  CHECK_THROWS_AS(m.reset(data, bad, 0), std::invalid_argument);
  bad = params(3, "first");
  bad["k"] = 0;
  CHECK_THROWS_AS(m.reset(data, bad, 0), std::invalid_argument);
  bad = params(3, "first");
  bad["tolerance"] = 1;
  CHECK_THROWS_AS(m.reset(data, bad, 0), std::invalid_argument);
  CHECK_THROWS_AS(m.reset(matrix_data(Eigen::MatrixXd(0, 2)), params(1, "first"), 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(m.reset(nullptr, params(1, "first"), 0), std::invalid_argument);
  Eigen::MatrixXd nan_x = uniform(10, 2, 42)->x;
  nan_x(7, 1) = std::numeric_limits<double>::quiet_NaN();
  try {
    m.reset(matrix_data(nan_x), params(2, "first"), 0);
    FAIL("NaN accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("row 7, column 'x1'") != std::string::npos);
  }
  CHECK_THROWS_AS(m.set_live("k", 3), std::invalid_argument);
  m.reset(data, params(2, "first"), 0);
  CHECK_THROWS_AS(m.set_live("max_iter", 0), std::invalid_argument);
  CHECK_THROWS_AS(m.set_live("nonsense", 1), std::invalid_argument);
}

TEST_CASE("kmeans: max_iter stops the run and is live") {
  const DataPtr data = blob_data(600, 6, 2, 2.0, 1.5, 51);
  KMeans m;
  m.reset(data, params(6, "random", 2), 3);
  m.step();
  CHECK(m.status() == Status::Running);
  m.step();
  CHECK(m.status() == Status::Stopped);
  CHECK(snap(m)->message.find("max_iter") != std::string::npos);
  m.step();  // no-op when stopped
  CHECK(snap(m)->iteration == 2);
  m.set_live("max_iter", 300);
  CHECK(m.status() == Status::Running);
  for (int t = 0; t < 300 && !is_terminal(m.status()); ++t) m.step();
  CHECK(m.status() == Status::Converged);
}

TEST_CASE("kmeans: move_centroid restarts a converged run - the objective stays consistent") {
  const DataPtr data = blob_data(300, 3, 3, 6.0, 1.0, 61);
  KMeans m;
  m.reset(data, params(3, "kmeans++"), 1);
  for (int t = 0; t < 300 && !is_terminal(m.status()); ++t) m.step();
  REQUIRE(m.status() == Status::Converged);
  const double j_conv = objective(m);
  Intent in;
  in.kind = "move_centroid";
  in.index = 2;
  in.values = {50.0, -40.0, 3.0};
  REQUIRE(m.apply(in));
  auto s = snap(m);
  CHECK(s->status == Status::Running);
  CHECK(s->centroids.row(2).isApprox(Eigen::RowVector3d(50.0, -40.0, 3.0)));
  CHECK(s->metrics[0] > j_conv);  // J(z, U') with the moved centroid
  CHECK(s->metrics[0] == doctest::Approx(direct_objective(*data, *s)).epsilon(1e-9));
  double prev = s->metrics[0];
  for (int h = 0; h < 400 && !is_terminal(m.status()); ++h) {
    m.sub_step();
    CHECK(objective(m) <= prev);
    prev = objective(m);
  }
  CHECK(m.status() == Status::Converged);
  // Size-2 coordinates set only the first two features.
  in.values = {1.0, 2.0};
  in.index = 0;
  const double third = snap(m)->centroids(0, 2);
  REQUIRE(m.apply(in));
  CHECK(snap(m)->centroids(0, 0) == doctest::Approx(1.0));
  CHECK(snap(m)->centroids(0, 2) == doctest::Approx(third));
  // Rejections.
  in.values = {1.0, 2.0, 3.0, 4.0};
  CHECK_FALSE(m.apply(in));
  in.values = {1.0, std::numeric_limits<double>::infinity(), 0.0};
  CHECK_FALSE(m.apply(in));
  in.values = {1.0, 2.0, 3.0};
  in.index = 3;
  CHECK_FALSE(m.apply(in));
  in.kind = "add_point";
  in.index = 0;
  CHECK_FALSE(m.apply(in));
  in.kind = "place_centroid";  // not manual init
  CHECK_FALSE(m.apply(in));
}

TEST_CASE("kmeans: move_centroid half-way through an iteration restarts at assign") {
  const DataPtr data = blob_data(200, 2, 2, 5.0, 1.0, 62);
  KMeans m;
  m.reset(data, params(2, "first"), 0);
  m.sub_step();
  REQUIRE(snap(m)->phase == 1);
  Intent in{"move_centroid", 1, {9.0, 9.0}};
  REQUIRE(m.apply(in));
  CHECK(snap(m)->phase == 0);
  CHECK(snap(m)->iteration == 0);
  m.sub_step();
  CHECK(snap(m)->phase == 1);
  for (int i = 0; i < data->rows(); ++i)
    CHECK(snap(m)->assignments()[static_cast<size_t>(i)] == nearest(snap(m)->centroids, data->x.row(i)));
}

TEST_CASE("kmeans: manual init places centroids with place_centroid") {
  Eigen::MatrixXd x(8, 2);
  x << 0, 0, 0, 1, 1, 0, 1, 1, 10, 10, 10, 11, 11, 10, 11, 11;
  const DataPtr data = matrix_data(x);
  KMeans m;
  m.reset(data, params(2, "manual"), 0);
  auto s = snap(m);
  CHECK(s->placed == std::vector<char>({0, 0}));
  CHECK(s->seeding->rows.empty());
  REQUIRE(m.apply(Intent{"place_centroid", -1, {10.5, 10.5}}));
  REQUIRE(m.apply(Intent{"place_centroid", -1, {0.5, 0.4}}));
  CHECK_FALSE(m.apply(Intent{"place_centroid", -1, {0.0, 0.0}}));  // all placed
  s = snap(m);
  CHECK(s->placed == std::vector<char>({1, 1}));
  CHECK(s->centroids.row(0).isApprox(Eigen::RowVector2d(10.5, 10.5)));
  CHECK(std::isnan(s->metrics[0]));
  m.step();
  s = snap(m);
  for (int i = 0; i < 4; ++i) CHECK(s->assignments()[static_cast<size_t>(i)] == 1);
  for (int i = 4; i < 8; ++i) CHECK(s->assignments()[static_cast<size_t>(i)] == 0);
  CHECK(s->metrics[0] == doctest::Approx(8 * 0.5));
  // After the first step only move_centroid is accepted.
  CHECK_FALSE(m.apply(Intent{"place_centroid", 0, {1.0, 1.0}}));
  CHECK(m.apply(Intent{"move_centroid", 0, {1.0, 1.0}}));
}

TEST_CASE("kmeans: clone continues identically to the original") {
  const DataPtr data = blob_data(3000, 5, 7, 3.0, 2.0, 71);
  for (int halves : {0, 3, 4}) {
    KMeans m;
    m.reset(data, params(5, "kmeans++"), 9);
    for (int h = 0; h < halves; ++h) m.sub_step();
    std::unique_ptr<Module> c = m.clone();
    for (int t = 0; t < 8; ++t) {
      m.step();
      c->step();
    }
    const auto a = snap(m);
    const auto b = std::dynamic_pointer_cast<const KMeansSnapshot>(c->snapshot());
    REQUIRE(b);
    CHECK(a->metrics[0] == b->metrics[0]);
    CHECK((a->centroids.array() == b->centroids.array()).all());
    CHECK(a->assignments() == b->assignments());
    CHECK(a->iteration == b->iteration);
  }
}

TEST_CASE("kmeans: matches a naive reference implementation on random data") {
  for (int d : {3, 7}) {
    for (uint64_t seed = 0; seed < 5; ++seed) {
      CAPTURE(d);
      CAPTURE(seed);
      const DataPtr data = blob_data(500, 4, d, 2.0, 1.5, 200 + seed);
      const int k = 5, n = data->rows();
      // Reference: Lloyd with direct distances, same seeds (init=first).
      Eigen::MatrixXd c = data->x.topRows(k);
      std::vector<int> z(static_cast<size_t>(n), -1);
      KMeans m;
      m.reset(data, params(k, "first"), 0);
      for (int it = 0; it < 50; ++it) {
        for (int i = 0; i < n; ++i) z[static_cast<size_t>(i)] = nearest(c, data->x.row(i));
        double j_assign = 0.0;
        for (int i = 0; i < n; ++i) j_assign += (data->x.row(i) - c.row(z[static_cast<size_t>(i)])).squaredNorm();
        Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(k, d);
        std::vector<int> cnt(static_cast<size_t>(k), 0);
        for (int i = 0; i < n; ++i) {
          sum.row(z[static_cast<size_t>(i)]) += data->x.row(i);
          ++cnt[static_cast<size_t>(z[static_cast<size_t>(i)])];
        }
        for (int j = 0; j < k; ++j) {
          REQUIRE(cnt[static_cast<size_t>(j)] > 0);  // the rule for empties is tested elsewhere
          c.row(j) = sum.row(j) / cnt[static_cast<size_t>(j)];
        }
        double j_update = 0.0;
        for (int i = 0; i < n; ++i) j_update += (data->x.row(i) - c.row(z[static_cast<size_t>(i)])).squaredNorm();

        if (is_terminal(m.status())) break;
        m.sub_step();
        CHECK(snap(m)->assignments() == z);
        CHECK(objective(m) == doctest::Approx(j_assign).epsilon(1e-10));
        m.sub_step();
        CHECK((snap(m)->centroids - c).norm() <= 1e-9 * (1.0 + c.norm()));
        CHECK(objective(m) == doctest::Approx(j_update).epsilon(1e-10));
      }
      CHECK(m.status() == Status::Converged);
    }
  }
}

TEST_CASE("kmeans: the objective is invariant to permuting the cluster labels") {
  const DataPtr data = blob_data(400, 4, 2, 4.0, 1.2, 81);
  const std::vector<int> perm = {2, 0, 3, 1};  // centroid j of run A is centroid perm[j] of run B
  KMeans a, b;
  a.reset(data, params(4, "manual"), 0);
  b.reset(data, params(4, "manual"), 0);
  for (int j = 0; j < 4; ++j) {
    const std::vector<double> pos = {data->x(10 * j + 1, 0), data->x(10 * j + 1, 1)};
    REQUIRE(a.apply(Intent{"place_centroid", j, pos}));
    REQUIRE(b.apply(Intent{"place_centroid", perm[static_cast<size_t>(j)], pos}));
  }
  for (int h = 0; h < 200 && !is_terminal(a.status()); ++h) {
    a.sub_step();
    b.sub_step();
    const auto sa = snap(a), sb = snap(b);
    CHECK(sa->metrics[0] == doctest::Approx(sb->metrics[0]).epsilon(1e-12));
    for (int i = 0; i < data->rows(); ++i)
      CHECK(perm[static_cast<size_t>(sa->assignments()[static_cast<size_t>(i)])] == sb->assignments()[static_cast<size_t>(i)]);
  }
  CHECK(a.status() == Status::Converged);
  CHECK(b.status() == Status::Converged);
}

TEST_CASE("kmeans: kmeans++ beats random seeding on average on well separated blobs") {
  const DataPtr data = blob_data(800, 8, 2, 30.0, 0.5, 91);
  auto mean_final_j = [&](const std::string& init) {
    double total = 0.0;
    for (uint64_t seed = 0; seed < 40; ++seed) {
      KMeans m;
      m.reset(data, params(8, init), seed);
      for (int t = 0; t < 300 && !is_terminal(m.status()); ++t) m.step();
      total += objective(m);
    }
    return total / 40.0;
  };
  const double pp = mean_final_j("kmeans++"), rnd = mean_final_j("random");
  CAPTURE(pp);
  CAPTURE(rnd);
  CHECK(pp < 0.8 * rnd);
}

TEST_CASE("kmeans: snapshots share the labels and never copy the dataset") {
  const DataPtr data = blob_data(5000, 3, 2, 5.0, 1.0, 95);
  KMeans m;
  m.reset(data, params(3, "kmeans++"), 2);
  m.sub_step();
  const auto after_assign = snap(m);
  m.sub_step();
  const auto after_update = snap(m);
  CHECK(after_assign->labels == after_update->labels);  // same vector, shared
  CHECK(after_assign->phase == 1);
  CHECK(after_update->phase == 0);
  CHECK(after_update->iteration == 1);
  CHECK(snap(m) == after_update);  // cached until the state changes
  const size_t bytes = after_update->byte_size();
  CHECK(bytes >= 5000 * sizeof(int));
  CHECK(bytes < 5000 * sizeof(int) + 4096);  // no copy of the 5000 x 2 doubles
}

TEST_CASE("kmeans: registered, info and parameter table are consistent") {
  std::unique_ptr<Module> m = make_module("kmeans");
  const ModuleInfo& info = m->info();
  CHECK(info.name == "kmeans");
  CHECK(info.sub_steps == std::vector<std::string>({"assign", "update"}));
  CHECK(info.metrics.at(0).name == "objective");
  CHECK(info.metrics.at(1).name == "changed");
  const ParamSpec* init = find_param(m->params(), "init");
  REQUIRE(init);
  CHECK(init->choices == std::vector<std::string>({"random", "kmeans++", "first", "manual"}));
  CHECK(format_value(*init, init->def) == "kmeans++");
  CHECK(find_param(m->params(), "max_iter")->def == 300);
  CHECK(find_param(m->params(), "max_iter")->update == ParamUpdate::Live);
  CHECK(find_param(m->params(), "k")->update == ParamUpdate::Rebuild);
}

TEST_CASE("kmeans: direct path (d = 1..4) matches brute force over several blocks and a ragged tail") {
  // 2 full row blocks of 2048 plus 13 rows: full chunks, the padded last chunk
  // and several blocks reduced in order, for every specialised dimension.
  const int n = 2 * 2048 + 13, k = 7;
  for (int d = 1; d <= 4; ++d) {
    CAPTURE(d);
    const DataPtr data = blob_data(n, 5, d, 3.0, 1.5, 300 + static_cast<uint64_t>(d));
    KMeans m;
    m.reset(data, params(k, "first"), 0);
    std::vector<int> prev(static_cast<size_t>(n), -1);
    long total_changed = 0;
    for (int it = 0; it < 12 && !is_terminal(m.status()); ++it) {
      const Eigen::MatrixXd c = snap(m)->centroids;
      m.sub_step();  // assign
      const auto s = snap(m);
      const std::vector<int>& z = s->assignments();
      std::vector<int> count(static_cast<size_t>(k), 0);
      long changed = 0;
      for (int i = 0; i < n; ++i) {
        const int zi = z[static_cast<size_t>(i)];
        REQUIRE(zi >= 0);
        REQUIRE(zi < k);
        const int best = nearest(c, data->x.row(i));
        if (zi != best) {
          // Only the rounding hysteresis may keep a point off its nearest centroid.
          CHECK(zi == prev[static_cast<size_t>(i)]);
          CHECK((data->x.row(i) - c.row(zi)).squaredNorm() -
                    (data->x.row(i) - c.row(best)).squaredNorm() <=
                1e-9);
        }
        ++count[static_cast<size_t>(zi)];
        if (zi != prev[static_cast<size_t>(i)]) ++changed;
      }
      CHECK(count == s->cluster_sizes);
      CHECK(s->metrics[KMeans::kMetricChanged] == static_cast<double>(changed));
      CHECK(s->metrics[0] == doctest::Approx(direct_objective(*data, *s)).epsilon(1e-10));
      total_changed += it > 0 ? changed : 0;
      prev = z;
      m.sub_step();  // update: every centroid at the mean of its points
      const auto u = snap(m);
      Eigen::MatrixXd mean = Eigen::MatrixXd::Zero(k, d);
      for (int i = 0; i < n; ++i) mean.row(prev[static_cast<size_t>(i)]) += data->x.row(i);
      for (int j = 0; j < k; ++j) {
        REQUIRE(count[static_cast<size_t>(j)] > 0);
        CHECK((mean.row(j) / count[static_cast<size_t>(j)] - u->centroids.row(j)).norm() <=
              1e-12 * (1.0 + u->centroids.row(j).norm()));
      }
      CHECK(u->metrics[0] == doctest::Approx(direct_objective(*data, *u)).epsilon(1e-10));
    }
    CHECK(total_changed > 0);  // the run really moved points after the first assign

    // Bit-identical whatever the number of threads.
    auto run = [&](int threads) {
      set_max_threads(threads);
      KMeans r;
      r.reset(data, params(k, "kmeans++"), 5);
      for (int t = 0; t < 10; ++t) r.step();
      set_max_threads(0);
      return snap(r);
    };
    const auto one = run(1), two = run(2), three = run(3);
    CHECK(one->metrics[0] == two->metrics[0]);
    CHECK(one->metrics[0] == three->metrics[0]);
    CHECK((one->centroids.array() == two->centroids.array()).all());
    CHECK((one->centroids.array() == three->centroids.array()).all());
    CHECK(one->assignments() == two->assignments());
    CHECK(one->assignments() == three->assignments());
  }
}

TEST_CASE("kmeans: held snapshots keep their labels while the run and its clones go on") {
  // Label vectors are recycled between assigns only when nothing else holds
  // them; a snapshot or a clone that still does must never see them change.
  for (int d : {2, 6}) {  // direct path and GEMM path
    CAPTURE(d);
    const DataPtr data = blob_data(5000, 6, d, 2.0, 1.5, 400 + static_cast<uint64_t>(d));
    KMeans m;
    m.reset(data, params(6, "first"), 0);
    m.sub_step();
    const auto held = snap(m);
    const std::vector<int> copy = held->assignments();
    for (int t = 0; t < 6; ++t) {
      m.step();
      (void)snap(m);  // snapshots come and go (cached until the next half-step)
    }
    const auto later = snap(m);
    REQUIRE(later->assignments() != copy);  // labels did change after `held`
    CHECK(held->assignments() == copy);

    // A clone shares the current labels; stepping it must not touch the original's.
    const std::vector<int> before = later->assignments();
    std::unique_ptr<Module> c = m.clone();
    for (int t = 0; t < 6; ++t) c->step();
    CHECK(snap(m)->assignments() == before);
    CHECK(later->assignments() == before);
    for (int t = 0; t < 6; ++t) m.step();
    const auto b = std::dynamic_pointer_cast<const KMeansSnapshot>(c->snapshot());
    REQUIRE(b);
    CHECK(snap(m)->assignments() == b->assignments());
    CHECK(snap(m)->metrics[0] == b->metrics[0]);
  }
}
