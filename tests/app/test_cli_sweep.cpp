// cilab sweep: the grid, one row per run, and each row equal to the last row
// of the same `cilab run`.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/headless/sweep.h"
#include "algorithms/core/registry.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("sweep: grids are parsed against the parameter's type and range") {
  const ParamSpecs specs = make_module("optimizers")->params();
  SweepAxis a = parse_sweep_axis(specs, "optimizers", "lr=1e-4:1e-1:log:4");
  REQUIRE(a.values.size() == 4);
  CHECK(std::stod(a.values[0]) == 1e-4);
  CHECK(std::stod(a.values[3]) == 1e-1);
  CHECK(std::stod(a.values[1]) == doctest::Approx(1e-3).epsilon(1e-12));  // geometric steps
  CHECK(std::stod(a.values[2]) == doctest::Approx(1e-2).epsilon(1e-12));
  const ParamSpecs km = make_module("kmeans")->params();
  a = parse_sweep_axis(km, "kmeans", "k=2:4:lin:5");  // an Int: rounded, repeats dropped
  CHECK(a.values == std::vector<std::string>{"2", "3", "4"});
  a = parse_sweep_axis(km, "kmeans", "init=random,kmeans++");
  CHECK(a.values.size() == 2);
  auto error = [&](const ParamSpecs& s, const std::string& m, const std::string& t) {
    try {
      parse_sweep_axis(s, m, t);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(has(error(km, "kmeans", "kk=1:2:lin:2"), "no parameter 'kk'"));
  CHECK(has(error(km, "kmeans", "k=1:2:cubic:2"), "lin|log"));
  CHECK(has(error(km, "kmeans", "k=0:4:log:3"), "LO and HI > 0"));
  CHECK(has(error(km, "kmeans", "k=2:1000:lin:3"), "parameter 'k'"));  // outside its range
  CHECK(has(error(km, "kmeans", "init=1:2:lin:2"), "list its values"));
  CHECK(has(error(km, "kmeans", "init=random,nope"), "nope"));
  CHECK(has(error(km, "kmeans", "k"), "expected NAME="));
}

TEST_CASE("cli sweep: one row per run, each equal to the same cilab run's last row") {
  const CliRun s = cli({"sweep", "kmeans", "--dataset", "blobs:n=400,centers=4,seed=2", "--param",
                        "k=2:4:lin:3", "--param", "init=random,kmeans++", "--seeds", "2", "--seed", "5",
                        "--steps", "30"});
  REQUIRE(s.code == 0);
  const std::vector<std::string> rows = lines(s.out);
  REQUIRE(rows.size() == 1 + 3 * 2 * 2);
  const std::vector<std::string> header = split(rows[0], ',');
  CHECK(header[0] == "k");
  CHECK(header[1] == "init");
  CHECK(header[2] == "seed");
  CHECK(header[3] == "iterations");
  CHECK(header[5] == "objective");
  CHECK(header.back() == "error");
  for (size_t r = 1; r < rows.size(); ++r) {
    const std::vector<std::string> f = split(rows[r], ',');
    REQUIRE(f.size() == header.size());
    CAPTURE(rows[r]);
    // Order: the first parameter slowest, seeds innermost.
    CHECK(f[0] == std::to_string(2 + (r - 1) / 4));
    CHECK(f[2] == std::to_string(5 + (r - 1) % 2));
    const CliRun one = cli({"run", "kmeans", "--dataset", "blobs:n=400,centers=4,seed=2", "--set", "k=" + f[0],
                            "--set", "init=" + f[1], "--seed", f[2], "--steps", "30"});
    REQUIRE(one.code == 0);
    const std::vector<std::string> run_rows = lines(one.out);
    const std::vector<std::string> last = split(run_rows.back(), ',');
    CHECK(last[0] == f[3]);  // iterations
    CHECK(last[1] == f[5]);  // the final objective, bit for bit (17 digits)
  }
}

TEST_CASE("cli sweep: a log grid prints the decimals it names, one column per name") {
  const ParamSpecs specs = make_module("mlp")->params();
  const SweepAxis a = parse_sweep_axis(specs, "mlp", "lr=1e-3:1e-1:log:3");
  CHECK(a.values == std::vector<std::string>{"0.001", "0.01", "0.1"});  // not 0.010000000000000004
  const SweepAxis b = parse_sweep_axis(specs, "mlp", "lr=0.1:0.4:lin:4");
  CHECK(b.values == std::vector<std::string>{"0.1", "0.2", "0.3", "0.4"});  // not 0.30000000000000004
  // mlp has a metric named lr (after the schedule): swept, it is written as metric_lr.
  const CliRun s = cli({"sweep", "mlp", "--param", "lr=1e-3:1e-1:log:3", "--steps", "2"});
  REQUIRE(s.code == 0);
  const std::vector<std::string> rows = lines(s.out);
  REQUIRE(rows.size() == 4);
  const std::vector<std::string> header = split(rows[0], ',');
  CHECK(std::count(header.begin(), header.end(), "lr") == 1);
  CHECK(std::count(header.begin(), header.end(), "metric_lr") == 1);
  CHECK(split(rows[2], ',')[0] == "0.01");
}

TEST_CASE("cli sweep: bad arguments are one line and exit status 2") {
  CliRun r = cli({"sweep", "kmeans"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "at least one --param"));
  r = cli({"sweep", "kmeans", "--param", "k=2:3:lin:0"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "N must be"));
  r = cli({"sweep", "nosuch", "--param", "k=2,3"});
  CHECK(r.code == 2);
  r = cli({"sweep", "kmeans", "--param", "k=2,3", "--set", "seed=3"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "--seeds"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("sweep: the summary per grid point is the mean and sd over seeds of the finite values") {
  std::vector<SweepRow> rows(5);
  const double nan = std::nan("");
  const char* v[] = {"0.1", "0.1", "0.2", "0.2", "0.2"};
  const double m[] = {1.0, 3.0, 2.0, nan, 6.0};
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].values = {v[i]};
    rows[i].metrics = {m[i], -m[i]};
  }
  const std::vector<SweepPoint> p = summarise_sweep(rows, 0, 0);
  REQUIRE(p.size() == 2);
  CHECK(p[0].x == 0.1);
  CHECK(p[0].mean == 2.0);
  CHECK(p[0].sd == doctest::Approx(std::sqrt(2.0)));
  CHECK(p[0].n == 2);
  CHECK(p[1].n == 2);  // the NaN run is left out of the mean
  CHECK(p[1].mean == 4.0);
  CHECK(p[1].per_seed.size() == 3);
  CHECK(p[1].rows == std::vector<size_t>{2, 3, 4});
  CHECK(summarise_sweep(rows, 0, 1)[1].mean == -4.0);
  rows[0].values = {"kmeans++"};  // a choice: x is its index
  CHECK(summarise_sweep(rows, 0, 0)[0].x == 0.0);
}
