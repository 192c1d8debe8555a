// The svd-lowrank view, drawn with real ImGui frames (no renderer) over
// snapshots of real runs: images, data matrices, the photograph, and input.
#include "tests/support/test_data.h"
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "views/plot/plot_internal.h"
#include "algorithms/core/rng.h"
#include "algorithms/svd/svd_lowrank.h"
#include "views/svd/svd_lowrank_view.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>

using namespace cilab;
using namespace cilab::test_support;

namespace {

// svd-lowrank on `input` (seed 1), `steps` iterations recorded.
struct Fixture : test_support::ViewFixture<SvdLowRank> {
  Fixture(std::shared_ptr<const Dataset> d, const std::string& input, int steps)
      : ViewFixture(std::move(d), {"input=" + input}) {
    for (int i = 0; i < steps; ++i) {  // every step recorded, the last ones after the end too
      mod.step();
      record();
    }
  }
};

}  // namespace

TEST_CASE("svd view: image input draws four panels, the spectrum and the error curves - no intents without input") {
  Fixture f(uniform_images(4, 20, 16), "dataset", 3);
  ImGuiHeadless ui;
  SvdLowRankView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  // Four 20 x 16 images drawn as cells (no texture provider): >= 4 * 320 quads.
  CHECK(s.vertices > 4 * 320 * 4);
  CHECK(intents.empty());
  CHECK(view.slider_rank() == 3);
  CHECK(view.spectrum_max().x > view.spectrum_min().x);
  // Without the residual panel there is less to draw.
  view.show_residual = false;
  const FrameStats fewer = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(fewer.vertices < s.vertices);
  const FrameStats c = ui.frame_in_window([&] { view.draw_controls(*f.mod.snapshot(), f.context()); });
  CHECK(c.vertices > ui.empty_vertices());
}

TEST_CASE("svd view: dragging the rank slider emits set_rank, which the module accepts") {
  Fixture f(uniform_images(2, 24, 24), "dataset", 0);
  ImGuiHeadless ui;
  SvdLowRankView view;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  frame();
  frame();
  const ImVec2 a = view.slider_min(), b = view.slider_max();
  REQUIRE(b.x > a.x);
  const float y = (a.y + b.y) * 0.5f;
  ui.mouse_move(a.x + 2, y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_move(a.x + (b.x - a.x) * 0.5f, y);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE_FALSE(intents.empty());
  const ViewIntent& last = intents.back();
  CHECK(last.kind == ViewIntent::Kind::Module);
  CHECK(last.intent.kind == "set_rank");
  CHECK(last.intent.index >= 8);   // about the middle of 0..24
  CHECK(last.intent.index <= 16);
  CHECK(f.mod.apply(last.intent));
  CHECK(static_cast<const SvdSnapshot&>(*f.mod.snapshot()).rank == last.intent.index);
}

TEST_CASE("svd view: clicking a singular-value bar jumps to that rank") {
  Fixture f(uniform_images(2, 12, 10), "dataset", 1);
  ImGuiHeadless ui;
  SvdLowRankView view;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  for (int i = 0; i < 3; ++i) frame();  // the spectrum's auto-fit settles
  const ImVec2 a = view.spectrum_min(), b = view.spectrum_max();
  REQUIRE(b.x > a.x);
  // Bars sit at x = 1..10; the 6th of 10 bars lies at about 0.55 of the width.
  const ImVec2 p(a.x + (b.x - a.x) * 0.55f, (a.y + b.y) * 0.5f);
  ui.mouse_move(p.x, p.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].intent.kind == "set_rank");
  CHECK(intents[0].intent.index >= 5);
  CHECK(intents[0].intent.index <= 7);
}

TEST_CASE("svd view: a data matrix is drawn as heatmaps with labelled axes") {
  auto d = std::make_shared<Dataset>();
  Rng rng(1);
  d->x.resize(60, 5);
  for (int i = 0; i < 60; ++i)
    for (int j = 0; j < 5; ++j) d->x(i, j) = rng.normal() + j;
  d->name = "table";
  Fixture f(d, "dataset", 2);
  ImGuiHeadless ui;
  SvdLowRankView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(s.vertices > 4 * 300 * 4);  // four 60 x 5 heatmaps
  CHECK(intents.empty());
}

TEST_CASE("svd view: the photograph goes through the texture provider") {
  Fixture f(nullptr, "photo", 2);
  ImGuiHeadless ui;
  plot::NullTextureProvider textures;
  plot::SetTextureProvider(&textures);
  SvdLowRankView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(textures.data_updates() >= 4);  // A, A_K, layer, residual: one 512 x 512 texture each
  bool big = false;
  for (const auto& call : textures.calls) big = big || (call.w == 512 && call.h == 512);
  CHECK(big);
  CHECK(s.vertices < 60000);  // no per-pixel quads
  // A new rank changes A_K, the layer and the residual textures, not A's.
  const int before = textures.data_updates();
  f.mod.step();
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(textures.data_updates() - before == 3);
  plot::SetTextureProvider(nullptr);
}

TEST_CASE("svd view: image panels refit when the input's shape changes") {
  // Issue 9 B6: a 28 x 28 image was drawn in a corner of the photograph's 512 x 512 axes.
  Fixture photo(nullptr, "photo", 2);
  Fixture item(uniform_images(3, 28, 28), "dataset", 2);
  ImGuiHeadless ui;
  SvdLowRankView view;
  std::vector<ViewIntent> intents;
  const char* panels[] = {"##svd_a", "##svd_ak", "##svd_layer", "##svd_resid"};
  auto limits = [&](const char* id) {
    plot::Limits lim;
    ui.frame_in_window([&] {
      view.draw(*item.mod.snapshot(), item.context(), intents);
      const auto found = ui.plot_context()->plots.find(ImGui::GetID(id));
      REQUIRE(found != ui.plot_context()->plots.end());
      const plot::PlotState& st = found->second;
      lim = plot::Limits{st.x.min(), st.x.max(), st.y.min(), st.y.max()};
    });
    return lim;
  };
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*photo.mod.snapshot(), photo.context(), intents); });
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(*item.mod.snapshot(), item.context(), intents); });
  for (const char* id : panels) {
    CAPTURE(id);
    const plot::Limits lim = limits(id);
    // Equal aspect widens one axis; the other spans exactly the 28 pixels.
    const bool x_tight = std::abs(lim.x_min) < 1e-6 && std::abs(lim.x_max - 28.0) < 1e-6;
    const bool y_tight = std::abs(lim.y_min) < 1e-6 && std::abs(lim.y_max - 28.0) < 1e-6;
    CHECK((x_tight || y_tight));
    CHECK(lim.x_max - lim.x_min < 3 * 28.0);
    CHECK(lim.y_max - lim.y_min < 3 * 28.0);
  }
}
