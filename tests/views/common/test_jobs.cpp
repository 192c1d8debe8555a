// The app's background jobs (views/common/jobs.h): submit, progress, results, cancel,
// failure, reaping and the joining destructor. ImGui-free.
#include "views/common/jobs.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace cilab;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Polls (as a frame would) until the job has ended; false after 10 s.
bool poll_until_ended(const JobHandle& h) {
  const auto t0 = Clock::now();
  while (!is_terminal(h.state())) {
    if (seconds_since(t0) > 10.0) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// A job that runs until cancelled, reporting its rounds; `started` / `returned` tell the test where it is.
struct Spinner {
  std::shared_ptr<std::atomic<bool>> started = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> returned = std::make_shared<std::atomic<bool>>(false);
  std::function<void(const CancelToken&)> fn() const {
    return [started = started, returned = returned](const CancelToken& token) {
      // Progress first, then `started`: a test that cancels as soon as it sees `started`
      // then always finds progress reported (it raced under ASan).
      int round = 0;
      token.set_progress(++round, 0);
      started->store(true);
      while (!token.cancelled()) {
        token.set_progress(++round, 0);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      returned->store(true);
    };
  }
};

}  // namespace

TEST_CASE("jobs: a submitted job runs on another thread - its progress and results are visible once it ended") {
  BackgroundJobs jobs;
  auto result = std::make_shared<std::vector<int>>();
  auto thread_id = std::make_shared<std::thread::id>();
  auto gate = std::make_shared<std::atomic<bool>>(false);
  const JobHandle h = jobs.submit("squares", [result, thread_id, gate](const CancelToken& token) {
    *thread_id = std::this_thread::get_id();
    while (!gate->load()) std::this_thread::yield();  // held until the test has looked
    for (int i = 1; i <= 100; ++i) {
      result->push_back(i * i);  // plain writes: published by the job's end state
      token.set_progress(i, 100);
    }
  });
  CHECK(h.valid());
  CHECK(h.name() == "squares");
  // submit() returned while the function is held: it runs elsewhere.
  CHECK(h.running());
  CHECK(h.state() == JobState::Running);
  CHECK(jobs.running() == 1);
  REQUIRE(jobs.statuses().size() == 1);
  CHECK(jobs.statuses()[0].name == "squares");
  gate->store(true);
  REQUIRE(poll_until_ended(h));
  CHECK(h.state() == JobState::Finished);
  const bool other_thread = *thread_id != std::this_thread::get_id();
  CHECK(other_thread);
  REQUIRE(result->size() == 100);
  CHECK((*result)[99] == 10000);
  CHECK(h.progress().done == 100);
  CHECK(h.progress().total == 100);
  CHECK(h.error().empty());
  CHECK(jobs.running() == 0);
  jobs.reap();  // its thread is joined and it is forgotten
  CHECK(jobs.statuses().empty());
}

TEST_CASE("jobs: cancel returns at once - the function sees the flag and the job ends Cancelled") {
  BackgroundJobs jobs;
  Spinner spin;
  const JobHandle h = jobs.submit("spin", spin.fn());
  const auto t_start = Clock::now();
  while (!spin.started->load() && seconds_since(t_start) < 10.0) std::this_thread::yield();
  REQUIRE(spin.started->load());
  CHECK_FALSE(h.cancel_requested());
  const auto t0 = Clock::now();
  h.cancel();
  CHECK(seconds_since(t0) < 0.05);
  CHECK(h.cancel_requested());
  REQUIRE(poll_until_ended(h));
  CHECK(spin.returned->load());
  CHECK(h.state() == JobState::Cancelled);
  CHECK(h.progress().done > 0);
  // Another job is unaffected by the cancelled one.
  auto value = std::make_shared<int>(0);
  const JobHandle other = jobs.submit("other", [value](const CancelToken&) { *value = 42; });
  other.wait();
  CHECK(other.state() == JobState::Finished);
  CHECK(*value == 42);
}

TEST_CASE("jobs: a throwing function ends Failed with its message") {
  BackgroundJobs jobs;
  const JobHandle h = jobs.submit("bad", [](const CancelToken&) { throw std::invalid_argument("kmax must be >= 1"); });
  h.wait();
  CHECK(h.state() == JobState::Failed);
  CHECK(h.error() == "kmax must be >= 1");
}

TEST_CASE("jobs: the destructor cancels every job and joins its thread - handles outlive the facility") {
  Spinner a, b;
  JobHandle ha, hb;
  {
    BackgroundJobs jobs;
    ha = jobs.submit("a", a.fn());
    hb = jobs.submit("b", b.fn());
    CHECK(jobs.running() == 2);
    CHECK_FALSE(a.returned->load());
  }
  // Joined: both functions have returned before the destructor did.
  CHECK(a.returned->load());
  CHECK(b.returned->load());
  CHECK(ha.state() == JobState::Cancelled);
  CHECK(hb.state() == JobState::Cancelled);
  ha.cancel();  // harmless after the end
  CHECK_FALSE(JobHandle().valid());
  CHECK(JobHandle().state() == JobState::Cancelled);
}

TEST_CASE("jobs: reap joins only ended jobs, never waits for a running one") {
  BackgroundJobs jobs;
  Spinner spin;
  const JobHandle running = jobs.submit("spin", spin.fn());
  const JobHandle quick = jobs.submit("quick", [](const CancelToken&) {});
  quick.wait();
  const auto t0 = Clock::now();
  jobs.reap();
  CHECK(seconds_since(t0) < 0.05);
  REQUIRE(jobs.statuses().size() == 1);
  CHECK(jobs.statuses()[0].name == "spin");
  CHECK(jobs.statuses()[0].state == JobState::Running);
  jobs.cancel_all();
  REQUIRE(poll_until_ended(running));
  CHECK(running.state() == JobState::Cancelled);
}

TEST_CASE("jobs: inline mode runs the function before submit returns") {
  BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
  auto thread_id = std::make_shared<std::thread::id>();
  const JobHandle h = jobs.submit("inline", [thread_id](const CancelToken& token) {
    *thread_id = std::this_thread::get_id();
    token.set_progress(1, 1);
  });
  CHECK(h.state() == JobState::Finished);
  const bool same_thread = *thread_id == std::this_thread::get_id();
  CHECK(same_thread);
  CHECK(h.progress().done == 1);
}
