// The --script engine: what a running script holds (App keeps one ScriptState),
// and the table of its commands, each a small function of ScriptCommands
// (app_script.cpp: the run, the edits, the files, the expectations;
// app_script_ui.cpp: the widgets, clicks, typing and what the screen shows).
// The command list of `cilab --script-help` and of the "unknown command" error
// are generated from the table.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace cilab {

class App;

// A running script: where it is and what it waits for.
struct ScriptState {
  std::vector<std::string> lines;
  size_t pos = 0;     // the next line to run
  int wait = 0;       // frames still to draw before the next line (wait N)
  int failures = 0;   // expectations that failed (the app then exits with status 1)
  std::chrono::steady_clock::time_point wait_since;   // wait-file, settle, sweep-wait: since when
  std::chrono::steady_clock::time_point start;        // progress: the first one's time
  std::chrono::steady_clock::time_point quiet_since;  // settle: nothing has run since
  int quiet_frames = 0;                               // settle: frames drawn quiet
  std::string screenshot;  // asked for by the line just run: saved after this frame

  // click / type: mouse and text input injected over the next frames, aimed at widgets the
  // panels name with App::mark_target() ("seed", "menu:View"...).
  struct Input {
    float x = -1.0f, y = -1.0f;  // mouse position (x < 0: leave it)
    bool down = false;           // left button held this frame
    bool ctrl = false;           // Ctrl held this frame
    std::string chars;           // typed this frame
    int key = -1;                // a key held this frame (GLFW code)
  };
  std::vector<Input> input;     // front first
  std::vector<int> keys_down;   // ImGui keys held for one frame
  std::map<std::string, std::pair<float, float>> targets;  // widget centres (screen)
  std::map<std::string, std::pair<float, float>> clicked;  // where each clicked widget was (expect unmoved)
  std::string captured_text;    // the text the main window drew last frame
  uint64_t captured_landed = 0; // App::landed_edits_ when captured_text was drawn
  bool text_retried = false;    // `expect text` waited a frame for the text of the run shown

  bool active() const { return !lines.empty(); }
  bool running() const { return pos < lines.size(); }
};

// What the engine does after a command.
enum class ScriptFlow {
  Next,      // the next line, in this frame (unless the command planned input or a wait)
  EndFrame,  // this frame is done: the next line runs at the next one
  Again,     // this line again at the next frame (a wait that has not ended)
  Quit,      // the script ends and the app closes
};

// One line being run: the words after its command, and the failure report.
struct ScriptLine {
  std::istringstream& in;
  const std::function<void(const std::string&)>& fail;
  // The rest of the line (names and text may hold spaces), trailing blanks removed.
  std::string rest();
};

struct ScriptCommand {
  const char* name;
  const char* usage;  // its arguments ("N", "PATH", ...)
  const char* help;   // one line
  ScriptFlow (*run)(App& app, ScriptLine& line);
  bool runs_at_once = false;    // runs while an edit is still landing (the others wait for it)
  bool waits_for_runs = false;  // an expectation that first lets the runners apply every command
};

// The commands' functions, one each (App's friend: they act as the user would, through the
// app's own paths). app_script.cpp holds the run, edit, file and state commands and the
// tables; app_script_ui.cpp the widget ones (click, type, scale, theme, palette) and the
// expectations about what the screen shows (text, no-text, seed, metric, dialog-folder).
struct ScriptCommands {
  // Waiting.
  static ScriptFlow wait(App& a, ScriptLine& l);
  static ScriptFlow wait_file(App& a, ScriptLine& l);
  static ScriptFlow wait_text(App& a, ScriptLine& l);
  static ScriptFlow plot_save(App& a, ScriptLine& l);
  static ScriptFlow expect_unmoved(App& a, ScriptLine& l);
  static ScriptFlow idle(App& a, ScriptLine& l);
  static ScriptFlow drain(App& a, ScriptLine& l);
  static ScriptFlow settle(App& a, ScriptLine& l);
  static ScriptFlow sweep_wait(App& a, ScriptLine& l);
  static ScriptFlow animation_wait(App& a, ScriptLine& l);
  static ScriptFlow progress(App& a, ScriptLine& l);
  static ScriptFlow plot_limits(App& a, ScriptLine& l);
  static ScriptFlow plot_zoom(App& a, ScriptLine& l);
  // The run.
  static ScriptFlow key(App& a, ScriptLine& l);
  static ScriptFlow step(App& a, ScriptLine& l);
  static ScriptFlow substep(App& a, ScriptLine& l);
  static ScriptFlow back(App& a, ScriptLine& l);
  static ScriptFlow seek(App& a, ScriptLine& l);
  static ScriptFlow play(App& a, ScriptLine& l);
  static ScriptFlow pause(App& a, ScriptLine& l);
  static ScriptFlow reset(App& a, ScriptLine& l);
  static ScriptFlow set(App& a, ScriptLine& l);
  static ScriptFlow seed(App& a, ScriptLine& l);
  static ScriptFlow compare(App& a, ScriptLine& l);
  static ScriptFlow set_b(App& a, ScriptLine& l);
  static ScriptFlow intent(App& a, ScriptLine& l);
  static ScriptFlow add_point(App& a, ScriptLine& l);
  static ScriptFlow remove_point(App& a, ScriptLine& l);
  static ScriptFlow pen_stroke(App& a, ScriptLine& l);
  // Data, modules, files.
  static ScriptFlow dataset(App& a, ScriptLine& l);
  static ScriptFlow load(App& a, ScriptLine& l);
  static ScriptFlow drop(App& a, ScriptLine& l);
  static ScriptFlow module(App& a, ScriptLine& l);
  static ScriptFlow preset(App& a, ScriptLine& l);
  static ScriptFlow sweep(App& a, ScriptLine& l);
  static ScriptFlow open_sweep_run(App& a, ScriptLine& l);
  static ScriptFlow save_session(App& a, ScriptLine& l);
  static ScriptFlow export_metrics(App& a, ScriptLine& l);
  static ScriptFlow export_data(App& a, ScriptLine& l);
  static ScriptFlow export_vectors(App& a, ScriptLine& l);
  static ScriptFlow export_weights(App& a, ScriptLine& l);
  static ScriptFlow export_png(App& a, ScriptLine& l);
  static ScriptFlow export_animation(App& a, ScriptLine& l);
  static ScriptFlow screenshot(App& a, ScriptLine& l);
  static ScriptFlow quit(App& a, ScriptLine& l);
  // Widgets (app_script_ui.cpp).
  static ScriptFlow click(App& a, ScriptLine& l);
  static ScriptFlow type(App& a, ScriptLine& l);
  static ScriptFlow scale(App& a, ScriptLine& l);
  static ScriptFlow theme(App& a, ScriptLine& l);
  static ScriptFlow palette(App& a, ScriptLine& l);
  // expect WHAT: dispatches on script_expectations().
  static ScriptFlow expect(App& a, ScriptLine& l);
  static ScriptFlow expect_restarting(App& a, ScriptLine& l);
  static ScriptFlow expect_iteration(App& a, ScriptLine& l);
  static ScriptFlow expect_status(App& a, ScriptLine& l);
  static ScriptFlow expect_rows(App& a, ScriptLine& l);
  static ScriptFlow expect_dataset(App& a, ScriptLine& l);
  static ScriptFlow expect_module(App& a, ScriptLine& l);
  static ScriptFlow expect_error(App& a, ScriptLine& l);
  static ScriptFlow expect_no_error(App& a, ScriptLine& l);
  static ScriptFlow expect_param(App& a, ScriptLine& l);
  static ScriptFlow expect_b_iteration(App& a, ScriptLine& l);
  static ScriptFlow expect_b_param(App& a, ScriptLine& l);
  static ScriptFlow expect_annotations(App& a, ScriptLine& l);
  static ScriptFlow expect_sweep_rows(App& a, ScriptLine& l);
  static ScriptFlow expect_plots_min_height(App& a, ScriptLine& l);
  static ScriptFlow expect_plots_min_width(App& a, ScriptLine& l);
  static ScriptFlow expect_plots_inside_window(App& a, ScriptLine& l);
  static ScriptFlow expect_plots_legends_shown(App& a, ScriptLine& l);
  static ScriptFlow expect_plot(App& a, ScriptLine& l);
  static ScriptFlow expect_text(App& a, ScriptLine& l);  // app_script_ui.cpp, as the four below
  static ScriptFlow expect_no_text(App& a, ScriptLine& l);
  static ScriptFlow expect_text_inside_panels(App& a, ScriptLine& l);
  static ScriptFlow expect_seed(App& a, ScriptLine& l);
  static ScriptFlow expect_metric(App& a, ScriptLine& l);
  static ScriptFlow expect_dialog_folder(App& a, ScriptLine& l);
  static ScriptFlow expect_menus(App& a, ScriptLine& l);

 private:
  static ScriptFlow wait_for(App& a, ScriptLine& l, bool running, const char* what);
  static ScriptFlow point(App& a, ScriptLine& l, bool add);
  static ScriptFlow param(App& a, ScriptLine& l, bool b);
  enum class PlotCheck { MinHeight, MinWidth, Inside, LegendsShown };
  static ScriptFlow plots(App& a, ScriptLine& l, PlotCheck check);
  static ScriptFlow theme_or_palette(App& a, ScriptLine& l, bool theme);
  static ScriptFlow text(App& a, ScriptLine& l, bool present);
};

// Every command, in the order of the help; `expect WHAT ...` dispatches on its own table.
const std::vector<ScriptCommand>& script_commands();
const std::vector<ScriptCommand>& script_expectations();
// The help of both tables, one command a line: "  NAME USAGE  HELP".
std::string script_help();

// The lines of a --script file.
std::vector<std::string> read_script(const std::string& path);

}  // namespace cilab
