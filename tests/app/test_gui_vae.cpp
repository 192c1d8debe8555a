// The vae module in the real app under a (virtual) display: a scripted lesson
// on Fashion-MNIST (train; the latent space, the decoded manifold and the
// samples by key; beta moved live without a restart; a rewind; a new latent
// size restarting the run and the principal axes of the means), then 2-D toy
// data (the encoder's and decoder's maps), each scene saved as a screenshot
// that must not be blank. Checks go through the app's state and metrics.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "tests/support/gui_harness.h"
#include "tests/support/npz_reader.h"

using namespace cilab::test_support;

TEST_CASE(
    "gui vae: a scripted lesson - train, the tabs, beta live, rewind, a new latent size, toy "
    "maps") {
  std::ofstream script("gui_vae_session.txt");
  script << R"(# the VAE, as a lecturer would show it
expect module vae
expect param hidden=64
expect rows 2000
step 40
expect iteration 40
settle
expect text Posterior means mu(x)
expect text loss = rec + beta KL
screenshot gui_vae_latent.png
key 2
settle
expect text Decoded manifold
screenshot gui_vae_manifold.png
key 3
settle
expect text Reconstructions
expect text Prior samples
screenshot gui_vae_samples.png
# beta is live: no restart, the next steps use it
set beta=4
expect no-error
expect param beta=4
expect iteration 40
step 10
expect iteration 50
expect metric beta 4
settle
expect text beta moved
# rewind
seek 20
expect iteration 20
step 5
expect iteration 25
# a new latent size restarts the run
set latent=8
expect no-error
expect param latent=8
expect iteration 0
step 20
expect iteration 20
key 1
settle
expect text Principal axes of the posterior means mu(x), latent = 8
key 2
settle
expect text two most active
expect text the other 6 axes held at 0
screenshot gui_vae_latent8.png
# 2-D toy data: the maps
dataset moons
set latent=2
step 150
expect iteration 150
key 2
settle
expect text Data plane
expect text Latent plane
screenshot gui_vae_moons.png
# bad input: refused with a message, the run and its data kept
set likelihood=bernoulli
expect error
wait 2
expect param likelihood=auto
expect iteration 150
expect rows 300
set latent=0
expect error
expect param latent=2
expect iteration 150
wait 1
quit
)";
  script.close();
  // Small from the start (the command line): the first reset evaluates every training row.
  const Proc p = run_gui(
      "--module vae --dataset fashion-mnist:n=2000 --set hidden=64 --frames 100000 --script "
      "gui_vae_session.txt",
      "gui_vae_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_vae_latent.png", "gui_vae_manifold.png", "gui_vae_samples.png",
                          "gui_vae_latent8.png", "gui_vae_moons.png"}) {
    INFO(png);
    CHECK(distinct_colours(png) > 200);
  }
}

TEST_CASE("gui vae: File > Export > Weights writes the shown iteration's encoder and decoder as .npz (PyTorch names), k-means has none to export") {
  const std::string path = "gui_vae_weights.npz";
  std::remove(path.c_str());
  std::ofstream("gui_vae_weights.txt") << "step 3\nsettle\nexport-weights " << path
                                       << "\nwait 2\nexpect no-error\nmodule kmeans\nexport-weights gui_kmeans_weights.npz\n"
                                          "wait 2\nexpect error\nquit\n";
  const Proc p = run_gui("--module vae --dataset moons:n=200 --set latent=2 --frames 100000 --script gui_vae_weights.txt",
                         "gui_vae_weights.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  std::ifstream f(path, std::ios::binary);
  REQUIRE(f);
  const std::map<std::string, NpyRead> w = read_npz(std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>()));
  REQUIRE(w.count("encoder.0.weight"));
  CHECK(w.at("encoder.0.weight").shape.size() == 2);
  CHECK(w.at("encoder.0.weight").shape[1] == 2);  // two input features
  bool decoder = false;
  for (const auto& [name, a] : w) decoder = decoder || name.rfind("decoder.", 0) == 0;
  CHECK(decoder);
  std::ifstream none("gui_kmeans_weights.npz");
  CHECK_FALSE(none);  // nothing written for a module without a network
}
