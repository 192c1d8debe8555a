// bench_optimizers: the eight optimizers x STEPS steps on Rosenbrock from
// (-1.5, 2), (a) through the shared Optimizer class alone (kernel + analytic
// gradient) and (b) through the "optimizers" module racing all eight (what the
// GUI computes: gradient, update, loss, gradient norm, divergence test, path).
// Hyper-parameters (torch.optim names; the python side reads them from
// <out>/config.txt):
//   gd lr 1e-3 | sgd lr 1e-3 (exact gradient: no noise) | momentum lr 1e-3 m 0.9 |
//   nesterov lr 1e-3 m 0.9 | adagrad lr 0.5 eps 1e-10 | rmsprop lr 1e-2 alpha 0.99 eps 1e-8 |
//   adam lr 0.05 betas (0.9, 0.999) eps 1e-8 | adamw lr 0.05 wd 1e-2
// Writes <out>/config.txt and <out>/traj_<name>.bin (STEPS + 1 points, x y
// doubles) for bench_optimizers.py, and prints
//   OPT name=.. final_loss=.. final_x=.. final_y=..
//   RESULT steps=.. reps=.. kernel_ms=.. module_ms=.. (medians; all eight optimizers)
// Usage: bench_optimizers [--steps N] [--reps R] [--out DIR]
#include "algorithms/optim/landscape.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/gradient_methods/optimizers.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace cilab;

namespace {

OptimizerConfig bench_config(OptimizerKind k) {
  OptimizerConfig c = OptimizerConfig::defaults(k);
  switch (k) {
    case OptimizerKind::GD:
    case OptimizerKind::SGD: c.lr = 1e-3; break;
    case OptimizerKind::Momentum:
    case OptimizerKind::Nesterov: c.lr = 1e-3; c.momentum = 0.9; break;
    case OptimizerKind::AdaGrad: c.lr = 0.5; c.eps = 1e-10; break;
    case OptimizerKind::RMSProp: c.lr = 1e-2; c.alpha = 0.99; c.eps = 1e-8; break;
    case OptimizerKind::Adam: c.lr = 0.05; break;
    case OptimizerKind::AdamW: c.lr = 0.05; c.weight_decay = 1e-2; break;
  }
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 10000, reps = 5;
  std::string out = ".";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_optimizers: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--steps") steps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--reps") reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--out") out = next();
    else {
      std::fprintf(stderr, "usage: bench_optimizers [--steps N] [--reps R] [--out DIR]\n");
      return 2;
    }
  }
  LandscapeConfig lc;
  lc.kind = LandscapeKind::Rosenbrock;
  const std::shared_ptr<const Landscape> f = make_landscape(lc);
  const Eigen::Vector2d start(-1.5, 2.0);

  // (a) kernel: Optimizer + analytic gradient, all eight.
  std::vector<std::vector<double>> traj(kNumOptimizerKinds);
  std::vector<double> kernel_ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < kNumOptimizerKinds; ++k) {
      Optimizer opt(bench_config(static_cast<OptimizerKind>(k)), 2);
      std::vector<double>& tr = traj[static_cast<size_t>(k)];
      tr.assign(2 * static_cast<size_t>(steps + 1), 0.0);
      Eigen::Vector2d p = start;
      tr[0] = p.x();
      tr[1] = p.y();
      const double lr = opt.config().lr;
      for (int t = 1; t <= steps; ++t) {
        const Eigen::Vector2d g = f->gradient(p.x(), p.y());
        opt.step(p, g, lr);
        tr[2 * static_cast<size_t>(t)] = p.x();
        tr[2 * static_cast<size_t>(t) + 1] = p.y();
      }
    }
    kernel_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }

  // (b) the module racing all eight (tol 0: nobody stops early).
  std::vector<double> module_ms;
  Optimizers m;
  ParamValues v = default_values(m.params());
  v["function"] = static_cast<double>(LandscapeKind::Rosenbrock);
  v["optimizer"] = static_cast<double>(OptimizerKind::GD);
  v["lr"] = 1e-3;
  v["momentum"] = 0.9;
  v["eps"] = 1e-8;
  v["max_iter"] = steps;
  v["tol"] = 0;
  for (int k = 0; k < kNumOptimizerKinds; ++k) {
    const std::string n = optimizer_name(static_cast<OptimizerKind>(k));
    v["race_" + n] = 1;
    v["lr_" + n] = bench_config(static_cast<OptimizerKind>(k)).lr;
  }
  int racers = 0;
  double module_diff = 0.0;
  for (int r = 0; r < reps; ++r) {
    m.reset(nullptr, v, 1);
    const auto t0 = std::chrono::steady_clock::now();
    for (int t = 0; t < steps; ++t) m.step();
    module_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    const std::shared_ptr<const OptimizersSnapshot> s = m.optimizers_snapshot();
    racers = static_cast<int>(s->racers.size());
    // The module's trajectories are the kernel's (AdaGrad/AdamW eps, wd differ: compare the rest).
    for (const RacerState& rs : s->racers) {
      const int k = static_cast<int>(rs.kind);
      if (rs.kind == OptimizerKind::AdaGrad || rs.kind == OptimizerKind::AdamW) continue;
      const std::vector<double>& tr = traj[static_cast<size_t>(k)];
      for (size_t i = 0; i < rs.path->size(); ++i)
        module_diff = std::max({module_diff, std::abs(rs.path->point(i).x() - tr[2 * i]),
                                std::abs(rs.path->point(i).y() - tr[2 * i + 1])});
    }
  }

  // Output for the python side.
  const std::string cfg_path = out + "/config.txt";
  FILE* cf = std::fopen(cfg_path.c_str(), "w");
  if (!cf) {
    std::fprintf(stderr, "bench_optimizers: cannot write %s\n", cfg_path.c_str());
    return 2;
  }
  std::fprintf(cf, "# name lr momentum dampening nesterov beta1 beta2 eps alpha weight_decay steps x0 y0\n");
  for (int k = 0; k < kNumOptimizerKinds; ++k) {
    const OptimizerConfig c = bench_config(static_cast<OptimizerKind>(k));
    std::fprintf(cf, "%s %.17g %.17g %.17g %d %.17g %.17g %.17g %.17g %.17g %d %.17g %.17g\n",
                 optimizer_name(c.kind), c.lr, c.momentum, c.dampening, c.nesterov ? 1 : 0, c.beta1,
                 c.beta2, c.eps, c.alpha, c.weight_decay, steps, start.x(), start.y());
    const std::string tp = out + "/traj_" + optimizer_name(c.kind) + ".bin";
    FILE* tf = std::fopen(tp.c_str(), "wb");
    if (!tf) return 2;
    const std::vector<double>& tr = traj[static_cast<size_t>(k)];
    std::fwrite(tr.data(), sizeof(double), tr.size(), tf);
    std::fclose(tf);
    const double x = tr[tr.size() - 2], y = tr.back();
    std::printf("OPT name=%s final_loss=%.6g final_x=%.9g final_y=%.9g\n", optimizer_name(c.kind),
                f->value(x, y), x, y);
  }
  std::fclose(cf);
  std::printf("RESULT steps=%d reps=%d racers=%d kernel_ms=%.3f module_ms=%.3f module_vs_kernel_max_diff=%.3g\n",
              steps, reps, racers, median(kernel_ms), median(module_ms), module_diff);
  return 0;
}
