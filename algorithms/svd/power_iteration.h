// Power iteration for the leading eigenvector, with deflation for the top m.
//
// Matrix A (d x d, symmetric), parameter `matrix`:
//   covariance  C = (1/n) sum_i (x_i - mean)(x_i - mean)^T of the run's
//               dataset (n x d; the course's 1/n normalisation, as the pca
//               module; numpy.cov(bias=True));
//   synthetic   A = Q Lambda Q^T with Q a seeded random orthogonal matrix (QR
//               of a Gaussian matrix) and the geometric spectrum
//               lambda_i = ratio^(i-1), i = 1..dim, so lambda_2 / lambda_1 = ratio
//               exactly (the eigen-gap slider; ratio < 0 alternates signs).
//
// The iteration (course chapter 5; notes 000/002):
//   v_0 ~ N(0, I) / ||.||   (or the other `init` choices)
//   v_{t+1} = A v_t / ||A v_t||
// split into two sub-steps: multiply (w = A v_t) and normalise
// (v_{t+1} = w / ||w||). Per iteration the module reports, for v_t:
//   rayleigh      rho_t = v_t^T A v_t            (-> lambda_1)
//   angle_to_top  theta_t = angle(v_t, +-u_1) in radians, in [0, pi/2], with
//                 u_1 the top eigenvector of A from Eigen's
//                 SelfAdjointEigenSolver ("top" = largest |lambda|), computed
//                 as atan2(||v - (v.u) u||, |v.u|) (accurate near 0);
//   residual      ||A v_t - rho_t v_t||.
// For symmetric A: tan theta_t <= |lambda_2 / lambda_1|^t tan theta_0 (equality
// when d = 2), so theta_t falls on a log scale with slope log|lambda_2/lambda_1|.
// Each iteration costs one matrix-vector product: A v_{t+1} is computed in the
// normalise sub-step (it gives rho, the residual, and the next multiply).
//
// Convergence of a component: residual <= tol * |rho| (tol = 0: never), or
// max_iter iterations of that component (then the estimate is kept and the
// message says so). Deflation (n_components = m > 1, notes 5.2): after
// component j is found (lambda_hat_j = rho, u_hat_j = v), the next step
// deflates A_{j+1} = A_j - lambda_hat_j u_hat_j u_hat_j^T, solves A_{j+1} with
// Eigen (its spectrum is shown; its top eigenvector is the reference for the
// angle) and starts again from a fresh v_0. The run is Converged when all m
// components converged, Stopped when one ran out of budget.
//
// Shapes: d features (A is d x d); m components; data n x d.
#pragma once

#include "algorithms/core/module_base.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// The matrix and its eigen-decomposition at reset (shared by snapshots and clones).
struct PowerProblem {
  Eigen::MatrixXd a;         // d x d symmetric
  Eigen::VectorXd eigvals;   // d, sorted by |lambda| descending
  Eigen::MatrixXd eigvecs;   // d x d, columns in that order
  Eigen::RowVectorXd mean;   // covariance: the data mean (1 x d); synthetic: empty
  bool synthetic = false;
  int image_h = 0, image_w = 0;  // > 0: vectors are images (image data)
  std::string what;          // "covariance of iris (150 x 4)", "synthetic 2 x 2, ratio 0.8"
  std::vector<std::string> feature_names;

  int d() const { return static_cast<int>(a.rows()); }
};

// A deflated matrix A_j and its exact eigen-decomposition (one per component).
struct PowerStage {
  Eigen::MatrixXd a;        // A_j (d x d)
  Eigen::VectorXd eigvals;  // sorted by |lambda| descending
  Eigen::VectorXd top;      // its top eigenvector u (unit; the angle reference)
  double rate = 0;          // |lambda_2 / lambda_1| of A_j (0 if d = 1)
};

// One component of the deflation sequence.
struct PowerComponent {
  int start_iteration = 0;  // global iteration of its v_0
  int iterations = 0;       // iterations spent on it
  double theta0 = 0;        // angle of its v_0 to its stage's top eigenvector
  double rate = 0;          // predicted rate |lambda_2 / lambda_1| of its stage
  double lambda = 0;        // current estimate rho (final once done)
  bool done = false;        // converged or out of budget
  bool converged = false;   // residual <= tol |rho|
  double angle_to_true = 0; // angle of the estimate to u_j of the original A
};

struct PowerSnapshot : Snapshot {
  std::shared_ptr<const PowerProblem> problem;   // shared
  std::shared_ptr<const PowerStage> stage;       // current deflated matrix (shared)
  Eigen::VectorXd v;     // current unit iterate v_t
  Eigen::VectorXd av;    // A_j v_t (after the multiply sub-step this is the shown w)
  int component = 0;     // j (0-based) of the current stage
  int n_components = 1;  // m, components wanted
  std::vector<PowerComponent> components;  // 0..component
  Eigen::MatrixXd found; // d x (number of finished components): the u_hat_j

  size_t byte_size() const override;
};

// power-iteration module. Parameters:
//   matrix        covariance | synthetic, rebuild
//   dim           synthetic size d, 2..64, rebuild
//   ratio         synthetic lambda_2 / lambda_1 in [-0.999, 0.999], rebuild
//   n_components  m, eigenpairs by deflation, 1..64 (<= d), rebuild
//   init          random | ones | orthogonal (random, then made exactly
//                 orthogonal to the stage's top eigenvector), rebuild
//   tol           relative residual for convergence, [0, 1] (0 = run to max_iter), live
//   max_iter      iteration budget per component, 1..100000, live
// Intents: "set_vector" (values = a direction, size d): restarts the current
// component from v = values / ||values|| (theta_0 and the predicted line restart too).
class PowerIteration : public ModuleBase<PowerIteration> {
 public:
  enum class Matrix { Covariance = 0, Synthetic = 1 };
  enum class Init { Random = 0, Ones = 1, Orthogonal = 2 };

  // The member initialisers are the parameter table's defaults. Synthetic by
  // default: a 2-D matrix with lambda_2/lambda_1 = 0.8 shows the arrow pulled
  // round the circle over tens of iterations (a dataset's covariance, e.g.
  // iris, converges in a handful).
  struct Params {
    Matrix matrix = Matrix::Synthetic;
    int dim = 2;
    double ratio = 0.8;
    int n_components = 1;
    Init init = Init::Random;
    double tol = 1e-10;
    int max_iter = 1000;
  };

  const ModuleInfo& info() const override;

  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  // Finishes the iteration (multiply + normalise), or deflates when the
  // current component is done and more are wanted.
  void step() override;
  // multiply, then normalise (a deflation is one whole step).
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;
  bool apply(const Intent& intent) override;

  std::shared_ptr<const PowerSnapshot> power_snapshot() const;
  static Params params_from(const ParamValues& values);

  // The synthetic matrix Q diag(ratio^(i-1)) Q^T for a seed (tests, views).
  static Eigen::MatrixXd synthetic_matrix(int dim, double ratio, uint64_t seed);
  // Eigen-decomposition of a symmetric matrix sorted by |lambda| descending
  // (ties: the positive one first).
  static void sorted_eigen(const Eigen::Ref<const Eigen::MatrixXd>& a, Eigen::VectorXd& values,
                           Eigen::MatrixXd* vectors);
  // Angle between the lines of v and u (radians, [0, pi/2]); both non-zero.
  static double line_angle(const Eigen::Ref<const Eigen::VectorXd>& v, const Eigen::Ref<const Eigen::VectorXd>& u);

  enum Metric : int { kMetricRayleigh, kMetricAngle, kMetricResidual, kNumMetrics };
  // Largest d accepted (the reference eigen-solve costs O(d^3) per stage).
  static constexpr int kMaxDim = 2048;

 private:
  struct State;  // every member (power_iteration.cpp)
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(PowerIteration)

}  // namespace cilab
