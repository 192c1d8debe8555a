// Private declarations of the Runner, shared by its three source files (not
// part of the headless API; include it only from app/headless/runner*.cpp):
//   runner.cpp          the command queue and the worker thread: submit, dispatch,
//                       reset / step / sub-step / play, publishing, tickets and
//                       CommandResults, take_frame() and the other public reads;
//   runner_history.cpp  history and replay: seek (rewind) and edits, keyframes,
//                       the edit log, re-simulation, the memory budget;
//   runner_metrics.cpp  MetricHistory, MetricHistoryMirror and MetricHistoryWriter.
//
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
#pragma once

#include "app/headless/runner.h"
#include "algorithms/core/progress.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace cilab {
namespace runner_detail {

using Clock = std::chrono::steady_clock;
using StepCallback = std::function<void(const Snapshot&, double)>;

// A keyframe (a module clone) may cost at most this share of the step time
// since the previous one; beyond it the keyframe stride doubles, up to kMaxKeyframeStride.
constexpr double kKeyframeCostShare = 0.02;
constexpr long long kMaxKeyframeStride = 1024;

// Where a run is: completed iterations and sub-steps into the next one.
struct Position {
  int iteration = 0;
  int phase = 0;
  bool valid() const { return iteration >= 0; }
};
inline bool operator<(Position a, Position b) {
  return a.iteration != b.iteration ? a.iteration < b.iteration : a.phase < b.phase;
}
inline bool operator==(Position a, Position b) { return a.iteration == b.iteration && a.phase == b.phase; }
inline bool operator<=(Position a, Position b) { return !(b < a); }
inline constexpr Position kUnknown{-1, 0};

// A logged edit, replayed when re-simulating through its position.
struct Edit {
  Position at;
  bool live = false;    // set_live(name, value), else apply(intent)
  std::string name;
  double value = 0.0;
  Intent intent;
};

enum class CommandKind { Reset, Play, Pause, TogglePlay, Step, SubStep, StepN, Back, Seek, SetLive, Apply, RunSteps,
                         SetBudget };

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
  double value = 0.0;                     // SetLive; SetBudget (bytes)
  Intent intent;                          // Apply
  const StepCallback* on_step = nullptr;  // RunSteps (lives in the waiting caller's frame)
  std::shared_ptr<Completion> done;       // RunSteps
};

struct StoredSnapshot {
  std::shared_ptr<const Snapshot> snapshot;
  size_t bytes = 0;                          // its own byte_size()
  std::vector<Snapshot::SharedPart> parts;   // its shared_parts(), counted once in SharedParts
};

// The shared parts held by the stored snapshots, each counted once: a part's
// bytes enter the budget with its first holder and leave with its last.
class SharedParts {
 public:
  // Adds `parts` (one more holder each); returns the bytes that entered the count.
  size_t hold(const std::vector<Snapshot::SharedPart>& parts);
  // Removes one holder of each; returns the bytes that left the count.
  size_t release(const std::vector<Snapshot::SharedPart>& parts);
  void clear() { held_.clear(); }

 private:
  struct Held {
    size_t bytes = 0;
    int holders = 0;
  };
  std::map<const void*, Held> held_;
};

struct Keyframe {
  std::unique_ptr<Module> module;
  size_t bytes = 0;  // estimated as the snapshot's byte_size()
};

}  // namespace runner_detail

// The runner's side of a MetricHistory: appends into the shared chunks and
// cuts lines. Callers serialise every call (Runner::Impl: mutations under
// mu_). Slots a view covers are never written again: appends go past every
// view's size, and a cut copies the partial chunk into a fresh one.
class MetricHistoryWriter {
 public:
  MetricHistoryWriter() { clear(); }
  size_t size() const { return size_; }
  const IterationRecord& operator[](size_t i) const { return (*(*chunks_)[i / kChunk])[i % kChunk]; }
  void push_back(const IterationRecord& r);
  // Keeps the first n records; n < size() starts a new line.
  void truncate(size_t n);
  // An empty history on a new line unrelated to the previous ones.
  void clear();
  // The current records as a view (cached until the next change).
  std::shared_ptr<const MetricHistory> view() const;

 private:
  using Chunk = MetricHistory::Chunk;
  static constexpr size_t kChunk = MetricHistory::kChunkSize;
  std::shared_ptr<const std::vector<std::shared_ptr<Chunk>>> chunks_;
  size_t size_ = 0;
  uint64_t line_ = 0;
  std::shared_ptr<const std::vector<std::pair<uint64_t, size_t>>> ancestors_;
  mutable std::shared_ptr<const MetricHistory> view_;
};

// The runner's state and steps; the member functions live in the three
// runner*.cpp files listed at the top. The aliases keep the private types
// unqualified here and in those files.
struct Runner::Impl {
  using Clock = runner_detail::Clock;
  using StepCallback = runner_detail::StepCallback;
  using Position = runner_detail::Position;
  using Edit = runner_detail::Edit;
  using Command = runner_detail::Command;
  using StoredSnapshot = runner_detail::StoredSnapshot;
  using Keyframe = runner_detail::Keyframe;

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
  // Module::settle() and, if it changed the snapshot, publish it again.
  void settle_now();
  void set_error(const std::string& message);
  bool stopping() const;

  const Factory factory_;
  RunnerConfig config_;  // history_budget_bytes changes only on the worker (SetBudget); the rest is fixed

  // ---- shared with reading threads: guarded by mu_ (worker writes under it,
  // and may read without it since it is the only writer)
  mutable std::mutex mu_;
  std::condition_variable work_cv_;          // wakes the worker
  mutable std::condition_variable idle_cv_;  // wakes wait_idle() / run_steps()
  std::deque<Command> queue_;
  bool busy_ = false;       // the worker is applying a command
  int burst_left_ = 0;      // steps left of a step_n burst
  int burst_total_ = 0;     // its length (progress(): done = total - left)
  int burst_from_ = 0;      // the iteration it started at
  ProgressSink reset_progress_;  // what the module's reset reports (its stages)
  bool resetting_ = false;       // a reset is under way (mu_)
  bool playing_ = false;
  double speed_ = 0.0;
  bool play_sub_steps_ = false;  // slow motion: play advances one sub-step per tick
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
  ParamValues base_values_pub_;       // base_values_, for recipe()
  std::vector<Edit> edits_pub_;       // edits_, for recipe()
  void publish_edits();               // worker: edits_pub_ = edits_ (takes mu_)
  std::shared_ptr<const Dataset> data_;
  size_t bytes_ = 0;
  uint64_t next_ticket_ = 1;
  uint64_t done_ticket_ = 0;             // every command up to this ticket has been applied
  std::deque<CommandResult> results_;    // reported, not yet taken

  // ---- worker-only
  std::unique_ptr<Module> module_;
  Position module_at_ = runner_detail::kUnknown;
  // Worker only: the module was settled (Module::settle) since the last publish.
  bool settled_ = true;
  std::map<int, Keyframe> keyframes_;
  std::vector<Edit> edits_;  // sorted by position (appended at shown_ after truncation)
  ParamValues base_values_;  // validated values of the last successful reset
  size_t held_bytes_ = 0;    // stored snapshots (own bytes + their shared parts once) + keyframes
  runner_detail::SharedParts shared_parts_;  // the stored snapshots' shared parts (mu_)
  long long snapshot_stride_ = 1;  // store snapshots of multiples of this; 0 = none
  long long keyframe_stride_ = 10;  // keyframes at multiples of this (iterations)
  double steps_ms_since_keyframe_ = 0.0;  // step time since the last keyframe (the clone-cost rule)
  double partial_ms_ = 0.0;         // sub-step time spent in the current iteration
  Clock::time_point last_play_step_;
  // The command being applied, if it reports a result: its ticket, its first
  // error, and whether its result went out already (with its snapshot).
  uint64_t reporting_ = 0;
  std::string command_error_;
  bool reported_ = false;

  std::thread worker_;
};

}  // namespace cilab
