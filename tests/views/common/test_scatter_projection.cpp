// The one projection control of the clustering scatters (views/common/scatter_projection.h),
// driven with real ImGui frames by mouse clicks in both views that use it (k-means, GMM):
// the radio buttons switch between principal axes and two features, the feature combos
// choose the columns, and the scatter's axes follow.
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "views/clustering/gmm_view.h"
#include "views/clustering/kmeans_view.h"
#include "views/common/scatter_projection.h"

#include <doctest/doctest.h>
#include <imgui_internal.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace cilab;

namespace {

bool finite(const ImVec2& p) { return std::isfinite(p.x) && std::isfinite(p.y); }
bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

template <class Frame>
void click(ImGuiHeadless& ui, ImVec2 p, Frame&& frame) {
  ui.mouse_move(p.x, p.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
  frame();
}

// Centre of line j of the open combo popup (a Selectable per line), or NaN if none is open.
ImVec2 popup_line(int j) {
  for (ImGuiWindow* w : GImGui->Windows)
    if ((w->Flags & ImGuiWindowFlags_Popup) && w->Active) {
      const float line = GImGui->FontSize + GImGui->Style.ItemSpacing.y;
      return ImVec2(w->DC.CursorStartPos.x + GImGui->FontSize * 2,
                    w->DC.CursorStartPos.y + j * line + GImGui->FontSize * 0.5f);
    }
  return ImVec2(NAN, NAN);
}

// Drives the control of `View` (a k-means or GMM view) over one step of `module` on iris (d = 4).
template <class View>
void drive_projection_control(const char* module) {
  const std::string module_name = module;
  CAPTURE(module_name);
  const std::shared_ptr<const Dataset> data = make_dataset("iris");
  REQUIRE(data->cols() == 4);
  const std::unique_ptr<Module> m = make_module(module);
  ParamValues values = default_values(m->params());
  values["k"] = 3;
  m->reset(data, values, 1);
  m->step();
  const std::shared_ptr<const Snapshot> snap = m->snapshot();
  ViewContext ctx;
  ctx.data = data.get();
  ctx.info = &m->info();
  ctx.values = &values;
  ctx.data_version = 1;
  ctx.seed = 1;
  ImGuiHeadless ui;
  View view;
  std::vector<ViewIntent> intents;
  auto controls = [&] { ui.frame_in_window([&] { view.draw_controls(*snap, ctx); }); };
  auto scatter_text = [&] {
    ui.mouse_move(-100, -100);  // no tooltip: it would end the text capture
    return frame_text(ui, [&] { view.draw(*snap, ctx, intents); });
  };
  const std::vector<std::string>& names = data->column_names;

  // Default: principal axes, no feature combos.
  CHECK(view.projection.mode == ScatterMode::Principal);
  CHECK(has(scatter_text(), "PC1: principal axis 1"));
  controls();
  REQUIRE(finite(view.projection.widgets.principal));
  REQUIRE(finite(view.projection.widgets.features));
  CHECK_FALSE(finite(view.projection.widgets.x_combo));

  // "two features": the combos appear, the scatter shows the first two columns.
  click(ui, view.projection.widgets.features, controls);
  CHECK(view.projection.mode == ScatterMode::Features);
  REQUIRE(finite(view.projection.widgets.x_combo));
  REQUIRE(finite(view.projection.widgets.y_combo));
  std::string text = scatter_text();
  CAPTURE(text);
  CHECK(has(text, names[0]));
  CHECK(has(text, names[1]));
  CHECK_FALSE(has(text, "PC1"));

  // The y combo lists the features; picking the fourth puts it on the y axis.
  click(ui, view.projection.widgets.y_combo, controls);
  const ImVec2 fourth = popup_line(3);
  REQUIRE(finite(fourth));
  click(ui, fourth, controls);
  CHECK(view.projection.feature_x == 0);
  CHECK(view.projection.feature_y == 3);
  CHECK_FALSE(finite(popup_line(0)));  // the popup closed
  text = scatter_text();
  CHECK(has(text, names[3]));
  CHECK_FALSE(has(text, names[1]));

  // Back to principal axes: the combos go, the choice of features is kept for next time.
  click(ui, view.projection.widgets.principal, controls);
  CHECK(view.projection.mode == ScatterMode::Principal);
  CHECK_FALSE(finite(view.projection.widgets.y_combo));
  CHECK(view.projection.feature_y == 3);
  CHECK(has(scatter_text(), "PC1: principal axis 1"));
}

}  // namespace

TEST_CASE("projection control: k-means view - principal axes, two features and the feature combos, by mouse") {
  drive_projection_control<KMeansView>("kmeans");
}

TEST_CASE("projection control: GMM view - the same control, the same behaviour") {
  drive_projection_control<GmmView>("gmm");
}

TEST_CASE("projection control: 2-D data shows no control and records no widgets") {
  const std::shared_ptr<const Dataset> data = make_dataset("faithful");
  REQUIRE(data->cols() == 2);
  ImGuiHeadless ui;
  ProjectionChoice choice;
  choice.widgets.principal = ImVec2(1, 1);  // stale, from an earlier frame
  bool changed = true;
  const std::string text = frame_text(ui, [&] { changed = ScatterProjection::draw_controls(*data, choice, "help"); });
  CHECK_FALSE(changed);
  CHECK_FALSE(has(text, "principal axes"));
  CHECK_FALSE(finite(choice.widgets.principal));
}
