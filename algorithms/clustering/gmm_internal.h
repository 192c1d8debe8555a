// Private to the GMM module (included by gmm.cpp and gmm_estep.cpp only; Eigen
// stays out of gmm.h's includers): the M-step statistics and the E pass.
#pragma once

#include <Eigen/Core>

#include <vector>

namespace cilab {
namespace gmm_detail {

// M statistics of one block (or the whole pass).
struct Stats {
  Eigen::VectorXd n;                // k: sum q
  Eigen::MatrixXd s;                // d x k: sum q D
  std::vector<Eigen::MatrixXd> t;   // k: d x d sum q D D^T (full/tied) or d x 1 diagonal
  double ll = 0.0;                  // sum of per-row log densities
  void init(int k, int d, bool diag) {
    n.setZero(k);
    s.setZero(d, k);
    t.assign(static_cast<size_t>(k), Eigen::MatrixXd::Zero(d, diag ? 1 : d));
    ll = 0.0;
  }
  void add(const Stats& o) {
    n += o.n;
    s += o.s;
    for (size_t j = 0; j < t.size(); ++j) t[j] += o.t[j];
    ll += o.ll;
  }
};

// One E pass over the centred data x (n x d, column-major) for the k components
// (means k x d centred, prec = precision Cholesky factors, weights, log det P):
// writes the responsibilities q into *resp (n x k; may be null) and returns the
// M statistics shifted by `means` with the summed log densities (with_stats),
// or only the summed log densities in `ll` (with_stats = false: score()). Runs
// over fixed row blocks on parallel_reduce_blocks; partials are added in block
// order, so the result does not depend on the thread count.
Stats e_pass(const Eigen::MatrixXd& x, const Eigen::MatrixXd& means,
             const std::vector<Eigen::MatrixXd>& prec, const Eigen::VectorXd& weights,
             const Eigen::VectorXd& log_det_prec, bool diag, bool tied, Eigen::MatrixXd* resp,
             bool with_stats);

}  // namespace gmm_detail
}  // namespace cilab
