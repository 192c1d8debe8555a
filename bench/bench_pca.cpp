// bench_pca: wall time of the pca module's fit (step 1) on Fashion-MNIST train.
//
// Case fashion-mnist: load_fashion_mnist("train") (60000 x 784, pixels / 255),
// components = 50, center on, standardize off. The fit is run `reps` times
// (fresh reset each time, the reset not timed) and the median is reported.
// Writes <out>/pca_ratios.txt (the 50 explained-variance ratios, one per line,
// %.17g) for bench/pca_sklearn.py to compare, and prints one line
//   RESULT case=.. n=.. d=.. components=.. reps=.. fit_ms=.. min_ms=.. cpu_ms=..
//          cumulative_ratio=.. status=..
// cpu_ms is the process CPU time of the median-rank run's neighbourhood (all
// threads, averaged over the reps), a check on a busy machine.
// Usage: bench_pca [--reps N] [--out DIR] [--threads T] [--components K]
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"
#include "algorithms/dimensionality/pca.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

using namespace cilab;

int main(int argc, char** argv) {
  int reps = 3, threads = 0, components = 50;
  std::string out = ".";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_pca: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--reps") reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--out") out = next();
    else if (a == "--threads") threads = std::atoi(next().c_str());
    else if (a == "--components") components = std::atoi(next().c_str());
    else {
      std::fprintf(stderr, "usage: bench_pca [--reps N] [--out DIR] [--threads T] [--components K]\n");
      return 2;
    }
  }
  set_max_threads(threads);
  std::shared_ptr<const Dataset> data;
  try {
    data = load_fashion_mnist("train");
  } catch (const std::exception& e) {
    std::printf("SKIP case=fashion-mnist reason=%s\n", e.what());
    return 0;
  }
  PCA pca;
  ParamValues v = default_values(pca.params());
  v["components"] = components;
  std::vector<double> ms;
  double cpu_total = 0.0;
  for (int r = 0; r < reps; ++r) {
    pca.reset(data, v, 0);
    const std::clock_t c0 = std::clock();
    const auto t0 = std::chrono::steady_clock::now();
    pca.step();
    const auto t1 = std::chrono::steady_clock::now();
    cpu_total += 1e3 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const auto snap = pca.pca_snapshot();
  std::ofstream f(out + "/pca_ratios.txt");
  double cum = 0.0;
  for (const std::vector<double>& row : snap->table) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g\n", row[2]);
    f << buf;
    cum = row[3];
  }
  std::printf("RESULT case=fashion-mnist n=%d d=%d components=%d reps=%d fit_ms=%.1f min_ms=%.1f "
              "cpu_ms=%.1f cumulative_ratio=%.12f status=%s\n",
              data->rows(), data->cols(), components, reps, sorted[sorted.size() / 2], sorted[0],
              cpu_total / reps, cum, status_name(snap->status));
  return 0;
}
