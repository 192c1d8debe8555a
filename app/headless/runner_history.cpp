// Runner history and replay: seek (rewind) and edits at the shown position,
// re-simulation from keyframes through the edit log, truncation (branching),
// stored snapshots and keyframes under the memory budget. See
// runner_internal.h for the design.
#include "app/headless/runner.h"
#include "app/headless/runner_internal.h"

#include <algorithm>
#include <exception>
#include <iterator>
#include <mutex>
#include <utility>

namespace cilab {

using namespace runner_detail;

namespace {

void apply_edit(Module& m, const Edit& e) {
  if (e.live)
    m.set_live(e.name, e.value);
  else
    m.apply(e.intent);
}

}  // namespace

// ===================================================================== shared parts

size_t SharedParts::hold(const std::vector<Snapshot::SharedPart>& parts) {
  size_t entered = 0;
  for (const Snapshot::SharedPart& p : parts) {
    if (!p.id) continue;
    Held& h = held_[p.id];
    if (h.holders++ == 0) {
      h.bytes = p.bytes;
      entered += p.bytes;
    }
  }
  return entered;
}

size_t SharedParts::release(const std::vector<Snapshot::SharedPart>& parts) {
  size_t left = 0;
  for (const Snapshot::SharedPart& p : parts) {
    auto it = p.id ? held_.find(p.id) : held_.end();
    if (it == held_.end()) continue;
    if (--it->second.holders == 0) {
      left += it->second.bytes;
      held_.erase(it);
    }
  }
  return left;
}

// ===================================================================== seek and edits

// Shows iteration `iteration` (clamped to the history); pauses.
void Runner::Impl::seek_to(int iteration) {
  stop_playing();
  if (!module_) return;
  const int last = static_cast<int>(records_.size()) - 1;
  const Position target{std::clamp(iteration, 0, last), 0};
  std::shared_ptr<const Snapshot> snap;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = snapshots_.find(target.iteration);
    if (it != snapshots_.end()) snap = it->second.snapshot;
  }
  if (!snap) {
    try {
      replay_to(target);
    } catch (const std::exception& e) {
      module_failed("re-simulation", e.what());
      return;
    }
    snap = module_->snapshot();
  }
  publish(snap, target);
}

// A live parameter change or an intent at the shown position.
void Runner::Impl::edit(Edit e) {
  if (!module_) {
    set_error("cannot edit: no run yet (reset the module first)");
    return;
  }
  try {
    replay_to(shown_);
  } catch (const std::exception& ex) {
    module_failed("re-simulation", ex.what());
    return;
  }
  try {
    if (e.live) {
      module_->set_live(e.name, e.value);
    } else if (!module_->apply(e.intent)) {
      return;  // not an edit this module accepts
    }
  } catch (const std::exception& ex) {
    set_error(ex.what());
    return;
  }
  truncate_after(shown_);
  e.at = shown_;
  edits_.push_back(std::move(e));
  publish_edits();
  std::shared_ptr<const Snapshot> snap = module_->snapshot();
  if (shown_.phase == 0) {
    const int i = shown_.iteration;
    {
      // i is the last record (truncated above): replace it, a new line for readers.
      IterationRecord r = records_[static_cast<size_t>(i)];
      r.metrics = snap->metrics;
      r.status = snap->status;
      std::lock_guard<std::mutex> lk(mu_);
      records_.truncate(static_cast<size_t>(i));
      records_.push_back(r);
    }
    keep_keyframe(i, module_->state_bytes());
    keep_snapshot(i, snap, true);
    enforce_budget();
  }
  publish(snap, shown_);
}

// ===================================================================== history

// Brings the module to `target` (a position on the history line): steps the
// live module forward when it is at or before the target and past the nearest
// keyframe, else clones that keyframe; replays logged edits on the way.
void Runner::Impl::replay_to(Position target) {
  if (module_at_ == target) return;
  auto kf = std::prev(keyframes_.upper_bound(target.iteration));  // iteration 0 is always kept
  const bool reuse = module_at_.valid() && module_at_ <= target && module_at_.iteration >= kf->first;
  if (!reuse) {
    module_ = kf->second.module->clone();
    module_at_ = {kf->first, 0};
  }
  partial_ms_ = 0.0;
  while (module_at_ < target) {
    if (module_at_.iteration < target.iteration) {
      finish_iteration_replay();
    } else {
      module_->sub_step();
      ++module_at_.phase;
      apply_edits_at(module_at_);
    }
  }
}

// From module_at_ inside iteration i to (i + 1, 0), applying the edits logged
// at the sub-steps on the way and at the arrival.
void Runner::Impl::finish_iteration_replay() {
  const int i = module_at_.iteration;
  auto it = std::upper_bound(edits_.begin(), edits_.end(), module_at_,
                             [](Position p, const Edit& e) { return p < e.at; });
  for (; it != edits_.end() && it->at.iteration == i; ++it) {
    while (module_at_.phase < it->at.phase) {
      module_->sub_step();
      ++module_at_.phase;
    }
    apply_edit(*module_, *it);
  }
  module_->step();
  module_at_ = {i + 1, 0};
  apply_edits_at(module_at_);
}

void Runner::Impl::apply_edits_at(Position p) {
  auto it = std::lower_bound(edits_.begin(), edits_.end(), p,
                             [](const Edit& e, Position q) { return e.at < q; });
  for (; it != edits_.end() && it->at == p; ++it) apply_edit(*module_, *it);
}

void Runner::Impl::publish_edits() {
  std::lock_guard<std::mutex> lk(mu_);
  edits_pub_ = edits_;
}

// Discards everything recorded after `p` (a new branch starts at p).
void Runner::Impl::truncate_after(Position p) {
  const int i = p.iteration;
  for (auto it = keyframes_.upper_bound(i); it != keyframes_.end();) {
    held_bytes_ -= it->second.bytes;
    it = keyframes_.erase(it);
  }
  auto e = std::upper_bound(edits_.begin(), edits_.end(), p, [](Position q, const Edit& x) { return q < x.at; });
  edits_.erase(e, edits_.end());
  std::lock_guard<std::mutex> lk(mu_);
  edits_pub_ = edits_;
  records_.truncate(static_cast<size_t>(i) + 1);
  for (auto it = snapshots_.upper_bound(i); it != snapshots_.end();) {
    held_bytes_ -= it->second.bytes + shared_parts_.release(it->second.parts);
    it = snapshots_.erase(it);
  }
  bytes_ = held_bytes_;
}

// Stores the phase-0 snapshot of `iteration` if the stride allows (replace:
// an existing entry is overwritten, e.g. after an edit; else it is kept).
void Runner::Impl::keep_snapshot(int iteration, const std::shared_ptr<const Snapshot>& snap, bool replace) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = snapshots_.find(iteration);
  if (it != snapshots_.end()) {
    if (!replace) return;
    held_bytes_ -= it->second.bytes + shared_parts_.release(it->second.parts);
    snapshots_.erase(it);
  }
  if (snapshot_stride_ == 0 || iteration % snapshot_stride_ != 0) return;
  StoredSnapshot stored{snap, snap->byte_size(), {}};
  snap->shared_parts(stored.parts);
  held_bytes_ += stored.bytes + shared_parts_.hold(stored.parts);
  snapshots_[iteration] = std::move(stored);
}

// Clones the live module (at (iteration, 0)) as a keyframe, replacing any.
void Runner::Impl::keep_keyframe(int iteration, size_t bytes) {
  const Clock::time_point t0 = Clock::now();
  std::unique_ptr<Module> clone = module_->clone();
  // Keyframes must stay cheap beside the steps they save replaying: when a
  // clone costs more than kKeyframeCostShare of the steps since the last
  // keyframe (a network with its optimizer state, steps of a millisecond),
  // the stride doubles. Any stride replays the same run (keyframes are a cache).
  const double clone_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (iteration > 0 && clone_ms > kKeyframeCostShare * steps_ms_since_keyframe_ && keyframe_stride_ < kMaxKeyframeStride)
    keyframe_stride_ *= 2;
  steps_ms_since_keyframe_ = 0.0;
  auto it = keyframes_.find(iteration);
  if (it != keyframes_.end()) held_bytes_ -= it->second.bytes;
  keyframes_[iteration] = Keyframe{std::move(clone), bytes};
  held_bytes_ += bytes;
}

void Runner::Impl::enforce_budget() {
  while (held_bytes_ > config_.history_budget_bytes) {
    bool have_snapshots;
    {
      std::lock_guard<std::mutex> lk(mu_);
      have_snapshots = !snapshots_.empty();
    }
    if (have_snapshots)
      thin_snapshots();
    else if (keyframes_.size() > 1)
      thin_keyframes();
    else
      break;  // only keyframe 0 is left; it is always kept
  }
}

// Keeps every 2nd stored snapshot (of the current stride); none once that frees nothing.
void Runner::Impl::thin_snapshots() {
  std::lock_guard<std::mutex> lk(mu_);
  const size_t before = snapshots_.size();
  snapshot_stride_ *= 2;
  for (auto it = snapshots_.begin(); it != snapshots_.end();) {
    if (it->first % snapshot_stride_ != 0) {
      held_bytes_ -= it->second.bytes + shared_parts_.release(it->second.parts);
      it = snapshots_.erase(it);
    } else {
      ++it;
    }
  }
  if (snapshots_.size() == before) {
    for (const auto& [i, s] : snapshots_) held_bytes_ -= s.bytes + shared_parts_.release(s.parts);
    snapshots_.clear();
    snapshot_stride_ = 0;
  }
}

// Keeps every 2nd keyframe (of the current stride); iteration 0 always stays.
void Runner::Impl::thin_keyframes() {
  keyframe_stride_ *= 2;  // a key k > 0 goes at the latest once the stride exceeds k
  for (auto it = keyframes_.begin(); it != keyframes_.end();) {
    if (it->first != 0 && it->first % keyframe_stride_ != 0) {
      held_bytes_ -= it->second.bytes;
      it = keyframes_.erase(it);
    } else {
      ++it;
    }
  }
}

// Parameter values in force at `p`: the reset values plus the live edits up to p.
ParamValues Runner::Impl::values_at(Position p) const {
  ParamValues v = base_values_;
  for (const Edit& e : edits_) {
    if (p < e.at) break;
    if (e.live) v[e.name] = e.value;
  }
  return v;
}

}  // namespace cilab
