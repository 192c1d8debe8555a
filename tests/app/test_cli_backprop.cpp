// `cilab run backprop`: the gradient-check table (parameter, backprop,
// finite_difference, relative_error, step_ms), in-process and with the real
// binary, and bad input (exit 2, one line naming the parameter).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "cilab_test_paths.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli backprop: the gradient-check table, one row per parameter, small relative errors") {
  for (const char* steps : {"1", "50"}) {
    CAPTURE(steps);
    const CliRun r = cli({"run", "backprop", "--steps", steps, "--seed", "3"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::string> ls = lines(r.out);
    REQUIRE(!ls.empty());
    CHECK(ls[0] == "parameter,backprop,finite_difference,relative_error,step_ms");
    REQUIRE(ls.size() == 1 + 13);  // 2-3-1: W1 3x2, b1 3, W2 1x3, b2 1
    CHECK(ls[1].rfind("\"W1[0,0]\",", 0) == 0);  // a name holding a comma is quoted (CSV)
    CHECK(ls.back().rfind("b2[0],", 0) == 0);       // one without is not
    for (size_t i = 1; i < ls.size(); ++i) {
      std::string row = ls[i];
      std::string name;
      if (row[0] == '"') {
        const size_t close = row.find('"', 1);
        name = row.substr(1, close - 1);
        row = row.substr(close + 2);
      } else {
        name = row.substr(0, row.find(','));
        row = row.substr(row.find(',') + 1);
      }
      const std::vector<std::string> f = split(row, ',');
      REQUIRE(f.size() == 4);
      const double g = std::stod(f[0]), fd = std::stod(f[1]), rel = std::stod(f[2]);
      CHECK((name[0] == 'W' || name[0] == 'b'));
      CHECK(rel < 1e-6);
      CHECK(rel == doctest::Approx(std::abs(g - fd) / std::max({std::abs(g), std::abs(fd), 1e-8})));
    }
  }
}

TEST_CASE("cli backprop: the default run checks one epoch (4 steps), its last step moves every parameter") {
  const CliRun r = cli({"run", "backprop"});
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 14);
  for (size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> f = split(ls[i], ',');
    const double g = std::stod(f[f.size() - 4]);  // backprop (the quoted name holds a comma)
    CHECK(g != 0.0);
  }
}

TEST_CASE("cli backprop: a deeper network and --epochs rows") {
  CliRun r = cli({"run", "backprop", "--set", "layers=4,2", "--set", "activation=sigmoid", "--set", "loss=mse",
                  "--set", "batch=4", "--steps", "5"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).size() == 1 + (2 * 4 + 4) + (4 * 2 + 2) + (2 + 1));
  r = cli({"run", "backprop", "--epochs", "3"});
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  CHECK(ls[0] == "epoch,iteration,train_loss,train_accuracy,epoch_ms");
  REQUIRE(ls.size() == 4);
  CHECK(split(ls[3], ',')[1] == "12");  // batch 1 on the 4 XOR points: 4 steps per epoch
}

TEST_CASE("cli backprop: bad input exits 2 with one line naming the parameter") {
  struct Bad {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Bad> bad = {
      {{"run", "backprop", "--set", "layers=0"}, "'layers'"},
      {{"run", "backprop", "--set", "layers=abc"}, "'layers'"},
      {{"run", "backprop", "--set", "layers=1000000,1000000"}, "'layers'"},
      {{"run", "backprop", "--set", "layers=9"}, "'layers'"},
      {{"run", "backprop", "--set", "layers=2,2,2"}, "'layers'"},
      {{"run", "backprop", "--set", "batch=5"}, "'batch'"},
      {{"run", "backprop", "--set", "activation=gelu"}, "activation"},
      {{"run", "backprop", "--set", "data=loaded"}, "'data'"},
      {{"run", "backprop", "--set", "data=loaded", "--dataset", "moons:n=300"}, "'data'"},
      {{"run", "backprop", "--set", "data=loaded", "--dataset", "curve:n=20", "--set", "loss=bce"}, "'loss'"},
  };
  for (const Bad& b : bad) check_refused(b.args, b.expect);
}

TEST_CASE("cli backprop e2e: the real binary writes the table of a loaded 2-D dataset") {
  const std::string bin = CILAB_BINARY;
  CliRun r = shell(bin + " run backprop --set data=loaded --dataset xor:n=8 --set batch=8 --steps 3 "
                         "--out cli_backprop_e2e.csv",
                   "cli_backprop_e2e");
  CHECK(r.code == 0);
  std::ifstream f("cli_backprop_e2e.csv");
  std::string header, first;
  std::getline(f, header);
  std::getline(f, first);
  CHECK(header == "parameter,backprop,finite_difference,relative_error,step_ms");
  CHECK(first.rfind("\"W1[0,0]\",", 0) == 0);
  r = shell(bin + " run backprop --set layers=abc", "cli_backprop_e2e");
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("'layers'") != std::string::npos);
}
