// Runner: owns one module on a worker thread and records its history.
//
// The UI thread only enqueues commands and reads the latest published
// snapshot (latest wins: a shared_ptr<const Snapshot> swapped under a short
// lock), so a slow step never blocks a frame. Commands are applied between
// steps, in order.
//
// History: every completed iteration's metrics and step time (readable per
// frame in O(1) as a shared append-only MetricHistory); snapshots of
// iterations kept while they fit a memory budget; module clones (keyframes)
// every few iterations. Seeking to an iteration shows the stored snapshot or
// re-simulates from the nearest earlier keyframe (deterministic). Continuing
// (play/step) after seeking back resumes from that iteration and discards the
// later history. An edit (intent, live parameter) at iteration i discards the
// history after i and makes i a keyframe.
//
// Blocking mode (threaded = false) runs commands in the calling thread; the
// CLI and tests use run_steps(). There play() only sets playing() (nothing
// steps in the background) and step_n() runs its steps at once.
//
// Tickets: every command gets a ticket (increasing); reset(), set_live() and
// apply() return theirs and report a CommandResult when applied, which the UI
// collects with take_frame() instead of blocking on wait_idle().
//
// Details: step/sub-step/step_n/play do nothing at a terminal status (an
// intent or live change that makes the module Running again lets them go on);
// seek() and back() pause; reset() leaves playing() as it was; a failed step
// (exception from the module) pauses and sets last_error().
#pragma once

#include "algorithms/core/module.h"
#include "algorithms/core/progress.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace cilab {

struct RunnerConfig {
  bool threaded = true;
  size_t history_budget_bytes = size_t(512) << 20;  // snapshots + keyframes
  int keyframe_interval = 10;                       // iterations between module clones
};

// Per-iteration record (index = iteration, 0 = state after reset).
struct IterationRecord {
  std::vector<double> metrics;  // the snapshot's metrics at phase 0
  double step_ms = 0.0;         // wall time of the step that produced it (0 for iteration 0)
  Status status = Status::Running;
};

// An immutable view of the iteration records 0..size()-1 of one run, shared
// with the runner: records live in chunks of kChunkSize that the runner only
// appends to (past every view's size), so obtaining a view copies nothing per
// element and a view never changes. A truncation (stepping after a seek back,
// an edit, a reset) starts a new "line" (line() changes); common_prefix()
// tells a reader holding records of an older line which of them still hold.
class MetricHistory {
 public:
  static constexpr size_t kChunkSize = 1024;
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Record of iteration i (i < size()).
  const IterationRecord& operator[](size_t i) const { return (*(*chunks_)[i / kChunkSize])[i % kChunkSize]; }
  // Identity of the line these records are on (unique over all runners; never 0).
  uint64_t line() const { return line_; }
  // Number of leading records this view shares with line `line`: size() for
  // its own line, the cut point for a line it was cut from (the last 16
  // truncations are remembered), 0 for an unrelated or forgotten line.
  size_t common_prefix(uint64_t line) const;
  // A plain copy of the records.
  std::vector<IterationRecord> to_vector() const;

 private:
  friend class MetricHistoryWriter;
  using Chunk = std::vector<IterationRecord>;  // always kChunkSize records
  std::shared_ptr<const std::vector<std::shared_ptr<Chunk>>> chunks_;
  size_t size_ = 0;
  uint64_t line_ = 0;
  // (line, shared prefix) of the lines this one was cut from, newest first.
  std::shared_ptr<const std::vector<std::pair<uint64_t, size_t>>> ancestors_;
};

// The UI side of a MetricHistory as plain vectors (what ViewContext and the
// metrics strip take), kept up to date incrementally: each sync() copies only
// the records it has not seen; after a truncation it keeps the prefix shared
// with the new line and copies the rest.
class MetricHistoryMirror {
 public:
  // Brings the vectors to h (nullptr: empty). Returns the number of records copied.
  MetricHistoryMirror();
  size_t sync(const MetricHistory* h);
  const std::vector<std::vector<double>>& metrics() const { return metrics_; }
  const std::vector<double>& step_ms() const { return step_ms_; }
  // Changes whenever a sync removes or changes mirrored entries (unique over
  // all mirrors, never 0): while it stays the same the vectors only grew
  // (draw_metric_plots' version).
  uint64_t version() const { return version_; }

 private:
  uint64_t line_ = 0;
  uint64_t version_;
  std::vector<std::vector<double>> metrics_;
  std::vector<double> step_ms_;
};

// The outcome of a command that can fail (reset, set_live, apply).
struct CommandResult {
  uint64_t ticket = 0;
  bool ok = true;
  std::string error;  // why it failed ("" when ok); also published in last_error()
};

// What the UI draws in one frame, read under one lock so the parts agree: a
// reset's result is never seen before its snapshot, nor its snapshot before
// its result.
struct RunnerFrame {
  std::shared_ptr<const Snapshot> snapshot;  // latest()
  ParamValues values;                        // values()
  std::vector<CommandResult> results;        // completed since the last take_frame(), in order
};

// An edit of the run as logged: where it was made (iteration, phase) and
// what, a live parameter change (name, value) or a module edit (intent).
struct RunEdit {
  int iteration = 0;
  int phase = 0;
  bool live = false;
  std::string name;
  double value = 0.0;
  Intent intent;
};

// What re-creates the run shown, given its data (a session): the reset's
// values and seed, the edits of the history's line, the line's last
// iteration, and the position shown (phase > 0 only at the line's end).
struct RunRecipe {
  ParamValues values;
  uint64_t seed = 0;
  std::vector<RunEdit> edits;
  int iteration = 0;
  int phase = 0;
  int last_iteration = 0;  // <= iteration: none beyond the shown position
};

class Runner {
 public:
  using Factory = std::function<std::unique_ptr<Module>()>;

  explicit Runner(Factory factory, RunnerConfig config = {});
  ~Runner();  // stops and joins the worker
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // ---- commands (non-blocking when threaded; applied in order between steps)
  // Builds a fresh module and resets it. On failure (std::invalid_argument or
  // any std::exception) the previous module, history and snapshot are kept and
  // the message is published in last_error() and in the ticket's CommandResult.
  uint64_t reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed);
  void play();
  void pause();
  void toggle_play();
  void step();            // one full iteration
  void sub_step();        // one sub-step (a full step if the module has none)
  // n full iterations. Threaded: a burst that completes before later commands
  // run, except that a queued pause() or toggle_play() cancels it at once.
  void step_n(int n);
  void back();            // seek(current iteration - 1); from a sub-step: to its iteration start
  void seek(int iteration);  // clamped to [0, last_iteration()]
  void set_speed(double steps_per_second);  // <= 0: as fast as possible
  // A new history budget (RunnerConfig::history_budget_bytes), applied in order:
  // a smaller one thins the history at once (Compare A/B: A and B share one budget).
  void set_history_budget(size_t bytes);
  // Slow motion: play advances one sub-step per tick (the speed then counts
  // sub-steps per second), pausing between the halves of an iteration (the
  // GAN's D step and G step, k-means' assignment and update). Modules without
  // sub-steps play whole steps.
  void set_play_sub_steps(bool on);
  bool play_sub_steps() const;
  // A live parameter change / a module edit at the shown position (ticket reported).
  uint64_t set_live(const std::string& name, double value);
  uint64_t apply(const Intent& intent);

  // ---- reads (cheap, never wait for a step)
  std::shared_ptr<const Snapshot> latest() const;  // nullptr before the first successful reset
  bool playing() const;            // playing, or a step_n burst in progress
  bool busy() const;               // a command is queued or running, or a step_n burst is in progress
  int current_iteration() const;   // iteration shown by latest()
  int last_iteration() const;      // furthest iteration in the history (0 before reset)
  double speed() const;
  // Copy of the history up to last_iteration() (metrics only; O(iterations):
  // per-frame readers use metric_history()).
  std::vector<IterationRecord> history() const;
  // The same records as a shared immutable view, O(1) (nothing copied).
  std::shared_ptr<const MetricHistory> metric_history() const;
  // The stored snapshot of `iteration` (phase 0), or nullptr if it was not
  // kept (budget) or is not in the history. Never waits for a step.
  std::shared_ptr<const Snapshot> stored_snapshot(int iteration) const;
  double last_step_ms() const;
  // Message of the last failed command ("" if none); cleared by the next successful reset.
  std::string last_error() const;
  void clear_error();
  // True once the command with this ticket has been applied (or dropped at shutdown).
  bool done(uint64_t ticket) const;
  // The snapshot, the values and the results reported since the last call,
  // under one lock (the GUI calls it once per frame). At most kMaxResults
  // results are kept (the oldest go first) when nobody collects them.
  RunnerFrame take_frame();
  static constexpr size_t kMaxResults = 256;
  const ModuleInfo* info() const;       // of the current module (nullptr before reset)
  ParamValues values() const;           // current parameter values (after live changes)
  // The recipe of the position shown (never waits for a step): replay_recipe()
  // on a fresh runner with the same data reaches the same state.
  RunRecipe recipe() const;
  uint64_t seed() const;
  std::shared_ptr<const Dataset> dataset() const;
  size_t history_bytes() const;         // memory held by stored snapshots + keyframes
  // What the worker is doing that takes a while (never waits): a reset's stages as
  // its module reports them (report_progress: "counting co-occurrences", 0.4), or a
  // step_n burst ("iterations 120 of 395" and its fraction); inactive otherwise.
  Progress progress() const;

  // ---- blocking helpers (threaded == false, or waits for the queue to drain when threaded)
  // Runs up to n steps (stops early at a terminal status); calls on_step after
  // each (threaded: on the worker thread while the caller waits; an exception
  // thrown by on_step is rethrown to the caller).
  void run_steps(int n, const std::function<void(const Snapshot&, double step_ms)>& on_step = {});
  // Blocks until every queued command has been applied and any step_n burst
  // is done; does not wait for play() to stop (tests, CLI, and the GUI right
  // after a reset/set_live to read last_error()).
  void wait_idle() const;

  // Posts what re-creates `recipe` on `data`: a reset, then steps, sub-steps
  // and the edits at their positions, in order. Returns the reset's ticket
  // (the rest is queued behind it and runs without waiting).
  uint64_t replay_recipe(std::shared_ptr<const Dataset> data, const RunRecipe& recipe);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cilab
