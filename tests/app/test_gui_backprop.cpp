// The backprop walk-through in the real app at a projector's 1280 x 720: a
// scripted lesson sub-steps through the forward pass (node values appear),
// the loss and the backward pass (local derivatives and dL/dz), finishes the
// step, changes the network mid-run and refuses a bad shape.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui backprop: sub-steps walk the graph at 1280 x 720, the check table and a new shape follow") {
  std::ofstream("gui_backprop_session.txt") << R"(# the backprop lesson
module backprop
expect module backprop
settle
expect text Gradient check
substep
wait 2
expect text (after forward h1[0])
expect text a = f(z) = sigmoid(
expect plots-min-height 80
expect plots-inside-window
screenshot gui_backprop_forward.png
substep
substep
substep
substep
wait 2
expect text (after loss)
expect text L = (1/B) sum_n l_n
substep
wait 2
expect text dL/dy = (sigmoid(y) - t)
expect text dL/dz = dL/dy * dy/dz
substep
wait 2
expect text da/dz = f'(z) = a (1 - a)
screenshot gui_backprop_backward.png
substep
substep
substep
wait 2
expect text theta <- theta - lr * dL/dtheta
expect iteration 1
expect text max relative error
set layers=3,2
expect no-error
step 20
settle
expect iteration 20
expect text h2[1]
screenshot gui_backprop_deep.png
set layers=abc
expect error
quit
)";
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--frames 100000 --script gui_backprop_session.txt", "gui_backprop_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_backprop_forward.png", "gui_backprop_backward.png", "gui_backprop_deep.png"}) {
    INFO(png);
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 50);
  }
}
