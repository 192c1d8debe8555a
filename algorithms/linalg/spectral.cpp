// Spectral maps on a singular-value vector: see spectral.h.
#include "algorithms/linalg/spectral.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cilab {

Eigen::VectorXd soft_threshold(const Eigen::VectorXd& sigma, double tau) {
  return (sigma.array() - tau).max(0.0).matrix();
}

Eigen::VectorXd hard_truncate(const Eigen::VectorXd& sigma, int k) {
  const Eigen::Index kk = std::clamp<Eigen::Index>(k, 0, sigma.size());
  Eigen::VectorXd out = sigma;
  out.tail(sigma.size() - kk).setZero();
  return out;
}

int rank_above(const Eigen::VectorXd& sigma, double tau) {
  return static_cast<int>((sigma.array() > tau).count());
}

double rank_tolerance(const Eigen::VectorXd& sigma, Eigen::Index m, Eigen::Index n) {
  if (sigma.size() == 0) return 0.0;
  return static_cast<double>(std::max(m, n)) * std::numeric_limits<double>::epsilon() * sigma.maxCoeff();
}

double nuclear_norm(const Eigen::VectorXd& sigma) { return sigma.sum(); }

double soft_threshold_error(const Eigen::VectorXd& sigma, double tau) {
  return std::sqrt(sigma.array().min(tau).square().sum());
}

double hard_truncation_error(const Eigen::VectorXd& sigma, int k) {
  double sum = 0.0;
  for (Eigen::Index i = sigma.size() - 1; i >= std::max(0, k); --i) sum += sigma[i] * sigma[i];
  return std::sqrt(sum);
}

Eigen::MatrixXd from_factors(const Eigen::MatrixXd& u, const Eigen::VectorXd& s, const Eigen::MatrixXd& v) {
  const Eigen::Index k = rank_above(s, 0.0);
  Eigen::MatrixXd out(u.rows(), v.rows());
  if (k == 0) {
    out.setZero();
  } else {
    out.noalias() = u.leftCols(k) * s.head(k).asDiagonal() * v.leftCols(k).transpose();
  }
  return out;
}

}  // namespace cilab
