// Small ImGui helpers shared by the module views and the shell's panels.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace cilab {

// The colour c with its alpha replaced by `alpha` (0..255).
inline ImU32 with_alpha(ImU32 c, int alpha) { return (c & 0x00FFFFFFu) | (static_cast<ImU32>(alpha) << 24); }

// A wrapped tooltip (about 32 characters wide per em) for the last item, when it is hovered.
void tooltip_text(const char* text);

// ImGui::Text, TextDisabled, TextColored and TextUnformatted for a panel that may be narrow (a
// Compare half, 150 % UI scale at 1280 x 720): text that does not fit in what is left of a row
// that holds items already (after SameLine) starts a new row; a line wider than its row is cut
// at the last character that fits, with an ellipsis, and the whole text is shown in a tooltip on
// hover (the script's log and `expect text` read the whole line). Text that fits is drawn exactly
// as ImGui draws it; so is text in a tooltip, an auto-sizing popup or under PushTextWrapPos
// (those grow or wrap instead), and in a table's cell (the column clips it). The views use these for every line that does not wrap.
void fit_text(const char* fmt, ...) IM_FMTARGS(1);
void fit_text_disabled(const char* fmt, ...) IM_FMTARGS(1);
void fit_text_colored(const ImVec4& color, const char* fmt, ...) IM_FMTARGS(2);
void fit_text_unformatted(const char* text, const char* text_end = nullptr);
// One line cut to the room left on the current row (never a new row; the whole text in a tooltip
// when cut): the last part of a one-row bar.
void cut_text_unformatted(const char* text, const char* text_end = nullptr);

// What a slider remembers between frames (kept by its owner: a view or the app).
struct SliderEditState {
  unsigned id = 0;        // the slider being typed into or fine-dragged (0: none)
  double value = 0.0;     // the value typed so far
  int fine_start = 0;     // int_slider: value when Shift was pressed during a drag
  float fine_start_x = 0.0f;  // ... and the mouse x at that moment
  bool fine_edited = false;   // the fine drag changed the value
  // Screen centres of the last drawn int_slider's slider, "-" and "+" buttons (tests, --script click).
  float slider_x = 0.0f, slider_y = 0.0f, minus_x = 0.0f, minus_y = 0.0f, plus_x = 0.0f, plus_y = 0.0f;
};

// A slider over [lo, hi] in doubles (ImGuiSliderFlags in `flags`). Returns true
// when *v takes a new value: at once while dragged, but after Ctrl+click (a text
// field) only when the typed text is committed with Enter or a click elsewhere:
// half-typed text ("0", "0.") is never applied nor validated.
bool real_slider(const char* label, double* v, double lo, double hi, const char* format, int flags,
                 SliderEditState& state);

// An integer slider with "-" and "+" buttons beside it (one step per click,
// repeating while held) and a fine mode: holding Shift while dragging moves one
// step per 0.75 em of mouse travel. The slider's width is the next item
// width (SetNextItemWidth) minus the buttons. Returns true when a value is
// committed: a button click, or the end of a drag or of a typed edit
// (Ctrl+click). *v follows the drag meanwhile. The whole row is one item
// (IsItemHovered after the call covers the slider, the buttons and the label).
bool int_slider(const char* label, int* v, int lo, int hi, int flags, SliderEditState& state);

// The tooltip line that explains int_slider's controls.
const char* int_slider_help();

// Smallest plot area (pixels) a view lays out: below it a plot is unreadable (issue 9, A4).
constexpr float kMinPlotArea = 90.0f;
// Frame height of a plot whose plot area is at least kMinPlotArea: tick labels and an x-axis
// label below it (and a title line above it when `title`) at the current font size.
float min_plot_height(bool title = false);

// Puts the next item of width `width` on the current line if it fits, else on a new line:
// a row of read-outs wraps instead of running off a narrow window.
void same_line_if_fits(float width, float spacing = -1.0f);
// The width ImGui::Checkbox(label) takes (for same_line_if_fits).
float checkbox_width(const char* label);
// The width of a widget `item_width` wide with its label (the text before "##") to its right.
float labelled_width(float item_width, const char* label);

// Two panels in `width`: side by side while each keeps `min_em` font sizes of width (each
// (width - ItemSpacing.x) / 2 wide), else one above the other, each the whole width (a Compare
// half at 150 %). TrainingColumns (training_header.h) is the same rule for picture and curves.
struct PanelPair {
  bool stacked = false;
  float width = 0.0f;  // of each panel
};
PanelPair panel_pair(float width, float min_em);

// Right after SameLine: starts a new row instead (as if SameLine had not been called; the gap it
// left does not count as content). Returns false, doing nothing, when the cursor is not on a row
// that holds items already.
bool new_row_after_same_line();

// The windows and panels of the last frame holding an item that runs past their right edge
// where they cannot scroll sideways (a line of text cut off, a control pushed off the row), one
// line each: "'NAME' (W x H px at X, Y): an item runs N px past its right edge (...)". Call
// between frames (after Render, before the next NewFrame). The script's `expect
// text-inside-panels` and the layout test over every module.
std::vector<std::string> panels_cut_sideways();

}  // namespace cilab
