// Power iteration with deflation: see power_iteration.h for the equations,
// the sub-steps, the metrics, convergence and deflation.
//
// Shapes: A is d x d (symmetric, the lower triangle drives the products),
// v and A v are d-vectors, the found eigenvectors d x m. The covariance is
// accumulated from centred row blocks (O(block x d) extra memory, never a
// centred copy of the whole dataset).
#include "algorithms/svd/power_iteration.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/core/rng.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "algorithms/core/parallel.h"

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
  // The project's pool (core/parallel.h), not OpenMP: its synchronisation is visible to
  // ThreadSanitizer, which reported libgomp's (uninstrumented) barrier as a race here.
  parallel_for_blocks(2, std::min(2, max_threads()), [&](int c) {
    const Eigen::Index r0 = c == 0 ? 0 : half, len = c == 0 ? half : d - half;
    w.segment(r0, len).noalias() = a.middleCols(r0, len).transpose() * v;
  });
}

// Reuse of the covariance problem across resets on the same dataset.
struct Cache {
  std::shared_ptr<const Dataset> data;
  std::shared_ptr<const PowerProblem> problem;
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kCovBlockRows = 4096;

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

// Everything a PowerIteration holds (a value type: clone() copies it).
struct PowerIteration::State : RunPosition {
  std::shared_ptr<const Cache> data_cache;  // covariance of the last dataset (shared by clones)
  std::shared_ptr<const PowerProblem> problem;
  std::shared_ptr<const PowerStage> stage;
  Params p;
  uint64_t seed = 0;
  uint64_t rng_state = 0;  // counter for per-component start vectors (deterministic)

  Eigen::VectorXd v, av;
  int component = 0;
  std::vector<PowerComponent> components;
  Eigen::MatrixXd found;
  bool pending_deflation = false;
  double rayleigh = 0, angle = 0, residual = 0;

  mutable std::shared_ptr<const PowerSnapshot> cache;

  void start_component(bool fresh_vector);
  void multiply_half();
  void normalise_half();
  void evaluate();  // metrics for v from av; convergence check
  void deflate();
  void advance(bool whole);  // step (whole) or sub_step
  Eigen::VectorXd initial_vector(const PowerStage& stage);
  void invalidate() { cache.reset(); }
};

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
      Int("max_iter", &P::max_iter, 1, 100000).help("iteration budget per component").budget(),
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
    m.data_use = [](const ParamValues& v) -> std::string {
      if (choice_name(param_table().specs(), v, "matrix") != "synthetic") return "";
      return "power-iteration iterates with a synthetic symmetric matrix of known spectrum (matrix=synthetic: "
             "dim, ratio); matrix=covariance uses the covariance of the dataset below instead";
    };
    return m;
  }();
  return kInfo;
}

const ParamTable<PowerIteration::Params>& module_params(const PowerIteration*) { return param_table(); }

PowerIteration::Params PowerIteration::params_from(const ParamValues& values) {
  return param_table().read(values);
}

// ---------------------------------------------------------------- lifecycle



void PowerIteration::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  State& s = *st_;
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
    if (data->is_text()) require_usable_data(data.get(), "power-iteration");  // names the text modules
    const int n = data->rows(), d = data->cols();
    if (n < 2 || d < 1)
      throw std::invalid_argument("power-iteration: the covariance needs at least 2 samples and 1 feature, "
                                  "the dataset is " + std::to_string(n) + " x " + std::to_string(d) +
                                  "; load more data, or use matrix=synthetic");
    if (d > kMaxDim)
      throw std::invalid_argument("power-iteration: the dataset has d = " + std::to_string(d) +
                                  " features: the covariance is d x d and its reference eigen-solve O(d^3); "
                                  "at most " + std::to_string(kMaxDim) + " features are accepted; try fewer features");
    if (s.data_cache && s.data_cache->data == data) {
      problem = s.data_cache->problem;
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
      s.data_cache = cache;
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

  s.problem = problem;
  s.p = p;
  s.seed = seed;
  auto stage = std::make_shared<PowerStage>();
  stage->a = s.problem->a;
  stage->eigvals = s.problem->eigvals;
  stage->top = s.problem->eigvecs.col(0);
  stage->rate = d > 1 ? std::abs(s.problem->eigvals[1]) / std::abs(s.problem->eigvals[0]) : 0.0;
  s.stage = stage;
  s.component = 0;
  s.components.clear();
  s.found.resize(d, 0);
  s.pending_deflation = false;
  s.restart();
  s.start_component(true);
}

// ---------------------------------------------------------------- iteration

Eigen::VectorXd PowerIteration::State::initial_vector(const PowerStage& stage) {
  const int d = problem->d();
  Eigen::VectorXd v(d);
  if (p.init == Init::Ones) {
    v.setConstant(1.0 / std::sqrt(static_cast<double>(d)));
    return v;
  }
  Rng rng(seed * 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(component) + 1);
  for (int attempt = 0; attempt < 8; ++attempt) {
    for (int i = 0; i < d; ++i) v[i] = rng.normal();
    if (p.init == Init::Orthogonal) {
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

void PowerIteration::State::start_component(bool fresh_vector) {
  if (fresh_vector) v = initial_vector(*stage);
  multiply_symmetric(stage->a, v, av);
  PowerComponent c;
  c.start_iteration = iteration;
  c.rate = stage->rate;
  c.theta0 = line_angle(v, stage->top);
  if (static_cast<int>(components.size()) <= component) components.push_back(c);
  else components[static_cast<size_t>(component)] = c;
  phase = 0;
  if (stage->rate > 1.0 - 1e-9)
    message = "|lambda_2| = |lambda_1| here: the top eigenvector is not unique and the angle need not fall";
  evaluate();
}

void PowerIteration::State::evaluate() {
  rayleigh = v.dot(av);
  residual = (av - rayleigh * v).norm();
  angle = line_angle(v, stage->top);
  PowerComponent& c = components[static_cast<size_t>(component)];
  c.lambda = rayleigh;
  if (!std::isfinite(rayleigh) || !std::isfinite(residual)) {
    status = Status::Diverged;
    message = "the iterate became non-finite at iteration " + std::to_string(iteration);
    invalidate();
    return;
  }
  const bool conv = residual <= p.tol * std::abs(rayleigh);
  if (conv || c.iterations >= p.max_iter) {
    c.done = true;
    c.converged = conv;
    c.angle_to_true = line_angle(v, problem->eigvecs.col(component));
    if (found.cols() <= component) {
      found.conservativeResize(Eigen::NoChange, component + 1);
    }
    found.col(component) = v;
    const std::string what = "component " + std::to_string(component + 1) + " " +
                             (conv ? "converged after " : "stopped (max_iter) after ") +
                             std::to_string(c.iterations) + " iterations: lambda_hat = " + fmt_g(rayleigh);
    if (component + 1 < p.n_components) {
      pending_deflation = true;
      status = Status::Running;
      message = what + "; the next step deflates A <- A - lambda_hat u_hat u_hat^T";
    } else {
      bool all = true;
      for (const PowerComponent& k : components) all = all && k.converged;
      status = all ? Status::Converged : Status::Stopped;
      message = what + (all ? "" : " (raise max_iter or tol to go on)");
    }
  } else {
    c.done = false;
    pending_deflation = false;
    status = Status::Running;
  }
  invalidate();
}

void PowerIteration::State::multiply_half() {
  // w = A v_t was computed with v_t (it gave rho and the residual): the
  // multiply sub-step shows it.
  phase = 1;
  message = "multiply: w = A v, ||w|| = " + fmt_g(av.norm());
  invalidate();
}

void PowerIteration::State::normalise_half() {
  const double nrm = av.norm();
  if (!(nrm > 0) || !std::isfinite(nrm)) {
    status = nrm == 0 ? Status::Failed : Status::Diverged;
    message = nrm == 0 ? "A v = 0: v lies in the null space of A and cannot be normalised; restart with "
                          "another init (or drag v)"
                        : "A v is not finite";
    phase = 0;
    invalidate();
    return;
  }
  v = av / nrm;
  multiply_symmetric(stage->a, v, av);
  ++iteration;
  ++components[static_cast<size_t>(component)].iterations;
  phase = 0;
  message.clear();
  evaluate();
}

void PowerIteration::State::deflate() {
  const PowerComponent& c = components[static_cast<size_t>(component)];
  const Eigen::VectorXd u = found.col(component);
  Eigen::MatrixXd a = stage->a;
  a.noalias() -= c.lambda * (u * u.transpose());
  const Eigen::MatrixXd sym = 0.5 * (a + a.transpose());
  stage = make_stage(sym);
  pending_deflation = false;
  ++component;
  ++iteration;
  message = "deflated: A_" + std::to_string(component + 1) + " = A_" + std::to_string(component) +
             " - lambda_hat u_hat u_hat^T; new start vector";
  start_component(true);
}

// A pending deflation is a step of its own; otherwise multiply, then normalise
// (a step finishes the iteration a sub-step may have begun).
void PowerIteration::State::advance(bool whole) {
  if (!problem || is_terminal(status)) return;
  if (pending_deflation) {
    deflate();
    return;
  }
  if (phase == 0) {
    multiply_half();
    if (!whole) return;
  }
  normalise_half();
}

void PowerIteration::step() { st_->advance(true); }

void PowerIteration::sub_step() { st_->advance(false); }

// ---------------------------------------------------------------- edits

void PowerIteration::set_live(const std::string& name, double value) {
  param_table().set_live(st_->p, name, value, info().name);  // throws: unknown, rebuild or out of range
  if (!st_->problem || st_->phase != 0 || st_->status == Status::Failed || st_->status == Status::Diverged) return;
  // Re-judge the current component under the new rule (it may go on, or be done now).
  st_->evaluate();
}

bool PowerIteration::apply(const Intent& intent) {
  State& s = *st_;
  if (!s.problem || intent.kind != "set_vector") return false;
  const int d = s.problem->d();
  if (static_cast<int>(intent.values.size()) != d) return false;
  Eigen::VectorXd v(d);
  for (int i = 0; i < d; ++i) {
    v[i] = intent.values[static_cast<size_t>(i)];
    if (!std::isfinite(v[i])) return false;
  }
  const double nrm = v.norm();
  if (!(nrm > 0)) return false;
  s.v = v / nrm;
  s.pending_deflation = false;
  s.status = Status::Running;
  s.message = "v set by hand; component " + std::to_string(s.component + 1) + " restarts from it";
  s.start_component(false);
  return true;
}

// ---------------------------------------------------------------- snapshot

size_t PowerSnapshot::byte_size() const {
  return Snapshot::byte_size() + message.capacity() +
         static_cast<size_t>(v.size() + av.size() + found.size()) * sizeof(double) +
         components.size() * sizeof(PowerComponent);
}

std::shared_ptr<const PowerSnapshot> PowerIteration::power_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto out = std::make_shared<PowerSnapshot>();
  if (!s.problem) {
    describe_not_reset(*out, "power-iteration", metric_table());
    s.cache = out;
    return s.cache;
  }
  s.describe(*out);
  out->metrics = metric_table().blank();
  out->metrics[kMetricRayleigh] = s.rayleigh;
  out->metrics[kMetricAngle] = s.angle;
  out->metrics[kMetricResidual] = s.residual;
  out->problem = s.problem;
  out->stage = s.stage;
  out->v = s.v;
  out->av = s.av;
  out->component = s.component;
  out->n_components = s.p.n_components;
  out->components = s.components;
  out->found = s.found;
  s.cache = out;
  return s.cache;
}

std::shared_ptr<const Snapshot> PowerIteration::snapshot() const { return power_snapshot(); }

CILAB_MODULE_STATE(PowerIteration)

}  // namespace cilab
