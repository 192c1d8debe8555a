// The shaped layers (layers.h): Conv2d, MaxPool2d, AvgPool2d and Flatten, thin layers over the
// stateless kernels of conv.h. A batch row holds one sample's {C, H, W} values in row-major order,
// so a (B x C H W) row-major matrix is the kernels' (N, C, H, W) buffer as it lies.
#include "algorithms/nn/conv.h"
#include "algorithms/nn/layers.h"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace cilab::nn {

namespace {

// {C, H, W} or a clear refusal naming the layer.
void expect_image(const std::string& layer, const Shape& in) {
  if (in.size() != 3)
    throw std::invalid_argument(layer + " layer: expected a channels x height x width input, got " +
                                (in.size() == 1 ? std::to_string(in[0]) + " flat features" : shape_text(in)) +
                                "; give the data its image shape (Fashion-MNIST: 1 x 28 x 28)");
}

template <class T>
class Conv2d : public Layer<T> {
 public:
  // one_d: torch.nn.Conv1d on {C, L} samples, the case H = KH = 1 of the same kernels.
  Conv2d(int out, int kernel, int stride, int padding, int dilation, int groups, bool one_d = false) : one_d_(one_d) {
    s_.c_out = out;
    s_.kh = s_.kw = kernel;
    s_.stride_h = s_.stride_w = stride;
    s_.pad_h = s_.pad_w = padding;
    s_.dil_h = s_.dil_w = dilation;
    s_.groups = groups;
    if (one_d) {
      s_.kh = 1;
      s_.stride_h = 1;
      s_.pad_h = 0;
      s_.dil_h = 1;
    }
  }
  std::string name() const override { return one_d_ ? "conv1d" : "conv2d"; }
  int configure(int) override {
    throw std::invalid_argument(one_d_ ? "conv1d layer: expected a channels x length input, got flat features"
                                       : "conv2d layer: expected a channels x height x width input, got flat features");
  }
  Shape configure_shape(const Shape& in) override {
    if (one_d_) {
      if (in.size() != 2)
        throw std::invalid_argument("conv1d layer: expected a channels x length input, got " + shape_text(in));
      s_.c_in = in[0], s_.h = 1, s_.w = in[1];
    } else {
      expect_image(name(), in);
      s_.c_in = in[0], s_.h = in[1], s_.w = in[2];
    }
    const std::string p = s_.problem();
    if (!p.empty()) throw std::invalid_argument(one_d_ ? "conv1d" + p.substr(p.find(':')) : p);
    if (one_d_) return {s_.c_out, s_.out_w()};
    return {s_.c_out, s_.out_h(), s_.out_w()};
  }
  int num_params() const override { return static_cast<int>(s_.w_size()) + s_.c_out; }
  void bind(T* p, T* g) override {
    p_ = p;
    g_ = g;
  }
  void init(Rng& rng, Init init) override {
    const int64_t nw = s_.w_size();
    init_weights(rng, init, p_, nw, p_ + nw, s_.c_out, double(s_.c_in / s_.groups) * s_.kh * s_.kw,
                 double(s_.c_out / s_.groups) * s_.kh * s_.kw);
  }
  const ConvShape& geometry() const { return s_; }
  // In train mode, when the output rows are short (ow < kKeepColsBelowWidth), the forward pass
  // keeps its im2col columns (cols_: the layer's activation cache) and backward's weight gradient
  // reads them instead of rebuilding them. Measured on LeNet-5 (bench/bench_cnn): im2col copies one
  // run of ow entries per (tap, output row), so rebuilding a 10-wide map's columns cost more than
  // reading them back (conv2: backward 4.6 -> 3.7 ms a batch), while a 28-wide map's are cheaper
  // to rebuild than to stream from memory (conv1: 3.2 ms with the cache, 2.4 without). In eval
  // mode nothing is kept (a backward after it rebuilds them from x).
  static constexpr int kKeepColsBelowWidth = 16;
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override {
    x_ = &x;
    ConvShape s = s_;
    s.n = static_cast<int>(x.rows());
    y.resize(x.rows(), s.y_size() / s.n);
    const bool keep = train && s.out_w() < kKeepColsBelowWidth;
    cols_rows_ = keep ? s.n : 0;
    if (keep) cols_.resize(static_cast<size_t>(conv_cols_size(s)));
    conv2d_forward(x.data(), p_, p_ + s_.w_size(), s, y.data(), keep ? cols_.data() : nullptr);
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    ConvShape s = s_;
    s.n = static_cast<int>(dy.rows());
    if (dx) dx->resize(dy.rows(), s.x_size() / s.n);
    const T* cols = cols_rows_ == s.n ? cols_.data() : nullptr;
    conv2d_backward(x_->data(), p_, dy.data(), s, dx ? dx->data() : nullptr, g_, g_ + s_.w_size(), cols);
  }
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    const int64_t nw = s_.w_size();
    std::vector<int64_t> shape = {s_.c_out, s_.c_in / s_.groups, s_.kh, s_.kw};
    if (one_d_) shape = {s_.c_out, s_.c_in / s_.groups, s_.kw};  // torch.nn.Conv1d's (out, in / groups, k)
    out.push_back(NpyArray::floats(prefix + "weight", shape, std::vector<float>(p_, p_ + nw)));
    out.push_back(NpyArray::floats(prefix + "bias", {s_.c_out}, std::vector<float>(p_ + nw, p_ + nw + s_.c_out)));
  }
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::make_unique<Conv2d>(*this);
    c->p_ = c->g_ = nullptr;
    c->x_ = nullptr;
    c->cols_.clear();
    c->cols_rows_ = 0;
    return c;
  }

 private:
  ConvShape s_;  // n set per batch
  bool one_d_ = false;
  T* p_ = nullptr;  // weight (C_out, C_in / groups, k, k) then bias (C_out)
  T* g_ = nullptr;
  const Mat<T>* x_ = nullptr;
  std::vector<T> cols_;  // the last train-mode forward's im2col columns (conv_cols_size)
  int cols_rows_ = 0;    // its batch size (0: none kept)
};

template <class T>
class Pool2d : public Layer<T> {
 public:
  Pool2d(bool max, int kernel, int stride) : max_(max) {
    s_.kernel = kernel;
    s_.stride = stride > 0 ? stride : kernel;
  }
  std::string name() const override { return max_ ? "max_pool2d" : "avg_pool2d"; }
  int configure(int) override {
    throw std::invalid_argument(name() + " layer: expected a channels x height x width input, got flat features");
  }
  Shape configure_shape(const Shape& in) override {
    expect_image(name(), in);
    s_.c = in[0], s_.h = in[1], s_.w = in[2];
    const std::string p = s_.problem();
    if (!p.empty()) throw std::invalid_argument(p);
    return {s_.c, s_.out_h(), s_.out_w()};
  }
  void forward(const Mat<T>& x, Mat<T>& y, bool) override {
    PoolShape s = s_;
    s.n = static_cast<int>(x.rows());
    y.resize(x.rows(), s.y_size() / s.n);
    if (max_) {
      argmax_.resize(static_cast<size_t>(s.y_size()));
      max_pool2d_forward(x.data(), s, y.data(), argmax_.data());
    } else {
      avg_pool2d_forward(x.data(), s, y.data());
    }
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    if (!dx) return;
    PoolShape s = s_;
    s.n = static_cast<int>(dy.rows());
    dx->resize(dy.rows(), s.x_size() / s.n);
    if (max_)
      max_pool2d_backward(dy.data(), argmax_.data(), s, dx->data());
    else
      avg_pool2d_backward(dy.data(), s, dx->data());
  }
  std::unique_ptr<Layer<T>> clone() const override { return std::make_unique<Pool2d>(*this); }

 private:
  bool max_;
  PoolShape s_;
  std::vector<int32_t> argmax_;  // the last forward's window maxima (max pooling)
};

template <class T>
class Flatten : public Layer<T> {
 public:
  std::string name() const override { return "flatten"; }
  int configure(int in) override { return in; }
  Shape configure_shape(const Shape& in) override { return {static_cast<int>(shape_size(in))}; }
  void forward(const Mat<T>& x, Mat<T>& y, bool) override { y = x; }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    if (dx) *dx = dy;
  }
  std::unique_ptr<Layer<T>> clone() const override { return std::make_unique<Flatten>(*this); }
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_conv2d(int out_channels, int kernel, int stride, int padding, int dilation, int groups) {
  if (out_channels < 1 || kernel < 1 || stride < 1 || padding < 0 || dilation < 1 || groups < 1)
    throw std::invalid_argument("conv2d layer: expected out_channels, kernel, stride, dilation, groups >= 1 and padding >= 0");
  return std::make_unique<Conv2d<T>>(out_channels, kernel, stride, padding, dilation, groups);
}
template <class T>
std::unique_ptr<Layer<T>> make_conv1d(int out_channels, int kernel, int stride, int padding, int dilation, int groups) {
  if (out_channels < 1 || kernel < 1 || stride < 1 || padding < 0 || dilation < 1 || groups < 1)
    throw std::invalid_argument("conv1d layer: expected out_channels, kernel, stride, dilation, groups >= 1 and padding >= 0");
  return std::make_unique<Conv2d<T>>(out_channels, kernel, stride, padding, dilation, groups, true);
}
template <class T>
std::unique_ptr<Layer<T>> make_max_pool2d(int kernel, int stride) {
  if (kernel < 1 || stride < 0) throw std::invalid_argument("max_pool2d layer: expected kernel >= 1 and stride >= 0");
  return std::make_unique<Pool2d<T>>(true, kernel, stride);
}
template <class T>
std::unique_ptr<Layer<T>> make_avg_pool2d(int kernel, int stride) {
  if (kernel < 1 || stride < 0) throw std::invalid_argument("avg_pool2d layer: expected kernel >= 1 and stride >= 0");
  return std::make_unique<Pool2d<T>>(false, kernel, stride);
}
template <class T>
std::unique_ptr<Layer<T>> make_flatten() {
  return std::make_unique<Flatten<T>>();
}

template <class T>
bool conv2d_geometry(const Layer<T>& layer, ConvShape* out) {
  const auto* conv = dynamic_cast<const Conv2d<T>*>(&layer);
  if (!conv) return false;
  *out = conv->geometry();
  out->n = 1;
  return true;
}

#define CILAB_CONV_LAYERS_INSTANTIATE(T)                                                          \
  template bool conv2d_geometry<T>(const Layer<T>&, ConvShape*);                                  \
  template std::unique_ptr<Layer<T>> make_conv2d<T>(int, int, int, int, int, int);                \
  template std::unique_ptr<Layer<T>> make_conv1d<T>(int, int, int, int, int, int);                \
  template std::unique_ptr<Layer<T>> make_max_pool2d<T>(int, int);                                \
  template std::unique_ptr<Layer<T>> make_avg_pool2d<T>(int, int);                                \
  template std::unique_ptr<Layer<T>> make_flatten<T>();
CILAB_CONV_LAYERS_INSTANTIATE(float)
CILAB_CONV_LAYERS_INSTANTIATE(double)
#undef CILAB_CONV_LAYERS_INSTANTIATE

}  // namespace cilab::nn
