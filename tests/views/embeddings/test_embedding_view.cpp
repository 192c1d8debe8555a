// The embedding view (word2vec, glove) drawn with real ImGui frames (no
// renderer) over hand-built snapshots whose geometry is known (king - man +
// woman = queen by construction), every tab by its key; the neighbour table
// against embedding.h's nearest_neighbours; the pictures job; and the
// ImGui-free helpers (edit distance, spellings, the map's words, q against p
// by rank, f(N), the correlation).
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "tests/support/view_fixture.h"
#include "algorithms/core/text_corpus.h"
#include "algorithms/embeddings/glove.h"
#include "algorithms/text/embedding.h"
#include "algorithms/embeddings/word2vec.h"
#include "views/embeddings/embedding_pictures.h"
#include "views/embeddings/embedding_view.h"
#include "views/common/jobs.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>

using namespace cilab;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// A vocabulary of the given words, ids in order, counts falling with the id (Zipf-like).
std::shared_ptr<Vocabulary> make_vocab(const std::vector<std::string>& words) {
  auto v = std::make_shared<Vocabulary>();
  v->words = words;
  for (size_t i = 0; i < words.size(); ++i) {
    v->counts.push_back(static_cast<int64_t>(10000 / (i + 1)));
    v->index[words[i]] = static_cast<int>(i);
    v->kept_tokens += v->counts.back();
  }
  return v;
}

const std::vector<std::string> kWords = {"the",   "king",  "queen", "man",   "woman", "water", "river",
                                         "sea",   "lake",  "prince", "bread", "stone", "tree",  "house",
                                         "horse", "sword", "crown", "rain",  "cloud", "fire"};

// d = 8: axis 0 royalty, 1 gender, 2 water; the other words random in axes 3-7 (seeded).
std::shared_ptr<EmbeddingMatrix> make_vectors(const Vocabulary& v, uint64_t seed, double noise = 0.0) {
  const int d = 8;
  auto m = std::make_shared<EmbeddingMatrix>(v.size(), d);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  for (int i = 0; i < v.size(); ++i)
    for (int j = 3; j < d; ++j) m->row(i)[j] = g(rng) * (i < 5 ? 0.05f : 1.0f);
  auto set = [&](const char* w, float r, float s, float a) {
    float* x = m->row(v.index.at(w));
    x[0] = r;
    x[1] = s;
    x[2] = a;
  };
  set("king", 1, 1, 0);
  set("queen", 1, -1, 0);
  set("man", 0, 1, 0);
  set("woman", 0, -1, 0);
  set("prince", 0.9f, 0.8f, 0);
  for (const char* w : {"water", "river", "sea", "lake", "rain"}) set(w, 0, 0, 3);
  for (int i = 0; i < v.size(); ++i)
    for (int j = 0; j < d; ++j) m->row(i)[j] += static_cast<float>(noise) * g(rng);
  return m;
}

// A word2vec-like snapshot: the vectors, q_alpha and p, score pairs.
std::shared_ptr<Word2VecSnapshot> word2vec_snapshot(int iteration, uint64_t seed) {
  auto s = std::make_shared<Word2VecSnapshot>();
  auto vocab = make_vocab(kWords);
  s->vocab = vocab;
  s->vectors = make_vectors(*vocab, seed);
  s->unit = std::make_shared<EmbeddingMatrix>(normalized(*s->vectors));
  s->vectors_iteration = iteration;
  s->iteration = iteration;
  s->epoch = 1;
  s->probes = {"king", "water"};
  s->metrics = {2.5, NAN, NAN, 0.8, 0.2, 0.02};
  auto epochs = std::make_shared<std::vector<EmbeddingEpoch>>();
  epochs->push_back(EmbeddingEpoch{1, iteration, {2.5, 1e5, 0.31, 0.8, 0.2, 0.02}});
  s->epochs = epochs;
  s->live_recall = 0.35;
  s->recall_iteration = iteration;
  s->live_words_per_s = 3.8e5;
  s->ns_exponent = 0.75;
  double zq = 0, zp = 0;
  for (int64_t c : vocab->counts) {
    zq += std::pow(static_cast<double>(c), 0.75);
    zp += static_cast<double>(c);
  }
  auto q = std::make_shared<std::vector<double>>(), p = std::make_shared<std::vector<double>>();
  for (int64_t c : vocab->counts) {
    q->push_back(std::pow(static_cast<double>(c), 0.75) / zq);
    p->push_back(static_cast<double>(c) / zp);
  }
  s->noise_q = q;
  s->unigram_p = p;
  auto pairs = std::make_shared<std::vector<ScorePair>>();
  for (int i = 0; i < 10; ++i) pairs->push_back(ScorePair{i, i + 1, 3.0, 0.3 * i - 1, 0.3 * i - 0.9});
  s->score_pairs = pairs;
  s->score_target = "PMI(w, v) - log k";
  s->negative = 5;
  s->epoch_words = 100000;
  s->words_done = 150000;
  return s;
}

std::shared_ptr<GloveSnapshot> glove_snapshot(int iteration) {
  auto s = std::make_shared<GloveSnapshot>();
  const auto w = word2vec_snapshot(iteration, 3);
  static_cast<EmbeddingSnapshot&>(*s) = static_cast<const EmbeddingSnapshot&>(*w);
  s->noise_q.reset();
  s->unigram_p.reset();
  s->score_target = "log N_wv";
  s->x_max = 100;
  s->alpha = 0.75;
  s->entries = 5000;
  auto r = std::make_shared<std::vector<GloveSnapshot::ResidualPoint>>();
  for (int i = 0; i < 50; ++i) r->push_back({0.1f * i, 0.5f - 0.01f * i, std::min(1.0f, 0.02f * i)});
  s->residuals = r;
  return s;
}

ModuleInfo info_named(const std::string& name) {
  ModuleInfo i;
  i.name = name;
  i.title = name == "glove" ? "GloVe (weighted least squares on log counts)" : "word2vec (skip-gram, negatives)";
  return i;
}

struct Drawer {
  ImGuiHeadless ui;
  EmbeddingView view;
  std::vector<std::vector<double>> history;
  ModuleInfo info;
  std::vector<ViewIntent> out;
  explicit Drawer(const std::string& name) : info(info_named(name)) {
    for (int t = 0; t < 20; ++t) history.push_back({3.0 - 0.05 * t, NAN, NAN, 0.5 + 0.01 * t, 0.5 - 0.01 * t, 0.02});
  }
  ViewContext context(const std::vector<int>* keys = nullptr, BackgroundJobs* jobs = nullptr) {
    ViewContext ctx;
    ctx.info = &info;
    ctx.metric_history = &history;
    ctx.keys = keys;
    ctx.jobs = jobs;
    return ctx;
  }
  std::string text(const Snapshot& s, BackgroundJobs* jobs = nullptr) {
    return frame_text(ui, [&] { view.draw(s, context(nullptr, jobs), out); });
  }
  void press(const Snapshot& s, int key) {
    const std::vector<int> keys = {key};
    ui.frame_in_window([&] { view.draw(s, context(&keys), out); });
  }
};

}  // namespace

TEST_CASE("embedding view: every tab of a word2vec snapshot draws, by its number key") {
  Drawer d("word2vec");
  const auto s = word2vec_snapshot(20, 1);
  const std::string header = d.text(*s);
  CHECK(has(header, "recall@10 = 0.350"));
  CHECK(has(header, kSynonymRecallHelp));  // the oracle's description on screen
  CHECK(has(header, "|V| = 20 words"));
  CHECK(has(header, "words/s"));
  CHECK(has(header, "epoch 2"));
  const char* const expect[] = {"mean sigma(score)", "probe words", "PC 1", "expected", "q_alpha"};
  for (int t = 0; t < EmbeddingView::kNumTabs; ++t) {
    CAPTURE(t);
    d.press(*s, '1' + t);
    CHECK(static_cast<int>(d.view.tab()) == t);
    const std::string text = d.text(*s);
    CHECK(has(text, expect[t]));
  }
  CHECK(d.out.empty());  // drawing asks the run for nothing
}

TEST_CASE("embedding view: a glove snapshot gets f(N) and the residuals on its own tab") {
  Drawer d("glove");
  const auto s = glove_snapshot(7);
  d.press(*s, '5');
  const std::string text = d.text(*s);
  CHECK(has(text, "f(N) = min(1, (N/x_max)^alpha)"));
  CHECK(has(text, "residual"));
  CHECK(has(text, "log N"));
  CHECK(has(d.text(*s), "entries/s"));
  d.press(*s, '1');
  const std::string curves = d.text(*s);
  CHECK(has(curves, "recall@10 per epoch"));
  CHECK(!has(curves, "mean sigma(score)"));  // word2vec's only
}

TEST_CASE("embedding view: the neighbour table is nearest_neighbours of each probe, unknown words get a spelling") {
  Drawer d("word2vec");
  const auto s = word2vec_snapshot(20, 1);
  d.press(*s, '2');
  d.view.set_probe_text("King, watr, zzzzzz");
  const std::string text = d.text(*s);
  const std::vector<NeighbourRow>& rows = d.view.pictures().table;
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].word == "king");
  REQUIRE(rows[0].id == s->vocab->index.at("king"));
  const std::vector<Neighbour> nn = nearest_neighbours(*s->unit, rows[0].id, EmbeddingView::kNeighbours);
  REQUIRE(rows[0].neighbours.size() == nn.size());
  for (size_t i = 0; i < nn.size(); ++i) {
    CHECK(rows[0].neighbours[i].id == nn[i].id);
    CHECK(rows[0].neighbours[i].cosine == nn[i].cosine);
  }
  CHECK(rows[1].id == -1);
  CHECK(rows[1].suggestion == "water");
  CHECK(rows[2].id == -1);
  CHECK(rows[2].suggestion.empty());
  CHECK(has(text, "not in the vocabulary"));
  CHECK(has(text, "did you mean 'water'?"));
  // The first neighbour of king by construction: prince (same royalty and gender).
  CHECK(has(text, "prince"));
  CHECK(s->vocab->words[static_cast<size_t>(nn[0].id)] == "prince");
}

TEST_CASE("embedding view: the probe field starts from the run's probes, the analogy from king - man + woman") {
  Drawer d("word2vec");
  const auto s = word2vec_snapshot(20, 1);
  d.text(*s);
  CHECK(d.view.request().probes == s->probes);
  CHECK(d.view.request().a == "king");
  d.press(*s, '4');
  const std::string text = d.text(*s);
  const AnalogyResult& r = d.view.pictures().analogy;
  REQUIRE(!r.answers.empty());
  CHECK(s->vocab->words[static_cast<size_t>(r.answers[0].id)] == "queen");
  CHECK(r.expected_rank == 0);
  CHECK(has(text, "queen  (expected)"));
  d.view.set_analogy("king", "man", "wmn", "");
  const std::string missing = d.text(*s);
  CHECK(has(missing, "not in the vocabulary: 'wmn'"));
}

TEST_CASE("embedding view: the pictures follow new vectors through the background job") {
  Drawer d("word2vec");
  BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
  auto s = word2vec_snapshot(20, 1);
  d.text(*s, &jobs);  // submits (inline: runs at once)
  d.text(*s, &jobs);  // collects
  CHECK(d.view.pictures().vectors_iteration == 20);
  CHECK(d.view.pictures().table.size() == 2);
  // New vectors (another seed): the table changes to theirs once the job rate allows it.
  auto s2 = word2vec_snapshot(40, 99);
  for (int f = 0; f < 40 && d.view.pictures().vectors_iteration != 40; ++f) d.text(*s2, &jobs);
  CHECK(d.view.pictures().vectors_iteration == 40);
  const int water = s2->vocab->index.at("water");
  const std::vector<Neighbour> nn = nearest_neighbours(*s2->unit, water, EmbeddingView::kNeighbours);
  REQUIRE(d.view.pictures().table.size() == 2);
  CHECK(d.view.pictures().table[1].neighbours.front().id == nn.front().id);
}

TEST_CASE("embedding view: no vocabulary yet says what to do") {
  Drawer d("word2vec");
  Word2VecSnapshot empty;
  CHECK(has(d.text(empty), "No vocabulary yet"));
}

namespace {

// A tiny seeded corpus (12 words "wa".."wl", 200 documents of 30 tokens from
// a chain with strong transitions w -> w + 1, w + 2), built here so that the
// test needs only the text layer's core.
std::shared_ptr<const Dataset> tiny_text() {
  auto c = std::make_shared<TextCorpus>();
  const int words = 12;
  for (int w = 0; w < words; ++w) c->words.push_back(std::string("w") + static_cast<char>('a' + w));
  c->word_count.assign(words, 0);
  c->doc_freq.assign(words, 0);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> any(0, words - 1), step(1, 2);
  std::uniform_real_distribution<double> u(0, 1);
  c->doc_start.push_back(0);
  for (int d = 0; d < 200; ++d) {
    std::vector<char> seen(words, 0);
    int w = any(rng);
    for (int t = 0; t < 30; ++t) {
      c->tokens.push_back(w);
      ++c->word_count[static_cast<size_t>(w)];
      seen[static_cast<size_t>(w)] = 1;
      w = u(rng) < 0.8 ? (w + step(rng)) % words : any(rng);
    }
    for (int v = 0; v < words; ++v) c->doc_freq[static_cast<size_t>(v)] += seen[static_cast<size_t>(v)];
    c->doc_start.push_back(static_cast<int64_t>(c->tokens.size()));
  }
  c->kind = "generated";
  auto d = std::make_shared<Dataset>();
  d->text = c;
  d->name = "tiny-text";
  d->source = "tiny-text (test)";
  return d;
}

// A real module on tiny-text, run as the runner runs it (ViewFixture: stepped, recorded,
// settled); the view over its snapshots.
template <class M>
void check_real_module(const std::string& name, const std::vector<std::string>& sets, int steps) {
  test_support::ViewFixture<M> f(tiny_text(), sets, 1);
  f.run(steps);
  Drawer d(name);
  d.history = f.history;
  const auto snap = std::dynamic_pointer_cast<const EmbeddingSnapshot>(f.mod.snapshot());
  REQUIRE(snap);
  REQUIRE(snap->vocab);
  REQUIRE(snap->unit);
  REQUIRE(snap->vocab->size() >= 3);
  const std::string w0 = snap->vocab->words[0], w1 = snap->vocab->words[1];
  d.view.set_probe_text(w0 + ", " + w1 + ", king");
  for (int t = 0; t < EmbeddingView::kNumTabs; ++t) {
    CAPTURE(t);
    d.press(*snap, '1' + t);
    CHECK(static_cast<int>(d.view.tab()) == t);
    const std::string text = d.text(*snap);
    CHECK(has(text, "recall@10"));
    CHECK(has(text, "|V| = " + std::to_string(snap->vocab->size()) + " words"));
  }
  const std::vector<NeighbourRow>& rows = d.view.pictures().table;
  REQUIRE(rows.size() == 3);
  CHECK(d.view.pictures().vectors_iteration == snap->vectors_iteration);
  for (int r = 0; r < 2; ++r) {
    const std::vector<Neighbour> nn = nearest_neighbours(*snap->unit, r, EmbeddingView::kNeighbours);
    REQUIRE(rows[static_cast<size_t>(r)].neighbours.size() == nn.size());
    for (size_t i = 0; i < nn.size(); ++i) CHECK(rows[static_cast<size_t>(r)].neighbours[i].id == nn[i].id);
  }
  CHECK(rows[2].id == -1);  // king: not a tiny-text word
  // Small vocabulary: the score pairs are there, and the scatter's correlation is a number.
  REQUIRE(snap->score_pairs);
  CHECK(!snap->score_pairs->empty());
  CHECK(std::isfinite(score_scatter(*snap->score_pairs).correlation));
  d.press(*snap, '5');
  CHECK(has(d.text(*snap), "correlation"));
  CHECK(d.out.empty());
}

}  // namespace

TEST_CASE("embedding view: a real word2vec run on tiny-text, every tab, the table from its vectors") {
  check_real_module<Word2Vec>("word2vec", {"vector_size=12", "min_count=1", "epochs=3", "negative=1"}, 6);
}

TEST_CASE("embedding view: a real glove run on tiny-text, every tab, the table from its vectors") {
  check_real_module<Glove>("glove", {"vector_size=8", "min_count=1", "window=3"}, 6);
}

TEST_CASE("embedding pictures: the view's f(N) curve is glove_weight, the module's own") {
  std::vector<double> n, f;
  glove_weight_curve(50, 0.6, 0.5, 500, 64, n, f);
  for (size_t i = 0; i < n.size(); ++i) CHECK(f[i] == doctest::Approx(glove_weight(n[i], 50, 0.6)));
}

// ---------------------------------------------------------------- pictures

TEST_CASE("embedding pictures: edit distance is a metric with the textbook values") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("same", "same") == 0);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> len(0, 6), ch(0, 2);
  const auto word = [&] {
    std::string w;
    for (int i = len(rng); i > 0; --i) w += static_cast<char>('a' + ch(rng));
    return w;
  };
  for (int t = 0; t < 200; ++t) {
    const std::string a = word(), b = word(), c = word();
    const int ab = edit_distance(a, b), bc = edit_distance(b, c), ac = edit_distance(a, c);
    CHECK(ab == edit_distance(b, a));
    CHECK(ac <= ab + bc);
    CHECK((ab == 0) == (a == b));
    CHECK(ab >= static_cast<int>(std::max(a.size(), b.size()) - std::min(a.size(), b.size())));
    // The cap: exact up to it, cap + 1 beyond.
    CHECK(edit_distance(a, b, 1) == std::min(ab, 2));
  }
}

TEST_CASE("embedding pictures: the closest spelling prefers the nearer, then the more frequent word") {
  const auto v = make_vocab({"the", "king", "kind", "water", "wafer"});
  CHECK(closest_spelling(*v, "kinf") == "king");  // king and kind both at 1: king has the lower id
  CHECK(closest_spelling(*v, "watr") == "water");
  CHECK(closest_spelling(*v, "xyzzy").empty());
  CHECK(vocab_id(*v, "water") == 3);
  CHECK(vocab_id(*v, "fire") == -1);
}

TEST_CASE("embedding pictures: the map's words are the probes then their neighbours, each once, capped") {
  const auto v = make_vocab(kWords);
  const auto m = make_vectors(*v, 2);
  const EmbeddingMatrix u = normalized(*m);
  const auto table = neighbour_table(u, *v, {"king", "water", "nope"}, 10);
  const std::vector<int> ids = map_word_ids(*v, "", table, 6, 60);
  REQUIRE(ids.size() >= 2);
  CHECK(ids[0] == v->index.at("king"));
  CHECK(ids[1] == v->index.at("water"));
  std::vector<int> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  CHECK(ids.size() <= 2 + 12);
  for (size_t i = 0; i < 6; ++i)
    CHECK(std::find(ids.begin(), ids.end(), table[0].neighbours[i].id) != ids.end());
  CHECK(map_word_ids(*v, "", table, 6, 3).size() == 3);
  const std::vector<int> typed = map_word_ids(*v, "sea, Lake, nope, sea", table, 6, 60);
  CHECK(typed == std::vector<int>{v->index.at("sea"), v->index.at("lake")});
  const WordMap wm = word_map(u, ids, table);
  CHECK(wm.map.x.size() == ids.size());
  CHECK(wm.is_probe[0] == 1);
  CHECK(wm.is_probe.back() == 0);
}

TEST_CASE("embedding pictures: q_alpha and p by rank keep the values at log-spaced ranks") {
  std::vector<double> q, p;
  const int n = 5000;
  for (int r = 1; r <= n; ++r) {
    p.push_back(1.0 / r);
    q.push_back(std::pow(1.0 / r, 0.75));
  }
  const RankCurves c = rank_curves(q, p, 100);
  REQUIRE(c.rank.size() >= 50);
  CHECK(c.rank.size() <= 100);
  CHECK(c.rank.front() == 1);
  CHECK(c.rank.back() == n);
  for (size_t i = 0; i < c.rank.size(); ++i) {
    if (i > 0) CHECK(c.rank[i] > c.rank[i - 1]);
    const size_t r = static_cast<size_t>(c.rank[i]);
    CHECK(c.p[i] == p[r - 1]);
    CHECK(c.q[i] == q[r - 1]);
    // On log-log axes q_alpha = p^alpha: its slope is alpha times p's.
    CHECK(std::log(c.q[i]) == doctest::Approx(0.75 * std::log(c.p[i])));
  }
  std::vector<double> z = p;
  z[0] = 0;  // a zero has no place on a log axis
  CHECK(rank_curves(q, z, 100).rank.front() > 1);
}

TEST_CASE("embedding pictures: the f(N) curve is min(1, (N/x_max)^alpha), rising to 1 at x_max") {
  std::vector<double> n, f;
  glove_weight_curve(100, 0.75, 0.1, 1000, 200, n, f);
  REQUIRE(n.size() == 200);
  CHECK(n.front() == doctest::Approx(0.1));
  CHECK(n.back() == doctest::Approx(1000));
  for (size_t i = 0; i < n.size(); ++i) {
    if (i > 0) {
      CHECK(n[i] > n[i - 1]);
      CHECK(f[i] >= f[i - 1]);
      CHECK(n[i] / n[i - 1] == doctest::Approx(n[1] / n[0]));  // log-spaced
    }
    if (n[i] >= 100)
      CHECK(f[i] == 1.0);
    else
      CHECK(std::log(f[i]) == doctest::Approx(0.75 * std::log(n[i] / 100)));
  }
}

TEST_CASE("embedding pictures: the correlation is 1 on an increasing line, -1 reversed, NaN when constant") {
  std::vector<double> x = {1, 2, 3, 4, 7}, y, r, c = {2, 2, 2, 2, 2};
  for (double v : x) {
    y.push_back(3 * v - 2);
    r.push_back(-0.5 * v + 1);
  }
  CHECK(pearson(x, y) == doctest::Approx(1));
  CHECK(pearson(x, r) == doctest::Approx(-1));
  CHECK(std::isnan(pearson(x, c)));
  std::vector<double> w = {1, 3, 2, 5, 4};
  const double base = pearson(x, w);
  std::vector<double> w2;
  for (double v : w) w2.push_back(10 * v + 4);
  CHECK(pearson(x, w2) == doctest::Approx(base));  // affine invariance
  CHECK(std::abs(base) < 1);
  std::vector<ScorePair> pairs;
  for (size_t i = 0; i < x.size(); ++i) pairs.push_back(ScorePair{0, 0, 1, x[i], y[i]});
  pairs.push_back(ScorePair{0, 0, 1, NAN, 1});
  const ScoreScatter sc = score_scatter(pairs);
  CHECK(sc.target.size() == x.size());
  CHECK(sc.correlation == doctest::Approx(1));
}

TEST_CASE("embedding pictures: the epoch series skips NaN and other columns") {
  std::vector<EmbeddingEpoch> e = {{1, 10, {1, 2, 0.2}}, {2, 20, {1, 2, NAN}}, {3, 30, {1, 2, 0.4}}};
  std::vector<double> x, y;
  epoch_series(e, 2, x, y);
  CHECK(x == std::vector<double>{1, 3});
  CHECK(y == std::vector<double>{0.2, 0.4});
  epoch_series(e, 7, x, y);
  CHECK(x.empty());
}
