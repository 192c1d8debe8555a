// GloVe: the co-occurrence entries, the two solvers (per-entry AdaGrad on the
// shared Optimizer, exact ALS half-sweeps) and the module. See glove.h.
#include "algorithms/embeddings/glove.h"
#include "algorithms/core/progress.h"
#include "algorithms/core/module_base_impl.h"

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/text/derived_cache.h"
#include "algorithms/text/text.h"
#include "algorithms/text/wordnet.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kAlsBlockRows = 64;        // rows per parallel block of an ALS half-sweep
constexpr double kPublishSeconds = 0.25;  // vectors copied for the window at most this often
constexpr double kRecallSeconds = 3.0;    // live recall at most this often

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

const ParamTable<Glove::Params>& param_table() {
  using P = Glove::Params;
  static const ParamTable<P> kTable = [] {
    std::vector<ParamField<P>> rows = {
        Choice("solver", &P::solver, {"adagrad", "als"})
            .choice_help({"GloVe's own: one AdaGrad step per co-occurrence entry, in a seeded random order "
                          "(the shared optimizer's sparse steps)",
                          "alternating least squares: every word's (x, b) solved exactly, then every (y, c); the "
                          "objective never rises"})
            .help("how J is minimised"),
        Int("vector_size", &P::vector_size, 1, 1000).help("dimension d of the word vectors (GloVe: vector_size)"),
        Int("window", &P::window, 1, 100)
            .help("co-occurrences counted within this many words, each pair weighted 1 / distance (GloVe's cooccur)")
            .formula("N_vw = sum over pairs at distance 1..window of 1 / distance"),
        Real("x_max", &P::x_max, 1e-3, 1e9)
            .log_scale()
            .help("counts at or above x_max get the full weight 1 (GloVe: x_max)")
            .formula("f(N) = min(1, (N / x_max)^alpha)"),
        Real("alpha", &P::alpha, 0, 1)
            .help("exponent of the weight function (GloVe: alpha, 3/4)")
            .formula("f(N) = min(1, (N / x_max)^alpha)"),
        Int("min_count", &P::min_count, 1, 1000000).help("words seen fewer times are dropped (GloVe: min_count)"),
        Int("max_vocab", &P::max_vocab, 0, 10000000)
            .help("keep only the most frequent words (GloVe: max_vocab; 0 = all)"),
        Real("lr", &P::lr, 1e-6, 10)
            .live()
            .log_scale()
            .help("AdaGrad learning rate (GloVe: eta; torch.optim.Adagrad lr with initial_accumulator_value=1)")
            .formula("theta -= lr g / sqrt(1 + sum of g^2)"),
        Real("lambda", &P::lambda, 0, 1e6)
            .objective()
            .help("ridge penalty of the ALS solver on the vectors (0 allowed when every word has enough entries)")
            .formula("J + lambda (||X||^2 + ||Y||^2)"),
        Int("batch_entries", &P::batch_entries, 1, 100000000)
            .live()
            .help("co-occurrence entries per iteration (adagrad); an epoch is one pass over all of them"),
        Int("epochs", &P::epochs, 1, 100000).budget().help("passes over the entries; the run stops there (GloVe: max_iter)"),
        Int("recall_probes", &P::recall_probes, 1, 100000)
            .help("size of the WordNet synonym oracle's probe set (the most frequent words with a synonym)"),
        Text("probe", &P::probe)
            .help("comma-separated words whose nearest neighbours the window shows and `cilab run` prints"),
    };
    return ParamTable<P>(std::move(rows));
  }();
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Glove::kMetricLoss, "loss",
       "J / |entries|, the mean weighted squared residual: sum f(N) (<x_v, y_w> + b_v + c_w - log N_vw)^2 over the "
       "nonzero entries, divided by their number (adagrad: over the chunk's entries as visited; als: all, after the "
       "sweep)",
       true},
      {Glove::kMetricEntriesPerS, "entries_per_s",
       "co-occurrence entries trained per second of the last epoch (set at epoch ends)", false},
      {Glove::kMetricRecall, "synonym_recall_at_10", kSynonymRecallHelp, false},
      {Glove::kMetricObjective, "objective",
       "als: J + lambda (||X||^2 + ||Y||^2) after the sweep (never rises); adagrad: n/a", true},
      {Glove::kMetricLr, "lr", "learning rate of the last step (adagrad)", false},
  };
  return kMetrics;
}

}  // namespace

// ---------------------------------------------------------------- the problem

double glove_weight(double n, double x_max, double alpha) {
  if (!(n > 0)) return 0.0;
  if (n >= x_max) return 1.0;
  return std::pow(n / x_max, alpha);
}

GloveEntries glove_entries(const Cooccurrence& n, double x_max, double alpha) {
  GloveEntries e;
  e.words = n.words;
  // Where each row's positive counts start (one cheap pass), then log N and f(N) for blocks of
  // rows in parallel: each entry is written by one block, so any thread count gives the same.
  std::vector<int64_t> out_start(static_cast<size_t>(n.words) + 1, 0);
  for (int v = 0; v < n.words; ++v) {
    int64_t kept = 0;
    for (int64_t k = n.row_start[static_cast<size_t>(v)]; k < n.row_start[static_cast<size_t>(v) + 1]; ++k)
      kept += n.value[static_cast<size_t>(k)] > 0 ? 1 : 0;
    out_start[static_cast<size_t>(v) + 1] = out_start[static_cast<size_t>(v)] + kept;
  }
  const size_t nnz = static_cast<size_t>(out_start.back());
  e.row.resize(nnz);
  e.col.resize(nnz);
  e.log_count.resize(nnz);
  e.weight.resize(nnz);
  constexpr int kRowsPerBlock = 256;
  const int blocks = (n.words + kRowsPerBlock - 1) / kRowsPerBlock;
  parallel_for_blocks(blocks, parallel_threads(blocks, static_cast<double>(nnz) * 40, 1e6), [&](int b) {
    const int v_end = std::min(n.words, (b + 1) * kRowsPerBlock);
    for (int v = b * kRowsPerBlock; v < v_end; ++v) {
      size_t o = static_cast<size_t>(out_start[static_cast<size_t>(v)]);
      for (int64_t k = n.row_start[static_cast<size_t>(v)]; k < n.row_start[static_cast<size_t>(v) + 1]; ++k) {
        const double c = n.value[static_cast<size_t>(k)];
        if (!(c > 0)) continue;
        e.row[o] = v;
        e.col[o] = n.col[static_cast<size_t>(k)];
        e.log_count[o] = static_cast<float>(std::log(c));
        e.weight[o] = static_cast<float>(glove_weight(c, x_max, alpha));
        ++o;
      }
    }
  });
  return e;
}

double GloveModel::predict(int v, int w) const {
  const float* a = x(v);
  const float* b = y(w);
  double s = 0;
  for (int j = 0; j < dim; ++j) s += static_cast<double>(a[j]) * b[j];
  return s + a[dim] + b[dim];
}

EmbeddingMatrix GloveModel::sum_vectors() const {
  EmbeddingMatrix m(words, dim);
  for (int v = 0; v < words; ++v) {
    float* out = m.row(v);
    const float* a = x(v);
    const float* b = y(v);
    for (int j = 0; j < dim; ++j) out[j] = a[j] + b[j];
  }
  return m;
}

double glove_loss(const GloveModel& m, const GloveEntries& e) {
  // Fixed blocks, partial sums added in block order: the same on any thread count.
  const int64_t n = static_cast<int64_t>(e.size());
  constexpr int64_t kBlock = 1 << 16;
  const int blocks = static_cast<int>((n + kBlock - 1) / kBlock);
  const int threads = parallel_threads(blocks, static_cast<double>(n) * m.dim, 2e6);
  double total = 0;
  parallel_reduce_blocks(
      blocks, threads,
      [&](int b) {
        double s = 0;
        const int64_t lo = b * kBlock, hi = std::min(n, lo + kBlock);
        for (int64_t k = lo; k < hi; ++k) {
          const size_t i = static_cast<size_t>(k);
          const double r = m.predict(e.row[i], e.col[i]) - e.log_count[i];
          s += e.weight[i] * r * r;
        }
        return s;
      },
      [&](int, double part) { total += part; });
  return total;
}

double glove_entry_gradient(const GloveModel& m, int v, int w, float log_count, float weight, float* gx,
                            float* gy) {
  const int d = m.dim;
  const float* x = m.x(v);
  const float* y = m.y(w);
  float dot = 0;
  for (int j = 0; j < d; ++j) dot += x[j] * y[j];
  const float diff = dot + x[d] + y[d] - log_count;
  const float fdiff = weight * diff;
  for (int j = 0; j < d; ++j) {
    gx[j] = fdiff * y[j];
    gy[j] = fdiff * x[j];
  }
  gx[d] = fdiff;
  gy[d] = fdiff;
  return 0.5 * static_cast<double>(fdiff) * diff;
}

void glove_als_half_sweep(GloveModel& m, const GloveEntries& e, bool x_side, double lambda) {
  // Entries grouped by the side's word: x side = rows v, y side = columns w.
  const int V = m.words, d = m.dim;
  std::vector<int64_t> start(static_cast<size_t>(V) + 1, 0);
  const std::vector<int32_t>& key = x_side ? e.row : e.col;
  const std::vector<int32_t>& other = x_side ? e.col : e.row;
  for (int32_t k : key) ++start[static_cast<size_t>(k) + 1];
  for (int v = 0; v < V; ++v) start[static_cast<size_t>(v) + 1] += start[static_cast<size_t>(v)];
  std::vector<int64_t> fill(start.begin(), start.end() - 1);
  std::vector<int64_t> by(e.size());
  for (size_t i = 0; i < e.size(); ++i) by[static_cast<size_t>(fill[static_cast<size_t>(key[i])]++)] = static_cast<int64_t>(i);

  const int blocks = (V + kAlsBlockRows - 1) / kAlsBlockRows;
  const double work = static_cast<double>(e.size()) * (d + 1) * (d + 1);
  parallel_for_blocks(blocks, parallel_threads(blocks, work, 1e6), [&](int b) {
    Eigen::MatrixXd g(d + 1, d + 1);
    Eigen::VectorXd rhs(d + 1), z(d + 1);
    const int lo = b * kAlsBlockRows, hi = std::min(V, lo + kAlsBlockRows);
    for (int v = lo; v < hi; ++v) {
      g.setZero();
      rhs.setZero();
      for (int64_t k = start[static_cast<size_t>(v)]; k < start[static_cast<size_t>(v) + 1]; ++k) {
        const size_t i = static_cast<size_t>(by[static_cast<size_t>(k)]);
        const int w = other[i];
        const float* o = x_side ? m.y(w) : m.x(w);  // the fixed side: vector, then its bias
        for (int j = 0; j < d; ++j) z[j] = o[j];
        z[d] = 1.0;
        const double f = e.weight[i];
        const double t = static_cast<double>(e.log_count[i]) - o[d];  // log N - the other bias
        g.selfadjointView<Eigen::Lower>().rankUpdate(z, f);
        rhs.noalias() += (f * t) * z;
      }
      for (int j = 0; j < d; ++j) g(j, j) += lambda;
      // A word with no entry (cannot happen for a vocabulary word with a neighbour)
      // or a singular system keeps its values; the bias row gets a tiny ridge.
      g(d, d) += 1e-12;
      Eigen::LLT<Eigen::MatrixXd> llt(g.selfadjointView<Eigen::Lower>());
      if (llt.info() != Eigen::Success || start[static_cast<size_t>(v)] == start[static_cast<size_t>(v) + 1]) continue;
      const Eigen::VectorXd sol = llt.solve(rhs);
      float* out = x_side ? m.x(v) : m.y(v);
      for (int j = 0; j <= d; ++j) out[j] = static_cast<float>(sol[j]);
    }
  });
}

// ---------------------------------------------------------------- the module

size_t GloveSnapshot::byte_size() const {
  size_t b = EmbeddingSnapshot::byte_size() + sizeof(*this) - sizeof(EmbeddingSnapshot);
  if (residuals) b += residuals->size() * sizeof(ResidualPoint);
  return b;
}

namespace {

// What a corpus and the parameters it depends on (min_count, max_vocab, window, x_max, alpha,
// recall_probes) give: built once, shared by every restart that changes only the training
// parameters (derived_cache.h).
struct GloveProblem {
  std::shared_ptr<const Vocabulary> vocab;
  std::shared_ptr<const GloveEntries> entries;
  std::shared_ptr<const SynonymProbes> probes;
  std::shared_ptr<const WordNet> wordnet;  // keeps the process-wide WordNet cache alive
  std::string message;                     // why the recall is unavailable
  int64_t corpus_words = 0;
};

std::shared_ptr<const GloveProblem> cached_problem(const std::shared_ptr<const Dataset>& data, const Glove::Params& p) {
  static DerivedCache<GloveProblem> cache;
  char key[200];
  std::snprintf(key, sizeof key, "%d %d %d %.17g %.17g %d", p.min_count, p.max_vocab, p.window, p.x_max, p.alpha,
                p.recall_probes);
  return cache.get(data, key, [&]() -> std::shared_ptr<const GloveProblem> {
    auto pr = std::make_shared<GloveProblem>();
    // The recall oracle's WordNet is read on its own thread while the counts are built.
    std::future<std::shared_ptr<const WordNet>> wordnet = load_wordnet_async();
    const TextCorpus& corpus = *data->text;
    VocabOptions vo;
    vo.min_count = p.min_count;
    vo.max_size = p.max_vocab;
    report_progress("building the vocabulary");
    auto vocab = std::make_shared<Vocabulary>(build_vocabulary(corpus, vo));
    require_vocabulary(*vocab, 2, "glove", data->name, "two words to co-occur", "max_vocab");
    pr->vocab = vocab;
    report_progress("encoding the corpus");
    const EncodedCorpus text = encode(corpus, *vocab);
    const Cooccurrence n = cooccurrence(text, vocab->size(), p.window, CoocWeight::InverseDistance);
    report_progress("weighting the co-occurrence entries f(X_ij)");
    auto entries = std::make_shared<GloveEntries>(glove_entries(n, p.x_max, p.alpha));
    if (entries->size() == 0)
      throw std::invalid_argument("glove: no two vocabulary words of '" + data->name + "' occur within window=" +
                                  std::to_string(p.window) + "; try: a larger window or a lower min_count");
    pr->entries = entries;
    pr->corpus_words = corpus.size();
    try {
      report_progress("reading WordNet's synonyms (the recall oracle)");
      pr->wordnet = wordnet.get();
      pr->probes = std::make_shared<SynonymProbes>(synonym_probes(*vocab, *pr->wordnet, p.recall_probes));
    } catch (const DataError& e) {
      pr->probes = std::make_shared<SynonymProbes>();
      pr->message = std::string("synonym recall unavailable: ") + e.what();
    }
    return pr;
  });
}

}  // namespace

struct Glove::State {
  Params p;
  uint64_t seed = 0;
  Rng rng;
  std::shared_ptr<const Dataset> data;
  std::shared_ptr<const GloveProblem> problem;  // vocab, entries and probes alias into it
  std::shared_ptr<const Vocabulary> vocab;
  std::shared_ptr<const GloveEntries> entries;
  std::shared_ptr<const SynonymProbes> probes;
  std::vector<int64_t> residual_sample;  // entry indices
  std::vector<int64_t> score_entries;    // entries of small vocabularies (both words < kScorePairMaxWords)
  GloveModel model;
  Optimizer opt;
  std::vector<int64_t> order;  // this epoch's visiting order (adagrad)
  int64_t pos = 0;             // entries of this epoch done
  int iteration = 0, epoch = 0;
  double epoch_seconds = 0;    // training time of the current epoch
  int64_t epoch_entries = 0;
  std::vector<float> packed;   // two gradient rows
  std::shared_ptr<std::vector<EmbeddingEpoch>> epochs = std::make_shared<std::vector<EmbeddingEpoch>>();
  std::shared_ptr<GloveSnapshot> snap;
  Clock::time_point last_publish{}, last_recall{};
  std::string message;

  double regulariser() const {
    double s = 0;
    const int d = model.dim;
    for (int v = 0; v < 2 * model.words; ++v) {
      const float* r = model.params.data() + static_cast<size_t>(v) * (d + 1);
      for (int j = 0; j < d; ++j) s += static_cast<double>(r[j]) * r[j];
    }
    return s;
  }

  void shuffle_order() {
    order.resize(entries->size());
    std::iota(order.begin(), order.end(), int64_t(0));
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[static_cast<size_t>(rng.below(i))]);
  }

  // Copies x + y (and what derives from it) into `s` for the window.
  void publish_vectors(GloveSnapshot& s) {
    auto vec = std::make_shared<EmbeddingMatrix>(model.sum_vectors());
    s.unit = std::make_shared<EmbeddingMatrix>(normalized(*vec));
    s.vectors = vec;
    s.vectors_iteration = iteration;
    auto res = std::make_shared<std::vector<GloveSnapshot::ResidualPoint>>();
    res->reserve(residual_sample.size());
    const GloveEntries& e = *entries;
    for (int64_t k : residual_sample) {
      const size_t i = static_cast<size_t>(k);
      res->push_back({e.log_count[i], static_cast<float>(model.predict(e.row[i], e.col[i]) - e.log_count[i]),
                      e.weight[i]});
    }
    s.residuals = res;
    if (!score_entries.empty()) {
      auto pairs = std::make_shared<std::vector<ScorePair>>();
      pairs->reserve(score_entries.size());
      for (int64_t k : score_entries) {
        const size_t i = static_cast<size_t>(k);
        pairs->push_back({e.row[i], e.col[i], std::exp(static_cast<double>(e.log_count[i])), e.log_count[i],
                          model.predict(e.row[i], e.col[i])});
      }
      s.score_pairs = pairs;
    }
    last_publish = Clock::now();
  }

  double recall_now(const GloveSnapshot& s) const {
    if (!probes || probes->size() == 0 || !s.unit) return kNaN;
    return synonym_recall(*s.unit, *probes, 10);
  }
};

namespace {

const ModuleInfo& glove_info() {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "glove";
    m.title = "GloVe (global vectors)";
    m.chapter = "Word embeddings";
    m.summary =
        "Word vectors from the corpus's co-occurrence counts: weighted least squares on log N with "
        "f(N) = min(1, (N/x_max)^alpha), by GloVe's per-entry AdaGrad or by exact alternating least squares; "
        "nearest neighbours, analogies and WordNet synonym recall live.";
    m.metrics = metric_table().infos();
    m.default_dataset = "gcide";
    m.text_data = true;
    m.default_cli_steps = 100;
    m.iteration_columns = {"loss", "lr"};
    m.epoch_columns = {"loss", "entries_per_s", "synonym_recall_at_10"};
    return m;
  }();
  return kInfo;
}

}  // namespace

Glove::Glove(const Glove& o) : ModuleBase(o), st_(o.st_) {
  // The epoch list is appended to: a clone owns its own copy.
  st_->epochs = std::make_shared<std::vector<EmbeddingEpoch>>(*o.st_->epochs);
}

const ModuleInfo& Glove::info() const { return glove_info(); }
const ParamTable<Glove::Params>& module_params(const Glove*) { return param_table(); }
Glove::Params Glove::params_from(const ParamValues& values) { return param_table().read(values); }

void Glove::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  if (!data || !data->is_text())
    throw std::invalid_argument(std::string("glove: ") +
                                (data ? "'" + data->name + "' is not text" : std::string("no data loaded")) +
                                "; try: a text corpus (gcide, fortunes, tiny-text) or --data FOLDER of .txt files");
  auto st = std::make_unique<State>();
  st->p = p;
  st->seed = seed;
  st->rng.reseed(seed);
  st->data = data;
  st->problem = cached_problem(data, p);
  const std::shared_ptr<const Vocabulary> vocab = st->problem->vocab;
  const std::shared_ptr<const GloveEntries> entries = st->problem->entries;
  st->vocab = vocab;
  st->entries = entries;

  // GloVe's start: uniform (-0.5, 0.5) / d for vectors, 0 for biases.
  GloveModel& m = st->model;
  m.words = vocab->size();
  m.dim = p.vector_size;
  m.params.assign(static_cast<size_t>(2 * m.words) * (m.dim + 1), 0.0f);
  for (int r = 0; r < 2 * m.words; ++r) {
    float* row = m.params.data() + static_cast<size_t>(r) * (m.dim + 1);
    for (int j = 0; j < m.dim; ++j) row[j] = static_cast<float>((st->rng.uniform() - 0.5) / m.dim);
  }
  OptimizerConfig oc = OptimizerConfig::defaults(OptimizerKind::AdaGrad);
  oc.lr = p.lr;
  oc.initial_accumulator_value = 1.0;  // GloVe's gradsq starts at 1
  st->opt = Optimizer(oc, m.params.size());
  st->packed.resize(static_cast<size_t>(2) * (m.dim + 1));

  // The residual sample and the small-vocabulary score pairs: fixed at reset.
  const int64_t ne = static_cast<int64_t>(entries->size());
  const int64_t want = std::min<int64_t>(ne, GloveSnapshot::kResidualSample);
  Rng pick(seed ^ 0x9e3779b97f4a7c15ULL);
  st->residual_sample.resize(static_cast<size_t>(want));
  for (int64_t i = 0; i < want; ++i)
    st->residual_sample[static_cast<size_t>(i)] = want == ne ? i : static_cast<int64_t>(pick.below(static_cast<uint64_t>(ne)));
  if (m.words <= EmbeddingSnapshot::kScorePairMaxWords)
    for (int64_t i = 0; i < ne; ++i) st->score_entries.push_back(i);

  st->probes = st->problem->probes;
  st->message = st->problem->message;
  // AdaGrad's first visiting order is drawn by the first step (the same draws: nothing else
  // uses rng in between): the first picture does not wait for a shuffle of every entry.

  auto s = std::make_shared<GloveSnapshot>();
  s->metrics = metric_table().blank();
  s->vocab = vocab;
  s->probes = parse_probe_words(p.probe);
  s->epochs = st->epochs;
  s->synonym_probes = st->probes;
  s->score_target = "log N_vw";
  s->epoch_words = st->problem->corpus_words;
  s->solver = static_cast<int>(p.solver);
  s->x_max = p.x_max;
  s->alpha = p.alpha;
  s->lr = p.lr;
  s->entries = ne;
  s->message = st->message;
  st->publish_vectors(*s);
  st->snap = s;
  st_ = std::move(st);
}

void Glove::step() {
  State& st = *st_;
  if (!st.snap || is_terminal(st.snap->status)) return;
  const Params& p = st.p;
  st.opt.set_config([&] {
    OptimizerConfig c = st.opt.config();
    c.lr = p.lr;
    return c;
  }());
  const GloveEntries& e = *st.entries;
  GloveModel& m = st.model;
  const int d = m.dim;
  const Clock::time_point t0 = Clock::now();
  auto s = std::make_shared<GloveSnapshot>(*st.snap);
  s->metrics = metric_table().blank();
  bool epoch_done = false;
  double loss = 0;
  int64_t visited = 0;
  if (p.solver == Solver::AdaGrad) {
    if (st.order.empty()) st.shuffle_order();
    const int64_t total = static_cast<int64_t>(e.size());
    const int64_t end = std::min(total, st.pos + p.batch_entries);
    float* g = st.packed.data();
    float* params = m.params.data();
    for (int64_t k = st.pos; k < end; ++k) {
      const size_t i = static_cast<size_t>(st.order[static_cast<size_t>(k)]);
      const int v = e.row[i], w = e.col[i];
      // Both gradient rows from the old values, then one sparse AdaGrad step on the two rows.
      loss += 2.0 * glove_entry_gradient(m, v, w, e.log_count[i], e.weight[i], g, g + d + 1);
      const int32_t rows[2] = {v, m.words + w};
      st.opt.step_rows(params, g, p.lr, rows, 2, static_cast<size_t>(d) + 1);
    }
    visited = end - st.pos;
    st.pos = end;
    loss /= static_cast<double>(std::max<int64_t>(1, visited));
    s->lr = p.lr;
    s->metrics[kMetricLr] = p.lr;
    if (st.pos >= total) {
      epoch_done = true;
      st.pos = 0;
      st.shuffle_order();
    }
  } else {
    glove_als_half_sweep(m, e, true, p.lambda);
    glove_als_half_sweep(m, e, false, p.lambda);
    const double j = glove_loss(m, e);
    loss = j / static_cast<double>(e.size());
    s->metrics[kMetricObjective] = j + p.lambda * st.regulariser();
    visited = static_cast<int64_t>(e.size());
    epoch_done = true;
  }
  st.epoch_seconds += seconds_since(t0);
  st.epoch_entries += visited;
  ++st.iteration;
  s->iteration = st.iteration;
  s->metrics[kMetricLoss] = loss;
  s->live_words_per_s = static_cast<double>(visited) / std::max(1e-9, seconds_since(t0));
  if (!std::isfinite(loss)) {
    s->status = Status::Diverged;
    s->message = "the loss is not finite at iteration " + std::to_string(st.iteration) + "; try: a smaller lr";
    st.snap = s;
    return;
  }
  if (epoch_done) {
    ++st.epoch;
    s->epoch = st.epoch;
    st.publish_vectors(*s);
    s->metrics[kMetricEntriesPerS] = static_cast<double>(st.epoch_entries) / std::max(1e-9, st.epoch_seconds);
    const double r = st.recall_now(*s);
    s->metrics[kMetricRecall] = r;
    s->live_recall = r;
    s->recall_iteration = st.iteration;
    st.last_recall = Clock::now();
    st.epochs->push_back({st.epoch, st.iteration, s->metrics});
    st.epoch_seconds = 0;
    st.epoch_entries = 0;
    if (st.epoch >= p.epochs) {
      s->status = Status::Stopped;
      s->message = "ran the " + std::to_string(p.epochs) + " epochs of parameter 'epochs'";
    }
  } else if (seconds_since(st.last_publish) >= kPublishSeconds) {
    st.publish_vectors(*s);
    if (seconds_since(st.last_recall) >= kRecallSeconds) {
      s->live_recall = st.recall_now(*s);
      s->recall_iteration = st.iteration;
      st.last_recall = Clock::now();
    }
  }
  st.snap = s;
}

bool Glove::settle() {
  State& st = *st_;
  if (!st.snap || st.snap->vectors_iteration == st.iteration) return false;
  auto s = std::make_shared<GloveSnapshot>(*st.snap);
  st.publish_vectors(*s);
  s->live_recall = st.recall_now(*s);
  s->recall_iteration = st.iteration;
  st.snap = s;
  return true;
}

std::shared_ptr<const Snapshot> Glove::snapshot() const {
  if (st_->snap) return st_->snap;
  static const std::shared_ptr<const Snapshot> kEmpty = [] {
    auto s = std::make_shared<GloveSnapshot>();
    s->metrics = metric_table().blank();
    return s;
  }();
  return kEmpty;
}

std::shared_ptr<const GloveSnapshot> Glove::glove_snapshot() const { return st_->snap; }

void Glove::set_live(const std::string& name, double value) {
  Params p = st_->p;
  param_table().set_live(p, name, value, "glove");
  st_->p = p;
  if (name == "epochs" && st_->snap && st_->snap->status == Status::Stopped && st_->epoch < p.epochs) {
    auto s = std::make_shared<GloveSnapshot>(*st_->snap);
    s->status = Status::Running;
    s->message.clear();
    st_->snap = s;
  }
}

size_t Glove::state_bytes() const {
  const State& st = *st_;
  return sizeof(State) + st.model.params.size() * sizeof(float) * 2 + st.order.size() * sizeof(int64_t) +
         (st.snap ? st.snap->byte_size() : 0);
}

std::string Glove::report(const Snapshot& last) const { return embedding_report(last, 10); }

const GloveModel& Glove::model() const { return st_->model; }
const GloveEntries& Glove::entries() const {
  static const GloveEntries kNone;
  return st_->entries ? *st_->entries : kNone;
}

CILAB_MODULE_STATE(Glove)

}  // namespace cilab
