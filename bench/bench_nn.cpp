// bench_nn: the network library on the benchmark MLP.
//
// Fashion-MNIST train (60000 x 784, pixels in [0, 1]), a 784-256-128-10 ReLU
// MLP (torch.nn.Linear default init), softmax cross-entropy, Adam (lr 1e-3,
// torch defaults) on the shared optimizer, batch 128 from a seeded permutation
// per epoch; test accuracy on the t10k set after every epoch. --threads N
// bounds the library's threads (set_max_threads; Eigen's GEMM itself is never
// threaded): compare with torch.set_num_threads(N).
// Also measures Eigen's float GEMM peak on a 128 x 784 x 400 product (the
// issue's scale) and prints the GFLOP/s an epoch reaches (multiply-adds of the
// forward GEMMs, the weight-gradient GEMMs and the input-gradient GEMMs of
// every layer but the first, 2 flops each).
// Each epoch line splits its time into gather, forward, loss, backward and the
// optimizer step.
//   RESULT case=fashion-mlp epochs=.. epoch_ms=.. test_accuracy=.. train_loss=..
//          gflop_per_epoch=.. gflops=.. sgemm_peak_gflops=.. threads=..
// Usage: bench_nn [--epochs N] [--batch B] [--threads N]
#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/sequential.h"
#include "algorithms/optim/optimizer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::nn;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void to_float(const Dataset& d, Mat<float>& x, std::vector<int>& y) {
  x = d.x.cast<float>();
  y = d.labels;
}

double sgemm_peak() {
  Mat<float> a = Mat<float>::Random(128, 784), b = Mat<float>::Random(784, 400), c(128, 400);
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i) c.noalias() = a * b;
    const double ms = ms_since(t0);
    best = std::max(best, 20 * 2.0 * 128 * 784 * 400 / (ms * 1e6));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) try {
  int epochs = 1, batch = 128, threads = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batch")) batch = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
  }
  set_max_threads(threads);
  Mat<float> xtr, xte;
  std::vector<int> ytr, yte;
  to_float(*load_fashion_mnist("train"), xtr, ytr);
  to_float(*load_fashion_mnist("test"), xte, yte);

  Sequential<float> net;
  net.add(make_linear<float>(256));
  net.add(make_activation<float>(Activation::ReLU));
  net.add(make_linear<float>(128));
  net.add(make_activation<float>(Activation::ReLU));
  net.add(make_linear<float>(10));
  net.build(784);
  Rng rng(0);
  net.init(rng, Init::Torch);
  OptimizerConfig cfg = OptimizerConfig::defaults(OptimizerKind::Adam);
  cfg.lr = 1e-3;
  Optimizer adam(cfg, net.num_params());
  Batcher batches(static_cast<int>(xtr.rows()), batch, 1);

  Mat<float> xb, d;
  std::vector<int> yb;
  double total_ms = 0, loss_sum = 0, accuracy = 0;
  for (int e = 0; e < epochs; ++e) {
    loss_sum = 0;
    double phase_ms[5] = {0, 0, 0, 0, 0};  // gather, forward, loss, backward, optimizer
    const auto t0 = std::chrono::steady_clock::now();
    for (int b = 0; b < batches.batches_per_epoch(); ++b) {
      const auto b0 = std::chrono::steady_clock::now();
      const std::vector<int>& idx = batches.next();
      Batcher::gather(xtr, idx, xb);
      yb.resize(idx.size());
      for (size_t i = 0; i < idx.size(); ++i) yb[i] = ytr[static_cast<size_t>(idx[i])];
      const auto p0 = std::chrono::steady_clock::now();
      const Mat<float>& logits = net.forward(xb, true);
      const auto p1 = std::chrono::steady_clock::now();
      net.zero_grad();
      loss_sum += softmax_cross_entropy(logits, yb, &d);
      const auto p2 = std::chrono::steady_clock::now();
      net.backward(d);
      const auto p3 = std::chrono::steady_clock::now();
      adam.step(net.params(), net.grads(), cfg.lr);
      const auto p4 = std::chrono::steady_clock::now();
      phase_ms[0] += std::chrono::duration<double, std::milli>(p0 - b0).count();
      phase_ms[1] += std::chrono::duration<double, std::milli>(p1 - p0).count();
      phase_ms[2] += std::chrono::duration<double, std::milli>(p2 - p1).count();
      phase_ms[3] += std::chrono::duration<double, std::milli>(p3 - p2).count();
      phase_ms[4] += std::chrono::duration<double, std::milli>(p4 - p3).count();
    }
    const double ms = ms_since(t0);
    total_ms += ms;
    const Mat<float>& logits = net.forward(xte, false);
    int correct = 0;
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
      Eigen::Index arg;
      logits.row(i).maxCoeff(&arg);
      correct += arg == yte[static_cast<size_t>(i)];
    }
    accuracy = static_cast<double>(correct) / static_cast<double>(logits.rows());
    std::printf("epoch %d: %.1f ms (gather %.0f, forward %.0f, loss %.0f, backward %.0f, adam %.0f), mean train "
                "loss %.4f, test accuracy %.4f\n",
                e + 1, ms, phase_ms[0], phase_ms[1], phase_ms[2], phase_ms[3], phase_ms[4],
                loss_sum / batches.batches_per_epoch(), accuracy);
  }
  const double n = static_cast<double>(xtr.rows());
  const double fwd = 2.0 * (784.0 * 256 + 256.0 * 128 + 128.0 * 10);
  const double dx = 2.0 * (256.0 * 128 + 128.0 * 10);
  const double gflop = n * (2 * fwd + dx) / 1e9;
  const double epoch_ms = total_ms / epochs;
  std::printf("RESULT case=fashion-mlp epochs=%d epoch_ms=%.1f test_accuracy=%.4f train_loss=%.4f "
              "gflop_per_epoch=%.2f gflops=%.1f sgemm_peak_gflops=%.1f threads=%d\n",
              epochs, epoch_ms, accuracy, loss_sum / batches.batches_per_epoch(), gflop,
              gflop / (epoch_ms / 1e3), sgemm_peak(), max_threads());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_nn: %s\n", e.what());
  return 1;
}
