// Private to the k-means module (included by kmeans.cpp and kmeans_assign.cpp
// only; Eigen stays out of kmeans.h's includers): the constants, per-block
// statistics and inputs shared by the module and its assign kernel.
#pragma once

#include <Eigen/Core>

#include <limits>
#include <vector>

namespace cilab {
namespace kmeans_detail {

using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kLowDimMax = 4;          // d <= 4: direct differences, no GEMM
constexpr int kBlockRows = 2048;       // rows per work block (fixed: determinism)
// A point keeps its cluster unless another is closer by more than
// kTieRel * (||x_i||^2 + max_j ||mu_j||^2): differences below that are rounding.
constexpr double kTieRel = 1e-12;

inline int block_count(int n) { return (n + kBlockRows - 1) / kBlockRows; }

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
inline double sq_dist(const double* a, const double* b, int d) {
  const Eigen::Map<const Eigen::VectorXd> va(a, d), vb(b, d);
  return (va - vb).squaredNorm();
}

// The inputs of one assign pass (all pointers into the caller's buffers).
struct AssignInput {
  const double* x;      // n x d row-major, centred
  const double* norm2;  // n
  int n, d, k;
  const Eigen::MatrixXd* mu;  // k x d
  const int* old_labels;      // n (-1 = none)
  int* new_labels;            // n
  double mu_norm2_max;        // max_j ||mu_j||^2
};

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

// One assign pass over `blocks` fixed blocks of kBlockRows rows on up to
// `threads` threads (parallel_for_blocks): writes in.new_labels and stats[b]
// (initialised by the caller) for every block b; the caller reduces stats in
// block order. d <= kLowDimMax reads xcol (n x d column-major, SIMD lanes);
// larger d uses the Hamerly bounds bd and the blocked GEMM (mu_norm2 = row
// norms of *in.mu).
void assign_pass(const AssignInput& in, const double* xcol, const Eigen::VectorXd& mu_norm2,
                 const Bounds& bd, int blocks, int threads, std::vector<BlockStats>& stats);

}  // namespace kmeans_detail
}  // namespace cilab
