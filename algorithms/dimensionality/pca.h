// Principal component analysis (PCA) by eigendecomposition of the covariance.
//
// Data X is n x d (samples in rows). Preprocessing is explicit, never silent:
//   x'_i = (x_i - m) / s      (element-wise)
// with m = the sample mean mu = (1/n) sum_i x_i when `center` is on (else m = 0),
// and s_j = the standard deviation of feature j (1/n normalisation, like
// scikit-learn's StandardScaler) when `standardize` is on (else s_j = 1;
// features with s_j = 0 keep s_j = 1, as StandardScaler does, and the snapshot
// message counts them). The matrix PCA diagonalises is
//   C = (1/n) sum_i x'_i x'_i^T = Q Lambda Q^T,   lambda_1 >= ... >= lambda_d >= 0,
// the covariance (the correlation matrix when standardising; the second-moment
// matrix E[x x^T] when not centring). The course normalises by 1/N, so
// eigenvalues are scikit-learn's explained_variance_ times (n - 1) / n; the
// explained ratios lambda_i / tr(C) are identical.
//
// Outputs (course notation, section 2.2): the top K = `components` eigenvectors
// U_K = [u_1 .. u_K] (stored as K x d rows, scikit-learn's components_; sign
// fixed so the largest-|.| entry of each u_k is positive, ties -> lowest
// index), all min(n, d) eigenvalues, scores z_i = U_K^T x'_i, the explained
// ratios lambda_i / tr C and the measured mean reconstruction error for every
// K' = 0..K:
//   e(K') = (1/n) sum_i || x'_i - U_K' U_K'^T x'_i ||^2
//         = (1/n) sum_i ||x'_i||^2 - sum_{k <= K'} (1/n) sum_i z_ik^2
// (Pythagoras, U orthonormal), measured from the data and the scores; the
// Eckart-Young identity says e(K') = sum_{i > K'} lambda_i.
//
// The 1-D view (section 2.1, fitting a line m + R u): for any unit u the
// captured variance is u^T C u = (1/n) sum_i <u, x'_i>^2 and the mean squared
// residual (distance of x'_i to the line) is tr C - u^T C u; their sum is the
// total variance tr C for every u, and u^T C u is maximal at u = u_1.
//
// Method: d <= n: C from a blocked rank update in double (fixed row
// partitions, up to 4 threads, reduced in partition order: bit-identical
// whatever the thread count), then Eigen's SelfAdjointEigenSolver (d x d).
// d > n: the Gram matrix G = (1/n) X' X'^T (n x n) has the same non-zero
// eigenvalues, and u_k = X'^T v_k / sqrt(n lambda_k). Cost O(n d min(n, d)
// + min(n, d)^3). The preprocessed data are never stored: every pass reads the
// dataset in row blocks.
#pragma once

#include "algorithms/core/module_base.h"

#include <Eigen/Core>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// The state after reset (iteration 0) or after the fit (iteration 1).
struct PcaSnapshot : Snapshot {
  int n = 0, d = 0;
  bool fitted = false;       // iteration 1 done: eigen-decomposition available
  bool centered = true;      // m = mean (else m = 0)
  bool standardized = false; // s = std (else s = 1)
  bool manual = false;       // mode = manual: the fit leaves u where the user put it
  int zero_std_features = 0; // standardising: features with s_j = 0 (left unscaled)

  Eigen::VectorXd mean;    // d: the data mean mu (always computed)
  Eigen::VectorXd offset;  // d: m, the vector subtracted (mu or 0)
  Eigen::VectorXd scale;   // d: s, the divisor (std or 1)
  double total_variance = 0.0;  // tr C = (1/n) sum_i ||x'_i||^2

  // d x d matrix C, kept only when d <= PCA::kKeepCovarianceMaxDim (the 2-D /
  // 3-D line-fit view evaluates u^T C u from it); null otherwise.
  std::shared_ptr<const Eigen::MatrixXd> covariance;

  // After the fit (empty/null before):
  Eigen::VectorXd eigenvalues;                     // all min(n, d), descending, >= 0
  std::shared_ptr<const Eigen::MatrixXd> components;  // K x d, rows u_k (orthonormal)
  // n x min(K, PCA::kMaxHeldScores) scores z_ik as float (60 000 x 50 -> 12 MB).
  std::shared_ptr<const Eigen::MatrixXf> scores;
  Eigen::VectorXd recon_error;  // K + 1 entries: measured e(K') for K' = 0..K

  // The candidate direction of the line fit (unit, d) and its two numbers.
  Eigen::VectorXd direction;
  double captured = 0.0;  // u^T C u
  double residual = 0.0;  // tr C - u^T C u

  int k() const { return components ? static_cast<int>(components->rows()) : 0; }
  // sum_{i > K'} lambda_i (Eckart-Young), from the eigenvalues; NaN before the fit.
  double dropped_sum(int k_prime) const;
  // sum_{i <= K'} lambda_i / tr C, from all eigenvalues (any K' up to min(n, d), not only the
  // computed K or the ones a plot shows); NaN before the fit.
  double cumulative_ratio(int k_prime) const;
  size_t byte_size() const override;
};

// Scores of `rows` (r x d, raw feature space) on the first k components:
// z = U_k^T ((x - m) / s). r x k. Requires a fitted snapshot, k <= snap.k().
Eigen::MatrixXd pca_transform(const PcaSnapshot& snap, const Eigen::Ref<const Eigen::MatrixXd>& rows,
                              int k);
// Reconstruction in raw feature space from scores (r x k): x~ = m + s * (U_k z).
Eigen::MatrixXd pca_inverse_transform(const PcaSnapshot& snap,
                                      const Eigen::Ref<const Eigen::MatrixXd>& scores);
// u^T C u for a covariance C and a direction u (normalised here; u != 0).
double pca_captured_variance(const Eigen::Ref<const Eigen::MatrixXd>& cov,
                             const Eigen::Ref<const Eigen::VectorXd>& u);
// The unit direction at `angle_deg` (azimuth in the x0-x1 plane) and
// `elevation_deg` (towards x2) in d dimensions: (cos e cos a, cos e sin a,
// sin e, 0, ...); d = 1 gives (1); d = 2 ignores the elevation.
Eigen::VectorXd pca_direction_from_angles(int d, double angle_deg, double elevation_deg);
// Inverse of the above for d >= 2 (u and -u are the same line): angle in
// [0, 180), elevation in [-90, 90].
void pca_angles_from_direction(const Eigen::Ref<const Eigen::VectorXd>& u, double* angle_deg,
                               double* elevation_deg);

// PCA module. Parameters (scikit-learn names in brackets where they exist):
//   components  [n_components] 0 = all min(n, d) (scikit-learn's None), else
//               1..min(n, d); rebuild;
//   center      centre the data (x - mu) before the eigen-decomposition;
//               default true (scikit-learn always centres); rebuild;
//   standardize divide each feature by its standard deviation
//               (StandardScaler's with_std); default false; rebuild;
//   mode        fit | manual: fit snaps the line direction u to u_1 when the
//               fit completes; manual leaves u where the user drags it; live,
//               and applies at once (switching to manual puts u at angle /
//               elevation, switching to fit after the fit snaps u to u_1);
//   angle, elevation  the direction u in degrees (manual line fit; elevation
//               only for d >= 3); live. The view keeps them in sync with a
//               dragged u (it sends them as parameter changes).
// Steps: iteration 0 = preprocessing statistics (mean, std, and C when
// d <= kKeepCovarianceMaxDim so that the manual mode works before the fit);
// step 1 = the fit (covariance, eigen-decomposition, scores, errors), then
// Converged. One step is the whole fit, so the CLI default is 1 step.
// Intents (apply()):
//   "set_direction"  values = u (size d, non-zero, finite; normalised here);
//   "solve"          u = u_1, the top eigenvector of C (computed directly when
//                    the fit has not run yet and C is kept).
// Neither changes the iteration; they update captured / residual.
class PCA : public ModuleBase<PCA> {
 public:
  enum class Mode { Fit = 0, Manual = 1 };

  struct Params {
    int components = 0;
    bool center = true;
    bool standardize = false;
    Mode mode = Mode::Fit;
    double angle = 30.0;
    double elevation = 20.0;
  };

  // d above which C is not kept in snapshots (the view does not need it).
  static constexpr int kKeepCovarianceMaxDim = 64;
  // Score columns held in snapshots (the first ones).
  static constexpr int kMaxHeldScores = 64;
  // min(n, d) above which the fit is refused (memory and time of C / G).
  static constexpr int kMaxEigenDim = 4096;

  // Metric slots in info().metrics / Snapshot::metrics (rows of the metric table in pca.cpp).
  enum Metric : int {
    kMetricTotal, kMetricCaptured, kMetricResidual, kMetricExplained, kMetricReconError, kNumMetrics
  };

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values,
             uint64_t seed) override;
  void step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;
  bool apply(const Intent& intent) override;

  std::shared_ptr<const PcaSnapshot> pca_snapshot() const;
  static Params params_from(const ParamValues& values);

 private:
  struct State;  // every member (pca.cpp)
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(PCA)

}  // namespace cilab
