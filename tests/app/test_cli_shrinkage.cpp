// `cilab run shrinkage`: the two-row table (soft, hard), consistent with the
// spectral identities it reports; bad values exit 2 naming the parameter.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli shrinkage: rows soft and hard, tau and k echoed, same rank -> hard has the smaller error") {
  // Fashion-MNIST item 3 (28 x 28): first soft alone, then hard at soft's rank.
  const std::vector<std::string> base = {"run", "shrinkage", "--dataset", "fashion-mnist:split=test,n=10",
                                         "--set", "input=dataset", "--set", "index=3", "--set", "tau=0.5"};
  const CliRun first = cli(base);
  INFO(first.err);
  REQUIRE(first.code == 0);
  const std::vector<std::string> ls = lines(first.out);
  REQUIRE(ls.size() == 3);
  CHECK(ls[0] ==
        "operator,tau_or_k,rank,nuclear_norm,frobenius_error,predicted_error,relative_error,objective,step_ms");
  const std::vector<std::string> soft = split(ls[1], ',');
  REQUIRE(soft.size() == 9);
  CHECK(soft[0] == "soft");
  CHECK(std::stod(soft[1]) == 0.5);
  const std::string rank = soft[2];
  CHECK(std::stod(soft[4]) == doctest::Approx(std::stod(soft[5])).epsilon(1e-9));  // measured = closed form
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--set", "k=" + rank});
  const CliRun r = cli(args);
  REQUIRE(r.code == 0);
  const std::vector<std::string> s = split(lines(r.out)[1], ','), h = split(lines(r.out)[2], ',');
  CHECK(h[0] == "hard");
  CHECK(h[1] == rank);
  CHECK(h[2] == rank);
  CHECK(std::stod(h[4]) < std::stod(s[4]));  // Eckart-Young: the best error at that rank
  CHECK(std::stod(s[7]) < std::stod(h[7]));  // the prox objective: soft is its minimiser
  // The nuclear norms differ by rank * tau exactly.
  CHECK(std::stod(h[3]) - std::stod(s[3]) == doctest::Approx(std::stod(rank) * 0.5).epsilon(1e-9));
  // Same command, same table (step_ms, the last field, aside).
  const std::vector<std::string> again = lines(cli(args).out);
  REQUIRE(again.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const std::string x = again[i], y = lines(r.out)[i];
    CHECK(x.substr(0, x.rfind(',')) == y.substr(0, y.rfind(',')));
  }
}

TEST_CASE("cli shrinkage: bad values exit 2 naming the parameter") {
  for (const char* bad : {"tau=-1", "k=8193", "input=video", "tau=abc"}) {
    CAPTURE(bad);
    const CliRun r = cli({"run", "shrinkage", "--set", bad});
    CHECK(r.code == 2);
    const std::string name = std::string(bad).substr(0, std::string(bad).find('='));
    CHECK(r.err.find(name) != std::string::npos);
  }
  // k above the input's rank (the photo's 512) is lowered to it (issue 29), not refused.
  const CliRun r = cli({"run", "shrinkage", "--set", "k=513"});
  CHECK(r.code == 0);
  CHECK(r.out.find("\nhard,512,512,") != std::string::npos);
}
