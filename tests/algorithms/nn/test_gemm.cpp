// The public matrix products (nn/gemm.h) against the definition C(i, j) = sum_p op(A)(i, p)
// op(B)(p, j) summed in long double: every transpose combination, on both paths (tiled and
// packed), with leading dimensions wider than the matrices (the padding must stay untouched),
// shapes around the register tile's and the packet's edges, accumulate and overwrite; the
// strided-batched product against one product per item, the same bits on 1 and 2 threads.
#include "algorithms/nn/gemm.h"

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace cilab::nn {
namespace {

template <class T>
std::vector<T> random(Rng& rng, size_t n) {
  std::vector<T> v(n);
  for (T& e : v) e = static_cast<T>(rng.uniform(-1.0, 1.0));
  return v;
}

// op(X)(i, p) for X stored with leading dimension ld.
template <class T>
T at(const std::vector<T>& x, Op op, int64_t ld, int64_t i, int64_t p) {
  return op == Op::N ? x[size_t(i * ld + p)] : x[size_t(p * ld + i)];
}

const char* op_name(Op op) { return op == Op::N ? "N" : "T"; }

// The worst |C - reference| / (sum_p |a b| + 1e-30) over every entry of one product, and whether
// the padding columns (past n, up to ldc) kept their sentinel.
template <class T>
void check_product(GemmPath path, Op oa, Op ob, int64_t m, int64_t n, int64_t k, bool accumulate, Rng& rng) {
  const int64_t pad = 3;
  const int64_t lda = (oa == Op::N ? k : m) + pad, ldb = (ob == Op::N ? n : k) + pad, ldc = n + pad;
  const std::vector<T> a = random<T>(rng, size_t((oa == Op::N ? m : k) * lda));
  const std::vector<T> b = random<T>(rng, size_t((ob == Op::N ? k : n) * ldb));
  std::vector<T> c = random<T>(rng, size_t(m * ldc));
  const std::vector<T> c0 = c;
  const T sentinel = T(1234.5);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = n; j < ldc; ++j) c[size_t(i * ldc + j)] = sentinel;
  gemm_on<T>(path, oa, ob, m, n, k, a.data(), lda, b.data(), ldb, accumulate, c.data(), ldc);
  double worst = 0;
  bool padding_kept = true;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      long double ref = accumulate ? c0[size_t(i * ldc + j)] : 0, scale = 1e-30L;
      for (int64_t p = 0; p < k; ++p) {
        const long double t = static_cast<long double>(at(a, oa, lda, i, p)) * at(b, ob, ldb, p, j);
        ref += t;
        scale += std::abs(t);
      }
      if (accumulate) scale += std::abs(static_cast<long double>(c0[size_t(i * ldc + j)]));
      worst = std::max(worst, double(std::abs(c[size_t(i * ldc + j)] - ref) / scale));
    }
    for (int64_t j = n; j < ldc; ++j) padding_kept = padding_kept && c[size_t(i * ldc + j)] == sentinel;
  }
  // Summation error of k terms in T: about k eps relative to the sum of magnitudes at worst.
  const double tol = 4.0 * double(k + 1) * std::numeric_limits<T>::epsilon();
  CAPTURE(op_name(oa));
  CAPTURE(op_name(ob));
  CAPTURE(m);
  CAPTURE(n);
  CAPTURE(k);
  CAPTURE(accumulate);
  CAPTURE(path == GemmPath::Packed ? "packed" : "tiled");
  CHECK(worst < tol);
  CHECK(padding_kept);
}

}  // namespace

TEST_CASE_TEMPLATE("gemm: every transpose combination on both paths equals the definition", T, float, double) {
  Rng rng(5);
  // Around the edges: one row, fewer rows than the register tile, one packet, a packet and a
  // remainder, several tiles; k from 1 (a rank-1 update) up.
  const int64_t sizes[][3] = {{1, 1, 1},  {1, 17, 3},  {5, 16, 7},  {6, 64, 25}, {7, 65, 9},
                              {13, 33, 1}, {16, 100, 150}, {33, 19, 40}, {70, 70, 70}};
  for (GemmPath path : {GemmPath::Tiled, GemmPath::Packed})
    for (Op oa : {Op::N, Op::T})
      for (Op ob : {Op::N, Op::T})
        for (const auto& s : sizes)
          for (bool acc : {false, true}) check_product<T>(path, oa, ob, s[0], s[1], s[2], acc, rng);
}

TEST_CASE("gemm: the path follows the work and the thinnest side, and k = 0 gives zeros or leaves C") {
  CHECK(gemm_path(8, 8, 8) == GemmPath::Tiled);
  CHECK(gemm_path(128, 256, 784) == GemmPath::Tiled);  // an MLP layer: the tiles win
  CHECK(gemm_path(1024, 1024, 1024) == GemmPath::Packed);
  CHECK(gemm_path(1 << 16, 1 << 16, kPackedMinSide - 1) == GemmPath::Tiled);  // thin
  CHECK(gemm_path(6, 25, 784) == GemmPath::Tiled);  // a convolution's weight gradient
  std::vector<float> c = {1, 2, 3, 4};
  gemm<float>(Op::N, Op::N, 2, 2, 0, nullptr, 1, nullptr, 2, true, c.data(), 2);
  CHECK(c == std::vector<float>{1, 2, 3, 4});
  gemm<float>(Op::N, Op::N, 2, 2, 0, nullptr, 1, nullptr, 2, false, c.data(), 2);
  CHECK(c == std::vector<float>{0, 0, 0, 0});
}

TEST_CASE("gemm: the strided-batched product is one product per item, the same bits on 1 and 2 threads") {
  Rng rng(9);
  const int64_t batch = 12, m = 9, n = 40, k = 24;  // 12 attention heads of a 9-token sequence
  const std::vector<float> a = random<float>(rng, size_t(batch * m * k)), b = random<float>(rng, size_t(batch * n * k));
  auto run = [&](int threads) {
    set_max_threads(threads);
    std::vector<float> c(size_t(batch * m * n), 0.5f);
    // C_i = A_i B_i^T (scores of queries against keys)
    gemm_strided_batched<float>(Op::N, Op::T, m, n, k, a.data(), k, m * k, b.data(), k, n * k, true, c.data(), n,
                                m * n, batch);
    set_max_threads(0);
    return c;
  };
  const std::vector<float> one = run(1), two = run(2);
  CHECK(one == two);
  for (int64_t i = 0; i < batch; ++i) {
    std::vector<float> ci(size_t(m * n), 0.5f);
    gemm<float>(Op::N, Op::T, m, n, k, a.data() + i * m * k, k, b.data() + i * n * k, k, true, ci.data(), n);
    CHECK(std::equal(ci.begin(), ci.end(), one.begin() + i * m * n));
  }
}

}  // namespace cilab::nn
