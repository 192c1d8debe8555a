// The CILab window: GLFW + Dear ImGui shell around one runner and one view.
//
// Layout (no docking in ImGui 1.86): a menu bar, a transport bar, a left
// sidebar (module browser, data, parameters), the module's view in the
// centre, the metrics strip below it and a status bar. The View menu toggles
// the panels; the UI scale persists (Settings).
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/params.h"
#include "app/file_browser.h"
#include "app/headless/cli.h"
#include "app/headless/runner.h"
#include "app/headless/settings.h"
#include "views/ui.h"
#include "views/view.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

struct GLFWwindow;

namespace cilab {

class GlTextureProvider;

class App {
 public:
  explicit App(GuiOptions opts);
  ~App();
  // Opens the window and runs until closed (or --frames N); returns the exit status.
  int run();

  // Called by GLFW's drop callback.
  void on_drop(const std::string& path);
  // Called by GLFW's window-size callback: the size is remembered per monitor.
  void on_resize(int width, int height);

 private:
  // ---- set-up
  bool init_window();
  void shutdown();
  void apply_ui_scale();
  bool start_state();

  // ---- actions (every failure keeps the previous state and shows a message)
  void open_module(const std::string& name);
  void set_dataset(std::shared_ptr<const Dataset> data);
  void load_file(const std::string& path);
  void load_builtin(const std::string& spec);
  void restart();
  void change_param(const ParamSpec& spec, double value);  // live: set_live; rebuild: restart
  void change_text(const ParamSpec& spec, const std::string& text);  // Text params: restart
  void draw_text_param(const ParamSpec& spec);
  void sync_data_panel();  // built-in combo + options follow the loaded dataset
  void show_error(const std::string& message);
  void apply_intents(std::vector<ViewIntent>& intents);
  void handle_shortcuts();
  bool run_script_line();  // --script: executes commands due at this frame (app_script.cpp)

  // ---- panels (app_panels.cpp)
  void frame();
  void draw_menu_bar();
  void draw_transport();
  void draw_sidebar(float width, float height);
  void draw_module_browser();
  void draw_data_panel();
  void draw_params_panel();
  void draw_center(float width, float height);
  void draw_metrics(float height);
  void draw_status_bar();
  void draw_error_banner();
  void draw_about();

  GuiOptions opts_;
  Settings settings_;
  GLFWwindow* window_ = nullptr;
  std::string monitor_key_;  // primary monitor's name and resolution (Settings::window_sizes)
  std::unique_ptr<GlTextureProvider> textures_;
  float applied_scale_ = 0.0f;
  bool scale_dirty_ = true;

  // The run.
  std::string module_name_;
  std::unique_ptr<Runner> runner_;
  std::unique_ptr<ModuleView> view_;
  ParamSpecs specs_;
  ParamValues values_;        // what the parameter panel shows
  // Text parameters being edited: kept when a restart with them fails, so the
  // user can fix the typo instead of retyping.
  std::map<std::string, std::string> text_edit_;
  std::map<std::string, bool> text_edit_dirty_;
  uint64_t seed_ = 0;
  std::shared_ptr<const Dataset> data_;
  uint64_t data_version_ = 0;
  MetricHistoryMirror metric_mirror_;  // the runner's metric history for views (draw_center)
  std::shared_ptr<const Snapshot> last_seen_;
  int last_seen_iteration_ = -1;

  std::vector<ModuleInfo> module_infos_;  // module browser entries

  // Data panel state.
  int builtin_index_ = 0;
  std::vector<double> builtin_options_;
  bool edit_points_ = false;
  int add_label_ = 0;
  FileBrowser browser_;

  // Messages.
  std::string error_;
  double error_time_ = 0.0;
  bool show_about_ = false;
  bool show_shortcuts_ = false;

  // Timing.
  std::vector<double> frame_ms_;
  double last_frame_ms_ = 0.0;
  std::chrono::steady_clock::time_point last_frame_start_;
  bool quit_ = false;

  // --script state.
  std::vector<std::string> script_;
  size_t script_pos_ = 0;
  int script_wait_ = 0;
  int script_failures_ = 0;
  std::vector<int> injected_keys_;  // keys held down for one frame by the script
  std::string script_screenshot_;   // a screenshot the script asked for (saved after this frame)
  // --script `click`/`type`: mouse and text input injected over the next frames,
  // aimed at widgets the panels name with mark_target() ("seed", "menu:View"...).
  struct ScriptInput {
    float x = -1.0f, y = -1.0f;  // mouse position (x < 0: leave it)
    bool down = false;           // left button held this frame
    bool ctrl = false;           // Ctrl held this frame
    std::string chars;           // typed this frame
    int key = -1;                // a key held this frame (GLFW code)
  };
  std::vector<ScriptInput> script_input_;  // front first
  std::map<std::string, std::pair<float, float>> ui_targets_;  // widget centres (screen)
  std::string captured_text_;  // the text the main window drew last frame (--script only)
  // Injects the next frame's planned input; false when none is planned (app_script_ui.cpp).
  bool apply_script_input();
  // Runs a widget-level --script command (click, type, scale, expect text...);
  // false if `cmd` is not one of them (app_script_ui.cpp).
  bool script_ui_command(const std::string& cmd, std::istringstream& in,
                         const std::function<void(const std::string&)>& fail);
  // Names the last item (or a point) as a --script click target (no-op without a script).
  void mark_target(const std::string& name);
  void mark_target(const std::string& name, float x, float y);

  // Widget state.
  SliderEditState slider_edit_;  // the sidebar's sliders (fine drag, typed values)
  uint64_t seed_edit_ = 0;       // the seed field's value while it is edited
  bool seed_editing_ = false;
};

// The lines of a --script file.
std::vector<std::string> read_script(const std::string& path);

int run_gui(const GuiOptions& opts);

}  // namespace cilab
