// `cilab run vae`: --epochs writes the columns (loss, its two terms,
// the test loss), the loss is reconstruction + beta * kl, the run is the same
// for the same seed, and bad input exits 2 with one line naming the parameter.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli vae: --epochs writes epoch,iteration,loss,reconstruction,kl,test_loss,epoch_ms per epoch") {
  const std::vector<std::string> args = {"run", "vae", "--dataset", "fashion-mnist:n=512", "--set", "latent=20",
                                         "--set", "hidden=64", "--set", "batch=128", "--set", "lr=0.001",
                                         "--epochs", "2"};
  const CliRun r = cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 1 + 2);
  CHECK(ls[0] == "epoch,iteration,loss,reconstruction,kl,test_loss,epoch_ms");
  for (size_t e = 1; e < ls.size(); ++e) {
    const std::vector<std::string> f = split(ls[e], ',');
    REQUIRE(f.size() == 7);
    CHECK(std::stoi(f[0]) == static_cast<int>(e));
    CHECK(std::stoi(f[1]) == static_cast<int>(4 * e));  // 512 rows / batch 128
    // beta = 1: the negative ELBO is its two terms' sum, the KL is non-negative.
    CHECK(std::stod(f[2]) == doctest::Approx(std::stod(f[3]) + std::stod(f[4])).epsilon(1e-9));
    CHECK(std::stod(f[4]) >= 0);
    CHECK(std::isfinite(std::stod(f[5])));  // t10k
  }
  const CliRun again = cli(args);
  for (size_t e = 1; e < ls.size(); ++e) {
    const std::vector<std::string> a = split(ls[e], ','), b = split(lines(again.out)[e], ',');
    for (size_t c = 0; c < 6; ++c) CHECK(a[c] == b[c]);
  }
}

TEST_CASE("cli vae: bad input exits 2 with one line naming the parameter and what to try") {
  struct Case {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {{"run", "vae", "--dataset", "moons", "--set", "likelihood=bernoulli", "--epochs", "1"}, "likelihood=gaussian"},
      {{"run", "vae", "--set", "latent=0", "--epochs", "1"}, "'latent'"},
      {{"run", "vae", "--set", "hidden=0", "--epochs", "1"}, "'hidden'"},
      {{"run", "vae", "--set", "beta=-0.5", "--epochs", "1"}, "'beta'"},
  };
  for (const Case& c : cases) check_refused(c.args, c.expect);
}
