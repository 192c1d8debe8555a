// The plsa view's ImGui-free pieces: see plsa_pictures.h.
#include "views/topics/plsa_pictures.h"

#include "algorithms/topics/plsa.h"
#include "algorithms/linalg/projection.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace cilab {

namespace {

std::string fmt(const char* format, double v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

template <class T>
Confusion confusion_from(const std::vector<T>& topic_major, int k, int categories) {
  Confusion c;
  if (k <= 0 || categories <= 0 || topic_major.size() != static_cast<size_t>(k) * static_cast<size_t>(categories))
    return c;
  c.categories = categories;
  c.topics = k;
  c.value.assign(static_cast<size_t>(k) * static_cast<size_t>(categories), 0.0);
  c.row_total.assign(static_cast<size_t>(categories), 0.0);
  for (int r = 0; r < categories; ++r) {
    double sum = 0;
    for (int z = 0; z < k; ++z) sum += static_cast<double>(topic_major[static_cast<size_t>(z) * categories + r]);
    c.row_total[static_cast<size_t>(r)] = sum;
    if (!(sum > 0)) continue;
    for (int z = 0; z < k; ++z)
      c.value[static_cast<size_t>(r) * k + z] =
          static_cast<double>(topic_major[static_cast<size_t>(z) * categories + r]) / sum;
  }
  return c;
}

}  // namespace

std::vector<PlsaOracle> plsa_oracles(const PlsaSnapshot& s) {
  using State = PlsaOracle::State;
  std::vector<PlsaOracle> out;
  const auto metric = [&](int m) {
    return static_cast<size_t>(m) < s.metrics.size() ? s.metrics[static_cast<size_t>(m)] : NAN;
  };
  const double objective = metric(Plsa::kMetricObjective);
  const double ll = metric(Plsa::kMetricLogLikelihood);
  const bool first = s.iteration == 0;

  // 1. Monotonicity.
  PlsaOracle mono;
  const double slack = kOracleSlack * std::max(1.0, std::abs(objective));
  const auto judge_rise = [&](PlsaOracle& o) {
    if (first) {
      o.state = State::Pending;
      o.value = "step once";
    } else {
      o.state = s.largest_rise <= slack ? State::Holds : State::Broken;
      o.value = (s.method == static_cast<int>(Plsa::Method::Plsa) ? "largest fall " : "largest rise ") +
                fmt("%.3g", std::max(0.0, s.largest_rise));
    }
  };
  switch (static_cast<Plsa::Method>(s.method)) {
    case Plsa::Method::Plsa:
      mono.name = "l never falls";
      mono.formula =
          "EM never lowers the log-likelihood l = sum_ij N_ij log sum_z p(w_j|z) p(z|d_i): the E-step makes the "
          "bound sum q log(p/q) touch l, the M-step maximises the bound. Checked on every iteration of the run: "
          "the largest fall of l so far (a fall below 1e-9 |l| is rounding).";
      judge_rise(mono);
      break;
    case Plsa::Method::NmfKl:
      mono.name = "D never rises";
      mono.formula =
          "Lee-Seung's multiplicative updates never raise the generalised KL divergence D(X || WH) = "
          "sum X log(X / WH) - X + WH (each update minimises an auxiliary function). Checked on every iteration: "
          "the largest rise of D so far (below 1e-9 |D| is rounding).";
      judge_rise(mono);
      break;
    case Plsa::Method::NmfFrobenius:
      mono.name = "loss monotone";
      mono.formula =
          "1/2 ||X - WH||_F^2 under scikit-learn's multiplicative updates: Lee-Seung's bound holds without the "
          "epsilon scikit-learn adds to the denominators, so a tiny rise is possible and not judged. The largest "
          "rise so far is shown.";
      mono.state = State::NotApplicable;
      mono.value = first ? "step once" : "largest rise " + fmt("%.3g", std::max(0.0, s.largest_rise));
      break;
  }
  out.push_back(mono);

  // 2. Stochastic matrices.
  PlsaOracle sto;
  sto.name = "U, V, q stochastic";
  const double q = s.q_sum_error;
  const double err = std::max({s.u_sum_error, s.v_sum_error, std::isfinite(q) ? q : 0.0});
  sto.state = std::isfinite(err) ? (err <= kOracleSlack ? State::Holds : State::Broken) : State::Broken;
  sto.value = "max deviation " + fmt("%.2g", err) + (std::isfinite(q) ? "" : ", q after an E-step");
  sto.formula =
      "Each column of U sums to 1 (sum_j p(w_j|z) = 1), each column of V sums to 1 (sum_z p(z|d_i) = 1) and q "
      "sums to 1 over z (sum_z q_ijz = 1, checked right after an E-step sub-step). Shown: the largest |sum - 1| "
      "(U " +
      fmt("%.2g", s.u_sum_error) + ", V " + fmt("%.2g", s.v_sum_error) + ", q " +
      (std::isfinite(q) ? fmt("%.2g", q) : std::string("n/a")) + "); NMF's factors are normalised for display.";
  out.push_back(sto);

  // 3. The saturated bound.
  PlsaOracle sat;
  sat.name = "l <= saturated bound";
  const double gap = metric(Plsa::kMetricSaturatedGap);
  sat.state = std::isfinite(gap) && gap >= -kOracleSlack * std::max(1.0, std::abs(s.saturated_bound)) ? State::Holds
                                                                                                      : State::Broken;
  sat.value = "gap " + fmt("%.4g", gap);
  sat.formula = "l <= sum_ij N_ij log(N_ij / s_i) = " + fmt("%.6g", s.saturated_bound) +
                ": the saturated model (one free p(w|d) per document, the empirical frequencies N_ij / s_i) "
                "maximises l over every p(w|d) (Gibbs' inequality), and pLSA is one of them. Now l = " +
                fmt("%.6g", ll) + ".";
  out.push_back(sat);

  // 4. K = 1: the unigram frequencies.
  PlsaOracle uni;
  uni.name = "K = 1 unigram";
  uni.formula =
      "With one topic the M-step gives p(w_j|z) = sum_i N_ij q_ij / sum_ij' N_ij' q_ij' with q = 1: the corpus "
      "unigram frequencies sum_i N_ij / sum N, after the first M-step whatever the start. Shown: max_j "
      "|p(w_j|z) - unigram_j| (only with K = 1; set k = 1 to see it).";
  if (s.k != 1) {
    uni.state = State::NotApplicable;
    uni.value = "K = " + std::to_string(s.k);
  } else if (first) {
    uni.state = State::Pending;
    uni.value = "after one M-step";
  } else {
    uni.state = s.unigram_error <= kOracleSlack ? State::Holds : State::Broken;
    uni.value = "max |p(w|z) - p(w)| " + fmt("%.2g", s.unigram_error);
  }
  out.push_back(uni);
  return out;
}

void ternary_xy(double p0, double p1, double p2, double* x, double* y) {
  (void)p0;
  *x = p1 + 0.5 * p2;
  *y = kTernaryHeight * p2;
}

DocPoints document_points(const PlsaFactors& f) {
  DocPoints d;
  const int n = f.docs, K = f.k;
  d.k = K;
  d.x.assign(static_cast<size_t>(n), 0.0);
  d.y.assign(static_cast<size_t>(n), 0.0);
  if (K == 3) {
    d.ternary = true;
    for (int i = 0; i < n; ++i) {
      const double* v = &f.v[static_cast<size_t>(i) * 3];
      ternary_xy(v[0], v[1], v[2], &d.x[static_cast<size_t>(i)], &d.y[static_cast<size_t>(i)]);
    }
    return d;
  }
  if (K <= 2) {
    for (int i = 0; i < n; ++i) d.x[static_cast<size_t>(i)] = K == 2 ? f.v[static_cast<size_t>(i) * 2 + 1] : 1.0;
    d.x_label = K == 2 ? "p(z = 1 | d)" : "p(z = 0 | d) = 1";
    d.y_label = "";
    return d;
  }
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> v(f.v.data(), n, K);
  const Eigen::MatrixXd rows = v;
  const Projection2d p = principal_axes_2d(rows);
  const Eigen::MatrixXd scores = project_2d(p, rows);
  for (int i = 0; i < n; ++i) {
    d.x[static_cast<size_t>(i)] = scores(i, 0);
    d.y[static_cast<size_t>(i)] = scores(i, 1);
  }
  d.explained = p.total_variance > 0 ? (p.variance(0) + p.variance(1)) / p.total_variance : 0.0;
  d.x_label = "PC 1 of p(z|d)";
  d.y_label = "PC 2 of p(z|d)";
  return d;
}

int nearest_point(const std::vector<double>& x, const std::vector<double>& y, const std::vector<char>& shown, double px,
                  double py, double sx, double sy, double max_px) {
  int best = -1;
  double best_d2 = max_px * max_px;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!shown.empty() && (i >= shown.size() || !shown[i])) continue;
    const double dx = (x[i] - px) * sx, dy = (y[i] - py) * sy;
    const double d2 = dx * dx + dy * dy;
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = static_cast<int>(i);
    }
  }
  return best;
}

Confusion confusion_table(const std::vector<double>& topic_major, int k, int categories) {
  return confusion_from(topic_major, k, categories);
}
Confusion confusion_table(const std::vector<int>& topic_major, int k, int categories) {
  return confusion_from(topic_major, k, categories);
}

std::vector<std::vector<int>> top_word_changes(const std::vector<std::vector<int>>& prev,
                                               const std::vector<std::vector<int>>& cur) {
  std::vector<std::vector<int>> change(cur.size());
  for (size_t z = 0; z < cur.size(); ++z) {
    change[z].assign(cur[z].size(), kWordSame);
    if (prev.size() != cur.size()) continue;
    const std::vector<int>& before = prev[z];
    for (size_t r = 0; r < cur[z].size(); ++r) {
      if (r < before.size() && before[r] == cur[z][r]) continue;
      const bool listed = std::find(before.begin(), before.end(), cur[z][r]) != before.end();
      change[z][r] = listed ? kWordMoved : kWordNew;
    }
  }
  return change;
}

std::vector<int> heatmap_terms(const std::vector<std::vector<int>>& top_words, int per_topic) {
  std::vector<int> terms;
  for (const std::vector<int>& t : top_words)
    for (size_t r = 0; r < t.size() && static_cast<int>(r) < per_topic; ++r)
      if (std::find(terms.begin(), terms.end(), t[r]) == terms.end()) terms.push_back(t[r]);
  return terms;
}

std::vector<int> heatmap_docs(const PlsaFactors& f, int count) {
  const int n = f.docs, K = f.k;
  std::vector<int> docs;
  if (n <= 0 || count <= 0 || K <= 0) return docs;
  if (n <= count) {
    docs.resize(static_cast<size_t>(n));
    std::iota(docs.begin(), docs.end(), 0);
  } else {
    docs.reserve(static_cast<size_t>(count));
    for (int a = 0; a < count; ++a) docs.push_back(static_cast<int>((2.0 * a + 1.0) * n / (2.0 * count)));
  }
  const auto argmax = [&](int i) {
    const double* v = &f.v[static_cast<size_t>(i) * K];
    return static_cast<int>(std::max_element(v, v + K) - v);
  };
  std::stable_sort(docs.begin(), docs.end(), [&](int a, int b) {
    const int za = argmax(a), zb = argmax(b);
    if (za != zb) return za < zb;
    return f.v[static_cast<size_t>(a) * K + za] > f.v[static_cast<size_t>(b) * K + zb];
  });
  return docs;
}

PlsaPictures make_plsa_pictures(const PlsaSnapshot& s, int u_per_topic, int v_docs) {
  PlsaPictures pic;
  pic.serial = s.serial.value;
  if (!s.factors || !s.problem) return pic;
  const PlsaFactors& f = *s.factors;
  const int K = f.k;
  pic.k = K;
  pic.points = document_points(f);
  const int L = static_cast<int>(s.problem->label_names.size());
  if (L > 0) {
    pic.by_argmax = confusion_table(s.confusion_argmax, K, L);
    pic.by_mass = confusion_table(s.confusion_mass, K, L);
  }
  pic.u_terms = heatmap_terms(s.top_words, u_per_topic);
  pic.u_values.resize(pic.u_terms.size() * static_cast<size_t>(K));
  for (size_t r = 0; r < pic.u_terms.size(); ++r)
    for (int z = 0; z < K; ++z) {
      const float u = static_cast<float>(s.u(pic.u_terms[r], z));
      pic.u_values[r * K + z] = u;
      pic.u_max = std::max(pic.u_max, u);
    }
  pic.v_docs = heatmap_docs(f, v_docs);
  const size_t nd = pic.v_docs.size();
  pic.v_values.resize(static_cast<size_t>(K) * nd);
  for (int z = 0; z < K; ++z)
    for (size_t c = 0; c < nd; ++c) {
      const float v = static_cast<float>(s.v(z, pic.v_docs[c]));
      pic.v_values[static_cast<size_t>(z) * nd + c] = v;
      pic.v_max = std::max(pic.v_max, v);
    }
  return pic;
}

}  // namespace cilab
