// Power iteration with deflation: see power_iteration.h for the equations,
// the sub-steps, the metrics, convergence and deflation.
//
// Shapes: A is d x d (symmetric, the lower triangle drives the products),
// v and A v are d-vectors, the found eigenvectors d x m. The covariance is
// accumulated from centred row blocks (O(block x d) extra memory, never a
// centred copy of the whole dataset).
#include "algorithms/power_iteration.h"

#include "algorithms/core/rng.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace cilab {

namespace {

// w = A v for the full symmetric d x d matrix A, as two fixed row halves
// computed in parallel (A v = A^T v, so each half is a contiguous column block
// transposed). The split does not depend on the number of cores, so results are
// the same on every machine; each w_i is one dot product in Eigen's order.
// Two threads: the product streams A (4.9 MB at d = 784) from the cache, and
// one core's bandwidth is the limit (see bench/run_power.sh).
void multiply_symmetric(const Eigen::MatrixXd& a, const Eigen::VectorXd& v, Eigen::VectorXd& w) {
  const Eigen::Index d = a.rows();
  w.resize(d);
  if (d < 256) {
    w.noalias() = a.transpose() * v;
    return;
  }
  const Eigen::Index half = (d / 2 + 7) / 8 * 8;
#pragma omp parallel for num_threads(2) schedule(static, 1)
  for (int c = 0; c < 2; ++c) {
    const Eigen::Index r0 = c == 0 ? 0 : half, len = c == 0 ? half : d - half;
    w.segment(r0, len).noalias() = a.middleCols(r0, len).transpose() * v;
  }
}

}  // namespace

// Reuse of the covariance problem across resets on the same dataset.
struct PowerIteration::Cache {
  std::shared_ptr<const Dataset> data;
  std::shared_ptr<const PowerProblem> problem;
};

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kCovBlockRows = 4096;

std::string fmt_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

std::shared_ptr<const PowerStage> make_stage(Eigen::MatrixXd a) {
  auto s = std::make_shared<PowerStage>();
  Eigen::MatrixXd vecs;
  PowerIteration::sorted_eigen(a, s->eigvals, &vecs);
  s->top = vecs.col(0);
  const double l1 = std::abs(s->eigvals[0]);
  s->rate = s->eigvals.size() > 1 ? (l1 > 0 ? std::abs(s->eigvals[1]) / l1 : kNaN) : 0.0;
  s->a = std::move(a);
  return s;
}

}  // namespace

// ---------------------------------------------------------------- helpers

void PowerIteration::sorted_eigen(const Eigen::Ref<const Eigen::MatrixXd>& a, Eigen::VectorXd& values,
                                  Eigen::MatrixXd* vectors) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(a, vectors ? Eigen::ComputeEigenvectors
                                                               : Eigen::EigenvaluesOnly);
  const Eigen::Index d = a.rows();
  std::vector<Eigen::Index> order(static_cast<size_t>(d));
  std::iota(order.begin(), order.end(), Eigen::Index(0));
  const Eigen::VectorXd& ev = es.eigenvalues();
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index i, Eigen::Index j) {
    const double ai = std::abs(ev[i]), aj = std::abs(ev[j]);
    if (ai != aj) return ai > aj;
    return ev[i] > ev[j];
  });
  values.resize(d);
  if (vectors) vectors->resize(d, d);
  for (Eigen::Index k = 0; k < d; ++k) {
    values[k] = ev[order[static_cast<size_t>(k)]];
    if (vectors) vectors->col(k) = es.eigenvectors().col(order[static_cast<size_t>(k)]);
  }
}

double PowerIteration::line_angle(const Eigen::Ref<const Eigen::VectorXd>& v,
                                  const Eigen::Ref<const Eigen::VectorXd>& u) {
  const Eigen::VectorXd un = u / u.norm();
  const Eigen::VectorXd vn = v / v.norm();
  const double c = vn.dot(un);
  const double s = (vn - c * un).norm();
  return std::atan2(s, std::abs(c));
}

Eigen::MatrixXd PowerIteration::synthetic_matrix(int dim, double ratio, uint64_t seed) {
  Rng rng(seed ^ 0x5eed5eed5eedULL);
  Eigen::MatrixXd g(dim, dim);
  for (int c = 0; c < dim; ++c)
    for (int r = 0; r < dim; ++r) g(r, c) = rng.normal();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  const Eigen::MatrixXd q = qr.householderQ();
  Eigen::VectorXd lambda(dim);
  for (int i = 0; i < dim; ++i) lambda[i] = std::pow(ratio, i);
  Eigen::MatrixXd a = q * lambda.asDiagonal() * q.transpose();
  const Eigen::MatrixXd sym = 0.5 * (a + a.transpose());
  return sym;
}

// ---------------------------------------------------------------- description

namespace {

const ParamTable<PowerIteration::Params>& param_table() {
  using P = PowerIteration::Params;
  static const ParamTable<P> kTable = {
      Choice("matrix", &P::matrix, {"covariance", "synthetic"})
          .choice_help({"C = (1/n) sum_i (x_i - mean)(x_i - mean)^T of the dataset",
                        "A = Q diag(1, ratio, ratio^2, ...) Q^T, Q random orthogonal (seeded)"})
          .help("which symmetric matrix A to iterate with"),
      Int("dim", &P::dim, 2, 64).help("matrix=synthetic: size d of A (2 or 3 shows v as an arrow)"),
      Real("ratio", &P::ratio, -0.999, 0.999)
          .help("matrix=synthetic: lambda_2 / lambda_1 (eigen-gap = 1 - |ratio|); spectrum lambda_i = ratio^(i-1)")
          .formula("theta_t ~ |lambda_2/lambda_1|^t"),
      Int("n_components", &P::n_components, 1, 64)
          .help("number m of eigenpairs, found one after another by deflation (scikit-learn: n_components)")
          .formula("A <- A - lambda_hat u_hat u_hat^T"),
      Choice("init", &P::init, {"random", "ones", "orthogonal"})
          .choice_help({"v_0 ~ N(0, I), normalised (seeded)", "v_0 = (1, ..., 1) / sqrt(d)",
                        "random, then made orthogonal to the top eigenvector: exact arithmetic would never "
                        "find u_1; rounding brings it back"})
          .help("start vector of each component"),
      Real("tol", &P::tol, 0.0, 1.0)
          .log_scale()
          .help("a component has converged when ||A v - rho v|| <= tol |rho| (0: run to max_iter)")
          .live(),
      Int("max_iter", &P::max_iter, 1, 100000).help("iteration budget per component").live(),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {PowerIteration::kMetricRayleigh, "rayleigh",
       "Rayleigh quotient rho_t = v_t^T A v_t, the eigenvalue estimate (-> lambda_1)", false},
      {PowerIteration::kMetricAngle, "angle_to_top",
       "angle (radians) between v_t and the top eigenvector u_1 of the current (deflated) matrix, from "
       "Eigen's eigensolver; tan theta_t <= |lambda_2/lambda_1|^t tan theta_0",
       true},
      {PowerIteration::kMetricResidual, "residual", "||A v_t - rho_t v_t||, zero exactly at an eigenvector",
       true},
  };
  return kMetrics;
}

}  // namespace

const ModuleInfo& PowerIteration::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "power-iteration";
    m.title = "Power iteration (leading eigenvectors, deflation)";
    m.chapter = "SVD and eigenvectors";
    m.summary =
        "Finds the top eigenvector of a symmetric matrix (a dataset's covariance, or a synthetic "
        "matrix with a chosen eigen-gap) by repeating v <- A v / ||A v||. The angle to the true "
        "eigenvector falls like |lambda_2 / lambda_1|^t. Deflation A <- A - lambda u u^T then finds "
        "the next eigenvectors one after another.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"multiply", "normalise"};
    m.default_dataset = "iris";
    m.default_cli_steps = 100;
    return m;
  }();
  return kInfo;
}

const ParamSpecs& PowerIteration::params() const { return param_table().specs(); }

PowerIteration::Params PowerIteration::params_from(const ParamValues& values) {
  return param_table().read(values);
}

// ---------------------------------------------------------------- lifecycle

PowerIteration::PowerIteration() = default;
PowerIteration::~PowerIteration() = default;
PowerIteration::PowerIteration(const PowerIteration&) = default;

std::unique_ptr<Module> PowerIteration::clone() const { return std::make_unique<PowerIteration>(*this); }

void PowerIteration::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = params_from(values);
  std::shared_ptr<const PowerProblem> problem;
  if (p.matrix == Matrix::Synthetic) {
    auto pr = std::make_shared<PowerProblem>();
    pr->a = synthetic_matrix(p.dim, p.ratio, seed);
    pr->synthetic = true;
    pr->what = "synthetic " + std::to_string(p.dim) + " x " + std::to_string(p.dim) +
               ", lambda_i = " + fmt_g(p.ratio) + "^(i-1)";
    for (int j = 0; j < p.dim; ++j) pr->feature_names.push_back("e" + std::to_string(j + 1));
    sorted_eigen(pr->a, pr->eigvals, &pr->eigvecs);
    problem = pr;
  } else {
    if (!data)
      throw std::invalid_argument("power-iteration: matrix=covariance needs a dataset; load one, or use "
                                  "matrix=synthetic");
    const int n = data->rows(), d = data->cols();
    if (n < 2 || d < 1)
      throw std::invalid_argument("power-iteration: the covariance needs at least 2 samples and 1 feature, "
                                  "the dataset is " + std::to_string(n) + " x " + std::to_string(d) +
                                  "; load more data, or use matrix=synthetic");
    if (d > kMaxDim)
      throw std::invalid_argument("power-iteration: the dataset has d = " + std::to_string(d) +
                                  " features: the covariance is d x d and its reference eigen-solve O(d^3); "
                                  "at most " + std::to_string(kMaxDim) + " features are accepted; try fewer features");
    if (data_cache_ && data_cache_->data == data) {
      problem = data_cache_->problem;
    } else {
      if (!data->x.allFinite()) {
        for (int c = 0; c < d; ++c)
          for (int i = 0; i < n; ++i)
            if (!std::isfinite(data->x(i, c)))
              throw std::invalid_argument("power-iteration: the dataset has a non-finite value (" +
                                          fmt_g(data->x(i, c)) + ") at row " + std::to_string(i) + ", column " +
                                          std::to_string(c) + "; clean the data or drop that row");
      }
      auto pr = std::make_shared<PowerProblem>();
      pr->mean = data->x.colwise().mean();
      Eigen::MatrixXd c = Eigen::MatrixXd::Zero(d, d);
      for (int r0 = 0; r0 < n; r0 += kCovBlockRows) {
        const int rows = std::min(kCovBlockRows, n - r0);
        const Eigen::MatrixXd block = data->x.middleRows(r0, rows).rowwise() - pr->mean;
        c.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose(), 1.0 / n);
      }
      pr->a = c.selfadjointView<Eigen::Lower>();
      pr->image_h = data->image_h;
      pr->image_w = data->image_w;
      pr->feature_names = data->column_names;
      pr->what = "covariance of " + data->name + " (" + std::to_string(n) + " x " + std::to_string(d) + ")";
      sorted_eigen(pr->a, pr->eigvals, &pr->eigvecs);
      problem = pr;
      auto cache = std::make_shared<Cache>();
      cache->data = data;
      cache->problem = problem;
      data_cache_ = cache;
    }
  }
  const int d = problem->d();
  if (!(std::abs(problem->eigvals[0]) > 0))
    throw std::invalid_argument("power-iteration: A is the zero matrix (" + problem->what +
                                "): every vector is mapped to 0; try data with some spread");
  if (p.n_components > d)
    throw std::invalid_argument("parameter 'n_components' = " + std::to_string(p.n_components) +
                                " exceeds the matrix size d = " + std::to_string(d) + "; try n_components <= " +
                                std::to_string(d));
  if (p.init == Init::Orthogonal && d < 2)
    throw std::invalid_argument("parameter 'init' = orthogonal needs d >= 2 (a 1 x 1 matrix has no "
                                "orthogonal direction); try init=random");

  problem_ = problem;
  p_ = p;
  seed_ = seed;
  auto stage = std::make_shared<PowerStage>();
  stage->a = problem_->a;
  stage->eigvals = problem_->eigvals;
  stage->top = problem_->eigvecs.col(0);
  stage->rate = d > 1 ? std::abs(problem_->eigvals[1]) / std::abs(problem_->eigvals[0]) : 0.0;
  stage_ = stage;
  component_ = 0;
  components_.clear();
  found_.resize(d, 0);
  pending_deflation_ = false;
  iteration_ = 0;
  phase_ = 0;
  status_ = Status::Running;
  message_.clear();
  start_component(true);
}

// ---------------------------------------------------------------- iteration

Eigen::VectorXd PowerIteration::initial_vector(const PowerStage& stage) {
  const int d = problem_->d();
  Eigen::VectorXd v(d);
  if (p_.init == Init::Ones) {
    v.setConstant(1.0 / std::sqrt(static_cast<double>(d)));
    return v;
  }
  Rng rng(seed_ * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(component_) + 1);
  for (int attempt = 0; attempt < 8; ++attempt) {
    for (int i = 0; i < d; ++i) v[i] = rng.normal();
    if (p_.init == Init::Orthogonal) {
      v -= v.dot(stage.top) * stage.top;
      v -= v.dot(stage.top) * stage.top;  // twice: orthogonal to rounding
    }
    const double nrm = v.norm();
    if (nrm > 1e-8) return v / nrm;
  }
  v.setZero();
  v[d > 1 ? 1 : 0] = 1.0;
  return v;
}

void PowerIteration::start_component(bool fresh_vector) {
  if (fresh_vector) v_ = initial_vector(*stage_);
  multiply_symmetric(stage_->a, v_, av_);
  PowerComponent c;
  c.start_iteration = iteration_;
  c.rate = stage_->rate;
  c.theta0 = line_angle(v_, stage_->top);
  if (static_cast<int>(components_.size()) <= component_) components_.push_back(c);
  else components_[static_cast<size_t>(component_)] = c;
  phase_ = 0;
  if (stage_->rate > 1.0 - 1e-9)
    message_ = "|lambda_2| = |lambda_1| here: the top eigenvector is not unique and the angle need not fall";
  evaluate();
}

void PowerIteration::evaluate() {
  rayleigh_ = v_.dot(av_);
  residual_ = (av_ - rayleigh_ * v_).norm();
  angle_ = line_angle(v_, stage_->top);
  PowerComponent& c = components_[static_cast<size_t>(component_)];
  c.lambda = rayleigh_;
  if (!std::isfinite(rayleigh_) || !std::isfinite(residual_)) {
    status_ = Status::Diverged;
    message_ = "the iterate became non-finite at iteration " + std::to_string(iteration_);
    invalidate();
    return;
  }
  const bool conv = residual_ <= p_.tol * std::abs(rayleigh_);
  if (conv || c.iterations >= p_.max_iter) {
    c.done = true;
    c.converged = conv;
    c.angle_to_true = line_angle(v_, problem_->eigvecs.col(component_));
    if (found_.cols() <= component_) {
      found_.conservativeResize(Eigen::NoChange, component_ + 1);
    }
    found_.col(component_) = v_;
    const std::string what = "component " + std::to_string(component_ + 1) + " " +
                             (conv ? "converged after " : "stopped (max_iter) after ") +
                             std::to_string(c.iterations) + " iterations: lambda_hat = " + fmt_g(rayleigh_);
    if (component_ + 1 < p_.n_components) {
      pending_deflation_ = true;
      status_ = Status::Running;
      message_ = what + "; the next step deflates A <- A - lambda_hat u_hat u_hat^T";
    } else {
      bool all = true;
      for (const PowerComponent& k : components_) all = all && k.converged;
      status_ = all ? Status::Converged : Status::Stopped;
      message_ = what + (all ? "" : " (raise max_iter or tol to go on)");
    }
  } else {
    c.done = false;
    pending_deflation_ = false;
    status_ = Status::Running;
  }
  invalidate();
}

void PowerIteration::multiply_half() {
  // w = A v_t was computed with v_t (it gave rho and the residual): the
  // multiply sub-step shows it.
  phase_ = 1;
  message_ = "multiply: w = A v, ||w|| = " + fmt_g(av_.norm());
  invalidate();
}

void PowerIteration::normalise_half() {
  const double nrm = av_.norm();
  if (!(nrm > 0) || !std::isfinite(nrm)) {
    status_ = nrm == 0 ? Status::Failed : Status::Diverged;
    message_ = nrm == 0 ? "A v = 0: v lies in the null space of A and cannot be normalised; restart with "
                          "another init (or drag v)"
                        : "A v is not finite";
    phase_ = 0;
    invalidate();
    return;
  }
  v_ = av_ / nrm;
  multiply_symmetric(stage_->a, v_, av_);
  ++iteration_;
  ++components_[static_cast<size_t>(component_)].iterations;
  phase_ = 0;
  message_.clear();
  evaluate();
}

void PowerIteration::deflate() {
  const PowerComponent& c = components_[static_cast<size_t>(component_)];
  const Eigen::VectorXd u = found_.col(component_);
  Eigen::MatrixXd a = stage_->a;
  a.noalias() -= c.lambda * (u * u.transpose());
  const Eigen::MatrixXd sym = 0.5 * (a + a.transpose());
  stage_ = make_stage(sym);
  pending_deflation_ = false;
  ++component_;
  ++iteration_;
  message_ = "deflated: A_" + std::to_string(component_ + 1) + " = A_" + std::to_string(component_) +
             " - lambda_hat u_hat u_hat^T; new start vector";
  start_component(true);
}

void PowerIteration::step() {
  if (!problem_ || is_terminal(status_)) return;
  if (pending_deflation_) {
    deflate();
    return;
  }
  if (phase_ == 0) multiply_half();
  normalise_half();
}

void PowerIteration::sub_step() {
  if (!problem_ || is_terminal(status_)) return;
  if (pending_deflation_) {
    deflate();
    return;
  }
  if (phase_ == 0) multiply_half();
  else normalise_half();
}

// ---------------------------------------------------------------- edits

void PowerIteration::set_live(const std::string& name, double value) {
  param_table().set_live(p_, name, value, info().name);  // throws: unknown, rebuild or out of range
  if (!problem_ || phase_ != 0 || status_ == Status::Failed || status_ == Status::Diverged) return;
  // Re-judge the current component under the new rule (it may go on, or be done now).
  evaluate();
}

bool PowerIteration::apply(const Intent& intent) {
  if (!problem_ || intent.kind != "set_vector") return false;
  const int d = problem_->d();
  if (static_cast<int>(intent.values.size()) != d) return false;
  Eigen::VectorXd v(d);
  for (int i = 0; i < d; ++i) {
    v[i] = intent.values[static_cast<size_t>(i)];
    if (!std::isfinite(v[i])) return false;
  }
  const double nrm = v.norm();
  if (!(nrm > 0)) return false;
  v_ = v / nrm;
  pending_deflation_ = false;
  status_ = Status::Running;
  message_ = "v set by hand; component " + std::to_string(component_ + 1) + " restarts from it";
  start_component(false);
  return true;
}

// ---------------------------------------------------------------- snapshot

size_t PowerSnapshot::byte_size() const {
  return Snapshot::byte_size() + message.capacity() +
         static_cast<size_t>(v.size() + av.size() + found.size()) * sizeof(double) +
         components.size() * sizeof(PowerComponent);
}

std::shared_ptr<const PowerSnapshot> PowerIteration::power_snapshot() const {
  if (cache_snap_) return cache_snap_;
  auto s = std::make_shared<PowerSnapshot>();
  if (!problem_) {
    s->status = Status::Failed;
    s->message = "power-iteration: not reset yet";
    s->metrics.assign(3, kNaN);
    cache_snap_ = s;
    return cache_snap_;
  }
  s->iteration = iteration_;
  s->phase = phase_;
  s->status = status_;
  s->message = message_;
  s->metrics = metric_table().blank();
  s->metrics[kMetricRayleigh] = rayleigh_;
  s->metrics[kMetricAngle] = angle_;
  s->metrics[kMetricResidual] = residual_;
  s->problem = problem_;
  s->stage = stage_;
  s->v = v_;
  s->av = av_;
  s->component = component_;
  s->n_components = p_.n_components;
  s->components = components_;
  s->found = found_;
  cache_snap_ = s;
  return cache_snap_;
}

std::shared_ptr<const Snapshot> PowerIteration::snapshot() const { return power_snapshot(); }

}  // namespace cilab
