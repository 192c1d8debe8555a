// The shared optimizer and schedule parameter groups: every module that trains
// includes them whole in its ParamTable, so every trainer spells its optimizer
// settings identically to the `optimizers` module and to torch.optim
// (optimizer, lr, momentum, dampening, nesterov, beta1, beta2 = betas, eps,
// alpha, weight_decay, lr_decay, initial_accumulator_value, centered, amsgrad;
// schedule, step_size, gamma, decay, t_max, eta_min).
//
//   struct Params {
//     OptimizerConfig optim = trainer_optimizer_defaults();  // the group's defaults
//     ScheduleConfig schedule;
//     int epochs = 10;
//   };
//   static const ParamTable<Params> kTable = {
//       optimizer_params(&Params::optim),
//       schedule_params(&Params::schedule),
//       Int("epochs", &Params::epochs, 1, 1000).help("..."),
//   };
//
// A module may reword a row's help for its own context with param_row(group,
// "lr").help("..."). Updates: the optimizer kind, initial_accumulator_value,
// centered and amsgrad rebuild the run (they change the optimizer's state
// buffers); every other row is live (torch allows editing param_groups).
#pragma once

#include "algorithms/core/params.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/optim/schedule.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cilab {

// The row called `name` of a group (std::logic_error if absent), to reword it.
template <class P>
ParamField<P>& param_row(std::vector<ParamField<P>>& group, const std::string& name) {
  for (ParamField<P>& f : group)
    if (f.spec.name == name) return f;
  throw std::logic_error("parameter group has no row '" + name + "'");
}

// optimizer, lr, momentum, dampening, nesterov, beta1, beta2, eps, alpha,
// weight_decay, lr_decay, initial_accumulator_value, centered, amsgrad, bound
// to the OptimizerConfig member `m` of P (its initialiser gives the defaults).
template <class P>
std::vector<ParamField<P>> optimizer_params(OptimizerConfig P::*m) {
  auto at = [m](auto field) { return [m, field](P& p) -> auto& { return (p.*m).*field; }; };
  using C = OptimizerConfig;
  std::vector<std::string> kinds, kind_help;
  for (int i = 0; i < kNumOptimizerKinds; ++i) {
    kinds.push_back(optimizer_name(static_cast<OptimizerKind>(i)));
    kind_help.push_back(optimizer_help(static_cast<OptimizerKind>(i)));
  }
  return {
      Choice<P>("optimizer", at(&C::kind), kinds)
          .choice_help(kind_help)
          .help("the optimizer (torch.optim class)"),
      Real<P>("lr", at(&C::lr), 1e-5, 10)
          .live()
          .log_scale()
          .help("learning rate (torch: lr)")
          .formula("theta_{t+1} = theta_t - lr * direction_t"),
      Real<P>("momentum", at(&C::momentum), 0, 0.999)
          .live()
          .help("momentum factor of momentum / nesterov (torch.optim.SGD momentum)")
          .formula("b_t = momentum b_{t-1} + (1 - dampening) g_t"),
      Real<P>("dampening", at(&C::dampening), 0, 0.99)
          .live()
          .help("dampening of the momentum (torch.optim.SGD; nesterov requires 0)")
          .formula("b_t = momentum b_{t-1} + (1 - dampening) g_t"),
      Bool<P>("nesterov", at(&C::nesterov))
          .live()
          .help("momentum uses Nesterov's form (torch.optim.SGD nesterov=True)")
          .formula("theta -= lr (g + momentum b)"),
      Real<P>("beta1", at(&C::beta1), 0, 0.9999)
          .live()
          .help("Adam/AdamW first-moment decay (torch betas[0])")
          .formula("m_t = beta1 m_{t-1} + (1 - beta1) g_t"),
      Real<P>("beta2", at(&C::beta2), 0, 0.99999)
          .live()
          .help("Adam/AdamW second-moment decay (torch betas[1])")
          .formula("v_t = beta2 v_{t-1} + (1 - beta2) g_t^2"),
      Real<P>("eps", at(&C::eps), 1e-12, 1)
          .live()
          .log_scale()
          .help("added to the root in AdaGrad / RMSProp / Adam(W), outside the square root as "
                "in torch (torch Adagrad's default is 1e-10)")
          .formula("theta -= lr m_hat / (sqrt(v_hat) + eps)"),
      Real<P>("alpha", at(&C::alpha), 0, 0.9999)
          .live()
          .help("RMSProp decay of the squared-gradient average (torch.optim.RMSprop alpha)")
          .formula("sq_t = alpha sq_{t-1} + (1 - alpha) g_t^2"),
      Real<P>("weight_decay", at(&C::weight_decay), 0, 1)
          .live()
          .help("L2 penalty added to the gradient (g += wd theta); AdamW: decoupled decay "
                "theta *= 1 - lr wd (torch AdamW default 1e-2)")
          .formula("g_t = grad f(theta_t) + weight_decay theta_t"),
      Real<P>("lr_decay", at(&C::lr_decay), 0, 1)
          .live()
          .help("AdaGrad learning-rate decay (torch.optim.Adagrad)")
          .formula("clr = lr / (1 + (t - 1) lr_decay)"),
      Real<P>("initial_accumulator_value", at(&C::initial_accumulator_value), 0, 10)
          .help("AdaGrad's initial sum (torch.optim.Adagrad)")
          .formula("sum_0 = value"),
      Bool<P>("centered", at(&C::centered))
          .help("RMSProp divides by the centred second moment (torch)")
          .formula("avg = sqrt(sq - grad_avg^2) + eps"),
      Bool<P>("amsgrad", at(&C::amsgrad))
          .help("Adam/AdamW use the running max of v (torch amsgrad)")
          .formula("v_max = max(v_max, v_t)"),
  };
}

// The optimizer group of one of several networks (the GAN's generator and
// discriminator each have their own): every row renamed prefix + name
// ("d_lr", "g_optimizer") and its help prefixed with `who`; a row that the
// chosen kind does not read is shown only while a kind that reads it is
// chosen (two full groups would double the panel).
template <class P>
std::vector<ParamField<P>> prefixed_optimizer_params(OptimizerConfig P::*m, const std::string& prefix,
                                                     const std::string& who) {
  std::vector<ParamField<P>> group = optimizer_params(m);
  const std::string kind = prefix + "optimizer=";
  const std::pair<const char*, const char*> kShownIf[] = {
      {"momentum", "momentum|nesterov|rmsprop"},
      {"dampening", "momentum"},
      {"nesterov", "momentum"},
      {"beta1", "adam|adamw"},
      {"beta2", "adam|adamw"},
      {"amsgrad", "adam|adamw"},
      {"eps", "adagrad|rmsprop|adam|adamw"},
      {"alpha", "rmsprop"},
      {"centered", "rmsprop"},
      {"lr_decay", "adagrad"},
      {"initial_accumulator_value", "adagrad"},
  };
  for (ParamField<P>& f : group) {
    for (const auto& [name, kinds] : kShownIf)
      if (f.spec.name == name) f.shown_if(kind + kinds);
    f.spec.name = prefix + f.spec.name;
    f.spec.help = who + ": " + f.spec.help;
  }
  return group;
}

// schedule, step_size, gamma, decay, t_max, eta_min, bound to the
// ScheduleConfig member `m` of P; a schedule's own rows are shown only while
// it is chosen. All live.
template <class P>
std::vector<ParamField<P>> schedule_params(ScheduleConfig P::*m) {
  auto at = [m](auto field) { return [m, field](P& p) -> auto& { return (p.*m).*field; }; };
  using C = ScheduleConfig;
  std::vector<std::string> kinds, kind_help;
  for (int i = 0; i < kNumScheduleKinds; ++i) {
    const ScheduleKind k = static_cast<ScheduleKind>(i);
    kinds.push_back(schedule_name(k));
    kind_help.push_back(std::string(schedule_formula(k)) + ". " + robbins_monro(ScheduleConfig{k}).note);
  }
  return {
      Choice<P>("schedule", at(&C::kind), kinds)
          .choice_help(kind_help)
          .live()
          .help("learning-rate schedule applied to lr (t = updates made so far)"),
      Int<P>("step_size", at(&C::step_size), 1, 100000)
          .live()
          .shown_if("schedule=step")
          .help("step schedule: updates between decays (StepLR)"),
      Real<P>("gamma", at(&C::gamma), 0.01, 1)
          .live()
          .shown_if("schedule=step")
          .help("step schedule: decay factor (StepLR gamma)")
          .formula("eta_t = eta_0 gamma^floor(t / step_size)"),
      Real<P>("decay", at(&C::decay), 0, 10)
          .live()
          .shown_if("schedule=inv_t|inv_sqrt_t")
          .help("inv_t / inv_sqrt_t schedules: decay rate")
          .formula("eta_t = eta_0 / (1 + decay t)  or  eta_0 / sqrt(1 + decay t)"),
      Int<P>("t_max", at(&C::t_max), 1, 1000000)
          .live()
          .shown_if("schedule=cosine")
          .help("cosine schedule: half period (CosineAnnealingLR T_max)"),
      Real<P>("eta_min", at(&C::eta_min), 0, 1)
          .live()
          .shown_if("schedule=cosine")
          .help("cosine schedule: the floor (CosineAnnealingLR eta_min)")
          .formula("eta_t = eta_min + (eta_0 - eta_min)(1 + cos(pi t / t_max)) / 2"),
  };
}

// The optimizer configuration a trainer's group describes (as the
// optimizers module builds its racers): the fields the chosen kind does not
// use are made neutral (GD/SGD/AdaGrad/RMSProp: no momentum; Nesterov:
// nesterov = true, dampening 0). Every module that trains steps with this.
inline OptimizerConfig group_config(const OptimizerConfig& g) {
  OptimizerConfig c = g;
  switch (g.kind) {
    case OptimizerKind::GD:
    case OptimizerKind::SGD:
    case OptimizerKind::AdaGrad:
    case OptimizerKind::RMSProp:
      c.momentum = 0;
      c.nesterov = false;
      break;
    case OptimizerKind::Nesterov:
      c.nesterov = true;
      c.dampening = 0;
      break;
    case OptimizerKind::Momentum:
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW: break;
  }
  return c;
}

}  // namespace cilab
