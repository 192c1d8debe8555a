// A/B compare in the real window (Run > Compare A/B): run B starts as a copy of A at
// A's position, a change of B's parameters affects B only, the transport steps both,
// and the exported metrics hold both runs. Each run is checked against the same run
// made headless with the Runner (exact: both are the same deterministic computation).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "app/headless/runner.h"
#include "tests/support/gui_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

// The exported metrics CSV: header names and, per row, the fields as written.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return static_cast<int>(i);
    return -1;
  }
};

Csv read_csv(const std::string& path) {
  Csv c;
  std::ifstream in(path);
  std::string line, field;
  REQUIRE(std::getline(in, line));
  std::istringstream h(line);
  while (std::getline(h, field, ',')) c.header.push_back(field);
  while (std::getline(in, line)) {
    std::vector<std::string> row;
    std::istringstream r(line + ",");  // a trailing empty field still counts
    while (std::getline(r, field, ',')) row.push_back(field);
    c.rows.push_back(row);
  }
  return c;
}

// Metric `name` of every iteration of a headless run: reset, `before` steps, then the
// live change (if any), then `after` steps.
std::vector<double> headless(const std::string& module, const std::string& data, const ParamValues& values,
                             uint64_t seed, const std::string& name, int before, const std::string& live = "",
                             double live_value = 0.0, int after = 0) {
  Runner r([module] { return make_module(module); }, RunnerConfig{false});
  r.reset(data.empty() ? nullptr : make_dataset(data), values, seed);
  r.wait_idle();
  REQUIRE(r.last_error().empty());
  r.run_steps(before);
  if (!live.empty()) {
    r.set_live(live, live_value);
    r.run_steps(after);
  }
  const ModuleInfo* info = r.info();
  int k = -1;
  for (size_t i = 0; i < info->metrics.size(); ++i)
    if (info->metrics[i].name == name) k = static_cast<int>(i);
  REQUIRE(k >= 0);
  std::vector<double> out;
  for (const IterationRecord& rec : r.history()) out.push_back(rec.metrics[static_cast<size_t>(k)]);
  return out;
}

// A column's values up to its first empty field (a run with fewer iterations); "nan" stays NaN.
std::vector<double> csv_column(const Csv& c, const std::string& name) {
  const int col = c.column(name);
  REQUIRE_MESSAGE(col >= 0, "no column " << name);
  std::vector<double> out;
  for (const std::vector<std::string>& row : c.rows) {
    if (col >= static_cast<int>(row.size()) || row[static_cast<size_t>(col)].empty()) break;
    out.push_back(std::stod(row[static_cast<size_t>(col)]));
  }
  return out;
}

// Equal element by element, NaN equal to NaN (an undefined metric, as at iteration 0).
bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

ParamValues defaults_of(const std::string& module) { return default_values(make_module(module)->params()); }

}  // namespace

TEST_CASE("gui compare: a Rebuild change of B restarts both, and A and B each equal their own headless run") {
  const QuietWindow window("compare_rebuild", "ui_scale=1\n");
  const std::string data = "blobs:n=400,centers=5,noise=1.5,seed=2";
  const std::string csv = window.dir + "/ab.csv";
  {
    std::ofstream script("gui_compare_rebuild.txt");
    script << "step 2\n"
              "compare on\n"
              "wait 2\n"
              "expect b-iteration 2\n"   // B is a copy of A at A's position
              "set-b k=6\n"              // Rebuild: both restart from iteration 0
              "set-b init=random\n"
              "step 5\n"               // (k-means may converge earlier: both stop there, as headless)
              "expect param k=3\n"
              "expect b-param k=6\n"
              "export-metrics " << csv << "\n"
              "wait 2\n"
              "screenshot gui_compare_rebuild.png\n"
              "expect no-error\n"
              "quit\n";
  }
  const Proc p = run_gui("--module kmeans --dataset " + data + " --set k=3 --seed 7 --frames 100000 "
                         "--script gui_compare_rebuild.txt",
                         "gui_compare_rebuild_end.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  const Csv c = read_csv(csv);
  CHECK(c.header.front() == "iteration");
  CHECK(c.column("A step_ms") > 0);
  CHECK(c.column("B step_ms") > c.column("A step_ms"));
  ParamValues a = defaults_of("kmeans");
  a["k"] = 3;
  ParamValues b = a;
  b["k"] = 6;
  b["init"] = 0;
  const std::vector<double> ha = headless("kmeans", data, a, 7, "objective", 5);
  const std::vector<double> hb = headless("kmeans", data, b, 7, "objective", 5);
  CHECK(same(csv_column(c, "A objective"), ha));
  CHECK(same(csv_column(c, "B objective"), hb));
  REQUIRE(ha.size() > 2);
  CHECK(ha.back() != hb.back());  // the comparison shows a difference (k = 6 fits 5 blobs better)
  CHECK(distinct_colours("gui_compare_rebuild.png") > 100);
}

TEST_CASE("gui compare: a live change of B applies from B's position while A runs on unchanged") {
  const QuietWindow window("compare_live", "ui_scale=1\n");
  const std::string csv = window.dir + "/ab.csv";
  {
    std::ofstream script("gui_compare_live.txt");
    script << "step 10\n"
              "compare on\n"
              "set-b lr=0.002\n"  // live: from iteration 10 on
              "step 15\n"
              "back\n"            // Back and Step drive both
              "step 1\n"
              "expect iteration 25\n"
              "expect b-iteration 25\n"
              "expect b-param lr=0.002\n"
              "export-metrics " << csv << "\n"
              "wait 2\n"
              "compare off\n"
              "step 1\n"
              "expect iteration 26\n"
              "expect no-error\n"
              "quit\n";
  }
  const Proc p = run_gui("--module optimizers --seed 0 --frames 100000 --script gui_compare_live.txt", "gui_compare_live_end.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  const Csv c = read_csv(csv);
  const ParamValues v = defaults_of("optimizers");
  const std::vector<double> ha = headless("optimizers", "", v, 0, "loss", 25);
  const std::vector<double> hb = headless("optimizers", "", v, 0, "loss", 10, "lr", 0.002, 15);
  const std::vector<double> a = csv_column(c, "A loss"), b = csv_column(c, "B loss");
  CHECK(same(a, ha));
  CHECK(same(b, hb));
  REQUIRE(a.size() == 26);
  REQUIRE(b.size() == 26);
  CHECK(same(std::vector<double>(a.begin(), a.begin() + 11), std::vector<double>(b.begin(), b.begin() + 11)));  // the same run up to the change
  CHECK(a[25] != b[25]);
}

TEST_CASE("gui compare: the 'Comparing A and B' banner goes when Compare stops") {
  const QuietWindow window("compare_banner", "ui_scale=1\n");
  {
    std::ofstream script("gui_compare_banner.txt");
    script << "step 3\n"
              "compare on\n"
              "wait 1\n"
              "expect text Comparing A and B\n"
              "compare off\n"
              "wait 1\n"
              "expect no-text Comparing A and B\n"  // it spoke of a B that is gone
              "expect no-error\n"
              "quit\n";
  }
  const Proc p = run_gui("--module optimizers --seed 0 --frames 100000 --script gui_compare_banner.txt", "gui_compare_banner_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
}

TEST_CASE("gui compare: B opens on the tab A shows, then both follow the number keys") {
  const QuietWindow window("compare_tab", "ui_scale=1\n");
  std::ofstream("gui_compare_tab.txt") << "step 5\n"
                                          "settle\n"
                                          "expect plot count = 1 decision regions##mlp\n"
                                          "key 3\n"  // A on the Network tab
                                          "wait 2\n"
                                          "expect plot count = 0 decision regions##mlp\n"
                                          "compare on\n"
                                          "settle\n"
                                          "wait 3\n"
                                          // old: B opened on the Model tab, its regions drawn
                                          "expect plot count = 0 decision regions##mlp\n"
                                          "key 1\n"
                                          "wait 3\n"
                                          "expect plot count = 2 decision regions##mlp\n"
                                          "quit\n";
  const Proc p = run_gui("--module mlp --dataset moons:n=300,seed=2 --seed 3 --frames 100000 --script gui_compare_tab.txt",
                         "gui_compare_tab.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
}
