// Landscape: an immutable 2-D loss surface f(x, y) with its gradient, the
// problems the optimizer race runs on (course chapter 10).
//
// Analytic functions (exact gradients; minima listed where known):
//   quadratic   f = 1/2 (p - c)^T H (p - c),  H = R(angle) diag(kappa, 1) R(angle)^T,
//               c = (0, 0): L = kappa, mu = 1, condition number kappa
//   rosenbrock  f = (1 - x)^2 + 100 (y - x^2)^2                min (1, 1)
//   himmelblau  f = (x^2 + y - 11)^2 + (x + y^2 - 7)^2         four minima, f = 0
//   beale       f = (1.5 - x + xy)^2 + (2.25 - x + xy^2)^2 + (2.625 - x + xy^3)^2   min (3, 0.5)
//   saddle      f = x^2 - y^2 + y^4 / 4   (saddle at 0, minima at (0, +-sqrt 2), f = -1)
//   many_minima f = (x^2 + y^2) / 4 + (2 - cos(2 pi x) - cos(2 pi y)) / 2
//               (Rastrigin-like bowl with ripples: a local minimum near every
//               integer point of the window, global min (0, 0), f = 0)
//   custom      user f(x, y) in muParser syntax; gradient by central differences
//               (h = 1e-6 max(1, |x|)), numeric_gradient() = true.
// Finite-sum problems on real data (FiniteSumLandscape; f = mean of n per-sample losses):
//   least_squares  Old Faithful (eruptions -> waiting), standardised or raw:
//                  f(a, b) = (1/n) sum_i (a x_i + b - y_i)^2   (MSE; params slope a, intercept b)
//   logistic       iris versicolor (0) vs virginica (1), standardised petal length
//                  and petal width, no bias: f(w1, w2) = (1/n) sum_i BCE(sigmoid(w . x_i), y_i)
//
// Thread safety: all members are const and have no mutable state, so the UI
// thread may evaluate value()/gradient() while the module steps on another
// thread. The custom function keeps one muParser per thread (thread_local
// cache keyed by the landscape's id): parsers are not shared across threads.
#pragma once

#include <Eigen/Core>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

enum class LandscapeKind {
  Quadratic = 0, Rosenbrock, Himmelblau, Beale, Saddle, ManyMinima, Custom, LeastSquares, Logistic
};
constexpr int kNumLandscapeKinds = 9;

// "quadratic","rosenbrock","himmelblau","beale","saddle","many_minima","custom","least_squares","logistic".
const char* landscape_name(LandscapeKind kind);

class Landscape {
 public:
  virtual ~Landscape() = default;
  virtual LandscapeKind kind() const = 0;
  // Short name (landscape_name(kind())).
  virtual std::string name() const = 0;
  // Human-readable formula, e.g. "(1 - x)^2 + 100 (y - x^2)^2".
  virtual std::string formula() const = 0;
  virtual double value(double x, double y) const = 0;
  virtual Eigen::Vector2d gradient(double x, double y) const = 0;
  // True when gradient() is by central differences (user-typed f).
  virtual bool numeric_gradient() const { return false; }
  // A good plotting window: xmin, xmax, ymin, ymax.
  virtual std::array<double, 4> view_bounds() const = 0;
  // Known minimisers (global first; may be empty).
  virtual std::vector<Eigen::Vector2d> minima() const { return {}; }
  // The minimum value f* when known (NaN otherwise).
  virtual double min_value() const;
  // Axis labels ("x","y"; "slope a","intercept b"; "w1","w2").
  virtual std::string x_label() const { return "x"; }
  virtual std::string y_label() const { return "y"; }
  // Suggests log-spaced contour levels (steep functions such as Rosenbrock).
  virtual bool log_contours() const { return false; }
  // For quadratics (quadratic, least_squares): the constant Hessian; false otherwise.
  virtual bool constant_hessian(Eigen::Matrix2d* h) const {
    (void)h;
    return false;
  }
  // True for FiniteSumLandscape.
  virtual bool finite_sum() const { return false; }

  double value(const Eigen::Vector2d& p) const { return value(p.x(), p.y()); }
  Eigen::Vector2d gradient(const Eigen::Vector2d& p) const { return gradient(p.x(), p.y()); }
};

// A loss that is a mean over n samples: mini-batch gradients for SGD. The
// full-batch value()/gradient() are the batch versions over all rows 0..n-1.
class FiniteSumLandscape : public Landscape {
 public:
  bool finite_sum() const override { return true; }
  virtual int num_samples() const = 0;
  // Mean per-sample loss / gradient over rows idx[0..count). Rows are summed in
  // increasing index order whatever the order of idx (so a batch of all n rows
  // gives gradient() bit for bit).
  virtual double batch_value(double x, double y, const int* idx, int count) const = 0;
  virtual Eigen::Vector2d batch_gradient(double x, double y, const int* idx, int count) const = 0;
  // The data the view may show: n x 2 (least squares: column 0 = input x_i,
  // column 1 = target y_i; logistic: the two standardised features).
  virtual const Eigen::MatrixXd& points() const = 0;
  // Logistic: labels 0/1 per row; empty for least squares.
  virtual const std::vector<int>& labels() const = 0;
  // "Old Faithful (n = 272), standardised" etc.
  virtual std::string data_description() const = 0;
};

struct LandscapeConfig {
  LandscapeKind kind = LandscapeKind::Rosenbrock;
  double kappa = 10.0;      // quadratic: condition number L / mu
  double angle = 30.0;      // quadratic: rotation of the eigenbasis, degrees
  std::string expr;         // custom: f(x, y) in muParser syntax
  bool standardize = true;  // least_squares: standardise x and y (false: raw units)
};

// Builds a landscape. Throws std::invalid_argument for bad settings, e.g. for a
// bad expression: "parameter 'expr': <muparser message> at position N in
// '<expr>'; example: x^2 + 3*y^2".
std::shared_ptr<const Landscape> make_landscape(const LandscapeConfig& config);

// Central-difference gradient of any landscape's value() (tests, custom f).
Eigen::Vector2d central_difference_gradient(const Landscape& f, double x, double y);

}  // namespace cilab
