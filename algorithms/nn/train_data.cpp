// The training split of the representation-learning modules: see train_data.h.
#include "algorithms/nn/train_data.h"

#include "algorithms/core/module.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace cilab {

namespace {

bool is_fashion_train(const Dataset& d) {
  return d.name == "fashion-mnist" && d.source.rfind("Fashion-MNIST train", 0) == 0;
}

// Copies rows `rows` of the (column-major) source into row-major x, in
// blocks of rows so that both the strided writes and the column reads stay in cache.
void fill(const Dataset& src, const std::vector<int>& rows, const TrainData& td, nn::Mat<float>& x,
          std::vector<int>& y) {
  constexpr size_t kBlock = 64;
  x.resize(static_cast<Eigen::Index>(rows.size()), td.d);
  y.resize(rows.size());
  for (size_t r0 = 0; r0 < rows.size(); r0 += kBlock) {
    const size_t r1 = std::min(rows.size(), r0 + kBlock);
    for (int c = 0; c < td.d; ++c) {
      const double m = td.mean(c), s = td.scale(c);
      const double* col = src.x.data() + static_cast<Eigen::Index>(c) * src.x.rows();
      for (size_t r = r0; r < r1; ++r) x(static_cast<Eigen::Index>(r), c) = static_cast<float>((col[rows[r]] - m) / s);
    }
  }
  for (size_t r = 0; r < rows.size(); ++r)
    y[r] = src.has_labels() ? src.labels[static_cast<size_t>(rows[r])] : -1;
}

}  // namespace

void TrainData::unstandardise(const float* z, double* out) const {
  for (int c = 0; c < d; ++c) out[c] = mean(c) + scale(c) * static_cast<double>(z[c]);
}

std::shared_ptr<const TrainData> make_train_data(const Dataset& data, const TrainDataOptions& opts) {
  auto td = std::make_shared<TrainData>();
  const std::string& mod = opts.module;
  td->d = data.cols();
  for (int j = 0; j < td->d; ++j)
    td->feature_names.push_back(j < static_cast<int>(data.column_names.size()) ? data.column_names[static_cast<size_t>(j)]
                                                                              : "x" + std::to_string(j));
  if (data.is_image()) {
    td->image_h = data.image_h;
    td->image_w = data.image_w;
  }
  std::shared_ptr<const Dataset> t10k;
  if (is_fashion_train(data)) {
    t10k = load_fashion_mnist("test");
    if (t10k->cols() != data.cols())
      throw std::invalid_argument(mod + ": Fashion-MNIST's t10k set has " + std::to_string(t10k->cols()) +
                                  " columns, the training set " + std::to_string(data.cols()) +
                                  "; reinstall dataset-fashion-mnist");
    td->own_test_set = true;
  }
  const int n = data.rows();
  Rng rng(opts.seed ^ 0x5eed5eedULL);
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(order[static_cast<size_t>(i)], order[rng.below(static_cast<uint64_t>(i) + 1)]);
  const int n_test = td->own_test_set ? 0 : static_cast<int>(std::lround(opts.test_fraction * n));
  if (n - n_test < 1)
    throw std::invalid_argument(mod + ": no training rows left (" + std::to_string(n) + " rows, test_fraction = " +
                                fmt_g(opts.test_fraction) + "); try a larger dataset or a smaller test_fraction");
  std::vector<int> test(order.begin(), order.begin() + n_test), train(order.begin() + n_test, order.end());
  std::sort(test.begin(), test.end());
  std::sort(train.begin(), train.end());
  td->train_rows = train;
  td->test_rows = test;

  td->mean = Eigen::RowVectorXd::Zero(td->d);
  td->scale = Eigen::RowVectorXd::Ones(td->d);
  if (opts.standardize && !td->is_image()) {
    td->standardized = true;
    for (int c = 0; c < td->d; ++c) {
      double s = 0, s2 = 0;
      for (int i : train) s += data.x(i, c);
      const double m = s / static_cast<double>(train.size());
      for (int i : train) s2 += (data.x(i, c) - m) * (data.x(i, c) - m);
      const double sd = std::sqrt(s2 / static_cast<double>(train.size()));
      td->mean(c) = m;
      td->scale(c) = sd > 1e-12 * std::max(1.0, std::fabs(m)) ? sd : 1.0;
    }
  }
  fill(data, train, *td, td->x_train, td->y_train);
  if (t10k) {
    std::vector<int> all(static_cast<size_t>(t10k->rows()));
    std::iota(all.begin(), all.end(), 0);
    fill(*t10k, all, *td, td->x_test, td->y_test);
    td->test_rows.assign(all.size(), -1);
  } else {
    fill(data, test, *td, td->x_test, td->y_test);
  }
  int k = static_cast<int>(data.class_names.size());
  for (int y : td->y_train) k = std::max(k, y + 1);
  for (int y : td->y_test) k = std::max(k, y + 1);
  for (int c = 0; c < k; ++c)
    td->class_names.push_back(c < static_cast<int>(data.class_names.size()) ? data.class_names[static_cast<size_t>(c)]
                                                                          : "class " + std::to_string(c));
  td->min_value = td->x_train.minCoeff();
  td->max_value = td->x_train.maxCoeff();
  if (td->n_test() > 0) {
    td->min_value = std::min(td->min_value, td->x_test.minCoeff());
    td->max_value = std::max(td->max_value, td->x_test.maxCoeff());
  }
  std::ostringstream what;
  what << data.name << ": " << td->n_train() << " train / " << td->n_test() << (td->own_test_set ? " t10k" : "")
       << " test rows, " << td->d << " features";
  if (td->standardized) what << " (standardised)";
  td->what = what.str();
  return td;
}

}  // namespace cilab
