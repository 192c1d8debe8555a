// The network library (algorithms/nn/): every layer's backward against central
// finite differences in double (parameters and the input gradient), the losses
// against hand-computed values, PyTorch's conventions, copies and a small
// network learning XOR on the shared optimizer.
#include "algorithms/core/parallel.h"
#include "algorithms/nn/gradcheck.h"
#include "algorithms/nn/kernels.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/sequential.h"
#include "algorithms/optim/optimizer.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::nn;

namespace {

Mat<double> random_mat(Rng& rng, int r, int c, double scale = 1.0) {
  Mat<double> m(r, c);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal(0.0, scale);
  return m;
}


Sequential<double> net_of(std::vector<std::function<std::unique_ptr<Layer<double>>()>> makers, int in, uint64_t seed = 3) {
  Sequential<double> net;
  for (auto& m : makers) net.add(m());
  net.build(in);
  Rng rng(seed);
  net.init(rng, Init::Torch);
  return net;
}

}  // namespace

TEST_CASE("nn: every layer kind of the library back-propagates exactly - alone, after a Linear, in training and eval mode") {
  // layer_kinds() lists every layer the library has: one added tomorrow is checked here the
  // day it is (parameters and input gradient against central differences, check_network).
  const std::vector<LayerKind<double>> kinds = layer_kinds<double>();
  CHECK(kinds.size() >= static_cast<size_t>(kNumActivations) + 8);  // linear, activations, dropout, norms, conv, pools
  for (const LayerKind<double>& kind : kinds) {
    for (const bool train : {true, false}) {
      const std::string what = kind.name + " on " + shape_text(kind.example_in) + (train ? " (training mode)" : " (eval mode)");
      INFO(what);
      const Shape& in = kind.example_in;
      const int features = static_cast<int>(shape_size(in));
      Sequential<double> alone;
      alone.add(kind.make());
      alone.build(in);
      Rng rng(4);
      alone.init(rng, Init::Torch);
      // h = 1e-5: the piecewise-linear layers (max pooling) have no truncation error, and the
      // smooth ones' O(h^2) stays far below the threshold; the rounding error is 10x smaller.
      const GradientError a = check_network(alone, random_mat(rng, 6, features, 1.5), train, 1e-5);
      CHECK_MESSAGE(a.error < 1e-6, a.describe());
      // After a layer with parameters (a Linear; a 1 x 1 convolution for sequence and image inputs): the
      // input gradient it hands down is checked through them.
      Sequential<double> after;
      if (in.size() == 1)
        after.add(make_linear<double>(4));
      else if (in.size() == 2)
        after.add(make_conv1d<double>(in[0], 1));  // sequences {C, L}
      else
        after.add(make_conv2d<double>(in[0], 1));
      after.add(kind.make());
      after.build(in.size() == 1 ? Shape{5} : in);
      after.init(rng, Init::Torch);
      const GradientError b =
          check_network(after, random_mat(rng, 6, in.size() == 1 ? 5 : features, 1.5), train, 1e-5);
      CHECK_MESSAGE(b.error < 1e-6, b.describe());
    }
  }
}

TEST_CASE("nn: check_network finds a wrong gradient (a backward that drops a term) and names where") {
  // A layer whose backward forgets the derivative of tanh: the check must fail, on the input.
  struct WrongTanh final : Layer<double> {
    const Mat<double>* x = nullptr;
    std::string name() const override { return "wrong_tanh"; }
    int configure(int in) override { return in; }
    void forward(const Mat<double>& in, Mat<double>& y, bool) override {
      x = &in;
      y = in.array().tanh().matrix();
    }
    void backward(const Mat<double>& dy, Mat<double>* dx) override {
      if (dx) *dx = dy;  // should be dy .* (1 - tanh^2)
    }
    std::unique_ptr<Layer<double>> clone() const override { return std::make_unique<WrongTanh>(*this); }
  };
  Sequential<double> net;
  net.add(make_linear<double>(3));
  net.add(std::make_unique<WrongTanh>());
  net.build(4);
  Rng rng(2);
  net.init(rng, Init::Torch);
  const GradientError e = check_network(net, random_mat(rng, 5, 4, 2.0), true);
  CHECK(e.error > 1e-2);
  CHECK(e.describe().find("error") != std::string::npos);
}

TEST_CASE("nn: every activation's backward matches finite differences (input gradient)") {
  for (int a = 0; a < kNumActivations; ++a) {
    const Activation act = static_cast<Activation>(a);
    INFO(activation_name(act));
    Sequential<double> net = net_of({[&] { return make_activation<double>(act); }}, 5);
    Rng rng(4);
    const GradientError e = check_network(net, random_mat(rng, 4, 5, 1.5), true);
    CHECK_MESSAGE(e.error < 1e-6, e.describe());
  }
}

TEST_CASE("nn: a Linear then an activation run fused give the two layers' values and exact gradients") {
  for (int a = 0; a < kNumActivations; ++a) {
    const Activation act = static_cast<Activation>(a);
    INFO(activation_name(act));
    // Sequential fuses the pair: same bits as the two forward() calls one by one
    // (70 outputs: two column blocks).
    Sequential<float> net;
    net.add(make_linear<float>(70));
    net.add(make_activation<float>(act));
    net.build(9);
    Rng rng(5);
    net.init(rng, Init::Torch);
    Mat<float> x(6, 9);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(rng.normal(0.0, 1.0));
    const Mat<float> fused = net.forward(x, true);
    Mat<float> z, y;
    net.layer(0).forward(x, z, true);
    net.layer(1).forward(z, y, true);
    CHECK(fused == y);
    // Backward after the fused forward: exact against central differences.
    Sequential<double> dnet = net_of({[] { return make_linear<double>(7); }, [&] { return make_activation<double>(act); },
                                      [] { return make_linear<double>(3); }},
                                     5);
    const GradientError e = check_network(dnet, random_mat(rng, 4, 5), true);
    CHECK_MESSAGE(e.error < 1e-6, e.describe());
  }
}

TEST_CASE("nn: a Linear layer's weight, bias and input gradients match finite differences") {
  for (Init init : {Init::Torch, Init::Glorot, Init::He}) {
    INFO(init_name(init));
    Sequential<double> net;
    net.add(make_linear<double>(3));
    net.build(5);
    Rng rng(9);
    net.init(rng, init);
    const GradientError e = check_network(net, random_mat(rng, 4, 5), true);
    CHECK_MESSAGE(e.error < 1e-6, e.describe());
  }
}

namespace {

// Linear(hidden) -> ReLU -> Linear(out) in T against the same products written
// out in long double: the forward output, every parameter gradient, dL/dh
// (Sequential::input_gradient(2)) and dL/dx, by backward() and by
// backward_input() (which must leave the gradients at zero). Returns the
// largest error relative to the largest entry of each quantity.
template <class T>
double linear_relu_linear_error(int batch, int in, int hidden, int out, uint64_t seed) {
  using LD = long double;
  Sequential<T> net;
  net.add(make_linear<T>(hidden));
  net.add(make_activation<T>(Activation::ReLU));
  net.add(make_linear<T>(out));
  net.build(in);
  Rng rng(seed);
  net.init(rng, Init::Torch);
  Mat<T> x(batch, in), r(batch, out);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<T>(rng.normal());
  for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = static_cast<T>(rng.normal());
  const T* p = net.params();
  const T *w1 = p, *b1 = p + hidden * in, *w2 = b1 + hidden, *b2 = w2 + out * hidden;
  // The oracle.
  std::vector<LD> z1(batch * hidden), h(batch * hidden), y(batch * out), dh(batch * hidden), dz1(batch * hidden),
      dx(batch * in, 0), gw1(hidden * in, 0), gb1(hidden, 0), gw2(out * hidden, 0), gb2(out, 0);
  for (int i = 0; i < batch; ++i)
    for (int j = 0; j < hidden; ++j) {
      LD s = b1[j];
      for (int k = 0; k < in; ++k) s += static_cast<LD>(x(i, k)) * w1[j * in + k];
      z1[i * hidden + j] = s;
      h[i * hidden + j] = s > 0 ? s : 0;
    }
  for (int i = 0; i < batch; ++i)
    for (int j = 0; j < out; ++j) {
      LD s = b2[j];
      for (int k = 0; k < hidden; ++k) s += h[i * hidden + k] * w2[j * hidden + k];
      y[i * out + j] = s;
    }
  for (int i = 0; i < batch; ++i) {
    for (int k = 0; k < hidden; ++k) {
      LD s = 0;
      for (int j = 0; j < out; ++j) s += static_cast<LD>(r(i, j)) * w2[j * hidden + k];
      dh[i * hidden + k] = s;
      dz1[i * hidden + k] = z1[i * hidden + k] > 0 ? s : 0;
    }
    for (int j = 0; j < out; ++j) {
      gb2[j] += r(i, j);
      for (int k = 0; k < hidden; ++k) gw2[j * hidden + k] += static_cast<LD>(r(i, j)) * h[i * hidden + k];
    }
    for (int j = 0; j < hidden; ++j) {
      gb1[j] += dz1[i * hidden + j];
      for (int k = 0; k < in; ++k) gw1[j * in + k] += dz1[i * hidden + j] * x(i, k);
    }
    for (int k = 0; k < in; ++k)
      for (int j = 0; j < hidden; ++j) dx[i * in + k] += dz1[i * hidden + j] * w1[j * in + k];
  }
  double worst = 0;
  auto compare = [&](const std::vector<LD>& want, const T* got) {
    LD scale = 1e-30L, err = 0;
    for (LD v : want) scale = std::max(scale, std::abs(v));
    for (size_t i = 0; i < want.size(); ++i) err = std::max(err, std::abs(want[i] - static_cast<LD>(got[i])));
    worst = std::max(worst, static_cast<double>(err / scale));
  };
  compare(y, net.forward(x, true).data());
  net.zero_grad();
  Mat<T> got_dx;
  net.backward(r, &got_dx);
  const T* g = net.grads();
  compare(gw1, g);
  compare(gb1, g + hidden * in);
  compare(gw2, g + hidden * in + hidden);
  compare(gb2, g + hidden * in + hidden + out * hidden);
  compare(dh, net.input_gradient(2).data());
  compare(dx, got_dx.data());
  // The input gradient alone: the same dx, no parameter gradient.
  net.forward(x, true);
  net.zero_grad();
  Mat<T> dx_only;
  net.backward_input(r, dx_only);
  compare(dx, dx_only.data());
  compare(dh, net.input_gradient(2).data());
  for (size_t i = 0; i < net.num_params(); ++i) worst = std::max(worst, static_cast<double>(std::abs(net.grads()[i])));
  return worst;
}

}  // namespace

TEST_CASE("nn: Linear's products match a long-double oracle on every shape class (tiles, remainders, narrow outputs)") {
  // Widths around the packet (16 floats / 8 doubles with AVX-512, 4 with SSE)
  // and the 6- or 3-row register tile: whole tiles, remainder rows and
  // columns, outputs narrower than a packet (one logit, a 2-D sample), the
  // ReLU fused into the forward and into the input gradient.
  const int shapes[][4] = {{256, 2, 64, 1}, {256, 64, 64, 2}, {13, 37, 40, 17}, {7, 16, 48, 16},
                           {1, 5, 3, 70},   {31, 64, 33, 64}, {6, 96, 128, 10}, {5, 2, 16, 2}};
  for (const auto& sh : shapes) {
    INFO("batch " << sh[0] << ", " << sh[1] << "-" << sh[2] << "-" << sh[3]);
    CHECK(linear_relu_linear_error<float>(sh[0], sh[1], sh[2], sh[3], 21) < 2e-6);
    CHECK(linear_relu_linear_error<double>(sh[0], sh[1], sh[2], sh[3], 22) < 1e-14);
  }
}

TEST_CASE("nn: a deep stack (linear, GELU, layer norm, ELU, linear) back-propagates exactly") {
  Sequential<double> net = net_of({[] { return make_linear<double>(6); }, [] { return make_activation<double>(Activation::GELU); },
                                   [] { return make_layer_norm<double>(); }, [] { return make_activation<double>(Activation::ELU); },
                                   [] { return make_linear<double>(2); }},
                                  4);
  Rng rng(5);
  const GradientError e = check_network(net, random_mat(rng, 3, 4), true);
  CHECK_MESSAGE(e.error < 1e-6, e.describe());
}

TEST_CASE("nn: batch normalisation's backward is exact in training mode and in eval mode") {
  Sequential<double> net = net_of({[] { return make_linear<double>(3); }, [] { return make_batch_norm<double>(); },
                                   [] { return make_activation<double>(Activation::Tanh); }},
                                  4);
  // Non-trivial gamma and beta.
  for (size_t i = net.param_offset(1); i < net.num_params(); ++i) net.params()[i] = 0.5 + 0.1 * static_cast<double>(i % 7);
  Rng rng(6);
  const GradientError train_mode = check_network(net, random_mat(rng, 5, 4), true);
  CHECK_MESSAGE(train_mode.error < 1e-6, train_mode.describe());
  const GradientError eval_mode = check_network(net, random_mat(rng, 5, 4), false);
  CHECK_MESSAGE(eval_mode.error < 1e-6, eval_mode.describe());
}

TEST_CASE("nn: batch norm keeps torch's running statistics (momentum 0.1, unbiased variance)") {
  Sequential<double> net = net_of({[] { return make_batch_norm<double>(); }}, 1);
  Mat<double> x(4, 1);
  x << 1, 2, 3, 6;  // mean 3, biased variance 3.5, unbiased 14/3
  const Mat<double> y = net.forward(x, true);
  CHECK(y.mean() == doctest::Approx(0.0).epsilon(1e-12));
  CHECK((y.array().square().mean()) == doctest::Approx(3.5 / (3.5 + 1e-5)).epsilon(1e-12));
  // Eval mode now uses running_mean = 0.3, running_var = 0.9 + 0.1 * 14/3.
  Mat<double> one(1, 1);
  one << 1.0;
  const double expect = (1.0 - 0.3) / std::sqrt(0.9 + 0.1 * 14.0 / 3.0 + 1e-5);
  CHECK(net.forward(one, false)(0, 0) == doctest::Approx(expect).epsilon(1e-12));
  CHECK_THROWS_AS(net.forward(one, true), std::invalid_argument);  // one sample cannot be normalised
}

TEST_CASE("nn: dropout with a fixed mask back-propagates exactly and is the identity in eval") {
  Sequential<double> net = net_of({[] { return make_linear<double>(8); }, [] { return make_dropout<double>(0.5, 1); },
                                   [] { return make_linear<double>(2); }},
                                  3);
  Rng rng(7);
  const Mat<double> x = random_mat(rng, 4, 3);
  const Mat<double> h = net.forward(x, true).eval();
  const Mat<double>& kept = net.activation(1);
  int zeros = 0;
  for (Eigen::Index i = 0; i < kept.size(); ++i) {
    const double pre = net.activation(0).data()[i];
    CHECK((kept.data()[i] == 0.0 || kept.data()[i] == doctest::Approx(2.0 * pre)));  // 1 / (1 - p) = 2
    zeros += kept.data()[i] == 0.0;
  }
  CHECK(zeros > 0);
  CHECK(zeros < kept.size());
  freeze_dropout_mask(net.layer(1), true);
  const GradientError e = check_network(net, x, true);
  CHECK_MESSAGE(e.error < 1e-6, e.describe());
  CHECK(net.forward(x, false).isApprox(net.forward(x, false)));
  CHECK(net.activation(1) == net.activation(0));  // eval: identity
}

TEST_CASE("nn: the losses' gradients match finite differences") {
  Rng rng(8);
  Mat<double> z = random_mat(rng, 4, 3, 2.0), t = random_mat(rng, 4, 3);
  Mat<double> p01(4, 3);
  for (Eigen::Index i = 0; i < p01.size(); ++i) p01.data()[i] = rng.uniform();
  const std::vector<int> labels = {0, 2, 1, 2};
  using LossFn = std::function<double(const Mat<double>&, Mat<double>*)>;
  const std::pair<const char*, LossFn> losses[] = {
      {"mse", [&](const Mat<double>& a, Mat<double>* d) { return mse_loss(a, t, d); }},
      {"bce_with_logits", [&](const Mat<double>& a, Mat<double>* d) { return bce_with_logits_loss(a, p01, d); }},
      {"softmax_cross_entropy", [&](const Mat<double>& a, Mat<double>* d) { return softmax_cross_entropy(a, labels, d); }},
  };
  for (const auto& [name, f] : losses) {
    INFO(name);
    Mat<double> d;
    f(z, &d);
    for (Eigen::Index i = 0; i < z.size(); ++i)
      CHECK(relative_error(d.data()[i], central_difference(z.data(), static_cast<size_t>(i), 1e-6,
                                                           [&] { return f(z, nullptr); })) < 1e-6);
  }
}

TEST_CASE("nn: losses take PyTorch's values (cross-entropy of known logits, BCE with logits, MSE)") {
  Mat<double> z(2, 3);
  z << 1, 2, 3, 0, 0, 0;
  // Row 0, label 2: log(e + e^2 + e^3) - 3 = log(1 + e^-1 + e^-2); row 1, label 0: log 3.
  const double want = (std::log(1 + std::exp(-1.0) + std::exp(-2.0)) + std::log(3.0)) / 2;
  CHECK(softmax_cross_entropy(z, {2, 0}, static_cast<Mat<double>*>(nullptr)) == doctest::Approx(want).epsilon(1e-14));
  CHECK_THROWS_WITH_AS(softmax_cross_entropy(z, {2, 3}, static_cast<Mat<double>*>(nullptr)),
                       doctest::Contains("label 3 of row 1"), std::invalid_argument);
  Mat<double> logit(1, 2), target(1, 2);
  logit << 0.0, 100.0;
  target << 1.0, 0.0;
  // log 2 for z = 0, y = 1; 100 + log(1 + e^-100) for z = 100, y = 0 (no overflow).
  CHECK(bce_with_logits_loss(logit, target, static_cast<Mat<double>*>(nullptr)) ==
        doctest::Approx((std::log(2.0) + 100.0) / 2).epsilon(1e-14));
  Mat<double> a(1, 2), b(1, 2);
  a << 1, 2;
  b << 0, 4;
  CHECK(mse_loss(a, b, static_cast<Mat<double>*>(nullptr)) == doctest::Approx(2.5));
}

TEST_CASE("nn: one Adam step of a Linear layer on the shared optimizer moves each weight by lr g / (|g| + eps)") {
  Sequential<float> net;
  net.add(make_linear<float>(1));
  net.build(2);
  const float w0[3] = {0.5f, -0.25f, 0.1f};  // W = [0.5, -0.25], b = 0.1
  std::copy(w0, w0 + 3, net.params());
  Mat<float> x(2, 2), y(2, 1);
  x << 1, 2, 3, -1;
  y << 0, 1;
  Mat<float> d;
  net.zero_grad();
  mse_loss(net.forward(x, true), y, &d);
  net.backward(d);
  // By hand: pred = x W^T + b = (0.1, 1.85); dL/dpred = (pred - y) = (0.1, 0.85) (2/N with N = 2).
  const float g[3] = {0.1f * 1 + 0.85f * 3, 0.1f * 2 + 0.85f * -1, 0.1f + 0.85f};
  for (int i = 0; i < 3; ++i) CHECK(net.grads()[i] == doctest::Approx(g[i]).epsilon(1e-6));
  OptimizerConfig cfg = OptimizerConfig::defaults(OptimizerKind::Adam);
  cfg.lr = 0.01;
  Optimizer adam(cfg, net.num_params());
  adam.step(net.params(), net.grads(), cfg.lr);
  // torch.optim.Adam, step 1: m_hat = g, v_hat = g^2, theta -= lr g / (|g| + eps).
  for (int i = 0; i < 3; ++i)
    CHECK(net.params()[i] == doctest::Approx(w0[i] - 0.01f * g[i] / (std::abs(g[i]) + 1e-8f)).epsilon(1e-6));
}

TEST_CASE("nn: a copy computes the same outputs and owns its parameters, and the same seed gives the same weights") {
  auto build = [](uint64_t seed) {
    Sequential<float> n;
    n.add(make_linear<float>(16));
    n.add(make_activation<float>(Activation::ReLU));
    n.add(make_batch_norm<float>());
    n.add(make_linear<float>(3));
    n.build(5);
    Rng rng(seed);
    n.init(rng, Init::He);
    return n;
  };
  Sequential<float> a = build(42), b = build(42), c = build(43);
  CHECK(std::equal(a.params(), a.params() + a.num_params(), b.params()));
  CHECK(!std::equal(a.params(), a.params() + a.num_params(), c.params()));
  Mat<float> x = Mat<float>::Random(6, 5);
  Sequential<float> copy = a;
  CHECK(copy.forward(x, false) == a.forward(x, false));
  copy.params()[0] += 1.0f;
  CHECK(copy.forward(x, false) != a.forward(x, false));
  CHECK_THROWS_WITH_AS(a.forward(Mat<float>::Zero(2, 4), false), doctest::Contains("expected 5 input features, got 4"),
                       std::invalid_argument);
}

TEST_CASE("nn: a 2-8-1 tanh network learns XOR with Adam and BCE with logits (100 % training accuracy)") {
  Sequential<float> net;
  net.add(make_linear<float>(8));
  net.add(make_activation<float>(Activation::Tanh));
  net.add(make_linear<float>(1));
  net.build(2);
  Rng rng(1);
  net.init(rng, Init::Torch);
  Mat<float> x(4, 2), y(4, 1);
  x << 0, 0, 0, 1, 1, 0, 1, 1;
  y << 0, 1, 1, 0;
  OptimizerConfig cfg = OptimizerConfig::defaults(OptimizerKind::Adam);
  cfg.lr = 0.05;
  Optimizer adam(cfg, net.num_params());
  Mat<float> d;
  double first = 0, last = 0;
  for (int step = 0; step < 400; ++step) {
    net.zero_grad();
    last = bce_with_logits_loss(net.forward(x, true), y, &d);
    if (step == 0) first = last;
    net.backward(d);
    adam.step(net.params(), net.grads(), cfg.lr);
  }
  CHECK(last < 0.05 * first);
  const Mat<float> out = net.forward(x, false);
  for (int i = 0; i < 4; ++i) CHECK((out(i, 0) > 0) == (y(i, 0) > 0.5f));
}

TEST_CASE("nn: training gives bit-identical weights with 1 and with 2 threads") {
  // Shapes large enough that every GEMM of the first layer is split into
  // column blocks and run on the pool (about 2.5e6 multiply-adds each).
  auto train = [](int threads) {
    set_max_threads(threads);
    Sequential<float> net;
    net.add(make_linear<float>(128));
    net.add(make_activation<float>(Activation::ReLU));
    net.add(make_linear<float>(10));
    net.build(300);
    Rng rng(7);
    net.init(rng, Init::Torch);
    Mat<float> x(64, 300);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(rng.normal(0.0, 1.0));
    std::vector<int> labels(64);
    for (int& l : labels) l = static_cast<int>(rng.below(10));
    OptimizerConfig cfg = OptimizerConfig::defaults(OptimizerKind::Adam);
    cfg.lr = 1e-3;
    Optimizer adam(cfg, net.num_params());
    Mat<float> d, dx;
    for (int step = 0; step < 20; ++step) {
      net.zero_grad();
      softmax_cross_entropy(net.forward(x, true), labels, &d);
      net.backward(d, &dx);
      adam.step(net.params(), net.grads(), cfg.lr);
    }
    set_max_threads(0);
    std::vector<float> out(net.params(), net.params() + net.num_params());
    out.insert(out.end(), dx.data(), dx.data() + dx.size());  // the input gradient too
    return out;
  };
  const std::vector<float> one = train(1), two = train(2);
  REQUIRE(one.size() == two.size());
  CHECK(std::memcmp(one.data(), two.data(), one.size() * sizeof(float)) == 0);
  // The runs did train: the weights moved away from their initial values.
  Sequential<float> init_net;
  init_net.add(make_linear<float>(128));
  init_net.build(300);
  Rng rng(7);
  init_net.init(rng, Init::Torch);
  CHECK(!std::equal(init_net.params(), init_net.params() + init_net.num_params(), one.data()));
}

#include "algorithms/nn/batches.h"

#include <algorithm>
#include <set>

TEST_CASE("nn: the batcher visits every row once per epoch in a seeded order, the last batch smaller") {
  Batcher a(10, 4, 5), b(10, 4, 5), c(10, 4, 6);
  CHECK(a.batches_per_epoch() == 3);
  std::vector<int> seen, seen_b, seen_c;
  for (int k = 0; k < 3; ++k) {
    const std::vector<int> ia = a.next();
    CHECK(ia.size() == (k < 2 ? 4u : 2u));
    seen.insert(seen.end(), ia.begin(), ia.end());
    const std::vector<int>& ib = b.next();
    seen_b.insert(seen_b.end(), ib.begin(), ib.end());
    const std::vector<int>& ic = c.next();
    seen_c.insert(seen_c.end(), ic.begin(), ic.end());
  }
  CHECK(a.epoch() == 1);
  CHECK(std::set<int>(seen.begin(), seen.end()).size() == 10);
  CHECK(seen == seen_b);
  CHECK(seen != seen_c);
  std::vector<int> second;
  for (int k = 0; k < 3; ++k) {
    const std::vector<int>& i2 = a.next();
    second.insert(second.end(), i2.begin(), i2.end());
  }
  CHECK(second != seen);  // a new permutation each epoch
  CHECK_THROWS_WITH_AS(Batcher(10, 0, 1), doctest::Contains("parameter 'batch'"), std::invalid_argument);
  Mat<float> x(3, 2), out;
  x << 1, 2, 3, 4, 5, 6;
  Batcher::gather(x, {2, 0}, out);
  CHECK(out(0, 0) == 5);
  CHECK(out(1, 1) == 2);
}

namespace cilab::nn {
namespace {
TEST_CASE("nn: a residual block y = x + f(x) - gradients, the identity skip, its parameters in the one buffer, names") {
  Rng rng(12);
  Sequential<double> net;
  net.add(make_linear<double>(5));
  std::vector<std::unique_ptr<Layer<double>>> f;
  f.push_back(make_linear<double>(5));
  f.push_back(make_activation<double>(Activation::Tanh));
  f.push_back(make_linear<double>(5));
  net.add(make_residual<double>(std::move(f)));
  net.add(make_linear<double>(2));
  net.build(3);
  net.init(rng, Init::Torch);
  CHECK(net.num_params() == (3 * 5 + 5) + 2 * (5 * 5 + 5) + (5 * 2 + 2));
  const GradientError e = check_network(net, random_mat(rng, 4, 3, 1.0), true, 1e-6);
  CHECK_MESSAGE(e.error < 1e-6, e.describe());
  // With f's last Linear zeroed, f(x) = 0 and the block is the identity.
  double* p = net.params() + net.param_offset(1) + (5 * 5 + 5);
  std::fill(p, p + 5 * 5 + 5, 0.0);
  Sequential<double> plain;
  plain.add(make_linear<double>(5));
  plain.add(make_linear<double>(2));
  plain.build(3);
  std::copy(net.params(), net.params() + 20, plain.params());
  std::copy(net.params() + net.param_offset(2), net.params() + net.num_params(), plain.params() + 20);
  const Mat<double> x = random_mat(rng, 3, 3, 1.0);
  const Mat<double> a = net.forward(x, false), b = plain.forward(x, false);
  CHECK((a - b).cwiseAbs().maxCoeff() < 1e-15);
  // torch's names: the block's f is `fn`.
  std::vector<NpyArray> sd;
  net.state_dict("", sd);
  std::vector<std::string> names;
  for (const NpyArray& t : sd) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"0.weight", "0.bias", "1.fn.0.weight", "1.fn.0.bias", "1.fn.2.weight",
                                          "1.fn.2.bias", "2.weight", "2.bias"});
  // A copy is deep: stepping the copy leaves the original.
  Sequential<double> copy = net;
  copy.params()[net.param_offset(1) + 5 * 5 + 5] += 1.0;  // f's last Linear (zero in the original)
  CHECK(copy.forward(x, false)(0, 0) != net.forward(x, false)(0, 0));
  // f must keep the shape.
  std::vector<std::unique_ptr<Layer<double>>> wrong;
  wrong.push_back(make_linear<double>(4));
  Sequential<double> bad;
  bad.add(make_residual<double>(std::move(wrong)));
  CHECK_THROWS_WITH_AS(bad.build(5), doctest::Contains("residual: its layers map 5 to 4"), std::invalid_argument);
}

TEST_CASE("nn: a Sequential nested as one layer runs its layers in order, names them as torch nests them, copies deep") {
  Rng rng(15);
  std::vector<std::unique_ptr<Layer<double>>> block;
  block.push_back(make_linear<double>(4));
  block.push_back(make_activation<double>(Activation::ReLU));
  Sequential<double> nested;
  nested.add(make_linear<double>(3));
  nested.add(make_sequential<double>(std::move(block)));
  nested.add(make_linear<double>(2));
  nested.build(5);
  nested.init(rng, Init::Torch);
  Sequential<double> flat;
  flat.add(make_linear<double>(3));
  flat.add(make_linear<double>(4));
  flat.add(make_activation<double>(Activation::ReLU));
  flat.add(make_linear<double>(2));
  flat.build(5);
  REQUIRE(flat.num_params() == nested.num_params());
  std::copy(nested.params(), nested.params() + nested.num_params(), flat.params());
  const Mat<double> x = random_mat(rng, 4, 5, 1.0);
  CHECK((nested.forward(x, false) - flat.forward(x, false)).cwiseAbs().maxCoeff() == 0.0);
  std::vector<NpyArray> sd;
  nested.state_dict("", sd);
  std::vector<std::string> names;
  for (const NpyArray& t : sd) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"0.weight", "0.bias", "1.0.weight", "1.0.bias", "2.weight", "2.bias"});
  Sequential<double> copy = nested;
  copy.params()[nested.param_offset(1)] += 1.0;
  CHECK(copy.forward(x, false)(0, 0) != nested.forward(x, false)(0, 0));
  CHECK_THROWS_AS(make_sequential<double>({}), std::invalid_argument);
}

TEST_CASE("nn: a concatenation [f_1(x), f_2(x)] - each branch's columns, gradients, names, refusals") {
  Rng rng(14);
  auto branches = [] {
    std::vector<std::vector<std::unique_ptr<Layer<double>>>> b(2);
    b[0].push_back(make_linear<double>(3));
    b[0].push_back(make_activation<double>(Activation::Tanh));
    b[1].push_back(make_linear<double>(2));
    return b;
  };
  Sequential<double> net;
  net.add(make_concat<double>(branches()));
  net.add(make_linear<double>(2));
  net.build(4);
  net.init(rng, Init::Torch);
  CHECK(net.out_features() == 2);
  CHECK(net.num_params() == (4 * 3 + 3) + (4 * 2 + 2) + (5 * 2 + 2));
  const GradientError e = check_network(net, random_mat(rng, 3, 4, 1.0), true, 1e-6);
  CHECK_MESSAGE(e.error < 1e-6, e.describe());
  // The concatenation's output is each branch run alone, side by side.
  Sequential<double> one, two;
  one.add(make_linear<double>(3));
  one.add(make_activation<double>(Activation::Tanh));
  two.add(make_linear<double>(2));
  one.build(4);
  two.build(4);
  std::copy(net.params(), net.params() + 15, one.params());
  std::copy(net.params() + 15, net.params() + 25, two.params());
  const Mat<double> x = random_mat(rng, 5, 4, 1.0);
  net.forward(x, false);
  const Mat<double>& cat = net.activation(0);
  REQUIRE(cat.cols() == 5);
  CHECK((cat.leftCols(3) - one.forward(x, false)).cwiseAbs().maxCoeff() == 0.0);
  CHECK((cat.rightCols(2) - two.forward(x, false)).cwiseAbs().maxCoeff() == 0.0);
  std::vector<NpyArray> sd;
  net.state_dict("", sd);
  std::vector<std::string> names;
  for (const NpyArray& t : sd) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"0.branches.0.0.weight", "0.branches.0.0.bias", "0.branches.1.0.weight",
                                          "0.branches.1.0.bias", "1.weight", "1.bias"});
  // Images: channels side by side, the other dimensions must agree.
  std::vector<std::vector<std::unique_ptr<Layer<double>>>> maps(2);
  maps[0].push_back(make_conv2d<double>(2, 3, 1, 1));  // 3 x 3, padding 1: keeps 4 x 5
  maps[1].push_back(make_conv2d<double>(1, 3));        // no padding: 2 x 3
  Sequential<double> bad;
  bad.add(make_concat<double>(std::move(maps)));
  CHECK_THROWS_WITH_AS(bad.build(Shape{2, 4, 5}), doctest::Contains("concat: branch 1 gives 1 x 2 x 3 but branch 0 gives 2 x 4 x 5"),
                       std::invalid_argument);
  std::vector<std::vector<std::unique_ptr<Layer<double>>>> lone(1);
  lone[0].push_back(make_linear<double>(2));
  CHECK_THROWS_AS(make_concat<double>(std::move(lone)), std::invalid_argument);
}
}  // namespace
}  // namespace cilab::nn

namespace cilab::nn {
namespace {
TEST_CASE("nn: a masked linear layer - masked weights never matter nor move, equal to the masked kernel, torch names") {
  Rng rng(13);
  // MADE-like: output o sees inputs 0..o - 1 (a strictly autoregressive layer on 4 inputs).
  Sequential<double> net;
  net.add(make_masked_linear<double>(4, [](int o, int i) { return i < o; }));
  net.build(4);
  net.init(rng, Init::Torch);
  const Mat<double> x = random_mat(rng, 3, 4, 1.0);
  const Mat<double> y = net.forward(x, true);
  // The stateless kernel with the same mask gives the same numbers.
  std::vector<double> mask(16), ref(12);
  for (int o = 0; o < 4; ++o)
    for (int i = 0; i < 4; ++i) mask[static_cast<size_t>(o * 4 + i)] = i < o ? 1.0 : 0.0;
  linear_forward(x.data(), net.params(), mask.data(), net.params() + 16, 3, 4, 4, ref.data());
  for (int k = 0; k < 12; ++k) CHECK(std::abs(y.data()[k] - ref[static_cast<size_t>(k)]) < 1e-14);
  // Output 0 is the bias alone; output o does not change when input o changes.
  Mat<double> x2 = x;
  x2(0, 2) += 3.0;
  const Mat<double> y2 = net.forward(x2, true);
  CHECK(y2(0, 0) == y(0, 0));
  CHECK(y2(0, 1) == y(0, 1));
  CHECK(y2(0, 2) == y(0, 2));
  CHECK(y2(0, 3) != y(0, 3));
  // Masked weights get no gradient.
  net.forward(x, true);
  net.zero_grad();
  net.backward(random_mat(rng, 3, 4, 1.0));
  for (int k = 0; k < 16; ++k)
    if (mask[static_cast<size_t>(k)] == 0) CHECK(net.grads()[k] == 0.0);
  const GradientError e = check_network(net, x, true, 1e-6);
  CHECK_MESSAGE(e.error < 1e-6, e.describe());
  std::vector<NpyArray> sd;
  net.state_dict("", sd);
  REQUIRE(sd.size() == 3);
  CHECK(sd[2].name == "0.mask");
  CHECK(sd[2].f32[4 * 1 + 0] == 1.0f);  // M[1, 0]
  CHECK(sd[2].f32[0] == 0.0f);          // M[0, 0]
}
}  // namespace
}  // namespace cilab::nn

namespace cilab::nn {
namespace {
TEST_CASE("nn: conv1d - the definition summed by hand, torch's (out, in, k) weight, {C, L} shapes") {
  Rng rng(14);
  Sequential<double> one;
  one.add(make_conv1d<double>(4, 3, 2, 1, 2));  // out 4, kernel 3, stride 2, padding 1, dilation 2
  one.build(Shape{2, 13});
  CHECK(one.out_shape() == Shape{4, 6});  // floor((13 + 2 - 2*2 - 1) / 2) + 1
  one.init(rng, Init::Torch);
  std::vector<NpyArray> sd;
  one.state_dict("", sd);
  CHECK(sd[0].name == "0.weight");
  CHECK(sd[0].shape == std::vector<int64_t>{4, 2, 3});
  const Mat<double> x = random_mat(rng, 3, 26, 1.0);
  const Mat<double> y = one.forward(x, false);
  const double* w = one.params();
  const double* bias = one.params() + 24;
  for (int r = 0; r < 3; ++r)
    for (int o = 0; o < 4; ++o)
      for (int j = 0; j < 6; ++j) {
        double acc = bias[o];
        for (int c = 0; c < 2; ++c)
          for (int q = 0; q < 3; ++q) {
            const int t = j * 2 - 1 + q * 2;
            if (t >= 0 && t < 13) acc += w[(o * 2 + c) * 3 + q] * x(r, c * 13 + t);
          }
        CHECK(std::abs(y(r, o * 6 + j) - acc) < 1e-14);
      }
  Sequential<double> bad;
  bad.add(make_conv1d<double>(2, 3));
  CHECK_THROWS_WITH_AS(bad.build(Shape{1, 4, 4}), doctest::Contains("conv1d layer: expected a channels x length input"),
                       std::invalid_argument);
}
}  // namespace
}  // namespace cilab::nn
