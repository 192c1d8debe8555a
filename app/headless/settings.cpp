#include "app/headless/settings.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace cilab {

void Settings::add_recent(const std::string& path) {
  recent_files.erase(std::remove(recent_files.begin(), recent_files.end(), path), recent_files.end());
  recent_files.insert(recent_files.begin(), path);
  if (recent_files.size() > 8) recent_files.resize(8);
}

void Settings::reset_layout() {
  const Settings defaults;
  show_browser = defaults.show_browser;
  show_data = defaults.show_data;
  show_params = defaults.show_params;
  show_metrics = defaults.show_metrics;
}

std::string settings_path() {
  namespace fs = std::filesystem;
  if (const char* d = std::getenv("CILAB_CONFIG_DIR"); d && *d) return (fs::path(d) / "settings.ini").string();
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    return (fs::path(x) / "cilab" / "settings.ini").string();
  if (const char* h = std::getenv("HOME"); h && *h)
    return (fs::path(h) / ".config" / "cilab" / "settings.ini").string();
  return "cilab-settings.ini";
}

Settings load_settings() {
  Settings s;
  std::ifstream in(settings_path());
  std::string line;
  while (in && std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "ui_scale") {
      const float v = std::strtof(value.c_str(), nullptr);
      if (v >= 0.5f && v <= 3.0f) s.ui_scale = v;
    } else if (key == "theme" && !value.empty()) {
      s.theme = value;
    } else if (key == "palette" && !value.empty()) {
      s.palette = value;
    } else if (key == "show_browser") {
      s.show_browser = value == "1";
    } else if (key == "show_data") {
      s.show_data = value == "1";
    } else if (key == "show_params") {
      s.show_params = value == "1";
    } else if (key == "show_metrics") {
      s.show_metrics = value == "1";
    } else if (key == "recent" && !value.empty() && s.recent_files.size() < 8) {
      s.recent_files.push_back(value);
    } else if (key == "last_folder") {
      s.last_folder = value;
    } else if (key == "window_size") {
      // window_size=WIDTHxHEIGHT MONITOR-KEY
      int w = 0, h = 0;
      const size_t sp = value.find(' ');
      if (sp != std::string::npos && std::sscanf(value.c_str(), "%dx%d", &w, &h) == 2 && w >= 200 && h >= 150 &&
          w <= 32768 && h <= 32768 && sp + 1 < value.size())
        s.window_sizes[value.substr(sp + 1)] = {w, h};
    }
  }
  return s;
}

bool save_settings(const Settings& s) {
  namespace fs = std::filesystem;
  const fs::path path = settings_path();
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) return false;
    out << "ui_scale=" << s.ui_scale << "\n"
        << "theme=" << s.theme << "\n"
        << "palette=" << s.palette << "\n"
        << "show_browser=" << s.show_browser << "\n"
        << "show_data=" << s.show_data << "\n"
        << "show_params=" << s.show_params << "\n"
        << "show_metrics=" << s.show_metrics << "\n";
    for (const std::string& r : s.recent_files) out << "recent=" << r << "\n";
    if (!s.last_folder.empty()) out << "last_folder=" << s.last_folder << "\n";
    for (const auto& [monitor, size] : s.window_sizes)
      out << "window_size=" << size.first << "x" << size.second << " " << monitor << "\n";
    if (!out) return false;
  }
  fs::rename(tmp, path, ec);
  return !ec;
}

}  // namespace cilab
