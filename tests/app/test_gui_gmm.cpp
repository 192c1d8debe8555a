// The Gaussian-mixture module in the real app (under a virtual display),
// driven by --script sessions: E and M sub-steps on Old Faithful, a dragged
// mean, k-means beside GMM, and the singularity demo (reg = 0 collapse, then
// rewind and set reg) - the paths the GMM view's buttons take.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui gmm: Old Faithful - E and M sub-steps, a dragged mean, k-means beside") {
  std::ofstream script("gui_gmm_session.txt");
  script << R"(# soft versus hard clustering on Old Faithful
settle
expect module gmm
expect rows 272
set k=2
expect param k=2
set tol=0
substep
expect iteration 0
wait 2
screenshot gui_gmm_after_e.png
wait 1
substep
expect iteration 1
key S
wait 2
key S
wait 2
expect iteration 2
step 3
expect iteration 5
expect status running
intent move_mean 0 3.0 60.0
expect no-error
step 2
expect iteration 7
intent move_mean 7 3.0 60.0
expect no-error
expect iteration 7
set compare_kmeans=true
expect param compare_kmeans=true
expect iteration 0
step 4
expect iteration 4
settle
screenshot gui_gmm_compare.png
wait 1
set covariance=diag
expect param covariance=diag
step 2
expect no-error
quit
)";
  script.close();
  const Proc p = run_gui("--module gmm --dataset faithful --frames 100000 --script gui_gmm_session.txt",
                         "gui_gmm_session_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(distinct_colours("gui_gmm_after_e.png") > 50);
  CHECK(distinct_colours("gui_gmm_compare.png") > 50);
}

TEST_CASE("gui gmm: with reg = 0 a mean on an outlier collapses - Diverged, then rewind and reg = 1e-6 recover") {
  {
    // A blob of 40 points and one far outlier.
    std::ofstream csv("gui_gmm_outlier.csv");
    csv << "a,b\n";
    unsigned s = 7;
    auto u = [&s] {
      s = s * 1103515245u + 12345u;
      return static_cast<double>((s >> 8) & 0xFFFF) / 65536.0 - 0.5;
    };
    for (int i = 0; i < 40; ++i) csv << 2 * u() << "," << 2 * u() << "\n";
    csv << "30,25\n";
  }
  std::ofstream script("gui_gmm_collapse.txt");
  script << R"(# the singularity demo
wait 2
drop gui_gmm_outlier.csv
expect rows 41
expect no-error
set init=manual
set reg=0
set tol=0
intent place_mean 0 0 0
intent place_mean 1 30 25
expect no-error
step 30
expect status diverged
settle
screenshot gui_gmm_collapsed.png
wait 1
seek 1
set reg=1e-6
step 10
expect iteration 11
expect status running
expect no-error
quit
)";
  script.close();
  const Proc p = run_gui("--module gmm --frames 100000 --script gui_gmm_collapse.txt", "gui_gmm_collapse_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(distinct_colours("gui_gmm_collapsed.png") > 50);
}
