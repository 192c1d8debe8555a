// 2-D projections of n x d data for scatter views of d > 2 datasets.
//
// principal_axes_2d: the top two principal axes (eigenvectors of the sample
// covariance, largest eigenvalues first) and the mean, estimated from at most
// `max_rows` rows taken with a fixed stride (exact when n <= max_rows; the
// view labels the estimate as such). project_2d maps rows or centroids onto
// (x - mean) * axes, giving n x 2 scores.
#pragma once

#include <Eigen/Core>

namespace cilab {

struct Projection2d {
  Eigen::RowVectorXd mean;   // 1 x d
  Eigen::MatrixXd axes;      // d x 2, orthonormal columns
  Eigen::Vector2d variance;  // eigenvalues of the two axes
  double total_variance = 0; // trace of the covariance
  int rows_used = 0;         // rows the estimate used
};

// Top-2 principal axes of `x` (n x d, d >= 2). Deterministic.
Projection2d principal_axes_2d(const Eigen::Ref<const Eigen::MatrixXd>& x, int max_rows = 20000);

// (rows - mean) * axes: n x 2 scores.
Eigen::MatrixXd project_2d(const Projection2d& p, const Eigen::Ref<const Eigen::MatrixXd>& rows);

}  // namespace cilab
