// The supervised trainer mlp and cnn share (for their .cpp files only): the data
// as the network sees it (make_supervised_problem: the labelled split,
// standardisation, Fashion-MNIST's own t10k set), the forward / backward /
// update hooks over one Sequential<float>, the per-epoch evaluation and the
// snapshot. What differs between the two modules is the network (Mlp::make_network;
// cnn's layer line, nn/layer_stack.h), the parameter table and the views.
//
// P is the module's Params (Mlp::Params or Cnn::Params, which extends it): the
// fields read here are task, test_fraction, standardize, train_size, batch,
// batch_norm, max_epochs, init, optim and schedule.
#pragma once

#include "algorithms/networks/mlp.h"
#include "algorithms/nn/trainer_state.h"
#include "algorithms/optim/optimizer.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// Builds the standardised split of `data` for module `module` (its name prefixes
// every error). image_only: refuse data that are not images (cnn).
std::shared_ptr<const MlpProblem> make_supervised_problem(const Dataset& data, const Mlp::Params& p, uint64_t seed,
                                                          const std::string& module, bool image_only);

template <class P>
struct SupervisedState : EpochTrainerState<P, nn::Sequential<float>, MlpEpochRow, MlpSnapshot> {
  using Base = EpochTrainerState<P, nn::Sequential<float>, MlpEpochRow, MlpSnapshot>;
  std::string module;  // "mlp", "cnn": error messages
  std::shared_ptr<const MlpProblem> problem;
  Optimizer opt;

  // The batch in flight (forward done, update pending).
  nn::Mat<float> xb, tb, dout;
  std::vector<int> yb;
  std::shared_ptr<const std::vector<int>> batch;
  int batch_index = 0;
  double batch_loss = std::nan("");
  double grad_norm = std::nan("");
  std::vector<double> layer_grad_norms;

  // The epoch in progress.
  double epoch_loss_sum = 0;
  int epoch_seen = 0;
  int epoch_correct = 0;
  double epoch_ss_res = 0, epoch_t_sum = 0, epoch_t_sum2 = 0;

  std::shared_ptr<const MlpEvaluation> evaluation;

  explicit SupervisedState(std::string module_name) : Base(Mlp::kNetRefreshMs), module(std::move(module_name)) {}
  // Trainer's live-change hook (trainer.h): the optimizer takes the new settings
  // (validating them).
  void live_changed(const P& next) { opt.set_config(group_config(next.optim)); }

  // reset's shared part, after the problem is made: the size checks, the network
  // (make_net(problem), built, then initialised from the seed), the optimizer, the
  // batcher, the epoch-0 evaluation; then the run can step.
  void start(const std::function<nn::Sequential<float>(const MlpProblem&)>& make_net, std::string arch);
  // Weights, gradients, optimizer state and the batch buffers (Module::state_bytes).
  size_t bytes() const;
  // The snapshot (cached until the next change) for the module's metric table.
  std::shared_ptr<const MlpSnapshot> snapshot(const MetricTable& metrics) const;

  double loss_scale() const { return problem->regression ? problem->t_scale * problem->t_scale : 1.0; }
  void forward_half() override;
  void update_half() override;
  void end_epoch();
  MlpEpochRow evaluate_initial();
  void evaluate(const nn::Mat<float>& x, const std::vector<int>& y, const nn::Mat<float>& t, double* loss,
                double* score, MlpEvaluation* ev);
};

// The metric enum both modules report (Mlp::Metric).
extern template struct SupervisedState<Mlp::Params>;

}  // namespace cilab
