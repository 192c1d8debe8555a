// k-means (Lloyd's algorithm): hard clustering of n points into k clusters.
//
// Data X is n x d (samples in rows); centroids U = [mu_1 .. mu_k] are k x d;
// assignments z_i in {0 .. k-1}. The objective (scikit-learn's inertia_) is
//
//   J(z, U) = sum_i ||x_i - mu_{z_i}||^2 .
//
// One Lloyd iteration is two half-steps (sub-steps), each a coordinate-descent
// step that cannot raise J:
//   assign:  z_i  = argmin_j ||x_i - mu_j||^2   (ties -> lowest index j)
//   update:  mu_j = (1 / n_j) sum_{i: z_i = j} x_i
// A point that already has a cluster keeps it unless another centroid is
// closer by more than a rounding tolerance tau_i = 1e-12 (||x_i||^2 +
// max_j ||mu_j||^2) (centred coordinates). In exact arithmetic this changes
// nothing; in floating point it stops duplicate points from cycling between
// centroids that differ by one ulp, so every run terminates.
//
// Initialisation (parameter `init`) is the state at iteration 0: the snapshot
// shows the initial centroids, assignments are not computed yet (all -1) and
// the metrics are NaN (n/a). Choices: random = k distinct rows chosen
// uniformly; kmeans++ = D^2 sampling (first row uniform, then row i with
// probability p_i = D_i^2 / sum_j D_j^2, D_i = distance to the nearest chosen
// seed; the textbook rule, not scikit-learn's greedy variant); first = rows
// 0..k-1; manual = rows 0..k-1 as placeholders the user moves with intents.
//
// Convergence: an iteration converges when its assign half-step changes no
// label and its update half-step then leaves every centroid bit-for-bit where
// it was (scikit-learn's tol = 0 "strict convergence"). The run is Stopped
// when max_iter iterations are spent first.
//
// Empty clusters: when cluster j receives no point, the update re-seeds mu_j
// at the point farthest from its assigned centroid (like scikit-learn's
// relocation) and moves that point into cluster j; the snapshot message says
// so. Only points whose cluster keeps >= 1 other point and whose distance is
// > tau_p qualify (farthest first, ties -> lowest row); with no candidate the
// centroid stays put (and the message says why).
//
// Numerics: data are centred once (the mean is subtracted, as scikit-learn
// does) into a row-major copy shared by clones (plus a column-major copy for
// d <= 4). Distances for d <= 4 are direct differences, computed for several
// points at a time in SIMD lanes (specialised for d = 1..4), and the same pass
// accumulates the cluster statistics (n_j, sum x, sum ||x||^2) so that the
// update half-step costs O(k d); for larger d the assign
// half-step first applies Hamerly's bounds (an upper bound on the distance to
// the own centroid, a lower bound on the second nearest, both moved by the
// centroid shifts), which prove most points keep their label without any
// distance; the others get all k distances ||x||^2 - 2 x.mu + ||mu||^2 from a
// blocked GEMM, and the cluster sums are updated by the moves only. The
// result is the same assignment as plain Lloyd (up to the rounding tolerance
// below). All arithmetic is double. The objective is chained through
// exact identities so that it never rises in floating point:
//   after assign: J <- J - sum_{i changed} (D_i,old - D_i,new)   (each term >= 0)
//   after update: J <- J - sum_j n_j ||mu_j,new - mu_j,old||^2   (each term >= 0)
// (clamped at 0) and computed afresh (sum of per-point distances) after the
// first assign, or from the cluster sums after an edit. Work is split into
// fixed row blocks processed by parallel_for_blocks (algorithms/core/parallel.h);
// partial sums are reduced in block order, so results are bit-identical
// whatever the number of threads.
#pragma once

#include "algorithms/core/module_base.h"

#include <Eigen/Core>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// How the initial centroids were chosen, for views that show seeding.
struct KMeansSeeding {
  // Rows chosen as initial centroids, in choice order (empty for manual init).
  std::vector<int> rows;
  // kmeans++ only: probs[r] (size n) is the D^2 distribution p_i = D_i^2 / sum D^2
  // from which rows[r] was drawn (chosen rows have p = 0). probs[0] is empty (the
  // first seed is uniform). All rounds are kept when n * (k - 1) <= 4 000 000,
  // otherwise only the last round (the others are empty). Empty for other inits.
  std::vector<std::vector<double>> probs;

  size_t byte_size() const;
};

// The state after the last (sub-)step. Base `phase`: 0 = at an iteration
// boundary (after update, or after reset at iteration 0), 1 = after assign.
struct KMeansSnapshot : Snapshot {
  Eigen::MatrixXd centroids;                     // k x d, feature space (not centred)
  std::shared_ptr<const std::vector<int>> labels;  // size n; -1 = not assigned yet
  std::vector<int> cluster_sizes;                // size k (n_j; zeros before the first assign)
  std::vector<int> reseeded;                     // clusters re-seeded by the last update
  std::vector<char> placed;                      // manual init: centroid j placed by the user
  // Seeding record; set only in the iteration-0 snapshot taken right after reset.
  std::shared_ptr<const KMeansSeeding> seeding;

  // z_i for every row (shared, never copied: labels change only on assign).
  const std::vector<int>& assignments() const { return *labels; }
  int k() const { return static_cast<int>(centroids.rows()); }
  // Counts the shared label vector and seeding record in full (an upper bound
  // when consecutive snapshots share them).
  size_t byte_size() const override;
};

// k-means module. Parameters (scikit-learn names in brackets):
//   k        [n_clusters] number of clusters, 1..64, rebuild;
//   init     [init]       random | kmeans++ | first | manual, rebuild;
//   max_iter [max_iter]   iteration budget, 1..10000 (default 300), live.
// Seed: the reset() argument (random and kmeans++ seeding).
//
// Intents (apply()):
//   "move_centroid"  index j, values = new coordinates of mu_j: size d, or size 2
//                    to set only the first two features (views send full d-dim
//                    coordinates). Allowed at any time; a half-finished iteration
//                    is abandoned (the next sub-step is an assign), the objective
//                    is recomputed for the current labels, and a Converged or
//                    Stopped run (with budget left) becomes Running again.
//   "place_centroid" manual init, before the first step: index j (or -1 = the
//                    next unplaced centroid), values as for move_centroid.
// apply() returns false for unknown kinds, bad indices, wrong sizes or
// non-finite coordinates.
class KMeans : public ModuleBase<KMeans> {
 public:
  enum class Init { Random = 0, KMeansPlusPlus = 1, First = 2, Manual = 3 };

  // Typed hyper-parameters (built from ParamValues by params_from()); the
  // member initialisers are the defaults of the parameter table.
  struct Params {
    int k = 4;
    Init init = Init::KMeansPlusPlus;
    int max_iter = 300;
  };

  const ModuleInfo& info() const override;

  // Validates (std::invalid_argument: empty dataset, non-finite value, k > n,
  // out-of-range parameter) and seeds the centroids (iteration 0).
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values,
             uint64_t seed) override;
  // Finishes the current iteration (assign + update, or just update after an assign).
  void step() override;
  // The next half-step: assign, then update.
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  // Only max_iter is live.
  void set_live(const std::string& name, double value) override;
  bool apply(const Intent& intent) override;

  // The typed snapshot (same object as snapshot()).
  std::shared_ptr<const KMeansSnapshot> kmeans_snapshot() const;
  // Parses and validates a parameter table into Params.
  static Params params_from(const ParamValues& values);

  // Metric slots in info().metrics / Snapshot::metrics (rows of the metric table in kmeans.cpp).
  enum Metric : int { kMetricObjective, kMetricChanged, kMetricCenterShift, kMetricReseeded, kNumMetrics };

 private:
  struct State;  // every member (kmeans.cpp)
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(KMeans)

}  // namespace cilab
