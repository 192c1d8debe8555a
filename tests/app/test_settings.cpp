// Settings persist between runs (UI scale for lecture halls, panels, recent files).
#include "app/headless/settings.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace cilab;

namespace {
struct TempConfigDir {
  std::filesystem::path dir;
  TempConfigDir() {
    dir = std::filesystem::temp_directory_path() / ("cilab-settings-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    setenv("CILAB_CONFIG_DIR", dir.c_str(), 1);
  }
  ~TempConfigDir() { std::filesystem::remove_all(dir); }
};
}  // namespace

TEST_CASE("settings: save then load round-trips every field") {
  TempConfigDir tmp;
  Settings s;
  s.ui_scale = 1.875f;
  s.show_metrics = false;
  s.show_browser = false;
  s.add_recent("/data/a.csv");
  s.add_recent("/data/b.csv");
  s.add_recent("/data/a.csv");  // moves to the front, no duplicate
  REQUIRE(save_settings(s));
  const Settings t = load_settings();
  CHECK(t.ui_scale == doctest::Approx(1.875f));
  CHECK_FALSE(t.show_metrics);
  CHECK_FALSE(t.show_browser);
  CHECK(t.show_data);
  REQUIRE(t.recent_files.size() == 2);
  CHECK(t.recent_files[0] == "/data/a.csv");
  CHECK(t.recent_files[1] == "/data/b.csv");
}

TEST_CASE("settings: missing or malformed files give defaults - recent list is bounded") {
  TempConfigDir tmp;
  const Settings d = load_settings();  // no file yet
  CHECK(d.ui_scale == doctest::Approx(Settings().ui_scale));
  std::filesystem::create_directories(tmp.dir);
  {
    std::ofstream f(settings_path());
    f << "ui_scale=banana\nshow_data=0\n\xff\xfe junk\nui_scale=99\n";
  }
  const Settings m = load_settings();
  CHECK(m.ui_scale == doctest::Approx(Settings().ui_scale));  // out-of-range values ignored
  CHECK_FALSE(m.show_data);
  Settings r;
  for (int i = 0; i < 20; ++i) r.add_recent("/f" + std::to_string(i));
  CHECK(r.recent_files.size() == 8);
  CHECK(r.recent_files.front() == "/f19");
}

TEST_CASE("settings: the file dialog's folder and the window size per monitor round-trip - reset_layout") {
  TempConfigDir tmp;
  Settings s;
  s.last_folder = "/home/lecturer/data sets";
  s.window_sizes["HDMI-1 1280x720"] = {1280, 690};
  s.window_sizes["eDP-1 1920x1080"] = {1600, 960};
  s.show_browser = false;
  s.show_metrics = false;
  REQUIRE(save_settings(s));
  Settings t = load_settings();
  CHECK(t.last_folder == "/home/lecturer/data sets");
  REQUIRE(t.window_sizes.size() == 2);
  CHECK(t.window_sizes["HDMI-1 1280x720"] == std::make_pair(1280, 690));
  CHECK(t.window_sizes["eDP-1 1920x1080"] == std::make_pair(1600, 960));
  t.reset_layout();
  CHECK(t.show_browser);
  CHECK(t.show_metrics);
  CHECK(t.last_folder == "/home/lecturer/data sets");  // only the panels
  {
    std::ofstream f(settings_path());
    f << "window_size=banana\nwindow_size=10x10 tiny 1x1\nwindow_size=800x600\n";
  }
  CHECK(load_settings().window_sizes.empty());  // malformed or absurd sizes are ignored
}
