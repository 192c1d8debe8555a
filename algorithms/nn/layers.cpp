// The layers of layers.h: each forward and backward written out.
#include "algorithms/nn/layers.h"

#include "algorithms/core/parallel.h"
#include "algorithms/nn/gemm_kernels.h"

// The GEMMs here are single-threaded Eigen calls on column blocks that
// parallel.h distributes; Eigen must not start threads of its own.
#if defined(_OPENMP) && !defined(EIGEN_DONT_PARALLELIZE)
#error "algorithms/nn/layers.cpp: compile without -fopenmp or with EIGEN_DONT_PARALLELIZE"
#endif

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace cilab::nn {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kInvSqrt2Pi = 0.3989422804014327;
constexpr double kLeakySlope = 0.01;
constexpr double kSoftplusThreshold = 20.0;
constexpr double kNormEps = 1e-5;
constexpr double kBatchNormMomentum = 0.1;

template <class T>
using MapMat = Eigen::Map<Mat<T>>;
template <class T>
using MapVec = Eigen::Map<Vec<T>>;

template <class T>
T sigmoid(T z) {
  if (z >= T(0)) return T(1) / (T(1) + std::exp(-z));
  const T e = std::exp(z);
  return e / (T(1) + e);
}

template <class T>
T act(Activation a, T z) {
  switch (a) {
    case Activation::Identity: return z;
    case Activation::ReLU: return z > T(0) ? z : T(0);
    case Activation::LeakyReLU: return z > T(0) ? z : T(kLeakySlope) * z;
    case Activation::ELU: return z > T(0) ? z : std::expm1(z);
    case Activation::Sigmoid: return sigmoid(z);
    case Activation::Tanh: return std::tanh(z);
    case Activation::Softplus: return z > T(kSoftplusThreshold) ? z : std::log1p(std::exp(z));
    case Activation::GELU: return T(0.5) * z * (T(1) + std::erf(z / T(kSqrt2)));
  }
  return z;
}

// f'(z), given z and y = f(z) (sigmoid and tanh use y, as their derivations do).
template <class T>
T act_derivative(Activation a, T z, T y) {
  switch (a) {
    case Activation::Identity: return T(1);
    case Activation::ReLU: return z > T(0) ? T(1) : T(0);  // 0 at z = 0, as torch
    case Activation::LeakyReLU: return z > T(0) ? T(1) : T(kLeakySlope);
    case Activation::ELU: return z > T(0) ? T(1) : std::exp(z);
    case Activation::Sigmoid: return y * (T(1) - y);
    case Activation::Tanh: return T(1) - y * y;
    case Activation::Softplus: return z > T(kSoftplusThreshold) ? T(1) : sigmoid(z);
    case Activation::GELU:
      return T(0.5) * (T(1) + std::erf(z / T(kSqrt2))) + z * T(kInvSqrt2Pi) * std::exp(T(-0.5) * z * z);
  }
  return T(1);
}

// f''(z), given z and y = f(z).
template <class T>
T act_second_derivative(Activation a, T z, T y) {
  switch (a) {
    case Activation::Identity:
    case Activation::ReLU:
    case Activation::LeakyReLU: return T(0);
    case Activation::ELU: return z > T(0) ? T(0) : std::exp(z);
    case Activation::Sigmoid: return y * (T(1) - y) * (T(1) - T(2) * y);
    case Activation::Tanh: return T(-2) * y * (T(1) - y * y);
    case Activation::Softplus: {
      if (z > T(kSoftplusThreshold)) return T(0);
      const T s = sigmoid(z);
      return s * (T(1) - s);
    }
    case Activation::GELU:  // d/dz [Phi(z) + z phi(z)] = phi(z) (2 - z^2)
      return T(kInvSqrt2Pi) * std::exp(T(-0.5) * z * z) * (T(2) - z * z);
  }
  return T(0);
}

// Whether f'' vanishes almost everywhere (piecewise-linear f).
bool piecewise_linear(Activation a) {
  return a == Activation::Identity || a == Activation::ReLU || a == Activation::LeakyReLU;
}

// Calls f(std::integral_constant<Activation, a>{}): the loops inside f are
// compiled once per activation with the switch of act() folded away, so the
// simple ones (ReLU, leaky ReLU, identity) vectorise.
template <class F>
void with_activation(Activation a, const F& f) {
  using A = Activation;
  switch (a) {
    case A::Identity: return f(std::integral_constant<A, A::Identity>{});
    case A::ReLU: return f(std::integral_constant<A, A::ReLU>{});
    case A::LeakyReLU: return f(std::integral_constant<A, A::LeakyReLU>{});
    case A::ELU: return f(std::integral_constant<A, A::ELU>{});
    case A::Sigmoid: return f(std::integral_constant<A, A::Sigmoid>{});
    case A::Tanh: return f(std::integral_constant<A, A::Tanh>{});
    case A::Softplus: return f(std::integral_constant<A, A::Softplus>{});
    case A::GELU: return f(std::integral_constant<A, A::GELU>{});
  }
}

// ---------------------------------------------------------------- activations

// An elementwise loop over n entries in fixed blocks of kElementBlock (on up to the machine's
// threads once there are enough entries: a CNN's feature maps, 128 x 4704 values): f(i0, i1) per
// block. Each entry's value depends on that entry alone, so any split gives the same bits.
constexpr Eigen::Index kElementBlock = 1 << 14;
template <class F>
void for_element_blocks(Eigen::Index n, const F& f) {
  const int blocks = static_cast<int>((n + kElementBlock - 1) / kElementBlock);
  if (blocks <= 1) {
    f(Eigen::Index(0), n);
    return;
  }
  parallel_for_blocks(blocks, parallel_threads(blocks, double(n), 1e5), [&](int b) {
    f(Eigen::Index(b) * kElementBlock, std::min(n, Eigen::Index(b + 1) * kElementBlock));
  });
}

template <class T>
class ActivationLayer : public Layer<T> {
 public:
  explicit ActivationLayer(Activation a) : a_(a) {}
  std::string name() const override { return activation_name(a_); }
  int configure(int in) override { return in; }
  void forward(const Mat<T>& x, Mat<T>& y, bool) override {
    x_ = &x;
    y_ = &y;
    y.resize(x.rows(), x.cols());
    with_activation(a_, [&](auto a) {
      const T* xs = x.data();
      T* ys = y.data();
      for_element_blocks(x.size(), [&](Eigen::Index i0, Eigen::Index i1) {
        for (Eigen::Index i = i0; i < i1; ++i) ys[i] = act(a.value, xs[i]);
      });
    });
  }
  // The fused path (Linear::forward_fused): the caller computed x and sized
  // y; this records them for backward and maps columns [j0, j0 + nj) of x.
  void fused_begin(const Mat<T>& x, Mat<T>& y) {
    x_ = &x;
    y_ = &y;
  }
  Activation kind() const { return a_; }
  // The input of the last forward (backward reads it).
  const Mat<T>& input() const { return *x_; }
  void fused_columns(const Mat<T>& x, Mat<T>& y, int j0, int nj) const {
    with_activation(a_, [&](auto a) {
      for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const T* xs = x.data() + i * x.cols() + j0;
        T* ys = y.data() + i * y.cols() + j0;
        for (int j = 0; j < nj; ++j) ys[j] = act(a.value, xs[j]);
      }
    });
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    if (!dx) return;
    dx->resize(dy.rows(), dy.cols());
    with_activation(a_, [&](auto a) {
      const T *xs = x_->data(), *ys = y_->data(), *g = dy.data();
      T* out = dx->data();
      for_element_blocks(dy.size(), [&](Eigen::Index i0, Eigen::Index i1) {
        for (Eigen::Index i = i0; i < i1; ++i) out[i] = g[i] * act_derivative(a.value, xs[i], ys[i]);
      });
    });
  }
  // u_in = u_out * f'(z): ubar_out = ubar_in * f'(z), xbar += ubar_in * u_out * f''(z).
  bool double_backward(const Mat<T>& u_out, const Mat<T>& ubar_in, Mat<T>& ubar_out, Mat<T>* xbar) override {
    ubar_out.resize(ubar_in.rows(), ubar_in.cols());
    const bool curved = !piecewise_linear(a_);
    with_activation(a_, [&](auto a) {
      const T *xs = x_->data(), *ys = y_->data(), *g = ubar_in.data(), *u = u_out.data();
      T* out = ubar_out.data();
      for (Eigen::Index i = 0; i < ubar_in.size(); ++i) out[i] = g[i] * act_derivative(a.value, xs[i], ys[i]);
      if (curved && xbar) {
        T* xb = xbar->data();
        for (Eigen::Index i = 0; i < ubar_in.size(); ++i)
          xb[i] += g[i] * u[i] * act_second_derivative(a.value, xs[i], ys[i]);
      }
    });
    return curved;
  }
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::make_unique<ActivationLayer>(*this);
    c->x_ = c->y_ = nullptr;
    return c;
  }

 private:
  Activation a_;
  const Mat<T>* x_ = nullptr;
  const Mat<T>* y_ = nullptr;
};

// ---------------------------------------------------------------- Linear

// The fixed partition of a product's output columns: about kGemmBlockCols
// columns per block, at most kGemmMaxBlocks blocks, boundaries on multiples of
// 16 (one AVX-512 float vector). It depends only on the width, never on the
// thread count. Few blocks, because each block streams the product's left
// operand again.
constexpr int kGemmBlockCols = 64;
constexpr int kGemmMaxBlocks = 4;
// Multiply-adds below which a product runs on one thread (measured: bench_nn,
// bench_gan: the GAN's 256 x 64 x 64 products, 1M multiply-adds each, ran
// slower on 2 threads than on 1 with the earlier 2e5: waking the pool costs
// more than half of 25 us of work).
constexpr double kGemmParallelMinWork = 2e6;

struct ColBlocks {
  explicit ColBlocks(int n)
      : n(n), count(std::max(1, std::min(kGemmMaxBlocks, (n + kGemmBlockCols - 1) / kGemmBlockCols))) {}
  // First column of block b (b = count gives n).
  int begin(int b) const { return b >= count ? n : (n * b / count) / 16 * 16; }
  int n, count;
};

inline int gemm_threads(int blocks, Eigen::Index multiply_adds) {
  return parallel_threads(blocks, static_cast<double>(multiply_adds), kGemmParallelMinWork);
}

// n values of a layer's slice as float32 (a state_dict tensor).
template <class T>
std::vector<float> as_floats(const T* p, Eigen::Index n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(p[i]);
  return v;
}

template <class T>
class Linear : public Layer<T> {
 public:
  explicit Linear(int out) : out_(out) {
    if (out < 1) throw std::invalid_argument("linear layer: expected at least 1 output feature, got " + std::to_string(out));
  }
  std::string name() const override { return "linear"; }
  Shape configure_shape(const Shape& in) override {
    if (in.size() != 1)
      throw std::invalid_argument("linear layer: expected flat features, got a " + shape_text(in) +
                                  " input; add a flatten layer before it");
    return {configure(in[0])};
  }
  int configure(int in) override {
    if (in < 1) throw std::invalid_argument("linear layer: expected at least 1 input feature");
    in_ = in;
    return out_;
  }
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    out.push_back(NpyArray::floats(prefix + "weight", {out_, in_}, as_floats(w_, Eigen::Index(out_) * in_)));
    out.push_back(NpyArray::floats(prefix + "bias", {out_}, as_floats(w_ + Eigen::Index(out_) * in_, out_)));
  }
  int num_params() const override { return out_ * in_ + out_; }
  void bind(T* p, T* g) override {
    w_ = p;
    gw_ = g;
  }
  void init(Rng& rng, Init init) override { init_weights(rng, init, w_, int64_t(out_) * in_, w_ + out_ * in_, out_, in_, out_); }
  // Each product runs over fixed blocks of its output's columns (col_blocks):
  // a block owns its columns, so there is no reduction and 1 or 2 threads give
  // the same bits. The products are gemm_kernels.h's (operands read in
  // place, no packing); the bias is added as each tile is stored.
  void forward(const Mat<T>& x, Mat<T>& y, bool) override { forward_blocks(x, y, nullptr, nullptr); }
  // Linear then an activation: each block of output columns gets its bias,
  // product and activation while it is in cache (and on the block's thread);
  // a ReLU inside the product's store.
  bool forward_fused(const Mat<T>& x, Mat<T>& z, Layer<T>& next, Mat<T>& y, bool) override {
    auto* a = dynamic_cast<ActivationLayer<T>*>(&next);
    if (!a) return false;
    forward_blocks(x, z, a, &y);
    return true;
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    param_gradients(dy);
    if (dx) input_gradient(dy, *dx, nullptr, nullptr);
  }
  // dx = dy W alone (no dW, no db).
  void backward_input(const Mat<T>& dy, Mat<T>& dx) override { input_gradient(dy, dx, nullptr, nullptr); }
  // With a ReLU below: its backward applied as each tile of dz is stored
  // (whole packets of input columns only).
  bool backward_fused(const Mat<T>& dy, Mat<T>& dz, Layer<T>& prev, Mat<T>* dx, bool params) override {
    auto* a = dynamic_cast<ActivationLayer<T>*>(&prev);
    if (!a || a->kind() != Activation::ReLU || !dx || in_ % kW != 0) return false;
    if (params) param_gradients(dy);
    input_gradient(dy, dz, a, dx);
    return true;
  }
  // u_in = u_out W: ubar_out = ubar_in W^T, dW += u_out^T ubar_in (b and x do not enter).
  bool double_backward(const Mat<T>& u_out, const Mat<T>& ubar_in, Mat<T>& ubar_out, Mat<T>*) override {
    const MapMat<T> w(w_, out_, in_);
    ubar_out.resize(ubar_in.rows(), out_);
    ubar_out.noalias() = ubar_in * w.transpose();
    MapMat<T> gw(gw_, out_, in_);
    gw.noalias() += u_out.transpose() * ubar_in;
    return false;
  }
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::make_unique<Linear>(*this);
    c->w_ = c->gw_ = nullptr;
    c->x_ = nullptr;
    return c;
  }

 private:
  // dW += dy^T x and db += column sums of dy.
  void param_gradients(const Mat<T>& dy) {
    const Eigen::Index rows = dy.rows();
    // dW (out x in) += dy^T x over blocks of input columns (dy^T read in
    // place: A(j, i) = dy(i, j)); the columns after the last full packet as
    // dW^T += x^T dy on those columns, into scratch, then added.
    const ColBlocks cw(in_);
    const int full = in_ / kW * kW;
    parallel_for_blocks(cw.count, gemm_threads(cw.count, rows * in_ * out_), [&](int blk) {
      const int k0 = cw.begin(blk), k1 = std::min(cw.begin(blk + 1), full);
      if (k1 > k0) tile::gemm_outer<T>(true, out_, k1 - k0, rows, dy.data(), 1, out_, x_->data() + k0, in_, gw_ + k0, in_);
    });
    if (full < in_) {
      const int nt = in_ - full;
      scratch_.resize(static_cast<Eigen::Index>(nt) * out_);
      tile::gemm_outer<T>(false, nt, out_, rows, x_->data() + full, 1, in_, dy.data(), out_, scratch_.data(), out_);
      for (int j = 0; j < out_; ++j)
        for (int c = 0; c < nt; ++c) gw_[j * in_ + full + c] += scratch_[c * out_ + j];
    }
    // db += column sums of dy, summed row after row (in registers), then
    // added: the order depends on neither the buffer's address nor its alignment.
    T* gb = gw_ + out_ * in_;
    tile::add_column_sums<T>(rows, out_, dy.data(), out_, gb);
  }
  // dx (rows x in) = dy W over fixed blocks of input columns (W's rows read
  // in place); the columns after the last full packet as dot products with
  // the rows of W^T (a transposed copy of those columns).
  // With `relu` (a ReLU layer below, in_ a whole number of packets), also
  // *relu_dx = dx relu'(z) for that layer's input z (its backward).
  void input_gradient(const Mat<T>& dy, Mat<T>& dx, ActivationLayer<T>* relu, Mat<T>* relu_dx) {
    const Eigen::Index rows = dy.rows();
    const ColBlocks cw(in_);
    const int full = in_ / kW * kW;
    dx.resize(rows, in_);
    const T* z = nullptr;
    if (relu) {
      z = relu->input().data();
      relu_dx->resize(rows, in_);
    }
    parallel_for_blocks(cw.count, gemm_threads(cw.count, rows * in_ * out_), [&](int blk) {
      const int k0 = cw.begin(blk), k1 = std::min(cw.begin(blk + 1), full);
      if (k1 > k0)
        tile::gemm_outer<T>(false, rows, k1 - k0, out_, dy.data(), out_, 1, w_ + k0, in_, dx.data() + k0, in_, nullptr,
                            relu ? relu_dx->data() + k0 : nullptr, z ? z + k0 : nullptr);
    });
    if (full < in_) {
      const int nt = in_ - full;
      scratch_.resize(static_cast<Eigen::Index>(nt) * out_);
      for (int c = 0; c < nt; ++c)
        for (int j = 0; j < out_; ++j) scratch_[c * out_ + j] = w_[j * in_ + full + c];
      tile::gemm_dot<T>(false, rows, nt, out_, dy.data(), out_, scratch_.data(), out_, dx.data() + full, in_);
    }
  }
  // y = x W^T + b over fixed blocks of output columns (x times a transposed
  // copy of W, the bias added as each tile is stored); the columns after the
  // last full packet as dot products of x's rows with W's rows. With `a`,
  // also ay = a(y) per block (ay sized here).
  void forward_blocks(const Mat<T>& x, Mat<T>& y, ActivationLayer<T>* a, Mat<T>* ay) {
    x_ = &x;
    const Eigen::Index rows = x.rows();
    y.resize(rows, out_);
    if (a) {
      ay->resize(rows, out_);
      a->fused_begin(y, *ay);
    }
    const T* b = w_ + out_ * in_;
    const int full = out_ / kW * kW;
    if (full > 0) wt_.resize(static_cast<Eigen::Index>(in_) * out_);
    // A ReLU is applied as each tile is stored; other activations per block.
    const bool relu = a && a->kind() == Activation::ReLU;
    const ColBlocks cb(out_);
    parallel_for_blocks(cb.count, gemm_threads(cb.count, rows * in_ * out_), [&](int blk) {
      const int j0 = cb.begin(blk), j1 = std::min(cb.begin(blk + 1), full);
      if (j1 <= j0) return;
      // The block's columns of W^T (rows j0..j1 of W) as one contiguous panel (in x (j1 - j0)),
      // on the block's thread: its rows follow each other in memory, where rows of the whole W^T
      // lay out_ floats apart (1 KiB for 256 outputs: a stride that maps the panel onto a few cache
      // sets, so it fell out of L2 and two threads shared L3's bandwidth). Same values, same order.
      T* panel = wt_.data() + Eigen::Index(j0) * in_;
      tile::transpose<T>(j1 - j0, in_, w_ + Eigen::Index(j0) * in_, in_, panel, j1 - j0);
      tile::gemm_outer<T>(false, rows, j1 - j0, in_, x.data(), in_, 1, panel, j1 - j0, y.data() + j0, out_, b + j0,
                          relu ? ay->data() + j0 : nullptr);
      if (a && !relu) a->fused_columns(y, *ay, j0, j1 - j0);
    });
    if (full < out_) {
      tile::gemm_dot<T>(false, rows, out_ - full, in_, x.data(), in_, w_ + full * in_, in_, y.data() + full, out_,
                        b + full);
      if (a) a->fused_columns(y, *ay, full, out_ - full);
    }
  }

  static constexpr int kW = tile::kPacket<T>;
  int in_ = 0, out_;
  T* w_ = nullptr;   // W (out x in, row-major) then b (out)
  T* gw_ = nullptr;  // their gradients
  const Mat<T>* x_ = nullptr;
  Vec<T> wt_;       // forward scratch: W^T by column blocks, each an (in x block width) panel
  Vec<T> scratch_;  // backward scratch: the last columns' products
};

// ---------------------------------------------------------------- dropout

template <class T>
class Dropout : public Layer<T> {
 public:
  Dropout(double p, uint64_t seed) : p_(p), rng_(seed) {
    if (!(p >= 0.0 && p < 1.0))
      throw std::invalid_argument("dropout: expected a probability in [0, 1), got " + std::to_string(p));
  }
  std::string name() const override { return "dropout"; }
  int configure(int in) override { return in; }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override {
    train_ = train && p_ > 0.0;
    if (!train_) {
      y = x;
      return;
    }
    if (!frozen_ || mask_.rows() != x.rows() || mask_.cols() != x.cols()) {
      mask_.resize(x.rows(), x.cols());
      const T keep = static_cast<T>(1.0 / (1.0 - p_));
      for (Eigen::Index i = 0; i < mask_.size(); ++i) mask_.data()[i] = rng_.uniform() < p_ ? T(0) : keep;
    }
    y.resize(x.rows(), x.cols());
    y.array() = x.array() * mask_.array();
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    if (!dx) return;
    if (!train_) {
      *dx = dy;
      return;
    }
    dx->resize(dy.rows(), dy.cols());
    dx->array() = dy.array() * mask_.array();
  }
  std::unique_ptr<Layer<T>> clone() const override { return std::make_unique<Dropout>(*this); }
  void set_frozen(bool f) { frozen_ = f; }

 private:
  double p_;
  Rng rng_;
  Mat<T> mask_;
  bool train_ = false;
  bool frozen_ = false;
};

// ---------------------------------------------------------------- normalisation

// Shared by batch norm (statistics over the rows of each column) and layer
// norm (over the columns of each row): xhat = (x - mean) / sqrt(var + eps),
// y = gamma xhat + beta; backward dx = inv_std / m (m dxhat - sum dxhat - xhat
// sum(dxhat xhat)) over the same m entries, dxhat = dy gamma. This base holds
// gamma and beta (f each, gamma = 1 and beta = 0 initially) and xhat.
template <class T>
class AffineNorm : public Layer<T> {
 public:
  int configure(int in) override {
    f_ = in;
    return in;
  }
  int num_params() const override { return 2 * f_; }
  Shape configure_shape(const Shape& in) override {
    if (in.size() != 1)
      throw std::invalid_argument(this->name() + " layer: expected flat features, got a " + shape_text(in) +
                                  " input (normalising channels of images is not in the library yet); add a flatten "
                                  "layer before it");
    return {configure(in[0])};
  }
  void bind(T* p, T* g) override {
    p_ = p;
    g_ = g;
  }
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    out.push_back(NpyArray::floats(prefix + "weight", {f_}, as_floats(p_, f_)));
    out.push_back(NpyArray::floats(prefix + "bias", {f_}, as_floats(p_ + f_, f_)));
  }
  void init(Rng&, Init) override {
    MapVec<T>(p_, f_).setOnes();
    MapVec<T>(p_ + f_, f_).setZero();
  }

 protected:
  // y = gamma xhat + beta, from xhat_.
  void affine(Mat<T>& y) const {
    const MapVec<T> gamma(p_, f_), beta(p_ + f_, f_);
    y.resize(xhat_.rows(), f_);
    y = xhat_ * gamma.asDiagonal();
    y.rowwise() += beta.transpose();
  }
  // Adds dL/dgamma and dL/dbeta; returns dxhat = dy gamma.
  Mat<T> affine_backward(const Mat<T>& dy) {
    // The sums go to owned (aligned) vectors first: reduced straight into the
    // gradient buffer, their order would depend on its address (see Linear).
    MapVec<T> ggamma(g_, f_), gbeta(g_ + f_, f_);
    const Vec<T> sum_dy_xhat = (dy.array() * xhat_.array()).colwise().sum().matrix().transpose();
    const Vec<T> sum_dy = dy.colwise().sum().transpose();
    ggamma += sum_dy_xhat;
    gbeta += sum_dy;
    const MapVec<T> gamma(p_, f_);
    return dy * gamma.asDiagonal();
  }
  void unbind() { p_ = g_ = nullptr; }

  int f_ = 0;
  T* p_ = nullptr;  // gamma (f) then beta (f)
  T* g_ = nullptr;
  Mat<T> xhat_;
};

template <class T>
class BatchNorm : public AffineNorm<T> {
 public:
  std::string name() const override { return "batch_norm"; }
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    AffineNorm<T>::state_dict(prefix, out);
    out.push_back(NpyArray::floats(prefix + "running_mean", {this->f_}, as_floats(running_mean_.data(), this->f_)));
    out.push_back(NpyArray::floats(prefix + "running_var", {this->f_}, as_floats(running_var_.data(), this->f_)));
    out.push_back(NpyArray::int64_scalar(prefix + "num_batches_tracked", batches_));
  }
  int configure(int in) override {
    running_mean_ = Vec<T>::Zero(in);
    running_var_ = Vec<T>::Ones(in);
    return AffineNorm<T>::configure(in);
  }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override {
    const Eigen::Index b = x.rows();
    train_ = train;
    if (train) {
      if (b < 2)
        throw std::invalid_argument("batch_norm: expected more than 1 sample per batch in training, got " +
                                    std::to_string(b) + "; use a larger batch");
      const Vec<T> mean = x.colwise().mean().transpose();
      this->xhat_ = x.rowwise() - mean.transpose();
      const Vec<T> var = this->xhat_.array().square().colwise().mean().transpose();
      inv_std_ = (var.array() + T(kNormEps)).rsqrt();
      const T m = T(kBatchNormMomentum);
      ++batches_;
      running_mean_ = (T(1) - m) * running_mean_ + m * mean;
      running_var_ = (T(1) - m) * running_var_ + m * var * (T(b) / T(b - 1));
    } else {
      this->xhat_ = x.rowwise() - running_mean_.transpose();
      inv_std_ = (running_var_.array() + T(kNormEps)).rsqrt();
    }
    this->xhat_ = this->xhat_ * inv_std_.asDiagonal();
    this->affine(y);
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    const Mat<T> dxhat = this->affine_backward(dy);
    if (!dx) return;
    dx->resize(dy.rows(), this->f_);
    if (!train_) {
      *dx = dxhat * inv_std_.asDiagonal();
      return;
    }
    const T m = T(dy.rows());
    const Vec<T> sum_d = dxhat.colwise().sum().transpose();
    const Vec<T> sum_dx = (dxhat.array() * this->xhat_.array()).colwise().sum().matrix().transpose();
    for (Eigen::Index i = 0; i < dy.rows(); ++i)
      for (int j = 0; j < this->f_; ++j)
        (*dx)(i, j) = inv_std_[j] / m * (m * dxhat(i, j) - sum_d[j] - this->xhat_(i, j) * sum_dx[j]);
  }
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::make_unique<BatchNorm>(*this);
    c->unbind();
    return c;
  }

 private:
  Vec<T> running_mean_, running_var_, inv_std_;
  int64_t batches_ = 0;  // training forwards so far (torch's num_batches_tracked)
  bool train_ = false;
};

template <class T>
class LayerNorm : public AffineNorm<T> {
 public:
  std::string name() const override { return "layer_norm"; }
  void forward(const Mat<T>& x, Mat<T>& y, bool) override {
    const Vec<T> mean = x.rowwise().mean();
    this->xhat_ = x.colwise() - mean;
    const Vec<T> var = this->xhat_.array().square().rowwise().mean();
    inv_std_ = (var.array() + T(kNormEps)).rsqrt();
    this->xhat_ = inv_std_.asDiagonal() * this->xhat_;
    this->affine(y);
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override {
    const Mat<T> dxhat = this->affine_backward(dy);
    if (!dx) return;
    const T m = T(this->f_);
    const Vec<T> sum_d = dxhat.rowwise().sum();
    const Vec<T> sum_dx = (dxhat.array() * this->xhat_.array()).rowwise().sum();
    dx->resize(dy.rows(), this->f_);
    for (Eigen::Index i = 0; i < dy.rows(); ++i)
      for (int j = 0; j < this->f_; ++j)
        (*dx)(i, j) = inv_std_[i] / m * (m * dxhat(i, j) - sum_d[i] - this->xhat_(i, j) * sum_dx[i]);
  }
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::make_unique<LayerNorm>(*this);
    c->unbind();
    return c;
  }

 private:
  Vec<T> inv_std_;  // per sample
};

}  // namespace

const char* init_name(Init init) {
  switch (init) {
    case Init::Torch: return "torch";
    case Init::Glorot: return "glorot";
    case Init::He: return "he";
  }
  return "?";
}

const char* activation_name(Activation a) {
  static const char* const kNames[kNumActivations] = {"identity", "relu", "leaky_relu", "elu",
                                                      "sigmoid",  "tanh", "softplus",   "gelu"};
  return kNames[static_cast<int>(a)];
}

std::vector<std::string> activation_names() {
  std::vector<std::string> out;
  for (int i = 0; i < kNumActivations; ++i) out.push_back(activation_name(static_cast<Activation>(i)));
  return out;
}

double activation_value(Activation a, double z) { return act(a, z); }
double activation_derivative(Activation a, double z) { return act_derivative(a, z, act(a, z)); }
double activation_second_derivative(Activation a, double z) { return act_second_derivative(a, z, act(a, z)); }

template <class T>
std::unique_ptr<Layer<T>> make_linear(int out_features) {
  return std::make_unique<Linear<T>>(out_features);
}
template <class T>
std::unique_ptr<Layer<T>> make_activation(Activation a) {
  return std::make_unique<ActivationLayer<T>>(a);
}
template <class T>
std::unique_ptr<Layer<T>> make_dropout(double p, uint64_t seed) {
  return std::make_unique<Dropout<T>>(p, seed);
}
template <class T>
std::unique_ptr<Layer<T>> make_batch_norm() {
  return std::make_unique<BatchNorm<T>>();
}
template <class T>
std::unique_ptr<Layer<T>> make_layer_norm() {
  return std::make_unique<LayerNorm<T>>();
}
template <class T>
void freeze_dropout_mask(Layer<T>& layer, bool frozen) {
  if (auto* d = dynamic_cast<Dropout<T>*>(&layer)) d->set_frozen(frozen);
}

int64_t shape_size(const Shape& s) {
  int64_t n = 1;
  for (const int d : s) n *= d;
  return n;
}

std::string shape_text(const Shape& s) {
  std::string t;
  for (size_t i = 0; i < s.size(); ++i) t += (i ? " x " : "") + std::to_string(s[i]);
  return t;
}

template <class T>
Shape Layer<T>::configure_shape(const Shape& in) {
  const int64_t size = shape_size(in);
  const int out = configure(static_cast<int>(size));
  if (out == size) return in;
  if (in.size() > 1)
    throw std::invalid_argument(name() + " layer: expected flat features, got a " + shape_text(in) +
                                " input; add a flatten layer before it");
  return {out};
}

template <class T>
std::vector<LayerKind<T>> layer_kinds() {
  std::vector<LayerKind<T>> kinds;
  kinds.push_back({"linear", [] { return make_linear<T>(3); }});
  for (int i = 0; i < kNumActivations; ++i) {
    const auto a = static_cast<Activation>(i);
    kinds.push_back({activation_name(a), [a] { return make_activation<T>(a); }});
  }
  kinds.push_back({"dropout", [] { return make_dropout<T>(0.3, 5); }});
  kinds.push_back({"batch_norm", [] { return make_batch_norm<T>(); }});
  kinds.push_back({"layer_norm", [] { return make_layer_norm<T>(); }});
  kinds.push_back({"conv2d", [] { return make_conv2d<T>(3, 3); }, {2, 5, 5}});
  kinds.push_back({"conv2d_strided_padded", [] { return make_conv2d<T>(3, 3, 2, 1); }, {2, 6, 5}});
  kinds.push_back({"conv2d_dilated_grouped", [] { return make_conv2d<T>(4, 2, 1, 1, 2, 2); }, {2, 5, 6}});
  kinds.push_back({"max_pool2d", [] { return make_max_pool2d<T>(2); }, {2, 4, 6}});
  kinds.push_back({"avg_pool2d", [] { return make_avg_pool2d<T>(3, 2); }, {2, 7, 5}});
  kinds.push_back({"flatten", [] { return make_flatten<T>(); }, {2, 3, 3}});
  kinds.push_back({"conv1d", [] { return make_conv1d<T>(3, 3, 2, 2, 2, 1); }, {2, 11}});
  kinds.push_back({"batch_norm2d", [] { return make_batch_norm2d<T>(); }, {2, 3, 3}});
  kinds.push_back({"masked_linear", [] { return make_masked_linear<T>(4, [](int o, int i) { return i <= o; }); }});
  kinds.push_back({"residual", [] {
                     std::vector<std::unique_ptr<Layer<T>>> f;
                     f.push_back(make_layer_norm<T>());
                     f.push_back(make_activation<T>(Activation::Tanh));
                     return make_residual<T>(std::move(f));
                   }});
  kinds.push_back({"sequential", [] {
                     std::vector<std::unique_ptr<Layer<T>>> block;
                     block.push_back(make_conv2d<T>(3, 3, 1, 1));
                     block.push_back(make_batch_norm2d<T>());
                     block.push_back(make_activation<T>(Activation::ELU));
                     return make_sequential<T>(std::move(block));
                   }, {2, 4, 4}});
  kinds.push_back({"concat", [] {
                     std::vector<std::vector<std::unique_ptr<Layer<T>>>> branches(3);
                     branches[0].push_back(make_linear<T>(3));
                     branches[0].push_back(make_activation<T>(Activation::Tanh));
                     branches[1].push_back(make_linear<T>(2));
                     branches[2].push_back(make_activation<T>(Activation::Sigmoid));  // x itself, squashed
                     return make_concat<T>(std::move(branches));
                   }});
  kinds.push_back({"concat_channels", [] {
                     std::vector<std::vector<std::unique_ptr<Layer<T>>>> branches(2);
                     branches[0].push_back(make_conv2d<T>(2, 3, 1, 1));
                     branches[1].push_back(make_conv2d<T>(1, 1));
                     return make_concat<T>(std::move(branches));
                   }, {2, 4, 5}});
  return kinds;
}

template <class T>
void init_weights(Rng& rng, Init init, T* w, int64_t nw, T* b, int nb, double fan_in, double fan_out) {
  switch (init) {
    case Init::Torch: {  // kaiming_uniform_(a = sqrt(5)) = U(+-1/sqrt(fan_in)), and the bias alike
      const double bound = 1.0 / std::sqrt(fan_in);
      for (int64_t i = 0; i < nw; ++i) w[i] = static_cast<T>(rng.uniform(-bound, bound));
      for (int i = 0; i < nb; ++i) b[i] = static_cast<T>(rng.uniform(-bound, bound));
      break;
    }
    case Init::Glorot: {
      const double a = std::sqrt(6.0 / (fan_in + fan_out));
      for (int64_t i = 0; i < nw; ++i) w[i] = static_cast<T>(rng.uniform(-a, a));
      std::fill(b, b + nb, T(0));
      break;
    }
    case Init::He: {
      const double sd = std::sqrt(2.0 / fan_in);
      for (int64_t i = 0; i < nw; ++i) w[i] = static_cast<T>(rng.normal(0.0, sd));
      std::fill(b, b + nb, T(0));
      break;
    }
  }
}

#define CILAB_NN_INSTANTIATE(T)                                           \
  template class Layer<T>;                                                \
  template void init_weights<T>(Rng&, Init, T*, int64_t, T*, int, double, double); \
  template std::unique_ptr<Layer<T>> make_linear<T>(int);                 \
  template std::unique_ptr<Layer<T>> make_activation<T>(Activation);      \
  template std::unique_ptr<Layer<T>> make_dropout<T>(double, uint64_t);   \
  template std::unique_ptr<Layer<T>> make_batch_norm<T>();                \
  template std::unique_ptr<Layer<T>> make_layer_norm<T>();                \
  template void freeze_dropout_mask<T>(Layer<T>&, bool);                  \
  template std::vector<LayerKind<T>> layer_kinds<T>();
CILAB_NN_INSTANTIATE(float)
CILAB_NN_INSTANTIATE(double)
#undef CILAB_NN_INSTANTIATE

}  // namespace cilab::nn
