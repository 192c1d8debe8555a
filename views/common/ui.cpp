#include "views/common/ui.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <string>


namespace cilab {
namespace {

void centre_of_item(float* x, float* y) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  *x = 0.5f * (a.x + b.x);
  *y = 0.5f * (a.y + b.y);
}

}  // namespace

void tooltip_text(const char* text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool real_slider(const char* label, double* v, double lo, double hi, const char* format, int flags,
                 SliderEditState& state) {
  const ImGuiID id = ImGui::GetID(label);
  double value = state.id == id ? state.value : *v;
  const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, &value, &lo, &hi, format, flags);
  if (ImGui::TempInputIsActive(id)) {  // Ctrl+click: the user is typing
    state.id = id;
    state.value = value;
    return false;
  }
  if (state.id == id) {  // the text field closed this frame
    state.id = 0;
    if (!ImGui::IsItemDeactivatedAfterEdit() || value == *v) return false;
    *v = value;
    return true;
  }
  if (!changed) return false;
  *v = value;
  return true;
}

bool int_slider(const char* label, int* v, int lo, int hi, int flags, SliderEditState& state) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float button = ImGui::GetFrameHeight();
  const float width = std::max(button, ImGui::CalcItemWidth() - 2.0f * (button + style.ItemInnerSpacing.x));
  bool committed = false;
  ImGui::BeginGroup();
  ImGui::PushID(label);
  const int before = *v;
  ImGui::SetNextItemWidth(width);
  ImGui::SliderInt("##slider", v, lo, hi, "%d", flags | ImGuiSliderFlags_AlwaysClamp);
  const ImGuiID id = ImGui::GetItemID();
  centre_of_item(&state.slider_x, &state.slider_y);
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemActive() && io.KeyShift && !ImGui::TempInputIsActive(id)) {
    // Fine mode: relative to where Shift went down, one step per half em.
    if (state.id != id) {
      state.id = id;
      state.fine_start = before;
      state.fine_start_x = io.MousePos.x;
    }
    const float step_px = std::max(6.0f, ImGui::GetFontSize() * 0.75f);
    const long steps = std::lround((io.MousePos.x - state.fine_start_x) / step_px);
    const int fine = static_cast<int>(std::clamp<long>(state.fine_start + steps, lo, hi));
    state.fine_edited = state.fine_edited || fine != state.fine_start;
    *v = fine;
  } else if (state.id == id && ImGui::IsItemActive()) {
    state.id = 0;  // Shift released mid-drag: back to the plain slider
  }
  if (ImGui::IsItemDeactivated()) {
    committed = ImGui::IsItemDeactivatedAfterEdit() || state.fine_edited;
    state.fine_edited = false;
    if (state.id == id) state.id = 0;
  }
  ImGui::PushButtonRepeat(true);
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  if (ImGui::Button("-", ImVec2(button, button)) && *v > lo) {
    --*v;
    committed = true;
  }
  centre_of_item(&state.minus_x, &state.minus_y);
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  if (ImGui::Button("+", ImVec2(button, button)) && *v < hi) {
    ++*v;
    committed = true;
  }
  centre_of_item(&state.plus_x, &state.plus_y);
  ImGui::PopButtonRepeat();
  ImGui::PopID();
  const char* end = ImGui::FindRenderedTextEnd(label);
  if (end != label) {
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::TextUnformatted(label, end);
  }
  ImGui::EndGroup();
  return committed;
}

const char* int_slider_help() {
  return "Drag the slider; hold Shift while dragging for single steps; - and + step by one; Ctrl+click to type "
         "a value.";
}

float min_plot_height(bool title) {
  const float fh = ImGui::GetFontSize();
  // The plot library's frame: 6 px padding above and below, x tick labels (fh + 4 px tick), the
  // x label (fh + 2 px), a title (fh + 6 px).
  return kMinPlotArea + 12.0f + (fh + 4.0f) + (fh + 2.0f) + (title ? fh + 6.0f : 0.0f) + 4.0f;
}

void same_line_if_fits(float width, float spacing) {
  const float gap = spacing >= 0 ? spacing : ImGui::GetStyle().ItemSpacing.x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine(0, gap);
  if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
}

}  // namespace cilab
