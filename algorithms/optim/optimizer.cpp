// The optimizer kernels (see optimizer.h for the equations). One elementwise
// pass per step; within an element the operations are done in the order and
// precision torch.optim 1.13's single-tensor code does them (each torch
// in-place op is elementwise, so fusing them per element changes no rounding):
//   tensor.add(other, alpha=a)      -> fma(T(a), y, x)
//   tensor.addcmul_(a, b, value=v)  -> fma(T(v) * a, b, x)
//   tensor.addcdiv_(a, b, value=v)  -> x + (T(v) * a) / b   (no fusion)
//   tensor.mul_(s), tensor / s      -> x * T(s), x / T(s)
// The fused forms are what torch's CPU kernels compute on an FMA machine
// (measured against torch 1.13 on this platform: add-with-alpha and addcmul
// round once, addcdiv and division do not); std::fma gives the same result
// everywhere (a libm call where the CPU has no FMA).
// Python-side scalars (1 - beta1, lr / bc1, sqrt(bc2), ...) are computed in
// double and rounded to the parameter type T, as torch does for CPU kernels.
// Buffer slots per kind (State::buf):
//   SGD family  0 momentum_buffer (created by the first step, = g, as torch)
//   AdaGrad     0 sum (initial_accumulator_value)
//   RMSProp     0 square_avg, 1 momentum_buffer (momentum > 0), 2 grad_avg (centered)
//   Adam/AdamW  0 exp_avg, 1 exp_avg_sq, 2 max_exp_avg_sq (amsgrad)
#include "algorithms/optim/optimizer.h"

#include "algorithms/core/parallel.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <sstream>
#include <stdexcept>

// No fused multiply-add contraction (-march=native would allow it): every
// operation rounds separately, like torch's CPU kernels and Python floats, so
// trajectories agree with torch.optim to the last bit or nearly (bench/).
#pragma GCC optimize("fp-contract=off")

namespace cilab {

namespace {

const char* const kNames[kNumOptimizerKinds] = {"gd",      "sgd",     "momentum", "nesterov",
                                                "adagrad", "rmsprop", "adam",     "adamw"};
const char* const kTitles[kNumOptimizerKinds] = {"GD",      "SGD",     "Momentum", "Nesterov",
                                                 "AdaGrad", "RMSProp", "Adam",     "AdamW"};

bool sgd_family(OptimizerKind k) {
  return k == OptimizerKind::GD || k == OptimizerKind::SGD || k == OptimizerKind::Momentum ||
         k == OptimizerKind::Nesterov;
}
bool adam_family(OptimizerKind k) { return k == OptimizerKind::Adam || k == OptimizerKind::AdamW; }

std::string num(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

[[noreturn]] void bad(const std::string& field, double value, const std::string& range,
                      const std::string& tip) {
  throw std::invalid_argument("optimizer parameter '" + field + "': expected " + range + ", got " +
                              num(value) + "; " + tip);
}

template <typename T>
Optimizer::State<T>& state_of(Optimizer::State<double>& d, Optimizer::State<float>& f);
template <>
Optimizer::State<double>& state_of<double>(Optimizer::State<double>& d, Optimizer::State<float>&) {
  return d;
}
template <>
Optimizer::State<float>& state_of<float>(Optimizer::State<double>&, Optimizer::State<float>& f) {
  return f;
}

}  // namespace

const char* optimizer_name(OptimizerKind kind) { return kNames[static_cast<int>(kind)]; }
const char* optimizer_title(OptimizerKind kind) { return kTitles[static_cast<int>(kind)]; }

namespace {
const char* const kHelp[kNumOptimizerKinds] = {
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

const char* optimizer_help(OptimizerKind kind) { return kHelp[static_cast<int>(kind)]; }

OptimizerKind optimizer_from_name(const std::string& name) {
  std::string known;
  for (int i = 0; i < kNumOptimizerKinds; ++i) {
    if (name == kNames[i]) return static_cast<OptimizerKind>(i);
    known += (i ? ", " : "") + std::string(kNames[i]);
  }
  throw std::invalid_argument("unknown optimizer '" + name + "'; known optimizers: " + known);
}

std::string torch_equivalent(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::GD: return "torch.optim.SGD(params, lr) with full-batch gradients";
    case OptimizerKind::SGD: return "torch.optim.SGD(params, lr) with mini-batch gradients";
    case OptimizerKind::Momentum:
      return "torch.optim.SGD(params, lr, momentum, dampening, nesterov=False)";
    case OptimizerKind::Nesterov: return "torch.optim.SGD(params, lr, momentum, nesterov=True)";
    case OptimizerKind::AdaGrad:
      return "torch.optim.Adagrad(params, lr, lr_decay, weight_decay, initial_accumulator_value, eps)";
    case OptimizerKind::RMSProp:
      return "torch.optim.RMSprop(params, lr, alpha, eps, weight_decay, momentum, centered)";
    case OptimizerKind::Adam:
      return "torch.optim.Adam(params, lr, betas=(beta1, beta2), eps, weight_decay, amsgrad)";
    case OptimizerKind::AdamW:
      return "torch.optim.AdamW(params, lr, betas=(beta1, beta2), eps, weight_decay, amsgrad)";
  }
  return "";
}

OptimizerConfig OptimizerConfig::defaults(OptimizerKind kind) {
  OptimizerConfig c;
  c.kind = kind;
  switch (kind) {
    case OptimizerKind::GD:
    case OptimizerKind::SGD: c.lr = 1e-3; break;
    case OptimizerKind::Momentum: c.lr = 1e-3; c.momentum = 0.9; break;
    case OptimizerKind::Nesterov: c.lr = 1e-3; c.momentum = 0.9; c.nesterov = true; break;
    case OptimizerKind::AdaGrad: c.lr = 1e-2; c.eps = 1e-10; break;
    case OptimizerKind::RMSProp: c.lr = 1e-2; c.eps = 1e-8; c.alpha = 0.99; break;
    case OptimizerKind::Adam: c.lr = 1e-3; break;
    case OptimizerKind::AdamW: c.lr = 1e-3; c.weight_decay = 1e-2; break;
  }
  return c;
}

void OptimizerConfig::validate() const {
  const int k = static_cast<int>(kind);
  if (k < 0 || k >= kNumOptimizerKinds)
    throw std::invalid_argument("optimizer kind " + std::to_string(k) + " out of range 0.." +
                                std::to_string(kNumOptimizerKinds - 1));
  auto finite = [](double v) { return std::isfinite(v); };
  if (!finite(lr) || lr < 0) bad("lr", lr, "a finite value >= 0", "try 0.01");
  if (!finite(weight_decay) || weight_decay < 0)
    bad("weight_decay", weight_decay, "a finite value >= 0", "try 0 or 1e-2");
  if (!finite(eps) || eps < 0) bad("eps", eps, "a finite value >= 0", "try 1e-8");
  if (sgd_family(kind) || kind == OptimizerKind::RMSProp) {
    if (!finite(momentum) || momentum < 0) bad("momentum", momentum, "a value >= 0", "try 0.9");
  }
  if (sgd_family(kind)) {
    if (!finite(dampening) || dampening < 0 || dampening > 1)
      bad("dampening", dampening, "a value in [0, 1]", "try 0");
    const bool nest = nesterov || kind == OptimizerKind::Nesterov;
    if (nest && (momentum <= 0 || dampening != 0))
      throw std::invalid_argument(
          "optimizer parameter 'nesterov': Nesterov momentum requires momentum > 0 and dampening = 0 "
          "(as torch.optim.SGD), got momentum " + num(momentum) + ", dampening " + num(dampening) +
          "; try momentum=0.9, dampening=0");
  }
  if (adam_family(kind)) {
    if (!finite(beta1) || beta1 < 0 || beta1 >= 1) bad("beta1", beta1, "a value in [0, 1)", "try 0.9");
    if (!finite(beta2) || beta2 < 0 || beta2 >= 1)
      bad("beta2", beta2, "a value in [0, 1)", "try 0.999");
  }
  if (kind == OptimizerKind::RMSProp && (!finite(alpha) || alpha < 0 || alpha >= 1))
    bad("alpha", alpha, "a value in [0, 1)", "try 0.99");
  if (kind == OptimizerKind::AdaGrad) {
    if (!finite(lr_decay) || lr_decay < 0) bad("lr_decay", lr_decay, "a value >= 0", "try 0");
    if (!finite(initial_accumulator_value) || initial_accumulator_value < 0)
      bad("initial_accumulator_value", initial_accumulator_value, "a value >= 0", "try 0");
  }
}

Optimizer::Optimizer(const OptimizerConfig& config, size_t n) : config_(config), n_(n) {
  config_.validate();
  if (config_.kind == OptimizerKind::Nesterov) config_.nesterov = true;
}

void Optimizer::set_config(const OptimizerConfig& config) {
  if (config.kind != config_.kind)
    throw std::invalid_argument(std::string("Optimizer::set_config: the kind cannot change (") +
                                optimizer_name(config_.kind) + " -> " +
                                optimizer_name(config.kind) + "); make a new Optimizer");
  config.validate();
  config_ = config;
  if (config_.kind == OptimizerKind::Nesterov) config_.nesterov = true;
}

void Optimizer::reset_state() {
  steps_ = 0;
  precision_ = 0;
  last_lr_ = 0.0;
  sd_ = State<double>();
  sf_ = State<float>();
}

namespace {

// An elementwise update over n parameters: f(i0, i1) on fixed chunks of kStepChunk, on the pool
// once there are at least kStepParallelMin of them (a network's hundreds of thousands; the
// optimizer lessons' two coordinates stay on the caller's thread, with no call into the pool).
constexpr size_t kStepChunk = 16384;
constexpr size_t kStepParallelMin = 65536;
template <class F>
void for_chunks(size_t n, const F& f) {
  const int blocks = static_cast<int>((n + kStepChunk - 1) / kStepChunk);
  const int threads = n < kStepParallelMin ? 1 : parallel_threads(blocks, double(n), double(kStepParallelMin));
  if (threads <= 1) {
    f(size_t(0), n);
    return;
  }
  parallel_for_blocks(blocks, threads, [&](int b) { f(size_t(b) * kStepChunk, std::min(n, size_t(b + 1) * kStepChunk)); });
}

}  // namespace

template <typename T>
void Optimizer::step_impl(T* p, const T* g, double lr) {
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const int want = sizeof(T) == sizeof(double) ? 1 : 2;
  if (precision_ == 0) precision_ = want;
  if (precision_ != want)
    throw std::logic_error("Optimizer::step: double and float steps mixed on one Optimizer");
  State<T>& s = state_of<T>(sd_, sf_);
  const OptimizerConfig& c = config_;
  const size_t n = n_;
  const bool first = steps_ == 0;
  ++steps_;
  last_lr_ = lr;
  const double t = static_cast<double>(steps_);
  const T wd = static_cast<T>(c.weight_decay);
  const bool has_wd = c.weight_decay != 0;

  switch (c.kind) {
    case OptimizerKind::GD:
    case OptimizerKind::SGD:
    case OptimizerKind::Momentum:
    case OptimizerKind::Nesterov: {
      const T neg_lr = static_cast<T>(-lr);
      if (c.momentum == 0) {
        for_chunks(n, [=](size_t i0, size_t i1) {
          for (size_t i = i0; i < i1; ++i) {
            T d = g[i];
            if (has_wd) d = std::fma(wd, p[i], d);
            p[i] = std::fma(neg_lr, d, p[i]);
          }
        });
        break;
      }
      const T mom = static_cast<T>(c.momentum);
      const T one_minus_damp = static_cast<T>(1 - c.dampening);
      if (s.buf[0].size() != static_cast<Eigen::Index>(n)) s.buf[0] = Vec::Zero(n);
      T* b = s.buf[0].data();
      const bool new_buf = first || !s.has_buf;
      s.has_buf = true;
      const bool nesterov = c.nesterov;
      for_chunks(n, [=](size_t i0, size_t i1) {
        for (size_t i = i0; i < i1; ++i) {
          T d = g[i];
          if (has_wd) d = std::fma(wd, p[i], d);
          if (new_buf) b[i] = d;
          else b[i] = std::fma(one_minus_damp, d, b[i] * mom);
          if (nesterov) d = std::fma(mom, b[i], d);
          else d = b[i];
          p[i] = std::fma(neg_lr, d, p[i]);
        }
      });
      break;
    }
    case OptimizerKind::AdaGrad: {
      if (first) s.buf[0] = Vec::Constant(n, static_cast<T>(c.initial_accumulator_value));
      const double clr = lr / (1 + (t - 1) * c.lr_decay);
      const T neg_clr = static_cast<T>(-clr);
      const T eps = static_cast<T>(c.eps);
      T* sum = s.buf[0].data();
      for (size_t i = 0; i < n; ++i) {
        T d = g[i];
        if (has_wd) d = std::fma(wd, p[i], d);
        sum[i] = std::fma(T(1) * d, d, sum[i]);
        const T stdv = std::sqrt(sum[i]) + eps;
        p[i] = p[i] + (neg_clr * d) / stdv;
      }
      break;
    }
    case OptimizerKind::RMSProp: {
      if (first) {
        s.buf[0] = Vec::Zero(n);
        if (c.momentum > 0) s.buf[1] = Vec::Zero(n);
        if (c.centered) s.buf[2] = Vec::Zero(n);
      }
      // Live changes may switch momentum / centered on after the first step.
      if (c.momentum > 0 && s.buf[1].size() != static_cast<Eigen::Index>(n)) s.buf[1] = Vec::Zero(n);
      if (c.centered && s.buf[2].size() != static_cast<Eigen::Index>(n)) s.buf[2] = Vec::Zero(n);
      const T alpha = static_cast<T>(c.alpha);
      const T one_minus_alpha = static_cast<T>(1 - c.alpha);
      const T eps = static_cast<T>(c.eps);
      const T neg_lr = static_cast<T>(-lr);
      const T mom = static_cast<T>(c.momentum);
      T* sq = s.buf[0].data();
      T* buf = c.momentum > 0 ? s.buf[1].data() : nullptr;
      T* ga = c.centered ? s.buf[2].data() : nullptr;
      for (size_t i = 0; i < n; ++i) {
        T d = g[i];
        if (has_wd) d = std::fma(wd, p[i], d);
        sq[i] = std::fma(one_minus_alpha * d, d, sq[i] * alpha);
        T avg;
        if (ga) {
          ga[i] = std::fma(one_minus_alpha, d, ga[i] * alpha);
          avg = std::sqrt(std::fma(T(-1) * ga[i], ga[i], sq[i]));
        } else {
          avg = std::sqrt(sq[i]);
        }
        avg = avg + eps;
        if (buf) {
          buf[i] = buf[i] * mom + (T(1) * d) / avg;
          p[i] = std::fma(neg_lr, buf[i], p[i]);
        } else {
          p[i] = p[i] + (neg_lr * d) / avg;
        }
      }
      break;
    }
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: {
      if (first) {
        s.buf[0] = Vec::Zero(n);
        s.buf[1] = Vec::Zero(n);
        if (c.amsgrad) s.buf[2] = Vec::Zero(n);
      }
      if (c.amsgrad && s.buf[2].size() != static_cast<Eigen::Index>(n)) s.buf[2] = Vec::Zero(n);
      const bool decoupled = c.kind == OptimizerKind::AdamW;
      const T decay = static_cast<T>(1 - lr * c.weight_decay);
      const T beta1 = static_cast<T>(c.beta1);
      const T beta2 = static_cast<T>(c.beta2);
      const T omb1 = static_cast<T>(1 - c.beta1);
      const T omb2 = static_cast<T>(1 - c.beta2);
      const double bc1 = 1 - std::pow(c.beta1, t);
      const double bc2 = 1 - std::pow(c.beta2, t);
      const T neg_step = static_cast<T>(-(lr / bc1));
      const T bc2_sqrt = static_cast<T>(std::sqrt(bc2));
      const T eps = static_cast<T>(c.eps);
      T* m = s.buf[0].data();
      T* v = s.buf[1].data();
      T* vmax = c.amsgrad ? s.buf[2].data() : nullptr;
      // One branch-free loop per (decoupled, weight decay, amsgrad) case, so the
      // compiler vectorises it (with -fno-math-errno for this file: CMakeLists.txt).
      // Every element sees the same operations in the same order as before:
      // vector fma, sqrt and division are IEEE-exact per lane, so the results
      // (and the 0-ulp agreement with torch) do not change.
      // A network's parameters go in fixed chunks on the pool (for_chunks); each element's update
      // reads only its own entries, so any split gives the same bits. The chunk body captures
      // everything by value: the loop then sees plain locals and vectorises as before.
      auto run = [&](auto dec_c, auto wd_c, auto ams_c) {
        for_chunks(n, [=](size_t i0, size_t i1) {
        constexpr bool kDec = decltype(dec_c)::value, kWd = decltype(wd_c)::value, kAms = decltype(ams_c)::value;
        for (size_t i = i0; i < i1; ++i) {
          T d = g[i];
          if constexpr (kDec) p[i] = p[i] * decay;
          else if constexpr (kWd) d = std::fma(wd, p[i], d);
          m[i] = std::fma(omb1, d, m[i] * beta1);
          v[i] = std::fma(omb2 * d, d, v[i] * beta2);
          T denom;
          if constexpr (kAms) {
            vmax[i] = std::max(vmax[i], v[i]);
            denom = std::sqrt(vmax[i]) / bc2_sqrt + eps;
          } else {
            denom = std::sqrt(v[i]) / bc2_sqrt + eps;
          }
          p[i] = p[i] + (neg_step * m[i]) / denom;
        }
        });
      };
      using Yes = std::true_type;
      using No = std::false_type;
      if (decoupled) {
        if (vmax) run(Yes{}, No{}, Yes{});
        else run(Yes{}, No{}, No{});
      } else if (has_wd) {
        if (vmax) run(No{}, Yes{}, Yes{});
        else run(No{}, Yes{}, No{});
      } else {
        if (vmax) run(No{}, No{}, Yes{});
        else run(No{}, No{}, No{});
      }
      break;
    }
  }
}

void Optimizer::step(Eigen::Ref<Eigen::VectorXd> theta, const Eigen::Ref<const Eigen::VectorXd>& grad,
                     double lr) {
  if (static_cast<size_t>(theta.size()) != n_ || static_cast<size_t>(grad.size()) != n_)
    throw std::invalid_argument("Optimizer::step: theta has " + std::to_string(theta.size()) +
                                " and grad " + std::to_string(grad.size()) +
                                " entries, the optimizer was made for " + std::to_string(n_));
  step_impl<double>(theta.data(), grad.data(), lr);
}

void Optimizer::step(Eigen::Ref<Eigen::VectorXf> theta, const Eigen::Ref<const Eigen::VectorXf>& grad,
                     double lr) {
  if (static_cast<size_t>(theta.size()) != n_ || static_cast<size_t>(grad.size()) != n_)
    throw std::invalid_argument("Optimizer::step: theta has " + std::to_string(theta.size()) +
                                " and grad " + std::to_string(grad.size()) +
                                " entries, the optimizer was made for " + std::to_string(n_));
  step_impl<float>(theta.data(), grad.data(), lr);
}

void Optimizer::step(double* theta, const double* grad, double lr) {
  step_impl<double>(theta, grad, lr);
}
void Optimizer::step(float* theta, const float* grad, double lr) { step_impl<float>(theta, grad, lr); }

bool Optimizer::supports_sparse_steps() const {
  const OptimizerKind k = config_.kind;
  if (config_.weight_decay != 0) return false;
  if (k == OptimizerKind::AdaGrad) return true;
  return (k == OptimizerKind::GD || k == OptimizerKind::SGD) && config_.momentum == 0;
}

template <typename T>
void Optimizer::step_rows_impl(T* p, const T* g, double lr, const int32_t* rows, size_t nrows, size_t row_len) {
  if (!supports_sparse_steps())
    throw std::logic_error(std::string("Optimizer::step_rows: ") + optimizer_name(config_.kind) +
                           (config_.weight_decay != 0 ? " with weight_decay" : " with momentum") +
                           " moves rows whose gradient is zero; use step() or sgd/adagrad without decay");
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const int want = sizeof(T) == sizeof(double) ? 1 : 2;
  if (precision_ == 0) precision_ = want;
  if (precision_ != want)
    throw std::logic_error("Optimizer::step_rows: double and float steps mixed on one Optimizer");
  State<T>& s = state_of<T>(sd_, sf_);
  const OptimizerConfig& c = config_;
  const bool first = steps_ == 0;
  ++steps_;
  last_lr_ = lr;
  if (c.kind != OptimizerKind::AdaGrad) {
    const T neg_lr = static_cast<T>(-lr);
    for (size_t i = 0; i < nrows; ++i) {
      T* pr = p + static_cast<size_t>(rows[i]) * row_len;
      const T* gr = g + i * row_len;
      for (size_t j = 0; j < row_len; ++j) pr[j] = std::fma(neg_lr, gr[j], pr[j]);
    }
    return;
  }
  // AdaGrad, as step_impl's loop restricted to the rows.
  if (first) s.buf[0] = Vec::Constant(static_cast<Eigen::Index>(n_), static_cast<T>(c.initial_accumulator_value));
  const double clr = lr / (1 + (static_cast<double>(steps_) - 1) * c.lr_decay);
  const T neg_clr = static_cast<T>(-clr);
  const T eps = static_cast<T>(c.eps);
  for (size_t i = 0; i < nrows; ++i) {
    const size_t off = static_cast<size_t>(rows[i]) * row_len;
    T* pr = p + off;
    T* sum = s.buf[0].data() + off;
    const T* gr = g + i * row_len;
    for (size_t j = 0; j < row_len; ++j) {
      const T d = gr[j];
      sum[j] = std::fma(T(1) * d, d, sum[j]);
      const T stdv = std::sqrt(sum[j]) + eps;
      pr[j] = pr[j] + (neg_clr * d) / stdv;
    }
  }
}

void Optimizer::step_rows(float* theta, const float* grad_rows, double lr, const int32_t* rows, size_t nrows,
                          size_t row_len) {
  step_rows_impl<float>(theta, grad_rows, lr, rows, nrows, row_len);
}
void Optimizer::step_rows(double* theta, const double* grad_rows, double lr, const int32_t* rows, size_t nrows,
                          size_t row_len) {
  step_rows_impl<double>(theta, grad_rows, lr, rows, nrows, row_len);
}

template void Optimizer::step_impl<double>(double*, const double*, double);
template void Optimizer::step_impl<float>(float*, const float*, double);

namespace {
template <typename T>
Eigen::VectorXd as_double(const Eigen::Matrix<T, Eigen::Dynamic, 1>& v) {
  return v.template cast<double>();
}
}  // namespace

Eigen::VectorXd Optimizer::buffer(OptimizerBuffer which) const {
  int slot = -1;
  const OptimizerKind k = config_.kind;
  switch (which) {
    case OptimizerBuffer::MomentumBuffer:
      slot = sgd_family(k) ? 0 : (k == OptimizerKind::RMSProp ? 1 : -1);
      break;
    case OptimizerBuffer::ExpAvg: slot = adam_family(k) ? 0 : -1; break;
    case OptimizerBuffer::ExpAvgSq: slot = adam_family(k) ? 1 : -1; break;
    case OptimizerBuffer::MaxExpAvgSq: slot = adam_family(k) ? 2 : -1; break;
    case OptimizerBuffer::Sum: slot = k == OptimizerKind::AdaGrad ? 0 : -1; break;
    case OptimizerBuffer::SquareAvg: slot = k == OptimizerKind::RMSProp ? 0 : -1; break;
    case OptimizerBuffer::GradAvg: slot = k == OptimizerKind::RMSProp ? 2 : -1; break;
  }
  if (slot < 0 || precision_ == 0) return Eigen::VectorXd();
  if (sgd_family(k) && !(precision_ == 1 ? sd_.has_buf : sf_.has_buf)) return Eigen::VectorXd();
  return precision_ == 1 ? as_double(sd_.buf[slot]) : as_double(sf_.buf[slot]);
}

Eigen::VectorXd Optimizer::velocity() const {
  const OptimizerKind k = config_.kind;
  Eigen::VectorXd v;
  if (sgd_family(k) || k == OptimizerKind::RMSProp) {
    v = buffer(OptimizerBuffer::MomentumBuffer);
  } else if (adam_family(k) && steps_ > 0) {
    v = buffer(OptimizerBuffer::ExpAvg) / (1 - std::pow(config_.beta1, steps_));
  }
  if (static_cast<size_t>(v.size()) != n_) v = Eigen::VectorXd::Zero(n_);
  return v;
}

Eigen::VectorXd Optimizer::effective_lr() const {
  if (steps_ == 0) return Eigen::VectorXd();
  const OptimizerConfig& c = config_;
  const double t = steps_;
  const double lr = last_lr_;
  Eigen::VectorXd e(n_);
  switch (c.kind) {
    case OptimizerKind::AdaGrad: {
      const Eigen::VectorXd sum = buffer(OptimizerBuffer::Sum);
      const double clr = lr / (1 + (t - 1) * c.lr_decay);
      for (size_t i = 0; i < n_; ++i) e[i] = clr / (std::sqrt(sum[i]) + c.eps);
      break;
    }
    case OptimizerKind::RMSProp: {
      const Eigen::VectorXd sq = buffer(OptimizerBuffer::SquareAvg);
      const Eigen::VectorXd ga = buffer(OptimizerBuffer::GradAvg);
      for (size_t i = 0; i < n_; ++i) {
        const double var = ga.size() ? sq[i] - ga[i] * ga[i] : sq[i];
        e[i] = lr / (std::sqrt(var) + c.eps);
      }
      break;
    }
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: {
      const Eigen::VectorXd v =
          buffer(c.amsgrad ? OptimizerBuffer::MaxExpAvgSq : OptimizerBuffer::ExpAvgSq);
      const double bc1 = 1 - std::pow(c.beta1, t);
      const double bc2 = 1 - std::pow(c.beta2, t);
      for (size_t i = 0; i < n_; ++i) e[i] = (lr / bc1) / (std::sqrt(v[i]) / std::sqrt(bc2) + c.eps);
      break;
    }
    default: e.setConstant(lr); break;
  }
  return e;
}

}  // namespace cilab
