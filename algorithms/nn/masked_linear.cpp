// The masked Linear (layers.h: make_masked_linear): y = x (W .* M)^T + b with a fixed 0/1 mask M,
// the layer of MADE (Germain et al. 2015). The mask is computed once from `keep(o, i)` when the
// layer learns its input width; masked weights never enter the output and get no gradient, so an
// optimizer step leaves them where they were. Dense products through Eigen on the masked copy
// W .* M, formed at each forward (one pass over the weights).
#include "algorithms/nn/layers.h"

#include <stdexcept>
#include <utility>

namespace cilab::nn {

namespace {

template <class T>
class MaskedLinear final : public Layer<T> {
 public:
  MaskedLinear(int out, std::function<bool(int, int)> keep) : out_(out), keep_(std::move(keep)) {
    if (out < 1) throw std::invalid_argument("masked linear layer: expected at least 1 output feature, got " + std::to_string(out));
  }
  std::string name() const override { return "masked_linear"; }
  Shape configure_shape(const Shape& in) override {
    if (in.size() != 1)
      throw std::invalid_argument("masked linear layer: expected flat features, got a " + shape_text(in) +
                                  " input; add a flatten layer before it");
    return {configure(in[0])};
  }
  int configure(int in) override {
    if (in < 1) throw std::invalid_argument("masked linear layer: expected at least 1 input feature");
    in_ = in;
    mask_.resize(out_, in_);
    for (int o = 0; o < out_; ++o)
      for (int i = 0; i < in_; ++i) mask_(o, i) = keep_(o, i) ? T(1) : T(0);
    return out_;
  }
  int num_params() const override { return out_ * in_ + out_; }
  void bind(T* p, T* g) override {
    w_ = p;
    gw_ = g;
  }
  // As torch.nn.Linear (MADE's masked layer is one), the masked weights drawn too: they stay unused.
  void init(Rng& rng, Init init) override { init_weights(rng, init, w_, int64_t(out_) * in_, w_ + out_ * in_, out_, in_, out_); }
  void forward(const Mat<T>& x, Mat<T>& y, bool) override {
    x_ = &x;
    masked_ = Eigen::Map<const Mat<T>>(w_, out_, in_).cwiseProduct(mask_);
    y.resize(x.rows(), out_);
    y.noalias() = x * masked_.transpose();
    y.rowwise() += Eigen::Map<const Eigen::Matrix<T, 1, Eigen::Dynamic>>(w_ + out_ * in_, out_);
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    Eigen::Map<Mat<T>> gw(gw_, out_, in_);
    gw.noalias() += (dy.transpose() * *x_).cwiseProduct(mask_);
    Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>(gw_ + out_ * in_, out_) += dy.colwise().sum();
    if (dx) backward_input(dy, *dx);
  }
  void backward_input(const Mat<T>& dy, Mat<T>& dx) override {
    dx.resize(dy.rows(), in_);
    dx.noalias() = dy * masked_;
  }
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::make_unique<MaskedLinear>(*this);
    c->w_ = c->gw_ = nullptr;
    c->x_ = nullptr;
    return c;
  }
  // torch names: weight (out, in), bias (out), and the mask as a buffer, as MADE's code registers it.
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    auto floats = [](const T* p, int64_t n) { return std::vector<float>(p, p + n); };
    out.push_back(NpyArray::floats(prefix + "weight", {out_, in_}, floats(w_, int64_t(out_) * in_)));
    out.push_back(NpyArray::floats(prefix + "bias", {out_}, floats(w_ + out_ * in_, out_)));
    out.push_back(NpyArray::floats(prefix + "mask", {out_, in_}, floats(mask_.data(), int64_t(out_) * in_)));
  }

 private:
  int out_ = 0, in_ = 0;
  std::function<bool(int, int)> keep_;
  Mat<T> mask_, masked_;  // M (0/1) and W .* M of the last forward
  T* w_ = nullptr;
  T* gw_ = nullptr;
  const Mat<T>* x_ = nullptr;
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_masked_linear(int out_features, std::function<bool(int, int)> keep) {
  if (!keep) throw std::invalid_argument("masked linear layer: no mask function");
  return std::make_unique<MaskedLinear<T>>(out_features, std::move(keep));
}

template std::unique_ptr<Layer<float>> make_masked_linear<float>(int, std::function<bool(int, int)>);
template std::unique_ptr<Layer<double>> make_masked_linear<double>(int, std::function<bool(int, int)>);

}  // namespace cilab::nn
