// MetricHistory (the shared append-only per-iteration records), its UI-side
// MetricHistoryMirror, and the runner's MetricHistoryWriter.
#include "app/headless/runner.h"
#include "app/headless/runner_internal.h"

#include <algorithm>
#include <atomic>
#include <utility>

namespace cilab {
namespace {

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

void MetricHistoryWriter::push_back(const IterationRecord& r) {
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

void MetricHistoryWriter::truncate(size_t n) {
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

void MetricHistoryWriter::clear() {
  chunks_ = std::make_shared<std::vector<std::shared_ptr<Chunk>>>();
  ancestors_.reset();
  line_ = next_line_id();
  size_ = 0;
  view_.reset();
}

std::shared_ptr<const MetricHistory> MetricHistoryWriter::view() const {
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

}  // namespace cilab
