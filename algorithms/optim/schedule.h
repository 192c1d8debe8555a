// Learning-rate schedules, the Robbins-Monro conditions, Polyak averaging.
//
// t = 0, 1, 2, ... counts the updates already made; lr_at(cfg, lr0, t) is the
// learning rate of update t + 1 (so the first update always uses lr0), the
// value torch's param_group["lr"] holds before the (t+1)-th optimizer.step()
// when scheduler.step() is called once after each optimizer step:
//
//   constant    eta_t = eta_0
//   step        eta_t = eta_0 gamma^floor(t / step_size)          (torch StepLR)
//   inv_t       eta_t = eta_0 / (1 + decay t)                      (LambdaLR)
//   inv_sqrt_t  eta_t = eta_0 / sqrt(1 + decay t)                  (LambdaLR)
//   cosine      eta_t = eta_min + (eta_0 - eta_min)(1 + cos(pi t / t_max)) / 2
//                                                  (CosineAnnealingLR closed form;
//                                                   periodic beyond t_max, as torch's)
//
// Robbins-Monro (SGD convergence to the optimum, course 10.3): sum eta_t = inf
// AND sum eta_t^2 < inf. inv_t satisfies both; inv_sqrt_t does NOT (sum 1/t
// diverges, so sum eta_t^2 = inf - the student notes (003) claim otherwise);
// C t^-a satisfies them iff 1/2 < a <= 1.
//
// Polyak (iterate) averaging, course 10.4: theta_bar_t = (1/(t+1)) sum_{k=0..t}
// theta_k, kept recursively theta_bar += (theta - theta_bar) / (count)
// (torch.optim.swa_utils.AveragedModel's default running mean).
#pragma once

#include <Eigen/Core>

#include <string>

namespace cilab {

enum class ScheduleKind { Constant = 0, Step, InvT, InvSqrtT, Cosine };
constexpr int kNumScheduleKinds = 5;

// "constant", "step", "inv_t", "inv_sqrt_t", "cosine".
const char* schedule_name(ScheduleKind kind);
// The formula line, e.g. "eta_t = eta_0 / sqrt(1 + decay t)".
const char* schedule_formula(ScheduleKind kind);

struct ScheduleConfig {
  ScheduleKind kind = ScheduleKind::Constant;
  int step_size = 100;   // step: epochs (updates) between decays
  double gamma = 0.5;    // step: decay factor
  double decay = 0.01;   // inv_t, inv_sqrt_t: eta_0 / (1 + decay t) or its square root
  int t_max = 1000;      // cosine: half period
  double eta_min = 0.0;  // cosine: floor
};

// Learning rate of update t + 1 (t >= 0 updates already made).
double lr_at(const ScheduleConfig& config, double base_lr, int t);

// The Robbins-Monro facts of a schedule (as configured: gamma = 1 or decay = 0
// degenerate to constant).
struct RobbinsMonro {
  bool sum_diverges = false;     // sum_t eta_t = inf
  bool sum_sq_converges = false; // sum_t eta_t^2 < inf
  bool satisfied = false;        // both
  std::string note;              // one line: why, e.g. "1/sqrt(t): sum eta = inf but sum eta^2 = sum 1/t = inf too: NOT Robbins-Monro"
};
RobbinsMonro robbins_monro(const ScheduleConfig& config);

// Running mean of the iterates (Polyak-Ruppert averaging).
class PolyakAverage {
 public:
  // Starts over with the first iterate theta_0 (count 1).
  void reset(const Eigen::Ref<const Eigen::VectorXd>& theta0);
  // Adds the next iterate: mean += (theta - mean) / (count + 1).
  void add(const Eigen::Ref<const Eigen::VectorXd>& theta);
  const Eigen::VectorXd& mean() const { return mean_; }
  int count() const { return count_; }

 private:
  Eigen::VectorXd mean_;
  int count_ = 0;
};

}  // namespace cilab
