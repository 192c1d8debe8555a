// `cilab run mlp`: --epochs writes one row per epoch (classification and
// regression columns), the run is the same for the same seed, --steps caps an
// --epochs run, and bad input exits 2 with one line naming the parameter.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"
#include "tests/support/npz_reader.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli mlp: --epochs writes epoch,iteration,train_loss,test_loss,test_accuracy,epoch_ms per epoch") {
  const CliRun r = cli({"run", "mlp", "--dataset", "moons:n=200", "--set", "batch=40", "--epochs", "5"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 1 + 5);
  CHECK(ls[0] == "epoch,iteration,train_loss,test_loss,test_accuracy,epoch_ms");
  for (size_t e = 1; e < ls.size(); ++e) {
    const std::vector<std::string> f = split(ls[e], ',');
    REQUIRE(f.size() == 6);
    CHECK(std::stoi(f[0]) == static_cast<int>(e));
    CHECK(std::stoi(f[1]) == static_cast<int>(4 * e));  // 160 training rows / batch 40
    CHECK(std::stod(f[2]) > 0);
    CHECK(std::stod(f[4]) >= 0);
    CHECK(std::stod(f[4]) <= 1);
    CHECK(std::stod(f[5]) >= 0);
  }
  // Same seed, same losses (the epoch_ms column aside).
  const CliRun again = cli({"run", "mlp", "--dataset", "moons:n=200", "--set", "batch=40", "--epochs", "5"});
  for (size_t e = 1; e < ls.size(); ++e) {
    const std::vector<std::string> a = split(ls[e], ','), b = split(lines(again.out)[e], ',');
    for (size_t c = 0; c < 5; ++c) CHECK(a[c] == b[c]);
  }
  // --steps caps an --epochs run: 6 steps = one epoch of 4 and part of the next.
  const CliRun capped = cli({"run", "mlp", "--dataset", "moons:n=200", "--set", "batch=40", "--epochs", "5", "--steps", "6"});
  CHECK(lines(capped.out).size() == 1 + 1);
}

TEST_CASE("cli mlp: a regression writes test_r2, and a classification-only module refuses --epochs") {
  const CliRun r = cli({"run", "mlp", "--dataset", "curve:n=100", "--set", "layers=16", "--epochs", "3"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(lines(r.out)[0] == "epoch,iteration,train_loss,test_loss,test_r2,epoch_ms");
  CHECK(lines(r.out).size() == 1 + 3);
  const CliRun k = cli({"run", "kmeans", "--epochs", "2"});
  CHECK(k.code == 2);
  CHECK(k.err.find("--epochs") != std::string::npos);
  CHECK(k.err.find("--steps") != std::string::npos);
}

TEST_CASE("cli mlp: bad input exits 2 with one line naming the parameter and what to try") {
  struct Case {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Case> cases = {
      {{"--set", "layers=0"}, "layers"},
      {{"--set", "layers=abc"}, "layers"},
      {{"--set", "layers=1000000,1000000"}, "layers"},
      {{"--dataset", "fashion-mnist:n=100", "--set", "layers=4096,4096,4096,4096,4096,4096,4096,4096"}, "narrower layers"},
      {{"--dataset", "moons:n=50", "--set", "batch=100"}, "batch <= 40"},
      {{"--dataset", "moons:n=50", "--set", "task=regression"}, "target column"},
      {{"--dataset", "curve:n=50", "--set", "task=classification"}, "class labels"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", "mlp"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    check_refused(args, c.expect);
  }
}

TEST_CASE("cli mlp: --save-weights writes the network as .npz with PyTorch's state_dict names and shapes, the same bits for the same seed on 1 and 2 threads") {
  const std::vector<std::string> base = {"run", "mlp", "--dataset", "moons:n=200", "--set", "layers=16,8",
                                         "--set", "batch=40", "--epochs", "2"};
  auto run_to = [&](const std::string& path, const char* threads) {
    std::vector<std::string> args = base;
    args.insert(args.end(), {"--save-weights", path, "--threads", threads});
    const CliRun r = cli(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("# weights: 6 tensors") != std::string::npos);
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  const std::string one = run_to("cli_mlp_weights_1.npz", "1"), two = run_to("cli_mlp_weights_2.npz", "2");
  std::remove("cli_mlp_weights_1.npz");
  std::remove("cli_mlp_weights_2.npz");
  CHECK(one == two);
  const std::map<std::string, NpyRead> w = read_npz(one);
  // 2 -> Linear(16) -> ReLU -> Linear(8) -> ReLU -> Linear(2): torch.nn.Sequential's indices 0, 2, 4.
  REQUIRE(w.size() == 6);
  CHECK(w.at("0.weight").shape == std::vector<int64_t>{16, 2});
  CHECK(w.at("0.bias").shape == std::vector<int64_t>{16});
  CHECK(w.at("2.weight").shape == std::vector<int64_t>{8, 16});
  CHECK(w.at("4.weight").shape == std::vector<int64_t>{2, 8});
  CHECK(w.at("4.bias").shape == std::vector<int64_t>{2});
  // Trained: not torch's initial U(+-1/sqrt(fan_in)) any more somewhere.
  double largest = 0;
  for (double v : w.at("2.weight").values) largest = std::max(largest, std::abs(v));
  CHECK(largest > 0.0);
  // A module without a network, and a path that cannot be written: refused, nothing half-written.
  check_refused({"run", "kmeans", "--save-weights", "k.npz"}, "--save-weights");
  check_refused({"run", "mlp", "--dataset", "moons:n=100", "--steps", "1", "--save-weights", "/no/such/dir/w.npz"},
                "--save-weights");
}
