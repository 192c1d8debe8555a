// The parameter rows the trainers share (mlp, autoencoder, vae, gan): one
// spelling of each setting (name, range, formula, choice help), with the
// module's own help where its wording differs (`cilab list params` shows each
// module's text). A module lists them in its ParamTable in its own order:
//
//   static const ParamTable<P> kTable = {
//       ...,
//       init_param(&P::init, InitHelp::Formulas),
//       batch_param(&P::batch, "mini-batch size ..."),
//       test_fraction_param(&P::test_fraction),
//       max_epochs_param(&P::max_epochs),
//       optimizer_rows(&P::optim, &P::schedule, {"the optimizer stepping ...", "learning rate ..."}),
//   };
#pragma once

#include "algorithms/core/params.h"
#include "algorithms/nn/layers.h"
#include "algorithms/optim/optim_params.h"

#include <string>
#include <utility>
#include <vector>

namespace cilab {

// The default of the playgrounds (mlp, autoencoder): Adam with lr 0.01 (torch's
// 1e-3 is a slider away), momentum 0.9 for when the optimizer is switched to
// momentum / nesterov.
inline OptimizerConfig playground_optimizer() {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::Adam);
  c.lr = 0.01;
  c.momentum = 0.9;
  return c;
}

// reset's optimizer settings: group_config of a trainer's optimizer group,
// validated (throws naming the bad setting before anything is allocated).
inline OptimizerConfig checked_group_config(const OptimizerConfig& group) {
  const OptimizerConfig c = group_config(group);
  c.validate();
  return c;
}

// `activation`: every nn::Activation by its torch.nn name; with_formulas adds
// each one's f(z) as its choice help.
template <class P>
ParamField<P> activation_param(nn::Activation P::*m, std::string help, bool with_formulas = true) {
  ParamField<P> f = Choice("activation", m, nn::activation_names()).help(std::move(help));
  if (with_formulas)
    f.choice_help({"f(z) = z", "f(z) = max(0, z)", "f(z) = max(0.01 z, z)", "f(z) = z if z > 0 else e^z - 1",
                   "f(z) = 1 / (1 + e^-z)", "f(z) = tanh z", "f(z) = log(1 + e^z)",
                   "f(z) = z Phi(z) (exact erf form)"});
  return f;
}

// How much an `init` row's choice help says: each scheme's formula, or its name.
enum class InitHelp { Formulas, Names };

// `init`: torch, glorot, he (nn::Init).
template <class P>
ParamField<P> init_param(nn::Init P::*m, InitHelp detail = InitHelp::Names,
                         std::string help = "weight initialisation of the Linear layers") {
  const char* torch = "torch.nn.Linear's default: W, b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))";
  const bool formulas = detail == InitHelp::Formulas;
  return Choice("init", m, {"torch", "glorot", "he"})
      .choice_help({torch,
                    formulas ? "Glorot/Xavier uniform: W ~ U(-a, a), a = sqrt(6 / (fan_in + fan_out)), b = 0"
                             : "Glorot/Xavier uniform, b = 0",
                    formulas ? "He/Kaiming normal: W ~ N(0, 2 / fan_in), b = 0" : "He/Kaiming normal, b = 0"})
      .help(std::move(help));
}

// `batch`: the mini-batch size, 1..100000 (the module checks it against its training rows).
template <class P>
ParamField<P> batch_param(int P::*m, std::string help) {
  return Int("batch", m, 1, 100000).help(std::move(help));
}

// `test_fraction`: the held-out share of the seeded split (train_data.h).
template <class P>
ParamField<P> test_fraction_param(double P::*m,
                                  std::string help = "share of the rows held out as the test set (scikit-learn: "
                                                     "train_test_split test_size; a seeded shuffle); Fashion-MNIST's "
                                                     "training split is tested on its own t10k set instead") {
  return Real("test_fraction", m, 0, 0.9).help(std::move(help));
}

// `standardize`: z-scoring from the training rows (train_data.h).
template <class P>
ParamField<P> standardize_param(bool P::*m, std::string help) {
  return Bool("standardize", m).help(std::move(help)).formula("x <- (x - mean_train) / std_train");
}

// `max_epochs`: the live epoch budget (TrainLoop::stop_at_budget).
template <class P>
ParamField<P> max_epochs_param(int P::*m, std::string help = "training budget in epochs (passes over the "
                                                             "training set); the run stops there") {
  return Int("max_epochs", m, 1, 1000000).budget().help(std::move(help));
}

// The module's wording of the optimizer group's rows it rewords (empty: the group's own).
struct OptimizerWording {
  std::string optimizer, lr, weight_decay, schedule;
};

// The help of `schedule` for a trainer that steps its schedule once per update.
inline constexpr const char* kPerUpdateScheduleHelp =
    "learning-rate schedule over the updates t (torch.optim.lr_scheduler stepped once per update)";

// The shared optimizer group, then the schedule group (optim_params.h), reworded.
template <class P>
std::vector<ParamField<P>> optimizer_rows(OptimizerConfig P::*optim, ScheduleConfig P::*schedule,
                                          const OptimizerWording& w) {
  std::vector<ParamField<P>> rows = optimizer_params(optim);
  const std::pair<const char*, const std::string*> reworded[] = {
      {"optimizer", &w.optimizer}, {"lr", &w.lr}, {"weight_decay", &w.weight_decay}};
  for (const auto& [name, help] : reworded)
    if (!help->empty()) param_row(rows, name).help(*help);
  std::vector<ParamField<P>> sched = schedule_params(schedule);
  if (!w.schedule.empty()) param_row(sched, "schedule").help(w.schedule);
  rows.insert(rows.end(), sched.begin(), sched.end());
  return rows;
}

}  // namespace cilab
