// Spectral maps: functions of a matrix that act on its singular values only
// (course chapter 4.5-4.6). Given the SVD A = U diag(sigma) V^T, sigma
// descending and >= 0, r = min(m, n):
//
//   soft thresholding  S_tau(A) = U diag((sigma_i - tau)_+) V^T,
//       the proximal operator of tau ||.||_*:
//       S_tau(A) = argmin_B  1/2 ||A - B||_F^2 + tau ||B||_*
//       (Cai, Candes and Shen 2010, Theorem 2.1: the shrink step of SVT);
//   hard truncation    [A]_k = U diag(sigma_1..sigma_k, 0, ..) V^T = U_k Sigma_k V_k^T,
//       the best rank-k approximation (Eckart-Young):
//       ||A - [A]_k||_F = sqrt(sum_{i>k} sigma_i^2).
//
// These functions map the vector sigma and rebuild the matrix from the
// factors; the SVD itself is computed once by the caller (svd_lowrank.h's
// SvdFactors, or Eigen's BDCSVD). Used by the `shrinkage` module and by the
// `completion` module's SVT and SVP steps.
#pragma once

#include <Eigen/Core>

namespace cilab {

// (sigma_i - tau)_+ entry by entry (tau >= 0; sigma's order is kept).
Eigen::VectorXd soft_threshold(const Eigen::VectorXd& sigma, double tau);

// sigma with every entry after the first k set to 0 (k clamped to [0, size]).
Eigen::VectorXd hard_truncate(const Eigen::VectorXd& sigma, int k);

// #{i : sigma_i > tau}: the rank of S_tau(A) when tau is at least the
// numerical tolerance (rank_tolerance), for sigma in any order.
int rank_above(const Eigen::VectorXd& sigma, double tau);

// numpy.linalg.matrix_rank's tolerance max(m, n) * eps * max_i sigma_i:
// singular values at or below it are rounding, not rank.
double rank_tolerance(const Eigen::VectorXd& sigma, Eigen::Index m, Eigen::Index n);

// The nuclear norm sum_i sigma_i of a matrix with singular values sigma.
double nuclear_norm(const Eigen::VectorXd& sigma);

// ||A - S_tau(A)||_F = sqrt(sum_i min(sigma_i, tau)^2), from the spectrum.
double soft_threshold_error(const Eigen::VectorXd& sigma, double tau);

// ||A - [A]_k||_F = sqrt(sum_{i>k} sigma_i^2) (Eckart-Young; sigma descending),
// summed from the smallest.
double hard_truncation_error(const Eigen::VectorXd& sigma, int k);

// U diag(s) V^T from the columns i < rank_above(s, 0) only (s descending,
// as soft_threshold and hard_truncate of a descending sigma give):
// m x n with U m x r, s r, V n x r. Zero when every s_i is 0.
Eigen::MatrixXd from_factors(const Eigen::MatrixXd& u, const Eigen::VectorXd& s, const Eigen::MatrixXd& v);

}  // namespace cilab
