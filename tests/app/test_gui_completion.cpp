// The completion module in the real app at a projector's 1280 x 720: a photo with 70 % of
// its pixels missing filled in by SVT (its spectrum thresholded, its oracle), then by ALS on the
// same data (the method switched from the view's parameters as from the panel), each scene saved
// as a screenshot that must not be blank.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui completion: the photo with holes at 1280 x 720, svt then als") {
  std::ofstream script("gui_completion_session.txt");
  script << R"(# a photo fills itself in
expect module completion
dataset photo-holes:missing=0.7,seed=3
set method=svt
expect no-error
expect param method=svt
step 8
expect iteration 8
settle
expect text svt (singular value thresholding)
expect text 512 x 512
expect text Y_t stored on Omega
expect text grey value
screenshot gui_completion_svt.png
key 2
settle
expect text rank(shrink_tau(Y)) against tau
screenshot gui_completion_svt_spectrum.png
set method=als
expect no-error
expect iteration 0
step 5
expect iteration 5
key 1
settle
expect text als (alternating least squares)
expect text never rose after a half-step
screenshot gui_completion_als.png
key 3
settle
expect text l after V- and U-sweeps
screenshot gui_completion_als_curves.png
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--module completion --set k=10 --frames 100000 --script gui_completion_session.txt",
                         "gui_completion_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_completion_svt.png", "gui_completion_svt_spectrum.png", "gui_completion_als.png",
                          "gui_completion_als_curves.png"}) {
    INFO(png);
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 200);
  }
}

// Raising lambda live changes the objective itself: l(U, V) after the change is another function,
// so the jump is no violation. The oracle re-bases at the change (issue 29 §3), says so, and the
// Curves tab marks it; once at an iteration boundary, once between the V- and the U-sweep. The old oracle compared across the change and reported "ROSE".
TEST_CASE("gui completion: raising lambda live re-bases the ALS oracle instead of reporting a rise") {
  std::ofstream script("gui_completion_rebase.txt");
  script << R"(expect module completion
set method=als
expect no-error
step 6
expect iteration 6
set lambda=20
expect no-error
step 4
expect iteration 10
substep
set lambda=60
expect no-error
substep
expect iteration 11
step 2
key 3
settle
expect no-text ROSE
expect text never rose after a half-step
expect text re-based at 2 live changes of the objective
expect text lambda = 20
expect text blue lines: the objective changed, the oracle re-based
screenshot gui_completion_rebase.png
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--module completion --frames 100000 --script gui_completion_rebase.txt",
                         "gui_completion_rebase_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}
