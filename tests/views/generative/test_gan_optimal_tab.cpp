// The gan view's optimal-discriminator tab (views/generative/gan_optimal_tab.h), drawn with real ImGui frames
// (no renderer) in the region the gan view gives it at 1280x720 (about 900x550) and at 1920x1080:
// the read-outs (V(G, D*) beside 2 JS - log 4, equal), the plot's labels and legend, moving p_g
// (by the API and by clicking "p_g = p_data"), training D by the button until it reaches D*, Reset
// D, the bimodal data, and bad settings refused with the old ones kept.
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/generative/gan_optimal.h"
#include "views/generative/gan_optimal_tab.h"
#include "views/plot/plot.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

using namespace cilab;

namespace {

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::string fixed9(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9f", v);
  return buf;
}

// Draws the tab in a child of `size` at the window's top-left, as the gan view's tab would.
struct Rig {
  ImGuiHeadless ui;
  GanOptimalTab tab;
  ImVec2 size;
  explicit Rig(ImVec2 display = ImVec2(1280, 800), ImVec2 region = ImVec2(900, 550))
      : ui(display), size(region) {}
  std::string frame() {
    return frame_text(ui, [&] { tab.draw(size); });
  }
  void click(ImVec2 p) {
    ui.mouse_move(p.x, p.y);
    frame();
    ui.mouse_button(0, true);
    frame();
    ui.mouse_button(0, false);
    frame();
    ui.mouse_move(-100, -100);  // away: a tooltip would end the frame's text capture
  }
};

bool inside(ImVec2 p, ImVec2 size) { return p.x > 0 && p.y > 0 && p.x < size.x && p.y < size.y; }

}  // namespace

TEST_CASE(
    "gan optimal tab: read-outs show V(G, D*) beside 2 JS - log 4, the plot is labelled with a "
    "legend") {
  Rig rig;
  std::string text;
  for (int i = 0; i < 3; ++i) text = rig.frame();
  const DivergenceReport& r = rig.tab.report();
  CHECK(std::abs(r.v_optimal - r.identity) < 1e-9);
  CHECK(r.js > 0.0);
  CHECK(has(text, "V(G, D*) = " + fixed9(r.v_optimal)));
  CHECK(has(text, "2 JS - log 4 = " + fixed9(r.identity)));
  CHECK(fixed9(r.v_optimal) == fixed9(r.identity));  // the two numbers read the same on screen
  CHECK(has(text, "KL(p_data || p_g) = "));
  CHECK(has(text, "KL(p_g || p_data) = "));
  CHECK(has(text, "JS = "));
  CHECK(has(text, "V(G, D) = "));
  CHECK(has(text, "max |D - D*| = "));
  // The plot: title, both axis labels, every legend entry, the caption.
  CHECK(has(text, "Densities, D*(x) and the trained D(x)"));
  CHECK(has(text, "p(x) and D(x), one axis"));
  for (const char* entry :
       {"p_data(x)", "p_g(x)", "D* = p_data/(p_data+p_g)", "D, trained (dashed)", "D = 1/2"})
    CHECK(has(text, entry));
  CHECK(has(text, "V(G, D*) = -log 4"));
  // Layout: the plot is readable and inside the tab's region; the controls are inside too.
  const plot::PlotRect* rects = nullptr;
  REQUIRE(plot::LastFramePlotRects(&rects) == 1);
  CHECK(rects[0].area_max.y - rects[0].area_min.y >= kMinPlotArea);
  CHECK(rects[0].frame_max.x <= rig.size.x + 10);
  CHECK(rects[0].frame_max.y <= rig.size.y + 10);
  CHECK(rects[0].area_max.x - rects[0].area_min.x > 400);
  const GanOptimalTargets& t = rig.tab.targets();
  for (ImVec2 p : {t.train, t.reset, t.match, t.gen_mean}) CHECK(inside(p, rig.size));
}

TEST_CASE(
    "gan optimal tab: moving p_g changes the read-outs, and p_g = p_data gives JS = 0, D* = 1/2, V "
    "= -log 4") {
  Rig rig;
  rig.frame();
  const double js_default = rig.tab.report().js;
  GanOptimalSettings s = rig.tab.settings();
  s.gen_mean = 4.0;  // further away: JS grows
  rig.tab.set_settings(s);
  std::string text = rig.frame();
  CHECK(rig.tab.report().js > js_default);
  CHECK(has(text, "V(G, D*) = " + fixed9(rig.tab.report().v_optimal)));
  // The button moves p_g onto p_data.
  rig.click(rig.tab.targets().match);
  CHECK(rig.tab.settings().gen_mean == rig.tab.settings().data_mean);
  CHECK(rig.tab.settings().gen_sd == rig.tab.settings().data_sd);
  text = rig.frame();
  CHECK(std::abs(rig.tab.report().js) < 1e-14);
  CHECK(std::abs(rig.tab.report().v_optimal + std::log(4.0)) < 1e-12);
  CHECK(has(text, "V(G, D*) = -1.386294361"));
  CHECK(has(text, "2 JS - log 4 = -1.386294361"));
  CHECK(optimal_discriminator(rig.tab.data_density(), rig.tab.gen_density(), 0.7) == 0.5);
}

TEST_CASE("gan optimal tab: the Train button trains D towards D*, Reset D restarts it") {
  Rig rig;
  rig.frame();
  CHECK(rig.tab.discriminator_steps() == 0);
  CHECK(std::abs(rig.tab.trained_value() + std::log(4.0)) < 1e-12);  // D = 1/2
  const double start_gap = rig.tab.trained_gap();
  rig.click(rig.tab.targets().train);
  CHECK(rig.tab.training());
  const int per_frame = rig.tab.settings().steps_per_frame;
  int frames = 0;
  double previous_value = rig.tab.trained_value();
  for (; frames < 400 && rig.tab.trained_gap() > 1e-4; ++frames) {
    rig.frame();
    CHECK(rig.tab.trained_value() >= previous_value - 1e-13);  // V(G, D) never decreases
    previous_value = rig.tab.trained_value();
  }
  MESSAGE("bound step: " << rig.tab.discriminator_steps() << " steps to max |D - D*| <= 1e-4");
  CHECK(rig.tab.trained_gap() <= 1e-4);
  CHECK(rig.tab.trained_gap() < start_gap);
  CHECK(rig.tab.discriminator_steps() >= per_frame * frames);
  CHECK(std::abs(rig.tab.trained_value() - rig.tab.report().v_optimal) < 1e-6);
  // Stop, then Reset D: back to D = 1/2 with no steps.
  rig.click(rig.tab.targets().train);
  CHECK(!rig.tab.training());
  const int steps = rig.tab.discriminator_steps();
  rig.frame();
  CHECK(rig.tab.discriminator_steps() == steps);  // stopped
  rig.click(rig.tab.targets().reset);
  CHECK(rig.tab.discriminator_steps() == 0);
  CHECK(rig.tab.discriminator().a == 0.0);
  CHECK(std::abs(rig.tab.trained_value() + std::log(4.0)) < 1e-12);
  // Newton gets there in a few frames; moving p_g afterwards leaves D behind until trained again.
  GanOptimalSettings s = rig.tab.settings();
  s.optimizer = GanOptimalOptimizer::Newton;
  rig.tab.set_settings(s);
  rig.tab.set_training(true);
  for (int i = 0; i < 10; ++i) rig.frame();
  CHECK(rig.tab.trained_gap() < 1e-6);
  rig.tab.set_training(false);
  s.gen_mean = -1.0;
  rig.tab.set_settings(s);
  rig.frame();
  CHECK(rig.tab.trained_gap() > 0.1);
  CHECK(rig.tab.trained_value() < rig.tab.report().v_optimal);
}

TEST_CASE(
    "gan optimal tab: bimodal data is beyond the quadratic D, and bad settings are refused and the "
    "old ones kept") {
  Rig rig;
  GanOptimalSettings s = rig.tab.settings();
  s.data_bimodal = true;
  s.data2_weight = 0.4;
  s.data2_mean = -3.0;
  s.data2_sd = 0.5;
  rig.tab.set_settings(s);
  REQUIRE(rig.tab.data_density().components.size() == 2);
  std::string text = rig.frame();
  CHECK(has(text, "mean 2"));
  CHECK(std::abs(rig.tab.report().v_optimal - rig.tab.report().identity) < 1e-9);
  rig.tab.set_training(true);
  for (int i = 0; i < 150; ++i) rig.frame();
  CHECK(rig.tab.trained_value() < rig.tab.report().v_optimal - 1e-3);
  CHECK(rig.tab.trained_value() > -std::log(4.0));
  // Refused: an sd of 0 (named by the numerics), an lr outside (0, 2); the settings stay.
  GanOptimalSettings bad = rig.tab.settings();
  bad.gen_sd = 0.0;
  CHECK_THROWS_WITH_AS(rig.tab.set_settings(bad), doctest::Contains("p_g"), std::invalid_argument);
  bad = rig.tab.settings();
  bad.lr = 2.5;
  CHECK_THROWS_WITH_AS(rig.tab.set_settings(bad), doctest::Contains("lr"), std::invalid_argument);
  CHECK(rig.tab.settings().gen_sd == s.gen_sd);
  CHECK(rig.tab.settings().lr == s.lr);
  rig.frame();
}

TEST_CASE("gan optimal tab: fits at 1920x1080 and in a small region") {
  for (const ImVec2 region : {ImVec2(1400, 850), ImVec2(700, 420)}) {
    CAPTURE(region.x);
    Rig rig(ImVec2(1920, 1080), region);
    GanOptimalSettings s = rig.tab.settings();
    s.data_bimodal = true;  // the tallest control column
    rig.tab.set_settings(s);
    std::string text;
    for (int i = 0; i < 3; ++i) text = rig.frame();
    CHECK(has(text, "2 JS - log 4 = "));
    const plot::PlotRect* rects = nullptr;
    REQUIRE(plot::LastFramePlotRects(&rects) == 1);
    CHECK(rects[0].area_max.y - rects[0].area_min.y >= kMinPlotArea);
    CHECK(rects[0].frame_max.x <= region.x + 10);
    CHECK(rects[0].frame_max.y <= region.y + 10);
  }
}
