// The activations lesson in the real app (under a virtual display) at a
// projector's 1280 x 720, driven by --script as a lecturer would: sigmoid with
// torch's init vanishes, ReLU with He init stays level, a large gain explodes,
// the A key switches the activation, a deeper network is one `set`; every scene
// keeps its plots readable and on the screen.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui activations: vanishing, level and exploding gradients at 1280 x 720, keys and depth") {
  std::ofstream script("gui_act_session.txt");
  script << R"(# the activations lesson
module activations
expect module activations
settle
expect no-error
expect text sigmoid, torch init x gain 1: L = 10 layers of width 128
expect text vanishing: ||dL/dh_1|| is
expect metric grad_ratio < 0.001
expect plots-min-height 80
expect plots-inside-window
screenshot gui_act_sigmoid.png
wait 1
# ReLU with He keeps the norms level
set activation=relu
set init=he
settle
expect param activation=relu
expect text stable: ||dL/dh_1|| / ||dL/dh_L||
expect metric grad_factor > 0.9
expect metric grad_factor < 1.1
screenshot gui_act_relu_he.png
wait 1
# bad init in one slider
set gain=2
settle
expect text exploding: ||dL/dh_1|| is
# the A key: next activation (relu -> leaky_relu)
key A
wait 2
settle
expect param activation=leaky_relu
expect text leaky_relu, he init x gain 2
# a deeper network
set gain=1
set layers=30
settle
expect text L = 30 layers
expect plots-min-height 80
expect plots-inside-window
screenshot gui_act_deep.png
wait 1
expect no-error
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--frames 100000 --script gui_act_session.txt", "gui_act_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_act_sigmoid.png", "gui_act_relu_he.png", "gui_act_deep.png"}) {
    INFO(png);
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 100);  // curves, shading, heatmaps, colour bars
  }
}
