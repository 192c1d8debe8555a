// The shared slider widgets (views/common/ui.h), driven with real ImGui frames: an
// integer slider steps by one with its buttons and has a fine (Shift) drag; a
// real slider applies typed text only when it is committed.
#include "tests/support/imgui_headless.h"
#include "views/common/ui.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <vector>

using namespace cilab;

namespace {

constexpr int kEnter = 13;  // index used for ImGuiKey_Enter in these tests

struct IntRig {
  ImGuiHeadless ui;
  SliderEditState state;
  int value = 4;
  int commits = 0;
  IntRig() { ui.io().KeyMap[ImGuiKey_Enter] = kEnter; }
  void frame() {
    ui.frame_in_window([&] {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
      if (int_slider("k", &value, 1, 50, 0, state)) ++commits;
    });
  }
  void click(float x, float y) {
    ui.mouse_move(x, y);
    frame();
    ui.mouse_button(0, true);
    frame();
    ui.mouse_button(0, false);
    frame();
  }
};

}  // namespace

TEST_CASE("ui: int_slider's + and - buttons step by exactly one and commit") {
  IntRig r;
  r.frame();
  r.click(r.state.plus_x, r.state.plus_y);
  CHECK(r.value == 5);
  CHECK(r.commits == 1);
  r.click(r.state.minus_x, r.state.minus_y);
  r.click(r.state.minus_x, r.state.minus_y);
  CHECK(r.value == 3);
  CHECK(r.commits == 3);
}

TEST_CASE("ui: a 26 px drag with Shift moves an integer slider by a few steps, not by seven") {
  // Without Shift the slider is absolute: 26 px over a 1..50 range of ~200 px moves k by ~7.
  IntRig plain;
  plain.frame();
  const float x0 = plain.state.slider_x, y0 = plain.state.slider_y;
  plain.ui.mouse_move(x0, y0);
  plain.frame();
  plain.ui.mouse_button(0, true);
  plain.frame();
  const int start = plain.value;
  plain.ui.mouse_move(x0 + 26, y0);
  plain.frame();
  CHECK(std::abs(plain.value - start) >= 5);

  IntRig fine;
  fine.frame();
  fine.ui.mouse_move(x0, y0);
  fine.frame();
  fine.ui.key_mods(false, true);  // Shift: a press does not jump either
  fine.ui.mouse_button(0, true);
  fine.frame();
  CHECK(fine.value == 4);
  for (int dx = 2; dx <= 26; dx += 2) {
    fine.ui.mouse_move(x0 + static_cast<float>(dx), y0);
    fine.frame();
  }
  CHECK(fine.value > 4);
  CHECK(fine.value <= 8);  // about one step per 0.75 em (13 px font: ~10 px)
  fine.ui.mouse_button(0, false);
  fine.frame();
  fine.ui.key_mods(false, false);
  CHECK(fine.commits == 1);
}

TEST_CASE("ui: real_slider applies typed text on Enter only - half-typed text is never reported") {
  ImGuiHeadless ui;
  ui.io().KeyMap[ImGuiKey_Enter] = kEnter;
  SliderEditState state;
  double lr = 0.01;
  std::vector<double> reported;
  ImVec2 centre;
  auto frame = [&] {
    ui.frame_in_window([&] {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
      if (real_slider("lr", &lr, 1e-5, 10.0, "%.3g", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp,
                      state))
        reported.push_back(lr);
      centre = ImVec2(0.5f * (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x),
                      0.5f * (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y));
    });
  };
  frame();
  ui.mouse_move(centre.x, centre.y);
  frame();
  ui.key_mods(true, false);  // Ctrl+click: a text field, all selected
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
  ui.key_mods(false, false);
  for (char c : {'0', '.', '3'}) {
    ui.io().AddInputCharacter(c);
    frame();
  }
  CHECK(reported.empty());
  CHECK(lr == 0.01);
  ui.io().KeysDown[kEnter] = true;
  frame();
  ui.io().KeysDown[kEnter] = false;
  frame();
  REQUIRE(reported.size() == 1);
  CHECK(reported[0] == doctest::Approx(0.3));
  CHECK(lr == doctest::Approx(0.3));
}

TEST_CASE("ui: panel_pair puts two panels side by side while each keeps min_em font sizes, else stacks them") {
  ImGuiHeadless ui;
  ui.frame_in_window([&] {
    const float f = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.x;
    const PanelPair wide = panel_pair(2 * 16 * f + gap, 16);  // exactly 16 font sizes each
    CHECK_FALSE(wide.stacked);
    CHECK(wide.width == doctest::Approx(16 * f));
    const PanelPair narrow = panel_pair(2 * 16 * f + gap - 2, 16);  // 1 px short each
    CHECK(narrow.stacked);
    CHECK(narrow.width == doctest::Approx(2 * 16 * f + gap - 2));  // each the whole width
  });
}
