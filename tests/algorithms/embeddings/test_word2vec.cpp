// word2vec (SGNS, course 8.3): the learned scores reach the SGNS optimum
// (PMI - log k) on a tiny corpus with d >= |V|; the pair loss's gradient
// against finite differences; sigma; the noise distribution q_alpha; same
// seed same run, clones; bad input. The embedding utilities (neighbours,
// analogy, PCA map, synonym recall) and the WordNet reader on hand-made data.
#include "algorithms/embeddings/word2vec.h"
#include "algorithms/nn/gradcheck.h"

#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/text/embedding.h"
#include "algorithms/text/text.h"
#include "algorithms/text/wordnet.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace cilab;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;

// A tiny seeded corpus (CorpusBuilder): `docs` documents of `length` words over
// `words` words "wa", "wb", ..., from a Markov chain that follows word i by
// word 3i + 1 (mod words) with probability 0.6, else by a uniform word, so
// that PMI varies widely between pairs.
DataPtr tiny(int words = 12, int docs = 200, int length = 30, uint64_t seed = 3) {
  Rng rng(seed);
  CorpusBuilder b("generated");
  for (int d = 0; d < docs; ++d) {
    std::string text;
    int w = static_cast<int>(rng.below(static_cast<uint64_t>(words)));
    for (int t = 0; t < length; ++t) {
      text += std::string(" w") + static_cast<char>('a' + w);
      w = rng.uniform() < 0.6 ? (3 * w + 1) % words : static_cast<int>(rng.below(static_cast<uint64_t>(words)));
    }
    b.add_document(text);
  }
  auto d = std::make_shared<Dataset>();
  d->text = b.finish();
  d->name = "tiny";
  return d;
}

ParamValues values(const std::vector<std::pair<std::string, double>>& set) {
  Word2Vec m;
  ParamValues v = default_values(m.params());
  for (const auto& [k, x] : set) v[k] = x;
  return v;
}

double correlation(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return sab / std::sqrt(saa * sbb);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](float x, float y) {
           return std::memcmp(&x, &y, sizeof x) == 0;
         });
}

bool same_metrics(const std::vector<double>& a, const std::vector<double>& b) {
  // words_per_s is wall clock: every other metric must agree bit for bit.
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (static_cast<int>(i) == Word2Vec::kMetricWordsPerS) continue;
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("word2vec: sigma(z) = 1 / (1 + e^-z) and its table") {
  CHECK(sigmoid(0.0) == doctest::Approx(0.5));
  for (double z : {-5.0, -1.0, 0.3, 2.0, 4.5}) {
    CHECK(sigmoid(z) == doctest::Approx(1.0 / (1.0 + std::exp(-z))).epsilon(1e-15));
    CHECK(sigmoid(z) + sigmoid(-z) == doctest::Approx(1.0).epsilon(1e-15));  // the course's erratum: not 1/(1+e^z)
    CHECK((sigmoid(z) > 0.5) == (z > 0));
  }
  const SigmoidTable tab;
  // The table's step is 12 / 1000: sigma' <= 1/4, so the error is <= 0.0015 inside [-6, 6].
  for (double z = -5.9; z < 5.9; z += 0.173) CHECK(std::abs(tab(static_cast<float>(z)) - sigmoid(z)) < 0.0016);
  // Clipped outside.
  CHECK(tab(40.0f) == doctest::Approx(sigmoid(6.0)).epsilon(1e-6));
  CHECK(tab(-40.0f) == doctest::Approx(sigmoid(-6.0)).epsilon(1e-6));
}

TEST_CASE("word2vec: the SGNS pair loss's gradient matches central differences") {
  const int d = 5, k = 3;
  // Values on a 2^-10 grid, so x +- h with h = 2^-7 is exact in float.
  auto grid = [](int i) { return static_cast<float>(((i * 37) % 101 - 50) / 1024.0 * 8.0); };
  std::vector<float> x(d), yp(d), yn(static_cast<size_t>(k) * d);
  for (int j = 0; j < d; ++j) {
    x[static_cast<size_t>(j)] = grid(j + 1);
    yp[static_cast<size_t>(j)] = grid(j + 11);
  }
  for (int j = 0; j < k * d; ++j) yn[static_cast<size_t>(j)] = grid(j + 23);
  auto negs = [&](std::vector<float>& buf) {
    std::vector<const float*> p;
    for (int r = 0; r < k; ++r) p.push_back(buf.data() + r * d);
    return p;
  };
  std::vector<double> gx, gp, gn;
  const double l0 = sgns_pair_loss(x.data(), yp.data(), negs(yn), d, &gx, &gp, &gn);
  // The loss's definition, directly.
  double want = -std::log(sigmoid([&] {
    double s = 0;
    for (int j = 0; j < d; ++j) s += static_cast<double>(x[static_cast<size_t>(j)]) * yp[static_cast<size_t>(j)];
    return s;
  }()));
  for (int r = 0; r < k; ++r) {
    double s = 0;
    for (int j = 0; j < d; ++j) s += static_cast<double>(x[static_cast<size_t>(j)]) * yn[static_cast<size_t>(r * d + j)];
    want -= std::log(sigmoid(-s));
  }
  CHECK(l0 == doctest::Approx(want).epsilon(1e-12));
  const float h = 1.0f / 128.0f;
  auto central = [&](std::vector<float>& v, size_t i) {
    return nn::central_difference(v.data(), i, h, [&] {
      return sgns_pair_loss(x.data(), yp.data(), negs(yn), d, nullptr, nullptr, nullptr);
    });
  };
  // Central differences are O(h^2) ~ 6e-5 times the third derivative (|l'''| < 1 here).
  for (size_t j = 0; j < static_cast<size_t>(d); ++j) {
    CHECK(gx[j] == doctest::Approx(central(x, j)).epsilon(1e-4));
    CHECK(gp[j] == doctest::Approx(central(yp, j)).epsilon(1e-4));
  }
  for (size_t j = 0; j < static_cast<size_t>(k * d); ++j) CHECK(gn[j] == doctest::Approx(central(yn, j)).epsilon(1e-4));
}

TEST_CASE("word2vec: q_alpha sums to 1, alpha = 0 uniform, alpha = 1 unigram, entropy non-increasing in alpha") {
  const std::vector<int64_t> counts = {500, 120, 120, 40, 9, 3, 1};
  double total = 0;
  for (int64_t c : counts) total += static_cast<double>(c);
  const std::vector<double> u = noise_distribution(counts, 0.0), p = noise_distribution(counts, 1.0);
  for (size_t i = 0; i < counts.size(); ++i) {
    CHECK(u[i] == doctest::Approx(1.0 / counts.size()));
    CHECK(p[i] == doctest::Approx(static_cast<double>(counts[i]) / total));
  }
  CHECK(entropy(u) == doctest::Approx(std::log(static_cast<double>(counts.size()))));
  double previous = 1e300;
  for (double a = 0.0; a <= 1.0001; a += 0.05) {
    const std::vector<double> q = noise_distribution(counts, a);
    double s = 0;
    for (double v : q) s += v;
    CHECK(s == doctest::Approx(1.0).epsilon(1e-12));
    const double h = entropy(q);
    CHECK(h <= previous + 1e-12);
    CHECK(h >= entropy(p) - 1e-12);  // flattening p never lowers its entropy (course 8.3)
    previous = h;
  }
  // The default 3/4 flattens: rare words gain mass, the most frequent loses it.
  const std::vector<double> q = noise_distribution(counts, 0.75);
  CHECK(q.front() < p.front());
  CHECK(q.back() > p.back());
}

TEST_CASE("word2vec: with d >= |V|, k = 1 and unigram noise the scores reach the SGNS optimum, PMI(w, v) - log k") {
  // Levy & Goldberg (2014): SGNS's expected objective is maximised at
  //   <x_w, y_v> = log N_wv / (k N_w q_v),     N_w = sum_v N_wv,
  // which is PMI(w, v) - log k when q is the context distribution (q = p,
  // ns_exponent = 1). word2vec and gensim skip a noise word equal to the
  // positive word, which moves the optimum to
  //   s*_wv = log N_wv / (k q_v (N_w - N_wv))
  // (the noise of (w, v) only comes from w's other pairs); it tends to PMI - log k
  // as N_wv / N_w -> 0. Checked for both on pairs with N_wv >= 40.
  const DataPtr data = tiny(8, 400, 40, 5);
  for (int k : {1, 2}) {
    CAPTURE(k);
    Word2Vec m;
    const int window = 2;
    m.reset(data,
            values({{"vector_size", 16}, {"window", window}, {"negative", k}, {"ns_exponent", 1.0}, {"sample", 0.0},
                    {"min_count", 1}, {"shrink_windows", 0}, {"epochs", 250}, {"lr", 0.02}, {"min_lr", 0.0005},
                    {"batch_words", 100000}}),
            11);
    const Vocabulary& vocab = m.vocabulary();
    REQUIRE(vocab.size() <= 16);  // d >= |V|: any score matrix is reachable
    while (!is_terminal(m.status())) m.step();
    const auto snap = m.word2vec_snapshot();
    REQUIRE(snap->score_pairs);
    const std::vector<double>& q = m.noise_distribution();
    std::vector<double> row_sum(static_cast<size_t>(vocab.size()), 0.0);
    for (const ScorePair& s : *snap->score_pairs) row_sum[static_cast<size_t>(s.w)] += s.count;
    std::vector<double> learned, pmi, exact;
    double mae_exact = 0, mae_pmi = 0;
    for (const ScorePair& s : *snap->score_pairs) {
      if (s.count < 40) continue;
      const double nw = row_sum[static_cast<size_t>(s.w)];
      const double star = std::log(s.count / (k * q[static_cast<size_t>(s.v)] * (nw - s.count)));
      // The snapshot's target is PMI - log k with P(v) = q(v).
      CHECK(s.target == doctest::Approx(std::log(s.count / (nw * q[static_cast<size_t>(s.v)])) - std::log(k)));
      learned.push_back(s.score);
      pmi.push_back(s.target);
      exact.push_back(star);
      mae_exact += std::abs(s.score - star);
      mae_pmi += std::abs(s.score - s.target);
    }
    REQUIRE(learned.size() >= 20);
    mae_exact /= static_cast<double>(learned.size());
    mae_pmi /= static_cast<double>(learned.size());
    MESSAGE("k=" << k << ": " << learned.size() << " pairs, corr(exact)=" << correlation(learned, exact)
                 << " mae(exact)=" << mae_exact << " corr(PMI - log k)=" << correlation(learned, pmi)
                 << " mae(PMI - log k)=" << mae_pmi);
    // SGD with a step decayed to 5e-4 hovers within O(sqrt(lr)) ~ a few hundredths
    // of the optimum; the targets span about 3 nats.
    CHECK(correlation(learned, exact) > 0.99);
    CHECK(mae_exact < 0.08);
    CHECK(correlation(learned, pmi) > 0.95);
  }
}

TEST_CASE("word2vec: same seed same run, a clone continues identically, another seed differs") {
  const DataPtr data = tiny();
  const ParamValues v = values({{"vector_size", 10}, {"min_count", 1}, {"batch_words", 1000}, {"epochs", 3}});
  Word2Vec a, b, c;
  a.reset(data, v, 7);
  b.reset(data, v, 7);
  c.reset(data, v, 8);
  for (int i = 0; i < 4; ++i) {
    a.step();
    b.step();
    c.step();
    CHECK(same_metrics(a.snapshot()->metrics, b.snapshot()->metrics));
  }
  CHECK(same_bits(a.input_vectors().values, b.input_vectors().values));
  CHECK_FALSE(same_bits(a.input_vectors().values, c.input_vectors().values));
  std::unique_ptr<Module> cl = a.clone();
  int epochs_seen = 0;
  while (!is_terminal(a.status())) {
    a.step();
    cl->step();
    REQUIRE(same_metrics(a.snapshot()->metrics, cl->snapshot()->metrics));
    if (!std::isnan(a.snapshot()->metrics[Word2Vec::kMetricWordsPerS])) ++epochs_seen;
  }
  CHECK(epochs_seen == 3);
  CHECK(same_bits(a.input_vectors().values, static_cast<Word2Vec&>(*cl).input_vectors().values));
  CHECK(same_bits(a.output_vectors().values, static_cast<Word2Vec&>(*cl).output_vectors().values));
  CHECK(a.status() == Status::Stopped);
  CHECK(a.word2vec_snapshot()->epochs->size() == 3u);
}

TEST_CASE("word2vec: a restart that changes only training parameters reuses the corpus's problem") {
  const DataPtr data = tiny();
  Word2Vec a, b, c, d;
  a.reset(data, values({{"vector_size", 10}, {"min_count", 1}, {"lr", 0.025}}), 1);
  // Another seed, dimension and learning rate: the same vocabulary and noise table objects.
  b.reset(data, values({{"vector_size", 6}, {"min_count", 1}, {"lr", 0.05}}), 2);
  CHECK(&a.vocabulary() == &b.vocabulary());
  CHECK(&a.noise_distribution() == &b.noise_distribution());
  // What the problem depends on: a new one.
  c.reset(data, values({{"vector_size", 10}, {"min_count", 2}}), 1);
  CHECK(&c.vocabulary() != &a.vocabulary());
  d.reset(data, values({{"vector_size", 10}, {"min_count", 1}, {"ns_exponent", 1.0}}), 1);
  CHECK(&d.noise_distribution() != &a.noise_distribution());
  // Another corpus object with the same text: a new one too, equal in content.
  const DataPtr copy = std::make_shared<Dataset>(*data);
  Word2Vec e;
  e.reset(copy, values({{"vector_size", 10}, {"min_count", 1}, {"lr", 0.025}}), 1);
  CHECK(&e.vocabulary() != &a.vocabulary());
  CHECK(e.vocabulary().words == a.vocabulary().words);
  // A cached problem trains exactly as a fresh one: same seed, same vectors.
  for (int i = 0; i < 3; ++i) {
    a.step();
    e.step();
  }
  CHECK(same_bits(a.input_vectors().values, e.input_vectors().values));
}

TEST_CASE("word2vec: training lowers the loss and separates positive from noise scores") {
  const DataPtr data = tiny(12, 300, 30, 1);
  Word2Vec m;
  m.reset(data, values({{"vector_size", 16}, {"min_count", 1}, {"sample", 0.0}, {"epochs", 20}, {"batch_words", 3000}}),
          1);
  m.step();
  const double first = m.snapshot()->metrics[Word2Vec::kMetricLoss];
  while (!is_terminal(m.status())) m.step();
  const std::vector<double>& last = m.snapshot()->metrics;
  CHECK(last[Word2Vec::kMetricLoss] < first);
  CHECK(last[Word2Vec::kMetricSigmaPositive] > last[Word2Vec::kMetricSigmaNegative]);
  CHECK(last[Word2Vec::kMetricLr] < 0.025);
  CHECK(last[Word2Vec::kMetricLr] >= 0.0001);
  // The published copy is the live model after the last epoch.
  const auto s = m.word2vec_snapshot();
  REQUIRE(s->vectors);
  CHECK(s->vectors_iteration == s->iteration);
  CHECK(same_bits(s->vectors->values, m.input_vectors().values));
}

TEST_CASE("word2vec: workers = 2 trains (Hogwild) to a similar loss") {
  const DataPtr data = tiny(12, 300, 30, 1);
  const ParamValues v1 = values({{"vector_size", 16}, {"min_count", 1}, {"sample", 0.0}, {"epochs", 10}, {"batch_words", 3000}});
  ParamValues v2 = v1;
  v2["workers"] = 2;
  Word2Vec a, b;
  a.reset(data, v1, 2);
  b.reset(data, v2, 2);
  while (!is_terminal(a.status())) a.step();
  while (!is_terminal(b.status())) b.step();
  const double la = a.snapshot()->metrics[Word2Vec::kMetricLoss], lb = b.snapshot()->metrics[Word2Vec::kMetricLoss];
  CHECK(std::abs(la - lb) < 0.1 * la);
}

TEST_CASE("word2vec: bad parameters and a too-small vocabulary give errors naming them") {
  const DataPtr data = tiny();
  Word2Vec m;
  auto message = [&](const ParamValues& v, const DataPtr& d) {
    try {
      m.reset(d, v, 1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message(values({{"vector_size", 0}}), data).find("vector_size") != std::string::npos);
  CHECK(message(values({{"window", 0}}), data).find("window") != std::string::npos);
  CHECK(message(values({{"ns_exponent", 1.5}}), data).find("ns_exponent") != std::string::npos);
  const std::string small = message(values({{"min_count", 1000000}}), data);
  CHECK(small.find("min_count") != std::string::npos);
  CHECK(small.find("vocabulary") != std::string::npos);
  // A table of numbers is not a corpus.
  auto table = std::make_shared<Dataset>();
  table->x = Eigen::MatrixXd::Ones(3, 2);
  table->name = "numbers";
  CHECK(message(values({}), table).find("text corpus") != std::string::npos);
}

TEST_CASE("word2vec: the CLI report names each probe's neighbours, or says a word is unknown") {
  const DataPtr data = tiny();
  Word2Vec m;
  ParamValues v = values({{"vector_size", 8}, {"min_count", 1}, {"epochs", 1}});
  m.reset(data, v, 1);
  while (!is_terminal(m.status())) m.step();
  auto s = std::make_shared<Word2VecSnapshot>(*m.word2vec_snapshot());
  s->probes = {m.vocabulary().words[0], "zzzz"};
  std::vector<std::string> lines;
  {
    std::istringstream in(m.report(*s));
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  REQUIRE(lines.size() == 2u);
  CHECK(lines[0].rfind(m.vocabulary().words[0], 0) == 0);
  // 10 neighbours, comma-separated (11 words of a 12-word vocabulary would exceed it).
  CHECK(std::count(lines[0].begin(), lines[0].end(), ',') == std::min(10, m.vocabulary().size() - 1) - 1);
  CHECK(lines[1] == "zzzz: not in the vocabulary");
}

// ---------------------------------------------------------------- embedding utilities

TEST_CASE("embedding: neighbours, analogy and the PCA map on hand-built vectors") {
  // royal r, male m, female f, plus unrelated words.
  EmbeddingMatrix e(6, 4);
  auto set = [&](int i, std::vector<float> v) { std::copy(v.begin(), v.end(), e.row(i)); };
  set(0, {1, 1, 0, 0});      // king = r + m
  set(1, {1, 0, 1, 0});      // queen = r + f
  set(2, {0, 1, 0, 0});      // man = m
  set(3, {0, 0, 1, 0});      // woman = f
  set(4, {0, 0, 0, 1});      // apple
  set(5, {0.1f, 0, 0, 1});   // pear
  const EmbeddingMatrix u = normalized(e);
  for (int i = 0; i < u.rows; ++i) {
    double n = 0;
    for (int j = 0; j < u.dim; ++j) n += static_cast<double>(u.row(i)[j]) * u.row(i)[j];
    CHECK(n == doctest::Approx(1.0).epsilon(1e-6));
  }
  const std::vector<Neighbour> nn = nearest_neighbours(u, 4, 2);
  REQUIRE(nn.size() == 2u);
  CHECK(nn[0].id == 5);
  CHECK(nn[0].cosine == doctest::Approx(1.0 / std::sqrt(1.01)).epsilon(1e-6));
  CHECK(nn[0].cosine >= nn[1].cosine);
  const std::vector<Neighbour> an = analogy(u, 0, 2, 3, 1);  // king - man + woman
  REQUIRE(an.size() == 1u);
  CHECK(an[0].id == 1);  // queen
  // The PCA map of points on a line keeps their distances on the first axis.
  EmbeddingMatrix line(4, 3);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) line.row(i)[j] = static_cast<float>(i * (j + 1));
  const PcaMap map = pca_map(line, {0, 1, 2, 3});
  CHECK(map.explained[0] == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(std::abs(map.x[3] - map.x[0]) == doctest::Approx(3.0 * std::sqrt(14.0)).epsilon(1e-5));
  CHECK(std::abs(map.y[1]) < 1e-5);
}

TEST_CASE("embedding: synonym recall@k is 1 for exact neighbours, 0 for far ones, and counts min(k, |S|)") {
  // Three groups of three words with one direction each; probe words 0, 3, 6.
  EmbeddingMatrix e(9, 3);
  for (int g = 0; g < 3; ++g)
    for (int i = 0; i < 3; ++i) {
      float* r = e.row(3 * g + i);
      r[g] = 1.0f;
      r[(g + 1) % 3] = 0.01f * static_cast<float>(i);
    }
  const EmbeddingMatrix u = normalized(e);
  SynonymProbes near;
  near.words = {0, 3, 6};
  near.synonyms = {{1, 2}, {4, 5}, {7, 8}};
  CHECK(synonym_recall(u, near, 2) == doctest::Approx(1.0));
  CHECK(synonym_recall(u, near, 10) == doctest::Approx(1.0));  // min(10, |S|) = 2 per probe
  SynonymProbes far;
  far.words = {0, 3};
  far.synonyms = {{4, 5}, {7, 8}};
  CHECK(synonym_recall(u, far, 2) == doctest::Approx(0.0));
  // k = 1: one hit out of min(1, 2) per probe in `near`, none in `far`'s: (1 + 0) / (1 + 1).
  SynonymProbes mixed;
  mixed.words = {0, 3};
  mixed.synonyms = {{1, 2}, {7, 8}};
  CHECK(synonym_recall(u, mixed, 1) == doctest::Approx(0.5));
  CHECK(std::isnan(synonym_recall(u, SynonymProbes{}, 10)));
  CHECK(parse_probe_words(" King, water ,,Queen") == std::vector<std::string>{"king", "water", "queen"});
}

// ---------------------------------------------------------------- WordNet

TEST_CASE("wordnet: reads single-word lemmas per synset and unions the synonyms") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cilab_wordnet_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const char* name, const std::string& text) { std::ofstream(dir / name) << text; };
  const std::string header = "  1 This software and database is being provided\n  2 licence text\n";
  write("data.noun", header +
                         "00000001 06 n 02 car 0 auto 0 000 | a motor vehicle\n"
                         "00000002 06 n 03 machine 0 Car 1 railway_car 0 000 | a wheeled vehicle\n");
  write("data.verb", header);
  write("data.adj", header + "00000003 00 a 03 big(a) 0 Large 0 x-ray 0 000 | above average in size\n");
  write("data.adv", header);
  const WordNet wn = read_wordnet(dir.string());
  CHECK(wn.synsets.size() == 3u);
  CHECK(wn.synonyms("car") == std::vector<std::string>{"auto", "machine"});
  CHECK(wn.synonyms("auto") == std::vector<std::string>{"car"});
  CHECK(wn.synonyms("big") == std::vector<std::string>{"large"});  // marker dropped, lowercased, "x-ray" skipped
  CHECK(wn.synonyms("railway").empty());
  CHECK(wn.index.count("railway_car") == 0);
  CHECK(wn.synonyms("unknown").empty());

  // The oracle's probes: vocabulary words with a synonym in the vocabulary, stop words excluded.
  CorpusBuilder b("text");
  b.add_document("car car car machine machine auto big large the the the the");
  const auto corpus = b.finish();
  const Vocabulary vocab = build_vocabulary(*corpus, VocabOptions{});
  const SynonymProbes probes = synonym_probes(vocab, wn, 1000);
  std::vector<std::string> words;
  for (int w : probes.words) words.push_back(vocab.words[static_cast<size_t>(w)]);
  CHECK(words == std::vector<std::string>{"car", "machine", "auto", "big", "large"});
  CHECK(probes.synonyms[0] == std::vector<int>{vocab.find("machine"), vocab.find("auto")});
  CHECK(synonym_probes(vocab, wn, 2).size() == 2);

  // Missing files: a DataError saying how to install WordNet.
  fs::remove(dir / "data.adv");
  try {
    read_wordnet(dir.string());
    FAIL("expected a DataError");
  } catch (const DataError& e) {
    CHECK(std::string(e.what()).find("apt install wordnet-base") != std::string::npos);
    CHECK(std::string(e.what()).find("data.adv") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("wordnet: the installed WordNet knows common synonyms") {
  const std::shared_ptr<const WordNet> wn = load_wordnet();
  CHECK(wn->synsets.size() > 50000u);  // WordNet 3.0: 117 659 synsets, 89 764 with a single-word lemma
  const std::vector<std::string> s = wn->synonyms("car");
  CHECK(std::find(s.begin(), s.end(), "automobile") != s.end());
  CHECK(load_wordnet() == wn);  // cached while held
}

TEST_CASE("word2vec: the word2vec text format holds every word and every float exactly, by vocabulary id") {
  Word2Vec m;
  m.reset(tiny(), values({{"vector_size", 7}, {"min_count", 1}, {"batch_words", 1000}}), 3);
  for (int i = 0; i < 5; ++i) m.step();
  m.settle();  // the snapshot's vectors are the live ones
  const std::shared_ptr<const Word2VecSnapshot> s = m.word2vec_snapshot();
  REQUIRE(s->vectors);
  CHECK(same_bits(s->vectors->values, m.input_vectors().values));
  std::ostringstream out;
  const int words = write_word2vec_format(*s, out);
  CHECK(words == m.vocabulary().size());
  std::istringstream in(out.str());
  int v = 0, d = 0;
  in >> v >> d;
  CHECK(v == words);
  CHECK(d == 7);
  std::string line;
  std::getline(in, line);  // the header's end
  for (int w = 0; w < v; ++w) {
    REQUIRE(static_cast<bool>(std::getline(in, line)));
    std::istringstream row(line);
    std::string word;
    row >> word;
    CHECK(word == m.vocabulary().words[static_cast<size_t>(w)]);
    for (int j = 0; j < d; ++j) {
      std::string t;
      REQUIRE(static_cast<bool>(row >> t));
      const float x = std::strtof(t.c_str(), nullptr);
      CHECK(std::memcmp(&x, s->vectors->row(w) + j, sizeof x) == 0);  // round trip, bit for bit
    }
    std::string extra;
    CHECK_FALSE(static_cast<bool>(row >> extra));
  }
  CHECK_FALSE(static_cast<bool>(std::getline(in, line)));
  // A snapshot without vectors says so.
  CHECK_THROWS_AS(write_word2vec_format(EmbeddingSnapshot{}, out), std::invalid_argument);
}
