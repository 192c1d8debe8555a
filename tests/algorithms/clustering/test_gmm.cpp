// Gaussian mixture (EM): monotone log-likelihood, closed forms of the E and M
// steps, the K = 1 fit, singularities, edits, lockstep k-means and the K sweep.
#include "tests/support/test_data.h"
#include "algorithms/clustering/gmm.h"
#include "algorithms/core/parallel.h"
#include "algorithms/clustering/gmm_select.h"

#include "algorithms/core/registry.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::test_support;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;

const char* const kCovNames[] = {"full", "diag", "spherical", "tied"};

ParamValues params(int k, const std::string& cov, const std::string& init, double reg = 1e-6,
                   int max_iter = 100, double tol = 1e-3) {
  Gmm m;
  ParamValues v = default_values(m.params());
  v["k"] = k;
  v["covariance"] = parse_value(*find_param(m.params(), "covariance"), cov);
  v["init"] = parse_value(*find_param(m.params(), "init"), init);
  v["reg"] = reg;
  v["max_iter"] = max_iter;
  v["tol"] = tol;
  return v;
}

double ll_of(const Gmm& m) { return m.gmm_snapshot()->metrics[Gmm::kMetricLogLikelihood]; }

// Mean log-likelihood of x under a snapshot's parameters, computed naively.
double naive_ll(const Eigen::MatrixXd& x, const GmmSnapshot& s, Eigen::MatrixXd* resp = nullptr) {
  const int n = static_cast<int>(x.rows()), d = static_cast<int>(x.cols()), k = s.k();
  Eigen::MatrixXd lp(n, k);
  for (int j = 0; j < k; ++j) {
    const Eigen::MatrixXd& c = s.covariances[static_cast<size_t>(j)];
    Eigen::LLT<Eigen::MatrixXd> llt(c);
    const double logdet = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
    for (int i = 0; i < n; ++i) {
      const Eigen::VectorXd diff = (x.row(i) - s.means.row(j)).transpose();
      const double q = diff.dot(llt.solve(diff));
      lp(i, j) = std::log(s.weights[j]) - 0.5 * (d * std::log(2.0 * M_PI) + logdet + q);
    }
  }
  double total = 0.0;
  if (resp) resp->resize(n, k);
  for (int i = 0; i < n; ++i) {
    const double mx = lp.row(i).maxCoeff();
    const double lse = mx + std::log((lp.row(i).array() - mx).exp().sum());
    total += lse;
    if (resp) resp->row(i) = (lp.row(i).array() - lse).exp().matrix();
  }
  return total / n;
}

// scikit-learn's _estimate_gaussian_parameters + weight normalisation, naively.
void naive_m(const Eigen::MatrixXd& x, const Eigen::MatrixXd& q, int cov_type, double reg,
             Eigen::VectorXd& w, Eigen::MatrixXd& mu, std::vector<Eigen::MatrixXd>& cov) {
  const int n = static_cast<int>(x.rows()), d = static_cast<int>(x.cols()),
            k = static_cast<int>(q.cols());
  const double eps10 = 10.0 * std::numeric_limits<double>::epsilon();
  Eigen::VectorXd nk = q.colwise().sum().transpose().array() + eps10;
  w = nk / nk.sum();
  mu = (q.transpose() * x).array().colwise() / nk.array();
  cov.assign(static_cast<size_t>(k), Eigen::MatrixXd::Zero(d, d));
  Eigen::MatrixXd tied = Eigen::MatrixXd::Zero(d, d);
  for (int j = 0; j < k; ++j) {
    Eigen::MatrixXd c = Eigen::MatrixXd::Zero(d, d);
    for (int i = 0; i < n; ++i) {
      const Eigen::VectorXd diff = (x.row(i) - mu.row(j)).transpose();
      c += q(i, j) * diff * diff.transpose();
    }
    tied += c;
    c /= nk[j];
    if (cov_type == 0) cov[static_cast<size_t>(j)] = c + reg * Eigen::MatrixXd::Identity(d, d);
    if (cov_type == 1)
      cov[static_cast<size_t>(j)] = (c.diagonal().array() + reg).matrix().asDiagonal();
    if (cov_type == 2)
      cov[static_cast<size_t>(j)] = (c.trace() / d + reg) * Eigen::MatrixXd::Identity(d, d);
  }
  if (cov_type == 3)
    for (int j = 0; j < k; ++j)
      cov[static_cast<size_t>(j)] = tied / nk.sum() + reg * Eigen::MatrixXd::Identity(d, d);
}

void run_to_end(Gmm& m, int guard = 100000) {
  while (!is_terminal(m.status()) && guard-- > 0) m.step();
}

// Blob of 40 points near the origin plus one far outlier (row 40).
DataPtr blob_with_outlier() {
  Rng rng(11);
  Eigen::MatrixXd x(41, 2);
  for (int i = 0; i < 40; ++i) x.row(i) << rng.normal(), rng.normal();
  x.row(40) << 30.0, 25.0;
  return matrix_data(x);
}

// The precise invariant of EM with reg > 0 (see gmm.cpp): the M-step maximises
// the expected complete-data log-likelihood Q only at reg = 0, and Sigma = C +
// reg I loses Q(C) - Q(C + reg I) = (N_j / 2) sum_{lambda in eig C_j} h(reg /
// lambda), h(x) = log(1 + x) - x / (1 + x) >= 0 (~ x^2 / 2). Since EM gives
// l(theta') - l(theta) >= Q(theta') - Q(theta), the mean log-likelihood can fall
// by at most this bound per sample (0 at reg = 0).
double reg_bound(const GmmSnapshot& s, double reg) {
  if (reg == 0.0) return 0.0;
  double b = 0.0;
  for (int j = 0; j < s.k(); ++j) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(s.covariances[static_cast<size_t>(j)],
                                                      Eigen::EigenvaluesOnly);
    double hj = 0.0;
    for (int t = 0; t < es.eigenvalues().size(); ++t) {
      const double lambda = es.eigenvalues()[t] - reg;  // eigenvalue of C_j
      if (!(lambda > 0.0)) return std::numeric_limits<double>::infinity();
      const double x = reg / lambda;
      hj += std::log1p(x) - x / (1.0 + x);
    }
    b += 0.5 * s.weights[j] * hj;
  }
  return b;
}

void check_monotone(double reg, int* checked, double* worst_slack) {
  struct Case {
    std::string name;
    DataPtr data;
    int k;
  };
  const std::vector<Case> cases = {
      {"blobs", make_dataset("blobs:n=400,centers=3,seed=2"), 3},
      {"faithful", make_dataset("faithful"), 2},
      {"iris", make_dataset("iris"), 3},
      {"anisotropic", make_dataset("anisotropic:n=300,seed=4"), 3},
      {"overlap-5d", blob_data(300, 4, 5, 2.0, 1.5, 9), 4},
  };
  for (const Case& c : cases)
    for (int cov = 0; cov < 4; ++cov)
      for (const char* init : {"kmeans", "random", "random_points"})
        for (uint64_t seed = 0; seed < 4; ++seed) {
          CAPTURE(c.name);
          CAPTURE(cov);
          CAPTURE(init);
          CAPTURE(seed);
          Gmm m;
          m.reset(c.data, params(c.k, kCovNames[cov], init, reg, 60, 0.0), seed);
          double prev = -std::numeric_limits<double>::infinity(), bound = 0.0;
          while (!is_terminal(m.status())) {
            m.sub_step();  // E: the log-likelihood of the parameters entering the iteration
            const double ll = ll_of(m);
            REQUIRE(std::isfinite(ll));
            CHECK(ll >= prev - bound - 1e-12 * std::abs(prev));
            if (ll < prev) *worst_slack = std::max(*worst_slack, (prev - ll) / (bound + 1e-300));
            prev = ll;
            m.sub_step();  // M
            bound = reg_bound(*m.gmm_snapshot(), reg);
            ++*checked;
          }
          // With reg = 0 a component may genuinely collapse (the singularity):
          // then the run stops Diverged with the last good metrics.
          if (reg > 0.0) CHECK(m.status() != Status::Diverged);
          if (m.status() == Status::Diverged) {
            CHECK(m.gmm_snapshot()->collapsed >= 0);
            CHECK(ll_of(m) == prev);
          }
          // score() at the final parameters continues the sequence.
          CHECK(m.score() >= prev - bound - 1e-12 * std::abs(prev));
        }
}

}  // namespace

TEST_CASE("gmm: log-likelihood never falls with reg = 0 (seeds x datasets x covariance types)") {
  int checked = 0;
  double slack = 0.0;
  check_monotone(0.0, &checked, &slack);
  CHECK(checked > 1000);
}

TEST_CASE("gmm: with reg = 1e-6 the log-likelihood falls at most by the reg bound") {
  int checked = 0;
  double slack = 0.0;
  check_monotone(1e-6, &checked, &slack);
  CHECK(checked > 1000);
  MESSAGE("largest drop / reg bound: " << slack);
}

TEST_CASE("gmm: responsibilities are a distribution per row, weights sum to 1, covariances PSD") {
  const DataPtr data = blob_data(500, 3, 3, 4.0, 1.0, 5);
  for (int cov = 0; cov < 4; ++cov) {
    Gmm m;
    m.reset(data, params(3, kCovNames[cov], "random"), 1);
    for (int t = 0; t < 5; ++t) {
      m.sub_step();
      const auto s = m.gmm_snapshot();
      REQUIRE(s->resp);
      REQUIRE(s->resp->rows() == 500);
      REQUIRE(s->resp->cols() == 3);
      CHECK(s->resp->minCoeff() >= 0.0);
      CHECK(s->resp->maxCoeff() <= 1.0 + 1e-15);
      CHECK((s->resp->rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-13);
      m.sub_step();
      const auto s2 = m.gmm_snapshot();
      CHECK(std::abs(s2->weights.sum() - 1.0) < 1e-14);
      for (int j = 0; j < 3; ++j) {
        const Eigen::MatrixXd& c = s2->covariances[static_cast<size_t>(j)];
        CHECK((c - c.transpose()).norm() == doctest::Approx(0.0));
        CHECK(s2->min_eigenvalue[static_cast<size_t>(j)] > 0.0);
      }
    }
  }
}

TEST_CASE("gmm: K = 1 fits the sample mean and the MLE covariance (+ reg) and converges") {
  const DataPtr data = make_dataset("iris");
  const Eigen::MatrixXd& x = data->x;
  const Eigen::RowVectorXd mean = x.colwise().mean();
  const Eigen::MatrixXd xc = x.rowwise() - mean;
  const Eigen::MatrixXd mle = xc.transpose() * xc / static_cast<double>(x.rows());
  const double reg = 1e-3;
  const int d = 4;
  for (int cov = 0; cov < 4; ++cov)
    for (const char* init : {"kmeans", "random", "random_points"}) {
      CAPTURE(cov);
      CAPTURE(init);
      Gmm m;
      m.reset(data, params(1, kCovNames[cov], init, reg, 100, 1e-10), 3);
      m.step();
      const auto s = m.gmm_snapshot();
      Eigen::MatrixXd expect = mle;
      if (cov == 1) expect = Eigen::MatrixXd(mle.diagonal().asDiagonal());
      if (cov == 2) expect = Eigen::MatrixXd::Identity(d, d) * (mle.trace() / d);
      expect += reg * Eigen::MatrixXd::Identity(d, d);
      CHECK((s->means.row(0) - mean).norm() < 1e-12);
      CHECK((s->covariances[0] - expect).norm() < 1e-12);
      CHECK(s->weights[0] == doctest::Approx(1.0));
      run_to_end(m);
      CHECK(m.status() == Status::Converged);
      // The M-step of iteration 1 gives the MLE; random_points starts elsewhere.
      CHECK(m.gmm_snapshot()->iteration <= (std::string(init) == "random_points" ? 3 : 2));
    }
}

TEST_CASE("gmm: E and M sub-steps equal their closed forms on a hand-made case") {
  Eigen::MatrixXd x(7, 2);
  x << 0.0, 0.0, 1.0, 0.5, 0.2, 1.1, 4.0, 4.0, 5.0, 3.5, 4.4, 5.2, 2.0, 2.5;
  const DataPtr data = matrix_data(x);
  for (int cov = 0; cov < 4; ++cov)
    for (const char* init : {"random", "random_points"}) {
      CAPTURE(cov);
      CAPTURE(init);
      Gmm m;
      m.reset(data, params(2, kCovNames[cov], init, 0.01, 100, 0.0), 7);
      for (int it = 0; it < 3; ++it) {
        const auto before = m.gmm_snapshot();
        Eigen::MatrixXd q;
        const double ll = naive_ll(x, *before, &q);
        m.sub_step();  // E
        const auto e = m.gmm_snapshot();
        REQUIRE(e->resp);
        CHECK((*e->resp - q).cwiseAbs().maxCoeff() < 1e-12);
        CHECK(e->metrics[Gmm::kMetricLogLikelihood] == doctest::Approx(ll).epsilon(1e-12));
        CHECK(e->phase == 1);
        m.sub_step();  // M
        const auto s = m.gmm_snapshot();
        Eigen::VectorXd w;
        Eigen::MatrixXd mu;
        std::vector<Eigen::MatrixXd> c;
        naive_m(x, *e->resp, cov, 0.01, w, mu, c);
        CHECK((s->weights - w).cwiseAbs().maxCoeff() < 1e-12);
        CHECK((s->means - mu).cwiseAbs().maxCoeff() < 1e-12);
        for (int j = 0; j < 2; ++j)
          CHECK((s->covariances[static_cast<size_t>(j)] - c[static_cast<size_t>(j)])
                    .cwiseAbs()
                    .maxCoeff() < 1e-12);
        CHECK(s->phase == 0);
        CHECK(s->iteration == it + 1);
      }
    }
}

TEST_CASE("gmm: duplicate points and d > n stay finite with reg > 0") {
  // All rows identical.
  const DataPtr same = matrix_data(Eigen::MatrixXd::Constant(30, 3, 2.5));
  // Half the rows duplicated many times.
  Eigen::MatrixXd dup(60, 2);
  for (int i = 0; i < 60; ++i) dup.row(i) << (i % 3 == 0 ? 1.0 : 0.0), (i % 3 == 0 ? 1.0 : 5.0);
  // d = 12 > n = 6.
  const DataPtr wide = blob_data(6, 2, 12, 3.0, 1.0, 4);
  for (const DataPtr& data : {same, matrix_data(dup), wide})
    for (int cov = 0; cov < 4; ++cov)
      for (const char* init : {"kmeans", "random", "random_points"}) {
        CAPTURE(cov);
        CAPTURE(init);
        CAPTURE(data->cols());
        Gmm m;
        m.reset(data, params(2, kCovNames[cov], init, 1e-6, 50, 1e-3), 2);
        run_to_end(m);
        const auto s = m.gmm_snapshot();
        CHECK(s->status != Status::Diverged);
        for (double v : s->metrics)
          if (!std::isnan(v) || s->iteration > 1) CHECK(std::isfinite(v));
        CHECK(std::isfinite(s->metrics[Gmm::kMetricLogLikelihood]));
        CHECK(s->means.allFinite());
        CHECK(s->weights.allFinite());
        for (const Eigen::MatrixXd& c : s->covariances) CHECK(c.allFinite());
        CHECK(std::isfinite(m.score()));
      }
}

TEST_CASE("gmm: with reg = 0 a component collapsing onto one point is Diverged, never NaN") {
  const DataPtr data = blob_with_outlier();
  for (int cov : {0, 1, 2}) {
    CAPTURE(cov);
    Gmm m;
    m.reset(data, params(2, kCovNames[cov], "manual", 0.0, 100, 0.0), 0);
    Intent a;
    a.kind = "place_mean";
    a.index = 0;
    a.values = {0.0, 0.0};
    REQUIRE(m.apply(a));
    a.index = 1;
    a.values = {30.0, 25.0};  // exactly on the outlier
    REQUIRE(m.apply(a));
    double last_ll = -std::numeric_limits<double>::infinity();
    int guard = 0;
    while (!is_terminal(m.status()) && guard++ < 200) {
      m.sub_step();
      const auto s = m.gmm_snapshot();
      for (double v : s->metrics) CHECK(!std::isinf(v));
      if (s->iteration > 0 || s->phase == 1) CHECK(std::isfinite(s->metrics[0]));
      if (s->status != Status::Diverged && s->phase == 1) last_ll = s->metrics[0];
    }
    const auto s = m.gmm_snapshot();
    REQUIRE(s->status == Status::Diverged);
    CHECK(s->collapsed == 1);
    CHECK(s->message.find("component 1") != std::string::npos);
    CHECK(s->message.find("reg > 0") != std::string::npos);
    CHECK(s->message.find("ewind") != std::string::npos);
    CHECK(s->metrics[Gmm::kMetricLogLikelihood] == last_ll);  // the last good value
    CHECK(std::isfinite(s->metrics[Gmm::kMetricLogLikelihood]));
    CHECK(std::isfinite(s->metrics[Gmm::kMetricMinEigenvalue]));
    CHECK(s->min_eigenvalue[1] < 1e-12);
    CHECK((s->means.row(1) - data->x.row(40)).norm() < 1e-9);  // shown on the point
    for (const Eigen::MatrixXd& c : s->covariances) CHECK(c.allFinite());
    // Stepping a diverged run does nothing.
    const int it = s->iteration;
    m.step();
    CHECK(m.gmm_snapshot()->iteration == it);
    // Setting reg > 0 retries the M-step and the run continues, finite.
    m.set_live("reg", 1e-6);
    CHECK(m.status() == Status::Running);
    for (int t = 0; t < 5; ++t) m.step();
    CHECK(m.status() != Status::Diverged);
    CHECK(std::isfinite(ll_of(m)));
  }
}

TEST_CASE("gmm: with reg = 0 on well-spread data EM runs normally (no false collapse)") {
  for (int cov = 0; cov < 4; ++cov) {
    Gmm m;
    m.reset(make_dataset("faithful"), params(2, kCovNames[cov], "kmeans", 0.0, 200, 1e-9), 0);
    run_to_end(m);
    CHECK(m.status() == Status::Converged);
  }
}

TEST_CASE("gmm: convergence follows scikit-learn's tol, max_iter stops and is live") {
  Gmm m;
  m.reset(make_dataset("faithful"), params(2, "full", "random_points", 1e-6, 3, 1e-3), 0);
  run_to_end(m);
  CHECK(m.status() == Status::Stopped);
  CHECK(m.gmm_snapshot()->iteration == 3);
  m.set_live("max_iter", 500);
  CHECK(m.status() == Status::Running);
  run_to_end(m);
  const auto s = m.gmm_snapshot();
  REQUIRE(s->status == Status::Converged);
  CHECK(std::abs(s->metrics[Gmm::kMetricDelta]) < 1e-3);
  CHECK(s->iteration >= 2);
  CHECK_THROWS_AS(m.set_live("k", 3), std::invalid_argument);
  CHECK_THROWS_AS(m.set_live("reg", -1.0), std::invalid_argument);
  CHECK_THROWS_AS(m.set_live("max_iter", 2.5), std::invalid_argument);
}

TEST_CASE("gmm: tol is live both ways: a smaller tol reopens a converged run, a larger one ends a running run") {
  Gmm m;
  m.reset(make_dataset("faithful"), params(2, "full", "random_points", 1e-6, 500, 1e-2), 0);
  run_to_end(m);
  REQUIRE(m.status() == Status::Converged);
  const int stopped_at = m.gmm_snapshot()->iteration;
  const double delta = std::abs(m.gmm_snapshot()->metrics[Gmm::kMetricDelta]);
  REQUIRE(delta < 1e-2);
  m.set_live("tol", delta * 2.0);  // still converged: nothing changes
  CHECK(m.status() == Status::Converged);
  m.set_live("tol", delta / 2.0);  // now |delta| >= tol: EM goes on
  CHECK(m.status() == Status::Running);
  m.step();
  CHECK(m.gmm_snapshot()->iteration == stopped_at + 1);
  m.set_live("tol", 1e-9);
  run_to_end(m);
  REQUIRE(m.status() == Status::Converged);
  CHECK(std::abs(m.gmm_snapshot()->metrics[Gmm::kMetricDelta]) < 1e-9);
  CHECK(m.gmm_snapshot()->iteration > stopped_at + 1);
  // Raised above the last |delta| mid-run: converged at once, at this iteration.
  Gmm r;
  r.reset(make_dataset("faithful"), params(2, "full", "random_points", 1e-6, 500, 0.0), 0);
  for (int i = 0; i < 4; ++i) r.step();
  REQUIRE(r.status() == Status::Running);
  const int at = r.gmm_snapshot()->iteration;
  r.set_live("tol", 1.0);
  CHECK(r.status() == Status::Converged);
  CHECK(r.gmm_snapshot()->iteration == at);
}

TEST_CASE("gmm: iteration 0 has parameters, no responsibilities and n/a metrics") {
  Gmm m;
  m.reset(make_dataset("faithful"), params(2, "full", "kmeans"), 0);
  const auto s = m.gmm_snapshot();
  CHECK(s->iteration == 0);
  CHECK(s->phase == 0);
  CHECK(s->resp == nullptr);
  CHECK(s->k() == 2);
  CHECK(s->means.cols() == 2);
  CHECK(s->covariances.size() == 2);
  CHECK(std::isnan(s->metrics[Gmm::kMetricLogLikelihood]));
  CHECK(s->n_parameters == Gmm::n_parameters(Gmm::Covariance::Full, 2, 2));
  CHECK(Gmm::n_parameters(Gmm::Covariance::Full, 2, 2) == 11);
  CHECK(Gmm::n_parameters(Gmm::Covariance::Diag, 3, 4) == 3 * 4 + 12 + 2);
  CHECK(Gmm::n_parameters(Gmm::Covariance::Spherical, 3, 4) == 3 + 12 + 2);
  CHECK(Gmm::n_parameters(Gmm::Covariance::Tied, 3, 4) == 10 + 12 + 2);
  m.sub_step();
  const auto e = m.gmm_snapshot();
  CHECK(std::isfinite(e->metrics[0]));
  CHECK(std::isnan(e->metrics[Gmm::kMetricDelta]));  // n/a at iteration 1 (sklearn: +inf)
}

TEST_CASE("gmm: kmeans init equals the k-means fit's one-hot M-step") {
  const DataPtr data = make_dataset("blobs:n=300,centers=3,seed=5");
  KMeans km;
  ParamValues kv = default_values(km.params());
  kv["k"] = 3;
  km.reset(data, kv, 42);
  while (!is_terminal(km.status())) km.step();
  const std::vector<int>& labels = km.kmeans_snapshot()->assignments();
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(300, 3);
  for (int i = 0; i < 300; ++i) q(i, labels[static_cast<size_t>(i)]) = 1.0;
  Eigen::VectorXd w;
  Eigen::MatrixXd mu;
  std::vector<Eigen::MatrixXd> c;
  naive_m(data->x, q, 0, 1e-6, w, mu, c);
  Gmm m;
  m.reset(data, params(3, "full", "kmeans"), 42);
  const auto s = m.gmm_snapshot();
  CHECK((s->means - mu).cwiseAbs().maxCoeff() < 1e-10);
  CHECK((s->weights - w).cwiseAbs().maxCoeff() < 1e-12);
  for (int j = 0; j < 3; ++j)
    CHECK((s->covariances[static_cast<size_t>(j)] - c[static_cast<size_t>(j)]).cwiseAbs().maxCoeff() <
          1e-10);
}

TEST_CASE("gmm: random_points picks k distinct rows, equal weights, the data covariance") {
  const DataPtr data = make_dataset("iris");
  Gmm m;
  m.reset(data, params(4, "full", "random_points", 0.0), 9);
  const auto s = m.gmm_snapshot();
  std::vector<int> rows;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < data->rows(); ++i)
      if ((data->x.row(i) - s->means.row(j)).norm() < 1e-12) {
        rows.push_back(i);
        break;
      }
  CHECK(rows.size() == 4);
  const Eigen::MatrixXd xc = data->x.rowwise() - data->x.colwise().mean();
  const Eigen::MatrixXd mle = xc.transpose() * xc / static_cast<double>(data->rows());
  for (int j = 0; j < 4; ++j) {
    CHECK(s->weights[j] == doctest::Approx(0.25));
    CHECK((s->covariances[static_cast<size_t>(j)] - mle).norm() < 1e-12);
  }
}

TEST_CASE("gmm: same seed gives bit-identical runs, results do not depend on the thread count") {
  const DataPtr data = blob_data(9000, 4, 3, 5.0, 1.2, 3);  // several row blocks, ragged tail
  auto run = [&](uint64_t seed, int threads) {
    set_max_threads(threads);
    Gmm m;
    m.reset(data, params(4, "full", "random", 1e-6, 15, 0.0), seed);
    std::vector<double> lls;
    for (int t = 0; t < 15; ++t) {
      m.step();
      lls.push_back(ll_of(m));
    }
    set_max_threads(0);
    return std::make_pair(lls, m.gmm_snapshot());
  };
  const auto a = run(5, 1), b = run(5, 4), c = run(6, 0);
  CHECK(a.first == b.first);
  CHECK(a.second->means == b.second->means);
  CHECK(*a.second->resp == *b.second->resp);
  CHECK(a.first != c.first);
}

TEST_CASE("gmm: move_mean mid-iteration abandons it, restarts with E and reopens a finished run") {
  Gmm m;
  m.reset(make_dataset("faithful"), params(2, "full", "kmeans"), 0);
  run_to_end(m);
  REQUIRE(m.status() == Status::Converged);
  const int it = m.gmm_snapshot()->iteration;
  Intent mv;
  mv.kind = "move_mean";
  mv.index = 1;
  mv.values = {2.0, 55.0};
  REQUIRE(m.apply(mv));
  auto s = m.gmm_snapshot();
  CHECK(s->status == Status::Running);
  CHECK(s->phase == 0);
  CHECK(s->means(1, 0) == doctest::Approx(2.0));
  CHECK(s->means(1, 1) == doctest::Approx(55.0));
  m.sub_step();  // E
  CHECK(m.gmm_snapshot()->phase == 1);
  mv.values = {4.5, 80.0};
  REQUIRE(m.apply(mv));  // after E: the half iteration is dropped
  s = m.gmm_snapshot();
  CHECK(s->phase == 0);
  CHECK(s->iteration == it);
  m.sub_step();
  s = m.gmm_snapshot();
  CHECK(s->phase == 1);  // the next sub-step was an E
  run_to_end(m);
  CHECK(m.status() == Status::Converged);
  // Rejected edits.
  Intent bad = mv;
  bad.index = 2;
  CHECK_FALSE(m.apply(bad));
  bad = mv;
  bad.values = {1.0};
  CHECK_FALSE(m.apply(bad));
  bad = mv;
  bad.values = {1.0, std::nan("")};
  CHECK_FALSE(m.apply(bad));
  bad = mv;
  bad.kind = "place_mean";  // not manual init
  CHECK_FALSE(m.apply(bad));
  bad.kind = "nonsense";
  CHECK_FALSE(m.apply(bad));
}

TEST_CASE("gmm: manual init places means with place_mean (index -1 = next unplaced)") {
  Gmm m;
  m.reset(make_dataset("faithful"), params(3, "full", "manual"), 0);
  auto s = m.gmm_snapshot();
  CHECK(s->placed == std::vector<char>{0, 0, 0});
  Intent p;
  p.kind = "place_mean";
  p.index = -1;
  p.values = {2.0, 50.0};
  REQUIRE(m.apply(p));
  p.values = {4.5, 80.0};
  REQUIRE(m.apply(p));
  s = m.gmm_snapshot();
  CHECK(s->placed == std::vector<char>{1, 1, 0});
  CHECK(s->means(1, 1) == doctest::Approx(80.0));
  m.step();
  CHECK_FALSE(m.apply(p));  // only before the first step
}

TEST_CASE("gmm: clone continues identically, including the lockstep k-means") {
  const DataPtr data = make_dataset("blobs:n=500,centers=3,seed=1");
  Gmm m;
  ParamValues v = params(3, "diag", "random_points", 1e-6, 100, 0.0);
  v["compare_kmeans"] = 1;
  m.reset(data, v, 4);
  m.step();
  m.sub_step();
  std::unique_ptr<Module> c = m.clone();
  for (int t = 0; t < 6; ++t) {
    m.sub_step();
    c->sub_step();
  }
  const auto a = m.gmm_snapshot();
  const auto b = std::dynamic_pointer_cast<const GmmSnapshot>(c->snapshot());
  REQUIRE(b);
  CHECK(a->means == b->means);
  CHECK(a->metrics[0] == b->metrics[0]);
  REQUIRE(a->kmeans);
  REQUIRE(b->kmeans);
  CHECK(a->kmeans != b->kmeans);
  CHECK(a->kmeans->centroids == b->kmeans->centroids);
  CHECK(a->kmeans->iteration == b->kmeans->iteration);
}

TEST_CASE("gmm: compare_kmeans starts at the same means and steps one Lloyd iteration per EM one") {
  const DataPtr data = make_dataset("faithful");
  Gmm m;
  ParamValues v = params(2, "full", "random_points", 1e-6, 100, 0.0);
  v["compare_kmeans"] = 1;
  m.reset(data, v, 3);
  auto s = m.gmm_snapshot();
  REQUIRE(s->kmeans);
  CHECK((s->kmeans->centroids - s->means).norm() < 1e-9);
  m.sub_step();
  s = m.gmm_snapshot();
  CHECK(s->kmeans->phase == 1);  // assigned with the E-step
  m.sub_step();
  s = m.gmm_snapshot();
  CHECK(s->kmeans->iteration == 1);
  CHECK(s->kmeans->phase == 0);
  Intent mv;
  mv.kind = "move_mean";
  mv.index = 0;
  mv.values = {1.5, 45.0};
  REQUIRE(m.apply(mv));
  s = m.gmm_snapshot();
  CHECK(s->kmeans->centroids(0, 1) == doctest::Approx(45.0));
  Gmm off;
  off.reset(data, params(2, "full", "kmeans"), 3);
  CHECK(off.gmm_snapshot()->kmeans == nullptr);
}

TEST_CASE("gmm: reset validates k, parameters and data") {
  Gmm m;
  const DataPtr small = matrix_data(Eigen::MatrixXd::Random(3, 2));
  CHECK_THROWS_AS(m.reset(small, params(4, "full", "kmeans"), 0), std::invalid_argument);
  CHECK_THROWS_AS(m.reset(nullptr, params(2, "full", "kmeans"), 0), std::invalid_argument);
  ParamValues v = params(2, "full", "kmeans");
  v["reg"] = -1.0;
  CHECK_THROWS_AS(m.reset(small, v, 0), std::invalid_argument);
  v = params(2, "full", "kmeans");
  v["k"] = 0;
  CHECK_THROWS_AS(m.reset(small, v, 0), std::invalid_argument);
  Eigen::MatrixXd nan = Eigen::MatrixXd::Zero(5, 2);
  nan(2, 1) = std::nan("");
  CHECK_THROWS_AS(m.reset(matrix_data(nan), params(2, "full", "kmeans"), 0), std::invalid_argument);
  try {
    m.reset(small, params(4, "full", "kmeans"), 0);
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("'k'") != std::string::npos);
  }
}

TEST_CASE("gmm: registered, info and parameter table are consistent") {
  const std::unique_ptr<Module> m = make_module("gmm");
  CHECK(m->info().name == "gmm");
  CHECK(m->info().metrics.size() == 3);
  CHECK(m->info().metrics[0].name == "log_likelihood");
  CHECK(m->info().metrics[1].name == "delta");
  CHECK(m->info().sub_steps == std::vector<std::string>{"E", "M"});
  for (const char* p : {"k", "covariance", "init", "reg", "max_iter", "tol", "compare_kmeans"})
    CHECK(find_param(m->params(), p) != nullptr);
  CHECK(find_param(m->params(), "reg")->def == 1e-6);
  CHECK(find_param(m->params(), "reg")->update == ParamUpdate::Live);
  m->reset(make_dataset(m->info().default_dataset), default_values(m->params()), 0);
  m->step();
  CHECK(m->snapshot()->metrics.size() == m->info().metrics.size());
}

TEST_CASE("gmm_sweep: rows K = 1..kmax, sklearn's BIC/AIC, minimum at the true K, cancellable") {
  const DataPtr data = blob_data(600, 3, 2, 10.0, 0.7, 21);
  Gmm proto;
  ParamValues base = default_values(proto.params());
  const std::vector<GmmSweepRow> rows = gmm_sweep(data, base, 6, 0);
  REQUIRE(rows.size() == 6);
  int best = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const GmmSweepRow& r = rows[i];
    CHECK(r.k == static_cast<int>(i) + 1);
    CHECK(r.n_parameters == Gmm::n_parameters(Gmm::Covariance::Full, r.k, 2));
    CHECK(r.bic == doctest::Approx(-2.0 * r.log_likelihood * 600 + r.n_parameters * std::log(600.0)));
    CHECK(r.aic == doctest::Approx(-2.0 * r.log_likelihood * 600 + 2.0 * r.n_parameters));
    CHECK(r.n_iter >= 1);
    CHECK_FALSE(r.diverged);
    if (r.bic < rows[static_cast<size_t>(best)].bic) best = static_cast<int>(i);
  }
  CHECK(rows[static_cast<size_t>(best)].k == 3);
  CHECK(rows[2].log_likelihood > rows[1].log_likelihood);
  // The K = 3 row equals a direct fit's score.
  Gmm m;
  ParamValues v = base;
  v["k"] = 3;
  m.reset(data, v, 0);
  run_to_end(m);
  CHECK(rows[2].log_likelihood == m.score());
  // Cancel after two rows; progress sees (k_done, kmax).
  std::vector<int> seen;
  const std::vector<GmmSweepRow> part = gmm_sweep(data, base, 6, 0, [&](int done, int total) {
    seen.push_back(done);
    CHECK(total == 6);
    return done < 2;
  });
  CHECK(part.size() == 2);
  CHECK(seen == std::vector<int>{1, 2});
  CHECK_THROWS_AS(gmm_sweep(data, base, 0, 0), std::invalid_argument);
}
