// progress.h - what long work says while someone waits for it: a stage ("counting
// co-occurrences") and how far it is (a fraction in [0, 1], or unknown).
//
// Work reports with report_progress() (or a ProgressCounter in a loop); the report
// goes to the ProgressSink that the calling thread installed with a ProgressScope,
// and costs one thread-local read when none is installed (the CLI, the tests). The
// runner installs its sink around a reset (Runner::progress()), the app one per
// background data load; the UI thread polls ProgressSink::read() once per frame and
// draws a progress bar with the stage (the status bar, the "opening ..." overlay).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

namespace cilab {

struct Progress {
  std::string stage;      // "" when nothing is under way
  double fraction = -1.0;  // in [0, 1]; < 0 when unknown
  bool active() const { return !stage.empty(); }
};

// A thread-safe mailbox for one piece of work's progress (latest report wins).
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void set(std::string stage, double fraction);  // (a test records every report)
  void clear();
  Progress read() const;

 private:
  mutable std::mutex mu_;
  Progress p_;
};

// Installs a sink for the calling thread while it lives (nested scopes restore
// the outer sink). The sink must outlive the scope.
class ProgressScope {
 public:
  explicit ProgressScope(ProgressSink* sink);
  ~ProgressScope();
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  ProgressSink* previous_;
};

// Reports to the calling thread's sink, if any (fraction < 0: unknown; else clamped to [0, 1]).
void report_progress(const std::string& stage, double fraction = -1.0);
// True when the calling thread has a sink (skip building stage texts otherwise).
bool progress_wanted();

// A loop's reporter: tick(i) for item i of n reports the stage at most ~100 times.
class ProgressCounter {
 public:
  ProgressCounter(std::string stage, size_t n);
  void tick(size_t i) {
    if (i >= next_) report(i);
  }

 private:
  void report(size_t i);
  std::string stage_;
  size_t n_;
  size_t step_;
  size_t next_;
};

}  // namespace cilab
