#include "views/common/fonts.h"

#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>
#include <filesystem>

namespace cilab {

const ImWchar* lab_glyph_ranges() {
  static const ImWchar kRanges[] = {
      0x0020, 0x00FF,  // Basic Latin, Latin-1 (± · × ÷ ²)
      0x0100, 0x017F,  // Latin Extended-A (Candès' neighbours, Š)
      0x02B0, 0x02FF,  // modifier letters (ʲ ˆ ˜)
      0x0370, 0x03FF,  // Greek (α β γ η λ μ σ τ θ Σ Ω)
      0x1D00, 0x1DBF,  // phonetic extensions: subscript and superscript letters (ᵢ ᵀ)
      0x2000, 0x206F,  // general punctuation (– — ‖ … ′)
      0x2070, 0x209F,  // superscripts and subscripts (⁻¹ ₀ ₁ ₖ)
      0x2100, 0x214F,  // letterlike symbols (ℓ ℝ ℕ)
      0x2190, 0x21FF,  // arrows (← → ↔ ⇒)
      0x2200, 0x22FF,  // mathematical operators (≥ ≤ ∝ ∑ √ ∞ ∈ ∇ ≈ ⊙)
      0x2300, 0x23FF,  // miscellaneous technical (⌈ ⌉ ⌊ ⌋)
      0x25A0, 0x25FF,  // geometric shapes (■ ▲ ●)
      0x27E8, 0x27EB,  // mathematical angle brackets (⟨ ⟩)
      0,
  };
  return kRanges;
}

const char* lab_font_file() {
  static const char* const kPaths[] = {
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
      "/usr/share/fonts/TTF/DejaVuSans.ttf",
  };
  for (const char* p : kPaths)
    if (std::filesystem::exists(p)) return p;
  return nullptr;
}

ImFont* add_lab_font(ImFontAtlas* atlas, float pixels) {
  const char* file = lab_font_file();
  if (!file) return nullptr;
  return atlas->AddFontFromFileTTF(file, pixels, nullptr, lab_glyph_ranges());
}

std::vector<unsigned> missing_glyphs(const ImFont& font, const std::string& text) {
  std::vector<unsigned> out;
  const char* s = text.c_str();
  const char* end = s + text.size();
  while (s < end) {
    unsigned int c = 0;
    const int n = ImTextCharFromUtf8(&c, s, end);
    if (n <= 0) break;
    s += n;
    if (c < 0x20 || c == 0x7F) continue;  // \n, \t: layout, not glyphs
    const bool drawn = c <= 0xFFFF && font.FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr;  // 16-bit ImWchar
    if (!drawn &&
        std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  }
  return out;
}

}  // namespace cilab
