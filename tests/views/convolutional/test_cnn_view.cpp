// The cnn view, drawn with real ImGui frames (no renderer) over a real run on small
// images: every tab by its key, the filters and feature maps with the shapes the
// layer line gives, and the gradient bars.
#include "tests/support/tiny_images.h"
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/convolutional/cnn.h"
#include "views/convolutional/cnn_view.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace cilab;

namespace {


struct Fixture : test_support::ViewFixture<Cnn> {
  Fixture() : ViewFixture(test_support::tiny_images(60), {"layers=conv4k3p1,pool2,fc8", "batch=16"}) { run(6); }
};

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cnn view: every tab draws by its key, with the shapes of the layer line") {
  Fixture f;
  ImGuiHeadless ui;
  CnnView view;
  std::string text = f.frame(ui, view, '1');
  CHECK(has(text, "conv 1: 4 filters of 3 x 3"));
  CHECK(has(text, "parameters; the conv layers' K(pqc + 1) = 40, equal to the layers' own count"));
  CHECK(has(text, "Loss per epoch"));

  text = f.frame(ui, view, '2');
  CHECK(has(text, "input: 1 x 8 x 8"));
  CHECK(has(text, "conv 1 + relu: 4 x 8 x 8"));
  CHECK(has(text, "pool 1: 4 x 4 x 4"));
  REQUIRE(view.maps().mosaics.size() == 3);
  // Four 8 x 8 maps tiled two to a row with a 1-pixel gap between them: 2 8 + 1.
  CHECK(view.maps().mosaics[1].w == 17);
  CHECK(view.maps().lo[1] <= view.maps().hi[1]);

  text = f.frame(ui, view, '3');
  CHECK(has(text, "Gradient norm per layer"));
  CHECK(has(text, "Gradient norm per layer over training"));  // 6 stored steps
  CHECK(has(text, "conv 1"));
  CHECK(has(text, "fc 2"));

  text = f.frame(ui, view, '4');
  CHECK(has(text, "sum of untied gradients vs backprop"));
  CHECK(has(text, "equal up to float rounding"));
  CHECK(view.tied().k == 3);
  CHECK(view.tied().difference < 1e-5);

  text = f.frame(ui, view, '5');
  CHECK(has(text, "Confusion matrix"));
  text = f.frame(ui, view, '6');
  CHECK(has(text, "misclassified"));
}

TEST_CASE("cnn view: another test image redraws the feature maps from it") {
  Fixture f;
  ImGuiHeadless ui;
  CnnView view;
  f.frame(ui, view, '2');
  const std::vector<float> first = view.maps().mosaics[0].pixels;
  view.image = 1;  // the other class: bright bottom instead of top
  f.frame(ui, view, 0);
  REQUIRE(!view.maps().mosaics.empty());
  CHECK(view.maps().mosaics[0].pixels != first);
}
