// The class key (views/common/class_key.h) with real ImGui frames: short of height it keeps to one
// line of names then swatches, and when even the swatches do not fit the width they wrap - none is
// drawn past the right edge (pLSA's 43 fortune categories); as a scrolling column it is whole.
#include "tests/support/imgui_headless.h"
#include "views/common/class_key.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace cilab;

namespace {

struct KeyExtent {
  float right = 0.0f;   // the right edge of the widest item drawn
  float height = 0.0f;  // the key's height
  int items = 0;
};

// Draws the key of `classes` names in a child window `width` x `height` px.
KeyExtent draw_key(int classes, float width, float height, bool column) {
  ImGuiHeadless ui(ImVec2(1280.0f, 720.0f), false);
  std::vector<std::string> names;
  for (int c = 0; c < classes; ++c) names.push_back("category " + std::to_string(c));
  std::vector<char> hidden;
  KeyExtent e;
  for (int frame = 0; frame < 2; ++frame)
    ui.frame_in_window([&] {
      ImGui::BeginChild("##key", ImVec2(width, height), false);
      const float top = ImGui::GetCursorScreenPos().y;
      e.right = 0.0f;
      ImGui::BeginGroup();
      class_key(names, width, hidden, {"a note"}, column);
      ImGui::EndGroup();
      e.right = ImGui::GetItemRectMax().x;
      e.height = ImGui::GetItemRectMax().y - top;
      ImGui::EndChild();
    });
  e.items = static_cast<int>(hidden.size());
  return e;
}

}  // namespace

TEST_CASE("class key: short of height, 43 classes in 270 px stay inside the width (swatches wrap)") {
  const float width = 270.0f;
  const KeyExtent e = draw_key(43, width, 120.0f, false);
  CHECK(e.items == 43);
  CHECK(e.right <= 8.0f + width + 1.0f);  // (the window's padding, then the key's width)
  CHECK(e.height > 2.0f * 13.0f);  // more than one line (ImGui's default font: 13 px): they wrapped
}

TEST_CASE("class key: a few classes short of height take one line, and a scrolling column is whole") {
  const KeyExtent few = draw_key(4, 900.0f, 120.0f, false);
  CHECK(few.height < 1.6f * 13.0f + 4.0f);  // one line (ImGui's default font: 13 px)
  const KeyExtent column = draw_key(43, 270.0f, 120.0f, true);
  const KeyExtent squeezed = draw_key(43, 270.0f, 120.0f, false);
  CHECK(column.height > 2.0f * squeezed.height);  // every name on its own lines, not swatches
  CHECK(column.right <= 8.0f + 270.0f + 1.0f);
}
