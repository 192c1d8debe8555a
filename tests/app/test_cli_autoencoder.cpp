// `cilab run autoencoder`: --epochs writes exactly the columns, the
// loss column is each epoch's mean training loss (the module's own log), the
// Eckart-Young value is PCA's, a nonlinear run writes nan for the angle, and
// bad input exits 2 with one line naming the parameter.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "algorithms/networks/autoencoder.h"
#include "algorithms/data/datasets.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli autoencoder: linear on Fashion-MNIST writes epoch,iteration,loss,test_loss,eckart_young_loss,max_principal_angle,epoch_ms") {
  const std::vector<std::string> args = {"run", "autoencoder", "--set", "linear=true", "--set", "m=10", "--dataset",
                                         "fashion-mnist:n=1000", "--set", "batch=100", "--epochs", "3"};
  const CliRun r = cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 1 + 3);
  CHECK(ls[0] == "epoch,iteration,loss,test_loss,eckart_young_loss,max_principal_angle,epoch_ms");
  // The same run in process: the loss column is the epoch's mean training loss.
  Autoencoder a;
  ParamValues v = default_values(a.params());
  for (const char* s : {"linear=true", "m=10", "batch=100"}) apply_assignment(a.params(), v, s, "autoencoder");
  a.reset(make_dataset("fashion-mnist:n=1000"), v, 0);
  while (a.snapshot()->epoch < 3) a.step();
  const auto s = a.ae_snapshot();
  for (size_t e = 1; e < ls.size(); ++e) {
    const std::vector<std::string> f = split(ls[e], ',');
    REQUIRE(f.size() == 7);
    CHECK(std::stoi(f[0]) == static_cast<int>(e));
    CHECK(std::stoi(f[1]) == static_cast<int>(10 * e));  // 1000 training rows (tested on t10k) / batch 100
    CHECK(std::stod(f[2]) == (*s->epochs)[e].train_loss);
    CHECK(std::stod(f[3]) == (*s->epochs)[e].test_loss);  // the epoch's end, on the test rows
    CHECK(std::stod(f[3]) > 0);
    CHECK(std::stod(f[4]) == s->pca->eckart_young);
    CHECK(std::stod(f[5]) == (*s->epochs)[e].max_principal_angle);
    CHECK(std::stod(f[5]) >= 0);
    CHECK(std::stod(f[5]) <= M_PI / 2);
    CHECK(std::stod(f[6]) >= 0);
  }
  // Eckart-Young: half the sum of the covariance eigenvalues beyond the 10th.
  CHECK(s->pca->eckart_young == doctest::Approx(0.5 * s->pca->eigenvalues.tail(784 - 10).sum()));
}

TEST_CASE("cli autoencoder: a nonlinear run writes nan for the principal angle") {
  const CliRun r = cli({"run", "autoencoder", "--dataset", "blobs:n=200,dim=3", "--epochs", "2"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 1 + 2);
  CHECK(split(ls[1], ',')[5] == "nan");
  CHECK(std::isfinite(std::stod(split(ls[1], ',')[4])));  // PCA's loss at m is the nonlinear run's reference too
}

TEST_CASE("cli autoencoder: bad input exits 2 with one line naming the parameter and what to try") {
  struct Case {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {{"--set", "m=0"}, "'m'"},
      {{"--dataset", "blobs:n=100,dim=3", "--set", "m=5"}, "m <= 3"},
      {{"--set", "tied=true"}, "linear=true"},
      {{"--dataset", "blobs:n=50,dim=3", "--set", "batch=100"}, "batch <= 40"},
      {{"--set", "noise=-1"}, "noise"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", "autoencoder"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    check_refused(args, c.expect);
  }
}
