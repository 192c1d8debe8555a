// bench_vae: the vae module's model on the benchmark.
//
// Fashion-MNIST train (60000 x 784, pixels in [0, 1]), VAE 784-400-(2x20) |
// 20-400-784 ReLU with the Bernoulli decoder (Vae::make_network: the module's
// own model), Adam lr 1e-3 (torch defaults) on the shared optimizer, batch 128
// from a seeded permutation per epoch, one eps ~ N(0, I) per sample; the
// objective is the per-sample mean of BCE-summed-over-pixels + KL, exactly as
// the module trains. After every epoch: the test-set loss on t10k (eval mode,
// seeded noise). --threads N bounds the library's threads: compare with
// torch.set_num_threads(N). Each epoch line splits its time into gather and
// noise, the ELBO's forward + backward (VaeNet::run) and the optimizer.
//   RESULT case=fashion-vae epochs=.. epoch_ms=.. loss=.. test_loss=.. gflop_per_epoch=.. gflops=.. threads=..
// Usage: bench_vae [--epochs N] [--threads N]
#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/elbo.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/generative/vae.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

using namespace cilab;
using namespace cilab::nn;

namespace {

double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

int main(int argc, char** argv) try {
  int epochs = 1, threads = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
  }
  set_max_threads(threads);
  const Mat<float> xtr = load_fashion_mnist("train")->x.cast<float>();
  const Mat<float> xte = load_fashion_mnist("test")->x.cast<float>();
  Vae::Params p;
  p.latent = 20;
  p.hidden = 400;
  VaeNet<float> net = Vae::make_network(p, 784, Likelihood::Bernoulli);
  Rng rng(0);
  net.encoder.init(rng, Init::Torch);
  net.decoder.init(rng, Init::Torch);
  const OptimizerConfig cfg = OptimizerConfig::defaults(OptimizerKind::Adam);
  Optimizer enc(cfg, net.encoder.num_params()), dec(cfg, net.decoder.num_params());
  Batcher batches(static_cast<int>(xtr.rows()), 128, 1);
  Rng noise(2);
  Mat<float> xb, eps;
  double total_ms = 0, loss = 0, test_loss = 0;
  for (int e = 0; e < epochs; ++e) {
    double ms_gather = 0, ms_elbo = 0, ms_adam = 0, loss_sum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int b = 0; b < batches.batches_per_epoch(); ++b) {
      const auto a = std::chrono::steady_clock::now();
      const std::vector<int>& idx = batches.next();
      Batcher::gather(xtr, idx, xb);
      eps.resize(static_cast<Eigen::Index>(idx.size()), p.latent);
      for (Eigen::Index i = 0; i < eps.size(); ++i) eps.data()[i] = static_cast<float>(noise.normal());
      const auto c = std::chrono::steady_clock::now();
      loss_sum += net.run(xb, eps, 1.0, true, true).loss * static_cast<double>(idx.size());
      const auto d = std::chrono::steady_clock::now();
      enc.step(net.encoder.params(), net.encoder.grads(), cfg.lr);
      dec.step(net.decoder.params(), net.decoder.grads(), cfg.lr);
      const auto f = std::chrono::steady_clock::now();
      ms_gather += ms_between(a, c);
      ms_elbo += ms_between(c, d);
      ms_adam += ms_between(d, f);
    }
    const double ms = ms_between(t0, std::chrono::steady_clock::now());
    total_ms += ms;
    loss = loss_sum / static_cast<double>(xtr.rows());
    test_loss = Vae::evaluate(net, xte, 1.0, 7).loss;
    std::printf("epoch %d: %.1f ms (gather+noise %.0f, elbo fwd+bwd %.0f, adam %.0f), loss %.3f, test loss %.3f\n",
                e + 1, ms, ms_gather, ms_elbo, ms_adam, loss, test_loss);
  }
  // Multiply-adds: forward of the four GEMMs, their weight gradients, and the
  // input gradients of every layer but the encoder's first.
  const double fwd = 784.0 * 400 + 400.0 * 40 + 20.0 * 400 + 400.0 * 784;
  const double gflop = 60000.0 * 2 * (2 * fwd + (fwd - 784.0 * 400)) / 1e9;
  const double epoch_ms = total_ms / epochs;
  std::printf("RESULT case=fashion-vae epochs=%d epoch_ms=%.1f loss=%.4f test_loss=%.4f gflop_per_epoch=%.1f "
              "gflops=%.1f threads=%d\n",
              epochs, epoch_ms, loss, test_loss, gflop, gflop / (epoch_ms / 1e3), max_threads());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_vae: %s\n", e.what());
  return 1;
}
