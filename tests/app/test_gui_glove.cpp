// GloVe in the real app at a projector's 1280 x 720: vectors from the GCIDE
// co-occurrence counts, the neighbour table recomputed from newer vectors as
// the AdaGrad chunks go, then the Curves tab and the GloVe tab (f(N) with
// x_max marked, the residuals against log N), each scene a screenshot that
// must not be blank.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui glove: GCIDE neighbours update as AdaGrad goes, f(N) and residuals") {
  std::ofstream script("gui_glove_session.txt");
  script << R"(# global vectors from a dictionary
expect module glove
expect no-error
step 2
expect iteration 2
key 2
settle
expect text probe words:
expect text vectors of iteration 2
screenshot gui_glove_neighbours_2.png
step 6
expect iteration 8
settle
expect text vectors of iteration 8
expect no-text vectors of iteration 2
screenshot gui_glove_neighbours_8.png
click field:probes
type king, water enter
settle
key 1
settle
expect text loss J / |entries| per iteration
screenshot gui_glove_curves.png
key 5
settle
expect text f(N) = min(1, (N/x_max)^alpha)
expect text residual
screenshot gui_glove_model.png
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui(
      "--module glove --dataset gcide --set max_vocab=5000 --frames 100000 --script gui_glove_session.txt",
      "gui_glove_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_glove_neighbours_2.png", "gui_glove_neighbours_8.png", "gui_glove_curves.png",
                          "gui_glove_model.png"}) {
    INFO(png);
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 100);
  }
}

TEST_CASE("gui glove: after a few AdaGrad epochs the neighbour table says the cosines are all near 1") {
  // Early GloVe vectors share one direction (every 10th neighbour at cosine > 0.98); the table says so.
  std::ofstream script("gui_glove_near_one.txt");
  script << R"(step 18
expect iteration 18
key 2
settle
click field:probes
type king, water, music enter
settle
expect text vectors of iteration 18
expect text cosines near 1
screenshot gui_glove_near_one.png
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui(
      "--module glove --dataset gcide:tokens=300000 --frames 100000 --script gui_glove_near_one.txt",
      "gui_glove_near_one_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(stats("gui_glove_near_one.png").distinct > 100);
}
