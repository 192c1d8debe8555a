// The training views' two columns (views/common/training_header.h): the curves beside the picture
// at 16 em or their share; narrowing down to kSideMinEm so that the picture keeps kPictureMinEm
// (the view at 150 % on a 1280 px screen keeps its curves in sight); under the picture only when
// even that does not fit (a Compare half at 150 %).
#include "tests/support/imgui_headless.h"
#include "views/common/training_header.h"

#include <doctest/doctest.h>

using namespace cilab;

namespace {

// training_columns(0.3) in a child region `width` px wide.
TrainingColumns columns_in(ImGuiHeadless& ui, float width) {
  TrainingColumns c;
  ui.frame_in_window([&] {
    ImGui::BeginChild("region", ImVec2(width, 400), false, ImGuiWindowFlags_NoScrollbar);
    c = training_columns(0.3f);
    ImGui::EndChild();
  });
  return c;
}

}  // namespace

TEST_CASE("training columns: wide, the curves keep their share, narrower they give up width before going under") {
  ImGuiHeadless ui;
  ui.io().DisplaySize = ImVec2(2000, 800);
  float em = 0, gap = 0;
  ui.frame_in_window([&] {
    em = ImGui::GetFontSize();
    gap = ImGui::GetStyle().ItemSpacing.x;
  });
  // Wide: 30 % for the curves (more than 16 em), the rest for the picture.
  const TrainingColumns wide = columns_in(ui, 100 * em);
  CHECK_FALSE(wide.stacked);
  CHECK(wide.side_w == doctest::Approx(wide.avail.x * 0.3f));
  CHECK(wide.main_w + wide.side_w + gap == doctest::Approx(wide.avail.x));
  // 33 em: 16 em of curves would leave the picture 17 - gap < 20 em: the curves narrow instead.
  const TrainingColumns narrow = columns_in(ui, 33 * em);
  CHECK_FALSE(narrow.stacked);
  CHECK(narrow.main_w == doctest::Approx(kPictureMinEm * em));
  CHECK(narrow.side_w >= kSideMinEm * em);
  CHECK(narrow.side_w < 16 * em);
  CHECK(narrow.main_w + narrow.side_w + gap == doctest::Approx(narrow.avail.x));
  // 28 em: the picture's 20 em leave less than kSideMinEm: the curves go under, both the whole width.
  const TrainingColumns under = columns_in(ui, 28 * em);
  CHECK(under.stacked);
  CHECK(under.main_w == doctest::Approx(under.avail.x));
  CHECK(under.side_w == doctest::Approx(under.avail.x));
}
