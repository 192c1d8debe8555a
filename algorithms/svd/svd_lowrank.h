// Low-rank approximation by the truncated SVD: the Eckart-Young explorer.
//
// Input: an m x n matrix A (see the `input` parameter): the shipped photograph
// (512 x 512 gray, entries in [0, 1]), one image row of an image dataset
// (e.g. a Fashion-MNIST item, 28 x 28, reshaped row-major), or the whole data
// matrix of a non-image dataset (n samples x d features, used as is: no
// centring - that is PCA). r = min(m, n).
//
// The SVD (course chapter 3, notation as in the notes):
//   A = U Sigma V^T = sum_{i=1}^r sigma_i u_i v_i^T,  sigma_1 >= ... >= sigma_r >= 0,
//   U^T U = I (m x r),  V^T V = I (n x r),
// computed once at reset (Eigen's BDCSVD, divide and conquer, thin U and V;
// numpy's svd(full_matrices=False) / LAPACK gesdd compute the same). The
// rank-K approximation is the sum of the first K rank-one layers
//   A_K = sum_{i<=K} sigma_i u_i v_i^T,
// and by Eckart-Young it is a best rank-K approximation in both norms:
//   ||A - A_K||_F = sqrt(sum_{i>K} sigma_i^2),   ||A - A_K||_2 = sigma_{K+1}
// (sigma_{r+1} = 0). The module measures both errors from the residual
// R = A - A_K itself and reports them beside the Eckart-Young values:
//   ||R||_F  directly (sqrt of the sum of squared entries);
//   ||R||_2  by Golub-Kahan-Lanczos bidiagonalisation of R with full
//            reorthogonalisation from a seeded random start
//            (algorithms/linalg/lanczos_svd.h): the top Ritz value, converged
//            to a residual of 1e-13 sigma_max(R) (or exact when the Krylov
//            space is invariant, at the latest after r steps).
//            Independent of the factors U, V.
//
// Iterations: iteration K shows rank K. reset() gives K = k (parameter,
// default 0: A_0 = 0); each step adds the next layer sigma_{K+1} u_{K+1}
// v_{K+1}^T (A_{K+1} = A_K + layer). No sub-steps. At K = r the run is
// Converged (A_r = A up to rounding). The rank can also jump: the live
// parameter `k` or the intent "set_rank" (index = K) recompute A_K = U_K
// Sigma_K V_K^T directly.
//
// Result table (ModuleInfo::table_columns, `cilab run` output): one row per
// rank computed in this run, sorted by rank: rank, frobenius_error (measured),
// spectral_error (measured), sigma_next (sigma_{K+1}).
#pragma once

#include "algorithms/core/module_base.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// The input and its SVD, computed once at reset, shared by snapshots and clones.
struct SvdFactors {
  Eigen::MatrixXd a;      // m x n input matrix
  Eigen::MatrixXd u;      // m x r left singular vectors (orthonormal columns)
  Eigen::VectorXd sigma;  // r singular values, descending, >= 0
  Eigen::MatrixXd v;      // n x r right singular vectors (orthonormal columns)
  Eigen::VectorXd tail2;  // r + 1 entries: tail2[K] = sum_{i>K} sigma_i^2 (summed from the smallest)
  double frobenius = 0;   // ||A||_F, from the entries
  bool is_image = false;  // A is a picture (draw as gray image), else a data matrix (heatmap)
  std::string what;       // e.g. "Fashion-MNIST row 3 (Ankle boot), 28 x 28"
  std::vector<std::string> row_names, col_names;  // data matrices: sample/feature names (may be empty)

  int m() const { return static_cast<int>(a.rows()); }
  int n() const { return static_cast<int>(a.cols()); }
  int r() const { return static_cast<int>(sigma.size()); }
  // sigma_{K+1} (1-based), 0 when K >= r.
  double sigma_next(int k) const { return k < r() ? sigma[k] : 0.0; }
  // The Eckart-Young Frobenius error sqrt(sum_{i>K} sigma_i^2).
  double eckart_young_frobenius(int k) const;
  size_t byte_size() const;
};

// Which matrix a matrix module (svd-lowrank, shrinkage) decomposes: the
// shipped photograph, or the run's dataset (an image row chosen by `index` for
// image data, else the whole n x d matrix).
enum class MatrixInput { Photo = 0, Dataset = 1 };

// The `input` parameter's help, one text per MatrixInput option (both modules' tables).
const std::vector<std::string>& matrix_input_help();

// The input matrix A (a, is_image, what, col_names filled; no SVD yet).
// Throws std::invalid_argument prefixed with `module` ("svd-lowrank: ...")
// or naming 'index': no or empty dataset, index out of range, a non-finite
// entry (by row and column), a matrix too large for a dense SVD
// (m n min(m, n) > max_cost).
std::shared_ptr<SvdFactors> input_matrix(const std::shared_ptr<const Dataset>& data, MatrixInput input, int index,
                                         const std::string& module, double max_cost);

// Fills f's SVD (u, sigma, v: Eigen's BDCSVD, thin), tail2 and frobenius from f.a.
// Throws std::invalid_argument (prefixed with `module`) if the SVD fails.
void compute_svd(SvdFactors& f, const std::string& module);

// The state at rank K.
struct SvdSnapshot : Snapshot {
  std::shared_ptr<const SvdFactors> svd;          // shared, never copied
  int rank = 0;                                   // K
  std::shared_ptr<const Eigen::MatrixXf> approx;  // A_K (m x n), float for the views

  size_t byte_size() const override;
};

// svd-lowrank module. Parameters:
//   input  photo | dataset: the shipped photograph, or the run's dataset (an
//          image row chosen by `index` for image data, else the whole n x d
//          matrix), rebuild;
//   index  image row of an image dataset, 0..n-1, rebuild;
//   k      rank K at reset (0..r), live: changing it jumps to A_K.
// Intents: "set_rank" (index = K in [0, r]) jumps to rank K.
// No randomness except the Lanczos start vectors (seeded by `seed` and K).
class SvdLowRank : public ModuleBase<SvdLowRank> {
 public:
  using Input = MatrixInput;

  struct Params {
    Input input = Input::Photo;
    int index = 0;
    int k = 0;
  };

  const ModuleInfo& info() const override;

  // Builds A from the input, validates (std::invalid_argument: no or empty
  // dataset, index out of range, non-finite entries, matrix too large for a
  // dense SVD, k > r), computes the SVD and A_k.
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  // Adds the next rank-one layer (K -> K + 1); Converged at K = r.
  void step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  // Only k is live (jump to rank k).
  void set_live(const std::string& name, double value) override;
  // "set_rank": index = K.
  bool apply(const Intent& intent) override;

  std::shared_ptr<const SvdSnapshot> svd_snapshot() const;
  // A_K in double precision (the snapshot holds a float copy for the views).
  const Eigen::MatrixXd& approximation() const;
  static Params params_from(const ParamValues& values);

  // Largest m * n * min(m, n) accepted (dense SVD cost; 512^3 takes ~0.3 s).
  static constexpr double kMaxCost = 2.5e9;

  // ||M||_2 of a dense matrix by Golub-Kahan-Lanczos (see above); exact after
  // min(m, n) steps. Public for tests.
  static double spectral_norm(const Eigen::Ref<const Eigen::MatrixXd>& m, uint64_t seed);

  // Metric indices.
  enum Metric : int {
    kMetricRank, kMetricFrobenius, kMetricFrobeniusEY, kMetricSpectral, kMetricSigmaNext, kMetricRelative,
    kNumMetrics
  };

 private:
  struct State;  // every member (svd_lowrank.cpp)
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(SvdLowRank)

}  // namespace cilab
