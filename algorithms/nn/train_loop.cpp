// The trainers' shared step protocol: see train_loop.h.
#include "algorithms/nn/train_loop.h"

#include <cmath>

namespace cilab {

void TrainLoop::sub_step(Hooks& h) {
  if (is_terminal(status)) return;
  if (phase == 0) {
    h.forward_half();
    phase = is_terminal(status) ? 0 : 1;
  } else if (phase == 1 && phases_ == 3) {
    phase = 2;
    return;  // the gradients were computed with the forward pass: nothing new to copy
  } else {
    h.update_half();
    phase = 0;
  }
  refresh_copy(h, true);
}

void TrainLoop::step(Hooks& h) {
  if (is_terminal(status)) return;
  const bool fresh = phase == 0;
  if (fresh) h.forward_half();
  if (!is_terminal(status)) h.update_half();
  phase = 0;
  // By hand (finishing a stepped-into step), at an epoch's end (the
  // evaluation's network) and at the run's end the copy is always taken.
  refresh_copy(h, !fresh || h.epoch_completed() || is_terminal(status));
}

bool TrainLoop::settle(Hooks& h) {
  if (copy_iteration_ == iteration) return false;
  refresh_copy(h, true);
  return true;
}

void TrainLoop::refresh_copy(Hooks& h, bool force) {
  const Clock::time_point now = Clock::now();
  if (!force && copy_iteration_ >= 0 &&
      std::chrono::duration<double, std::milli>(now - copy_time_).count() < copy_ms_)
    return;
  h.take_copy();
  copy_iteration_ = iteration;
  copy_time_ = now;
}

void TrainLoop::fail(const std::string& why, double lr) {
  status = Status::Diverged;
  message = why + " at iteration " + std::to_string(iteration) + " (lr = " + fmt_g(lr) +
            "); rewind and halve the learning rate";
}

bool TrainLoop::check_forward(double loss, bool gradients_finite, double lr) {
  if (std::isfinite(loss) && gradients_finite) return true;
  advance();  // the step was attempted: the run ends with it
  fail(std::string("non-finite ") + (std::isfinite(loss) ? "gradient" : "loss"), lr);
  return false;
}

bool TrainLoop::check_update(bool weights_finite, double lr) {
  if (weights_finite) return true;
  fail("non-finite weights after the update", lr);
  return false;
}

void TrainLoop::stop_at_budget(int epoch, int max_epochs, const char* budget) {
  if (epoch < max_epochs || is_terminal(status)) return;
  status = Status::Stopped;
  message = std::string("reached ") + budget + " = " + std::to_string(max_epochs);
}

void TrainLoop::budget_changed(int epoch, int max_epochs, const char* budget) {
  if (status == Status::Stopped && epoch < max_epochs) {
    status = Status::Running;
    message.clear();
  } else if (status == Status::Running && epoch >= max_epochs && phase == 0) {
    stop_at_budget(epoch, max_epochs, budget);
  }
}

}  // namespace cilab
