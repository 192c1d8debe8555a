#include "views/common/ui.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
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

namespace {

// True when the current window cannot cut a line: it grows to fit it (a tooltip, a menu, an
// auto-sizing popup) or wraps it (PushTextWrapPos); or the line is in a table's cell, which
// clips it to its column (the start of a name, "W1[0,", says more than "W1[..." would).
bool text_grows_or_wraps() {
  const ImGuiWindow* w = ImGui::GetCurrentWindow();
  return (w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_AlwaysAutoResize)) || w->AutoFitFramesX > 0 ||
         w->DC.TextWrapPos >= 0.0f || GImGui->CurrentTable != nullptr;
}

// One line [text, end) (no '\n') cut to `avail` with an ellipsis, the whole line in a tooltip.
void cut_line(const char* text, const char* end, float avail) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImVec2 size = ImGui::CalcTextSize(text, end);
  if (size.x <= avail) {
    ImGui::TextUnformatted(text, end);
    return;
  }
  const ImVec2 pos = window->DC.CursorPos;
  const ImRect bb(pos, ImVec2(pos.x + avail, pos.y + size.y));
  ImGui::ItemSize(bb.GetSize(), 0.0f);
  if (!ImGui::ItemAdd(bb, 0)) return;
  // (RenderTextEllipsis logs the whole line: the script's `expect text` reads what it says.)
  ImGui::RenderTextEllipsis(window->DrawList, bb.Min, bb.Max, bb.Max.x, bb.Max.x, text, end, &size);
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::TextUnformatted(text, end);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void fit_text_v(const char* fmt, va_list args) {
  char small[512];
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof small) {
    fit_text_unformatted(small, small + n);
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(big.data(), big.size(), fmt, args);
  fit_text_unformatted(big.data(), big.data() + n);
}

}  // namespace

void fit_text_unformatted(const char* text, const char* text_end) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  if (w->SkipItems) return;
  if (!text_end) text_end = text + std::strlen(text);
  const float width = ImGui::CalcTextSize(text, text_end).x;
  if (w->DC.TextWrapPos >= 0.0f && !(w->Flags & ImGuiWindowFlags_Tooltip)) {
    // Wrapped text: it starts on a new row when not even its first word fits after SameLine.
    const char* word_end = text;
    while (word_end < text_end && *word_end != ' ' && *word_end != '\n') ++word_end;
    if (ImGui::CalcTextSize(text, word_end).x > ImGui::GetContentRegionAvail().x) new_row_after_same_line();
    ImGui::TextUnformatted(text, text_end);
    return;
  }
  if (text_grows_or_wraps() || width <= ImGui::GetContentRegionAvail().x) {
    ImGui::TextUnformatted(text, text_end);  // as ImGui draws it
    return;
  }
  // Too wide for what is left of a row that holds items already (after SameLine): a new row.
  if (new_row_after_same_line()) {
    if (width <= ImGui::GetContentRegionAvail().x) {
      ImGui::TextUnformatted(text, text_end);
      return;
    }
  }
  if (ImGui::GetContentRegionAvail().x <= ImGui::GetFontSize()) {
    ImGui::TextUnformatted(text, text_end);
    return;
  }
  // Still too wide: line by line, each cut to the row's room.
  for (const char* p = text;;) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(text_end - p)));
    cut_line(p, nl ? nl : text_end, std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize()));
    if (!nl) break;
    p = nl + 1;
  }
}

void cut_text_unformatted(const char* text, const char* text_end) {
  if (ImGui::GetCurrentWindow()->SkipItems) return;
  if (!text_end) text_end = text + std::strlen(text);
  const char* nl = static_cast<const char*>(std::memchr(text, '\n', static_cast<size_t>(text_end - text)));
  cut_line(text, nl ? nl : text_end, std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize()));
}

void fit_text(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  fit_text_v(fmt, args);
  va_end(args);
}

void fit_text_disabled(const char* fmt, ...) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  va_list args;
  va_start(args, fmt);
  fit_text_v(fmt, args);
  va_end(args);
  ImGui::PopStyleColor();
}

void fit_text_colored(const ImVec4& color, const char* fmt, ...) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  va_list args;
  va_start(args, fmt);
  fit_text_v(fmt, args);
  va_end(args);
  ImGui::PopStyleColor();
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
  if (ImGui::GetCursorScreenPos().x + width > right) new_row_after_same_line();
}

std::vector<std::string> panels_cut_sideways() {
  // Each window drawn last frame is still Active, and its DC.CursorMaxPos is the right edge of the
  // widest item it laid out (a text line's whole width, even where the clip rectangle cut it).
  std::vector<std::string> cut;
  for (ImGuiWindow* w : GImGui->Windows) {
    if (!w->Active || w->Hidden || w->SkipItems || w->ScrollbarX) continue;  // (a scrollbar reaches it)
    const float over = w->DC.CursorMaxPos.x - w->InnerClipRect.Max.x;
    if (over <= 1.0f) continue;
    char line[320];
    std::snprintf(line, sizeof line,
                  "'%s' (%.0f x %.0f px at %.0f, %.0f): an item runs %.0f px past its right edge (the lowest item "
                  "ends %.0f px below the panel's top)",
                  w->Name, w->Size.x, w->Size.y, w->Pos.x, w->Pos.y, over, w->DC.CursorMaxPos.y - w->Pos.y);
    cut.push_back(line);
  }
  return cut;
}

float checkbox_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

float labelled_width(float item_width, const char* label) {
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  return item_width + (text > 0.0f ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0.0f);
}

PanelPair panel_pair(float width, float min_em) {
  const float half = (width - ImGui::GetStyle().ItemSpacing.x) / 2;
  PanelPair p;
  p.stacked = half < ImGui::GetFontSize() * min_em;
  p.width = p.stacked ? width : half;
  return p;
}

bool new_row_after_same_line() {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float row_start = w->Pos.x - w->Scroll.x + w->DC.Indent.x + w->DC.ColumnsOffset.x;
  if (w->DC.CursorPos.y != w->DC.CursorPosPrevLine.y || w->DC.CursorPos.x <= row_start + 1.0f) return false;
  // What ItemSize does at the end of a row, without counting the SameLine gap as content (as
  // ImGui::NewLine would: the panel would seem wider than its items).
  w->DC.CursorPos.x = IM_FLOOR(row_start);
  w->DC.CursorPos.y = IM_FLOOR(w->DC.CursorPosPrevLine.y + w->DC.PrevLineSize.y + ImGui::GetStyle().ItemSpacing.y);
  w->DC.CurrLineSize = ImVec2(0.0f, 0.0f);
  w->DC.CurrLineTextBaseOffset = 0.0f;
  return true;
}

}  // namespace cilab
