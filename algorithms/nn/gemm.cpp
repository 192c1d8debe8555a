#include "algorithms/nn/gemm.h"

#include "algorithms/core/parallel.h"
#include "algorithms/nn/gemm_kernels.h"

#include <Eigen/Core>

#include <algorithm>
#include <vector>

namespace cilab::nn {

namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using CMap = Eigen::Map<const RowMat<T>, 0, Eigen::OuterStride<>>;
template <class T>
using MMap = Eigen::Map<RowMat<T>, 0, Eigen::OuterStride<>>;

// Per-thread scratch for a transposed operand (reused: no allocation once warm).
template <class T>
T* scratch(size_t n, int which) {
  thread_local std::vector<T> buf[2];
  if (buf[which].size() < n) buf[which].resize(n);
  return buf[which].data();
}

template <class T>
void packed(Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb,
            bool accumulate, T* c, int64_t ldc) {
  MMap<T> cm(c, m, n, Eigen::OuterStride<>(ldc));
  // op(A) as a map of the stored matrix (transposed when Op::T), op(B) likewise.
  auto run = [&](const auto& am, const auto& bm) {
    if (accumulate) cm.noalias() += am * bm;
    else cm.noalias() = am * bm;
  };
  const CMap<T> as(a, op_a == Op::N ? m : k, op_a == Op::N ? k : m, Eigen::OuterStride<>(lda));
  const CMap<T> bs(b, op_b == Op::N ? k : n, op_b == Op::N ? n : k, Eigen::OuterStride<>(ldb));
  if (op_a == Op::N && op_b == Op::N) run(as, bs);
  else if (op_a == Op::T && op_b == Op::N) run(as.transpose(), bs);
  else if (op_a == Op::N) run(as, bs.transpose());
  else run(as.transpose(), bs.transpose());
}

template <class T>
void tiled(Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb,
           bool accumulate, T* c, int64_t ldc) {
  if (op_a == Op::T && op_b == Op::T) {
    // A^T into scratch (m x k), then the (N, T) case.
    T* at = scratch<T>(size_t(m) * size_t(k), 0);
    tile::transpose<T>(k, m, a, lda, at, k);
    tiled<T>(Op::N, Op::T, m, n, k, at, k, b, ldb, accumulate, c, ldc);
    return;
  }
  if (op_b == Op::T) {
    // C(i, j) = A row i . B row j. The outer-product tile on B^T (copied, k x n) reads each loaded
    // packet of B into several accumulators: with enough rows of C, or a short inner dimension
    // (the copy is then cheap); dot products for a few rows over a long inner dimension (a
    // convolution's weight gradient: 6 rows, inner 784).
    if (n >= tile::kPacket<T> && (m >= kDotMaxRows || k < 4 * tile::kPacket<T>)) {
      T* bt = scratch<T>(size_t(k) * size_t(n), 1);
      tile::transpose<T>(n, k, b, ldb, bt, n);
      tile::gemm_outer<T>(accumulate, m, n, k, a, lda, 1, bt, n, c, ldc);
    } else {
      tile::gemm_dot<T>(accumulate, m, n, k, a, lda, b, ldb, c, ldc);
    }
    return;
  }
  // op(B) = B: the outer-product tile; A read through strides (A^T with no copy).
  if (op_a == Op::N) tile::gemm_outer<T>(accumulate, m, n, k, a, lda, 1, b, ldb, c, ldc);
  else tile::gemm_outer<T>(accumulate, m, n, k, a, 1, lda, b, ldb, c, ldc);
}

}  // namespace

GemmPath gemm_path(int64_t m, int64_t n, int64_t k) {
  const bool big = double(m) * double(n) * double(k) >= kPackedMinWork && std::min({m, n, k}) >= kPackedMinSide;
  return big ? GemmPath::Packed : GemmPath::Tiled;
}

template <class T>
void gemm_on(GemmPath path, Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
             int64_t ldb, bool accumulate, T* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    if (!accumulate)
      for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
    return;
  }
  if (path == GemmPath::Packed) packed<T>(op_a, op_b, m, n, k, a, lda, b, ldb, accumulate, c, ldc);
  else tiled<T>(op_a, op_b, m, n, k, a, lda, b, ldb, accumulate, c, ldc);
}

template <class T>
void gemm(Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb,
          bool accumulate, T* c, int64_t ldc) {
  gemm_on<T>(gemm_path(m, n, k), op_a, op_b, m, n, k, a, lda, b, ldb, accumulate, c, ldc);
}

template <class T>
void gemm_strided_batched(Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
                          int64_t stride_a, const T* b, int64_t ldb, int64_t stride_b, bool accumulate, T* c,
                          int64_t ldc, int64_t stride_c, int64_t batch) {
  if (batch <= 0) return;
  const int blocks = static_cast<int>(batch);
  const double work = double(m) * double(n) * double(k) * double(batch);
  parallel_for_blocks(blocks, parallel_threads(blocks, work, 2e6), [&](int i) {
    gemm<T>(op_a, op_b, m, n, k, a + i * stride_a, lda, b + i * stride_b, ldb, accumulate, c + i * stride_c, ldc);
  });
}

#define CILAB_GEMM_INSTANTIATE(T)                                                                              \
  template void gemm<T>(Op, Op, int64_t, int64_t, int64_t, const T*, int64_t, const T*, int64_t, bool, T*,   \
                        int64_t);                                                                              \
  template void gemm_on<T>(GemmPath, Op, Op, int64_t, int64_t, int64_t, const T*, int64_t, const T*, int64_t, \
                           bool, T*, int64_t);                                                                 \
  template void gemm_strided_batched<T>(Op, Op, int64_t, int64_t, int64_t, const T*, int64_t, int64_t,       \
                                        const T*, int64_t, int64_t, bool, T*, int64_t, int64_t, int64_t);
CILAB_GEMM_INSTANTIATE(float)
CILAB_GEMM_INSTANTIATE(double)
#undef CILAB_GEMM_INSTANTIATE

}  // namespace cilab::nn
