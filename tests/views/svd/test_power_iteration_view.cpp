// The power-iteration view, drawn with real ImGui frames (no renderer) over
// snapshots of real runs: 2-D arrow (with dragging), 3-D, images, bars.
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/svd/power_iteration.h"
#include "views/plot/plot_internal.h"
#include "views/svd/power_iteration_view.h"

#include <doctest/doctest.h>
#include <imgui_internal.h>

#include <cmath>
#include <memory>
#include <string>

using namespace cilab;

namespace {

// Power iteration on `matrix` (dim x dim synthetic, or data's covariance) for m components,
// tol 1e-8 (seed 2), until `steps` iterations or the end.
struct Fixture : test_support::ViewFixture<PowerIteration> {
  Fixture(std::shared_ptr<const Dataset> d, const std::string& matrix, int dim, int m, int steps)
      : ViewFixture(std::move(d),
                    {"matrix=" + matrix, "dim=" + std::to_string(dim), "n_components=" + std::to_string(m), "tol=1e-8"},
                    2) {
    run(steps);
  }
};

}  // namespace

TEST_CASE("power view: 2-D synthetic draws the arrow, eigenvector lines and plots - no intents without input") {
  Fixture f(nullptr, "synthetic", 2, 1, 4);
  ImGuiHeadless ui;
  PowerIterationView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(s.vertices > 1000);
  CHECK(intents.empty());
  CHECK(std::isfinite(view.arrow_tip().x));
  CHECK(view.arrow_tip().x > 0);
  CHECK(view.arrow_tip().x < 1280);
  // After the multiply sub-step the product w = A v is drawn as well.
  f.mod.sub_step();
  const FrameStats mid = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(mid.vertices > s.vertices);
  const FrameStats c = ui.frame_in_window([&] { view.draw_controls(*f.mod.snapshot(), f.context()); });
  CHECK(c.vertices > ui.empty_vertices());
}

TEST_CASE("power view: dragging the tip of v emits set_vector - the module restarts from it") {
  Fixture f(nullptr, "synthetic", 2, 1, 2);
  ImGuiHeadless ui;
  PowerIterationView view;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  frame();
  frame();
  const ImVec2 tip = view.arrow_tip();
  ui.mouse_move(tip.x, tip.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_move(tip.x + 30, tip.y + 40);
  frame();
  ui.mouse_move(tip.x + 60, tip.y + 80);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE_FALSE(intents.empty());
  const ViewIntent& last = intents.back();
  CHECK(last.intent.kind == "set_vector");
  REQUIRE(last.intent.values.size() == 2);
  const auto& before = static_cast<const PowerSnapshot&>(*f.mod.snapshot());
  CHECK(last.intent.values[0] > before.v[0]);  // moved right
  CHECK(last.intent.values[1] < before.v[1]);  // and down (screen y grows downwards)
  CHECK(f.mod.apply(last.intent));
  const auto& after = static_cast<const PowerSnapshot&>(*f.mod.snapshot());
  CHECK(after.components[0].start_iteration == after.iteration);
}

TEST_CASE("power view: 3-D synthetic draws a projected arrow and rotates with yaw") {
  Fixture f(nullptr, "synthetic", 3, 2, 30);
  ImGuiHeadless ui;
  PowerIterationView view;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  const ImVec2 a = view.arrow_tip();
  CHECK(std::isfinite(a.x));
  view.yaw_deg += 60.0f;
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  const ImVec2 b = view.arrow_tip();
  CHECK(std::hypot(a.x - b.x, a.y - b.y) > 2.0f);
  CHECK(intents.empty());
  const FrameStats c = ui.frame_in_window([&] { view.draw_controls(*f.mod.snapshot(), f.context()); });
  CHECK(c.vertices > ui.empty_vertices());
}

TEST_CASE("power view: image data show v, u_1 and the found eigenvectors as images") {
  auto d = std::make_shared<Dataset>();
  Rng rng(5);
  d->x.resize(200, 36);
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 36; ++j) d->x(i, j) = rng.normal() * (1.0 + (j % 6)) + (j < 6 ? 3 * rng.normal() : 0.0);
  d->image_h = 6;
  d->image_w = 6;
  d->name = "tiny-images";
  Fixture f(d, "covariance", 2, 2, 400);
  const auto& snap = static_cast<const PowerSnapshot&>(*f.mod.snapshot());
  REQUIRE(snap.found.cols() >= 1);
  ImGuiHeadless ui;
  PowerIterationView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  // v, u_1 and >= 1 found vector: >= 3 images of 36 cells.
  CHECK(s.vertices > 3 * 36 * 4);
  CHECK(intents.empty());
}

TEST_CASE("power view: the image panels refit when the image shape changes") {
  // Issue 9 B6 (as in the SVD view): a 4 x 4 image was drawn in a corner of the 6 x 6 axes.
  auto images = [](int h, int w) {
    auto d = std::make_shared<Dataset>();
    Rng rng(7);
    d->x.resize(100, h * w);
    for (int i = 0; i < 100; ++i)
      for (int j = 0; j < h * w; ++j) d->x(i, j) = rng.normal() * (1.0 + (j % w));
    d->image_h = h;
    d->image_w = w;
    d->name = "tiny-images";
    return d;
  };
  Fixture big(images(6, 6), "covariance", 2, 1, 3), small(images(4, 4), "covariance", 2, 1, 3);
  ImGuiHeadless ui;
  PowerIterationView view;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*big.mod.snapshot(), big.context(), intents); });
  plot::Limits lim;
  bool found_plot = false;
  for (int i = 0; i < 3; ++i)
    ui.frame_in_window([&] {
      view.draw(*small.mod.snapshot(), small.context(), intents);
      for (ImGuiWindow* w : GImGui->Windows)
        if (std::string(w->Name).find("##power_vector") != std::string::npos) {
          const auto it = ui.plot_context()->plots.find(w->GetID("##power_v"));
          if (it == ui.plot_context()->plots.end()) continue;
          found_plot = true;
          lim = plot::Limits{it->second.x.min(), it->second.x.max(), it->second.y.min(), it->second.y.max()};
        }
    });
  REQUIRE(found_plot);
  CAPTURE(lim.x_min);
  CAPTURE(lim.x_max);
  CAPTURE(lim.y_min);
  CAPTURE(lim.y_max);
  // Equal aspect widens one axis; the other spans exactly the 4 pixels.
  const bool x_tight = std::abs(lim.x_min) < 1e-6 && std::abs(lim.x_max - 4.0) < 1e-6;
  const bool y_tight = std::abs(lim.y_min) < 1e-6 && std::abs(lim.y_max - 4.0) < 1e-6;
  CHECK((x_tight || y_tight));
  CHECK(lim.x_max - lim.x_min < 3 * 4.0);
  CHECK(lim.y_max - lim.y_min < 3 * 4.0);
}

TEST_CASE("power view: d > 3 (iris covariance) draws component bars and the three plots") {
  Fixture f(make_dataset("iris"), "covariance", 2, 2, 60);
  ImGuiHeadless ui;
  PowerIterationView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(s.vertices > 500);
  CHECK(intents.empty());
  // Without any history the view still draws the current point.
  ViewContext bare = f.context();
  bare.metric_history = nullptr;
  bare.stored_snapshot = nullptr;
  const FrameStats b = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), bare, intents); });
  CHECK(b.vertices > ui.empty_vertices());
}

TEST_CASE("power view: the header names the current component's eigenvalue and rate (lambda_2, |lambda_3/lambda_2|)") {
  // 3 x 3, two components: run until the second one is being computed.
  Fixture f(nullptr, "synthetic", 3, 2, 400);
  REQUIRE(f.mod.power_snapshot()->component == 1);
  ImGuiHeadless ui;
  PowerIterationView view;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  const std::vector<std::string>& h = view.header();
  auto has = [&](const std::string& prefix) {
    for (const std::string& t : h)
      if (t.rfind(prefix, 0) == 0) return true;
    return false;
  };
  CHECK(has("lambda_2 = "));
  CHECK(has("|lambda_3/lambda_2| = "));
  CHECK_FALSE(has("lambda_1 = "));
  CHECK_FALSE(has("|lambda_2/lambda_1| = "));
}

TEST_CASE("power view: the spectrum bars of a 2 x 2 and a 3 x 3 matrix lie whole inside the plot") {
  for (int dim : {2, 3}) {
    for (bool log_axis : {true, false}) {
      Fixture f(nullptr, "synthetic", dim, dim, 3);
      ImGuiHeadless ui(ImVec2(1280, 1000));
      PowerIterationView view;
      view.log_spectrum = log_axis;
      std::vector<ViewIntent> intents;
      for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
      const plot::Limits lim = view.spectrum_limits();
      INFO("d = " << dim << (log_axis ? " log" : " linear") << ": x [" << lim.x_min << ", " << lim.x_max << "], y ["
                  << lim.y_min << ", " << lim.y_max << "]");
      // Bars of index i (1-based) span [i - 0.4, i + 0.4]; every one of them whole, with integer-ish room.
      CHECK(lim.x_min <= 0.6);
      CHECK(lim.x_max >= dim + 0.4);
      CHECK(lim.x_max - lim.x_min <= dim + 1.5);
      // Every eigenvalue of A is inside the y range, with visible height above the axis floor.
      const Eigen::VectorXd& ev = f.mod.power_snapshot()->problem->eigvals;
      for (Eigen::Index i = 0; i < ev.size(); ++i) {
        const double v = log_axis ? std::abs(ev[i]) : ev[i];
        CHECK(v <= lim.y_max);
        CHECK(v > lim.y_min);
      }
    }
  }
}
