// Optimizer: THE gradient-step implementation of the lab (every training
// module - optimizers, MLP, autoencoders, VAE, GAN - uses this one class on a
// flat parameter vector theta of size n, in double or float).
//
// Each kind follows the course notes (chapter 10) and, where the notes leave a
// convention open, torch.optim exactly (PyTorch 1.13 as packaged by Debian 12, single-tensor path,
// maximize=False, foreach/fused irrelevant), so a run can be reproduced in
// PyTorch step for step. g = grad (+ weight_decay * theta for the coupled
// decay of SGD / Adagrad / RMSprop / Adam), t = 1, 2, ... the step count:
//
//   gd, sgd    torch.optim.SGD(momentum=0):  theta -= lr * g
//              (gd and sgd differ only in the gradient the caller passes:
//               full-batch for gd, mini-batch / noisy for sgd.)
//   momentum   torch.optim.SGD(momentum=beta, dampening, nesterov=False):
//                b_1 = g;  b_t = beta b_{t-1} + (1 - dampening) g;  theta -= lr * b_t
//              With dampening = 0 and a constant lr this is exactly the course's
//              heavy ball theta_{k+1} = theta_k - lr grad + beta (theta_k - theta_{k-1})
//              (because theta_k - theta_{k-1} = -lr b_{k-1}).
//   nesterov   torch.optim.SGD(momentum=beta, nesterov=True):
//                b_t as above;  theta -= lr * (g + beta b_t)
//              This is the look-ahead form theta' = theta_k + beta (theta_k - theta_{k-1}),
//              theta_{k+1} = theta' - lr grad(theta') rewritten in the variable
//              phi = theta + beta * lr * b (Sutskever et al. 2013 / torch's docs):
//              the iterates are the look-ahead points, the gradient is taken there.
//   adagrad    torch.optim.Adagrad(lr, lr_decay, weight_decay, initial_accumulator_value, eps):
//                clr = lr / (1 + (t-1) lr_decay);  sum += g^2;
//                theta -= clr * g / (sqrt(sum) + eps)     (eps outside the root; torch default 1e-10)
//   rmsprop    torch.optim.RMSprop(lr, alpha, eps, weight_decay, momentum, centered):
//                sq = alpha sq + (1 - alpha) g^2   (sq_0 = 0; alpha = decay, default 0.99)
//                avg = sqrt(sq - ga^2) + eps if centered (ga = alpha ga + (1-alpha) g), else sqrt(sq) + eps
//                momentum > 0:  buf = momentum buf + g / avg;  theta -= lr * buf
//                else           theta -= lr * g / avg
//   adam       torch.optim.Adam(lr, betas=(beta1, beta2), eps, weight_decay, amsgrad):
//                m = beta1 m + (1 - beta1) g;   v = beta2 v + (1 - beta2) g^2
//                bc1 = 1 - beta1^t;  bc2 = 1 - beta2^t  (v_max = max(v_max, v) if amsgrad)
//                theta -= (lr / bc1) * m / (sqrt(v) / sqrt(bc2) + eps)
//              = the course's  theta -= lr m_hat / (sqrt(v_hat) + eps)  (eps outside the root).
//   adamw      torch.optim.AdamW: first theta *= 1 - lr * weight_decay (decoupled,
//              g is NOT augmented), then the Adam step.  torch default weight_decay 1e-2.
//
// lr passed to step() is the learning rate of THIS step (schedules are applied
// by the caller: see schedule.h), like torch's param_group["lr"] set by an
// LRScheduler before optimizer.step().
//
// Bit-exactness: the kernel reproduces torch 1.13's CPU arithmetic operation
// by operation, including which operations torch's kernels fuse into one
// rounding (add with alpha and addcmul are fused multiply-adds; addcdiv and
// division are not; see optimizer.cpp). bench/run_optimizers.sh checks it: all
// eight kinds x 10 000 Rosenbrock steps agree with torch.optim to 0 ulp.
//
// Precision: the state buffers have the precision of the parameters (first
// step() decides; mixing double and float steps on one Optimizer throws
// std::logic_error). Scalars (lr, betas, bias corrections) are computed in
// double and rounded to the parameter type where torch does.
#pragma once

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cilab {

enum class OptimizerKind { GD = 0, SGD, Momentum, Nesterov, AdaGrad, RMSProp, Adam, AdamW };
constexpr int kNumOptimizerKinds = 8;

// CLI / param name: "gd","sgd","momentum","nesterov","adagrad","rmsprop","adam","adamw".
const char* optimizer_name(OptimizerKind kind);
// Display title: "GD", "SGD", "Momentum", "Nesterov", "AdaGrad", "RMSProp", "Adam", "AdamW".
const char* optimizer_title(OptimizerKind kind);
// One line per kind: its update and its torch.optim class (option help in the GUI).
const char* optimizer_help(OptimizerKind kind);
// The kind called `name` (optimizer_name spelling). Throws std::invalid_argument
// listing the known names.
OptimizerKind optimizer_from_name(const std::string& name);
// The torch.optim class a kind maps to, e.g. "torch.optim.SGD(momentum=0.9, nesterov=True)".
std::string torch_equivalent(OptimizerKind kind);

// Hyper-parameters, torch.optim names. Fields a kind does not use are ignored.
// Defaults here are neutral; use defaults(kind) for torch's per-class defaults.
struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::GD;
  double lr = 1e-3;                        // all
  double momentum = 0.0;                   // SGD family (momentum/nesterov), RMSprop
  double dampening = 0.0;                  // SGD family
  bool nesterov = false;                   // SGD family (forced true for kind Nesterov)
  double beta1 = 0.9;                      // Adam/AdamW betas[0]
  double beta2 = 0.999;                    // Adam/AdamW betas[1]
  double eps = 1e-8;                       // AdaGrad (torch default 1e-10), RMSprop, Adam(W)
  double alpha = 0.99;                     // RMSprop decay of the squared-gradient average
  bool centered = false;                   // RMSprop
  double weight_decay = 0.0;               // all; AdamW decoupled (torch default 1e-2)
  double lr_decay = 0.0;                   // Adagrad
  double initial_accumulator_value = 0.0;  // Adagrad
  bool amsgrad = false;                    // Adam/AdamW

  // torch.optim's defaults for the class behind `kind` (lr: SGD 1e-3, Adagrad
  // 1e-2, RMSprop 1e-2, Adam(W) 1e-3; eps: Adagrad 1e-10, else 1e-8; AdamW
  // weight_decay 1e-2); momentum 0.9 for Momentum/Nesterov (torch has no
  // default there: 0.9 is the customary value), nesterov = (kind == Nesterov).
  static OptimizerConfig defaults(OptimizerKind kind);
  // Throws std::invalid_argument for the values torch rejects (lr < 0,
  // momentum < 0, betas outside [0, 1), eps < 0, weight_decay < 0, nesterov
  // with momentum <= 0 or dampening != 0, alpha outside [0, 1), ...), naming
  // the field, its range and what to try.
  void validate() const;
};

// Which state buffer to read (empty vector when the kind does not keep it).
enum class OptimizerBuffer {
  MomentumBuffer,  // SGD family "momentum_buffer", RMSprop "momentum_buffer"
  ExpAvg,          // Adam(W) m
  ExpAvgSq,        // Adam(W) v
  MaxExpAvgSq,     // Adam(W) amsgrad
  Sum,             // Adagrad "sum"
  SquareAvg,       // RMSprop "square_avg"
  GradAvg,         // RMSprop centered "grad_avg"
};

// One optimizer over a flat parameter vector of size n.
class Optimizer {
 public:
  Optimizer() = default;
  // Validates the config (std::invalid_argument) and sizes the state for n parameters.
  Optimizer(const OptimizerConfig& config, size_t n);

  // One update of theta (size n) with gradient grad (size n, of the loss at
  // theta) and this step's learning rate lr.
  void step(Eigen::Ref<Eigen::VectorXd> theta, const Eigen::Ref<const Eigen::VectorXd>& grad,
            double lr);
  void step(Eigen::Ref<Eigen::VectorXf> theta, const Eigen::Ref<const Eigen::VectorXf>& grad,
            double lr);
  // Same, with config().lr.
  void step(Eigen::Ref<Eigen::VectorXd> theta, const Eigen::Ref<const Eigen::VectorXd>& grad) {
    step(theta, grad, config_.lr);
  }
  void step(Eigen::Ref<Eigen::VectorXf> theta, const Eigen::Ref<const Eigen::VectorXf>& grad) {
    step(theta, grad, config_.lr);
  }
  // Raw-pointer form (contiguous arrays of size(), e.g. a network's flat weights).
  void step(double* theta, const double* grad, double lr);
  void step(float* theta, const float* grad, double lr);

  // A sparse step: only the rows `rows[0..nrows)` of theta (viewed as rows of
  // row_len parameters: row r is theta[r * row_len, (r + 1) * row_len)) move,
  // with gradient rows packed in grad_rows (nrows x row_len, row i for
  // rows[i]); rows must be distinct. Counts as one step. It equals a dense
  // step() whose gradient is zero outside those rows, which is a no-op on them
  // only for SGD/GD without momentum and AdaGrad, both without weight decay:
  // other kinds or weight_decay != 0 throw std::logic_error. GloVe's per-entry
  // AdaGrad (touching two rows of a |V| x d table per step) uses it.
  void step_rows(float* theta, const float* grad_rows, double lr, const int32_t* rows, size_t nrows,
                 size_t row_len);
  void step_rows(double* theta, const double* grad_rows, double lr, const int32_t* rows, size_t nrows,
                 size_t row_len);
  // Whether step_rows() is allowed for this configuration (see above).
  bool supports_sparse_steps() const;

  // Changes hyper-parameters mid-run (live sliders); the kind must not change,
  // the state is kept (like editing torch's param_group). Validates.
  void set_config(const OptimizerConfig& config);
  const OptimizerConfig& config() const { return config_; }
  OptimizerKind kind() const { return config_.kind; }

  // Forgets the state (step count 0, buffers cleared), keeps the config.
  void reset_state();

  // Number of step() calls since construction / reset_state().
  int steps() const { return steps_; }
  size_t size() const { return n_; }

  // A copy of a state buffer as double (empty if not kept by this kind or
  // before the first step for lazily created buffers, as in torch).
  Eigen::VectorXd buffer(OptimizerBuffer which) const;
  // What the race view draws as "velocity": the SGD/RMSprop momentum buffer,
  // Adam's bias-corrected first moment m_hat = m / (1 - beta1^t), otherwise
  // zeros (size n).
  Eigen::VectorXd velocity() const;
  // The per-coordinate effective step size the last step applied (the factor
  // multiplying the gradient-like direction): lr for SGD family, clr/(sqrt(sum)+eps)
  // for Adagrad, lr/avg for RMSprop, (lr/bc1)/denom for Adam(W); size n, empty before step 1.
  Eigen::VectorXd effective_lr() const;

  // Implementation detail, public so the kernel template in optimizer.cpp can use it.
  template <typename T>
  struct State {
    Eigen::Matrix<T, Eigen::Dynamic, 1> buf[4];  // per-kind slots, see optimizer.cpp
    bool has_buf = false;                        // SGD momentum buffer created
  };

 private:
  template <typename T>
  void step_impl(T* theta, const T* grad, double lr);
  template <typename T>
  void step_rows_impl(T* theta, const T* grad_rows, double lr, const int32_t* rows, size_t nrows,
                      size_t row_len);

  OptimizerConfig config_;
  size_t n_ = 0;
  int steps_ = 0;
  int precision_ = 0;  // 0 = not yet decided, 1 = double, 2 = float
  double last_lr_ = 0.0;
  State<double> sd_;
  State<float> sf_;
};

}  // namespace cilab
