// k-means (Lloyd's algorithm): see kmeans.h for the equations, the half-steps,
// the convergence and empty-cluster rules and the numerics.
//
// Shapes: X is n x d (centred copy, row-major, shared by clones), U is k x d
// (mu, centred), labels z has size n. The assign half-step runs one pass of
// the assign kernel (kmeans_assign.cpp) over fixed blocks of kBlockRows rows;
// it returns per-block labels and sufficient statistics (n_j, S_j = sum x_i,
// Q_j = sum ||x_i||^2), which are reduced here in block order, so the update
// half-step is O(k d) and every result is independent of the thread count.
// For d > 4 this file keeps the Hamerly bounds per point (upper, lower) and
// the centroid shifts they are moved by.
#include "algorithms/clustering/kmeans.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"
#include "algorithms/clustering/kmeans_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"

namespace cilab {

using namespace kmeans_detail;

namespace {

// The dataset, centred once: x_i - mean, row-major, with its squared row norms.
struct Prepared {
  RowMatrixXd x;          // n x d
  Eigen::MatrixXd xcol;   // n x d column-major (d <= 4 only; empty otherwise)
  Eigen::VectorXd norm2;  // n, ||x_i - mean||^2
  Eigen::VectorXd mean;   // d
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kParallelMinWork = 2e5;  // n*k*d below which one thread runs
constexpr size_t kMaxSeedingProbEntries = 4000000;

}  // namespace

// Everything a KMeans holds (a value type: clone() copies it).
struct KMeans::State : RunPosition {
  std::shared_ptr<const Dataset> data;
  std::shared_ptr<const Prepared> prep;  // centred data, shared by clones
  Params p;
  int n = 0;
  int d = 0;

  Eigen::MatrixXd mu;       // k x d, centred centroids
  Eigen::MatrixXd sums;     // k x d, sum of centred x over each cluster (current labels)
  Eigen::VectorXd sq_sums;  // k, sum of ||x - mean||^2 over each cluster
  std::vector<int> counts;  // k, n_j
  std::shared_ptr<const std::vector<int>> labels;
  // The previous label vector, reused by the next assign when no snapshot or
  // clone shares it any more (label vectors are never created const).
  std::shared_ptr<std::vector<int>> spare_labels;
  std::shared_ptr<const KMeansSeeding> seeding;
  std::vector<char> placed;
  std::vector<int> reseeded;

  double objective = kNaN;
  double changed = kNaN;
  double center_shift = kNaN;
  double reseeded_count = kNaN;
  bool assigned = false;  // labels hold a real assignment

  // Hamerly bounds (d > 4 only; see the header comment): upper/lower distance
  // bounds per point, valid for the centroids mu_bounds.
  std::vector<double> upper;
  std::vector<double> lower;
  Eigen::MatrixXd mu_bounds;
  bool bounds_valid = false;

  mutable std::shared_ptr<const KMeansSnapshot> cache;

  void assign_half();
  void update_half();
  void seed_centroids(uint64_t seed);
  double objective_from_sums() const;
  void invalidate() { cache.reset(); }
};

// ---------------------------------------------------------------- description

namespace {

const ParamTable<KMeans::Params>& param_table() {
  using P = KMeans::Params;
  static const ParamTable<P> kTable = {
      Int("k", &P::k, 1, 64)
          .help("number of clusters (scikit-learn: n_clusters)")
          .formula("z_i in {1..k}"),
      Choice("init", &P::init, {"random", "kmeans++", "first", "manual"})
          .choice_help({"k distinct rows chosen uniformly at random",
                        "D^2 sampling: p_i = D_i^2 / sum_j D_j^2, D_i = distance to nearest seed",
                        "the first k rows of the dataset",
                        "placed by hand (drag the centroids; the first k rows until then)"})
          .help("how the initial centroids are chosen")
          .formula("p_i = D_i^2 / sum_j D_j^2 (kmeans++)"),
      Int("max_iter", &P::max_iter, 1, 10000)
          .budget()
          .help("iteration budget; the run stops when it is spent (scikit-learn's default 300)"),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {KMeans::kMetricObjective, "objective",
       "J = sum_i ||x_i - mu_{z_i}||^2, the sum of squared distances to the assigned centroid "
       "(scikit-learn's inertia_). Never rises after a half-step. NaN before the first assign.",
       true},
      {KMeans::kMetricChanged, "changed", "points whose cluster changed in the last assign half-step", false},
      {KMeans::kMetricCenterShift, "center_shift",
       "sum_j ||mu_j,new - mu_j,old||^2, how far the last update moved the centroids", true},
      {KMeans::kMetricReseeded, "empty_reseeded",
       "clusters that were empty after the assign and were re-seeded at the farthest point", false},
  };
  return kMetrics;
}

}  // namespace

const ModuleInfo& KMeans::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "kmeans";
    m.title = "k-means (Lloyd's algorithm)";
    m.chapter = "Clustering and mixtures";
    m.summary =
        "Partitions the points into k clusters by alternating two half-steps that each lower "
        "J = sum_i ||x_i - mu_{z_i}||^2: assign every point to its nearest centroid, then move "
        "every centroid to the mean of its points. Seeding: k random rows, k-means++ (D^2 "
        "sampling), the first k rows, or centroids placed by hand. Stops when an assignment "
        "changes no point.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"assign", "update"};
    m.default_dataset = "blobs:n=600,centers=4,seed=1";
    return m;
  }();
  return kInfo;
}

const ParamTable<KMeans::Params>& module_params(const KMeans*) { return param_table(); }

KMeans::Params KMeans::params_from(const ParamValues& values) { return param_table().read(values); }

// ---------------------------------------------------------------- lifecycle



void KMeans::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  State& s = *st_;
  const Params p = params_from(values);
  require_usable_data(data.get(), "k-means");
  const int n = data->rows(), d = data->cols();
  if (p.k > n)
    throw std::invalid_argument("parameter 'k' = " + std::to_string(p.k) +
                                " exceeds the number of samples (" + std::to_string(n) +
                                "); try k <= " + std::to_string(n));

  // Reuse the centred copy when resetting on the same dataset.
  if (!(s.prep && s.data == data)) {
    auto prep = std::make_shared<Prepared>();
    prep->mean = data->x.colwise().mean().transpose();
    prep->x = data->x.rowwise() - prep->mean.transpose();
    prep->norm2 = prep->x.rowwise().squaredNorm();
    if (d <= kLowDimMax) prep->xcol = prep->x;
    s.prep = std::move(prep);
  }
  s.data = std::move(data);
  s.p = p;
  s.n = n;
  s.d = d;
  s.restart();
  s.objective = s.changed = s.center_shift = s.reseeded_count = kNaN;
  s.assigned = false;
  s.upper.clear();
  s.lower.clear();
  s.bounds_valid = false;
  s.labels = std::make_shared<std::vector<int>>(static_cast<size_t>(n), -1);  // non-const: recycled
  s.sums.setZero(p.k, d);
  s.sq_sums.setZero(p.k);
  s.counts.assign(static_cast<size_t>(p.k), 0);
  s.reseeded.clear();
  s.placed.assign(p.init == Init::Manual ? static_cast<size_t>(p.k) : 0, 0);
  s.seed_centroids(seed);
  s.invalidate();
}

void KMeans::State::seed_centroids(uint64_t seed) {
  const int k = p.k, n = this->n, d = this->d;
  const RowMatrixXd& x = prep->x;
  Rng rng(seed);
  auto seeding = std::make_shared<KMeansSeeding>();
  std::vector<int>& rows = seeding->rows;

  switch (p.init) {
    case Init::First:
      for (int j = 0; j < k; ++j) rows.push_back(j);
      break;
    case Init::Manual:
      message = "manual init: the centroids start at the first " + std::to_string(k) +
                 " rows; drag or place them, then step";
      break;
    case Init::Random:
      // k distinct rows, uniformly (rejection: k <= 64 <= expected cost n ln n at k = n).
      while (static_cast<int>(rows.size()) < k) {
        const int r = static_cast<int>(rng.below(static_cast<uint64_t>(n)));
        if (std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
      }
      break;
    case Init::KMeansPlusPlus: {
      seeding->probs.resize(static_cast<size_t>(k));
      const bool keep_all = static_cast<size_t>(n) * static_cast<size_t>(k - 1) <=
                            kMaxSeedingProbEntries;
      std::vector<double> d2(static_cast<size_t>(n), kInf);
      std::vector<char> chosen(static_cast<size_t>(n), 0);
      const int blocks = block_count(n);
      const int threads = parallel_threads(blocks, static_cast<double>(n) * d, kParallelMinWork);
      auto add_seed = [&](int r) {
        rows.push_back(r);
        chosen[static_cast<size_t>(r)] = 1;
        const double* c = x.data() + static_cast<size_t>(r) * d;
        parallel_for_blocks(blocks, threads, [&](int b) {
          const int i1 = std::min(n, (b + 1) * kBlockRows);
          for (int i = b * kBlockRows; i < i1; ++i) {
            const double t = sq_dist(x.data() + static_cast<size_t>(i) * d, c, d);
            if (t < d2[static_cast<size_t>(i)]) d2[static_cast<size_t>(i)] = t;
          }
        });
        d2[static_cast<size_t>(r)] = 0.0;
      };
      add_seed(static_cast<int>(rng.below(static_cast<uint64_t>(n))));
      for (int r = 1; r < k; ++r) {
        double total = 0.0;
        for (double v : d2) total += v;
        int pick = -1;
        if (total > 0.0 && std::isfinite(total)) {
          if (keep_all || r == k - 1) {
            std::vector<double>& pr = seeding->probs[static_cast<size_t>(r)];
            pr.resize(static_cast<size_t>(n));
            for (int i = 0; i < n; ++i) pr[static_cast<size_t>(i)] = d2[static_cast<size_t>(i)] / total;
          }
          pick = rng.categorical(d2);
        }
        if (pick < 0 || chosen[static_cast<size_t>(pick)]) {
          // Every remaining point coincides with a seed: uniform over unchosen rows.
          int t = static_cast<int>(rng.below(static_cast<uint64_t>(n - r)));
          for (int i = 0; i < n; ++i)
            if (!chosen[static_cast<size_t>(i)] && t-- == 0) {
              pick = i;
              break;
            }
        }
        add_seed(pick);
      }
      break;
    }
  }
  mu.resize(k, d);
  for (int j = 0; j < k; ++j) {
    const int r = p.init == Init::Manual ? j : rows[static_cast<size_t>(j)];
    mu.row(j) = x.row(r);
  }
  this->seeding = std::move(seeding);
}

// ---------------------------------------------------------------- iteration

void KMeans::step() {
  State& s = *st_;
  if (!s.prep || is_terminal(s.status)) return;
  if (s.phase == 0) s.assign_half();
  if (!is_terminal(s.status) && s.phase == 1) s.update_half();
}

void KMeans::sub_step() {
  State& s = *st_;
  if (!s.prep || is_terminal(s.status)) return;
  if (s.phase == 0)
    s.assign_half();
  else
    s.update_half();
}

void KMeans::State::assign_half() {
  const int k = p.k, n = this->n, d = this->d;
  // Reuse the label vector of two assigns ago when nothing else holds it (no
  // snapshot, no clone): saves allocating and faulting in n ints per pass.
  std::shared_ptr<std::vector<int>> next;
  if (sole_owner(spare_labels) && spare_labels->size() == static_cast<size_t>(n)) {
    next = std::move(spare_labels);
  } else {
    next = std::make_shared<std::vector<int>>(static_cast<size_t>(n));
  }
  spare_labels.reset();
  const Eigen::VectorXd mu_norm2 = mu.rowwise().squaredNorm();
  AssignInput in{prep->x.data(), prep->norm2.data(), n, d, k, &mu, labels->data(),
                 next->data(), mu_norm2.maxCoeff()};
  const bool low = d <= kLowDimMax;

  // Bounds bookkeeping (GEMM path): how far each centroid moved since the
  // bounds were last set, and half the distance to its nearest other centroid.
  Bounds bd{};
  Eigen::VectorXd delta, s_half;
  RowMatrixXd mu_rows;
  if (!low) {
    if (upper.size() != static_cast<size_t>(n)) {
      upper.assign(static_cast<size_t>(n), kInf);
      lower.assign(static_cast<size_t>(n), 0.0);
      bounds_valid = false;
    }
    mu_rows = mu;
    delta = Eigen::VectorXd::Zero(k);
    if (bounds_valid)
      for (int j = 0; j < k; ++j) delta[j] = (mu.row(j) - mu_bounds.row(j)).norm();
    s_half = Eigen::VectorXd::Constant(k, kInf);
    for (int a = 0; a < k; ++a)
      for (int b = a + 1; b < k; ++b) {
        const double h = 0.5 * (mu.row(a) - mu.row(b)).norm();
        s_half[a] = std::min(s_half[a], h);
        s_half[b] = std::min(s_half[b], h);
      }
    for (int j = 0; j < k; ++j) s_half[j] = k > 1 ? s_half[j] : 0.0;
    bd.amax = 0;
    for (int j = 0; j < k; ++j)
      if (delta[j] > delta[bd.amax]) bd.amax = j;
    bd.dmax1 = delta[bd.amax];
    bd.dmax2 = 0.0;
    for (int j = 0; j < k; ++j)
      if (j != bd.amax) bd.dmax2 = std::max(bd.dmax2, delta[j]);
    bd.u = upper.data();
    bd.l = lower.data();
    bd.delta = delta.data();
    bd.s_half = s_half.data();
    bd.mu_rows = mu_rows.data();
    bd.valid = bounds_valid && assigned;
  }

  const int blocks = block_count(n);
  std::vector<BlockStats> stats(static_cast<size_t>(blocks));
  for (BlockStats& s : stats) s.init(k, d);
  const int threads = parallel_threads(blocks, static_cast<double>(n) * k * d, kParallelMinWork);
  assign_pass(in, low ? prep->xcol.data() : nullptr, mu_norm2, bd, blocks, threads, stats);

  // Reduce in block order (deterministic whatever the thread count). The low-d
  // path recomputes the cluster statistics; the GEMM path adds the moves.
  if (low || !assigned) {
    sums.setZero(k, d);
    sq_sums.setZero(k);
    counts.assign(static_cast<size_t>(k), 0);
  }
  double fresh = 0.0, decrement = 0.0;
  long changed = 0;
  for (const BlockStats& s : stats) {
    sums += s.sums;
    sq_sums += s.sq;
    for (int j = 0; j < k; ++j) counts[static_cast<size_t>(j)] += s.counts[static_cast<size_t>(j)];
    fresh += s.fresh;
    decrement += s.decrement;
    changed += s.changed;
  }
  if (!low) {
    mu_bounds = mu;
    bounds_valid = true;
  }
  spare_labels = std::const_pointer_cast<std::vector<int>>(labels);
  labels = std::move(next);
  if (!assigned) {
    objective = fresh;  // first assign: every distance was computed
  } else if (!std::isfinite(objective)) {
    objective = objective_from_sums();
  } else if (changed > 0) {
    objective = std::max(0.0, objective - decrement);  // each term D_old - D_new >= 0
  }  // no label changed: J(z, U) is exactly the previous value
  assigned = true;
  this->changed = static_cast<double>(changed);
  center_shift = kNaN;
  reseeded_count = kNaN;
  reseeded.clear();
  phase = 1;
  message.clear();
  if (!std::isfinite(objective)) {
    status = Status::Diverged;
    message = "the objective became non-finite in the assign half-step (a centroid far out "
               "of range?); rewind or move the centroid back";
  }
  invalidate();
}

void KMeans::State::update_half() {
  const int k = this->p.k, d = this->d;
  const RowMatrixXd& x = prep->x;
  Eigen::MatrixXd mu_new = mu;
  Eigen::MatrixXd mu_ref = mu;  // centroid the identity is taken against
  double removed = 0.0;          // sum of D_p of points moved into empty clusters
  reseeded.clear();
  std::string notice;

  std::vector<int> empties;
  for (int j = 0; j < k; ++j)
    if (counts[static_cast<size_t>(j)] == 0) empties.push_back(j);
  if (!empties.empty()) {
    // Re-seed each empty cluster j at the point p farthest from its assigned
    // centroid (D_p = ||x_p - mu_{z_p}||^2 with the centroids of the assign),
    // and move p into j. J cannot rise: mu_j did not enter J (cluster j had no
    // point), p's term drops from D_p to ||x_p - x_p||^2 = 0, and the update
    // below then moves every centroid to the mean of its (new) cluster, which
    // minimises J for fixed labels. Only points with D_p > 0 (beyond the tie
    // tolerance) whose cluster keeps another point qualify, so no new empty
    // cluster appears.
    auto labels = std::make_shared<std::vector<int>>(*this->labels);
    const RowMatrixXd mu_rows = mu;
    const double mu_norm2_max = mu.rowwise().squaredNorm().maxCoeff();
    std::vector<double> dist(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      dist[static_cast<size_t>(i)] =
          sq_dist(x.data() + static_cast<size_t>(i) * d,
                  mu_rows.data() + static_cast<size_t>((*labels)[static_cast<size_t>(i)]) * d, d);
    std::vector<char> taken(static_cast<size_t>(n), 0);
    for (int j : empties) {
      int p = -1;
      double best = 0.0;
      for (int i = 0; i < n; ++i) {
        const double di = dist[static_cast<size_t>(i)];
        if (di > best && di > kTieRel * (prep->norm2[i] + mu_norm2_max) &&
            !taken[static_cast<size_t>(i)] &&
            counts[static_cast<size_t>((*labels)[static_cast<size_t>(i)])] >= 2) {
          best = di;
          p = i;
        }
      }
      if (p < 0) {
        notice += (notice.empty() ? "" : "; ") + std::string("cluster ") + std::to_string(j) +
                  " is empty and no point can be moved into it (all points coincide with their "
                  "centroids): its centroid stays put";
        continue;
      }
      const int o = (*labels)[static_cast<size_t>(p)];
      taken[static_cast<size_t>(p)] = 1;
      (*labels)[static_cast<size_t>(p)] = j;
      counts[static_cast<size_t>(o)] -= 1;
      counts[static_cast<size_t>(j)] = 1;
      sums.row(o) -= x.row(p);
      sums.row(j) = x.row(p);
      sq_sums[o] -= prep->norm2[p];
      sq_sums[j] = prep->norm2[p];
      mu_ref.row(j) = x.row(p);
      if (!upper.empty()) {  // p changed cluster outside the assign: re-examine it
        upper[static_cast<size_t>(p)] = kInf;
        lower[static_cast<size_t>(p)] = 0.0;
      }
      removed += best;
      reseeded.push_back(j);
      notice += (notice.empty() ? "" : "; ") + std::string("cluster ") + std::to_string(j) +
                " was empty: re-seeded at the farthest point (row " + std::to_string(p) + ")";
    }
    this->labels = std::move(labels);
  }

  double decrease = 0.0, shift = 0.0;
  bool moved = !reseeded.empty();
  for (int j = 0; j < k; ++j) {
    const int nj = counts[static_cast<size_t>(j)];
    if (nj > 0) mu_new.row(j) = sums.row(j) / static_cast<double>(nj);
    decrease += nj * (mu_new.row(j) - mu_ref.row(j)).squaredNorm();
    shift += (mu_new.row(j) - mu.row(j)).squaredNorm();
    if (!moved && !(mu_new.row(j).array() == mu.row(j).array()).all()) moved = true;
  }
  mu = std::move(mu_new);
  objective = std::max(0.0, (objective - removed) - decrease);
  center_shift = shift;
  reseeded_count = static_cast<double>(reseeded.size());
  phase = 0;
  ++iteration;
  message = notice;
  if (!std::isfinite(objective) || !mu.allFinite()) {
    status = Status::Diverged;
    message = "a centroid or the objective became non-finite in the update half-step; rewind "
               "or move the centroid back";
  } else if (changed == 0.0 && !moved) {
    status = Status::Converged;
    message = "converged after " + std::to_string(iteration) +
               " iterations: the assignment changed no point";
  } else if (iteration >= this->p.max_iter) {
    status = Status::Stopped;
    message = "reached max_iter = " + std::to_string(this->p.max_iter) + " before convergence (" +
               fmt_g(changed) + " points changed cluster in the last iteration)";
  }
  invalidate();
}

double KMeans::State::objective_from_sums() const {
  // J(z, U) = sum_j [ Q_j - 2 mu_j . S_j + n_j ||mu_j||^2 ] (exact for any U).
  double j_total = 0.0;
  for (int j = 0; j < p.k; ++j) {
    const int nj = counts[static_cast<size_t>(j)];
    if (nj == 0) continue;
    j_total += sq_sums[j] - 2.0 * mu.row(j).dot(sums.row(j)) + nj * mu.row(j).squaredNorm();
  }
  return std::max(0.0, j_total);
}

// ---------------------------------------------------------------- edits

void KMeans::set_live(const std::string& name, double value) {
  param_table().set_live(st_->p, name, value, info().name);  // throws: unknown, rebuild or out of range
  if (!st_->prep) return;
  if (st_->status == Status::Stopped && st_->iteration < st_->p.max_iter) {
    st_->status = Status::Running;
    st_->message.clear();
  } else if (st_->status == Status::Running && st_->phase == 0 && st_->iteration >= st_->p.max_iter) {
    st_->status = Status::Stopped;
    st_->message = "reached max_iter = " + std::to_string(st_->p.max_iter) + " before convergence";
  }
  st_->invalidate();
}

bool KMeans::apply(const Intent& intent) {
  State& s = *st_;
  if (!s.prep) return false;
  const bool move = intent.kind == "move_centroid";
  const bool place = intent.kind == "place_centroid";
  if (!move && !place) return false;
  int j = intent.index;
  if (place) {
    if (s.p.init != Init::Manual || s.iteration != 0 || s.phase != 0 || s.assigned) return false;
    if (j < 0) {
      j = -1;
      for (int t = 0; t < s.p.k; ++t)
        if (!s.placed[static_cast<size_t>(t)]) {
          j = t;
          break;
        }
    }
  }
  if (j < 0 || j >= s.p.k) return false;
  const int nv = static_cast<int>(intent.values.size());
  if (nv != s.d && !(nv == 2 && s.d > 2)) return false;
  for (double v : intent.values)
    if (!std::isfinite(v)) return false;
  for (int c = 0; c < nv; ++c)
    s.mu(j, c) = intent.values[static_cast<size_t>(c)] - s.prep->mean[c];
  if (place) s.placed[static_cast<size_t>(j)] = 1;

  // The labels stay; the objective is J(z, U) for the edited centroids.
  s.objective = s.assigned ? s.objective_from_sums() : kNaN;
  s.phase = 0;
  if (s.status == Status::Converged || s.status == Status::Diverged ||
      (s.status == Status::Stopped && s.iteration < s.p.max_iter)) {
    s.status = Status::Running;
  }
  s.message = (place ? "placed" : "moved") + std::string(" centroid ") + std::to_string(j);
  if (s.status == Status::Stopped) s.message += " (max_iter reached: raise it to continue)";
  s.invalidate();
  return true;
}

// ---------------------------------------------------------------- snapshot

size_t KMeansSeeding::byte_size() const {
  size_t b = sizeof(*this) + rows.size() * sizeof(int);
  for (const std::vector<double>& p : probs) b += sizeof(p) + p.size() * sizeof(double);
  return b;
}

size_t KMeansSnapshot::byte_size() const {
  size_t b = sizeof(*this) + metrics.size() * sizeof(double) + message.capacity() +
             static_cast<size_t>(centroids.size()) * sizeof(double) +
             (cluster_sizes.size() + reseeded.size()) * sizeof(int) + placed.size();
  if (labels) b += sizeof(*labels) + labels->size() * sizeof(int);
  if (seeding) b += seeding->byte_size();
  return b;
}

std::shared_ptr<const KMeansSnapshot> KMeans::kmeans_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto out = std::make_shared<KMeansSnapshot>();
  if (!s.prep) {
    describe_not_reset(*out, "k-means", metric_table(), " (no dataset)");
    out->labels = std::make_shared<const std::vector<int>>();
    s.cache = out;
    return s.cache;
  }
  s.describe(*out);
  out->metrics = metric_table().blank();
  out->metrics[kMetricObjective] = s.objective;
  out->metrics[kMetricChanged] = s.changed;
  out->metrics[kMetricCenterShift] = s.center_shift;
  out->metrics[kMetricReseeded] = s.reseeded_count;
  out->centroids = s.mu.rowwise() + s.prep->mean.transpose();
  out->labels = s.labels;
  out->cluster_sizes = s.counts;
  out->reseeded = s.reseeded;
  out->placed = s.placed;
  if (s.iteration == 0 && s.phase == 0 && !s.assigned) out->seeding = s.seeding;
  s.cache = out;
  return s.cache;
}

std::shared_ptr<const Snapshot> KMeans::snapshot() const { return kmeans_snapshot(); }

CILAB_MODULE_STATE(KMeans)

}  // namespace cilab
