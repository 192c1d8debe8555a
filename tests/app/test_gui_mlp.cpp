// The mlp playground in the real app under a (virtual) display: a scripted
// lesson (train moons, sub-steps, change the architecture mid-run, rewind, a
// diverging learning rate rewound and halved, a bad architecture refused with
// the previous run kept, a 1-D regression), each scene saved as a screenshot
// that must not be blank.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui mlp: a scripted lesson - moons, sub-steps, new architecture, rewind, divergence, bad layers, a curve") {
  std::ofstream script("gui_mlp_session.txt");
  script << R"(# the MLP playground, as a lecturer would show it
module mlp
expect module mlp
wait 2
step 80
expect iteration 80
settle
expect text epoch
screenshot gui_mlp_moons.png
wait 1
substep
settle
expect text forward done
substep
settle
expect text backward done
substep
settle
expect iteration 81
# a new architecture restarts the run
set layers=32,32,32
expect no-error
expect param layers=32,32,32
expect iteration 0
step 40
expect iteration 40
# rewind
seek 10
expect iteration 10
step 5
expect iteration 15
# a bad architecture: refused, the run stays
set layers=0
expect error
expect param layers=32,32,32
expect iteration 15
set layers=abc
expect error
expect iteration 15
# a diverging learning rate on a regression curve
dataset curve:n=200
set optimizer=sgd
set lr=10
step 3000
settle
expect status diverged
expect text halve the learning rate
screenshot gui_mlp_diverged.png
wait 1
seek 2
set lr=0.05
expect param lr=0.05
step 200
settle
expect no-error
screenshot gui_mlp_curve.png
wait 1
quit
)";
  script.close();
  const Proc p = run_gui("--frames 100000 --script gui_mlp_session.txt", "gui_mlp_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_mlp_moons.png", "gui_mlp_diverged.png", "gui_mlp_curve.png"}) {
    INFO(png);
    CHECK(distinct_colours(png) > 200);
  }
}
