// Soft versus hard thresholding of the singular values: the shrinkage explorer
// (course 4.6; the shrink operator of 4.5's singular value thresholding).
//
// Input: an m x n matrix A, chosen as in svd-lowrank (the `input` parameter:
// the shipped photograph, an image row of an image dataset, or the whole data
// matrix), with its SVD A = U diag(sigma) V^T computed once at reset
// (svd_lowrank.h: input_matrix + compute_svd, Eigen's BDCSVD). r = min(m, n).
//
// Two spectral maps (algorithms/linalg/spectral.h) are applied side by side:
//   soft   S_tau(A) = U diag((sigma_i - tau)_+) V^T
//          = argmin_B 1/2 ||A - B||_F^2 + tau ||B||_*   (the prox of tau ||.||_*;
//          every kept singular value is shrunk by tau, the small ones vanish);
//          rank = #{sigma_i > tau}, ||S_tau(A)||_* = sum_i (sigma_i - tau)_+,
//          ||A - S_tau(A)||_F = sqrt(sum_i min(sigma_i, tau)^2);
//   hard   [A]_k = U_k Sigma_k V_k^T (keep the first k, unchanged; drop the rest)
//          = argmin_{rank B <= k} ||A - B||_F   (Eckart-Young):
//          ||A - [A]_k||_F = sqrt(sum_{i>k} sigma_i^2), ||[A]_k||_* = sum_{i<=k} sigma_i.
// Ranks count singular values above numpy's matrix_rank tolerance
// max(m, n) eps sigma_1 (rank_tolerance), so rounding-level sigma_i are not rank.
// The errors are measured from the entries of the reconstructions and shown
// beside their closed forms; the prox objective 1/2 ||A - B||_F^2 + tau ||B||_*
// is reported for both B = S_tau(A) (its minimiser) and B = [A]_k.
//
// Not iterative (ModuleInfo::iterative = false): reset computes everything and
// the run is Converged at iteration 0; tau and k are live and recompute their
// reconstruction only. Result table (`cilab run shrinkage`): rows "soft" and
// "hard" with operator, tau_or_k, rank, nuclear_norm, frobenius_error,
// predicted_error (the closed form), relative_error (/ ||A||_F) and objective.
// No randomness.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/svd/svd_lowrank.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cilab {

// Both reconstructions of A at (tau, k).
struct ShrinkageSnapshot : Snapshot {
  std::shared_ptr<const SvdFactors> svd;        // A and its SVD, shared by every snapshot of the run
  double tau = 0.0;                             // soft threshold
  int k = 0;                                    // hard truncation rank
  std::shared_ptr<const Eigen::MatrixXf> soft;  // S_tau(A), m x n, float for the views
  std::shared_ptr<const Eigen::MatrixXf> hard;  // [A]_k, m x n, float for the views

  size_t byte_size() const override;
};

// shrinkage module. Parameters:
//   input  photo | dataset (as svd-lowrank), rebuild;
//   index  image row of an image dataset, rebuild;
//   tau    soft threshold (same units as the singular values), live;
//   k      hard truncation rank, 0..r, live.
// No intents: the view changes tau and k through SetParam.
class Shrinkage : public ModuleBase<Shrinkage> {
 public:
  struct Params {
    MatrixInput input = MatrixInput::Photo;
    int index = 0;
    double tau = 5.0;  // the photo (sigma_1 ~ 278): S_tau keeps rank 27, as [A]_k below
    int k = 27;
  };

  const ModuleInfo& info() const override;

  // Builds A (svd-lowrank's input rules and errors), validates k <= r,
  // computes the SVD and both reconstructions; Converged.
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  // Nothing to do: the result is complete after reset.
  void step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  // tau (recomputes S_tau(A)) and k (recomputes [A]_k; k <= r) are live.
  void set_live(const std::string& name, double value) override;
  // A clone's own memory: both reconstructions in double and float (the factors are shared).
  size_t state_bytes() const override;

  std::shared_ptr<const ShrinkageSnapshot> shrinkage_snapshot() const;
  // The reconstructions in double precision (the snapshot holds float copies).
  const Eigen::MatrixXd& soft() const;
  const Eigen::MatrixXd& hard() const;
  static Params params_from(const ParamValues& values);

  // Metric indices.
  enum Metric : int {
    kMetricSigma1,         // sigma_1 = ||A||_2
    kMetricNuclear,        // ||A||_*
    kMetricSoftRank,       // #{sigma_i > tau}
    kMetricSoftNuclear,    // sum (sigma_i - tau)_+
    kMetricSoftError,      // ||A - S_tau(A)||_F measured
    kMetricSoftPredicted,  // sqrt(sum min(sigma_i, tau)^2)
    kMetricSoftObjective,  // 1/2 ||A - S||_F^2 + tau ||S||_*
    kMetricHardRank,       // rank [A]_k = min(k, rank A)
    kMetricHardNuclear,    // sum_{i<=k} sigma_i
    kMetricHardError,      // ||A - [A]_k||_F measured
    kMetricHardPredicted,  // sqrt(sum_{i>k} sigma_i^2)
    kMetricHardObjective,  // 1/2 ||A - [A]_k||_F^2 + tau ||[A]_k||_*
    kNumMetrics
  };

 private:
  struct State;  // every member (shrinkage.cpp)
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Shrinkage)

}  // namespace cilab
