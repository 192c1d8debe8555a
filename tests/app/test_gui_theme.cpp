// Themes in the real window: several modules open in each theme without an error, the window's
// background follows the theme (--theme, View > Theme, script `theme`), the choice is saved, and
// an unknown name on the command line is refused with the valid ones listed.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cilab_test_paths.h"
#include "tests/support/gui_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

// Mean of the three channels of the screenshot's pixel (x, y) (negative x, y: from the far edge).
int grey_at(const std::string& png, int x, int y) {
  int w = 0, h = 0, comp = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &comp, 3);
  REQUIRE_MESSAGE(px != nullptr, "cannot read " << png);
  if (x < 0) x += w;
  if (y < 0) y += h;
  const unsigned char* p = px + (static_cast<size_t>(y) * w + x) * 3;
  const int g = (p[0] + p[1] + p[2]) / 3;
  stbi_image_free(px);
  return g;
}

// The window's own background: the status bar's far right end (no text there).
int background(const std::string& png) { return grey_at(png, -3, -3); }

}  // namespace

TEST_CASE("gui theme: modules open in every theme, the background follows it") {
  const char* themes[] = {"light", "dark", "high-contrast"};
  for (const char* theme : themes) {
    const QuietWindow window(std::string("theme_") + theme);
    const std::string name = std::string("gui_theme_") + theme;
    {
      std::ofstream script(name + ".txt");
      for (const char* module : {"kmeans", "pca", "power-iteration", "backprop", "gan"})
        script << "module " << module << "\nsettle\nstep 2\nsettle\nexpect module " << module
               << "\nexpect no-error\nscreenshot " << name << "_" << module << ".png\n";
      script << "wait 1\nquit\n";
    }
    const Proc p =
        run_gui(std::string("--theme ") + theme + " --frames 100000 --script " + name + ".txt",
                name + "_end.png");
    CAPTURE(theme);
    INFO("stderr: " << p.err);
    REQUIRE(p.code == 0);
    for (const char* module : {"kmeans", "pca", "power-iteration", "backprop", "gan"}) {
      const std::string png = name + "_" + module + ".png";
      CAPTURE(module);
      CHECK(distinct_colours(png) > 50);
      const int bg = background(png);
      if (std::string(theme) == "light")
        CHECK(bg > 230);
      else if (std::string(theme) == "dark")
        CHECK((bg > 15 && bg < 45));
      else
        CHECK(bg == 0);
    }
  }
}

TEST_CASE("gui theme: View > Theme and the script switch it at once, and the choice is saved") {
  const QuietWindow window("theme_menu");
  {
    std::ofstream script("gui_theme_menu.txt");
    script << "settle\nscreenshot gui_theme_menu_0.png\n"
              "click menu:View\nwait 2\nclick menu:View/Theme\nwait 2\nclick "
              "menu:View/Theme/dark\nsettle\n"
              "screenshot gui_theme_menu_1.png\n"
              "theme high-contrast\npalette tol-bright\nsettle\nscreenshot gui_theme_menu_2.png\n"
              "wait 1\nquit\n";
  }
  const Proc p = run_gui("--module kmeans --frames 100000 --script gui_theme_menu.txt",
                         "gui_theme_menu_end.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  CHECK(background("gui_theme_menu_0.png") > 230);  // the default: light
  const int dark = background("gui_theme_menu_1.png");
  CHECK((dark > 15 && dark < 45));
  CHECK(background("gui_theme_menu_2.png") == 0);
  std::ifstream in(window.dir + "/settings.ini");
  const std::string settings((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  CHECK(settings.find("theme=high-contrast\n") != std::string::npos);
  CHECK(settings.find("palette=tol-bright\n") != std::string::npos);
}

TEST_CASE("gui theme: an unknown --theme or --palette exits 2 naming the valid ones") {
  const QuietWindow window("theme_bad");
  Proc p = run_captured(std::string(CILAB_BINARY) + " --theme sepia --frames 1",
                        "gui_theme_bad.out.txt", "gui_theme_bad.err.txt");
  CHECK(p.code == 2);
  CHECK(p.err.find("unknown theme 'sepia'") != std::string::npos);
  CHECK(p.err.find("light, dark, high-contrast") != std::string::npos);
  p = run_captured(std::string(CILAB_BINARY) + " --palette rainbow --frames 1",
                   "gui_palette_bad.out.txt", "gui_palette_bad.err.txt");
  CHECK(p.code == 2);
  CHECK(p.err.find("okabe-ito, tol-bright, classic") != std::string::npos);
  // A script's unknown theme is a failed expectation (exit 1), not a crash.
  std::ofstream("gui_theme_bad_script.txt") << "theme sepia\nwait 1\nquit\n";
  p = run_gui("--module kmeans --frames 100000 --script gui_theme_bad_script.txt",
              "gui_theme_bad_script_end.png");
  CHECK(p.code == 1);
  CHECK(p.err.find("light, dark, high-contrast") != std::string::npos);
}
