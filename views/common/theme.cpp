// Themes and palettes (see theme.h).
#include "views/common/theme.h"

#include "algorithms/core/module.h"
#include "views/plot/plot.h"

#include <algorithm>
#include <cmath>

namespace cilab {
namespace {

// The current theme and palette: set by set_theme on the UI thread, read while drawing.
Theme g_theme = Theme::Dark;
Palette g_palette = Palette::Classic;
uint64_t g_serial = 1;

// The plot library's frame fill: the window colour moved 4 % toward the text (views/plot/plot.cpp).
constexpr ImU32 plot_fill(ImU32 bg, ImU32 tx) {
  ImU32 out = IM_COL32(0, 0, 0, 255);
  for (int sh : {IM_COL32_R_SHIFT, IM_COL32_G_SHIFT, IM_COL32_B_SHIFT}) {
    const int b = static_cast<int>((bg >> sh) & 0xFF), x = static_cast<int>((tx >> sh) & 0xFF);
    out |= static_cast<ImU32>(b + (x - b) * 4 / 100) << sh;
  }
  return out;
}

// Light: near-black on near-white, saturated dark accents (a washed-out projector keeps them).
constexpr ThemeColors kLight = {
    IM_COL32(12, 12, 16, 255),                                           // text
    IM_COL32(78, 80, 90, 255),                                           // text_dim
    IM_COL32(250, 250, 250, 255),                                        // window_bg
    plot_fill(IM_COL32(250, 250, 250, 255), IM_COL32(12, 12, 16, 255)),  // plot_bg
    IM_COL32(255, 255, 255, 225),                                        // overlay_bg
    IM_COL32(0, 90, 200, 255),                                           // accent: strong blue
    IM_COL32(0, 118, 48, 255),                                           // good
    IM_COL32(150, 95, 0, 255),                                           // warning: dark amber
    IM_COL32(190, 20, 20, 255),                                          // error
    IM_COL32(0, 0, 0, 230),                                              // selection
    IM_COL32(0, 0, 0, 170),                                              // outline
    IM_COL32(120, 120, 130, 200),                                        // neutral
    IM_COL32(0, 0, 0, 110),                                              // guide
    IM_COL32(234, 236, 242, 255),                                        // node_fill
    IM_COL32(110, 112, 125, 255),                                        // node_border
    IM_COL32(255, 220, 130, 255),                                        // node_lit
    IM_COL32(255, 243, 205, 255),                                        // note_bg
    IM_COL32(255, 221, 218, 255),                                        // error_bg
    IM_COL32(205, 0, 140, 235),  // annotation: magenta (yellow vanishes on white)
    IM_COL32(0, 114, 178, 255),  // positive: Okabe-Ito blue
    IM_COL32(213, 94, 0, 255),   // negative: Okabe-Ito vermillion
    1.0f,
};

// Dark: the lab's original colours.
constexpr ThemeColors kDark = {
    IM_COL32(235, 236, 240, 255),                                        // text
    IM_COL32(160, 164, 174, 255),                                        // text_dim
    IM_COL32(27, 28, 32, 255),                                           // window_bg
    plot_fill(IM_COL32(27, 28, 32, 255), IM_COL32(235, 236, 240, 255)),  // plot_bg
    IM_COL32(20, 22, 28, 220),                                           // overlay_bg
    IM_COL32(255, 220, 120, 255),                                        // accent: pale yellow
    IM_COL32(115, 230, 128, 255),                                        // good
    IM_COL32(255, 210, 95, 255),                                         // warning
    IM_COL32(255, 112, 100, 255),                                        // error
    IM_COL32(255, 255, 255, 230),                                        // selection
    IM_COL32(0, 0, 0, 200),                                              // outline
    IM_COL32(150, 150, 160, 170),                                        // neutral
    IM_COL32(255, 255, 255, 90),                                         // guide
    IM_COL32(40, 44, 52, 255),                                           // node_fill
    IM_COL32(110, 110, 120, 255),                                        // node_border
    IM_COL32(120, 95, 30, 255),                                          // node_lit
    IM_COL32(64, 56, 26, 140),                                           // note_bg
    IM_COL32(89, 26, 26, 255),                                           // error_bg
    IM_COL32(255, 200, 0, 235),                                          // annotation
    IM_COL32(86, 180, 233, 255),  // positive: Okabe-Ito sky blue
    IM_COL32(230, 159, 0, 255),   // negative: Okabe-Ito orange
    1.0f,
};

// High contrast: pure white on pure black, saturated accents, thicker lines and borders.
constexpr ThemeColors kHighContrast = {
    IM_COL32(255, 255, 255, 255),                                     // text
    IM_COL32(215, 215, 215, 255),                                     // text_dim
    IM_COL32(0, 0, 0, 255),                                           // window_bg
    plot_fill(IM_COL32(0, 0, 0, 255), IM_COL32(255, 255, 255, 255)),  // plot_bg
    IM_COL32(0, 0, 0, 235),                                           // overlay_bg
    IM_COL32(255, 235, 0, 255),                                       // accent: yellow
    IM_COL32(0, 255, 110, 255),                                       // good
    IM_COL32(255, 200, 0, 255),                                       // warning
    IM_COL32(255, 125, 125, 255),                                     // error
    IM_COL32(255, 255, 255, 255),                                     // selection
    IM_COL32(255, 255, 255, 200),                                     // outline
    IM_COL32(185, 185, 185, 220),                                     // neutral
    IM_COL32(255, 255, 255, 170),                                     // guide
    IM_COL32(0, 0, 0, 255),                                           // node_fill
    IM_COL32(255, 255, 255, 255),                                     // node_border
    IM_COL32(95, 80, 0, 255),                                         // node_lit
    IM_COL32(45, 40, 0, 255),                                         // note_bg
    IM_COL32(120, 0, 0, 255),                                         // error_bg
    IM_COL32(255, 235, 0, 255),                                       // annotation
    IM_COL32(86, 180, 233, 255),                                      // positive
    IM_COL32(230, 159, 0, 255),                                       // negative
    1.5f,
};

bool dark_background(Theme t) { return t != Theme::Light; }

// The entry of `all` whose name(e) is `text` (false if none): themes and palettes alike.
template <class E, size_t N>
bool parse_named(const std::string& text, const E (&all)[N], const char* (*name)(E), E* out) {
  for (E e : all)
    if (text == name(e)) {
      *out = e;
      return true;
    }
  return false;
}

// "a, b, c": every name of `all`, for messages.
template <class E, size_t N>
std::string joined_names(const E (&all)[N], const char* (*name)(E)) {
  std::string s;
  for (E e : all) s += (s.empty() ? "" : ", ") + std::string(name(e));
  return s;
}

}  // namespace

const char* theme_name(Theme t) {
  switch (t) {
    case Theme::Light: return "light";
    case Theme::Dark: return "dark";
    case Theme::HighContrast: return "high-contrast";
  }
  return "light";
}

const char* theme_title(Theme t) {
  switch (t) {
    case Theme::Light: return "Light (projector)";
    case Theme::Dark: return "Dark";
    case Theme::HighContrast: return "High contrast";
  }
  return "Light";
}

bool parse_theme(const std::string& name, Theme* out) { return parse_named(name, kAllThemes, theme_name, out); }

std::string theme_names() { return joined_names(kAllThemes, theme_name); }

const char* palette_name(Palette p) {
  switch (p) {
    case Palette::OkabeIto: return "okabe-ito";
    case Palette::TolBright: return "tol-bright";
    case Palette::Classic: return "classic";
  }
  return "okabe-ito";
}

const char* palette_title(Palette p) {
  switch (p) {
    case Palette::OkabeIto: return "Okabe-Ito (colour-blind safe)";
    case Palette::TolBright:
      return "Paul Tol bright (colour-blind safe; its green is close to a class green)";
    case Palette::Classic: return "Classic (Tableau 10, not colour-blind safe)";
  }
  return "Okabe-Ito";
}

bool parse_palette(const std::string& name, Palette* out) {
  return parse_named(name, kAllPalettes, palette_name, out);
}

std::string palette_names() { return joined_names(kAllPalettes, palette_name); }

const ThemeColors& theme_colors(Theme t) {
  switch (t) {
    case Theme::Light: return kLight;
    case Theme::Dark: return kDark;
    case Theme::HighContrast: return kHighContrast;
  }
  return kLight;
}

Theme current_theme() { return g_theme; }
uint64_t theme_serial() { return g_serial; }
Palette current_palette() { return g_palette; }
const ThemeColors& colors() { return theme_colors(g_theme); }

std::vector<uint32_t> categorical_rgb(Palette p, Theme t) {
  auto from_plot = [](plot::Colormap cmap) {
    std::vector<uint32_t> v;
    for (int i = 0; i < plot::GetDefaultColormapSize(cmap); ++i) {
      const ImU32 c = plot::GetDefaultColormapColor(i, cmap);
      v.push_back((((c >> IM_COL32_R_SHIFT) & 0xFF) << 16) |
                  (((c >> IM_COL32_G_SHIFT) & 0xFF) << 8) | ((c >> IM_COL32_B_SHIFT) & 0xFF));
    }
    return v;
  };
  switch (p) {
    case Palette::OkabeIto:
      // Okabe & Ito (2008), "Color Universal Design": orange, sky blue, bluish green, blue,
      // vermillion, reddish purple, black (light grey on a dark background), yellow (last: it
      // barely shows on white).
      return {0xE69F00u,
              0x56B4E9u,
              0x009E73u,
              0x0072B2u,
              0xD55E00u,
              0xCC79A7u,
              dark_background(t) ? 0xBBBBBBu : 0x000000u,
              0xF0E442u};
    case Palette::TolBright:
      // Paul Tol (2021), "Colour schemes", bright: blue, red, green, yellow, cyan, purple, grey.
      return {0x4477AAu, 0xEE6677u, 0x228833u, 0xCCBB44u, 0x66CCEEu, 0xAA3377u, 0xBBBBBBu};
    case Palette::Classic: return from_plot(plot::Colormap::Categorical);
  }
  return {};
}

std::vector<uint32_t> label_rgb(Palette p, Theme t) {
  if (p == Palette::Classic) {
    std::vector<uint32_t> v;
    for (int i = 0; i < plot::GetDefaultColormapSize(plot::Colormap::Labels); ++i) {
      const ImU32 c = plot::GetDefaultColormapColor(i, plot::Colormap::Labels);
      v.push_back((((c >> IM_COL32_R_SHIFT) & 0xFF) << 16) |
                  (((c >> IM_COL32_G_SHIFT) & 0xFF) << 8) | ((c >> IM_COL32_B_SHIFT) & 0xFF));
    }
    return v;
  }
  // Paul Tol's muted (9 hues + pale grey): the published colour-blind-safe set with enough hues
  // for ten classes. Indigo 0x332288 is lightened on a dark background; the pale grey
  // (0xDDDDDD) becomes dark grey 0x333333 on a light one, where it would vanish (0x777777 would
  // meet rose 0xCC6677 under protanopia: tests/views/common/test_theme.cpp).
  const bool dark = dark_background(t);
  return {0xCC6677u, 0x88CCEEu, 0xDDCC77u, 0x117733u, dark ? 0x6655CCu : 0x332288u,
          0xAA4499u, 0x44AA99u, 0x999933u, 0x882255u, dark ? 0xDDDDDDu : 0x333333u};
}

void set_theme(Theme t, Palette p) {
  g_theme = t;
  g_palette = p;
  ++g_serial;
  auto push = [](plot::Colormap cmap, const std::vector<uint32_t>& rgb) {
    std::vector<ImU32> c;
    for (uint32_t v : rgb) c.push_back(IM_COL32((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF, 255));
    plot::SetColormapColors(cmap, c.data(), static_cast<int>(c.size()));
  };
  // The GAN's diverging map: its dark centre on the dark themes, ColorBrewer's PRGn (purple,
  // near-white centre, green; colour-blind safe) on the light one.
  if (t == Theme::Light) {
    push(plot::Colormap::Diverging, {0x762A83u, 0x9970ABu, 0xC2A5CFu, 0xE7D4E8u, 0xF7F7F7u,
                                     0xD9F0D3u, 0xA6DBA0u, 0x5AAE61u, 0x1B7837u});
  } else {
    plot::SetColormapColors(plot::Colormap::Diverging, nullptr, 0);
  }
  plot::SetLineWeightScale(theme_colors(t).line_scale);
  if (p == Palette::Classic) {  // the plot library's own tables
    plot::SetColormapColors(plot::Colormap::Categorical, nullptr, 0);
    plot::SetColormapColors(plot::Colormap::Labels, nullptr, 0);
    return;
  }
  push(plot::Colormap::Categorical, categorical_rgb(p, t));
  push(plot::Colormap::Labels, label_rgb(p, t));
}

double contrast_ratio(ImU32 a, ImU32 b) {
  auto luminance = [](ImU32 c) {
    auto lin = [](ImU32 v) {
      const double s = static_cast<double>(v & 0xFF) / 255.0;
      return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c >> IM_COL32_R_SHIFT) + 0.7152 * lin(c >> IM_COL32_G_SHIFT) +
           0.0722 * lin(c >> IM_COL32_B_SHIFT);
  };
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

ImVec4 legible(ImU32 c) {
  const ThemeColors& k = colors();
  ImVec4 v = colour_vec(c), t = colour_vec(k.text);
  v.w = 1.0f;
  for (int i = 0; i < 10 && contrast_ratio(ImGui::ColorConvertFloat4ToU32(v), k.window_bg) < 4.5;
       ++i) {
    v.x += (t.x - v.x) * 0.2f;
    v.y += (t.y - v.y) * 0.2f;
    v.z += (t.z - v.z) * 0.2f;
  }
  return v;
}

ImVec4 status_colour(Status s) {
  const ThemeColors& k = colors();
  switch (s) {
    case Status::Running: return colour_vec(k.accent);
    case Status::Converged: return colour_vec(k.good);
    case Status::Stopped: return colour_vec(k.warning);
    case Status::Diverged:
    case Status::Failed: return colour_vec(k.error);
  }
  return colour_vec(k.text_dim);
}

ImGuiStyle theme_style(Theme t) {
  ImGuiStyle s;  // ImGui's default sizes
  s.WindowRounding = 0.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.ChildRounding = 3.0f;
  s.PopupRounding = 3.0f;
  s.FramePadding = ImVec2(6, 4);
  s.ItemSpacing = ImVec2(8, 6);
  s.WindowBorderSize = 0.0f;
  const ThemeColors& k = theme_colors(t);
  ImVec4* c = s.Colors;
  switch (t) {
    case Theme::Dark:
      ImGui::StyleColorsDark(&s);
      c[ImGuiCol_ChildBg] = ImVec4(0.12f, 0.125f, 0.14f, 1.0f);
      c[ImGuiCol_MenuBarBg] = ImVec4(0.14f, 0.15f, 0.17f, 1.0f);
      c[ImGuiCol_Header] = ImVec4(0.22f, 0.32f, 0.48f, 0.8f);
      c[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.40f, 0.60f, 0.9f);
      c[ImGuiCol_Button] = ImVec4(0.20f, 0.27f, 0.38f, 1.0f);
      c[ImGuiCol_ButtonHovered] = ImVec4(0.27f, 0.38f, 0.55f, 1.0f);
      c[ImGuiCol_FrameBg] = ImVec4(0.17f, 0.18f, 0.21f, 1.0f);
      break;
    case Theme::Light:
      // ImGui's light colours, tuned for a projector: black text, visible frames and borders,
      // buttons and headers a saturated blue that survives a washed-out image.
      ImGui::StyleColorsLight(&s);
      s.FrameBorderSize = 1.0f;
      s.ChildBorderSize = 1.0f;
      c[ImGuiCol_ChildBg] = ImVec4(0.955f, 0.955f, 0.96f, 1.0f);
      c[ImGuiCol_PopupBg] = ImVec4(1.0f, 1.0f, 1.0f, 0.98f);
      c[ImGuiCol_MenuBarBg] = ImVec4(0.88f, 0.89f, 0.91f, 1.0f);
      c[ImGuiCol_Border] = ImVec4(0.0f, 0.0f, 0.0f, 0.40f);
      c[ImGuiCol_FrameBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
      c[ImGuiCol_FrameBgHovered] = ImVec4(0.86f, 0.91f, 0.98f, 1.0f);
      c[ImGuiCol_FrameBgActive] = ImVec4(0.76f, 0.85f, 0.97f, 1.0f);
      c[ImGuiCol_Button] = ImVec4(0.80f, 0.86f, 0.95f, 1.0f);
      c[ImGuiCol_ButtonHovered] = ImVec4(0.65f, 0.77f, 0.95f, 1.0f);
      c[ImGuiCol_ButtonActive] = ImVec4(0.50f, 0.66f, 0.92f, 1.0f);
      c[ImGuiCol_Header] = ImVec4(0.70f, 0.80f, 0.95f, 1.0f);
      c[ImGuiCol_HeaderHovered] = ImVec4(0.60f, 0.74f, 0.95f, 1.0f);
      c[ImGuiCol_HeaderActive] = ImVec4(0.50f, 0.66f, 0.92f, 1.0f);
      c[ImGuiCol_SliderGrab] = ImVec4(0.45f, 0.62f, 0.92f, 1.0f);
      c[ImGuiCol_SliderGrabActive] = ImVec4(0.32f, 0.50f, 0.85f, 1.0f);
      c[ImGuiCol_CheckMark] = ImVec4(0.05f, 0.30f, 0.70f, 1.0f);
      c[ImGuiCol_Tab] = ImVec4(0.80f, 0.85f, 0.92f, 1.0f);
      c[ImGuiCol_TabHovered] = ImVec4(0.60f, 0.74f, 0.95f, 1.0f);
      c[ImGuiCol_TabActive] = ImVec4(0.62f, 0.75f, 0.95f, 1.0f);
      c[ImGuiCol_PlotHistogram] = ImVec4(0.50f, 0.67f, 0.93f, 1.0f);
      c[ImGuiCol_Separator] = ImVec4(0.0f, 0.0f, 0.0f, 0.30f);
      break;
    case Theme::HighContrast:
      // Pure white on pure black; every frame has a white border, selections are yellow.
      ImGui::StyleColorsDark(&s);
      s.FrameBorderSize = 1.0f;
      s.ChildBorderSize = 1.0f;
      s.PopupBorderSize = 1.5f;
      s.WindowBorderSize = 1.0f;  // floating windows (the sweep) stand out from the black
      c[ImGuiCol_ChildBg] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
      c[ImGuiCol_PopupBg] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
      c[ImGuiCol_MenuBarBg] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
      c[ImGuiCol_Border] = ImVec4(1.0f, 1.0f, 1.0f, 0.85f);
      c[ImGuiCol_FrameBg] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
      c[ImGuiCol_FrameBgHovered] = ImVec4(0.12f, 0.12f, 0.35f, 1.0f);
      c[ImGuiCol_FrameBgActive] = ImVec4(0.18f, 0.18f, 0.50f, 1.0f);
      c[ImGuiCol_Button] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
      c[ImGuiCol_ButtonHovered] = ImVec4(0.15f, 0.15f, 0.45f, 1.0f);
      c[ImGuiCol_ButtonActive] = ImVec4(0.20f, 0.20f, 0.60f, 1.0f);
      c[ImGuiCol_Header] = ImVec4(0.10f, 0.10f, 0.55f, 1.0f);
      c[ImGuiCol_HeaderHovered] = ImVec4(0.15f, 0.15f, 0.70f, 1.0f);
      c[ImGuiCol_HeaderActive] = ImVec4(0.20f, 0.20f, 0.80f, 1.0f);
      c[ImGuiCol_SliderGrab] =
          ImVec4(0.25f, 0.50f, 1.0f, 1.0f);  // white text over it stays readable
      c[ImGuiCol_SliderGrabActive] = ImVec4(0.40f, 0.65f, 1.0f, 1.0f);
      c[ImGuiCol_CheckMark] = ImVec4(1.0f, 0.92f, 0.0f, 1.0f);
      c[ImGuiCol_Tab] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
      c[ImGuiCol_TabHovered] = ImVec4(0.15f, 0.15f, 0.70f, 1.0f);
      c[ImGuiCol_TabActive] = ImVec4(0.10f, 0.10f, 0.55f, 1.0f);
      c[ImGuiCol_PlotHistogram] = ImVec4(0.15f, 0.35f, 0.85f, 1.0f);
      c[ImGuiCol_Separator] = ImVec4(1.0f, 1.0f, 1.0f, 0.6f);
      c[ImGuiCol_TitleBg] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
      c[ImGuiCol_TitleBgActive] = ImVec4(0.10f, 0.10f, 0.55f, 1.0f);
      break;
  }
  c[ImGuiCol_Text] = colour_vec(k.text);
  c[ImGuiCol_TextDisabled] = colour_vec(k.text_dim);
  c[ImGuiCol_WindowBg] = colour_vec(k.window_bg);
  return s;
}

}  // namespace cilab
