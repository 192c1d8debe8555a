// The gan module in the real app under a (virtual) display: the issue's
// scripted session - converge on the ring of 8, switch the loss live (the
// run goes on, the heatmap becomes the raw critic), rewind - with the plane,
// the curves and the optimal-discriminator tab by key, each scene saved as a
// screenshot that must not be blank; then the image GAN's grids. Checks go
// through the app's state, metrics and the text drawn.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui gan: converge on the ring, switch the loss, rewind") {
  std::ofstream script("gui_gan_session.txt");
  script << R"(# GAN Lab's lesson on the ring of 8
expect module gan
expect param target=ring8
expect param loss=minimax
step 3000
expect iteration 3000
expect metric modes_covered > 5.5
settle
expect text modes covered
expect text a mode is covered when >= 1 % of 2 000 generated samples lie within 3 sd of its centre
expect text D = sigmoid(l), centre 1/2
expect text next: D step
screenshot gui_gan_plane.png
substep
settle
expect text next: G step
step
key 2
settle
expect text GAN Lab's measure: histograms on a 40x40 grid
screenshot gui_gan_curves.png
key 3
settle
expect text Optimal discriminator (1-D)
expect text 2 JS - log 4 =
key 1
# the loss is live: no restart, the critic's raw output from the next network copy
set loss=wgan_gp
expect no-error
expect param loss=wgan_gp
expect iteration 3001
step 100
expect iteration 3101
# the heatmap's caption follows the picture, which the background job (<= 5 % of a
# core: ~11 ms a job, 10x that under ASan) refreshes within a few seconds at most
settle
expect text raw D = l, centre = median
expect text G: min -E_z D(G(z))
screenshot gui_gan_wgan.png
# rewind to before the switch: the run of that moment, its loss and its curves
seek 2500
expect iteration 2500
expect param loss=minimax
step 10
expect iteration 2510
settle
quit
)";
  script.close();
  const Proc p =
      run_gui("--module gan --frames 100000 --script gui_gan_session.txt", "gui_gan_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_gan_plane.png", "gui_gan_curves.png", "gui_gan_wgan.png"}) {
    INFO(png);
    CHECK(distinct_colours(png) > 200);
  }
}

TEST_CASE("gui gan: the image GAN's fixed-noise grid beside real images") {
  std::ofstream script("gui_gan_images.txt");
  script << R"(expect module gan
expect param target=data
step 20
expect iteration 20
settle
expect text G(64 fixed z), iteration
expect text Real: 64 training images
screenshot gui_gan_images.png
quit
)";
  script.close();
  const Proc p = run_gui(
      "--module gan --dataset fashion-mnist:n=500 --set target=data --set g_width=64 --set "
      "d_width=64 --frames "
      "100000 --script gui_gan_images.txt",
      "gui_gan_images_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(distinct_colours("gui_gan_images.png") > 100);
}
