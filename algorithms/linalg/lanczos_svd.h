// Truncated SVD of a matrix given as an operator, by Golub-Kahan-Lanczos
// bidiagonalisation with full reorthogonalisation (the method svd-lowrank uses
// for ||A - A_K||_2, here returning singular vectors too).
//
// The operator applies y = A x (m) and z = A^T y (n); matrix completion's
// iterates are "sparse + low rank" (Pi_Omega(...) + U S V^T), so a product
// costs O(|Omega| + (m + n) r), and the leading singular triplets cost a few
// dozen products instead of a dense O(m n min(m, n)) SVD.
//
// After j steps, A P_j = Q_j B_j and A^T Q_j = P_j B_j^T + beta_j p_{j+1} e_j^T,
// with B_j upper bidiagonal. With B_j = X diag(theta) Y^T, the Ritz triplets
// (theta_i, Q_j x_i, P_j y_i) have the residual ||A^T u_i - theta_i v_i|| =
// beta_j |X(j, i)| (and A v_i = theta_i u_i exactly); a triplet is converged when
// that residual is <= tol * theta_1. Ritz values grow monotonically towards the
// singular values (interlacing). The start vector is drawn from a seeded Rng:
// same seed, same result.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <functional>

namespace cilab {

struct LinearOperator {
  int rows = 0, cols = 0;
  std::function<void(const Eigen::VectorXd& x, Eigen::VectorXd& y)> apply;             // y = A x
  std::function<void(const Eigen::VectorXd& y, Eigen::VectorXd& x)> apply_transpose;  // x = A^T y
};

struct TruncatedSvd {
  Eigen::MatrixXd u;      // m x r, orthonormal columns
  Eigen::VectorXd sigma;  // r, descending
  Eigen::MatrixXd v;      // n x r
  Eigen::VectorXd ritz;   // every Ritz value of the last B_j (descending): the spectrum seen so far
  int steps = 0;          // Lanczos steps taken (2 products each)
  bool exact = false;     // the Krylov space became invariant (or j = min(m, n)): values are exact
};

struct LanczosOptions {
  int rank = 0;             // the leading `rank` triplets (0: use above)
  double above = -1;        // rank == 0: every triplet with sigma > above, plus the first one <= above
  double tol = 1e-10;       // residual tolerance relative to theta_1
  int max_steps = 0;        // 0: min(m, n)
  uint64_t seed = 1;        // the start vector's Rng seed
  const Eigen::MatrixXd* start = nullptr;  // optional n x c warm start: p_1 = normalised sum of its columns
};

// The leading singular triplets of `op`. rank mode: exactly min(rank, min(m, n))
// triplets (fewer if A has lower rank). above mode: every triplet with
// sigma > above (the returned ones; `ritz` also lists the first below).
TruncatedSvd lanczos_svd(const LinearOperator& op, const LanczosOptions& opts);

}  // namespace cilab
