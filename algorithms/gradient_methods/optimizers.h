// Optimizer race (module "optimizers", course chapter 10.1-10.9): several
// gradient methods run at once from the same start on a 2-D loss landscape
// (landscape.h), each with its own state, trajectory and status.
//
// Every racer applies, per iteration t = 0, 1, ... (sub-steps):
//   gradient:  g_t = grad f(theta_t)  (GD, and every optimizer but sgd on
//              analytic functions), or the mini-batch gradient (sgd on the
//              finite-sum problems: shuffled epochs of `batch` rows, torch
//              DataLoader(shuffle=True, drop_last=False) semantics; batch = n
//              gives GD bit for bit), or on analytic functions g + N(0, noise^2 I)
//              ("simulated" gradient noise, sgd only);
//   update:    theta_{t+1} = Optimizer::step(theta_t, g_t, eta_t), eta_t from
//              the schedule (schedule.h) applied to the racer's base lr.
// The update equations are torch.optim's (see optim/optimizer.h), so every
// run can be reproduced in PyTorch step for step.
//
// Roster: the primary racer is the `optimizer` parameter (lr = `lr`); every
// other kind joins when race_<name> is on (lr = lr_<name>). Shared
// hyper-parameters (momentum, dampening, nesterov, beta1, beta2, eps, alpha,
// weight_decay) apply to every racer that uses them.
//
// Status per racer: Running; Converged when ||grad f(theta_t)|| < tol (full
// batch); Stopped when max_iter updates are done; Diverged (diverged_at = the
// iteration) when theta or f(theta) becomes non-finite, or when
//   |f(theta_t) - f_ref| > 1e6 * max(|f(theta_0) - f_ref|, 1),
// f_ref = f* when the minimum value is known, else 0: the sub-optimality grew
// a millionfold over the start's (the floor of 1 loss unit keeps round-off
// near the optimum from counting; for unbounded f, e.g. x^2 - y^2, |f| -> inf
// is divergence too). A diverged racer stops; the others go on.
// Module status: Diverged as soon as the primary diverges (the run pauses, as
// every module's does: rewind and lower lr); otherwise Running while any racer
// runs (a finished primary says so in the message, "the race goes on"); once
// all racers are terminal, the primary's status (Converged / Stopped).
//
// Finite-sum problems (least_squares, logistic) run on the data chosen by the
// `data` parameter (the analytic functions ignore it):
//   builtin  built-in real data: Old Faithful, iris versicolor vs virginica
//            (landscape.h); the default, and the module needs no dataset
//            (needs_dataset = false).
//   loaded   the Dataset passed to reset() (the app's current dataset; the CLI
//            passes --dataset / --data when given). least_squares: x = column 0,
//            y = column 1 (more columns: the first two, said in the landscape's
//            description), `standardize` as for the built-in data; the optimum
//            is the OLS normal-equation solution. logistic: columns 0 and 1,
//            z-scored, no bias; the labels must name exactly 2 classes (the
//            smaller class id is y = 0, the larger y = 1; unlabelled rows are
//            skipped), as scikit-learn's LogisticRegression(fit_intercept=False,
//            penalty=None) on StandardScaler'd features. Linearly separable
//            classes have no finite minimiser: no optimum is reported
//            (minima() empty, dist_to_opt NaN) and the description says
//            "classes are linearly separable: no finite minimiser".
//            Unusable data (none, < 2 rows or columns, no labels or not 2
//            classes for logistic, non-finite values, a constant x / feature)
//            make reset() throw std::invalid_argument naming 'data' and what
//            to load instead.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/core/rng.h"
#include "algorithms/optim/landscape.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/optim/schedule.h"

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// Append-only 2-D trajectory with per-point loss. Full chunks are immutable
// and shared between copies (a snapshot copies the chunk pointers and the
// tail only: O(t / kChunk + kChunk), not O(t)).
class PathBuffer {
 public:
  static constexpr size_t kChunk = 512;
  struct Chunk {
    double x[kChunk];
    double y[kChunk];
    double loss[kChunk];
    uint64_t owner = 0;  // the PathBuffer allowed to append in place
  };

  PathBuffer() = default;
  // A copy shares every chunk; it never writes into chunks it did not create
  // (its first push copies the partly filled tail chunk).
  PathBuffer(const PathBuffer& o);
  PathBuffer& operator=(const PathBuffer& o);
  PathBuffer(PathBuffer&&) = default;
  PathBuffer& operator=(PathBuffer&&) = default;

  void push(const Eigen::Vector2d& p, double loss);
  size_t size() const { return size_; }
  Eigen::Vector2d point(size_t i) const;
  double loss(size_t i) const;
  double x(size_t i) const { return point(i).x(); }
  double y(size_t i) const { return point(i).y(); }
  // Appends points begin, begin+stride, ... < end (and always end-1) to xs/ys
  // (decimated polylines for drawing long runs).
  void gather(size_t begin, size_t end, size_t stride, std::vector<double>& xs,
              std::vector<double>& ys) const;
  // Bytes owned by this copy (tail) plus the shared chunks (upper bound).
  size_t byte_size() const;

 private:
  // Slots < size_ of every chunk are immutable; the owner appends at size_
  // in place (readers of older copies never read that far).
  std::vector<std::shared_ptr<Chunk>> chunks_;
  size_t size_ = 0;
  uint64_t writer_ = 0;  // this copy's writer id (0: assigned at the first push)
};

// One racer as of the last (sub-)step.
struct RacerState {
  OptimizerKind kind = OptimizerKind::GD;
  std::string name;         // optimizer_name(kind)
  bool primary = false;     // the `optimizer` parameter (CLI columns)
  Status status = Status::Running;
  std::string message;      // why Diverged / Converged / Stopped
  int diverged_at = -1;     // iteration at which it diverged, -1 if not
  int iterations = 0;       // updates made by this racer
  Eigen::Vector2d theta = Eigen::Vector2d::Zero();     // current iterate
  Eigen::Vector2d averaged = Eigen::Vector2d::Zero();  // Polyak average (== theta if averaging off)
  Eigen::Vector2d grad = Eigen::Vector2d::Zero();      // last gradient used (mini-batch / noisy for sgd)
  Eigen::Vector2d grad_at = Eigen::Vector2d::Zero();   // where it was evaluated
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();  // momentum buffer / Adam m_hat / zero
  Eigen::Vector2d step = Eigen::Vector2d::Zero();      // theta_t - theta_{t-1}
  Eigen::Vector2d effective_lr = Eigen::Vector2d::Zero();  // per-coordinate step factor (optimizer.h)
  double loss = 0.0;        // f(theta) (full batch)
  double averaged_loss = 0.0;  // f(averaged)
  double grad_norm = 0.0;   // ||grad f(theta)|| (full batch)
  double dist_to_opt = 0.0; // distance to the nearest known minimum (NaN if none known)
  double lr_now = 0.0;      // scheduled lr of the next update
  double lr = 0.0;          // base lr
  std::shared_ptr<const PathBuffer> path;  // theta_0 .. theta_t with losses
};

// Theory of the quadratic problems (quadratic, least_squares): eigenvalues of
// the constant Hessian L = lambda_max, mu = lambda_min, kappa = L / mu.
struct QuadraticTheory {
  bool valid = false;
  double L = 0, mu = 0, kappa = 0;
  double eta_max = 0;      // GD stable iff eta < 2 / L
  double eta_gd_opt = 0;   // 2 / (L + mu)
  double rate_gd_opt = 0;  // (kappa - 1) / (kappa + 1)  (error contraction per step)
  double eta_hb = 0;       // 4 / (sqrt L + sqrt mu)^2
  double beta_hb = 0;      // ((sqrt kappa - 1) / (sqrt kappa + 1))^2
  double rate_hb = 0;      // (sqrt kappa - 1) / (sqrt kappa + 1)
  double rate_gd_at_lr = 0;  // max(|1 - lr mu|, |1 - lr L|): GD's rate at the primary's lr
};
// Fills QuadraticTheory from a Hessian (invalid for non-positive-definite H).
QuadraticTheory quadratic_theory(const Eigen::Matrix2d& hessian, double lr);

struct OptimizersSnapshot : Snapshot {
  std::vector<RacerState> racers;   // primary first, then race order gd..adamw
  int primary = 0;                  // index of the primary in racers (always 0)
  std::shared_ptr<const Landscape> landscape;
  QuadraticTheory theory;
  // Per racer: measured linear rate of the error ||theta_t - theta*|| (geometric
  // mean of the per-step ratios over the last kRateWindow steps), NaN if n/a.
  std::vector<double> measured_rate;
  std::string schedule_note;        // Robbins-Monro line of the chosen schedule
  size_t byte_size() const override;
};

// The module. Parameters: see params() / `cilab list params optimizers`.
// Intents: none (start point, lr... are parameters: the view sends SetParam).
class Optimizers : public ModuleBase<Optimizers> {
 public:
  static constexpr int kRateWindow = 20;

  // Metric slots (CLI columns; rows of the metric table in optimizers.cpp).
  enum Metric : int { kMetricLoss, kMetricX, kMetricY, kMetricGradNorm, kMetricDist, kMetricLr, kNumMetrics };

  struct Params;  // typed parameters (optimizers.cpp)

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values,
             uint64_t seed) override;
  void step() override;
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;

  std::shared_ptr<const OptimizersSnapshot> optimizers_snapshot() const;

 private:
  struct State;  // every member (optimizers.cpp)
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Optimizers)

}  // namespace cilab
