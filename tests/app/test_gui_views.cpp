// Every module of the registry in the real app (under a virtual display), driven by --script:
// the layout at a projector's 1280 x 720 and at 1600 x 1000 (no plot area shorter than 80 px, no plot off the
// screen or off a panel that cannot scroll), PCA's manual mode applying at once, and each module
// opening on its own default data.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "algorithms/core/registry.h"
#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

namespace {

// Visits every module of the registry (a module registered tomorrow is covered the day it
// is), then the layouts some options switch to, checking the last frame's plots each time.
// No legend is hidden behind a "key" tab either.
std::string layout_script(const std::string& tag) {
  std::string s = "settle\n";
  auto check = [&](const std::string& what, const std::string& shot) {
    s += what + "settle\nexpect plots-min-height 80\nexpect plots-inside-window\nexpect plots-legends-shown\n";
    if (!shot.empty()) s += "screenshot gui_layout_" + tag + "_" + shot + ".png\nwait 1\n";
  };
  for (const cilab::ModuleEntry& e : cilab::module_registry()) check("module " + e.name + "\nstep 2\n", e.name);
  // Layouts that options switch to.
  check("module gmm\nset compare_kmeans=true\nstep 2\n", "gmm_compare");
  check("module pca\nset mode=manual\n", "");
  check("dataset blobs:n=300,centers=2,dim=3,seed=4\nstep 1\n", "");
  check("dataset fashion-mnist:split=test,n=1500\nstep 1\n", "pca_highd");
  check("module power-iteration\nset dim=3\nset n_components=2\nstep 3\n", "");
  check("set matrix=covariance\ndataset iris\nstep 3\n", "");
  check("module optimizers\nset function=least_squares\nstep 5\n", "");
  s += "quit\n";
  return s;
}

void run_layout(const std::string& screen, const std::string& tag) {
  const std::string script = "gui_layout_" + tag + ".txt";
  std::ofstream(script) << layout_script(tag);
  setenv("CILAB_SCREEN", screen.c_str(), 1);
  const Proc p = run_gui("--frames 100000 --script " + script, "gui_layout_" + tag + "_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  // Every module was drawn: its screenshot shows more than a blank window.
  for (const cilab::ModuleEntry& e : cilab::module_registry()) {
    const ImageStats st = stats("gui_layout_" + tag + "_" + e.name + ".png");
    CHECK_MESSAGE(st.distinct > 50, e.name << ": " << st.distinct << " colours");
  }
}

}  // namespace

TEST_CASE("gui views: every module at a projector's 1280 x 720 - plots at least 80 px tall, none off the screen, every legend shown") {
  run_layout("1280x720", "720");
  const ImageStats st = stats("gui_layout_720_optimizers.png");  // the window is the screen
  CHECK(st.w == 1280);
  CHECK(st.h == 720);
}

TEST_CASE("gui views: every module at 1600 x 1000 - plots at least 80 px tall, none off the screen, every legend shown") {
  run_layout("1600x1000", "1000");
}

TEST_CASE("gui views: PCA's manual mode applies at once (no Reset): u moves to the angle parameter") {
  std::ofstream("gui_pca_manual.txt") << R"(wait 2
expect module pca
step 1
expect status converged
# fit: u = u_1 captures lambda_1 (1.547 of tr C = 1.589 on the default data)
expect metric captured_variance > 1.5
set mode=manual
expect param mode=manual
expect iteration 1
# at once: u at angle = 30 deg, across the cloud
expect metric captured_variance < 1.0
set angle=117
expect metric captured_variance > 1.5
set mode=fit
expect metric captured_variance > 1.54
quit
)";
  const Proc p = run_gui("--module pca --frames 100000 --script gui_pca_manual.txt", "gui_pca_manual_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui views: each module opens on its own default data - data you chose stays") {
  std::ofstream("gui_default_data.txt") << R"(wait 2
expect module kmeans
expect rows 600
module gmm
# Old Faithful (272 rows), not k-means' four blobs
expect rows 272
module pca
expect rows 300
module optimizers
module gmm
expect rows 272
dataset moons:n=123
expect rows 123
module kmeans
expect rows 123
module pca
expect rows 123
quit
)";
  const Proc p = run_gui("--frames 100000 --script gui_default_data.txt", "gui_default_data_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}
