// The public matrix product (nn/gemm.h) on the shapes the lab multiplies: C = A B (Op::N, Op::N)
// and the two transposed forms a layer's backward uses, each on both paths (tiled: register tiles
// on the operands in place; packed: Eigen's panels), with the path gemm() chooses. Prints one
// RESULT line per shape and form; bench/run_gemm.sh runs numpy (OpenBLAS, 1 thread) on the same
// shapes in the same invocation. One thread: the callers parallelise over their own blocks.
// Usage: bench_gemm [REPEATS_SCALE]
#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/nn/gemm.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace cilab;
using namespace cilab::nn;

namespace {

double best_ms(int reps, const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, GemmPath path,
               Op oa, Op ob, int64_t m, int64_t n, int64_t k) {
  const int64_t lda = oa == Op::N ? k : m, ldb = ob == Op::N ? n : k;
  double best = 1e30;
  for (int trial = 0; trial < 3; ++trial) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) gemm_on<float>(path, oa, ob, m, n, k, a.data(), lda, b.data(), ldb, false, c.data(), n);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  set_max_threads(1);
  // m, n, k: LeNet's conv1 and conv2 per sample (forward, then the weight gradient's shape), an MLP's layers at batch 128 (forward, weight
  // gradient), attention scores of 64 tokens, square sizes around the packed threshold.
  const int64_t shapes[][3] = {{6, 784, 25},    {6, 25, 784},    {16, 100, 150},  {16, 150, 100},  {128, 256, 784}, {256, 784, 128}, {128, 128, 256},
                               {64, 64, 32},    {64, 64, 64},    {128, 128, 128}, {256, 256, 256}, {512, 512, 512},
                               {1024, 1024, 1024}};
  Rng rng(1);
  for (const auto& s : shapes) {
    const int64_t m = s[0], n = s[1], k = s[2];
    std::vector<float> a(size_t(m * k)), b(size_t(k * n)), c(size_t(m * n));
    for (float& v : a) v = float(rng.uniform(-1, 1));
    for (float& v : b) v = float(rng.uniform(-1, 1));
    const double flops = 2.0 * double(m) * double(n) * double(k);
    const int reps = std::max(1, int(scale * 2e8 / flops));
    for (auto [oa, ob, form] : {std::tuple{Op::N, Op::N, "NN"}, std::tuple{Op::T, Op::N, "TN"}, std::tuple{Op::N, Op::T, "NT"}}) {
      const double tiled = best_ms(reps, a, b, c, GemmPath::Tiled, oa, ob, m, n, k);
      const double packed = best_ms(reps, a, b, c, GemmPath::Packed, oa, ob, m, n, k);
      const bool chose_packed = gemm_path(m, n, k) == GemmPath::Packed;
      const double chosen = chose_packed ? packed : tiled;
      std::printf("RESULT m=%lld n=%lld k=%lld form=%s tiled_ms=%.4f packed_ms=%.4f path=%s gflops=%.1f\n",
                  (long long)m, (long long)n, (long long)k, form, tiled, packed, chose_packed ? "packed" : "tiled",
                  flops / chosen * 1e-6);
    }
  }
  return 0;
}
