// The headless CLI: in-process (run_cli) and end to end (the real binary).
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "algorithms/core/parallel.h"
#include "cilab_test_paths.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;


TEST_CASE("cli: --version and --help exit 0") {
  CHECK(cli({"--version"}).code == 0);
  CHECK(cli({"--version"}).out.find("cilab ") == 0);
  const CliRun h = cli({"--help"});
  CHECK(h.code == 0);
  CHECK(h.out.find("cilab run MODULE") != std::string::npos);
}

TEST_CASE("cli: run --help, sweep -h and list --help print that command's help and exit 0") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--help"}, {"run", "kmeans", "-h"}, {"run", "--preset", "x", "--help"}}) {
    const CliRun r = cli(args);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find("cilab run MODULE [options]") != std::string::npos);
    CHECK(r.out.find("--epochs N") != std::string::npos);
    CHECK(r.out.find("GUI only") == std::string::npos);  // that command's options, not all
  }
  for (const std::vector<std::string>& args : {std::vector<std::string>{"sweep", "-h"}, {"sweep", "mlp", "--help"}}) {
    const CliRun r = cli(args);
    CHECK(r.code == 0);
    CHECK(r.out.find("cilab sweep MODULE --param NAME=GRID") != std::string::npos);
    CHECK(r.out.find("metric_NAME") != std::string::npos);
  }
  const CliRun l = cli({"list", "--help"});
  CHECK(l.code == 0);
  CHECK(l.out.find("cilab list params MODULE") != std::string::npos);
  const CliRun h = cli({"-h"});
  CHECK(h.code == 0);
  CHECK(h.out.find("GUI only") != std::string::npos);
}

TEST_CASE("cli: list shows modules and datasets, list params shows the table") {
  const CliRun l = cli({"list"});
  CHECK(l.code == 0);
  CHECK(l.out.find("kmeans") != std::string::npos);
  CHECK(l.out.find("blobs") != std::string::npos);
  CHECK(l.out.find("fashion-mnist") != std::string::npos);
  // A choice option lists its names, not a 0/1 range (issue 9: split is train/test).
  const CliRun d = cli({"list", "datasets"});
  CHECK(d.code == 0);
  const size_t split = d.out.find("split");
  REQUIRE(split != std::string::npos);
  const std::string split_line = d.out.substr(split, d.out.find('\n', split) - split);
  CAPTURE(split_line);
  CHECK(split_line.find("default train") != std::string::npos);
  CHECK(split_line.find("train|test") != std::string::npos);
  CHECK(split_line.find("[0, 1]") == std::string::npos);
  const CliRun p = cli({"list", "params", "kmeans"});
  CHECK(p.code == 0);
  for (const char* name : {"\nk\t", "\ninit\t", "max_iter", "seed", "kmeans++", "objective"})
    CHECK_MESSAGE(p.out.find(name) != std::string::npos, name);
}

TEST_CASE("cli: run writes a CSV with iteration, every metric and step_ms") {
  const CliRun r = cli({"run", "kmeans", "--dataset", "blobs:n=300,centers=3", "--set", "k=3", "--steps", "5"});
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() >= 2);
  CHECK(ls[0].rfind("iteration,objective,changed,", 0) == 0);
  CHECK(ls[0].substr(ls[0].size() - 8) == ",step_ms");
  const std::vector<std::string> header = split(ls[0], ',');
  double prev = 1e300;
  for (size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> f = split(ls[i], ',');
    REQUIRE(f.size() == header.size());
    CHECK(std::stoi(f[0]) == static_cast<int>(i));
    const double objective = std::stod(f[1]);
    CHECK(objective <= prev * (1 + 1e-12));  // k-means never rises
    prev = objective;
    CHECK(std::stod(f.back()) >= 0.0);
  }
}

TEST_CASE("cli: same seed gives the same CSV (apart from step_ms)") {
  auto metrics_only = [](const std::string& out) {
    std::string s;
    for (const std::string& l : lines(out)) s += l.substr(0, l.rfind(',')) + "\n";
    return s;
  };
  const std::vector<std::string> args = {"run", "kmeans", "--dataset", "blobs:n=500,centers=4", "--set",
                                         "init=random", "--seed", "42", "--steps", "8"};
  const CliRun a = cli(args), b = cli(args);
  CHECK(metrics_only(a.out) == metrics_only(b.out));
}

TEST_CASE("cli: bad arguments exit 2 with one line on stderr") {
  const std::vector<std::vector<std::string>> bad = {
      {"run"},
      {"run", "nosuchmodule"},
      {"run", "kmeans", "--set", "k=0"},
      {"run", "kmeans", "--set", "k=abc"},
      {"run", "kmeans", "--set", "nosuch=1"},
      {"run", "kmeans", "--set", "init=bogus"},
      {"run", "kmeans", "--steps", "-3"},
      {"run", "kmeans", "--dataset", "nosuchdata"},
      {"run", "kmeans", "--dataset", "blobs:n=abc"},
      {"run", "kmeans", "--data", "/nonexistent/file.csv"},
      {"run", "kmeans", "--dataset", "iris", "--data", "x.csv"},
      {"run", "kmeans", "--bogus"},
      {"list", "params"},
      {"list", "nonsense"},
      {"--frames", "0"},
      {"--scale", "9"},
      {"--module", "nosuch"},
      {"--seed"},
      {"run", "kmeans", "--dataset", "blobs:n=5", "--set", "k=10"},
  };
  for (const auto& args : bad) check_refused(args);
}

TEST_CASE("cli: GUI options are parsed, not run") {
  const CliRun r = cli({"--module", "kmeans", "--dataset", "iris", "--set", "k=3", "--frames", "5", "--play"});
  CHECK(r.code == 0);
  CHECK(r.gui);
}

TEST_CASE("cli e2e: the real binary runs, writes --out, and fails cleanly") {
  const std::string bin = CILAB_BINARY;
  CliRun r = shell(bin + " run kmeans --dataset blobs:n=2000,centers=5 --set k=5 --set init=kmeans++ --steps 10 --out cli_e2e.csv",
                   "cli_e2e");
  CHECK(r.code == 0);
  std::ifstream f("cli_e2e.csv");
  std::string header;
  std::getline(f, header);
  CHECK(header.rfind("iteration,objective,changed,", 0) == 0);
  r = shell(bin + " run kmeans --data " CILAB_TEST_DATA_DIR "/does-not-exist.csv", "cli_e2e");
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  r = shell(bin + " run kmeans --out /nonexistent-dir/x.csv --steps 1", "cli_e2e");
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
}

TEST_CASE("cli: --threads N bounds every parallel loop of run and sweep - the same numbers on 1 and 2 threads, the bound restored after") {
  const int before = max_threads();
  const std::vector<std::string> mlp = {"run", "mlp", "--dataset", "moons:n=2000", "--set", "layers=128,128",
                                        "--set", "batch=256", "--epochs", "2"};
  auto run_on = [&](const char* threads, long long* pool_loops) {
    std::vector<std::string> args = mlp;
    args.insert(args.end(), {"--threads", threads});
    const ParallelStats s0 = parallel_stats();
    const CliRun r = cli(args);
    *pool_loops = parallel_stats().pool_loops - s0.pool_loops;
    INFO(r.err);
    REQUIRE(r.code == 0);
    return lines(r.out);
  };
  long long loops1 = 0, loops2 = 0;
  const std::vector<std::string> one = run_on("1", &loops1), two = run_on("2", &loops2);
  CHECK(loops1 == 0);  // one thread: no loop handed to the pool
  CHECK(loops2 > 0);   // two: the layers' products were split
  REQUIRE(one.size() == 3);
  REQUIRE(two.size() == one.size());
  for (size_t e = 1; e < one.size(); ++e) {  // the same losses and accuracy (epoch_ms aside)
    const std::vector<std::string> a = split(one[e], ','), b = split(two[e], ',');
    for (size_t c = 0; c + 1 < a.size(); ++c) CHECK(a[c] == b[c]);
  }
  CHECK(max_threads() == before);  // a command's --threads lasts while it runs
  const CliRun sweep = cli({"sweep", "kmeans", "--dataset", "iris", "--param", "k=2,3", "--threads", "1"});
  CHECK(sweep.code == 0);
  CHECK(lines(sweep.out).size() == 3);
  CHECK(max_threads() == before);
  // The window takes it too (applied before it opens).
  const CliRun gui = cli({"--module", "mlp", "--threads", "2"});
  CHECK(gui.gui);
  for (const char* bad : {"0", "17", "two", "-1", ""}) {
    check_refused({"run", "kmeans", "--threads", bad}, "--threads");
    check_refused({"sweep", "kmeans", "--param", "k=2,3", "--threads", bad}, "--threads");
    check_refused({"--threads", bad}, "--threads");
  }
  check_refused({"run", "kmeans", "--threads"}, "--threads");
}
