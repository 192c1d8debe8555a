#include "views/completion/completion_pictures.h"

#include "algorithms/completion/completion.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace cilab {

CompletionMask completion_mask(const CompletionProblem& p) {
  CompletionMask mk;
  mk.m = p.m;
  mk.n = p.n;
  const size_t cells = static_cast<size_t>(p.m) * static_cast<size_t>(p.n);
  mk.entry.assign(cells, CompletionMask::kMissing);
  mk.codes.assign(cells, std::numeric_limits<float>::quiet_NaN());
  // Colour c of a categorical map of N colours over [0, N] covers [c, c + 1): the cell's middle.
  const float train_code = 0.5f, test_code = 1.5f;
  for (size_t e = 0; e < p.train_row.size(); ++e) {
    const size_t at = static_cast<size_t>(p.train_row[e]) * static_cast<size_t>(p.n) + static_cast<size_t>(p.train_col[e]);
    mk.entry[at] = static_cast<int>(e);
    mk.codes[at] = train_code;
  }
  for (size_t e = 0; e < p.test_row.size(); ++e) {
    const size_t at = static_cast<size_t>(p.test_row[e]) * static_cast<size_t>(p.n) + static_cast<size_t>(p.test_col[e]);
    mk.entry[at] = -static_cast<int>(e) - 2;
    mk.codes[at] = test_code;
  }
  mk.train = p.train_row.size();
  mk.test = p.test_row.size();
  return mk;
}

CellEntry cell_entry(const CompletionProblem& p, const CompletionMask& mask, int i, int j) {
  CellEntry c;
  c.observed = std::numeric_limits<double>::quiet_NaN();
  if (i < 0 || j < 0 || i >= mask.m || j >= mask.n) return c;
  const int e = mask.entry[static_cast<size_t>(i) * static_cast<size_t>(mask.n) + static_cast<size_t>(j)];
  if (e >= 0) {
    c.kind = 0;
    c.observed = p.train_value[static_cast<size_t>(e)];
  } else if (e <= -2) {
    c.kind = 1;
    c.observed = p.test_value[static_cast<size_t>(-e - 2)];
  }
  return c;
}

int rank_above(const std::vector<double>& sigma, double tau) {
  int r = 0;
  for (double s : sigma) r += s > tau;
  return r;
}

bool spectrum_descending(const std::vector<double>& sigma) {
  for (size_t i = 1; i < sigma.size(); ++i)
    if (sigma[i] > sigma[i - 1] * (1 + 1e-12) + 1e-300) return false;
  return true;
}

void rank_staircase(const std::vector<double>& sigma, double tau_max, std::vector<double>& taus,
                    std::vector<double>& ranks) {
  std::vector<double> s;
  for (double v : sigma)
    if (std::isfinite(v) && v >= 0) s.push_back(v);
  std::sort(s.begin(), s.end());  // ascending: the rank drops by one at each
  taus.clear();
  ranks.clear();
  int r = rank_above(s, 0.0);
  taus.push_back(0.0);
  ranks.push_back(r);
  for (double v : s) {
    if (v <= 0 || v > tau_max) continue;
    // rank(tau) = #{sigma > tau}: r up to tau = v, one less just above it (ties drop together).
    taus.push_back(v);
    ranks.push_back(r);
    r = rank_above(s, v);
    taus.push_back(v);
    ranks.push_back(r);
  }
  taus.push_back(tau_max);
  ranks.push_back(r);
}

std::vector<float> subsample_grid(const float* values, int m, int n, int max_rows, int max_cols, int* rows, int* cols) {
  const int r = std::max(1, std::min(m, max_rows)), c = std::max(1, std::min(n, max_cols));
  std::vector<float> out(static_cast<size_t>(r) * static_cast<size_t>(c));
  for (int a = 0; a < r; ++a) {
    const size_t i = static_cast<size_t>((2 * static_cast<long long>(a) + 1) * m / (2 * r));
    for (int b = 0; b < c; ++b) {
      const size_t j = static_cast<size_t>((2 * static_cast<long long>(b) + 1) * n / (2 * c));
      out[static_cast<size_t>(a) * static_cast<size_t>(c) + static_cast<size_t>(b)] = values[i * static_cast<size_t>(n) + j];
    }
  }
  *rows = r;
  *cols = c;
  return out;
}

void picture_grid(int m, int n, size_t max_cells, std::vector<int>& rows, std::vector<int>& cols) {
  const double cells = static_cast<double>(m) * static_cast<double>(n);
  const double scale = cells > static_cast<double>(max_cells) ? std::sqrt(static_cast<double>(max_cells) / cells) : 1.0;
  const int r = std::clamp(static_cast<int>(std::floor(m * scale)), 1, std::max(1, m));
  const int c = std::clamp(static_cast<int>(std::floor(n * scale)), 1, std::max(1, n));
  rows.resize(static_cast<size_t>(r));
  cols.resize(static_cast<size_t>(c));
  for (int a = 0; a < r; ++a) rows[static_cast<size_t>(a)] = static_cast<int>((2 * static_cast<long long>(a) + 1) * m / (2 * r));
  for (int b = 0; b < c; ++b) cols[static_cast<size_t>(b)] = static_cast<int>((2 * static_cast<long long>(b) + 1) * n / (2 * c));
}

std::vector<float> estimate_grid(const CompletionSnapshot& s, const std::vector<int>& rows,
                                 const std::vector<int>& cols) {
  if (rows.size() == static_cast<size_t>(s.problem->m) && cols.size() == static_cast<size_t>(s.problem->n))
    return s.dense_estimate();  // every cell: one matrix product
  std::vector<float> out(rows.size() * cols.size());
  for (size_t a = 0; a < rows.size(); ++a)
    for (size_t b = 0; b < cols.size(); ++b) out[a * cols.size() + b] = static_cast<float>(s.predict(rows[a], cols[b]));
  return out;
}

bool rises(double a, double b) {
  return std::isfinite(a) && std::isfinite(b) && b > a + 1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-12;
}

OracleStatus completion_oracle(int method, double eta, const std::vector<std::vector<double>>& history,
                               size_t y_support, size_t train, const std::vector<ObjectiveChange>& changes) {
  OracleStatus o;
  char line[256] = "";
  const size_t rows = history.size();
  // changed_before[t]: a change made at iteration t - 1 at phase 0 (before step t began);
  // changed_mid[t]: one made after the first half of step t (iteration t - 1, phase 1).
  std::vector<char> changed_before(rows + 1, 0), changed_mid(rows + 1, 0);
  for (const ObjectiveChange& c : changes) {
    const size_t t = static_cast<size_t>(std::max(0, c.iteration)) + 1;
    if (t >= rows) continue;  // applies past the history shown
    (c.phase > 0 ? changed_mid : changed_before)[t] = 1;
    o.rebase_x.push_back(c.iteration + (c.phase > 0 ? 0.5 : 0.0));
    o.rebase_label.push_back(c.label);
  }
  const int rebased = static_cast<int>(o.rebase_x.size());
  // " (re-based at 2 live changes of the objective)"
  char rebase_note[96] = "";
  if (rebased > 0)
    std::snprintf(rebase_note, sizeof rebase_note, " (re-based at %d live change%s of the objective)", rebased,
                  rebased == 1 ? "" : "s");
  const auto at = [&](size_t t, int metric) {
    const std::vector<double>& row = history[t];
    return static_cast<size_t>(metric) < row.size() ? row[static_cast<size_t>(metric)]
                                                    : std::numeric_limits<double>::quiet_NaN();
  };
  const size_t steps = history.empty() ? 0 : history.size() - 1;
  const auto mark = [&](double x, double y, int iteration) {
    if (o.first_violation < 0) o.first_violation = iteration;
    ++o.violations;
    o.bad_x.push_back(x);
    o.bad_y.push_back(y);
  };
  switch (static_cast<Completion::Method>(method)) {
    case Completion::Method::SvdImpute: {
      if (eta > 1.0) {
        std::snprintf(line, sizeof line,
                      "oracle: eta = %.3g > 1, so the observed loss may rise (the guarantee needs eta <= 1)", eta);
        o.text = line;
        return o;
      }
      o.applies = true;
      for (size_t t = 1; t <= steps; ++t) {
        if (changed_before[t] || changed_mid[t]) continue;
        const double a = at(t - 1, Completion::kMetricObservedLoss), b = at(t, Completion::kMetricObservedLoss);
        if (rises(a, b)) mark(static_cast<double>(t), b, static_cast<int>(t));
      }
      if (o.violations == 0)
        std::snprintf(line, sizeof line, "oracle (eta <= 1): the observed loss never rose - holds over %zu steps%s",
                      steps, rebase_note);
      else
        std::snprintf(line, sizeof line, "oracle (eta <= 1): the observed loss ROSE at %d steps (first: iteration %d)%s",
                      o.violations, o.first_violation, rebase_note);
      break;
    }
    case Completion::Method::Als: {
      o.applies = true;
      for (size_t t = 1; t <= steps; ++t) {
        const double prev = at(t - 1, Completion::kMetricObjective), half = at(t, Completion::kMetricHalfObjective),
                     full = at(t, Completion::kMetricObjective);
        if (std::isfinite(half)) {
          if (!changed_before[t] && rises(prev, half)) mark(static_cast<double>(t) - 0.5, half, static_cast<int>(t));
          if (!changed_mid[t] && rises(half, full)) mark(static_cast<double>(t), full, static_cast<int>(t));
        } else if (!changed_before[t] && !changed_mid[t] && rises(prev, full)) {
          mark(static_cast<double>(t), full, static_cast<int>(t));
        }
      }
      if (o.violations == 0)
        std::snprintf(line, sizeof line,
                      "oracle: l(U, V) never rose after a half-step - holds over %zu steps (%zu half-steps)%s", steps,
                      2 * steps, rebase_note);
      else
        std::snprintf(line, sizeof line, "oracle: l(U, V) ROSE after %d half-steps (first: iteration %d)%s",
                      o.violations, o.first_violation, rebase_note);
      break;
    }
    case Completion::Method::Svt: {
      o.applies = true;
      if (y_support == train) {
        std::snprintf(line, sizeof line, "oracle: Y_t stored on Omega: |Omega| = %zu values - holds", y_support);
      } else {
        o.violations = 1;
        o.first_violation = steps > 0 ? static_cast<int>(steps) : 0;
        std::snprintf(line, sizeof line, "oracle: Y_t has %zu stored values but |Omega| = %zu - VIOLATED", y_support,
                      train);
      }
      break;
    }
    case Completion::Method::Sgd:
      std::snprintf(line, sizeof line, "sgd: no monotone oracle (each step sees one mini-batch); watch test_rmse");
      break;
  }
  o.text = line;
  return o;
}

}  // namespace cilab
