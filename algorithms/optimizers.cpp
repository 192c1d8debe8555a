// The optimizer race module (optimizers.h): roster, per-racer stepping,
// divergence / convergence, theory, snapshots. The maths of each update lives
// in optim/optimizer.cpp, the problems in optim/landscapes.cpp and
// optim/finite_sum.cpp.
#include "algorithms/optimizers.h"

#include "algorithms/optim/finite_sum.h"

#include <algorithm>
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

std::string fmt_g(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

std::atomic<uint64_t> g_writer_ids{0};

// Default lr of each optimizer when it races as a non-primary (tuned for the
// default problem, Rosenbrock from (-1.5, 2); see the lr_<name> help).
const double kRaceLr[kNumOptimizerKinds] = {1e-3, 1e-3, 1e-3, 1e-3, 0.5, 0.01, 0.05, 0.05};
const bool kRaceOn[kNumOptimizerKinds] = {true, false, true, false, false, true, false, false};

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

struct Optimizers::Params {
  LandscapeConfig land;
  bool loaded_data = false;  // data=loaded: finite-sum problems use the reset() dataset
  OptimizerKind primary = OptimizerKind::Adam;
  double lr = 0.01;
  double momentum = 0.9, dampening = 0.0;
  bool nesterov = false;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8, alpha = 0.99, weight_decay = 0.0;
  double lr_decay = 0.0, initial_accumulator_value = 0.0;
  bool centered = false, amsgrad = false;
  int batch = 16;
  double noise = 0.0;
  ScheduleConfig schedule;
  bool average = false;
  Eigen::Vector2d start = Eigen::Vector2d(-1.5, 2.0);
  int max_iter = 10000;
  double tol = 1e-8;
  bool race[kNumOptimizerKinds] = {};
  double race_lr[kNumOptimizerKinds] = {};
};

namespace {

ParamSpec real_spec(const std::string& name, double mn, double mx, double def, const std::string& help,
                    const std::string& formula, ParamUpdate up, bool log = false) {
  ParamSpec s;
  s.name = name;
  s.type = ParamType::Real;
  s.min = mn;
  s.max = mx;
  s.def = def;
  s.help = help;
  s.formula = formula;
  s.update = up;
  s.log_scale = log;
  return s;
}
ParamSpec int_spec(const std::string& name, double mn, double mx, double def, const std::string& help,
                   ParamUpdate up) {
  ParamSpec s = real_spec(name, mn, mx, def, help, "", up);
  s.type = ParamType::Int;
  return s;
}
ParamSpec bool_spec(const std::string& name, bool def, const std::string& help, const std::string& formula,
                    ParamUpdate up) {
  ParamSpec s = real_spec(name, 0, 1, def ? 1 : 0, help, formula, up);
  s.type = ParamType::Bool;
  return s;
}

const char* const kOptHelp[kNumOptimizerKinds] = {
    "GD: theta -= lr * grad f(theta) with the full gradient (torch.optim.SGD, momentum=0)",
    "SGD: theta -= lr * g, g = mini-batch gradient (finite-sum problems) or grad + simulated "
    "N(0, noise^2) noise (analytic functions) (torch.optim.SGD, momentum=0)",
    "heavy ball, torch.optim.SGD(momentum, dampening): b = momentum b + (1 - dampening) g (b_1 = g), "
    "theta -= lr b; with dampening 0 identical to the course's theta_{k+1} = theta_k - lr grad + "
    "beta (theta_k - theta_{k-1}), beta = momentum",
    "Nesterov, torch.optim.SGD(momentum, nesterov=True): b as heavy ball, theta -= lr (g + momentum "
    "b); equivalent to the look-ahead form theta' = theta_k + beta (theta_k - theta_{k-1}), "
    "theta_{k+1} = theta' - lr grad(theta') in shifted variables (dampening ignored: torch requires 0)",
    "AdaGrad, torch.optim.Adagrad: sum += g^2 (sum_0 = initial_accumulator_value), theta -= clr g / "
    "(sqrt(sum) + eps), clr = lr / (1 + (t-1) lr_decay); eps outside the root (torch default 1e-10)",
    "RMSProp, torch.optim.RMSprop: sq = alpha sq + (1-alpha) g^2 (sq_0 = 0), theta -= lr g / "
    "(sqrt(sq) + eps); momentum 0 (torch default)",
    "Adam, torch.optim.Adam: m = beta1 m + (1-beta1) g, v = beta2 v + (1-beta2) g^2, theta -= lr "
    "m_hat / (sqrt(v_hat) + eps), m_hat = m / (1-beta1^t), v_hat = v / (1-beta2^t)",
    "AdamW, torch.optim.AdamW: theta *= 1 - lr weight_decay (decoupled), then the Adam step "
    "(torch's default weight_decay is 1e-2; here the shared weight_decay param)",
};

}  // namespace

const ParamSpecs& Optimizers::params() const {
  static const ParamSpecs kSpecs = [] {
    ParamSpecs s;
    const ParamUpdate R = ParamUpdate::Rebuild, Lv = ParamUpdate::Live;
    {
      ParamSpec f;
      f.name = "function";
      f.type = ParamType::Choice;
      for (int i = 0; i < kNumLandscapeKinds; ++i)
        f.choices.push_back(landscape_name(static_cast<LandscapeKind>(i)));
      f.choice_help = {
          "ill-conditioned quadratic 1/2 p^T H p, H = R(angle) diag(kappa, 1) R^T (L = kappa, mu = 1)",
          "Rosenbrock (1 - x)^2 + 100 (y - x^2)^2, minimum (1, 1) in a curved valley",
          "Himmelblau (x^2 + y - 11)^2 + (x + y^2 - 7)^2, four minima",
          "Beale, minimum (3, 0.5), flat plateaus and steep walls",
          "saddle x^2 - y^2 + y^4/4: saddle point at 0, minima (0, +-sqrt 2)",
          "many local minima: (x^2 + y^2)/4 + (2 - cos 2 pi x - cos 2 pi y)/2",
          "your f(x, y) (parameter expr); gradient by central differences",
          "least squares on Old Faithful: MSE over (slope, intercept); real mini-batch noise",
          "logistic regression on iris versicolor vs virginica: mean BCE over (w1, w2)"};
      f.def = static_cast<double>(LandscapeKind::Rosenbrock);
      f.help = "the loss landscape (2-D function or finite-sum problem on real data)";
      f.update = R;
      s.push_back(f);
    }
    {
      ParamSpec e;
      e.name = "expr";
      e.type = ParamType::Text;
      e.text_def = "x^2 + 3*y^2 + sin(3*x)";
      e.help = "f(x, y) for function=custom, muParser syntax (+ - * / ^, sin cos exp log sqrt abs ..., "
               "_pi); gradient by central differences (labelled numeric)";
      e.formula = "grad f ~ (f(x+h,y) - f(x-h,y)) / 2h, h = 6e-6 max(1, |x|)";
      e.update = R;
      s.push_back(e);
    }
    s.push_back(real_spec("kappa", 1, 1000, 10, "condition number L / mu of the quadratic",
                          "H = R diag(kappa, 1) R^T", R, true));
    s.push_back(real_spec("angle", -90, 90, 30, "rotation of the quadratic's eigenbasis (degrees)",
                          "R = [[cos a, -sin a], [sin a, cos a]]", R));
    s.push_back(bool_spec("standardize", true,
                          "least_squares: z-score x and y (round bowl); off: raw minutes (a narrow "
                          "valley, kappa ~ 200)",
                          "x <- (x - mean) / std", R));
    {
      ParamSpec d;
      d.name = "data";
      d.type = ParamType::Choice;
      d.choices = {"builtin", "loaded"};
      d.choice_help = {
          "built-in real data: Old Faithful (least_squares), iris versicolor vs virginica (logistic)",
          "the loaded dataset (app: the current dataset; CLI: --dataset / --data). least_squares: x = "
          "column 0, y = column 1; logistic: columns 0 and 1 (z-scored, no bias), labels with exactly "
          "2 classes (smaller id -> y = 0); separable classes have no finite minimiser"};
      d.def = 0;
      d.help = "data of the finite-sum problems (least_squares, logistic): built-in or the loaded "
               "dataset; ignored by the analytic functions";
      d.update = R;
      s.push_back(d);
    }
    {
      ParamSpec o;
      o.name = "optimizer";
      o.type = ParamType::Choice;
      for (int i = 0; i < kNumOptimizerKinds; ++i) {
        o.choices.push_back(optimizer_name(static_cast<OptimizerKind>(i)));
        o.choice_help.push_back(kOptHelp[i]);
      }
      o.def = static_cast<double>(OptimizerKind::Adam);
      o.help = "the primary optimizer (its metrics are the CLI columns; it always runs)";
      o.update = R;
      s.push_back(o);
    }
    s.push_back(real_spec("lr", 1e-5, 10, 0.05, "learning rate of the primary optimizer (torch: lr)",
                          "theta_{t+1} = theta_t - lr * direction_t", Lv, true));
    s.push_back(real_spec("momentum", 0, 0.999, 0.9,
                          "momentum factor of momentum / nesterov (torch.optim.SGD momentum)",
                          "b_t = momentum b_{t-1} + (1 - dampening) g_t", Lv));
    s.push_back(real_spec("dampening", 0, 0.99, 0,
                          "dampening of the momentum racer (torch.optim.SGD; nesterov requires 0)",
                          "b_t = momentum b_{t-1} + (1 - dampening) g_t", Lv));
    s.push_back(bool_spec("nesterov", false,
                          "momentum racer uses Nesterov's form (torch.optim.SGD nesterov=True; the "
                          "nesterov racer always does)",
                          "theta -= lr (g + momentum b)", Lv));
    s.push_back(real_spec("beta1", 0, 0.9999, 0.9, "Adam/AdamW first-moment decay (torch betas[0])",
                          "m_t = beta1 m_{t-1} + (1 - beta1) g_t", Lv));
    s.push_back(real_spec("beta2", 0, 0.99999, 0.999, "Adam/AdamW second-moment decay (torch betas[1])",
                          "v_t = beta2 v_{t-1} + (1 - beta2) g_t^2", Lv));
    s.push_back(real_spec("eps", 1e-12, 1, 1e-8,
                          "added to the root in AdaGrad / RMSProp / Adam(W), outside the square root as "
                          "in torch (torch Adagrad's default is 1e-10)",
                          "theta -= lr m_hat / (sqrt(v_hat) + eps)", Lv, true));
    s.push_back(real_spec("alpha", 0, 0.9999, 0.99,
                          "RMSProp decay of the squared-gradient average (torch.optim.RMSprop alpha)",
                          "sq_t = alpha sq_{t-1} + (1 - alpha) g_t^2", Lv));
    s.push_back(real_spec("weight_decay", 0, 1, 0,
                          "L2 penalty added to the gradient (g += wd theta), every racer; AdamW: "
                          "decoupled decay theta *= 1 - lr wd (torch AdamW default 1e-2)",
                          "g_t = grad f(theta_t) + weight_decay theta_t", Lv));
    s.push_back(real_spec("lr_decay", 0, 1, 0, "AdaGrad learning-rate decay (torch.optim.Adagrad)",
                          "clr = lr / (1 + (t - 1) lr_decay)", Lv));
    s.push_back(real_spec("initial_accumulator_value", 0, 10, 0,
                          "AdaGrad's initial sum (torch.optim.Adagrad)", "sum_0 = value", R));
    s.push_back(bool_spec("centered", false, "RMSProp divides by the centred second moment (torch)",
                          "avg = sqrt(sq - grad_avg^2) + eps", R));
    s.push_back(bool_spec("amsgrad", false, "Adam/AdamW use the running max of v (torch amsgrad)",
                          "v_max = max(v_max, v_t)", R));
    s.push_back(int_spec("batch", 1, 1000,
                         16, "mini-batch size of the stochastic racers on finite-sum problems "
                             "(shuffled epochs, last batch smaller; batch >= n gives GD)",
                         R));
    s.push_back(real_spec("noise", 0, 10, 0,
                          "simulated gradient noise (std) of the stochastic racers on analytic "
                          "functions (every racer but gd); 0 = exact gradients",
                          "g = grad f + noise * N(0, I)", Lv));
    {
      ParamSpec c;
      c.name = "schedule";
      c.type = ParamType::Choice;
      for (int i = 0; i < kNumScheduleKinds; ++i) {
        c.choices.push_back(schedule_name(static_cast<ScheduleKind>(i)));
        c.choice_help.push_back(std::string(schedule_formula(static_cast<ScheduleKind>(i))) + ". " +
                                robbins_monro(ScheduleConfig{static_cast<ScheduleKind>(i)}).note);
      }
      c.def = 0;
      c.help = "learning-rate schedule applied to every racer's lr (t = updates made so far)";
      c.update = Lv;
      s.push_back(c);
    }
    s.push_back(int_spec("step_size", 1, 100000, 100, "step schedule: updates between decays (StepLR)",
                         Lv));
    s.push_back(real_spec("gamma", 0.01, 1, 0.5, "step schedule: decay factor (StepLR gamma)",
                          "eta_t = eta_0 gamma^floor(t / step_size)", Lv));
    s.push_back(real_spec("decay", 0, 10, 0.01, "inv_t / inv_sqrt_t schedules: decay rate",
                          "eta_t = eta_0 / (1 + decay t)  or  eta_0 / sqrt(1 + decay t)", Lv, false));
    s.push_back(int_spec("t_max", 1, 1000000, 1000, "cosine schedule: half period (CosineAnnealingLR T_max)",
                         Lv));
    s.push_back(real_spec("eta_min", 0, 1, 0, "cosine schedule: the floor (CosineAnnealingLR eta_min)",
                          "eta_t = eta_min + (eta_0 - eta_min)(1 + cos(pi t / t_max)) / 2", Lv));
    s.push_back(bool_spec("average", false,
                          "Polyak averaging: show the running mean of the iterates (torch "
                          "swa_utils.AveragedModel's mean)",
                          "theta_bar_t = 1/(t+1) sum_{k<=t} theta_k", Lv));
    {
      ParamSpec st;
      st.name = "start";
      st.components = {"start_x", "start_y"};
      st.help = "start point x,y of every racer (e.g. --set start=-1.5,2)";
      st.update = R;
      s.push_back(st);
    }
    s.push_back(real_spec("start_x", -100, 100, -1.5, "first coordinate of the start point", "theta_0", R));
    s.push_back(real_spec("start_y", -100, 100, 2.0, "second coordinate of the start point", "theta_0", R));
    s.push_back(int_spec("max_iter", 1, 10000000, 10000, "iteration budget of every racer", Lv));
    s.push_back(real_spec("tol", 0, 1, 1e-8,
                          "a racer has converged when the full-batch gradient norm falls below tol",
                          "||grad f(theta_t)|| < tol", Lv));
    for (int i = 0; i < kNumOptimizerKinds; ++i) {
      const std::string n = optimizer_name(static_cast<OptimizerKind>(i));
      s.push_back(bool_spec("race_" + n, kRaceOn[i],
                            "race " + std::string(optimizer_title(static_cast<OptimizerKind>(i))) +
                                " alongside the primary (joining mid-run, it catches up from the start)",
                            kOptHelp[i], Lv));
    }
    for (int i = 0; i < kNumOptimizerKinds; ++i) {
      const std::string n = optimizer_name(static_cast<OptimizerKind>(i));
      s.push_back(real_spec("lr_" + n, 1e-5, 10, kRaceLr[i],
                            "learning rate of " + std::string(optimizer_title(static_cast<OptimizerKind>(i))) +
                                " when it races as a non-primary",
                            kOptHelp[i], Lv, true));
    }
    // The panel shows a problem's or a schedule's own settings only while it is chosen.
    const std::string analytic = "function=quadratic|rosenbrock|himmelblau|beale|saddle|many_minima|custom";
    const std::pair<const char*, std::string> shown[] = {
        {"expr", "function=custom"},
        {"kappa", "function=quadratic"},
        {"angle", "function=quadratic"},
        {"standardize", "function=least_squares"},
        {"data", "function=least_squares|logistic"},
        {"batch", "function=least_squares|logistic"},
        {"noise", analytic},
        {"step_size", "schedule=step"},
        {"gamma", "schedule=step"},
        {"decay", "schedule=inv_t|inv_sqrt_t"},
        {"t_max", "schedule=cosine"},
        {"eta_min", "schedule=cosine"},
    };
    for (const auto& [name, cond] : shown)
      for (ParamSpec& p : s)
        if (p.name == name) p.shown_if = cond;
    return s;
  }();
  return kSpecs;
}

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
    m.metrics = {
        {"loss", "f(theta_t) of the primary optimizer (full batch)", true},
        {"x", "first coordinate of the primary's iterate theta_t", false},
        {"y", "second coordinate of the primary's iterate theta_t", false},
        {"grad_norm", "||grad f(theta_t)|| of the primary (full batch)", true},
        {"dist_to_opt", "||theta_t - theta*||, distance to the nearest known minimum (NaN if unknown)",
         true},
        {"lr", "learning rate of the update that produced theta_t (eta_0 at t = 0), after the schedule",
         true},
    };
    m.sub_steps = {"gradient", "update"};
    m.needs_dataset = false;
    m.default_cli_steps = 500;
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
    return k == p.primary ? p.lr : p.race_lr[static_cast<int>(k)];
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
  c.weight_decay = p.weight_decay;
  switch (k) {
    case OptimizerKind::GD:
    case OptimizerKind::SGD: c.momentum = 0; break;
    case OptimizerKind::Momentum:
      c.momentum = p.momentum;
      c.dampening = p.dampening;
      c.nesterov = p.nesterov;
      break;
    case OptimizerKind::Nesterov:
      c.momentum = p.momentum;
      c.dampening = 0;
      c.nesterov = true;
      break;
    case OptimizerKind::AdaGrad:
      c.eps = p.eps;
      c.lr_decay = p.lr_decay;
      c.initial_accumulator_value = p.initial_accumulator_value;
      break;
    case OptimizerKind::RMSProp:
      c.eps = p.eps;
      c.alpha = p.alpha;
      c.centered = p.centered;
      c.momentum = 0;
      break;
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
      c.eps = p.eps;
      c.beta1 = p.beta1;
      c.beta2 = p.beta2;
      c.amsgrad = p.amsgrad;
      break;
  }
  return c;
}

Racer Optimizers::State::make_racer(OptimizerKind k) const {
  Racer r;
  r.st.kind = k;
  r.st.name = optimizer_name(k);
  r.st.primary = k == p.primary;
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
    if (k == p.primary || !p.race[i]) continue;
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

Optimizers::Optimizers() : st_(std::make_unique<State>()) {}
Optimizers::~Optimizers() = default;
Optimizers::Optimizers(const Optimizers& o) : st_(std::make_unique<State>(*o.st_)) {}
std::unique_ptr<Module> Optimizers::clone() const { return std::make_unique<Optimizers>(*this); }

void Optimizers::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const ParamValues v = validated(params(), values);
  Params p;
  p.land.kind = static_cast<LandscapeKind>(get_choice(v, "function"));
  p.land.kappa = get_real(v, "kappa");
  p.land.angle = get_real(v, "angle");
  p.land.expr = get_text(v, "expr");
  p.land.standardize = get_bool(v, "standardize");
  p.loaded_data = get_choice(v, "data") == 1;
  p.primary = static_cast<OptimizerKind>(get_choice(v, "optimizer"));
  p.lr = get_real(v, "lr");
  p.momentum = get_real(v, "momentum");
  p.dampening = get_real(v, "dampening");
  p.nesterov = get_bool(v, "nesterov");
  p.beta1 = get_real(v, "beta1");
  p.beta2 = get_real(v, "beta2");
  p.eps = get_real(v, "eps");
  p.alpha = get_real(v, "alpha");
  p.weight_decay = get_real(v, "weight_decay");
  p.lr_decay = get_real(v, "lr_decay");
  p.initial_accumulator_value = get_real(v, "initial_accumulator_value");
  p.centered = get_bool(v, "centered");
  p.amsgrad = get_bool(v, "amsgrad");
  p.batch = get_int(v, "batch");
  p.noise = get_real(v, "noise");
  p.schedule.kind = static_cast<ScheduleKind>(get_choice(v, "schedule"));
  p.schedule.step_size = get_int(v, "step_size");
  p.schedule.gamma = get_real(v, "gamma");
  p.schedule.decay = get_real(v, "decay");
  p.schedule.t_max = get_int(v, "t_max");
  p.schedule.eta_min = get_real(v, "eta_min");
  p.average = get_bool(v, "average");
  p.start = Eigen::Vector2d(get_real(v, "start_x"), get_real(v, "start_y"));
  p.max_iter = get_int(v, "max_iter");
  p.tol = get_real(v, "tol");
  for (int i = 0; i < kNumOptimizerKinds; ++i) {
    const std::string n = optimizer_name(static_cast<OptimizerKind>(i));
    p.race[i] = get_bool(v, "race_" + n);
    p.race_lr[i] = get_real(v, "lr_" + n);
  }
  if (p.nesterov && p.dampening != 0)
    throw std::invalid_argument(
        "parameter 'nesterov': Nesterov momentum requires dampening = 0 (as torch.optim.SGD), got "
        "dampening " + fmt_g(p.dampening) + "; set dampening=0 or nesterov=false");

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
  st->racers.push_back(st->make_racer(p.primary));
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
  const ParamSpec* s = find_param(params(), name);
  if (!s || s->update != ParamUpdate::Live || s->type == ParamType::Text) {
    Module::set_live(name, value);
    return;
  }
  if (!std::isfinite(value) || value < s->min || value > s->max ||
      ((s->type == ParamType::Int || s->type == ParamType::Bool || s->type == ParamType::Choice) &&
       value != std::floor(value)))
    throw std::invalid_argument("parameter '" + name + "': expected a value in [" + fmt_g(s->min) +
                                ", " + fmt_g(s->max) + "], got " + fmt_g(value));
  State& m = *st_;
  Params p = m.p;
  bool roster = false;
  if (name == "lr") p.lr = value;
  else if (name == "momentum") p.momentum = value;
  else if (name == "dampening") p.dampening = value;
  else if (name == "nesterov") p.nesterov = value != 0;
  else if (name == "beta1") p.beta1 = value;
  else if (name == "beta2") p.beta2 = value;
  else if (name == "eps") p.eps = value;
  else if (name == "alpha") p.alpha = value;
  else if (name == "weight_decay") p.weight_decay = value;
  else if (name == "lr_decay") p.lr_decay = value;
  else if (name == "noise") p.noise = value;
  else if (name == "schedule") p.schedule.kind = static_cast<ScheduleKind>(static_cast<int>(value));
  else if (name == "step_size") p.schedule.step_size = static_cast<int>(value);
  else if (name == "gamma") p.schedule.gamma = value;
  else if (name == "decay") p.schedule.decay = value;
  else if (name == "t_max") p.schedule.t_max = static_cast<int>(value);
  else if (name == "eta_min") p.schedule.eta_min = value;
  else if (name == "average") p.average = value != 0;
  else if (name == "max_iter") p.max_iter = static_cast<int>(value);
  else if (name == "tol") p.tol = value;
  else {
    bool done = false;
    for (int i = 0; i < kNumOptimizerKinds && !done; ++i) {
      const std::string n = optimizer_name(static_cast<OptimizerKind>(i));
      if (name == "race_" + n) {
        p.race[i] = value != 0;
        roster = true;
        done = true;
      } else if (name == "lr_" + n) {
        p.race_lr[i] = value;
        done = true;
      }
    }
    if (!done) {
      Module::set_live(name, value);
      return;
    }
  }
  if (p.nesterov && p.dampening != 0)
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
    out->status = Status::Failed;
    out->message = "optimizers: not reset yet";
    out->metrics.assign(info().metrics.size(), kNaN);
    s.cache = out;
    return out;
  }
  out->iteration = s.iteration;
  out->phase = s.phase;
  out->status = s.module_status(&out->message);
  out->landscape = s.land;
  Eigen::Matrix2d h;
  if (s.land->constant_hessian(&h)) out->theory = quadratic_theory(h, s.p.lr);
  out->schedule_note = robbins_monro(s.p.schedule).note;
  for (const Racer& r : s.racers) {
    out->racers.push_back(s.publish(r));
    out->measured_rate.push_back(s.measured_rate(r));
  }
  const RacerState& pr = out->racers.front();
  out->metrics = {pr.loss, pr.theta.x(), pr.theta.y(), pr.grad_norm, pr.dist_to_opt,
                s.racers.front().last_lr};
  s.cache = out;
  return out;
}

}  // namespace cilab
