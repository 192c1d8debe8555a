// Themes and palettes (views/common/theme.h): text contrast (WCAG 2), categorical palettes that stay
// distinguishable under simulated colour-vision deficiencies, name round trips, and what
// set_theme gives the plot library.
#include "views/plot/plot.h"
#include "views/common/theme.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

using namespace cilab;

namespace {

// Every theme and palette test leaves the process in the state the other view tests expect.
struct RestoreTheme {
  Theme theme = current_theme();
  Palette palette = current_palette();
  ~RestoreTheme() { set_theme(theme, palette); }
};

ImU32 opaque(uint32_t rgb) {
  return IM_COL32((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF, 255);
}

// sRGB channel (0..255) to linear light.
double linear(uint32_t v) {
  const double s = static_cast<double>(v & 0xFF) / 255.0;
  return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

// Colour-vision deficiency simulation: Machado, Oliveira and Fernandes (2009), "A physiologically-
// based model for simulation of color vision deficiency", severity 1.0, on linear RGB.
using Matrix3 = std::array<std::array<double, 3>, 3>;
constexpr Matrix3 kNormal = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
constexpr Matrix3 kProtanopia = {{{0.152286, 1.052583, -0.204868},
                                  {0.114503, 0.786281, 0.099216},
                                  {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix3 kDeuteranopia = {{{0.367322, 0.860646, -0.227968},
                                    {0.280085, 0.672501, 0.047413},
                                    {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix3 kTritanopia = {{{1.255528, -0.076749, -0.178779},
                                  {-0.078411, 0.930809, 0.147602},
                                  {0.004733, 0.691367, 0.303900}}};

// CIE L*a*b* (D65) of 0xRRGGBB as seen through the simulation m.
std::array<double, 3> lab(uint32_t rgb, const Matrix3& m) {
  const double in[3] = {linear(rgb >> 16), linear(rgb >> 8), linear(rgb)};
  double l[3];
  for (int i = 0; i < 3; ++i)
    l[i] = std::clamp(m[static_cast<size_t>(i)][0] * in[0] + m[static_cast<size_t>(i)][1] * in[1] +
                          m[static_cast<size_t>(i)][2] * in[2],
                      0.0, 1.0);
  const double x = (0.4124 * l[0] + 0.3576 * l[1] + 0.1805 * l[2]) / 0.95047;
  const double y = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  const double z = (0.0193 * l[0] + 0.1192 * l[1] + 0.9505 * l[2]) / 1.08883;
  auto f = [](double t) {
    constexpr double d = 6.0 / 29.0;
    return t > d * d * d ? std::cbrt(t) : t / (3 * d * d) + 4.0 / 29.0;
  };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// The smallest CIE 1976 colour difference between two entries of `colours` under simulation m.
double min_delta_e(const std::vector<uint32_t>& colours, const Matrix3& m) {
  double best = 1e9;
  for (size_t i = 0; i < colours.size(); ++i)
    for (size_t j = i + 1; j < colours.size(); ++j) {
      const auto a = lab(colours[i], m), b = lab(colours[j], m);
      best = std::min(best, std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
  return best;
}

// ΔE76 ≈ 2.3 is a just-noticeable difference for large patches; small scatter markers and thin
// lines need several times that. 10 is about 4 JNDs: the colour-blind-safe sets clear it (Okabe-Ito
// >= 14.6, Tol bright >= 13.1, Tol muted >= 13.6 under every simulation) while Tableau 10 does not
// (orange 0xFF7F0E and green 0x2CA02C are 4.6 apart under protanopia, a known confusion).
constexpr double kMinDeltaE = 10.0;

bool safe(Palette p) { return p != Palette::Classic; }

}  // namespace

TEST_CASE("theme: text-like colours meet WCAG contrast on the window and the plot background") {
  for (Theme t : kAllThemes) {
    const ThemeColors& k = theme_colors(t);
    const double need = t == Theme::HighContrast ? 7.0 : 4.5;
    const std::pair<const char*, ImU32> texts[] = {{"text", k.text},       {"text_dim", k.text_dim},
                                                   {"accent", k.accent},   {"good", k.good},
                                                   {"warning", k.warning}, {"error", k.error}};
    for (const auto& [name, c] : texts)
      for (ImU32 bg : {k.window_bg, k.plot_bg}) {
        CAPTURE(std::string(theme_name(t)));
        CAPTURE(std::string(name));
        CHECK(contrast_ratio(c, bg) >= need);
      }
    // The error banner's message and the selection ring.
    CHECK(contrast_ratio(k.error, k.error_bg) >= 4.5);
    CHECK(contrast_ratio(k.selection, k.plot_bg) >= need);
  }
}

TEST_CASE("theme: contrast_ratio is WCAG's (black on white 21, a colour on itself 1, symmetric)") {
  CHECK(contrast_ratio(IM_COL32(0, 0, 0, 255), IM_COL32(255, 255, 255, 255)) ==
        doctest::Approx(21.0));
  CHECK(contrast_ratio(IM_COL32(119, 119, 119, 255), IM_COL32(119, 119, 119, 255)) ==
        doctest::Approx(1.0));
  // #777 on white is the classic borderline case: 4.48.
  CHECK(contrast_ratio(IM_COL32(255, 255, 255, 255), IM_COL32(119, 119, 119, 255)) ==
        doctest::Approx(4.48).epsilon(0.01));
}

TEST_CASE(
    "theme: the ImGui style carries the theme's text and backgrounds, and the plot fill matches") {
  for (Theme t : kAllThemes) {
    const ImGuiStyle s = theme_style(t);
    const ThemeColors& k = theme_colors(t);
    CHECK(ImGui::ColorConvertFloat4ToU32(s.Colors[ImGuiCol_Text]) == k.text);
    CHECK(ImGui::ColorConvertFloat4ToU32(s.Colors[ImGuiCol_WindowBg]) == k.window_bg);
    // views/plot/plot.cpp fills a plot with the window colour moved 4 % toward the text.
    const ImVec4 bg = s.Colors[ImGuiCol_WindowBg], tx = s.Colors[ImGuiCol_Text];
    const ImVec4 fill(bg.x + (tx.x - bg.x) * 0.04f, bg.y + (tx.y - bg.y) * 0.04f,
                      bg.z + (tx.z - bg.z) * 0.04f, 1.0f);
    const ImVec4 plot_bg = colour_vec(k.plot_bg);
    CHECK(std::fabs(plot_bg.x - fill.x) < 2.0f / 255);
    CHECK(std::fabs(plot_bg.y - fill.y) < 2.0f / 255);
    CHECK(std::fabs(plot_bg.z - fill.z) < 2.0f / 255);
    // Frames are visible on the light and high-contrast themes (a border, since the fill is close
    // to the window).
    if (t != Theme::Dark) CHECK(s.FrameBorderSize >= 1.0f);
  }
}

TEST_CASE(
    "palette: colour-blind-safe palettes stay apart under protanopia, deuteranopia and "
    "tritanopia") {
  const std::pair<const char*, const Matrix3*> sims[] = {{"normal", &kNormal},
                                                         {"protanopia", &kProtanopia},
                                                         {"deuteranopia", &kDeuteranopia},
                                                         {"tritanopia", &kTritanopia}};
  for (Palette p : kAllPalettes) {
    if (!safe(p)) continue;
    for (Theme t : kAllThemes)
      for (const auto& [name, m] : sims) {
        CAPTURE(std::string(palette_name(p)));
        CAPTURE(std::string(theme_name(t)));
        CAPTURE(std::string(name));
        CHECK(min_delta_e(categorical_rgb(p, t), *m) >= kMinDeltaE);
        CHECK(min_delta_e(label_rgb(p, t), *m) >= kMinDeltaE);
      }
  }
  // The test can fail: Tableau 10 (Classic) confuses orange and green under protanopia.
  CHECK(min_delta_e(categorical_rgb(Palette::Classic, Theme::Dark), kProtanopia) < kMinDeltaE);
  // ... and the light theme's label grey is not Tol's 0x777777, which meets rose 0xCC6677 there.
  std::vector<uint32_t> grey_labels = label_rgb(Palette::OkabeIto, Theme::Light);
  grey_labels.back() = 0x777777u;
  CHECK(min_delta_e(grey_labels, kProtanopia) < kMinDeltaE);
}

TEST_CASE(
    "palette: enough colours (8 optimizers, 10 classes), and no class colour is a cluster colour") {
  for (Palette p : kAllPalettes)
    for (Theme t : kAllThemes) {
      CAPTURE(std::string(palette_name(p)));
      CAPTURE(std::string(theme_name(t)));
      const std::vector<uint32_t> cat = categorical_rgb(p, t), labels = label_rgb(p, t);
      CHECK(cat.size() >= (p == Palette::TolBright ? 7u : 8u));
      CHECK(labels.size() == 10u);
      // Tol bright's green 0x228833 is close to Tol muted's class green 0x117733 (the only such
      // pair): with that palette a class and a cluster can share a hue (said in its menu title).
      for (uint32_t l : labels)
        for (uint32_t c : cat) {
          const int dr = int((l >> 16) & 255) - int((c >> 16) & 255);
          const int dg = int((l >> 8) & 255) - int((c >> 8) & 255);
          const int db = int(l & 255) - int(c & 255);
          const bool known = p == Palette::TolBright && c == 0x228833u && l == 0x117733u;
          CHECK((dr * dr + dg * dg + db * db > 30 * 30) != known);
        }
    }
}

TEST_CASE("theme and palette names round-trip, unknown names are refused") {
  for (Theme t : kAllThemes) {
    Theme back = t == Theme::Light ? Theme::Dark : Theme::Light;
    REQUIRE(parse_theme(theme_name(t), &back));
    CHECK(back == t);
    CHECK(theme_names().find(theme_name(t)) != std::string::npos);
  }
  for (Palette p : kAllPalettes) {
    Palette back = p == Palette::OkabeIto ? Palette::Classic : Palette::OkabeIto;
    REQUIRE(parse_palette(palette_name(p), &back));
    CHECK(back == p);
    CHECK(palette_names().find(palette_name(p)) != std::string::npos);
  }
  Theme t = Theme::Dark;
  Palette p = Palette::TolBright;
  CHECK_FALSE(parse_theme("Light", &t));  // names are exact, lower case
  CHECK_FALSE(parse_theme("", &t));
  CHECK_FALSE(parse_palette("okabe", &p));
  CHECK(t == Theme::Dark);
  CHECK(p == Palette::TolBright);
  CHECK(theme_names() == "light, dark, high-contrast");
}

TEST_CASE("set_theme gives the palette to the plot library, Classic restores its own tables") {
  RestoreTheme restore;
  const uint64_t serial = theme_serial();
  set_theme(Theme::Light, Palette::OkabeIto);
  CHECK(theme_serial() > serial);
  CHECK(current_theme() == Theme::Light);
  CHECK(&colors() == &theme_colors(Theme::Light));
  const std::vector<uint32_t> cat = categorical_rgb(Palette::OkabeIto, Theme::Light);
  REQUIRE(plot::GetColormapSize(plot::Colormap::Categorical) == static_cast<int>(cat.size()));
  for (size_t i = 0; i < cat.size(); ++i)
    CHECK(plot::GetColormapColor(static_cast<int>(i)) == opaque(cat[i]));
  CHECK(plot::GetColormapColor(static_cast<int>(cat.size())) ==
        plot::GetColormapColor(0));  // wraps
  const std::vector<uint32_t> labels = label_rgb(Palette::OkabeIto, Theme::Light);
  for (size_t i = 0; i < labels.size(); ++i)
    CHECK(plot::GetColormapColor(static_cast<int>(i), plot::Colormap::Labels) == opaque(labels[i]));
  // The diverging map's centre follows the background: light on Light, dark on Dark.
  const ImU32 white = IM_COL32(255, 255, 255, 255);
  CHECK(contrast_ratio(plot::SampleColormap(0.5, plot::Colormap::Diverging), white) < 1.2);
  set_theme(Theme::Dark, Palette::Classic);
  CHECK(contrast_ratio(plot::SampleColormap(0.5, plot::Colormap::Diverging), white) > 8.0);
  for (int i = 0; i < plot::GetDefaultColormapSize(plot::Colormap::Categorical); ++i)
    CHECK(plot::GetColormapColor(i) ==
          plot::GetDefaultColormapColor(i, plot::Colormap::Categorical));
  // Okabe-Ito's black becomes light grey on a dark background (black would vanish there).
  for (uint32_t c : categorical_rgb(Palette::OkabeIto, Theme::Dark))
    CHECK(contrast_ratio(opaque(c), theme_colors(Theme::Dark).plot_bg) >= 2.0);
}

TEST_CASE("legible: a palette colour as text is darkened on a light window until it reads") {
  RestoreTheme restore;
  set_theme(Theme::Light, Palette::OkabeIto);
  const ImU32 yellow = opaque(0xF0E442u);
  REQUIRE(contrast_ratio(yellow, colors().window_bg) < 2.0);
  const ImU32 y = ImGui::ColorConvertFloat4ToU32(legible(yellow));
  CHECK(contrast_ratio(y, colors().window_bg) >= 4.5);
  CHECK(ImGui::ColorConvertFloat4ToU32(legible(colors().text)) ==
        colors().text);  // already legible: unchanged
  set_theme(Theme::Dark, Palette::OkabeIto);
  CHECK(ImGui::ColorConvertFloat4ToU32(legible(yellow)) == yellow);
}
