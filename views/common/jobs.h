// Background jobs owned by the app, lent to views through ViewContext::jobs.
//
// A job is a function run once on a thread of its own (or at once, on the
// caller's thread, in Mode::Inline) that polls a CancelToken and may report
// progress through it: a model-selection sweep, a parameter sweep of a lecture
// demo. Nothing here knows a module or a view: a job writes its results into
// state its submitter shares with it (a shared_ptr captured by the function),
// and the submitter reads them once the job's state is terminal.
//
// Threading contract:
// - submit() returns at once with a JobHandle; the function starts on a new
//   thread. Nothing in this class or in JobHandle waits for a job except
//   JobHandle::wait() (tests, command line) and the destructor.
// - cancel() only sets the job's flag; the function sees it through
//   CancelToken::cancelled() and returns early. Its thread is joined once the
//   function has returned (by the next submit() or reap(), which never wait
//   for a running function) or by the destructor.
// - Everything the function wrote before returning happens-before a
//   JobHandle::state() call that returns a terminal state (Finished, Failed,
//   Cancelled): reading a job's results after seeing it finished is safe.
// - A function that throws ends the job as Failed with the exception's text.
// - The destructor cancels every job and joins every thread.
// JobHandles share only the job's record (flags, progress, error), never the
// BackgroundJobs object, so a handle may outlive it.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cilab {

// Where a job is in its life.
enum class JobState { Running, Finished, Failed, Cancelled };

// True for Finished, Failed and Cancelled.
inline bool is_terminal(JobState s) { return s != JobState::Running; }

namespace jobs_detail {
struct JobRecord;
}

// What a running job reads and writes: the cancel flag and its progress.
class CancelToken {
 public:
  explicit CancelToken(std::shared_ptr<jobs_detail::JobRecord> rec) : rec_(std::move(rec)) {}
  // True once the job was cancelled: the function should return soon.
  bool cancelled() const;
  // Reports progress: `done` of `total` units (e.g. fits) finished.
  void set_progress(int done, int total) const;

 private:
  std::shared_ptr<jobs_detail::JobRecord> rec_;
};

// Progress of a job as last reported by its function (0 of 0 before any report).
struct JobProgress {
  int done = 0;
  int total = 0;
};

// The submitter's view of one job. A default-constructed handle refers to no job.
class JobHandle {
 public:
  JobHandle() = default;
  // True if the handle refers to a job.
  bool valid() const { return rec_ != nullptr; }
  // The job's name, as submitted ("" for an invalid handle).
  std::string name() const;
  // The job's state (Cancelled for an invalid handle).
  JobState state() const;
  // True while the function runs.
  bool running() const { return valid() && state() == JobState::Running; }
  // True once cancel() was called (the function may still be running).
  bool cancel_requested() const;
  // The last progress the function reported.
  JobProgress progress() const;
  // The exception text of a Failed job ("" otherwise).
  std::string error() const;
  // Asks the job to stop; returns at once (the function sees CancelToken::cancelled()).
  void cancel() const;
  // Blocks until the function returned (tests, command line; never in a frame).
  void wait() const;

 private:
  friend class BackgroundJobs;
  explicit JobHandle(std::shared_ptr<jobs_detail::JobRecord> rec) : rec_(std::move(rec)) {}
  std::shared_ptr<jobs_detail::JobRecord> rec_;
};

// One line of BackgroundJobs::statuses().
struct JobStatus {
  std::string name;
  JobState state = JobState::Running;
  JobProgress progress;
  bool cancel_requested = false;
};

// The app's background jobs: one thread per submitted job.
class BackgroundJobs {
 public:
  // Threaded: a thread per job. Inline: submit() runs the function before it
  // returns (tests, command line; never use it in the GUI).
  enum class Mode { Threaded, Inline };

  explicit BackgroundJobs(Mode mode = Mode::Threaded) : mode_(mode) {}
  // Cancels every job and joins every thread.
  ~BackgroundJobs();
  BackgroundJobs(const BackgroundJobs&) = delete;
  BackgroundJobs& operator=(const BackgroundJobs&) = delete;

  // Starts `work` (named for status displays) and returns its handle. Also
  // joins the threads of jobs that have ended.
  JobHandle submit(std::string name, std::function<void(const CancelToken&)> work);
  // Asks every job to stop (returns at once).
  void cancel_all();
  // Joins the threads of ended jobs and forgets them; never waits for a running one.
  void reap();
  // Jobs not yet reaped (running ones and ended ones whose thread is not joined yet), oldest first.
  std::vector<JobStatus> statuses() const;
  // Number of jobs whose function is still running.
  int running() const;

 private:
  struct Entry {
    std::shared_ptr<jobs_detail::JobRecord> rec;
    std::thread thread;
  };
  Mode mode_;
  mutable std::mutex mu_;  // guards entries_ (submit/reap/statuses may come from several threads)
  std::vector<Entry> entries_;
};

}  // namespace cilab
