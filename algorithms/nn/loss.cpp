// The losses of loss.h.
#include "algorithms/nn/loss.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cilab::nn {
namespace {

template <class T>
void check_same_shape(const char* what, const Mat<T>& a, const Mat<T>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    throw std::invalid_argument(std::string(what) + ": predictions are " + std::to_string(a.rows()) + " x " +
                                std::to_string(a.cols()) + " but targets " + std::to_string(b.rows()) + " x " +
                                std::to_string(b.cols()));
}

}  // namespace

template <class T>
double mse_loss(const Mat<T>& pred, const Mat<T>& target, Mat<T>* dpred) {
  check_same_shape("mse_loss", pred, target);
  const double n = static_cast<double>(pred.size());
  double sum = 0.0;
  for (Eigen::Index i = 0; i < pred.size(); ++i) {
    const double d = static_cast<double>(pred.data()[i]) - static_cast<double>(target.data()[i]);
    sum += d * d;
  }
  if (dpred) {
    dpred->resize(pred.rows(), pred.cols());
    dpred->array() = (pred - target).array() * static_cast<T>(2.0 / n);
  }
  return sum / n;
}

template <class T>
double bce_with_logits_loss(const Mat<T>& logits, const Mat<T>& target, Mat<T>* dlogits) {
  check_same_shape("bce_with_logits_loss", logits, target);
  const double n = static_cast<double>(logits.size());
  double sum = 0.0;
  if (dlogits) dlogits->resize(logits.rows(), logits.cols());
  for (Eigen::Index i = 0; i < logits.size(); ++i) {
    const double z = logits.data()[i], y = target.data()[i];
    sum += std::max(z, 0.0) - z * y + std::log1p(std::exp(-std::abs(z)));
    if (dlogits) {
      const double s = z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
      dlogits->data()[i] = static_cast<T>((s - y) / n);
    }
  }
  return sum / n;
}

template <class T>
double softmax_cross_entropy(const Mat<T>& logits, const std::vector<int>& labels, Mat<T>* dlogits) {
  const Eigen::Index b = logits.rows(), c = logits.cols();
  if (static_cast<Eigen::Index>(labels.size()) != b)
    throw std::invalid_argument("softmax_cross_entropy: " + std::to_string(b) + " rows of logits but " +
                                std::to_string(labels.size()) + " labels");
  if (dlogits) dlogits->resize(b, c);
  double sum = 0.0;
  for (Eigen::Index i = 0; i < b; ++i) {
    const int y = labels[static_cast<size_t>(i)];
    if (y < 0 || y >= c)
      throw std::invalid_argument("softmax_cross_entropy: label " + std::to_string(y) + " of row " +
                                  std::to_string(i) + " is outside [0, " + std::to_string(c) + ")");
    const T* z = logits.data() + i * c;
    double zmax = z[0];
    for (Eigen::Index j = 1; j < c; ++j) zmax = std::max(zmax, static_cast<double>(z[j]));
    double se = 0.0;
    for (Eigen::Index j = 0; j < c; ++j) se += std::exp(static_cast<double>(z[j]) - zmax);
    const double lse = zmax + std::log(se);
    sum += lse - static_cast<double>(z[y]);
    if (dlogits) {
      T* d = dlogits->data() + i * c;
      for (Eigen::Index j = 0; j < c; ++j)
        d[j] = static_cast<T>((std::exp(static_cast<double>(z[j]) - lse) - (j == y ? 1.0 : 0.0)) / b);
    }
  }
  return sum / static_cast<double>(b);
}

template double mse_loss<float>(const Mat<float>&, const Mat<float>&, Mat<float>*);
template double mse_loss<double>(const Mat<double>&, const Mat<double>&, Mat<double>*);
template double bce_with_logits_loss<float>(const Mat<float>&, const Mat<float>&, Mat<float>*);
template double bce_with_logits_loss<double>(const Mat<double>&, const Mat<double>&, Mat<double>*);
template double softmax_cross_entropy<float>(const Mat<float>&, const std::vector<int>&, Mat<float>*);
template double softmax_cross_entropy<double>(const Mat<double>&, const std::vector<int>&, Mat<double>*);

}  // namespace cilab::nn
