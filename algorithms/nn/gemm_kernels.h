// Small dense products for the network library: the Linear layer's (layers.cpp)
// and the tiled path of the public nn::gemm (gemm.cpp). Included by those two
// only: everything else multiplies through gemm.h.
//
// A training step of a small MLP multiplies thin matrices (a batch of 256 rows
// by 64 x 64 weights: ~1M multiply-adds). Eigen's general GEMM packs both
// operands into blocked buffers (heap-allocated per product) before its
// kernel runs; at this size the packing and the allocation cost about as much
// as a third of the arithmetic. These kernels read the operands where they
// lie instead:
//
//   gemm_outer  C (M x N, row-major) = or += A (M x K) B (K x N), B row-major
//               with contiguous rows (a weight matrix, a batch): a register
//               tile of MR rows x NP packets of C; per k, NP packets of B's
//               row k and one broadcast of A(i, k) per tile row. A is read
//               through strides (A(i, k) = a[i rs + k cs]), so dy^T is dy
//               read column-wise, with no transposed copy.
//   gemm_dot    C (M x N) = or += A (M x K) Bt^T, A and Bt with contiguous
//               rows (C(i, j) = A row i . Bt row j): for outputs narrower than
//               one packet (a logit, a 2-D sample).
//
// Optional epilogue of gemm_outer (not accumulating): C = bias (one entry per
// column of C) + product, and a second output R laid out as C: R = ReLU(C)
// (a Linear layer's forward followed by a ReLU), or R = C relu'(Z) for a
// matrix Z laid out as C (a Linear layer's input gradient followed by the
// backward of the ReLU below it, Z that ReLU's input): one pass.
//
// Determinism: each C entry is summed over k in increasing order (gemm_outer:
// packets along C's columns; gemm_dot: packets along k, then a fixed
// reduction), from the operands alone: the result depends neither on the
// buffers' addresses nor on how the caller splits C into column blocks that
// start on a packet boundary, so the same inputs give the same bits in every
// run and on any thread count. (Another build, e.g. without AVX-512, may
// round differently: the packet width changes the reductions.)
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace cilab::nn::tile {

using Index = std::ptrdiff_t;

template <class T>
using Packet = typename Eigen::internal::packet_traits<T>::type;
// Scalars per packet (16 floats with AVX-512, 4 with SSE).
template <class T>
constexpr int kPacket = Eigen::internal::unpacket_traits<Packet<T>>::size;

// Register tile of gemm_outer: kTileRows rows x kTilePackets packets of C
// (6 x 4 accumulators fit AVX-512's 32 registers with the 4 B packets; 3 x 4
// fit AVX2's or SSE's 16).
constexpr int kTilePackets = 4;
// (Eigen's register count is an expression, e.g. (2*sizeof(void*)) for SSE:
// compared in C++, not in the preprocessor.)
constexpr int kTileRows = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 ? 6 : 3;

namespace detail {

template <class T, int MR, int NP, bool Acc>
inline void outer_tile(const T* a, Index rs, Index cs, const T* b, Index ldb, T* c, Index ldc, Index k_size,
                       const T* bias, T* r_out, const T* z) {
  using P = Packet<T>;
  constexpr int W = kPacket<T>;
  P acc[MR][NP];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) acc[r][p] = Eigen::internal::pset1<P>(T(0));
  for (Index k = 0; k < k_size; ++k) {
    const T* bk = b + k * ldb;
    P bp[NP];
#pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) bp[p] = Eigen::internal::ploadu<P>(bk + p * W);
    const T* ak = a + k * cs;
#pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
      const P ar = Eigen::internal::pset1<P>(ak[r * rs]);
#pragma GCC unroll 8
      for (int p = 0; p < NP; ++p) acc[r][p] = Eigen::internal::pmadd(ar, bp[p], acc[r][p]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 8
    for (int p = 0; p < NP; ++p) {
      T* cp = c + r * ldc + p * W;
      P v = acc[r][p];
      if constexpr (Acc) v = Eigen::internal::padd(Eigen::internal::ploadu<P>(cp), v);
      else if (bias) v = Eigen::internal::padd(Eigen::internal::ploadu<P>(bias + p * W), v);
      Eigen::internal::pstoreu(cp, v);
      if (r_out) {
        const P zero = Eigen::internal::pset1<P>(T(0));
        const Index at = r * ldc + p * W;
        if (z)  // v relu'(z) = v (z > 0 ? 1 : 0), as the ReLU layer's backward
          v = Eigen::internal::pmul(v, Eigen::internal::pand(Eigen::internal::pset1<P>(T(1)),
                                                             Eigen::internal::pcmp_lt(zero, Eigen::internal::ploadu<P>(z + at))));
        else  // relu(v) = v > 0 ? v : 0 (NaN and -0 give +0, as the ReLU layer)
          v = Eigen::internal::pand(v, Eigen::internal::pcmp_lt(zero, v));
        Eigen::internal::pstoreu(r_out + at, v);
      }
    }
}

// Every row tile of C's columns [0, NP packets).
template <class T, int NP, bool Acc>
inline void outer_rows(Index m, const T* a, Index rs, Index cs, const T* b, Index ldb, T* c, Index ldc,
                       Index k_size, const T* bias, T* r_out, const T* z) {
  Index i = 0;
  for (; i + kTileRows <= m; i += kTileRows)
    outer_tile<T, kTileRows, NP, Acc>(a + i * rs, rs, cs, b, ldb, c + i * ldc, ldc, k_size, bias,
                                      r_out ? r_out + i * ldc : nullptr, z ? z + i * ldc : nullptr);
  const T* ai = a + i * rs;
  T* ci = c + i * ldc;
  T* ri = r_out ? r_out + i * ldc : nullptr;
  const T* zi = z ? z + i * ldc : nullptr;
  switch (m - i) {
    case 5: if constexpr (kTileRows > 5) outer_tile<T, 5, NP, Acc>(ai, rs, cs, b, ldb, ci, ldc, k_size, bias, ri, zi); break;
    case 4: if constexpr (kTileRows > 4) outer_tile<T, 4, NP, Acc>(ai, rs, cs, b, ldb, ci, ldc, k_size, bias, ri, zi); break;
    case 3: if constexpr (kTileRows > 3) outer_tile<T, 3, NP, Acc>(ai, rs, cs, b, ldb, ci, ldc, k_size, bias, ri, zi); break;
    case 2: outer_tile<T, 2, NP, Acc>(ai, rs, cs, b, ldb, ci, ldc, k_size, bias, ri, zi); break;
    case 1: outer_tile<T, 1, NP, Acc>(ai, rs, cs, b, ldb, ci, ldc, k_size, bias, ri, zi); break;
    default: break;
  }
}

template <class T, bool Acc>
void outer(Index m, Index n, Index k_size, const T* a, Index rs, Index cs, const T* b, Index ldb, T* c, Index ldc,
           const T* bias, T* r_out, const T* z) {
  constexpr int W = kPacket<T>;
  Index j = 0;
  for (; j + kTilePackets * W <= n; j += kTilePackets * W)
    outer_rows<T, kTilePackets, Acc>(m, a, rs, cs, b + j, ldb, c + j, ldc, k_size, bias ? bias + j : nullptr,
                                     r_out ? r_out + j : nullptr, z ? z + j : nullptr);
  const Index packets = (n - j) / W;
  const T* bj = bias ? bias + j : nullptr;
  T* rj = r_out ? r_out + j : nullptr;
  const T* zj = z ? z + j : nullptr;
  switch (packets) {
    case 3: outer_rows<T, 3, Acc>(m, a, rs, cs, b + j, ldb, c + j, ldc, k_size, bj, rj, zj); break;
    case 2: outer_rows<T, 2, Acc>(m, a, rs, cs, b + j, ldb, c + j, ldc, k_size, bj, rj, zj); break;
    case 1: outer_rows<T, 1, Acc>(m, a, rs, cs, b + j, ldb, c + j, ldc, k_size, bj, rj, zj); break;
    default: break;
  }
  j += packets * W;
  if (j == n) return;
  // The last columns (fewer than a packet): B's columns [j, n) copied into one zero-padded packet
  // column, the same register tile run on it into a scratch tile, and its valid entries combined
  // into C as the tiles combine theirs (each entry still summed over k in increasing order).
  const Index tail = n - j;
  thread_local std::vector<T> bpad, cpad;
  bpad.assign(static_cast<size_t>(k_size * W), T(0));
  cpad.resize(static_cast<size_t>(kTileRows * W));
  for (Index k = 0; k < k_size; ++k) std::copy(b + k * ldb + j, b + k * ldb + n, bpad.data() + k * W);
  for (Index i0 = 0; i0 < m; i0 += kTileRows) {
    const Index rows = std::min<Index>(kTileRows, m - i0);
    const T* ai = a + i0 * rs;
    T* cp = cpad.data();
    switch (rows) {
      case 6: if constexpr (kTileRows > 5) outer_tile<T, kTileRows, 1, false>(ai, rs, cs, bpad.data(), W, cp, W, k_size, nullptr, nullptr, nullptr); break;
      case 5: if constexpr (kTileRows > 4) outer_tile<T, 5, 1, false>(ai, rs, cs, bpad.data(), W, cp, W, k_size, nullptr, nullptr, nullptr); break;
      case 4: if constexpr (kTileRows > 3) outer_tile<T, 4, 1, false>(ai, rs, cs, bpad.data(), W, cp, W, k_size, nullptr, nullptr, nullptr); break;
      case 3: outer_tile<T, 3, 1, false>(ai, rs, cs, bpad.data(), W, cp, W, k_size, nullptr, nullptr, nullptr); break;
      case 2: outer_tile<T, 2, 1, false>(ai, rs, cs, bpad.data(), W, cp, W, k_size, nullptr, nullptr, nullptr); break;
      default: outer_tile<T, 1, 1, false>(ai, rs, cs, bpad.data(), W, cp, W, k_size, nullptr, nullptr, nullptr); break;
    }
    for (Index r = 0; r < rows; ++r)
      for (Index jj = 0; jj < tail; ++jj) {
        const Index at = (i0 + r) * ldc + j + jj;
        const T s = cp[r * W + jj];
        T& out = c[at];
        out = Acc ? out + s : (bias ? bias[j + jj] + s : s);
        if (r_out) r_out[at] = z ? out * (z[at] > T(0) ? T(1) : T(0)) : (out > T(0) ? out : T(0));
      }
  }
}

// dot(a, b) over k_size entries: four accumulators over interleaved packets
// along k (four independent FMA chains: one chain waits on the FMA's latency),
// added in a fixed order and reduced, then a lone accumulator for the
// remaining whole packets, then the last entries one by one.
template <class T>
inline T dot(const T* a, const T* b, Index k_size) {
  using P = Packet<T>;
  constexpr int W = kPacket<T>;
  Index k = 0;
  T s = T(0);
  if (k_size >= W) {
    P acc = Eigen::internal::pset1<P>(T(0));
    if (k_size >= 4 * W) {
      P a0 = acc, a1 = acc, a2 = acc, a3 = acc;
      for (; k + 4 * W <= k_size; k += 4 * W) {
        a0 = Eigen::internal::pmadd(Eigen::internal::ploadu<P>(a + k), Eigen::internal::ploadu<P>(b + k), a0);
        a1 = Eigen::internal::pmadd(Eigen::internal::ploadu<P>(a + k + W), Eigen::internal::ploadu<P>(b + k + W), a1);
        a2 = Eigen::internal::pmadd(Eigen::internal::ploadu<P>(a + k + 2 * W),
                                    Eigen::internal::ploadu<P>(b + k + 2 * W), a2);
        a3 = Eigen::internal::pmadd(Eigen::internal::ploadu<P>(a + k + 3 * W),
                                    Eigen::internal::ploadu<P>(b + k + 3 * W), a3);
      }
      acc = Eigen::internal::padd(Eigen::internal::padd(a0, a1), Eigen::internal::padd(a2, a3));
    }
    for (; k + W <= k_size; k += W)
      acc = Eigen::internal::pmadd(Eigen::internal::ploadu<P>(a + k), Eigen::internal::ploadu<P>(b + k), acc);
    s = Eigen::internal::predux(acc);
  }
  for (; k < k_size; ++k) s += a[k] * b[k];
  return s;
}

}  // namespace detail

// C = A B (+ bias per column of C), or C += A B when accumulate; see the top.
// With r_out (not accumulating): R = ReLU(C), or R = C relu'(Z) when z is
// given. A(i, k) = a[i rs + k cs]; B(k, j) = b[k ldb + j]; C(i, j) = c[i ldc + j],
// R(i, j) = r_out[i ldc + j], Z(i, j) = z[i ldc + j].
template <class T>
void gemm_outer(bool accumulate, Index m, Index n, Index k_size, const T* a, Index rs, Index cs, const T* b,
                Index ldb, T* c, Index ldc, const T* bias = nullptr, T* r_out = nullptr, const T* z = nullptr) {
  if (accumulate) detail::outer<T, true>(m, n, k_size, a, rs, cs, b, ldb, c, ldc, nullptr, nullptr, nullptr);
  else detail::outer<T, false>(m, n, k_size, a, rs, cs, b, ldb, c, ldc, bias, r_out, z);
}

// C(i, j) = (bias[j] +) A row i . Bt row j, or C(i, j) += it when accumulate.
// A(i, k) = a[i lda + k]; Bt(j, k) = bt[j ldbt + k]; C(i, j) = c[i ldc + j].
// Rows go in blocks of one packet's count: one accumulator per row (packets
// along k, in increasing k), the block's accumulators transposed and added
// lane by lane in a fixed order, then the last k (fewer than a packet) one by
// one; rows after the last whole block as detail::dot.
template <class T>
void gemm_dot(bool accumulate, Index m, Index n, Index k_size, const T* a, Index lda, const T* bt, Index ldbt, T* c,
              Index ldc, const T* bias = nullptr) {
  using P = Packet<T>;
  constexpr int W = kPacket<T>;
  const Index kp = k_size / W * W;
  for (Index j = 0; j < n; ++j) {
    const T* bj = bt + j * ldbt;
    auto put = [&](Index i, T s) {
      T& out = c[i * ldc + j];
      out = accumulate ? out + s : (bias ? bias[j] + s : s);
    };
    Index i = 0;
    if constexpr (W > 1) {
      for (; i + W <= m; i += W) {
// PacketBlock<__m512, W>: GCC notes that the vector type's alignment
// attribute is not part of the template argument (harmless; Eigen's own
// kernels silence it the same way).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
        Eigen::internal::PacketBlock<P, W> blk;
#pragma GCC diagnostic pop
#pragma GCC unroll 16
        for (int r = 0; r < W; ++r) blk.packet[r] = Eigen::internal::pset1<P>(T(0));
        for (Index k = 0; k < kp; k += W) {
          const P b = Eigen::internal::ploadu<P>(bj + k);
#pragma GCC unroll 16
          for (int r = 0; r < W; ++r)
            blk.packet[r] = Eigen::internal::pmadd(Eigen::internal::ploadu<P>(a + (i + r) * lda + k), b, blk.packet[r]);
        }
        Eigen::internal::ptranspose(blk);
        P sum = blk.packet[0];
#pragma GCC unroll 16
        for (int r = 1; r < W; ++r) sum = Eigen::internal::padd(sum, blk.packet[r]);
        alignas(64) T lanes[W];
        Eigen::internal::pstoreu(lanes, sum);
        for (int r = 0; r < W; ++r) {
          T s = lanes[r];
          for (Index k = kp; k < k_size; ++k) s += a[(i + r) * lda + k] * bj[k];
          put(i + r, s);
        }
      }
    }
    for (; i < m; ++i) put(i, detail::dot(a + i * lda, bj, k_size));
  }
}

// D = S^T for S (m x n), S(i, j) = s[i lds + j], D(j, i) = d[j ldd + i]:
// square blocks of one packet's count transposed in registers, the edges
// one by one.
template <class T>
void transpose(Index m, Index n, const T* s, Index lds, T* d, Index ldd) {
  using P = Packet<T>;
  constexpr int W = kPacket<T>;
  const Index mb = W > 1 ? m / W * W : 0, nb = W > 1 ? n / W * W : 0;
  if constexpr (W > 1) {
    for (Index i = 0; i < mb; i += W)
      for (Index j = 0; j < nb; j += W) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
        Eigen::internal::PacketBlock<P, W> blk;
#pragma GCC diagnostic pop
#pragma GCC unroll 16
        for (int r = 0; r < W; ++r) blk.packet[r] = Eigen::internal::ploadu<P>(s + (i + r) * lds + j);
        Eigen::internal::ptranspose(blk);
#pragma GCC unroll 16
        for (int r = 0; r < W; ++r) Eigen::internal::pstoreu(d + (j + r) * ldd + i, blk.packet[r]);
      }
  }
  for (Index i = 0; i < m; ++i)
    for (Index j = i < mb ? nb : 0; j < n; ++j) d[j * ldd + i] = s[i * lds + j];
}

// out[j] += sum_i A(i, j) for A (m x n), A(i, j) = a[i lda + j]: each sum
// formed over i in increasing order (in registers, a few packets of columns
// at a time), then added to out[j].
template <class T>
void add_column_sums(Index m, Index n, const T* a, Index lda, T* out) {
  using P = Packet<T>;
  constexpr int W = kPacket<T>;
  Index j = 0;
  for (; j + 4 * W <= n; j += 4 * W) {
    P s[4];
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p) s[p] = Eigen::internal::pset1<P>(T(0));
    for (Index i = 0; i < m; ++i)
#pragma GCC unroll 4
      for (int p = 0; p < 4; ++p) s[p] = Eigen::internal::padd(s[p], Eigen::internal::ploadu<P>(a + i * lda + j + p * W));
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p)
      Eigen::internal::pstoreu(out + j + p * W, Eigen::internal::padd(Eigen::internal::ploadu<P>(out + j + p * W), s[p]));
  }
  for (; j + W <= n; j += W) {
    P s = Eigen::internal::pset1<P>(T(0));
    for (Index i = 0; i < m; ++i) s = Eigen::internal::padd(s, Eigen::internal::ploadu<P>(a + i * lda + j));
    Eigen::internal::pstoreu(out + j, Eigen::internal::padd(Eigen::internal::ploadu<P>(out + j), s));
  }
  for (; j < n; ++j) {
    T s = T(0);
    for (Index i = 0; i < m; ++i) s += a[i * lda + j];
    out[j] += s;
  }
}

}  // namespace cilab::nn::tile
