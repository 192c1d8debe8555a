// torch.nn.BatchNorm2d (layers.h: make_batch_norm2d): each channel of a {C, H, W} sample
// normalised over the batch and every position, m = B H W values:
//   y = gamma_c (x - mean_c) / sqrt(var_c + eps) + beta_c,
// eps 1e-5, momentum 0.1, the biased variance to normalise and the unbiased one (m / (m - 1))
// in running_var; eval mode uses the running statistics. Parameters: gamma (C) then beta (C).
#include "algorithms/nn/layers.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cilab::nn {

namespace {

constexpr double kEps = 1e-5;
constexpr double kMomentum = 0.1;

template <class T>
class BatchNorm2d final : public Layer<T> {
 public:
  std::string name() const override { return "batch_norm2d"; }
  int configure(int) override {
    throw std::invalid_argument("batch_norm2d layer: expected a {C, H, W} image input, got flat features; use "
                                "batch_norm (BatchNorm1d) there");
  }
  Shape configure_shape(const Shape& in) override {
    if (in.size() != 3)
      throw std::invalid_argument("batch_norm2d layer: expected a {C, H, W} image input, got " + shape_text(in) +
                                  "; use batch_norm (BatchNorm1d) for flat features");
    c_ = in[0];
    hw_ = in[1] * in[2];
    running_mean_.assign(static_cast<size_t>(c_), T(0));
    running_var_.assign(static_cast<size_t>(c_), T(1));
    return in;
  }
  int num_params() const override { return 2 * c_; }
  void bind(T* p, T* g) override {
    p_ = p;
    g_ = g;
  }
  void init(Rng&, Init) override {
    std::fill(p_, p_ + c_, T(1));
    std::fill(p_ + c_, p_ + 2 * c_, T(0));
  }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override {
    const Eigen::Index b = x.rows();
    const double m = static_cast<double>(b) * hw_;
    train_ = train;
    if (train && m < 2)
      throw std::invalid_argument("batch_norm2d: expected more than 1 value per channel in training, got " +
                                  std::to_string(static_cast<int64_t>(m)) + "; use a larger batch");
    xhat_.resize(b, x.cols());
    inv_std_.assign(static_cast<size_t>(c_), T(0));
    y.resize(b, x.cols());
    for (int c = 0; c < c_; ++c) {
      T mean, var;
      if (train) {
        T s = 0;
        for (Eigen::Index r = 0; r < b; ++r)
          for (int k = 0; k < hw_; ++k) s += x(r, c * hw_ + k);
        mean = s / T(m);
        T v = 0;
        for (Eigen::Index r = 0; r < b; ++r)
          for (int k = 0; k < hw_; ++k) v += (x(r, c * hw_ + k) - mean) * (x(r, c * hw_ + k) - mean);
        var = v / T(m);
        running_mean_[static_cast<size_t>(c)] = T(1 - kMomentum) * running_mean_[static_cast<size_t>(c)] + T(kMomentum) * mean;
        running_var_[static_cast<size_t>(c)] =
            T(1 - kMomentum) * running_var_[static_cast<size_t>(c)] + T(kMomentum) * var * T(m / (m - 1));
      } else {
        mean = running_mean_[static_cast<size_t>(c)];
        var = running_var_[static_cast<size_t>(c)];
      }
      const T s = T(1) / std::sqrt(var + T(kEps));
      inv_std_[static_cast<size_t>(c)] = s;
      for (Eigen::Index r = 0; r < b; ++r)
        for (int k = 0; k < hw_; ++k) {
          const T h = (x(r, c * hw_ + k) - mean) * s;
          xhat_(r, c * hw_ + k) = h;
          y(r, c * hw_ + k) = p_[c] * h + p_[c_ + c];
        }
    }
    if (train) ++batches_;
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    const Eigen::Index b = dy.rows();
    const T m = T(static_cast<double>(b) * hw_);
    if (dx) dx->resize(b, dy.cols());
    for (int c = 0; c < c_; ++c) {
      T sum_d = 0, sum_dh = 0;  // sums of dy and dy xhat over the channel's values
      for (Eigen::Index r = 0; r < b; ++r)
        for (int k = 0; k < hw_; ++k) {
          sum_d += dy(r, c * hw_ + k);
          sum_dh += dy(r, c * hw_ + k) * xhat_(r, c * hw_ + k);
        }
      g_[c] += sum_dh;        // dL/dgamma
      g_[c_ + c] += sum_d;    // dL/dbeta
      if (!dx) continue;
      const T gs = p_[c] * inv_std_[static_cast<size_t>(c)];
      for (Eigen::Index r = 0; r < b; ++r)
        for (int k = 0; k < hw_; ++k) {
          const T d = dy(r, c * hw_ + k);
          (*dx)(r, c * hw_ + k) = train_ ? gs / m * (m * d - sum_d - xhat_(r, c * hw_ + k) * sum_dh) : gs * d;
        }
    }
  }
  // The input gradient alone would still need the sums above: the parameter gradients are added too
  // (as batch_norm does; see Layer::backward_input).
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::make_unique<BatchNorm2d>(*this);
    c->p_ = c->g_ = nullptr;
    return c;
  }
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    auto floats = [](const T* p, int n) { return std::vector<float>(p, p + n); };
    out.push_back(NpyArray::floats(prefix + "weight", {c_}, floats(p_, c_)));
    out.push_back(NpyArray::floats(prefix + "bias", {c_}, floats(p_ + c_, c_)));
    out.push_back(NpyArray::floats(prefix + "running_mean", {c_}, floats(running_mean_.data(), c_)));
    out.push_back(NpyArray::floats(prefix + "running_var", {c_}, floats(running_var_.data(), c_)));
    out.push_back(NpyArray::int64_scalar(prefix + "num_batches_tracked", batches_));
  }

 private:
  int c_ = 0, hw_ = 0;
  T* p_ = nullptr;
  T* g_ = nullptr;
  std::vector<T> running_mean_, running_var_, inv_std_;
  Mat<T> xhat_;
  int64_t batches_ = 0;
  bool train_ = false;
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_batch_norm2d() {
  return std::make_unique<BatchNorm2d<T>>();
}

template std::unique_ptr<Layer<float>> make_batch_norm2d<float>();
template std::unique_ptr<Layer<double>> make_batch_norm2d<double>();

}  // namespace cilab::nn
