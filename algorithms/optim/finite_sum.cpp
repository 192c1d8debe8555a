// Finite-sum problems on real data (landscape.h): the loss is a mean of n
// per-sample losses, so SGD's mini-batch gradients carry real sampling noise.
// The data are built in (below) or a loaded Dataset (optimizers data=loaded).
//
//   least_squares  Old Faithful (R datasets::faithful, n = 272): x_i = eruption
//                  duration, y_i = waiting time. Loss (MSE) over (slope a, intercept b):
//                    f(a, b) = (1/n) sum_i (a x_i + b - y_i)^2,
//                    grad f = (2/n) sum_i r_i (x_i, 1),  r_i = a x_i + b - y_i,
//                  a quadratic with constant Hessian H = (2/n) sum_i (x_i, 1)(x_i, 1)^T.
//                  standardize = true: x and y are z-scored (population std), so
//                  H = 2 I: a round bowl, optimum (corr(x, y), 0); false: raw
//                  units (minutes), an ill-conditioned valley (kappa ~ 200).
//   logistic       iris (Fisher) versicolor (y = 0) vs virginica (y = 1), n = 100,
//                  features petal length and width, z-scored; no bias:
//                    f(w) = (1/n) sum_i [softplus(w . x_i) - y_i w . x_i]  (mean BCE),
//                    grad f = (1/n) sum_i (sigmoid(w . x_i) - y_i) x_i.
//                  The classes overlap, so the minimiser is finite; it is found
//                  once by Newton's method and shown as the optimum.
// Loaded data (make_*_landscape(const Dataset*, ...)):
//   least_squares  x_i = column 0, y_i = column 1 (columns >= 2 ignored, said in
//                  the description); standardize as above; optimum = the OLS
//                  normal-equation solution H^-1 (2/n) sum_i y_i (x_i, 1).
//   logistic       the first two columns, z-scored, no bias; the labels must name
//                  exactly 2 classes (smaller id -> y = 0, larger -> y = 1,
//                  unlabelled rows skipped). Without a bias the minimiser is
//                  finite iff no w != 0 has (2 y_i - 1) w . x_i >= 0 for every i
//                  (Albert & Anderson 1984: no complete or quasi-complete
//                  separation). In 2-D that is exact and cheap: the vectors
//                  v_i = (2 y_i - 1) x_i lie in a closed half-plane iff the
//                  largest angular gap between them is >= pi. Separable data
//                  (or a Newton run that does not reach ||grad|| <= 1e-8)
//                  report no optimum (minima() empty, f* unknown) and say
//                  "classes are linearly separable: no finite minimiser".
// Mini-batches: batch_value/batch_gradient sum the chosen rows in increasing
// row order (a sorted copy of the indices), then divide by the count, so the
// batch of all n rows reproduces value()/gradient() bit for bit.
#include "algorithms/optim/finite_sum.h"

#include "algorithms/data/datasets.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>

namespace cilab {

namespace {

void zscore(Eigen::Ref<Eigen::VectorXd> v) {
  const double mean = v.mean();
  v.array() -= mean;
  const double sd = std::sqrt(v.squaredNorm() / static_cast<double>(v.size()));
  if (sd > 0) v /= sd;
}

class FiniteSumBase : public FiniteSumLandscape {
 public:
  int num_samples() const override { return static_cast<int>(pts_.rows()); }
  const Eigen::MatrixXd& points() const override { return pts_; }
  const std::vector<int>& labels() const override { return labels_; }
  std::string data_description() const override { return description_; }
  std::vector<Eigen::Vector2d> minima() const override {
    if (!has_opt_) return {};
    return {opt_};
  }
  double min_value() const override {
    return has_opt_ ? fmin_ : std::numeric_limits<double>::quiet_NaN();
  }
  std::array<double, 4> view_bounds() const override { return bounds_; }

  double value(double x, double y) const override {
    return batch_value(x, y, all_.data(), static_cast<int>(all_.size()));
  }
  Eigen::Vector2d gradient(double x, double y) const override {
    return batch_gradient(x, y, all_.data(), static_cast<int>(all_.size()));
  }
  double batch_value(double x, double y, const int* idx, int count) const override {
    double s = 0.0;
    for_sorted(idx, count, [&](int i) { s += sample_value(x, y, i); });
    return s / static_cast<double>(count);
  }
  Eigen::Vector2d batch_gradient(double x, double y, const int* idx, int count) const override {
    double gx = 0.0, gy = 0.0;
    for_sorted(idx, count, [&](int i) { sample_gradient(x, y, i, gx, gy); });
    return Eigen::Vector2d(gx / static_cast<double>(count), gy / static_cast<double>(count));
  }

 protected:
  virtual double sample_value(double x, double y, int i) const = 0;
  virtual void sample_gradient(double x, double y, int i, double& gx, double& gy) const = 0;

  void finish(const std::string& description) {
    description_ = description;
    all_.resize(static_cast<size_t>(pts_.rows()));
    std::iota(all_.begin(), all_.end(), 0);
  }
  void set_bounds_around(const Eigen::Vector2d& c, double half_x, double half_y) {
    bounds_ = {std::min(-2.0, c.x() - half_x), std::max(2.0, c.x() + half_x),
               std::min(-2.0, c.y() - half_y), std::max(2.0, c.y() + half_y)};
  }

  template <typename F>
  static void for_sorted(const int* idx, int count, F&& f) {
    bool sorted = true;
    for (int k = 1; k < count && sorted; ++k) sorted = idx[k - 1] < idx[k];
    if (sorted) {
      for (int k = 0; k < count; ++k) f(idx[k]);
      return;
    }
    std::vector<int> s(idx, idx + count);
    std::sort(s.begin(), s.end());
    for (int i : s) f(i);
  }

  Eigen::MatrixXd pts_;
  std::vector<int> labels_;
  std::vector<int> all_;
  std::string description_;
  Eigen::Vector2d opt_ = Eigen::Vector2d::Zero();
  double fmin_ = 0.0;
  bool has_opt_ = true;  // false: no finite minimiser (separable logistic data)
  std::array<double, 4> bounds_ = {-3.0, 3.0, -3.0, 3.0};
};

class LeastSquares final : public FiniteSumBase {
 public:
  // Built-in: Old Faithful.
  explicit LeastSquares(bool standardize) : standardize_(standardize) {
    const std::shared_ptr<const Dataset> d = make_dataset("faithful");
    if (d->cols() < 2) throw std::invalid_argument("least_squares: the faithful data need 2 columns");
    pts_ = d->x.leftCols(2);
    fit(standardize);
    finish(std::string("Old Faithful (n = ") + std::to_string(d->rows()) +
           "): waiting ~ a eruptions + b, " + (standardize ? "z-scored" : "raw units (minutes)"));
    fmin_ = value(opt_.x(), opt_.y());
    if (standardize) bounds_ = {-2.0, 3.0, -2.5, 2.5};
    else set_bounds_around(opt_, 16.0, 40.0);
  }
  // Loaded: x = column 0, y = column 1 of a checked dataset.
  LeastSquares(const Dataset& d, bool standardize, const std::string& description)
      : standardize_(standardize) {
    pts_ = d.x.leftCols(2);
    fit(standardize);
    finish(description);
    fmin_ = value(opt_.x(), opt_.y());
    // The window: the optimum plus the sub-level ellipse through the origin,
    // (p - p*)^T H (p - p*) <= f(0, 0) - f*, whose half-extents are
    // sqrt(c (H^-1)_jj); at least [-2, 2]^2.
    const double c = std::max(value(0.0, 0.0) - fmin_, 1e-12);
    const Eigen::Matrix2d hinv = h_.inverse();
    set_bounds_around(opt_, 1.25 * std::sqrt(c * hinv(0, 0)) + 0.5,
                      1.25 * std::sqrt(c * hinv(1, 1)) + 0.5);
  }
  LandscapeKind kind() const override { return LandscapeKind::LeastSquares; }
  std::string name() const override { return "least_squares"; }
  std::string formula() const override { return "(1/n) sum_i (a x_i + b - y_i)^2   (MSE)"; }
  std::string x_label() const override { return "slope a"; }
  std::string y_label() const override { return "intercept b"; }
  bool constant_hessian(Eigen::Matrix2d* h) const override {
    if (h) *h = h_;
    return true;
  }
  bool log_contours() const override { return !standardize_; }

 protected:
  double sample_value(double a, double b, int i) const override {
    const double r = a * pts_(i, 0) + b - pts_(i, 1);
    return r * r;
  }
  void sample_gradient(double a, double b, int i, double& ga, double& gb) const override {
    const double r2 = 2.0 * (a * pts_(i, 0) + b - pts_(i, 1));
    ga += r2 * pts_(i, 0);
    gb += r2;
  }

 private:
  // Standardises (optionally) and solves the normal equations H p* = rhs.
  void fit(bool standardize) {
    if (standardize) {
      zscore(pts_.col(0));
      zscore(pts_.col(1));
    }
    const double n = static_cast<double>(pts_.rows());
    h_.setZero();
    Eigen::Vector2d rhs = Eigen::Vector2d::Zero();
    for (Eigen::Index i = 0; i < pts_.rows(); ++i) {
      const Eigen::Vector2d z(pts_(i, 0), 1.0);
      h_ += (2.0 / n) * z * z.transpose();
      rhs += (2.0 / n) * pts_(i, 1) * z;
    }
    opt_ = h_.ldlt().solve(rhs);
  }

  bool standardize_;
  Eigen::Matrix2d h_;
};

double softplus(double z) { return std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))); }
double sigmoid(double z) {
  if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

class Logistic final : public FiniteSumBase {
 public:
  // Built-in: iris versicolor vs virginica, petal length / width.
  Logistic() : x_label_("w1 (petal length)"), y_label_("w2 (petal width)") {
    const std::shared_ptr<const Dataset> d = make_dataset("iris");
    if (d->cols() < 4 || !d->has_labels())
      throw std::invalid_argument("logistic: the iris data need 4 columns and labels");
    std::vector<int> rows;
    for (int i = 0; i < d->rows(); ++i)
      if (d->labels[i] == 1 || d->labels[i] == 2) rows.push_back(i);
    pts_.resize(static_cast<Eigen::Index>(rows.size()), 2);
    labels_.resize(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      pts_(static_cast<Eigen::Index>(k), 0) = d->x(rows[k], 2);
      pts_(static_cast<Eigen::Index>(k), 1) = d->x(rows[k], 3);
      labels_[k] = d->labels[rows[k]] == 2 ? 1 : 0;
    }
    fit("iris versicolor (0) vs virginica (1), n = " + std::to_string(rows.size()) +
        ", z-scored petal length / width, no bias");
  }
  // Loaded: rows of columns 0, 1 and 0/1 labels of a checked dataset.
  Logistic(Eigen::MatrixXd pts, std::vector<int> labels, const std::string& description,
           std::string x_label, std::string y_label)
      : x_label_(std::move(x_label)), y_label_(std::move(y_label)) {
    pts_ = std::move(pts);
    labels_ = std::move(labels);
    fit(description);
  }
  LandscapeKind kind() const override { return LandscapeKind::Logistic; }
  std::string name() const override { return "logistic"; }
  std::string formula() const override {
    return "(1/n) sum_i [log(1 + exp(w.x_i)) - y_i w.x_i]   (mean BCE)";
  }
  std::string x_label() const override { return x_label_; }
  std::string y_label() const override { return y_label_; }

 protected:
  double sample_value(double w1, double w2, int i) const override {
    const double z = w1 * pts_(i, 0) + w2 * pts_(i, 1);
    return softplus(z) - labels_[static_cast<size_t>(i)] * z;
  }
  void sample_gradient(double w1, double w2, int i, double& g1, double& g2) const override {
    const double z = w1 * pts_(i, 0) + w2 * pts_(i, 1);
    const double r = sigmoid(z) - labels_[static_cast<size_t>(i)];
    g1 += r * pts_(i, 0);
    g2 += r * pts_(i, 1);
  }

 private:
  // z-scores the features, then finds the optimum: none when the classes are
  // separable (angular-gap test), else Newton's method (damped only if a full
  // step raises f), accepted when ||grad|| <= 1e-8.
  void fit(const std::string& description) {
    zscore(pts_.col(0));
    zscore(pts_.col(1));
    if (separable()) {
      finish(description + "; classes are linearly separable: no finite minimiser");
      has_opt_ = false;
      bounds_ = {-4.0, 4.0, -4.0, 4.0};
      return;
    }
    finish(description);
    // Newton's method for the optimum (strictly convex: the classes overlap).
    Eigen::Vector2d w = Eigen::Vector2d::Zero();
    for (int it = 0; it < 100; ++it) {
      Eigen::Matrix2d h = Eigen::Matrix2d::Zero();
      const Eigen::Vector2d g = gradient(w.x(), w.y());
      for (Eigen::Index i = 0; i < pts_.rows(); ++i) {
        const Eigen::Vector2d xi = pts_.row(i).transpose();
        const double s = sigmoid(w.dot(xi));
        h += (s * (1.0 - s) / static_cast<double>(pts_.rows())) * xi * xi.transpose();
      }
      Eigen::Vector2d dw = h.ldlt().solve(g);
      const double f_old = value(w.x(), w.y());
      for (int half = 0; half < 40; ++half) {
        const Eigen::Vector2d trial = w - dw;
        if (value(trial.x(), trial.y()) <= f_old + 1e-12 * (1.0 + std::abs(f_old))) break;
        dw *= 0.5;
      }
      w -= dw;
      if (dw.norm() < 1e-15 * (1.0 + w.norm())) break;
    }
    if (!w.allFinite() || !(gradient(w.x(), w.y()).norm() <= 1e-8)) {
      description_ += "; Newton's method found no minimiser: classes are linearly separable: no "
                      "finite minimiser";
      has_opt_ = false;
      bounds_ = {-4.0, 4.0, -4.0, 4.0};
      return;
    }
    opt_ = w;
    fmin_ = value(w.x(), w.y());
    set_bounds_around(opt_, 4.0, 4.0);
  }

  // True when some w != 0 has (2 y_i - 1) w . x_i >= 0 for all i: the vectors
  // v_i = (2 y_i - 1) x_i fit in a closed half-plane, i.e. their largest angular
  // gap is >= pi (up to 1e-9 rad; nearly separable data count as separable).
  bool separable() const {
    std::vector<double> ang;
    for (Eigen::Index i = 0; i < pts_.rows(); ++i) {
      const double s = labels_[static_cast<size_t>(i)] ? 1.0 : -1.0;
      const double vx = s * pts_(i, 0), vy = s * pts_(i, 1);
      if (vx != 0.0 || vy != 0.0) ang.push_back(std::atan2(vy, vx));
    }
    if (ang.size() < 2) return true;
    std::sort(ang.begin(), ang.end());
    const double kPi = 3.14159265358979323846;
    double gap = ang.front() + 2.0 * kPi - ang.back();
    for (size_t k = 1; k < ang.size(); ++k) gap = std::max(gap, ang[k] - ang[k - 1]);
    return gap >= kPi - 1e-9;
  }

  std::string x_label_, y_label_;
};

// ---- loaded data: checks (every message names parameter 'data' and what to try)

[[noreturn]] void data_error(const std::string& what) {
  throw std::invalid_argument("parameter 'data': " + what);
}

std::string dataset_label(const Dataset& d) { return "'" + (d.name.empty() ? "unnamed" : d.name) + "'"; }

std::string column_name(const Dataset& d, int c) {
  return c < static_cast<int>(d.column_names.size()) && !d.column_names[static_cast<size_t>(c)].empty()
             ? d.column_names[static_cast<size_t>(c)]
             : "x" + std::to_string(c);
}

// Null / too small / non-finite (in the two columns used) data.
void check_loaded(const Dataset* d, const std::string& problem, const std::string& example) {
  const std::string tail = " - load " + example + " or set data=builtin";
  if (!d)
    data_error("data=loaded needs a dataset, but none is loaded - load " + example +
               " (CLI: --dataset moons:n=200 or --data FILE; app: the Data panel) or set data=builtin");
  if (d->cols() < 2)
    data_error(problem + " needs at least 2 columns; the loaded dataset " + dataset_label(*d) + " has " +
               std::to_string(d->cols()) + tail);
  if (d->rows() < 2)
    data_error(problem + " needs at least 2 rows; the loaded dataset " + dataset_label(*d) + " has " +
               std::to_string(d->rows()) + tail);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < d->rows(); ++i)
      if (!std::isfinite(d->x(i, c)))
        data_error("the loaded dataset " + dataset_label(*d) + " has a non-finite value at row " +
                   std::to_string(i) + ", column '" + column_name(*d, c) +
                   "' - clean the data (drop that row) or set data=builtin");
}

std::string columns_note(const Dataset& d) {
  if (d.cols() <= 2) return "";
  return "; first two of " + std::to_string(d.cols()) + " columns used, the rest ignored";
}

bool constant_column(const Eigen::MatrixXd& x, Eigen::Index c) {
  const double mean = x.col(c).mean();
  const double sd = std::sqrt((x.col(c).array() - mean).square().mean());
  return !(sd > 1e-12 * (1.0 + std::abs(mean)));
}

}  // namespace

std::shared_ptr<const Landscape> make_least_squares_landscape(const Dataset* data, bool standardize) {
  check_loaded(data, "least squares (x = column 0, y = column 1)",
               "a dataset with 2 or more numeric columns (e.g. moons, or a CSV)");
  const Dataset& d = *data;
  if (constant_column(d.x, 0))
    data_error("least squares needs a varying x (column 0 '" + column_name(d, 0) + "' of the loaded dataset " +
               dataset_label(d) + " is constant, so the slope is not determined) - load data whose first "
               "column varies or set data=builtin");
  const std::string desc = dataset_label(d).substr(1, dataset_label(d).size() - 2) + " (n = " +
                           std::to_string(d.rows()) + "): " + column_name(d, 1) + " ~ a " +
                           column_name(d, 0) + " + b, " + (standardize ? "z-scored" : "raw units") +
                           columns_note(d);
  return std::make_shared<LeastSquares>(d, standardize, desc);
}

std::shared_ptr<const Landscape> make_logistic_landscape(const Dataset* data) {
  const std::string example = "a labelled 2-class dataset (e.g. moons or blobs:centers=2)";
  check_loaded(data, "logistic regression", example);
  const Dataset& d = *data;
  if (!d.has_labels())
    data_error("logistic regression needs labelled data with 2 classes; the loaded dataset " +
               dataset_label(d) + " has no labels - load " + example + " or set data=builtin");
  std::set<int> classes;
  for (int l : d.labels)
    if (l >= 0) classes.insert(l);
  if (classes.size() != 2) {
    std::string list;
    for (int c : classes) list += (list.empty() ? "" : ", ") + std::to_string(c);
    data_error("logistic regression needs labelled data with 2 classes; the loaded dataset " +
               dataset_label(d) + " has " + std::to_string(classes.size()) +
               (classes.size() == 1 ? " class" : " classes") + (list.empty() ? "" : " (" + list + ")") +
               " - load " + example + " or set data=builtin");
  }
  const int c0 = *classes.begin(), c1 = *classes.rbegin();
  std::vector<int> rows;
  for (int i = 0; i < d.rows(); ++i)
    if (d.labels[static_cast<size_t>(i)] >= 0) rows.push_back(i);
  Eigen::MatrixXd pts(static_cast<Eigen::Index>(rows.size()), 2);
  std::vector<int> labels(rows.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    pts(static_cast<Eigen::Index>(k), 0) = d.x(rows[k], 0);
    pts(static_cast<Eigen::Index>(k), 1) = d.x(rows[k], 1);
    labels[k] = d.labels[static_cast<size_t>(rows[k])] == c1 ? 1 : 0;
  }
  for (Eigen::Index c = 0; c < 2; ++c)
    if (constant_column(pts, c))
      data_error("logistic regression needs two varying features; column " + std::to_string(c) + " '" +
                 column_name(d, static_cast<int>(c)) + "' of the loaded dataset " + dataset_label(d) +
                 " is constant (its weight has no unique optimum) - load " + example +
                 " or set data=builtin");
  {
    const Eigen::MatrixXd centred = pts.rowwise() - pts.colwise().mean();
    const double sxx = centred.col(0).squaredNorm(), syy = centred.col(1).squaredNorm();
    const double sxy = centred.col(0).dot(centred.col(1));
    if (1.0 - sxy * sxy / (sxx * syy) < 1e-12)
      data_error("logistic regression needs two features that are not collinear; columns '" +
                 column_name(d, 0) + "' and '" + column_name(d, 1) + "' of the loaded dataset " +
                 dataset_label(d) + " are perfectly correlated (no unique optimum) - load " + example +
                 " or set data=builtin");
  }
  auto class_label = [&](int c) {
    return c < static_cast<int>(d.class_names.size()) && !d.class_names[static_cast<size_t>(c)].empty()
               ? "'" + d.class_names[static_cast<size_t>(c)] + "'"
               : "class " + std::to_string(c);
  };
  const std::string skipped =
      rows.size() < static_cast<size_t>(d.rows())
          ? "; " + std::to_string(static_cast<size_t>(d.rows()) - rows.size()) + " unlabelled rows skipped"
          : "";
  const std::string name = dataset_label(d).substr(1, dataset_label(d).size() - 2);
  const std::string desc = name + " " + class_label(c0) + " (0) vs " + class_label(c1) + " (1), n = " +
                           std::to_string(rows.size()) + ", z-scored " + column_name(d, 0) + " / " +
                           column_name(d, 1) + ", no bias" + columns_note(d) + skipped;
  return std::make_shared<Logistic>(std::move(pts), std::move(labels), desc, "w1 (" + column_name(d, 0) + ")",
                                    "w2 (" + column_name(d, 1) + ")");
}

std::shared_ptr<const Landscape> make_least_squares_landscape(bool standardize) {
  return std::make_shared<LeastSquares>(standardize);
}
std::shared_ptr<const Landscape> make_logistic_landscape() { return std::make_shared<Logistic>(); }

}  // namespace cilab
