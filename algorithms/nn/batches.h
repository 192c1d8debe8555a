// Mini-batches from a seeded permutation per epoch (torch's DataLoader with
// shuffle=True, drop_last=False): epoch e visits the rows in the order of a
// Fisher-Yates permutation drawn from the batcher's own Rng, in batches of
// `batch` rows (the last one smaller). Rows are gathered into a reused
// row-major matrix, so the training loop allocates nothing once the batch
// size is stable. Same seed, same batches.
#pragma once

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/nn/layers.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cilab::nn {

class Batcher {
 public:
  // n rows (> 0), batches of `batch` rows (> 0; larger than n gives one batch per epoch).
  Batcher(int n, int batch, uint64_t seed);

  int rows() const { return n_; }
  int batch_size() const { return batch_; }
  int batches_per_epoch() const { return (n_ + batch_ - 1) / batch_; }
  int epoch() const { return epoch_; }      // epochs completed
  int position() const { return pos_; }     // rows of the current epoch already handed out

  // The row indices of the next batch (a new permutation at each epoch start).
  const std::vector<int>& next();

  // Gathers rows `idx` of x (row-major) into out (idx.size() x x.cols()), in
  // fixed blocks of kGatherRows rows on the thread pool (a copy: the result
  // does not depend on the thread count).
  template <class T>
  static void gather(const Mat<T>& x, const std::vector<int>& idx, Mat<T>& out) {
    const int rows = static_cast<int>(idx.size());
    out.resize(rows, x.cols());
    const int blocks = (rows + kGatherRows - 1) / kGatherRows;
    const double work = static_cast<double>(rows) * static_cast<double>(x.cols());
    parallel_for_blocks(blocks, parallel_threads(blocks, work, kGatherMinWork), [&](int b) {
      const int end = std::min(rows, (b + 1) * kGatherRows);
      for (int i = b * kGatherRows; i < end; ++i) out.row(i) = x.row(idx[static_cast<size_t>(i)]);
    });
  }
  static constexpr int kGatherRows = 32;
  // Entries copied below which one thread gathers (measured: bench_nn).
  static constexpr double kGatherMinWork = 32768;

 private:
  int n_, batch_;
  Rng rng_;
  std::vector<int> perm_;
  std::vector<int> idx_;
  int epoch_ = 0;
  int pos_ = 0;
};

// Rows per forward pass when a trainer evaluates a whole set in eval mode
// (bounds the activation buffers).
constexpr int kEvalChunk = 1024;

// Calls f(chunk, r0) over the rows of x in order, kEvalChunk rows at a time:
// `chunk` is a copy of rows r0.. (one buffer reused; f may change it, e.g.
// corrupt it with noise).
template <class T, class F>
void for_each_chunk(const Mat<T>& x, F&& f) {
  const int n = static_cast<int>(x.rows());
  Mat<T> chunk;
  for (int r0 = 0; r0 < n; r0 += kEvalChunk) {
    chunk = x.middleRows(r0, std::min(kEvalChunk, n - r0));
    f(chunk, r0);
  }
}

}  // namespace cilab::nn
