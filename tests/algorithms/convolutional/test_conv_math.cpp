// The convolution lesson's mathematics (conv_math.h): padding, the output size, the band matrix,
// FFT, pooling and the receptive-field calculator, each against an independent computation.
#include "algorithms/convolutional/conv_math.h"

#include "algorithms/core/rng.h"
#include "algorithms/nn/conv.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cilab {
namespace {

using convmath::Padding;
using convmath::Setup;

std::vector<double> random_vector(Rng& rng, size_t n) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.uniform(-1, 1);
  return v;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("output size: the formula, torch's examples, and the padding of each size mode") {
  // torch.nn.Conv2d docs: I = 28, K = 5, P = 2 -> 28; K = 3, S = 2, P = 1 on 7 -> 4; d = 2, K = 3 on 10 -> 6.
  CHECK(convmath::output_size(28, 5, 2, 1, 1) == 28);
  CHECK(convmath::output_size(7, 3, 1, 2, 1) == 4);
  CHECK(convmath::output_size(10, 3, 0, 1, 2) == 6);
  CHECK(convmath::output_size(3, 5, 0, 1, 1) == 0);  // does not fit
  // The notes' example: a 5 x 5 input, padding 1, a 3 x 3 kernel, stride 2 -> 3 x 3.
  CHECK(convmath::output_size(5, 3, 1, 2, 1) == 3);
  using convmath::SizeMode;
  CHECK(convmath::resolve_padding(SizeMode::Valid, 7, 5, 1, 1) == 0);
  CHECK(convmath::resolve_padding(SizeMode::Same, 7, 5, 2, 1) == 4);
  CHECK(convmath::resolve_padding(SizeMode::Full, 7, 3, 2, 1) == 4);
  CHECK(convmath::resolve_padding(SizeMode::Explicit, 7, 3, 1, 3) == 7);
  for (int n : {5, 8, 13})
    for (int k : {1, 3, 5})
      for (int d : {1, 2}) {
        const int same = convmath::resolve_padding(SizeMode::Same, 0, k, d, 1);
        if (d * (k - 1) + 1 <= n + 2 * same) CHECK(convmath::output_size(n, k, same, 1, d) == n);
        CHECK(convmath::output_size(n, k, convmath::resolve_padding(SizeMode::Full, 0, k, d, 1), 1, d) == n + d * (k - 1));
      }
  CHECK(refusal([] { convmath::resolve_padding(SizeMode::Same, 0, 4, 1, 1); }).find("odd kernel span") !=
        std::string::npos);
  CHECK(refusal([] { convmath::resolve_padding(SizeMode::Same, 0, 3, 1, 2); }).find("stride 1") != std::string::npos);
}

TEST_CASE("padding modes read the input as torch's padding_mode does") {
  // n = 4: a b c d. reflect: ... c b | a b c d | c b ...; replicate: a a | ... | d d; circular: c d | ... | a b.
  const int n = 4;
  // i = -2 .. 5
  const int reflect[] = {2, 1, 0, 1, 2, 3, 2, 1};
  const int replicate[] = {0, 0, 0, 1, 2, 3, 3, 3};
  const int circular[] = {2, 3, 0, 1, 2, 3, 0, 1};
  for (int i = -2; i <= 5; ++i) {
    CHECK(convmath::source_index(i, n, Padding::Zeros) == (i >= 0 && i < n ? i : -1));
    CHECK(convmath::source_index(i, n, Padding::Reflect) == reflect[i + 2]);
    CHECK(convmath::source_index(i, n, Padding::Replicate) == replicate[i + 2]);
    CHECK(convmath::source_index(i, n, Padding::Circular) == circular[i + 2]);
  }
  CHECK(convmath::source_index(-3, n, Padding::Reflect) == 3);
  // Reflect needs P < n.
  Setup s;
  s.w = 4;
  s.k = 3;
  s.pad = 4;
  s.padding = Padding::Reflect;
  CHECK(s.problem().find("reflect padding needs P <") != std::string::npos);
  s.pad = 3;
  CHECK(s.problem().empty());
}

TEST_CASE("convolution of an impulse writes the kernel - correlation writes it reversed") {
  Setup s;
  s.w = 9;
  s.k = 3;
  s.pad = 1;
  std::vector<double> x(9, 0.0);
  x[4] = 1;
  const std::vector<double> k = {1, 2, 3};
  const std::vector<double> conv = convmath::convolve(s, x, k, {}, true);
  const std::vector<double> corr = convmath::convolve(s, x, k, {}, false);
  CHECK(conv[3] == 1);
  CHECK(conv[4] == 2);
  CHECK(conv[5] == 3);
  CHECK(corr[3] == 3);
  CHECK(corr[4] == 2);
  CHECK(corr[5] == 1);
  // A window's terms sum to its output (plus the bias).
  const std::vector<convmath::Term> t = convmath::window_terms(s, x, k, true, 0, 0, 5);
  double sum = 0;
  for (const convmath::Term& e : t) sum += e.w * e.x;
  CHECK(sum == conv[5]);
}

TEST_CASE("the band matrix built from its formula gives y = W x for every padding, stride and dilation") {
  Rng rng(3);
  for (int signal = 0; signal < 2; ++signal)
    for (Padding mode : {Padding::Zeros, Padding::Reflect, Padding::Replicate, Padding::Circular})
      for (int stride : {1, 2})
        for (int dil : {1, 2}) {
          Setup s;
          s.c = signal ? 1 : 2;
          s.h = signal ? 1 : 7;
          s.w = signal ? 11 : 6;
          s.filters = 2;
          s.k = 3;
          s.stride = stride;
          s.dilation = dil;
          s.pad = 2;
          s.padding = mode;
          REQUIRE(s.problem().empty());
          const std::vector<double> x = random_vector(rng, static_cast<size_t>(s.c) * s.h * s.w);
          const std::vector<double> w = random_vector(rng, static_cast<size_t>(s.kernel_size()));
          for (bool conv : {false, true}) {
            const std::vector<double> y = convmath::convolve(s, x, w, {}, conv);
            for (int f = 0; f < s.filters; ++f) {
              const Eigen::MatrixXd W = convmath::conv_matrix(s, w, conv, f);
              const Eigen::VectorXd wx = W * Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
              const int per = s.positions();
              for (int p = 0; p < per; ++p) CHECK(std::abs(wx[p] - y[static_cast<size_t>(f * per + p)]) < 1e-12);
            }
          }
        }
}

TEST_CASE("circular padding is shift equivariant, zero padding is not at the edges") {
  Rng rng(5);
  Setup s;
  s.w = 16;
  s.k = 5;
  s.pad = 2;
  const std::vector<double> x = random_vector(rng, 16), w = random_vector(rng, 5);
  std::vector<double> shifted(16);
  for (int i = 0; i < 16; ++i) shifted[static_cast<size_t>((i + 3) % 16)] = x[static_cast<size_t>(i)];
  auto error = [&](Padding mode) {
    s.padding = mode;
    const std::vector<double> y = convmath::convolve(s, x, w, {}, false), ys = convmath::convolve(s, shifted, w, {}, false);
    double e = 0;
    for (int i = 0; i < 16; ++i) e = std::max(e, std::abs(ys[static_cast<size_t>((i + 3) % 16)] - y[static_cast<size_t>(i)]));
    return e;
  };
  CHECK(error(Padding::Circular) < 1e-14);
  CHECK(error(Padding::Zeros) > 1e-3);  // the test would see the break
}

TEST_CASE("circular convolution by FFT equals the direct sum, any length") {
  Rng rng(11);
  for (int n : {8, 37, 64, 100}) {
    const std::vector<double> x = random_vector(rng, static_cast<size_t>(n)), h = random_vector(rng, 7);
    const std::vector<double> d = convmath::circular_convolve_direct(x, h), f = convmath::circular_convolve_fft(x, h);
    CHECK(max_diff(d, f) < 1e-12);
    // And the direct sum is the definition: y[i] = sum_t h[t] x[(i - t) mod n].
    CHECK(d[0] == doctest::Approx(h[0] * x[0] + h[1] * x[static_cast<size_t>(n - 1)] + h[2] * x[static_cast<size_t>(n - 2)] +
                                  h[3] * x[static_cast<size_t>(n - 3)] + h[4] * x[static_cast<size_t>(n - 4)] +
                                  h[5] * x[static_cast<size_t>(n - 5)] + h[6] * x[static_cast<size_t>(n - 6)]));
  }
  const std::vector<convmath::FftTiming> t = convmath::time_direct_fft(3, 256);
  REQUIRE(t.size() == 3);
  CHECK(t[2].n == 256);
  CHECK(t[0].direct_ms > 0);
}

TEST_CASE("pooling: max equals the library's, its gradient sits at the argmaxes only - average spreads it") {
  Rng rng(13);
  const int c = 2, h = 6, w = 7;
  const std::vector<double> x = random_vector(rng, static_cast<size_t>(c) * h * w);
  const convmath::Pooled p = convmath::pool(x, c, h, w, 2, 2, true);
  nn::PoolShape ps;
  ps.c = c;
  ps.h = h;
  ps.w = w;
  ps.kernel = 2;
  ps.stride = 2;
  std::vector<double> y(static_cast<size_t>(ps.y_size()));
  std::vector<int32_t> arg(y.size());
  nn::max_pool2d_forward<double>(x.data(), ps, y.data(), arg.data());
  CHECK(max_diff(p.y, y) == 0);
  CHECK(p.argmax == arg);
  CHECK(p.routing_error == 0);
  std::vector<double> dy(y.size(), 1.0), dx(x.size());
  nn::max_pool2d_backward<double>(dy.data(), arg.data(), ps, dx.data());
  CHECK(max_diff(p.grad, dx) == 0);
  int nonzero = 0;
  for (double g : p.grad) nonzero += g != 0;
  CHECK(nonzero == static_cast<int>(y.size()));  // one per window (the windows do not overlap)
  // Perturbing a non-maximum downwards leaves the output unchanged.
  std::vector<double> x2 = x;
  for (size_t k = 0; k < x2.size(); ++k)
    if (p.grad[k] == 0) x2[k] -= 0.5;
  CHECK(max_diff(convmath::pool(x2, c, h, w, 2, 2, true).y, p.y) == 0);
  const convmath::Pooled a = convmath::pool(x, c, h, w, 3, 1, false);
  double total = 0;
  for (double g : a.grad) total += g;
  CHECK(total == doctest::Approx(static_cast<double>(a.y.size())));
  CHECK(refusal([&] { convmath::pool(x, c, h, w, 8, 1, true); }).find("does not fit") != std::string::npos);
}

TEST_CASE("receptive field and parameter counts: the formulas, the notes' corrected counts, the one-hot check") {
  // Two stacked 3 x 3 convolutions see 5 x 5; three see 7 x 7 (VGG).
  const auto two = convmath::receptive_fields(nn::parse_layer_stack("conv8k3,conv8k3"), 3, 32);
  REQUIRE(two.size() == 3);
  CHECK(two[2].rf == 5);
  CHECK(convmath::receptive_fields(nn::parse_layer_stack("conv8k3,conv8k3,conv8k3"), 3, 32).back().rf == 7);
  // The counts for an m x n x c input and K kernels p x q (valid, stride 1): K(pqc + 1),
  // (mnc + 1)(m - p + 1)(n - q + 1)K, (pqc + 1)(m - p + 1)(n - q + 1)K.
  const convmath::StackRow& r = two[1];
  CHECK(r.params_cnn == 8 * (3 * 3 * 3 + 1));
  CHECK(r.params_fc == (32.0 * 32 * 3 + 1) * 30 * 30 * 8);
  CHECK(r.params_lc == (3.0 * 3 * 3 + 1) * 30 * 30 * 8);
  // A stride multiplies the jump; a pool counts like a kernel; dilation widens.
  const auto s = convmath::receptive_fields(nn::parse_layer_stack("conv4k3s2,pool2,conv4k3d2"), 1, 64);
  CHECK(s[1].rf == 3);
  CHECK(s[1].jump == 2);
  CHECK(s[2].rf == 3 + 1 * 2);
  CHECK(s[2].jump == 4);
  CHECK(s[3].rf == 5 + 2 * 2 * 4);
  // The one-hot backward pass reaches exactly the analytic field (an input large enough).
  for (const char* line : {"conv1k3,conv1k3", "conv1k5s2,conv1k3", "conv1k3d2,pool2,conv1k3", "conv1k3s2,pool3s2,conv1k3d3"}) {
    const auto rows = convmath::receptive_fields(nn::parse_layer_stack(line), 1, 96);
    CHECK_MESSAGE(convmath::empirical_receptive_field(nn::parse_layer_stack(line), 96) == rows.back().rf, line);
  }
  CHECK(refusal([] { convmath::receptive_fields(nn::parse_layer_stack("conv8k3,fc10"), 1, 32); }).find("conv and pool") !=
        std::string::npos);
  CHECK(refusal([] { convmath::receptive_fields(nn::parse_layer_stack("conv8k7,conv8k7"), 1, 8); }).find("item 2") !=
        std::string::npos);
}

TEST_CASE("kernels: names, typed rows, several filters - refusals name the item") {
  const auto k = convmath::parse_kernels("sobel_x|1,2,1;0,0,0;-1,-2,-1", 3, false);
  REQUIRE(k.size() == 2);
  CHECK(k[0].values == std::vector<double>{-1, 0, 1, -2, 0, 2, -1, 0, 1});
  CHECK(k[1].rows == 3);
  CHECK(k[1].values[3] == 0);
  const auto g = convmath::parse_kernels("gaussian", 5, false);
  double sum = 0;
  for (double v : g[0].values) sum += v;
  CHECK(sum == doctest::Approx(1.0));
  CHECK(g[0].values[12] == *std::max_element(g[0].values.begin(), g[0].values.end()));
  CHECK(convmath::parse_kernels("derivative", 3, true)[0].cols == 3);
  CHECK(convmath::parse_kernels("sobel_x", 3, true)[0].values == std::vector<double>{-1, 0, 1});  // its 1-D version
  CHECK(refusal([] { convmath::parse_kernels("prewitt", 3, true); }).find("no kernel for a signal") != std::string::npos);
  CHECK(refusal([] { convmath::parse_kernels("1,0;2", 3, false); }).find("row 2 has 1 numbers") != std::string::npos);
  CHECK(refusal([] { convmath::parse_kernels("1,x,3", 3, true); }).find("'x' is not a number") != std::string::npos);
  CHECK(refusal([] { convmath::parse_kernels("sobel_x|box", 5, false); }).find("different sizes") != std::string::npos);
}

}  // namespace
}  // namespace cilab
