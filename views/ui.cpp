#include "views/ui.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

namespace cilab {

void tooltip_text(const char* text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool slider_int_stepped(const char* label, int* v, int lo, int hi, ImVec2* plus_centre) {
  ImGui::PushID(label);
  const float button = ImGui::GetFrameHeight();
  const float inner = ImGui::GetStyle().ItemInnerSpacing.x;
  const int before = *v;
  ImGui::SetNextItemWidth(std::max(button, ImGui::CalcItemWidth() - 2 * (button + inner)));
  ImGui::SliderInt("##value", v, lo, hi, "%d", hi - lo > 50 ? ImGuiSliderFlags_Logarithmic : 0);
  ImGui::PushButtonRepeat(true);
  ImGui::SameLine(0, inner);
  if (ImGui::Button("-", ImVec2(button, button))) --*v;
  ImGui::SameLine(0, inner);
  if (ImGui::Button("+", ImVec2(button, button))) ++*v;
  if (plus_centre)
    *plus_centre = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                          (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
  ImGui::PopButtonRepeat();
  const char* end = ImGui::FindRenderedTextEnd(label);
  if (end != label) {
    ImGui::SameLine(0, inner);
    ImGui::TextUnformatted(label, end);
  }
  ImGui::PopID();
  *v = std::clamp(*v, lo, hi);
  return *v != before;
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
