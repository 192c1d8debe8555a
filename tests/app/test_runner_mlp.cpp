// A training module in the runner: the GUI's threaded runner and the CLI's
// blocking one give bit-identical runs with 1 and with 2 threads; seeking
// back re-simulates the same weights; the history budget counts the
// network's real size.
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"
#include "algorithms/networks/mlp.h"
#include "app/headless/runner.h"

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace cilab;

namespace {

ParamValues mlp_values(std::initializer_list<const char*> sets) {
  Mlp probe;
  ParamValues v = default_values(probe.params());
  for (const char* s : sets) apply_assignment(probe.params(), v, s, "mlp");
  return v;
}

struct RunResult {
  std::vector<std::vector<double>> metrics;
  std::vector<float> weights;
};

// Runs until max_epochs stops the run: the final snapshot's network copy is then the trained network.
RunResult run(bool threaded, int threads, const std::shared_ptr<const Dataset>& data, const ParamValues& v) {
  set_max_threads(threads);
  RunnerConfig cfg;
  cfg.threaded = threaded;
  Runner r([] { return std::make_unique<Mlp>(); }, cfg);
  r.reset(data, v, 11);
  r.run_steps(100000);
  r.wait_idle();
  set_max_threads(0);
  RunResult out;
  for (const IterationRecord& rec : r.history()) out.metrics.push_back(rec.metrics);
  const auto s = std::dynamic_pointer_cast<const MlpSnapshot>(r.latest());
  REQUIRE(s);
  REQUIRE(s->status == Status::Stopped);
  REQUIRE(s->net);
  CHECK(s->net_iteration == s->iteration);
  out.weights.assign(s->net->params(), s->net->params() + s->net->num_params());
  return out;
}

// Bit-for-bit equality of metric rows (NaN = "n/a" equals itself).
bool same_bits(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].size() != b[i].size() || std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(double)) != 0)
      return false;
  return true;
}

}  // namespace

TEST_CASE("runner mlp: the GUI's threaded runner and the CLI's blocking runner agree bit for bit, 1 or 2 threads") {
  const auto data = make_dataset("spirals:n=300");
  const ParamValues v = mlp_values({"layers=64,64", "batch=32", "dropout=0.1", "max_epochs=4"});
  const RunResult cli1 = run(false, 1, data, v);
  const RunResult gui2 = run(true, 2, data, v);
  const RunResult gui1 = run(true, 1, data, v);
  REQUIRE(cli1.metrics.size() == 4 * 8 + 1);  // 240 training rows / 32 = 8 batches per epoch
  CHECK(same_bits(cli1.metrics, gui2.metrics));
  CHECK(same_bits(cli1.metrics, gui1.metrics));
  REQUIRE(cli1.weights.size() == gui2.weights.size());
  CHECK(std::memcmp(cli1.weights.data(), gui2.weights.data(), cli1.weights.size() * sizeof(float)) == 0);
  CHECK(std::memcmp(cli1.weights.data(), gui1.weights.data(), cli1.weights.size() * sizeof(float)) == 0);
}

TEST_CASE("runner mlp: seeking back with no snapshots kept re-simulates the same losses, keyframes count the network") {
  const auto data = make_dataset("moons:n=400");
  RunnerConfig cfg;
  cfg.threaded = false;
  cfg.history_budget_bytes = 0;  // nothing stored: every seek replays from a keyframe
  Runner r([] { return std::make_unique<Mlp>(); }, cfg);
  r.reset(data, mlp_values({"layers=128,128", "batch=16"}), 3);
  r.step_n(60);
  const std::vector<IterationRecord> h = r.history();
  for (int target : {45, 7, 59, 0, 30}) {
    r.seek(target);
    REQUIRE(r.latest());
    CHECK(r.latest()->iteration == target);
    CHECK(r.latest()->metrics[Mlp::kMetricLoss] == h[static_cast<size_t>(target)].metrics[Mlp::kMetricLoss]);
  }
  // Stepping on after a seek continues the same run.
  r.seek(20);
  r.step_n(5);
  CHECK(same_bits({r.latest()->metrics}, {h[25].metrics}));
  // A clone of this network holds at least its weights, gradients and Adam's two buffers.
  Mlp m;
  m.reset(data, mlp_values({"layers=128,128", "batch=16"}), 3);
  CHECK(m.state_bytes() >= 4 * m.network().num_params() * sizeof(float));
  CHECK(m.state_bytes() > m.snapshot()->byte_size());
}
