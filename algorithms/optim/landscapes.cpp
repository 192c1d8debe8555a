// The analytic 2-D test functions and the user-typed f(x, y) (landscape.h).
//
// Custom f(x, y): parsed by muParser (Debian libmuparser-dev) with variables
// x and y. The expression is checked once in make_landscape (errors become
// std::invalid_argument naming the parameter 'expr', muParser's message and
// the position). Evaluation uses one parser per thread and expression
// (thread_local cache, at most kMaxParsers per thread, cleared when full), so
// value() is const, lock-free and safe from the UI thread while the module
// steps on the runner thread. Gradients: central differences,
// h = 6e-6 max(1, |coordinate|) (about eps^(1/3), the optimal step for a
// second-order difference in double).
#include "algorithms/optim/finite_sum.h"
#include "algorithms/optim/landscape.h"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

// No fused multiply-add contraction (-march=native would allow it): every
// operation rounds separately, like torch's CPU kernels and Python floats, so
// trajectories agree with torch.optim to the last bit or nearly (bench/).
#pragma GCC optimize("fp-contract=off")

namespace cilab {

namespace {

constexpr double kPi = 3.14159265358979323846;
const char* const kNames[kNumLandscapeKinds] = {"quadratic",  "rosenbrock", "himmelblau",
                                                "beale",      "saddle",     "many_minima",
                                                "custom",     "least_squares", "logistic"};

class Quadratic final : public Landscape {
 public:
  Quadratic(double kappa, double angle_deg) : kappa_(kappa), angle_(angle_deg) {
    const double a = angle_deg * kPi / 180.0;
    Eigen::Matrix2d r;
    r << std::cos(a), -std::sin(a), std::sin(a), std::cos(a);
    const Eigen::Vector2d d(kappa, 1.0);
    h_ = r * d.asDiagonal() * r.transpose();
    h_(1, 0) = h_(0, 1);  // exactly symmetric
  }
  LandscapeKind kind() const override { return LandscapeKind::Quadratic; }
  std::string name() const override { return "quadratic"; }
  std::string formula() const override {
    std::ostringstream os;
    os << "1/2 p^T H p,  H = R(" << angle_ << " deg) diag(" << kappa_ << ", 1) R^T";
    return os.str();
  }
  double value(double x, double y) const override {
    return 0.5 * (h_(0, 0) * x * x + 2.0 * h_(0, 1) * x * y + h_(1, 1) * y * y);
  }
  Eigen::Vector2d gradient(double x, double y) const override {
    return Eigen::Vector2d(h_(0, 0) * x + h_(0, 1) * y, h_(1, 0) * x + h_(1, 1) * y);
  }
  std::array<double, 4> view_bounds() const override { return {-3.0, 3.0, -3.0, 3.0}; }
  std::vector<Eigen::Vector2d> minima() const override { return {Eigen::Vector2d::Zero()}; }
  double min_value() const override { return 0.0; }
  bool constant_hessian(Eigen::Matrix2d* h) const override {
    if (h) *h = h_;
    return true;
  }

 private:
  double kappa_, angle_;
  Eigen::Matrix2d h_;
};

class Rosenbrock final : public Landscape {
 public:
  LandscapeKind kind() const override { return LandscapeKind::Rosenbrock; }
  std::string name() const override { return "rosenbrock"; }
  std::string formula() const override { return "(1 - x)^2 + 100 (y - x^2)^2"; }
  double value(double x, double y) const override {
    const double a = 1.0 - x, b = y - x * x;
    return a * a + 100.0 * b * b;
  }
  Eigen::Vector2d gradient(double x, double y) const override {
    const double b = y - x * x;
    return Eigen::Vector2d(-2.0 * (1.0 - x) - 400.0 * x * b, 200.0 * b);
  }
  std::array<double, 4> view_bounds() const override { return {-2.0, 2.0, -1.0, 3.0}; }
  std::vector<Eigen::Vector2d> minima() const override { return {Eigen::Vector2d(1.0, 1.0)}; }
  double min_value() const override { return 0.0; }
  bool log_contours() const override { return true; }
};

class Himmelblau final : public Landscape {
 public:
  LandscapeKind kind() const override { return LandscapeKind::Himmelblau; }
  std::string name() const override { return "himmelblau"; }
  std::string formula() const override { return "(x^2 + y - 11)^2 + (x + y^2 - 7)^2"; }
  double value(double x, double y) const override {
    const double u = x * x + y - 11.0, v = x + y * y - 7.0;
    return u * u + v * v;
  }
  Eigen::Vector2d gradient(double x, double y) const override {
    const double u = x * x + y - 11.0, v = x + y * y - 7.0;
    return Eigen::Vector2d(4.0 * x * u + 2.0 * v, 2.0 * u + 4.0 * y * v);
  }
  std::array<double, 4> view_bounds() const override { return {-5.0, 5.0, -5.0, 5.0}; }
  std::vector<Eigen::Vector2d> minima() const override {
    return {Eigen::Vector2d(3.0, 2.0), Eigen::Vector2d(-2.805118086952745, 3.131312518250573),
            Eigen::Vector2d(-3.779310253377747, -3.283185991286170),
            Eigen::Vector2d(3.584428340330492, -1.848126526964404)};
  }
  double min_value() const override { return 0.0; }
  bool log_contours() const override { return true; }
};

class Beale final : public Landscape {
 public:
  LandscapeKind kind() const override { return LandscapeKind::Beale; }
  std::string name() const override { return "beale"; }
  std::string formula() const override {
    return "(1.5 - x + xy)^2 + (2.25 - x + xy^2)^2 + (2.625 - x + xy^3)^2";
  }
  double value(double x, double y) const override {
    const double a = 1.5 - x + x * y, b = 2.25 - x + x * y * y, c = 2.625 - x + x * y * y * y;
    return a * a + b * b + c * c;
  }
  Eigen::Vector2d gradient(double x, double y) const override {
    const double y2 = y * y, y3 = y2 * y;
    const double a = 1.5 - x + x * y, b = 2.25 - x + x * y2, c = 2.625 - x + x * y3;
    return Eigen::Vector2d(2.0 * a * (y - 1.0) + 2.0 * b * (y2 - 1.0) + 2.0 * c * (y3 - 1.0),
                           2.0 * a * x + 4.0 * b * x * y + 6.0 * c * x * y2);
  }
  std::array<double, 4> view_bounds() const override { return {-4.5, 4.5, -4.5, 4.5}; }
  std::vector<Eigen::Vector2d> minima() const override { return {Eigen::Vector2d(3.0, 0.5)}; }
  double min_value() const override { return 0.0; }
  bool log_contours() const override { return true; }
};

class Saddle final : public Landscape {
 public:
  LandscapeKind kind() const override { return LandscapeKind::Saddle; }
  std::string name() const override { return "saddle"; }
  std::string formula() const override { return "x^2 - y^2 + y^4 / 4"; }
  double value(double x, double y) const override {
    const double y2 = y * y;
    return x * x - y2 + 0.25 * y2 * y2;
  }
  Eigen::Vector2d gradient(double x, double y) const override {
    return Eigen::Vector2d(2.0 * x, -2.0 * y + y * y * y);
  }
  std::array<double, 4> view_bounds() const override { return {-2.5, 2.5, -2.5, 2.5}; }
  std::vector<Eigen::Vector2d> minima() const override {
    return {Eigen::Vector2d(0.0, std::sqrt(2.0)), Eigen::Vector2d(0.0, -std::sqrt(2.0))};
  }
  double min_value() const override { return -1.0; }
};

class ManyMinima final : public Landscape {
 public:
  LandscapeKind kind() const override { return LandscapeKind::ManyMinima; }
  std::string name() const override { return "many_minima"; }
  std::string formula() const override {
    return "(x^2 + y^2) / 4 + (2 - cos(2 pi x) - cos(2 pi y)) / 2";
  }
  double value(double x, double y) const override {
    return 0.25 * (x * x + y * y) + 0.5 * (2.0 - std::cos(2.0 * kPi * x) - std::cos(2.0 * kPi * y));
  }
  Eigen::Vector2d gradient(double x, double y) const override {
    return Eigen::Vector2d(0.5 * x + kPi * std::sin(2.0 * kPi * x),
                           0.5 * y + kPi * std::sin(2.0 * kPi * y));
  }
  std::array<double, 4> view_bounds() const override { return {-3.5, 3.5, -3.5, 3.5}; }
  std::vector<Eigen::Vector2d> minima() const override { return {Eigen::Vector2d::Zero()}; }
  double min_value() const override { return 0.0; }
};

// One muParser bound to its own x, y (not movable: the parser keeps pointers).
struct ParserSlot {
  mu::Parser parser;
  double x = 0.0, y = 0.0;
  explicit ParserSlot(const std::string& expr) {
    parser.DefineVar("x", &x);
    parser.DefineVar("y", &y);
    parser.SetExpr(expr);
  }
};

constexpr size_t kMaxParsers = 32;

ParserSlot& thread_parser(const std::string& expr) {
  thread_local std::unordered_map<std::string, std::unique_ptr<ParserSlot>> cache;
  auto it = cache.find(expr);
  if (it != cache.end()) return *it->second;
  if (cache.size() >= kMaxParsers) cache.clear();
  std::unique_ptr<ParserSlot> slot = std::make_unique<ParserSlot>(expr);
  ParserSlot& ref = *slot;
  cache.emplace(expr, std::move(slot));
  return ref;
}

[[noreturn]] void expr_error(const std::string& expr, const std::string& msg, int pos) {
  std::string m = msg;
  while (!m.empty() && (m.back() == '.' || m.back() == ' ')) m.pop_back();
  if (m.find("position") == std::string::npos && pos >= 0)
    m += " at position " + std::to_string(pos);
  throw std::invalid_argument("parameter 'expr': " + m + " in '" + expr +
                              "'; example: x^2 + 3*y^2");
}

class Custom final : public Landscape {
 public:
  explicit Custom(std::string expr) : expr_(std::move(expr)) {
    bool blank = true;
    for (char c : expr_) blank = blank && std::isspace(static_cast<unsigned char>(c));
    if (blank) expr_error(expr_, "the expression is empty", -1);
    try {
      ParserSlot probe(expr_);
      probe.x = 0.5;
      probe.y = 0.25;
      (void)probe.parser.Eval();
    } catch (const mu::Parser::exception_type& e) {
      expr_error(expr_, e.GetMsg(), e.GetPos());
    }
  }
  LandscapeKind kind() const override { return LandscapeKind::Custom; }
  std::string name() const override { return "custom"; }
  std::string formula() const override { return expr_; }
  double value(double x, double y) const override {
    try {
      ParserSlot& s = thread_parser(expr_);
      s.x = x;
      s.y = y;
      return s.parser.Eval();
    } catch (const mu::Parser::exception_type&) {
      return std::numeric_limits<double>::quiet_NaN();
    }
  }
  Eigen::Vector2d gradient(double x, double y) const override { return central_difference_gradient(*this, x, y); }
  bool numeric_gradient() const override { return true; }
  std::array<double, 4> view_bounds() const override { return {-3.0, 3.0, -3.0, 3.0}; }

 private:
  std::string expr_;
};

}  // namespace

const char* landscape_name(LandscapeKind kind) { return kNames[static_cast<int>(kind)]; }

double Landscape::min_value() const { return std::numeric_limits<double>::quiet_NaN(); }

Eigen::Vector2d central_difference_gradient(const Landscape& f, double x, double y) {
  const double hx = 6e-6 * std::max(1.0, std::abs(x));
  const double hy = 6e-6 * std::max(1.0, std::abs(y));
  return Eigen::Vector2d((f.value(x + hx, y) - f.value(x - hx, y)) / (2.0 * hx),
                         (f.value(x, y + hy) - f.value(x, y - hy)) / (2.0 * hy));
}

std::shared_ptr<const Landscape> make_landscape(const LandscapeConfig& c) {
  switch (c.kind) {
    case LandscapeKind::Quadratic:
      if (!(c.kappa >= 1.0) || !std::isfinite(c.kappa))
        throw std::invalid_argument("parameter 'kappa': expected a condition number >= 1, got " +
                                    std::to_string(c.kappa) + "; try 10");
      if (!std::isfinite(c.angle))
        throw std::invalid_argument("parameter 'angle': expected a finite angle in degrees; try 30");
      return std::make_shared<Quadratic>(c.kappa, c.angle);
    case LandscapeKind::Rosenbrock: return std::make_shared<Rosenbrock>();
    case LandscapeKind::Himmelblau: return std::make_shared<Himmelblau>();
    case LandscapeKind::Beale: return std::make_shared<Beale>();
    case LandscapeKind::Saddle: return std::make_shared<Saddle>();
    case LandscapeKind::ManyMinima: return std::make_shared<ManyMinima>();
    case LandscapeKind::Custom: return std::make_shared<Custom>(c.expr);
    case LandscapeKind::LeastSquares: return make_least_squares_landscape(c.standardize);
    case LandscapeKind::Logistic: return make_logistic_landscape();
  }
  throw std::invalid_argument("unknown landscape kind " + std::to_string(static_cast<int>(c.kind)));
}

}  // namespace cilab
