#include "algorithms/text/embedding.h"

#include "algorithms/core/parallel.h"

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace cilab {

namespace {

using RowMatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Keeps the k best (cosine descending, id ascending on ties) of a stream.
class TopK {
 public:
  explicit TopK(int k) : k_(std::max(0, k)) { best_.reserve(static_cast<size_t>(k_) + 1); }
  void offer(int id, float c) {
    if (k_ == 0) return;
    if (static_cast<int>(best_.size()) == k_ && !better(c, id, best_.back())) return;
    auto pos = std::upper_bound(best_.begin(), best_.end(), Neighbour{id, c},
                                [](const Neighbour& a, const Neighbour& b) { return better(a.cosine, a.id, b); });
    best_.insert(pos, Neighbour{id, c});
    if (static_cast<int>(best_.size()) > k_) best_.pop_back();
  }
  std::vector<Neighbour> take() { return std::move(best_); }

 private:
  static bool better(float c, int id, const Neighbour& b) { return c > b.cosine || (c == b.cosine && id < b.id); }
  int k_;
  std::vector<Neighbour> best_;
};

float dot(const float* a, const float* b, int d) {
  float s = 0;
  for (int j = 0; j < d; ++j) s += a[j] * b[j];
  return s;
}

}  // namespace

const char* const kSynonymRecallHelp =
    "WordNet synonym recall@10 (the oracle): probes = the 1000 most frequent vocabulary words, stop words "
    "excluded, that have at least one WordNet synonym (a word sharing a synset) in the vocabulary; "
    "recall = sum over probes of |synonyms in the 10 nearest neighbours by cosine| / sum over probes of "
    "min(10, synonyms in the vocabulary). 1 = every probe's synonyms are its nearest words. Computed at "
    "each epoch end (and every few seconds in the window).";

EmbeddingMatrix normalized(const EmbeddingMatrix& m) {
  EmbeddingMatrix u = m;
  for (int i = 0; i < u.rows; ++i) {
    float* r = u.row(i);
    double s = 0;
    for (int j = 0; j < u.dim; ++j) s += static_cast<double>(r[j]) * r[j];
    if (s <= 0) continue;
    const float inv = static_cast<float>(1.0 / std::sqrt(s));
    for (int j = 0; j < u.dim; ++j) r[j] *= inv;
  }
  return u;
}

std::vector<Neighbour> nearest_to_vector(const EmbeddingMatrix& unit, const float* v, int k,
                                         const std::vector<int>& exclude) {
  TopK top(k);
  for (int i = 0; i < unit.rows; ++i) {
    if (std::find(exclude.begin(), exclude.end(), i) != exclude.end()) continue;
    top.offer(i, dot(unit.row(i), v, unit.dim));
  }
  return top.take();
}

std::vector<Neighbour> nearest_neighbours(const EmbeddingMatrix& unit, int word, int k) {
  if (word < 0 || word >= unit.rows) return {};
  return nearest_to_vector(unit, unit.row(word), k, {word});
}

std::vector<Neighbour> analogy(const EmbeddingMatrix& unit, int a, int b, int c, int k) {
  if (a < 0 || b < 0 || c < 0 || a >= unit.rows || b >= unit.rows || c >= unit.rows) return {};
  std::vector<float> v(static_cast<size_t>(unit.dim));
  double norm = 0;
  for (int j = 0; j < unit.dim; ++j) {
    v[static_cast<size_t>(j)] = unit.row(a)[j] - unit.row(b)[j] + unit.row(c)[j];
    norm += static_cast<double>(v[static_cast<size_t>(j)]) * v[static_cast<size_t>(j)];
  }
  // gensim normalises the mean vector; the ranking needs it only for the
  // reported cosines.
  if (norm > 0)
    for (float& x : v) x = static_cast<float>(x / std::sqrt(norm));
  return nearest_to_vector(unit, v.data(), k, {a, b, c});
}

PcaMap pca_map(const EmbeddingMatrix& m, const std::vector<int>& ids) {
  PcaMap out;
  const int n = static_cast<int>(ids.size());
  out.x.assign(static_cast<size_t>(n), 0.0f);
  out.y.assign(static_cast<size_t>(n), 0.0f);
  if (n < 3 || m.dim < 2) return out;
  Eigen::MatrixXd x(n, m.dim);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m.dim; ++j) x(i, j) = m.row(ids[static_cast<size_t>(i)])[j];
  x.rowwise() -= x.colwise().mean();
  // The principal axes from the n x n Gram matrix (n chosen words << d or not:
  // both sides give the same scores).
  const Eigen::MatrixXd gram = x * x.transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(gram);
  const Eigen::VectorXd& lambda = eig.eigenvalues();  // ascending
  const double total = std::max(0.0, lambda.sum());
  for (int a = 0; a < 2; ++a) {
    const int col = n - 1 - a;
    const double l = std::max(0.0, lambda(col));
    // score_i = u_i sqrt(lambda): the projection of row i on the axis.
    const Eigen::VectorXd s = eig.eigenvectors().col(col) * std::sqrt(l);
    // Fix the sign: the largest |score| positive, so maps do not flip between refreshes.
    Eigen::Index arg = 0;
    s.cwiseAbs().maxCoeff(&arg);
    const double sign = s(arg) < 0 ? -1.0 : 1.0;
    for (int i = 0; i < n; ++i) (a == 0 ? out.x : out.y)[static_cast<size_t>(i)] = static_cast<float>(sign * s(i));
    out.explained[a] = total > 0 ? l / total : 0.0;
  }
  return out;
}

double synonym_recall(const EmbeddingMatrix& unit, const SynonymProbes& probes, int k) {
  const int n = probes.size();
  if (n == 0 || unit.rows == 0) return std::numeric_limits<double>::quiet_NaN();
  constexpr int kBlock = 64;
  const int blocks = (n + kBlock - 1) / kBlock;
  Eigen::Map<const RowMatrixF> all(unit.values.data(), unit.rows, unit.dim);
  struct Part {
    double hits = 0, possible = 0;
  };
  double hits = 0, possible = 0;
  const double work = static_cast<double>(n) * unit.rows * unit.dim;
  parallel_reduce_blocks(
      blocks, parallel_threads(blocks, work, 2e7),
      [&](int b) {
        Part part;
        const int lo = b * kBlock, hi = std::min(n, lo + kBlock);
        RowMatrixF q(hi - lo, unit.dim);
        for (int i = lo; i < hi; ++i) {
          const int w = probes.words[static_cast<size_t>(i)];
          q.row(i - lo) = all.row(w);
        }
        const RowMatrixF scores = q * all.transpose();  // (hi - lo) x |V|
        for (int i = lo; i < hi; ++i) {
          const int w = probes.words[static_cast<size_t>(i)];
          TopK top(k);
          const float* s = scores.row(i - lo).data();
          for (int v = 0; v < unit.rows; ++v)
            if (v != w) top.offer(v, s[v]);
          const std::vector<Neighbour> nn = top.take();
          const std::vector<int>& syn = probes.synonyms[static_cast<size_t>(i)];
          for (const Neighbour& nb : nn)
            if (std::binary_search(syn.begin(), syn.end(), nb.id)) part.hits += 1;
          part.possible += std::min<double>(k, static_cast<double>(syn.size()));
        }
        return part;
      },
      [&](int, Part p) {
        hits += p.hits;
        possible += p.possible;
      });
  return possible > 0 ? hits / possible : std::numeric_limits<double>::quiet_NaN();
}

std::vector<std::string> parse_probe_words(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    size_t a = cur.find_first_not_of(" \t");
    size_t b = cur.find_last_not_of(" \t");
    if (a != std::string::npos) {
      std::string w = cur.substr(a, b - a + 1);
      for (char& c : w)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      out.push_back(w);
    }
    cur.clear();
  };
  for (char c : text) {
    if (c == ',') flush();
    else cur += c;
  }
  flush();
  return out;
}

size_t EmbeddingSnapshot::byte_size() const {
  // The vectors, their unit rows, the score pairs and the epoch log are shared
  // with neighbouring snapshots: shared_parts(), counted once by the history budget.
  size_t b = Snapshot::byte_size() + sizeof(*this);
  for (const std::string& p : probes) b += sizeof(p) + p.size();
  return b;
}

void EmbeddingSnapshot::shared_parts(std::vector<SharedPart>& out) const {
  if (vectors) out.push_back({vectors.get(), vectors->byte_size()});
  if (unit) out.push_back({unit.get(), unit->byte_size()});
  if (score_pairs) out.push_back({score_pairs.get(), score_pairs->size() * sizeof(ScorePair)});
  if (epochs) out.push_back({epochs.get(), epochs->size() * (sizeof(EmbeddingEpoch) + 8 * sizeof(double))});
}

std::vector<std::string> neighbour_report(const EmbeddingSnapshot& s, int k) {
  std::vector<std::string> lines;
  if (!s.vocab || !s.unit) return lines;
  for (const std::string& word : s.probes) {
    const int id = s.vocab->find(word);
    if (id < 0) {
      lines.push_back(word + ": not in the vocabulary");
      continue;
    }
    std::string line = word + " (iteration " + std::to_string(s.vectors_iteration) + "):";
    const std::vector<Neighbour> nn = nearest_neighbours(*s.unit, id, k);
    for (size_t i = 0; i < nn.size(); ++i) {
      char buf[32];
      std::snprintf(buf, sizeof buf, " %.3f", static_cast<double>(nn[i].cosine));
      line += (i ? ", " : " ") + s.vocab->words[static_cast<size_t>(nn[i].id)] + buf;
    }
    lines.push_back(line);
  }
  return lines;
}

int write_word2vec_format(const EmbeddingSnapshot& s, std::ostream& out) {
  if (!s.vocab || !s.vectors || s.vectors->rows != s.vocab->size())
    throw std::invalid_argument("no word vectors yet: reset the module and train a step first");
  const EmbeddingMatrix& m = *s.vectors;
  out << m.rows << " " << m.dim << "\n";
  char buf[32];
  for (int w = 0; w < m.rows; ++w) {
    out << s.vocab->words[static_cast<size_t>(w)];
    const float* v = m.row(w);
    for (int j = 0; j < m.dim; ++j) {
      const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v[j]);
      out << ' ';
      out.write(buf, r.ptr - buf);
    }
    out << "\n";
  }
  return m.rows;
}

std::string embedding_report(const Snapshot& last, int k) {
  const auto* s = dynamic_cast<const EmbeddingSnapshot*>(&last);
  std::string out;
  if (!s) return out;
  for (const std::string& line : neighbour_report(*s, k)) out += line + "\n";
  return out;
}

}  // namespace cilab
