// The convolution view, drawn with real ImGui frames (no renderer) over real runs: every tab by its
// key on an image and on a signal, the formula and the oracles in the header, the window's
// products, a pinned output cell, the pooling and calculator read-outs.
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "tests/support/view_fixture.h"
#include "algorithms/convolutional/convolution.h"
#include "algorithms/data/datasets.h"
#include "views/convolutional/convolution_view.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace cilab;

namespace {

using Fixture = test_support::ViewFixture<Convolution>;

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("convolution view: an image, every tab by its key, the formula filled in and the oracles holding") {
  Fixture f(make_dataset("fashion-mnist:split=test,n=5"), {"kernel=sobel_x|sobel_y", "filters=2"});
  f.run(30);
  ImGuiHeadless ui;
  ConvolutionView view;
  std::string text = f.frame(ui, view, '1');
  CHECK(has(text, "floor((28 + 2*1 - 1*(3 - 1) - 1) / 1) + 1 = 28 (counted: 28)"));
  CHECK(has(text, "output 2 x 28 x 28"));
  CHECK(has(view.oracle_text(), "corr = flipped conv: holds"));
  CHECK(has(view.oracle_text(), "y = W x: holds"));
  CHECK(has(view.oracle_text(), "FFT = direct: holds"));
  CHECK(has(view.oracle_text(), "shift equivariance: n/a"));
  CHECK(has(view.oracle_text(), "max-pool grad at argmax: holds"));
  CHECK(has(text, "Position 30 of 1568: y[0, 1, 1] = b +"));
  CHECK(has(text, "written into the output map (9 products over 1 channel)"));
  CHECK(has(text, "output, filter 0: 28 x 28 (30 of 784 written)"));
  CHECK(view.tab() == ConvolutionView::Tab::Window);

  text = f.frame(ui, view, '2');
  CHECK(view.tab() == ConvolutionView::Tab::Matrix);
  CHECK(has(text, "W of filter 0: 784 x 784 (doubly block Toeplitz)"));
  CHECK(has(text, "the middle row with the kernel's middle row: W is 28 x 28"));

  text = f.frame(ui, view, '3');
  CHECK(has(text, "circular convolution of the middle row (n = 28, m = 3)"));
  CHECK(has(text, "time per convolution against n"));

  text = f.frame(ui, view, '4');
  CHECK(has(text, "2x2 max pooling, stride 2"));
  CHECK(has(text, "max pooled: 14 x 14"));

  text = f.frame(ui, view, '5');
  CHECK(has(text, "conv16k3"));
  CHECK(has(text, "(equal)"));
}

TEST_CASE("convolution view: a signal's window, sub-step by sub-step, and the notes' example by channels") {
  Fixture f(nullptr, {"input=step", "length=12", "kernel=derivative", "size=valid", "mode=convolution"});
  ImGuiHeadless ui;
  ConvolutionView view;
  std::string text = f.frame(ui, view, 0);
  CHECK(has(text, "Step (or sub-step) to slide the window"));
  f.mod.sub_step();
  text = f.frame(ui, view, 0);
  CHECK(has(text, "the products are shown; the next sub-step writes the sum"));
  CHECK(has(text, "kernel 0 (derivative), flipped"));
  f.mod.sub_step();
  text = f.frame(ui, view, 0);
  CHECK(has(text, "Position 1 of 10: y[0, 0] = b +"));
  CHECK(has(text, "output, filter 0: 10 values (1 written)"));
  text = f.frame(ui, view, '4');
  CHECK(has(text, "2x1 max pooling"));

  Fixture g(nullptr, {"input=seeds", "kernel=random", "filters=2", "size=explicit", "padding=1", "stride=2", "bias=1,0"});
  g.run(4);
  text = g.frame(ui, view, '1');
  CHECK(has(text, "2 filters of 3 x 3 x 3"));
  CHECK(has(text, "output 2 x 3 x 3"));
  CHECK(has(text, "27 products over 3 channels"));
  CHECK(has(text, "input, channel 0 of 3, padded to 7 x 7"));
}

TEST_CASE("convolution view: a refused pooling window is said in its tab - the rest stays") {
  Fixture f(nullptr, {"input=seeds", "size=valid", "pool_size=4"});
  ImGuiHeadless ui;
  ConvolutionView view;
  const std::string text = f.frame(ui, view, '4');
  CHECK(has(text, "does not fit the 3 x 3 output map"));
  CHECK(has(view.oracle_text(), "max-pool grad at argmax: n/a"));
}
