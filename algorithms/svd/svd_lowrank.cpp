// Low-rank approximation by the truncated SVD: see svd_lowrank.h for the
// equations, the input choices, the measured errors and the iteration rule.
//
// Shapes: A is m x n, U m x r, sigma r, V n x r, r = min(m, n); A_K m x n.
#include "algorithms/svd/svd_lowrank.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/linalg/lanczos_svd.h"

#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/data/image_loader.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string shape(Eigen::Index m, Eigen::Index n) { return std::to_string(m) + " x " + std::to_string(n); }


}  // namespace

// Everything a SvdLowRank holds (a value type: clone() copies it).
struct SvdLowRank::State : RunPosition {
  std::shared_ptr<const SvdFactors> svd;
  Params p;
  uint64_t seed = 0;
  int rank = 0;
  Eigen::MatrixXd approx;  // A_K (m x n)
  std::vector<double> metrics;
  std::vector<std::vector<double>> table;  // rows by rank
  mutable std::shared_ptr<const SvdSnapshot> cache;

  void set_rank(int k);  // A_K directly from the factors
  void measure();        // errors of the current A_K, table row, status
  void invalidate() { cache.reset(); }
};

// ---------------------------------------------------------------- factors

double SvdFactors::eckart_young_frobenius(int k) const {
  const int kk = std::clamp(k, 0, r());
  return std::sqrt(std::max(0.0, tail2[kk]));
}

size_t SvdFactors::byte_size() const {
  return sizeof(*this) +
         static_cast<size_t>(a.size() + u.size() + sigma.size() + v.size() + tail2.size()) * sizeof(double) +
         what.capacity();
}

size_t SvdSnapshot::byte_size() const {
  size_t b = Snapshot::byte_size() + message.capacity();
  if (approx) b += static_cast<size_t>(approx->size()) * sizeof(float);
  // The factors are shared by every snapshot of the run: not counted here.
  return b;
}

// ---------------------------------------------------------------- the input and its SVD

const std::vector<std::string>& matrix_input_help() {
  static const std::vector<std::string> kHelp = {
      "the shipped photograph (assets/camera.png, 512 x 512 gray, CC0)",
      "the run's dataset: image data -> the row `index` as an image; other data -> the whole n x d matrix"};
  return kHelp;
}

std::shared_ptr<SvdFactors> input_matrix(const std::shared_ptr<const Dataset>& data, MatrixInput input, int index,
                                         const std::string& module, double max_cost) {
  auto f = std::make_shared<SvdFactors>();
  if (input == MatrixInput::Photo) {
    std::shared_ptr<const Dataset> photo;
    try {
      photo = photo_dataset();
    } catch (const DataError& e) {
      throw std::invalid_argument(module + ": " + e.what());
    }
    f->a.resize(photo->image_h, photo->image_w);
    for (int r = 0; r < photo->image_h; ++r)
      for (int c = 0; c < photo->image_w; ++c) f->a(r, c) = photo->x(0, static_cast<Eigen::Index>(r) * photo->image_w + c);
    f->is_image = true;
    f->what = "photograph 'camera' (CC0), " + shape(f->a.rows(), f->a.cols()) + " pixels in [0, 1]";
  } else {
    if (!data)
      throw std::invalid_argument(module + ": input=dataset but no dataset is loaded; load one, or use input=photo");
    if (data->is_text()) require_usable_data(data.get(), module);  // names the text modules
    const int n = data->rows(), d = data->cols();
    if (n == 0 || d == 0)
      throw std::invalid_argument(module + ": the dataset is empty (" + shape(n, d) +
                                  "); load data first, or use input=photo");
    if (data->is_image()) {
      if (index >= n)
        throw std::invalid_argument("parameter 'index' = " + std::to_string(index) +
                                    " is out of range: the dataset has " + std::to_string(n) +
                                    " image rows; try index in [0, " + std::to_string(n - 1) + "]");
      const int h = data->image_h, w = data->image_w;
      f->a.resize(h, w);
      for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) f->a(r, c) = data->x(index, static_cast<Eigen::Index>(r) * w + c);
      f->is_image = true;
      std::string label;
      if (data->has_labels()) {
        const int l = data->labels[static_cast<size_t>(index)];
        if (l >= 0 && l < static_cast<int>(data->class_names.size()))
          label = " (" + data->class_names[static_cast<size_t>(l)] + ")";
        else if (l >= 0)
          label = " (class " + std::to_string(l) + ")";
      }
      f->what = data->name + " row " + std::to_string(index) + label + ", " + shape(h, w) + " image";
    } else {
      f->a = data->x;
      f->is_image = false;
      f->what = data->name + ": the whole " + shape(n, d) + " data matrix (samples x features, not centred)";
      f->col_names = data->column_names;
    }
    if (!f->a.allFinite()) {
      for (Eigen::Index c = 0; c < f->a.cols(); ++c)
        for (Eigen::Index r = 0; r < f->a.rows(); ++r)
          if (!std::isfinite(f->a(r, c)))
            throw std::invalid_argument(module + ": the input has a non-finite value (" + fmt_g(f->a(r, c)) +
                                        ") at entry (" + std::to_string(r) + ", " + std::to_string(c) +
                                        "); clean the data or drop that row");
    }
  }
  const double m = static_cast<double>(f->a.rows()), n = static_cast<double>(f->a.cols());
  const double cost = m * n * std::min(m, n);
  if (cost > max_cost)
    throw std::invalid_argument(module + ": the matrix is " + shape(f->a.rows(), f->a.cols()) +
                                ": a dense SVD costs m n min(m, n) = " + fmt_g(cost) + " > " + fmt_g(max_cost) +
                                " operations; try fewer rows (e.g. a dataset option n=...) or fewer features");
  return f;
}

void compute_svd(SvdFactors& f, const std::string& module) {
  const int r = static_cast<int>(std::min(f.a.rows(), f.a.cols()));
  Eigen::BDCSVD<Eigen::MatrixXd> svd(f.a, Eigen::ComputeThinU | Eigen::ComputeThinV);
  if (svd.info() != Eigen::Success)
    throw std::invalid_argument(module + ": the SVD did not converge on this matrix; try another input");
  f.u = svd.matrixU();
  f.sigma = svd.singularValues();
  f.v = svd.matrixV();
  f.tail2.resize(r + 1);
  f.tail2[r] = 0.0;
  for (int i = r - 1; i >= 0; --i) f.tail2[i] = f.tail2[i + 1] + f.sigma[i] * f.sigma[i];
  f.frobenius = f.a.norm();
}

// ---------------------------------------------------------------- spectral norm

double SvdLowRank::spectral_norm(const Eigen::Ref<const Eigen::MatrixXd>& a, uint64_t seed) {
  const int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols());
  if (m == 0 || n == 0 || a.cwiseAbs().maxCoeff() == 0.0) return 0.0;
  // The top Ritz value of the Golub-Kahan-Lanczos bidiagonalisation (the shared
  // algorithms/linalg/lanczos_svd), converged to a residual of 1e-13 sigma_max.
  LinearOperator op{m, n, [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y.noalias() = a * x; },
                    [&](const Eigen::VectorXd& y, Eigen::VectorXd& x) { x.noalias() = a.transpose() * y; }};
  LanczosOptions lo;
  lo.rank = 1;
  lo.tol = 1e-13;
  lo.seed = seed;
  const TruncatedSvd t = lanczos_svd(op, lo);
  return t.sigma.size() > 0 ? t.sigma[0] : 0.0;
}

// ---------------------------------------------------------------- description

namespace {

const ParamTable<SvdLowRank::Params>& param_table() {
  using P = SvdLowRank::Params;
  static const ParamTable<P> kTable = {
      Choice("input", &P::input, {"photo", "dataset"})
          .choice_help(matrix_input_help())
          .help("which matrix A to decompose"),
      Int("index", &P::index, 0, 10000000).help("input=dataset with image rows: which row (item) is the image A"),
      Int("k", &P::k, 0, 8192)
          .help("rank K of the approximation A_K (0 .. r = min(m, n)); each step adds one layer")
          .formula("A_K = sum_{i<=K} sigma_i u_i v_i^T")
          .live(),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {SvdLowRank::kMetricRank, "rank", "K, the number of rank-one layers in A_K = sum_{i<=K} sigma_i u_i v_i^T",
       false},
      {SvdLowRank::kMetricFrobenius, "frobenius_error", "||A - A_K||_F measured from the residual's entries", true},
      {SvdLowRank::kMetricFrobeniusEY, "eckart_young_frobenius",
       "sqrt(sum_{i>K} sigma_i^2), the Eckart-Young value of ||A - A_K||_F", true},
      {SvdLowRank::kMetricSpectral, "spectral_error",
       "||A - A_K||_2 measured from the residual (Lanczos bidiagonalisation); Eckart-Young: sigma_{K+1}", true},
      {SvdLowRank::kMetricSigmaNext, "sigma_next", "sigma_{K+1}, the Eckart-Young value of ||A - A_K||_2 (0 when K = r)",
       true},
      {SvdLowRank::kMetricRelative, "relative_error", "||A - A_K||_F / ||A||_F", true},
  };
  return kMetrics;
}

}  // namespace

const ModuleInfo& SvdLowRank::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "svd-lowrank";
    m.title = "Low-rank approximation (SVD, Eckart-Young)";
    m.chapter = "SVD and eigenvectors";
    m.summary =
        "Decomposes a matrix - a photograph, a Fashion-MNIST item or a data matrix - as "
        "A = sum_i sigma_i u_i v_i^T and rebuilds it layer by layer: A_K = sum_{i<=K} sigma_i u_i "
        "v_i^T. Each step adds the next rank-one layer. The measured errors ||A - A_K||_F and "
        "||A - A_K||_2 are shown beside the Eckart-Young values sqrt(sum_{i>K} sigma_i^2) and "
        "sigma_{K+1}.";
    m.metrics = metric_table().infos();
    m.default_dataset = "fashion-mnist:split=test,n=1000";
    m.table_columns = {"rank", "frobenius_error", "spectral_error", "sigma_next"};
    m.default_cli_steps = 64;
    m.data_use = [](const ParamValues& v) -> std::string {
      if (choice_name(param_table().specs(), v, "input") != "photo") return "";
      return "svd-lowrank uses the shipped photograph (input=photo, 512 x 512); input=dataset decomposes the "
             "dataset below instead";
    };
    return m;
  }();
  return kInfo;
}

const ParamTable<SvdLowRank::Params>& module_params(const SvdLowRank*) { return param_table(); }

SvdLowRank::Params SvdLowRank::params_from(const ParamValues& values) { return param_table().read(values); }

// ---------------------------------------------------------------- lifecycle



void SvdLowRank::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  State& s = *st_;
  Params p = params_from(values);
  std::shared_ptr<SvdFactors> f = input_matrix(data, p.input, p.index, info().name, kMaxCost);
  const int r = static_cast<int>(std::min(f->a.rows(), f->a.cols()));
  std::string k_note;  // k above this input's rank: lowered to it, and said so
  if (p.k > r) {
    k_note = "k = " + std::to_string(p.k) + " lowered to " + std::to_string(r) + ", the largest rank of the " +
             shape(f->a.rows(), f->a.cols()) + " input (r = min(m, n))";
    p.k = r;
  }
  compute_svd(*f, info().name);

  s.svd = std::move(f);
  s.p = p;
  s.seed = seed;
  s.iteration = 0;
  s.table.clear();
  s.message.clear();
  s.set_rank(p.k);
  s.measure();
  if (!k_note.empty() && s.status != Status::Diverged) s.message = s.message.empty() ? k_note : k_note + "; " + s.message;
  s.invalidate();
}

// ---------------------------------------------------------------- iteration

void SvdLowRank::State::set_rank(int k) {
  const SvdFactors& f = *svd;
  rank = k;
  if (k == 0) {
    approx = Eigen::MatrixXd::Zero(f.m(), f.n());
  } else {
    approx.noalias() = f.u.leftCols(k) * f.sigma.head(k).asDiagonal() * f.v.leftCols(k).transpose();
  }
}

void SvdLowRank::State::measure() {
  const SvdFactors& f = *svd;
  const Eigen::MatrixXd resid = f.a - approx;
  const double fro = resid.norm();
  const double spec = spectral_norm(resid, seed * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(rank) + 1);
  const double next = f.sigma_next(rank);
  metrics = metric_table().blank();
  metrics[kMetricRank] = static_cast<double>(rank);
  metrics[kMetricFrobenius] = fro;
  metrics[kMetricFrobeniusEY] = f.eckart_young_frobenius(rank);
  metrics[kMetricSpectral] = spec;
  metrics[kMetricSigmaNext] = next;
  metrics[kMetricRelative] = f.frobenius > 0 ? fro / f.frobenius : 0.0;
  const std::vector<double> row = {static_cast<double>(rank), fro, spec, next};
  auto it = std::lower_bound(table.begin(), table.end(), row[0],
                             [](const std::vector<double>& a, double k) { return a[0] < k; });
  if (it != table.end() && (*it)[0] == row[0]) *it = row;
  else table.insert(it, row);
  if (!approx.allFinite()) {
    status = Status::Diverged;
    message = "the approximation became non-finite at rank " + std::to_string(rank);
  } else if (rank >= f.r()) {
    status = Status::Converged;
    message = "all r = " + std::to_string(f.r()) + " layers added: A_r = A (error " + fmt_g(fro) +
               " is rounding)";
  } else {
    status = Status::Running;
  }
  invalidate();
}

void SvdLowRank::step() {
  State& s = *st_;
  if (!s.svd || is_terminal(s.status)) return;
  const SvdFactors& f = *s.svd;
  // A_{K+1} = A_K + sigma_{K+1} u_{K+1} v_{K+1}^T (0-based column K).
  s.approx.noalias() += (f.sigma[s.rank] * f.u.col(s.rank)) * f.v.col(s.rank).transpose();
  ++s.rank;
  ++s.iteration;
  s.message.clear();
  s.measure();
}

// ---------------------------------------------------------------- edits

void SvdLowRank::set_live(const std::string& name, double value) {
  Params p = st_->p;
  param_table().set_live(p, name, value, info().name);  // throws: unknown, rebuild or out of range
  const int r = st_->svd ? st_->svd->r() : 8192;
  if (value > r)  // the table's range is [0, 8192]; the input's rank is the real bound
    throw std::invalid_argument("parameter 'k': expected an integer in [0, " + std::to_string(r) +
                                "] (r = min(m, n) of the input), got '" + fmt_g(value) + "'");
  st_->p = p;
  if (!st_->svd) return;
  st_->set_rank(st_->p.k);
  st_->message = "jumped to rank " + std::to_string(st_->p.k);
  st_->measure();
}

bool SvdLowRank::apply(const Intent& intent) {
  State& s = *st_;
  if (!s.svd || intent.kind != "set_rank") return false;
  if (intent.index < 0 || intent.index > s.svd->r()) return false;
  s.set_rank(intent.index);
  s.message = "jumped to rank " + std::to_string(intent.index);
  s.measure();
  return true;
}

// ---------------------------------------------------------------- snapshot

std::shared_ptr<const SvdSnapshot> SvdLowRank::svd_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto out = std::make_shared<SvdSnapshot>();
  if (!s.svd) {
    describe_not_reset(*out, "svd-lowrank", metric_table());
    s.cache = out;
    return s.cache;
  }
  s.describe(*out);
  out->metrics = s.metrics.empty() ? metric_table().blank() : s.metrics;
  out->table = s.table;
  out->svd = s.svd;
  out->rank = s.rank;
  out->approx = std::make_shared<const Eigen::MatrixXf>(s.approx.cast<float>());
  s.cache = out;
  return s.cache;
}

std::shared_ptr<const Snapshot> SvdLowRank::snapshot() const { return svd_snapshot(); }

const Eigen::MatrixXd& SvdLowRank::approximation() const { return st_->approx; }

CILAB_MODULE_STATE(SvdLowRank)

}  // namespace cilab
