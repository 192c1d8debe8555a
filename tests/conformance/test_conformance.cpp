// The conformance suite over every module of the registry (conformance.h):
// one test case per check, each running every module, plus a deliberately
// broken registry entry (a module without a view) that the suite must report.
#include "conformance.h"

#include "algorithms/clustering/kmeans.h"
#include "algorithms/networks/mlp.h"
#include "algorithms/nn/trainer.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace cilab;

namespace {

void run_check(const char* name) {
  const auto& all = conformance::checks();
  const auto it = std::find_if(all.begin(), all.end(), [&](const conformance::Check& c) { return std::string(c.name) == name; });
  REQUIRE(it != all.end());
  REQUIRE(module_registry().size() >= 6);
  for (const ModuleEntry& e : module_registry()) {
    std::string failure;
    try {
      failure = it->run(e);
    } catch (const std::exception& ex) {
      failure = std::string("threw: ") + ex.what();
    }
    CHECK_MESSAGE(failure.empty(), e.name << ": " << failure);
  }
}

// A working module under a name no view is registered for: what a new module
// whose view was never registered looks like.
class Renamed : public Module {
 public:
  explicit Renamed(std::unique_ptr<Module> inner) : inner_(std::move(inner)), info_(inner_->info()) {
    info_.name = "unviewed-kmeans";
  }
  const ModuleInfo& info() const override { return info_; }
  const ParamSpecs& params() const override { return inner_->params(); }
  void reset(std::shared_ptr<const Dataset> d, const ParamValues& v, uint64_t seed) override { inner_->reset(d, v, seed); }
  void step() override { inner_->step(); }
  void sub_step() override { inner_->sub_step(); }
  std::shared_ptr<const Snapshot> snapshot() const override { return inner_->snapshot(); }
  void set_live(const std::string& n, double v) override { inner_->set_live(n, v); }
  bool apply(const Intent& i) override { return inner_->apply(i); }
  std::unique_ptr<Module> clone() const override { return std::make_unique<Renamed>(inner_->clone()); }

 private:
  std::unique_ptr<Module> inner_;
  ModuleInfo info_;
};

}  // namespace

TEST_CASE("conformance: defaults validate and reset, for every module") { run_check("defaults validate and reset"); }
TEST_CASE("conformance: the metric vector has the declared size at every step, for every module") {
  run_check("metric vector has the declared size");
}
TEST_CASE("conformance: clone-then-step equals step bit for bit, for every module") {
  run_check("clone-then-step equals step");
}
TEST_CASE("conformance: sub-steps from a boundary to the next equal one step, for every module") {
  run_check("sub-steps make a step");
}
TEST_CASE("conformance: the same seed gives the same run on 1 and 2 threads, for every module") {
  run_check("1 and 2 threads give the same run");
}
TEST_CASE("conformance: set_live throws for rebuild parameters and takes live ones, for every module") {
  run_check("set_live: rebuild throws, live takes its value");
}
TEST_CASE("conformance: a bad value for each parameter throws naming it, for every module") {
  run_check("a bad value names the parameter");
}
TEST_CASE("conformance: every module has its own view") { run_check("has its own view"); }
TEST_CASE("conformance: three headless frames draw before and after a step and a sub-step, for every module") {
  run_check("three headless frames draw");
}
TEST_CASE("conformance: cilab run writes the declared columns, for every module") {
  run_check("cilab run writes the declared columns");
}
TEST_CASE("conformance: the runner's rewind reproduces the snapshot metrics, for every module") {
  run_check("runner rewind reproduces the metrics");
}
TEST_CASE("conformance: every module's files sit in its chapter's folder, in every layer") {
  run_check("sits in its chapter's folder");
}
TEST_CASE("conformance: every trainer that diverges ends Diverged with the rewind advice and stays there") {
  run_check("a trainer diverges with the rewind advice");
}
TEST_CASE("conformance: every trainer exports its weights as PyTorch's state_dict names them, no other module has any") {
  run_check("a trainer exports its weights as PyTorch names them");
}
TEST_CASE("conformance: every module's view labels render with no missing glyph, on every tab") {
  run_check("view labels have their glyphs");
}
TEST_CASE("conformance: a budget raised after the run stopped continues that run, for every module") {
  run_check("a budget raised after the stop continues the run");
}

TEST_CASE("conformance: a registry entry whose module has no view fails the suite, naming the check") {
  const ModuleEntry broken{"unviewed-kmeans", [] { return std::make_unique<Renamed>(std::make_unique<KMeans>()); }};
  const std::vector<std::string> f = conformance::failures(broken);
  const bool reported = std::any_of(f.begin(), f.end(), [](const std::string& s) {
    return s.rfind("has its own view: module 'unviewed-kmeans' has no view of its own", 0) == 0;
  });
  CHECK_MESSAGE(reported, "failures: " << f.size());
  // The same module under its registered name passes that check.
  const ModuleEntry good{"kmeans", [] { return std::make_unique<KMeans>(); }};
  for (const std::string& s : conformance::failures(good)) CHECK_MESSAGE(s.rfind("has its own view", 0) != 0, s);
}

namespace {

// A trainer whose Diverged message lost its advice: what the trainer check must catch.
class Unadvised : public Module, public TrainerModule {
 public:
  Unadvised() : inner_(std::make_unique<Mlp>()) {}
  explicit Unadvised(std::unique_ptr<Module> inner) : inner_(std::move(inner)) {}
  const ModuleInfo& info() const override { return inner_->info(); }
  const ParamSpecs& params() const override { return inner_->params(); }
  void reset(std::shared_ptr<const Dataset> d, const ParamValues& v, uint64_t seed) override { inner_->reset(d, v, seed); }
  void step() override { inner_->step(); }
  std::shared_ptr<const Snapshot> snapshot() const override {
    auto s = std::make_shared<Snapshot>(*inner_->snapshot());
    if (s->status == Status::Diverged) s->message = "the loss is not finite";
    return s;
  }
  std::unique_ptr<Module> clone() const override { return std::make_unique<Unadvised>(inner_->clone()); }

 private:
  std::unique_ptr<Module> inner_;
};

}  // namespace

TEST_CASE("conformance: a trainer that diverges without the rewind advice fails the trainer check") {
  const auto check = std::find_if(conformance::checks().begin(), conformance::checks().end(), [](const auto& c) {
    return std::string(c.name) == "a trainer diverges with the rewind advice";
  });
  REQUIRE(check != conformance::checks().end());
  const ModuleEntry unadvised{"mlp", [] { return std::make_unique<Unadvised>(); }};
  const std::string failure = check->run(unadvised);
  CHECK(failure.rfind("Diverged without the advice", 0) == 0);
  // The real mlp passes, and a module that is no trainer is not asked.
  CHECK(check->run({"mlp", [] { return std::make_unique<Mlp>(); }}) == "");
  CHECK(check->run({"kmeans", [] { return std::make_unique<KMeans>(); }}) == "");
  // The registry's trainers are found: mlp, autoencoder, vae and gan at least.
  int trainers = 0;
  for (const ModuleEntry& e : module_registry()) trainers += dynamic_cast<const TrainerModule*>(e.make().get()) != nullptr;
  CHECK(trainers >= 4);
}
