// LeNet-5 on Fashion-MNIST with the network library's shaped layers (conv2d, max pooling,
// flatten, Linear), Adam 1e-3, batch 128: the time of one epoch and the test accuracy, for
// bench/run_cnn.sh to set beside PyTorch's same network (bench_cnn.py).
// Usage: bench_cnn [--epochs N] [--batch B] [--threads T] [--limit ROWS] [--seed S]
#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/layer_stack.h"
#include "algorithms/nn/sequential.h"
#include "algorithms/optim/optimizer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

using namespace cilab;
using namespace cilab::nn;

int main(int argc, char** argv) try {
  int epochs = 1, batch = 128, threads = 1, limit = 60000, seed = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batch")) batch = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--limit")) limit = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::atoi(argv[i + 1]);
  }
  set_max_threads(threads);
  const auto train = load_fashion_mnist("train"), test = load_fashion_mnist("test");
  const Mat<float> xtr = train->x.topRows(std::min<Eigen::Index>(limit, train->x.rows())).cast<float>();
  const Mat<float> xte = test->x.cast<float>();
  Sequential<float> net = make_layer_stack<float>(parse_layer_stack(kLeNet5), Activation::ReLU, 10, Shape{1, 28, 28});
  Rng rng(static_cast<uint64_t>(seed));
  net.init(rng, Init::Torch);
  OptimizerConfig cfg = OptimizerConfig::defaults(OptimizerKind::Adam);
  cfg.lr = 1e-3;
  Optimizer adam(cfg, net.num_params());
  Batcher batches(static_cast<int>(xtr.rows()), batch, static_cast<uint64_t>(seed) + 1);
  Mat<float> xb, d;
  std::vector<int> yb;
  double total_ms = 0, accuracy = 0, loss_sum = 0;
  for (int e = 0; e < epochs; ++e) {
    loss_sum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int b = 0; b < batches.batches_per_epoch(); ++b) {
      const std::vector<int>& idx = batches.next();
      Batcher::gather(xtr, idx, xb);
      yb.resize(idx.size());
      for (size_t i = 0; i < idx.size(); ++i) yb[i] = train->labels[static_cast<size_t>(idx[i])];
      const Mat<float>& logits = net.forward(xb, true);
      net.zero_grad();
      loss_sum += softmax_cross_entropy(logits, yb, &d);
      net.backward(d);
      adam.step(net.params(), net.grads(), cfg.lr);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    total_ms += ms;
    int correct = 0;
    for (Eigen::Index r0 = 0; r0 < xte.rows(); r0 += 1000) {
      const Mat<float> chunk = xte.middleRows(r0, std::min<Eigen::Index>(1000, xte.rows() - r0));
      const Mat<float>& logits = net.forward(chunk, false);
      for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        Eigen::Index arg;
        logits.row(i).maxCoeff(&arg);
        correct += arg == test->labels[static_cast<size_t>(r0 + i)];
      }
    }
    accuracy = static_cast<double>(correct) / static_cast<double>(xte.rows());
    std::printf("epoch %d: %.1f ms, mean train loss %.4f, test accuracy %.4f\n", e + 1, ms,
                loss_sum / batches.batches_per_epoch(), accuracy);
  }
  std::printf("RESULT case=fashion-lenet5 epochs=%d epoch_ms=%.1f test_accuracy=%.4f threads=%d rows=%d\n", epochs,
              total_ms / epochs, accuracy, max_threads(), static_cast<int>(xtr.rows()));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_cnn: %s\n", e.what());
  return 1;
}
