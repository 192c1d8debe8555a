// position_label: the one wording of a run position (iteration, phase) that the
// transport slider, the status bar and the view headers share.
#include "algorithms/core/module.h"

#include <doctest/doctest.h>

using namespace cilab;

TEST_CASE("position label: a sub-step counts in the iteration being computed, as the CLI numbers it") {
  ModuleInfo info;
  info.sub_steps = {"assign", "update"};
  Snapshot s;
  CHECK(position_label(s, &info) == "iteration 0");
  s.phase = 1;  // one sub-step from the start: the first iteration's assign step
  CHECK(position_label(s, &info) == "iteration 1 (after assign)");
  CHECK(position_label(s, &info, true) == "Iteration 1 (after assign)");
  CHECK(position_iteration(s) == 1);
  s.iteration = 1;
  s.phase = 0;
  CHECK(position_label(s, &info) == "iteration 1");
  s.iteration = 7;
  s.phase = 1;
  CHECK(position_label(s, &info) == "iteration 8 (after assign)");
  CHECK(position_label(s, nullptr) == "iteration 8 (after sub-step 1)");
}
