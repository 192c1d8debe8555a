// The cnn module and its layer line (nn/layer_stack.h).
#include "algorithms/convolutional/cnn.h"

#include "algorithms/data/datasets.h"
#include "algorithms/nn/gradcheck.h"
#include "algorithms/core/rng.h"
#include "algorithms/nn/layer_stack.h"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace cilab {
namespace {

using nn::LayerToken;

std::string refusal(const std::string& line) {
  try {
    nn::make_layer_stack<float>(nn::parse_layer_stack(line), nn::Activation::ReLU, 10, nn::Shape{1, 28, 28});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST_CASE("layer line: every token kind reads its sizes, spaces and case aside") {
  const auto t = nn::parse_layer_stack(" Conv8k3s2p1d2 , pool3s2, avgpool2, maxpool2, fc120");
  REQUIRE(t.size() == 5);
  CHECK(t[0].kind == LayerToken::Kind::Conv);
  CHECK(t[0].size == 8);
  CHECK(t[0].kernel == 3);
  CHECK(t[0].stride == 2);
  CHECK(t[0].padding == 1);
  CHECK(t[0].dilation == 2);
  CHECK(t[1].kind == LayerToken::Kind::MaxPool);
  CHECK(t[1].size == 3);
  CHECK(t[1].stride == 2);
  CHECK(t[2].kind == LayerToken::Kind::AvgPool);
  CHECK(t[2].stride == 2);  // the window by default, as torch
  CHECK(t[3].kind == LayerToken::Kind::MaxPool);
  CHECK(t[4].kind == LayerToken::Kind::Linear);
  CHECK(t[4].size == 120);
}

TEST_CASE("layer line: a bad line names the item and what is wrong") {
  CHECK(contains(refusal("conv6k5p2,pool2,conv16x"), "item 3 'conv16x': unknown suffix 'x'"));
  CHECK(contains(refusal("conv6"), "expected a kernel size"));
  CHECK(contains(refusal("fc10,pool2"), "cannot follow an fc layer"));
  CHECK(contains(refusal("conv6k9,pool2,conv16k11"), "item 3 'conv16k11' on a 6 x 10 x 10 input"));
  CHECK(contains(refusal(""), "no layers"));
  CHECK(contains(refusal("conv6k5,,fc10"), "item 2 is empty"));
  CHECK(contains(refusal("pool2s0"), "stride >= 1"));
}

TEST_CASE("layer line: the output sizes follow O = floor((I + 2P - d(K - 1) - 1) / S) + 1") {
  // 28 -> conv k3 s2 p1: floor((28 + 2 - 2 - 1) / 2) + 1 = 14 -> pool3s2: floor((14 - 3) / 2) + 1 = 6
  // -> conv k3 d2: 6 - 4 = 2.
  const auto net = nn::make_layer_stack<float>(nn::parse_layer_stack("conv4k3s2p1,pool3s2,conv5k3d2"),
                                               nn::Activation::Tanh, 3, nn::Shape{1, 28, 28});
  // conv, tanh, pool, conv, tanh, flatten, linear
  REQUIRE(net.size() == 7);
  CHECK(net.layer(5).name() == "flatten");
  // Parameters: 4 (9 + 1) + 5 (4 9 + 1) + 3 (5 2 2 + 1).
  CHECK(net.num_params() == 40u + 185u + 63u);
}

TEST_CASE("layer line: a whole small CNN's gradients agree with central differences in double") {
  auto net = nn::make_layer_stack<double>(nn::parse_layer_stack("conv3k3p1,pool2,conv2k2,avgpool2,fc4"),
                                          nn::Activation::Tanh, 3, nn::Shape{2, 6, 6});
  Rng rng(5);
  net.init(rng, nn::Init::Torch);
  nn::Mat<double> x(2, 72);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = rng.normal();
  const nn::GradientError e = nn::check_network(net, x, true);
  CHECK_MESSAGE(e.error < 1e-6, e.describe());
}

TEST_CASE("cnn: LeNet-5 on images, a training subset, and data it refuses") {
  auto data = make_dataset("fashion-mnist:split=test,n=300");
  ParamValues v;
  v.text["layers"] = nn::kLeNet5;
  v["train_size"] = 100;
  v["batch"] = 50;
  v["max_epochs"] = 40;
  Cnn m;
  m.reset(data, v, 3);
  CHECK(m.network().num_params() == 61706u);
  auto s = m.cnn_snapshot();
  REQUIRE(s->problem);
  CHECK(s->problem->n_train() == 100);
  CHECK(s->problem->n_test() == 60);  // test_fraction 0.2 of 300, the same with or without the subset
  const double initial = s->metrics[Mlp::kMetricTrainLoss];
  CHECK(std::fabs(initial - std::log(10.0)) < 0.2);  // about uniform over the 10 classes at the start
  for (int i = 0; i < 2 * 40; ++i) m.step();  // 40 epochs of 2 batches
  s = m.cnn_snapshot();
  CHECK(s->epoch == 40);
  CHECK(s->metrics[Mlp::kMetricTrainLoss] < 0.5 * initial);  // it fits its 100 images
  REQUIRE(s->layer_grad_norms.size() == 5);                   // 2 conv + 3 fc
  for (double g : s->layer_grad_norms) CHECK(std::isfinite(g));

  Cnn bad;
  CHECK_THROWS_WITH_AS(bad.reset(make_dataset("moons"), ParamValues{}, 1), doctest::Contains("holds no images"),
                       std::invalid_argument);
  ParamValues wrong;
  wrong.text["layers"] = "conv6k5,fc10,conv2k2";
  CHECK_THROWS_WITH_AS(bad.reset(data, wrong, 1), doctest::Contains("cnn: parameter 'layers'"), std::invalid_argument);
}

TEST_CASE("cnn: the tied kernel's gradient is the sum of the untied per-position gradients (12.3)") {
  // Every geometry the layer line offers: padding, stride, dilation; a first conv after a pool too.
  for (const char* line : {"conv4k3p1,pool2,fc8", "conv3k3s2p1,fc6", "conv2k2d2,avgpool2", "pool2,conv3k3p1"}) {
    CAPTURE(line);
    auto net = nn::make_layer_stack<float>(nn::parse_layer_stack(line), nn::Activation::Tanh, 3, nn::Shape{2, 8, 8});
    Rng rng(9);
    net.init(rng, nn::Init::Torch);
    nn::Mat<float> x(3, 128);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(rng.uniform(0, 1));
    for (int filter = 0; filter < 2; ++filter) {
      const TiedGradient t = tied_gradient(net, x, 1, 2, filter);
      REQUIRE(t.k > 0);
      CHECK(t.filter == filter);
      CHECK(t.channels == 2);
      CHECK(t.difference < 1e-5);
      CHECK(t.top.size() == std::min<size_t>(8, t.dy.size()));
      double norm = 0;
      for (double v : t.backprop) norm += v * v;
      CHECK(norm > 0);  // a gradient that vanished would make the oracle empty
      // Each untied gradient is dy[p] times the patch: summing the top ones alone differs from the total.
    }
  }
  // A network without a conv layer has nothing to take apart.
  auto flat = nn::make_layer_stack<float>(nn::parse_layer_stack("fc4"), nn::Activation::Tanh, 2, nn::Shape{1, 4, 4});
  CHECK(tied_gradient(flat, nn::Mat<float>::Zero(1, 16), 0, 0, 0).k == 0);
}

TEST_CASE("cnn: a shift of the input by whole pooling strides shifts the maps before pooling") {
  // 'Same' convolution (k5p2) is shift-equivariant away from the borders: an object moved by 2
  // pixels (one 2x2 pooling stride) moves every feature map by 2 pixels.
  auto net = nn::make_layer_stack<float>(nn::parse_layer_stack("conv4k5p2,pool2"), nn::Activation::ReLU, 3,
                                         nn::Shape{1, 20, 20});
  Rng rng(4);
  net.init(rng, nn::Init::Torch);
  nn::Mat<float> a = nn::Mat<float>::Zero(1, 400), b = nn::Mat<float>::Zero(1, 400);
  for (int i = 6; i < 12; ++i)
    for (int j = 5; j < 11; ++j) {
      const float v = static_cast<float>(rng.uniform(0, 1));
      a(0, i * 20 + j) = v;
      b(0, (i + 2) * 20 + j + 2) = v;
    }
  const nn::Mat<float> ya = [&] { net.forward(a, false); return net.activation(1); }();
  net.forward(b, false);
  const nn::Mat<float>& yb = net.activation(1);  // conv + relu, 4 x 20 x 20
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j)
        CHECK(yb(0, c * 400 + (i + 2) * 20 + j + 2) == doctest::Approx(ya(0, c * 400 + i * 20 + j)).epsilon(1e-6));
}

}  // namespace
}  // namespace cilab

namespace cilab {
namespace {
TEST_CASE("cnn: every conv layer holds the calculator's K(pqc + 1) parameters (12.5 and 12.6 agree)") {
  for (const char* line : {nn::kLeNet5, "conv8k3s2p1d2,avgpool2,conv4k5,fc10", "conv3k1,conv5k7p3,pool3s2"}) {
    for (int channels : {1, 3}) {
      const nn::Shape in{channels, 28, 28};
      nn::Sequential<float> net =
          nn::make_layer_stack<float>(nn::parse_layer_stack(line), nn::Activation::ReLU, 10, in);
      const ConvParamCheck c = conv_param_check(net, line, in);
      CAPTURE(line);
      REQUIRE_FALSE(c.names.empty());
      CHECK(c.equal);
      CHECK(c.counted == c.formula);
      CHECK(c.total == static_cast<int>(net.num_params()));
    }
  }
  // LeNet-5's two conv layers: 6 (25 + 1) and 16 (6 25 + 1).
  const nn::Shape in{1, 28, 28};
  nn::Sequential<float> lenet = nn::make_layer_stack<float>(nn::parse_layer_stack(nn::kLeNet5), nn::Activation::ReLU, 10, in);
  const ConvParamCheck c = conv_param_check(lenet, nn::kLeNet5, in);
  CHECK(c.formula == std::vector<double>{156, 2416});
  CHECK(c.total == 61706);
  // A non-square input is not the calculator's: no check rather than a wrong one.
  CHECK(conv_param_check(lenet, nn::kLeNet5, nn::Shape{1, 28, 20}).names.empty());
}
}  // namespace
}  // namespace cilab
