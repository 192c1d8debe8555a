// Soft versus hard thresholding of the singular values: see shrinkage.h for
// the equations, the input choices and the result table.
//
// Shapes: A is m x n, U m x r, sigma r, V n x r, r = min(m, n); S_tau(A) and
// [A]_k are m x n.
#include "algorithms/svd/shrinkage.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/linalg/spectral.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace cilab {

namespace {

// The largest threshold the parameter accepts (any tau >= sigma_1 gives 0).
constexpr double kMaxTau = 1e9;

const ParamTable<Shrinkage::Params>& param_table() {
  using P = Shrinkage::Params;
  static const ParamTable<P> kTable = {
      Choice("input", &P::input, {"photo", "dataset"})
          .choice_help(matrix_input_help())
          .help("which matrix A to threshold"),
      Int("index", &P::index, 0, 10000000).help("input=dataset with image rows: which row (item) is the image A"),
      Real("tau", &P::tau, 0, kMaxTau)
          .log_scale()
          .live()
          .help("soft threshold tau, in the units of the singular values: every sigma_i is lowered by tau and "
                "those below tau vanish (tau >= sigma_1 gives 0; the view shows sigma_1)")
          .formula("S_tau(A) = U diag((sigma_i - tau)_+) V^T = argmin_B 1/2 ||A - B||_F^2 + tau ||B||_*"),
      Int("k", &P::k, 0, 8192)
          .live()
          .help("hard truncation rank k (0 .. r = min(m, n)): keep sigma_1..sigma_k unchanged, drop the rest")
          .formula("[A]_k = U_k Sigma_k V_k^T = argmin_{rank B <= k} ||A - B||_F"),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Shrinkage::kMetricSigma1, "sigma_1", "the largest singular value sigma_1 = ||A||_2 (tau >= sigma_1 gives 0)",
       true},
      {Shrinkage::kMetricNuclear, "nuclear_norm", "||A||_* = sum_i sigma_i, the nuclear norm of the input", true},
      {Shrinkage::kMetricSoftRank, "soft_rank", "rank S_tau(A) = #{i : sigma_i > tau}", false},
      {Shrinkage::kMetricSoftNuclear, "soft_nuclear_norm", "||S_tau(A)||_* = sum_i (sigma_i - tau)_+", true},
      {Shrinkage::kMetricSoftError, "soft_error", "||A - S_tau(A)||_F measured from the entries", true},
      {Shrinkage::kMetricSoftPredicted, "soft_error_formula",
       "sqrt(sum_i min(sigma_i, tau)^2), the closed form of ||A - S_tau(A)||_F", true},
      {Shrinkage::kMetricSoftObjective, "soft_objective",
       "1/2 ||A - S_tau(A)||_F^2 + tau ||S_tau(A)||_*: the smallest value of the prox objective", true},
      {Shrinkage::kMetricHardRank, "hard_rank", "rank [A]_k = min(k, rank A)", false},
      {Shrinkage::kMetricHardNuclear, "hard_nuclear_norm", "||[A]_k||_* = sum_{i<=k} sigma_i", true},
      {Shrinkage::kMetricHardError, "hard_error", "||A - [A]_k||_F measured from the entries", true},
      {Shrinkage::kMetricHardPredicted, "eckart_young_error",
       "sqrt(sum_{i>k} sigma_i^2), the Eckart-Young value of ||A - [A]_k||_F", true},
      {Shrinkage::kMetricHardObjective, "hard_objective",
       "1/2 ||A - [A]_k||_F^2 + tau ||[A]_k||_*: the prox objective at the hard truncation (>= soft_objective)",
       true},
  };
  return kMetrics;
}

std::shared_ptr<const Eigen::MatrixXf> to_float(const Eigen::MatrixXd& m) {
  return std::make_shared<const Eigen::MatrixXf>(m.cast<float>());
}

}  // namespace

// Everything a Shrinkage holds (a value type: clone() copies it).
struct Shrinkage::State {
  std::shared_ptr<const SvdFactors> svd;
  Params p;
  double tolerance = 0.0;  // rank_tolerance of sigma
  Eigen::MatrixXd soft, hard;
  std::shared_ptr<const Eigen::MatrixXf> soft_f, hard_f;  // float copies, shared by snapshots
  double soft_error = 0.0, hard_error = 0.0;              // measured from the entries
  Status status = Status::Running;
  std::string message;
  std::string k_note;  // reset lowered k to the input's rank: said until k is set again
  std::vector<double> metrics;
  std::vector<std::vector<double>> table;
  mutable std::shared_ptr<const ShrinkageSnapshot> cache;

  void compute_soft();  // S_tau(A) and its measured error
  void compute_hard();  // [A]_k and its measured error
  void measure();       // metrics, table and status from both
};

size_t ShrinkageSnapshot::byte_size() const {
  size_t b = Snapshot::byte_size() + message.capacity();
  if (soft) b += static_cast<size_t>(soft->size()) * sizeof(float);
  if (hard) b += static_cast<size_t>(hard->size()) * sizeof(float);
  return b;  // the factors are shared by every snapshot of the run: not counted
}

// ---------------------------------------------------------------- description

const ModuleInfo& Shrinkage::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "shrinkage";
    m.title = "Soft vs hard thresholding (singular value shrinkage)";
    m.chapter = "SVD and eigenvectors";
    m.summary =
        "Thresholds the singular values of a matrix - a photograph, a Fashion-MNIST item or a data matrix - "
        "two ways, side by side: soft, S_tau(A) = U diag((sigma_i - tau)_+) V^T, the prox of tau ||.||_* "
        "(the shrink step of singular value thresholding), and hard, [A]_k = U_k Sigma_k V_k^T (Eckart-Young). "
        "Shows each one's spectrum, rank, nuclear norm and error.";
    m.metrics = metric_table().infos();
    m.default_dataset = "fashion-mnist:split=test,n=1000";
    m.table_columns = {"operator", "tau_or_k",        "rank",           "nuclear_norm",
                       "frobenius_error", "predicted_error", "relative_error", "objective"};
    m.default_cli_steps = 0;  // reset computes everything
    m.data_use = [](const ParamValues& v) -> std::string {
      if (choice_name(param_table().specs(), v, "input") != "photo") return "";
      return "shrinkage uses the shipped photograph (input=photo, 512 x 512); input=dataset thresholds the "
             "dataset below instead";
    };
    m.iterative = false;
    return m;
  }();
  return kInfo;
}

const ParamTable<Shrinkage::Params>& module_params(const Shrinkage*) { return param_table(); }

Shrinkage::Params Shrinkage::params_from(const ParamValues& values) { return param_table().read(values); }

// ---------------------------------------------------------------- lifecycle



size_t Shrinkage::state_bytes() const {
  const State& s = *st_;
  return sizeof(State) + static_cast<size_t>(s.soft.size() + s.hard.size()) * (sizeof(double) + sizeof(float)) +
         s.message.capacity();
}

void Shrinkage::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t) {
  State& s = *st_;
  Params p = params_from(values);
  std::shared_ptr<SvdFactors> f = input_matrix(data, p.input, p.index, info().name, SvdLowRank::kMaxCost);
  const int r = static_cast<int>(std::min(f->a.rows(), f->a.cols()));
  std::string k_note;  // k above this input's rank: lowered to it, and said so
  if (p.k > r) {
    k_note = "k = " + std::to_string(p.k) + " lowered to " + std::to_string(r) + ", the largest rank of the " +
             std::to_string(f->a.rows()) + " x " + std::to_string(f->a.cols()) + " input (r = min(m, n))";
    p.k = r;
  }
  compute_svd(*f, info().name);
  s.tolerance = rank_tolerance(f->sigma, f->a.rows(), f->a.cols());
  s.svd = std::move(f);
  s.p = p;
  s.message.clear();
  s.compute_soft();
  s.compute_hard();
  s.measure();
  s.k_note = k_note;
  if (s.status == Status::Converged) s.message = k_note;
}

void Shrinkage::State::compute_soft() {
  const SvdFactors& f = *svd;
  soft = from_factors(f.u, soft_threshold(f.sigma, p.tau), f.v);
  soft_error = (f.a - soft).norm();
  soft_f = to_float(soft);
}

void Shrinkage::State::compute_hard() {
  const SvdFactors& f = *svd;
  hard = from_factors(f.u, hard_truncate(f.sigma, p.k), f.v);
  hard_error = (f.a - hard).norm();
  hard_f = to_float(hard);
}

void Shrinkage::State::measure() {
  const SvdFactors& f = *svd;
  const Eigen::VectorXd soft_sigma = soft_threshold(f.sigma, p.tau);
  const Eigen::VectorXd hard_sigma = hard_truncate(f.sigma, p.k);
  const double soft_nuc = nuclear_norm(soft_sigma), hard_nuc = nuclear_norm(hard_sigma);
  const int soft_rank = rank_above(soft_sigma, tolerance), hard_rank = rank_above(hard_sigma, tolerance);
  const double soft_pred = soft_threshold_error(f.sigma, p.tau), hard_pred = hard_truncation_error(f.sigma, p.k);
  const double soft_obj = 0.5 * soft_error * soft_error + p.tau * soft_nuc;
  const double hard_obj = 0.5 * hard_error * hard_error + p.tau * hard_nuc;
  metrics = metric_table().blank();
  metrics[kMetricSigma1] = f.r() > 0 ? f.sigma[0] : 0.0;
  metrics[kMetricNuclear] = nuclear_norm(f.sigma);
  metrics[kMetricSoftRank] = soft_rank;
  metrics[kMetricSoftNuclear] = soft_nuc;
  metrics[kMetricSoftError] = soft_error;
  metrics[kMetricSoftPredicted] = soft_pred;
  metrics[kMetricSoftObjective] = soft_obj;
  metrics[kMetricHardRank] = hard_rank;
  metrics[kMetricHardNuclear] = hard_nuc;
  metrics[kMetricHardError] = hard_error;
  metrics[kMetricHardPredicted] = hard_pred;
  metrics[kMetricHardObjective] = hard_obj;
  const double norm_a = f.frobenius > 0 ? f.frobenius : 1.0;
  table = {{p.tau, static_cast<double>(soft_rank), soft_nuc, soft_error, soft_pred, soft_error / norm_a, soft_obj},
           {static_cast<double>(p.k), static_cast<double>(hard_rank), hard_nuc, hard_error, hard_pred,
            hard_error / norm_a, hard_obj}};
  if (!soft.allFinite() || !hard.allFinite()) {
    status = Status::Diverged;
    message = "a reconstruction is non-finite (the SVD of this input failed numerically); try another input";
  } else {
    status = Status::Converged;
  }
  cache.reset();
}

void Shrinkage::step() {}

// ---------------------------------------------------------------- edits

void Shrinkage::set_live(const std::string& name, double value) {
  State& s = *st_;
  Params p = s.p;
  param_table().set_live(p, name, value, info().name);  // throws: unknown, rebuild or out of range
  if (name == "k" && s.svd && value > s.svd->r())  // the table's range is [0, 8192]; the input's rank is the bound
    throw std::invalid_argument("parameter 'k': expected an integer in [0, " + std::to_string(s.svd->r()) +
                                "] (r = min(m, n) of the input), got '" + fmt_g(value) + "'");
  s.p = p;
  if (!s.svd) return;
  if (name == "k") s.k_note.clear();
  s.message = s.k_note;
  if (name == "tau") s.compute_soft();
  else s.compute_hard();
  s.measure();
}

// ---------------------------------------------------------------- snapshot

std::shared_ptr<const ShrinkageSnapshot> Shrinkage::shrinkage_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto out = std::make_shared<ShrinkageSnapshot>();
  if (!s.svd) {
    describe_not_reset(*out, "shrinkage", metric_table());
    s.cache = out;
    return s.cache;
  }
  out->status = s.status;
  out->message = s.message;
  out->metrics = s.metrics;
  out->table = s.table;
  out->table_row_names = {"soft", "hard"};
  out->svd = s.svd;
  out->tau = s.p.tau;
  out->k = s.p.k;
  out->soft = s.soft_f;
  out->hard = s.hard_f;
  s.cache = out;
  return s.cache;
}

std::shared_ptr<const Snapshot> Shrinkage::snapshot() const { return shrinkage_snapshot(); }

const Eigen::MatrixXd& Shrinkage::soft() const { return st_->soft; }
const Eigen::MatrixXd& Shrinkage::hard() const { return st_->hard; }

CILAB_MODULE_STATE(Shrinkage)

}  // namespace cilab
