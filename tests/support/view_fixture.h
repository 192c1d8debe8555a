// One fixture for every view test: a module M run as the app's runner would
// run it, and the ViewContext the shell would hand its view.
//
//   ViewFixture<KMeans> f(make_dataset("blobs"), {"k=4", "init=kmeans++"}, 3);  // seed 3
//   f.run(10);                       // ten steps, each iteration recorded
//   view.draw(*f.mod.snapshot(), f.context(), intents);
//
// It keeps what the runner keeps: the metrics of iterations 0..last (phase-0
// snapshots, one row per iteration as MetricHistory) and every iteration's
// snapshot for ViewContext::stored_snapshot. A test that wants the app's
// background jobs points `jobs` at its own BackgroundJobs.
#pragma once

#include "algorithms/core/params.h"
#include "views/common/view.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab::test_support {

template <class M>
struct ViewFixture {
  std::shared_ptr<const Dataset> data;
  M mod;
  ParamValues values;  // the run's parameters (ViewContext::values)
  uint64_t seed = 1;
  std::vector<std::vector<double>> history;
  std::vector<std::shared_ptr<const Snapshot>> stored;
  std::vector<int> keys;           // ViewContext::keys: push a key code before a frame
  BackgroundJobs* jobs = nullptr;  // ViewContext::jobs (none: views refuse background work)

  // Resets the module on `d` (nullptr for modules without data) with its defaults and the
  // assignments `sets` ("name=value", as --set) under `seed`, and records iteration 0.
  explicit ViewFixture(std::shared_ptr<const Dataset> d, const std::vector<std::string>& sets = {},
                       uint64_t seed_ = 1)
      : data(std::move(d)), seed(seed_) {
    values = default_values(mod.params());
    for (const std::string& s : sets) apply_assignment(mod.params(), values, s, mod.info().name);
    mod.reset(data, values, seed);
    record();
  }

  // Up to n steps, each recorded; stops early at a terminal status.
  void run(int n) {
    for (int i = 0; i < n && !is_terminal(mod.snapshot()->status); ++i) {
      mod.step();
      record();
    }
  }

  // The current snapshot into the history at its iteration (a sub-step's is not recorded).
  void record() {
    const std::shared_ptr<const Snapshot> s = mod.snapshot();
    if (s->phase != 0 || s->iteration < 0) return;
    const size_t at = static_cast<size_t>(s->iteration);
    if (stored.size() <= at) {
      stored.resize(at + 1);
      history.resize(at + 1);
    }
    stored[at] = s;
    history[at] = s->metrics;
  }

  ViewContext context() {
    ViewContext ctx;
    ctx.data = data.get();
    ctx.info = &mod.info();
    ctx.metric_history = &history;
    ctx.stored_snapshot = [this](int i) {
      return i >= 0 && i < static_cast<int>(stored.size()) ? stored[static_cast<size_t>(i)] : nullptr;
    };
    ctx.data_version = 1;
    ctx.values = &values;
    ctx.seed = seed;
    ctx.keys = &keys;
    ctx.jobs = jobs;
    return ctx;
  }
};

}  // namespace cilab::test_support
