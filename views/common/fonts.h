// The lab's text face: DejaVu Sans with every glyph the lab's text uses, loaded
// by the shell (app/app.cpp) at the UI scale and by the glyph test
// (tests/conformance/test_glyphs.cpp), which checks that every preset note,
// parameter help and view label renders with no missing glyph ("?").
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace cilab {

// Zero-terminated pairs of inclusive code point ranges: Basic Latin and Latin-1,
// Latin Extended-A, modifier letters, Greek, phonetic subscripts and superscripts
// (the T of x^T, subscript i), general punctuation (dashes, ‖, …), super- and
// subscripts, letterlike symbols, arrows, mathematical operators (≥ ∝ ∑ √ ∞),
// miscellaneous technical, geometric shapes and the angle brackets ⟨ ⟩.
const ImWchar* lab_glyph_ranges();

// The first DejaVu Sans file found on this system (nullptr: none).
const char* lab_font_file();

// DejaVu Sans at `pixels` with lab_glyph_ranges() added to `atlas` (nullptr
// when no DejaVu Sans file exists: the caller falls back to ImGui's font).
ImFont* add_lab_font(ImFontAtlas* atlas, float pixels);

// The code points of UTF-8 `text` that `font` has no glyph for, each once, in
// order (control characters such as newlines and tabs are not drawn as glyphs
// and are skipped). Call after the atlas is built.
std::vector<unsigned> missing_glyphs(const ImFont& font, const std::string& text);

}  // namespace cilab
