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
//   struct Mlp::State : TrainLoop::Hooks {                      // mlp.cpp
//     Params p;
//     bool ready = false;           // reset succeeded: the run can step
//     TrainLoop loop;
//     mutable std::shared_ptr<const MlpSnapshot> cache;  // the snapshot, until the next change
//     // A live change, before it is committed to p: push it into the optimizers
//     // (validating: a throw refuses the change and leaves everything as it was).
//     void live_changed(const Params& next);
//     // After a live change: tell the loop the budget (TrainLoop::budget_changed).
//     void budget_changed();
//     ... the hooks: forward_half, update_half, take_copy, epoch_completed
//   };
//   CILAB_TRAINER_STATE(Mlp)                                    // mlp.cpp, after both
//   CILAB_TRAINER_EXTERN(Mlp)                                   // mlp.h, after the class
//
// Every change (a step, a sub-step, a settle that copied, a live value) drops the
// cached snapshot, so snapshot() builds the next one once, from the State.
#pragma once

#include "algorithms/core/module_base.h"

#include <string>

namespace cilab {

template <class Derived>
class Trainer : public ModuleBase<Derived> {
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
