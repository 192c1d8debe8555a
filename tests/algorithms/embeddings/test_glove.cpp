// GloVe (course 8.4): the weight function's oracles, the per-entry gradient
// against finite differences, ALS's monotone objective and row optimality,
// exact recovery of a low-rank log-count matrix, and the module (tiny corpus:
// loss falls, same seed same run, clones, epochs, errors, the CLI report).
#include "algorithms/embeddings/glove.h"

#include "algorithms/core/parallel.h"
#include "algorithms/core/progress.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/corpora.h"
#include "algorithms/text/text.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cilab;

namespace {

GloveModel random_model(int words, int dim, uint64_t seed) {
  GloveModel m;
  m.words = words;
  m.dim = dim;
  m.params.resize(static_cast<size_t>(2 * words) * (dim + 1));
  Rng rng(seed);
  for (float& p : m.params) p = static_cast<float>(rng.uniform(-0.5, 0.5));
  return m;
}

// Every (v, w) of a words x words matrix with log N = A_v . B_w + a_v + b_w
// (rank `rank` plus biases) and weight 1 (or random weights).
GloveEntries low_rank_entries(int words, int rank, bool random_weights, uint64_t seed) {
  Rng rng(seed);
  std::vector<double> a(static_cast<size_t>(words * rank)), b(a.size()), ba(static_cast<size_t>(words)), bb(ba.size());
  for (double& v : a) v = rng.normal();
  for (double& v : b) v = rng.normal();
  for (double& v : ba) v = rng.normal();
  for (double& v : bb) v = rng.normal();
  GloveEntries e;
  e.words = words;
  for (int v = 0; v < words; ++v)
    for (int w = 0; w < words; ++w) {
      double t = ba[static_cast<size_t>(v)] + bb[static_cast<size_t>(w)];
      for (int r = 0; r < rank; ++r) t += a[static_cast<size_t>(v * rank + r)] * b[static_cast<size_t>(w * rank + r)];
      e.row.push_back(v);
      e.col.push_back(w);
      e.log_count.push_back(static_cast<float>(t));
      e.weight.push_back(random_weights ? static_cast<float>(rng.uniform(0.2, 1.0)) : 1.0f);
    }
  return e;
}

double regulariser(const GloveModel& m) {
  double s = 0;
  for (int r = 0; r < 2 * m.words; ++r)
    for (int j = 0; j < m.dim; ++j) {
      const double p = m.params[static_cast<size_t>(r) * (m.dim + 1) + static_cast<size_t>(j)];
      s += p * p;
    }
  return s;
}

std::shared_ptr<const Dataset> tiny_text(uint64_t seed = 0) {
  TinyTextSpec spec;
  spec.words = 12;
  spec.docs = 200;
  spec.length = 30;
  spec.seed = seed;
  return text_dataset(tiny_corpus(spec), "tiny-text", "tiny-text");
}

ParamValues glove_values(Glove& g, const std::vector<std::pair<std::string, double>>& set) {
  ParamValues v = default_values(g.params());
  for (const auto& [name, value] : set) v[name] = value;
  return v;
}

}  // namespace

TEST_CASE("glove: f(N) = min(1, (N/x_max)^alpha) is in [0, 1], non-decreasing and 1 from x_max on") {
  for (double alpha : {0.0, 0.5, 0.75, 1.0}) {
    double prev = 0;
    for (double n = 0; n <= 300; n += 0.37) {
      const double f = glove_weight(n, 100, alpha);
      CHECK(f >= 0);
      CHECK(f <= 1);
      CHECK(f >= prev);
      if (n >= 100) CHECK(f == 1.0);
      prev = f;
    }
    CHECK(glove_weight(0, 100, alpha) == 0);  // absent pairs carry no weight
  }
  CHECK(glove_weight(25, 100, 0.5) == doctest::Approx(0.5));
}

TEST_CASE("glove: the per-entry gradient matches central differences of 1/2 f (x.y + b + c - log N)^2") {
  GloveModel m = random_model(4, 5, 7);
  const int v = 1, w = 3, d = m.dim;
  const float log_n = 0.8f, f = 0.6f;
  std::vector<float> gx(static_cast<size_t>(d + 1)), gy(gx.size());
  const double loss = glove_entry_gradient(m, v, w, log_n, f, gx.data(), gy.data());
  const double r = m.predict(v, w) - log_n;
  CHECK(loss == doctest::Approx(0.5 * f * r * r).epsilon(1e-5));
  auto loss_at = [&](GloveModel& mm) {
    std::vector<float> a(gx.size()), b(gx.size());
    return glove_entry_gradient(mm, v, w, log_n, f, a.data(), b.data());
  };
  const double h = 1e-2;
  for (int side = 0; side < 2; ++side)
    for (int j = 0; j <= d; ++j) {
      GloveModel p = m, q = m;
      float* pp = side == 0 ? p.x(v) : p.y(w);
      float* qq = side == 0 ? q.x(v) : q.y(w);
      pp[j] += static_cast<float>(h);
      qq[j] -= static_cast<float>(h);
      const double fd = (loss_at(p) - loss_at(q)) / (2 * h);  // exact for a quadratic in one coordinate
      const double an = side == 0 ? gx[static_cast<size_t>(j)] : gy[static_cast<size_t>(j)];
      INFO("side ", side, " coordinate ", j);
      CHECK(an == doctest::Approx(fd).epsilon(2e-3).scale(1e-3));
    }
}

TEST_CASE("glove: every ALS half-sweep lowers J + lambda (|X|^2 + |Y|^2) and zeroes its rows' gradient") {
  GloveEntries e = low_rank_entries(15, 4, true, 3);
  Rng rng(5);
  for (float& t : e.log_count) t += static_cast<float>(0.5 * rng.normal());  // not exactly low rank
  GloveModel m = random_model(15, 3, 11);
  const double lambda = 0.05;
  double prev = glove_loss(m, e) + lambda * regulariser(m);
  for (int half = 0; half < 20; ++half) {
    const bool x_side = half % 2 == 0;
    glove_als_half_sweep(m, e, x_side, lambda);
    const double obj = glove_loss(m, e) + lambda * regulariser(m);
    INFO("half-sweep ", half);
    CHECK(obj <= prev * (1 + 1e-6) + 1e-9);
    prev = obj;
    // Row optimality: d/d(x_v) [J + lambda |x_v|^2] = 0 for every solved row.
    for (int v = 0; v < m.words; ++v) {
      std::vector<double> grad(static_cast<size_t>(m.dim + 1), 0.0);
      const float* row = x_side ? m.x(v) : m.y(v);
      for (size_t i = 0; i < e.size(); ++i) {
        if ((x_side ? e.row[i] : e.col[i]) != v) continue;
        const int o = x_side ? e.col[i] : e.row[i];
        const float* other = x_side ? m.y(o) : m.x(o);
        const double r = m.predict(e.row[i], e.col[i]) - e.log_count[i];
        for (int j = 0; j < m.dim; ++j) grad[static_cast<size_t>(j)] += 2 * e.weight[i] * r * other[j];
        grad[static_cast<size_t>(m.dim)] += 2 * e.weight[i] * r;
      }
      for (int j = 0; j < m.dim; ++j) grad[static_cast<size_t>(j)] += 2 * lambda * row[j];
      for (double g : grad) CHECK(std::abs(g) < 2e-3);
    }
  }
}

TEST_CASE("glove: the loss goes to 0 on an exactly low-rank, fully observed log-count matrix") {
  // log N = A B^T + a 1^T + 1 b^T with rank 2; a d = 3 model can represent it exactly.
  const GloveEntries e = low_rank_entries(12, 2, false, 21);
  GloveModel m = random_model(12, 3, 4);
  const double start = glove_loss(m, e);
  for (int sweep = 0; sweep < 300; ++sweep) {
    glove_als_half_sweep(m, e, true, 0.0);
    glove_als_half_sweep(m, e, false, 0.0);
  }
  const double end = glove_loss(m, e);
  CHECK(start > 1.0);
  CHECK(end < 1e-6 * start);
  // A model too small (d = 1 < rank 2) cannot: the identity is a real test.
  GloveModel small = random_model(12, 1, 4);
  for (int sweep = 0; sweep < 300; ++sweep) {
    glove_als_half_sweep(small, e, true, 0.0);
    glove_als_half_sweep(small, e, false, 0.0);
  }
  CHECK(glove_loss(small, e) > 1e-2 * start);
}

TEST_CASE("glove: ALS half-sweeps are bit-identical on 1 and 2 threads") {
  const GloveEntries e = low_rank_entries(300, 3, true, 8);
  GloveModel a = random_model(300, 4, 9), b = a;
  set_max_threads(1);
  glove_als_half_sweep(a, e, true, 0.01);
  glove_als_half_sweep(a, e, false, 0.01);
  set_max_threads(2);
  glove_als_half_sweep(b, e, true, 0.01);
  glove_als_half_sweep(b, e, false, 0.01);
  set_max_threads(0);
  CHECK(a.params == b.params);
}

TEST_CASE("glove: the entries are the positive counts in row order with log N and f(N), alike on 1 and 2 threads") {
  // 3000 rows (12 blocks of 256 rows), 40 counts a row, every seventh zero (left out).
  Cooccurrence n;
  n.words = 3000;
  n.row_start.push_back(0);
  Rng rng(11);
  for (int v = 0; v < n.words; ++v) {
    for (int k = 0; k < 40; ++k) {
      n.col.push_back(static_cast<int32_t>(rng.below(static_cast<uint64_t>(n.words))));
      n.value.push_back(k % 7 == 3 ? 0.0 : rng.uniform(0.05, 300.0));
    }
    n.row_start.push_back(n.nnz());
  }
  // The definition, entry by entry.
  std::vector<int> row, col;
  std::vector<float> log_count, weight;
  for (int v = 0; v < n.words; ++v)
    for (int64_t k = n.row_start[static_cast<size_t>(v)]; k < n.row_start[static_cast<size_t>(v) + 1]; ++k) {
      const double c = n.value[static_cast<size_t>(k)];
      if (!(c > 0)) continue;
      row.push_back(v);
      col.push_back(n.col[static_cast<size_t>(k)]);
      log_count.push_back(static_cast<float>(std::log(c)));
      weight.push_back(static_cast<float>(glove_weight(c, 100.0, 0.75)));
    }
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    set_max_threads(threads);
    const ParallelStats before = parallel_stats();
    const GloveEntries e = glove_entries(n, 100.0, 0.75);
    const ParallelStats after = parallel_stats();
    set_max_threads(0);
    CHECK((after.pool_loops > before.pool_loops) == (threads == 2));  // 2 threads really split the rows
    CHECK(e.words == n.words);
    REQUIRE(e.size() == row.size());
    CHECK(std::vector<int>(e.row.begin(), e.row.end()) == row);
    CHECK(std::vector<int>(e.col.begin(), e.col.end()) == col);
    CHECK(e.log_count == log_count);
    CHECK(e.weight == weight);
  }
}

TEST_CASE("glove: the module on a tiny corpus - AdaGrad lowers the loss, ALS never raises its objective") {
  const auto data = tiny_text();
  SUBCASE("adagrad") {
    Glove g;
    g.reset(data, glove_values(g, {{"vector_size", 8}, {"min_count", 1}, {"window", 3}, {"epochs", 40}}), 1);
    const int64_t entries = static_cast<int64_t>(g.entries().size());
    REQUIRE(entries > 0);
    // Entries are the nonzero co-occurrences of the 12 words (both orders).
    CHECK(entries <= 12 * 12);
    std::vector<double> epoch_loss;
    double sum = 0;
    int n = 0;
    while (g.status() == Status::Running) {
      g.step();
      const auto s = g.glove_snapshot();
      sum += s->metrics[Glove::kMetricLoss];
      ++n;
      if (!std::isnan(s->metrics[Glove::kMetricEntriesPerS])) {
        epoch_loss.push_back(sum / n);
        sum = 0;
        n = 0;
      }
    }
    CHECK(g.status() == Status::Stopped);
    REQUIRE(epoch_loss.size() == 40);
    CHECK(epoch_loss.back() < 0.2 * epoch_loss.front());
    const auto s = g.glove_snapshot();
    CHECK(s->epoch == 40);
    REQUIRE(s->vectors);
    CHECK(s->vectors->rows == s->vocab->size());
    REQUIRE(s->score_pairs);  // 12 words: every entry's score against log N
    CHECK(static_cast<int64_t>(s->score_pairs->size()) == entries);
  }
  SUBCASE("als") {
    Glove g;
    g.reset(data, glove_values(g, {{"solver", 1}, {"vector_size", 6}, {"min_count", 1}, {"lambda", 0.01}}), 1);
    double prev = INFINITY;
    for (int i = 0; i < 15; ++i) {
      g.step();
      const double obj = g.glove_snapshot()->metrics[Glove::kMetricObjective];
      CHECK(obj <= prev * (1 + 1e-6));
      prev = obj;
    }
    CHECK(g.glove_snapshot()->epoch == 15);  // one sweep = one epoch
  }
}

TEST_CASE("glove: same seed same run, clones continue identically, another seed differs") {
  const auto data = tiny_text();
  Glove a, b, c;
  const ParamValues v = glove_values(a, {{"vector_size", 5}, {"min_count", 1}, {"batch_entries", 50}});
  a.reset(data, v, 3);
  b.reset(data, v, 3);
  c.reset(data, v, 4);
  for (int i = 0; i < 7; ++i) {
    a.step();
    b.step();
    c.step();
  }
  CHECK(a.model().params == b.model().params);
  CHECK(a.model().params != c.model().params);
  std::unique_ptr<Module> k = a.clone();
  for (int i = 0; i < 5; ++i) {
    a.step();
    k->step();
  }
  CHECK(a.model().params == dynamic_cast<Glove&>(*k).model().params);
}

TEST_CASE("glove: a restart that changes only training parameters reuses the co-occurrence entries") {
  const auto data = tiny_text();
  Glove a, b, c, e;
  a.reset(data, glove_values(a, {{"vector_size", 5}, {"min_count", 1}, {"lr", 0.05}}), 3);
  b.reset(data, glove_values(b, {{"vector_size", 8}, {"min_count", 1}, {"lr", 0.1}, {"solver", 1}}), 4);
  CHECK(&a.entries() == &b.entries());
  c.reset(data, glove_values(c, {{"vector_size", 5}, {"min_count", 1}, {"window", 3}}), 3);
  CHECK(&c.entries() != &a.entries());
  // Another corpus object: new entries, equal in content; training from them is the same.
  e.reset(std::make_shared<Dataset>(*data), glove_values(e, {{"vector_size", 5}, {"min_count", 1}, {"lr", 0.05}}), 3);
  CHECK(&e.entries() != &a.entries());
  CHECK(e.entries().log_count == a.entries().log_count);
  for (int i = 0; i < 3; ++i) {
    a.step();
    e.step();
  }
  CHECK(a.model().params == e.model().params);
}

TEST_CASE("glove: clear errors for data that is not text and a vocabulary too small") {
  Glove g;
  const ParamValues v = default_values(g.params());
  auto table = std::make_shared<Dataset>();
  table->x = Eigen::MatrixXd::Ones(3, 2);
  table->name = "table";
  CHECK_THROWS_WITH_AS(g.reset(table, v, 0), doctest::Contains("not text"), std::invalid_argument);
  ParamValues high = v;
  high["min_count"] = 1000000;  // nothing survives
  try {
    g.reset(tiny_text(), high, 0);
    FAIL("expected an error");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    CHECK(m.find("glove") != std::string::npos);
    CHECK(m.find("min_count") != std::string::npos);
  }
}

TEST_CASE("glove: a reset says what it is doing (vocabulary, co-occurrence scans with a rising fraction, weights)") {
  struct Recording : ProgressSink {
    std::vector<std::pair<std::string, double>> seen;
    void set(std::string stage, double fraction) override {
      seen.emplace_back(stage, fraction);
      ProgressSink::set(std::move(stage), fraction);
    }
  } sink;
  // Over 2048 words, so rare pairs need their own scan after the counting one.
  TinyTextSpec spec;
  spec.words = 2600;
  spec.docs = 3000;
  spec.length = 40;
  spec.seed = 77;
  Glove g;
  {
    const ProgressScope scope(&sink);
    g.reset(text_dataset(tiny_corpus(spec), "tiny-text", "tiny-text"), glove_values(g, {{"min_count", 1}}), 1);
  }
  auto has = [&](const std::string& prefix) {
    for (const auto& [stage, f] : sink.seen)
      if (stage.rfind(prefix, 0) == 0) return true;
    return false;
  };
  CHECK(has("building the vocabulary"));
  CHECK(has("encoding the corpus"));
  CHECK(has("counting co-occurrences"));
  CHECK(has("weighting the co-occurrence entries"));
  double last = 0;
  int counting = 0;
  for (const auto& [stage, f] : sink.seen) {
    if (stage.rfind("counting co-occurrences", 0) != 0) continue;
    ++counting;
    CHECK(f >= last);  // the scans go forward
    CHECK(f <= 1.0);
    last = f;
  }
  CHECK(counting >= 2);  // the counting scan and the rare rows' scan
  // Without a sink (the CLI), nothing is recorded and nothing changes.
  const size_t before = sink.seen.size();
  Glove h;
  h.reset(tiny_text(78), glove_values(h, {}), 1);
  CHECK(sink.seen.size() == before);
}
