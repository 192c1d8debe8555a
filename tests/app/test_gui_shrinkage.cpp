// The shrinkage explorer in the real app (under a virtual display) at a
// projector's 1280 x 720, driven by --script: the photo with soft and hard at
// the same rank, a larger tau lowering the soft rank, tau past sigma_1 giving
// 0, then a Fashion-MNIST item; every scene keeps its plots readable.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui shrinkage: soft and hard thresholding of the photo and of an item at 1280 x 720") {
  std::ofstream script("gui_shrink_session.txt");
  script << R"(# soft versus hard thresholding
module shrinkage
expect module shrinkage
settle
expect no-error
expect status converged
expect text [A]_k, k = 27: rank 27
expect text S_tau(A), tau = 5: rank 27
expect metric soft_rank 27
expect plots-min-height 80
expect plots-inside-window
screenshot gui_shrink_photo.png
wait 1
# a larger threshold: fewer singular values survive
set tau=20
expect param tau=20
expect metric soft_rank 5
expect text S_tau(A), tau = 20: rank 5
set k=5
expect metric hard_rank 5
expect text [A]_k, k = 5: rank 5
# past sigma_1 (278.3): nothing is left
set tau=300
expect metric soft_rank 0
expect metric soft_nuclear_norm 0
# an image row of the dataset
set tau=0.5
set input=dataset
settle
expect no-error
expect text fashion-mnist row 0
expect plots-min-height 80
expect plots-inside-window
screenshot gui_shrink_item.png
wait 1
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--frames 100000 --script gui_shrink_session.txt", "gui_shrink_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_shrink_photo.png", "gui_shrink_item.png"}) {
    INFO(png);
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 100);  // pictures, curves, colour bars
  }
}
