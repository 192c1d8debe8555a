#include "algorithms/embeddings/word2vec.h"
#include "algorithms/core/progress.h"
#include "algorithms/core/module_base_impl.h"

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/text/derived_cache.h"
#include "algorithms/text/wordnet.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace cilab {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The published copy of the vectors: at most this often while training
// (plus every epoch end, the run's end and settle()).
constexpr double kCopyMs = 300.0;
// The live recall: at least this long apart (wall clock), and at least
// kRecallCostFactor times its own cost apart (so at full speed it never takes
// more than ~3 % of the training time). Taken with a copy of the vectors.
constexpr double kRecallMinMs = 3000.0;
constexpr double kRecallCostFactor = 30.0;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

const ParamTable<Word2Vec::Params>& param_table() {
  using P = Word2Vec::Params;
  static const ParamTable<P> kTable = {
      Int("vector_size", &P::vector_size, 1, 1000)
          .help("dimension d of the word vectors (gensim: vector_size)")
          .formula("x_w, y_w in R^d"),
      Int("window", &P::window, 1, 50)
          .help("context window R: pairs (w_t, w_t+delta) with 1 <= |delta| <= b, b drawn uniformly in 1..R per "
                "centre word unless shrink_windows is off (gensim: window)")
          .formula("1 <= |delta| <= b <= R"),
      Int("negative", &P::negative, 1, 50)
          .help("noise words k drawn from q_alpha per positive pair (gensim: negative)")
          .formula("l = -log s(x.y_v) - sum_j log s(-x.y_uj), u_j ~ q"),
      Real("ns_exponent", &P::ns_exponent, 0, 1)
          .help("exponent alpha of the noise distribution: 0 uniform, 0.75 word2vec, 1 unigram (gensim: "
                "ns_exponent)")
          .formula("q(w) = count_w^alpha / sum_u count_u^alpha"),
      Real("sample", &P::sample, 0, 0.1)
          .log_scale()
          .help("frequent-word subsampling threshold t: word w is kept with probability min(1, (sqrt(f/t) + 1) t/f), "
                "0 = keep every word (gensim: sample)")
          .formula("keep(w) = min(1, (sqrt(f_w/t) + 1) t / f_w)"),
      Int("min_count", &P::min_count, 1, 1000000).help("drop words seen fewer times (gensim: min_count)"),
      Int("epochs", &P::epochs, 1, 10000)
          .budget()
          .help("passes over the corpus (gensim: epochs); raised after the run stopped, training continues (the "
                "learning rate then decays over the new total)"),
      Real("lr", &P::lr, 1e-6, 1)
          .log_scale()
          .help("initial learning rate, decayed linearly to min_lr over all epochs (gensim: alpha)")
          .formula("lr_t = lr - (lr - min_lr) * progress"),
      Real("min_lr", &P::min_lr, 0, 1).log_scale().help("final learning rate (gensim: min_alpha)"),
      Int("workers", &P::workers, 1, 16)
          .help("threads per chunk, lock-free (Hogwild, as gensim): faster, but runs with workers > 1 are not "
                "bit-reproducible; 1 is deterministic"),
      Bool("shrink_windows", &P::shrink_windows)
          .help("draw each centre word's window b uniformly in 1..window (word2vec and gensim 4's "
                "shrink_windows); off = every pair within the window counts once"),
      Int("batch_words", &P::batch_words, 100, 1000000)
          .help("corpus words per iteration (one chunk; gensim: batch_words)"),
      Int("recall_probes", &P::recall_probes, 1, 100000)
          .help("probe words of the WordNet synonym recall@10 oracle (the most frequent non-stop words with a "
                "synonym in the vocabulary)"),
      Text("probe", &P::probe)
          .help("comma-separated words whose nearest neighbours are shown (and printed by cilab run)"),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Word2Vec::kMetricLoss, "loss",
       "mean over the chunk's positive pairs (w, v) of -log s(<x_w, y_v>) - sum_j log s(-<x_w, y_uj>), "
       "u_j ~ q_alpha, s(z) = 1/(1+e^-z)",
       false},
      {Word2Vec::kMetricWordsPerS, "words_per_s",
       "training speed of the epoch: corpus words after min_count (before subsampling) per second of "
       "training (wall clock; set at each epoch end)",
       false},
      {Word2Vec::kMetricRecall, "synonym_recall_at_10", kSynonymRecallHelp, false},
      {Word2Vec::kMetricSigmaPositive, "sigma_positive",
       "mean s(<x_w, y_v>) over the chunk's positive pairs: rises towards 1 as the model learns", false},
      {Word2Vec::kMetricSigmaNegative, "sigma_negative",
       "mean s(<x_w, y_u>) over the chunk's noise pairs: falls towards 0", false},
      {Word2Vec::kMetricLr, "lr", "learning rate of the chunk (linear decay from lr to min_lr)", true},
  };
  return kMetrics;
}

// A small fast generator for the training loop (splitmix64): one per chunk
// part, seeded from the run's seed, the epoch, the chunk and the part.
struct FastRng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 24 bits.
  float uniform() { return static_cast<float>(next() >> 40) * 0x1.0p-24f; }
  // Uniform in 0..n-1 (n < 2^32).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
};

uint64_t mix(uint64_t a, uint64_t b) {
  FastRng r{a ^ (b * 0xD6E8FEB86659FD93ull)};
  return r.next();
}

// Walker's alias table for q: one draw, O(1).
struct AliasTable {
  std::vector<float> prob;
  std::vector<int32_t> alias;
  explicit AliasTable(const std::vector<double>& q) {
    const size_t n = q.size();
    prob.assign(n, 1.0f);
    alias.resize(n);
    std::vector<double> scaled(n);
    std::vector<int32_t> small, large;
    for (size_t i = 0; i < n; ++i) {
      alias[i] = static_cast<int32_t>(i);
      scaled[i] = q[i] * static_cast<double>(n);
      (scaled[i] < 1.0 ? small : large).push_back(static_cast<int32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const int32_t s = small.back(), l = large.back();
      small.pop_back();
      prob[static_cast<size_t>(s)] = static_cast<float>(scaled[static_cast<size_t>(s)]);
      alias[static_cast<size_t>(s)] = l;
      scaled[static_cast<size_t>(l)] -= 1.0 - scaled[static_cast<size_t>(s)];
      if (scaled[static_cast<size_t>(l)] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
  }
  int32_t draw(FastRng& r) const {
    const uint64_t x = r.next();
    const uint32_t i = static_cast<uint32_t>(((x >> 32) * prob.size()) >> 32);
    const float u = static_cast<float>(x & 0xFFFFFF) * 0x1.0p-24f;
    return u < prob[i] ? static_cast<int32_t>(i) : alias[i];
  }
};

// Everything fixed at reset, shared by clones and snapshots.
struct Problem {
  std::shared_ptr<const Vocabulary> vocab;
  EncodedCorpus text;
  std::vector<int64_t> seg_start;    // segments: documents, cut at batch_words; size segments + 1
  std::vector<int64_t> chunk_seg;    // chunk c = segments [chunk_seg[c], chunk_seg[c + 1])
  std::vector<float> keep;           // subsampling keep probability per word
  std::shared_ptr<const std::vector<double>> q, p;  // noise q_alpha and unigram p
  std::unique_ptr<AliasTable> alias;
  std::shared_ptr<const SynonymProbes> probes;
  std::string recall_note;           // why the recall is n/a (no WordNet...)
  std::shared_ptr<const WordNet> wordnet;  // keeps the process-wide WordNet cache alive while the problem lives
  std::vector<ScorePair> score_targets;  // small vocabularies: pairs with their PMI - log k
  int64_t epoch_words = 0;
  int chunks() const { return static_cast<int>(chunk_seg.size()) - 1; }
};

// Tabulated sigma and log sigma on [-kMaxExp, kMaxExp], clipped outside.
struct Tables {
  static constexpr int kN = SigmoidTable::kSize;
  float sig[kN + 1], log_sig[kN + 1], log_one_minus[kN + 1];
  Tables() {
    for (int i = 0; i <= kN; ++i) {
      const double z = (2.0 * i / kN - 1.0) * SigmoidTable::kMaxExp;
      sig[i] = static_cast<float>(sigmoid(z));
      log_sig[i] = static_cast<float>(-std::log1p(std::exp(-z)));
      log_one_minus[i] = static_cast<float>(-std::log1p(std::exp(z)));
    }
  }
  static int index(float f) {
    if (!(f > -SigmoidTable::kMaxExp)) return 0;
    if (f >= SigmoidTable::kMaxExp) return kN;
    return static_cast<int>((f + SigmoidTable::kMaxExp) * (kN / (2.0f * SigmoidTable::kMaxExp)) + 0.5f);
  }
};

const Tables& tables() {
  static const Tables kTables;
  return kTables;
}

CILAB_HOGWILD inline float dot(const float* __restrict a, const float* __restrict b, int d) {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int j = 0;
  for (; j + 8 <= d; j += 8)
    for (int l = 0; l < 8; ++l) acc[l] += a[j + l] * b[j + l];
  float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; j < d; ++j) s += a[j] * b[j];
  return s;
}

CILAB_HOGWILD inline void axpy(float g, const float* __restrict x, float* __restrict y, int d) {
  for (int j = 0; j < d; ++j) y[j] += g * x[j];
}

struct ChunkStats {
  double loss = 0, sig_pos = 0, sig_neg = 0;
  int64_t pairs = 0, negs = 0, words = 0;
};

// Trains the segments [lo, hi) of the corpus (one worker's part of a chunk).
// With workers > 1 the parts run at once on the same x and y: CILAB_HOGWILD.
CILAB_HOGWILD void train_segments(const Problem& pr, const Word2Vec::Params& p, float lr, int64_t lo, int64_t hi, uint64_t seed,
                    EmbeddingMatrix& x, EmbeddingMatrix& y, ChunkStats& st) {
  const Tables& tab = tables();
  const int d = x.dim;
  FastRng rng{seed};
  std::vector<int32_t> sent;
  std::vector<float> neu(static_cast<size_t>(d));
  const float* keep = pr.keep.data();
  const AliasTable& alias = *pr.alias;
  double loss = 0, sig_pos = 0, sig_neg = 0;
  int64_t pairs = 0, negs = 0;
  for (int64_t s = lo; s < hi; ++s) {
    const int64_t a = pr.seg_start[static_cast<size_t>(s)], b = pr.seg_start[static_cast<size_t>(s) + 1];
    st.words += b - a;
    sent.clear();
    for (int64_t t = a; t < b; ++t) {
      const int32_t w = pr.text.tokens[static_cast<size_t>(t)];
      if (keep[w] < 1.0f && rng.uniform() >= keep[w]) continue;
      sent.push_back(w);
    }
    const int n = static_cast<int>(sent.size());
    for (int i = 0; i < n; ++i) {
      const int bw = p.shrink_windows ? 1 + static_cast<int>(rng.below(static_cast<uint32_t>(p.window))) : p.window;
      const int jlo = std::max(0, i - bw), jhi = std::min(n, i + bw + 1);
      const int32_t word = sent[static_cast<size_t>(i)];
      for (int j = jlo; j < jhi; ++j) {
        if (j == i) continue;
        // gensim's orientation: the context word's input vector predicts the centre word.
        float* xin = x.row(sent[static_cast<size_t>(j)]);
        std::fill(neu.begin(), neu.end(), 0.0f);
        {
          float* yo = y.row(word);
          const int k = Tables::index(dot(xin, yo, d));
          const float g = (1.0f - tab.sig[k]) * lr;
          sig_pos += tab.sig[k];
          loss -= tab.log_sig[k];
          axpy(g, yo, neu.data(), d);
          axpy(g, xin, yo, d);
        }
        for (int r = 0; r < p.negative; ++r) {
          const int32_t u = alias.draw(rng);
          if (u == word) continue;  // word2vec.c and gensim skip a noise word equal to the target
          float* yo = y.row(u);
          const int k = Tables::index(dot(xin, yo, d));
          const float g = -tab.sig[k] * lr;
          sig_neg += tab.sig[k];
          loss -= tab.log_one_minus[k];
          ++negs;
          axpy(g, yo, neu.data(), d);
          axpy(g, xin, yo, d);
        }
        axpy(1.0f, neu.data(), xin, d);
        ++pairs;
      }
    }
  }
  st.loss += loss;
  st.sig_pos += sig_pos;
  st.sig_neg += sig_neg;
  st.pairs += pairs;
  st.negs += negs;
}

std::shared_ptr<Problem> build_problem(const Dataset& data, const Word2Vec::Params& p) {
  auto pr = std::make_shared<Problem>();
  VocabOptions vo;
  vo.min_count = p.min_count;
  report_progress("building the vocabulary");
  auto vocab = std::make_shared<Vocabulary>(build_vocabulary(*data.text, vo));
  require_vocabulary(*vocab, 2, "word2vec", data.name, "SGNS (a positive pair and a noise word)");
  pr->vocab = vocab;
  report_progress("encoding the corpus");
  pr->text = encode(*data.text, *vocab);
  pr->epoch_words = pr->text.size();
  if (pr->epoch_words < 2)
    throw std::invalid_argument("word2vec: '" + data.name + "' has " + std::to_string(pr->epoch_words) +
                                " words after min_count=" + std::to_string(p.min_count) +
                                "; try: a lower min_count or a larger corpus");
  // Segments: documents, cut every batch_words tokens; chunks: consecutive
  // segments of about batch_words tokens.
  pr->seg_start.push_back(0);
  for (int doc = 0; doc < pr->text.docs(); ++doc) {
    const int64_t a = pr->text.doc_start[static_cast<size_t>(doc)], b = pr->text.doc_start[static_cast<size_t>(doc) + 1];
    if (b == a) continue;
    for (int64_t c = a; c < b;) {
      c = std::min(b, c + p.batch_words);
      pr->seg_start.push_back(c);
    }
  }
  pr->chunk_seg.push_back(0);
  int64_t in_chunk = 0;
  const int64_t segs = static_cast<int64_t>(pr->seg_start.size()) - 1;
  for (int64_t s = 0; s < segs; ++s) {
    in_chunk += pr->seg_start[static_cast<size_t>(s) + 1] - pr->seg_start[static_cast<size_t>(s)];
    if (in_chunk >= p.batch_words || s + 1 == segs) {
      pr->chunk_seg.push_back(s + 1);
      in_chunk = 0;
    }
  }
  const std::vector<double> keep = subsample_keep_probability(*vocab, p.sample);
  pr->keep.assign(keep.begin(), keep.end());
  pr->q = std::make_shared<const std::vector<double>>(noise_distribution(vocab->counts, p.ns_exponent));
  pr->p = std::make_shared<const std::vector<double>>(noise_distribution(vocab->counts, 1.0));
  pr->alias = std::make_unique<AliasTable>(*pr->q);
  // Small vocabularies: every co-occurring pair with its PMI(w, v) - log k
  // target, P(v) = q(v) (Levy & Goldberg: with q the context distribution).
  if (vocab->size() <= EmbeddingSnapshot::kScorePairMaxWords) {
    const Cooccurrence c = cooccurrence(pr->text, vocab->size(), p.window, CoocWeight::Count);
    std::vector<double> row_sum(static_cast<size_t>(vocab->size()), 0.0);
    for (int w = 0; w < c.words; ++w)
      for (int64_t e = c.row_start[static_cast<size_t>(w)]; e < c.row_start[static_cast<size_t>(w) + 1]; ++e)
        row_sum[static_cast<size_t>(w)] += c.value[static_cast<size_t>(e)];
    for (int w = 0; w < c.words; ++w)
      for (int64_t e = c.row_start[static_cast<size_t>(w)]; e < c.row_start[static_cast<size_t>(w) + 1]; ++e) {
        ScorePair sp;
        sp.w = w;
        sp.v = c.col[static_cast<size_t>(e)];
        sp.count = c.value[static_cast<size_t>(e)];
        sp.target = std::log(sp.count / (row_sum[static_cast<size_t>(w)] * (*pr->q)[static_cast<size_t>(sp.v)])) -
                    std::log(static_cast<double>(p.negative));
        pr->score_targets.push_back(sp);
      }
  }
  return pr;
}

}  // namespace

// ---------------------------------------------------------------- kernels

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

SigmoidTable::SigmoidTable() : table_(kSize + 1) {
  for (int i = 0; i <= kSize; ++i)
    table_[static_cast<size_t>(i)] = static_cast<float>(sigmoid((2.0 * i / kSize - 1.0) * kMaxExp));
}

float SigmoidTable::operator()(float z) const { return table_[static_cast<size_t>(Tables::index(z))]; }

std::vector<double> noise_distribution(const std::vector<int64_t>& counts, double alpha) {
  std::vector<double> q(counts.size());
  double s = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    q[i] = counts[i] > 0 ? std::pow(static_cast<double>(counts[i]), alpha) : 0.0;
    s += q[i];
  }
  if (s > 0)
    for (double& v : q) v /= s;
  return q;
}

double entropy(const std::vector<double>& q) {
  double h = 0;
  for (double v : q)
    if (v > 0) h -= v * std::log(v);
  return h;
}

double sgns_pair_loss(const float* x, const float* y_pos, const std::vector<const float*>& y_neg, int d,
                      std::vector<double>* grad_x, std::vector<double>* grad_pos, std::vector<double>* grad_neg) {
  auto ddot = [d](const float* a, const float* b) {
    double s = 0;
    for (int j = 0; j < d; ++j) s += static_cast<double>(a[j]) * b[j];
    return s;
  };
  const size_t ud = static_cast<size_t>(d);
  if (grad_x) grad_x->assign(ud, 0.0);
  if (grad_pos) grad_pos->assign(ud, 0.0);
  if (grad_neg) grad_neg->assign(y_neg.size() * ud, 0.0);
  // l = -log s(z) = log(1 + e^-z); dl/dz = -(1 - s(z)) = s(z) - 1.
  const double zp = ddot(x, y_pos);
  double loss = std::log1p(std::exp(-zp));
  const double gp = sigmoid(zp) - 1.0;
  for (size_t j = 0; j < ud; ++j) {
    if (grad_x) (*grad_x)[j] += gp * y_pos[j];
    if (grad_pos) (*grad_pos)[j] = gp * x[j];
  }
  // l = -log s(-z) = log(1 + e^z); dl/dz = s(z).
  for (size_t r = 0; r < y_neg.size(); ++r) {
    const double zn = ddot(x, y_neg[r]);
    loss += std::log1p(std::exp(zn));
    const double gn = sigmoid(zn);
    for (size_t j = 0; j < ud; ++j) {
      if (grad_x) (*grad_x)[j] += gn * y_neg[r][j];
      if (grad_neg) (*grad_neg)[r * ud + j] = gn * x[j];
    }
  }
  return loss;
}

// ---------------------------------------------------------------- module

namespace {

// The problem of a corpus and of the parameters it depends on (min_count, sample, ns_exponent,
// window, negative, batch_words, recall_probes): built once, shared by every restart that changes
// only the training parameters (derived_cache.h).
std::string problem_key(const Word2Vec::Params& p) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%d %.17g %.17g %d %d %d %d", p.min_count, p.sample, p.ns_exponent, p.window,
                p.negative, p.batch_words, p.recall_probes);
  return buf;
}

std::shared_ptr<const Problem> cached_problem(const std::shared_ptr<const Dataset>& data, const Word2Vec::Params& p) {
  static DerivedCache<Problem> cache;
  return cache.get(data, problem_key(p), [&]() -> std::shared_ptr<const Problem> {
    // The recall oracle's WordNet is read on its own thread while the problem is built.
    std::future<std::shared_ptr<const WordNet>> wordnet = load_wordnet_async();
    std::shared_ptr<Problem> pr = build_problem(*data, p);
    // The oracle's probe set (WordNet missing: the run trains, the recall is n/a and the message says why).
    try {
      report_progress("reading WordNet's synonyms (the recall oracle)");
      pr->wordnet = wordnet.get();
      pr->probes = std::make_shared<const SynonymProbes>(synonym_probes(*pr->vocab, *pr->wordnet, p.recall_probes));
      if (pr->probes->size() == 0)
        pr->recall_note = "no vocabulary word has a WordNet synonym in the vocabulary: synonym recall is n/a";
    } catch (const DataError& e) {
      pr->recall_note = std::string("synonym recall is n/a: ") + e.what();
    }
    return pr;
  });
}

}  // namespace

struct Word2Vec::State {
  Params p;
  uint64_t seed = 0;
  uint64_t base = 0;  // chunk seeds derive from it
  std::shared_ptr<const Dataset> data;
  std::shared_ptr<const Problem> prob;
  EmbeddingMatrix x, y;
  int iteration = 0, epoch = 0, chunk = 0;  // chunk: next chunk of the current epoch
  int64_t words_done = 0;
  Status status = Status::Running;
  std::string message;
  std::vector<double> metrics;
  double lr_now = 0;
  double epoch_train_ms = 0;
  std::shared_ptr<const std::vector<EmbeddingEpoch>> epochs = std::make_shared<const std::vector<EmbeddingEpoch>>();
  // The published copy (wall-clock cadence: never affects the run).
  std::shared_ptr<const EmbeddingMatrix> copy, unit;
  std::shared_ptr<const std::vector<ScorePair>> score_pairs;
  int copy_iteration = -1;
  double since_copy_ms = 0;
  double live_recall = kNaN;
  int recall_iteration = -1;
  Clock::time_point last_recall = Clock::now();  // wall clock: a slowly paced run is measured too
  double recall_cost_ms = 0;
  double live_wps = kNaN;
  // Before reset: blank metrics and the (empty) epoch rows.
  std::shared_ptr<const Word2VecSnapshot> snap = [this] {
    auto s = std::make_shared<Word2VecSnapshot>();
    s->metrics = metric_table().blank();
    s->epochs = epochs;
    return s;
  }();

  int total_chunks() const { return prob->chunks() * p.epochs; }

  std::string stop_message() const {
    return "trained " + std::to_string(p.epochs) + " epoch" + (p.epochs == 1 ? "" : "s") +
           " (raise epochs to train longer)";
  }

  // The budget `epochs` changed live: a stopped run below the new budget continues from where
  // it stopped (the learning rate decays over the new total from here); a run at an epoch
  // boundary at or past it stops.
  void rebudget() {
    if (status == Status::Stopped && epoch < p.epochs) {
      status = Status::Running;
      message = prob->recall_note;
    } else if (status == Status::Running && chunk == 0 && epoch >= p.epochs && epoch > 0) {
      status = Status::Stopped;
      message = stop_message();
    } else {
      return;
    }
    publish();
  }

  float lr_at(int epoch_index, int chunk_index) const {
    const double done = static_cast<double>(epoch_index) * static_cast<double>(prob->epoch_words) +
                        static_cast<double>(prob->seg_start[static_cast<size_t>(prob->chunk_seg[static_cast<size_t>(chunk_index)])]);
    // At most 1: epochs lowered live below the epoch running ends at min_lr, never below it.
    const double progress =
        std::min(1.0, done / (static_cast<double>(p.epochs) * static_cast<double>(prob->epoch_words)));
    return static_cast<float>(p.lr - (p.lr - p.min_lr) * progress);
  }

  void take_copy() {
    copy = std::make_shared<const EmbeddingMatrix>(x);
    unit = std::make_shared<const EmbeddingMatrix>(normalized(x));
    copy_iteration = iteration;
    since_copy_ms = 0;
    if (!prob->score_targets.empty()) {
      auto sp = std::make_shared<std::vector<ScorePair>>(prob->score_targets);
      for (ScorePair& s : *sp) s.score = dot(x.row(s.w), y.row(s.v), x.dim);
      score_pairs = sp;
    }
  }

  double recall_now() {
    if (!prob->probes || prob->probes->size() == 0) return kNaN;
    const Clock::time_point t0 = Clock::now();
    const double r = synonym_recall(*unit, *prob->probes, 10);
    recall_cost_ms = ms_since(t0);
    live_recall = r;
    recall_iteration = iteration;
    last_recall = Clock::now();
    return r;
  }

  void publish() {
    auto s = std::make_shared<Word2VecSnapshot>();
    s->iteration = iteration;
    s->epoch = epoch;
    s->status = status;
    s->message = message;
    s->metrics = metrics.empty() ? metric_table().blank() : metrics;
    s->vocab = prob->vocab;
    s->vectors = copy;
    s->unit = unit;
    s->vectors_iteration = copy_iteration;
    s->probes = parse_probe_words(p.probe);
    s->epochs = epochs;
    s->synonym_probes = prob->probes;
    s->live_recall = live_recall;
    s->recall_iteration = recall_iteration;
    s->live_words_per_s = live_wps;
    s->noise_q = prob->q;
    s->unigram_p = prob->p;
    s->ns_exponent = p.ns_exponent;
    s->score_pairs = score_pairs;
    s->score_target = "PMI(w, v) - log k";
    s->epoch_words = prob->epoch_words;
    s->lr = lr_now;
    s->negative = p.negative;
    s->words_done = words_done;
    snap = s;
  }
};



const ModuleInfo& Word2Vec::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "word2vec";
    m.title = "word2vec (skip-gram with negative sampling)";
    m.chapter = "Word embeddings";
    m.summary =
        "Word vectors learned live from real English text (the GCIDE dictionary): skip-gram with negative "
        "sampling as word2vec and gensim train it. Loss and s(score) on positive against noise pairs, nearest "
        "neighbours of probe words, a PCA map, analogies, the noise distribution q_alpha against p, learned "
        "scores against PMI - log k on a tiny corpus, and WordNet synonym recall@10 as the oracle.";
    m.metrics = metric_table().infos();
    m.default_dataset = "gcide";
    m.text_data = true;
    m.default_cli_steps = 100;
    m.epoch_columns = {"loss", "words_per_s", "synonym_recall_at_10"};
    return m;
  }();
  return kInfo;
}

const ParamTable<Word2Vec::Params>& module_params(const Word2Vec*) { return param_table(); }

Word2Vec::Params Word2Vec::params_from(const ParamValues& values) { return param_table().read(values); }

void Word2Vec::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  if (!data || !data->is_text())
    throw std::invalid_argument(
        "word2vec: needs a text corpus" + (data ? " ('" + data->name + "' is a table of numbers)" : std::string()) +
        "; try: --dataset gcide, --dataset tiny-text, or --data FOLDER of .txt files");
  auto st = std::make_unique<State>();
  st->p = p;
  st->seed = seed;
  st->data = data;
  const std::shared_ptr<const Problem> pr = cached_problem(data, p);
  st->prob = pr;
  st->message = pr->recall_note;
  Rng rng(seed);
  const int v = pr->vocab->size(), d = p.vector_size;
  st->x = EmbeddingMatrix(v, d);
  st->y = EmbeddingMatrix(v, d);
  // gensim: input vectors uniform in (-0.5, 0.5) / vector_size, output vectors 0.
  for (float& f : st->x.values) f = static_cast<float>((rng.uniform() - 0.5) / d);
  st->base = rng.next_u64();
  st->lr_now = p.lr;
  st->metrics = metric_table().blank();
  st->take_copy();
  st->publish();
  st_ = std::move(st);
}

void Word2Vec::step() {
  State& s = *st_;
  if (!s.prob || is_terminal(s.status)) return;
  const Problem& pr = *s.prob;
  const Clock::time_point t0 = Clock::now();
  const float lr = s.lr_at(s.epoch, s.chunk);
  const int64_t seg_lo = pr.chunk_seg[static_cast<size_t>(s.chunk)], seg_hi = pr.chunk_seg[static_cast<size_t>(s.chunk) + 1];
  const uint64_t chunk_seed = mix(mix(s.base, static_cast<uint64_t>(s.epoch)), static_cast<uint64_t>(s.chunk));
  ChunkStats total;
  const int parts = static_cast<int>(std::min<int64_t>(s.p.workers, seg_hi - seg_lo));
  if (parts <= 1) {
    train_segments(pr, s.p, lr, seg_lo, seg_hi, chunk_seed, s.x, s.y, total);
  } else {
    // Hogwild: the parts share x and y without locks (as gensim's workers).
    const int64_t words = pr.seg_start[static_cast<size_t>(seg_hi)] - pr.seg_start[static_cast<size_t>(seg_lo)];
    std::vector<int64_t> cut(static_cast<size_t>(parts) + 1, seg_hi);
    cut[0] = seg_lo;
    int next = 1;
    for (int64_t g = seg_lo; g < seg_hi && next < parts; ++g) {
      const int64_t done = pr.seg_start[static_cast<size_t>(g) + 1] - pr.seg_start[static_cast<size_t>(seg_lo)];
      if (done * parts >= words * next) cut[static_cast<size_t>(next++)] = g + 1;
    }
    std::vector<ChunkStats> part(static_cast<size_t>(parts));
    parallel_for_blocks(parts, parts, [&](int b) {
      train_segments(pr, s.p, lr, cut[static_cast<size_t>(b)], cut[static_cast<size_t>(b) + 1],
                     mix(chunk_seed, static_cast<uint64_t>(b) + 1), s.x, s.y, part[static_cast<size_t>(b)]);
    });
    for (const ChunkStats& c : part) {
      total.loss += c.loss;
      total.sig_pos += c.sig_pos;
      total.sig_neg += c.sig_neg;
      total.pairs += c.pairs;
      total.negs += c.negs;
      total.words += c.words;
    }
  }
  const double train_ms = ms_since(t0);
  s.epoch_train_ms += train_ms;
  s.live_wps = train_ms > 0 ? static_cast<double>(total.words) / (train_ms / 1000.0) : kNaN;
  s.since_copy_ms += train_ms;
  s.words_done += total.words;
  ++s.iteration;
  ++s.chunk;
  s.lr_now = lr;
  std::vector<double> m = metric_table().blank();
  m[kMetricLoss] = total.pairs > 0 ? total.loss / static_cast<double>(total.pairs) : kNaN;
  m[kMetricSigmaPositive] = total.pairs > 0 ? total.sig_pos / static_cast<double>(total.pairs) : kNaN;
  m[kMetricSigmaNegative] = total.negs > 0 ? total.sig_neg / static_cast<double>(total.negs) : kNaN;
  m[kMetricLr] = lr;
  bool finite = std::isfinite(m[kMetricLoss]) || total.pairs == 0;
  if (s.chunk == pr.chunks()) {
    // Epoch end: the forced copy, the oracle, the speed, the epoch row.
    ++s.epoch;
    s.chunk = 0;
    s.take_copy();
    m[kMetricRecall] = s.recall_now();
    m[kMetricWordsPerS] = s.epoch_train_ms > 0 ? static_cast<double>(pr.epoch_words) / (s.epoch_train_ms / 1000.0) : kNaN;
    s.epoch_train_ms = 0;
    auto rows = std::make_shared<std::vector<EmbeddingEpoch>>(*s.epochs);
    rows->push_back(EmbeddingEpoch{s.epoch, s.iteration, m});
    s.epochs = rows;
    if (s.epoch >= s.p.epochs) {
      s.status = Status::Stopped;
      s.message = s.stop_message();
    }
  } else if (s.since_copy_ms >= kCopyMs) {
    s.take_copy();
    if (ms_since(s.last_recall) >= std::max(kRecallMinMs, kRecallCostFactor * s.recall_cost_ms)) s.recall_now();
  }
  if (!finite) {
    s.status = Status::Diverged;
    s.message = "the loss is not finite at iteration " + std::to_string(s.iteration) +
                "; rewind and halve the learning rate";
  }
  s.metrics = m;
  s.publish();
}

bool Word2Vec::settle() {
  State& s = *st_;
  if (!s.prob || s.copy_iteration == s.iteration) return false;
  s.take_copy();
  s.publish();
  return true;
}

std::shared_ptr<const Snapshot> Word2Vec::snapshot() const { return st_->snap; }
std::shared_ptr<const Word2VecSnapshot> Word2Vec::word2vec_snapshot() const { return st_->snap; }

void Word2Vec::set_live(const std::string& name, double value) {
  State& s = *st_;
  param_table().set_live(s.p, name, value, "word2vec");
  if (name == "epochs" && s.prob) s.rebudget();
}

size_t Word2Vec::state_bytes() const {
  const State& s = *st_;
  return sizeof(State) + s.x.byte_size() + s.y.byte_size() + (s.snap ? s.snap->byte_size() : 0);
}

std::string Word2Vec::report(const Snapshot& last) const { return embedding_report(last, 10); }

const EmbeddingMatrix& Word2Vec::input_vectors() const { return st_->x; }
const EmbeddingMatrix& Word2Vec::output_vectors() const { return st_->y; }
const Vocabulary& Word2Vec::vocabulary() const {
  if (!st_->prob) throw std::logic_error("word2vec: vocabulary() before reset()");
  return *st_->prob->vocab;
}
const std::vector<double>& Word2Vec::noise_distribution() const {
  if (!st_->prob) throw std::logic_error("word2vec: noise_distribution() before reset()");
  return *st_->prob->q;
}

size_t Word2VecSnapshot::byte_size() const { return EmbeddingSnapshot::byte_size() + sizeof(*this) - sizeof(EmbeddingSnapshot); }

CILAB_MODULE_STATE(Word2Vec)

}  // namespace cilab
