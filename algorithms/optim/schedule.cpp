// Learning-rate schedules, Robbins-Monro facts and Polyak averaging (schedule.h).
#include "algorithms/optim/schedule.h"

#include <cmath>

namespace cilab {

namespace {
const char* const kNames[kNumScheduleKinds] = {"constant", "step", "inv_t", "inv_sqrt_t", "cosine"};
const char* const kFormulas[kNumScheduleKinds] = {
    "eta_t = eta_0",
    "eta_t = eta_0 gamma^floor(t / step_size)   (torch StepLR)",
    "eta_t = eta_0 / (1 + decay t)   (torch LambdaLR)",
    "eta_t = eta_0 / sqrt(1 + decay t)   (torch LambdaLR)",
    "eta_t = eta_min + (eta_0 - eta_min) (1 + cos(pi t / t_max)) / 2   (torch CosineAnnealingLR)"};
constexpr double kPi = 3.14159265358979323846;
}  // namespace

const char* schedule_name(ScheduleKind kind) { return kNames[static_cast<int>(kind)]; }
const char* schedule_formula(ScheduleKind kind) { return kFormulas[static_cast<int>(kind)]; }

double lr_at(const ScheduleConfig& c, double base_lr, int t) {
  const double td = static_cast<double>(t < 0 ? 0 : t);
  switch (c.kind) {
    case ScheduleKind::Constant: return base_lr;
    case ScheduleKind::Step: {
      const int k = c.step_size > 0 ? t / c.step_size : 0;
      return base_lr * std::pow(c.gamma, k);
    }
    case ScheduleKind::InvT: return base_lr * (1.0 / (1.0 + c.decay * td));
    case ScheduleKind::InvSqrtT: return base_lr * (1.0 / std::sqrt(1.0 + c.decay * td));
    case ScheduleKind::Cosine: {
      const double tm = c.t_max > 0 ? c.t_max : 1;
      return c.eta_min + (base_lr - c.eta_min) * (1.0 + std::cos(kPi * td / tm)) / 2.0;
    }
  }
  return base_lr;
}

RobbinsMonro robbins_monro(const ScheduleConfig& c) {
  RobbinsMonro r;
  ScheduleKind k = c.kind;
  if ((k == ScheduleKind::Step && c.gamma == 1.0) ||
      ((k == ScheduleKind::InvT || k == ScheduleKind::InvSqrtT) && c.decay == 0.0))
    k = ScheduleKind::Constant;
  switch (k) {
    case ScheduleKind::Constant:
      r.sum_diverges = true;
      r.sum_sq_converges = false;
      r.note = "constant: sum eta = inf but sum eta^2 = inf: NOT Robbins-Monro; SGD ends in a noise "
               "ball around the optimum whose size grows with eta";
      break;
    case ScheduleKind::Step:
      r.sum_diverges = false;
      r.sum_sq_converges = true;
      r.note = "step decay (gamma < 1): geometric, sum eta < inf: NOT Robbins-Monro; the iterates can "
               "freeze before reaching the optimum";
      break;
    case ScheduleKind::InvT:
      r.sum_diverges = true;
      r.sum_sq_converges = true;
      r.note = "1/t: sum eta = inf (harmonic series) and sum eta^2 = sum 1/t^2 < inf: "
               "Robbins-Monro holds";
      break;
    case ScheduleKind::InvSqrtT:
      r.sum_diverges = true;
      r.sum_sq_converges = false;
      r.note = "1/sqrt(t): sum eta = inf, but sum eta^2 = sum 1/t = inf too: NOT Robbins-Monro "
               "(some notes claim otherwise); t^-a needs 1/2 < a <= 1";
      break;
    case ScheduleKind::Cosine:
      r.sum_diverges = true;  // the periodic continuation returns to eta_0 every 2 t_max
      r.sum_sq_converges = false;
      r.note = "cosine: a finite-horizon schedule (t_max); continued periodically as in torch, "
               "sum eta = sum eta^2 = inf: NOT Robbins-Monro";
      break;
  }
  r.satisfied = r.sum_diverges && r.sum_sq_converges;
  return r;
}

void PolyakAverage::reset(const Eigen::Ref<const Eigen::VectorXd>& theta0) {
  mean_ = theta0;
  count_ = 1;
}

void PolyakAverage::add(const Eigen::Ref<const Eigen::VectorXd>& theta) {
  if (count_ == 0) {
    reset(theta);
    return;
  }
  ++count_;
  mean_ += (theta - mean_) / static_cast<double>(count_);
}

}  // namespace cilab
