// Matrix completion (course chapter 4): fill in a partially observed matrix X
// (ratings, a photo with holes) from the entries in Omega, by one of four
// methods chosen with `method`, on the same data and the same held-out split.
//
// Data: a Dataset with `observed` set (algorithms/data/ratings.h: synthetic
// ratings, photo-holes, a ratings file read as triplets). A complete dataset
// (a picture, a table) is used too: `missing` of its entries are hidden first
// (`holes` random or in 8 x 8 blocks, seeded by the run's seed). The observed
// entries are split into training (Omega) and held-out entries (`test_fraction`,
// a seeded shuffle, scikit-learn's test_size). Masked normalisation (course
// 4.1) from the training entries: mu_j = sum_i w_ij x_ij / max(1, sum_i w_ij)
// per column (`normalize=columns`, the default: per item works better), per row,
// both (columns, then rows of the remainder) or none (X itself);
// `scale` also divides by the standard deviation on that axis. Every method
// works on Z = (X - mu) / s and every RMSE is measured back in X's units.
//
// Methods (one iteration each):
//   svd_impute  singular value projection A <- [A + eta Pi_Omega(Z - A)]_k from
//               A = 0 (the mean-filled matrix); eta = 1 is iterative SVD
//               imputation (hard-impute), and its first step is classic
//               one-shot SVD imputation. For eta <= 1 the observed loss
//               1/2 ||Pi_Omega(Z - A)||^2 never rises.
//   als         alternating least squares on
//               l(U, V) = 1/2 ||Pi_Omega(Z - U V^T)||^2 + lambda/2 (||U||^2 + ||V||^2):
//               sub-step 1 solves v_j = (sum_i w_ij u_i u_i^T + lambda I)^-1 sum_i w_ij z_ij u_i
//               for every item (the V-sweep), sub-step 2 the same for every user;
//               l never rises after a half-step.
//   sgd         one epoch of mini-batch SGD on the same l, written as a sum over
//               Omega of f_ij = 1/2 (z_ij - <u_i, v_j>)^2 + lambda/2 (||u_i||^2 / |Omega_i| +
//               ||v_j||^2 / |Omega_j|) (its sum over Omega is exactly l), each batch's
//               mean gradient (PyTorch's reduction='mean') stepped by the shared
//               optimizers (algorithms/optim: SGD, momentum, Adam, ...; torch.optim).
//   svt         Cai-Candes-Shen singular value thresholding: B_t = shrink_tau(Y_{t-1}),
//               Y_t = Y_{t-1} + delta Pi_Omega(Z - B_t), with
//               shrink_tau(Y) = U diag((sigma_i - tau)_+) V^T; Y is supported on Omega
//               at every step (stored as its entries there); it solves
//               min tau ||B||_* + 1/2 ||B||_F^2 s.t. Pi_Omega(B) = Pi_Omega(Z). Y_0 is
//               CCS's kick start k0 delta Pi_Omega(Z), k0 = ceil(tau / (delta ||Pi_Omega(Z)||_2)).
//               tau = 0 / delta = 0 choose CCS's defaults tau = 5 sqrt(m n) s_Z and
//               delta = 1.2 m n / |Omega| (s_Z: RMS of the normalised training entries).
// Singular vectors come from a truncated SVD of the "sparse + low rank"
// iterate (algorithms/linalg/lanczos_svd.h, the GKL bidiagonalisation of
// svd-lowrank), never from a dense SVD.
//
// Metrics per iteration: train_rmse and test_rmse (X's units), objective (the
// method's: svd_impute 1/2 ||Pi_Omega(Z - A)||^2, als/sgd l(U, V), svt
// tau ||B||_* + 1/2 ||B||_F^2), rank and nuclear_norm of the estimate A (in Z's
// units), change = ||A_t - A_{t-1}||_F; for the window also half_objective (ALS:
// l after the V-sweep) and observed_loss (1/2 ||Pi_Omega(Z - A)||^2, every method).
// Converged when change <= tol ||A_t||_F; Stopped at max_iter; Diverged when a
// value is not finite.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/optim/schedule.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct ObservedMatrix;

// The problem every snapshot of a run shares (built at reset, never changed).
struct CompletionProblem {
  std::shared_ptr<const ObservedMatrix> data;  // m x n, Omega, the truth when known
  std::string what;                            // "ratings: 943 x 1682, 100000 observed"
  int m = 0, n = 0;
  // Training entries (sorted by row, then column) and held-out entries.
  std::vector<int> train_row, train_col, test_row, test_col;
  std::vector<double> train_value, test_value;  // in X's units
  std::vector<double> train_z;                  // normalised training values
  // Normalisation: x_hat_ij = offset_ij + s_ij * a_ij.
  Eigen::VectorXd row_mean, col_mean;  // m, n (zeros when unused)
  Eigen::VectorXd row_scale, col_scale;  // m, n (ones when unused)
  // Column access to the training entries: entries of column j are
  // by_col[col_start[j] .. col_start[j+1]) (indices into train_*).
  std::vector<int> col_start, by_col, row_start;

  double offset(int i, int j) const { return row_mean[i] + col_mean[j]; }
  double scale(int i, int j) const { return row_scale[i] * col_scale[j]; }
  size_t byte_size() const;
};

// The estimate A = user_factors item_factors^T in Z's units (m x r and n x r:
// ALS/SGD's U and V; for svd_impute and svt the thin SVD's U diag(sqrt s) and
// V diag(sqrt s)) and its singular values s (descending). Only the factors
// are kept: a snapshot costs (m + n) r values, never m x n.
struct CompletionEstimate {
  Eigen::VectorXd s;
  Eigen::MatrixXd user_factors, item_factors;
  size_t byte_size() const;
};

struct CompletionSnapshot : Snapshot {
  std::shared_ptr<const CompletionProblem> problem;
  std::shared_ptr<const CompletionEstimate> estimate;
  int method = 0;  // Completion::Method
  int k = 0;
  double tau = 0, delta = 0, eta = 0;  // in use (svt, svd_impute)
  // The spectrum the step truncated or thresholded: singular values of
  // A + eta Pi(Z - A) (svd_impute) or of Y (svt), as many as computed (every one
  // above the k-th / tau, and the next); empty for als/sgd.
  std::vector<double> spectrum_before;
  // svt: the support of Y is Omega (stored as |Omega| values, one per training entry).
  size_t y_support = 0;

  // The estimate in X's units at (i, j).
  double predict(int i, int j) const;
  // The whole estimate in X's units, m x n, row-major floats (for pictures).
  std::vector<float> dense_estimate() const;
  size_t byte_size() const override;
};

class Completion : public ModuleBase<Completion> {
 public:
  enum class Method : int { SvdImpute, Als, Sgd, Svt };
  enum class Normalize : int { None, Rows, Columns, Both };
  enum class Init : int { Random, Svd };
  enum class Holes : int { Random, Blocks };

  // Defaults live here (member initialisers); the ParamTable in the .cpp reads them.
  struct Params {
    Method method = Method::Als;
    int k = 10;
    double lambda = 0.1;
    Normalize normalize = Normalize::Columns;
    bool scale = false;
    Init init = Init::Random;
    double init_scale = 0.1;
    double eta = 1.0;
    double tau = 0.0;    // 0: CCS's 5 sqrt(m n) s_Z
    double delta = 0.0;  // 0: CCS's 1.2 m n / |Omega|
    int batch_size = 256;
    OptimizerConfig optim = sgd_defaults();
    double test_fraction = 0.1;
    double missing = 0.7;
    Holes holes = Holes::Random;
    int max_iter = 200;
    double tol = 1e-6;

    static OptimizerConfig sgd_defaults();  // Adam, lr 0.01
  };

  enum Metric : int {
    kMetricTrainRmse,
    kMetricTestRmse,
    kMetricObjective,
    kMetricRank,
    kMetricNuclearNorm,
    kMetricChange,
    kMetricHalfObjective,
    kMetricObservedLoss,
    kNumMetrics
  };

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& params, uint64_t seed) override;
  void step() override;
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;
  size_t state_bytes() const override;

  std::shared_ptr<const CompletionSnapshot> completion_snapshot() const;
  static Params params_from(const ParamValues& values);

  // For tests: the current factors (ALS/SGD; empty otherwise) and Y's values on
  // the training entries (SVT; empty otherwise).
  const Eigen::MatrixXd& user_factors() const;
  const Eigen::MatrixXd& item_factors() const;
  const std::vector<double>& svt_y() const;
  // l(U, V) of the current factors (ALS/SGD) and the gradient of l with respect
  // to U's row i (ALS's row-update oracle).
  double factor_objective() const;
  Eigen::VectorXd user_gradient(int i) const;
  Eigen::VectorXd item_gradient(int j) const;

 private:
  struct State;
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Completion)

}  // namespace cilab
