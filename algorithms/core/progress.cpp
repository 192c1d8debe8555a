#include "algorithms/core/progress.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace cilab {

namespace {
thread_local ProgressSink* t_sink = nullptr;
}  // namespace

void ProgressSink::set(std::string stage, double fraction) {
  std::lock_guard<std::mutex> lk(mu_);
  p_.stage = std::move(stage);
  p_.fraction = fraction < 0.0 || fraction != fraction ? -1.0 : std::min(1.0, fraction);
}

void ProgressSink::clear() {
  std::lock_guard<std::mutex> lk(mu_);
  p_ = Progress{};
}

Progress ProgressSink::read() const {
  std::lock_guard<std::mutex> lk(mu_);
  return p_;
}

ProgressScope::ProgressScope(ProgressSink* sink) : previous_(t_sink) { t_sink = sink; }

ProgressScope::~ProgressScope() { t_sink = previous_; }

void report_progress(const std::string& stage, double fraction) {
  if (t_sink) t_sink->set(stage, fraction);
}

bool progress_wanted() { return t_sink != nullptr; }

ProgressCounter::ProgressCounter(std::string stage, size_t n)
    : stage_(std::move(stage)), n_(n), step_(std::max<size_t>(1, n / 100)),
      next_(t_sink ? 0 : std::numeric_limits<size_t>::max()) {}

void ProgressCounter::report(size_t i) {
  report_progress(stage_, n_ > 0 ? static_cast<double>(i) / static_cast<double>(n_) : -1.0);
  next_ = i + step_;
}

}  // namespace cilab
