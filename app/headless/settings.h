// Settings that persist between runs: UI scale, theme and palette, panel visibility, recent
// files, the file dialog's folder, the window size per monitor. Stored as "key=value" lines in
// $XDG_CONFIG_HOME/cilab/settings.ini (or ~/.config/cilab/settings.ini); CILAB_CONFIG_DIR overrides
// the folder.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cilab {

struct Settings {
  float ui_scale = 1.25f;        // font size = 15 px x ui_scale
  bool show_browser = true;
  bool show_data = true;
  bool show_params = true;
  bool show_metrics = true;
  // Theme and palette names (views/common/theme.h; the app falls back to the defaults on an unknown name).
  std::string theme = "light";
  std::string palette = "okabe-ito";
  std::vector<std::string> recent_files;  // newest first, at most 8
  std::string last_folder;                // where the file dialog opens (empty: the working folder)
  // Window size (width, height) per monitor, keyed by "name WIDTHxHEIGHT" (the
  // monitor's resolution): a laptop and a projector each keep their own.
  std::map<std::string, std::pair<int, int>> window_sizes;

  void add_recent(const std::string& path);
  // View -> Reset layout: every panel shown again (scale, files and sizes kept).
  void reset_layout();
};

// The settings file path (may not exist yet).
std::string settings_path();
// Reads settings; a missing or malformed file gives defaults (never throws).
Settings load_settings();
// Writes settings; returns false (and leaves the old file) on failure.
bool save_settings(const Settings& s);

}  // namespace cilab
