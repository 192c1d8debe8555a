#include "algorithms/generative/gan_optimal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cilab {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLog2 = 0.69314718055994530942;
constexpr double kTailSds = 10.0;     // integration interval: every component's mean +- 10 sd
constexpr double kPanelsPerSd = 4.0;  // panel width <= smallest sd / 4
constexpr int kMinPanels = 64;

// Gauss-Legendre nodes and weights on [-1, 1] (Newton on the Legendre recurrence).
void gauss_legendre(int n, double* nodes, double* weights) {
  for (int i = 0; i < (n + 1) / 2; ++i) {
    double z = std::cos(kPi * (i + 0.75) / (n + 0.5));
    double dp = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p1 = 1.0, p2 = 0.0;
      for (int j = 1; j <= n; ++j) {
        const double p3 = p2;
        p2 = p1;
        p1 = ((2.0 * j - 1.0) * z * p2 - (j - 1.0) * p3) / j;
      }
      dp = n * (z * p1 - p2) / (z * z - 1.0);
      const double z_old = z;
      z = z_old - p1 / dp;
      if (std::abs(z - z_old) < 1e-16) break;
    }
    nodes[i] = -z;
    nodes[n - 1 - i] = z;
    weights[i] = weights[n - 1 - i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

// log(e^a + e^b), exact where either is -inf.
double log_add_exp(double a, double b) {
  const double m = std::max(a, b);
  if (m == -std::numeric_limits<double>::infinity()) return m;
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

double weight_sum(const Mixture1d& m) {
  double s = 0.0;
  for (const GaussianComponent& c : m.components) s += c.weight;
  return s;
}

}  // namespace

Mixture1d gaussian_density(double mean, double sd) {
  Mixture1d m;
  m.components = {GaussianComponent{1.0, mean, sd}};
  return m;
}

Mixture1d default_data_density() { return gaussian_density(0.0, 1.0); }

Mixture1d default_gen_density() { return gaussian_density(2.0, 1.5); }

void validate_density(const Mixture1d& m, const char* name) {
  if (m.components.empty())
    throw std::invalid_argument(std::string(name) +
                                ": the density has no component; give it at least one Gaussian");
  for (size_t i = 0; i < m.components.size(); ++i) {
    const GaussianComponent& c = m.components[i];
    const std::string which = std::string(name) + " component " + std::to_string(i + 1) + ": ";
    if (!(c.weight > 0.0) || !std::isfinite(c.weight))
      throw std::invalid_argument(which + "weight = " + std::to_string(c.weight) +
                                  " must be finite and > 0 (drop the component instead)");
    if (!std::isfinite(c.mean)) throw std::invalid_argument(which + "mean must be finite");
    if (!(c.sd > 0.0) || !std::isfinite(c.sd))
      throw std::invalid_argument(which + "sd = " + std::to_string(c.sd) +
                                  " must be finite and > 0");
  }
}

double log_pdf(const Mixture1d& m, double x) {
  const double log_norm = std::log(weight_sum(m)) + 0.5 * std::log(2.0 * kPi);
  double acc = -std::numeric_limits<double>::infinity();
  for (const GaussianComponent& c : m.components) {
    const double z = (x - c.mean) / c.sd;
    acc = log_add_exp(acc, std::log(c.weight) - std::log(c.sd) - 0.5 * z * z);
  }
  return acc - log_norm;
}

double pdf(const Mixture1d& m, double x) { return std::exp(log_pdf(m, x)); }

double optimal_logit(const Mixture1d& data, const Mixture1d& gen, double x) {
  const double lp = log_pdf(data, x), lq = log_pdf(gen, x);
  return lp == lq ? 0.0 : lp - lq;
}

double optimal_discriminator(const Mixture1d& data, const Mixture1d& gen, double x) {
  return stable_sigmoid(optimal_logit(data, gen, x));
}

double stable_softplus(double t) {
  return t > 0.0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t));
}

double stable_sigmoid(double t) {
  if (t >= 0.0) return 1.0 / (1.0 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1.0 + e);
}

QuadratureGrid make_quadrature_grid(const Mixture1d& data, const Mixture1d& gen) {
  validate_density(data, "p_data");
  validate_density(gen, "p_g");
  QuadratureGrid g;
  g.lo = std::numeric_limits<double>::infinity();
  g.hi = -g.lo;
  double min_sd = g.lo;
  for (const Mixture1d* m : {&data, &gen}) {
    for (const GaussianComponent& c : m->components) {
      g.lo = std::min(g.lo, c.mean - kTailSds * c.sd);
      g.hi = std::max(g.hi, c.mean + kTailSds * c.sd);
      min_sd = std::min(min_sd, c.sd);
    }
  }
  const double want = std::ceil((g.hi - g.lo) * kPanelsPerSd / min_sd);
  g.panels = static_cast<int>(
      std::clamp(want, static_cast<double>(kMinPanels), static_cast<double>(kMaxPanels)));
  double nodes[kNodesPerPanel], weights[kNodesPerPanel];
  gauss_legendre(kNodesPerPanel, nodes, weights);
  const size_t n = static_cast<size_t>(g.panels) * kNodesPerPanel;
  g.x.resize(n);
  g.w.resize(n);
  g.log_p.resize(n);
  g.log_q.resize(n);
  const double h = (g.hi - g.lo) / g.panels;
  for (int p = 0; p < g.panels; ++p) {
    const double mid = g.lo + (p + 0.5) * h;
    for (int k = 0; k < kNodesPerPanel; ++k) {
      const size_t i = static_cast<size_t>(p) * kNodesPerPanel + k;
      g.x[i] = mid + 0.5 * h * nodes[k];
      g.w[i] = 0.5 * h * weights[k];
      g.log_p[i] = log_pdf(data, g.x[i]);
      g.log_q[i] = log_pdf(gen, g.x[i]);
    }
  }
  return g;
}

double grid_mass(const QuadratureGrid& g, int which) {
  const std::vector<double>& l = which == 0 ? g.log_p : g.log_q;
  double s = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) s += g.w[i] * std::exp(l[i]);
  return s;
}

double gan_value_logit(const QuadratureGrid& g, const std::function<double(double)>& logit) {
  double v = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) {
    const double f = logit(g.x[i]);
    const double p = std::exp(g.log_p[i]), q = std::exp(g.log_q[i]);
    if (p > 0.0) v -= g.w[i] * p * stable_softplus(-f);
    if (q > 0.0) v -= g.w[i] * q * stable_softplus(f);
  }
  return v;
}

double gan_value(const QuadratureGrid& g, const std::function<double(double)>& d) {
  double v = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) {
    const double di = d(g.x[i]);
    const double p = std::exp(g.log_p[i]), q = std::exp(g.log_q[i]);
    if (p > 0.0) v += g.w[i] * p * std::log(di);
    if (q > 0.0) v += g.w[i] * q * std::log1p(-di);
  }
  return v;
}

double gan_value_optimal(const QuadratureGrid& g) {
  double v = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) {
    const double r = g.log_p[i] == g.log_q[i] ? 0.0 : g.log_p[i] - g.log_q[i];  // logit of D*
    const double p = std::exp(g.log_p[i]), q = std::exp(g.log_q[i]);
    if (p > 0.0) v -= g.w[i] * p * stable_softplus(-r);  // log D* = -softplus(-r)
    if (q > 0.0) v -= g.w[i] * q * stable_softplus(r);   // log(1 - D*) = -softplus(r)
  }
  return v;
}

namespace {

// Node i's term of KL(A || B) = E_A[log A - log B]: w_i a_i (log a_i - log b_i),
// 0 where a_i underflows to 0 (no 0 * log 0).
double kl_term(const QuadratureGrid& g, size_t i, double log_a, double log_b) {
  const double a = std::exp(log_a);
  return a > 0.0 ? g.w[i] * a * (log_a - log_b) : 0.0;
}

}  // namespace

double kl_data_gen(const QuadratureGrid& g) {
  double s = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) s += kl_term(g, i, g.log_p[i], g.log_q[i]);
  return s;
}

double kl_gen_data(const QuadratureGrid& g) {
  double s = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) s += kl_term(g, i, g.log_q[i], g.log_p[i]);
  return s;
}

double js_divergence(const QuadratureGrid& g) {
  double s = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) {
    const double log_m = log_add_exp(g.log_p[i], g.log_q[i]) - kLog2;
    s += kl_term(g, i, g.log_p[i], log_m);
    s += kl_term(g, i, g.log_q[i], log_m);
  }
  return 0.5 * s;
}

DivergenceReport divergences(const QuadratureGrid& g) {
  DivergenceReport r;
  r.v_optimal = gan_value_optimal(g);
  r.js = js_divergence(g);
  r.identity = 2.0 * r.js - 2.0 * kLog2;
  r.kl_data_gen = kl_data_gen(g);
  r.kl_gen_data = kl_gen_data(g);
  return r;
}

QuadraticLogistic exact_quadratic_logistic(const Mixture1d& data, const Mixture1d& gen) {
  validate_density(data, "p_data");
  validate_density(gen, "p_g");
  if (data.components.size() != 1 || gen.components.size() != 1)
    throw std::invalid_argument(
        "exact_quadratic_logistic: p_data and p_g must be single Gaussians (a mixture's log ratio "
        "is not quadratic)");
  const double m1 = data.components[0].mean, s1 = data.components[0].sd;
  const double m2 = gen.components[0].mean, s2 = gen.components[0].sd;
  QuadraticLogistic d;
  d.c = 1.0 / (2.0 * s2 * s2) - 1.0 / (2.0 * s1 * s1);
  d.b = m1 / (s1 * s1) - m2 / (s2 * s2);
  d.a = std::log(s2 / s1) - m1 * m1 / (2.0 * s1 * s1) + m2 * m2 / (2.0 * s2 * s2);
  return d;
}

double gan_value(const QuadratureGrid& g, const QuadraticLogistic& d) {
  return gan_value_logit(g, [&d](double x) { return d.logit(x); });
}

double max_gap_to_optimal(const QuadratureGrid& g, const QuadraticLogistic& d, double mass_floor) {
  double log_peak = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < g.x.size(); ++i)
    log_peak = std::max(log_peak, log_add_exp(g.log_p[i], g.log_q[i]));
  const double log_floor =
      mass_floor > 0.0 ? log_peak + std::log(mass_floor) : -std::numeric_limits<double>::infinity();
  double gap = 0.0;
  for (size_t i = 0; i < g.x.size(); ++i) {
    if (mass_floor > 0.0 && log_add_exp(g.log_p[i], g.log_q[i]) < log_floor) continue;
    const double r = g.log_p[i] == g.log_q[i] ? 0.0 : g.log_p[i] - g.log_q[i];
    gap = std::max(gap, std::abs(d(g.x[i]) - stable_sigmoid(r)));
  }
  return gap;
}

namespace {

void check_degree(const QuadraticLogistic& d, const char* who) {
  if (d.degree != 1 && d.degree != 2)
    throw std::invalid_argument(std::string(who) + ": degree = " + std::to_string(d.degree) +
                                " must be 1 (linear logit) or 2 (quadratic logit)");
}

// V, grad V and a curvature matrix (the fixed bound M, or minus the exact Hessian) at d, over the
// first k = degree + 1 features (1, x, x^2).
struct Local {
  int k = 3;
  double value = 0.0;
  double grad[3] = {0.0, 0.0, 0.0};
  double curvature[3][3] = {};  // lower triangle
  double grad_norm() const {
    return std::sqrt(grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
  }
};

Local local_model(const QuadratureGrid& g, const QuadraticLogistic& d, bool exact_hessian) {
  Local l;
  l.k = d.degree + 1;
  for (size_t i = 0; i < g.x.size(); ++i) {
    const double x = g.x[i], f = d.logit(x);
    const double p = std::exp(g.log_p[i]), q = std::exp(g.log_q[i]);
    if (p > 0.0) l.value -= g.w[i] * p * stable_softplus(-f);
    if (q > 0.0) l.value -= g.w[i] * q * stable_softplus(f);
    const double s_pos = stable_sigmoid(f), s_neg = stable_sigmoid(-f);
    // dV/df = p (1 - D) - q D; d2V/df2 = -(p + q) D (1 - D) >= -(p + q) / 4.
    const double dvdf = g.w[i] * (p * s_neg - q * s_pos);
    const double curv = g.w[i] * (p + q) * (exact_hessian ? s_pos * s_neg : 0.25);
    const double phi[3] = {1.0, x, x * x};
    for (int r = 0; r < l.k; ++r) {
      l.grad[r] += dvdf * phi[r];
      for (int c = 0; c <= r; ++c) l.curvature[r][c] += curv * phi[r] * phi[c];
    }
  }
  return l;
}

// The ascent direction curvature^-1 grad by Cholesky (k <= 3); false if the curvature is not
// positive definite (no mass on the grid) or the result not finite.
bool ascent_direction(const Local& l, double delta[3]) {
  const int k = l.k;
  double chol[3][3] = {};
  for (int r = 0; r < k; ++r) {
    for (int c = 0; c <= r; ++c) {
      double s = l.curvature[r][c];
      for (int j = 0; j < c; ++j) s -= chol[r][j] * chol[c][j];
      if (r == c) {
        if (!(s > 0.0)) return false;
        chol[r][r] = std::sqrt(s);
      } else {
        chol[r][c] = s / chol[c][c];
      }
    }
  }
  double y[3] = {0.0, 0.0, 0.0};
  for (int r = 0; r < k; ++r) {
    double s = l.grad[r];
    for (int j = 0; j < r; ++j) s -= chol[r][j] * y[j];
    y[r] = s / chol[r][r];
  }
  delta[0] = delta[1] = delta[2] = 0.0;
  for (int r = k - 1; r >= 0; --r) {
    double s = y[r];
    for (int j = r + 1; j < k; ++j) s -= chol[j][r] * delta[j];
    delta[r] = s / chol[r][r];
  }
  return std::isfinite(delta[0]) && std::isfinite(delta[1]) && std::isfinite(delta[2]);
}

QuadraticLogistic moved(const QuadraticLogistic& d, const double delta[3], double t) {
  QuadraticLogistic e = d;
  e.a += t * delta[0];
  e.b += t * delta[1];
  if (d.degree == 2) e.c += t * delta[2];
  return e;
}

}  // namespace

AscentStep ascend_discriminator(const QuadratureGrid& g, QuadraticLogistic& d, double lr) {
  if (!(lr > 0.0 && lr < 2.0))
    throw std::invalid_argument("ascend_discriminator: lr = " + std::to_string(lr) +
                                " must be in (0, 2); 1 is the minorise-maximise step");
  check_degree(d, "ascend_discriminator");
  if (d.degree == 1) d.c = 0.0;
  const Local l = local_model(g, d, false);
  const AscentStep out{l.value, l.grad_norm()};
  double delta[3];
  if (ascent_direction(l, delta))
    d = moved(d, delta, lr);  // else no mass on the grid: nothing to learn
  return out;
}

AscentStep newton_ascend_discriminator(const QuadratureGrid& g, QuadraticLogistic& d) {
  check_degree(d, "newton_ascend_discriminator");
  if (d.degree == 1) d.c = 0.0;
  const Local l = local_model(g, d, true);
  const AscentStep out{l.value, l.grad_norm()};
  double delta[3];
  if (!ascent_direction(l, delta)) return out;
  // Predicted gain grad . delta below rounding of V: at the optimum, nothing to halve.
  const double gain = l.grad[0] * delta[0] + l.grad[1] * delta[1] + l.grad[2] * delta[2];
  if (!(gain > 1e-15 * (1.0 + std::abs(l.value)))) return out;
  double t = 1.0;
  for (int halvings = 0; halvings <= 40; ++halvings, t *= 0.5) {
    const QuadraticLogistic e = moved(d, delta, t);
    if (gan_value(g, e) >= l.value) {
      d = e;
      break;
    }
  }
  return out;
}

}  // namespace cilab
