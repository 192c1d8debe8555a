// PCA: see pca.h for the equations, the preprocessing, the outputs and the method.
//
// Shapes: X n x d (the dataset, column-major, never copied when d <= n), row
// blocks B (kBlockRows x d) preprocessed on the fly, C d x d (or G n x n when
// d > n), U_K K x d, Z n x K (only the first kMaxHeldScores columns are kept,
// as float). Row work is split into kPartitions fixed contiguous partitions;
// each partition accumulates its own partial sums sequentially, and partials
// are added in partition order, so results do not depend on the thread count.
#include "algorithms/dimensionality/pca.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

#include "algorithms/core/parallel.h"

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;
constexpr int kPartitions = 4;    // fixed row partitions (determinism)
constexpr int kBlockRows = 256;   // rows per preprocessed block
constexpr double kParallelMinWork = 4e6;  // n*d*d below which one thread runs


using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Rows [r0, r1) of partition p of n rows.
void partition_rows(int n, int p, int* r0, int* r1) {
  *r0 = static_cast<int>(static_cast<long long>(n) * p / kPartitions);
  *r1 = static_cast<int>(static_cast<long long>(n) * (p + 1) / kPartitions);
}

// B = (X[r0:r0+b] - m) / s, b x d column-major.
void preprocess_block(const Eigen::MatrixXd& x, int r0, int b, const Eigen::VectorXd& m,
                      const Eigen::VectorXd& inv_s, Eigen::MatrixXd& out) {
  out.resize(b, x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    out.col(j) = (x.col(j).segment(r0, b).array() - m[j]) * inv_s[j];
}

// Largest-|.| entry of each row positive (ties -> lowest index).
void fix_signs(Eigen::MatrixXd& rows) {
  for (Eigen::Index k = 0; k < rows.rows(); ++k) {
    Eigen::Index arg = 0;
    double best = -1.0;
    for (Eigen::Index j = 0; j < rows.cols(); ++j)
      if (std::abs(rows(k, j)) > best) best = std::abs(rows(k, j)), arg = j;
    if (rows(k, arg) < 0) rows.row(k) *= -1.0;
  }
}

// Eigen-decomposition results (shared by clones and snapshots; immutable).
struct Fit {
  Eigen::VectorXd eigenvalues;                     // min(n, d), descending
  std::shared_ptr<const Eigen::MatrixXd> components;  // K x d
  std::shared_ptr<const Eigen::MatrixXf> scores;      // n x min(K, kMaxHeldScores)
  Eigen::VectorXd recon_error;                     // K + 1
};

}  // namespace

// Everything a PCA holds (a value type: clone() copies it).
struct PCA::State : RunPosition {
  std::shared_ptr<const Dataset> data;
  Params p;
  int n = 0, d = 0, k = 0;
  Eigen::VectorXd mean, offset, scale;
  int zero_std = 0;
  double total = 0.0;
  std::shared_ptr<const Eigen::MatrixXd> cov;  // d <= kKeepCovarianceMaxDim only
  std::shared_ptr<const Fit> fit_result;       // shared by clones and snapshots
  Eigen::VectorXd u;
  double captured = 0.0;
  mutable std::shared_ptr<const PcaSnapshot> cache;

  void set_direction(const Eigen::VectorXd& u);
  void fit();
  void invalidate() { cache.reset(); }
};

// ---------------------------------------------------------------- free functions

double PcaSnapshot::dropped_sum(int k_prime) const {
  if (!fitted || eigenvalues.size() == 0) return kNaN;
  const int kk = std::clamp(k_prime, 0, static_cast<int>(eigenvalues.size()));
  // tr C - sum_{i <= K'} lambda_i would lose digits to cancellation; sum the tail.
  double s = 0.0;
  for (Eigen::Index i = eigenvalues.size() - 1; i >= kk; --i) s += eigenvalues[i];
  return s;
}

double PcaSnapshot::cumulative_ratio(int k_prime) const {
  if (!fitted || eigenvalues.size() == 0) return kNaN;
  const int kk = std::clamp(k_prime, 0, static_cast<int>(eigenvalues.size()));
  double s = 0.0;
  for (int i = 0; i < kk; ++i) s += eigenvalues[i];
  return total_variance > 0.0 ? s / total_variance : kNaN;
}

size_t PcaSnapshot::byte_size() const {
  size_t b = Snapshot::byte_size() + message.capacity() +
             static_cast<size_t>(mean.size() + offset.size() + scale.size() + eigenvalues.size() +
                                 recon_error.size() + direction.size()) *
                 sizeof(double);
  if (covariance) b += static_cast<size_t>(covariance->size()) * sizeof(double);
  if (components) b += static_cast<size_t>(components->size()) * sizeof(double);
  if (scores) b += static_cast<size_t>(scores->size()) * sizeof(float);
  return b;
}

Eigen::MatrixXd pca_transform(const PcaSnapshot& snap, const Eigen::Ref<const Eigen::MatrixXd>& rows,
                              int k) {
  if (!snap.components || k < 0 || k > snap.k() || rows.cols() != snap.d)
    throw std::invalid_argument("pca_transform: needs a fitted snapshot, rows with d columns and "
                                "k <= the number of components");
  Eigen::MatrixXd xp = rows;
  for (Eigen::Index j = 0; j < xp.cols(); ++j)
    xp.col(j) = (xp.col(j).array() - snap.offset[j]) / snap.scale[j];
  return xp * snap.components->topRows(k).transpose();
}

Eigen::MatrixXd pca_inverse_transform(const PcaSnapshot& snap,
                                      const Eigen::Ref<const Eigen::MatrixXd>& scores) {
  if (!snap.components || scores.cols() > snap.k())
    throw std::invalid_argument("pca_inverse_transform: needs a fitted snapshot and at most k "
                                "score columns");
  const int k = static_cast<int>(scores.cols());
  Eigen::MatrixXd x = scores * snap.components->topRows(k);
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    x.col(j) = x.col(j).array() * snap.scale[j] + snap.offset[j];
  return x;
}

double pca_captured_variance(const Eigen::Ref<const Eigen::MatrixXd>& cov,
                             const Eigen::Ref<const Eigen::VectorXd>& u) {
  const double nn = u.squaredNorm();
  if (!(nn > 0.0)) return kNaN;
  return u.dot(cov * u) / nn;
}

Eigen::VectorXd pca_direction_from_angles(int d, double angle_deg, double elevation_deg) {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(std::max(1, d));
  if (d <= 1) {
    u[0] = 1.0;
    return u;
  }
  const double a = angle_deg * kPi / 180.0;
  const double e = d >= 3 ? elevation_deg * kPi / 180.0 : 0.0;
  u[0] = std::cos(e) * std::cos(a);
  u[1] = std::cos(e) * std::sin(a);
  if (d >= 3) u[2] = std::sin(e);
  return u;
}

void pca_angles_from_direction(const Eigen::Ref<const Eigen::VectorXd>& u_in, double* angle_deg,
                               double* elevation_deg) {
  Eigen::VectorXd u = u_in.normalized();
  double a = std::atan2(u[1], u[0]);
  if (a < 0) {  // the same line through -u: azimuth in [0, pi)
    a += kPi;
    u = -u;
  }
  if (a >= kPi) a -= kPi;
  const double e = u.size() >= 3 ? std::asin(std::clamp(u[2], -1.0, 1.0)) : 0.0;
  if (angle_deg) *angle_deg = a * 180.0 / kPi;
  if (elevation_deg) *elevation_deg = e * 180.0 / kPi;
}

// ---------------------------------------------------------------- description

namespace {

const ParamTable<PCA::Params>& param_table() {
  using P = PCA::Params;
  static const ParamTable<P> kTable = {
      Int("components", &P::components, 0, PCA::kMaxEigenDim)
          .help("number of principal components K to compute and show; 0 = all min(n, d) "
                "(scikit-learn: n_components, None = all)")
          .formula("U_K = [u_1 .. u_K]"),
      Bool("center", &P::center)
          .help("subtract the mean before the decomposition (off: the line passes through the "
                "origin and C is the second-moment matrix)")
          .formula("x' = x - mu"),
      Bool("standardize", &P::standardize)
          .help("divide each feature by its standard deviation (C becomes the correlation "
                "matrix; scikit-learn: StandardScaler before PCA)")
          .formula("x'_j = (x_j - mu_j) / s_j"),
      Choice("mode", &P::mode, {"fit", "manual"})
          .choice_help({"the fit sets the line direction u to the top eigenvector u_1",
                        "drag the direction u yourself; 'solve' snaps it to u_1"})
          .help("who chooses the line direction u (2-D / 3-D line fit)")
          .live(),
      Real("angle", &P::angle, 0, 180)
          .help("direction of u in degrees, in the plane of the first two features (manual mode)")
          .formula("u = (cos e cos a, cos e sin a, sin e)")
          .live(),
      Real("elevation", &P::elevation, -90, 90)
          .help("elevation of u towards the third feature in degrees (3-D data, manual mode)")
          .formula("u = (cos e cos a, cos e sin a, sin e)")
          .live(),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {PCA::kMetricTotal, "total_variance", "tr C = (1/n) sum_i ||x'_i||^2 = sum_i lambda_i", false},
      {PCA::kMetricCaptured, "captured_variance",
       "u^T C u = (1/n) sum_i <u, x'_i>^2 for the current line direction u (lambda_1 at u = u_1)", false},
      {PCA::kMetricResidual, "residual",
       "tr C - u^T C u = (1/n) sum_i ||x'_i - <u, x'_i> u||^2, mean squared distance to the line", false},
      {PCA::kMetricExplained, "explained_ratio",
       "sum_{i <= K} lambda_i / tr C for K = components (NaN before the fit)", false},
      {PCA::kMetricReconError, "reconstruction_error",
       "(1/n) sum_i ||x'_i - U_K U_K^T x'_i||^2 measured from the data; equals sum_{i > K} "
       "lambda_i (NaN before the fit)",
       false},
  };
  return kMetrics;
}

}  // namespace

const ModuleInfo& PCA::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "pca";
    m.title = "PCA (principal component analysis)";
    m.chapter = "Dimensionality reduction";
    m.summary =
        "Diagonalises the covariance C = (1/n) sum_i x'_i x'_i^T = Q Lambda Q^T of the (centred, "
        "optionally standardised) data. The top eigenvector u_1 is the direction of the best "
        "line fit: it maximises the captured variance u^T C u and minimises the residual "
        "tr C - u^T C u. Projecting onto the top K eigenvectors leaves a mean reconstruction "
        "error equal to the sum of the dropped eigenvalues (Eckart-Young). Step 1 is the whole "
        "fit; in manual mode drag the direction u and compare.";
    m.metrics = metric_table().infos();
    m.default_dataset = "anisotropic:n=300,centers=1,seed=2";
    m.table_columns = {"component", "eigenvalue", "explained_ratio", "cumulative_ratio"};
    m.default_cli_steps = 1;
    m.iterative = false;  // one step is the whole fit: no per-iteration curves
    return m;
  }();
  return kInfo;
}

const ParamTable<PCA::Params>& module_params(const PCA*) { return param_table(); }

PCA::Params PCA::params_from(const ParamValues& values) { return param_table().read(values); }

// ---------------------------------------------------------------- lifecycle



void PCA::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t) {
  State& s = *st_;
  const Params p = params_from(values);
  require_usable_data(data.get(), "pca");
  const int n = data->rows(), d = data->cols();
  const int r = std::min(n, d);
  if (r > kMaxEigenDim)
    throw std::invalid_argument("pca: min(n, d) = " + std::to_string(r) + " exceeds " +
                                std::to_string(kMaxEigenDim) +
                                " (the eigen-decomposition would take too long); try fewer rows "
                                "(dataset option n=) or fewer features");
  if (p.components > r)
    throw std::invalid_argument("parameter 'components' = " + std::to_string(p.components) +
                                " exceeds min(n, d) = " + std::to_string(r) +
                                " (n = " + std::to_string(n) + " samples, d = " +
                                std::to_string(d) + " features); try components <= " +
                                std::to_string(r) + ", or 0 for all");

  s.data = std::move(data);
  s.p = p;
  s.n = n;
  s.d = d;
  s.k = p.components == 0 ? r : p.components;
  const Eigen::MatrixXd& x = s.data->x;
  s.mean.resize(d);
  s.scale = Eigen::VectorXd::Ones(d);
  s.zero_std = 0;
  for (int j = 0; j < d; ++j) s.mean[j] = x.col(j).mean();
  s.offset = p.center ? s.mean : Eigen::VectorXd::Zero(d);
  s.total = 0.0;
  for (int j = 0; j < d; ++j) {
    const double var = (x.col(j).array() - s.mean[j]).square().mean();  // about the mean (1/n)
    if (p.standardize) {
      if (var > 0.0)
        s.scale[j] = std::sqrt(var);
      else
        ++s.zero_std;
    }
    s.total += (x.col(j).array() - s.offset[j]).square().mean() / (s.scale[j] * s.scale[j]);
  }

  s.cov.reset();
  if (d <= kKeepCovarianceMaxDim) {
    Eigen::MatrixXd xp = x;
    for (int j = 0; j < d; ++j) xp.col(j) = (xp.col(j).array() - s.offset[j]) / s.scale[j];
    Eigen::MatrixXd c = Eigen::MatrixXd::Zero(d, d);
    c.selfadjointView<Eigen::Lower>().rankUpdate(xp.transpose(), 1.0 / n);
    c.triangularView<Eigen::StrictlyUpper>() = c.transpose();
    s.cov = std::make_shared<const Eigen::MatrixXd>(std::move(c));
  }
  s.fit_result.reset();
  s.restart();
  if (s.zero_std > 0)
    s.message = std::to_string(s.zero_std) + " feature(s) have zero standard deviation and are "
               "left unscaled (s_j = 1), as scikit-learn's StandardScaler does";
  s.set_direction(pca_direction_from_angles(d, p.angle, p.elevation));
  s.invalidate();
}

void PCA::State::set_direction(const Eigen::VectorXd& u) {
  this->u = u.normalized();
  if (fit_result && !cov) {
    // u^T C u = (1/n) ||X' u||^2 without C: from the eigen-decomposition when u is
    // a component, else one pass over the data (d large, rare: only intents).
    const Eigen::MatrixXd& x = data->x;
    const Eigen::VectorXd w = this->u.cwiseQuotient(scale);
    const Eigen::VectorXd proj = x * w;
    const double shift = offset.dot(w);
    captured = (proj.array() - shift).square().mean();
  } else if (cov) {
    captured = pca_captured_variance(*cov, this->u);
  } else {
    captured = kNaN;
  }
  invalidate();
}

// ---------------------------------------------------------------- the fit

void PCA::step() {
  State& s = *st_;
  if (!s.data || is_terminal(s.status)) return;
  s.fit();
}

void PCA::State::fit() {
  const Eigen::MatrixXd& x = data->x;
  const int n = this->n, d = this->d, k = this->k;
  const Eigen::VectorXd inv_s = scale.cwiseInverse();
  auto f = std::make_shared<Fit>();
  Eigen::MatrixXd comps(k, d);

  if (d <= n) {
    // C = (1/n) sum_i x'_i x'_i^T by rank updates over fixed row partitions.
    Eigen::MatrixXd c;
    const int threads =
        parallel_threads(kPartitions, static_cast<double>(n) * d * d, kParallelMinWork);
    parallel_reduce_blocks(
        kPartitions, threads,
        [&](int pi) {
          int r0, r1;
          partition_rows(n, pi, &r0, &r1);
          Eigen::MatrixXd acc = Eigen::MatrixXd::Zero(d, d);
          Eigen::MatrixXd b;
          for (int r = r0; r < r1; r += kBlockRows) {
            const int rows = std::min(kBlockRows, r1 - r);
            preprocess_block(x, r, rows, offset, inv_s, b);
            acc.selfadjointView<Eigen::Lower>().rankUpdate(b.transpose());
          }
          return acc;
        },
        [&](int pi, Eigen::MatrixXd&& acc) {
          if (pi == 0)
            c = std::move(acc);
          else
            c += acc;
        });
    c *= 1.0 / n;
    c.triangularView<Eigen::StrictlyUpper>() = c.transpose();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(c);
    if (es.info() != Eigen::Success) {
      status = Status::Failed;
      message = "the eigen-solver did not converge on the d x d covariance; check the data";
      invalidate();
      return;
    }
    f->eigenvalues = es.eigenvalues().reverse().cwiseMax(0.0);
    for (int kk = 0; kk < k; ++kk) comps.row(kk) = es.eigenvectors().col(d - 1 - kk).transpose();
  } else {
    // d > n: G = (1/n) X' X'^T shares the non-zero eigenvalues; u_k ~ X'^T v_k.
    Eigen::MatrixXd xp;
    preprocess_block(x, 0, n, offset, inv_s, xp);
    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(n, n);
    g.selfadjointView<Eigen::Lower>().rankUpdate(xp, 1.0 / n);
    g.triangularView<Eigen::StrictlyUpper>() = g.transpose();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(g);
    if (es.info() != Eigen::Success) {
      status = Status::Failed;
      message = "the eigen-solver did not converge on the n x n Gram matrix; check the data";
      invalidate();
      return;
    }
    f->eigenvalues = es.eigenvalues().reverse().cwiseMax(0.0);
    Eigen::MatrixXd v(n, k);
    for (int kk = 0; kk < k; ++kk) v.col(kk) = es.eigenvectors().col(n - 1 - kk);
    // X'^T v_k has norm sqrt(n lambda_k); a thin QR normalises it and completes
    // the null-space columns (lambda = 0) with orthonormal vectors.
    const Eigen::MatrixXd m = xp.transpose() * v;
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(m);
    const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(d, k);
    comps = q.transpose();
  }
  fix_signs(comps);

  // Scores Z = X' U_K^T and their column sums of squares (for e(K')).
  const int held = std::min(k, kMaxHeldScores);
  auto scores = std::make_shared<Eigen::MatrixXf>(n, held);
  const Eigen::MatrixXd ut = comps.transpose();  // d x K
  Eigen::VectorXd col_ss;
  const int threads =
      parallel_threads(kPartitions, static_cast<double>(n) * d * k, kParallelMinWork);
  parallel_reduce_blocks(
      kPartitions, threads,
      [&](int pi) {
        int r0, r1;
        partition_rows(n, pi, &r0, &r1);
        Eigen::VectorXd acc = Eigen::VectorXd::Zero(k);
        Eigen::MatrixXd b, z;
        for (int r = r0; r < r1; r += kBlockRows) {
          const int rows = std::min(kBlockRows, r1 - r);
          preprocess_block(x, r, rows, offset, inv_s, b);
          z.noalias() = b * ut;
          acc += z.colwise().squaredNorm().transpose();
          scores->middleRows(r, rows) = z.leftCols(held).cast<float>();
        }
        return acc;
      },
      [&](int pi, Eigen::VectorXd&& acc) {
        if (pi == 0)
          col_ss = std::move(acc);
        else
          col_ss += acc;
      });
  f->recon_error.resize(k + 1);
  double captured = 0.0;
  f->recon_error[0] = total;
  for (int kk = 0; kk < k; ++kk) {
    captured += col_ss[kk] / n;
    f->recon_error[kk + 1] = std::max(0.0, total - captured);
  }
  f->components = std::make_shared<const Eigen::MatrixXd>(std::move(comps));
  f->scores = std::move(scores);
  fit_result = std::move(f);

  iteration = 1;
  if (p.mode == Mode::Fit) set_direction(fit_result->components->row(0).transpose());
  else set_direction(u);
  double top = 0.0;
  for (int kk = 0; kk < k; ++kk) top += fit_result->eigenvalues[kk];
  status = Status::Converged;
  std::string notice = "fitted: " + std::to_string(k) + " component(s) explain " +
                       fmt_g(total > 0 ? 100.0 * top / total : 0.0) + "% of the variance";
  if (total <= 0.0) notice = "fitted, but the total variance is 0 (all points coincide)";
  message = message.empty() || message.rfind("fitted", 0) == 0 ? notice : message + "; " + notice;
  invalidate();
}

// ---------------------------------------------------------------- edits

void PCA::set_live(const std::string& name, double value) {
  Params p = st_->p;
  param_table().set_live(p, name, value, info().name);  // throws: unknown, rebuild or out of range
  if (name == "mode") {
    // Applies at once: fit snaps u to u_1 (once fitted), manual puts u at the angle parameters,
    // the direction the user controls (as a reset in manual mode would).
    st_->p = p;
    if (st_->p.mode == Mode::Fit && st_->fit_result && st_->data) st_->set_direction(st_->fit_result->components->row(0).transpose());
    if (st_->p.mode == Mode::Manual && st_->data) st_->set_direction(pca_direction_from_angles(st_->d, st_->p.angle, st_->p.elevation));
  } else {
    st_->p = p;
    if (st_->data) st_->set_direction(pca_direction_from_angles(st_->d, st_->p.angle, st_->p.elevation));
  }
  st_->invalidate();
}

bool PCA::apply(const Intent& intent) {
  State& s = *st_;
  if (!s.data) return false;
  if (intent.kind == "set_direction") {
    if (static_cast<int>(intent.values.size()) != s.d) return false;
    Eigen::VectorXd u(s.d);
    for (int j = 0; j < s.d; ++j) u[j] = intent.values[static_cast<size_t>(j)];
    if (!u.allFinite() || !(u.norm() > 0.0)) return false;
    s.set_direction(u);
    return true;
  }
  if (intent.kind == "solve") {
    if (s.fit_result) {
      s.set_direction(s.fit_result->components->row(0).transpose());
      return true;
    }
    if (!s.cov) return false;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(*s.cov);
    Eigen::MatrixXd top = es.eigenvectors().col(s.d - 1).transpose();
    fix_signs(top);
    s.set_direction(top.row(0).transpose());
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- snapshot

std::shared_ptr<const PcaSnapshot> PCA::pca_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto out = std::make_shared<PcaSnapshot>();
  if (!s.data) {
    describe_not_reset(*out, "pca", metric_table(), " (no dataset)");
    s.cache = out;
    return s.cache;
  }
  s.describe(*out);
  out->n = s.n;
  out->d = s.d;
  out->fitted = static_cast<bool>(s.fit_result);
  out->centered = s.p.center;
  out->standardized = s.p.standardize;
  out->manual = s.p.mode == Mode::Manual;
  out->zero_std_features = s.zero_std;
  out->mean = s.mean;
  out->offset = s.offset;
  out->scale = s.scale;
  out->total_variance = s.total;
  out->covariance = s.cov;
  out->direction = s.u;
  out->captured = s.captured;
  out->residual = std::isfinite(s.captured) ? std::max(0.0, s.total - s.captured) : kNaN;
  double explained = kNaN, recon = kNaN;
  if (s.fit_result) {
    out->eigenvalues = s.fit_result->eigenvalues;
    out->components = s.fit_result->components;
    out->scores = s.fit_result->scores;
    out->recon_error = s.fit_result->recon_error;
    double cum = 0.0;
    for (int kk = 0; kk < s.k; ++kk) {
      const double lam = s.fit_result->eigenvalues[kk];
      cum += lam;
      const double ratio = s.total > 0 ? lam / s.total : 0.0;
      out->table.push_back({static_cast<double>(kk + 1), lam, ratio, s.total > 0 ? cum / s.total : 0.0});
    }
    explained = s.total > 0 ? cum / s.total : 0.0;
    recon = s.fit_result->recon_error[s.k];
  }
  out->metrics = metric_table().blank();
  out->metrics[kMetricTotal] = s.total;
  out->metrics[kMetricCaptured] = out->captured;
  out->metrics[kMetricResidual] = out->residual;
  out->metrics[kMetricExplained] = explained;
  out->metrics[kMetricReconError] = recon;
  s.cache = out;
  return s.cache;
}

std::shared_ptr<const Snapshot> PCA::snapshot() const { return pca_snapshot(); }

CILAB_MODULE_STATE(PCA)

}  // namespace cilab
