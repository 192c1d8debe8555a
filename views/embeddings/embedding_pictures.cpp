// ImGui-free pieces of the embedding view (see embedding_pictures.h).
#include "views/embeddings/embedding_pictures.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace cilab {

int edit_distance(const std::string& a, const std::string& b, int cap) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  if (std::abs(n - m) > cap) return cap + 1;
  std::vector<int> prev(static_cast<size_t>(m) + 1), cur(static_cast<size_t>(m) + 1);
  for (int j = 0; j <= m; ++j) prev[static_cast<size_t>(j)] = j;
  for (int i = 1; i <= n; ++i) {
    cur[0] = i;
    int row_min = cur[0];
    for (int j = 1; j <= m; ++j) {
      const size_t sj = static_cast<size_t>(j);
      const int sub = prev[sj - 1] + (a[static_cast<size_t>(i) - 1] == b[sj - 1] ? 0 : 1);
      cur[sj] = std::min({prev[sj] + 1, cur[sj - 1] + 1, sub});
      row_min = std::min(row_min, cur[sj]);
    }
    if (row_min > cap) return cap + 1;
    prev.swap(cur);
  }
  return std::min(prev[static_cast<size_t>(m)], cap + 1);
}

int vocab_id(const Vocabulary& vocab, const std::string& word) {
  const auto it = vocab.index.find(word);
  if (it != vocab.index.end()) return it->second;
  if (vocab.index.empty())  // a vocabulary built by hand without its index
    for (int i = 0; i < vocab.size(); ++i)
      if (vocab.words[static_cast<size_t>(i)] == word) return i;
  return -1;
}

std::string vocab_word(const Vocabulary& vocab, int id) {
  return id >= 0 && id < vocab.size() ? vocab.words[static_cast<size_t>(id)] : std::string("?");
}

std::string closest_spelling(const Vocabulary& vocab, const std::string& word, int max_distance) {
  int best = max_distance + 1;
  std::string out;
  for (const std::string& w : vocab.words) {  // ids by descending count: the first of a tie is the more frequent
    const int d = edit_distance(word, w, best - 1);
    if (d < best) {
      best = d;
      out = w;
      if (d <= 1) break;  // no closer word but the word itself, which is absent
    }
  }
  return out;
}

std::vector<NeighbourRow> neighbour_table(const EmbeddingMatrix& unit, const Vocabulary& vocab,
                                          const std::vector<std::string>& words, int k) {
  std::vector<NeighbourRow> rows;
  for (const std::string& w : words) {
    NeighbourRow r;
    r.word = w;
    r.id = vocab_id(vocab, w);
    if (r.id >= 0 && r.id < unit.rows)
      r.neighbours = nearest_neighbours(unit, r.id, k);
    else
      r.suggestion = closest_spelling(vocab, w);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<int> map_word_ids(const Vocabulary& vocab, const std::string& typed,
                              const std::vector<NeighbourRow>& table, int per_probe, int max_words) {
  std::vector<int> ids;
  auto add = [&](int id) {
    if (id >= 0 && static_cast<int>(ids.size()) < max_words && std::find(ids.begin(), ids.end(), id) == ids.end())
      ids.push_back(id);
  };
  const std::vector<std::string> words = parse_probe_words(typed);
  if (!words.empty()) {
    for (const std::string& w : words) add(vocab_id(vocab, w));
    return ids;
  }
  for (const NeighbourRow& r : table) add(r.id);  // the probes first: they are kept when the list is cut
  for (const NeighbourRow& r : table)
    for (size_t i = 0; i < r.neighbours.size() && static_cast<int>(i) < per_probe; ++i) add(r.neighbours[i].id);
  return ids;
}

WordMap word_map(const EmbeddingMatrix& m, const std::vector<int>& ids, const std::vector<NeighbourRow>& table) {
  WordMap w;
  w.ids = ids;
  for (int id : ids) {
    bool probe = false;
    for (const NeighbourRow& r : table) probe = probe || r.id == id;
    w.is_probe.push_back(probe ? 1 : 0);
  }
  w.map = pca_map(m, ids);
  return w;
}

AnalogyResult solve_analogy(const EmbeddingMatrix& unit, const Vocabulary& vocab, const std::string& a,
                            const std::string& b, const std::string& c, const std::string& expected, int k) {
  AnalogyResult r;
  r.a = a;
  r.b = b;
  r.c = c;
  r.expected = expected;
  r.ia = vocab_id(vocab, a);
  r.ib = vocab_id(vocab, b);
  r.ic = vocab_id(vocab, c);
  r.iexpected = expected.empty() ? -1 : vocab_id(vocab, expected);
  std::string missing;
  for (const std::string* w : {&a, &b, &c})
    if (vocab_id(vocab, *w) < 0) missing += (missing.empty() ? "'" : ", '") + *w + "'";
  if (!missing.empty()) {
    r.message = "not in the vocabulary: " + missing;
    return r;
  }
  r.answers = analogy(unit, r.ia, r.ib, r.ic, k);
  for (size_t i = 0; i < r.answers.size(); ++i)
    if (r.answers[i].id == r.iexpected) r.expected_rank = static_cast<int>(i);
  if (!expected.empty() && r.iexpected < 0) r.message = "expected word '" + expected + "' is not in the vocabulary";
  return r;
}

RankCurves rank_curves(const std::vector<double>& q, const std::vector<double>& p, int points) {
  RankCurves c;
  const size_t n = std::min(q.size(), p.size());
  if (n == 0) return c;
  const double log_n = std::log(static_cast<double>(n));
  size_t last = 0;
  for (int i = 0; i < points; ++i) {
    // ranks 1 .. n, log-spaced; every rank while they are closer than 1 apart
    const double t = points > 1 ? static_cast<double>(i) / (points - 1) : 1.0;
    const size_t rank = std::max<size_t>(1, std::min(n, static_cast<size_t>(std::llround(std::exp(t * log_n)))));
    if (rank <= last) continue;
    last = rank;
    if (!(q[rank - 1] > 0) || !(p[rank - 1] > 0)) continue;  // a log axis has no place for 0
    c.rank.push_back(static_cast<double>(rank));
    c.q.push_back(q[rank - 1]);
    c.p.push_back(p[rank - 1]);
  }
  return c;
}

void glove_weight_curve(double x_max, double alpha, double n_min, double n_max, int points, std::vector<double>& n,
                        std::vector<double>& f) {
  n.clear();
  f.clear();
  if (!(n_min > 0) || !(n_max > n_min) || points < 2) return;
  const double l0 = std::log(n_min), l1 = std::log(n_max);
  for (int i = 0; i < points; ++i) {
    const double x = std::exp(l0 + (l1 - l0) * i / (points - 1));
    n.push_back(x);
    f.push_back(std::min(1.0, std::pow(x / x_max, alpha)));
  }
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0) || !(syy > 0)) return std::numeric_limits<double>::quiet_NaN();
  return sxy / std::sqrt(sxx * syy);
}

ScoreScatter score_scatter(const std::vector<ScorePair>& pairs) {
  ScoreScatter s;
  for (const ScorePair& p : pairs) {
    if (!std::isfinite(p.target) || !std::isfinite(p.score)) continue;
    s.target.push_back(p.target);
    s.score.push_back(p.score);
  }
  s.correlation = pearson(s.target, s.score);
  return s;
}

void epoch_series(const std::vector<EmbeddingEpoch>& epochs, int metric, std::vector<double>& x,
                  std::vector<double>& y) {
  x.clear();
  y.clear();
  for (const EmbeddingEpoch& e : epochs) {
    if (metric < 0 || static_cast<size_t>(metric) >= e.metrics.size()) continue;
    const double v = e.metrics[static_cast<size_t>(metric)];
    if (!std::isfinite(v)) continue;
    x.push_back(e.epoch);
    y.push_back(v);
  }
}

EmbeddingPictures compute_embedding_pictures(const Vocabulary& vocab, const EmbeddingMatrix& unit,
                                             const EmbeddingRequest& req) {
  EmbeddingPictures p;
  p.request = req;
  p.unit_key = &unit;
  p.table = neighbour_table(unit, vocab, req.probes, req.k);
  // The map of the unit vectors: their directions are what cosine neighbours compare.
  p.map = word_map(unit, map_word_ids(vocab, req.map_words, p.table, req.map_per_probe, req.map_max), p.table);
  p.analogy = solve_analogy(unit, vocab, req.a, req.b, req.c, req.expected, req.analogy_k);
  return p;
}

}  // namespace cilab
