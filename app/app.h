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
#include "views/view.h"

#include <chrono>
#include <map>
#include <memory>
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
  // data_ is a module's default dataset (no --data/--dataset, nothing loaded): opening another
  // module replaces it with that module's default, so each module opens on data that shows its point.
  bool data_is_default_ = false;
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
};

// The lines of a --script file.
std::vector<std::string> read_script(const std::string& path);

int run_gui(const GuiOptions& opts);

}  // namespace cilab
