// The convolution module: the notes' example by hand, the stepping, the live oracles, the refusals.
#include "algorithms/convolutional/convolution.h"

#include "algorithms/core/params.h"
#include "algorithms/data/datasets.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace cilab {
namespace {

ParamValues values_with(const Convolution& m, std::initializer_list<std::pair<const char*, double>> nums,
                        std::initializer_list<std::pair<const char*, const char*>> texts = {}) {
  ParamValues v = default_values(m.params());
  for (const auto& [k, x] : nums) v[k] = x;
  for (const auto& [k, t] : texts) v.text[k] = t;
  return v;
}

std::shared_ptr<const Dataset> images() { return make_dataset("fashion-mnist:split=test,n=20"); }

std::string refusal(Convolution& m, const ParamValues& v, std::shared_ptr<const Dataset> data = images()) {
  try {
    m.reset(data, v, 1);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("the notes' 7 x 7 x 3 example: two 3 x 3 x 3 filters with stride 2 give 3 x 3 x 2, each value by hand") {
  Convolution m;
  // input=seeds (6), size=explicit (3), padding 1, stride 2, two random filters, biases 1 and 0.
  m.reset(nullptr, values_with(m, {{"input", 6}, {"size", 3}, {"padding", 1}, {"stride", 2}, {"filters", 2}},
                               {{"kernel", "random"}, {"bias", "1,0"}}),
          9);
  const auto s = m.convolution_snapshot();
  const ConvLesson& L = *s->lesson;
  CHECK(L.setup.c == 3);
  CHECK(L.setup.out_h() == 3);
  CHECK(L.setup.out_w() == 3);
  CHECK(L.positions() == 18);
  REQUIRE(L.padded.size() == 7u * 7 * 3);
  for (double w : L.kernels) CHECK((w == -1 || w == 0 || w == 1));
  // y[f, i, j] = b[f] + sum over the 27 taps of the padded input, written out here.
  for (int f = 0; f < 2; ++f)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double acc = L.bias[static_cast<size_t>(f)];
        for (int c = 0; c < 3; ++c)
          for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q)
              acc += L.kernels[static_cast<size_t>(((f * 3 + c) * 3 + p) * 3 + q)] *
                     L.padded[static_cast<size_t>((c * 7 + 2 * i + p) * 7 + 2 * j + q)];
        CHECK(L.y[static_cast<size_t>((f * 3 + i) * 3 + j)] == acc);
      }
  CHECK(L.bias[0] == 1);
  // The table holds the whole map (filter, row, col, value) before the first step.
  REQUIRE(s->table.size() == 18);
  CHECK(s->table[17][0] == 1);
  CHECK(s->table[17][3] == L.y[17]);
}

TEST_CASE("stepping slides the window: products, then the sum written - converged when the map is full") {
  Convolution m;
  m.reset(nullptr, values_with(m, {{"input", 0}, {"length", 10}, {"size", 0}}, {{"kernel", "derivative"}}), 1);
  const int total = m.convolution_snapshot()->lesson->positions();
  CHECK(total == 8);  // valid: 10 - 3 + 1
  m.sub_step();
  auto s = m.convolution_snapshot();
  CHECK(s->phase == 1);
  CHECK(s->written == 0);
  CHECK(s->col == 0);  // the first window's products shown
  m.sub_step();
  s = m.convolution_snapshot();
  CHECK(s->written == 1);
  CHECK(s->metrics[Convolution::kMetricValue] == s->lesson->y[0]);
  for (int k = 1; k < total; ++k) {
    CHECK(m.status() == Status::Running);
    m.step();
  }
  s = m.convolution_snapshot();
  CHECK(s->status == Status::Converged);
  CHECK(s->written == total);
  CHECK(s->col == total - 1);
  CHECK(s->table.size() == static_cast<size_t>(total));
  // The step signal's derivative: 0 except where the window straddles the step.
  double mass = 0;
  for (double v : s->lesson->y) mass += v;
  CHECK(mass == doctest::Approx(1.0));  // (-0.5, 0, 0.5) summed over the step
}

TEST_CASE("the oracles hold on every input and padding, and equivariance is defined only where it holds") {
  for (int input : {0, 2, 4, 5, 6})
    for (int mode : {0, 1, 2, 3}) {
      Convolution m;
      const char* kernel = input <= 3 ? "gaussian" : "sobel_y";
      m.reset(images(), values_with(m, {{"input", input}, {"padding_mode", mode}, {"size", 1}, {"mode", mode % 2}},
                                    {{"kernel", kernel}}),
              4);
      const auto s = m.convolution_snapshot();
      const std::vector<double>& o = s->metrics;
      CAPTURE(input);
      CAPTURE(mode);
      CHECK(o[Convolution::kMetricSizeError] == 0);
      CHECK(o[Convolution::kMetricFlipError] < 1e-12);
      CHECK(o[Convolution::kMetricMatrixError] < 1e-12);
      CHECK(o[Convolution::kMetricFftError] < 1e-12);
      CHECK(o[Convolution::kMetricRoutingError] == 0);
      if (mode == 3) CHECK(o[Convolution::kMetricEquivarianceError] < 1e-12);
      else CHECK(std::isnan(o[Convolution::kMetricEquivarianceError]));
    }
}

TEST_CASE("a live pooling change keeps the position and recomputes the pooled map") {
  Convolution m;
  m.reset(images(), default_values(m.params()), 1);
  for (int k = 0; k < 5; ++k) m.step();
  const auto before = m.convolution_snapshot();
  CHECK(before->lesson->pooled.out_h == 14);
  m.set_live("pool", 1);  // average
  m.set_live("pool_size", 4);
  const auto after = m.convolution_snapshot();
  CHECK(after->written == 5);
  CHECK(after->lesson->pooled.out_h == 7);
  CHECK_FALSE(after->lesson->max_pool);
  CHECK(std::isnan(after->metrics[Convolution::kMetricRoutingError]));
  CHECK(before->lesson->max_pool);  // the earlier snapshot keeps its lesson
  // A window larger than the map is said, not thrown: the rest of the lesson stays.
  m.set_live("pool_size", 8);
  m.set_live("pool_stride", 8);
  CHECK(m.convolution_snapshot()->lesson->pooled.out_h == 3);
}

TEST_CASE("bad input is refused naming the parameter and what to try") {
  Convolution m;
  auto blobs = make_dataset("blobs:n=30");
  CHECK(refusal(m, default_values(m.params()), blobs).find("parameter 'input' = image needs an image dataset") !=
        std::string::npos);
  CHECK(refusal(m, values_with(m, {{"image_index", 20}})).find("'image_index' = 20") != std::string::npos);
  CHECK(refusal(m, values_with(m, {}, {{"kernel", "sobel_q"}})).find("parameter 'kernel'") != std::string::npos);
  CHECK(refusal(m, values_with(m, {{"kernel_size", 4}}, {{"kernel", "box"}})).find("odd kernel span") !=
        std::string::npos);
  CHECK(refusal(m, values_with(m, {{"size", 0}, {"kernel_size", 15}, {"dilation", 3}}, {{"kernel", "box"}}))
            .find("does not fit") != std::string::npos);
  CHECK(refusal(m, values_with(m, {{"filters", 2}}, {{"bias", "1,2,3"}})).find("parameter 'bias'") != std::string::npos);
  CHECK(refusal(m, values_with(m, {}, {{"layers", "conv8k3,fc10"}})).find("parameter 'layers'") != std::string::npos);
  // Nothing was lost: a refused reset leaves the module as it was (never reset: not Running).
  m.reset(images(), default_values(m.params()), 1);
  CHECK(refusal(m, values_with(m, {}, {{"kernel", ""}})).find("is empty") != std::string::npos);
  CHECK(m.convolution_snapshot()->lesson->setup.k == 3);
}

TEST_CASE("input=matrix convolves the loaded data matrix as one channel (a CSV)") {
  Convolution m;
  auto blobs = make_dataset("blobs:n=30");
  m.reset(blobs, values_with(m, {{"input", 7}}, {{"kernel", "box"}}), 1);
  const ConvLesson& L = *m.convolution_snapshot()->lesson;
  CHECK(L.setup.h == 30);
  CHECK(L.setup.w == 2);
  CHECK(L.x[2] == blobs->x(1, 0));
  // A 3 x 3 box with zero padding: the mean of the window, the padding counting as zeros.
  CHECK(L.y[0] == doctest::Approx((blobs->x(0, 0) + blobs->x(0, 1) + blobs->x(1, 0) + blobs->x(1, 1)) / 9.0));
  CHECK(refusal(m, values_with(m, {{"input", 7}}), nullptr).find("there is none") != std::string::npos);
}

TEST_CASE("same seed, same run: the random kernels and the noisy sine are the seed's") {
  Convolution a, b, c;
  const ParamValues v = values_with(a, {{"input", 2}, {"filters", 3}}, {{"kernel", "box"}});
  a.reset(nullptr, v, 7);
  b.reset(nullptr, v, 7);
  c.reset(nullptr, v, 8);
  CHECK(a.convolution_snapshot()->lesson->y == b.convolution_snapshot()->lesson->y);
  CHECK(a.convolution_snapshot()->lesson->y != c.convolution_snapshot()->lesson->y);
  CHECK(a.convolution_snapshot()->lesson->kernel_names[1] == "random");
}

}  // namespace
}  // namespace cilab
