// bench_gan: the gan module on the benchmark, through the module itself.
//
// Ring of 8 (radius 2, sd 0.05), G 2-64-64-2 and D 2-64-64-1 ReLU, batch 256,
// Adam 1e-3 for each network, the non-saturating loss, one D step and one G
// step per iteration (the module's defaults). --threads N bounds the
// library's threads (compare with torch.set_num_threads(N)). Times --steps
// iterations after 50 of warm-up (the module's evaluation every 25 iterations
// included), then, with --seeds S, trains S fresh runs (seeds 0..S-1) for
// --coverage-steps iterations each and prints the modes each covers.
//   RESULT step_ms=.. steps_per_s=.. threads=..
//   COVERAGE seed=.. modes=.. high_quality=..
//   TRACE seed=.. it=.. d_loss=.. ... (with --trace K: every K iterations of the coverage runs)
// --preset NAME applies a preset's parameters (assets/presets/NAME.json) to the coverage runs and the timed run.
// Usage: bench_gan [--steps N] [--threads N] [--seeds S] [--coverage-steps N] [--trace K] [--preset NAME] [--set KEY=VALUE]...
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"
#include "algorithms/generative/gan.h"
#include "app/headless/lab_file.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cilab;

namespace {

std::vector<std::string> g_sets;  // --set KEY=VALUE (preset tuning)

Gan make_run(uint64_t seed) {
  Gan m;
  ParamValues v = default_values(m.params());
  for (const std::string& s : g_sets) apply_assignment(m.params(), v, s, "gan");
  m.reset(make_dataset("moons:n=100"), v, seed);
  return m;
}

}  // namespace

int main(int argc, char** argv) try {
  int steps = 2000, threads = 1, seeds = 0, coverage_steps = 5000, trace = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--set")) g_sets.push_back(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--preset")) {  // a preset's parameters (assets/presets/NAME.json)
      const LabFile p = resolve_preset_arg(argv[i + 1]);
      if (p.module != "gan") throw std::invalid_argument(std::string("preset '") + argv[i + 1] + "' is not a gan preset");
      for (const std::string& s : lab_assignments(p)) g_sets.push_back(s);
    }
    else if (!std::strcmp(argv[i], "--trace")) trace = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seeds")) seeds = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--coverage-steps")) coverage_steps = std::atoi(argv[i + 1]);
  }
  set_max_threads(threads);
  {
    Gan m = make_run(0);
    for (int i = 0; i < 50; ++i) m.step();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) m.step();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / steps;
    std::printf("RESULT step_ms=%.4f steps_per_s=%.1f threads=%d\n", ms, 1000.0 / ms, threads);
  }
  for (int s = 0; s < seeds; ++s) {
    Gan m = make_run(static_cast<uint64_t>(s));
    for (int i = 0; i < coverage_steps; ++i) {
      m.step();
      if (trace > 0 && (i + 1) % trace == 0) {
        const auto t = m.gan_snapshot();
        const std::vector<double>& v = t->metrics;
        std::printf("TRACE seed=%d it=%d d_loss=%.4f g_loss=%.4f d_real=%.4f d_fake=%.4f modes=%g g_grad=%.3g d_grad=%.3g\n",
                    s, t->iteration, v[Gan::kMetricDLoss], v[Gan::kMetricGLoss], v[Gan::kMetricDReal],
                    v[Gan::kMetricDFake], v[Gan::kMetricModesCovered], v[Gan::kMetricGGradNorm],
                    v[Gan::kMetricDGradNorm]);
      }
    }
    const auto snap = m.gan_snapshot();
    std::printf("COVERAGE seed=%d modes=%d high_quality=%.3f\n", s, snap->coverage.covered,
                snap->coverage.high_quality);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_gan: %s\n", e.what());
  return 1;
}
