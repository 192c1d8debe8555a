// bench_kmeans: time per Lloyd iteration of the kmeans module on large data.
//
// Cases (init = first k rows, so scikit-learn can start from the very same
// centroids):
//   fashion-mnist  Fashion-MNIST train, 60000 x 784 (pixels in [0, 1]), k = 10
//   blobs          make_dataset("blobs:n=1000000,centers=8,seed=0"), 1e6 x 2, k = 8
// For each case it writes <out>/<case>_x.npy (n x d float64) and
// <case>_init.npy (k x d) for bench/kmeans_sklearn.py, runs `iters` iterations
// (fewer if the run converges) timing each step, and prints one line
//   RESULT case=.. n=.. d=.. k=.. iters=.. reset_ms=.. ms_per_iter=.. median_ms=..
//          cpu_ms_per_iter=.. objective=.. objective_after_update=.. status=..
// cpu_ms_per_iter is process CPU time (all threads), a check on a busy machine.
// `objective` is J after one more assign half-step (scikit-learn's inertia_
// definition: labels recomputed for the final centroids); the run itself is
// `iters` full iterations.
// --dataset SPEC [--k K] runs one extra case named "custom" on
// make_dataset(SPEC) (e.g. "blobs:n=1000000,centers=8,dim=4,seed=0"), k = K
// (default 8), instead of the built-in cases.
// Usage: bench_kmeans [--iters N] [--out DIR] [--threads T] [--case NAME] [--no-npy]
//                     [--dataset SPEC] [--k K]
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"
#include "algorithms/clustering/kmeans.h"
#include "bench/npy.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

using namespace cilab;

namespace {

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Case {
  std::string name;
  int k;
  std::shared_ptr<const Dataset> (*load)();
};

}  // namespace

int main(int argc, char** argv) {
  int iters = 20;
  std::string out;
  std::string only;
  std::string custom;
  int custom_k = 8;
  bool npy = true;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    auto next = [&]() -> std::string {
      if (a + 1 >= argc) {
        std::fprintf(stderr, "bench_kmeans: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++a];
    };
    if (arg == "--iters") iters = std::max(1, std::atoi(next().c_str()));
    else if (arg == "--out") out = next();
    else if (arg == "--threads") set_max_threads(std::atoi(next().c_str()));
    else if (arg == "--case") only = next();
    else if (arg == "--no-npy") npy = false;
    else if (arg == "--dataset") custom = next();
    else if (arg == "--k") custom_k = std::max(1, std::atoi(next().c_str()));
    else {
      std::fprintf(stderr,
                   "usage: bench_kmeans [--iters N] [--out DIR] [--threads T] [--case NAME] "
                   "[--no-npy] [--dataset SPEC] [--k K]\n");
      return 2;
    }
  }
  if (out.empty()) npy = false;

  static std::string custom_spec;
  custom_spec = custom;
  std::vector<Case> cases = {
      {"fashion-mnist", 10, [] { return load_fashion_mnist("train"); }},
      {"blobs", 8, [] { return make_dataset("blobs:n=1000000,centers=8,seed=0"); }},
  };
  if (!custom.empty())
    cases = {{"custom", custom_k, [] { return make_dataset(custom_spec); }}};
  for (const Case& c : cases) {
    if (!only.empty() && only != c.name) continue;
    std::shared_ptr<const Dataset> data;
    try {
      data = c.load();
    } catch (const std::exception& e) {
      std::printf("SKIP case=%s reason=%s\n", c.name.c_str(), e.what());
      std::fflush(stdout);
      continue;
    }
    if (npy) {
      const std::string xp = out + "/" + c.name + "_x.npy";
      const std::string ip = out + "/" + c.name + "_init.npy";
      if (!write_npy(xp, data->x) || !write_npy(ip, data->x.topRows(c.k))) {
        std::fprintf(stderr, "bench_kmeans: cannot write %s; check --out\n", xp.c_str());
        return 1;
      }
    }
    KMeans m;
    ParamValues v = default_values(m.params());
    v["k"] = c.k;
    v["init"] = parse_value(*find_param(m.params(), "init"), "first");
    v["max_iter"] = iters + 1;  // room for the final assign below
    auto t0 = std::chrono::steady_clock::now();
    m.reset(data, v, 0);
    const double reset_ms = ms_since(t0);
    std::vector<double> times;
    const double cpu0 = cpu_ms();
    while (!is_terminal(m.status()) && static_cast<int>(times.size()) < iters) {
      t0 = std::chrono::steady_clock::now();
      m.step();
      times.push_back(ms_since(t0));
    }
    const double cpu_total = cpu_ms() - cpu0;
    double total = 0.0;
    for (double t : times) total += t;
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const double obj_update = m.kmeans_snapshot()->metrics[KMeans::kMetricObjective];
    // scikit-learn's inertia_ is J after a final assignment to the last
    // centroids: one more (untimed) assign half-step gives the same quantity.
    const Status before = m.status();
    if (!is_terminal(before)) m.sub_step();
    const auto s = m.kmeans_snapshot();
    std::printf(
        "RESULT case=%s n=%d d=%d k=%d iters=%d reset_ms=%.1f ms_per_iter=%.3f median_ms=%.3f "
        "cpu_ms_per_iter=%.3f objective=%.17g objective_after_update=%.17g status=%s\n",
        c.name.c_str(), data->rows(), data->cols(), c.k, static_cast<int>(times.size()),
        reset_ms, total / static_cast<double>(times.size()), sorted[sorted.size() / 2],
        cpu_total / static_cast<double>(times.size()),
        s->metrics[KMeans::kMetricObjective], obj_update,
        status_name(before == Status::Running && static_cast<int>(times.size()) == iters
                        ? Status::Stopped
                        : before));
    std::fflush(stdout);
  }
  return 0;
}
