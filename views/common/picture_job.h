// The picture job of a view: at most one background job at a time computes a
// view's pictures from a request (the shared copies of what it reads), inside a
// SerialScope (one core: the run keeps the thread pool), at most `hz` times a
// second and, with a job share, at most that share of one core (after a job of
// T seconds the next starts no sooner than T / share later). The view collects
// what a finished job computed; pending() is its ModuleView::pictures_pending().
#pragma once

#include "algorithms/core/parallel.h"
#include "views/common/jobs.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>

namespace cilab {

template <class Request, class Result>
class PictureJob {
 public:
  using Compute = Result (*)(const Request&);
  // A finished job: the request it answered and what it computed.
  struct Done {
    Request request;
    Result result;
  };

  PictureJob(const char* name, Compute compute, double hz, double job_share = 0)
      : name_(name), compute_(compute), hz_(hz), share_(job_share) {}
  PictureJob(const PictureJob&) = delete;
  PictureJob& operator=(const PictureJob&) = delete;

  // A job was submitted and is not collected yet (start none meanwhile).
  bool busy() const { return job_ != nullptr; }
  // Pictures are still to come: a job not collected yet, or one the pacing held back last frame.
  bool pending() const { return job_ != nullptr || paced_; }

  // Once per frame, first: what the ended job computed (nothing while it runs, or when it
  // failed or was cancelled); forgets the job.
  std::optional<Done> collect() {
    paced_ = false;
    if (!job_ || !handle_.valid() || !is_terminal(handle_.state())) return std::nullopt;
    std::optional<Done> done;
    if (handle_.state() == JobState::Finished && job_->result) {
      done = Done{std::move(job_->request), std::move(*job_->result)};
      seconds_ = job_->seconds;
    }
    job_.reset();
    handle_ = JobHandle();
    return done;
  }

  // True when a job started at `now` would come too soon after the last and the view can
  // show what it has (`can_wait`): the view starts none, and pending() says so.
  bool hold_back(double now, bool can_wait) {
    const double wait = std::max(1.0 / hz_, share_ > 0 ? seconds_ / share_ : 0.0);
    paced_ = can_wait && now - last_submit_ < wait;
    return paced_;
  }

  // Starts a job on `request` at `now` (the time the pacing counts from).
  void submit(BackgroundJobs& jobs, Request request, double now) {
    auto job = std::make_shared<Record>();
    job->request = std::move(request);
    last_submit_ = now;
    job_ = job;
    handle_ = jobs.submit(name_, [job, compute = compute_](const CancelToken& token) {
      if (token.cancelled()) return;
      const SerialScope serial;
      const auto t0 = std::chrono::steady_clock::now();
      job->result = compute(job->request);
      job->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
  }

  // The same work on this thread (tests without background jobs, small inputs); `now` counts
  // for the pacing as a submit would.
  Result compute_here(const Request& request, double now) {
    last_submit_ = now;
    return compute_(request);
  }

  // Cancels a running job (never waits) and forgets it and the pacing (ModuleView::on_reset).
  void reset() {
    if (handle_.valid()) handle_.cancel();
    handle_ = JobHandle();
    job_.reset();
    last_submit_ = -1e9;
  }

 private:
  // Shared with the job's thread: written by it, read once its state is terminal.
  struct Record {
    Request request;
    std::optional<Result> result;
    double seconds = 0;  // compute time
  };

  const char* name_;
  Compute compute_;
  double hz_, share_;
  std::shared_ptr<Record> job_;
  JobHandle handle_;
  double last_submit_ = -1e9;
  double seconds_ = 0;  // the last collected job's compute time
  bool paced_ = false;
};

}  // namespace cilab
