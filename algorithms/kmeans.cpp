// k-means (Lloyd's algorithm): see kmeans.h for the equations, the half-steps,
// the convergence and empty-cluster rules and the numerics.
//
// Shapes: X is n x d (centred copy, row-major, shared by clones), U is k x d
// (mu_, centred), labels z has size n. One assign pass over fixed blocks of
// kBlockRows rows computes, per block, the new labels and the sufficient
// statistics of the new partition (n_j, S_j = sum x_i, Q_j = sum ||x_i||^2);
// blocks are reduced in index order, so the update half-step is O(k d) and
// every result is independent of the thread count. For d <= 4 the pass reads
// a column-major copy of the data (structure of arrays) and vectorises across
// points (see assign_block_low). For d > 4 the pass keeps
// Hamerly bounds per point (upper_, lower_) and sums only the moves, so points
// the bounds settle cost O(1) (the gain grows as the run converges); a block
// where most points are unsettled (early iterations) gets one contiguous GEMM.
#include "algorithms/kmeans.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <thread>
#include <utility>

#include "algorithms/core/rng.h"

namespace cilab {

using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The dataset, centred once: x_i - mean, row-major, with its squared row norms.
struct KMeans::Prepared {
  RowMatrixXd x;          // n x d
  Eigen::MatrixXd xcol;   // n x d column-major (d <= 4 only; empty otherwise)
  Eigen::VectorXd norm2;  // n, ||x_i - mean||^2
  Eigen::VectorXd mean;   // d
};

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kLowDimMax = 4;          // d <= 4: direct differences, no GEMM
constexpr int kBlockRows = 2048;       // rows per work block (fixed: determinism)
constexpr int kGemmRows = 256;         // rows per GEMM panel inside a block
// Above this fraction of rows left unsettled by the loose bounds, a block gets
// all its distances from one contiguous GEMM (no tightening, no gathering).
constexpr double kDenseFraction = 0.5;
constexpr double kParallelMinWork = 2e5;  // n*k*d below which one thread runs
constexpr size_t kMaxSeedingProbEntries = 4000000;
// A point keeps its cluster unless another is closer by more than
// kTieRel * (||x_i||^2 + max_j ||mu_j||^2): differences below that are rounding.
constexpr double kTieRel = 1e-12;

std::atomic<int> g_max_threads{0};

int worker_count(int blocks, double work) {
  if (blocks <= 1 || work < kParallelMinWork) return 1;
  static const int hw = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  int limit = g_max_threads.load();
  if (limit <= 0) limit = hw;
  return std::max(1, std::min({blocks, limit, 16}));
}

// Runs f(b) for every block b in [0, blocks) on `threads` threads (the caller
// is one of them). Blocks are handed out dynamically; f must write only to
// block-private outputs, so the result does not depend on the schedule.
template <class F>
void for_each_block(int blocks, int threads, const F& f) {
  if (threads <= 1) {
    for (int b = 0; b < blocks; ++b) f(b);
    return;
  }
  std::atomic<int> next{0};
  auto worker = [&]() {
    for (int b = next.fetch_add(1); b < blocks; b = next.fetch_add(1)) f(b);
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

int block_count(int n) { return (n + kBlockRows - 1) / kBlockRows; }

// Per-block output of the assign pass.
struct BlockStats {
  RowMatrixXd sums;      // k x d
  Eigen::VectorXd sq;    // k
  std::vector<int> counts;
  double fresh = 0.0;      // sum of the new distances D_i,new
  double decrement = 0.0;  // sum over changed points (old label >= 0) of D_i,old - D_i,new
  long changed = 0;

  void init(int k, int d) {
    sums.setZero(k, d);
    sq.setZero(k);
    counts.assign(static_cast<size_t>(k), 0);
  }
};

// ||a - b||^2 over d entries (Eigen's vectorised reduction: fixed order).
double sq_dist(const double* a, const double* b, int d) {
  const Eigen::Map<const Eigen::VectorXd> va(a, d), vb(b, d);
  return (va - vb).squaredNorm();
}

struct AssignInput {
  const double* x;      // n x d row-major, centred
  const double* norm2;  // n
  int n, d, k;
  const Eigen::MatrixXd* mu;  // k x d
  const int* old_labels;      // n (-1 = none)
  int* new_labels;            // n
  double mu_norm2_max;        // max_j ||mu_j||^2
};

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
  for_each_block(blocks, threads, [&](int b) {
    const int r0 = b * kBlockRows, r1 = std::min(a.n, r0 + kBlockRows);
    assign_block_low<D>(in, r0, r1, stats[static_cast<size_t>(b)]);
  });
}

// Hamerly bounds for the GEMM path (distances, not squared):
//   u_i >= ||x_i - mu_{z_i}||,  l_i <= min_{j != z_i} ||x_i - mu_j||.
// Before an assign, centroids have moved by delta_j since the bounds were set:
// u_i += delta_{z_i}, l_i -= max_{j != z_i} delta_j. If u_i <= max(s_{z_i}, l_i)
// with s_j = min_{j' != j} ||mu_j - mu_j'|| / 2, no other centroid can be
// closer and the point keeps its label without any distance computation.
struct Bounds {
  double* u;
  double* l;
  const double* delta;   // k
  const double* s_half;  // k
  const double* mu_rows;  // k x d row-major (exact distances when tightening)
  double dmax1, dmax2;    // largest and second largest delta
  int amax;               // argmax delta
  bool valid;
};

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

std::string fmt_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

}  // namespace

// ---------------------------------------------------------------- description

namespace {

const ParamTable<KMeans::Params>& param_table() {
  using P = KMeans::Params;
  static const ParamTable<P> kTable = {
      Int("k", &P::k, 1, 64)
          .help("number of clusters (scikit-learn: n_clusters)")
          .formula("z_i in {1..k}"),
      Choice("init", &P::init, {"random", "kmeans++", "first", "manual"})
          .choice_help({"k distinct rows chosen uniformly at random",
                        "D^2 sampling: p_i = D_i^2 / sum_j D_j^2, D_i = distance to nearest seed",
                        "the first k rows of the dataset",
                        "placed by hand (drag the centroids; the first k rows until then)"})
          .help("how the initial centroids are chosen")
          .formula("p_i = D_i^2 / sum_j D_j^2 (kmeans++)"),
      Int("max_iter", &P::max_iter, 1, 10000)
          .live()
          .help("iteration budget; the run stops when it is spent (scikit-learn's default 300)"),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {KMeans::kMetricObjective, "objective",
       "J = sum_i ||x_i - mu_{z_i}||^2, the sum of squared distances to the assigned centroid "
       "(scikit-learn's inertia_). Never rises after a half-step. NaN before the first assign.",
       true},
      {KMeans::kMetricChanged, "changed", "points whose cluster changed in the last assign half-step", false},
      {KMeans::kMetricCenterShift, "center_shift",
       "sum_j ||mu_j,new - mu_j,old||^2, how far the last update moved the centroids", true},
      {KMeans::kMetricReseeded, "empty_reseeded",
       "clusters that were empty after the assign and were re-seeded at the farthest point", false},
  };
  return kMetrics;
}

}  // namespace

const ModuleInfo& KMeans::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "kmeans";
    m.title = "k-means (Lloyd's algorithm)";
    m.chapter = "Clustering and mixtures";
    m.summary =
        "Partitions the points into k clusters by alternating two half-steps that each lower "
        "J = sum_i ||x_i - mu_{z_i}||^2: assign every point to its nearest centroid, then move "
        "every centroid to the mean of its points. Seeding: k random rows, k-means++ (D^2 "
        "sampling), the first k rows, or centroids placed by hand. Stops when an assignment "
        "changes no point.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"assign", "update"};
    m.default_dataset = "blobs:n=600,centers=4,seed=1";
    return m;
  }();
  return kInfo;
}

const ParamSpecs& KMeans::params() const { return param_table().specs(); }

KMeans::Params KMeans::params_from(const ParamValues& values) { return param_table().read(values); }

void KMeans::set_max_threads(int threads) { g_max_threads.store(std::max(0, threads)); }

// ---------------------------------------------------------------- lifecycle

KMeans::KMeans()
    : objective_(kNaN), changed_(kNaN), center_shift_(kNaN), reseeded_count_(kNaN) {}
KMeans::~KMeans() = default;
KMeans::KMeans(const KMeans&) = default;

std::unique_ptr<Module> KMeans::clone() const { return std::make_unique<KMeans>(*this); }

void KMeans::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = params_from(values);
  require_usable_data(data.get(), "k-means");
  const int n = data->rows(), d = data->cols();
  if (p.k > n)
    throw std::invalid_argument("parameter 'k' = " + std::to_string(p.k) +
                                " exceeds the number of samples (" + std::to_string(n) +
                                "); try k <= " + std::to_string(n));

  // Reuse the centred copy when resetting on the same dataset.
  if (!(prep_ && data_ == data)) {
    auto prep = std::make_shared<Prepared>();
    prep->mean = data->x.colwise().mean().transpose();
    prep->x = data->x.rowwise() - prep->mean.transpose();
    prep->norm2 = prep->x.rowwise().squaredNorm();
    if (d <= kLowDimMax) prep->xcol = prep->x;
    prep_ = std::move(prep);
  }
  data_ = std::move(data);
  p_ = p;
  n_ = n;
  d_ = d;
  iteration_ = 0;
  phase_ = 0;
  status_ = Status::Running;
  message_.clear();
  objective_ = changed_ = center_shift_ = reseeded_count_ = kNaN;
  assigned_ = false;
  upper_.clear();
  lower_.clear();
  bounds_valid_ = false;
  labels_ = std::make_shared<std::vector<int>>(static_cast<size_t>(n), -1);  // non-const: recycled
  sums_.setZero(p.k, d);
  sq_sums_.setZero(p.k);
  counts_.assign(static_cast<size_t>(p.k), 0);
  reseeded_.clear();
  placed_.assign(p.init == Init::Manual ? static_cast<size_t>(p.k) : 0, 0);
  seed_centroids(seed);
  invalidate();
}

void KMeans::seed_centroids(uint64_t seed) {
  const int k = p_.k, n = n_, d = d_;
  const RowMatrixXd& x = prep_->x;
  Rng rng(seed);
  auto seeding = std::make_shared<KMeansSeeding>();
  std::vector<int>& rows = seeding->rows;

  switch (p_.init) {
    case Init::First:
      for (int j = 0; j < k; ++j) rows.push_back(j);
      break;
    case Init::Manual:
      message_ = "manual init: the centroids start at the first " + std::to_string(k) +
                 " rows; drag or place them, then step";
      break;
    case Init::Random:
      // k distinct rows, uniformly (rejection: k <= 64 <= expected cost n ln n at k = n).
      while (static_cast<int>(rows.size()) < k) {
        const int r = static_cast<int>(rng.below(static_cast<uint64_t>(n)));
        if (std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
      }
      break;
    case Init::KMeansPlusPlus: {
      seeding->probs.resize(static_cast<size_t>(k));
      const bool keep_all = static_cast<size_t>(n) * static_cast<size_t>(k - 1) <=
                            kMaxSeedingProbEntries;
      std::vector<double> d2(static_cast<size_t>(n), kInf);
      std::vector<char> chosen(static_cast<size_t>(n), 0);
      const int blocks = block_count(n);
      const int threads = worker_count(blocks, static_cast<double>(n) * d);
      auto add_seed = [&](int r) {
        rows.push_back(r);
        chosen[static_cast<size_t>(r)] = 1;
        const double* c = x.data() + static_cast<size_t>(r) * d;
        for_each_block(blocks, threads, [&](int b) {
          const int i1 = std::min(n, (b + 1) * kBlockRows);
          for (int i = b * kBlockRows; i < i1; ++i) {
            const double t = sq_dist(x.data() + static_cast<size_t>(i) * d, c, d);
            if (t < d2[static_cast<size_t>(i)]) d2[static_cast<size_t>(i)] = t;
          }
        });
        d2[static_cast<size_t>(r)] = 0.0;
      };
      add_seed(static_cast<int>(rng.below(static_cast<uint64_t>(n))));
      for (int r = 1; r < k; ++r) {
        double total = 0.0;
        for (double v : d2) total += v;
        int pick = -1;
        if (total > 0.0 && std::isfinite(total)) {
          if (keep_all || r == k - 1) {
            std::vector<double>& pr = seeding->probs[static_cast<size_t>(r)];
            pr.resize(static_cast<size_t>(n));
            for (int i = 0; i < n; ++i) pr[static_cast<size_t>(i)] = d2[static_cast<size_t>(i)] / total;
          }
          pick = rng.categorical(d2);
        }
        if (pick < 0 || chosen[static_cast<size_t>(pick)]) {
          // Every remaining point coincides with a seed: uniform over unchosen rows.
          int t = static_cast<int>(rng.below(static_cast<uint64_t>(n - r)));
          for (int i = 0; i < n; ++i)
            if (!chosen[static_cast<size_t>(i)] && t-- == 0) {
              pick = i;
              break;
            }
        }
        add_seed(pick);
      }
      break;
    }
  }
  mu_.resize(k, d);
  for (int j = 0; j < k; ++j) {
    const int r = p_.init == Init::Manual ? j : rows[static_cast<size_t>(j)];
    mu_.row(j) = x.row(r);
  }
  seeding_ = std::move(seeding);
}

// ---------------------------------------------------------------- iteration

void KMeans::step() {
  if (!prep_ || is_terminal(status_)) return;
  if (phase_ == 0) assign_half();
  if (!is_terminal(status_) && phase_ == 1) update_half();
}

void KMeans::sub_step() {
  if (!prep_ || is_terminal(status_)) return;
  if (phase_ == 0)
    assign_half();
  else
    update_half();
}

void KMeans::assign_half() {
  const int k = p_.k, n = n_, d = d_;
  // Reuse the label vector of two assigns ago when nothing else holds it (no
  // snapshot, no clone): saves allocating and faulting in n ints per pass.
  std::shared_ptr<std::vector<int>> next;
  if (spare_labels_ && spare_labels_.use_count() == 1 &&
      spare_labels_->size() == static_cast<size_t>(n)) {
    std::atomic_thread_fence(std::memory_order_acquire);  // pairs with the last owner's release
    next = std::move(spare_labels_);
  } else {
    next = std::make_shared<std::vector<int>>(static_cast<size_t>(n));
  }
  spare_labels_.reset();
  const Eigen::VectorXd mu_norm2 = mu_.rowwise().squaredNorm();
  AssignInput in{prep_->x.data(), prep_->norm2.data(), n, d, k, &mu_, labels_->data(),
                 next->data(), mu_norm2.maxCoeff()};
  const bool low = d <= kLowDimMax;
  static_assert(kLowDimMax == 4, "the dispatch below covers d = 1..kLowDimMax");

  // Bounds bookkeeping (GEMM path): how far each centroid moved since the
  // bounds were last set, and half the distance to its nearest other centroid.
  Bounds bd{};
  Eigen::VectorXd delta, s_half;
  RowMatrixXd mu_rows;
  if (!low) {
    if (upper_.size() != static_cast<size_t>(n)) {
      upper_.assign(static_cast<size_t>(n), kInf);
      lower_.assign(static_cast<size_t>(n), 0.0);
      bounds_valid_ = false;
    }
    mu_rows = mu_;
    delta = Eigen::VectorXd::Zero(k);
    if (bounds_valid_)
      for (int j = 0; j < k; ++j) delta[j] = (mu_.row(j) - mu_bounds_.row(j)).norm();
    s_half = Eigen::VectorXd::Constant(k, kInf);
    for (int a = 0; a < k; ++a)
      for (int b = a + 1; b < k; ++b) {
        const double h = 0.5 * (mu_.row(a) - mu_.row(b)).norm();
        s_half[a] = std::min(s_half[a], h);
        s_half[b] = std::min(s_half[b], h);
      }
    for (int j = 0; j < k; ++j) s_half[j] = k > 1 ? s_half[j] : 0.0;
    bd.amax = 0;
    for (int j = 0; j < k; ++j)
      if (delta[j] > delta[bd.amax]) bd.amax = j;
    bd.dmax1 = delta[bd.amax];
    bd.dmax2 = 0.0;
    for (int j = 0; j < k; ++j)
      if (j != bd.amax) bd.dmax2 = std::max(bd.dmax2, delta[j]);
    bd.u = upper_.data();
    bd.l = lower_.data();
    bd.delta = delta.data();
    bd.s_half = s_half.data();
    bd.mu_rows = mu_rows.data();
    bd.valid = bounds_valid_ && assigned_;
  }

  const int blocks = block_count(n);
  std::vector<BlockStats> stats(static_cast<size_t>(blocks));
  for (BlockStats& s : stats) s.init(k, d);
  const int threads = worker_count(blocks, static_cast<double>(n) * k * d);
  switch (d) {
    case 1: run_low<1>(prep_->xcol.data(), mu_, in, blocks, threads, stats); break;
    case 2: run_low<2>(prep_->xcol.data(), mu_, in, blocks, threads, stats); break;
    case 3: run_low<3>(prep_->xcol.data(), mu_, in, blocks, threads, stats); break;
    case 4: run_low<4>(prep_->xcol.data(), mu_, in, blocks, threads, stats); break;
    default:
      for_each_block(blocks, threads, [&](int b) {
        const int r0 = b * kBlockRows, r1 = std::min(n, r0 + kBlockRows);
        assign_block_gemm(in, mu_norm2, bd, r0, r1, stats[static_cast<size_t>(b)]);
      });
      break;
  }

  // Reduce in block order (deterministic whatever the thread count). The low-d
  // path recomputes the cluster statistics; the GEMM path adds the moves.
  if (low || !assigned_) {
    sums_.setZero(k, d);
    sq_sums_.setZero(k);
    counts_.assign(static_cast<size_t>(k), 0);
  }
  double fresh = 0.0, decrement = 0.0;
  long changed = 0;
  for (const BlockStats& s : stats) {
    sums_ += s.sums;
    sq_sums_ += s.sq;
    for (int j = 0; j < k; ++j) counts_[static_cast<size_t>(j)] += s.counts[static_cast<size_t>(j)];
    fresh += s.fresh;
    decrement += s.decrement;
    changed += s.changed;
  }
  if (!low) {
    mu_bounds_ = mu_;
    bounds_valid_ = true;
  }
  spare_labels_ = std::const_pointer_cast<std::vector<int>>(labels_);
  labels_ = std::move(next);
  if (!assigned_) {
    objective_ = fresh;  // first assign: every distance was computed
  } else if (!std::isfinite(objective_)) {
    objective_ = objective_from_sums();
  } else if (changed > 0) {
    objective_ = std::max(0.0, objective_ - decrement);  // each term D_old - D_new >= 0
  }  // no label changed: J(z, U) is exactly the previous value
  assigned_ = true;
  changed_ = static_cast<double>(changed);
  center_shift_ = kNaN;
  reseeded_count_ = kNaN;
  reseeded_.clear();
  phase_ = 1;
  message_.clear();
  if (!std::isfinite(objective_)) {
    status_ = Status::Diverged;
    message_ = "the objective became non-finite in the assign half-step (a centroid far out "
               "of range?); rewind or move the centroid back";
  }
  invalidate();
}

void KMeans::update_half() {
  const int k = p_.k, d = d_;
  const RowMatrixXd& x = prep_->x;
  Eigen::MatrixXd mu_new = mu_;
  Eigen::MatrixXd mu_ref = mu_;  // centroid the identity is taken against
  double removed = 0.0;          // sum of D_p of points moved into empty clusters
  reseeded_.clear();
  std::string notice;

  std::vector<int> empties;
  for (int j = 0; j < k; ++j)
    if (counts_[static_cast<size_t>(j)] == 0) empties.push_back(j);
  if (!empties.empty()) {
    // Re-seed each empty cluster j at the point p farthest from its assigned
    // centroid (D_p = ||x_p - mu_{z_p}||^2 with the centroids of the assign),
    // and move p into j. J cannot rise: mu_j did not enter J (cluster j had no
    // point), p's term drops from D_p to ||x_p - x_p||^2 = 0, and the update
    // below then moves every centroid to the mean of its (new) cluster, which
    // minimises J for fixed labels. Only points with D_p > 0 (beyond the tie
    // tolerance) whose cluster keeps another point qualify, so no new empty
    // cluster appears.
    auto labels = std::make_shared<std::vector<int>>(*labels_);
    const RowMatrixXd mu_rows = mu_;
    const double mu_norm2_max = mu_.rowwise().squaredNorm().maxCoeff();
    std::vector<double> dist(static_cast<size_t>(n_));
    for (int i = 0; i < n_; ++i)
      dist[static_cast<size_t>(i)] =
          sq_dist(x.data() + static_cast<size_t>(i) * d,
                  mu_rows.data() + static_cast<size_t>((*labels)[static_cast<size_t>(i)]) * d, d);
    std::vector<char> taken(static_cast<size_t>(n_), 0);
    for (int j : empties) {
      int p = -1;
      double best = 0.0;
      for (int i = 0; i < n_; ++i) {
        const double di = dist[static_cast<size_t>(i)];
        if (di > best && di > kTieRel * (prep_->norm2[i] + mu_norm2_max) &&
            !taken[static_cast<size_t>(i)] &&
            counts_[static_cast<size_t>((*labels)[static_cast<size_t>(i)])] >= 2) {
          best = di;
          p = i;
        }
      }
      if (p < 0) {
        notice += (notice.empty() ? "" : "; ") + std::string("cluster ") + std::to_string(j) +
                  " is empty and no point can be moved into it (all points coincide with their "
                  "centroids): its centroid stays put";
        continue;
      }
      const int o = (*labels)[static_cast<size_t>(p)];
      taken[static_cast<size_t>(p)] = 1;
      (*labels)[static_cast<size_t>(p)] = j;
      counts_[static_cast<size_t>(o)] -= 1;
      counts_[static_cast<size_t>(j)] = 1;
      sums_.row(o) -= x.row(p);
      sums_.row(j) = x.row(p);
      sq_sums_[o] -= prep_->norm2[p];
      sq_sums_[j] = prep_->norm2[p];
      mu_ref.row(j) = x.row(p);
      if (!upper_.empty()) {  // p changed cluster outside the assign: re-examine it
        upper_[static_cast<size_t>(p)] = kInf;
        lower_[static_cast<size_t>(p)] = 0.0;
      }
      removed += best;
      reseeded_.push_back(j);
      notice += (notice.empty() ? "" : "; ") + std::string("cluster ") + std::to_string(j) +
                " was empty: re-seeded at the farthest point (row " + std::to_string(p) + ")";
    }
    labels_ = std::move(labels);
  }

  double decrease = 0.0, shift = 0.0;
  bool moved = !reseeded_.empty();
  for (int j = 0; j < k; ++j) {
    const int nj = counts_[static_cast<size_t>(j)];
    if (nj > 0) mu_new.row(j) = sums_.row(j) / static_cast<double>(nj);
    decrease += nj * (mu_new.row(j) - mu_ref.row(j)).squaredNorm();
    shift += (mu_new.row(j) - mu_.row(j)).squaredNorm();
    if (!moved && !(mu_new.row(j).array() == mu_.row(j).array()).all()) moved = true;
  }
  mu_ = std::move(mu_new);
  objective_ = std::max(0.0, (objective_ - removed) - decrease);
  center_shift_ = shift;
  reseeded_count_ = static_cast<double>(reseeded_.size());
  phase_ = 0;
  ++iteration_;
  message_ = notice;
  if (!std::isfinite(objective_) || !mu_.allFinite()) {
    status_ = Status::Diverged;
    message_ = "a centroid or the objective became non-finite in the update half-step; rewind "
               "or move the centroid back";
  } else if (changed_ == 0.0 && !moved) {
    status_ = Status::Converged;
    message_ = "converged after " + std::to_string(iteration_) +
               " iterations: the assignment changed no point";
  } else if (iteration_ >= p_.max_iter) {
    status_ = Status::Stopped;
    message_ = "reached max_iter = " + std::to_string(p_.max_iter) + " before convergence (" +
               fmt_g(changed_) + " points changed cluster in the last iteration)";
  }
  invalidate();
}

double KMeans::objective_from_sums() const {
  // J(z, U) = sum_j [ Q_j - 2 mu_j . S_j + n_j ||mu_j||^2 ] (exact for any U).
  double j_total = 0.0;
  for (int j = 0; j < p_.k; ++j) {
    const int nj = counts_[static_cast<size_t>(j)];
    if (nj == 0) continue;
    j_total += sq_sums_[j] - 2.0 * mu_.row(j).dot(sums_.row(j)) + nj * mu_.row(j).squaredNorm();
  }
  return std::max(0.0, j_total);
}

// ---------------------------------------------------------------- edits

void KMeans::set_live(const std::string& name, double value) {
  param_table().set_live(p_, name, value, info().name);  // throws: unknown, rebuild or out of range
  if (!prep_) return;
  if (status_ == Status::Stopped && iteration_ < p_.max_iter) {
    status_ = Status::Running;
    message_.clear();
  } else if (status_ == Status::Running && phase_ == 0 && iteration_ >= p_.max_iter) {
    status_ = Status::Stopped;
    message_ = "reached max_iter = " + std::to_string(p_.max_iter) + " before convergence";
  }
  invalidate();
}

bool KMeans::apply(const Intent& intent) {
  if (!prep_) return false;
  const bool move = intent.kind == "move_centroid";
  const bool place = intent.kind == "place_centroid";
  if (!move && !place) return false;
  int j = intent.index;
  if (place) {
    if (p_.init != Init::Manual || iteration_ != 0 || phase_ != 0 || assigned_) return false;
    if (j < 0) {
      j = -1;
      for (int t = 0; t < p_.k; ++t)
        if (!placed_[static_cast<size_t>(t)]) {
          j = t;
          break;
        }
    }
  }
  if (j < 0 || j >= p_.k) return false;
  const int nv = static_cast<int>(intent.values.size());
  if (nv != d_ && !(nv == 2 && d_ > 2)) return false;
  for (double v : intent.values)
    if (!std::isfinite(v)) return false;
  for (int c = 0; c < nv; ++c)
    mu_(j, c) = intent.values[static_cast<size_t>(c)] - prep_->mean[c];
  if (place) placed_[static_cast<size_t>(j)] = 1;

  // The labels stay; the objective is J(z, U) for the edited centroids.
  objective_ = assigned_ ? objective_from_sums() : kNaN;
  phase_ = 0;
  if (status_ == Status::Converged || status_ == Status::Diverged ||
      (status_ == Status::Stopped && iteration_ < p_.max_iter)) {
    status_ = Status::Running;
  }
  message_ = (place ? "placed" : "moved") + std::string(" centroid ") + std::to_string(j);
  if (status_ == Status::Stopped) message_ += " (max_iter reached: raise it to continue)";
  invalidate();
  return true;
}

// ---------------------------------------------------------------- snapshot

size_t KMeansSeeding::byte_size() const {
  size_t b = sizeof(*this) + rows.size() * sizeof(int);
  for (const std::vector<double>& p : probs) b += sizeof(p) + p.size() * sizeof(double);
  return b;
}

size_t KMeansSnapshot::byte_size() const {
  size_t b = sizeof(*this) + metrics.size() * sizeof(double) + message.capacity() +
             static_cast<size_t>(centroids.size()) * sizeof(double) +
             (cluster_sizes.size() + reseeded.size()) * sizeof(int) + placed.size();
  if (labels) b += sizeof(*labels) + labels->size() * sizeof(int);
  if (seeding) b += seeding->byte_size();
  return b;
}

std::shared_ptr<const KMeansSnapshot> KMeans::kmeans_snapshot() const {
  if (cache_) return cache_;
  auto s = std::make_shared<KMeansSnapshot>();
  if (!prep_) {
    s->status = Status::Failed;
    s->message = "k-means: not reset yet (no dataset)";
    s->metrics.assign(4, kNaN);
    s->labels = std::make_shared<const std::vector<int>>();
    cache_ = s;
    return cache_;
  }
  s->iteration = iteration_;
  s->phase = phase_;
  s->status = status_;
  s->message = message_;
  s->metrics = metric_table().blank();
  s->metrics[kMetricObjective] = objective_;
  s->metrics[kMetricChanged] = changed_;
  s->metrics[kMetricCenterShift] = center_shift_;
  s->metrics[kMetricReseeded] = reseeded_count_;
  s->centroids = mu_.rowwise() + prep_->mean.transpose();
  s->labels = labels_;
  s->cluster_sizes = counts_;
  s->reseeded = reseeded_;
  s->placed = placed_;
  if (iteration_ == 0 && phase_ == 0 && !assigned_) s->seeding = seeding_;
  cache_ = s;
  return cache_;
}

std::shared_ptr<const Snapshot> KMeans::snapshot() const { return kmeans_snapshot(); }

}  // namespace cilab
