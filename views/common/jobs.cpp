#include "views/common/jobs.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <utility>

namespace cilab {
namespace jobs_detail {

// Shared by the job's thread, its CancelToken and every JobHandle.
struct JobRecord {
  std::string name;
  std::atomic<bool> cancel{false};
  std::atomic<int> done{0};
  std::atomic<int> total{0};
  mutable std::mutex mu;           // guards state and error; its release publishes the job's writes
  std::condition_variable ended;   // notified when state leaves Running
  JobState state = JobState::Running;
  std::string error;
};

namespace {

// Runs the function and records how it ended.
void run_job(const std::shared_ptr<JobRecord>& rec, const std::function<void(const CancelToken&)>& work) {
  JobState end = JobState::Finished;
  std::string error;
  try {
    work(CancelToken(rec));
  } catch (const std::exception& e) {
    end = JobState::Failed;
    error = e.what();
  } catch (...) {
    end = JobState::Failed;
    error = "job '" + rec->name + "' failed with an unknown exception";
  }
  if (end == JobState::Finished && rec->cancel.load()) end = JobState::Cancelled;
  {
    std::lock_guard<std::mutex> lock(rec->mu);
    rec->state = end;
    rec->error = std::move(error);
  }
  rec->ended.notify_all();
}

}  // namespace
}  // namespace jobs_detail

using jobs_detail::JobRecord;

bool CancelToken::cancelled() const { return rec_->cancel.load(); }

void CancelToken::set_progress(int done, int total) const {
  rec_->total.store(total);
  rec_->done.store(done);
}

std::string JobHandle::name() const { return rec_ ? rec_->name : std::string(); }

JobState JobHandle::state() const {
  if (!rec_) return JobState::Cancelled;
  std::lock_guard<std::mutex> lock(rec_->mu);
  return rec_->state;
}

bool JobHandle::cancel_requested() const { return rec_ && rec_->cancel.load(); }

JobProgress JobHandle::progress() const {
  if (!rec_) return {};
  return {rec_->done.load(), rec_->total.load()};
}

std::string JobHandle::error() const {
  if (!rec_) return {};
  std::lock_guard<std::mutex> lock(rec_->mu);
  return rec_->error;
}

void JobHandle::cancel() const {
  if (rec_) rec_->cancel.store(true);
}

void JobHandle::wait() const {
  if (!rec_) return;
  std::unique_lock<std::mutex> lock(rec_->mu);
  rec_->ended.wait(lock, [this] { return rec_->state != JobState::Running; });
}

BackgroundJobs::~BackgroundJobs() {
  cancel_all();
  std::vector<Entry> entries;
  {
    std::lock_guard<std::mutex> lock(mu_);
    entries.swap(entries_);
  }
  for (Entry& e : entries)
    if (e.thread.joinable()) e.thread.join();
}

JobHandle BackgroundJobs::submit(std::string name, std::function<void(const CancelToken&)> work) {
  reap();
  auto rec = std::make_shared<JobRecord>();
  rec->name = std::move(name);
  Entry entry;
  entry.rec = rec;
  if (mode_ == Mode::Inline) {
    jobs_detail::run_job(rec, work);
  } else {
    entry.thread = std::thread([rec, work = std::move(work)] { jobs_detail::run_job(rec, work); });
  }
  std::lock_guard<std::mutex> lock(mu_);
  entries_.push_back(std::move(entry));
  return JobHandle(rec);
}

void BackgroundJobs::cancel_all() {
  std::lock_guard<std::mutex> lock(mu_);
  for (Entry& e : entries_) e.rec->cancel.store(true);
}

void BackgroundJobs::reap() {
  std::vector<Entry> ended;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (is_terminal(JobHandle(it->rec).state())) {
        ended.push_back(std::move(*it));
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // The function has returned: join only waits for the thread to exit.
  for (Entry& e : ended)
    if (e.thread.joinable()) e.thread.join();
}

std::vector<JobStatus> BackgroundJobs::statuses() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<JobStatus> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) {
    const JobHandle h(e.rec);
    out.push_back({h.name(), h.state(), h.progress(), h.cancel_requested()});
  }
  return out;
}

int BackgroundJobs::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  int n = 0;
  for (const Entry& e : entries_) n += JobHandle(e.rec).state() == JobState::Running ? 1 : 0;
  return n;
}

}  // namespace cilab
