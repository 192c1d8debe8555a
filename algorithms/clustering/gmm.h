// Gaussian mixture model fitted by expectation-maximisation (EM).
//
// Data X is n x d (samples in rows); the model has k components with weights
// pi (k, on the simplex), means mu_j (k x d) and covariances Sigma_j (d x d):
//
//   p(x; theta) = sum_j pi_j N(x | mu_j, Sigma_j),
//   l(theta)    = (1/n) sum_i log sum_j pi_j N(x_i | mu_j, Sigma_j)
//
// (the mean per sample, natural log: scikit-learn's score()). One EM iteration
// is two sub-steps:
//   E:  q_ij = pi_j N(x_i | mu_j, Sigma_j) / sum_l pi_l N(x_i | mu_l, Sigma_l)
//       (log space: log-sum-exp over j; rows of q sum to one)
//   M:  N_j = sum_i q_ij (+ 10 eps, as scikit-learn), pi_j = N_j / sum_l N_l,
//       mu_j = (1/N_j) sum_i q_ij x_i,
//       Sigma_j = (1/N_j) sum_i q_ij (x_i - mu_j)(x_i - mu_j)^T + reg I.
// Covariance types (scikit-learn's covariance_type): full = the formula above;
// diag = its diagonal; spherical = sigma_j^2 I with sigma_j^2 the mean of the
// diagonal; tied = one shared Sigma = (1/n) sum_j sum_i q_ij (x_i - mu_j)(x_i -
// mu_j)^T + reg I. `reg` (scikit-learn's reg_covar) is added to the diagonal in
// every M-step (and in the initial one).
//
// The metric log_likelihood of iteration t is l(theta_t), evaluated in that
// iteration's E-step at the parameters ENTERING the iteration (scikit-learn's
// lower_bound_ / the value its convergence test uses); delta = l(theta_t) -
// l(theta_{t-1}) (NaN at t = 1, where scikit-learn has +inf). Both are already
// known after the E sub-step. Convergence (scikit-learn's tol): after the M
// sub-step of iteration t >= 2, |delta| < tol => Converged; iteration max_iter
// reached first => Stopped. score() gives l at the current parameters.
// Monotonicity: with reg = 0 EM never lowers l (up to rounding); with reg > 0
// the M-step is not the exact maximiser, see the note in gmm.cpp.
//
// Initialisation (`init`, the state at iteration 0: parameters set, no E-step
// yet, resp = nullptr, metrics NaN):
//   kmeans        our KMeans (kmeans++ seeding, same seed, run to convergence);
//                 q = one-hot labels, then one M-step (scikit-learn's 'kmeans');
//   random        q_ij ~ U(0,1), rows normalised, then one M-step
//                 (scikit-learn's 'random');
//   random_points k distinct rows drawn uniformly as the means (like
//                 scikit-learn's 'random_from_data'), but - unlike scikit-learn,
//                 whose one-point M-step gives Sigma = reg I and weights 1/n -
//                 pi_j = 1/k and every Sigma_j = the K = 1 fit (the data
//                 covariance of the chosen type, + reg I);
//   manual        as random_points, with the first k rows as placeholders that
//                 the user moves ("place_mean"/"move_mean" intents).
//
// Singularities: with reg = 0 a component can collapse onto one point (Sigma_j
// -> 0, l -> +inf). An M-step whose Sigma_j fails its Cholesky factorisation or
// has smallest eigenvalue < 1e-12 * s (s = mean variance of the data) is not
// applied: the status becomes Diverged, `collapsed` = j, the snapshot shows the
// collapsed parameters with the last finite metrics, and the message says what
// happened and what to do. Setting reg > 0 (live) then retries that M-step;
// rewinding works as always. A non-finite l in an E-step is Diverged too. The
// failed iteration is not completed: the Diverged snapshot keeps `iteration`
// (so a CLI row repeats it) with the metrics of its (finite) E-step.
//
// Numerics: the data are centred once (shared by clones); each component keeps
// the Cholesky factor of its precision (P_j with P_j P_j^T = Sigma_j^{-1},
// scikit-learn's precisions_cholesky_), so log N(x|mu,Sigma) = -d/2 log 2 pi +
// log det P - 1/2 ||(x - mu) P||^2. The E pass runs over fixed blocks of rows
// (parallel_reduce_blocks, algorithms/core/parallel.h: partial sums are
// reduced in block order, so results do not depend on the thread count) and
// accumulates, with the responsibilities, the M-step statistics N_j,
// sum q (x - a_j), sum q (x - a_j)(x - a_j)^T shifted by the current means a_j
// (no cancellation near convergence), so the M sub-step costs O(k d^3).
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/clustering/kmeans.h"

#include <Eigen/Core>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// The state after the last (sub-)step. Base `phase`: 0 = iteration boundary
// (after M, or after reset), 1 = after E.
struct GmmSnapshot : Snapshot {
  int covariance_type = 0;            // 0 full, 1 diag, 2 spherical, 3 tied (the `covariance` choice index)
  Eigen::VectorXd weights;            // k: mixture weights pi_j (sum 1)
  Eigen::MatrixXd means;              // k x d (feature space)
  std::vector<Eigen::MatrixXd> covariances;  // k matrices d x d, always the full matrix (diag/spherical/tied expanded)
  std::shared_ptr<const Eigen::MatrixXd> resp;  // n x k responsibilities q_ij of the latest E-step; nullptr before the first E-step
  std::vector<double> min_eigenvalue; // k: smallest eigenvalue of each Sigma_j (singularity warning)
  int collapsed = -1;                 // component whose covariance collapsed (status Diverged), else -1
  std::vector<char> placed;           // init=manual: mean j placed by the user yet
  // compare_kmeans=true: k-means on the same data, k and initial centroids
  // (= this run's initial means), stepped in lockstep (assign with E, update
  // with M: one Lloyd iteration per EM iteration); else nullptr.
  std::shared_ptr<const KMeansSnapshot> kmeans;
  double reg = 0.0;                   // reg (reg_covar) in force
  int n_parameters = 0;               // free parameters (scikit-learn's _n_parameters)
  int k() const { return static_cast<int>(means.rows()); }
  size_t byte_size() const override;
};

// Gaussian mixture module. Parameters (scikit-learn names in brackets):
//   k              [n_components]    1..20 (default 2), rebuild;
//   covariance     [covariance_type] full | diag | spherical | tied, rebuild;
//   init           [init_params]     kmeans | random | random_points | manual, rebuild;
//   reg            [reg_covar]       0..1 (default 1e-6), log slider, live;
//   max_iter       [max_iter]        1..10000 (default 100), live;
//   tol            [tol]             0..1 (default 1e-3), live: stop when |delta| < tol;
//   compare_kmeans                   Bool (default false), rebuild: lockstep k-means.
// Seed: the reset() argument (kmeans, random and random_points init).
//
// Intents (apply()):
//   "move_mean"  index j, values = new mu_j in feature space: size d, or size 2
//                to set only the first two features (views should send full d;
//                with a 2-D projection, back-map it). Allowed at any time: the
//                half-finished iteration is abandoned (next sub-step: E), and a
//                Converged / Diverged / Stopped (budget left) run is Running
//                again. The lockstep k-means centroid j moves too.
//   "place_mean" init=manual, before the first step: index j (or -1 = the next
//                unplaced mean), values as for move_mean.
// apply() returns false for unknown kinds, bad indices, wrong sizes, non-finite
// coordinates, or place_mean outside its window.
class Gmm : public ModuleBase<Gmm> {
 public:
  enum class Covariance { Full = 0, Diag = 1, Spherical = 2, Tied = 3 };
  enum class Init { KMeans = 0, Random = 1, RandomPoints = 2, Manual = 3 };

  // Typed hyper-parameters (built from ParamValues by params_from()).
  struct Params {
    int k = 2;
    Covariance covariance = Covariance::Full;
    Init init = Init::KMeans;
    double reg = 1e-6;
    int max_iter = 100;
    double tol = 1e-3;
    bool compare_kmeans = false;
  };

  const ModuleInfo& info() const override;

  // Validates (std::invalid_argument: empty dataset, non-finite value, k > n,
  // out-of-range parameter) and initialises (iteration 0).
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values,
             uint64_t seed) override;
  // Finishes the current iteration (E + M, or just M after an E).
  void step() override;
  // The next half: E, then M.
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  // reg, max_iter and tol are live.
  void set_live(const std::string& name, double value) override;
  bool apply(const Intent& intent) override;

  // The typed snapshot (same object as snapshot()).
  std::shared_ptr<const GmmSnapshot> gmm_snapshot() const;
  // Mean log-likelihood per sample at the current parameters (scikit-learn's
  // score(X) on the training data); one extra E pass, the state is unchanged.
  double score() const;
  // Free parameters of a k-component model in d dimensions (scikit-learn's
  // _n_parameters): k d means + k - 1 weights + covariance entries.
  static int n_parameters(Covariance type, int k, int d);
  // Parses and validates a parameter table into Params.
  static Params params_from(const ParamValues& values);

  // Metric indices in info().metrics / Snapshot::metrics.
  enum Metric : int { kMetricLogLikelihood, kMetricDelta, kMetricMinEigenvalue, kNumMetrics };

 private:
  struct State;  // every member (gmm.cpp)
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Gmm)

}  // namespace cilab
