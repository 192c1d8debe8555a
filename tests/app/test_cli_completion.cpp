// `cilab run completion`: the command line and columns, a MovieLens
// u.data file read as triplets (and a wide matrix with --layout wide), and bad
// files and values exiting 2 with one line naming the line or parameter.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("cli completion: the issue's command writes iteration,train_rmse,test_rmse,objective,rank,nuclear_norm,change,step_ms") {
  const CliRun r = cli({"run", "completion", "--dataset",
                        "ratings:users=200,items=300,observed=12000,rank=5,noise=0.5", "--set", "method=als", "--set",
                        "k=5", "--set", "lambda=0.1", "--steps", "20"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 21);
  CHECK(ls[0] == "iteration,train_rmse,test_rmse,objective,rank,nuclear_norm,change,step_ms");
  // The ALS objective never rises; the rank is k.
  double prev = 1e300;
  for (size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> f = split(ls[i], ',');
    REQUIRE(f.size() == 8);
    CHECK(std::stoi(f[0]) == static_cast<int>(i));
    CHECK(std::stod(f[3]) <= prev * (1 + 1e-12));
    prev = std::stod(f[3]);
    CHECK(f[4] == "5");
  }
}

TEST_CASE("cli completion: --data reads MovieLens u.data as triplets, --layout wide a matrix with empty cells") {
  const std::string udata = write_temp("cilab_cli_u.data",
                                       "196\t242\t3\t881250949\n186\t302\t3\t891717742\n22\t377\t1\t878887116\n"
                                       "196\t302\t5\t881250950\n22\t242\t4\t1\n186\t377\t2\t1\n");
  const CliRun r = cli({"run", "completion", "--data", udata, "--set", "k=1", "--set", "test_fraction=0", "--steps", "3"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).size() == 4);
  const std::string wide = write_temp("cilab_cli_wide.csv", "user,A,B,C\nu1,5,,3\nu2,,4,1\nu3,1,2,\n");
  const CliRun w = cli({"run", "completion", "--data", wide, "--layout", "wide", "--set", "k=1", "--set",
                        "test_fraction=0", "--steps", "2"});
  INFO(w.err);
  CHECK(w.code == 0);
  // Read as triplets, the wide file's empty rating is an error naming its line.
  const CliRun t = cli({"run", "completion", "--data", wide});
  CHECK(t.code == 2);
  CHECK(t.err.find(":2:") != std::string::npos);
  std::remove(udata.c_str());
  std::remove(wide.c_str());
}

TEST_CASE("cli completion: bad files and values exit 2 with one line") {
  const std::string dup = write_temp("cilab_cli_dup.csv", "1,10,4\n2,10,3\n1,10,5\n");
  const CliRun d = cli({"run", "completion", "--data", dup});
  CHECK(d.code == 2);
  CHECK(d.err.find("duplicate") != std::string::npos);
  CHECK(d.err.find(":3:") != std::string::npos);
  CHECK(lines(d.err).size() == 1);
  std::remove(dup.c_str());
  for (const char* bad : {"method=nmf", "k=0", "lambda=-1", "test_fraction=2"}) {
    CAPTURE(bad);
    const CliRun r = cli({"run", "completion", "--dataset", "ratings:users=50,items=60,observed=500", "--set", bad});
    CHECK(r.code == 2);
    CHECK(r.err.find(std::string(bad).substr(0, std::string(bad).find('='))) != std::string::npos);
  }
  const CliRun layout = cli({"run", "kmeans", "--layout", "wide"});
  CHECK(layout.code == 2);
  CHECK(layout.err.find("--layout") != std::string::npos);
}
