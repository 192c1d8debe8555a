// The part of a trainer's State (trainer.h) every trainer writes the same way,
// for its .cpp only: the run's settings and position, the network(s), the
// picture copy and the cached snapshot (TrainerState: mlp, autoencoder, vae,
// gan), and for the trainers that count epochs over a training set (mlp,
// autoencoder, vae) the batcher and the copy-on-append epoch log
// (EpochTrainerState). The module's State derives from one and adds its own
// buffers and the hooks forward_half / update_half.
#pragma once

#include "algorithms/nn/batches.h"
#include "algorithms/nn/train_loop.h"
#include "algorithms/nn/trainer.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace cilab {

template <class Params, class Net, class Snap>
struct TrainerState : TrainLoop::Hooks {
  Params p;
  uint64_t seed = 0;
  bool ready = false;  // reset succeeded: the run can step
  Net net;             // the network(s) being trained
  TrainLoop loop;
  std::shared_ptr<const Net> net_copy;  // the copy snapshots carry (TrainLoop's throttle)
  std::string architecture;
  mutable std::shared_ptr<const Snap> cache;  // the snapshot, until the next change

  // copy_ms and phases: TrainLoop's.
  explicit TrainerState(double copy_ms, int phases = 3) : loop(copy_ms, phases) {}

  void take_copy() override { net_copy = std::make_shared<const Net>(net); }
  // The end of a successful reset: the run can step, the first copy is taken.
  void start() {
    ready = true;
    loop.refresh_copy(*this, true);
  }
  // The run's position and, once ready, the picture copy and the architecture.
  void fill(TrainerSnapshot<Net>& out) const {
    loop.describe(out);
    if (!ready) return;
    out.net = net_copy;
    out.net_iteration = loop.copy_iteration();
    out.architecture = architecture;
  }
};

// reset's new State: the validated parameters and the seed, the rest as constructed.
template <class State, class Params>
std::unique_ptr<State> new_state(const Params& p, uint64_t seed) {
  auto s = std::make_unique<State>();
  s->p = p;
  s->seed = seed;
  return s;
}

template <class Params, class Net, class Row, class Snap>
struct EpochTrainerState : TrainerState<Params, Net, Snap> {
  using Base = TrainerState<Params, Net, Snap>;
  std::optional<nn::Batcher> batcher;
  double last_lr = std::nan("");  // the learning rate of the last update (after the schedule)
  std::shared_ptr<const std::vector<Row>> log;  // one row per epoch, copy-on-append

  using Base::Base;

  int epoch() const { return batcher ? batcher->epoch() : 0; }
  bool epoch_completed() const override { return batcher->position() == 0 && epoch() > 0; }
  // Trainer's hook after a live change: the loop's epoch budget.
  void budget_changed() { this->loop.budget_changed(epoch(), this->p.max_epochs); }
  // The row of the epoch just completed, its number and iteration filled in.
  Row epoch_row() const {
    Row row;
    row.epoch = batcher->epoch();
    row.iteration = this->loop.iteration;
    return row;
  }
  // Appends the epoch's row to a new vector (snapshots keep the log they hold).
  void append_epoch(const Row& row) {
    auto next = std::make_shared<std::vector<Row>>(*log);
    next->push_back(row);
    log = next;
  }
  // Base::fill, the epoch, the log and the batches per epoch.
  void fill(EpochSnapshot<Net, Row>& out) const {
    Base::fill(out);
    if (!this->ready) return;
    out.epoch = epoch();
    out.epochs = log;
    out.batches_per_epoch = batcher->batches_per_epoch();
  }
};

// A trainer's typed snapshot (Mlp::mlp_snapshot ...): the State's cache while
// nothing changed, else a new one - the metric table's blank row, the State's
// fill() and, once the run is ready, the module's own fields
// (fill_module(out)) - kept as the cache.
template <class State, class F>
auto cached_snapshot(const State& s, const MetricTable& metrics, F&& fill_module) {
  using Snap = typename decltype(s.cache)::element_type;
  if (s.cache) return s.cache;
  auto out = std::make_shared<std::remove_const_t<Snap>>();
  out->metrics = metrics.blank();
  s.fill(*out);
  if (s.ready) fill_module(*out);
  s.cache = out;
  return s.cache;
}

}  // namespace cilab
