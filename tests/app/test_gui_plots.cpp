// The plot library's refit policy in the real window (issue 29 section 2): curves end at the
// shown iteration, an animation export leaves every plot as it found it, a preset's new data is
// shown whole, and points outside a fixed frame are marked at its edge. Plots are read with the
// script's `plot-limits TITLE` (one stdout line per plot) and `expect plot WHAT OP V TITLE`.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/gui_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

// The stdout lines of the script's plot-limits, in order.
std::vector<std::string> plot_lines(const std::string& out) { return lines_starting(out, "plot '"); }

}  // namespace

TEST_CASE("gui plots: scrubbed back, the curves end at the shown iteration, and an export leaves every view as found") {
  const QuietWindow window("plots_export", "ui_scale=1\n");
  {
    std::ofstream script("gui_plots_export.txt");
    script << "step 400\n"
              "seek 40\n"
              "settle\n"
              "wait 3\n"
              // the metrics strip and the grey batch-loss line stop at iteration 40 (old: 400)
              "expect plot x-max < 45 ##metric_loss\n"
              "expect plot x-max < 45 ##metric_step_ms\n"
              "expect plot x-max < 8 Loss per epoch##mlp\n"
              "plot-limits ##metric_loss\n"
              "plot-limits Loss per epoch##mlp\n"
              "plot-limits decision regions##mlp\n"
              "export-animation 0 400 100 png " << window.dir << "/frames\n"
              "animation-wait\n"
              "expect iteration 40\n"
              "settle\n"
              "wait 3\n"
              "plot-limits ##metric_loss\n"
              "plot-limits Loss per epoch##mlp\n"
              "plot-limits decision regions##mlp\n"
              "quit\n";
  }
  const Proc p = run_gui("--module mlp --dataset moons:n=300,seed=2 --seed 3 --frames 100000 --script gui_plots_export.txt",
                         "gui_plots_export_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  const std::vector<std::string> lines = plot_lines(p.out);
  REQUIRE(lines.size() == 6);
  CHECK(lines[0] == lines[3]);  // the same views after the export
  CHECK(lines[1] == lines[4]);
  // the decision regions keep their equal aspect in a view the info banner made shorter: the same y
  CHECK(lines[2].substr(lines[2].find(" y ")) .substr(0, 40) == lines[5].substr(lines[5].find(" y ")).substr(0, 40));
}

TEST_CASE("gui plots: the autoencoder's codes stay on the plot while it plays, and a preset's new data is shown whole") {
  const QuietWindow window("plots_follow", "ui_scale=1\n");
  {
    std::ofstream script("gui_plots_follow.txt");
    script << "step 1500\n"
              "settle\n"
              "wait 3\n"
              "expect plot edge-marks = 0 Codes z\n"  // old: the codes drifted off the first fit
              "expect plot zoomed = 0 Codes z\n"
              "preset autoencoder-linear-pca\n"      // another dataset in the same plots
              "settle\n"
              "wait 3\n"
              "expect plot edge-marks = 0 Codes z\n"
              "expect plot edge-marks = 0 PCA scores\n"  // old: the blobs run's axes, the scores off the plot
              "plot-limits PCA scores\n"
              "quit\n";
  }
  const Proc p = run_gui("--module autoencoder --dataset blobs:n=600,dim=3,centers=4,seed=1 --frames 100000 "
                         "--script gui_plots_follow.txt",
                         "gui_plots_follow_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
}
