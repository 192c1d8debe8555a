// Golub-Kahan-Lanczos bidiagonalisation with full reorthogonalisation.
#include "algorithms/linalg/lanczos_svd.h"

#include "algorithms/core/rng.h"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>

namespace cilab {

namespace {

// Gram-Schmidt of x against the first k columns of basis, twice (full reorthogonalisation).
void reorthogonalise(Eigen::VectorXd& x, const Eigen::MatrixXd& basis, int k) {
  if (k == 0) return;
  for (int pass = 0; pass < 2; ++pass) {
    const Eigen::VectorXd c = basis.leftCols(k).transpose() * x;
    x.noalias() -= basis.leftCols(k) * c;
  }
}

void grow(Eigen::MatrixXd& basis, int need) {
  if (basis.cols() >= need) return;
  basis.conservativeResize(Eigen::NoChange, std::max<Eigen::Index>(need, 2 * basis.cols()));
}

}  // namespace

TruncatedSvd lanczos_svd(const LinearOperator& op, const LanczosOptions& opts) {
  TruncatedSvd out;
  const int m = op.rows, n = op.cols;
  const int kmax = std::min(m, n);
  out.u.resize(m, 0);
  out.v.resize(n, 0);
  if (kmax == 0) return out;
  const bool rank_mode = opts.rank > 0;
  const int want = rank_mode ? std::min(opts.rank, kmax) : 0;
  const int max_steps = opts.max_steps > 0 ? std::min(opts.max_steps, kmax) : kmax;
  const int cap0 = std::min(kmax, std::max(2 * want + 16, 32));
  Eigen::MatrixXd p(n, cap0), q(m, cap0);
  std::vector<double> alpha, beta;

  Rng rng(opts.seed);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = rng.normal();
  x /= x.norm();
  if (opts.start && opts.start->rows() == n && opts.start->cols() > 0) {
    Eigen::VectorXd w = opts.start->rowwise().sum();
    if (w.norm() > 0) x = w / w.norm() + 1e-3 * x;
    x /= x.norm();
  }
  p.col(0) = x;

  Eigen::VectorXd y(m), z(n);
  double norm_est = 0.0;
  Eigen::MatrixXd b;
  Eigen::BDCSVD<Eigen::MatrixXd> small;
  int k = 0, last_check = 0;
  for (int j = 0; j < max_steps; ++j) {
    op.apply(p.col(j), y);
    if (j > 0) y -= beta[static_cast<size_t>(j - 1)] * q.col(j - 1);
    reorthogonalise(y, q, j);
    const double a = y.norm();
    norm_est = std::max(norm_est, a);
    const bool a_break = !(a > 1e-13 * norm_est) || norm_est == 0.0;
    grow(q, j + 1);
    if (a_break) {
      q.col(j).setZero();
      alpha.push_back(0.0);
    } else {
      q.col(j) = y / a;
      alpha.push_back(a);
    }
    k = j + 1;
    double bnext = 0.0;
    if (!a_break) {
      op.apply_transpose(q.col(j), z);
      z -= a * p.col(j);
      reorthogonalise(z, p, j + 1);
      bnext = z.norm();
      norm_est = std::max(norm_est, bnext);
      if (!(bnext > 1e-13 * norm_est)) bnext = 0.0;
    }
    const bool invariant = a_break || bnext == 0.0 || k == kmax;
    const bool last = invariant || k == max_steps;
    // Check convergence once enough Ritz values exist; the check's small SVD
    // costs O(k^3), so past 16 steps it runs only every k/8-th step.
    const bool check_due = k <= 16 || k - last_check >= k / 8;
    if (last || ((rank_mode ? k >= want : k >= 2) && check_due)) {
      last_check = k;
      b.setZero(k, k);
      for (int i = 0; i < k; ++i) {
        b(i, i) = alpha[static_cast<size_t>(i)];
        if (i + 1 < k) b(i, i + 1) = beta[static_cast<size_t>(i)];
      }
      small.compute(b, Eigen::ComputeFullU | Eigen::ComputeFullV);
      const Eigen::VectorXd& theta = small.singularValues();
      const double top = theta.size() ? theta[0] : 0.0;
      auto converged = [&](int i) { return bnext * std::abs(small.matrixU()(k - 1, i)) <= opts.tol * top; };
      int keep = 0;
      bool done = last;
      if (rank_mode) {
        keep = std::min(want, k);
        bool ok = k >= want;
        for (int i = 0; i < keep && ok; ++i) ok = converged(i);
        done = done || ok;
      } else {
        int c = 0;
        while (c < k && theta[c] > opts.above) ++c;
        keep = c;
        bool ok = c < k;  // the first value at or below `above` has been seen...
        for (int i = 0; i <= c && i < k && ok; ++i) ok = converged(i);  // ...and it and all above converged
        done = done || ok;
      }
      if (done) {
        // Drop exact zeros (a matrix of lower rank than asked).
        while (keep > 0 && !(theta[keep - 1] > 1e-14 * std::max(top, 1e-300))) --keep;
        out.sigma = theta.head(keep);
        out.u.noalias() = q.leftCols(k) * small.matrixU().leftCols(keep);
        out.v.noalias() = p.leftCols(k) * small.matrixV().leftCols(keep);
        out.ritz = theta;
        out.steps = k;
        out.exact = invariant;
        return out;
      }
    }
    beta.push_back(bnext);
    grow(p, j + 2);
    p.col(j + 1) = z / bnext;
  }
  return out;  // not reached: the loop returns at its last step
}

}  // namespace cilab
