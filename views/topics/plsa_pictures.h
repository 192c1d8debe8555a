// ImGui-free pieces of the plsa view (unit-tested in tests/views/topics/test_plsa_view.cpp): the live
// oracles judged on a snapshot, the document-topic simplex (ternary coordinates) and its PCA
// projection for K != 3, the topics-against-categories confusion table normalised per row, the
// top words' changes between two snapshots, and the rows / columns the U and V heatmaps show.
// Everything a frame needs from one snapshot is gathered in PlsaPictures, computed once per
// snapshot (in a background job when the corpus is large).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cilab {

struct PlsaFactors;
struct PlsaSnapshot;

// One live oracle of the header.
struct PlsaOracle {
  enum class State { NotApplicable, Pending, Holds, Broken };
  State state = State::NotApplicable;
  std::string name;     // "l never falls"
  std::string value;    // "largest fall 0", "max deviation 2.2e-16"
  std::string formula;  // the tooltip: what is checked and why it holds
};
// Relative slack of the oracles: a fall of l below kOracleSlack |l| is rounding, and the
// column sums may miss 1 by kOracleSlack.
constexpr double kOracleSlack = 1e-9;
// The four oracles of the course (7.2) on snapshot s: l never falls (pLSA; n/a for the NMFs);
// U, V and q stochastic; l <= the saturated bound; K = 1 gives the unigram after one M-step.
std::vector<PlsaOracle> plsa_oracles(const PlsaSnapshot& s);

// The document-topic simplex: the point of barycentric weights (p0, p1, p2) in an equilateral
// triangle with topic 0 at (0, 0), topic 1 at (1, 0) and topic 2 at (1/2, sqrt(3)/2).
constexpr double kTernaryHeight = 0.86602540378443864676;  // sqrt(3)/2
void ternary_xy(double p0, double p1, double p2, double* x, double* y);

// The documents of factors f as 2-D points: K = 3 the ternary coordinates; K >= 4 the first two
// principal axes of the rows p(z|d) (algorithms/linalg/projection.h); K = 2 (p(z=1|d), 0) on the
// 1-simplex; K = 1 every document at (1, 0). `rows` are the documents (rows of N) drawn.
struct DocPoints {
  std::vector<double> x, y;  // one per row of N
  int k = 0;
  bool ternary = false;
  double explained = 0;  // K >= 4: the share of the variance the two axes show
  std::string x_label, y_label;
};
DocPoints document_points(const PlsaFactors& f);

// The nearest of the points (x, y) to (px, py) in pixels, with sx, sy the pixels per unit on
// each axis; -1 when none is within max_px or shown[i] is 0 (shown may be empty: all shown).
int nearest_point(const std::vector<double>& x, const std::vector<double>& y, const std::vector<char>& shown, double px,
                  double py, double sx, double sy, double max_px);

// Topics against categories: rows = categories (L), columns = topics (K). counts is the
// snapshot's K x L table (topic-major: counts[z L + c]); the result is L x K row-major, each row
// divided by its sum (a category with no document stays 0), with the row sums in `row_total`.
struct Confusion {
  int categories = 0, topics = 0;
  std::vector<double> value;      // L x K, rows sum to 1 (or 0)
  std::vector<double> row_total;  // L: documents (argmax) or probability mass of the category
};
Confusion confusion_table(const std::vector<double>& topic_major, int k, int categories);
Confusion confusion_table(const std::vector<int>& topic_major, int k, int categories);

// How each entry of the current top-word lists moved since the previous snapshot's:
// change[z][r] for word cur[z][r]: 0 same rank, 1 another rank of the same topic's list, 2 new
// in the list (everything 0 when prev is empty or has another number of topics).
enum WordChange : int { kWordSame = 0, kWordMoved = 1, kWordNew = 2 };
std::vector<std::vector<int>> top_word_changes(const std::vector<std::vector<int>>& prev,
                                               const std::vector<std::vector<int>>& cur);

// The terms the U heatmap shows: the first `per_topic` top words of every topic, topic by topic,
// each term once.
std::vector<int> heatmap_terms(const std::vector<std::vector<int>>& top_words, int per_topic);
// `count` documents evenly spaced over 0..n-1 (all of them when n <= count), then ordered by
// their argmax topic and, within a topic, by decreasing p(z|d): V's heatmap in blocks.
std::vector<int> heatmap_docs(const PlsaFactors& f, int count);

// What the view draws from one snapshot, computed once per snapshot (serial).
struct PlsaPictures {
  uint64_t serial = 0;
  int k = 0;
  DocPoints points;
  Confusion by_argmax, by_mass;  // empty without labels
  std::vector<int> u_terms;      // U heatmap rows (terms)
  std::vector<float> u_values;   // u_terms x K, p(w|z)
  std::vector<int> v_docs;       // V heatmap columns (documents, rows of N)
  std::vector<float> v_values;   // K x v_docs, p(z|d)
  float u_max = 0, v_max = 0;
};
// Every picture of snapshot s (u_per_topic top words per topic for U, v_docs documents for V).
PlsaPictures make_plsa_pictures(const PlsaSnapshot& s, int u_per_topic, int v_docs);

}  // namespace cilab
