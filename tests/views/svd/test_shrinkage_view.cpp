// The shrinkage view, drawn with real ImGui frames (no renderer) over real
// module states: captions and read-outs, the four panels, the spectrum's
// click (tau) and the k slider (SetParam intents the module accepts).
#include "tests/support/test_data.h"
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/core/rng.h"
#include "algorithms/linalg/spectral.h"
#include "algorithms/svd/shrinkage.h"
#include "views/svd/shrinkage_view.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

using namespace cilab;
using namespace cilab::test_support;

namespace {

std::shared_ptr<const Dataset> table(int n, int d) {
  auto out = std::make_shared<Dataset>();
  Rng rng(4);
  out->x.resize(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) out->x(i, j) = rng.normal();
  out->name = "table";
  return out;
}

// Shrinkage of the dataset's matrix at tau, keeping k (seed 1).
struct Fixture : test_support::ViewFixture<Shrinkage> {
  Fixture(std::shared_ptr<const Dataset> d, double tau, int k)
      : ViewFixture(std::move(d), {"input=dataset", "tau=" + fmt_g(tau), "k=" + std::to_string(k)}) {}
  double metric(int i) const { return mod.shrinkage_snapshot()->metrics[static_cast<size_t>(i)]; }
};

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("shrinkage view: captions give each operator's rank, the legend and axes are labelled, four panels") {
  Fixture f(uniform_images(3, 20, 16), 1.0, 3);
  ImGuiHeadless ui;
  ShrinkageView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  // Four 20 x 16 matrices drawn as cells (no texture provider): >= 4 * 320 quads.
  CHECK(s.vertices > 4 * 320 * 4);
  CHECK(intents.empty());
  const std::string text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  char want[96];
  std::snprintf(want, sizeof want, "S_tau(A), tau = 1: rank %.0f", f.metric(Shrinkage::kMetricSoftRank));
  CHECK(has(text, want));
  CHECK(has(text, "[A]_k, k = 3: rank 3"));
  CHECK(has(text, "tau = sigma_4"));  // the match button names sigma_{k+1}
  std::snprintf(want, sizeof want, "k = rank S_tau = %.0f", f.metric(Shrinkage::kMetricSoftRank));
  CHECK(has(text, want));
  for (const char* label : {"index i", "singular value", "||A - B||_F", "rank", "soft", "hard", "tau", "prox objective",
                            "images row 0"})
    CHECK_MESSAGE(has(text, label), label);
  // The soft nuclear norm read-out, to 4 significant digits.
  std::snprintf(want, sizeof want, "%.4g", f.metric(Shrinkage::kMetricSoftNuclear));
  CHECK(has(text, want));
  // Without the difference panel there is less to draw.
  view.show_difference = false;
  const FrameStats fewer = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(fewer.vertices < s.vertices);
  const FrameStats c = ui.frame_in_window([&] { view.draw_controls(*f.mod.snapshot(), f.context()); });
  CHECK(c.vertices > ui.empty_vertices());
}

TEST_CASE("shrinkage view: a click in the spectrum sets tau to that height, the module's soft rank follows") {
  Fixture f(table(30, 12), 0.5, 2);
  ImGuiHeadless ui;
  ShrinkageView view;
  view.log_spectrum = false;  // linear: the click's height is easy to predict
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  for (int i = 0; i < 3; ++i) frame();  // the auto-fit settles
  const ImVec2 a = view.spectrum_min(), b = view.spectrum_max();
  REQUIRE(b.y > a.y);
  ui.mouse_move(a.x + (b.x - a.x) * 0.5f, a.y + (b.y - a.y) * 0.5f);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE(intents.size() == 1);
  const ViewIntent& vi = intents[0];
  CHECK(vi.kind == ViewIntent::Kind::SetParam);
  CHECK(vi.param == "tau");
  const double sigma1 = f.metric(Shrinkage::kMetricSigma1);
  // Half-way up a linear axis fitted to [0, sigma_1] (with margins).
  CHECK(vi.value > 0.3 * sigma1);
  CHECK(vi.value < 0.7 * sigma1);
  f.mod.set_live(vi.param, vi.value);
  const SvdFactors& fac = *f.mod.shrinkage_snapshot()->svd;
  CHECK(f.metric(Shrinkage::kMetricSoftRank) == rank_above(fac.sigma, vi.value));
}

TEST_CASE("shrinkage view: dragging the k slider sends k, which the module accepts, data matrices are heatmaps") {
  Fixture f(table(40, 24), 0.5, 2);
  ImGuiHeadless ui;
  ShrinkageView view;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  frame();
  frame();
  const ImVec2 c = view.k_slider_centre();
  REQUIRE(c.x > 0);
  ui.mouse_move(c.x, c.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_move(c.x + 60, c.y);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE_FALSE(intents.empty());
  const ViewIntent& last = intents.back();
  CHECK(last.kind == ViewIntent::Kind::SetParam);
  CHECK(last.param == "k");
  CHECK(last.value > 2);
  CHECK(last.value <= 24);
  f.mod.set_live(last.param, last.value);
  CHECK(f.metric(Shrinkage::kMetricHardRank) == last.value);
  ui.mouse_move(-100, -100);  // no tooltip open (it would end the frame's text log)
  frame();
  const std::string text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(has(text, "feature (column)"));
  CHECK(has(text, "sample (row)"));
  CHECK(has(text, "whole 40 x 24 data matrix"));
}
