// The PCA view, drawn with real ImGui frames (no renderer) over snapshots of a
// real PCA run: every layout (2-D, 3-D, high-d, image data) and its input.
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "views/plot/plot_internal.h"
#include "algorithms/data/datasets.h"
#include "algorithms/dimensionality/pca.h"
#include "views/dimensionality/pca_view.h"

#include <Eigen/Dense>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

using namespace cilab;

namespace {

// PCA in `mode` with `components` (0: all; seed 1), `steps` steps taken.
struct Fixture : test_support::ViewFixture<PCA> {
  Fixture(std::shared_ptr<const Dataset> d, const std::string& mode, int steps, int components = 0)
      : ViewFixture(std::move(d), {"mode=" + mode, "components=" + std::to_string(components)}) {
    run(steps);
  }
  Fixture(const std::string& spec, const std::string& mode, int steps, int components = 0)
      : Fixture(make_dataset(spec), mode, steps, components) {}
  const PcaSnapshot& snap() const { return *mod.pca_snapshot(); }
};

// Presses at `from`, moves to `to` in steps, releases; returns the intents.
std::vector<ViewIntent> drag(ImGuiHeadless& ui, PcaView& view, Fixture& f, ImVec2 from, ImVec2 to) {
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); }); };
  ui.mouse_move(from.x, from.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  for (int t = 1; t <= 4; ++t) {
    ui.mouse_move(from.x + (to.x - from.x) * t / 4, from.y + (to.y - from.y) * t / 4);
    frame();
  }
  ui.mouse_button(0, false);
  frame();
  return intents;
}

}  // namespace

TEST_CASE("pca view 2-D: draws cloud, line, residuals and objective curve - no intents without input") {
  Fixture f("anisotropic:n=300,centers=1,seed=2", "fit", 1);
  ImGuiHeadless ui;
  PcaView view;
  std::vector<ViewIntent> intents;
  FrameStats with, without;
  for (int i = 0; i < 3; ++i) with = ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  view.show_residuals = false;
  for (int i = 0; i < 2; ++i) without = ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  CHECK(with.vertices > 300 * 4);
  CHECK(with.vertices > without.vertices + 300 * 4);  // one segment (quad) per point at least
  CHECK(intents.empty());
  CHECK(std::isfinite(view.handle_pixel().x));
  // Fit mode: the tip of u lies along u_1 from the anchor (screen y points down).
  const Eigen::VectorXd u1 = f.snap().components->row(0).transpose();
  const ImVec2 a = view.anchor_pixel(), h = view.handle_pixel();
  const Eigen::Vector2d dir(h.x - a.x, -(h.y - a.y));
  CHECK(std::abs(dir.normalized().dot(u1)) > 0.999);
}

TEST_CASE("pca view 2-D manual: dragging the tip of u sets the angle parameter towards the mouse") {
  Fixture f("anisotropic:n=200,centers=1,seed=3", "manual", 0);
  ImGuiHeadless ui;
  PcaView view;
  view.show_residuals = false;
  std::vector<ViewIntent> none;
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), none); });
  const ImVec2 a = view.anchor_pixel(), h = view.handle_pixel();
  REQUIRE(std::isfinite(h.x));
  // Drag the tip to straight above the anchor: u -> (0, +-1).
  const float r = std::hypot(h.x - a.x, h.y - a.y);
  const std::vector<ViewIntent> intents = drag(ui, view, f, h, ImVec2(a.x, a.y - r));
  REQUIRE_FALSE(intents.empty());
  // The drag is sent as the angle parameter (the panel then shows the u on screen): straight up is 90 deg.
  const ViewIntent& last = intents.back();
  CHECK(last.kind == ViewIntent::Kind::SetParam);
  CHECK(last.param == "angle");
  CHECK(last.value == doctest::Approx(90.0).epsilon(0.03));
  f.mod.set_live("angle", last.value);
  const Eigen::VectorXd u = pca_direction_from_angles(2, last.value, 0);
  CHECK(f.snap().captured == doctest::Approx(pca_captured_variance(*f.snap().covariance, u)));
}

TEST_CASE("pca view 3-D: rotation changes the projection - dragging empty space rotates, the tip sets angle and elevation") {
  Fixture f("blobs:n=300,centers=2,dim=3,seed=4", "manual", 1);
  ImGuiHeadless ui;
  PcaView view;
  view.show_residuals = false;
  std::vector<ViewIntent> none;
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), none); });
  const ImVec2 h0 = view.handle_pixel(), a = view.anchor_pixel();
  REQUIRE(std::isfinite(h0.x));
  // Rotation maths: orthonormal, and a different yaw moves the projected tip.
  const Eigen::Matrix3d r = view.rotation();
  CHECK((r * r.transpose() - Eigen::Matrix3d::Identity()).norm() < 1e-12);
  CHECK(r.determinant() == doctest::Approx(1.0));
  // Drag empty space (away from the tip, inside the plot): yaw and pitch change, no intent.
  const double yaw0 = view.yaw_deg;
  // (off the line: pressing the line itself turns u)
  const float hl = std::hypot(h0.x - a.x, h0.y - a.y);
  const ImVec2 start(a.x - (h0.y - a.y) / hl * 40.0f, a.y + (h0.x - a.x) / hl * 40.0f);
  const std::vector<ViewIntent> rot_intents = drag(ui, view, f, start, ImVec2(start.x + 60, start.y + 20));
  CHECK(rot_intents.empty());
  CHECK(view.yaw_deg != yaw0);
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), none); });
  const ImVec2 h1 = view.handle_pixel();
  CHECK(std::hypot(h1.x - h0.x, h1.y - h0.y) > 2.0f);  // the projection of u moved
  // Dragging the tip emits a unit 3-vector that the module accepts.
  const std::vector<ViewIntent> intents = drag(ui, view, f, h1, ImVec2(h1.x + 50, h1.y - 30));
  REQUIRE(intents.size() >= 2);
  const ViewIntent& angle = intents[intents.size() - 2];
  const ViewIntent& elevation = intents.back();
  CHECK(angle.param == "angle");
  CHECK(elevation.param == "elevation");
  CHECK(angle.value >= 0.0);
  CHECK(angle.value <= 180.0);
  CHECK(std::abs(elevation.value) <= 90.0);
  const Eigen::VectorXd before = f.snap().direction;
  f.mod.set_live("angle", angle.value);
  f.mod.set_live("elevation", elevation.value);
  CHECK((f.snap().direction - before).norm() > 1e-3);
}

TEST_CASE("pca view high-d (iris): scree, scores, loadings and reconstruction draw - controls draw") {
  Fixture f("iris", "fit", 1);
  ImGuiHeadless ui;
  PcaView view;
  std::vector<ViewIntent> intents;
  FrameStats before = ui.frame_in_window([&] {});
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  CHECK(s.vertices > before.vertices + 150 * 4);  // the 150 scores at least
  CHECK(intents.empty());
  CHECK(view.samples.size() == 3);  // one per class chosen automatically
  view.recon_k = 2;
  view.score_x = 1;
  view.score_y = 3;
  s = ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  CHECK(s.vertices > 150 * 4);
  const std::string controls = frame_text(ui, [&] { view.draw_controls(f.snap(), f.context()); });
  CAPTURE(controls);
  CHECK(controls.find("reconstruction K") != std::string::npos);
  CHECK(controls.find("scatter x: PC") != std::string::npos);
  // Before the fit the layout says so and draws no plots.
  Fixture g("iris", "fit", 0);
  const FrameStats text_only = ui.frame_in_window([&] { ImGui::TextUnformatted("x"); });
  const std::string before_fit = frame_text(ui, [&] { view.draw(g.snap(), g.context(), intents); });
  s = ImGuiHeadless::stats();
  CHECK(before_fit.find("Nothing to show before the fit") != std::string::npos);
  CHECK(s.vertices < text_only.vertices + 6000);  // a few lines of text, no plot
}

TEST_CASE("pca view high-d: the cumulative ratio at K is exact also beyond the scree plot's range") {
  // Issue 9 B5: with K beyond the scree limit (50) the view printed the cumulative ratio at 50.
  auto d = std::make_shared<Dataset>();
  Eigen::MatrixXd x = Eigen::MatrixXd::Random(300, 40);
  for (int j = 0; j < 40; ++j) x.col(j) *= 1.0 / (1.0 + j);  // decaying spectrum
  d->x = x;
  for (int j = 0; j < 40; ++j) d->column_names.push_back("f" + std::to_string(j));
  d->name = "decay";
  Fixture f(d, "fit", 1, 30);
  REQUIRE(f.snap().k() == 30);
  ImGuiHeadless ui;
  PcaView view;
  view.scree_count = 10;  // the scree plot shows 10 components
  view.recon_k = 25;      // K beyond them
  std::vector<ViewIntent> intents;
  ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  const std::string text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), intents); });
  // Independent value: the measured reconstruction error e(K) of the module, 1 - e(K) / tr C.
  const PcaSnapshot& s = f.snap();
  const double ratio = 1.0 - s.recon_error[25] / s.total_variance;
  char want[64];
  std::snprintf(want, sizeof want, "K = 25: cumulative %.2f%%", 100.0 * ratio);
  CAPTURE(text);
  CAPTURE(want);
  CHECK(text.find(want) != std::string::npos);
  CHECK(s.cumulative_ratio(25) == doctest::Approx(ratio).epsilon(1e-9));
  CHECK(s.cumulative_ratio(40) == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("pca view image data: eigen-images and reconstructions go through the texture provider") {
  auto d = std::make_shared<Dataset>();
  d->x = Eigen::MatrixXd::Random(80, 36).cwiseAbs();
  d->image_h = d->image_w = 6;
  for (int j = 0; j < 36; ++j) d->column_names.push_back("px" + std::to_string(j));
  for (int i = 0; i < 80; ++i) d->labels.push_back(i % 4);
  d->name = "tiny-images";
  Fixture f(d, "fit", 1, 12);
  ImGuiHeadless ui;
  plot::NullTextureProvider tex;
  plot::SetTextureProvider(&tex);
  PcaView view;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  // mean + 11 eigen-images + 2 x 4 sample images, each a distinct texture.
  CHECK(tex.data_updates() >= 12 + 8);
  plot::SetTextureProvider(nullptr);
}

TEST_CASE("pca view high-d: hovering a score shows the sample, clicking adds it to the reconstruction") {
  Fixture f("fashion-mnist:n=400", "fit", 1, 20);
  ImGuiHeadless ui;
  plot::NullTextureProvider tex;
  plot::SetTextureProvider(&tex);
  PcaView view;
  std::vector<ViewIntent> intents;
  auto frame = [&] { return ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); }); };
  frame();
  frame();
  const size_t chosen = view.samples.size();
  // Scan the score plot area (top right quarter) for a point under the mouse.
  bool added = false;
  for (float y = 120; y < 380 && !added; y += 6)
    for (float x = 700; x < 1200 && !added; x += 6) {
      ui.mouse_move(x, y);
      const FrameStats hover = frame();
      (void)hover;
      ui.mouse_button(0, true);
      frame();
      ui.mouse_button(0, false);
      frame();
      added = view.samples.size() > chosen;
    }
  CHECK(added);
  CHECK(intents.empty());
  plot::SetTextureProvider(nullptr);
}

TEST_CASE("pca view high-d: the score scatter refits to a new run's scores") {
  // Issue 9 B6 (module plots): the scatter kept the previous run's axes.
  auto small = std::make_shared<Dataset>(*make_dataset("iris"));
  auto large = std::make_shared<Dataset>(*small);
  large->x *= 100.0;
  Fixture a(small, "fit", 1), b(large, "fit", 1);
  ImGuiHeadless ui;
  PcaView view;
  std::vector<ViewIntent> intents;
  auto scatter_limits = [&](Fixture& f, uint64_t version) {
    ViewContext ctx = f.context();
    ctx.data_version = version;
    plot::Limits lim;
    for (int i = 0; i < 3; ++i)
      ui.frame_in_window([&] {
        view.draw(f.snap(), ctx, intents);
        for (ImGuiWindow* w : GImGui->Windows)
          if (std::string(w->Name).find("##pca_scores") != std::string::npos) {
            const auto found = ui.plot_context()->plots.find(w->GetID("##pca_scatter"));
            REQUIRE(found != ui.plot_context()->plots.end());
            const plot::PlotState& st = found->second;
            lim = plot::Limits{st.x.min(), st.x.max(), st.y.min(), st.y.max()};
          }
      });
    return lim;
  };
  const plot::Limits la = scatter_limits(a, 1);
  CHECK(la.x_max - la.x_min < 20.0);
  const plot::Limits lb = scatter_limits(b, 2);
  const double z_max = b.snap().scores->col(0).cwiseAbs().maxCoeff();
  CHECK(z_max > 100.0);
  CHECK(lb.x_max - lb.x_min > 1.5 * z_max);  // all of the new scores are in view
}

TEST_CASE("pca view 2-D manual: grabbing the line itself turns u about the anchor - the plot does not pan") {
  Fixture f("anisotropic:n=200,centers=1,seed=3", "manual", 1);
  ImGuiHeadless ui;
  PcaView view;
  view.show_residuals = false;
  std::vector<ViewIntent> none;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), none); });
  const ImVec2 a = view.anchor_pixel(), h = view.handle_pixel();
  REQUIRE(std::isfinite(h.x));
  // A point on the line halfway between the anchor and the handle, then a drag across it.
  const ImVec2 grip((a.x + h.x) / 2, (a.y + h.y) / 2);
  const float len = std::hypot(h.x - a.x, h.y - a.y);
  REQUIRE(len > 60.0f);
  const ImVec2 to(grip.x - (h.y - a.y) / len * 50.0f, grip.y + (h.x - a.x) / len * 50.0f);
  const std::vector<ViewIntent> intents = drag(ui, view, f, grip, to);
  REQUIRE_FALSE(intents.empty());
  CHECK(intents.back().kind == ViewIntent::Kind::SetParam);
  CHECK(intents.back().param == "angle");
  // The new u points from the anchor to where the grip was dragged (screen y is down).
  const double want = std::fmod(std::atan2(-(to.y - a.y), to.x - a.x) * 180.0 / 3.14159265358979 + 360.0, 180.0);
  const double got = intents.back().value;
  CHECK(std::min(std::abs(got - want), 180.0 - std::abs(got - want)) < 2.0);
  // No pan: the anchor is where it was.
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), none); });
  CHECK(view.anchor_pixel().x == doctest::Approx(a.x).epsilon(1e-4));
  CHECK(view.anchor_pixel().y == doctest::Approx(a.y).epsilon(1e-4));
}

TEST_CASE("pca view 2-D: the handle of u lies inside the visible plot area") {
  for (const ImVec2 display : {ImVec2(1280, 800), ImVec2(700, 1000)}) {  // wide, and a tall narrow plot
    for (const char* mode : {"fit", "manual"}) {
      for (const char* spec : {"anisotropic:n=300,centers=1,seed=2", "faithful"}) {
      Fixture f(spec, mode, 1);
      ImGuiHeadless ui(display);
      PcaView view;
      std::vector<ViewIntent> none;
      for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), none); });
      const plot::PlotRect* rects = nullptr;
      const int n = plot::LastFramePlotRects(&rects);
      const plot::PlotRect* line = nullptr;
      for (int i = 0; i < n; ++i)
        if (std::string(rects[i].title_id) == "##pca_line") line = &rects[i];
      REQUIRE(line != nullptr);
      const ImVec2 h = view.handle_pixel();
      INFO(std::string(mode) << " " << std::string(spec) << ": handle (" << h.x << ", " << h.y << ") area (" << line->area_min.x << ", "
                << line->area_min.y << ")-(" << line->area_max.x << ", " << line->area_max.y << ")");
      CHECK(h.x > line->area_min.x);
      CHECK(h.x < line->area_max.x);
      CHECK(h.y > line->area_min.y);
      CHECK(h.y < line->area_max.y);
      }
    }
  }
}

TEST_CASE("pca view 2-D not centred: the fitted view includes the anchor (the origin) and the handle") {
  // Old Faithful lies far from the origin; without centring the line passes through 0.
  auto data = make_dataset("faithful");
  Fixture f(data, "manual", 1);
  ParamValues v = default_values(f.mod.params());
  v["center"] = 0;
  v["mode"] = 1;
  f.mod.reset(data, v, 1);
  f.mod.step();
  ImGuiHeadless ui;
  PcaView view;
  std::vector<ViewIntent> none;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), none); });
  const plot::PlotRect* rects = nullptr;
  const int n = plot::LastFramePlotRects(&rects);
  const plot::PlotRect* line = nullptr;
  for (int i = 0; i < n; ++i)
    if (std::string(rects[i].title_id) == "##pca_line") line = &rects[i];
  REQUIRE(line != nullptr);
  for (const ImVec2 p : {view.anchor_pixel(), view.handle_pixel()}) {
    INFO("(" << p.x << ", " << p.y << ") in (" << line->area_min.x << ", " << line->area_min.y << ")-("
             << line->area_max.x << ", " << line->area_max.y << ")");
    CHECK(p.x >= line->area_min.x);
    CHECK(p.x <= line->area_max.x);
    CHECK(p.y >= line->area_min.y);
    CHECK(p.y <= line->area_max.y);
  }
}

TEST_CASE("pca view high-d: the reconstruction K steps by one with its + button") {
  Fixture f("iris", "fit", 1);
  ImGuiHeadless ui;
  PcaView view;
  view.recon_k = 2;
  auto frame = [&] { ui.frame_in_window([&] { view.draw_controls(f.snap(), f.context()); }); };
  frame();
  frame();
  const ImVec2 plus = view.recon_plus_pixel();
  REQUIRE(std::isfinite(plus.x));
  ui.mouse_move(plus.x, plus.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
  CHECK(view.recon_k == 3);
}
