// The step protocol every mini-batch trainer shares (mlp, vae, autoencoder):
// where the run is (iteration, sub-step phase, status), how a step and its
// sub-steps advance, when the picture copy of the network is taken, and how a
// run ends (Diverged with the rewind advice, Stopped at max_epochs, resumed
// when the budget is raised live).
//
// Sub-steps: phase 0 -> forward (the trainer computes the batch's loss AND its
// gradients: the layers keep pointers into their own buffers, so a clone taken
// between sub-steps could not back-propagate the original's forward), phase 1
// -> backward (nothing left to compute: the snapshot now shows the gradients),
// phase 2 -> update (the optimizer step; it may end the epoch). A step from
// phase 0 runs forward + update; from the middle of a step it finishes it.
//
// The picture copy: views draw from a copy of the network that the trainer
// takes (Hooks::take_copy) at most every `copy_ms` of training, at every
// sub-step, at every epoch end, when the run ends and on settle(): a
// snapshot never deep-copies the network per step.
#pragma once

#include "algorithms/core/run_position.h"

#include <chrono>
#include <string>

namespace cilab {

class TrainLoop : public RunPosition {
 public:
  // What the trainer provides.
  struct Hooks {
    virtual ~Hooks() = default;
    // The next batch's forward pass and gradients (may call fail()).
    virtual void forward_half() = 0;
    // The optimizer step; calls advance() and, at an epoch's end, its bookkeeping.
    virtual void update_half() = 0;
    // Takes the copy of the network the views draw from.
    virtual void take_copy() = 0;
    // True right after the step that completed an epoch.
    virtual bool epoch_completed() const = 0;
  };

  // phases: 3 (forward, backward, update: the sub-steps above) or 2 (the
  // GAN's D step then G step: phase 0 runs forward_half, phase 1 update_half).
  explicit TrainLoop(double copy_ms = 100.0, int phases = 3) : copy_ms_(copy_ms), phases_(phases) {}

  // RunPosition's phase: 0: forward next, 1: backward shown, 2: update next (2 phases: 1: update next).

  // Whether the run has begun its first step (a batch's values exist to show).
  bool started() const { return iteration > 0 || phase > 0; }

  // The iteration the picture copy was taken at.
  int copy_iteration() const { return copy_iteration_; }

  // Module::sub_step / step / settle for a trainer whose run is ready.
  void sub_step(Hooks& h);
  void step(Hooks& h);
  bool settle(Hooks& h);
  // Takes the copy when forced, or when copy_ms have passed since the last one.
  void refresh_copy(Hooks& h, bool force);
  // Counts an optimizer step (update_half calls it).
  void advance() { ++iteration; }

  // Ends the run as Diverged: "<why> at iteration I (lr = X); rewind and halve the learning rate".
  void fail(const std::string& why, double lr);
  // The forward half's check: when the batch's loss is not finite or its gradients are not
  // (`gradients_finite`), counts the attempted step and fails with "non-finite loss" /
  // "non-finite gradient"; returns whether the step may go on.
  bool check_forward(double loss, bool gradients_finite, double lr);
  // The update half's check (after advance()): fails with "non-finite weights after the
  // update" when they are not finite; returns whether the run goes on.
  bool check_update(bool weights_finite, double lr);
  // Ends the run as Stopped when `epoch` reached `max_epochs` (call at an
  // epoch's end); `budget` names the parameter in the message ("max_steps"
  // for a trainer budgeted in iterations).
  void stop_at_budget(int epoch, int max_epochs, const char* budget = "max_epochs");
  // After a live change of max_epochs: a Stopped run with budget left resumes;
  // a running one whose budget is now spent stops (between steps only).
  void budget_changed(int epoch, int max_epochs, const char* budget = "max_epochs");

 private:
  using Clock = std::chrono::steady_clock;
  double copy_ms_;
  int phases_;
  int copy_iteration_ = -1;
  Clock::time_point copy_time_{};
};

}  // namespace cilab
