// bench_power: time of the power-iteration module's steps on the covariance
// of Fashion-MNIST (784 x 784), for the side-by-side with numpy.
//
// Builds the module on fashion-mnist (train, all 60000 rows unless --n), with
// matrix=covariance, init=random (seed 0), tol=0 (never stops early),
// max_iter = steps. Writes <out>/power_C.npy (d x d, the module's covariance)
// and <out>/power_v0.npy (d, the module's start vector) so that
// bench/power_numpy.py runs the very same loop
//     v = C @ v; v /= norm(v)      (steps times)
// from the very same start. Times `steps` calls of step() (one
// matrix-vector product each, plus the Rayleigh quotient, residual and angle
// the module reports), best of --reps repetitions (reset in between; the
// covariance and its reference eigen-decomposition are computed once, outside
// the timing). Prints one line
//   RESULT d=.. n=.. steps=.. ms=.. ms_per_step=.. rayleigh=.. lambda1=.. angle=.. reset_ms=..
// (ms = best repetition; rayleigh = v_T^T C v_T after the last step; lambda1 and
// angle from Eigen's eigensolver).
// Usage: bench_power [--steps N] [--reps R] [--n ROWS] [--out DIR] [--no-npy]
#include "algorithms/data/datasets.h"
#include "algorithms/svd/power_iteration.h"
#include "bench/npy.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

using namespace cilab;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 200, reps = 5, n = 0;
  std::string out = ".";
  bool npy = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_power: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--steps") steps = std::atoi(next().c_str());
    else if (a == "--reps") reps = std::atoi(next().c_str());
    else if (a == "--n") n = std::atoi(next().c_str());
    else if (a == "--out") out = next();
    else if (a == "--no-npy") npy = false;
    else {
      std::fprintf(stderr, "usage: bench_power [--steps N] [--reps R] [--n ROWS] [--out DIR] [--no-npy]\n");
      return 2;
    }
  }
  steps = std::max(1, steps);
  reps = std::max(1, reps);
  try {
    const std::shared_ptr<const Dataset> data = load_fashion_mnist("train", n > 0 ? n : -1);
    PowerIteration mod;
    ParamValues v = default_values(mod.params());
    v["matrix"] = 0;  // covariance
    v["init"] = 0;    // random
    v["tol"] = 0.0;
    v["max_iter"] = std::max(steps, 1);
    const auto t_reset = std::chrono::steady_clock::now();
    mod.reset(data, v, 0);
    const double reset_ms = ms_since(t_reset);
    const auto s0 = mod.power_snapshot();
    const int d = s0->problem->d();
    if (npy) {
      const Eigen::MatrixXd& c = s0->problem->a;
      if (!write_npy(out + "/power_C.npy", c) || !write_npy(out + "/power_v0.npy", s0->v, true)) {
        std::fprintf(stderr, "bench_power: cannot write the .npy files to %s\n", out.c_str());
        return 1;
      }
    }
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
      mod.reset(data, v, 0);  // same dataset: the covariance is reused
      const auto t0 = std::chrono::steady_clock::now();
      for (int t = 0; t < steps; ++t) mod.step();
      best = std::min(best, ms_since(t0));
    }
    const auto s = mod.power_snapshot();
    std::printf("RESULT d=%d n=%d steps=%d ms=%.3f ms_per_step=%.4f rayleigh=%.17g lambda1=%.17g angle=%.3e "
                "reset_ms=%.1f status=%s\n",
                d, data->rows(), s->iteration, best, best / steps, s->metrics[PowerIteration::kMetricRayleigh],
                s->problem->eigvals[0], s->metrics[PowerIteration::kMetricAngle], reset_ms, status_name(s->status));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_power: %s\n", e.what());
    return 1;
  }
}
