// Lines of text in a narrow panel (views/common/ui.h) with real ImGui frames: fit_text cuts a line
// that is too wide with an ellipsis (the log keeps the whole line), a line after SameLine that does
// not fit starts a new row, and panels_cut_sideways() - the layout test's check over every module -
// reports what ImGui::Text lets run past a panel's edge and nothing of what fit_text draws.
#include "tests/support/imgui_headless.h"
#include "views/common/ui.h"

#include <doctest/doctest.h>

#include <imgui_internal.h>

#include <functional>
#include <string>
#include <vector>

using namespace cilab;

namespace {

const char* const kLong =
    "batch: loss = rec + beta KL = 514.2 + 100 x 0.06408 = 520.6, the line a narrow Compare half cuts";

struct Drawn {
  std::vector<std::string> cut;  // panels_cut_sideways() after the frame
  std::string log;               // the text the frame logged (what `expect text` reads)
  float item_min_x = 0, item_max_x = 0, item_min_y = 0;  // the last item drawn
  float row_start = 0, first_row_y = 0;                   // where the panel's rows start
};

// Draws `body` in a 200 x 300 px child window (two frames: the second is measured).
Drawn draw_in_panel(const std::function<void()>& body) {
  ImGuiHeadless ui(ImVec2(800.0f, 600.0f), false);
  Drawn d;
  for (int frame = 0; frame < 2; ++frame) {
    ui.frame_in_window([&] {
      ImGui::BeginChild("##narrow", ImVec2(200.0f, 300.0f), false);
      ImGui::LogToBuffer(0);
      d.row_start = ImGui::GetCursorScreenPos().x;
      d.first_row_y = ImGui::GetCursorScreenPos().y;
      body();
      d.item_min_x = ImGui::GetItemRectMin().x;
      d.item_max_x = ImGui::GetItemRectMax().x;
      d.item_min_y = ImGui::GetItemRectMin().y;
      d.log = GImGui->LogBuffer.c_str();
      ImGui::LogFinish();
      ImGui::EndChild();
    });
    d.cut = panels_cut_sideways();
  }
  return d;
}

bool names_narrow(const std::vector<std::string>& cut) {
  for (const std::string& line : cut)
    if (line.find("##narrow") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("fit text: ImGui::Text runs past a narrow panel and the check names the panel, fit_text does not") {
  const Drawn plain = draw_in_panel([] { ImGui::TextUnformatted(kLong); });
  CHECK(names_narrow(plain.cut));  // the check can fail: this is what it catches

  const Drawn fitted = draw_in_panel([] { fit_text("%s", kLong); });
  CHECK(fitted.cut.empty());
  CHECK(fitted.item_max_x <= fitted.row_start + 200.0f);
  CHECK(fitted.log.find(kLong) != std::string::npos);  // the whole line is logged, not the cut one

  const Drawn disabled = draw_in_panel([] { fit_text_disabled("%s", kLong); });
  CHECK(disabled.cut.empty());
  const Drawn coloured = draw_in_panel([] { fit_text_colored(ImVec4(1, 0, 0, 1), "%s", kLong); });
  CHECK(coloured.cut.empty());
}

TEST_CASE("fit text: a line that fits is drawn as ImGui draws it, and after SameLine a line too wide starts a new row") {
  const Drawn short_line = draw_in_panel([] { fit_text("J = %.4g", 1168.34); });
  CHECK(short_line.cut.empty());
  CHECK(short_line.log.find("J = 1168") != std::string::npos);

  // "J = ..." beside a caption that takes most of the row: it goes under the caption, whole.
  const Drawn wrapped = draw_in_panel([] {
    ImGui::TextUnformatted("Iteration 2: assign");
    ImGui::SameLine(0, 20.0f);
    fit_text("J = %.6g", 1168.34);
  });
  CHECK(wrapped.cut.empty());
  CHECK(wrapped.item_min_x == doctest::Approx(wrapped.row_start));
  CHECK(wrapped.item_min_y > wrapped.first_row_y + 1.0f);

  // A short value fits beside its label: it stays on the row.
  const Drawn beside = draw_in_panel([] {
    ImGui::TextUnformatted("J");
    ImGui::SameLine();
    fit_text("= %d", 3);
  });
  CHECK(beside.item_min_x > beside.row_start + 1.0f);
  CHECK(beside.item_min_y == doctest::Approx(beside.first_row_y));
}

TEST_CASE("fit text: a new row after SameLine does not count the gap as content (ImGui::NewLine would)") {
  // A SameLine gap that ends past the edge, then a new row: NewLine records the gap as an item's
  // extent and the panel seems cut; new_row_after_same_line does not.
  const auto row = [](bool imgui_newline) {
    return [imgui_newline] {
      ImGui::Dummy(ImVec2(180.0f, 10.0f));
      ImGui::SameLine(0, 40.0f);
      if (imgui_newline) ImGui::NewLine();
      else CHECK(new_row_after_same_line());
      ImGui::TextUnformatted("next row");
    };
  };
  CHECK(names_narrow(draw_in_panel(row(true)).cut));
  const Drawn ours = draw_in_panel(row(false));
  CHECK(ours.cut.empty());
  CHECK(ours.item_min_x == doctest::Approx(ours.row_start));
  CHECK(ours.item_min_y > ours.first_row_y + 10.0f);
  // Not after SameLine: nothing to do.
  const Drawn none = draw_in_panel([] {
    ImGui::TextUnformatted("a row");
    CHECK_FALSE(new_row_after_same_line());
  });
  CHECK(none.cut.empty());
}

TEST_CASE("fit text: in a table's cell a line is left to the column's clipping, and the panel is not reported") {
  float text_w = 0.0f;
  const Drawn cell = draw_in_panel([&] {
    text_w = ImGui::CalcTextSize(kLong).x;
    if (ImGui::BeginTable("##t", 2, ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("a", ImGuiTableColumnFlags_WidthFixed, 80.0f);
      ImGui::TableSetupColumn("b", ImGuiTableColumnFlags_WidthFixed, 80.0f);
      ImGui::TableNextColumn();
      fit_text("%s", kLong);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted("b");
      ImGui::EndTable();
    }
  });
  CHECK(cell.cut.empty());
  CHECK(cell.log.find(kLong) != std::string::npos);
  CHECK(text_w > 160.0f);  // wider than the table: the cell clipped it, as ImGui::Text's would be
}
