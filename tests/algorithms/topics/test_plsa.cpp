// Topic models: the oracles of course chapter 7.2 (l never falls, U, V and q
// stochastic, the saturated bound, the unigram answer for K = 1), pLSA as the
// simultaneous KL multiplicative update (a dense reference written here), the
// alternating scikit-learn updates against dense references (Lee-Seung: their
// objectives never rise), the held-out split, add_topic, determinism.
#include "algorithms/topics/plsa.h"

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/text/text.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cilab;

namespace {

using DataPtr = std::shared_ptr<const Dataset>;
using Dense = std::vector<std::vector<double>>;

// A word made of letters only (the tokeniser drops digits): 0 -> "waa".
std::string word(int id) {
  std::string w = "w";
  w += static_cast<char>('a' + id / 26 % 26);
  w += static_cast<char>('a' + id % 26);
  return w;
}

// Documents drawn from `topics` topics over disjoint blocks of `per_topic`
// words plus `shared` common words; each document mostly one topic
// (its label) with some of another.
DataPtr topic_corpus(int topics = 3, int per_topic = 8, int shared = 4, int docs = 60, int length = 25,
                     uint64_t seed = 1) {
  Rng rng(seed);
  CorpusBuilder b("generated");
  for (int d = 0; d < docs; ++d) {
    const int t = d % topics;
    const int other = (t + 1 + static_cast<int>(rng.below(static_cast<uint64_t>(topics - 1 > 0 ? topics - 1 : 1)))) % topics;
    std::string text;
    for (int w = 0; w < length; ++w) {
      const double u = rng.uniform();
      int id;
      if (u < 0.15) id = topics * per_topic + static_cast<int>(rng.below(static_cast<uint64_t>(shared)));
      else if (u < 0.3) id = other * per_topic + static_cast<int>(rng.below(static_cast<uint64_t>(per_topic)));
      else id = t * per_topic + static_cast<int>(rng.below(static_cast<uint64_t>(per_topic)));
      text += word(id) + " ";
    }
    b.add_document(text, b.label("topic" + std::string(1, static_cast<char>('a' + t))), {}, true);
  }
  auto d = std::make_shared<Dataset>();
  d->text = b.finish();
  d->name = "generated";
  d->source = "test_plsa topic corpus";
  return d;
}

ParamValues params(const std::string& method = "plsa", int k = 3, double test_fraction = 0.1) {
  Plsa m;
  ParamValues v = default_values(m.params());
  apply_assignment(m.params(), v, "method=" + method, "plsa");
  v["k"] = k;
  v["min_count"] = 1;
  v["max_df"] = 1.0;
  v["stop_words"] = 0;
  v["test_fraction"] = test_fraction;
  v["test_smoothing"] = 0;  // the raw model's held-out likelihood
  v["tol"] = 0;
  v["max_iter"] = 100000;
  return v;
}

std::unique_ptr<Plsa> make(const DataPtr& d, const ParamValues& v, uint64_t seed = 7) {
  auto m = std::make_unique<Plsa>();
  m->reset(d, v, seed);
  return m;
}

double metric(const Plsa& m, int which) { return m.snapshot()->metrics[static_cast<size_t>(which)]; }

// The training counts as a dense docs x terms matrix.
Dense dense_counts(const DocTermMatrix& n) {
  Dense x(static_cast<size_t>(n.docs), std::vector<double>(static_cast<size_t>(n.terms), 0.0));
  for (int i = 0; i < n.docs; ++i)
    for (int64_t e = n.row_start[static_cast<size_t>(i)]; e < n.row_start[static_cast<size_t>(i) + 1]; ++e)
      x[static_cast<size_t>(i)][static_cast<size_t>(n.col[static_cast<size_t>(e)])] = n.count[static_cast<size_t>(e)];
  return x;
}

// W H as a dense matrix, W docs x K and H^T terms x K (row-major, K contiguous).
Dense product(const std::vector<double>& w, const std::vector<double>& ht, int n, int m, int k) {
  Dense wh(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(m), 0.0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      for (int z = 0; z < k; ++z)
        wh[static_cast<size_t>(i)][static_cast<size_t>(j)] +=
            w[static_cast<size_t>(i * k + z)] * ht[static_cast<size_t>(j * k + z)];
  return wh;
}

// Bit-for-bit equality of two metric vectors (NaN = n/a equals NaN).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t t = 0; t < a.size(); ++t)
    if (!(a[t] == b[t] || (std::isnan(a[t]) && std::isnan(b[t])))) return false;
  return true;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0;
  for (size_t t = 0; t < a.size(); ++t) d = std::max(d, std::abs(a[t] - b[t]));
  return d;
}

// l = sum_ij N_ij log p(w_j | d_i), p(w|d) the rows of theta phi^T (dense, independent).
double dense_ll(const Dense& x, const std::vector<double>& w, const std::vector<double>& ht, int k) {
  const int n = static_cast<int>(x.size()), m = static_cast<int>(x[0].size());
  const Dense wh = product(w, ht, n, m, k);
  double ll = 0;
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < m; ++j) row += wh[static_cast<size_t>(i)][static_cast<size_t>(j)];
    for (int j = 0; j < m; ++j)
      if (x[static_cast<size_t>(i)][static_cast<size_t>(j)] > 0)
        ll += x[static_cast<size_t>(i)][static_cast<size_t>(j)] *
              std::log(wh[static_cast<size_t>(i)][static_cast<size_t>(j)] / row);
  }
  return ll;
}

// Column sums of a rows x k row-major matrix.
std::vector<double> col_sums(const std::vector<double>& a, int rows, int k) {
  std::vector<double> s(static_cast<size_t>(k), 0.0);
  for (int r = 0; r < rows; ++r)
    for (int z = 0; z < k; ++z) s[static_cast<size_t>(z)] += a[static_cast<size_t>(r * k + z)];
  return s;
}

// The KL multiplicative updates (Lee & Seung; scikit-learn's mu solver) from the product WH,
// W n x k and H^T t x k row-major, X n x t dense:
//   W' = W .* ((X ./ WH) H^T) ./ (1 H^T),   H' = H .* (W^T (X ./ WH)) ./ (W^T 1).
std::vector<double> kl_update_w(const Dense& x, const std::vector<double>& w, const std::vector<double>& ht, int n,
                                int t, int k) {
  const Dense wh = product(w, ht, n, t, k);
  const std::vector<double> hsum = col_sums(ht, t, k);
  std::vector<double> w2 = w;
  for (int i = 0; i < n; ++i)
    for (int z = 0; z < k; ++z) {
      double num = 0;
      for (int j = 0; j < t; ++j)
        if (x[static_cast<size_t>(i)][static_cast<size_t>(j)] > 0)
          num += x[static_cast<size_t>(i)][static_cast<size_t>(j)] / wh[static_cast<size_t>(i)][static_cast<size_t>(j)] *
                 ht[static_cast<size_t>(j * k + z)];
      w2[static_cast<size_t>(i * k + z)] *= num / hsum[static_cast<size_t>(z)];
    }
  return w2;
}

std::vector<double> kl_update_h(const Dense& x, const std::vector<double>& w, const std::vector<double>& ht, int n,
                                int t, int k) {
  const Dense wh = product(w, ht, n, t, k);
  const std::vector<double> wsum = col_sums(w, n, k);
  std::vector<double> h2 = ht;
  for (int j = 0; j < t; ++j)
    for (int z = 0; z < k; ++z) {
      double num = 0;
      for (int i = 0; i < n; ++i)
        if (x[static_cast<size_t>(i)][static_cast<size_t>(j)] > 0)
          num += w[static_cast<size_t>(i * k + z)] * x[static_cast<size_t>(i)][static_cast<size_t>(j)] /
                 wh[static_cast<size_t>(i)][static_cast<size_t>(j)];
      h2[static_cast<size_t>(j * k + z)] *= num / wsum[static_cast<size_t>(z)];
    }
  return h2;
}

void check_stochastic(const Plsa& m, double tol = 1e-12) {
  const int n = m.problem().docs(), t = m.problem().terms(), k = m.topics();
  for (double s : col_sums(m.phi(), t, k)) CHECK(std::abs(s - 1.0) <= tol);
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int z = 0; z < k; ++z) s += m.theta()[static_cast<size_t>(i * k + z)];
    CHECK(std::abs(s - 1.0) <= tol);
  }
  for (double v : m.theta()) CHECK(v >= 0);
  for (double v : m.phi()) CHECK(v >= 0);
}

}  // namespace

TEST_CASE("plsa: the log-likelihood never falls, and stays below the saturated bound") {
  const DataPtr d = topic_corpus();
  auto m = make(d, params("plsa", 4));
  const PlsaProblem& q = m->problem();
  // The saturated bound, recomputed from the counts.
  double sat = 0;
  for (int i = 0; i < q.docs(); ++i)
    for (int64_t e = q.train.row_start[static_cast<size_t>(i)]; e < q.train.row_start[static_cast<size_t>(i) + 1]; ++e)
      sat += q.train.count[static_cast<size_t>(e)] *
             std::log(q.train.count[static_cast<size_t>(e)] / q.train.doc_length[static_cast<size_t>(i)]);
  CHECK(std::abs(sat - q.saturated_bound) <= 1e-9 * std::abs(sat));
  double prev = metric(*m, Plsa::kMetricLogLikelihood);
  double first_gain = 0;
  for (int t = 0; t < 60; ++t) {
    m->step();
    const double ll = metric(*m, Plsa::kMetricLogLikelihood);
    CHECK(ll >= prev - 1e-10 * std::abs(prev));
    if (t == 0) first_gain = ll - prev;
    CHECK(ll <= sat);
    CHECK(metric(*m, Plsa::kMetricSaturatedGap) >= 0);
    prev = ll;
  }
  CHECK(first_gain > 0);  // EM moved
  CHECK(metric(*m, Plsa::kMetricLargestRise) <= 1e-10 * std::abs(prev));
  // The reported l is the dense one of the current factors.
  const Dense x = dense_counts(q.train);
  CHECK(std::abs(dense_ll(x, m->theta(), m->phi(), m->topics()) - prev) <= 1e-9 * std::abs(prev));
  CHECK(metric(*m, Plsa::kMetricPerplexity) == doctest::Approx(std::exp(-prev / q.train_total)).epsilon(1e-12));
}

TEST_CASE("plsa: U, V and q are stochastic after every step and sub-step") {
  const DataPtr d = topic_corpus();
  auto m = make(d, params("plsa", 3));
  check_stochastic(*m);
  for (int t = 0; t < 5; ++t) {
    m->sub_step();  // E
    CHECK(m->snapshot()->phase == 1);
    const int k = m->topics();
    const std::vector<double>& q = m->responsibilities();
    REQUIRE(q.size() == static_cast<size_t>(m->problem().train.nnz() * k));
    for (size_t e = 0; e < q.size() / static_cast<size_t>(k); ++e) {
      double s = 0;
      for (int z = 0; z < k; ++z) s += q[e * static_cast<size_t>(k) + static_cast<size_t>(z)];
      CHECK(std::abs(s - 1.0) <= 1e-12);
    }
    CHECK(m->plsa_snapshot()->q_sum_error <= 1e-12);
    m->sub_step();  // M
    CHECK(m->snapshot()->phase == 0);
    CHECK(m->responsibilities().empty());
    check_stochastic(*m);
    CHECK(metric(*m, Plsa::kMetricStochasticError) <= 1e-12);
  }
}

TEST_CASE("plsa: the E-step and the M-step make one step") {
  const DataPtr d = topic_corpus();
  auto a = make(d, params("plsa", 3));
  auto b = make(d, params("plsa", 3));
  for (int t = 0; t < 4; ++t) {
    a->step();
    b->sub_step();
    b->sub_step();
    CHECK(a->snapshot()->iteration == b->snapshot()->iteration);
    CHECK(max_abs_diff(a->theta(), b->theta()) <= 1e-12);
    CHECK(max_abs_diff(a->phi(), b->phi()) <= 1e-12);
  }
  // step() after an E-step finishes that iteration.
  b->sub_step();
  b->step();
  a->step();
  CHECK(max_abs_diff(a->phi(), b->phi()) <= 1e-12);
}

TEST_CASE("plsa: with K = 1, one M-step gives the corpus unigram frequencies") {
  const DataPtr d = topic_corpus();
  for (const char* method : {"plsa", "nmf_kl"}) {
    CAPTURE(method);
    auto m = make(d, params(method, 1));
    const PlsaProblem& q = m->problem();
    std::vector<double> uni(static_cast<size_t>(q.terms()), 0.0);
    for (size_t e = 0; e < q.train.count.size(); ++e) uni[static_cast<size_t>(q.train.col[e])] += q.train.count[e];
    for (double& u : uni) u /= q.train.total();
    CHECK(max_abs_diff(uni, m->phi()) > 1e-3);  // the random start is not the answer
    m->step();
    std::vector<double> phi = m->phi();
    double h = 0;
    for (double v : phi) h += v;
    for (double& v : phi) v /= h;  // NMF's H is normalised when shown
    CHECK(max_abs_diff(uni, phi) <= 1e-14);
    CHECK(metric(*m, Plsa::kMetricUnigramError) <= 1e-14);
  }
  auto three = make(d, params("plsa", 3));
  CHECK(std::isnan(metric(*three, Plsa::kMetricUnigramError)));
}

TEST_CASE("plsa: one pLSA iteration equals one simultaneous KL multiplicative update, normalised") {
  const DataPtr d = topic_corpus(3, 6, 3, 30, 20, 3);
  const int k = 3;
  auto m = make(d, params("plsa", k));
  const PlsaProblem& q = m->problem();
  const int n = q.docs(), t = q.terms();
  const Dense x = dense_counts(q.train);
  for (int it = 0; it < 5; ++it) {
    // The reference: W = diag(s) theta, H = phi^T; both factors from the same W H:
    // W' = W .* ((X ./ WH) H^T) ./ (1 H^T), H' = H .* (W^T (X ./ WH)) ./ (W^T 1).
    std::vector<double> w = m->theta();
    const std::vector<double> ht = m->phi();
    for (int i = 0; i < n; ++i)
      for (int z = 0; z < k; ++z) w[static_cast<size_t>(i * k + z)] *= q.train.doc_length[static_cast<size_t>(i)];
    std::vector<double> w2 = kl_update_w(x, w, ht, n, t, k), h2 = kl_update_h(x, w, ht, n, t, k);
    // Normalised: theta' = rows of W' / their sums, phi' = columns of H'^T / their sums.
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int z = 0; z < k; ++z) s += w2[static_cast<size_t>(i * k + z)];
      for (int z = 0; z < k; ++z) w2[static_cast<size_t>(i * k + z)] /= s;
    }
    const std::vector<double> hs = col_sums(h2, t, k);
    for (int j = 0; j < t; ++j)
      for (int z = 0; z < k; ++z) h2[static_cast<size_t>(j * k + z)] /= hs[static_cast<size_t>(z)];
    m->step();
    CHECK(max_abs_diff(w2, m->theta()) <= 1e-12);
    CHECK(max_abs_diff(h2, m->phi()) <= 1e-12);
  }
}

TEST_CASE("plsa: nmf_kl is scikit-learn's alternating update, and D(X || WH) never rises") {
  const DataPtr d = topic_corpus(3, 6, 3, 30, 20, 5);
  const int k = 3;
  auto m = make(d, params("nmf_kl", k));
  const PlsaProblem& q = m->problem();
  const int n = q.docs(), t = q.terms();
  const Dense x = dense_counts(q.train);
  auto divergence = [&](const std::vector<double>& w, const std::vector<double>& ht) {
    const Dense wh = product(w, ht, n, t, k);
    double dv = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < t; ++j) {
        const double xv = x[static_cast<size_t>(i)][static_cast<size_t>(j)], y = wh[static_cast<size_t>(i)][static_cast<size_t>(j)];
        dv += (xv > 0 ? xv * std::log(xv / y) : 0.0) - xv + y;
      }
    return dv;
  };
  double prev = metric(*m, Plsa::kMetricObjective);
  CHECK(std::abs(prev - divergence(m->theta(), m->phi())) <= 1e-9 * prev);
  for (int it = 0; it < 30; ++it) {
    // Dense reference: W first, then H from the new W.
    const std::vector<double> w = m->theta(), ht = m->phi();
    const std::vector<double> w2 = kl_update_w(x, w, ht, n, t, k), h2 = kl_update_h(x, w2, ht, n, t, k);
    m->step();
    CHECK(max_abs_diff(w2, m->theta()) <= 1e-10 * (1 + *std::max_element(w2.begin(), w2.end())));
    CHECK(max_abs_diff(h2, m->phi()) <= 1e-12);
    const double obj = metric(*m, Plsa::kMetricObjective);
    CHECK(std::abs(obj - divergence(m->theta(), m->phi())) <= 1e-9 * obj);
    CHECK(obj <= prev + 1e-10 * prev);
    prev = obj;
  }
  CHECK(metric(*m, Plsa::kMetricLargestRise) <= 1e-10 * prev);
}

TEST_CASE("plsa: nmf_frobenius's 1/2 ||X - WH||^2 never rises and matches the dense value") {
  const DataPtr d = topic_corpus(3, 6, 3, 30, 20, 9);
  const int k = 3;
  auto m = make(d, params("nmf_frobenius", k));
  const PlsaProblem& q = m->problem();
  const int n = q.docs(), t = q.terms();
  const Dense x = dense_counts(q.train);
  auto frob = [&]() {
    const Dense wh = product(m->theta(), m->phi(), n, t, k);
    double f = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < t; ++j) {
        const double r = x[static_cast<size_t>(i)][static_cast<size_t>(j)] - wh[static_cast<size_t>(i)][static_cast<size_t>(j)];
        f += r * r;
      }
    return 0.5 * f;
  };
  double prev = metric(*m, Plsa::kMetricObjective);
  CHECK(prev == doctest::Approx(frob()).epsilon(1e-9));
  for (int it = 0; it < 30; ++it) {
    m->step();
    const double obj = metric(*m, Plsa::kMetricObjective);
    CHECK(obj == doctest::Approx(frob()).epsilon(1e-9));
    CHECK(obj <= prev + 1e-10 * prev);
    prev = obj;
  }
  // l of the normalised model is measured for every method.
  CHECK(metric(*m, Plsa::kMetricLogLikelihood) ==
        doctest::Approx(dense_ll(x, m->theta(), m->phi(), k)).epsilon(1e-9));
}

TEST_CASE("plsa: the held-out split and test perplexity") {
  const DataPtr d = topic_corpus();
  auto m = make(d, params("plsa", 3, 0.3));
  const PlsaProblem& q = m->problem();
  // Train + test = the full counts, cell by cell; every document and word keeps a training token.
  VocabOptions vo;
  vo.min_count = 1;
  const Vocabulary v = build_vocabulary(*d->text, vo);
  const Dense full = dense_counts(doc_term_matrix(*d->text, v, true));
  const Dense tr = dense_counts(q.train), te = dense_counts(q.test);
  REQUIRE(full.size() == tr.size());
  double held = 0, all = 0;
  std::vector<double> col(static_cast<size_t>(q.terms()), 0.0);
  for (size_t i = 0; i < full.size(); ++i) {
    double row = 0;
    for (size_t j = 0; j < full[i].size(); ++j) {
      CHECK(tr[i][j] + te[i][j] == full[i][j]);
      held += te[i][j];
      all += full[i][j];
      row += tr[i][j];
      col[j] += tr[i][j];
    }
    CHECK(row > 0);
  }
  for (double c : col) CHECK(c > 0);
  CHECK(held / all == doctest::Approx(0.3).epsilon(0.15));
  // test perplexity from the trained theta and phi, computed densely.
  for (int t = 0; t < 5; ++t) m->step();
  const int k = m->topics();
  double tll = 0;
  for (size_t i = 0; i < te.size(); ++i)
    for (size_t j = 0; j < te[i].size(); ++j)
      if (te[i][j] > 0) {
        double p = 0;
        for (int z = 0; z < k; ++z) p += m->theta()[i * static_cast<size_t>(k) + static_cast<size_t>(z)] * m->phi()[j * static_cast<size_t>(k) + static_cast<size_t>(z)];
        tll += te[i][j] * std::log(p);
      }
  // (params() sets test_smoothing = 0: the raw model; the smoothed one below.)
  CHECK(metric(*m, Plsa::kMetricTestPerplexity) == doctest::Approx(std::exp(-tll / held)).epsilon(1e-10));
  {
    // test_smoothing eps: p_eps = (p + eps) / (1 + m eps) on the held-out tokens only; l is unchanged.
    ParamValues sv = params("plsa", 3, 0.3);
    const double eps = 0.01;
    sv["test_smoothing"] = eps;
    auto ms = make(d, sv);
    for (int t = 0; t < 5; ++t) ms->step();
    double sll = 0;
    const double mterms = static_cast<double>(q.terms());
    for (size_t i = 0; i < te.size(); ++i)
      for (size_t j = 0; j < te[i].size(); ++j)
        if (te[i][j] > 0) {
          double pr = 0;
          for (int z = 0; z < k; ++z)
            pr += ms->theta()[i * static_cast<size_t>(k) + static_cast<size_t>(z)] *
                  ms->phi()[j * static_cast<size_t>(k) + static_cast<size_t>(z)];
          sll += te[i][j] * std::log((pr + eps) / (1 + mterms * eps));
        }
    CHECK(metric(*ms, Plsa::kMetricTestPerplexity) == doctest::Approx(std::exp(-sll / held)).epsilon(1e-10));
    CHECK(metric(*ms, Plsa::kMetricLogLikelihood) == metric(*m, Plsa::kMetricLogLikelihood));
    CHECK(metric(*ms, Plsa::kMetricTestPerplexity) != metric(*m, Plsa::kMetricTestPerplexity));
  }
  // The split depends on the seed only, not on init.
  ParamValues u = params("plsa", 3, 0.3);
  u["init"] = 1;
  auto other = make(d, u);
  CHECK(other->problem().test.col == q.test.col);
  CHECK(other->problem().test.count == q.test.count);
}

TEST_CASE("plsa: same seed same run, clones continue identically, 1 and 2 threads bit-identical") {
  const DataPtr d = topic_corpus(4, 10, 5, 2500, 30, 11);
  for (const char* method : {"plsa", "nmf_kl", "nmf_frobenius"}) {
    CAPTURE(method);
    const ParamValues v = params(method, 4);
    auto a = make(d, v, 3), b = make(d, v, 3);
    REQUIRE(a->problem().doc_block.size() > 2);  // several parallel blocks of documents
    REQUIRE(a->problem().term_block.size() > 3);  // and of terms
    CHECK(a->theta() == b->theta());
    auto c = make(d, v, 4);
    CHECK(a->theta() != c->theta());
    for (int t = 0; t < 3; ++t) a->step(), b->step();
    std::unique_ptr<Module> cl = a->clone();
    for (int t = 0; t < 3; ++t) a->step(), cl->step();
    auto* pc = dynamic_cast<Plsa*>(cl.get());
    REQUIRE(pc);
    CHECK(pc->theta() == a->theta());
    CHECK(pc->phi() == a->phi());
    CHECK(same_bits(pc->snapshot()->metrics, a->snapshot()->metrics));
    set_max_threads(1);
    auto one = make(d, v, 3);
    for (int t = 0; t < 5; ++t) one->step();
    set_max_threads(2);
    auto two = make(d, v, 3);
    for (int t = 0; t < 5; ++t) two->step();
    set_max_threads(0);
    CHECK(one->theta() == two->theta());
    CHECK(one->phi() == two->phi());
    CHECK(same_bits(one->snapshot()->metrics, two->snapshot()->metrics));
  }
}

TEST_CASE("plsa: add_topic keeps the current topics, the sums at 1, and l monotone after it") {
  const DataPtr d = topic_corpus();
  auto m = make(d, params("plsa", 2));
  for (int t = 0; t < 10; ++t) m->step();
  const double before = metric(*m, Plsa::kMetricLogLikelihood);
  const std::vector<double> phi = m->phi();
  REQUIRE(m->apply(Intent{"add_topic", -1, {}}));
  CHECK(m->topics() == 3);
  CHECK(m->plsa_snapshot()->k == 3);
  check_stochastic(*m);
  // The untouched topic is kept exactly; l barely moves (the split topic's halves differ by +-1 %).
  const int t = m->problem().terms();
  int kept = 0;
  for (int z = 0; z < 2; ++z) {
    bool same = true;
    for (int j = 0; j < t; ++j) same = same && m->phi()[static_cast<size_t>(j * 3 + z)] == phi[static_cast<size_t>(j * 2 + z)];
    kept += same;
  }
  CHECK(kept == 1);
  const double after = metric(*m, Plsa::kMetricLogLikelihood);
  CHECK(std::abs(after - before) <= 1e-3 * std::abs(before));
  double prev = after;
  for (int s = 0; s < 20; ++s) {
    m->step();
    const double ll = metric(*m, Plsa::kMetricLogLikelihood);
    CHECK(ll >= prev - 1e-10 * std::abs(prev));
    prev = ll;
  }
  CHECK(prev > before);  // the third topic helps
  check_stochastic(*m);
  CHECK(metric(*m, Plsa::kMetricLargestRise) <= 1e-10 * std::abs(prev));
  // Clones after the edit continue identically; unknown intents are refused.
  std::unique_ptr<Module> cl = m->clone();
  m->step();
  cl->step();
  CHECK(dynamic_cast<Plsa&>(*cl).phi() == m->phi());
  CHECK_FALSE(m->apply(Intent{"move_centroid", 0, {}}));
  // NMF keeps its objective monotone after a split too.
  auto kl = make(d, params("nmf_kl", 2));
  for (int s = 0; s < 5; ++s) kl->step();
  REQUIRE(kl->apply(Intent{"add_topic", -1, {}}));
  double obj = metric(*kl, Plsa::kMetricObjective);
  for (int s = 0; s < 10; ++s) {
    kl->step();
    CHECK(metric(*kl, Plsa::kMetricObjective) <= obj + 1e-10 * obj);
    obj = metric(*kl, Plsa::kMetricObjective);
  }
}

TEST_CASE("plsa: init=uniform is a fixed point where the topics stay identical") {
  const DataPtr d = topic_corpus();
  ParamValues v = params("plsa", 3);
  v["init"] = 1;
  v["tol"] = 1e-12;
  auto m = make(d, v);
  for (int t = 0; t < 5 && !is_terminal(m->status()); ++t) m->step();
  CHECK(m->status() == Status::Converged);
  const int k = 3, t = m->problem().terms();
  for (int j = 0; j < t; ++j)
    for (int z = 1; z < k; ++z)
      CHECK(m->phi()[static_cast<size_t>(j * k + z)] == m->phi()[static_cast<size_t>(j * k)]);
}

TEST_CASE("plsa: the snapshot's topics, top words and confusion") {
  const DataPtr d = topic_corpus(3, 8, 4, 90, 30, 2);
  auto m = make(d, params("plsa", 3, 0.0));
  for (int t = 0; t < 80; ++t) m->step();
  const auto s = m->plsa_snapshot();
  REQUIRE(s->factors);
  CHECK(s->factors->u == m->phi());
  CHECK(s->factors->v == m->theta());
  REQUIRE(s->top_words.size() == 3);
  const int k = 3;
  for (int z = 0; z < k; ++z) {
    const std::vector<int>& top = s->top_words[static_cast<size_t>(z)];
    REQUIRE(top.size() == static_cast<size_t>(PlsaSnapshot::kTopWords));
    for (size_t r = 1; r < top.size(); ++r) CHECK(s->u(top[r - 1], z) >= s->u(top[r], z));
  }
  // Every document counted once in the argmax confusion; mass sums to the documents.
  const size_t labels = s->problem->label_names.size();
  REQUIRE(labels == 3);
  int counted = 0;
  double mass = 0;
  for (int c : s->confusion_argmax) counted += c;
  for (double c : s->confusion_mass) mass += c;
  CHECK(counted == s->problem->docs());
  CHECK(mass == doctest::Approx(s->problem->docs()).epsilon(1e-12));
  double tm = 0;
  for (double v : s->topic_mass) tm += v;
  CHECK(tm == doctest::Approx(1.0).epsilon(1e-12));
  // The three planted topics are found: each category's documents mostly in one topic, a different one each.
  std::vector<int> best(labels);
  for (size_t c = 0; c < labels; ++c) {
    int top = 0;
    for (int z = 1; z < k; ++z)
      if (s->confusion_argmax[static_cast<size_t>(z) * labels + c] > s->confusion_argmax[static_cast<size_t>(top) * labels + c]) top = z;
    best[c] = top;
    CHECK(s->confusion_argmax[static_cast<size_t>(top) * labels + c] >= 25);  // of 30
  }
  std::sort(best.begin(), best.end());
  CHECK(std::unique(best.begin(), best.end()) == best.end());
  CHECK(s->problem->doc_text(0).find(word(0).substr(0, 1)) != std::string::npos);
  // NMF: U and V shown normalised, with the scales to undo it.
  auto kl = make(d, params("nmf_kl", 3, 0.0));
  for (int t = 0; t < 3; ++t) kl->step();
  const auto ks = kl->plsa_snapshot();
  REQUIRE(ks->factors->h_scale.size() == 3);
  for (double c : col_sums(ks->factors->u, ks->problem->terms(), 3)) CHECK(c == doctest::Approx(1.0).epsilon(1e-12));
  for (int i = 0; i < ks->problem->docs(); ++i) {
    double sv = 0;
    for (int z = 0; z < 3; ++z) sv += ks->v(z, i);
    CHECK(sv == doctest::Approx(1.0).epsilon(1e-12));
    for (int z = 0; z < 3; ++z)  // W_iz = v_zi w_i / h_z
      CHECK(ks->v(z, i) * ks->factors->w_scale[static_cast<size_t>(i)] / ks->factors->h_scale[static_cast<size_t>(z)] ==
            doctest::Approx(kl->theta()[static_cast<size_t>(i * 3 + z)]).epsilon(1e-12));
  }
}

TEST_CASE("plsa: bad input is refused with a message naming it") {
  const DataPtr d = topic_corpus(2, 3, 1, 10, 10, 4);  // at most 7 words
  Plsa m;
  ParamValues v = params("plsa", 9);
  try {
    m.reset(d, v, 1);
    FAIL("k above the vocabulary size was accepted");
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    CHECK(msg.find("generated") != std::string::npos);
    CHECK(msg.find("k=9") != std::string::npos);
  }
  v["k"] = 0;
  CHECK_THROWS_AS(m.reset(d, v, 1), std::invalid_argument);
  auto table = std::make_shared<Dataset>();
  table->x = Eigen::MatrixXd::Ones(3, 2);
  table->name = "numbers";
  try {
    m.reset(table, params("plsa", 2), 1);
    FAIL("a numeric table was accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("text corpus") != std::string::npos);
  }
  CHECK_THROWS_AS(m.reset(nullptr, params("plsa", 2), 1), std::invalid_argument);
  // A vocabulary emptied by the filters.
  ParamValues f = params("plsa", 2);
  f["min_count"] = 1000;
  CHECK_THROWS_AS(m.reset(d, f, 1), std::invalid_argument);
}
