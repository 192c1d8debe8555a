// ImGui-free pieces of the embedding view (word2vec, glove), unit-tested in
// tests/views/embeddings/test_embedding_view.cpp: the neighbour table of typed probe
// words (with the closest spelling of a word not in the vocabulary), the 2-D
// map of chosen words, an analogy with its expected answer, the curves of the
// fifth tab (q_alpha against p by rank, GloVe's f(N)), a correlation, and the
// one job computing the pictures off the UI thread from a snapshot's vectors.
#pragma once

#include "algorithms/text/embedding.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// Levenshtein distance (insertions, deletions, substitutions, each 1) between
// a and b; stops counting at `cap` (returns cap + 1 beyond it).
int edit_distance(const std::string& a, const std::string& b, int cap = 1 << 30);

// The vocabulary word closest to `word` by edit distance (at most
// max_distance; ties: the more frequent word, i.e. the lower id), or "" if none.
std::string closest_spelling(const Vocabulary& vocab, const std::string& word, int max_distance = 2);

// A word's id in `vocab` (-1 when absent).
int vocab_id(const Vocabulary& vocab, const std::string& word);
// The word of id `id`, or "?" outside the vocabulary.
std::string vocab_word(const Vocabulary& vocab, int id);

// One probe of the neighbour table: its id (-1: not in the vocabulary, then
// `suggestion` is the closest spelling or ""), its k nearest neighbours.
struct NeighbourRow {
  std::string word;
  int id = -1;
  std::string suggestion;
  std::vector<Neighbour> neighbours;
};
// The table of `words` on the unit vectors: nearest_neighbours(unit, id, k) each.
std::vector<NeighbourRow> neighbour_table(const EmbeddingMatrix& unit, const Vocabulary& vocab,
                                          const std::vector<std::string>& words, int k);

// The words of the map: `typed` (comma-separated) when not empty, else each
// probe of `table` followed by its first `per_probe` neighbours; ids in the
// vocabulary only, each once, in order; at most max_words.
std::vector<int> map_word_ids(const Vocabulary& vocab, const std::string& typed,
                              const std::vector<NeighbourRow>& table, int per_probe, int max_words);

// The 2-D PCA map of the map's words (embedding.h's pca_map) with, per point,
// the id and whether it is a probe (drawn larger).
struct WordMap {
  std::vector<int> ids;
  std::vector<char> is_probe;
  PcaMap map;
};
WordMap word_map(const EmbeddingMatrix& m, const std::vector<int>& ids, const std::vector<NeighbourRow>& table);

// a - b + c: the three words' ids (-1 absent), the top-k answers and the rank
// (0-based) of the expected word among them (-1 none or not found); a message
// naming any missing word.
struct AnalogyResult {
  std::string a, b, c, expected;
  int ia = -1, ib = -1, ic = -1, iexpected = -1;
  std::vector<Neighbour> answers;
  int expected_rank = -1;
  std::string message;
};
AnalogyResult solve_analogy(const EmbeddingMatrix& unit, const Vocabulary& vocab, const std::string& a,
                            const std::string& b, const std::string& c, const std::string& expected, int k);

// Two distributions over the vocabulary (ids by descending count) as curves
// against rank = id + 1, thinned to about `points` log-spaced ranks (the
// first and last kept): rank, q[rank - 1], p[rank - 1]; zero values dropped.
struct RankCurves {
  std::vector<double> rank, q, p;
};
RankCurves rank_curves(const std::vector<double>& q, const std::vector<double>& p, int points = 400);

// GloVe's weight f(N) = min(1, (N / x_max)^alpha) sampled at `points` N
// log-spaced over [n_min, n_max].
void glove_weight_curve(double x_max, double alpha, double n_min, double n_max, int points, std::vector<double>& n,
                        std::vector<double>& f);

// Pearson correlation of x and y (NaN with fewer than 2 points or a constant series).
double pearson(const std::vector<double>& x, const std::vector<double>& y);

// The score pairs as the scatter's x (target) and y (score), with their
// correlation.
struct ScoreScatter {
  std::vector<double> target, score;
  double correlation = std::numeric_limits<double>::quiet_NaN();
};
ScoreScatter score_scatter(const std::vector<ScorePair>& pairs);

// One column of the per-epoch records: x = epoch, y = metrics[metric] (NaN kept out).
void epoch_series(const std::vector<EmbeddingEpoch>& epochs, int metric, std::vector<double>& x,
                  std::vector<double>& y);

// What the view asks the pictures job for.
struct EmbeddingRequest {
  std::vector<std::string> probes;  // neighbour table
  int k = 10;
  std::string map_words;            // "" = probes and neighbours
  int map_per_probe = 6, map_max = 60;
  std::string a = "king", b = "man", c = "woman", expected;  // analogy
  int analogy_k = 5;
  bool operator==(const EmbeddingRequest& o) const {
    return probes == o.probes && k == o.k && map_words == o.map_words && map_per_probe == o.map_per_probe &&
           map_max == o.map_max && a == o.a && b == o.b && c == o.c && expected == o.expected &&
           analogy_k == o.analogy_k;
  }
  bool operator!=(const EmbeddingRequest& o) const { return !(*this == o); }
};

// What the job computes for one copy of the vectors.
struct EmbeddingPictures {
  int vectors_iteration = -1;                   // the vectors' iteration
  const EmbeddingMatrix* unit_key = nullptr;     // identity of the vectors used (never dereferenced)
  EmbeddingRequest request;
  std::vector<NeighbourRow> table;
  WordMap map;
  AnalogyResult analogy;
};
// Computes every picture of `req` from the snapshot's vocabulary and unit
// vectors (the map too: PCA of the directions cosine neighbours compare).
EmbeddingPictures compute_embedding_pictures(const Vocabulary& vocab, const EmbeddingMatrix& unit,
                                             const EmbeddingRequest& req);

}  // namespace cilab
