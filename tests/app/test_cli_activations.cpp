// `cilab run activations`: the per-layer table (one row per layer, the norms
// consistent with the bound ||dL/dz_l|| <= max|f'| ||dL/dh_l||), the same table
// for the same seed, and bad input (exit 2, one line naming the parameter).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli activations: one row per layer, layer numbers 1..L, sigmoid's 1/4 bound in every row") {
  const CliRun r = cli({"run", "activations", "--set", "layers=7", "--set", "width=32", "--set", "batch=40"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 1 + 7);
  CHECK(ls[0] == "layer,pre_mean,pre_std,act_mean,act_std,saturated,grad_norm_w,grad_norm_h,grad_norm_z,step_ms");
  for (size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> f = split(ls[i], ',');
    REQUIRE(f.size() == 10);
    CHECK(std::stod(f[0]) == static_cast<double>(i));
    const double gh = std::stod(f[7]), gz = std::stod(f[8]);
    CHECK(gz <= 0.25 * gh * (1 + 1e-5));  // sigmoid: |f'| <= 1/4
    CHECK(std::stod(f[5]) >= 0.0);
    CHECK(std::stod(f[5]) <= 1.0);
  }
  // Same seed, same table; another seed, another one.
  CHECK(cli({"run", "activations", "--set", "layers=7", "--set", "width=32", "--set", "batch=40"}).out == r.out);
  CHECK(cli({"run", "activations", "--set", "layers=7", "--set", "width=32", "--set", "batch=40", "--seed", "9"})
            .out != r.out);
}

TEST_CASE("cli activations: bad values exit 2 naming the parameter") {
  for (const char* bad : {"layers=0", "layers=51", "width=1", "activation=swish", "gain=0", "batch=abc"}) {
    CAPTURE(bad);
    const CliRun r = cli({"run", "activations", "--set", bad});
    CHECK(r.code == 2);
    const std::string name = std::string(bad).substr(0, std::string(bad).find('='));
    CHECK(r.err.find(name) != std::string::npos);
  }
}
