// The mlp view, drawn with real ImGui frames (no renderer) over snapshots of
// real runs: decision regions (pictures agree with the network), the 1-D
// curve, every tab, Fashion-MNIST-like images, and the divergence banner's
// rewind-and-halve button.
#include "tests/support/tiny_images.h"
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/data/datasets.h"
#include "algorithms/networks/mlp.h"
#include "views/common/jobs.h"
#include "views/networks/mlp_view.h"
#include "views/plot/plot.h"
#include "views/plot/plot_internal.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

using namespace cilab;

namespace {

// A mlp run (seed 1): `steps` steps or until it ends, then settled.
struct Fixture : test_support::ViewFixture<Mlp> {
  Fixture(std::shared_ptr<const Dataset> d, std::initializer_list<const char*> sets, int steps)
      : ViewFixture(std::move(d), std::vector<std::string>(sets.begin(), sets.end())) {
    run(steps);
  }
};

}  // namespace

TEST_CASE("mlp view: moons - decision regions from the pictures agree with the network, header and curves") {
  Fixture f(make_dataset("moons:n=200"), {}, 60);
  ImGuiHeadless ui;
  MlpView view;
  std::vector<ViewIntent> intents;
  std::string text;
  for (int i = 0; i < 3; ++i) text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(intents.empty());
  CHECK(text.find("epoch") != std::string::npos);
  CHECK(text.find("2-16-16-2 relu") != std::string::npos);
  CHECK(text.find("Loss per epoch") != std::string::npos);
  CHECK(text.find("Accuracy per epoch") != std::string::npos);
  REQUIRE(view.pictures());
  const MlpPictures& pic = *view.pictures();
  CHECK(pic.d == 2);
  CHECK(pic.hidden.size() == 2);
  // The probabilities at a grid point equal the network's softmax at that point.
  const auto s = f.mod.mlp_snapshot();
  const int r = 40, c = 57;
  const double pt[2] = {pic.x_min + (pic.x_max - pic.x_min) * (c + 0.5) / pic.res,
                        pic.y_max - (pic.y_max - pic.y_min) * (r + 0.5) / pic.res};
  nn::Mat<float> x(1, 2);
  s->problem->standardise(pt, x.data());
  nn::Sequential<float> net = *s->net;
  const nn::Mat<float>& z = net.forward(x, false);
  const double e0 = std::exp(static_cast<double>(z(0, 0))), e1 = std::exp(static_cast<double>(z(0, 1)));
  CHECK(pic.output[static_cast<size_t>(r * pic.res + c) * 2 + 1] == doctest::Approx(e1 / (e0 + e1)).epsilon(1e-5));
  // Probabilities sum to 1 everywhere.
  for (int i = 0; i < pic.res * pic.res; i += 97)
    CHECK(pic.output[static_cast<size_t>(i) * 2] + pic.output[static_cast<size_t>(i) * 2 + 1] == doctest::Approx(1.0f));
}

TEST_CASE("mlp view: a sub-step shows what it did, every tab draws, a 1-D curve draws its fit") {
  Fixture f(make_dataset("moons:n=200"), {}, 5);
  f.mod.sub_step();
  ImGuiHeadless ui;
  MlpView view;
  std::vector<ViewIntent> intents;
  std::string text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(text.find("forward done") != std::string::npos);
  CHECK(text.find("(after forward)") != std::string::npos);

  Fixture g(make_dataset("curve:n=100"), {"layers=8"}, 20);
  MlpView cview;
  for (int i = 0; i < 2; ++i) text = frame_text(ui, [&] { cview.draw(*g.mod.snapshot(), g.context(), intents); });
  REQUIRE(cview.pictures());
  CHECK(cview.pictures()->d == 1);
  CHECK(text.find("R^2 per epoch") != std::string::npos);
  CHECK(text.find("network f(x)") != std::string::npos);
  CHECK(intents.empty());
}

TEST_CASE("mlp view: the Diverged banner's button rewinds and halves lr") {
  Fixture f(make_dataset("curve:n=200"), {"optimizer=sgd", "lr=10", "layers=32,32"}, 5000);
  MlpView view;
  f.check_rewind_button(view, "halve the learning rate", Mlp::kMetricLoss, {"lr"});
  ImGuiHeadless ui;
  CHECK(f.frame(ui, view).find("rewind to iteration") != std::string::npos);
}

TEST_CASE("mlp view: image data shows the confusion matrix, weight images and misclassified images") {
  Fixture f(test_support::tiny_images(), {"layers=8"}, 12);  // 8x8 images: bright top vs bright bottom
  ImGuiHeadless ui;
  MlpView view;
  std::vector<ViewIntent> intents;
  const std::string text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(text.find("Confusion matrix") != std::string::npos);
  CHECK(text.find("top") != std::string::npos);
  CHECK(intents.empty());
}

TEST_CASE("mlp view: scrubbed back, the batch-loss line ends at the shown iteration") {
  // Issue 29 section 2: at iteration 114 of 15 000 the grey batch line showed the whole future run.
  Fixture f(make_dataset("moons:n=200"), {}, 300);
  REQUIRE(f.stored.size() > 40);
  REQUIRE(f.stored[40]);
  const auto& shown = static_cast<const MlpSnapshot&>(*f.stored[40]);
  const double shown_epochs = 40.0 / std::max(1, shown.batches_per_epoch);
  const double run_epochs = static_cast<double>(f.history.size() - 1) / std::max(1, shown.batches_per_epoch);
  REQUIRE(run_epochs > 4 * shown_epochs);
  ImGuiHeadless ui;
  MlpView view;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(shown, f.context(), intents); });
  const plot::PlotRect* rects = nullptr;
  const int n = plot::LastFramePlotRects(&rects);
  bool found = false;
  for (int i = 0; i < n; ++i) {
    if (std::string(rects[i].title_id) != "Loss per epoch##mlp") continue;
    found = true;
    CHECK(rects[i].limits.x_max < shown_epochs * 1.2 + 0.5);  // old: the whole run's epochs
    CHECK(rects[i].limits.x_max >= shown_epochs);
  }
  CHECK(found);
}

TEST_CASE("mlp view: the confusion matrix is ticked by class name at the cell centres, class 0 on top") {
  // Issue 29 section 5: numeric ticks 0..10 at the cell edges, class 0 at the top labelled about 10.
  Dataset d;
  const int n = 120;
  d.x = Eigen::MatrixXd::Zero(n, 64);
  d.labels.resize(n);
  for (int i = 0; i < n; ++i) {
    const int c = i % 3;
    for (int p = 0; p < 64; ++p) d.x(i, p) = (p % 3 == c ? 0.8 : 0.1) + 0.05 * ((i * 7 + p) % 5);
    d.labels[static_cast<size_t>(i)] = c;
  }
  d.class_names = {"T-shirt", "Trouser", "Bag"};
  d.image_h = d.image_w = 8;
  d.name = "tiny-images";
  Fixture f(std::make_shared<const Dataset>(d), {"layers=8"}, 12);
  ImGuiHeadless ui;
  MlpView view;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  const plot::PlotRect* rects = nullptr;
  const int count = plot::LastFramePlotRects(&rects);
  const plot::PlotState* cm = nullptr;
  for (int i = 0; i < count; ++i)
    if (std::string(rects[i].title_id) == "confusion##mlp") cm = &ui.plot_context()->plots.at(rects[i].id);
  REQUIRE(cm != nullptr);
  // rows: one major tick per class at its row's centre, named, class 0 at the top (largest y)
  REQUIRE(cm->y_ticks_drawn.size() == 3);
  for (int c = 0; c < 3; ++c) {
    CAPTURE(c);
    const plot::Tick& t = cm->y_ticks_drawn[static_cast<size_t>(2 - c)];  // ascending: class 0 last, on top
    CHECK(t.value == doctest::Approx(3 - c - 0.5));
    CHECK(std::string(t.label) == d.class_names[static_cast<size_t>(c)]);
  }
  // columns: one tick per class at its centre (names, or numbers when the names do not fit)
  REQUIRE(cm->x_ticks_drawn.size() == 3);
  for (int c = 0; c < 3; ++c) {
    const std::string label = cm->x_ticks_drawn[static_cast<size_t>(c)].label;
    CHECK(cm->x_ticks_drawn[static_cast<size_t>(c)].value == doctest::Approx(c + 0.5));
    CHECK((label == d.class_names[static_cast<size_t>(c)] || label == std::to_string(c)));
  }
}

TEST_CASE("mlp view: the weights' colours and the Errors tab's prediction and truth have a key on screen") {
  Dataset d;
  const int n = 120;
  d.x = Eigen::MatrixXd::Zero(n, 64);
  d.labels.resize(n);
  for (int i = 0; i < n; ++i) {
    const int c = i % 2;
    for (int p = 0; p < 64; ++p) d.x(i, p) = ((p / 8 < 4) == (c == 0) ? 0.8 : 0.1) + 0.3 * ((i * 7 + p) % 5);
    d.labels[static_cast<size_t>(i)] = c;
  }
  d.class_names = {"top", "bottom"};
  d.image_h = d.image_w = 8;
  d.name = "tiny-images";
  Fixture f(std::make_shared<const Dataset>(d), {"layers=8"}, 3);
  ImGuiHeadless ui;
  MlpView view;
  const std::string neurons = f.frame(ui, view, '2');
  CHECK(neurons.find("w > 0") != std::string::npos);
  CHECK(neurons.find("w < 0") != std::string::npos);
  const std::string network = f.frame(ui, view, '3');
  CHECK(network.find("w > 0") != std::string::npos);
  CHECK(network.find("w < 0") != std::string::npos);
  const std::string errors = f.frame(ui, view, '4');
  CHECK(errors.find("the network's prediction") != std::string::npos);
  CHECK(errors.find("the true class") != std::string::npos);
}
