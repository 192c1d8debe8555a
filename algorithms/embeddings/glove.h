// GloVe (course 8.4): global vectors from the windowed co-occurrence counts of
// a text corpus, by weighted least squares on log N.
//
// Vocabulary: the corpus words seen at least `min_count` times, at most
// `max_vocab` of the most frequent (ids by descending count). N_vw: the
// co-occurrence counts within `window` words, each pair weighted 1/distance as
// GloVe's cooccur tool does (text.h's cooccurrence, InverseDistance), symmetric.
// Model: log N_vw ~ <x_v, y_w> + b_v + c_w, fitted on the nonzero entries by
//   J = sum_{N_vw > 0} f(N_vw) (<x_v, y_w> + b_v + c_w - log N_vw)^2,
//   f(N) = min(1, (N / x_max)^alpha)          (GloVe's names x_max, alpha)
// plus lambda (||X||^2 + ||Y||^2) for the ALS solver (lambda = 0 allowed).
// Solvers (`solver`):
//   adagrad  GloVe's own: the entries in a seeded random order, one AdaGrad
//            step per entry on its two rows (x_v, b_v) and (y_w, c_w), through the
//            shared Optimizer's sparse step_rows (algorithms/optim), learning rate
//            `lr` (GloVe's eta, 0.05); the gradient is that of
//            1/2 f (<x, y> + b + c - log N)^2 (GloVe's code). One iteration = a
//            chunk of `batch_entries` entries; an epoch = one pass.
//   als      alternating least squares: every (x_v, b_v) solved exactly given Y
//            and c (a (d+1) x (d+1) system per word), then every (y_w, c_w): the
//            penalised objective never rises (the same argument as matrix
//            completion's ALS, course 4.3). One iteration = one sweep of both
//            sides = one epoch; rows solved in parallel, deterministic.
// Start: x, y uniform in (-0.5, 0.5) / vector_size, biases 0 (GloVe's C code).
// The published embedding is x + y (GloVe's default output, "model 2").
//
// Metrics: loss (J / |entries|, the mean weighted squared residual: for adagrad
// over the chunk's entries as they were visited, for als over all entries after
// the sweep), objective (ALS: J + lambda (||X||^2 + ||Y||^2) after the sweep),
// entries_per_s and synonym_recall_at_10 at each epoch end (embedding.h's oracle),
// lr. epoch_columns = loss, entries_per_s, synonym_recall_at_10.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/text/embedding.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// f(N) = min(1, (N / x_max)^alpha): GloVe's weight (0 for N <= 0).
double glove_weight(double n, double x_max, double alpha);

// The weighted least-squares problem GloVe solves, on any set of entries:
// rows v, columns w (0 <= v, w < words), the target log N_vw and the weight f.
struct GloveEntries {
  int words = 0;
  std::vector<int32_t> row, col;
  std::vector<float> log_count, weight;
  size_t size() const { return row.size(); }
};

// The entries of a co-occurrence matrix (every stored N_vw > 0) with GloVe's f.
struct Cooccurrence;
GloveEntries glove_entries(const Cooccurrence& n, double x_max, double alpha);

// The parameters: x_v (rows of x), y_w (rows of y), biases b, c.
struct GloveModel {
  int words = 0, dim = 0;
  // Row-major blocks of (dim + 1) floats: word v's x_v then b_v in the first
  // half, word w's y_w then c_w in the second half (rows words .. 2 words - 1):
  // one flat vector for the shared Optimizer's sparse steps.
  std::vector<float> params;
  float* x(int v) { return params.data() + static_cast<size_t>(v) * (dim + 1); }
  float* y(int w) { return params.data() + static_cast<size_t>(words + w) * (dim + 1); }
  const float* x(int v) const { return params.data() + static_cast<size_t>(v) * (dim + 1); }
  const float* y(int w) const { return params.data() + static_cast<size_t>(words + w) * (dim + 1); }
  float b(int v) const { return x(v)[dim]; }
  float c(int w) const { return y(w)[dim]; }
  // <x_v, y_w> + b_v + c_w
  double predict(int v, int w) const;
  // x + y as an embedding (|V| x dim).
  EmbeddingMatrix sum_vectors() const;
};

// J = sum_e f_e (predict(row_e, col_e) - log N_e)^2 (no penalty).
double glove_loss(const GloveModel& m, const GloveEntries& e);

struct GloveSnapshot : EmbeddingSnapshot {
  int solver = 0;  // Glove::Solver
  double x_max = 100, alpha = 0.75;
  double lr = 0;
  int64_t entries = 0;  // nonzero co-occurrence entries (the sum's terms)
  // A fixed seeded sample of the entries (at most kResidualSample) with their
  // residual predict - log N, refreshed with `vectors`: the residual on log N plot.
  static constexpr int kResidualSample = 4000;
  struct ResidualPoint {
    float log_count = 0, residual = 0, weight = 0;
  };
  std::shared_ptr<const std::vector<ResidualPoint>> residuals;
  size_t byte_size() const override;
};

class Glove : public ModuleBase<Glove> {
 public:
  enum class Solver : int { AdaGrad, Als };

  // Defaults live here (member initialisers); the ParamTable in the .cpp reads them.
  struct Params {
    Solver solver = Solver::AdaGrad;
    int vector_size = 50;
    int window = 10;
    double x_max = 100;
    double alpha = 0.75;
    int min_count = 5;
    int max_vocab = 20000;
    double lr = 0.05;
    double lambda = 1e-4;
    int batch_entries = 200000;
    int epochs = 25;
    int recall_probes = 1000;
    std::string probe = "king,water";
  };

  enum Metric : int {
    kMetricLoss,
    kMetricEntriesPerS,
    kMetricRecall,
    kMetricObjective,
    kMetricLr,
    kNumMetrics
  };


  Glove() = default;
  Glove(const Glove& other);  // the copy owns its own epoch list (it is appended to)

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  void step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;
  bool settle() override;
  size_t state_bytes() const override;
  std::string report(const Snapshot& last) const override;

  std::shared_ptr<const GloveSnapshot> glove_snapshot() const;
  static Params params_from(const ParamValues& values);

  // For tests: the model, its entries and the vocabulary.
  const GloveModel& model() const;
  const GloveEntries& entries() const;

 private:
  struct State;
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Glove)

// GloVe's per-entry loss 1/2 f (<x_v, y_w> + b_v + c_w - log N)^2 and its
// gradient rows: grad_x = (f r y_w, f r) for (x_v, b_v) and grad_y = (f r x_v, f r)
// for (y_w, c_w), r the residual (each dim + 1 floats). The AdaGrad solver's step.
double glove_entry_gradient(const GloveModel& m, int v, int w, float log_count, float weight, float* grad_x,
                            float* grad_y);

// One ALS half-sweep on `m` (rows of the x side when `x_side`, else the y
// side): each row's (d + 1) unknowns solved exactly given the other side,
// with ridge lambda on the vector part. Deterministic, parallel over rows.
// Exposed for the tests (monotonicity, exact recovery).
void glove_als_half_sweep(GloveModel& m, const GloveEntries& e, bool x_side, double lambda);

}  // namespace cilab
