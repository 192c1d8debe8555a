// Runner queue and worker: commands and their tickets, the worker loop (or the
// caller in blocking mode), reset / step / sub-step / play, publishing with
// CommandResults, and the public Runner API (take_frame() and the reads).
// History and replay are in runner_history.cpp, the metric history in
// runner_metrics.cpp; the design is described in runner_internal.h.
#include "app/headless/runner.h"
#include "app/headless/runner_internal.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <stdexcept>
#include <utility>

namespace cilab {

using namespace runner_detail;

namespace {

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool same_info(const ModuleInfo& a, const ModuleInfo& b) {
  if (a.name != b.name || a.title != b.title || a.chapter != b.chapter || a.summary != b.summary ||
      a.sub_steps != b.sub_steps || a.default_dataset != b.default_dataset ||
      a.needs_dataset != b.needs_dataset || a.metrics.size() != b.metrics.size())
    return false;
  for (size_t i = 0; i < a.metrics.size(); ++i)
    if (a.metrics[i].name != b.metrics[i].name || a.metrics[i].help != b.metrics[i].help ||
        a.metrics[i].log_scale != b.metrics[i].log_scale)
      return false;
  return true;
}

IterationRecord make_record(const Snapshot& s, double step_ms) {
  IterationRecord r;
  r.metrics = s.metrics;
  r.step_ms = step_ms;
  r.status = s.status;
  return r;
}

}  // namespace

// ===================================================================== dispatch

Runner::Impl::Impl(Factory factory, RunnerConfig config)
    : factory_(std::move(factory)), config_(config) {
  keyframe_stride_ = std::max(1, config_.keyframe_interval);
  if (config_.threaded) worker_ = std::thread([this] { worker_loop(); });
}

uint64_t Runner::Impl::submit(Command cmd) {
  uint64_t ticket = 0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    ticket = cmd.ticket = next_ticket_++;
    if (config_.threaded) queue_.push_back(std::move(cmd));
  }
  if (!config_.threaded) {
    execute(cmd);
    return ticket;
  }
  work_cv_.notify_one();
  return ticket;
}

// Serves a pending step_n burst, then commands, then play (paced by speed_).
void Runner::Impl::worker_loop() {
  std::unique_lock<std::mutex> lk(mu_);
  while (!stop_) {
    if (burst_left_ > 0 && !queue_.empty()) cancel_burst_if_paused();
    if (!queue_.empty() && burst_left_ == 0) {
      Command cmd = std::move(queue_.front());
      queue_.pop_front();
      // Scrubbing queues a seek per frame: only the last of a run of seeks matters.
      while (cmd.kind == CommandKind::Seek && !queue_.empty() && queue_.front().kind == CommandKind::Seek) {
        cmd = std::move(queue_.front());
        queue_.pop_front();
      }
      busy_ = true;
      lk.unlock();
      execute(cmd);
      lk.lock();
      busy_ = false;
      idle_cv_.notify_all();
      continue;
    }
    if (burst_left_ > 0) {
      lk.unlock();
      const bool more = step_once() && can_continue();
      lk.lock();
      burst_left_ = more ? burst_left_ - 1 : 0;
      if (burst_left_ == 0) idle_cv_.notify_all();
      continue;
    }
    if (playing_) {
      if (speed_ > 0.0) {
        const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / speed_));
        const Clock::time_point due = last_play_step_ + period;
        if (Clock::now() < due) {
          work_cv_.wait_until(lk, due);  // woken early by a command, set_speed or stop
          continue;
        }
      }
      last_play_step_ = Clock::now();
      const bool by_sub_step = play_sub_steps_;
      lk.unlock();
      const bool more = (by_sub_step ? sub_step_once() : step_once()) && can_continue();
      lk.lock();
      if (!more) playing_ = false;
      continue;
    }
    // Stopped: let the module complete what it thins while running (the
    // training modules' network copy), if the live module is the one shown.
    if (!settled_ && module_ && shown_ == module_at_) {
      lk.unlock();
      settle_now();
      settled_ = true;  // after publish(), which clears it
      lk.lock();
      continue;
    }
    idle_cv_.notify_all();
    work_cv_.wait(lk);
  }
  // Release callers still waiting for a RunSteps that will never run.
  for (Command& cmd : queue_)
    if (cmd.done) cmd.done->finished = true;
  queue_.clear();
  done_ticket_ = next_ticket_ - 1;
  idle_cv_.notify_all();
}

// A step_n burst finishes before later commands run, except that a queued
// pause (or toggle, which then means pause) cancels it at once. mu_ held.
void Runner::Impl::cancel_burst_if_paused() {
  for (Command& cmd : queue_) {
    if (cmd.kind == CommandKind::Pause || cmd.kind == CommandKind::TogglePlay) {
      cmd.kind = CommandKind::Pause;
      burst_left_ = 0;
      idle_cv_.notify_all();
      return;
    }
  }
}

void Runner::Impl::execute(Command& cmd) {
  const bool reports = cmd.kind == CommandKind::Reset || cmd.kind == CommandKind::SetLive ||
                       cmd.kind == CommandKind::Apply;
  reporting_ = reports ? cmd.ticket : 0;
  command_error_.clear();
  reported_ = false;
  run_command(cmd);
  std::lock_guard<std::mutex> lk(mu_);
  if (reports && !reported_) {
    results_.push_back(CommandResult{cmd.ticket, command_error_.empty(), command_error_});
    while (results_.size() > kMaxResults) results_.pop_front();
  }
  reporting_ = 0;
  done_ticket_ = std::max(done_ticket_, cmd.ticket);
}

void Runner::Impl::run_command(Command& cmd) {
  try {
    switch (cmd.kind) {
      case CommandKind::Reset: do_reset(cmd.data, cmd.values, cmd.seed); break;
      case CommandKind::Play: start_playing(); break;
      case CommandKind::Pause: stop_playing(); break;
      case CommandKind::TogglePlay:
        if (playing_ || burst_left_ > 0)
          stop_playing();
        else
          start_playing();
        break;
      case CommandKind::Step: step_once(); break;
      case CommandKind::SubStep: sub_step_once(); break;
      case CommandKind::StepN:
        if (config_.threaded) {
          std::lock_guard<std::mutex> lk(mu_);
          burst_left_ = burst_total_ = std::max(0, cmd.n);
          burst_from_ = module_at_.iteration;
        } else {
          run_steps_now(cmd.n, nullptr);
        }
        break;
      case CommandKind::Back:
        seek_to(shown_.phase > 0 ? shown_.iteration : shown_.iteration - 1);
        break;
      case CommandKind::Seek: seek_to(cmd.n); break;
      case CommandKind::SetBudget: {
        config_.history_budget_bytes = static_cast<size_t>(cmd.value);
        enforce_budget();
        std::lock_guard<std::mutex> lk(mu_);
        bytes_ = held_bytes_;
        break;
      }
      case CommandKind::SetLive: {
        Edit e;
        e.live = true;
        e.name = cmd.name;
        e.value = cmd.value;
        edit(std::move(e));
        break;
      }
      case CommandKind::Apply: {
        Edit e;
        e.intent = cmd.intent;
        edit(std::move(e));
        break;
      }
      case CommandKind::RunSteps: {
        std::exception_ptr error;
        try {
          run_steps_now(cmd.n, cmd.on_step);
        } catch (...) {
          error = std::current_exception();
        }
        std::lock_guard<std::mutex> lk(mu_);
        cmd.done->error = error;
        cmd.done->finished = true;
        break;
      }
    }
  } catch (const std::exception& e) {
    set_error(e.what());
  } catch (...) {
    set_error("unknown exception while applying a runner command");
  }
}

// ===================================================================== commands

void Runner::Impl::do_reset(const std::shared_ptr<const Dataset>& data, const ParamValues& values,
                            uint64_t seed) {
  std::unique_ptr<Module> m;
  std::unique_ptr<Module> keyframe0;
  std::shared_ptr<const Snapshot> snap;
  ParamValues checked;
  try {
    m = factory_();
    if (!m) throw std::runtime_error("the module factory returned no module");
    checked = validated(m->params(), values);
    {
      std::lock_guard<std::mutex> lk(mu_);
      resetting_ = true;
    }
    struct Done {  // the reset's stages end with it, however it ends
      Impl* impl;
      ~Done() {
        std::lock_guard<std::mutex> lk(impl->mu_);
        impl->resetting_ = false;
        impl->reset_progress_.clear();
      }
    } done{this};
    const ProgressScope scope(&reset_progress_);
    m->reset(data, checked, seed);
    snap = m->snapshot();
    if (!snap) throw std::runtime_error("module " + m->info().name + " gave no snapshot after reset");
    keyframe0 = m->clone();
  } catch (const std::exception& e) {
    set_error(e.what());  // keep the previous module, history and snapshot
    return;
  }
  module_ = std::move(m);
  module_at_ = {0, 0};
  keyframes_.clear();
  edits_.clear();
  base_values_ = checked;
  held_bytes_ = 0;
  snapshot_stride_ = 1;
  keyframe_stride_ = std::max(1, config_.keyframe_interval);
  partial_ms_ = 0.0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    edits_pub_.clear();
    base_values_pub_ = checked;
    snapshots_.clear();
    shared_parts_.clear();
    records_.clear();
    records_.push_back(make_record(*snap, 0.0));
    last_step_ms_ = 0.0;
    last_error_.clear();
    if (infos_.empty() || !same_info(infos_.back(), module_->info())) infos_.push_back(module_->info());
    info_ = &infos_.back();
    seed_ = seed;
    data_ = data;
  }
  const size_t bytes0 = module_->state_bytes();
  keyframes_[0] = Keyframe{std::move(keyframe0), bytes0};
  held_bytes_ = bytes0;
  keep_snapshot(0, snap, true);
  enforce_budget();
  publish(snap, {0, 0});
}

// Materialises the shown position and cuts the future; false if nothing may advance.
bool Runner::Impl::prepare_to_advance(const char* what) {
  if (!module_) {
    set_error(std::string("cannot ") + what + ": no run yet (reset the module first; check its parameters)");
    return false;
  }
  replay_to(shown_);
  if (!can_continue()) return false;
  truncate_after(shown_);
  return true;
}

void Runner::Impl::module_failed(const char* what, const std::string& message) {
  module_at_ = kUnknown;  // state unknown: the next use re-simulates from a keyframe
  partial_ms_ = 0.0;
  set_error(std::string(what) + " failed at iteration " + std::to_string(shown_.iteration) + ": " + message);
}

// One full iteration (finishes a half-done one). False if nothing happened.
bool Runner::Impl::step_once() {
  try {
    if (!prepare_to_advance("step")) return false;
    const Clock::time_point t0 = Clock::now();
    module_->step();
    const double ms = partial_ms_ + ms_since(t0);
    module_at_ = {module_at_.iteration + 1, 0};
    complete_iteration(ms);
    return true;
  } catch (const std::exception& e) {
    module_failed("step", e.what());
    return false;
  } catch (...) {
    module_failed("step", "unknown exception");
    return false;
  }
}

// One sub-step; a sub-step that completes the iteration is recorded like a step.
bool Runner::Impl::sub_step_once() {
  try {
    if (!prepare_to_advance("sub-step")) return false;
    const Clock::time_point t0 = Clock::now();
    module_->sub_step();
    partial_ms_ += ms_since(t0);
    std::shared_ptr<const Snapshot> snap = module_->snapshot();
    if (snap->phase == 0) {
      module_at_ = {module_at_.iteration + 1, 0};
      complete_iteration(partial_ms_);
    } else {
      module_at_.phase = snap->phase;
      publish(snap, module_at_);
    }
    return true;
  } catch (const std::exception& e) {
    module_failed("sub-step", e.what());
    return false;
  } catch (...) {
    module_failed("sub-step", "unknown exception");
    return false;
  }
}

// Records the iteration the module just reached (module_at_, phase 0).
void Runner::Impl::complete_iteration(double step_ms) {
  partial_ms_ = 0.0;
  const int i = module_at_.iteration;
  std::shared_ptr<const Snapshot> snap = module_->snapshot();
  {
    std::lock_guard<std::mutex> lk(mu_);
    records_.push_back(make_record(*snap, step_ms));
    last_step_ms_ = step_ms;
  }
  steps_ms_since_keyframe_ += step_ms;
  if (i % keyframe_stride_ == 0) keep_keyframe(i, module_->state_bytes());
  keep_snapshot(i, snap, false);
  enforce_budget();
  publish(snap, module_at_);
}

void Runner::Impl::run_steps_now(int n, const StepCallback* on_step) {
  for (int k = 0; k < n && !stopping(); ++k) {
    if (!step_once()) break;
    if (on_step && *on_step) (*on_step)(*latest_, last_step_ms_);
    if (!can_continue()) break;
  }
  // A burst done: bring a thinned snapshot up to date, as the threaded worker
  // does when it stops (the CLI's final report reads it).
  if (module_ && shown_ == module_at_) settle_now();
}

void Runner::Impl::start_playing() {
  std::lock_guard<std::mutex> lk(mu_);
  if (!module_ || !can_continue()) return;
  playing_ = true;
  last_play_step_ = Clock::time_point{};  // first step at once
}

void Runner::Impl::stop_playing() {
  std::lock_guard<std::mutex> lk(mu_);
  playing_ = false;
  burst_left_ = 0;
}

void Runner::Impl::settle_now() {
  try {
    if (module_->settle()) publish(module_->snapshot(), module_at_);
  } catch (const std::exception& e) {
    set_error(std::string("settle: ") + e.what());
  }
}

void Runner::Impl::publish(std::shared_ptr<const Snapshot> snap, Position pos) {
  settled_ = false;
  ParamValues values = values_at(pos);
  std::lock_guard<std::mutex> lk(mu_);
  latest_ = std::move(snap);
  shown_ = pos;
  values_ = std::move(values);
  bytes_ = held_bytes_;
  // A reporting command that publishes has succeeded: its result goes out with its snapshot.
  if (reporting_ != 0 && !reported_ && command_error_.empty()) {
    results_.push_back(CommandResult{reporting_, true, ""});
    while (results_.size() > kMaxResults) results_.pop_front();
    reported_ = true;
  }
}

void Runner::Impl::set_error(const std::string& message) {
  if (command_error_.empty()) command_error_ = message;
  std::lock_guard<std::mutex> lk(mu_);
  last_error_ = message;
}

bool Runner::Impl::stopping() const {
  std::lock_guard<std::mutex> lk(mu_);
  return stop_;
}

// ===================================================================== Runner

Runner::Runner(Factory factory, RunnerConfig config)
    : impl_(std::make_unique<Impl>(std::move(factory), config)) {}

Runner::~Runner() {
  if (!impl_->worker_.joinable()) return;
  {
    std::lock_guard<std::mutex> lk(impl_->mu_);
    impl_->stop_ = true;
  }
  impl_->work_cv_.notify_all();
  impl_->worker_.join();
}

uint64_t Runner::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  Command c;
  c.kind = CommandKind::Reset;
  c.data = std::move(data);
  c.values = values;
  c.seed = seed;
  return impl_->submit(std::move(c));
}

namespace {
Command simple(CommandKind kind, int n = 0) {
  Command c;
  c.kind = kind;
  c.n = n;
  return c;
}
}  // namespace

void Runner::play() { impl_->submit(simple(CommandKind::Play)); }
void Runner::pause() { impl_->submit(simple(CommandKind::Pause)); }
void Runner::toggle_play() { impl_->submit(simple(CommandKind::TogglePlay)); }
void Runner::step() { impl_->submit(simple(CommandKind::Step)); }
void Runner::sub_step() { impl_->submit(simple(CommandKind::SubStep)); }
void Runner::step_n(int n) { impl_->submit(simple(CommandKind::StepN, n)); }
void Runner::back() { impl_->submit(simple(CommandKind::Back)); }
void Runner::seek(int iteration) { impl_->submit(simple(CommandKind::Seek, iteration)); }

void Runner::set_history_budget(size_t bytes) {
  Command c = simple(CommandKind::SetBudget);
  c.value = static_cast<double>(bytes);
  impl_->submit(std::move(c));
}

void Runner::set_speed(double steps_per_second) {
  {
    std::lock_guard<std::mutex> lk(impl_->mu_);
    impl_->speed_ = steps_per_second;
  }
  impl_->work_cv_.notify_one();
}

void Runner::set_play_sub_steps(bool on) {
  {
    std::lock_guard<std::mutex> lk(impl_->mu_);
    impl_->play_sub_steps_ = on;
  }
  impl_->work_cv_.notify_one();
}

bool Runner::play_sub_steps() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->play_sub_steps_;
}

uint64_t Runner::set_live(const std::string& name, double value) {
  Command c = simple(CommandKind::SetLive);
  c.name = name;
  c.value = value;
  return impl_->submit(std::move(c));
}

uint64_t Runner::apply(const Intent& intent) {
  Command c = simple(CommandKind::Apply);
  c.intent = intent;
  return impl_->submit(std::move(c));
}

std::shared_ptr<const Snapshot> Runner::latest() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->latest_;
}

bool Runner::playing() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->playing_ || impl_->burst_left_ > 0;
}

bool Runner::busy() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return !impl_->queue_.empty() || impl_->busy_ || impl_->burst_left_ > 0;
}

int Runner::current_iteration() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->shown_.iteration;
}

int Runner::last_iteration() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return std::max(0, static_cast<int>(impl_->records_.size()) - 1);
}

double Runner::speed() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->speed_;
}

std::vector<IterationRecord> Runner::history() const {
  return metric_history()->to_vector();
}

std::shared_ptr<const MetricHistory> Runner::metric_history() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->records_.view();
}

std::shared_ptr<const Snapshot> Runner::stored_snapshot(int iteration) const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  auto it = impl_->snapshots_.find(iteration);
  return it == impl_->snapshots_.end() ? nullptr : it->second.snapshot;
}

double Runner::last_step_ms() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->last_step_ms_;
}

std::string Runner::last_error() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->last_error_;
}

void Runner::clear_error() {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  impl_->last_error_.clear();
}

bool Runner::done(uint64_t ticket) const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->done_ticket_ >= ticket;
}

RunnerFrame Runner::take_frame() {
  RunnerFrame f;
  std::lock_guard<std::mutex> lk(impl_->mu_);
  f.snapshot = impl_->latest_;
  f.values = impl_->values_;
  f.results.assign(impl_->results_.begin(), impl_->results_.end());
  impl_->results_.clear();
  return f;
}

const ModuleInfo* Runner::info() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->info_;
}

ParamValues Runner::values() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->values_;
}

RunRecipe Runner::recipe() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  RunRecipe r;
  r.values = impl_->base_values_pub_;
  r.seed = impl_->seed_;
  r.iteration = std::max(0, impl_->shown_.iteration);
  r.phase = impl_->shown_.iteration < 0 ? 0 : impl_->shown_.phase;
  r.last_iteration = std::max(r.iteration, static_cast<int>(impl_->records_.size()) - 1);
  if (r.phase > 0) r.last_iteration = r.iteration;  // a sub-step is always the line's end
  for (const runner_detail::Edit& e : impl_->edits_pub_)
    r.edits.push_back({e.at.iteration, e.at.phase, e.live, e.name, e.value, e.intent});
  return r;
}

uint64_t Runner::replay_recipe(std::shared_ptr<const Dataset> data, const RunRecipe& recipe) {
  const uint64_t ticket = reset(std::move(data), recipe.values, recipe.seed);
  // step() from inside an iteration finishes it (to the next iteration's
  // start), so a burst of (target - it) steps lands on the target from any phase.
  int it = 0, phase = 0;
  for (const RunEdit& e : recipe.edits) {
    if (e.iteration > it) {
      step_n(e.iteration - it);
      it = e.iteration;
      phase = 0;
    }
    for (; phase < e.phase; ++phase) sub_step();
    if (e.live) set_live(e.name, e.value);
    else apply(e.intent);
  }
  const int end = std::max(recipe.iteration, recipe.last_iteration);
  if (end > it) {
    step_n(end - it);
    it = end;
    phase = 0;
  }
  if (recipe.iteration < end) seek(recipe.iteration);  // the history goes on past the position shown
  else
    for (; phase < recipe.phase; ++phase) sub_step();
  return ticket;
}

uint64_t Runner::seed() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->seed_;
}

std::shared_ptr<const Dataset> Runner::dataset() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->data_;
}

Progress Runner::progress() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  if (impl_->resetting_) {
    Progress p = impl_->reset_progress_.read();
    if (!p.active()) p.stage = "resetting";
    return p;
  }
  if (impl_->burst_left_ > 0 && impl_->burst_total_ > 0) {
    const int done = impl_->burst_total_ - impl_->burst_left_;
    Progress p;
    p.stage = "iterations " + std::to_string(done) + " of " + std::to_string(impl_->burst_total_) + " (to iteration " +
              std::to_string(std::max(0, impl_->burst_from_) + impl_->burst_total_) + ")";
    p.fraction = static_cast<double>(done) / impl_->burst_total_;
    return p;
  }
  return {};
}

size_t Runner::history_bytes() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->bytes_;
}

void Runner::run_steps(int n, const std::function<void(const Snapshot&, double step_ms)>& on_step) {
  if (!impl_->config_.threaded) {
    impl_->run_steps_now(n, &on_step);
    return;
  }
  Command c = simple(CommandKind::RunSteps, n);
  c.on_step = &on_step;
  c.done = std::make_shared<Completion>();
  std::shared_ptr<Completion> done = c.done;
  impl_->submit(std::move(c));
  std::unique_lock<std::mutex> lk(impl_->mu_);
  impl_->idle_cv_.wait(lk, [&] { return done->finished; });
  if (done->error) std::rethrow_exception(done->error);
}

void Runner::wait_idle() const {
  if (!impl_->config_.threaded) return;
  std::unique_lock<std::mutex> lk(impl_->mu_);
  impl_->idle_cv_.wait(lk, [&] {
    return impl_->stop_ || (impl_->queue_.empty() && !impl_->busy_ && impl_->burst_left_ == 0);
  });
}

}  // namespace cilab
