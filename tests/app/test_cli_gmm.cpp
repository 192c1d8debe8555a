// The headless CLI on the gmm module: in-process (run_cli) and end to end.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "cilab_test_paths.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

// Rows of a metrics CSV as numbers (header checked by the caller).
std::vector<std::vector<double>> rows_of(const std::vector<std::string>& ls) {
  std::vector<std::vector<double>> rows;
  for (size_t i = 1; i < ls.size(); ++i) {
    std::vector<double> r;
    for (const std::string& f : split(ls[i], ',')) r.push_back(std::strtod(f.c_str(), nullptr));
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

TEST_CASE("cli gmm: run on faithful writes log_likelihood, delta and step_ms, ll never falls") {
  const CliRun r = cli({"run", "gmm", "--dataset", "faithful", "--set", "k=2", "--steps", "100"});
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() >= 3);
  CHECK(ls[0].rfind("iteration,log_likelihood,delta,", 0) == 0);
  CHECK(ls[0].substr(ls[0].size() - 8) == ",step_ms");
  const size_t cols = split(ls[0], ',').size();
  const std::vector<std::vector<double>> rows = rows_of(ls);
  for (size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    REQUIRE(rows[i].size() == cols);
    CHECK(rows[i][0] == static_cast<double>(i + 1));
    CHECK(std::isfinite(rows[i][1]));
    CHECK(rows[i][1] < 0.0);  // a density on (minutes, minutes): mean log-likelihood ~ -4.2
    CHECK(rows[i].back() >= 0.0);
    if (i == 0) {
      CHECK(std::isnan(rows[i][2]));  // delta: n/a at iteration 1
    } else {
      CHECK(rows[i][2] == doctest::Approx(rows[i][1] - rows[i - 1][1]).epsilon(1e-9));
      CHECK(rows[i][1] >= rows[i - 1][1] - 1e-10);
    }
  }
  // Converged well before 100 steps: the last |delta| < tol = 1e-3.
  CHECK(rows.size() < 100);
  CHECK(std::abs(rows.back()[2]) < 1e-3);
  CHECK(r.err.empty());
}

TEST_CASE("cli gmm: same seed gives the same CSV, another seed another random start") {
  auto metrics_only = [](const std::string& out) {
    std::string s;
    for (const std::string& l : lines(out)) s += l.substr(0, l.rfind(',')) + "\n";
    return s;
  };
  std::vector<std::string> args = {"run", "gmm", "--dataset", "blobs:n=500,centers=3", "--set",
                                   "k=3", "--set", "init=random", "--seed", "7", "--steps", "10"};
  const CliRun a = cli(args), b = cli(args);
  REQUIRE(a.code == 0);
  CHECK(metrics_only(a.out) == metrics_only(b.out));
  args[9] = "8";
  CHECK(metrics_only(cli(args).out) != metrics_only(a.out));
}

TEST_CASE("cli gmm: a collapse with reg = 0 is reported as Diverged, rows stay finite") {
  const CliRun r = cli({"run", "gmm", "--dataset", "blobs:n=400,centers=3,seed=2", "--set", "k=3",
                        "--set", "covariance=diag", "--set", "init=random_points", "--set", "reg=0",
                        "--set", "tol=0", "--seed", "0", "--steps", "100"});
  REQUIRE(r.code == 0);
  CHECK(r.err.find("diverged") != std::string::npos);
  CHECK(r.err.find("collapsed") != std::string::npos);
  CHECK(r.err.find("reg > 0") != std::string::npos);
  const std::vector<std::vector<double>> rows = rows_of(lines(r.out));
  REQUIRE(rows.size() >= 2);
  CHECK(rows.size() < 100);
  for (size_t i = 0; i < rows.size(); ++i) {
    CHECK(std::isfinite(rows[i][1]));
    if (i > 0) CHECK(std::isfinite(rows[i][2]));
  }
  CHECK(r.out.find("inf") == std::string::npos);
}

TEST_CASE("cli gmm: bad parameters exit 2 with one clear line") {
  const std::vector<std::vector<std::string>> bad = {
      {"run", "gmm", "--set", "covariance=banana"},
      {"run", "gmm", "--set", "k=0"},
      {"run", "gmm", "--set", "reg=-1"},
      {"run", "gmm", "--dataset", "faithful", "--set", "k=20", "--set", "init=nope"},
      {"run", "gmm", "--dataset", "blobs:n=5", "--set", "k=6"},
  };
  for (const std::vector<std::string>& args : bad) check_refused(args);
}

TEST_CASE("cli gmm e2e: the real binary runs gmm and writes --out") {
  const std::string bin = CILAB_BINARY;
  const std::string out = "cli_gmm_e2e.csv";
  const int rc = std::system((bin + " run gmm --dataset faithful --set k=2 --steps 100 --out " + out +
                              " >cli_gmm_e2e_out.txt 2>cli_gmm_e2e_err.txt")
                                 .c_str());
  REQUIRE(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 0);
  std::ifstream f(out);
  std::string header, first;
  std::getline(f, header);
  std::getline(f, first);
  CHECK(header.rfind("iteration,log_likelihood,delta,", 0) == 0);
  CHECK(first.rfind("1,", 0) == 0);
}
