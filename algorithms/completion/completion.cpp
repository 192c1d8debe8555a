// Matrix completion: the problem (split, normalisation), the four methods and
// the per-iteration measurements. See completion.h for the mathematics.
#include "algorithms/completion/completion.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/core/observed_matrix.h"
#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/ratings.h"
#include "algorithms/linalg/lanczos_svd.h"
#include "algorithms/linalg/spectral.h"
#include "algorithms/optim/optim_params.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMap = Eigen::Map<RowMat>;
using ConstRowMap = Eigen::Map<const RowMat>;
constexpr int kBlockRows = 256;    // rows per parallel block of an ALS sweep
constexpr int kSpectrumExtra = 5;  // svd_impute: singular values shown past the k-th
constexpr double kLanczosTol = 1e-10;

const char* const kMethodNames[] = {"svd_impute", "als", "sgd", "svt"};

const ParamTable<Completion::Params>& param_table() {
  using P = Completion::Params;
  static const ParamTable<P> kTable = [] {
    std::vector<ParamField<P>> rows = {
        Choice("method", &P::method, {"svd_impute", "als", "sgd", "svt"})
            .choice_help({"singular value projection A <- [A + eta Pi_Omega(Z - A)]_k (eta = 1: iterative SVD "
                          "imputation / hard-impute)",
                          "alternating least squares: a V-sweep and a U-sweep of regularised least squares",
                          "one epoch of SGD matrix factorisation per iteration, on the shared optimizers",
                          "Cai-Candes-Shen singular value thresholding: B = shrink_tau(Y), Y += delta Pi_Omega(Z - B)"})
            .help("the completion algorithm (all four on the same data and held-out split)"),
        Int("k", &P::k, 1, 500)
            .help("rank of the factorisation (svd_impute, als, sgd); scikit-learn TruncatedSVD: n_components")
            .formula("A = U V^T, U: m x k, V: n x k"),
        Real("lambda", &P::lambda, 0, 1000)
            .objective()
            .help("ridge penalty on the factors (als, sgd)")
            .formula("l = 1/2 ||Pi_Omega(Z - U V^T)||^2 + lambda/2 (||U||^2 + ||V||^2)"),
        Choice("normalize", &P::normalize, {"none", "rows", "columns", "both"})
            .choice_help({"no centring: complete X itself",
                          "subtract each row's (user's) mean over its training entries",
                          "subtract each column's (item's) mean: per item works better (course 4.1)",
                          "columns, then the rows of what is left"})
            .help("masked normalisation from the training entries; RMSEs are measured back in the data's units")
            .formula("mu_j = sum_i w_ij x_ij / max(1, sum_i w_ij), Z = (X - mu) / s"),
        Bool("scale", &P::scale)
            .help("also divide by the standard deviation of the training entries on the normalised axis")
            .formula("Z = (X - mu) / s"),
        Choice("init", &P::init, {"random", "svd"})
            .choice_help({"U, V ~ N(0, init_scale^2)",
                          "U = U_k S_k^(1/2), V = V_k S_k^(1/2) from the rank-k SVD of the zero-filled Z"})
            .help("start of the factors (als, sgd); svd_impute and svt start from A = 0 (the mean-filled matrix)"),
        Real("init_scale", &P::init_scale, 1e-4, 10).log_scale().help("standard deviation of the random start (init=random)"),
        Real("eta", &P::eta, 1e-3, 2)
            .live()
            .help("step size of singular value projection (svd_impute); eta <= 1 never raises the observed loss")
            .formula("A <- [A + eta Pi_Omega(Z - A)]_k"),
        Real("tau", &P::tau, 0, 1e9)
            .objective()
            .help("singular value threshold of svt; 0 = Cai-Candes-Shen's 5 sqrt(m n) s_Z (s_Z: RMS of the "
                  "normalised training entries)")
            .formula("shrink_tau(Y) = U diag((sigma_i - tau)_+) V^T"),
        Real("delta", &P::delta, 0, 1e4)
            .live()
            .help("step size of svt; 0 = Cai-Candes-Shen's 1.2 m n / |Omega|")
            .formula("Y <- Y + delta Pi_Omega(Z - shrink_tau(Y))"),
        Int("batch_size", &P::batch_size, 1, 1000000)
            .live()
            .help("training entries per SGD step (sgd); the step's gradient is the batch mean (torch reduction='mean')"),
    };
    std::vector<ParamField<P>> optim = optimizer_params(&P::optim);
    param_row(optim, "optimizer").help("the optimizer stepping U and V (sgd; torch.optim class; default Adam)");
    param_row(optim, "lr").help("learning rate of sgd (torch: lr; default 0.01)");
    for (ParamField<P>& f : optim)
      if (f.spec.shown_if.empty()) f.shown_if("method=sgd");
    rows.insert(rows.end(), optim.begin(), optim.end());
    std::vector<ParamField<P>> tail = {
        Real("test_fraction", &P::test_fraction, 0, 0.9)
            .help("share of the observed entries held out for test_rmse (a seeded shuffle; scikit-learn: test_size)"),
        Real("missing", &P::missing, 0, 0.99)
            .help("complete data only (a picture, a table): the fraction of its entries hidden before completing it"),
        Choice("holes", &P::holes, {"random", "blocks"})
            .choice_help({"entries hidden uniformly at random", "8 x 8 blocks hidden (harder: whole regions missing)"})
            .help("complete data only: how the missing entries are chosen"),
        Int("max_iter", &P::max_iter, 1, 100000).budget().help("iteration budget; the run stops there"),
        Real("tol", &P::tol, 0, 1)
            .live()
            .log_scale()
            .help("converged when the estimate moves by at most tol of its norm")
            .formula("||A_t - A_{t-1}||_F <= tol ||A_t||_F"),
    };
    rows.insert(rows.end(), tail.begin(), tail.end());
    return ParamTable<P>(std::move(rows));
  }();
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Completion::kMetricTrainRmse, "train_rmse", "RMSE on the training entries, in the data's units", true},
      {Completion::kMetricTestRmse, "test_rmse",
       "RMSE on the held-out entries (test_fraction of the observed ones), in the data's units", true},
      {Completion::kMetricObjective, "objective",
       "the method's objective (normalised units): svd_impute 1/2 ||Pi_Omega(Z - A)||^2; als, sgd "
       "1/2 ||Pi_Omega(Z - U V^T)||^2 + lambda/2 (||U||^2 + ||V||^2); svt tau ||B||_* + 1/2 ||B||_F^2",
       true},
      {Completion::kMetricRank, "rank", "rank of the estimate A (singular values above 1e-9 sigma_1)", false},
      {Completion::kMetricNuclearNorm, "nuclear_norm", "||A||_* = sum_i sigma_i(A), normalised units", false},
      {Completion::kMetricChange, "change", "||A_t - A_{t-1}||_F, normalised units", true},
      {Completion::kMetricHalfObjective, "half_objective",
       "als: l(U, V) after this iteration's V-sweep (between the previous objective and this one)", true},
      {Completion::kMetricObservedLoss, "observed_loss", "1/2 ||Pi_Omega(Z - A)||^2 on the training entries", true},
  };
  return kMetrics;
}

// Everything measured of an estimate on the training entries.
struct Fit {
  double observed_loss = 0, train_rmse = 0, test_rmse = kNaN;
};

// Solves G x = b for a symmetric positive definite k x k G given by its lower
// triangle (row-major), by Cholesky in place; false when G is not positive
// definite (then x is untouched). k is small (the rank): no allocation.
bool cholesky_solve(double* g, const double* b, double* x, int k) {
  for (int j = 0; j < k; ++j) {
    double* gj = g + static_cast<size_t>(j) * static_cast<size_t>(k);
    double d = gj[j];
    for (int c = 0; c < j; ++c) d -= gj[c] * gj[c];
    if (!(d > 0)) return false;
    const double l = std::sqrt(d);
    gj[j] = l;
    for (int r = j + 1; r < k; ++r) {
      double* gr = g + static_cast<size_t>(r) * static_cast<size_t>(k);
      double v = gr[j];
      for (int c = 0; c < j; ++c) v -= gr[c] * gj[c];
      gr[j] = v / l;
    }
  }
  double tmp[512];
  std::vector<double> heap;
  double* y = tmp;
  if (k > 512) {
    heap.resize(static_cast<size_t>(k));
    y = heap.data();
  }
  for (int r = 0; r < k; ++r) {  // L y = b
    const double* gr = g + static_cast<size_t>(r) * static_cast<size_t>(k);
    double v = b[r];
    for (int c = 0; c < r; ++c) v -= gr[c] * y[c];
    y[r] = v / gr[r];
  }
  for (int r = k - 1; r >= 0; --r) {  // L^T x = y
    double v = y[r];
    for (int c = r + 1; c < k; ++c) v -= g[static_cast<size_t>(c) * static_cast<size_t>(k) + static_cast<size_t>(r)] * y[c];
    y[r] = v / g[static_cast<size_t>(r) * static_cast<size_t>(k) + static_cast<size_t>(r)];
  }
  std::copy(y, y + k, x);
  return true;
}

// The m x n matrix with `values` on the training entries and 0 elsewhere
// (Pi_Omega(Z), or SVT's Y), as an operator for lanczos_svd; `values` must outlive it.
LinearOperator training_operator(const CompletionProblem& q, const std::vector<double>& values) {
  return {q.m, q.n,
          [&q, &values](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
            y.setZero(q.m);
            for (size_t t = 0; t < values.size(); ++t) y[q.train_row[t]] += values[t] * x[q.train_col[t]];
          },
          [&q, &values](const Eigen::VectorXd& y, Eigen::VectorXd& x) {
            x.setZero(q.n);
            for (size_t t = 0; t < values.size(); ++t) x[q.train_col[t]] += values[t] * y[q.train_row[t]];
          }};
}

double dot_row(const Eigen::MatrixXd& a, int i, const Eigen::MatrixXd& b, int j) {
  double s = 0;
  for (Eigen::Index r = 0; r < a.cols(); ++r) s += a(i, r) * b(j, r);
  return s;
}

}  // namespace

OptimizerConfig Completion::Params::sgd_defaults() {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::Adam);
  c.lr = 0.01;
  c.momentum = 0.9;
  return c;
}

// ---------------------------------------------------------------- problem and estimate

size_t CompletionProblem::byte_size() const {
  return (train_row.size() + train_col.size() + test_row.size() + test_col.size() + col_start.size() +
          by_col.size() + row_start.size()) * sizeof(int) +
         (train_value.size() + test_value.size() + train_z.size()) * sizeof(double) +
         static_cast<size_t>(row_mean.size() + col_mean.size() + row_scale.size() + col_scale.size()) * sizeof(double);
}

size_t CompletionEstimate::byte_size() const {
  return static_cast<size_t>(s.size() + user_factors.size() + item_factors.size()) * sizeof(double);
}

double CompletionSnapshot::predict(int i, int j) const {
  double a = estimate ? dot_row(estimate->user_factors, i, estimate->item_factors, j) : 0.0;
  return problem->offset(i, j) + problem->scale(i, j) * a;
}

std::vector<float> CompletionSnapshot::dense_estimate() const {
  const int m = problem->m, n = problem->n;
  std::vector<float> out(static_cast<size_t>(m) * static_cast<size_t>(n));
  Eigen::MatrixXd a;
  if (estimate && estimate->user_factors.cols() > 0)
    a.noalias() = estimate->user_factors * estimate->item_factors.transpose();
  else
    a.setZero(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      out[static_cast<size_t>(i) * static_cast<size_t>(n) + static_cast<size_t>(j)] =
          static_cast<float>(problem->offset(i, j) + problem->scale(i, j) * a(i, j));
  return out;
}

size_t CompletionSnapshot::byte_size() const {
  return sizeof(*this) + (estimate ? estimate->byte_size() : 0) + spectrum_before.size() * sizeof(double) +
         metrics.size() * sizeof(double);
}

// ---------------------------------------------------------------- state

struct Completion::State : RunPosition {
  Params p;
  uint64_t seed = 0;
  Rng rng;
  std::shared_ptr<const CompletionProblem> prob;
  std::string notice;  // shown while message is empty
  std::vector<double> metrics;
  std::shared_ptr<const CompletionEstimate> est;
  std::shared_ptr<const CompletionEstimate> iteration_start;  // als: the estimate before the V-sweep
  std::vector<double> spectrum_before;
  double last_change_ratio = kNaN;
  double half_objective = kNaN;
  // svt's divergence test: the training RMSE of iteration 1 and the lowest one so far (when).
  double svt_first_rmse = kNaN, svt_best_rmse = kNaN;
  int svt_best_iteration = 0;
  // als, sgd: U (m x k) then V (n x k), row-major, in one buffer (the optimizer's theta).
  Eigen::VectorXd factors, grad;
  std::vector<double> reg_row, reg_col;  // sgd: 1 / |Omega_i|, 1 / |Omega_j|
  Optimizer opt;
  std::vector<int> order;  // sgd: the epoch's shuffled training entries
  int sgd_steps = 0;
  // svt: Y on the training entries; the threshold and step in use.
  std::vector<double> y;
  double tau = 0, delta = 0;
  mutable std::shared_ptr<const CompletionSnapshot> cache;

  int m() const { return prob->m; }
  int n() const { return prob->n; }
  int k() const { return p.k; }
  RowMap u() { return RowMap(factors.data(), m(), k()); }
  RowMap v() { return RowMap(factors.data() + static_cast<Eigen::Index>(m()) * k(), n(), k()); }
  ConstRowMap u() const { return ConstRowMap(factors.data(), m(), k()); }
  ConstRowMap v() const { return ConstRowMap(factors.data() + static_cast<Eigen::Index>(m()) * k(), n(), k()); }

  void build_problem(const std::shared_ptr<const Dataset>& data);
  uint64_t lanczos_seed(int salt) const { return seed * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(iteration) * 131 + static_cast<uint64_t>(salt) + 1; }
  // The estimate from factors U V^T (als, sgd).
  std::shared_ptr<const CompletionEstimate> estimate_from_factors() const;
  // The estimate from a thin SVD (svd_impute, svt).
  static std::shared_ptr<const CompletionEstimate> estimate_from_svd(Eigen::MatrixXd u, Eigen::VectorXd s, Eigen::MatrixXd v);
  double predict_z(const CompletionEstimate& e, int entry) const {
    return dot_row(e.user_factors, prob->train_row[static_cast<size_t>(entry)], e.item_factors,
                   prob->train_col[static_cast<size_t>(entry)]);
  }
  Fit fit(const CompletionEstimate& e) const;
  double factor_objective() const;
  void als_sweep(bool items);
  // The first half of an ALS iteration: the V-sweep and l after it.
  void als_v_sweep() {
    iteration_start = est;
    als_sweep(true);
    half_objective = factor_objective();
    phase = 1;
  }
  void sgd_epoch();
  void svp_step();
  void svt_step();
  bool svt_oscillates();  // judge(): svt's swing detected (sets Diverged and the message)
  // Measures the new estimate against the previous one and judges the status.
  void measure(const std::shared_ptr<const CompletionEstimate>& next, bool count_change);
  void judge();
};

void Completion::State::build_problem(const std::shared_ptr<const Dataset>& data) {
  auto prob_ = std::make_shared<CompletionProblem>();
  CompletionProblem& q = *prob_;
  std::shared_ptr<const ObservedMatrix> om;
  if (data->is_partial()) {
    om = data->observed;
    q.what = cilab::describe(*data);
  } else {
    std::string what;
    Eigen::MatrixXd full = complete_matrix(*data, 0, &what);
    std::shared_ptr<ObservedMatrix> h;
    try {
      h = with_holes(full, p.missing, p.holes == Holes::Blocks ? HolePattern::Blocks : HolePattern::Random, 8,
                     seed ^ 0x5bd1e995ULL);
    } catch (const DataError& e) {
      throw std::invalid_argument(std::string("completion: ") + e.what());
    }
    if (data->is_image()) {
      h->image_h = data->image_h;
      h->image_w = data->image_w;
      h->row_kind = "pixel row";
      h->col_kind = "pixel column";
    } else {
      h->row_kind = "row";
      h->col_kind = "column";
    }
    om = h;
    char buf[96];
    std::snprintf(buf, sizeof buf, " with %.3g %% hidden (%s)", 100.0 * p.missing,
                  p.holes == Holes::Blocks ? "8 x 8 blocks" : "at random");
    q.what = what + buf;
    notice = "complete data: missing=" + fmt_g(p.missing) + " of its entries were hidden to be completed";
  }
  q.data = om;
  q.m = om->rows;
  q.n = om->cols;
  const size_t total = om->observed();
  if (total == 0) throw std::invalid_argument("completion: the data has no observed entry; load ratings or a picture");
  size_t n_test = static_cast<size_t>(std::llround(p.test_fraction * static_cast<double>(total)));
  if (n_test >= total) n_test = total - 1;
  // Seeded split: a partial Fisher-Yates draws the held-out entries.
  std::vector<uint8_t> is_test(total, 0);
  {
    std::vector<size_t> idx(total);
    std::iota(idx.begin(), idx.end(), size_t{0});
    for (size_t t = 0; t < n_test; ++t) {
      const size_t r = t + static_cast<size_t>(rng.below(static_cast<uint64_t>(total - t)));
      std::swap(idx[t], idx[r]);
      is_test[idx[t]] = 1;
    }
  }
  for (size_t e = 0; e < total; ++e) {
    if (is_test[e]) {
      q.test_row.push_back(om->row[e]);
      q.test_col.push_back(om->col[e]);
      q.test_value.push_back(om->value[e]);
    } else {
      q.train_row.push_back(om->row[e]);
      q.train_col.push_back(om->col[e]);
      q.train_value.push_back(om->value[e]);
    }
  }
  const int m = q.m, n = q.n;
  const size_t nt = q.train_value.size();
  // Masked normalisation from the training entries.
  q.row_mean = Eigen::VectorXd::Zero(m);
  q.col_mean = Eigen::VectorXd::Zero(n);
  q.row_scale = Eigen::VectorXd::Ones(m);
  q.col_scale = Eigen::VectorXd::Ones(n);
  auto axis_mean = [&](bool by_row, const std::vector<double>& r, Eigen::VectorXd& out) {
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(by_row ? m : n), cnt = sum;
    for (size_t e = 0; e < nt; ++e) {
      const int a = by_row ? q.train_row[e] : q.train_col[e];
      sum[a] += r[e];
      cnt[a] += 1;
    }
    out = sum.array() / cnt.array().max(1.0);
  };
  std::vector<double> rest = q.train_value;
  if (p.normalize == Normalize::Columns || p.normalize == Normalize::Both) {
    axis_mean(false, rest, q.col_mean);
    for (size_t e = 0; e < nt; ++e) rest[e] -= q.col_mean[q.train_col[e]];
  }
  if (p.normalize == Normalize::Rows || p.normalize == Normalize::Both) {
    axis_mean(true, rest, q.row_mean);
    for (size_t e = 0; e < nt; ++e) rest[e] -= q.row_mean[q.train_row[e]];
  }
  if (p.scale) {
    const bool by_row = p.normalize == Normalize::Rows;
    const bool global = p.normalize == Normalize::None;
    std::vector<double> sq(nt);
    for (size_t e = 0; e < nt; ++e) sq[e] = rest[e] * rest[e];
    Eigen::VectorXd var;
    if (global) {
      const double sd = std::sqrt(std::accumulate(sq.begin(), sq.end(), 0.0) / static_cast<double>(nt));
      q.col_scale.setConstant(sd > 1e-12 ? sd : 1.0);
    } else {
      axis_mean(by_row, sq, var);
      Eigen::VectorXd sd = var.array().sqrt();
      for (Eigen::Index a = 0; a < sd.size(); ++a)
        if (!(sd[a] > 1e-12)) sd[a] = 1.0;
      (by_row ? q.row_scale : q.col_scale) = sd;
    }
  }
  q.train_z.resize(nt);
  for (size_t e = 0; e < nt; ++e) q.train_z[e] = rest[e] / q.scale(q.train_row[e], q.train_col[e]);
  // Row starts (the entries are sorted by row) and the column index.
  q.row_start.assign(static_cast<size_t>(m) + 1, 0);
  q.col_start.assign(static_cast<size_t>(n) + 1, 0);
  for (size_t e = 0; e < nt; ++e) {
    ++q.row_start[static_cast<size_t>(q.train_row[e]) + 1];
    ++q.col_start[static_cast<size_t>(q.train_col[e]) + 1];
  }
  for (int i = 0; i < m; ++i) q.row_start[static_cast<size_t>(i) + 1] += q.row_start[static_cast<size_t>(i)];
  for (int j = 0; j < n; ++j) q.col_start[static_cast<size_t>(j) + 1] += q.col_start[static_cast<size_t>(j)];
  q.by_col.resize(nt);
  std::vector<int> fill(q.col_start.begin(), q.col_start.end() - 1);
  for (size_t e = 0; e < nt; ++e) q.by_col[static_cast<size_t>(fill[static_cast<size_t>(q.train_col[e])]++)] = static_cast<int>(e);
  prob = std::move(prob_);
}

std::shared_ptr<const CompletionEstimate> Completion::State::estimate_from_svd(Eigen::MatrixXd u, Eigen::VectorXd s,
                                                                              Eigen::MatrixXd v) {
  auto e = std::make_shared<CompletionEstimate>();
  const Eigen::VectorXd root = s.array().max(0.0).sqrt();
  e->user_factors = u * root.asDiagonal();
  e->item_factors = v * root.asDiagonal();
  e->s = std::move(s);
  return e;
}

std::shared_ptr<const CompletionEstimate> Completion::State::estimate_from_factors() const {
  auto e = std::make_shared<CompletionEstimate>();
  e->user_factors = u();
  e->item_factors = v();
  // Singular values of U V^T: U = Qu Ru, V = Qv Rv, so they are those of Ru Rv^T (k x k).
  Eigen::HouseholderQR<Eigen::MatrixXd> qu(e->user_factors), qv(e->item_factors);
  const int k = static_cast<int>(e->user_factors.cols());
  const Eigen::MatrixXd ru = qu.matrixQR().topRows(k).triangularView<Eigen::Upper>();
  const Eigen::MatrixXd rv = qv.matrixQR().topRows(k).triangularView<Eigen::Upper>();
  Eigen::JacobiSVD<Eigen::MatrixXd> small(ru * rv.transpose());
  e->s = small.singularValues();
  return e;
}

Fit Completion::State::fit(const CompletionEstimate& e) const {
  const CompletionProblem& q = *prob;
  Fit f;
  double loss = 0, sq = 0;
  for (size_t t = 0; t < q.train_z.size(); ++t) {
    const double a = predict_z(e, static_cast<int>(t));
    const double r = q.train_z[t] - a;
    loss += r * r;
    const double x = q.offset(q.train_row[t], q.train_col[t]) + q.scale(q.train_row[t], q.train_col[t]) * a;
    sq += (q.train_value[t] - x) * (q.train_value[t] - x);
  }
  f.observed_loss = 0.5 * loss;
  f.train_rmse = std::sqrt(sq / static_cast<double>(std::max<size_t>(1, q.train_z.size())));
  if (!q.test_value.empty()) {
    double st = 0;
    for (size_t t = 0; t < q.test_value.size(); ++t) {
      const int i = q.test_row[t], j = q.test_col[t];
      const double x = q.offset(i, j) + q.scale(i, j) * dot_row(e.user_factors, i, e.item_factors, j);
      st += (q.test_value[t] - x) * (q.test_value[t] - x);
    }
    f.test_rmse = std::sqrt(st / static_cast<double>(q.test_value.size()));
  }
  return f;
}

double Completion::State::factor_objective() const {
  const CompletionProblem& q = *prob;
  const ConstRowMap uu = u(), vv = v();
  double loss = 0;
  for (size_t t = 0; t < q.train_z.size(); ++t) {
    const double r = q.train_z[t] - uu.row(q.train_row[t]).dot(vv.row(q.train_col[t]));
    loss += r * r;
  }
  return 0.5 * loss + 0.5 * p.lambda * (uu.squaredNorm() + vv.squaredNorm());
}

// One half of ALS: every item's (items = true) or every user's factor row
// solves its regularised least-squares problem exactly.
void Completion::State::als_sweep(bool items) {
  const CompletionProblem& q = *prob;
  const int rows = items ? n() : m();
  const int k = this->k();
  RowMap solve_for = items ? v() : u();
  const int blocks = (rows + kBlockRows - 1) / kBlockRows;
  const double lambda = p.lambda;
  // The fixed side: U when solving for the items, V when solving for the users.
  const double* other_data = items ? factors.data() : factors.data() + static_cast<size_t>(m()) * static_cast<size_t>(k);
  parallel_for_blocks(blocks, parallel_threads(blocks, q.train_z.size() * static_cast<size_t>(k * k), 200000), [&](int b) {
    std::vector<double> g(static_cast<size_t>(k) * static_cast<size_t>(k)), rhs(static_cast<size_t>(k));
    const int lo = b * kBlockRows, hi = std::min(rows, lo + kBlockRows);
    for (int a = lo; a < hi; ++a) {
      std::fill(g.begin(), g.end(), 0.0);
      std::fill(rhs.begin(), rhs.end(), 0.0);
      const int s0 = items ? q.col_start[static_cast<size_t>(a)] : q.row_start[static_cast<size_t>(a)];
      const int s1 = items ? q.col_start[static_cast<size_t>(a) + 1] : q.row_start[static_cast<size_t>(a) + 1];
      for (int s = s0; s < s1; ++s) {
        const int e = items ? q.by_col[static_cast<size_t>(s)] : s;
        const int o = items ? q.train_row[static_cast<size_t>(e)] : q.train_col[static_cast<size_t>(e)];
        const double* w = other_data + static_cast<size_t>(o) * static_cast<size_t>(k);
        const double z = q.train_z[static_cast<size_t>(e)];
        for (int r = 0; r < k; ++r) {  // lower triangle of sum w w^T, and sum z w
          double* gr = g.data() + static_cast<size_t>(r) * static_cast<size_t>(k);
          const double wr = w[r];
          for (int c = 0; c <= r; ++c) gr[c] += wr * w[c];
          rhs[static_cast<size_t>(r)] += z * wr;
        }
      }
      for (int r = 0; r < k; ++r) g[static_cast<size_t>(r) * static_cast<size_t>(k) + static_cast<size_t>(r)] += lambda;
      double* out = solve_for.data() + static_cast<size_t>(a) * static_cast<size_t>(k);
      if (!(lambda > 0) || !cholesky_solve(g.data(), rhs.data(), out, k)) {
        // lambda = 0 and too few entries: the minimum-norm least-squares row.
        // (cholesky_solve may have overwritten g: rebuild G from the entries)
        Eigen::MatrixXd full = Eigen::MatrixXd::Zero(k, k);
        for (int s = s0; s < s1; ++s) {
          const int e = items ? q.by_col[static_cast<size_t>(s)] : s;
          const int o = items ? q.train_row[static_cast<size_t>(e)] : q.train_col[static_cast<size_t>(e)];
          const Eigen::Map<const Eigen::VectorXd> w(other_data + static_cast<size_t>(o) * static_cast<size_t>(k), k);
          full.noalias() += w * w.transpose();
        }
        full.diagonal().array() += lambda;
        const Eigen::Map<const Eigen::VectorXd> b(rhs.data(), k);
        Eigen::Map<Eigen::VectorXd>(out, k) = full.completeOrthogonalDecomposition().solve(b);
      }
    }
  });
}

void Completion::State::sgd_epoch() {
  const CompletionProblem& q = *prob;
  const size_t nt = q.train_z.size();
  if (order.size() != nt) {
    order.resize(nt);
    std::iota(order.begin(), order.end(), 0);
  }
  for (size_t t = nt; t > 1; --t) std::swap(order[t - 1], order[static_cast<size_t>(rng.below(t))]);
  const int k = this->k();
  const size_t mk = static_cast<size_t>(m()) * static_cast<size_t>(k);
  opt.set_config(group_config(p.optim));
  for (size_t b0 = 0; b0 < nt; b0 += static_cast<size_t>(p.batch_size)) {
    const size_t b1 = std::min(nt, b0 + static_cast<size_t>(p.batch_size));
    const double w = 1.0 / static_cast<double>(b1 - b0);
    grad.setZero();
    for (size_t t = b0; t < b1; ++t) {
      const int e = order[t];
      const int i = q.train_row[static_cast<size_t>(e)], j = q.train_col[static_cast<size_t>(e)];
      const double* ui = factors.data() + static_cast<size_t>(i) * k;
      const double* vj = factors.data() + mk + static_cast<size_t>(j) * k;
      double* gu = grad.data() + static_cast<size_t>(i) * k;
      double* gv = grad.data() + mk + static_cast<size_t>(j) * k;
      double pred = 0;
      for (int r = 0; r < k; ++r) pred += ui[r] * vj[r];
      const double err = pred - q.train_z[static_cast<size_t>(e)];
      const double ru = p.lambda * reg_row[static_cast<size_t>(i)], rv = p.lambda * reg_col[static_cast<size_t>(j)];
      for (int r = 0; r < k; ++r) {
        gu[r] += w * (err * vj[r] + ru * ui[r]);
        gv[r] += w * (err * ui[r] + rv * vj[r]);
      }
    }
    opt.step(factors.data(), grad.data(), p.optim.lr);
    ++sgd_steps;
  }
}

// One step of singular value projection on the "low rank + sparse" iterate
// Z_t = A + eta Pi_Omega(Z - A).
void Completion::State::svp_step() {
  const CompletionProblem& q = *prob;
  const size_t nt = q.train_z.size();
  std::vector<double> r(nt);
  for (size_t t = 0; t < nt; ++t) r[t] = p.eta * (q.train_z[t] - predict_z(*est, static_cast<int>(t)));
  const CompletionEstimate& a = *est;
  LinearOperator op;
  op.rows = m();
  op.cols = n();
  const bool low = a.user_factors.cols() > 0;
  op.apply = [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
    if (low) out.noalias() = a.user_factors * (a.item_factors.transpose() * x);
    else out.setZero(m());
    for (size_t t = 0; t < nt; ++t) out[q.train_row[t]] += r[t] * x[q.train_col[t]];
  };
  op.apply_transpose = [&](const Eigen::VectorXd& y, Eigen::VectorXd& out) {
    if (low) out.noalias() = a.item_factors * (a.user_factors.transpose() * y);
    else out.setZero(n());
    for (size_t t = 0; t < nt; ++t) out[q.train_col[t]] += r[t] * y[q.train_row[t]];
  };
  LanczosOptions lo;
  lo.rank = k();
  lo.tol = kLanczosTol;
  lo.seed = lanczos_seed(1);
  lo.start = low ? &a.item_factors : nullptr;
  TruncatedSvd svd = lanczos_svd(op, lo);
  // The k values truncated to, then the next Ritz values (lower bounds of sigma_{k+1}, ...).
  const int shown = std::min<int>(static_cast<int>(svd.ritz.size()), k() + kSpectrumExtra);
  spectrum_before.assign(svd.ritz.data(), svd.ritz.data() + shown);
  const int keep = std::min<int>(k(), static_cast<int>(svd.sigma.size()));
  measure(estimate_from_svd(svd.u.leftCols(keep), svd.sigma.head(keep), svd.v.leftCols(keep)), true);
}

// One Cai-Candes-Shen step: B = shrink_tau(Y), then Y += delta Pi_Omega(Z - B).
void Completion::State::svt_step() {
  const CompletionProblem& q = *prob;
  const size_t nt = q.train_z.size();
  const LinearOperator op = training_operator(q, y);
  LanczosOptions lo;
  lo.above = tau;
  lo.tol = kLanczosTol;
  lo.seed = lanczos_seed(2);
  lo.start = est && est->item_factors.cols() > 0 ? &est->item_factors : nullptr;
  TruncatedSvd svd = lanczos_svd(op, lo);
  const int shown = std::min<int>(static_cast<int>(svd.ritz.size()), std::max<int>(static_cast<int>(svd.sigma.size()) + 10, 20));
  spectrum_before.assign(svd.ritz.data(), svd.ritz.data() + shown);
  const Eigen::VectorXd s = soft_threshold(svd.sigma, tau);  // (sigma_i - tau)_+
  auto next = estimate_from_svd(svd.u, s, svd.v);
  for (size_t t = 0; t < nt; ++t) y[t] += delta * (q.train_z[t] - predict_z(*next, static_cast<int>(t)));
  measure(next, true);
}

void Completion::State::measure(const std::shared_ptr<const CompletionEstimate>& next, bool count_change) {
  std::vector<double> mt = metric_table().blank();
  const Fit f = fit(*next);
  mt[kMetricTrainRmse] = f.train_rmse;
  mt[kMetricTestRmse] = f.test_rmse;
  mt[kMetricObservedLoss] = f.observed_loss;
  const double s1 = next->s.size() ? next->s.maxCoeff() : 0.0;
  int rank = 0;
  for (Eigen::Index i = 0; i < next->s.size(); ++i) rank += next->s[i] > 1e-9 * s1 && next->s[i] > 0;
  mt[kMetricRank] = rank;
  mt[kMetricNuclearNorm] = next->s.sum();
  const double norm2 = next->s.squaredNorm();
  switch (p.method) {
    case Method::SvdImpute: mt[kMetricObjective] = f.observed_loss; break;
    case Method::Als:
    case Method::Sgd: mt[kMetricObjective] = factor_objective(); break;
    case Method::Svt: mt[kMetricObjective] = tau * next->s.sum() + 0.5 * norm2; break;
  }
  mt[kMetricHalfObjective] = half_objective;
  if (count_change && est) {
    // ||A1 - A0||^2 = ||A1||^2 + ||A0||^2 - 2 <A1, A0>, <L1 R1^T, L0 R0^T> = sum((L1^T L0) .* (R1^T R0)).
    double cross = 0;
    if (next->user_factors.cols() > 0 && est->user_factors.cols() > 0)
      cross = ((next->user_factors.transpose() * est->user_factors).array() *
               (next->item_factors.transpose() * est->item_factors).array())
                  .sum();
    const double d2 = norm2 + est->s.squaredNorm() - 2.0 * cross;
    mt[kMetricChange] = std::sqrt(std::max(0.0, d2));
    last_change_ratio = norm2 > 0 ? mt[kMetricChange] / std::sqrt(norm2) : (mt[kMetricChange] == 0 ? 0.0 : kNaN);
  }
  est = next;
  metrics = std::move(mt);
  cache.reset();
}

// SVT is dual ascent on Y with step delta; Cai, Candes and Shen prove convergence for
// 0 < delta < 2 and recommend 1.2 m n / |Omega| for uniformly sampled entries. Above 2 on data
// that is not (the ratings' popular items, a photo's structure) the iterate can start to swing:
// the rank and the objective jump between two levels each step (5e6 <-> 5e7), the training RMSE
// rises far above its best, and every step costs more (a Lanczos SVD of the growing rank). A
// training RMSE 1.5 times its best so far, and above it by more than 1 % of the first
// iteration's, is that swing (a converging run never rises so; exact recovery's tiny RMSEs are
// kept out by the 1 %): Diverged, with the cause and the fix.
bool Completion::State::svt_oscillates() {
  const double r = metrics[kMetricTrainRmse];
  if (iteration == 1 || !std::isfinite(svt_first_rmse)) svt_first_rmse = r;
  if (!std::isfinite(svt_best_rmse) || r <= svt_best_rmse) {
    svt_best_rmse = r;
    svt_best_iteration = iteration;
    return false;
  }
  if (!(r > 1.5 * svt_best_rmse && r - svt_best_rmse > 0.01 * svt_first_rmse)) return false;
  status = Status::Diverged;
  char line[512];
  std::snprintf(line, sizeof line,
                "svt oscillates: the training RMSE rose from %.3g (iteration %d) to %.3g and the rank and objective "
                "swing; the step delta = %.3g is above 2, where Cai-Candes-Shen's iteration need not converge (their "
                "1.2 m n / |Omega| assumes uniformly sampled entries): rewind, then set delta below 2 (e.g. "
                "delta=1.9) or raise tau (now %.3g)",
                svt_best_rmse, svt_best_iteration, r, delta, tau);
  message = line;
  return true;
}

void Completion::State::judge() {
  for (int i : {kMetricTrainRmse, kMetricObjective})
    if (!std::isfinite(metrics[static_cast<size_t>(i)])) {
      status = Status::Diverged;
      message = "the " + metric_table().infos()[static_cast<size_t>(i)].name +
                " is not finite: the iteration diverged (try a smaller lr, eta or delta)";
      return;
    }
  if (p.method == Method::Svt && iteration > 0 && svt_oscillates()) return;
  message.clear();
  if (iteration > 0 && last_change_ratio <= p.tol) {
    status = Status::Converged;
    message = "converged: ||A_t - A_{t-1}||_F <= tol ||A_t||_F";
  } else if (iteration >= p.max_iter) {
    status = Status::Stopped;
    message = "max_iter = " + std::to_string(p.max_iter) + " iterations spent";
  } else {
    status = Status::Running;
  }
}

// ---------------------------------------------------------------- module

const ModuleInfo& Completion::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "completion";
    m.title = "Matrix completion (SVD imputation, ALS, SGD, SVT)";
    m.chapter = "Matrix completion";
    m.summary =
        "Fills in a partially observed matrix - user x item ratings or a photo with holes - from the observed "
        "entries: singular value projection (iterative SVD imputation), alternating least squares, SGD "
        "factorisation or Cai-Candes-Shen singular value thresholding, with a held-out RMSE to compare them.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"V-sweep", "U-sweep"};
    m.default_dataset = "ratings";
    m.ratings_data = true;
    m.default_cli_steps = 20;
    m.iteration_columns = {"train_rmse", "test_rmse", "objective", "rank", "nuclear_norm", "change"};
    return m;
  }();
  return kInfo;
}

const ParamTable<Completion::Params>& module_params(const Completion*) { return param_table(); }
Completion::Params Completion::params_from(const ParamValues& values) { return param_table().read(values); }


void Completion::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  Params p = param_table().read(values);
  if (!data)
    throw std::invalid_argument("completion: no data loaded; load ratings (ratings, a u.data file) or a picture "
                                "(photo-holes)");
  if (!data->is_partial()) require_usable_data(data.get(), "completion");
  if (p.method == Method::Sgd) group_config(p.optim).validate();
  auto st = std::make_unique<State>();
  st->p = p;
  st->seed = seed;
  st->rng.reseed(seed);
  st->build_problem(data);
  const int m = st->m(), n = st->n();
  if (p.k > std::min(m, n))
    throw std::invalid_argument("completion: parameter 'k': expected 1.." + std::to_string(std::min(m, n)) +
                                " (min(m, n) of the " + std::to_string(m) + " x " + std::to_string(n) +
                                " matrix), got " + std::to_string(p.k) + "; try k=" + std::to_string(std::min(m, n) / 2 + 1));
  const CompletionProblem& q = *st->prob;
  const double mn = static_cast<double>(m) * n;
  const size_t nt = q.train_z.size();
  double rms = 0;
  for (double z : q.train_z) rms += z * z;
  rms = std::sqrt(rms / static_cast<double>(nt));
  st->tau = p.tau > 0 ? p.tau : 5.0 * std::sqrt(mn) * rms;
  st->delta = p.delta > 0 ? p.delta : 1.2 * mn / static_cast<double>(nt);
  if (p.method == Method::Als || p.method == Method::Sgd) {
    st->factors.resize(static_cast<Eigen::Index>(m + n) * p.k);
    if (p.init == Init::Random) {
      for (Eigen::Index i = 0; i < st->factors.size(); ++i) st->factors[i] = p.init_scale * st->rng.normal();
    } else {
      const LinearOperator op = training_operator(q, q.train_z);
      LanczosOptions lo;
      lo.rank = p.k;
      lo.tol = kLanczosTol;
      lo.seed = st->lanczos_seed(3);
      TruncatedSvd svd = lanczos_svd(op, lo);
      st->factors.setZero();
      const Eigen::VectorXd root = svd.sigma.array().sqrt();
      const int got = static_cast<int>(svd.sigma.size());
      st->u().leftCols(got) = svd.u * root.asDiagonal();
      st->v().leftCols(got) = svd.v * root.asDiagonal();
    }
    if (p.method == Method::Sgd) {
      st->grad.setZero(st->factors.size());
      st->reg_row.assign(static_cast<size_t>(m), 0.0);
      st->reg_col.assign(static_cast<size_t>(n), 0.0);
      for (int i = 0; i < m; ++i) {
        const int c = q.row_start[static_cast<size_t>(i) + 1] - q.row_start[static_cast<size_t>(i)];
        st->reg_row[static_cast<size_t>(i)] = c > 0 ? 1.0 / c : 0.0;
      }
      for (int j = 0; j < n; ++j) {
        const int c = q.col_start[static_cast<size_t>(j) + 1] - q.col_start[static_cast<size_t>(j)];
        st->reg_col[static_cast<size_t>(j)] = c > 0 ? 1.0 / c : 0.0;
      }
      st->opt = Optimizer(group_config(p.optim), static_cast<size_t>(st->factors.size()));
    }
    st->measure(st->estimate_from_factors(), false);
  } else {
    if (p.method == Method::Svt) {
      // Kick start: Y_0 = k0 delta Pi_Omega(Z), k0 = ceil(tau / (delta ||Pi_Omega(Z)||_2)).
      const LinearOperator op = training_operator(q, q.train_z);
      LanczosOptions lo;
      lo.rank = 1;
      lo.tol = kLanczosTol;
      lo.seed = st->lanczos_seed(4);
      const TruncatedSvd top = lanczos_svd(op, lo);
      const double norm2 = top.sigma.size() ? top.sigma[0] : 0.0;
      const double k0 = norm2 > 0 ? std::ceil(st->tau / (st->delta * norm2)) : 0.0;
      st->y.resize(nt);
      for (size_t t = 0; t < nt; ++t) st->y[t] = k0 * st->delta * q.train_z[t];
    }
    st->measure(State::estimate_from_svd(Eigen::MatrixXd(m, 0), Eigen::VectorXd(0), Eigen::MatrixXd(n, 0)), false);
  }
  st->judge();
  st_ = std::move(st);
}

void Completion::sub_step() {
  State& s = *st_;
  if (is_terminal(s.status)) return;
  if (s.p.method != Method::Als) {
    step();
    return;
  }
  if (s.phase == 0) {  // the V-sweep, shown on its own
    s.als_v_sweep();
    s.measure(s.estimate_from_factors(), false);
    return;
  }
  // The U-sweep completes the iteration; its change is measured from the
  // estimate at the start of the iteration.
  s.als_sweep(false);
  s.phase = 0;
  ++s.iteration;
  s.est = s.iteration_start;
  s.measure(s.estimate_from_factors(), true);
  s.iteration_start.reset();
  s.half_objective = kNaN;
  s.judge();
}

void Completion::step() {
  State& s = *st_;
  if (is_terminal(s.status)) return;
  switch (s.p.method) {
    case Method::Als:
      if (s.phase == 0) s.als_v_sweep();  // nothing published in between: no measurement
      sub_step();
      return;
    case Method::Sgd:
      s.sgd_epoch();
      ++s.iteration;
      s.measure(s.estimate_from_factors(), true);
      break;
    case Method::SvdImpute:
      ++s.iteration;
      s.svp_step();
      break;
    case Method::Svt:
      ++s.iteration;
      s.svt_step();
      break;
  }
  s.judge();
}

std::shared_ptr<const CompletionSnapshot> Completion::completion_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto snap = std::make_shared<CompletionSnapshot>();
  s.describe(*snap);
  if (s.message.empty()) snap->message = s.notice;
  snap->metrics = s.metrics;
  snap->problem = s.prob;
  snap->estimate = s.est;
  snap->method = static_cast<int>(s.p.method);
  snap->k = s.p.k;
  snap->tau = s.tau;
  snap->delta = s.delta;
  snap->eta = s.p.eta;
  snap->spectrum_before = s.spectrum_before;
  snap->y_support = s.y.size();
  s.cache = snap;
  return snap;
}

std::shared_ptr<const Snapshot> Completion::snapshot() const { return completion_snapshot(); }

void Completion::set_live(const std::string& name, double value) {
  State& s = *st_;
  param_table().set_live(s.p, name, value, "completion");
  if (name == "tau") {
    const double mn = static_cast<double>(s.m()) * s.n();
    double rms = 0;
    for (double z : s.prob->train_z) rms += z * z;
    rms = std::sqrt(rms / static_cast<double>(s.prob->train_z.size()));
    s.tau = s.p.tau > 0 ? s.p.tau : 5.0 * std::sqrt(mn) * rms;
  }
  if (name == "delta")
    s.delta = s.p.delta > 0 ? s.p.delta : 1.2 * static_cast<double>(s.m()) * s.n() / static_cast<double>(s.prob->train_z.size());
  if (s.p.method == Method::Sgd) s.opt.set_config(group_config(s.p.optim));
  if (s.status != Status::Diverged && s.status != Status::Failed && s.phase == 0) s.judge();
  s.cache.reset();
}

size_t Completion::state_bytes() const {
  const State& s = *st_;
  return sizeof(State) + static_cast<size_t>(s.factors.size() + s.grad.size()) * sizeof(double) * 3 +
         s.y.size() * sizeof(double) + s.order.size() * sizeof(int) + (s.est ? s.est->byte_size() : 0);
}

const Eigen::MatrixXd& Completion::user_factors() const { return st_->est->user_factors; }
const Eigen::MatrixXd& Completion::item_factors() const { return st_->est->item_factors; }
const std::vector<double>& Completion::svt_y() const { return st_->y; }
double Completion::factor_objective() const { return st_->factor_objective(); }

Eigen::VectorXd Completion::user_gradient(int i) const {
  const State& s = *st_;
  const CompletionProblem& q = *s.prob;
  const ConstRowMap u = s.u(), v = s.v();
  Eigen::VectorXd g = s.p.lambda * u.row(i).transpose();
  for (int t = q.row_start[static_cast<size_t>(i)]; t < q.row_start[static_cast<size_t>(i) + 1]; ++t) {
    const int j = q.train_col[static_cast<size_t>(t)];
    g -= (q.train_z[static_cast<size_t>(t)] - u.row(i).dot(v.row(j))) * v.row(j).transpose();
  }
  return g;
}

Eigen::VectorXd Completion::item_gradient(int j) const {
  const State& s = *st_;
  const CompletionProblem& q = *s.prob;
  const ConstRowMap u = s.u(), v = s.v();
  Eigen::VectorXd g = s.p.lambda * v.row(j).transpose();
  for (int c = q.col_start[static_cast<size_t>(j)]; c < q.col_start[static_cast<size_t>(j) + 1]; ++c) {
    const int t = q.by_col[static_cast<size_t>(c)];
    const int i = q.train_row[static_cast<size_t>(t)];
    g -= (q.train_z[static_cast<size_t>(t)] - u.row(i).dot(v.row(j))) * u.row(i).transpose();
  }
  return g;
}

CILAB_MODULE_STATE(Completion)

}  // namespace cilab
