// bench_autoencoder: the autoencoder module on the CLI command.
//
// `cilab run autoencoder --set linear=true --set m=10 --dataset fashion-mnist
// --epochs N` without the CLI: Fashion-MNIST train (60000 x 784, tested on
// t10k), the linear model 784-10-784 (biases held at 0, centred rows), Adam
// lr 0.01, batch 64. Prints the reset's parts (load, the module's reset: split,
// PCA reference, initial evaluation) and each epoch's time, loss, the
// Eckart-Young value and the largest principal angle. --threads N bounds the
// library's threads (set_max_threads); --set KEY=VALUE changes a parameter.
//   RESULT case=fashion-linear-ae epochs=.. load_ms=.. reset_ms=.. epoch_ms=..
//          loss=.. eckart_young=.. max_angle=.. threads=..
// Usage: bench_autoencoder [--epochs N] [--threads N] [--set KEY=VALUE]...
#include "algorithms/networks/autoencoder.h"
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

using namespace cilab;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int epochs = 3, threads = 0;
  std::vector<std::string> sets = {"linear=true", "m=10"};
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--epochs") && has_value) epochs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && has_value) threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--set") && has_value) sets.push_back(argv[++i]);
    else {
      std::fprintf(stderr, "usage: bench_autoencoder [--epochs N] [--threads N] [--set KEY=VALUE]...\n");
      return 2;
    }
  }
  try {
    set_max_threads(threads);
    auto t0 = std::chrono::steady_clock::now();
    const auto data = make_dataset("fashion-mnist");
    const double load_ms = ms_since(t0);
    Autoencoder ae;
    ParamValues values = default_values(ae.params());
    for (const std::string& s : sets) apply_assignment(ae.params(), values, s, "bench_autoencoder");
    t0 = std::chrono::steady_clock::now();
    ae.reset(data, values, 0);
    const double reset_ms = ms_since(t0);
    std::printf("load %.0f ms, reset (split, PCA reference, initial evaluation) %.0f ms, threads %d\n", load_ms,
                reset_ms, max_threads());
    double total_ms = 0;
    for (int e = 1; e <= epochs; ++e) {
      t0 = std::chrono::steady_clock::now();
      while (ae.snapshot()->epoch < e && !is_terminal(ae.status())) ae.step();
      const double ms = ms_since(t0);
      total_ms += ms;
      const auto s = ae.ae_snapshot();
      std::printf("epoch %d: %.1f ms, loss %.5f (Eckart-Young %.5f), max principal angle %.4g rad\n", e, ms,
                  s->metrics[Autoencoder::kMetricLoss], s->metrics[Autoencoder::kMetricEckartYoung],
                  s->metrics[Autoencoder::kMetricMaxAngle]);
    }
    const auto s = ae.ae_snapshot();
    std::printf("RESULT case=fashion-linear-ae epochs=%d load_ms=%.0f reset_ms=%.0f epoch_ms=%.1f loss=%.6g "
                "eckart_young=%.6g max_angle=%.4g threads=%d\n",
                epochs, load_ms, reset_ms, total_ms / epochs, s->metrics[Autoencoder::kMetricLoss],
                s->metrics[Autoencoder::kMetricEckartYoung], s->metrics[Autoencoder::kMetricMaxAngle], max_threads());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_autoencoder: %s\n", e.what());
    return 1;
  }
}
