// `cilab run gan`: the per-iteration columns, the same run for the
// same seed, modes_covered NaN without modes, `cilab params gan` listing the
// window-only metrics, and bad input exiting 2 with one line naming the parameter.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli gan: writes iteration,d_loss,g_loss,d_real,d_fake,modes_covered,step_ms per iteration") {
  const std::vector<std::string> args = {"run", "gan", "--set", "target=ring8", "--set", "loss=nonsaturating",
                                         "--set", "batch=64", "--set", "g_width=16", "--set", "d_width=16",
                                         "--steps", "60"};
  const CliRun r = cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 1 + 60);
  CHECK(ls[0] == "iteration,d_loss,g_loss,d_real,d_fake,modes_covered,step_ms");
  for (size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> f = split(ls[i], ',');
    REQUIRE(f.size() == 7);
    CHECK(std::stoi(f[0]) == static_cast<int>(i));
    CHECK(std::stod(f[1]) > 0);  // BCE sums are positive
    CHECK(std::stod(f[3]) > 0);  // mean probabilities
    CHECK(std::stod(f[3]) < 1);
    CHECK(std::stod(f[4]) > 0);
    CHECK(std::stod(f[4]) < 1);
    const double modes = std::stod(f[5]);
    CHECK(modes >= 0);
    CHECK(modes <= 8);
    CHECK(modes == std::floor(modes));
  }
  const CliRun again = cli(args);
  REQUIRE(lines(again.out).size() == ls.size());
  for (size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> a = split(ls[i], ','), b = split(lines(again.out)[i], ',');
    for (size_t c = 0; c < 6; ++c) CHECK(a[c] == b[c]);
  }
}

TEST_CASE("cli gan: modes_covered is nan on a target without modes") {
  const CliRun r = cli({"run", "gan", "--set", "target=spiral", "--set", "batch=32", "--set", "g_width=8", "--set",
                        "d_width=8", "--steps", "3"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 4);
  for (size_t i = 1; i < ls.size(); ++i) CHECK(split(ls[i], ',')[5] == "nan");
}

TEST_CASE("cli gan: params lists the CSV columns and the metrics shown only in the window") {
  const CliRun r = cli({"list", "params", "gan"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("Metrics (CSV columns of cilab run): iteration,d_loss,g_loss,d_real,d_fake,modes_covered,step_ms") !=
        std::string::npos);
  CHECK(r.out.find("Also shown in the window: high_quality kl js") != std::string::npos);
  CHECK(r.out.find("d_lr") != std::string::npos);
  CHECK(r.out.find("g_optimizer") != std::string::npos);
}

TEST_CASE("cli gan: bad input exits 2 with one line naming the parameter and what to try") {
  const std::string one_col = "/tmp/cilab_cli_gan_one_column.csv";
  {
    std::ofstream f(one_col);
    f << "x\n1\n2\n3\n4\n";
  }
  struct Case {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {{"run", "gan", "--set", "g_width=0", "--steps", "1"}, "'g_width'"},
      {{"run", "gan", "--set", "d_width=0", "--steps", "1"}, "'d_width'"},
      {{"run", "gan", "--set", "batch=0", "--steps", "1"}, "'batch'"},
      {{"run", "gan", "--data", one_col, "--set", "target=data", "--steps", "1"}, "'target'"},
      {{"run", "gan", "--dataset", "iris", "--set", "target=data", "--set", "feature_x=9", "--steps", "1"},
       "'feature_x'"},
  };
  for (const Case& c : cases) check_refused(c.args, c.expect);
}
