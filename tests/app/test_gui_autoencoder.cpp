// The autoencoder in the real app under a (virtual) display, 1280x720: a
// scripted lesson (nonlinear on 3-D blobs, sub-steps, the reconstruction tab,
// a new bottleneck m restarting the run, rewind, the linear model with its
// subspace curves and weights, a bad m refused with the run kept, denoising
// switched on live), each scene saved as a screenshot that must not be blank.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui autoencoder: a scripted lesson - train, sub-steps, change m, rewind, linear, bad m, denoising") {
  std::ofstream script("gui_autoencoder_session.txt");
  script << R"(# autoencoders, as a lecturer would show them
module autoencoder
expect module autoencoder
wait 2
step 120
expect iteration 120
settle
expect text Codes z (m = 2)
expect text PCA scores at the same m
expect plots-inside-window
screenshot gui_ae_latent.png
wait 1
substep
settle
expect text forward done
substep
idle
substep
settle
expect iteration 121
key 2
settle
expect text decoder(grid of z)
screenshot gui_ae_recon.png
wait 1
# a new bottleneck restarts the run
set m=1
expect no-error
expect param m=1
expect iteration 0
step 40
expect iteration 40
settle
expect text decoder(line of z)
# rewind
seek 10
expect iteration 10
step 5
expect iteration 15
# a bad bottleneck: refused, the run stays
set m=9
expect error
expect param m=1
expect iteration 15
# the linear model: subspace curves and weights
set linear=true
set m=2
expect no-error
step 300
settle
key 3
settle
expect text max angle
expect text distance to PCA
expect plots-inside-window
expect text ||V - U_m||_F
screenshot gui_ae_linear.png
wait 1
# denoising is live: no restart
set noise=0.3
expect no-error
step 20
expect iteration 320
settle
expect text noise floor
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--frames 100000 --script gui_autoencoder_session.txt", "gui_ae_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_ae_latent.png", "gui_ae_recon.png", "gui_ae_linear.png"}) {
    INFO(png);
    CHECK(distinct_colours(png) > 200);
  }
}
