// The optimizer race module (optimizers.h): roster, per-racer stepping,
// divergence / convergence, theory, snapshots. The maths of each update lives
// in optim/optimizer.cpp, the problems in optim/landscapes.cpp and
// optim/finite_sum.cpp.
#include "algorithms/gradient_methods/optimizers.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/optim/finite_sum.h"
#include "algorithms/optim/optim_params.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kDivergeFactor = 1e6;

std::atomic<uint64_t> g_writer_ids{0};


}  // namespace

// ---------------------------------------------------------------- PathBuffer

PathBuffer::PathBuffer(const PathBuffer& o) : chunks_(o.chunks_), size_(o.size_), writer_(0) {}

PathBuffer& PathBuffer::operator=(const PathBuffer& o) {
  chunks_ = o.chunks_;
  size_ = o.size_;
  writer_ = 0;
  return *this;
}

void PathBuffer::push(const Eigen::Vector2d& p, double loss) {
  if (writer_ == 0) writer_ = ++g_writer_ids;
  const size_t slot = size_ % kChunk;
  if (slot == 0) {
    auto c = std::make_shared<Chunk>();
    c->owner = writer_;
    chunks_.push_back(std::move(c));
  } else if (chunks_.back()->owner != writer_) {
    // Copy on write: the tail chunk belongs to another copy (a clone).
    auto c = std::make_shared<Chunk>();
    const Chunk& old = *chunks_.back();
    std::copy(old.x, old.x + slot, c->x);
    std::copy(old.y, old.y + slot, c->y);
    std::copy(old.loss, old.loss + slot, c->loss);
    c->owner = writer_;
    chunks_.back() = std::move(c);
  }
  Chunk& c = *chunks_.back();
  c.x[slot] = p.x();
  c.y[slot] = p.y();
  c.loss[slot] = loss;
  ++size_;
}

Eigen::Vector2d PathBuffer::point(size_t i) const {
  const Chunk& c = *chunks_[i / kChunk];
  return Eigen::Vector2d(c.x[i % kChunk], c.y[i % kChunk]);
}

double PathBuffer::loss(size_t i) const { return chunks_[i / kChunk]->loss[i % kChunk]; }

void PathBuffer::gather(size_t begin, size_t end, size_t stride, std::vector<double>& xs,
                        std::vector<double>& ys) const {
  end = std::min(end, size_);
  if (begin >= end) return;
  if (stride == 0) stride = 1;
  size_t i = begin;
  for (; i < end; i += stride) {
    const Chunk& c = *chunks_[i / kChunk];
    xs.push_back(c.x[i % kChunk]);
    ys.push_back(c.y[i % kChunk]);
  }
  if ((i - stride) != end - 1) {
    const Chunk& c = *chunks_[(end - 1) / kChunk];
    xs.push_back(c.x[(end - 1) % kChunk]);
    ys.push_back(c.y[(end - 1) % kChunk]);
  }
}

size_t PathBuffer::byte_size() const {
  return sizeof(*this) + chunks_.size() * (sizeof(std::shared_ptr<Chunk>) + sizeof(Chunk));
}

// ---------------------------------------------------------------- theory

QuadraticTheory quadratic_theory(const Eigen::Matrix2d& hessian, double lr) {
  QuadraticTheory t;
  // Eigenvalues of the symmetric 2 x 2 matrix in closed form.
  const double a = hessian(0, 0), c = hessian(1, 1), b = 0.5 * (hessian(0, 1) + hessian(1, 0));
  const double mid = 0.5 * (a + c), rad = std::hypot(0.5 * (a - c), b);
  const double L = mid + rad;
  const double mu = (a * c - b * b) / L;  // det / L: no cancellation for large kappa
  if (!(mu > 0) || !std::isfinite(L)) return t;
  t.valid = true;
  t.L = L;
  t.mu = mu;
  t.kappa = L / mu;
  t.eta_max = 2.0 / L;
  t.eta_gd_opt = 2.0 / (L + mu);
  t.rate_gd_opt = (t.kappa - 1.0) / (t.kappa + 1.0);
  const double sL = std::sqrt(L), smu = std::sqrt(mu), sk = std::sqrt(t.kappa);
  t.eta_hb = 4.0 / ((sL + smu) * (sL + smu));
  t.rate_hb = (sk - 1.0) / (sk + 1.0);
  t.beta_hb = t.rate_hb * t.rate_hb;
  t.rate_gd_at_lr = std::max(std::abs(1.0 - lr * mu), std::abs(1.0 - lr * L));
  return t;
}

size_t OptimizersSnapshot::byte_size() const {
  size_t b = sizeof(*this) + metrics.size() * sizeof(double) + message.capacity() +
             schedule_note.capacity() + measured_rate.size() * sizeof(double);
  // Paths: only the pointer lists are owned; chunks are shared with the module
  // and other snapshots (counted once, roughly, by the newest snapshot's size).
  for (const RacerState& r : racers) {
    b += sizeof(r) + r.message.capacity() + r.name.capacity();
    if (r.path) b += sizeof(PathBuffer) + (r.path->size() / PathBuffer::kChunk + 1) * 16;
  }
  return b;
}

// ---------------------------------------------------------------- params

// The member initialisers are the parameter table's defaults.
struct Optimizers::Params {
  LandscapeConfig land = default_landscape();
  bool loaded_data = false;  // data=loaded: finite-sum problems use the reset() dataset
  OptimizerConfig optim = primary_defaults();  // optim.kind: the primary optimizer
  int batch = 16;
  double noise = 0.0;
  ScheduleConfig schedule;
  bool average = false;
  Eigen::Vector2d start = Eigen::Vector2d(-1.5, 2.0);
  int max_iter = 10000;
  double tol = 1e-8;
  std::array<bool, kNumOptimizerKinds> race = {true, false, true, false, false, true, false, false};
  // Default lr of each optimizer when it races as a non-primary (tuned for the
  // default problem, Rosenbrock from (-1.5, 2); see the lr_<name> help).
  std::array<double, kNumOptimizerKinds> race_lr = {1e-3, 1e-3, 1e-3, 1e-3, 0.5, 0.01, 0.05, 0.05};

  static LandscapeConfig default_landscape() {
    LandscapeConfig c;
    c.expr = "x^2 + 3*y^2 + sin(3*x)";
    return c;
  }
  // The primary's settings: Adam at lr 0.05; momentum 0.9 for the momentum racers.
  static OptimizerConfig primary_defaults() {
    OptimizerConfig c;
    c.kind = OptimizerKind::Adam;
    c.lr = 0.05;
    c.momentum = 0.9;
    return c;
  }
};

namespace {

const ParamTable<Optimizers::Params>& param_table() {
  using P = Optimizers::Params;
  static const ParamTable<P> kTable = [] {
    std::vector<std::string> functions;
    for (int i = 0; i < kNumLandscapeKinds; ++i) functions.push_back(landscape_name(static_cast<LandscapeKind>(i)));
    const std::string analytic = "function=quadratic|rosenbrock|himmelblau|beale|saddle|many_minima|custom";
    std::vector<ParamField<P>> rows = {
        Choice<P>("function", [](P& p) -> LandscapeKind& { return p.land.kind; }, functions)
            .choice_help({
                "ill-conditioned quadratic 1/2 p^T H p, H = R(angle) diag(kappa, 1) R^T (L = kappa, mu = 1)",
                "Rosenbrock (1 - x)^2 + 100 (y - x^2)^2, minimum (1, 1) in a curved valley",
                "Himmelblau (x^2 + y - 11)^2 + (x + y^2 - 7)^2, four minima",
                "Beale, minimum (3, 0.5), flat plateaus and steep walls",
                "saddle x^2 - y^2 + y^4/4: saddle point at 0, minima (0, +-sqrt 2)",
                "many local minima: (x^2 + y^2)/4 + (2 - cos 2 pi x - cos 2 pi y)/2",
                "your f(x, y) (parameter expr); gradient by central differences",
                "least squares on Old Faithful: MSE over (slope, intercept); real mini-batch noise",
                "logistic regression on iris versicolor vs virginica: mean BCE over (w1, w2)"})
            .help("the loss landscape (2-D function or finite-sum problem on real data)"),
        Text<P>("expr", [](P& p) -> std::string& { return p.land.expr; })
            .help("f(x, y) for function=custom, muParser syntax (+ - * / ^, sin cos exp log sqrt abs ..., "
                  "_pi); gradient by central differences (labelled numeric)")
            .formula("grad f ~ (f(x+h,y) - f(x-h,y)) / 2h, h = 6e-6 max(1, |x|)")
            .shown_if("function=custom"),
        Real<P>("kappa", [](P& p) -> double& { return p.land.kappa; }, 1, 1000)
            .help("condition number L / mu of the quadratic")
            .formula("H = R diag(kappa, 1) R^T")
            .log_scale()
            .shown_if("function=quadratic"),
        Real<P>("angle", [](P& p) -> double& { return p.land.angle; }, -90, 90)
            .help("rotation of the quadratic's eigenbasis (degrees)")
            .formula("R = [[cos a, -sin a], [sin a, cos a]]")
            .shown_if("function=quadratic"),
        Bool<P>("standardize", [](P& p) -> bool& { return p.land.standardize; })
            .help("least_squares: z-score x and y (round bowl); off: raw minutes (a narrow "
                  "valley, kappa ~ 200)")
            .formula("x <- (x - mean) / std")
            .shown_if("function=least_squares"),
        Choice("data", &P::loaded_data, {"builtin", "loaded"})
            .choice_help(
                {"built-in real data: Old Faithful (least_squares), iris versicolor vs virginica (logistic)",
                 "the loaded dataset (app: the current dataset; CLI: --dataset / --data). least_squares: x = "
                 "column 0, y = column 1; logistic: columns 0 and 1 (z-scored, no bias), labels with exactly "
                 "2 classes (smaller id -> y = 0); separable classes have no finite minimiser"})
            .help("data of the finite-sum problems (least_squares, logistic): built-in or the loaded "
                  "dataset; ignored by the analytic functions")
            .shown_if("function=least_squares|logistic"),
    };
    // The shared optimizer group, worded for the race (a primary plus racers).
    std::vector<ParamField<P>> optim = optimizer_params(&P::optim);
    param_row(optim, "optimizer").help("the primary optimizer (its metrics are the CLI columns; it always runs)");
    param_row(optim, "lr").help("learning rate of the primary optimizer (torch: lr)");
    param_row(optim, "dampening").help("dampening of the momentum racer (torch.optim.SGD; nesterov requires 0)");
    param_row(optim, "nesterov")
        .help("momentum racer uses Nesterov's form (torch.optim.SGD nesterov=True; the nesterov racer always "
              "does)");
    param_row(optim, "weight_decay")
        .help("L2 penalty added to the gradient (g += wd theta), every racer; AdamW: decoupled decay theta *= "
              "1 - lr wd (torch AdamW default 1e-2)");
    rows.insert(rows.end(), optim.begin(), optim.end());
    rows.push_back(Int("batch", &P::batch, 1, 1000)
                       .help("mini-batch size of the stochastic racers on finite-sum problems (shuffled "
                             "epochs, last batch smaller; batch >= n gives GD)")
                       .shown_if("function=least_squares|logistic"));
    rows.push_back(Real("noise", &P::noise, 0, 10)
                       .live()
                       .help("simulated gradient noise (std) of the stochastic racers on analytic functions "
                             "(every racer but gd); 0 = exact gradients")
                       .formula("g = grad f + noise * N(0, I)")
                       .shown_if(analytic));
    std::vector<ParamField<P>> sched = schedule_params(&P::schedule);
    param_row(sched, "schedule").help("learning-rate schedule applied to every racer's lr (t = updates made so far)");
    rows.insert(rows.end(), sched.begin(), sched.end());
    rows.push_back(Bool("average", &P::average)
                       .live()
                       .help("Polyak averaging: show the running mean of the iterates (torch "
                             "swa_utils.AveragedModel's mean)")
                       .formula("theta_bar_t = 1/(t+1) sum_{k<=t} theta_k"));
    rows.push_back(Compound<P>("start", {"start_x", "start_y"})
                       .help("start point x,y of every racer (e.g. --set start=-1.5,2)"));
    rows.push_back(Real<P>("start_x", [](P& p) -> double& { return p.start.x(); }, -100, 100)
                       .help("first coordinate of the start point")
                       .formula("theta_0"));
    rows.push_back(Real<P>("start_y", [](P& p) -> double& { return p.start.y(); }, -100, 100)
                       .help("second coordinate of the start point")
                       .formula("theta_0"));
    rows.push_back(Int("max_iter", &P::max_iter, 1, 10000000).budget().help("iteration budget of every racer"));
    rows.push_back(Real("tol", &P::tol, 0, 1)
                       .live()
                       .help("a racer has converged when the full-batch gradient norm falls below tol")
                       .formula("||grad f(theta_t)|| < tol"));
    for (int i = 0; i < kNumOptimizerKinds; ++i) {
      const OptimizerKind k = static_cast<OptimizerKind>(i);
      rows.push_back(Bool<P>("race_" + std::string(optimizer_name(k)), [i](P& p) -> bool& { return p.race[i]; })
                         .live()
                         .help("race " + std::string(optimizer_title(k)) +
                               " alongside the primary (joining mid-run, it catches up from the start)")
                         .formula(optimizer_help(k)));
    }
    for (int i = 0; i < kNumOptimizerKinds; ++i) {
      const OptimizerKind k = static_cast<OptimizerKind>(i);
      rows.push_back(Real<P>("lr_" + std::string(optimizer_name(k)), [i](P& p) -> double& { return p.race_lr[i]; },
                             1e-5, 10)
                         .live()
                         .log_scale()
                         .help("learning rate of " + std::string(optimizer_title(k)) + " when it races as a non-primary")
                         .formula(optimizer_help(k)));
    }
    return ParamTable<P>(std::move(rows));
  }();
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Optimizers::kMetricLoss, "loss", "f(theta_t) of the primary optimizer (full batch)", true},
      {Optimizers::kMetricX, "x", "first coordinate of the primary's iterate theta_t", false},
      {Optimizers::kMetricY, "y", "second coordinate of the primary's iterate theta_t", false},
      {Optimizers::kMetricGradNorm, "grad_norm", "||grad f(theta_t)|| of the primary (full batch)", true},
      {Optimizers::kMetricDist, "dist_to_opt",
       "||theta_t - theta*||, distance to the nearest known minimum (NaN if unknown)", true},
      {Optimizers::kMetricLr, "lr",
       "learning rate of the update that produced theta_t (eta_0 at t = 0), after the schedule", true},
  };
  return kMetrics;
}

}  // namespace

const ParamTable<Optimizers::Params>& module_params(const Optimizers*) { return param_table(); }

const ModuleInfo& Optimizers::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "optimizers";
    m.title = "Optimizer race (GD, SGD, momentum, Nesterov, AdaGrad, RMSProp, Adam, AdamW)";
    m.chapter = "Gradient methods and optimisers";
    m.summary =
        "Several gradient methods race from the same start on a 2-D loss landscape (ill-conditioned "
        "quadratic, Rosenbrock, Himmelblau, Beale, saddle, many minima, your own f(x, y)) or on a "
        "finite-sum problem on real data (least squares, logistic regression) where SGD's mini-batch "
        "noise is real. The updates are torch.optim's, step for step. Theory (L, mu, kappa, optimal "
        "step sizes and rates) beside the measured rates; schedules with their Robbins-Monro status.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"gradient", "update"};
    m.needs_dataset = false;
    m.default_cli_steps = 500;
    m.data_use = [](const ParamValues& v) -> std::string {
      const ParamSpecs& specs = param_table().specs();
      const std::string f = choice_name(specs, v, "function");
      if (f != "least_squares" && f != "logistic")
        return "optimizers races on the 2-D function " + f + " (function=" + f +
               "); the dataset below is used only by least_squares and logistic with data=loaded";
      if (choice_name(specs, v, "data") != "loaded")
        return "optimizers fits " + f + " on its built-in data (data=builtin); data=loaded fits the dataset below";
      return "";
    };
    return m;
  }();
  return kInfo;
}

// ---------------------------------------------------------------- state

struct Racer {
  RacerState st;            // published fields (path is filled at snapshot time)
  Optimizer opt;
  PathBuffer path;
  PolyakAverage avg;
  Rng rng;
  std::vector<int> perm;    // current epoch's permutation (finite-sum)
  size_t perm_pos = 0;
  double last_lr = 0.0;     // lr of the last update (eta_0 before any)
  int rate_t = -1;          // last iteration whose error was above round-off (measured rate)
  int rate_min = 0;         // ... and the index of its nearest minimum
  bool previewed = false;   // the gradient sub-step filled preview_*
  Eigen::Vector2d preview_step = Eigen::Vector2d::Zero();
  Eigen::Vector2d preview_velocity = Eigen::Vector2d::Zero();
  Eigen::Vector2d full_grad = Eigen::Vector2d::Zero();  // full gradient at theta
  // Pending update computed by the gradient sub-step.
  Eigen::Vector2d pending_grad = Eigen::Vector2d::Zero();
  double pending_lr = 0.0;
  bool stochastic = false;
};

// Everything an Optimizers holds (a value type: clone() copies it).
struct Optimizers::State {
  Params p;
  std::shared_ptr<const Landscape> land;
  const FiniteSumLandscape* fs = nullptr;
  uint64_t seed = 0;
  std::vector<Racer> racers;  // primary first
  int iteration = 0;
  int phase = 0;
  bool ready = false;
  double f_ref = 0.0;  // divergence reference (f* or 0)
  double f0 = 0.0;     // f(theta_0)
  std::vector<Eigen::Vector2d> minima;  // land->minima(), cached
  mutable std::shared_ptr<const OptimizersSnapshot> cache;

  OptimizerConfig config_for(OptimizerKind k) const;
  double base_lr(OptimizerKind k) const {
    return k == p.optim.kind ? p.optim.lr : p.race_lr[static_cast<size_t>(k)];
  }
  Racer make_racer(OptimizerKind k) const;
  void evaluate(Racer& r) const;  // loss, grad_norm, dist, status at the current theta
  RacerState publish(const Racer& r) const;  // the snapshot's view of a racer
  double measured_rate(const Racer& r) const;
  void gradient_half(Racer& r);
  void update_half(Racer& r);
  void roster_changed();
  Status module_status(std::string* msg) const;
};

OptimizerConfig Optimizers::State::config_for(OptimizerKind k) const {
  OptimizerConfig c = OptimizerConfig::defaults(k);
  c.lr = base_lr(k);
  c.weight_decay = p.optim.weight_decay;
  switch (k) {
    case OptimizerKind::GD:
    case OptimizerKind::SGD: c.momentum = 0; break;
    case OptimizerKind::Momentum:
      c.momentum = p.optim.momentum;
      c.dampening = p.optim.dampening;
      c.nesterov = p.optim.nesterov;
      break;
    case OptimizerKind::Nesterov:
      c.momentum = p.optim.momentum;
      c.dampening = 0;
      c.nesterov = true;
      break;
    case OptimizerKind::AdaGrad:
      c.eps = p.optim.eps;
      c.lr_decay = p.optim.lr_decay;
      c.initial_accumulator_value = p.optim.initial_accumulator_value;
      break;
    case OptimizerKind::RMSProp:
      c.eps = p.optim.eps;
      c.alpha = p.optim.alpha;
      c.centered = p.optim.centered;
      c.momentum = 0;
      break;
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
      c.eps = p.optim.eps;
      c.beta1 = p.optim.beta1;
      c.beta2 = p.optim.beta2;
      c.amsgrad = p.optim.amsgrad;
      break;
  }
  return c;
}

Racer Optimizers::State::make_racer(OptimizerKind k) const {
  Racer r;
  r.st.kind = k;
  r.st.name = optimizer_name(k);
  r.st.primary = k == p.optim.kind;
  r.opt = Optimizer(config_for(k), 2);
  r.rng.reseed(seed);
  r.stochastic = k != OptimizerKind::GD;
  r.st.theta = p.start;
  r.st.lr = base_lr(k);
  r.last_lr = lr_at(p.schedule, r.st.lr, 0);
  r.avg.reset(p.start);
  evaluate(r);
  r.path.push(r.st.theta, r.st.loss);
  return r;
}

void Optimizers::State::evaluate(Racer& r) const {
  RacerState& s = r.st;
  const double x = s.theta.x(), y = s.theta.y();
  s.loss = land->value(x, y);
  r.full_grad = land->gradient(x, y);
  s.grad_norm = r.full_grad.norm();
  s.dist_to_opt = kNaN;
  size_t nearest = 0;
  for (size_t j = 0; j < minima.size(); ++j) {
    const double d = (s.theta - minima[j]).norm();
    if (!(d >= s.dist_to_opt)) {
      s.dist_to_opt = d;
      nearest = j;
    }
  }
  // The measured rate uses the last iterate whose error is above round-off.
  if (!minima.empty() && s.dist_to_opt > 1e-10 * (1.0 + minima[nearest].norm())) {
    r.rate_t = r.opt.steps();
    r.rate_min = static_cast<int>(nearest);
  }
  s.iterations = r.opt.steps();

  // Status (a diverged racer never comes back).
  if (s.status == Status::Diverged) return;
  const double threshold = kDivergeFactor * std::max(std::abs(f0 - f_ref), 1.0);
  if (!s.theta.allFinite() || !std::isfinite(s.loss) || std::abs(s.loss - f_ref) > threshold) {
    s.status = Status::Diverged;
    s.diverged_at = s.iterations;
    s.message = s.name + " diverged at iteration " + std::to_string(s.iterations) +
                (!s.theta.allFinite() || !std::isfinite(s.loss)
                     ? ": non-finite iterate or loss"
                     : ": |f - f_ref| = " + fmt_g(std::abs(s.loss - f_ref)) + " > 1e6 max(|f_0 - f_ref|, 1)") +
                "; lower its lr (now " + fmt_g(s.lr) + ")";
    return;
  }
  if (s.grad_norm < p.tol) {
    s.status = Status::Converged;
    s.message = s.name + " converged at iteration " + std::to_string(s.iterations) +
                ": ||grad|| = " + fmt_g(s.grad_norm) + " < tol = " + fmt_g(p.tol);
  } else if (s.iterations >= p.max_iter) {
    s.status = Status::Stopped;
    s.message = s.name + " reached max_iter = " + std::to_string(p.max_iter);
  } else {
    s.status = Status::Running;
    s.message.clear();
  }
}

void Optimizers::State::gradient_half(Racer& r) {
  RacerState& s = r.st;
  Eigen::Vector2d g = r.full_grad;
  if (r.stochastic) {
    if (fs) {
      const int n = fs->num_samples();
      const int b = std::min(p.batch, n);
      if (b < n) {
        if (r.perm.empty() || r.perm_pos >= r.perm.size()) {
          r.perm.resize(static_cast<size_t>(n));
          for (int i = 0; i < n; ++i) r.perm[static_cast<size_t>(i)] = i;
          for (int i = n - 1; i > 0; --i)
            std::swap(r.perm[static_cast<size_t>(i)], r.perm[r.rng.below(static_cast<uint64_t>(i) + 1)]);
          r.perm_pos = 0;
        }
        const int cnt = static_cast<int>(std::min(r.perm.size() - r.perm_pos, static_cast<size_t>(b)));
        g = fs->batch_gradient(s.theta.x(), s.theta.y(), r.perm.data() + r.perm_pos, cnt);
        r.perm_pos += static_cast<size_t>(cnt);
      }
    } else if (p.noise > 0) {
      g.x() += p.noise * r.rng.normal();
      g.y() += p.noise * r.rng.normal();
    }
  }
  r.pending_grad = g;
  r.pending_lr = lr_at(p.schedule, s.lr, r.opt.steps());
  s.grad = g;
  s.grad_at = s.theta;
}

void Optimizers::State::update_half(Racer& r) {
  RacerState& s = r.st;
  const Eigen::Vector2d before = s.theta;
  r.opt.step(s.theta, r.pending_grad, r.pending_lr);
  r.last_lr = r.pending_lr;
  s.step = s.theta - before;
  r.avg.add(s.theta);
  r.previewed = false;
  evaluate(r);
  r.path.push(s.theta, s.loss);
}

RacerState Optimizers::State::publish(const Racer& r) const {
  RacerState s = r.st;
  s.averaged = p.average ? Eigen::Vector2d(r.avg.mean()) : s.theta;
  s.averaged_loss = p.average ? land->value(s.averaged.x(), s.averaged.y()) : s.loss;
  s.lr_now = lr_at(p.schedule, s.lr, r.opt.steps());
  if (phase == 1 && r.previewed) {
    s.velocity = r.preview_velocity;
    s.step = r.preview_step;
  } else {
    const Eigen::VectorXd v = r.opt.velocity();
    s.velocity = Eigen::Vector2d(v[0], v[1]);
  }
  const Eigen::VectorXd e = r.opt.effective_lr();
  if (e.size() == 2) s.effective_lr = Eigen::Vector2d(e[0], e[1]);
  else s.effective_lr.setConstant(s.lr_now);
  s.path = std::make_shared<const PathBuffer>(r.path);
  return s;
}

double Optimizers::State::measured_rate(const Racer& r) const {
  if (minima.empty() || r.rate_t < kRateWindow) return kNaN;
  const Eigen::Vector2d& m = minima[static_cast<size_t>(r.rate_min)];
  const double e1 = (r.path.point(static_cast<size_t>(r.rate_t)) - m).norm();
  const double e0 = (r.path.point(static_cast<size_t>(r.rate_t - kRateWindow)) - m).norm();
  if (!std::isfinite(e1) || !std::isfinite(e0) || !(e0 > 0)) return kNaN;
  return std::pow(e1 / e0, 1.0 / kRateWindow);
}

Status Optimizers::State::module_status(std::string* msg) const {
  const RacerState& pr = racers.front().st;
  bool any_running = false;
  for (const Racer& r : racers) any_running = any_running || r.st.status == Status::Running;
  if (pr.status == Status::Diverged) {
    *msg = pr.message;
    return Status::Diverged;
  }
  if (any_running) {
    if (pr.status != Status::Running) *msg = pr.message + "; the race goes on";
    else msg->clear();
    return Status::Running;
  }
  *msg = pr.message;
  return pr.status;
}

void Optimizers::State::roster_changed() {
  // Keep the primary and existing racers; add newly enabled ones (catching up
  // with the current iteration); drop disabled ones. Order: primary, then kind order.
  std::vector<Racer> next;
  next.push_back(std::move(racers.front()));
  for (int i = 0; i < kNumOptimizerKinds; ++i) {
    const OptimizerKind k = static_cast<OptimizerKind>(i);
    if (k == p.optim.kind || !p.race[static_cast<size_t>(i)]) continue;
    bool found = false;
    for (Racer& r : racers)
      if (r.st.name == optimizer_name(k) && !r.st.primary) {
        next.push_back(std::move(r));
        found = true;
        break;
      }
    if (found) continue;
    Racer r = make_racer(k);
    for (int t = 0; t < iteration && r.st.status == Status::Running; ++t) {
      gradient_half(r);
      update_half(r);
    }
    if (phase == 1 && r.st.status == Status::Running) gradient_half(r);
    next.push_back(std::move(r));
  }
  racers = std::move(next);
}

// ---------------------------------------------------------------- lifecycle


void Optimizers::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  if (p.optim.nesterov && p.optim.dampening != 0)
    throw std::invalid_argument(
        "parameter 'nesterov': Nesterov momentum requires dampening = 0 (as torch.optim.SGD), got "
        "dampening " + fmt_g(p.optim.dampening) + "; set dampening=0 or nesterov=false");

  auto st = std::make_unique<State>();
  st->p = p;
  st->seed = seed;
  // Throws for a bad expr, or (data=loaded) unusable data naming 'data'.
  if (p.loaded_data && p.land.kind == LandscapeKind::LeastSquares)
    st->land = make_least_squares_landscape(data.get(), p.land.standardize);
  else if (p.loaded_data && p.land.kind == LandscapeKind::Logistic)
    st->land = make_logistic_landscape(data.get());
  else
    st->land = make_landscape(p.land);
  st->fs = st->land->finite_sum() ? static_cast<const FiniteSumLandscape*>(st->land.get())
                                      : nullptr;
  const double fstar = st->land->min_value();
  st->f_ref = std::isfinite(fstar) ? fstar : 0.0;
  st->f0 = st->land->value(p.start.x(), p.start.y());
  st->minima = st->land->minima();
  if (!std::isfinite(st->f0))
    throw std::invalid_argument("parameter 'start': f is not finite at the start point (" +
                                fmt_g(p.start.x()) + ", " + fmt_g(p.start.y()) +
                                "); choose another start");
  st->racers.push_back(st->make_racer(p.optim.kind));
  st->roster_changed();
  st->ready = true;
  st_ = std::move(st);
}

void Optimizers::step() {
  State& s = *st_;
  if (!s.ready) return;
  if (s.phase == 0) {
    std::string msg;
    if (is_terminal(s.module_status(&msg))) return;
    for (Racer& r : s.racers)
      if (r.st.status == Status::Running) s.gradient_half(r);
  }
  for (Racer& r : s.racers)
    if (r.st.status == Status::Running) s.update_half(r);
  ++s.iteration;
  s.phase = 0;
  s.cache.reset();
}

void Optimizers::sub_step() {
  State& s = *st_;
  if (!s.ready) return;
  if (s.phase == 1) {
    step();
    return;
  }
  std::string msg;
  if (is_terminal(s.module_status(&msg))) return;
  for (Racer& r : s.racers) {
    if (r.st.status != Status::Running) continue;
    s.gradient_half(r);
    // Preview: what the update will do (step and velocity), from a copy.
    Optimizer preview = r.opt;
    Eigen::Vector2d th = r.st.theta;
    preview.step(th, r.pending_grad, r.pending_lr);
    r.preview_step = th - r.st.theta;
    const Eigen::VectorXd v = preview.velocity();
    r.preview_velocity = Eigen::Vector2d(v[0], v[1]);
    r.previewed = true;
  }
  s.phase = 1;
  s.cache.reset();
}

void Optimizers::set_live(const std::string& name, double value) {
  State& m = *st_;
  Params p = m.p;
  param_table().set_live(p, name, value, info().name);  // throws: unknown, rebuild or out of range
  const bool roster = name.rfind("race_", 0) == 0;
  if (p.optim.nesterov && p.optim.dampening != 0)
    throw std::invalid_argument(
        "parameter '" + name + "': Nesterov momentum requires dampening = 0 (as torch.optim.SGD); set "
        "dampening=0 or nesterov=false");
  const Params old = m.p;
  m.p = p;
  if (!m.ready) return;
  try {
    for (Racer& r : m.racers) {
      r.st.lr = m.base_lr(r.st.kind);
      r.opt.set_config(m.config_for(r.st.kind));
    }
  } catch (...) {
    m.p = old;
    for (Racer& r : m.racers) {
      r.st.lr = m.base_lr(r.st.kind);
      r.opt.set_config(m.config_for(r.st.kind));
    }
    throw;
  }
  if (roster) m.roster_changed();
  for (Racer& r : m.racers) {
    // Re-evaluate status for max_iter / tol changes (Stopped/Converged may resume).
    if (r.st.status == Status::Diverged) continue;
    const Status before = r.st.status;
    r.st.status = Status::Running;
    m.evaluate(r);
    if (m.phase == 1 && before != Status::Running && r.st.status == Status::Running)
      m.gradient_half(r);
    if (m.phase == 1 && r.st.status == Status::Running) r.pending_lr = lr_at(m.p.schedule, r.st.lr, r.opt.steps());
  }
  m.cache.reset();
}

std::shared_ptr<const Snapshot> Optimizers::snapshot() const { return optimizers_snapshot(); }

std::shared_ptr<const OptimizersSnapshot> Optimizers::optimizers_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto out = std::make_shared<OptimizersSnapshot>();
  if (!s.ready) {
    describe_not_reset(*out, "optimizers", metric_table());
    s.cache = out;
    return out;
  }
  out->iteration = s.iteration;
  out->phase = s.phase;
  out->status = s.module_status(&out->message);
  out->landscape = s.land;
  Eigen::Matrix2d h;
  if (s.land->constant_hessian(&h)) out->theory = quadratic_theory(h, s.p.optim.lr);
  out->schedule_note = robbins_monro(s.p.schedule).note;
  for (const Racer& r : s.racers) {
    out->racers.push_back(s.publish(r));
    out->measured_rate.push_back(s.measured_rate(r));
  }
  const RacerState& pr = out->racers.front();
  out->metrics = metric_table().blank();
  out->metrics[kMetricLoss] = pr.loss;
  out->metrics[kMetricX] = pr.theta.x();
  out->metrics[kMetricY] = pr.theta.y();
  out->metrics[kMetricGradNorm] = pr.grad_norm;
  out->metrics[kMetricDist] = pr.dist_to_opt;
  out->metrics[kMetricLr] = s.racers.front().last_lr;
  s.cache = out;
  return out;
}

CILAB_MODULE_STATE(Optimizers)

}  // namespace cilab
