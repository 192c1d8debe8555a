// The module shape every trainer shares (mlp, autoencoder, vae, gan and the ones
// to come): Module's step, sub_step, settle and set_live written once over the
// State's TrainLoop (train_loop.h), on top of ModuleBase's plumbing.
//
//   class Mlp : public Trainer<Mlp> {                           // mlp.h
//     ...
//    private:
//     friend class Trainer<Mlp>;  // it steps the State
//     struct State;
//     StatePtr<State> st_;
//   };
//
//   struct Mlp::State                                           // mlp.cpp
//       : EpochTrainerState<Params, nn::Sequential<float>, MlpEpochRow, MlpSnapshot> {
//     // from the base (trainer_state.h): p, seed, ready, net, loop, net_copy,
//     // architecture, cache (the snapshot, until the next change), batcher,
//     // last_lr, log; take_copy, epoch_completed, budget_changed (the loop's
//     // budget after a live change), epoch_row, append_epoch, fill
//     State() : EpochTrainerState(Mlp::kNetRefreshMs) {}
//     // A live change, before it is committed to p: push it into the optimizers
//     // (validating: a throw refuses the change and leaves everything as it was).
//     void live_changed(const Params& next);
//     ... the hooks: forward_half, update_half
//   };
//   CILAB_TRAINER_STATE(Mlp)                                    // mlp.cpp, after both
//   CILAB_TRAINER_EXTERN(Mlp)                                   // mlp.h, after the class
//
// Every change (a step, a sub-step, a settle that copied, a live value) drops the
// cached snapshot, so snapshot() builds the next one once, from the State.
#pragma once

#include "algorithms/core/module_base.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// What every trainer's snapshot carries (GanSnapshot; the epoch trainers' via
// EpochSnapshot): the picture copy of the network(s), taken by the State's
// take_copy (trainer_state.h), and the architecture.
namespace nn {
template <class T>
class Sequential;
}  // namespace nn

namespace trainer_detail {
// A network's state_dict: a Sequential's own names ("0.weight"), a model's (VaeNet: "encoder.0.weight").
template <class T>
void state_dict_of(const nn::Sequential<T>& net, std::vector<NpyArray>& out) {
  net.state_dict("", out);
}
template <class Net>
void state_dict_of(const Net& net, std::vector<NpyArray>& out) {
  net.state_dict(out);
}
}  // namespace trainer_detail

template <class Net>
struct TrainerSnapshot : Snapshot {
  std::shared_ptr<const Net> net;  // run it on a private copy: forward passes write buffers
  int net_iteration = 0;           // iteration the copy was taken at
  std::string architecture;        // "2-16-16-2 relu"
  // The picture copy's weights (the runner settles it before the CLI's report; the window's
  // export says its iteration).
  bool weights(std::vector<NpyArray>& out) const override {
    if (!net) return false;
    trainer_detail::state_dict_of(*net, out);
    return true;
  }
  bool has_weights() const override { return net != nullptr; }
};

// The start of every row of an epoch log (MlpEpochRow, ...): the epoch (0: the
// initial network) and the iteration it ended at.
struct EpochRow {
  int epoch = 0;
  int iteration = 0;
};

// ... and every epoch trainer's (mlp, autoencoder, vae): the per-epoch log.
template <class Net, class Row>
struct EpochSnapshot : TrainerSnapshot<Net> {
  std::shared_ptr<const std::vector<Row>> epochs;  // rows 0..epoch (0: the initial network)
  int batches_per_epoch = 0;
  size_t num_params = 0;
};

// What makes a module a trainer for whoever holds a Module: every Trainer<M> is one
// (the conformance suite's trainer checks find them with dynamic_cast).
class TrainerModule {
 protected:
  ~TrainerModule() = default;
};

template <class Derived>
class Trainer : public ModuleBase<Derived>, public TrainerModule {
 public:
  // The next sub-step (forward, backward, update; the GAN: D step, G step).
  void sub_step() override;
  // A whole iteration (finishes one begun by sub-steps).
  void step() override;
  // Brings the pictures' network copy up to the iteration reached.
  bool settle() override;
  // A live parameter: the table's range check, the State's reaction, the budget.
  void set_live(const std::string& name, double value) override;
};

}  // namespace cilab

// After a trainer's class in its header (see CILAB_MODULE_EXTERN).
#define CILAB_TRAINER_EXTERN(ModuleType) \
  CILAB_MODULE_EXTERN(ModuleType)        \
  extern template class Trainer<ModuleType>;
