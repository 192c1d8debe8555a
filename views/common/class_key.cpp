// Class colours and the class key: see class_key.h.
#include "views/common/class_key.h"

#include "views/plot/plot.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

namespace cilab {

ImU32 class_colour(int c) {
  return c >= 0 ? plot::GetColormapColor(c, plot::Colormap::Labels)
                : with_alpha(colors().neutral, 255);
}

void class_key(const std::vector<std::string>& names, float width, std::vector<char>& hidden,
               const std::vector<const char*>& notes, bool column) {
  const int classes = static_cast<int>(names.size());
  hidden.resize(static_cast<size_t>(classes), 0);
  const float sw = ImGui::GetTextLineHeight() * 0.7f;
  const float right = ImGui::GetCursorScreenPos().x + width, gap = ImGui::GetFontSize() * 0.8f;
  // Short of height (a 1280 x 720 window at a large UI scale), the key keeps to one line: the
  // names that fit, then swatches alone (the name in the tooltip), the notes behind a "(?)".
  const bool one_line = !column && ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * kClassKeyOneLineEm;
  const float more_w = one_line && !notes.empty() ? ImGui::CalcTextSize("(?)").x + gap : 0.0f;
  bool names_fit = true;
  for (int c = 0; c < classes; ++c) {
    const char* name = names[static_cast<size_t>(c)].c_str();
    const float w = sw + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(name).x;
    if (c > 0) {  // on this line if it fits in the column, else on the next
      ImGui::SameLine(0, one_line ? gap * 0.5f : gap);
      // (one line: a swatch alone that would still run off wraps, as a last resort)
      if ((!one_line && ImGui::GetCursorScreenPos().x + w > right) ||
          (one_line && !names_fit && ImGui::GetCursorScreenPos().x + sw + more_w > right))
        new_row_after_same_line();
    }
    // One line: a name while the rest still fits as swatches, else the swatch alone.
    const float rest = static_cast<float>(classes - c - 1) * (sw + gap * 0.5f) + more_w;
    names_fit = names_fit && (!one_line || ImGui::GetCursorScreenPos().x + w + rest <= right);
    ImGui::BeginGroup();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float pad = (ImGui::GetTextLineHeight() - sw) / 2;
    const bool off = hidden[static_cast<size_t>(c)] != 0;
    ImGui::GetWindowDrawList()->AddRectFilled(
        ImVec2(p.x, p.y + pad), ImVec2(p.x + sw, p.y + pad + sw),
        off ? with_alpha(colors().text_dim, 90) : class_colour(c));
    ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
    if (names_fit) {
      ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
      if (off)
        fit_text_disabled("%s", name);
      else
        fit_text_unformatted(name);
    }
    ImGui::EndGroup();
    if (ImGui::IsItemClicked()) hidden[static_cast<size_t>(c)] = off ? 0 : 1;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("class %d (%s): click to %s its points", c, name, off ? "show" : "hide");
  }
  if (one_line) {
    if (notes.empty()) return;
    if (classes > 0) ImGui::SameLine(0, gap);
    ImGui::PushTextWrapPos(-1.0f);  // whole, whatever wrap width the view set
    fit_text_disabled("(?)");
    ImGui::PopTextWrapPos();
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      for (const char* n : notes) fit_text_unformatted(n);
      ImGui::EndTooltip();
    }
    return;
  }
  // Notes on the other marks, after the classes, wrapping the same way.
  for (size_t i = 0; i < notes.size(); ++i) {
    if (classes > 0 || i > 0) {
      ImGui::SameLine(0, gap);
      if (ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(notes[i]).x > right) new_row_after_same_line();
    }
    fit_text_disabled("%s", notes[i]);
  }
}

void colour_key(const std::vector<ColourMeaning>& entries, const char* note) {
  const float sw = ImGui::GetTextLineHeight() * 0.7f, gap = ImGui::GetFontSize() * 0.8f;
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool first = true;
  auto place = [&](float w) {  // on this line if it fits, else on the next
    if (!first) {
      ImGui::SameLine(0, gap);
      if (ImGui::GetCursorScreenPos().x + w > right) new_row_after_same_line();
    }
    first = false;
  };
  for (const ColourMeaning& e : entries) {
    place(sw + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(e.meaning).x);
    ImGui::BeginGroup();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float pad = (ImGui::GetTextLineHeight() - sw) / 2;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + pad), ImVec2(p.x + sw, p.y + pad + sw), e.colour);
    ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    fit_text_unformatted(e.meaning);
    ImGui::EndGroup();
  }
  if (note && *note) {
    place(ImGui::CalcTextSize(note).x);
    fit_text_disabled("%s", note);
  }
}

}  // namespace cilab
