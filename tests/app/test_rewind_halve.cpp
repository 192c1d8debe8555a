// "Rewind and halve the step size" (optimizers view) as the app applies it: Seek to an
// iteration before the divergence, then a live lr change there. The runner keeps the history
// up to that iteration (no restart from 0) and the race continues from it with the halved lr.
#include "algorithms/core/registry.h"
#include "algorithms/gradient_methods/optimizers.h"
#include "app/headless/runner.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace cilab;

TEST_CASE("rewind and halve: seek then a live lr keeps the history up to the seek point and goes on from it") {
  RunnerConfig cfg;
  cfg.threaded = false;
  Runner r([] { return make_module("optimizers"); }, cfg);
  const std::unique_ptr<Module> probe = make_module("optimizers");
  ParamValues v = default_values(probe->params());
  for (const char* s : {"function=quadratic", "kappa=20", "optimizer=gd", "lr=0.12", "race_momentum=false",
                        "race_adam=false", "race_sgd=false", "race_rmsprop=false"})
    apply_assignment(probe->params(), v, s, "optimizers");
  r.reset(nullptr, v, 7);
  r.step_n(60);
  const int diverged = r.last_iteration();
  REQUIRE(r.latest()->status == Status::Diverged);
  REQUIRE(diverged > 10);
  const std::vector<IterationRecord> before = r.history();

  const int target = diverged - 8;
  r.seek(target);
  r.set_live("lr", 0.06);
  CHECK(r.last_error().empty());
  CHECK(r.current_iteration() == target);
  CHECK(r.last_iteration() == target);  // later history dropped, earlier kept: not a restart
  const std::vector<IterationRecord> kept = r.history();
  REQUIRE(kept.size() == static_cast<size_t>(target) + 1);
  for (int i = 0; i < target; ++i) CHECK(kept[static_cast<size_t>(i)].metrics == before[static_cast<size_t>(i)].metrics);

  r.step_n(200);
  const auto& s = static_cast<const OptimizersSnapshot&>(*r.latest());
  CHECK(s.iteration > target);
  CHECK(s.racers[0].status != Status::Diverged);
  CHECK(s.racers[0].lr == doctest::Approx(0.06));
  CHECK(r.values().at("lr") == doctest::Approx(0.06));
}
