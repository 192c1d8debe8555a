// gan_optimal.h - the optimal discriminator and the Jensen-Shannon identity on 1-D densities
// (course catalogue 17.2; issue 13, "Optimal discriminator (1-D)"). Pure numerics, no ImGui: the
// gan view's "Optimal discriminator" tab (views/generative/gan_optimal_tab.h) draws what this computes.
//
// Densities. p_data and p_g are both `Mixture1d`s: weighted sums of 1-D Gaussians (the tab uses
// one or two components for p_data and one for p_g; the numerics take any count). Weights are
// positive and normalised by their sum.
//
// Goodfellow et al. (2014), for a fixed generator G with density p_g:
//   V(D, G) = E_{x~p_data}[log D(x)] + E_{x~p_g}[log(1 - D(x))]
// is maximised pointwise by D*(x) = p_data(x) / (p_data(x) + p_g(x)), and
//   V(D*, G) = 2 JS(p_data || p_g) - log 4,
//   JS(P || Q) = 1/2 KL(P || M) + 1/2 KL(Q || M),  M = (P + Q) / 2,  JS in [0, log 2].
// D* is computed in log space, D* = sigmoid(log p_data - log p_g), so it never divides 0 by 0 where
// both densities underflow; only where both log densities are -inf (or equal) is it 1/2.
//
// Quadrature. Every expectation is a composite Gauss-Legendre rule (16 nodes per panel) over
// [min_i(mean_i - 10 sd_i), max_i(mean_i + 10 sd_i)] taken over the components of both densities,
// with panels no wider than a quarter of the smallest sd (at least 64, at most kMaxPanels). The
// mass outside is below 1e-22 and the rule is exact to ~1e-14 on these smooth integrands. The log
// terms use the log densities and softplus, so nothing overflows or gives 0 * log 0 where a density
// underflows: log D* = -softplus(log p_g - log p_data),
// log(1 - D*) = -softplus(log p_data - log p_g).
//
// The trainable discriminator (the catalogue's derived oracle) is a logistic regression on
// (1, x, x^2): D(x) = sigmoid(a + b x + c x^2). log p_data - log p_g is quadratic in x for two
// Gaussians, so this family holds D* exactly (`exact_quadratic_logistic`). It is trained with G
// fixed by `ascend_discriminator`: V is concave in theta = (a, b, c) and its Hessian
// -E_{(p+q)}[sigmoid'(f) phi phi^T] is bounded below by -M,
// M = 1/4 sum_i w_i (p_i + q_i) phi_i phi_i^T (sigmoid' <= 1/4). The step theta += lr M^-1 grad V
// is gradient ascent preconditioned by that fixed bound (Boehning and Lindsay 1988, the quadratic
// lower bound of logistic regression): with lr = 1 it is a minorise-maximise step, so V never
// decreases, it is invariant to the scale of x, and it reaches D* for the default densities within
// a few hundred steps from a = b = c = 0, slowly enough to watch. `newton_ascend_discriminator`
// (exact Hessian, step halving) is the fast option.
#pragma once

#include <functional>
#include <vector>

namespace cilab {

// One Gaussian of a mixture: weight (> 0, normalised with the others), mean, sd (> 0).
struct GaussianComponent {
  double weight = 1.0;
  double mean = 0.0;
  double sd = 1.0;
};

// A 1-D Gaussian mixture density (at least one component).
struct Mixture1d {
  std::vector<GaussianComponent> components = std::vector<GaussianComponent>(1);
};

// A single Gaussian N(mean, sd^2) as a mixture.
Mixture1d gaussian_density(double mean, double sd);

// The lesson's starting densities (the tab's defaults): p_data = N(0, 1), p_g = N(2, 1.5^2). p_g is
// wider, so D* falls towards 0 on both sides: the logit's x^2 term is visible.
Mixture1d default_data_density();
Mixture1d default_gen_density();

// Throws std::invalid_argument naming `name` (e.g. "p_data") and the offending component when the
// mixture is empty or a weight is not > 0, a mean not finite, or an sd not finite and > 0.
void validate_density(const Mixture1d& m, const char* name);

// log p(x) of a validated mixture (log-sum-exp over the components; finite for finite x).
double log_pdf(const Mixture1d& m, double x);
// p(x) = exp(log_pdf(m, x)).
double pdf(const Mixture1d& m, double x);

// log p_data(x) - log p_g(x): the logit of D*. NaN-free: both -inf gives 0.
double optimal_logit(const Mixture1d& data, const Mixture1d& gen, double x);
// D*(x) = p_data / (p_data + p_g), in log space (0/0 -> 1/2).
double optimal_discriminator(const Mixture1d& data, const Mixture1d& gen, double x);

// log(1 + e^t), exact for every t (no overflow, no loss of the small tail).
double stable_softplus(double t);
// 1 / (1 + e^-t), exact for every t.
double stable_sigmoid(double t);

// Largest number of quadrature panels (bounds the cost for extreme sd ratios).
constexpr int kMaxPanels = 4096;
// Gauss-Legendre nodes per panel.
constexpr int kNodesPerPanel = 16;

// The nodes of the composite rule over the union of both supports, with both log densities there.
struct QuadratureGrid {
  double lo = 0.0, hi = 0.0;  // integration interval
  int panels = 0;             // panels of kNodesPerPanel nodes
  std::vector<double> x;      // nodes
  std::vector<double> w;      // weights (sum = hi - lo)
  std::vector<double> log_p;  // log p_data(x)
  std::vector<double> log_q;  // log p_g(x)
};

// Builds the grid for (data, gen); validates both densities (errors name p_data or p_g).
QuadratureGrid make_quadrature_grid(const Mixture1d& data, const Mixture1d& gen);

// Integral of p_data (which = 0) or p_g (which = 1) on the grid: 1 up to truncation and rounding.
double grid_mass(const QuadratureGrid& g, int which);

// V(D, G) for a discriminator given by its logit f(x) = log(D / (1 - D)): log D = -softplus(-f),
// log(1 - D) = -softplus(f) stay finite where D rounds to 0 or 1.
double gan_value_logit(const QuadratureGrid& g, const std::function<double(double)>& logit);
// V(D, G) for a discriminator given as a probability D(x) in [0, 1]. A term whose density is 0 at a
// node counts 0; D = 0 where p_data > 0 (or D = 1 where p_g > 0) gives -inf, as the definition.
double gan_value(const QuadratureGrid& g, const std::function<double(double)>& d);
// V(D*, G), from the log densities at the nodes (no callable).
double gan_value_optimal(const QuadratureGrid& g);
// KL(p_data || p_g) = E_pdata[log p_data - log p_g].
double kl_data_gen(const QuadratureGrid& g);
// KL(p_g || p_data).
double kl_gen_data(const QuadratureGrid& g);
// JS(p_data || p_g) = 1/2 KL(P || M) + 1/2 KL(Q || M) with log M = logaddexp(log p, log q) - log 2.
double js_divergence(const QuadratureGrid& g);

// Everything the tab reads out, from one grid.
struct DivergenceReport {
  double v_optimal = 0.0;    // V(D*, G)
  double js = 0.0;           // JS(p_data || p_g), nats
  double identity = 0.0;     // 2 JS - log 4 (equals v_optimal)
  double kl_data_gen = 0.0;  // KL(p_data || p_g)
  double kl_gen_data = 0.0;  // KL(p_g || p_data)
};
// The report of a grid.
DivergenceReport divergences(const QuadratureGrid& g);

// D(x) = sigmoid(a + b x + c x^2); degree 1 keeps c = 0 (a linear logistic discriminator: the
// "capacity" choice), degree 2 is the full quadratic family.
struct QuadraticLogistic {
  double a = 0.0, b = 0.0, c = 0.0;
  int degree = 2;
  // a + b x + c x^2.
  double logit(double x) const { return a + x * (b + c * x); }
  // D(x).
  double operator()(double x) const { return stable_sigmoid(logit(x)); }
};

// The parameters that make D = D* exactly when data and gen are single Gaussians N(m1, s1^2) and
// N(m2, s2^2): c = 1/(2 s2^2) - 1/(2 s1^2), b = m1/s1^2 - m2/s2^2,
// a = log(s2/s1) - m1^2/(2 s1^2) + m2^2/(2 s2^2). Throws std::invalid_argument otherwise.
QuadraticLogistic exact_quadratic_logistic(const Mixture1d& data, const Mixture1d& gen);

// V(D, G) of the logistic discriminator.
double gan_value(const QuadratureGrid& g, const QuadraticLogistic& d);
// max |D(x) - D*(x)| over the grid's nodes where the mixture (p_data + p_g) / 2 is at least
// mass_floor times its largest value on the grid (0: every node; the far tails, which carry no
// mass and so do not affect V, are where a trained D is slowest to follow D*).
double max_gap_to_optimal(const QuadratureGrid& g, const QuadraticLogistic& d,
                          double mass_floor = 0.0);

// Default step size of ascend_discriminator (1: the minorise-maximise step).
constexpr double kDefaultAscentRate = 1.0;

// What one ascent step saw.
struct AscentStep {
  double value_before = 0.0;  // V(D, G) at the parameters the step started from
  double grad_norm = 0.0;     // |grad V| (Euclidean, in (a, b, c)) there
};

// One step of preconditioned gradient ascent on V with G fixed (quadrature expectations, so
// deterministic): theta += lr M^-1 grad V (see the header comment). Any lr in (0, 2) never
// decreases V (V gains at least lr (1 - lr/2) grad^T M^-1 grad); 1 is the largest sure gain.
// Throws std::invalid_argument for lr outside (0, 2) or a degree other than 1 or 2.
AscentStep ascend_discriminator(const QuadratureGrid& g, QuadraticLogistic& d,
                                double lr = kDefaultAscentRate);

// One damped Newton step on V with G fixed: theta -= H^-1 grad V with the exact Hessian
// H = -E_{(p+q)}[sigmoid'(f) phi phi^T], halved (at most 40 times) until V does not decrease. It
// reaches D* to 1e-9 in about ten steps where the bound step needs hundreds (D* near 0 or 1 over
// the mass, where sigmoid' is far below its bound 1/4). Throws as ascend_discriminator for a bad
// degree.
AscentStep newton_ascend_discriminator(const QuadratureGrid& g, QuadraticLogistic& d);

}  // namespace cilab
