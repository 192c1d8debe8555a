// Runner tests over a small deterministic fake module (a random walk with two
// sub-steps "propose"/"accept", a live step size, intents, optional
// convergence, an optional slow step, a reset that can fail and a reset or a
// step that can be held until the test releases it).
#include "app/headless/runner.h"

#include "algorithms/core/rng.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace cilab;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Number of full iterations completed by any Walk (live or re-simulated).
std::atomic<long> g_walk_iterations{0};

// A gate a Walk's reset (param hold_reset) or step (param hold_step) waits at
// until the test opens it: "the worker is busy right now" without guessing
// durations (ctest -j under ASan on 2 cores stretches every sleep).
struct Gate {
  std::atomic<bool> open{true};
  std::atomic<int> waiting{0};
  void close() { open = false; }
  void release() { open = true; }
  // Called by the module: waits until opened (or 120 s, so a broken test cannot hang ctest).
  void pass() {
    ++waiting;
    const auto t0 = std::chrono::steady_clock::now();
    while (!open && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(120))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --waiting;
  }
};
Gate g_reset_gate, g_step_gate;

struct WalkSnapshot : Snapshot {
  double x = 0.0;
  double proposal = 0.0;
  double step_size = 0.0;
  std::vector<double> payload;  // gives snapshots a size for the budget
  std::shared_ptr<const std::vector<char>> block;  // shared_kb: one block per 10 iterations, shared
  size_t byte_size() const override {
    return sizeof(*this) + (metrics.size() + payload.size()) * sizeof(double);
  }
  void shared_parts(std::vector<SharedPart>& out) const override {
    if (block) out.push_back({block.get(), block->size()});
  }
};

// x_{t+1} = x_t + step_size * N(0, 1): "propose" draws, "accept" moves.
class Walk : public Module {
 public:
  const ModuleInfo& info() const override {
    static const ModuleInfo kInfo = [] {
      ModuleInfo i;
      i.name = "walk";
      i.title = "random walk (test)";
      i.metrics = {{"x", "position", false}, {"abs_x", "|x|", false}};
      i.sub_steps = {"propose", "accept"};
      i.needs_dataset = false;
      return i;
    }();
    return kInfo;
  }
  const ParamSpecs& params() const override {
    static const ParamSpecs kSpecs = [] {
      ParamSpecs s(8);
      s[0].name = "step_size", s[0].min = 0.0, s[0].max = 10.0, s[0].def = 1.0, s[0].update = ParamUpdate::Live;
      s[1].name = "converge_at", s[1].type = ParamType::Int, s[1].max = 10000.0;
      s[2].name = "sleep_ms", s[2].type = ParamType::Int, s[2].max = 2000.0;
      s[3].name = "fail", s[3].type = ParamType::Bool;
      s[4].name = "throw_at", s[4].type = ParamType::Int, s[4].max = 10000.0;  // 0: never
      s[5].name = "hold_reset", s[5].type = ParamType::Bool;  // reset waits at g_reset_gate
      s[6].name = "hold_step", s[6].type = ParamType::Bool;   // each step waits at g_step_gate
      s[7].name = "shared_kb", s[7].type = ParamType::Int, s[7].max = 100000.0;  // a shared block per decade
      return s;
    }();
    return kSpecs;
  }
  void reset(std::shared_ptr<const Dataset>, const ParamValues& values, uint64_t seed) override {
    if (get_bool(values, "hold_reset")) {
      report_progress("warming up the walk", 0.25);  // what Runner::progress() shows while held
      g_reset_gate.pass();
    }
    hold_step_ = get_bool(values, "hold_step");
    if (get_bool(values, "fail")) throw std::invalid_argument("walk: parameter 'fail' is set; unset it");
    step_size_ = get_real(values, "step_size");
    converge_at_ = get_int(values, "converge_at");
    sleep_ms_ = get_int(values, "sleep_ms");
    throw_at_ = get_int(values, "throw_at");
    shared_kb_ = get_int(values, "shared_kb");
    block_.reset();
    rng_.reseed(seed);
    x_ = proposal_ = 0.0;
    iteration_ = phase_ = 0;
    publish();
  }
  void sub_step() override {
    if (phase_ == 0) {
      proposal_ = x_ + step_size_ * rng_.normal();
      phase_ = 1;
    } else {
      if (sleep_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms_));
      if (hold_step_) g_step_gate.pass();
      if (throw_at_ > 0 && iteration_ + 1 == throw_at_) throw std::runtime_error("walk: boom");
      x_ = proposal_;
      phase_ = 0;
      ++iteration_;
      ++g_walk_iterations;
    }
    publish();
  }
  void step() override {
    if (phase_ == 0) sub_step();
    sub_step();
  }
  std::shared_ptr<const Snapshot> snapshot() const override { return snap_; }
  void set_live(const std::string& name, double value) override {
    if (name != "step_size") return Module::set_live(name, value);
    if (!(value >= 0.0 && value <= 10.0)) throw std::invalid_argument("step_size out of [0, 10]");
    step_size_ = value;
    publish();
  }
  // "shift" (values[0] = d): x += d and the pending proposal too.
  // "extend" (index = k): converge k iterations later.
  bool apply(const Intent& intent) override {
    if (intent.kind == "shift" && intent.values.size() == 1) {
      x_ += intent.values[0];
      proposal_ += intent.values[0];
    } else if (intent.kind == "extend" && intent.index > 0) {
      converge_at_ += intent.index;
    } else {
      return false;
    }
    publish();
    return true;
  }
  std::unique_ptr<Module> clone() const override { return std::make_unique<Walk>(*this); }

 private:
  void publish() {
    auto s = std::make_shared<WalkSnapshot>();
    s->iteration = iteration_;
    s->phase = phase_;
    s->status = converge_at_ > 0 && iteration_ >= converge_at_ ? Status::Converged : Status::Running;
    s->x = x_;
    s->proposal = proposal_;
    s->step_size = step_size_;
    s->metrics = {x_, std::abs(x_)};
    s->payload.resize(32);
    for (size_t k = 0; k < s->payload.size(); ++k) s->payload[k] = x_ * static_cast<double>(k);
    if (shared_kb_ > 0) {  // a new block each decade of iterations, shared by its snapshots (and clones)
      if (!block_ || block_decade_ != iteration_ / 10) {
        block_ = std::make_shared<const std::vector<char>>(static_cast<size_t>(shared_kb_) << 10, '\0');
        block_decade_ = iteration_ / 10;
      }
      s->block = block_;
    }
    snap_ = std::move(s);
  }

  Rng rng_;
  double x_ = 0.0, proposal_ = 0.0, step_size_ = 1.0;
  int converge_at_ = 0, sleep_ms_ = 0, throw_at_ = 0, iteration_ = 0, phase_ = 0;
  int shared_kb_ = 0, block_decade_ = 0;
  std::shared_ptr<const std::vector<char>> block_;
  bool hold_step_ = false;
  std::shared_ptr<const Snapshot> snap_;
};

Runner::Factory walk_factory() {
  return [] { return std::make_unique<Walk>(); };
}

RunnerConfig blocking(size_t budget = size_t(64) << 20, int keyframe_interval = 10) {
  RunnerConfig c;
  c.threaded = false;
  c.history_budget_bytes = budget;
  c.keyframe_interval = keyframe_interval;
  return c;
}

RunnerConfig threaded() {
  RunnerConfig c;
  c.threaded = true;
  return c;
}

const WalkSnapshot& walk(const std::shared_ptr<const Snapshot>& s) {
  REQUIRE(s);
  const auto* w = dynamic_cast<const WalkSnapshot*>(s.get());
  REQUIRE(w);
  return *w;
}

// Bit-identical snapshots (exact comparisons on purpose).
void check_same(const std::shared_ptr<const Snapshot>& a, const std::shared_ptr<const Snapshot>& b) {
  const WalkSnapshot& x = walk(a);
  const WalkSnapshot& y = walk(b);
  CHECK(x.iteration == y.iteration);
  CHECK(x.phase == y.phase);
  CHECK(x.status == y.status);
  CHECK(x.metrics == y.metrics);
  CHECK(x.x == y.x);
  CHECK(x.proposal == y.proposal);
  CHECK(x.step_size == y.step_size);
  CHECK(x.payload == y.payload);
}

// Runs n steps and returns the snapshots of iterations current..current+n (index = iteration).
std::vector<std::shared_ptr<const Snapshot>> record_run(Runner& r, int n) {
  std::vector<std::shared_ptr<const Snapshot>> out(static_cast<size_t>(r.current_iteration()) + 1);
  out.back() = r.latest();
  r.run_steps(n, [&](const Snapshot& s, double) {
    CHECK(s.iteration == static_cast<int>(out.size()));
    out.push_back(r.latest());
  });
  return out;
}

// Polls `pred` for up to `seconds` (generous: ctest -j under ASan on 2 cores is slow, never wrong).
// A blocking walk of 50 steps whose snapshots share a 1 MiB block per decade of iterations.
std::unique_ptr<Runner> shared_block_walk(size_t budget) {
  auto r = std::make_unique<Runner>(walk_factory(), blocking(budget));
  r->reset(nullptr, {{"step_size", 1.0}, {"shared_kb", 1024.0}}, 5);
  r->run_steps(50);
  return r;
}

template <class Pred>
bool eventually(Pred pred, double seconds = 60.0) {
  const Clock::time_point t0 = Clock::now();
  while (!pred()) {
    if (ms_since(t0) > seconds * 1000.0) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

}  // namespace

TEST_CASE("runner: step, step_n and sub_step build one metrics record per iteration") {
  Runner r(walk_factory(), blocking());
  CHECK(r.latest() == nullptr);
  CHECK(r.info() == nullptr);
  r.reset(nullptr, {}, 7);
  REQUIRE(r.last_error().empty());
  REQUIRE(r.info() != nullptr);
  CHECK(r.info()->name == "walk");
  CHECK(r.latest()->iteration == 0);
  CHECK(r.history().size() == 1);
  CHECK(r.values().at("step_size") == 1.0);  // defaults filled in
  CHECK(r.seed() == 7);

  r.step();
  r.step_n(3);
  CHECK(r.current_iteration() == 4);
  CHECK(r.last_iteration() == 4);
  r.sub_step();
  CHECK(r.latest()->phase == 1);
  CHECK(r.latest()->iteration == 4);
  CHECK(r.history().size() == 5);  // a half iteration is not history
  CHECK(r.stored_snapshot(4)->phase == 0);
  r.sub_step();
  CHECK(r.latest()->phase == 0);
  CHECK(r.current_iteration() == 5);

  const std::vector<IterationRecord> h = r.history();
  REQUIRE(h.size() == 6);
  CHECK(h[0].step_ms == 0.0);
  for (size_t i = 0; i < h.size(); ++i) {
    const std::shared_ptr<const Snapshot> s = r.stored_snapshot(static_cast<int>(i));
    REQUIRE(s);
    CHECK(s->iteration == static_cast<int>(i));
    CHECK(h[i].metrics == s->metrics);
    CHECK(h[i].metrics[1] == std::abs(h[i].metrics[0]));
    CHECK(h[i].step_ms >= 0.0);
    CHECK(h[i].status == Status::Running);
  }

  // Two sub-steps are one step: a run of plain steps reaches the same state.
  Runner plain(walk_factory(), blocking());
  plain.reset(nullptr, {}, 7);
  plain.run_steps(5);
  check_same(plain.latest(), r.latest());
}

TEST_CASE("runner: seek back shows the stored snapshot without stepping") {
  Runner r(walk_factory(), blocking());
  r.reset(nullptr, {}, 11);
  const auto rec = record_run(r, 30);
  REQUIRE(rec.size() == 31);
  const long steps_before = g_walk_iterations.load();
  for (int i = 30; i >= 0; --i) {
    r.seek(i);
    CHECK(r.current_iteration() == i);
    CHECK(r.latest() == rec[static_cast<size_t>(i)]);  // the very object recorded
  }
  CHECK(g_walk_iterations.load() == steps_before);  // scrubbing stored snapshots is free
  CHECK(r.last_iteration() == 30);                    // browsing keeps the future
  r.seek(1000);
  CHECK(r.current_iteration() == 30);
  r.seek(-5);
  CHECK(r.current_iteration() == 0);
}

TEST_CASE("runner: seek re-simulates bit-identically when no snapshot fits the budget") {
  Runner r(walk_factory(), blocking(/*budget=*/1, /*keyframe_interval=*/4));
  r.reset(nullptr, {}, 3);
  const auto rec = record_run(r, 30);
  const size_t one = rec[0]->byte_size();
  CHECK(r.history_bytes() <= 1 + one);
  CHECK(r.history().size() == 31);
  for (int i = 0; i <= 30; ++i) CHECK(r.stored_snapshot(i) == nullptr);
  for (int i : {17, 3, 29, 0, 30, 12, 13, 1, 26}) {
    r.seek(i);
    CHECK(r.current_iteration() == i);
    check_same(r.latest(), rec[static_cast<size_t>(i)]);
  }
  // Seeking one iteration forward steps the live module once (no replay from 0).
  r.seek(12);
  const long before = g_walk_iterations.load();
  r.seek(13);
  CHECK(g_walk_iterations.load() - before == 1);
  // Continue from the re-simulated state: same as the original run.
  r.seek(12);
  r.step();
  CHECK(r.last_iteration() == 13);
  check_same(r.latest(), rec[13]);
}

TEST_CASE("runner: history stays within the budget and keeps every metrics record") {
  const size_t one = [] {
    Runner probe(walk_factory(), blocking());
    probe.reset(nullptr, {}, 1);
    return probe.latest()->byte_size();
  }();

  SUBCASE("keyframes alone exceed the budget") {
    Runner r(walk_factory(), blocking(10 * one, 5));
    r.reset(nullptr, {}, 5);
    const auto rec = record_run(r, 200);
    CHECK(r.history_bytes() <= 10 * one + one);
    const std::vector<IterationRecord> h = r.history();
    REQUIRE(h.size() == 201);
    for (size_t i = 0; i < h.size(); ++i) CHECK(h[i].metrics == rec[i]->metrics);
    for (int i = 0; i <= 200; i += 7) {
      r.seek(i);
      check_same(r.latest(), rec[static_cast<size_t>(i)]);
    }
  }
  SUBCASE("stored snapshots are thinned to a regular stride") {
    Runner r(walk_factory(), blocking(100 * one, 50));
    r.reset(nullptr, {}, 5);
    const auto rec = record_run(r, 200);
    CHECK(r.history_bytes() <= 100 * one);
    std::vector<int> kept;
    for (int i = 0; i <= 200; ++i)
      if (r.stored_snapshot(i)) kept.push_back(i);
    REQUIRE(kept.size() >= 2);
    const int stride = kept[1] - kept[0];
    CHECK(stride >= 2);
    for (size_t k = 1; k < kept.size(); ++k) CHECK(kept[k] - kept[k - 1] == stride);
    CHECK(r.history().size() == 201);
    for (int i : {0, 1, 77, 151, 199, 200}) {
      r.seek(i);
      check_same(r.latest(), rec[static_cast<size_t>(i)]);
    }
  }
}

TEST_CASE("runner: stepping after seeking back discards the old future, deterministically") {
  for (size_t budget : {size_t(64) << 20, size_t(1)}) {
    CAPTURE(budget);
    Runner r(walk_factory(), blocking(budget, 4));
    r.reset(nullptr, {}, 21);
    const auto rec = record_run(r, 20);
    r.seek(10);
    r.seek(15);  // browsing forward again
    CHECK(r.last_iteration() == 20);
    check_same(r.latest(), rec[15]);
    r.seek(10);
    r.step();
    CHECK(r.last_iteration() == 11);
    CHECK(r.history().size() == 12);
    CHECK(r.stored_snapshot(15) == nullptr);
    check_same(r.latest(), rec[11]);
    r.run_steps(9);
    check_same(r.latest(), rec[20]);
  }
}

TEST_CASE("runner: a failed reset keeps the previous run and reports the error") {
  Runner r(walk_factory(), blocking());
  r.reset(nullptr, {{"fail", 1.0}}, 1);  // first reset fails: no run at all
  CHECK(r.latest() == nullptr);
  CHECK(r.last_error().find("fail") != std::string::npos);
  r.step();
  CHECK(r.last_error().find("reset") != std::string::npos);
  CHECK(r.latest() == nullptr);

  r.reset(nullptr, {{"step_size", 2.0}}, 1);
  CHECK(r.last_error().empty());  // cleared by a successful reset
  r.run_steps(5);
  const std::shared_ptr<const Snapshot> before = r.latest();
  const ModuleInfo* info = r.info();

  r.reset(nullptr, {{"step_size", 50.0}}, 2);  // out of range: caught by validated()
  CHECK(r.last_error().find("step_size") != std::string::npos);
  CHECK(r.latest() == before);
  CHECK(r.history().size() == 6);
  CHECK(r.values().at("step_size") == 2.0);
  CHECK(r.seed() == 1);
  CHECK(r.info() == info);

  r.reset(nullptr, {{"nope", 1.0}}, 2);  // unknown parameter
  CHECK(r.last_error().find("nope") != std::string::npos);
  r.reset(nullptr, {{"fail", 1.0}}, 2);  // thrown by the module's reset
  CHECK(r.last_error().find("fail") != std::string::npos);
  CHECK(r.latest() == before);

  r.clear_error();
  CHECK(r.last_error().empty());
  r.step();  // the kept run goes on
  CHECK(r.current_iteration() == 6);
  r.seek(2);  // and its history is intact
  CHECK(r.latest()->iteration == 2);
}

TEST_CASE("runner: a live parameter change truncates the history and is replayed when re-simulating") {
  Runner r(walk_factory(), blocking(/*budget=*/1, /*keyframe_interval=*/3));
  r.reset(nullptr, {}, 9);
  const auto a = record_run(r, 10);
  r.seek(5);
  r.set_live("step_size", 2.0);
  CHECK(r.last_error().empty());
  CHECK(r.last_iteration() == 5);
  CHECK(r.values().at("step_size") == 2.0);
  CHECK(walk(r.latest()).step_size == 2.0);
  const auto b = record_run(r, 5);  // b[5..10]
  // Same random draws, doubled step: x6 - x5 doubles.
  CHECK(walk(b[6]).x - walk(b[5]).x == doctest::Approx(2.0 * (walk(a[6]).x - walk(a[5]).x)));

  for (int i = 0; i <= 10; ++i) {
    r.seek(i);
    check_same(r.latest(), i < 5 ? a[static_cast<size_t>(i)] : b[static_cast<size_t>(i)]);
  }
  r.seek(3);
  CHECK(r.values().at("step_size") == 1.0);  // values in force at the shown iteration
  r.seek(8);
  CHECK(r.values().at("step_size") == 2.0);

  r.seek(10);
  r.set_live("converge_at", 3.0);  // a rebuild parameter cannot change mid-run
  CHECK(r.last_error().find("converge_at") != std::string::npos);
  CHECK(r.last_iteration() == 10);
  r.set_live("step_size", -1.0);
  CHECK(r.last_iteration() == 10);
}

TEST_CASE("runner: an intent edits the state and revives a converged run") {
  Runner r(walk_factory(), blocking(/*budget=*/1, /*keyframe_interval=*/4));
  r.reset(nullptr, {{"converge_at", 5.0}}, 4);
  int calls = 0;
  r.run_steps(100, [&](const Snapshot&, double) { ++calls; });
  CHECK(calls == 5);
  CHECK(r.latest()->status == Status::Converged);
  CHECK(r.history().back().status == Status::Converged);
  r.step();  // nothing to do at a terminal status
  CHECK(r.current_iteration() == 5);

  Intent extend;
  extend.kind = "extend";
  extend.index = 3;
  r.apply(extend);
  CHECK(r.latest()->status == Status::Running);
  CHECK(r.current_iteration() == 5);
  CHECK(r.history().back().status == Status::Running);
  r.run_steps(100);
  CHECK(r.current_iteration() == 8);
  CHECK(r.latest()->status == Status::Converged);
  const auto before = r.latest();

  Intent ignored;
  ignored.kind = "unknown";
  r.apply(ignored);  // not accepted: nothing changes
  CHECK(r.latest() == before);
  CHECK(r.last_iteration() == 8);

  r.seek(2);
  const double x2 = walk(r.latest()).x;
  Intent shift;
  shift.kind = "shift";
  shift.values = {100.0};
  r.apply(shift);
  CHECK(r.last_iteration() == 2);
  CHECK(walk(r.latest()).x == x2 + 100.0);
  CHECK(r.history()[2].metrics[0] == x2 + 100.0);
  // The "extend" edit at iteration 5 was in the discarded future: the new
  // branch converges at 5 again.
  const auto c = record_run(r, 100);  // c[2..5]
  REQUIRE(c.size() == 6);
  CHECK(c[5]->status == Status::Converged);
  r.seek(0);
  for (int i = 2; i <= 5; ++i) {  // re-simulated through the edit
    r.seek(i);
    check_same(r.latest(), c[static_cast<size_t>(i)]);
  }
}

TEST_CASE("runner: an edit half-way through an iteration is replayed at its sub-step") {
  Runner r(walk_factory(), blocking(/*budget=*/1, /*keyframe_interval=*/2));
  r.reset(nullptr, {}, 13);
  const auto a = record_run(r, 4);
  r.seek(2);
  r.sub_step();  // proposal drawn
  Intent shift;
  shift.kind = "shift";
  shift.values = {50.0};
  r.apply(shift);
  CHECK(r.latest()->phase == 1);
  CHECK(r.last_iteration() == 2);
  r.sub_step();
  CHECK(r.current_iteration() == 3);
  CHECK(walk(r.latest()).x == doctest::Approx(walk(a[3]).x + 50.0));
  const auto c = record_run(r, 2);  // c[3..5]
  r.seek(0);
  for (int i : {4, 3, 5}) {
    r.seek(i);
    check_same(r.latest(), c[static_cast<size_t>(i)]);
  }
  r.seek(2);
  check_same(r.latest(), a[2]);  // the iteration start is from before the edit
}

TEST_CASE("runner: back() returns to the iteration start from a sub-step, else one iteration") {
  Runner r(walk_factory(), blocking());
  r.reset(nullptr, {}, 2);
  const auto a = record_run(r, 3);
  r.sub_step();
  CHECK(r.latest()->phase == 1);
  r.back();
  CHECK(r.current_iteration() == 3);
  check_same(r.latest(), a[3]);
  r.back();
  check_same(r.latest(), a[2]);
  for (int k = 0; k < 5; ++k) r.back();
  CHECK(r.current_iteration() == 0);
  check_same(r.latest(), a[0]);
}

TEST_CASE("runner: threaded commands give the same run as blocking mode") {
  Intent shift;
  shift.kind = "shift";
  shift.values = {-3.0};
  auto script = [&](Runner& r) {
    r.reset(nullptr, {}, 17);
    r.step();
    r.step_n(4);
    r.sub_step();
    r.seek(2);
    r.step();
    r.sub_step();
    r.apply(shift);
    r.sub_step();
    r.set_live("step_size", 0.5);
    r.step_n(3);
    r.back();
    r.step();
  };
  Runner b(walk_factory(), blocking());
  Runner t(walk_factory(), threaded());
  script(b);
  script(t);
  t.wait_idle();
  CHECK_FALSE(t.busy());
  CHECK(t.last_error().empty());
  CHECK(t.current_iteration() == b.current_iteration());
  check_same(t.latest(), b.latest());
  const auto hb = b.history();
  const auto ht = t.history();
  REQUIRE(hb.size() == ht.size());
  for (size_t i = 0; i < hb.size(); ++i) CHECK(hb[i].metrics == ht[i].metrics);

  // Scrubbing: a burst of seeks ends on the last one.
  for (int i = 0; i < 50; ++i) t.seek(i % 7);
  t.seek(3);
  t.wait_idle();
  CHECK(t.current_iteration() == 3);
  b.seek(3);
  check_same(t.latest(), b.latest());
}

TEST_CASE("runner: threaded play stops at Converged") {
  Runner r(walk_factory(), threaded());
  r.reset(nullptr, {{"converge_at", 25.0}}, 8);
  r.play();
  r.wait_idle();
  CHECK(eventually([&] { return !r.playing(); }));
  CHECK(r.last_iteration() == 25);
  CHECK(r.latest()->status == Status::Converged);
  r.play();  // nothing to play at a terminal status
  r.wait_idle();
  CHECK_FALSE(r.playing());
  CHECK(r.last_error().empty());
}

TEST_CASE("runner: latest() never waits for a slow step") {
  // The step is held at a gate while the reads run, so "in progress" is a fact,
  // not a guess about durations; the reads run on another thread with a generous
  // deadline (a read that waited for the step would never return before release).
  Runner r(walk_factory(), threaded());
  r.reset(nullptr, {{"hold_step", 1.0}}, 1);
  r.wait_idle();
  g_step_gate.close();
  r.step();
  REQUIRE(eventually([&] { return g_step_gate.waiting > 0; }, 60.0));
  const Clock::time_point held_since = Clock::now();
  auto reads = std::async(std::launch::async, [&] {
    int iteration = -1;
    for (int k = 0; k < 20; ++k) {
      const std::shared_ptr<const Snapshot> s = r.latest();
      (void)r.history();
      (void)r.playing();
      (void)r.current_iteration();
      (void)r.take_frame();
      iteration = std::max(iteration, s->iteration);
    }
    return iteration;
  });
  const bool returned = reads.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  const double held_ms = ms_since(held_since);
  g_step_gate.release();
  REQUIRE(returned);
  CHECK(reads.get() == 0);  // the step was still in progress for every read
  r.wait_idle();
  CHECK(r.current_iteration() == 1);
  CHECK(r.last_step_ms() >= held_ms * 0.9);  // the held time counts as the step's
  CHECK(r.history()[1].step_ms == r.last_step_ms());
}

TEST_CASE("runner: play respects the requested speed") {
  // No fixed window: however slowly the machine runs, n steps played at 20
  // steps/s take at least (n - 1) / 20 s (the first one is at once), and play
  // makes progress. As fast as possible would fail the first bound at once.
  Runner r(walk_factory(), threaded());
  r.set_speed(20.0);
  CHECK(r.speed() == 20.0);
  r.reset(nullptr, {}, 1);
  r.wait_idle();
  const Clock::time_point t0 = Clock::now();
  r.play();
  REQUIRE(eventually([&] { return r.last_iteration() >= 6; }, 60.0));
  r.pause();
  r.wait_idle();
  const double elapsed_ms = ms_since(t0);
  CHECK_FALSE(r.playing());
  const int steps = r.last_iteration();
  CHECK(steps >= 6);
  CHECK(elapsed_ms >= (steps - 1) * 50.0 * 0.95);
}

TEST_CASE("runner: destructor during play returns promptly") {
  // Promptly: without waiting for play to end (it never would); the deadline is
  // generous for ctest -j under ASan, and the destructor runs on another thread
  // so a hang fails the test instead of the whole run.
  auto r = std::make_unique<Runner>(walk_factory(), threaded());
  r->reset(nullptr, {{"sleep_ms", 30.0}}, 1);
  r->play();  // as fast as possible, forever
  REQUIRE(eventually([&] { return r->current_iteration() >= 2; }, 60.0));
  auto destroyed = std::async(std::launch::async, [&] { r.reset(); });
  CHECK(destroyed.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
}

TEST_CASE("runner: step_n is a burst that wait_idle waits for and pause cancels") {
  Runner r(walk_factory(), threaded());
  r.reset(nullptr, {}, 1);
  r.step_n(5);
  r.wait_idle();
  CHECK(r.last_iteration() == 5);

  r.reset(nullptr, {{"sleep_ms", 10.0}}, 1);
  r.wait_idle();
  r.step_n(100000);
  REQUIRE(eventually([&] { return r.current_iteration() >= 3; }));
  CHECK(r.playing());
  r.pause();
  r.wait_idle();
  CHECK_FALSE(r.playing());
  const int stopped_at = r.last_iteration();
  CHECK(stopped_at < 1000);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(r.last_iteration() == stopped_at);
}

TEST_CASE("runner: run_steps in threaded mode calls back on each step and rethrows") {
  Runner r(walk_factory(), threaded());
  r.reset(nullptr, {}, 6);
  int calls = 0;
  int last = 0;
  r.run_steps(7, [&](const Snapshot& s, double ms) {
    ++calls;
    CHECK(s.iteration == last + 1);
    CHECK(ms >= 0.0);
    last = s.iteration;
  });
  CHECK(calls == 7);
  CHECK(r.last_iteration() == 7);
  CHECK_THROWS_AS(r.run_steps(3, [](const Snapshot&, double) { throw std::runtime_error("stop"); }),
                  std::runtime_error);
  CHECK(r.last_iteration() == 8);  // the step before the throw happened
  r.run_steps(2);
  CHECK(r.last_iteration() == 10);
}

TEST_CASE("runner: a step that throws pauses, reports, and leaves the history usable") {
  Runner r(walk_factory(), blocking(/*budget=*/1, /*keyframe_interval=*/2));
  r.reset(nullptr, {{"throw_at", 6.0}}, 12);
  int calls = 0;
  r.run_steps(10, [&](const Snapshot&, double) { ++calls; });
  CHECK(calls == 5);
  CHECK(r.last_error().find("boom") != std::string::npos);
  CHECK(r.last_error().find("iteration 5") != std::string::npos);
  CHECK(r.current_iteration() == 5);
  CHECK(r.last_iteration() == 5);
  Runner ok(walk_factory(), blocking());
  ok.reset(nullptr, {}, 12);
  const auto a = record_run(ok, 5);
  for (int i : {5, 3, 4}) {  // the half-modified module is not trusted: re-simulated
    r.seek(i);
    check_same(r.latest(), a[static_cast<size_t>(i)]);
  }

  Runner t(walk_factory(), threaded());
  t.reset(nullptr, {{"throw_at", 4.0}}, 12);
  t.play();
  t.wait_idle();
  CHECK(eventually([&] { return !t.playing(); }));
  CHECK(t.last_iteration() == 3);
  CHECK_FALSE(t.last_error().empty());
}

// ---- incremental metric history (MetricHistory / MetricHistoryMirror)

namespace {

// True if the mirror holds exactly the runner's history (metrics and step times).
bool mirror_matches(const MetricHistoryMirror& m, const std::vector<IterationRecord>& h) {
  if (m.metrics().size() != h.size() || m.step_ms().size() != h.size()) return false;
  for (size_t i = 0; i < h.size(); ++i)
    if (m.metrics()[i] != h[i].metrics || m.step_ms()[i] != h[i].step_ms) return false;
  return true;
}

}  // namespace

TEST_CASE("runner: metric_history views are immutable and appends copy only the new records") {
  Runner r(walk_factory(), blocking());
  r.reset(nullptr, {}, 11);
  const std::shared_ptr<const MetricHistory> v0 = r.metric_history();
  REQUIRE(v0->size() == 1);
  CHECK(r.metric_history() == v0);  // nothing changed: the same view, O(1)
  const std::vector<double> m0 = (*v0)[0].metrics;
  // Cross chunk boundaries so full chunks are shared.
  const int n = static_cast<int>(MetricHistory::kChunkSize) * 2 + 37;
  r.run_steps(n);
  const std::shared_ptr<const MetricHistory> v1 = r.metric_history();
  REQUIRE(v1->size() == static_cast<size_t>(n) + 1);
  CHECK(v1->line() == v0->line());  // appends stay on one line
  CHECK(v0->size() == 1);           // an old view does not grow
  CHECK((*v0)[0].metrics == m0);
  const std::vector<IterationRecord> h = r.history();
  REQUIRE(h.size() == v1->size());
  for (size_t i = 0; i < h.size(); ++i) {
    CHECK((*v1)[i].metrics == h[i].metrics);
    CHECK((*v1)[i].step_ms == h[i].step_ms);
  }
  CHECK(v1->common_prefix(v0->line()) == v1->size());

  MetricHistoryMirror mirror;
  CHECK(mirror.sync(v0.get()) == 1);
  const uint64_t version = mirror.version();
  CHECK(mirror.sync(v1.get()) == static_cast<size_t>(n));  // only the new ones
  CHECK(mirror.sync(v1.get()) == 0);
  CHECK(mirror.version() == version);  // grew only
  CHECK(mirror_matches(mirror, h));
  r.step_n(5);
  CHECK(mirror.sync(r.metric_history().get()) == 5);
  CHECK(mirror_matches(mirror, r.history()));
  CHECK(mirror.version() == version);
}

TEST_CASE("runner: metric_history after a seek back and a new branch is a truncated new line") {
  Runner r(walk_factory(), blocking());
  r.reset(nullptr, {}, 12);
  const int n = static_cast<int>(MetricHistory::kChunkSize) + 300;
  r.run_steps(n);
  MetricHistoryMirror mirror;
  mirror.sync(r.metric_history().get());
  const uint64_t version = mirror.version();
  const std::shared_ptr<const MetricHistory> before = r.metric_history();
  const std::vector<IterationRecord> old_records = r.history();

  // Seeking alone does not cut the history.
  const int cut = static_cast<int>(MetricHistory::kChunkSize) + 100;  // inside the second chunk
  r.seek(cut);
  CHECK(r.metric_history()->size() == static_cast<size_t>(n) + 1);
  CHECK(r.metric_history()->line() == before->line());

  // A new branch with a different step size: iterations after `cut` change.
  r.set_live("step_size", 3.0);
  r.step_n(10);
  const std::shared_ptr<const MetricHistory> after = r.metric_history();
  REQUIRE(after->size() == static_cast<size_t>(cut) + 11);
  CHECK(after->line() != before->line());
  CHECK(after->common_prefix(before->line()) == static_cast<size_t>(cut));  // the edit replaced record `cut`
  // The old view still shows the old line, untouched.
  REQUIRE(before->size() == old_records.size());
  for (size_t i = 0; i < old_records.size(); i += 97) CHECK((*before)[i].metrics == old_records[i].metrics);
  CHECK((*before)[before->size() - 1].metrics == old_records.back().metrics);
  // The new line shares the prefix and differs after it.
  for (int i = 0; i < cut; i += 53) CHECK((*after)[i].metrics == old_records[i].metrics);
  CHECK((*after)[cut + 10].metrics != old_records[cut + 10].metrics);

  // The mirror keeps the shared prefix, copies the rest and changes its version.
  CHECK(mirror.sync(after.get()) == 11);
  CHECK(mirror.version() != version);
  CHECK(mirror_matches(mirror, r.history()));

  // Cut at a chunk boundary and regrow across it.
  r.seek(static_cast<int>(MetricHistory::kChunkSize) - 1);
  r.step_n(3);
  CHECK(r.metric_history()->size() == MetricHistory::kChunkSize + 3);
  mirror.sync(r.metric_history().get());
  CHECK(mirror_matches(mirror, r.history()));
}

TEST_CASE("runner: metric_history after reset starts an unrelated line, another runner too") {
  Runner r(walk_factory(), blocking());
  r.reset(nullptr, {}, 13);
  r.run_steps(50);
  MetricHistoryMirror mirror;
  mirror.sync(r.metric_history().get());
  const std::shared_ptr<const MetricHistory> before = r.metric_history();
  const uint64_t version = mirror.version();

  r.reset(nullptr, {}, 14);
  const std::shared_ptr<const MetricHistory> after = r.metric_history();
  REQUIRE(after->size() == 1);
  CHECK(after->line() != before->line());
  CHECK(after->common_prefix(before->line()) == 0);
  CHECK(before->size() == 51);  // old view intact
  CHECK(mirror.sync(after.get()) == 1);
  CHECK(mirror.version() != version);
  CHECK(mirror_matches(mirror, r.history()));

  // Another runner (the app replaces its runner on a module change): unrelated lines.
  Runner other(walk_factory(), blocking());
  other.reset(nullptr, {}, 14);
  other.run_steps(3);
  CHECK(other.metric_history()->line() != after->line());
  mirror.sync(other.metric_history().get());
  CHECK(mirror_matches(mirror, other.history()));
  mirror.sync(nullptr);
  CHECK(mirror.metrics().empty());
  CHECK(mirror.step_ms().empty());
}

TEST_CASE("runner: metric_history is safe to read while the worker appends (threaded)") {
  Runner r(walk_factory(), threaded());
  r.reset(nullptr, {}, 15);
  r.wait_idle();
  r.step_n(3000);
  MetricHistoryMirror mirror;
  size_t last = 0;
  while (r.busy()) {
    const std::shared_ptr<const MetricHistory> v = r.metric_history();
    CHECK(v->size() >= last);
    last = v->size();
    mirror.sync(v.get());
    if (v->size() > 0) CHECK(mirror.metrics().back() == (*v)[v->size() - 1].metrics);
  }
  r.wait_idle();
  mirror.sync(r.metric_history().get());
  CHECK(mirror.metrics().size() == 3001);
  CHECK(mirror_matches(mirror, r.history()));
}

// ---- tickets and results: what lets the GUI post an edit and keep drawing

TEST_CASE("runner: a slow reset does not hold the caller, and its result comes with its snapshot") {
  Runner r(walk_factory(), threaded());
  r.reset(nullptr, {{"step_size", 0.5}}, 3);
  r.step_n(3);
  r.wait_idle();
  (void)r.take_frame();  // the results so far
  REQUIRE(r.current_iteration() == 3);

  g_reset_gate.close();
  const uint64_t t = r.reset(nullptr, {{"step_size", 2.0}, {"hold_reset", 1.0}}, 4);
  REQUIRE(eventually([&] { return g_reset_gate.waiting > 0; }, 60.0));
  // A UI loop: 20 frames while the reset is held, each showing the previous run.
  int frames = 0;
  for (; frames < 20; ++frames) {
    const RunnerFrame f = r.take_frame();
    CHECK(f.results.empty());
    CHECK(f.snapshot->iteration == 3);
    CHECK(f.values.at("step_size") == 0.5);
    CHECK_FALSE(r.done(t));
  }
  CHECK(frames == 20);
  g_reset_gate.release();
  // The result and the new snapshot are seen together, never one without the other.
  bool seen = false;
  REQUIRE(eventually([&] {
    const RunnerFrame f = r.take_frame();
    const bool new_run = f.snapshot->iteration == 0;
    CHECK(new_run == !f.results.empty());
    for (const CommandResult& res : f.results) {
      CHECK(res.ticket == t);
      CHECK(res.ok);
      CHECK(res.error.empty());
      CHECK(f.values.at("step_size") == 2.0);
      seen = true;
    }
    return seen;
  }, 60.0));
  CHECK(r.done(t));
}

TEST_CASE("runner: progress() names what a held reset reports, then a burst's iterations, and nothing once idle") {
  Runner r(walk_factory(), threaded());
  CHECK_FALSE(r.progress().active());
  g_reset_gate.close();
  r.reset(nullptr, {{"step_size", 1.0}, {"hold_reset", 1.0}}, 4);
  REQUIRE(eventually([&] { return g_reset_gate.waiting > 0; }, 60.0));
  const Progress held = r.progress();
  CHECK(held.stage == "warming up the walk");
  CHECK(held.fraction == 0.25);
  g_reset_gate.release();
  r.wait_idle();
  CHECK_FALSE(r.progress().active());  // the reset's stage ends with it

  // A burst (a preset's replay): "iterations k of n" while a step is held.
  g_step_gate.close();
  r.reset(nullptr, {{"step_size", 1.0}, {"hold_step", 1.0}}, 4);
  r.step_n(8);
  REQUIRE(eventually([&] { return g_step_gate.waiting > 0; }, 60.0));
  const Progress first = r.progress();
  CHECK(first.stage == "iterations 0 of 8 (to iteration 8)");
  CHECK(first.fraction == 0.0);
  g_step_gate.release();
  r.wait_idle();
  CHECK(r.current_iteration() == 8);
  CHECK_FALSE(r.progress().active());
  // Reporting outside any runner (the CLI, a test): no sink, nothing happens.
  report_progress("nobody listens", 0.5);
  CHECK_FALSE(progress_wanted());
}

TEST_CASE("runner: a part shared by many stored snapshots counts once in the history budget") {
  // 1 MiB shared by the snapshots of each decade of iterations (as a network copy
  // is shared by ~100 ms of a trainer's snapshots): 51 snapshots hold 6 blocks.
  constexpr double MiB = 1048576.0;
  const std::unique_ptr<Runner> run = shared_block_walk(size_t(256) << 20);
  Runner& r = *run;
  REQUIRE(r.last_iteration() == 50);
  for (int i = 0; i <= 50; ++i) REQUIRE(r.stored_snapshot(i));  // every one is kept (large budget)
  // Blocks 0..5 once for the snapshots, once for the keyframes (clones at 0, 10, ..., 50
  // hold theirs): 12 MiB, where counting each holder would give 57 MiB.
  CHECK(r.history_bytes() / MiB > 11.9);
  CHECK(r.history_bytes() / MiB < 12.5);
  // Cut the line at 25: blocks 3, 4 and 5 have no holder left and leave the count.
  r.seek(25);
  r.step();
  CHECK(r.last_iteration() == 26);
  CHECK(r.history_bytes() / MiB > 5.9);
  CHECK(r.history_bytes() / MiB < 6.5);
  // A budget below that thins the snapshots, releasing blocks as their last holder goes.
  CHECK(shared_block_walk(size_t(5) << 20)->history_bytes() <= size_t(5) << 20);
}

TEST_CASE("runner: a failing slow reset keeps the previous run and values and reports by ticket") {
  Runner r(walk_factory(), threaded());
  r.reset(nullptr, {{"step_size", 0.5}}, 3);
  r.step_n(2);
  r.wait_idle();
  (void)r.take_frame();
  const std::shared_ptr<const Snapshot> before = r.latest();

  g_reset_gate.close();
  const uint64_t t = r.reset(nullptr, {{"step_size", 2.0}, {"hold_reset", 1.0}, {"fail", 1.0}}, 4);
  const uint64_t after = r.set_live("step_size", 0.75);  // queued behind the reset, applied to the old run
  CHECK(after > t);
  REQUIRE(eventually([&] { return g_reset_gate.waiting > 0; }, 60.0));
  CHECK_FALSE(r.done(t));
  g_reset_gate.release();
  std::vector<CommandResult> results;
  REQUIRE(eventually([&] {
    RunnerFrame f = r.take_frame();
    results.insert(results.end(), f.results.begin(), f.results.end());
    return results.size() >= 2;
  }, 60.0));
  REQUIRE(results.size() == 2);
  CHECK(results[0].ticket == t);
  CHECK_FALSE(results[0].ok);
  CHECK(results[0].error.find("'fail'") != std::string::npos);
  CHECK(results[1].ticket == after);
  CHECK(results[1].ok);
  CHECK(r.done(after));
  CHECK(r.current_iteration() == 2);
  CHECK(r.latest()->iteration == before->iteration);
  CHECK(r.values().at("step_size") == 0.75);
  CHECK(r.values().at("fail") == 0.0);
  CHECK(r.seed() == 3);
}

TEST_CASE("runner: live changes and intents report by ticket, in blocking mode too, and results are bounded") {
  Runner r(walk_factory(), blocking());
  const uint64_t a = r.reset(nullptr, {}, 1);
  const uint64_t b = r.set_live("step_size", 20.0);  // out of [0, 10]: the module refuses
  const uint64_t c = r.apply(Intent{"shift", 0, {1.0}});
  const uint64_t d = r.apply(Intent{"nonsense", 0, {}});  // not an edit of this module: no error
  CHECK(r.done(d));
  const RunnerFrame f = r.take_frame();
  REQUIRE(f.results.size() == 4);
  CHECK(f.results[0].ticket == a);
  CHECK(f.results[0].ok);
  CHECK(f.results[1].ticket == b);
  CHECK_FALSE(f.results[1].ok);
  CHECK(f.results[1].error.find("step_size") != std::string::npos);
  CHECK(f.results[2].ticket == c);
  CHECK(f.results[2].ok);
  CHECK(f.results[3].ticket == d);
  CHECK(f.results[3].ok);
  CHECK(r.take_frame().results.empty());  // taken once

  uint64_t last = 0;
  for (size_t i = 0; i < Runner::kMaxResults + 40; ++i) last = r.set_live("step_size", 1.0);
  const RunnerFrame g = r.take_frame();
  REQUIRE(g.results.size() == Runner::kMaxResults);  // nobody collected them: the oldest went
  CHECK(g.results.back().ticket == last);
}

TEST_CASE("runner: a smaller history budget set later thins the history at once, a larger one keeps more") {
  const std::unique_ptr<Runner> run = shared_block_walk(size_t(256) << 20);
  Runner& r = *run;
  const size_t before = r.history_bytes();
  REQUIRE(before > size_t(10) << 20);
  r.set_history_budget(size_t(4) << 20);  // Compare A/B: A gives half of its budget to B
  CHECK(r.history_bytes() <= size_t(4) << 20);
  // The thinned run replays to the same states (keyframes are a cache).
  const std::unique_ptr<Runner> full = shared_block_walk(size_t(256) << 20);
  for (int i : {7, 23, 49}) {
    r.seek(i);
    full->seek(i);
    check_same(r.latest(), full->latest());
  }
  r.set_history_budget(size_t(256) << 20);
  r.seek(50);
  r.run_steps(10);  // the run goes on within the larger budget
  CHECK(r.last_iteration() == 60);
  CHECK(r.history_bytes() <= size_t(256) << 20);
}
