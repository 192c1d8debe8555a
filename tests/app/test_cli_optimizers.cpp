// `cilab run optimizers ...`: in-process (run_cli) and end to end (the real
// binary), including bad input (unknown function, bad expr) and the
// finite-sum problems on the data given with --dataset (data=loaded).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "cilab_test_paths.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

double rosenbrock(double x, double y) { return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x); }

}  // namespace

TEST_CASE("cli optimizers: the issue's command writes loss, x, y, grad_norm per iteration") {
  const CliRun r = cli({"run", "optimizers", "--set", "function=rosenbrock", "--set", "optimizer=adam", "--set",
                        "lr=0.01", "--set", "start=-1.5,2", "--steps", "500"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() >= 2);
  CHECK(ls[0].rfind("iteration,loss,x,y,grad_norm,", 0) == 0);
  CHECK(ls[0].substr(ls[0].size() - 8) == ",step_ms");
  const std::vector<std::string> header = split(ls[0], ',');
  CHECK(ls.size() == 501);  // iterations 1..500
  for (size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> f = split(ls[i], ',');
    REQUIRE(f.size() == header.size());
    const double loss = std::stod(f[1]), x = std::stod(f[2]), y = std::stod(f[3]);
    CHECK(loss == doctest::Approx(rosenbrock(x, y)).epsilon(1e-12));  // the columns agree
    CHECK(std::stod(f.back()) >= 0.0);
  }
  const std::vector<std::string> last = split(ls.back(), ',');
  CHECK(std::stod(last[1]) < rosenbrock(-1.5, 2) / 2);  // Adam made progress (12.5 -> ~4.2)
}

TEST_CASE("cli optimizers: a custom expression and a finite-sum problem run") {
  CliRun r = cli({"run", "optimizers", "--set", "function=custom", "--set", "expr=(x-1)^2 + 2*(y+0.5)^2",
                  "--set", "optimizer=gd", "--set", "lr=0.1", "--steps", "200"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::vector<std::string> f = split(lines(r.out).back(), ',');
  CHECK(std::stod(f[2]) == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(std::stod(f[3]) == doctest::Approx(-0.5).epsilon(1e-6));
  r = cli({"run", "optimizers", "--set", "function=least_squares", "--set", "optimizer=sgd", "--set", "batch=8",
           "--set", "lr=0.05", "--steps", "100", "--seed", "3"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).size() == 101);
}

TEST_CASE("cli optimizers: a diverging primary stops the run with status diverged") {
  const CliRun r = cli({"run", "optimizers", "--set", "function=quadratic", "--set", "optimizer=gd", "--set",
                        "lr=0.5", "--steps", "200"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(lines(r.out).size() < 20);  // stopped at the divergence, not after 200 rows
}

TEST_CASE("cli optimizers: bad input exits 2 with one clear line") {
  struct Bad {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Bad> bad = {
      {{"run", "optimizers", "--set", "function=nosuch"}, "function"},
      {{"run", "optimizers", "--set", "function=custom", "--set", "expr=x^2 + * y"}, "parameter 'expr'"},
      {{"run", "optimizers", "--set", "function=custom", "--set", "expr=x + z"}, "position"},
      {{"run", "optimizers", "--set", "optimizer=adamax"}, "optimizer"},
      {{"run", "optimizers", "--set", "lr=-1"}, "lr"},
      {{"run", "optimizers", "--set", "start=1"}, "start"},
      {{"run", "optimizers", "--set", "nesterov=true", "--set", "dampening=0.5"}, "dampening"},
  };
  for (const Bad& b : bad) check_refused(b.args, b.expect);
}

TEST_CASE("cli optimizers e2e: the real binary runs and rejects a bad expr") {
  const std::string bin = CILAB_BINARY;
  CliRun r = shell(bin + " run optimizers --set function=rosenbrock --set optimizer=adam --set lr=0.01 "
                         "--set start=-1.5,2 --steps 50 --out cli_opt_e2e.csv",
                   "cli_opt_e2e");
  CHECK(r.code == 0);
  std::ifstream f("cli_opt_e2e.csv");
  std::string header;
  std::getline(f, header);
  CHECK(header.rfind("iteration,loss,x,y,grad_norm,", 0) == 0);
  r = shell(bin + " run optimizers --set function=custom --set 'expr=sin(x'", "cli_opt_e2e");
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("parameter 'expr'") != std::string::npos);
  r = shell(bin + " run optimizers --set function=banana", "cli_opt_e2e");
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
}

TEST_CASE("cli optimizers: data=loaded runs logistic regression on the --dataset data") {
  CliRun r = cli({"run", "optimizers", "--dataset", "moons:n=200,noise=0.3", "--set", "function=logistic", "--set",
                  "data=loaded", "--set", "optimizer=gd", "--set", "lr=0.5", "--steps", "20"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::vector<std::string> ls = lines(r.out);
  CHECK(ls.size() == 21);
  // Loss falls, and dist_to_opt is finite (moons overlap: a finite optimum).
  const std::vector<std::string> first = split(ls[1], ','), last = split(ls.back(), ',');
  CHECK(std::stod(last[1]) < std::stod(first[1]));
  CHECK(std::isfinite(std::stod(last[5])));
  CHECK(std::stod(last[5]) < std::stod(first[5]));
  // The same command on the built-in data gives other numbers.
  const CliRun b = cli({"run", "optimizers", "--dataset", "moons:n=200,noise=0.3", "--set", "function=logistic",
                        "--set", "data=builtin", "--set", "optimizer=gd", "--set", "lr=0.5", "--steps", "20"});
  REQUIRE(b.code == 0);
  CHECK(split(lines(b.out).back(), ',')[1] != last[1]);
  // Least squares on a CSV-like 3-column dataset works too.
  r = cli({"run", "optimizers", "--dataset", "blobs:n=100,dim=3", "--set", "function=least_squares", "--set",
           "data=loaded", "--steps", "10"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(lines(r.out).size() == 11);
}

TEST_CASE("cli optimizers: data=loaded without a usable dataset exits 2 with one line") {
  struct Bad {
    std::vector<std::string> args;
    const char* expect;
  };
  const std::vector<Bad> bad = {
      {{"run", "optimizers", "--set", "function=logistic", "--set", "data=loaded"}, "none is loaded"},
      {{"run", "optimizers", "--set", "function=least_squares", "--set", "data=loaded"}, "none is loaded"},
      {{"run", "optimizers", "--dataset", "blobs:centers=3", "--set", "function=logistic", "--set", "data=loaded"},
       "has 3 classes"},
      {{"run", "optimizers", "--set", "data=nosuch"}, "data"},
  };
  for (const Bad& b : bad) {
    check_refused(b.args, "'data'");
    check_refused(b.args, b.expect);
  }
}

TEST_CASE("cli optimizers e2e: the real binary runs logistic on --dataset with data=loaded") {
  const std::string bin = CILAB_BINARY;
  CliRun r = shell(bin + " run optimizers --dataset moons:n=200,noise=0.3 --set function=logistic "
                         "--set data=loaded --steps 20",
                   "cli_opt_data_e2e");
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(lines(r.out).size() == 21);
  r = shell(bin + " run optimizers --set function=logistic --set data=loaded --steps 20", "cli_opt_data_e2e");
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("parameter 'data'") != std::string::npos);
}
