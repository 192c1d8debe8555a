// The network library's public matrix products (BLAS's GEMM on row-major
// operands): what convolution, attention heads and any new layer multiply with.
// A light header (no Eigen): the kernels live in gemm.cpp.
//
//   C (m x n) = op(A) op(B)       (accumulate = false)
//   C (m x n) += op(A) op(B)      (accumulate = true)
//
// op(A) is m x k: A itself (Op::N, A(i, p) = a[i lda + p]) or A's transpose
// (Op::T, A(i, p) = a[p lda + i]); op(B) is k x n likewise with ldb;
// C(i, j) = c[i ldc + j]. As cblas_sgemm with CblasRowMajor, alpha = 1 and
// beta = 0 or 1.
//
// Which kernel runs (gemm_path says, for tests and benches):
//   Tiled    gemm_kernels.h's register tiles on the operands in place (no packing: at a small
//            network's sizes packing cost a third of the time); op(B) = B through the
//            outer-product tile (A read through strides when transposed), op(B) = Bᵀ through a
//            transposed copy of B and the same tile, or through dot products when C has fewer
//            than kDotMaxRows rows and the inner dimension is long (a convolution's weight
//            gradient: 6 rows, inner 784).
//   Packed   Eigen's GEMM, which copies both operands into cache-sized panels first: from
//            kPackedMinWork multiply-adds with every side at least kPackedMinSide (the copy pays
//            for itself once each panel is reused many times).
// bench/run_gemm.sh times both paths on the lab's shapes beside numpy (OpenBLAS, 1 thread): the
// tiled path is 0.45-0.9x numpy's time up to 128 x 256 x 784, the two paths tie around 256^3,
// the packed one is 10-60 % faster from 512^3 (and within 6 % of numpy there).
// Determinism: one call runs on the calling thread and its result depends only
// on the operands and the shape (never on the buffers' addresses or on the
// thread count). Callers that use threads split their work into blocks fixed
// by the problem (core/parallel.h): samples for a convolution, whose weight
// gradient is then summed block by block in block order; batch items for
// gemm_strided_batched below. So 1 and 2 threads give the same bits.
#pragma once

#include <cstdint>

namespace cilab::nn {

enum class Op { N, T };  // the operand, or its transpose

// Multiply-adds from which the packed path runs, and the thinnest side it takes.
constexpr double kPackedMinWork = 6.4e7;
constexpr int64_t kPackedMinSide = 48;
// A Bᵀ with fewer rows of C than this and a long inner dimension runs as dot products.
constexpr int64_t kDotMaxRows = 8;

enum class GemmPath { Tiled, Packed };
// The path gemm() takes for this product.
GemmPath gemm_path(int64_t m, int64_t n, int64_t k);

template <class T>
void gemm(Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb,
          bool accumulate, T* c, int64_t ldc);

// The same product on the given path (the tests check that both paths agree; bench_gemm times
// them against each other to place the thresholds).
template <class T>
void gemm_on(GemmPath path, Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
             int64_t ldb, bool accumulate, T* c, int64_t ldc);

// `batch` independent products, item i on a + i stride_a, b + i stride_b, c + i stride_c (the
// heads of multi-head attention, the samples of a batch): C_i = or += op(A_i) op(B_i). The items
// run on up to the machine's threads (core/parallel.h), each item whole on one thread: the same
// bits on any thread count.
template <class T>
void gemm_strided_batched(Op op_a, Op op_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
                          int64_t stride_a, const T* b, int64_t ldb, int64_t stride_b, bool accumulate, T* c,
                          int64_t ldc, int64_t stride_c, int64_t batch);

extern template void gemm<float>(Op, Op, int64_t, int64_t, int64_t, const float*, int64_t, const float*, int64_t,
                                 bool, float*, int64_t);
extern template void gemm<double>(Op, Op, int64_t, int64_t, int64_t, const double*, int64_t, const double*, int64_t,
                                  bool, double*, int64_t);
extern template void gemm_on<float>(GemmPath, Op, Op, int64_t, int64_t, int64_t, const float*, int64_t,
                                    const float*, int64_t, bool, float*, int64_t);
extern template void gemm_on<double>(GemmPath, Op, Op, int64_t, int64_t, int64_t, const double*, int64_t,
                                     const double*, int64_t, bool, double*, int64_t);
extern template void gemm_strided_batched<float>(Op, Op, int64_t, int64_t, int64_t, const float*, int64_t, int64_t,
                                                 const float*, int64_t, int64_t, bool, float*, int64_t, int64_t,
                                                 int64_t);
extern template void gemm_strided_batched<double>(Op, Op, int64_t, int64_t, int64_t, const double*, int64_t, int64_t,
                                                  const double*, int64_t, int64_t, bool, double*, int64_t, int64_t,
                                                  int64_t);

}  // namespace cilab::nn
