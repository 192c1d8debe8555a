#include "algorithms/linalg/projection.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <stdexcept>

namespace cilab {

Projection2d principal_axes_2d(const Eigen::Ref<const Eigen::MatrixXd>& x, int max_rows) {
  const Eigen::Index n = x.rows(), d = x.cols();
  if (n < 1 || d < 2) throw std::invalid_argument("principal_axes_2d: need n >= 1 rows and d >= 2 columns");
  const Eigen::Index stride = std::max<Eigen::Index>(1, (n + max_rows - 1) / std::max(1, max_rows));
  const Eigen::Index m = (n + stride - 1) / stride;
  Eigen::MatrixXd sample(m, d);
  for (Eigen::Index i = 0; i < m; ++i) sample.row(i) = x.row(i * stride);
  Projection2d p;
  p.rows_used = static_cast<int>(m);
  p.mean = sample.colwise().mean();
  sample.rowwise() -= p.mean;
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(d, d);
  cov.selfadjointView<Eigen::Lower>().rankUpdate(sample.transpose(), 1.0 / std::max<Eigen::Index>(1, m - 1));
  cov.triangularView<Eigen::StrictlyUpper>() = cov.transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  p.axes.resize(d, 2);
  p.axes.col(0) = es.eigenvectors().col(d - 1);
  p.axes.col(1) = es.eigenvectors().col(d - 2);
  // Fix the sign (largest |component| positive) so the picture does not flip between runs.
  for (int c = 0; c < 2; ++c) {
    Eigen::Index arg = 0;
    p.axes.col(c).cwiseAbs().maxCoeff(&arg);
    if (p.axes(arg, c) < 0) p.axes.col(c) *= -1.0;
  }
  p.variance = Eigen::Vector2d(es.eigenvalues()(d - 1), es.eigenvalues()(d - 2));
  p.total_variance = cov.trace();
  return p;
}

Eigen::MatrixXd project_2d(const Projection2d& p, const Eigen::Ref<const Eigen::MatrixXd>& rows) {
  Eigen::MatrixXd centred = rows.rowwise() - p.mean;
  return centred * p.axes;
}

}  // namespace cilab
