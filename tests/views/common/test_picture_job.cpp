// A view's picture job (views/common/picture_job.h): collect hands over a finished job's request
// and result once, the pacing holds new jobs back (and says so in pending()), the job share
// stretches it by the compute time, reset cancels. ImGui-free: times are passed in.
#include "views/common/picture_job.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

using namespace cilab;

namespace {

int twice(const int& r) { return 2 * r; }

int slow_twice(const int& r) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return 2 * r;
}

}  // namespace

TEST_CASE("picture job: a finished job is collected once, with its request") {
  BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
  PictureJob<int, int> job("test pictures", twice, 5.0);
  CHECK_FALSE(job.busy());
  CHECK_FALSE(job.pending());
  CHECK_FALSE(job.collect());
  job.submit(jobs, 21, 0.0);
  CHECK(job.busy());
  CHECK(job.pending());
  const auto done = job.collect();
  REQUIRE(done);
  CHECK(done->request == 21);
  CHECK(done->result == 42);
  CHECK_FALSE(job.busy());
  CHECK_FALSE(job.pending());
  CHECK_FALSE(job.collect());
}

TEST_CASE("picture job: pacing at hz, only when the view can wait, and pending while held back") {
  BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
  PictureJob<int, int> job("test pictures", twice, 5.0);
  CHECK_FALSE(job.hold_back(0.0, true));  // nothing submitted yet
  job.submit(jobs, 1, 10.0);
  REQUIRE(job.collect());
  CHECK(job.hold_back(10.1, true));  // 0.1 s < 1 / 5 Hz
  CHECK(job.pending());
  CHECK_FALSE(job.hold_back(10.1, false));  // nothing to show: at once
  CHECK_FALSE(job.pending());
  CHECK_FALSE(job.hold_back(10.25, true));
  CHECK(job.hold_back(10.1, true));
  CHECK_FALSE(job.collect());  // a new frame: no longer held back until asked again
  CHECK_FALSE(job.pending());
  CHECK_EQ(job.compute_here(4, 20.0), 8);  // counts for the pacing as a submit
  CHECK(job.hold_back(20.1, true));
}

TEST_CASE("picture job: a job share stretches the pacing by the compute time") {
  BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
  PictureJob<int, int> job("test pictures", slow_twice, 5.0, 0.05);
  job.submit(jobs, 1, 0.0);
  REQUIRE(job.collect());
  // >= 20 ms of compute at 5 % of a core: >= 0.4 s between jobs, beyond 1 / 5 Hz.
  CHECK(job.hold_back(0.3, true));
  CHECK_FALSE(job.hold_back(100.0, true));
}

TEST_CASE("picture job: reset cancels the running job and forgets it and the pacing") {
  BackgroundJobs jobs;
  PictureJob<int, int> job("test pictures", slow_twice, 5.0);
  job.submit(jobs, 1, 0.0);
  CHECK(job.busy());
  job.reset();
  CHECK_FALSE(job.busy());
  CHECK_FALSE(job.collect());
  CHECK_FALSE(job.hold_back(0.01, true));
}
