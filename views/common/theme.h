// Themes (light, dark, high-contrast) and categorical palettes: the ImGui style of each theme,
// the semantic colours the views draw with instead of literals, and the colour-blind-safe
// palettes given to the plot library's Categorical and Labels colormaps.
//
// One process-wide current theme and palette: set by the app at start and on change
// (set_theme, UI thread, between frames), read by the views every frame (colors()).
// Before any set_theme: Dark + Classic, which match ImGui's default style and the plot
// library's default tables (what the view tests draw with).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cilab {

enum class Status;  // algorithms/core/module.h

// The UI theme. Light is the projector default.
enum class Theme { Light, Dark, HighContrast };
// The categorical palette of clusters and series (classes keep Paul Tol's muted set, see
// label_rgb). OkabeIto is the default; Classic is Tableau 10 (not colour-blind safe).
enum class Palette { OkabeIto, TolBright, Classic };

inline constexpr Theme kAllThemes[] = {Theme::Light, Theme::Dark, Theme::HighContrast};
inline constexpr Palette kAllPalettes[] = {Palette::OkabeIto, Palette::TolBright, Palette::Classic};

// Command-line / settings / script name: "light", "dark", "high-contrast".
const char* theme_name(Theme t);
// Menu title: "Light (projector)", "Dark", "High contrast".
const char* theme_title(Theme t);
// Name -> theme (exact, lower case); false when unknown.
bool parse_theme(const std::string& name, Theme* out);
// "light, dark, high-contrast" (for error messages).
std::string theme_names();

// Name: "okabe-ito", "tol-bright", "classic".
const char* palette_name(Palette p);
// Menu title: "Okabe-Ito (colour-blind safe)", ...
const char* palette_title(Palette p);
// Name -> palette (exact, lower case); false when unknown.
bool parse_palette(const std::string& name, Palette* out);
// "okabe-ito, tol-bright, classic".
std::string palette_names();

// Semantic colours (IM_COL32 layout). Text-like entries (text, text_dim, accent, good, warning,
// error) keep a WCAG contrast of at least 4.5 (Light, Dark) or 7 (HighContrast) against
// window_bg and plot_bg (tests/views/common/test_theme.cpp).
struct ThemeColors {
  ImU32 text;        // body text, and data drawn in "ink" (a reconstruction, the main curve)
  ImU32 text_dim;    // secondary text: captions, notes, idle values
  ImU32 window_bg;   // the window (ImGuiCol_WindowBg)
  ImU32 plot_bg;     // a plot's area (the plot library's frame fill)
  ImU32 overlay_bg;  // a box behind text drawn over a plot (labels, read-outs, legends)
  ImU32 accent;   // emphasis on data: the current k / iteration, captions over a plot, this step's
                  // node
  ImU32 good;     // converged, stable
  ImU32 warning;  // hints, warnings, "re-run", collapsed fits
  ImU32 error;    // failed, diverged, singular, missed
  ImU32 selection;    // the ring around a hovered, selected or dragged mark
  ImU32 outline;      // a thin outline separating a coloured marker from what is under it
  ImU32 neutral;      // unassigned, dropped, idle, reference data (grey)
  ImU32 guide;        // faint guide lines: the current iteration, axes through 0, dashes
  ImU32 node_fill;    // a diagram's box (network diagrams, the GAN model)
  ImU32 node_border;  // its border
  ImU32 node_lit;     // the highlighted box's fill (text on it stays `text`)
  ImU32 note_bg;      // the preset note's box
  ImU32 error_bg;     // the error banner's box
  ImU32 annotation;   // pen strokes (the laser stays red on every theme)
  ImU32 positive;    // signed values > 0 (weights, gradients): Okabe-Ito blue, whatever the palette
  ImU32 negative;    // signed values < 0: Okabe-Ito orange / vermillion
  float line_scale;  // the plot library's line weight factor (plot::SetLineWeightScale; high
                     // contrast 1.5)
};

// Counts set_theme calls: views key their cached colours by it (with the snapshot's serial),
// so a theme or palette change recolours them at once.
uint64_t theme_serial();

// The colours of theme t.
const ThemeColors& theme_colors(Theme t);
// The current theme, palette and colours.
Theme current_theme();
Palette current_palette();
const ThemeColors& colors();
// Sets the current theme and palette and gives the palette to the plot library
// (plot::SetColormapColors). UI thread, between frames.
void set_theme(Theme t, Palette p);

// Categorical colours of palette p on theme t (0xRRGGBB): Okabe-Ito's black becomes light grey
// on the dark themes. Order: the most distinct first, yellow late (weak on white).
std::vector<uint32_t> categorical_rgb(Palette p, Theme t);
// Class colours (0xRRGGBB, 10 entries: enough for the digit classes): Paul Tol's muted for the
// safe palettes, with indigo lightened and the pale grey darkened where the background needs it.
std::vector<uint32_t> label_rgb(Palette p, Theme t);

// The ImGui style of theme t at UI scale 1 (the app scales a fresh copy).
ImGuiStyle theme_style(Theme t);

// c as ImGui's float colour (for TextColored, PushStyleColor).
inline ImVec4 colour_vec(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }
// c as text on the current theme's window: c itself when it reads (WCAG contrast >= 4.5 against
// window_bg), else c mixed toward the text colour until it does (a palette colour as a label).
ImVec4 legible(ImU32 c);
// WCAG 2 contrast ratio of two opaque colours (1 .. 21), alpha ignored.
double contrast_ratio(ImU32 a, ImU32 b);

// A run status's colour on the current theme: running accent, converged good, stopped warning,
// diverged / failed error, otherwise dimmed text.
ImVec4 status_colour(Status s);

}  // namespace cilab
