// Gaussian mixture fitted by EM: see gmm.h for the model, the E/M equations,
// the metrics, initialisation and the singularity rule.
//
// Shapes: X is n x d (centred copy, column-major, shared by clones); a_j are
// the centred means (k x d); P_j the d x d precision Cholesky factors (upper
// triangular, P_j P_j^T = Sigma_j^{-1}; diagonal for diag/spherical; one
// shared factor for tied); q is n x k. The E pass (gmm_estep.cpp, e_pass)
// runs over fixed blocks of rows and returns q with the shifted M statistics
//   N_j = sum q_ij,  S_j = sum q_ij D_ij,  T_j = sum q_ij D_ij D_ij^T
// with D_ij = x_i - a_j (T_j: only the diagonal for diag/spherical), reduced
// in block order, so results do not depend on the thread count.
//
// The M-step from the statistics, with nk_j = N_j + 10 eps (scikit-learn):
//   m_j = S_j / nk_j,  mu_j = a_j + m_j,
//   C_j = (T_j - S_j m_j^T - m_j S_j^T + N_j m_j m_j^T) / nk_j
//       = (1/nk_j) sum_i q_ij (x_i - mu_j)(x_i - mu_j)^T,
// Sigma_j = C_j + reg I (full); diag(C_j) + reg (diag); mean(diag C_j) + reg
// (spherical); sum_j nk_j C_j / sum_j nk_j + reg I (tied).
//
// Monotonicity with reg > 0: the M-step maximises the expected complete-data
// log-likelihood only at reg = 0; Sigma_j + reg I is the maximiser of that
// objective minus (reg/2) sum_j N_j tr(Sigma_j^{-1}), which is not what the
// E-step bounds. In practice the log-likelihood still never falls by more than
// rounding for reg << the data's variances (the tests check ll_{t+1} >= ll_t -
// 1e-12 |ll_t| over many seeds, datasets and covariance types).
#include "algorithms/clustering/gmm.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"
#include "algorithms/clustering/gmm_internal.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"

namespace cilab {

using namespace gmm_detail;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kCollapseRel = 1e-12;    // eigenvalue < this * mean data variance: collapsed

bool is_diagonal_type(Gmm::Covariance c) {
  return c == Gmm::Covariance::Diag || c == Gmm::Covariance::Spherical;
}

// Smallest eigenvalue of a symmetric matrix (closed form for d <= 2).
double min_eig(const Eigen::MatrixXd& s) {
  const Eigen::Index d = s.rows();
  if (d == 1) return s(0, 0);
  if (d == 2) {
    const double a = s(0, 0), b = 0.5 * (s(0, 1) + s(1, 0)), c = s(1, 1);
    const double m = 0.5 * (a + c), r = std::hypot(0.5 * (a - c), b);
    return m - r;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(s, Eigen::EigenvaluesOnly);
  return es.eigenvalues()[0];
}

// The dataset, centred once (shared by clones).
struct Prepared {
  Eigen::MatrixXd x;     // n x d, x_i - mean
  Eigen::VectorXd mean;  // d
  Eigen::MatrixXd cov;   // d x d, MLE covariance (1/n)
  double scale = 0.0;    // mean variance trace(cov) / d
};

// The fitted model and the run's bookkeeping (a value type: clones copy it).
// Created by reset(); absent before.
struct Fit : RunPosition {
  int n = 0, d = 0, k = 0;
  Eigen::VectorXd weights;                // k
  Eigen::MatrixXd means;                  // k x d, centred
  std::vector<Eigen::MatrixXd> cov;       // k, d x d (tied: all equal)
  std::vector<Eigen::MatrixXd> prec;      // k, d x d upper (diag types: diagonal as d x 1)
  Eigen::VectorXd log_det_prec;           // k
  std::shared_ptr<Eigen::MatrixXd> resp;  // n x k, latest E (nullptr before)
  std::shared_ptr<Eigen::MatrixXd> spare; // recycled buffer
  Stats stats;                            // of the latest E (valid when phase == 1)

  double ll = kNaN;
  double delta = kNaN;
  double prev_ll = kNaN;
  bool e_done = false;  // an E-step has run since reset
  std::vector<char> placed;

  // A rejected (collapsed) M-step: shown in the snapshot, not applied.
  int collapsed = -1;
  bool show_attempt = false;
  bool init_pending = false;  // the initial M-step itself collapsed
  Eigen::VectorXd att_weights;
  Eigen::MatrixXd att_means;
  std::vector<Eigen::MatrixXd> att_cov;
};

}  // namespace

// Everything a Gmm holds; clone() copies it (deep: Fit and the lockstep k-means).
struct Gmm::State {
  std::shared_ptr<const Dataset> data;
  std::shared_ptr<const Prepared> prep;
  std::unique_ptr<Fit> fit;     // nullptr before reset()
  std::unique_ptr<KMeans> km;   // lockstep k-means (compare_kmeans), else nullptr
  Params p;
  mutable std::shared_ptr<const GmmSnapshot> cache;

  State() = default;
  State(const State& o)
      : data(o.data),
        prep(o.prep),
        fit(o.fit ? std::make_unique<Fit>(*o.fit) : nullptr),
        km(o.km ? std::make_unique<KMeans>(*o.km) : nullptr),
        p(o.p),
        cache(o.cache) {
    if (fit) fit->spare.reset();  // never share a writable buffer between clones
  }
  State& operator=(const State&) = delete;

  void e_half();
  void m_half();
  void invalidate() { cache.reset(); }
};

// ---------------------------------------------------------------- description

namespace {

const ParamTable<Gmm::Params>& param_table() {
  using P = Gmm::Params;
  static const ParamTable<P> kTable = {
      Int("k", &P::k, 1, 20)
          .help("number of mixture components (scikit-learn: n_components)")
          .formula("p(x) = sum_{j=1..k} pi_j N(x | mu_j, Sigma_j)"),
      Choice("covariance", &P::covariance, {"full", "diag", "spherical", "tied"})
          .choice_help({"each component its own full covariance matrix",
                        "each component a diagonal covariance (axis-aligned ellipses)",
                        "each component sigma_j^2 I (circles)",
                        "one full covariance shared by all components"})
          .help("covariance structure (scikit-learn: covariance_type)"),
      Choice("init", &P::init, {"kmeans", "random", "random_points", "manual"})
          .choice_help(
              {"responsibilities = one-hot labels of a k-means run (kmeans++, same seed), then one M-step",
               "random responsibilities (uniform, rows normalised), then one M-step",
               "k distinct random rows as means, equal weights, the data covariance for every component",
               "means placed by clicking (the first k rows until then), equal weights, data covariance"})
          .help("how the parameters at iteration 0 are chosen (scikit-learn: init_params)"),
      Real("reg", &P::reg, 0.0, 1.0)
          .live()
          .log_scale()
          .help("added to every covariance diagonal in the M-step (scikit-learn: reg_covar); 0 "
                "allows the singularity (a component collapsing onto one point)")
          .formula("Sigma_j = (1/N_j) sum_i q_ij (x_i - mu_j)(x_i - mu_j)^T + reg I"),
      Int("max_iter", &P::max_iter, 1, 10000).budget().help("iteration budget (scikit-learn's default 100)"),
      Real("tol", &P::tol, 0.0, 1.0)
          .live()
          .log_scale()
          .help("converged when the log-likelihood (mean per sample) changes by less than tol "
                "(scikit-learn's tol; 0 = run to max_iter)")
          .formula("|l_t - l_{t-1}| < tol"),
      Bool("compare_kmeans", &P::compare_kmeans)
          .help("run k-means beside the mixture from the same initial means, one Lloyd iteration "
                "per EM iteration (hard versus soft assignment)"),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Gmm::kMetricLogLikelihood, "log_likelihood",
       "l = (1/n) sum_i log sum_j pi_j N(x_i | mu_j, Sigma_j), mean per sample (scikit-learn's "
       "score), computed in this iteration's E-step at the parameters entering it. Never falls.",
       false},
      {Gmm::kMetricDelta, "delta", "l_t - l_{t-1}; the run converges when |delta| < tol (n/a at iteration 1)",
       true},
      {Gmm::kMetricMinEigenvalue, "min_eigenvalue",
       "smallest eigenvalue over all Sigma_j: near 0 means a component is collapsing", true},
  };
  return kMetrics;
}

}  // namespace

const ModuleInfo& Gmm::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "gmm";
    m.title = "Gaussian mixture (EM)";
    m.chapter = "Clustering and mixtures";
    m.summary =
        "Fits p(x) = sum_j pi_j N(x | mu_j, Sigma_j) by expectation-maximisation: the E-step "
        "computes soft responsibilities q_ij = p(z = j | x_i), the M-step re-estimates weights, "
        "means and covariances (full, diag, spherical or tied, + reg on the diagonal as "
        "scikit-learn's reg_covar). The log-likelihood never falls. With reg = 0 a component can "
        "collapse onto one point and the likelihood becomes unbounded.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"E", "M"};
    m.default_dataset = "faithful";
    return m;
  }();
  return kInfo;
}

const ParamTable<Gmm::Params>& module_params(const Gmm*) { return param_table(); }

Gmm::Params Gmm::params_from(const ParamValues& values) { return param_table().read(values); }

int Gmm::n_parameters(Covariance type, int k, int d) {
  int cov = 0;
  switch (type) {
    case Covariance::Full: cov = k * d * (d + 1) / 2; break;
    case Covariance::Diag: cov = k * d; break;
    case Covariance::Spherical: cov = k; break;
    case Covariance::Tied: cov = d * (d + 1) / 2; break;
  }
  return cov + k * d + k - 1;
}

// ---------------------------------------------------------------- lifecycle



namespace {

// Statistics of given responsibilities q (n x k) shifted by `shift` (k x d).
Stats stats_from_resp(const Eigen::MatrixXd& x, const Eigen::MatrixXd& q,
                      const Eigen::MatrixXd& shift, bool diag) {
  const int k = static_cast<int>(q.cols()), d = static_cast<int>(x.cols());
  Stats st;
  st.init(k, d, diag);
  for (int j = 0; j < k; ++j) {
    const Eigen::MatrixXd dj = x.rowwise() - shift.row(j);
    const Eigen::MatrixXd w = dj.array().colwise() * q.col(j).array();
    st.n[j] = q.col(j).sum();
    st.s.col(j) = w.colwise().sum().transpose();
    if (diag)
      st.t[static_cast<size_t>(j)] = (w.array() * dj.array()).colwise().sum().transpose();
    else
      st.t[static_cast<size_t>(j)] = dj.transpose() * w;
  }
  return st;
}

// The M-step: parameters from shifted statistics. Returns false (and the index
// of the offending component in *bad) when a covariance is not positive
// definite or its smallest eigenvalue is below `collapse_thr` while reg is too.
struct MResult {
  Eigen::VectorXd weights;
  Eigen::MatrixXd means;
  std::vector<Eigen::MatrixXd> cov;
  std::vector<Eigen::MatrixXd> prec;
  Eigen::VectorXd log_det_prec;
  int bad = -1;
};

MResult m_from_stats(const Stats& st, const Eigen::MatrixXd& shift, Gmm::Covariance type,
                     double reg, double collapse_thr) {
  const int k = static_cast<int>(st.n.size()), d = static_cast<int>(shift.cols());
  MResult r;
  Eigen::VectorXd nk = st.n.array() + 10.0 * kEps;
  r.weights = nk / nk.sum();
  r.means.resize(k, d);
  std::vector<Eigen::MatrixXd> c(static_cast<size_t>(k));  // C_j (full) or diag (d x 1)
  const bool diag = is_diagonal_type(type);
  for (int j = 0; j < k; ++j) {
    const Eigen::VectorXd m = st.s.col(j) / nk[j];
    r.means.row(j) = shift.row(j) + m.transpose();
    const Eigen::MatrixXd& t = st.t[static_cast<size_t>(j)];
    if (diag) {
      const Eigen::VectorXd sm = st.s.col(j).cwiseProduct(m);
      c[static_cast<size_t>(j)] = (t.col(0) - 2.0 * sm + st.n[j] * m.cwiseProduct(m)) / nk[j];
    } else {
      const Eigen::MatrixXd sm = st.s.col(j) * m.transpose();
      Eigen::MatrixXd cj = (t - sm - sm.transpose() + st.n[j] * (m * m.transpose())) / nk[j];
      c[static_cast<size_t>(j)] = 0.5 * (cj + cj.transpose());
    }
  }
  r.cov.resize(static_cast<size_t>(k));
  switch (type) {
    case Gmm::Covariance::Full:
      for (int j = 0; j < k; ++j) {
        r.cov[static_cast<size_t>(j)] = c[static_cast<size_t>(j)];
        r.cov[static_cast<size_t>(j)].diagonal().array() += reg;
      }
      break;
    case Gmm::Covariance::Tied: {
      Eigen::MatrixXd tied = Eigen::MatrixXd::Zero(d, d);
      for (int j = 0; j < k; ++j) tied += nk[j] * c[static_cast<size_t>(j)];
      tied /= nk.sum();
      tied.diagonal().array() += reg;
      for (int j = 0; j < k; ++j) r.cov[static_cast<size_t>(j)] = tied;
      break;
    }
    case Gmm::Covariance::Diag:
      for (int j = 0; j < k; ++j) {
        Eigen::VectorXd v = c[static_cast<size_t>(j)].col(0).array() + reg;
        r.cov[static_cast<size_t>(j)] = v.asDiagonal();
      }
      break;
    case Gmm::Covariance::Spherical:
      for (int j = 0; j < k; ++j) {
        const double v = c[static_cast<size_t>(j)].col(0).mean() + reg;
        r.cov[static_cast<size_t>(j)] = Eigen::MatrixXd::Identity(d, d) * v;
      }
      break;
  }
  // Factor: P = L^{-T} (upper), log det P = -sum log L_ii.
  r.prec.resize(static_cast<size_t>(k));
  r.log_det_prec.resize(k);
  const bool reg_small = !(reg >= collapse_thr) || collapse_thr <= 0.0;
  for (int j = 0; j < k; ++j) {
    const Eigen::MatrixXd& s = r.cov[static_cast<size_t>(j)];
    if (!s.allFinite()) {
      r.bad = j;
      return r;
    }
    if (diag) {
      const Eigen::VectorXd v = s.diagonal();
      if (!(v.minCoeff() > 0.0) || (reg_small && v.minCoeff() < collapse_thr)) {
        r.bad = j;
        return r;
      }
      r.prec[static_cast<size_t>(j)] = v.cwiseSqrt().cwiseInverse();
      r.log_det_prec[j] = -0.5 * v.array().log().sum();
      continue;
    }
    Eigen::LLT<Eigen::MatrixXd> llt(s);
    if (llt.info() != Eigen::Success || !(llt.matrixLLT().diagonal().minCoeff() > 0.0)) {
      r.bad = j;
      return r;
    }
    const Eigen::MatrixXd linv =
        llt.matrixL().solve(Eigen::MatrixXd::Identity(d, d));  // lower
    Eigen::MatrixXd p = linv.transpose();
    p.triangularView<Eigen::StrictlyLower>().setZero();
    // 1 / ||P||_F^2 <= lambda_min <= d / ||P||_F^2: cheap screen, exact check after.
    if (reg_small && 1.0 / p.squaredNorm() < collapse_thr && min_eig(s) < collapse_thr) {
      r.bad = j;
      return r;
    }
    r.log_det_prec[j] = -llt.matrixLLT().diagonal().array().log().sum();
    r.prec[static_cast<size_t>(j)] = std::move(p);
  }
  return r;
}

}  // namespace

void Gmm::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = params_from(values);
  require_usable_data(data.get(), "gmm");
  const int n = data->rows(), d = data->cols();
  if (p.k > n)
    throw std::invalid_argument("parameter 'k' = " + std::to_string(p.k) +
                                " exceeds the number of samples (" + std::to_string(n) +
                                "); try k <= " + std::to_string(n));
  if (!(st_->prep && st_->data == data)) {
    auto prep = std::make_shared<Prepared>();
    prep->mean = data->x.colwise().mean().transpose();
    prep->x = data->x.rowwise() - prep->mean.transpose();
    prep->cov = prep->x.transpose() * prep->x / static_cast<double>(n);
    prep->scale = prep->cov.trace() / d;
    st_->prep = std::move(prep);
  }
  st_->data = std::move(data);
  st_->p = p;
  st_->km.reset();
  st_->fit = std::make_unique<Fit>();
  Fit& s = *st_->fit;
  s.n = n;
  s.d = d;
  s.k = p.k;
  const Eigen::MatrixXd& x = st_->prep->x;
  const int k = p.k;
  const bool diag = is_diagonal_type(p.covariance);

  Rng rng(seed);
  Stats init_stats;
  Eigen::MatrixXd shift;
  bool from_resp = false;
  // The start from responsibilities q (k-means labels or random weights, as
  // scikit-learn's _initialize): statistics shifted by each component's mean.
  const auto init_from_resp = [&](const Eigen::MatrixXd& q) {
    shift = Eigen::MatrixXd::Zero(k, d);
    const Stats s0 = stats_from_resp(x, q, shift, diag);
    for (int j = 0; j < k; ++j) shift.row(j) = (s0.s.col(j) / (s0.n[j] + 10.0 * kEps)).transpose();
    init_stats = stats_from_resp(x, q, shift, diag);
    from_resp = true;
  };
  switch (p.init) {
    case Init::KMeans: {
      KMeans km;
      ParamValues kv = default_values(km.params());
      kv["k"] = k;
      kv["init"] = 1;  // kmeans++
      kv["max_iter"] = 300;
      km.reset(st_->data, kv, seed);
      while (!is_terminal(km.status())) km.step();
      const std::vector<int>& labels = km.kmeans_snapshot()->assignments();
      Eigen::MatrixXd q = Eigen::MatrixXd::Zero(n, k);
      for (int i = 0; i < n; ++i)
        if (labels[static_cast<size_t>(i)] >= 0) q(i, labels[static_cast<size_t>(i)]) = 1.0;
      init_from_resp(q);
      break;
    }
    case Init::Random: {
      Eigen::MatrixXd q(n, k);
      for (int i = 0; i < n; ++i) {
        double t = 0.0;
        for (int j = 0; j < k; ++j) t += (q(i, j) = rng.uniform());
        q.row(i) /= t;
      }
      init_from_resp(q);
      break;
    }
    case Init::RandomPoints:
    case Init::Manual: {
      std::vector<int> rows;
      if (p.init == Init::Manual) {
        for (int j = 0; j < k; ++j) rows.push_back(j);
        s.placed.assign(static_cast<size_t>(k), 0);
      } else {
        while (static_cast<int>(rows.size()) < k) {
          const int r = static_cast<int>(rng.below(static_cast<uint64_t>(n)));
          if (std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
        }
      }
      // The K = 1 statistics (the whole data, shifted by its mean 0) give every
      // component the data covariance of the chosen type.
      Stats one;
      one.init(1, d, diag);
      one.n[0] = n;
      if (diag)
        one.t[0] = x.array().square().colwise().sum().transpose().matrix();
      else
        one.t[0] = st_->prep->cov * static_cast<double>(n);
      const MResult r1 = m_from_stats(one, Eigen::MatrixXd::Zero(1, d), p.covariance, p.reg,
                                      kCollapseRel * st_->prep->scale);
      s.weights = Eigen::VectorXd::Constant(k, 1.0 / k);
      s.means.resize(k, d);
      for (int j = 0; j < k; ++j) s.means.row(j) = x.row(rows[static_cast<size_t>(j)]);
      if (r1.bad >= 0) {
        s.cov.assign(static_cast<size_t>(k), r1.cov[0]);
        s.status = Status::Diverged;
        s.collapsed = 0;
        s.message = "the data covariance is singular (all points on a line or a single point?) "
                    "and reg = 0: no Gaussian fits. Set reg > 0 (e.g. 1e-6).";
        s.init_pending = true;
        s.stats = one;
        s.show_attempt = true;
        s.att_weights = s.weights;
        s.att_means = s.means;
        s.att_cov = s.cov;
      } else {
        s.cov.assign(static_cast<size_t>(k), r1.cov[0]);
        s.prec.assign(static_cast<size_t>(k), r1.prec[0]);
        s.log_det_prec = Eigen::VectorXd::Constant(k, r1.log_det_prec[0]);
      }
      if (p.init == Init::Manual && s.status == Status::Running)
        s.message = "manual init: the means start at the first " + std::to_string(k) +
                    " rows; click to place them (or drag), then step";
      break;
    }
  }
  if (from_resp) {
    s.stats = std::move(init_stats);
    s.means = shift;  // the shift of the statistics, used by the init M-step
    s.init_pending = true;
    st_->m_half();  // the initial M-step (does not count as an iteration)
  }

  if (p.compare_kmeans) {
    st_->km = std::make_unique<KMeans>();
    ParamValues kv = default_values(st_->km->params());
    kv["k"] = k;
    kv["init"] = 3;  // manual: placed at this run's initial means
    kv["max_iter"] = 10000;
    st_->km->reset(st_->data, kv, seed);
    for (int j = 0; j < k; ++j) {
      Intent in;
      in.kind = "place_centroid";
      in.index = j;
      const Eigen::VectorXd m = s.means.row(j).transpose() + st_->prep->mean;
      in.values.assign(m.data(), m.data() + d);
      st_->km->apply(in);
    }
  }
  st_->invalidate();
}

// ---------------------------------------------------------------- iteration

void Gmm::step() {
  if (!st_->fit || is_terminal(st_->fit->status)) return;
  if (st_->fit->phase == 0) sub_step();
  if (!is_terminal(st_->fit->status) && st_->fit->phase == 1) sub_step();
}

void Gmm::sub_step() {
  State& s = *st_;
  if (!s.fit || is_terminal(s.fit->status)) return;
  const bool e = s.fit->phase == 0;
  if (e)
    s.e_half();
  else
    s.m_half();
  // The lockstep k-means: assign with E, update with M (when it did not fail).
  if (s.km && !(s.fit->status == Status::Diverged)) s.km->sub_step();
  s.invalidate();
}

void Gmm::State::e_half() {
  Fit& s = *fit;
  const int n = s.n, k = s.k;
  const bool diag = is_diagonal_type(p.covariance);

  std::shared_ptr<Eigen::MatrixXd> resp;
  if (sole_owner(s.spare) && s.spare->rows() == n && s.spare->cols() == k) {
    resp = std::move(s.spare);
  } else {
    resp = std::make_shared<Eigen::MatrixXd>(n, k);
  }
  s.spare.reset();

  Stats total = e_pass(prep->x, s.means, s.prec, s.weights, s.log_det_prec, diag,
                       p.covariance == Covariance::Tied, resp.get(), true);
  const double ll = total.ll / n;

  if (!std::isfinite(ll)) {
    // Keep the state (parameters entering this E-step, previous metrics).
    s.status = Status::Diverged;
    int worst = 0;
    for (int j = 1; j < k; ++j)
      if (s.log_det_prec[j] > s.log_det_prec[worst]) worst = j;
    s.collapsed = worst;
    s.message = "the log-likelihood became non-finite in the E-step (component " +
                std::to_string(worst) +
                " has the smallest covariance): the likelihood is unbounded. Rewind and set "
                "reg > 0 (e.g. 1e-6).";
    s.spare = std::move(resp);
    return;
  }
  s.spare = std::move(s.resp);
  s.resp = std::move(resp);
  s.stats = std::move(total);
  s.prev_ll = s.ll;
  s.ll = ll;
  s.delta = s.e_done ? ll - s.prev_ll : kNaN;
  s.e_done = true;
  s.phase = 1;
  s.message.clear();
}

void Gmm::State::m_half() {
  Fit& s = *fit;
  const double thr = kCollapseRel * prep->scale;
  MResult r = m_from_stats(s.stats, s.means, p.covariance, p.reg, thr);
  if (r.bad >= 0) {
    const int j = r.bad;
    s.status = Status::Diverged;
    s.collapsed = j;
    s.show_attempt = true;
    s.att_weights = r.weights;
    s.att_means = r.means;
    s.att_cov = r.cov;
    const double nj = s.stats.n[j];
    std::string what;
    if (nj < 1.5)
      what = "collapsed onto a single point (its responsibilities sum to " + fmt_g(nj) + ")";
    else
      what = "collapsed onto a lower-dimensional set of its " + fmt_g(nj) +
             " points (all on one line or one point)";
    s.message = std::string(s.init_pending ? "initial M-step: " : "") + "component " +
                std::to_string(j) + " " + what +
                ": its covariance became singular and the likelihood is unbounded (log-likelihood "
                "-> +infinity). Rewind and set reg > 0 (e.g. 1e-6).";
    return;  // phase stays: setting reg > 0 retries this M-step
  }
  s.weights = std::move(r.weights);
  s.means = std::move(r.means);
  s.cov = std::move(r.cov);
  s.prec = std::move(r.prec);
  s.log_det_prec = std::move(r.log_det_prec);
  s.collapsed = -1;
  s.show_attempt = false;
  if (s.init_pending) {  // the initial M-step: still iteration 0
    s.init_pending = false;
    s.status = Status::Running;
    return;
  }
  s.phase = 0;
  ++s.iteration;
  s.status = Status::Running;
  if (s.iteration >= 2 && std::isfinite(s.delta) && std::abs(s.delta) < p.tol) {
    s.status = Status::Converged;
    s.message = "converged after " + std::to_string(s.iteration) +
                " iterations: |delta| = " + fmt_g(std::abs(s.delta)) + " < tol = " + fmt_g(p.tol);
  } else if (s.iteration >= p.max_iter) {
    s.status = Status::Stopped;
    s.message = "reached max_iter = " + std::to_string(p.max_iter) +
                " before convergence (|delta| = " + fmt_g(std::abs(s.delta)) + ")";
  }
}

double Gmm::score() const {
  if (!st_->fit || st_->fit->prec.size() != static_cast<size_t>(st_->fit->k)) return kNaN;
  const Fit& s = *st_->fit;
  const bool diag = is_diagonal_type(st_->p.covariance);
  const Stats total = e_pass(st_->prep->x, s.means, s.prec, s.weights, s.log_det_prec, diag,
                             st_->p.covariance == Covariance::Tied, nullptr, false);
  return total.ll / s.n;
}

// ---------------------------------------------------------------- edits

void Gmm::set_live(const std::string& name, double value) {
  param_table().set_live(st_->p, name, value, info().name);  // throws: unknown, rebuild or out of range
  if (!st_->fit) return;
  Fit& s = *st_->fit;
  if (name == "reg" && s.status == Status::Diverged && s.show_attempt) {
    // Retry the rejected M-step with the new reg.
    s.status = Status::Running;
    s.show_attempt = false;
    s.collapsed = -1;
    s.message = "reg = " + fmt_g(value) + ": the next sub-step retries the M-step";
    if (s.init_pending) {
      if (s.resp == nullptr && s.prec.empty() && st_->p.init != Init::KMeans && st_->p.init != Init::Random) {
        // random_points/manual with a singular data covariance: redo the K = 1 fit.
        const MResult r1 = m_from_stats(s.stats, Eigen::MatrixXd::Zero(1, s.d), st_->p.covariance,
                                        st_->p.reg, kCollapseRel * st_->prep->scale);
        if (r1.bad >= 0) {
          s.status = Status::Diverged;
          s.collapsed = 0;
          s.show_attempt = true;
          s.att_weights = s.weights;
          s.att_means = s.means;
          s.att_cov = s.cov;
          s.message = "the data covariance is still singular with reg = " + fmt_g(value) +
                      ": try a larger reg";
        } else {
          s.cov.assign(static_cast<size_t>(s.k), r1.cov[0]);
          s.prec.assign(static_cast<size_t>(s.k), r1.prec[0]);
          s.log_det_prec = Eigen::VectorXd::Constant(s.k, r1.log_det_prec[0]);
          s.init_pending = false;
          s.message = "reg = " + fmt_g(value) + ": initial covariances recomputed";
        }
      } else {
        st_->m_half();
      }
    }
  } else if (name == "tol" && s.phase == 0 && s.iteration >= 2 && std::isfinite(s.delta) &&
             (s.status == Status::Converged || s.status == Status::Running)) {
    // The convergence test of the last M-step, with the new tol: a smaller tol lets a
    // converged run go on (or stop at max_iter), a larger one ends a running run here.
    const bool converged = std::abs(s.delta) < st_->p.tol;
    if (converged && s.status == Status::Running) {
      s.status = Status::Converged;
      s.message = "converged after " + std::to_string(s.iteration) + " iterations: |delta| = " +
                  fmt_g(std::abs(s.delta)) + " < tol = " + fmt_g(st_->p.tol);
    } else if (!converged && s.status == Status::Converged) {
      s.status = s.iteration < st_->p.max_iter ? Status::Running : Status::Stopped;
      s.message = s.status == Status::Running
                      ? "tol = " + fmt_g(st_->p.tol) + " <= |delta| = " + fmt_g(std::abs(s.delta)) + ": EM goes on"
                      : "reached max_iter = " + std::to_string(st_->p.max_iter) + " before convergence";
    }
  } else if (s.status == Status::Stopped && s.iteration < st_->p.max_iter) {
    s.status = Status::Running;
    s.message.clear();
  } else if (s.status == Status::Running && s.phase == 0 && s.iteration >= st_->p.max_iter) {
    s.status = Status::Stopped;
    s.message = "reached max_iter = " + std::to_string(st_->p.max_iter) + " before convergence";
  }
  st_->invalidate();
}

bool Gmm::apply(const Intent& intent) {
  if (!st_->fit) return false;
  Fit& s = *st_->fit;
  const bool move = intent.kind == "move_mean";
  const bool place = intent.kind == "place_mean";
  if (!move && !place) return false;
  int j = intent.index;
  if (place) {
    if (st_->p.init != Init::Manual || s.iteration != 0 || s.phase != 0 || s.e_done) return false;
    if (j < 0) {
      for (int t = 0; t < s.k; ++t)
        if (!s.placed[static_cast<size_t>(t)]) {
          j = t;
          break;
        }
    }
  }
  if (j < 0 || j >= s.k) return false;
  const int nv = static_cast<int>(intent.values.size());
  if (nv != s.d && !(nv == 2 && s.d > 2)) return false;
  for (double v : intent.values)
    if (!std::isfinite(v)) return false;
  if (s.init_pending && s.prec.empty()) return false;  // no valid parameters to continue from
  for (int c = 0; c < nv; ++c)
    s.means(j, c) = intent.values[static_cast<size_t>(c)] - st_->prep->mean[c];
  if (place) s.placed[static_cast<size_t>(j)] = 1;
  s.phase = 0;
  s.show_attempt = false;
  s.collapsed = -1;
  s.init_pending = false;
  if (s.status == Status::Converged || s.status == Status::Diverged ||
      (s.status == Status::Stopped && s.iteration < st_->p.max_iter))
    s.status = Status::Running;
  s.message = (place ? "placed" : "moved") + std::string(" mean ") + std::to_string(j);
  if (s.status == Status::Stopped) s.message += " (max_iter reached: raise it to continue)";
  if (st_->km) {
    Intent ki;
    ki.kind = place ? "place_centroid" : "move_centroid";
    ki.index = j;
    ki.values = intent.values;
    if (!st_->km->apply(ki) && place) {
      ki.kind = "move_centroid";
      st_->km->apply(ki);
    }
  }
  st_->invalidate();
  return true;
}

// ---------------------------------------------------------------- snapshot

size_t GmmSnapshot::byte_size() const {
  size_t b = sizeof(*this) + metrics.size() * sizeof(double) + message.capacity() +
             static_cast<size_t>(weights.size() + means.size()) * sizeof(double) +
             min_eigenvalue.size() * sizeof(double) + placed.size();
  for (const Eigen::MatrixXd& c : covariances) b += static_cast<size_t>(c.size()) * sizeof(double);
  if (resp) b += sizeof(*resp) + static_cast<size_t>(resp->size()) * sizeof(double);
  if (kmeans) b += kmeans->byte_size();
  return b;
}

std::shared_ptr<const GmmSnapshot> Gmm::gmm_snapshot() const {
  if (st_->cache) return st_->cache;
  auto out = std::make_shared<GmmSnapshot>();
  out->covariance_type = static_cast<int>(st_->p.covariance);
  if (!st_->fit) {
    describe_not_reset(*out, "gmm", metric_table(), " (no dataset)");
    st_->cache = out;
    return st_->cache;
  }
  const Fit& s = *st_->fit;
  s.describe(*out);
  const bool att = s.show_attempt;
  out->weights = att ? s.att_weights : s.weights;
  const Eigen::MatrixXd& m = att ? s.att_means : s.means;
  out->means = m.rowwise() + st_->prep->mean.transpose();
  out->covariances = att ? s.att_cov : s.cov;
  out->resp = s.resp;
  out->min_eigenvalue.resize(static_cast<size_t>(s.k));
  double lo = std::numeric_limits<double>::infinity();
  for (int j = 0; j < s.k; ++j) {
    const double e = min_eig(out->covariances[static_cast<size_t>(j)]);
    out->min_eigenvalue[static_cast<size_t>(j)] = e;
    lo = std::min(lo, e);
  }
  out->collapsed = s.collapsed;
  out->placed = s.placed;
  if (st_->km) out->kmeans = st_->km->kmeans_snapshot();
  out->reg = st_->p.reg;
  out->n_parameters = n_parameters(st_->p.covariance, s.k, s.d);
  out->metrics = metric_table().blank();
  out->metrics[kMetricLogLikelihood] = s.ll;
  out->metrics[kMetricDelta] = s.delta;
  out->metrics[kMetricMinEigenvalue] = std::isfinite(lo) ? lo : kNaN;
  st_->cache = out;
  return st_->cache;
}

std::shared_ptr<const Snapshot> Gmm::snapshot() const { return gmm_snapshot(); }

CILAB_MODULE_STATE(Gmm)

}  // namespace cilab
