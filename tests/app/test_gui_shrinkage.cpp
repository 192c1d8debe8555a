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

// Issue 29 §3: the data panel says what a module works on when it is not the dataset (the photo, a
// synthetic matrix, a 2-D function, a built-in target) instead of warning that the dataset is not
// used; and switching shrinkage's input to a 28 x 28 item while k = 30 lowers k to 28 and says so
// (it was refused: "k exceeds 28", the run kept the photo).
TEST_CASE("gui shrinkage: the data panel says what a module uses, and a new input lowers k to its rank") {
  std::ofstream script("gui_shrink_data.txt");
  script << R"(module shrinkage
expect module shrinkage
settle
expect no-text is not used
expect text shrinkage uses the shipped photograph (input=photo, 512 x 512)
set k=30
expect no-error
set input=dataset
settle
expect no-error
expect param input=dataset
expect text k = 30 lowered to 28, the largest rank of the 28 x 28 input
expect no-text shrinkage uses the shipped photograph
module svd-lowrank
settle
expect no-text is not used
expect text svd-lowrank uses the shipped photograph
module power-iteration
settle
expect text power-iteration iterates with a synthetic symmetric matrix
module optimizers
settle
expect text optimizers races on the 2-D function rosenbrock
module gan
settle
expect text gan learns the built-in target ring8
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--frames 100000 --script gui_shrink_data.txt", "gui_shrink_data_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}
