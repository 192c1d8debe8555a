// The real app under a (virtual) display: renders frames, saves a
// screenshot that is not blank, reports frame times, rejects bad input
// before opening a window.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui e2e: k-means on blobs renders and saves a non-blank screenshot") {
  const Proc p = run_gui("--dataset blobs:n=800,centers=4 --steps 3 --frames 20", "gui_kmeans.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  CHECK(p.out.find("frames 20 median_ms") != std::string::npos);
  const ImageStats s = stats("gui_kmeans.png");
  CHECK(s.w >= 800);
  CHECK(s.h >= 600);
  CHECK(s.distinct > 50);  // text, plots, points: far from a blank window
}

TEST_CASE("gui e2e: iris (d = 4, projected) renders") {
  const Proc p = run_gui("--dataset iris --set k=3 --steps 2 --frames 10", "gui_iris.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  CHECK(stats("gui_iris.png").distinct > 50);
}

TEST_CASE("gui e2e: bad input exits 2 with one line before any window") {
  Proc p = run_gui("--data /nonexistent/data.csv --frames 3", "gui_bad1.png");
  CHECK(p.code == 2);
  CHECK(p.err.find("cilab: error:") != std::string::npos);
  p = run_gui("--set k=999 --frames 3", "gui_bad2.png");
  CHECK(p.code == 2);
}

TEST_CASE("gui e2e: a scripted session drives the real shell (keys, params, data, edits)") {
  {
    std::ofstream csv("gui_user.csv");
    csv << "height;weight;label\n";
    for (int i = 0; i < 40; ++i) csv << 150 + i << ";" << 50 + (i * 7) % 30 << ";" << (i % 2 ? "a" : "b") << "\n";
  }
  {
    std::ofstream bad("gui_bad.csv");
    bad << "1,2\n3,oops\n";
  }
  std::ofstream script("gui_session.txt");
  script << R"(# a student's session
settle
expect module kmeans
expect iteration 0
key Right
wait 2
expect iteration 1
key S
wait 2
expect iteration 1
key S
wait 2
expect iteration 2
key Left
wait 2
expect iteration 1
key R
wait 2
expect iteration 0
set k=3
expect param k=3
set init=random
expect param init=random
step 4
expect iteration 4
seek 2
expect iteration 2
intent move_centroid 0 1.5 -2.0
expect iteration 2
expect no-error
step 1
expect iteration 3
set max_iter=1000
expect param max_iter=1000
dataset iris
expect rows 150
expect no-error
drop gui_user.csv
expect rows 40
expect no-error
drop gui_bad.csv
expect error
expect rows 40
set k=99
expect error
expect param k=3
dataset blobs:n=100,centers=2
add-point 0.5 0.5
expect rows 101
remove-point 0.5 0.5
expect rows 100
key Space
wait 10
key Space
wait 2
screenshot gui_session.png
wait 2
quit
)";
  script.close();
  const Proc p = run_gui("--frames 100000 --script gui_session.txt", "gui_session_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(stats("gui_session.png").distinct > 50);
}

TEST_CASE("gui e2e: Fashion-MNIST loads in the lab (dataset-fashion-mnist is a declared dependency)") {
  // A missing package is a failure, not a skip: the script's `expect rows` below fails then.
  std::ofstream script("gui_fashion.txt");
  script << "wait 2\ndataset fashion-mnist:split=test,n=3000\nexpect rows 3000\nset k=10\nstep 3\nexpect iteration 3\n"
            "settle\nscreenshot gui_fashion.png\nwait 1\nquit\n";
  script.close();
  const Proc p = run_gui("--frames 100000 --script gui_fashion.txt", "gui_fashion_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(stats("gui_fashion.png").distinct > 50);
}

TEST_CASE("gui e2e: a failing script expectation fails the run") {
  std::ofstream script("gui_failing.txt");
  script << "wait 1\nexpect iteration 7\nquit\n";
  script.close();
  const Proc p = run_gui("--frames 1000 --script gui_failing.txt", "gui_failing.png");
  CHECK(p.code == 1);
  CHECK(p.err.find("script line 2: expected iteration 7, found 0") != std::string::npos);
}
