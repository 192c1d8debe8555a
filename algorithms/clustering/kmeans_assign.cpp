// The assign kernel of k-means (see kmeans.h for the numerics): one pass over
// fixed blocks of kBlockRows rows computes, per block, the new labels and the
// sufficient statistics of the new partition (n_j, S_j = sum x_i, Q_j = sum
// ||x_i||^2); kmeans.cpp reduces the blocks in index order, so every result is
// independent of the thread count. For d <= 4 the pass reads a column-major
// copy of the data (structure of arrays) and vectorises across points (see
// assign_block_low). For d > 4 the pass keeps Hamerly bounds per point and
// sums only the moves, so points the bounds settle cost O(1) (the gain grows
// as the run converges); a block where most points are unsettled (early
// iterations) gets one contiguous GEMM.
#include "algorithms/clustering/kmeans_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "algorithms/core/parallel.h"

namespace cilab {
namespace kmeans_detail {

namespace {

constexpr int kGemmRows = 256;         // rows per GEMM panel inside a block
// Above this fraction of rows left unsettled by the loose bounds, a block gets
// all its distances from one contiguous GEMM (no tightening, no gathering).
constexpr double kDenseFraction = 0.5;

// Hysteresis against rounding: keep the old label o when it is within the
// tie tolerance of the best one (in exact arithmetic both are minimal).
inline void keep_if_tied(const AssignInput& in, int i, int o, double dold, int& arg,
                         double& best) {
  if (o >= 0 && o != arg && dold <= best + kTieRel * (in.norm2[i] + in.mu_norm2_max)) {
    arg = o;
    best = dold;
  }
}

// d <= 4: exact squared differences ||x_i - mu_j||^2 = sum_c (x_ic - mu_jc)^2,
// vectorised across points with GCC/Clang vector extensions (kLanes doubles
// per vector: 4 with AVX, 2 otherwise). The data are read
// column by column (structure of arrays), NV vectors of points at a time; the
// loop over centroids keeps per-lane running minima (strict <: ties keep the
// lowest index) and the distance to the old centroid. The sums of D_i,new and
// of D_i,old - D_i,new and the number of changes are accumulated per lane with
// masks; n_j, S_j and Q_j are scattered point by point into kLanes copies. Both
// are reduced in a fixed order at the end of the block: the result depends
// only on the block, never on the thread that ran it. (The hysteresis rule is
// keep_if_tied's, applied lane-wise; the norm in the tolerance is computed
// from the lanes, which is the same quantity up to rounding.)
#if defined(__AVX__)
constexpr int kLanes = 4;  // doubles per vector: one 256-bit register
#else
constexpr int kLanes = 2;  // 128-bit vectors (SSE2, NEON): no ABI change without AVX
#endif
typedef double VecD __attribute__((vector_size(8 * kLanes)));
typedef int64_t VecL __attribute__((vector_size(8 * kLanes)));  // masks: -1 = true
typedef int32_t VecI __attribute__((vector_size(4 * kLanes)));

template <class V, class T>
inline V splat(T v) {
  V r;
  for (int l = 0; l < kLanes; ++l) r[l] = v;
  return r;
}
inline VecD load_d(const double* p) {
  VecD v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline VecD load_labels(const int* p) {
  VecI v;
  std::memcpy(&v, p, sizeof(v));
  return __builtin_convertvector(v, VecD);
}
inline void store_labels(int* p, VecD z) {
  const VecI v = __builtin_convertvector(z, VecI);
  std::memcpy(p, &v, sizeof(v));
}
inline VecD mask_of(VecD v, VecL m) {
  return reinterpret_cast<VecD>(reinterpret_cast<VecL>(v) & m);
}
// Sum of the lanes, left to right (a fixed order).
template <class T, class V>
inline T lane_sum(V v) {
  T t = v[0];
  for (int l = 1; l < kLanes; ++l) t += v[l];
  return t;
}

// Partial statistics of one block (k <= 64). Cluster sums are scattered into
// kLanes interleaved copies (point i of a chunk goes to copy i % kLanes), so
// consecutive points of one cluster do not wait on each other's stores.
template <int D>
struct LowAcc {
  struct Cell {
    double sums[D];
    double sq;
    double count;
  };
  Cell cell[kLanes][64];
  VecD fresh, decrement;
  VecL changed;  // minus the number of changes (masks are -1)
};

// The inputs of the low-d pass (centred centroids copied to a stack array).
template <int D>
struct LowInput {
  const double* col[D];  // column c of the centred data, n entries
  const int* old_labels;
  int* new_labels;
  double m[64][D];
  int k;
  double mu_norm2_max;
};

// ||x - m||^2 for kLanes points (one expression for every use: bit-identical).
template <int D>
inline VecD low_dist(const VecD* x, const VecD* m) {
  VecD t = x[0] - m[0];
  VecD dist = t * t;
  for (int c = 1; c < D; ++c) {
    t = x[c] - m[c];
    dist += t * t;
  }
  return dist;
}

// NV * kLanes points starting at column offset 0 of `xc`. Lanes with valid = 0
// (the padding of the last chunk) are left out of every statistic.
template <int D, int NV, bool kMasked>
inline void low_chunk(const LowInput<D>& in, const double* const* xc, const int* old_in,
                      int* out, const VecL* valid, int count, LowAcc<D>& acc) {
  VecD x[NV][D], best[NV], arg[NV], old[NV], dold[NV];
  double nrm_buf[NV * kLanes];
  for (int v = 0; v < NV; ++v) {
    for (int c = 0; c < D; ++c) x[v][c] = load_d(xc[c] + kLanes * v);
    old[v] = load_labels(old_in + kLanes * v);
    best[v] = splat<VecD>(kInf);
    arg[v] = splat<VecD>(0.0);
    dold[v] = splat<VecD>(0.0);
  }
  VecD jv = splat<VecD>(0.0);  // j in every lane
  for (int j = 0; j < in.k; ++j) {
    VecD mj[D];
    for (int c = 0; c < D; ++c) mj[c] = splat<VecD>(in.m[j][c]);
    for (int v = 0; v < NV; ++v) {
      const VecD dist = low_dist<D>(x[v], mj);
      const VecL lt = dist < best[v];
      best[v] = lt ? dist : best[v];
      arg[v] = lt ? jv : arg[v];
      dold[v] = old[v] == jv ? dist : dold[v];
    }
    jv += splat<VecD>(1.0);
  }
  for (int v = 0; v < NV; ++v) {
    VecD nrm = x[v][0] * x[v][0];
    for (int c = 1; c < D; ++c) nrm += x[v][c] * x[v][c];
    // Hysteresis (keep_if_tied): a valid old label within the tolerance wins.
    // When it already is the argmin, dold == best and nothing changes.
    const VecL has_old = old[v] >= splat<VecD>(0.0);
    const VecD tol = splat<VecD>(kTieRel) * (nrm + splat<VecD>(in.mu_norm2_max));
    const VecL keep = has_old & (dold[v] <= best[v] + tol);
    const VecD z = keep ? old[v] : arg[v];
    const VecD b = keep ? dold[v] : best[v];
    store_labels(out + kLanes * v, z);
    std::memcpy(nrm_buf + kLanes * v, &nrm, sizeof(nrm));
    VecL live = has_old;
    VecL all = splat<VecL>(-1);
    if (kMasked) {
      live &= valid[v];
      all &= valid[v];
    }
    acc.fresh += mask_of(b, all);
    acc.decrement += mask_of(dold[v] - b, live);  // exactly 0 for unchanged points
    acc.changed += (z != old[v]) & all;
  }
  const int lanes = kMasked ? count : NV * kLanes;
  for (int l = 0; l < lanes; ++l) {
    typename LowAcc<D>::Cell& cell = acc.cell[l % kLanes][out[l]];
    for (int c = 0; c < D; ++c) cell.sums[c] += xc[c][l];
    cell.sq += nrm_buf[l];
    cell.count += 1.0;
  }
}

template <int D>
void assign_block_low(const LowInput<D>& in, int r0, int r1, BlockStats& st) {
  constexpr int NV = 2;  // vectors per chunk: two independent min chains
  constexpr int W = NV * kLanes;
  const int k = in.k;
  LowAcc<D> acc;
  for (int l = 0; l < kLanes; ++l)
    for (int j = 0; j < k; ++j) acc.cell[l][j] = typename LowAcc<D>::Cell{};
  acc.fresh = acc.decrement = splat<VecD>(0.0);
  acc.changed = splat<VecL>(0);
  const double* xc[D];
  int i = r0;
  for (; i + W <= r1; i += W) {
    for (int c = 0; c < D; ++c) xc[c] = in.col[c] + i;
    low_chunk<D, NV, false>(in, xc, in.old_labels + i, in.new_labels + i, nullptr, W, acc);
  }
  if (i < r1) {  // last partial chunk: padded copy, padding lanes masked out
    const int cnt = r1 - i;
    alignas(32) double buf[D][W];
    int old_buf[W], out_buf[W];
    VecL valid[NV];
    for (int l = 0; l < W; ++l) {
      const int src = i + (l < cnt ? l : 0);
      for (int c = 0; c < D; ++c) buf[c][l] = in.col[c][src];
      old_buf[l] = in.old_labels[src];
      valid[l / kLanes][l % kLanes] = l < cnt ? -1 : 0;
    }
    for (int c = 0; c < D; ++c) xc[c] = buf[c];
    low_chunk<D, NV, true>(in, xc, old_buf, out_buf, valid, cnt, acc);
    std::copy_n(out_buf, cnt, in.new_labels + i);
  }
  for (int j = 0; j < k; ++j) {
    typename LowAcc<D>::Cell t = acc.cell[0][j];  // copies added left to right
    for (int l = 1; l < kLanes; ++l) {
      const typename LowAcc<D>::Cell& u = acc.cell[l][j];
      for (int c = 0; c < D; ++c) t.sums[c] += u.sums[c];
      t.sq += u.sq;
      t.count += u.count;
    }
    for (int c = 0; c < D; ++c) st.sums(j, c) = t.sums[c];
    st.sq[j] = t.sq;
    st.counts[static_cast<size_t>(j)] = static_cast<int>(t.count);
  }
  st.fresh = lane_sum<double>(acc.fresh);
  st.decrement = lane_sum<double>(acc.decrement);
  st.changed = -static_cast<long>(lane_sum<int64_t>(acc.changed));
}


// The low-d pass over all blocks: xcol is the n x D column-major centred data.
template <int D>
void run_low(const double* xcol, const Eigen::MatrixXd& mu, const AssignInput& a, int blocks,
             int threads, std::vector<BlockStats>& stats) {
  LowInput<D> in;
  for (int c = 0; c < D; ++c) in.col[c] = xcol + static_cast<size_t>(c) * a.n;
  in.old_labels = a.old_labels;
  in.new_labels = a.new_labels;
  for (int j = 0; j < a.k; ++j)
    for (int c = 0; c < D; ++c) in.m[j][c] = mu(j, c);
  in.k = a.k;
  in.mu_norm2_max = a.mu_norm2_max;
  parallel_for_blocks(blocks, threads, [&](int b) {
    const int r0 = b * kBlockRows, r1 = std::min(a.n, r0 + kBlockRows);
    assign_block_low<D>(in, r0, r1, stats[static_cast<size_t>(b)]);
  });
}


// d > 4: points the bounds cannot settle get all k distances
// D_ij = ||x_i||^2 - 2 x_i.mu_j + ||mu_j||^2 from one GEMM per panel of rows.
// The block's statistics are deltas (moves between clusters), so settled
// points cost nothing.
void assign_block_gemm(const AssignInput& in, const Eigen::VectorXd& mu_norm2, const Bounds& bd,
                       int r0, int r1, BlockStats& st) {
  const int k = in.k, d = in.d;
  std::vector<int> todo;
  todo.reserve(static_cast<size_t>(r1 - r0));
  // Pass 1: move the bounds; rows the loose bounds cannot settle are candidates.
  for (int i = r0; i < r1; ++i) {
    const int o = in.old_labels[i];
    if (bd.valid && o >= 0) {
      const double u = bd.u[i] + bd.delta[o];
      const double l = bd.l[i] - (o == bd.amax ? bd.dmax2 : bd.dmax1);
      bd.u[i] = u;
      bd.l[i] = l;
      if (u <= std::max(bd.s_half[o], l)) {
        in.new_labels[i] = o;
        continue;
      }
    }
    todo.push_back(i);
  }
  if (todo.empty()) return;
  if (static_cast<double>(todo.size()) > kDenseFraction * (r1 - r0)) {
    // Most rows need distances anyway (early iterations): one contiguous GEMM
    // over the whole block reads each row once, cheaper than tightening and
    // gathering row by row. Settled rows are recomputed (same label up to the
    // rounding tolerance, and their bounds become tight).
    todo.resize(static_cast<size_t>(r1 - r0));
    for (int i = r0; i < r1; ++i) todo[static_cast<size_t>(i - r0)] = i;
  } else {
    // Pass 2: tighten u_i to the exact distance to the own centroid.
    size_t kept = 0;
    for (const int i : todo) {
      const int o = in.old_labels[i];
      if (bd.valid && o >= 0) {
        const double u = std::sqrt(sq_dist(in.x + static_cast<size_t>(i) * d,
                                           bd.mu_rows + static_cast<size_t>(o) * d, d));
        bd.u[i] = u;
        if (u <= std::max(bd.s_half[o], bd.l[i])) {
          in.new_labels[i] = o;
          continue;
        }
      }
      todo[kept++] = i;
    }
    todo.resize(kept);
    if (todo.empty()) return;
  }
  RowMatrixXd buf(std::min<int>(kGemmRows, static_cast<int>(todo.size())), d);
  Eigen::MatrixXd g(k, buf.rows());  // g(j, r) = mu_j . x_r
  const int total = static_cast<int>(todo.size());
  for (int t0 = 0; t0 < total; t0 += kGemmRows) {
    const int m = std::min(kGemmRows, total - t0);
    const int first = todo[static_cast<size_t>(t0)];
    const double* panel = in.x + static_cast<size_t>(first) * d;
    if (todo[static_cast<size_t>(t0 + m - 1)] - first != m - 1) {  // scattered rows: gather
      for (int r = 0; r < m; ++r)
        std::copy_n(in.x + static_cast<size_t>(todo[static_cast<size_t>(t0 + r)]) * d, d,
                    buf.data() + static_cast<size_t>(r) * d);
      panel = buf.data();
    }
    const Eigen::Map<const RowMatrixXd> xb(panel, m, d);
    g.leftCols(m).noalias() = (*in.mu) * xb.transpose();
    for (int r = 0; r < m; ++r) {
      const int i = todo[static_cast<size_t>(t0 + r)];
      const double* gl = g.data() + static_cast<size_t>(r) * k;
      const int o = in.old_labels[i];
      double best = kInf;
      int arg = 0;
      for (int j = 0; j < k; ++j) {
        const double q = mu_norm2[j] - 2.0 * gl[j];
        if (q < best) {
          best = q;
          arg = j;
        }
      }
      const double xn = in.norm2[i];
      double dnew = std::max(0.0, xn + best);
      const double dold = o >= 0 ? std::max(0.0, xn + (mu_norm2[o] - 2.0 * gl[o])) : 0.0;
      keep_if_tied(in, i, o, dold, arg, dnew);
      double second = kInf;
      for (int j = 0; j < k; ++j)
        if (j != arg) second = std::min(second, mu_norm2[j] - 2.0 * gl[j]);
      bd.u[i] = std::sqrt(dnew);
      bd.l[i] = k > 1 ? std::sqrt(std::max(0.0, xn + second)) : kInf;
      in.new_labels[i] = arg;
      st.fresh += dnew;
      if (o == arg) continue;
      ++st.changed;
      const double* xi = panel + static_cast<size_t>(r) * d;
      double* sz = st.sums.data() + static_cast<size_t>(arg) * d;
      for (int c = 0; c < d; ++c) sz[c] += xi[c];
      st.sq[arg] += xn;
      st.counts[static_cast<size_t>(arg)] += 1;
      if (o >= 0) {
        double* so = st.sums.data() + static_cast<size_t>(o) * d;
        for (int c = 0; c < d; ++c) so[c] -= xi[c];
        st.sq[o] -= xn;
        st.counts[static_cast<size_t>(o)] -= 1;
        st.decrement += dold - dnew;
      }
    }
  }
}

}  // namespace

void assign_pass(const AssignInput& in, const double* xcol, const Eigen::VectorXd& mu_norm2,
                 const Bounds& bd, int blocks, int threads, std::vector<BlockStats>& stats) {
  static_assert(kLowDimMax == 4, "the dispatch below covers d = 1..kLowDimMax");
  switch (in.d) {
    case 1: run_low<1>(xcol, *in.mu, in, blocks, threads, stats); break;
    case 2: run_low<2>(xcol, *in.mu, in, blocks, threads, stats); break;
    case 3: run_low<3>(xcol, *in.mu, in, blocks, threads, stats); break;
    case 4: run_low<4>(xcol, *in.mu, in, blocks, threads, stats); break;
    default:
      parallel_for_blocks(blocks, threads, [&](int b) {
        const int r0 = b * kBlockRows, r1 = std::min(in.n, r0 + kBlockRows);
        assign_block_gemm(in, mu_norm2, bd, r0, r1, stats[static_cast<size_t>(b)]);
      });
      break;
  }
}

}  // namespace kmeans_detail
}  // namespace cilab
