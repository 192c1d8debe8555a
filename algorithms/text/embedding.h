// Word embeddings: the matrix type, the snapshot base and the utilities shared
// by the embedding modules (word2vec, glove), their view and the CLI report.
//
// An embedding is a |V| x d row-major float matrix whose row i is the vector
// of vocabulary word i (Vocabulary ids: by descending count). The utilities
// are pure functions of such a matrix (and a Vocabulary where words matter):
//   normalized(m)                 rows scaled to unit length (cosine = dot product)
//   nearest_neighbours(u, w, k)   the k words of largest cosine with w (w excluded)
//   analogy(u, a, b, c, k)        a - b + c on unit rows, a, b, c excluded (gensim's
//                                 most_similar(positive=[a, c], negative=[b]))
//   pca_map(m, ids)               the chosen rows projected on their first two
//                                 principal axes (Eigen in the .cpp only)
//   synonym_recall(u, probes, k)  the WordNet oracle (algorithms/text/wordnet.h)
#pragma once

#include "algorithms/core/module.h"
#include "algorithms/text/text.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// A |V| x d row-major float matrix: row i is word i's vector.
struct EmbeddingMatrix {
  int rows = 0, dim = 0;
  std::vector<float> values;  // rows * dim

  EmbeddingMatrix() = default;
  EmbeddingMatrix(int r, int d) : rows(r), dim(d), values(static_cast<size_t>(r) * static_cast<size_t>(d), 0.0f) {}
  const float* row(int i) const { return values.data() + static_cast<size_t>(i) * static_cast<size_t>(dim); }
  float* row(int i) { return values.data() + static_cast<size_t>(i) * static_cast<size_t>(dim); }
  size_t byte_size() const { return sizeof(*this) + values.size() * sizeof(float); }
};

// A copy of `m` with every row scaled to unit Euclidean length (a zero row stays
// zero), so that a dot product of two rows is their cosine.
EmbeddingMatrix normalized(const EmbeddingMatrix& m);

// One neighbour: vocabulary id and cosine similarity.
struct Neighbour {
  int id = -1;
  float cosine = 0;
};

// The k rows of `unit` (normalised rows) most similar by cosine to row `word`,
// by descending cosine (ties: lower id first), `word` itself excluded.
std::vector<Neighbour> nearest_neighbours(const EmbeddingMatrix& unit, int word, int k);

// The k rows most similar by cosine to the vector `v` (dim values, any
// length), the ids in `exclude` left out.
std::vector<Neighbour> nearest_to_vector(const EmbeddingMatrix& unit, const float* v, int k,
                                         const std::vector<int>& exclude);

// The analogy a - b + c ("king" - "man" + "woman" -> "queen"): the k rows
// nearest by cosine to unit(a) - unit(b) + unit(c), a, b and c excluded, as
// gensim's KeyedVectors.most_similar(positive=[a, c], negative=[b]).
std::vector<Neighbour> analogy(const EmbeddingMatrix& unit, int a, int b, int c, int k);

// A 2-D map of chosen words: the rows `ids` of `m`, centred on their mean and
// projected on their first two principal axes (x[i], y[i] for ids[i]);
// explained[j] = the share of the chosen rows' variance along axis j. Fewer
// than 3 ids or d < 2: the missing axes are 0.
struct PcaMap {
  std::vector<float> x, y;
  double explained[2] = {0, 0};
};
PcaMap pca_map(const EmbeddingMatrix& m, const std::vector<int>& ids);

// The fixed probe set of the synonym oracle: probe word ids (vocabulary ids)
// and, per probe, its WordNet synonyms that are in the vocabulary (ids).
struct SynonymProbes {
  std::vector<int> words;
  std::vector<std::vector<int>> synonyms;
  int size() const { return static_cast<int>(words.size()); }
};

// Synonym recall@k of an embedding: with N_k(w) the k nearest neighbours of
// probe w (cosine, w excluded) and S(w) its synonyms in the vocabulary,
//   recall@k = sum_w |S(w) ∩ N_k(w)| / sum_w min(k, |S(w)|),
// so 1 when every probe's synonyms fill its neighbour list (or all appear in
// it). NaN without probes. `unit` must have normalised rows.
double synonym_recall(const EmbeddingMatrix& unit, const SynonymProbes& probes, int k = 10);

// The help text of the recall metric (the window shows it).
extern const char* const kSynonymRecallHelp;

// Comma-separated probe words ("king, Water") -> lowercased, trimmed, empty
// items dropped.
std::vector<std::string> parse_probe_words(const std::string& text);

// One learned score against its target on a small vocabulary (the view's
// scatter): word2vec <x_w, y_v> against PMI(w, v) - log k, glove against log N_vw.
struct ScorePair {
  int w = 0, v = 0;
  double count = 0;   // co-occurrence count N_wv
  double target = 0;  // PMI - log k, log N, ...
  double score = 0;   // the model's <x_w, y_v> (+ biases for glove)
};

// Per-epoch record: the module's whole metric vector at the end of the epoch.
struct EmbeddingEpoch {
  int epoch = 0;      // 1-based: the epoch just completed
  int iteration = 0;  // iteration at its end
  std::vector<double> metrics;
};

// Base of the embedding modules' snapshots (word2vec, glove): what the shared
// embedding view draws. Large data is shared by shared_ptr between snapshots;
// `vectors` is a copy of the input vectors published a few times per second
// of training and on settle(), taken at `vectors_iteration`.
struct EmbeddingSnapshot : Snapshot {
  std::shared_ptr<const Vocabulary> vocab;          // words, counts (ids by descending count)
  std::shared_ptr<const EmbeddingMatrix> vectors;   // input vectors x_w, |V| x d (null before reset)
  std::shared_ptr<const EmbeddingMatrix> unit;      // `vectors` with normalised rows
  int vectors_iteration = 0;                        // the iteration `vectors` was taken at
  std::vector<std::string> probes;                  // the `probe` parameter's words
  std::shared_ptr<const std::vector<EmbeddingEpoch>> epochs;  // one row per completed epoch
  // The synonym oracle's probe set (shared) and its latest live value: taken
  // at most every few seconds while training (NaN = not yet), at iteration
  // recall_iteration; the epoch-end values are in the metrics.
  std::shared_ptr<const SynonymProbes> synonym_probes;
  double live_recall = std::numeric_limits<double>::quiet_NaN();
  int recall_iteration = -1;
  double live_words_per_s = std::numeric_limits<double>::quiet_NaN();  // wall clock, recent chunks
  // word2vec: the noise distribution q_alpha (per vocabulary id, sums to 1)
  // and the unigram p beside it; empty for glove.
  std::shared_ptr<const std::vector<double>> noise_q, unigram_p;
  double ns_exponent = 0;
  // Small vocabularies only (<= kScorePairMaxWords words): each co-occurring
  // pair's learned score against its target, refreshed with `vectors`.
  static constexpr int kScorePairMaxWords = 200;
  std::shared_ptr<const std::vector<ScorePair>> score_pairs;
  std::string score_target;  // "PMI(w, v) - log k", "log N_wv"
  int64_t epoch_words = 0;  // corpus words per epoch (after min_count, before subsampling)

  size_t byte_size() const override;
  void shared_parts(std::vector<SharedPart>& out) const override;
};

// The CLI's report lines for `s`: for each probe word its `k` nearest
// neighbours with cosines ("king: queen 0.71, prince 0.66, ..."), or
// "water: not in the vocabulary".
std::vector<std::string> neighbour_report(const EmbeddingSnapshot& s, int k = 10);

// The word vectors of `s` (its `vectors`: word2vec's input vectors x_w, GloVe's
// as its view shows them) in the word2vec text format that gensim's
// KeyedVectors.load_word2vec_format reads: a line "V d", then per word, by
// vocabulary id, the word and its d values (each float's shortest round-trip
// decimal), space separated. Returns the number of words; throws
// std::invalid_argument when `s` has no vectors yet.
int write_word2vec_format(const EmbeddingSnapshot& s, std::ostream& out);

// The embedding modules' Module::report: neighbour_report's lines, each ended
// by a newline ("" when `last` is not an EmbeddingSnapshot).
std::string embedding_report(const Snapshot& last, int k = 10);

}  // namespace cilab
