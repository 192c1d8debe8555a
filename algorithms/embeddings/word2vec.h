// word2vec: skip-gram with negative sampling (SGNS, course 8.3) on a text
// corpus, as word2vec's C code and gensim's Word2Vec(sg=1) train it.
//
// Vocabulary: the corpus words seen at least `min_count` times (ids by
// descending count). Each word w has an input vector x_w (the embedding,
// initialised uniform in (-0.5, 0.5) / vector_size as gensim) and an output
// vector y_w (initialised 0). For a centre token w_t, a window size b is drawn
// uniformly in 1..window (gensim's reduced windows; shrink_windows=false keeps
// b = window) and every context token v = w_{t+delta}, 1 <= |delta| <= b,
// inside the same document, gives one positive pair (w, v) and `negative`
// noise words u ~ q_alpha, q_alpha(u) ∝ count(u)^alpha (alpha = ns_exponent:
// 0 uniform, 0.75 word2vec, 1 unigram). One SGD step per pair on
//   l(w, v) = -log sigma(<x_w, y_v>) - sum_u log sigma(-<x_w, y_u>),
//   sigma(z) = 1 / (1 + e^-z),
// with the learning rate decayed linearly from lr to min_lr over all epochs
// (gensim's alpha, min_alpha). Frequent words are dropped per occurrence with
// probability 1 - keep(w) (text.h's subsample_keep_probability, `sample`), drawn
// from the module's seeded Rng, before the windows are formed (as gensim).
// With enough dimensions the optimum satisfies <x_w, y_v> = PMI(w, v) - log k
// (Levy & Goldberg 2014; course 8.3), checked in the tests on a tiny corpus.
//
// One iteration = one chunk of about batch_words (10 000, gensim's batch_words)
// corpus words, whole documents where they fit; an epoch = one pass. workers > 1
// trains a chunk's parts on that many threads without locks (Hogwild, as
// gensim): fast but not bit-reproducible. workers = 1 (default) is deterministic.
//
// Metrics per iteration: loss (the chunk's mean over positive pairs of l), the
// mean sigma(score) on the positive and on the negative pairs, lr (at the
// chunk's end); at each epoch end also words_per_s (corpus words after
// min_count, before subsampling, per second of training wall-clock time; NaN
// between epoch ends, and re-measured when a rewind re-simulates an epoch) and
// synonym_recall_at_10 (embedding.h's oracle, on the input vectors).
// epoch_columns = loss, words_per_s, synonym_recall_at_10.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/text/embedding.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct Word2VecSnapshot : EmbeddingSnapshot {
  double lr = 0;         // learning rate at the end of the last chunk
  int negative = 0;      // k
  int64_t words_done = 0;  // corpus words trained in all epochs so far
  size_t byte_size() const override;
};

class Word2Vec : public ModuleBase<Word2Vec> {
 public:
  // Defaults live here (member initialisers); the ParamTable in the .cpp reads them.
  struct Params {
    int vector_size = 100;
    int window = 5;
    int negative = 5;
    double ns_exponent = 0.75;
    double sample = 1e-3;
    int min_count = 5;
    int epochs = 5;
    double lr = 0.025;
    double min_lr = 0.0001;
    int workers = 1;
    bool shrink_windows = true;
    int batch_words = 10000;
    int recall_probes = 1000;
    std::string probe = "king,water";
  };

  enum Metric : int {
    kMetricLoss,
    kMetricWordsPerS,
    kMetricRecall,
    kMetricSigmaPositive,
    kMetricSigmaNegative,
    kMetricLr,
    kNumMetrics
  };

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  void step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;
  bool settle() override;
  size_t state_bytes() const override;
  // The CLI's closing lines: each probe word's 10 nearest neighbours with
  // cosines, one line each ("water: not in the vocabulary" for a word it lacks).
  std::string report(const Snapshot& last) const override;

  std::shared_ptr<const Word2VecSnapshot> word2vec_snapshot() const;
  static Params params_from(const ParamValues& values);

  // For tests: the live input (x) and output (y) vectors, the vocabulary and
  // the noise distribution q_alpha.
  const EmbeddingMatrix& input_vectors() const;
  const EmbeddingMatrix& output_vectors() const;
  const Vocabulary& vocabulary() const;
  const std::vector<double>& noise_distribution() const;

 private:
  struct State;
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Word2Vec)

// ---------------------------------------------------------------- SGNS kernels
// (pure functions, used by the module and checked by the tests)

// sigma(z) = 1 / (1 + e^-z), exact.
double sigmoid(double z);

// word2vec.c's EXP_TABLE: sigma tabulated on [-6, 6] (kSigmoidTableSize
// entries); values outside are clipped to sigma(±6).
class SigmoidTable {
 public:
  static constexpr int kSize = 1000;
  static constexpr float kMaxExp = 6.0f;
  SigmoidTable();
  float operator()(float z) const;

 private:
  std::vector<float> table_;
};

// q_alpha(w) = count_w^alpha / sum_u count_u^alpha (alpha = 0: uniform,
// 1: unigram frequencies).
std::vector<double> noise_distribution(const std::vector<int64_t>& counts, double alpha);

// Shannon entropy -sum q log q (nats).
double entropy(const std::vector<double>& q);

// The SGNS loss of one positive pair and its negatives,
//   l = -log sigma(<x, y_pos>) - sum_j log sigma(-<x, y_neg_j>),
// and its gradients (when not null; each of size d, grad_neg k x d row-major).
double sgns_pair_loss(const float* x, const float* y_pos, const std::vector<const float*>& y_neg, int d,
                      std::vector<double>* grad_x, std::vector<double>* grad_pos, std::vector<double>* grad_neg);

}  // namespace cilab
