// Runner implementation: a command queue served by one worker thread (or by
// the caller in blocking mode), a phase-0 history with a memory budget, and
// deterministic re-simulation from keyframes.
//
// Positions. A run position is (iteration, phase); phase > 0 is part-way
// through an iteration after that many sub-steps. `shown_` is the position of
// the published snapshot; `module_at_` is where the live module actually is.
// Seeking to a stored snapshot only moves `shown_` (cheap scrubbing); the
// module is brought to `shown_` ("materialised") only when something needs it:
// a step, an edit, or a seek to an iteration whose snapshot was not kept.
//
// Re-simulation. Keyframes are module clones at phase-0 positions. Edits
// (live parameters, intents) are logged with their position and replayed when
// re-simulating through it, so keyframes are only a cache: any of them except
// iteration 0 may be dropped by the budget without losing a branch. Invariant:
// a keyframe at i is the state at (i, 0) after every edit logged at (i, 0).
//
// Branching. Stepping, sub-stepping or editing at `shown_` first discards the
// history after `shown_` (records, snapshots, keyframes, edits), so the history
// is always one line and the live module is always on it.
//
// Budget. Stored snapshots and keyframes (counted at their snapshot's
// byte_size()) share history_budget_bytes. Over budget, stored snapshots are
// thinned first (keep every 2nd, then 4th, ... then none), then keyframes
// (every 2nd ... of the interval; iteration 0 is always kept). Iteration
// records (metrics) are never dropped.
//
// Locking. One mutex `mu_` guards the queue and everything the UI reads; it is
// never held while a module runs. Worker-only state (module, keyframes, edit
// log) needs no lock: only the worker (or the caller in blocking mode) touches it.
#include "app/headless/runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <stdexcept>
#include <utility>

namespace cilab {
namespace {

using Clock = std::chrono::steady_clock;
using StepCallback = std::function<void(const Snapshot&, double)>;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Where a run is: completed iterations and sub-steps into the next one.
struct Position {
  int iteration = 0;
  int phase = 0;
  bool valid() const { return iteration >= 0; }
};
bool operator<(Position a, Position b) {
  return a.iteration != b.iteration ? a.iteration < b.iteration : a.phase < b.phase;
}
bool operator==(Position a, Position b) { return a.iteration == b.iteration && a.phase == b.phase; }
bool operator<=(Position a, Position b) { return !(b < a); }
const Position kUnknown{-1, 0};

// A logged edit, replayed when re-simulating through its position.
struct Edit {
  Position at;
  bool live = false;    // set_live(name, value), else apply(intent)
  std::string name;
  double value = 0.0;
  Intent intent;
};

void apply_edit(Module& m, const Edit& e) {
  if (e.live)
    m.set_live(e.name, e.value);
  else
    m.apply(e.intent);
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

enum class CommandKind { Reset, Play, Pause, TogglePlay, Step, SubStep, StepN, Back, Seek, SetLive, Apply, RunSteps };

// Set by the worker when a RunSteps command is done (guarded by mu_).
struct Completion {
  bool finished = false;
  std::exception_ptr error;
};

struct Command {
  CommandKind kind = CommandKind::Step;
  uint64_t ticket = 0;                    // set by submit()
  int n = 0;                              // StepN / Seek / RunSteps
  std::shared_ptr<const Dataset> data;    // Reset
  ParamValues values;                     // Reset
  uint64_t seed = 0;                      // Reset
  std::string name;                       // SetLive
  double value = 0.0;                     // SetLive
  Intent intent;                          // Apply
  const StepCallback* on_step = nullptr;  // RunSteps (lives in the waiting caller's frame)
  std::shared_ptr<Completion> done;       // RunSteps
};

struct StoredSnapshot {
  std::shared_ptr<const Snapshot> snapshot;
  size_t bytes = 0;
};

struct Keyframe {
  std::unique_ptr<Module> module;
  size_t bytes = 0;  // estimated as the snapshot's byte_size()
};

// Line ids of MetricHistory, unique over all runners of the process.
uint64_t next_line_id() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

constexpr size_t kMaxAncestors = 16;

}  // namespace

// ===================================================================== metric history

size_t MetricHistory::common_prefix(uint64_t line) const {
  if (line == line_) return size_;
  if (ancestors_)
    for (const std::pair<uint64_t, size_t>& a : *ancestors_)
      if (a.first == line) return std::min(a.second, size_);
  return 0;
}

std::vector<IterationRecord> MetricHistory::to_vector() const {
  std::vector<IterationRecord> out;
  out.reserve(size_);
  for (size_t i = 0; i < size_; ++i) out.push_back((*this)[i]);
  return out;
}

MetricHistoryMirror::MetricHistoryMirror() : version_(next_line_id()) {}

size_t MetricHistoryMirror::sync(const MetricHistory* h) {
  if (!h) {
    if (!metrics_.empty()) version_ = next_line_id();
    metrics_.clear();
    step_ms_.clear();
    line_ = 0;
    return 0;
  }
  const size_t keep = std::min(line_ != 0 ? h->common_prefix(line_) : size_t(0), metrics_.size());
  if (keep < metrics_.size()) version_ = next_line_id();
  metrics_.resize(keep);
  step_ms_.resize(keep);
  metrics_.reserve(h->size());
  step_ms_.reserve(h->size());
  for (size_t i = keep; i < h->size(); ++i) {
    const IterationRecord& r = (*h)[i];
    metrics_.push_back(r.metrics);
    step_ms_.push_back(r.step_ms);
  }
  line_ = h->line();
  return h->size() - keep;
}

// The runner's side of a MetricHistory: appends into the shared chunks and
// cuts lines. Callers serialise every call (Runner::Impl: mutations under
// mu_). Slots a view covers are never written again: appends go past every
// view's size, and a cut copies the partial chunk into a fresh one.
class MetricHistoryWriter {
 public:
  MetricHistoryWriter() { clear(); }
  size_t size() const { return size_; }
  const IterationRecord& operator[](size_t i) const { return (*(*chunks_)[i / kChunk])[i % kChunk]; }
  void push_back(const IterationRecord& r) {
    const size_t c = size_ / kChunk;
    if (c == chunks_->size()) {  // O(chunks) once per kChunk appends
      auto next = std::make_shared<std::vector<std::shared_ptr<Chunk>>>(*chunks_);
      next->push_back(std::make_shared<Chunk>(kChunk));
      chunks_ = std::move(next);
    }
    (*(*chunks_)[c])[size_ % kChunk] = r;
    ++size_;
    view_.reset();
  }
  // Keeps the first n records; n < size() starts a new line.
  void truncate(size_t n) {
    if (n >= size_) return;
    const size_t full = n / kChunk, rem = n % kChunk;
    auto next = std::make_shared<std::vector<std::shared_ptr<Chunk>>>(chunks_->begin(), chunks_->begin() + full);
    if (rem > 0) {
      auto tail = std::make_shared<Chunk>(kChunk);
      std::copy_n((*chunks_)[full]->begin(), rem, tail->begin());
      next->push_back(std::move(tail));
    }
    auto anc = std::make_shared<std::vector<std::pair<uint64_t, size_t>>>();
    anc->emplace_back(line_, n);
    if (ancestors_)
      for (const std::pair<uint64_t, size_t>& a : *ancestors_) {
        if (anc->size() == kMaxAncestors) break;
        anc->emplace_back(a.first, std::min(a.second, n));
      }
    chunks_ = std::move(next);
    ancestors_ = std::move(anc);
    line_ = next_line_id();
    size_ = n;
    view_.reset();
  }
  // An empty history on a new line unrelated to the previous ones.
  void clear() {
    chunks_ = std::make_shared<std::vector<std::shared_ptr<Chunk>>>();
    ancestors_.reset();
    line_ = next_line_id();
    size_ = 0;
    view_.reset();
  }
  // The current records as a view (cached until the next change).
  std::shared_ptr<const MetricHistory> view() const {
    if (!view_) {
      auto v = std::make_shared<MetricHistory>();
      v->chunks_ = chunks_;
      v->size_ = size_;
      v->line_ = line_;
      v->ancestors_ = ancestors_;
      view_ = std::move(v);
    }
    return view_;
  }

 private:
  using Chunk = MetricHistory::Chunk;
  static constexpr size_t kChunk = MetricHistory::kChunkSize;
  std::shared_ptr<const std::vector<std::shared_ptr<Chunk>>> chunks_;
  size_t size_ = 0;
  uint64_t line_ = 0;
  std::shared_ptr<const std::vector<std::pair<uint64_t, size_t>>> ancestors_;
  mutable std::shared_ptr<const MetricHistory> view_;
};

struct Runner::Impl {
  Impl(Factory factory, RunnerConfig config);

  // ---- command dispatch
  uint64_t submit(Command cmd);
  void worker_loop();
  void cancel_burst_if_paused();
  void execute(Command& cmd);
  void run_command(Command& cmd);

  // ---- commands (worker thread, or caller in blocking mode)
  void do_reset(const std::shared_ptr<const Dataset>& data, const ParamValues& values, uint64_t seed);
  bool step_once();
  bool sub_step_once();
  void run_steps_now(int n, const StepCallback* on_step);
  void start_playing();
  void stop_playing();
  void seek_to(int iteration);
  void edit(Edit e);

  // ---- helpers
  bool can_continue() const { return latest_ && !is_terminal(latest_->status); }
  bool prepare_to_advance(const char* what);
  void module_failed(const char* what, const std::string& message);
  void complete_iteration(double step_ms);
  void replay_to(Position target);
  void finish_iteration_replay();
  void apply_edits_at(Position p);
  void truncate_after(Position p);
  void keep_snapshot(int iteration, const std::shared_ptr<const Snapshot>& snap, bool replace);
  void keep_keyframe(int iteration, size_t bytes);
  void enforce_budget();
  void thin_snapshots();
  void thin_keyframes();
  ParamValues values_at(Position p) const;
  void publish(std::shared_ptr<const Snapshot> snap, Position pos);
  void set_error(const std::string& message);
  void report(const std::string& error);
  bool stopping() const;

  const Factory factory_;
  const RunnerConfig config_;

  // ---- shared with reading threads: guarded by mu_ (worker writes under it,
  // and may read without it since it is the only writer)
  mutable std::mutex mu_;
  std::condition_variable work_cv_;          // wakes the worker
  mutable std::condition_variable idle_cv_;  // wakes wait_idle() / run_steps()
  std::deque<Command> queue_;
  bool busy_ = false;       // the worker is applying a command
  int burst_left_ = 0;      // steps left of a step_n burst
  bool playing_ = false;
  double speed_ = 0.0;
  bool stop_ = false;
  std::shared_ptr<const Snapshot> latest_;
  Position shown_;
  MetricHistoryWriter records_;  // read by the worker without the lock (only writer)
  std::map<int, StoredSnapshot> snapshots_;
  double last_step_ms_ = 0.0;
  std::string last_error_;
  std::deque<ModuleInfo> infos_;  // every distinct info seen, so info() pointers stay valid
  const ModuleInfo* info_ = nullptr;
  ParamValues values_;
  uint64_t seed_ = 0;
  std::shared_ptr<const Dataset> data_;
  size_t bytes_ = 0;
  uint64_t next_ticket_ = 1;
  uint64_t done_ticket_ = 0;             // every command up to this ticket has been applied
  std::deque<CommandResult> results_;    // reported, not yet taken

  // ---- worker-only
  std::unique_ptr<Module> module_;
  Position module_at_ = kUnknown;
  std::map<int, Keyframe> keyframes_;
  std::vector<Edit> edits_;  // sorted by position (appended at shown_ after truncation)
  ParamValues base_values_;  // validated values of the last successful reset
  size_t held_bytes_ = 0;    // stored snapshots + keyframes
  long long snapshot_stride_ = 1;  // store snapshots of multiples of this; 0 = none
  long long keyframe_stride_ = 10;  // keyframes at multiples of this (iterations)
  double partial_ms_ = 0.0;         // sub-step time spent in the current iteration
  Clock::time_point last_play_step_;
  // The command being applied, if it reports a result: its ticket, its first
  // error, and whether its result went out already (with its snapshot).
  uint64_t reporting_ = 0;
  std::string command_error_;
  bool reported_ = false;

  std::thread worker_;
};

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
      lk.unlock();
      const bool more = step_once() && can_continue();
      lk.lock();
      if (!more) playing_ = false;
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
          burst_left_ = std::max(0, cmd.n);
        } else {
          run_steps_now(cmd.n, nullptr);
        }
        break;
      case CommandKind::Back:
        seek_to(shown_.phase > 0 ? shown_.iteration : shown_.iteration - 1);
        break;
      case CommandKind::Seek: seek_to(cmd.n); break;
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
    snapshots_.clear();
    records_.clear();
    records_.push_back(make_record(*snap, 0.0));
    last_step_ms_ = 0.0;
    last_error_.clear();
    if (infos_.empty() || !same_info(infos_.back(), module_->info())) infos_.push_back(module_->info());
    info_ = &infos_.back();
    seed_ = seed;
    data_ = data;
  }
  const size_t bytes0 = snap->byte_size();
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
  if (i % keyframe_stride_ == 0) keep_keyframe(i, snap->byte_size());
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

// Shows iteration `iteration` (clamped to the history); pauses.
void Runner::Impl::seek_to(int iteration) {
  stop_playing();
  if (!module_) return;
  const int last = static_cast<int>(records_.size()) - 1;
  const Position target{std::clamp(iteration, 0, last), 0};
  std::shared_ptr<const Snapshot> snap;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = snapshots_.find(target.iteration);
    if (it != snapshots_.end()) snap = it->second.snapshot;
  }
  if (!snap) {
    try {
      replay_to(target);
    } catch (const std::exception& e) {
      module_failed("re-simulation", e.what());
      return;
    }
    snap = module_->snapshot();
  }
  publish(snap, target);
}

// A live parameter change or an intent at the shown position.
void Runner::Impl::edit(Edit e) {
  if (!module_) {
    set_error("cannot edit: no run yet (reset the module first)");
    return;
  }
  try {
    replay_to(shown_);
  } catch (const std::exception& ex) {
    module_failed("re-simulation", ex.what());
    return;
  }
  try {
    if (e.live) {
      module_->set_live(e.name, e.value);
    } else if (!module_->apply(e.intent)) {
      return;  // not an edit this module accepts
    }
  } catch (const std::exception& ex) {
    set_error(ex.what());
    return;
  }
  truncate_after(shown_);
  e.at = shown_;
  edits_.push_back(std::move(e));
  std::shared_ptr<const Snapshot> snap = module_->snapshot();
  if (shown_.phase == 0) {
    const int i = shown_.iteration;
    {
      // i is the last record (truncated above): replace it, a new line for readers.
      IterationRecord r = records_[static_cast<size_t>(i)];
      r.metrics = snap->metrics;
      r.status = snap->status;
      std::lock_guard<std::mutex> lk(mu_);
      records_.truncate(static_cast<size_t>(i));
      records_.push_back(r);
    }
    keep_keyframe(i, snap->byte_size());
    keep_snapshot(i, snap, true);
    enforce_budget();
  }
  publish(snap, shown_);
}

// ===================================================================== history

// Brings the module to `target` (a position on the history line): steps the
// live module forward when it is at or before the target and past the nearest
// keyframe, else clones that keyframe; replays logged edits on the way.
void Runner::Impl::replay_to(Position target) {
  if (module_at_ == target) return;
  auto kf = std::prev(keyframes_.upper_bound(target.iteration));  // iteration 0 is always kept
  const bool reuse = module_at_.valid() && module_at_ <= target && module_at_.iteration >= kf->first;
  if (!reuse) {
    module_ = kf->second.module->clone();
    module_at_ = {kf->first, 0};
  }
  partial_ms_ = 0.0;
  while (module_at_ < target) {
    if (module_at_.iteration < target.iteration) {
      finish_iteration_replay();
    } else {
      module_->sub_step();
      ++module_at_.phase;
      apply_edits_at(module_at_);
    }
  }
}

// From module_at_ inside iteration i to (i + 1, 0), applying the edits logged
// at the sub-steps on the way and at the arrival.
void Runner::Impl::finish_iteration_replay() {
  const int i = module_at_.iteration;
  auto it = std::upper_bound(edits_.begin(), edits_.end(), module_at_,
                             [](Position p, const Edit& e) { return p < e.at; });
  for (; it != edits_.end() && it->at.iteration == i; ++it) {
    while (module_at_.phase < it->at.phase) {
      module_->sub_step();
      ++module_at_.phase;
    }
    apply_edit(*module_, *it);
  }
  module_->step();
  module_at_ = {i + 1, 0};
  apply_edits_at(module_at_);
}

void Runner::Impl::apply_edits_at(Position p) {
  auto it = std::lower_bound(edits_.begin(), edits_.end(), p,
                             [](const Edit& e, Position q) { return e.at < q; });
  for (; it != edits_.end() && it->at == p; ++it) apply_edit(*module_, *it);
}

// Discards everything recorded after `p` (a new branch starts at p).
void Runner::Impl::truncate_after(Position p) {
  const int i = p.iteration;
  for (auto it = keyframes_.upper_bound(i); it != keyframes_.end();) {
    held_bytes_ -= it->second.bytes;
    it = keyframes_.erase(it);
  }
  auto e = std::upper_bound(edits_.begin(), edits_.end(), p, [](Position q, const Edit& x) { return q < x.at; });
  edits_.erase(e, edits_.end());
  std::lock_guard<std::mutex> lk(mu_);
  records_.truncate(static_cast<size_t>(i) + 1);
  for (auto it = snapshots_.upper_bound(i); it != snapshots_.end();) {
    held_bytes_ -= it->second.bytes;
    it = snapshots_.erase(it);
  }
  bytes_ = held_bytes_;
}

// Stores the phase-0 snapshot of `iteration` if the stride allows (replace:
// an existing entry is overwritten, e.g. after an edit; else it is kept).
void Runner::Impl::keep_snapshot(int iteration, const std::shared_ptr<const Snapshot>& snap, bool replace) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = snapshots_.find(iteration);
  if (it != snapshots_.end()) {
    if (!replace) return;
    held_bytes_ -= it->second.bytes;
    snapshots_.erase(it);
  }
  if (snapshot_stride_ == 0 || iteration % snapshot_stride_ != 0) return;
  const size_t bytes = snap->byte_size();
  snapshots_[iteration] = StoredSnapshot{snap, bytes};
  held_bytes_ += bytes;
}

// Clones the live module (at (iteration, 0)) as a keyframe, replacing any.
void Runner::Impl::keep_keyframe(int iteration, size_t bytes) {
  std::unique_ptr<Module> clone = module_->clone();
  auto it = keyframes_.find(iteration);
  if (it != keyframes_.end()) held_bytes_ -= it->second.bytes;
  keyframes_[iteration] = Keyframe{std::move(clone), bytes};
  held_bytes_ += bytes;
}

void Runner::Impl::enforce_budget() {
  while (held_bytes_ > config_.history_budget_bytes) {
    bool have_snapshots;
    {
      std::lock_guard<std::mutex> lk(mu_);
      have_snapshots = !snapshots_.empty();
    }
    if (have_snapshots)
      thin_snapshots();
    else if (keyframes_.size() > 1)
      thin_keyframes();
    else
      break;  // only keyframe 0 is left; it is always kept
  }
}

// Keeps every 2nd stored snapshot (of the current stride); none once that frees nothing.
void Runner::Impl::thin_snapshots() {
  std::lock_guard<std::mutex> lk(mu_);
  const size_t before = snapshots_.size();
  snapshot_stride_ *= 2;
  for (auto it = snapshots_.begin(); it != snapshots_.end();) {
    if (it->first % snapshot_stride_ != 0) {
      held_bytes_ -= it->second.bytes;
      it = snapshots_.erase(it);
    } else {
      ++it;
    }
  }
  if (snapshots_.size() == before) {
    for (const auto& [i, s] : snapshots_) held_bytes_ -= s.bytes;
    snapshots_.clear();
    snapshot_stride_ = 0;
  }
}

// Keeps every 2nd keyframe (of the current stride); iteration 0 always stays.
void Runner::Impl::thin_keyframes() {
  keyframe_stride_ *= 2;  // a key k > 0 goes at the latest once the stride exceeds k
  for (auto it = keyframes_.begin(); it != keyframes_.end();) {
    if (it->first != 0 && it->first % keyframe_stride_ != 0) {
      held_bytes_ -= it->second.bytes;
      it = keyframes_.erase(it);
    } else {
      ++it;
    }
  }
}

// Parameter values in force at `p`: the reset values plus the live edits up to p.
ParamValues Runner::Impl::values_at(Position p) const {
  ParamValues v = base_values_;
  for (const Edit& e : edits_) {
    if (p < e.at) break;
    if (e.live) v[e.name] = e.value;
  }
  return v;
}

void Runner::Impl::publish(std::shared_ptr<const Snapshot> snap, Position pos) {
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

void Runner::set_speed(double steps_per_second) {
  {
    std::lock_guard<std::mutex> lk(impl_->mu_);
    impl_->speed_ = steps_per_second;
  }
  impl_->work_cv_.notify_one();
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

uint64_t Runner::seed() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->seed_;
}

std::shared_ptr<const Dataset> Runner::dataset() const {
  std::lock_guard<std::mutex> lk(impl_->mu_);
  return impl_->data_;
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
