// The convolution kernels (algorithms/nn/conv.h): forward against the definition summed
// directly in long double on random shapes (stride, padding, dilation, groups, 1-D), backward
// against central differences in double (check_gradient), the output-size formula on the
// course's examples, and clear refusals of shapes that cannot be convolved.
#include "algorithms/nn/conv.h"
#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/nn/gradcheck.h"
#include "algorithms/nn/layer_stack.h"
#include "algorithms/nn/sequential.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace cilab;
using namespace cilab::nn;

namespace {

template <class T>
std::vector<T> random_vec(Rng& rng, int64_t n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (T& x : v) x = static_cast<T>(rng.normal(0.0, 1.0));
  return v;
}

// The definition of conv.h's header, summed directly (long double).
template <class T>
std::vector<long double> reference(const std::vector<T>& x, const std::vector<T>& w, const std::vector<T>& b,
                                   const ConvShape& s) {
  const int oh = s.out_h(), ow = s.out_w(), cg = s.c_in / s.groups, og = s.c_out / s.groups;
  std::vector<long double> y(static_cast<size_t>(s.y_size()));
  for (int n = 0; n < s.n; ++n)
    for (int o = 0; o < s.c_out; ++o)
      for (int i = 0; i < oh; ++i)
        for (int j = 0; j < ow; ++j) {
          long double acc = b.empty() ? 0.0L : b[static_cast<size_t>(o)];
          const int g = o / og;
          for (int c = 0; c < cg; ++c)
            for (int p = 0; p < s.kh; ++p)
              for (int q = 0; q < s.kw; ++q) {
                const int yy = i * s.stride_h - s.pad_h + p * s.dil_h, xx = j * s.stride_w - s.pad_w + q * s.dil_w;
                if (yy < 0 || yy >= s.h || xx < 0 || xx >= s.w) continue;
                acc += static_cast<long double>(w[static_cast<size_t>(((int64_t(o) * cg + c) * s.kh + p) * s.kw + q)]) *
                       x[static_cast<size_t>(((int64_t(n) * s.c_in + g * cg + c) * s.h + yy) * s.w + xx)];
              }
          y[static_cast<size_t>(((int64_t(n) * s.c_out + o) * oh + i) * ow + j)] = acc;
        }
  return y;
}

// unit: stride and dilation 1 (im2col's and col2im's fast path); else drawn in 1..3 and 1..2.
ConvShape random_shape(Rng& rng, bool unit = false) {
  ConvShape s;
  s.groups = 1 + static_cast<int>(rng.uniform() * 2.0);  // 1 or 2
  s.n = 1 + static_cast<int>(rng.uniform() * 3.0);
  s.c_in = s.groups * (1 + static_cast<int>(rng.uniform() * 3.0));
  s.c_out = s.groups * (1 + static_cast<int>(rng.uniform() * 3.0));
  const bool one_d = rng.uniform() < 0.25;
  s.h = one_d ? 1 : 3 + static_cast<int>(rng.uniform() * 8.0);
  s.w = 3 + static_cast<int>(rng.uniform() * 9.0);
  s.kh = one_d ? 1 : 1 + static_cast<int>(rng.uniform() * 3.0);
  s.kw = 1 + static_cast<int>(rng.uniform() * 4.0);
  s.stride_h = 1 + static_cast<int>(rng.uniform() * 2.0);
  s.stride_w = 1 + static_cast<int>(rng.uniform() * 3.0);
  s.pad_h = one_d ? 0 : static_cast<int>(rng.uniform() * 3.0);
  s.pad_w = static_cast<int>(rng.uniform() * 3.0);
  s.dil_h = one_d ? 1 : 1 + static_cast<int>(rng.uniform() * 2.0);
  s.dil_w = 1 + static_cast<int>(rng.uniform() * 2.0);
  if (unit) s.stride_h = s.stride_w = s.dil_h = s.dil_w = 1;
  return s;
}

}  // namespace

TEST_CASE_TEMPLATE("conv2d: forward equals the definition on random shapes (stride, padding, dilation, groups, 1-D)", T,
                   float, double) {
  Rng rng(3);
  int tried = 0;
  for (int t = 0; t < 200 && tried < 60; ++t) {
    const ConvShape s = random_shape(rng, t % 2 == 0);
    if (!s.problem().empty()) continue;
    ++tried;
    const std::vector<T> x = random_vec<T>(rng, s.x_size()), w = random_vec<T>(rng, s.w_size()),
                         b = random_vec<T>(rng, s.c_out);
    std::vector<T> y(static_cast<size_t>(s.y_size()));
    conv2d_forward(x.data(), w.data(), b.data(), s, y.data());
    const std::vector<long double> r = reference(x, w, b, s);
    const double tol = std::is_same<T, float>::value ? 1e-5 : 1e-12;
    double worst = 0;
    for (size_t i = 0; i < y.size(); ++i)
      worst = std::max(worst, static_cast<double>(std::abs(y[i] - r[i]) / (1.0L + std::abs(r[i]))));
    CHECK_MESSAGE(worst < tol, "shape n" << s.n << " c" << s.c_in << "->" << s.c_out << " " << s.h << "x" << s.w << " k"
                                         << s.kh << "x" << s.kw << " s" << s.stride_h << "," << s.stride_w << " p"
                                         << s.pad_h << "," << s.pad_w << " d" << s.dil_h << "," << s.dil_w << " g"
                                         << s.groups);
  }
  CHECK(tried >= 40);
}

TEST_CASE("conv2d: backward (dx, dw, db) equals central differences of sum(R .* y) in double") {
  Rng rng(8);
  int tried = 0;
  for (int t = 0; t < 100 && tried < 12; ++t) {
    ConvShape s = random_shape(rng, t % 2 == 0);
    if (!s.problem().empty()) continue;
    ++tried;
    std::vector<double> x = random_vec<double>(rng, s.x_size()), w = random_vec<double>(rng, s.w_size()),
                        b = random_vec<double>(rng, s.c_out);
    const std::vector<double> r = random_vec<double>(rng, s.y_size());
    std::vector<double> y(static_cast<size_t>(s.y_size()));
    auto loss = [&] {
      conv2d_forward(x.data(), w.data(), b.data(), s, y.data());
      double l = 0;
      for (size_t i = 0; i < y.size(); ++i) l += r[i] * y[i];
      return l;
    };
    std::vector<double> dx(x.size()), dw(w.size(), 0.0), db(b.size(), 0.0);
    conv2d_backward(x.data(), w.data(), r.data(), s, dx.data(), dw.data(), db.data());
    // L is linear in each of x, w, b: the central difference has no truncation error, so a
    // larger step (1e-3) only lowers its rounding error (eps |L| / h).
    const GradientError ex = check_gradient(x.data(), x.size(), dx.data(), 1e-3, loss, relative_error);
    const GradientError ew = check_gradient(w.data(), w.size(), dw.data(), 1e-3, loss, relative_error);
    const GradientError eb = check_gradient(b.data(), b.size(), db.data(), 1e-3, loss, relative_error);
    CHECK_MESSAGE(ex.error < 1e-6, "dx " << ex.describe());
    CHECK_MESSAGE(ew.error < 1e-6, "dw " << ew.describe());
    CHECK_MESSAGE(eb.error < 1e-6, "db " << eb.describe());
    // dw and db are added to (a layer's parameter gradients), dx written.
    conv2d_backward(x.data(), w.data(), r.data(), s, dx.data(), dw.data(), db.data());
    std::vector<double> dw1(w.size(), 0.0);
    conv2d_backward(x.data(), w.data(), r.data(), s, static_cast<double*>(nullptr), dw1.data(), static_cast<double*>(nullptr));
    for (size_t i = 0; i < dw.size(); ++i) CHECK(dw[i] == doctest::Approx(2.0 * dw1[i]));
  }
  CHECK(tried >= 8);
}

TEST_CASE_TEMPLATE("conv2d: the kept columns give the gradients that rebuilt ones give, on maps wider than a packet", T,
                   float, double) {
  // Widths from 1 to 40 (im2col's short runs, whole packets and a masked rest), with and without
  // padding, unit stride (the fast path) and stride 2 (the general one).
  Rng rng(21);
  for (int w : {1, 5, 10, 16, 17, 28, 40})
    for (int pad : {0, 2})
      for (int stride : {1, 2}) {
        ConvShape s;
        s.n = 3, s.c_in = 2, s.c_out = 3, s.h = 6, s.w = w, s.kh = 3, s.kw = std::min(w + 2 * pad, 5);
        s.pad_h = s.pad_w = pad, s.stride_h = s.stride_w = stride;
        if (!s.problem().empty()) continue;
        CAPTURE(w);
        CAPTURE(pad);
        CAPTURE(stride);
        const std::vector<T> x = random_vec<T>(rng, s.x_size()), wt = random_vec<T>(rng, s.w_size()),
                             b = random_vec<T>(rng, s.c_out), dy = random_vec<T>(rng, s.y_size());
        std::vector<T> y(static_cast<size_t>(s.y_size())), y_kept(y.size()), cols(static_cast<size_t>(conv_cols_size(s)));
        conv2d_forward(x.data(), wt.data(), b.data(), s, y.data());
        conv2d_forward(x.data(), wt.data(), b.data(), s, y_kept.data(), cols.data());
        CHECK(y == y_kept);
        const std::vector<long double> r = reference(x, wt, b, s);
        double worst = 0;
        for (size_t i = 0; i < y.size(); ++i)
          worst = std::max(worst, static_cast<double>(std::abs(y[i] - r[i]) / (1.0L + std::abs(r[i]))));
        CHECK(worst < (std::is_same<T, float>::value ? 1e-5 : 1e-12));
        std::vector<T> dx(x.size()), dx_kept(x.size()), dw(wt.size(), T(0)), dw_kept(wt.size(), T(0)),
            db(b.size(), T(0)), db_kept(b.size(), T(0));
        conv2d_backward(x.data(), wt.data(), dy.data(), s, dx.data(), dw.data(), db.data());
        conv2d_backward(x.data(), wt.data(), dy.data(), s, dx_kept.data(), dw_kept.data(), db_kept.data(), cols.data());
        CHECK(dx == dx_kept);
        CHECK(dw == dw_kept);
        CHECK(db == db_kept);
      }
}

TEST_CASE("conv2d: output sizes O = floor((I + 2P - d(K - 1) - 1) / S) + 1 on the course's examples") {
  ConvShape s;  // the notes' 7 x 7 x 3 input, two 3 x 3 filters, stride 2: 3 x 3 x 2
  s.c_in = 3, s.h = s.w = 7, s.c_out = 2, s.kh = s.kw = 3, s.stride_h = s.stride_w = 2;
  CHECK(s.out_h() == 3);
  CHECK(s.out_w() == 3);
  s.pad_h = s.pad_w = 1;  // 'same'-like padding at stride 2: 4 x 4
  CHECK(s.out_h() == 4);
  ConvShape same;  // 'same' at stride 1: K = 5, P = 2 keeps 28 x 28 (LeNet's first layer as padded)
  same.h = same.w = 28, same.kh = same.kw = 5, same.pad_h = same.pad_w = 2;
  CHECK(same.out_h() == 28);
  ConvShape dil;  // dilation 2 makes a 3-tap kernel span 5
  dil.h = 1, dil.w = 10, dil.kw = 3, dil.dil_w = 2;
  CHECK(dil.out_w() == 6);
}

TEST_CASE("conv2d: a 1-D difference kernel differentiates a signal, the identity kernel copies it") {
  ConvShape s;
  s.h = 1, s.w = 6, s.kw = 3;
  const std::vector<double> x = {1, 4, 9, 16, 25, 36};
  const std::vector<double> diff = {-1, 0, 1};  // correlation: y_j = x_{j+2} - x_j
  std::vector<double> y(4);
  conv2d_forward(x.data(), diff.data(), static_cast<const double*>(nullptr), s, y.data());
  CHECK(y == std::vector<double>{8, 12, 16, 20});
  const std::vector<double> id = {0, 1, 0};
  s.pad_w = 1;  // 'same'
  std::vector<double> z(6);
  conv2d_forward(x.data(), id.data(), static_cast<const double*>(nullptr), s, z.data());
  CHECK(z == x);
}

TEST_CASE("conv2d: shapes that cannot be convolved are refused with what to try") {
  ConvShape s;
  s.h = s.w = 4, s.kh = s.kw = 7;
  CHECK(s.problem().find("does not fit") != std::string::npos);
  CHECK(s.problem().find("pad more") != std::string::npos);
  const std::vector<float> x(16), w(49);
  std::vector<float> y(1);
  CHECK_THROWS_AS(conv2d_forward(x.data(), w.data(), static_cast<const float*>(nullptr), s, y.data()), std::invalid_argument);
  ConvShape g;
  g.c_in = 3, g.c_out = 4, g.groups = 2;
  CHECK(g.problem().find("groups = 2 must divide") != std::string::npos);
  ConvShape z;
  z.stride_w = 0;
  CHECK(z.problem().find("stride") != std::string::npos);
}

TEST_CASE("max_pool2d: the window maxima (the first on a tie), the gradient only at each window's argmax, avg_pool2d spreads it") {
  PoolShape s;
  s.h = 4, s.w = 4, s.kernel = 2, s.stride = 2;
  const std::vector<double> x = {1, 5, 2, 2,   //
                                 3, 4, 2, 2,   //
                                 0, 0, 9, 1,   //
                                 0, 7, 1, 9};  // the last window ties at 9: the first (row order) wins
  std::vector<double> y(4);
  std::vector<int32_t> arg(4);
  max_pool2d_forward(x.data(), s, y.data(), arg.data());
  CHECK(y == std::vector<double>{5, 2, 7, 9});
  CHECK(arg == std::vector<int32_t>{1, 2, 13, 10});
  const std::vector<double> dy = {10, 20, 30, 40};
  std::vector<double> dx(16, -1.0);
  max_pool2d_backward(dy.data(), arg.data(), s, dx.data());
  for (int i = 0; i < 16; ++i) {
    const double expect = i == 1 ? 10 : i == 2 ? 20 : i == 13 ? 30 : i == 10 ? 40 : 0;
    CHECK(dx[static_cast<size_t>(i)] == expect);
  }
  avg_pool2d_forward(x.data(), s, y.data());
  CHECK(y == std::vector<double>{13.0 / 4, 8.0 / 4, 7.0 / 4, 20.0 / 4});
  avg_pool2d_backward(dy.data(), s, dx.data());
  CHECK(dx[0] == 2.5);
  CHECK(dx[15] == 10.0);
  PoolShape big = s;
  big.kernel = 5;
  CHECK(big.problem().find("does not fit") != std::string::npos);
}

TEST_CASE_TEMPLATE("max_pool2d: every window size and stride against the first maximum in row order, ties and NaN included",
                   T, float, double) {
  // Values from {0, 1, 2} (many ties) and a few NaN (never a maximum: the comparisons are ordered),
  // widths up to 41 (the 2 x 2 path's 16-window chunks and their rest), odd sizes (the last column
  // or row outside every window), several planes.
  Rng rng(17);
  for (int kernel : {2, 3})
    for (int stride : {1, 2, 3})
      for (int w : {2, 3, 5, 16, 31, 32, 33, 41})
        for (int h : {2, 3, 7}) {
          PoolShape s;
          s.n = 2, s.c = 2, s.h = h, s.w = w, s.kernel = kernel, s.stride = stride;
          if (!s.problem().empty()) continue;
          std::vector<T> x(static_cast<size_t>(s.x_size()));
          for (T& v : x) {
            const double u = rng.uniform();
            v = u < 0.03 ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(std::floor(rng.uniform() * 3.0));
          }
          std::vector<T> y(static_cast<size_t>(s.y_size()));
          std::vector<int32_t> arg(y.size());
          max_pool2d_forward(x.data(), s, y.data(), arg.data());
          const int oh = s.out_h(), ow = s.out_w();
          bool same = true;
          for (int plane = 0; plane < s.n * s.c; ++plane)
            for (int i = 0; i < oh; ++i)
              for (int j = 0; j < ow; ++j) {
                const T* xp = x.data() + int64_t(plane) * h * w;
                int best = i * stride * w + j * stride;
                for (int p = 0; p < kernel; ++p)
                  for (int q = 0; q < kernel; ++q) {
                    const int at = (i * stride + p) * w + j * stride + q;
                    if (xp[at] > xp[best]) best = at;
                  }
                const size_t o = (size_t(plane) * oh + i) * ow + j;
                const bool value_same = std::isnan(xp[best]) ? std::isnan(y[o]) : y[o] == xp[best];
                same = same && arg[o] == best && value_same;
              }
          CAPTURE(kernel);
          CAPTURE(stride);
          CAPTURE(w);
          CAPTURE(h);
          CHECK(same);
        }
}

TEST_CASE("shapes: LeNet-5 builds from {1, 28, 28} to 10 logits with 61 706 parameters and torch's state_dict shapes") {
  // The one LeNet builder (the cnn module's layer line): conv, relu, pool, conv, relu, pool, flatten,
  // fc, relu, fc, relu, fc.
  Sequential<float> net = make_layer_stack<float>(parse_layer_stack(kLeNet5), Activation::ReLU, 10, Shape{1, 28, 28});
  REQUIRE(net.size() == 12);
  CHECK(net.layer(6).name() == "flatten");
  CHECK(net.out_shape() == Shape{10});
  // conv1 6 (1 25 + 1) + conv2 16 (6 25 + 1) + fc 400 120 + 120 + 120 84 + 84 + 84 10 + 10
  CHECK(net.num_params() == 156u + 2416u + 48120u + 10164u + 850u);
  Rng rng(1);
  net.init(rng, Init::Torch);
  std::vector<NpyArray> sd;
  net.state_dict("", sd);
  REQUIRE(sd.size() == 10);
  CHECK(sd[0].name == "0.weight");
  CHECK(sd[0].shape == std::vector<int64_t>{6, 1, 5, 5});
  CHECK(sd[2].name == "3.weight");
  CHECK(sd[2].shape == std::vector<int64_t>{16, 6, 5, 5});
  CHECK(sd[4].name == "7.weight");
  CHECK(sd[4].shape == std::vector<int64_t>{120, 400});
  // A batch of 3 images through it: 3 x 10 finite logits.
  Mat<float> x(3, 784);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(rng.uniform());
  const Mat<float>& logits = net.forward(x, true);
  CHECK(logits.rows() == 3);
  CHECK(logits.cols() == 10);
  CHECK(logits.allFinite());
}

TEST_CASE("shapes: a layer that cannot take its input says which and what to add") {
  Sequential<double> linear_on_image;
  linear_on_image.add(make_linear<double>(10));
  try {
    linear_on_image.build(Shape{1, 28, 28});
    FAIL("built");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("1 x 28 x 28") != std::string::npos);
    CHECK(std::string(e.what()).find("flatten") != std::string::npos);
  }
  Sequential<double> conv_on_flat;
  conv_on_flat.add(make_conv2d<double>(4, 3));
  try {
    conv_on_flat.build(784);
    FAIL("built");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("conv2d") != std::string::npos);
    CHECK(std::string(e.what()).find("1 x 28 x 28") != std::string::npos);
  }
  Sequential<double> norm_on_image;
  norm_on_image.add(make_batch_norm<double>());
  CHECK_THROWS_AS(norm_on_image.build(Shape{3, 4, 4}), std::invalid_argument);
  Sequential<double> relu_keeps;  // an elementwise layer keeps the image shape
  relu_keeps.add(make_activation<double>(Activation::Tanh));
  relu_keeps.build(Shape{3, 4, 4});
  CHECK(relu_keeps.out_shape() == Shape{3, 4, 4});
}

TEST_CASE("conv2d: forward and backward give the same bits on 1 and 2 threads, and 2 threads split the batch") {
  ConvShape s;
  s.n = 37, s.c_in = 3, s.h = 20, s.w = 18, s.c_out = 8, s.kh = s.kw = 3, s.pad_h = s.pad_w = 1;
  Rng rng(12);
  const std::vector<float> x = random_vec<float>(rng, s.x_size()), w = random_vec<float>(rng, s.w_size()),
                           b = random_vec<float>(rng, s.c_out), dy = random_vec<float>(rng, s.y_size());
  struct Out {
    std::vector<float> y, dx, dw, db;
    long long pool_loops = 0;
  };
  auto run = [&](int threads) {
    const int before = max_threads();
    set_max_threads(threads);
    Out o;
    o.y.resize(static_cast<size_t>(s.y_size()));
    o.dx.resize(x.size());
    o.dw.assign(w.size(), 0.0f);
    o.db.assign(b.size(), 0.0f);
    const ParallelStats p0 = parallel_stats();
    conv2d_forward(x.data(), w.data(), b.data(), s, o.y.data());
    conv2d_backward(x.data(), w.data(), dy.data(), s, o.dx.data(), o.dw.data(), o.db.data());
    o.pool_loops = parallel_stats().pool_loops - p0.pool_loops;
    set_max_threads(before);
    return o;
  };
  const Out one = run(1), two = run(2);
  CHECK(one.pool_loops == 0);
  CHECK(two.pool_loops >= 2);
  CHECK(one.y == two.y);
  CHECK(one.dx == two.dx);
  CHECK(one.dw == two.dw);
  CHECK(one.db == two.db);
}
