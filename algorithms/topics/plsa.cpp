// Topic models: the problem (vocabulary, counts, held-out tokens), pLSA's EM,
// scikit-learn's multiplicative-update NMFs and the per-iteration
// measurements. See plsa.h for the mathematics.
//
// Layout: every factor is row-major with the K topics contiguous (theta / W:
// docs x K, phi / H^T: terms x K), so a nonzero N_ij touches two contiguous
// K-vectors. Work runs over the nonzeros only: document blocks walk N in CSR
// order, term blocks walk it in CSC order (an index into the CSR arrays), each
// block writing only its own rows; sums across blocks are folded in block
// order (core/parallel.h), so any thread count gives the same bits.
#include "algorithms/topics/plsa.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// scikit-learn's EPSILON in sklearn/decomposition/_nmf.py: np.finfo(np.float32).eps.
constexpr double kSkEps = 1.1920928955078125e-07;
// np.finfo(np.float64).eps: scikit-learn zeroes H below it after a KL update.
constexpr double kEps64 = 2.220446049250313e-16;
// Nonzeros per parallel block of documents (each such block also owns a
// terms x K buffer of partial sums in a step) and of terms.
constexpr int64_t kDocBlockNnz = 32768;
constexpr int64_t kTermBlockNnz = 16384;
constexpr double kMinWork = 40000;    // nnz * K below which loops run on one thread
constexpr double kSplitFactor = 0.01; // add_topic: the +-1 % perturbation of the split topic
const std::string kNoText;

const ParamTable<Plsa::Params>& param_table() {
  using P = Plsa::Params;
  static const ParamTable<P> kTable = {
      Choice("method", &P::method, {"plsa", "nmf_kl", "nmf_frobenius"})
          .choice_help({"pLSA fitted by EM: E-step q_ijz, M-step p(w|z) and p(z|d) (course 7.2)",
                        "scikit-learn NMF(beta_loss='kullback-leibler', solver='mu'): multiplicative updates of W "
                        "then H on X ~ W H (the same fixed points as pLSA, course 7.4)",
                        "scikit-learn NMF(beta_loss='frobenius', solver='mu'): multiplicative updates on "
                        "1/2 ||X - W H||_F^2"})
          .help("the model fitted to the document-term counts (all three from the same start)"),
      Int("k", &P::k, 1, Plsa::kMaxTopics)
          .help("number of topics K (scikit-learn NMF: n_components); the \"add a topic\" action adds one mid-run")
          .formula("p(w_j | d_i) = sum_{z=1..K} p(w_j | z) p(z | d_i)"),
      Choice("init", &P::init, {"random", "uniform"})
          .choice_help({"every column of U and V a seeded draw from the flat Dirichlet (normalised -log u)",
                        "every topic the same (U = 1/m, V = 1/K): a fixed point of EM where the topics never "
                        "separate - why EM needs a random start"})
          .help("start of p(w|z) and p(z|d); NMF starts from W = diag(s) V^T, H = U^T"),
      Int("min_count", &P::min_count, 1, 1000000)
          .help("drop words seen fewer times in the corpus (gensim: min_count)"),
      Real("max_df", &P::max_df, 0.01, 1)
          .help("drop words in more than this fraction of the documents (scikit-learn CountVectorizer: max_df)"),
      Bool("stop_words", &P::stop_words)
          .help("drop the shipped English stop words (scikit-learn: stop_words='english')"),
      Int("max_features", &P::max_features, 0, 1000000)
          .help("keep only the most frequent words, 0 = all (scikit-learn CountVectorizer: max_features)"),
      Real("test_fraction", &P::test_fraction, 0, 0.5)
          .help("share of every document's tokens held out for test_perplexity (each token drawn, seeded); "
                "every document and every word keeps at least one training token"),
      Real("test_smoothing", &P::test_smoothing, 0, 1)
          .log_scale()
          .help("held-out evaluation only: a floor eps on every word's probability, so a held-out word the model "
                "gives probability 0 does not make test_perplexity infinite (training and l are untouched; 0 = the raw "
                "model)")
          .formula("p_eps(w|d) = (p(w|d) + eps) / (1 + m eps)"),
      Int("max_iter", &P::max_iter, 1, 100000).budget().help("iteration budget; the run stops there"),
      Real("tol", &P::tol, 0, 1)
          .live()
          .log_scale()
          .help("converged when the objective changes by at most tol of itself in one iteration (0: never)")
          .formula("|J_t - J_{t-1}| <= tol |J_t|"),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Plsa::kMetricLogLikelihood, "log_likelihood",
       "l = sum_ij N_ij log p(w_j | d_i) on the training counts (p(w|d): the model's rows normalised); "
       "never falls for pLSA",
       false},
      {Plsa::kMetricPerplexity, "perplexity", "exp(-l / sum_ij N_ij): training perplexity per token", true},
      {Plsa::kMetricTestPerplexity, "test_perplexity",
       "exp(-sum_ij T_ij log p_eps(w_j | d_i) / sum_ij T_ij) on the held-out tokens T, with each document's trained "
       "p(z|d) and p_eps = (p + eps) / (1 + m eps), eps = test_smoothing",
       true},
      {Plsa::kMetricObjective, "objective",
       "the method's objective: pLSA -l; nmf_kl the generalised KL D(X || WH) = sum X log(X / WH) - X + WH; "
       "nmf_frobenius 1/2 ||X - WH||_F^2",
       true},
      {Plsa::kMetricChange, "change", "|J_t - J_{t-1}| / |J_t|: the objective's relative change in the iteration",
       true},
      {Plsa::kMetricLargestRise, "largest_rise",
       "oracle: the largest rise of the objective in one iteration so far (pLSA: the largest fall of l); 0 for "
       "pLSA and nmf_kl (EM and Lee-Seung never go uphill)",
       false},
      {Plsa::kMetricStochasticError, "stochastic_error",
       "oracle: max |sum - 1| over U's columns (sum_j p(w_j|z)), V's columns (sum_z p(z|d_i)) and, after the "
       "E-step, q over z",
       false},
      {Plsa::kMetricSaturatedGap, "saturated_gap",
       "oracle: sum_ij N_ij log(N_ij / s_i) - l >= 0 (the saturated model, one parameter per cell, bounds l)",
       true},
      {Plsa::kMetricUnigramError, "unigram_error",
       "oracle for K = 1: max_j |p(w_j|z) - sum_i N_ij / sum N|, 0 after the first M-step (n/a for K > 1)", false},
  };
  return kMetrics;
}

// Sum of c * log(p) over many (p, c) with few logarithms: for c = 1 the
// product of the p is kept as a mantissa times 2^e (renormalised by frexp
// when it leaves [2^-500, 2^500]), and logged once at the end; other counts
// and extreme p take the plain log. Exact in real arithmetic, and more
// accurate than a sum of logs (one rounding per factor, relative to the
// product).
struct LogSum {
  double mant = 1.0;
  int64_t exp2 = 0;
  double extra = 0.0;
  void add(double p, double c) {
    if (c != 1.0 || !(p > 0x1p-500 && p < 0x1p500)) {
      extra += c * std::log(p);
      return;
    }
    mant *= p;
    if (mant < 0x1p-500 || mant > 0x1p500) {
      int e = 0;
      mant = std::frexp(mant, &e);
      exp2 += e;
    }
  }
  double value() const { return std::log(mant) + static_cast<double>(exp2) * std::log(2.0) + extra; }
};

inline double dot_k(const double* a, const double* b, int k) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int z = 0;
  for (; z + 4 <= k; z += 4) {
    s0 += a[z] * b[z];
    s1 += a[z + 1] * b[z + 1];
    s2 += a[z + 2] * b[z + 2];
    s3 += a[z + 3] * b[z + 3];
  }
  for (; z < k; ++z) s0 += a[z] * b[z];
  return (s0 + s1) + (s2 + s3);
}

inline void axpy_k(double* acc, double r, const double* x, int k) {
  for (int z = 0; z < k; ++z) acc[z] += r * x[z];
}

// Block boundaries over `n` rows so that each block holds about `per_block`
// nonzeros (starts[b] .. starts[b + 1]); depends on the data only.
std::vector<int> nnz_blocks(const std::vector<int64_t>& row_start, int n, int64_t per_block) {
  std::vector<int> starts{0};
  int64_t acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += row_start[static_cast<size_t>(i) + 1] - row_start[static_cast<size_t>(i)];
    if (acc >= per_block && i + 1 < n) {
      starts.push_back(i + 1);
      acc = 0;
    }
  }
  starts.push_back(n);
  return starts;
}

// Flat Dirichlet(1, ..., 1) draw of `n` values at stride `stride`.
void dirichlet(Rng& rng, double* out, int n, size_t stride) {
  double sum = 0;
  for (int t = 0; t < n; ++t) {
    const double e = -std::log(1.0 - rng.uniform());  // in (0, 37]: never 0
    out[static_cast<size_t>(t) * stride] = e;
    sum += e;
  }
  for (int t = 0; t < n; ++t) out[static_cast<size_t>(t) * stride] /= sum;
}

}  // namespace

// ---------------------------------------------------------------- problem

const std::string& PlsaProblem::doc_text(int row) const {
  if (!corpus || row < 0 || row >= docs()) return kNoText;
  const int d = train.doc_index[static_cast<size_t>(row)];
  if (d < 0 || static_cast<size_t>(d) >= corpus->doc_text.size()) return kNoText;
  return corpus->doc_text[static_cast<size_t>(d)];
}

size_t PlsaProblem::byte_size() const {
  auto csr = [](const DocTermMatrix& m) {
    return m.row_start.size() * 8 + m.col.size() * 4 + m.count.size() * 8 + m.doc_length.size() * 8 +
           m.doc_index.size() * 4;
  };
  size_t b = sizeof(*this) + csr(train) + csr(test) + unigram.size() * 8 + doc_label.size() * 4;
  for (const std::string& w : vocab.words) b += sizeof(w) + w.size() * 2;
  b += vocab.raw_to_id.size() * 4 + vocab.counts.size() * 12;
  b += col_start.size() * 8 + csc_doc.size() * 4 + csc_pos.size() * 8 + doc_block.size() * 4 + term_block.size() * 4;
  return b;
}

double PlsaFactors::p_word(int i, int j) const {
  return dot_k(&v[static_cast<size_t>(i) * static_cast<size_t>(k)], &u[static_cast<size_t>(j) * static_cast<size_t>(k)],
               k);
}

size_t PlsaFactors::byte_size() const {
  return sizeof(*this) + (u.size() + v.size() + h_scale.size() + w_scale.size()) * sizeof(double);
}

size_t PlsaSnapshot::byte_size() const {
  size_t b = Snapshot::byte_size() + sizeof(*this) - sizeof(Snapshot);
  if (factors) b += factors->byte_size();
  for (const std::vector<int>& t : top_words) b += t.size() * sizeof(int);
  b += confusion_argmax.size() * sizeof(int) + (confusion_mass.size() + topic_mass.size()) * sizeof(double);
  return b;  // the problem is shared by every snapshot of the run: not counted
}

namespace {

// Vocabulary, counts, the held-out split and the derived constants.
std::shared_ptr<const PlsaProblem> build_problem(const Dataset& data, const Plsa::Params& p, uint64_t seed) {
  auto q = std::make_shared<PlsaProblem>();
  q->corpus = data.text;
  q->corpus_name = data.name.empty() ? std::string("the corpus") : data.name;
  const TextCorpus& c = *data.text;
  VocabOptions vo;
  vo.min_count = p.min_count;
  vo.max_df = p.max_df;
  vo.stop_words = p.stop_words;
  vo.max_size = p.max_features;
  q->vocab = build_vocabulary(c, vo);
  require_vocabulary(q->vocab, p.k, "plsa", q->corpus_name, "k=" + std::to_string(p.k), "max_features");
  const DocTermMatrix full = doc_term_matrix(c, q->vocab, true);
  const int n = full.docs, m = full.terms;
  if (n == 0)
    throw std::invalid_argument("plsa: no document of '" + q->corpus_name +
                                "' keeps a word of the vocabulary; try: lower min_count, raise max_df or "
                                "stop_words=false");

  // Held-out tokens: each of the N_ij tokens of a cell goes to the test set
  // with probability test_fraction (a stream of its own, so init does not move it).
  Rng split(seed * 0x9e3779b97f4a7c15ULL + 0x51ed);
  std::vector<double> tr(full.count.size()), te(full.count.size(), 0.0);
  for (size_t e = 0; e < full.count.size(); ++e) {
    const int64_t cnt = std::llround(full.count[e]);
    int64_t held = 0;
    if (p.test_fraction > 0)
      for (int64_t t = 0; t < cnt; ++t) held += split.uniform() < p.test_fraction;
    tr[e] = static_cast<double>(cnt - held);
    te[e] = static_cast<double>(held);
  }
  // Every document keeps a training token (else p(z|d) is undefined): a
  // document drawn empty gets its tokens back.
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t e = full.row_start[static_cast<size_t>(i)]; e < full.row_start[static_cast<size_t>(i) + 1]; ++e)
      s += tr[static_cast<size_t>(e)];
    if (s > 0) continue;
    for (int64_t e = full.row_start[static_cast<size_t>(i)]; e < full.row_start[static_cast<size_t>(i) + 1]; ++e) {
      tr[static_cast<size_t>(e)] += te[static_cast<size_t>(e)];
      te[static_cast<size_t>(e)] = 0;
    }
  }
  // Every word keeps a training token (else p(w|z) = 0 and a held-out token of
  // it has probability 0): its first held-out token goes back.
  {
    std::vector<double> col_train(static_cast<size_t>(m), 0.0);
    for (size_t e = 0; e < tr.size(); ++e) col_train[static_cast<size_t>(full.col[e])] += tr[e];
    for (size_t e = 0; e < tr.size(); ++e) {
      const size_t j = static_cast<size_t>(full.col[e]);
      if (col_train[j] > 0 || te[e] <= 0) continue;
      tr[e] += 1;
      te[e] -= 1;
      col_train[j] += 1;
    }
  }
  auto make = [&](const std::vector<double>& cnt, DocTermMatrix& out) {
    out.docs = n;
    out.terms = m;
    out.doc_index = full.doc_index;
    out.row_start.assign(1, 0);
    out.doc_length.assign(static_cast<size_t>(n), 0.0);
    for (int i = 0; i < n; ++i) {
      for (int64_t e = full.row_start[static_cast<size_t>(i)]; e < full.row_start[static_cast<size_t>(i) + 1]; ++e) {
        const double v = cnt[static_cast<size_t>(e)];
        if (v <= 0) continue;
        out.col.push_back(full.col[static_cast<size_t>(e)]);
        out.count.push_back(v);
        out.doc_length[static_cast<size_t>(i)] += v;
      }
      out.row_start.push_back(out.nnz());
    }
  };
  make(tr, q->train);
  make(te, q->test);
  const DocTermMatrix& N = q->train;
  q->train_total = N.total();
  q->test_total = q->test.total();

  // Column access: the nonzeros of term j are csc_pos[col_start[j] ..
  // col_start[j + 1]) (positions in the CSR arrays), documents increasing.
  q->col_start.assign(static_cast<size_t>(m) + 1, 0);
  for (int32_t j : N.col) ++q->col_start[static_cast<size_t>(j) + 1];
  for (int j = 0; j < m; ++j) q->col_start[static_cast<size_t>(j) + 1] += q->col_start[static_cast<size_t>(j)];
  q->csc_doc.resize(N.col.size());
  q->csc_pos.resize(N.col.size());
  {
    std::vector<int64_t> next(q->col_start.begin(), q->col_start.end() - 1);
    for (int i = 0; i < n; ++i)
      for (int64_t e = N.row_start[static_cast<size_t>(i)]; e < N.row_start[static_cast<size_t>(i) + 1]; ++e) {
        const int64_t at = next[static_cast<size_t>(N.col[static_cast<size_t>(e)])]++;
        q->csc_doc[static_cast<size_t>(at)] = i;
        q->csc_pos[static_cast<size_t>(at)] = e;
      }
  }
  q->doc_block = nnz_blocks(N.row_start, n, kDocBlockNnz);
  q->term_block = nnz_blocks(q->col_start, m, kTermBlockNnz);

  q->unigram.assign(static_cast<size_t>(m), 0.0);
  for (size_t e = 0; e < N.count.size(); ++e) q->unigram[static_cast<size_t>(N.col[e])] += N.count[e];
  for (double& u : q->unigram) u /= q->train_total;
  double sat = 0, xlogx = 0, x2 = 0;
  for (int i = 0; i < n; ++i)
    for (int64_t e = N.row_start[static_cast<size_t>(i)]; e < N.row_start[static_cast<size_t>(i) + 1]; ++e) {
      const double x = N.count[static_cast<size_t>(e)];
      sat += x * std::log(x / N.doc_length[static_cast<size_t>(i)]);
      xlogx += x * std::log(x);
      x2 += x * x;
    }
  q->saturated_bound = sat;
  q->sum_x_log_x = xlogx;
  q->sum_x_squared = x2;
  if (c.has_labels()) {
    q->label_names = c.label_names;
    q->doc_label.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const int d = N.doc_index[static_cast<size_t>(i)];
      q->doc_label[static_cast<size_t>(i)] =
          d >= 0 && static_cast<size_t>(d) < c.doc_label.size() ? c.doc_label[static_cast<size_t>(d)] : -1;
    }
  }
  q->what = q->corpus_name + ": " + std::to_string(n) + " documents, " + std::to_string(m) + " terms, " +
            std::to_string(N.nnz()) + " nonzeros, " + fmt_g(q->train_total) + " training and " +
            fmt_g(q->test_total) + " held-out tokens";
  return q;
}

}  // namespace

// ---------------------------------------------------------------- state

struct Plsa::State : RunPosition {
  Params p;
  uint64_t seed = 0;
  Rng rng;
  std::shared_ptr<const PlsaProblem> prob;
  int k = 0;  // topics now
  std::string notice;  // shown while message is empty
  // Factors, K contiguous: a = theta | W (docs x K), b = phi | H^T (terms x K).
  std::vector<double> a, b;
  std::vector<double> a_next;  // pLSA: the new theta while the old one is still read
  std::vector<double> pd;      // per nonzero of N: a_i . b_j of the current factors
  // Scratch of a step (not copied by clone()): per document block, the block's
  // terms x K partial sums of the b update's numerators.
  std::vector<double> partial;
  std::vector<double> q;       // after the E-step sub-step: q_ijz, nnz x K
  // Measurements of the current factors.
  double ll = kNaN, test_ll = kNaN, objective = kNaN, prev_objective = kNaN;
  double change = kNaN, largest_rise = 0;
  double u_error = kNaN, v_error = kNaN, q_error = kNaN, unigram_error = kNaN;
  std::vector<double> metrics;
  mutable std::shared_ptr<const PlsaSnapshot> cache;

  int docs() const { return prob->docs(); }
  int terms() const { return prob->terms(); }
  int doc_blocks() const { return static_cast<int>(prob->doc_block.size()) - 1; }
  int term_blocks() const { return static_cast<int>(prob->term_block.size()) - 1; }
  int threads(int blocks) const {
    return parallel_threads(blocks, static_cast<double>(prob->train.nnz()) * k, kMinWork);
  }
  double* ar(int i) { return &a[static_cast<size_t>(i) * static_cast<size_t>(k)]; }
  double* br(int j) { return &b[static_cast<size_t>(j) * static_cast<size_t>(k)]; }
  bool nmf() const { return p.method != Method::Plsa; }

  void start(const std::vector<double>& theta, const std::vector<double>& phi);
  std::vector<double> column_sums_b() const;
  void measure();
  void finish_iteration();
  void judge();
  void plsa_step();
  void e_step();
  void m_step();
  void kl_step();
  void frobenius_step();
  bool add_topic();

  // The M-step's topic half, shared by EM and the fused step: fill(j, b_j, scratch)
  // writes the unnormalised row b_j (scratch: K doubles a term block reuses), then
  // every column z is divided by its sum over the words, so p(.|z) sums to 1. The
  // column sums fold over the term blocks in order (bit-identical for any thread count).
  template <class Fill>
  void fill_topics(Fill fill) {
    const PlsaProblem& P = *prob;
    const int K = k;
    std::vector<double> total(static_cast<size_t>(K), 0.0);
    parallel_reduce_blocks(
        term_blocks(), threads(term_blocks()),
        [&](int blk) {
          std::vector<double> scratch(static_cast<size_t>(K)), sum(static_cast<size_t>(K), 0.0);
          for (int j = P.term_block[static_cast<size_t>(blk)]; j < P.term_block[static_cast<size_t>(blk) + 1]; ++j) {
            double* bj = br(j);
            fill(j, bj, scratch);
            axpy_k(sum.data(), 1.0, bj, K);
          }
          return sum;
        },
        [&](int, std::vector<double> s) { axpy_k(total.data(), 1.0, s.data(), K); });
    parallel_for_blocks(term_blocks(), threads(term_blocks()), [&](int blk) {
      for (int j = P.term_block[static_cast<size_t>(blk)]; j < P.term_block[static_cast<size_t>(blk) + 1]; ++j) {
        double* bj = br(j);
        for (int z = 0; z < K; ++z)
          if (total[static_cast<size_t>(z)] > 0) bj[z] /= total[static_cast<size_t>(z)];
      }
    });
  }
};

// Column sums of b (sum_j b_jz), folded over term blocks in order.
std::vector<double> Plsa::State::column_sums_b() const {
  const PlsaProblem& P = *prob;
  const int K = k;
  std::vector<double> sum(static_cast<size_t>(K), 0.0);
  parallel_reduce_blocks(
      term_blocks(), threads(term_blocks()),
      [&](int blk) {
        std::vector<double> s(static_cast<size_t>(K), 0.0);
        for (int j = P.term_block[static_cast<size_t>(blk)]; j < P.term_block[static_cast<size_t>(blk) + 1]; ++j)
          axpy_k(s.data(), 1.0, &b[static_cast<size_t>(j) * static_cast<size_t>(K)], K);
        return s;
      },
      [&](int, std::vector<double> s) { axpy_k(sum.data(), 1.0, s.data(), K); });
  return sum;
}

// Sets the factors from (theta, phi) and measures them (iteration 0).
void Plsa::State::start(const std::vector<double>& theta, const std::vector<double>& phi) {
  a = theta;
  b = phi;
  if (nmf()) {  // W = diag(s) theta, H^T = phi
    const std::vector<double>& s = prob->train.doc_length;
    for (int i = 0; i < docs(); ++i)
      for (int z = 0; z < k; ++z) ar(i)[z] *= s[static_cast<size_t>(i)];
  }
  pd.assign(static_cast<size_t>(prob->train.nnz()), 0.0);
  q.clear();
  iteration = 0;
  phase = 0;
  prev_objective = kNaN;
  largest_rise = 0;
  q_error = kNaN;
  measure();
  change = kNaN;
  judge();
}

namespace {
struct MeasurePart {
  double log_pd = 0, s_log_row = 0, cross = 0, test = 0, v_error = 0;
  std::vector<double> wsum, gram;  // NMF: column sums of W; frobenius: W^T W
};
}  // namespace

// l, the test log-likelihood, the objective and the oracles of the current
// factors; refreshes pd (a_i . b_j on every nonzero), which the next step uses.
void Plsa::State::measure() {
  const PlsaProblem& P = *prob;
  const DocTermMatrix& N = P.train;
  const DocTermMatrix& T = P.test;
  const int K = k;
  const bool is_nmf = nmf(), frob = p.method == Method::NmfFrobenius;
  const std::vector<double> hsum = column_sums_b();  // pLSA: U's column sums (1)
  const double eps = p.test_smoothing, m_eps = eps * static_cast<double>(N.terms);  // held-out floor
  MeasurePart tot;
  tot.wsum.assign(static_cast<size_t>(K), 0.0);
  tot.gram.assign(frob ? static_cast<size_t>(K) * K : 0, 0.0);
  parallel_reduce_blocks(
      doc_blocks(), threads(doc_blocks()),
      [&](int blk) {
        MeasurePart part;
        part.wsum.assign(static_cast<size_t>(K), 0.0);
        part.gram.assign(frob ? static_cast<size_t>(K) * K : 0, 0.0);
        LogSum lt, ltest;
        for (int i = P.doc_block[static_cast<size_t>(blk)]; i < P.doc_block[static_cast<size_t>(blk) + 1]; ++i) {
          const double* ai = &a[static_cast<size_t>(i) * static_cast<size_t>(K)];
          double row = 1.0;  // sum_j (a b^T)_ij: 1 for pLSA
          if (is_nmf) {
            row = dot_k(ai, hsum.data(), K);
            part.s_log_row += N.doc_length[static_cast<size_t>(i)] * std::log(row);
            axpy_k(part.wsum.data(), 1.0, ai, K);
            if (frob)
              for (int z = 0; z < K; ++z) axpy_k(&part.gram[static_cast<size_t>(z) * K], ai[z], ai, K);
          } else {
            double s = 0;
            for (int z = 0; z < K; ++z) s += ai[z];
            part.v_error = std::max(part.v_error, std::abs(s - 1.0));
          }
          for (int64_t e = N.row_start[static_cast<size_t>(i)]; e < N.row_start[static_cast<size_t>(i) + 1]; ++e) {
            const double x = N.count[static_cast<size_t>(e)];
            const double v = dot_k(ai, &b[static_cast<size_t>(N.col[static_cast<size_t>(e)]) * K], K);
            pd[static_cast<size_t>(e)] = v;
            lt.add(v, x);
            part.cross += x * v;
          }
          for (int64_t e = T.row_start[static_cast<size_t>(i)]; e < T.row_start[static_cast<size_t>(i) + 1]; ++e) {
            const double v = dot_k(ai, &b[static_cast<size_t>(T.col[static_cast<size_t>(e)]) * K], K);
            ltest.add((v / row + eps) / (1.0 + m_eps), T.count[static_cast<size_t>(e)]);
          }
        }
        part.log_pd = lt.value();
        part.test = ltest.value();
        return part;
      },
      [&](int, MeasurePart part) {
        tot.log_pd += part.log_pd;
        tot.s_log_row += part.s_log_row;
        tot.cross += part.cross;
        tot.test += part.test;
        tot.v_error = std::max(tot.v_error, part.v_error);
        axpy_k(tot.wsum.data(), 1.0, part.wsum.data(), K);
        for (size_t t = 0; t < tot.gram.size(); ++t) tot.gram[t] += part.gram[t];
      });
  ll = tot.log_pd - tot.s_log_row;
  test_ll = P.test_total > 0 ? tot.test : kNaN;
  switch (p.method) {
    case Method::Plsa: objective = -ll; break;
    case Method::NmfKl: {
      // sum_WH as scikit-learn: dot(W.sum(axis=0), H.sum(axis=1)).
      objective = P.sum_x_log_x - tot.log_pd - P.train_total + dot_k(tot.wsum.data(), hsum.data(), K);
      break;
    }
    case Method::NmfFrobenius: {
      std::vector<double> gh(static_cast<size_t>(K) * K, 0.0);
      parallel_reduce_blocks(
          term_blocks(), threads(term_blocks()),
          [&](int blk) {
            std::vector<double> g(static_cast<size_t>(K) * K, 0.0);
            for (int j = P.term_block[static_cast<size_t>(blk)]; j < P.term_block[static_cast<size_t>(blk) + 1]; ++j) {
              const double* bj = &b[static_cast<size_t>(j) * K];
              for (int z = 0; z < K; ++z) axpy_k(&g[static_cast<size_t>(z) * K], bj[z], bj, K);
            }
            return g;
          },
          [&](int, std::vector<double> g) {
            for (size_t t = 0; t < g.size(); ++t) gh[t] += g[t];
          });
      const double norm_wh = dot_k(tot.gram.data(), gh.data(), K * K);  // tr(W^T W H H^T), both symmetric
      objective = 0.5 * (P.sum_x_squared + norm_wh - 2.0 * tot.cross);
      break;
    }
  }
  // U's columns: sum_j b_jz / h_z (pLSA: h = 1, so this is sum_j phi_jz - 1).
  u_error = 0;
  for (int z = 0; z < K; ++z) {
    const double h = hsum[static_cast<size_t>(z)];
    u_error = std::max(u_error, is_nmf ? (h > 0 ? 0.0 : 1.0) : std::abs(h - 1.0));
  }
  v_error = is_nmf ? 0.0 : tot.v_error;  // NMF's U and V are normalised when shown: exact by construction
  unigram_error = kNaN;
  if (K == 1) {
    unigram_error = 0;
    const double h = is_nmf ? hsum[0] : 1.0;
    for (int j = 0; j < terms(); ++j)
      unigram_error = std::max(unigram_error, std::abs(b[static_cast<size_t>(j)] / h - P.unigram[static_cast<size_t>(j)]));
  }
  cache.reset();
}

// After a complete iteration: the change and the monotonicity oracle.
void Plsa::State::finish_iteration() {
  ++iteration;
  phase = 0;
  q_error = kNaN;
  const double before = prev_objective;
  measure();
  if (std::isfinite(before) && std::isfinite(objective)) {
    largest_rise = std::max(largest_rise, objective - before);
    change = std::abs(objective - before) / std::max(std::abs(objective), 1e-300);
  }
  prev_objective = objective;
  judge();
}

void Plsa::State::judge() {
  if (!std::isfinite(prev_objective)) prev_objective = objective;
  std::vector<double> mt = metric_table().blank();
  mt[kMetricLogLikelihood] = ll;
  mt[kMetricPerplexity] = std::exp(-ll / prob->train_total);
  mt[kMetricTestPerplexity] = prob->test_total > 0 ? std::exp(-test_ll / prob->test_total) : kNaN;
  mt[kMetricObjective] = objective;
  mt[kMetricChange] = change;
  mt[kMetricLargestRise] = largest_rise;
  double err = std::max(u_error, v_error);
  if (std::isfinite(q_error)) err = std::max(err, q_error);
  mt[kMetricStochasticError] = err;
  mt[kMetricSaturatedGap] = prob->saturated_bound - ll;
  mt[kMetricUnigramError] = unigram_error;
  metrics = std::move(mt);
  cache.reset();
  if (!std::isfinite(ll) || !std::isfinite(objective)) {
    status = Status::Diverged;
    message = std::string("the ") + (std::isfinite(ll) ? "objective" : "log-likelihood") +
              " is not finite: a word of a document got probability 0 (try another seed or init=random)";
    return;
  }
  message.clear();
  if (iteration > 0 && p.tol > 0 && change <= p.tol) {
    status = Status::Converged;
    message = "converged: |J_t - J_{t-1}| <= tol |J_t|";
  } else if (iteration >= p.max_iter) {
    status = Status::Stopped;
    message = "max_iter = " + std::to_string(p.max_iter) + " iterations spent";
  } else {
    status = Status::Running;
  }
}

// One EM iteration without storing q: with r_ij = N_ij / p(w_j|d_i) (p from
// the last measurement), theta'_iz = theta_iz sum_j r_ij phi_jz / s_i and
// phi'_jz ∝ phi_jz sum_i r_ij theta_iz - the E- and M-step multiplied out.
// Each document block adds its r_ij theta_i into its own terms x K buffer;
// the buffers are summed per term in block order.
void Plsa::State::plsa_step() {
  const PlsaProblem& P = *prob;
  const DocTermMatrix& N = P.train;
  const int K = k;
  const size_t stride = static_cast<size_t>(terms()) * static_cast<size_t>(K);
  a_next.resize(a.size());
  partial.resize(stride * static_cast<size_t>(doc_blocks()));
  parallel_for_blocks(doc_blocks(), threads(doc_blocks()), [&](int blk) {
    double* part = &partial[stride * static_cast<size_t>(blk)];
    std::fill(part, part + stride, 0.0);
    std::vector<double> acc(static_cast<size_t>(K));
    for (int i = P.doc_block[static_cast<size_t>(blk)]; i < P.doc_block[static_cast<size_t>(blk) + 1]; ++i) {
      std::fill(acc.begin(), acc.end(), 0.0);
      const double* ai = &a[static_cast<size_t>(i) * K];
      for (int64_t e = N.row_start[static_cast<size_t>(i)]; e < N.row_start[static_cast<size_t>(i) + 1]; ++e) {
        const double v = pd[static_cast<size_t>(e)];
        const double r = v > 0 ? N.count[static_cast<size_t>(e)] / v : 0.0;
        const size_t j = static_cast<size_t>(N.col[static_cast<size_t>(e)]) * K;
        axpy_k(acc.data(), r, &b[j], K);
        axpy_k(part + j, r, ai, K);
      }
      const double s = N.doc_length[static_cast<size_t>(i)];
      double* out = &a_next[static_cast<size_t>(i) * K];
      for (int z = 0; z < K; ++z) out[z] = ai[z] * acc[static_cast<size_t>(z)] / s;
    }
  });
  const int nb = doc_blocks();
  fill_topics([&](int j, double* bj, std::vector<double>& acc) {
    const size_t at = static_cast<size_t>(j) * K;
    std::copy(&partial[at], &partial[at] + K, acc.begin());
    for (int d = 1; d < nb; ++d) axpy_k(acc.data(), 1.0, &partial[stride * static_cast<size_t>(d) + at], K);
    for (int z = 0; z < K; ++z) bj[z] *= acc[static_cast<size_t>(z)];
  });
  a.swap(a_next);
}

// The E-step on its own: q_ijz = theta_iz phi_jz / p(w_j|d_i), kept.
void Plsa::State::e_step() {
  const PlsaProblem& P = *prob;
  const DocTermMatrix& N = P.train;
  const int K = k;
  q.assign(static_cast<size_t>(N.nnz()) * K, 0.0);
  double err = 0;
  parallel_reduce_blocks(
      doc_blocks(), threads(doc_blocks()),
      [&](int blk) {
        double worst = 0;
        for (int i = P.doc_block[static_cast<size_t>(blk)]; i < P.doc_block[static_cast<size_t>(blk) + 1]; ++i) {
          const double* ai = &a[static_cast<size_t>(i) * K];
          for (int64_t e = N.row_start[static_cast<size_t>(i)]; e < N.row_start[static_cast<size_t>(i) + 1]; ++e) {
            const double* bj = &b[static_cast<size_t>(N.col[static_cast<size_t>(e)]) * K];
            const double v = pd[static_cast<size_t>(e)];
            double* qe = &q[static_cast<size_t>(e) * K];
            double s = 0;
            for (int z = 0; z < K; ++z) {
              qe[z] = v > 0 ? ai[z] * bj[z] / v : 0.0;
              s += qe[z];
            }
            worst = std::max(worst, std::abs(s - 1.0));
          }
        }
        return worst;
      },
      [&](int, double w) { err = std::max(err, w); });
  q_error = err;
  phase = 1;
  judge();
}

// The M-step from the kept q: p(z|d_i) = sum_j N_ij q_ijz / s_i,
// p(w_j|z) = sum_i N_ij q_ijz / sum_i sum_j' N_ij' q_ij'z.
void Plsa::State::m_step() {
  const PlsaProblem& P = *prob;
  const DocTermMatrix& N = P.train;
  const int K = k;
  parallel_for_blocks(doc_blocks(), threads(doc_blocks()), [&](int blk) {
    for (int i = P.doc_block[static_cast<size_t>(blk)]; i < P.doc_block[static_cast<size_t>(blk) + 1]; ++i) {
      double* ai = &a[static_cast<size_t>(i) * K];
      std::fill(ai, ai + K, 0.0);
      for (int64_t e = N.row_start[static_cast<size_t>(i)]; e < N.row_start[static_cast<size_t>(i) + 1]; ++e)
        axpy_k(ai, N.count[static_cast<size_t>(e)], &q[static_cast<size_t>(e) * K], K);
      const double s = N.doc_length[static_cast<size_t>(i)];
      for (int z = 0; z < K; ++z) ai[z] /= s;
    }
  });
  fill_topics([&](int j, double* bj, std::vector<double>&) {
    std::fill(bj, bj + K, 0.0);
    for (int64_t c = P.col_start[static_cast<size_t>(j)]; c < P.col_start[static_cast<size_t>(j) + 1]; ++c) {
      const int64_t e = P.csc_pos[static_cast<size_t>(c)];
      axpy_k(bj, N.count[static_cast<size_t>(e)], &q[static_cast<size_t>(e) * K], K);
    }
  });
  q.clear();
  q.shrink_to_fit();
}

// scikit-learn's _multiplicative_update_w then _multiplicative_update_h with
// beta_loss = 1 on a sparse X: W *= ((X / WH) H^T) / H.sum(axis=1) (WH taken
// on X's nonzeros, 0 -> EPSILON, a zero denominator -> EPSILON), then with the
// new W: H *= (W^T (X / WH)) / W.sum(axis=0) (a zero column sum -> 1), and
// H < float64 eps -> 0.
void Plsa::State::kl_step() {
  const PlsaProblem& P = *prob;
  const DocTermMatrix& N = P.train;
  const int K = k;
  std::vector<double> den = column_sums_b();  // H.sum(axis=1)
  for (double& d : den)
    if (d == 0) d = kSkEps;
  const size_t stride = static_cast<size_t>(terms()) * static_cast<size_t>(K);
  partial.resize(stride * static_cast<size_t>(doc_blocks()));
  std::vector<double> wsum(static_cast<size_t>(K), 0.0);
  parallel_reduce_blocks(
      doc_blocks(), threads(doc_blocks()),
      [&](int blk) {
        double* part = &partial[stride * static_cast<size_t>(blk)];
        std::fill(part, part + stride, 0.0);
        std::vector<double> num(static_cast<size_t>(K)), sum(static_cast<size_t>(K), 0.0);
        for (int i = P.doc_block[static_cast<size_t>(blk)]; i < P.doc_block[static_cast<size_t>(blk) + 1]; ++i) {
          const int64_t e0 = N.row_start[static_cast<size_t>(i)], e1 = N.row_start[static_cast<size_t>(i) + 1];
          std::fill(num.begin(), num.end(), 0.0);
          for (int64_t e = e0; e < e1; ++e) {
            double v = pd[static_cast<size_t>(e)];
            if (v == 0) v = kSkEps;
            axpy_k(num.data(), N.count[static_cast<size_t>(e)] / v, &b[static_cast<size_t>(N.col[static_cast<size_t>(e)]) * K],
                   K);
          }
          double* ai = &a[static_cast<size_t>(i) * K];
          for (int z = 0; z < K; ++z) ai[z] *= num[static_cast<size_t>(z)] / den[static_cast<size_t>(z)];
          axpy_k(sum.data(), 1.0, ai, K);
          // H's numerator W^T (X / WH) with the new W: this block's share.
          for (int64_t e = e0; e < e1; ++e) {
            const size_t j = static_cast<size_t>(N.col[static_cast<size_t>(e)]) * K;
            double v = dot_k(ai, &b[j], K);
            if (v == 0) v = kSkEps;
            axpy_k(part + j, N.count[static_cast<size_t>(e)] / v, ai, K);
          }
        }
        return sum;
      },
      [&](int, std::vector<double> s) { axpy_k(wsum.data(), 1.0, s.data(), K); });
  for (double& d : wsum)
    if (d == 0) d = 1.0;
  const int nb = doc_blocks();
  parallel_for_blocks(term_blocks(), threads(term_blocks()), [&](int blk) {
    std::vector<double> num(static_cast<size_t>(K));
    for (int j = P.term_block[static_cast<size_t>(blk)]; j < P.term_block[static_cast<size_t>(blk) + 1]; ++j) {
      const size_t at = static_cast<size_t>(j) * K;
      std::copy(&partial[at], &partial[at] + K, num.begin());
      for (int d = 1; d < nb; ++d) axpy_k(num.data(), 1.0, &partial[stride * static_cast<size_t>(d) + at], K);
      double* bj = &b[at];
      for (int z = 0; z < K; ++z) {
        bj[z] *= num[static_cast<size_t>(z)] / wsum[static_cast<size_t>(z)];
        if (bj[z] < kEps64) bj[z] = 0.0;
      }
    }
  });
}

// scikit-learn's multiplicative updates with beta_loss = 2:
// W *= (X H^T) / (W (H H^T)), then H *= (W^T X) / ((W^T W) H) with the new W
// (a zero denominator -> EPSILON).
void Plsa::State::frobenius_step() {
  const PlsaProblem& P = *prob;
  const DocTermMatrix& N = P.train;
  const int K = k;
  const size_t KK = static_cast<size_t>(K) * K;
  std::vector<double> gh(KK, 0.0);
  parallel_reduce_blocks(
      term_blocks(), threads(term_blocks()),
      [&](int blk) {
        std::vector<double> g(KK, 0.0);
        for (int j = P.term_block[static_cast<size_t>(blk)]; j < P.term_block[static_cast<size_t>(blk) + 1]; ++j) {
          const double* bj = &b[static_cast<size_t>(j) * K];
          for (int z = 0; z < K; ++z) axpy_k(&g[static_cast<size_t>(z) * K], bj[z], bj, K);
        }
        return g;
      },
      [&](int, std::vector<double> g) {
        for (size_t t = 0; t < KK; ++t) gh[t] += g[t];
      });
  std::vector<double> gw(KK, 0.0);
  parallel_reduce_blocks(
      doc_blocks(), threads(doc_blocks()),
      [&](int blk) {
        std::vector<double> num(static_cast<size_t>(K)), den(static_cast<size_t>(K)), g(KK, 0.0);
        for (int i = P.doc_block[static_cast<size_t>(blk)]; i < P.doc_block[static_cast<size_t>(blk) + 1]; ++i) {
          std::fill(num.begin(), num.end(), 0.0);
          for (int64_t e = N.row_start[static_cast<size_t>(i)]; e < N.row_start[static_cast<size_t>(i) + 1]; ++e)
            axpy_k(num.data(), N.count[static_cast<size_t>(e)], &b[static_cast<size_t>(N.col[static_cast<size_t>(e)]) * K], K);
          double* ai = &a[static_cast<size_t>(i) * K];
          std::fill(den.begin(), den.end(), 0.0);
          for (int z = 0; z < K; ++z) axpy_k(den.data(), ai[z], &gh[static_cast<size_t>(z) * K], K);  // W (H H^T)
          for (int z = 0; z < K; ++z) {
            const double d = den[static_cast<size_t>(z)] == 0 ? kSkEps : den[static_cast<size_t>(z)];
            ai[z] *= num[static_cast<size_t>(z)] / d;
          }
          for (int z = 0; z < K; ++z) axpy_k(&g[static_cast<size_t>(z) * K], ai[z], ai, K);
        }
        return g;
      },
      [&](int, std::vector<double> g) {
        for (size_t t = 0; t < KK; ++t) gw[t] += g[t];
      });
  parallel_for_blocks(term_blocks(), threads(term_blocks()), [&](int blk) {
    std::vector<double> num(static_cast<size_t>(K)), den(static_cast<size_t>(K));
    for (int j = P.term_block[static_cast<size_t>(blk)]; j < P.term_block[static_cast<size_t>(blk) + 1]; ++j) {
      std::fill(num.begin(), num.end(), 0.0);
      for (int64_t c = P.col_start[static_cast<size_t>(j)]; c < P.col_start[static_cast<size_t>(j) + 1]; ++c)
        axpy_k(num.data(), N.count[static_cast<size_t>(P.csc_pos[static_cast<size_t>(c)])],
               &a[static_cast<size_t>(P.csc_doc[static_cast<size_t>(c)]) * K], K);
      double* bj = &b[static_cast<size_t>(j) * K];
      std::fill(den.begin(), den.end(), 0.0);
      for (int z = 0; z < K; ++z) axpy_k(den.data(), bj[z], &gw[static_cast<size_t>(z) * K], K);  // (W^T W) H
      for (int z = 0; z < K; ++z) {
        const double d = den[static_cast<size_t>(z)] == 0 ? kSkEps : den[static_cast<size_t>(z)];
        bj[z] *= num[static_cast<size_t>(z)] / d;
      }
    }
  });
}

// Splits the topic with the most mass (see plsa.h).
bool Plsa::State::add_topic() {
  const int K = k, K1 = k + 1;
  if (K1 > kMaxTopics || K1 > terms()) return false;
  q.clear();
  q.shrink_to_fit();
  phase = 0;
  const DocTermMatrix& N = prob->train;
  const std::vector<double> hsum = column_sums_b();
  // Mass of topic z: sum_i s_i p(z|d_i) (NMF: sum_i W_iz h_z, the tokens it explains).
  std::vector<double> mass(static_cast<size_t>(K), 0.0);
  for (int i = 0; i < docs(); ++i)
    for (int z = 0; z < K; ++z)
      mass[static_cast<size_t>(z)] += nmf() ? ar(i)[z] * hsum[static_cast<size_t>(z)] : N.doc_length[static_cast<size_t>(i)] * ar(i)[z];
  const int top = static_cast<int>(std::max_element(mass.begin(), mass.end()) - mass.begin());
  std::vector<double> na(static_cast<size_t>(docs()) * K1), nb(static_cast<size_t>(terms()) * K1);
  for (int i = 0; i < docs(); ++i) {
    double* out = &na[static_cast<size_t>(i) * K1];
    std::copy(ar(i), ar(i) + K, out);
    out[top] *= 0.5;
    out[K] = out[top];
  }
  double s_plus = 0, s_minus = 0;
  for (int j = 0; j < terms(); ++j) {
    double* out = &nb[static_cast<size_t>(j) * K1];
    std::copy(br(j), br(j) + K, out);
    const double sign = rng.uniform() < 0.5 ? -1.0 : 1.0;
    out[K] = out[top] * (1.0 - sign * kSplitFactor);
    out[top] *= 1.0 + sign * kSplitFactor;
    s_plus += out[top];
    s_minus += out[K];
  }
  // Both halves keep the column sum of the topic they came from.
  const double h = hsum[static_cast<size_t>(top)];
  for (int j = 0; j < terms(); ++j) {
    double* out = &nb[static_cast<size_t>(j) * K1];
    if (s_plus > 0) out[top] *= h / s_plus;
    if (s_minus > 0) out[K] *= h / s_minus;
  }
  a.swap(na);
  b.swap(nb);
  k = K1;
  a_next.clear();
  q_error = kNaN;
  measure();
  prev_objective = objective;  // the oracle watches EM's steps, not the edit
  notice = "added topic " + std::to_string(K) + " by splitting topic " + std::to_string(top);
  judge();
  return true;
}

// ---------------------------------------------------------------- module

const ModuleInfo& Plsa::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "plsa";
    m.title = "Topic models (pLSA by EM, NMF)";
    m.chapter = "Topic models";
    m.summary =
        "Finds K topics - distributions over words - in a corpus of short documents (the fortune cookies): pLSA "
        "fitted by EM, E-step and M-step shown one at a time, or scikit-learn's multiplicative-update NMF with "
        "the KL or Frobenius loss from the same start; held-out perplexity, topics against the fortunes' "
        "categories, and an \"add a topic\" action.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"E-step", "M-step"};
    m.default_dataset = "fortunes";
    m.text_data = true;
    m.default_cli_steps = 100;
    m.iteration_columns = {"log_likelihood", "perplexity", "test_perplexity"};
    return m;
  }();
  return kInfo;
}

const ParamTable<Plsa::Params>& module_params(const Plsa*) { return param_table(); }
Plsa::Params Plsa::params_from(const ParamValues& values) { return param_table().read(values); }

Plsa::Plsa(const Plsa& o) : ModuleBase(o), st_(o.st_) {
  st_->partial = {};  // scratch: a clone allocates its own when it steps
  st_->a_next = {};
}

void Plsa::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  if (!data || !data->is_text())
    throw std::invalid_argument(
        "plsa: needs a text corpus" + (data ? " ('" + data->name + "' is a table of numbers)" : std::string()) +
        "; try: --dataset fortunes, or --data FOLDER of .txt files");
  auto st = std::make_unique<State>();
  st->p = p;
  st->seed = seed;
  st->rng.reseed(seed);
  st->prob = build_problem(*data, p, seed);
  st->k = p.k;
  const int n = st->docs(), m = st->terms(), K = p.k;
  std::vector<double> theta(static_cast<size_t>(n) * K), phi(static_cast<size_t>(m) * K);
  if (p.init == Init::Random) {
    // Columns of U first (topic by topic), then every document's p(z|d).
    for (int z = 0; z < K; ++z) dirichlet(st->rng, &phi[static_cast<size_t>(z)], m, static_cast<size_t>(K));
    for (int i = 0; i < n; ++i) dirichlet(st->rng, &theta[static_cast<size_t>(i) * K], K, 1);
  } else {
    std::fill(phi.begin(), phi.end(), 1.0 / m);
    std::fill(theta.begin(), theta.end(), 1.0 / K);
  }
  st->start(theta, phi);
  st_ = std::move(st);
}

void Plsa::step() {
  State& s = *st_;
  if (is_terminal(s.status)) return;
  if (s.phase == 1) {  // finish the iteration the E-step began
    s.m_step();
  } else {
    switch (s.p.method) {
      case Method::Plsa: s.plsa_step(); break;
      case Method::NmfKl: s.kl_step(); break;
      case Method::NmfFrobenius: s.frobenius_step(); break;
    }
  }
  s.notice.clear();
  s.finish_iteration();
}

void Plsa::sub_step() {
  State& s = *st_;
  if (is_terminal(s.status)) return;
  if (s.p.method != Method::Plsa) {
    step();
    return;
  }
  if (s.phase == 0) {
    s.notice.clear();
    s.e_step();
    return;
  }
  s.m_step();
  s.finish_iteration();
}

std::shared_ptr<const PlsaSnapshot> Plsa::plsa_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  const PlsaProblem& P = *s.prob;
  const int K = s.k, n = s.docs(), m = s.terms();
  auto snap = std::make_shared<PlsaSnapshot>();
  s.describe(*snap);
  if (s.message.empty()) snap->message = s.notice;
  snap->metrics = s.metrics;
  snap->problem = s.prob;
  snap->method = static_cast<int>(s.p.method);
  snap->k = K;
  auto f = std::make_shared<PlsaFactors>();
  f->k = K;
  f->terms = m;
  f->docs = n;
  f->u = s.b;
  f->v = s.a;
  if (s.nmf()) {
    f->h_scale = s.column_sums_b();
    f->w_scale.assign(static_cast<size_t>(n), 0.0);
    for (int j = 0; j < m; ++j)
      for (int z = 0; z < K; ++z) {
        const double h = f->h_scale[static_cast<size_t>(z)];
        double& u = f->u[static_cast<size_t>(j) * K + z];
        u = h > 0 ? u / h : 0.0;
      }
    for (int i = 0; i < n; ++i) {
      double* v = &f->v[static_cast<size_t>(i) * K];
      for (int z = 0; z < K; ++z) v[z] *= f->h_scale[static_cast<size_t>(z)];
      double w = 0;
      for (int z = 0; z < K; ++z) w += v[z];
      f->w_scale[static_cast<size_t>(i)] = w;
      for (int z = 0; z < K; ++z) v[z] = w > 0 ? v[z] / w : 1.0 / K;
    }
  }
  // Top words per topic, ties by term id.
  snap->top_words.resize(static_cast<size_t>(K));
  std::vector<int> ids(static_cast<size_t>(m));
  const int top = std::min(PlsaSnapshot::kTopWords, m);
  for (int z = 0; z < K; ++z) {
    std::iota(ids.begin(), ids.end(), 0);
    std::partial_sort(ids.begin(), ids.begin() + top, ids.end(), [&](int x, int y) {
      const double ux = f->u[static_cast<size_t>(x) * K + z], uy = f->u[static_cast<size_t>(y) * K + z];
      return ux != uy ? ux > uy : x < y;
    });
    snap->top_words[static_cast<size_t>(z)].assign(ids.begin(), ids.begin() + top);
  }
  snap->topic_mass.assign(static_cast<size_t>(K), 0.0);
  const size_t L = P.label_names.size();
  if (L > 0) {
    snap->confusion_argmax.assign(static_cast<size_t>(K) * L, 0);
    snap->confusion_mass.assign(static_cast<size_t>(K) * L, 0.0);
  }
  for (int i = 0; i < n; ++i) {
    const double* v = &f->v[static_cast<size_t>(i) * K];
    const double len = P.train.doc_length[static_cast<size_t>(i)];
    for (int z = 0; z < K; ++z) snap->topic_mass[static_cast<size_t>(z)] += len * v[z];
    if (L == 0) continue;
    const int c = P.doc_label[static_cast<size_t>(i)];
    if (c < 0 || static_cast<size_t>(c) >= L) continue;
    const int best = static_cast<int>(std::max_element(v, v + K) - v);
    ++snap->confusion_argmax[static_cast<size_t>(best) * L + static_cast<size_t>(c)];
    for (int z = 0; z < K; ++z) snap->confusion_mass[static_cast<size_t>(z) * L + static_cast<size_t>(c)] += v[z];
  }
  for (double& t : snap->topic_mass) t /= P.train_total;
  snap->factors = std::move(f);
  snap->largest_rise = s.largest_rise;
  snap->u_sum_error = s.u_error;
  snap->v_sum_error = s.v_error;
  snap->q_sum_error = s.q_error;
  snap->saturated_bound = P.saturated_bound;
  snap->unigram_error = s.unigram_error;
  s.cache = snap;
  return snap;
}

std::shared_ptr<const Snapshot> Plsa::snapshot() const { return plsa_snapshot(); }

void Plsa::set_live(const std::string& name, double value) {
  State& s = *st_;
  param_table().set_live(s.p, name, value, "plsa");
  if (s.status != Status::Diverged && s.status != Status::Failed) s.judge();
}

bool Plsa::apply(const Intent& intent) {
  if (intent.kind != "add_topic") return false;
  State& s = *st_;
  if (!s.prob || s.status == Status::Diverged) return false;
  return s.add_topic();
}

size_t Plsa::state_bytes() const {
  const State& s = *st_;
  return sizeof(State) + (s.a.size() + s.b.size() + s.a_next.size() + s.pd.size() + s.partial.size() + s.q.size()) *
                             sizeof(double) +
         (s.cache ? s.cache->byte_size() : 0);
}

void Plsa::set_start(const std::vector<double>& theta, const std::vector<double>& phi) {
  State& s = *st_;
  const size_t nk = static_cast<size_t>(s.docs()) * s.k, mk = static_cast<size_t>(s.terms()) * s.k;
  if (theta.size() != nk || phi.size() != mk)
    throw std::invalid_argument("plsa: set_start needs theta of " + std::to_string(nk) + " and phi of " +
                                std::to_string(mk) + " values");
  s.start(theta, phi);
}

const std::vector<double>& Plsa::theta() const { return st_->a; }
const std::vector<double>& Plsa::phi() const { return st_->b; }
const PlsaProblem& Plsa::problem() const { return *st_->prob; }
int Plsa::topics() const { return st_->k; }
const std::vector<double>& Plsa::responsibilities() const { return st_->q; }

CILAB_MODULE_STATE(Plsa)

}  // namespace cilab
