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
#include "app/gif_writer.h"
#include "app/headless/cli.h"
#include "app/headless/runner.h"
#include "app/headless/settings.h"
#include "app/headless/sweep.h"
#include "app/script.h"
#include "views/common/jobs.h"
#include "views/common/ui.h"
#include "views/common/view.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <chrono>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

struct GLFWwindow;
struct ImFont;

namespace cilab {

// Runs a data load on its own thread with `sink` installed for what it reports
// (report_progress: the stages of reading and parsing) while it runs.
std::future<std::shared_ptr<const Dataset>> load_async(std::shared_ptr<ProgressSink> sink,
                                                      std::function<std::shared_ptr<const Dataset>()> load);

class GlTextureProvider;

// The centre's vertical budget (App::draw_center): the heights of the preset's note and of the
// metrics strip, and which of them collapsed to one line so that the view keeps `view_min`.
// note_whole / strip_whole: the user asked for it whole (F2, F3): it does not yield.
struct CentreBudget {
  float note_h = 0.0f, strip_h = 0.0f;
  bool note_collapsed = false, strip_collapsed = false;
};
CentreBudget centre_budget(float height, float spacing, float view_min, float note_full, float note_line,
                           float strip_full, float strip_min, float strip_line, bool note_whole, bool strip_whole);

// Comparing A and B, each view gets at least this many font sizes of width: else the sidebar
// yields (a rail with a button that brings it back).
constexpr float kCompareMinHalfEm = 36.0f;
// The transport row's history scrubber keeps at least this many font sizes (its label "iteration
// 123 (after assign)"): the buttons shrink to their labels first, then the scrubber takes a row.
constexpr float kScrubberMinEm = 14.0f;

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
  // Called by GLFW's key callback (after ImGui's): queues presses and repeats.
  void on_key(int key, int action, int mods);
  // ImGui 1.86 reads keys as a per-frame "down" state: a press and its release
  // between two frames (a quick tap on a slow frame, xdotool) would never be
  // seen down, so Enter would not leave a text field nor Backspace delete. The
  // release of a key pressed since the last NewFrame is kept here (true) and
  // handed to ImGui before the next frame's events (release_deferred_keys).
  bool defer_key_release(int key, int scancode, int action, int mods);

 private:
  // ---- set-up
  bool init_window();
  void shutdown();
  void apply_ui_scale();
  // View > Theme and View > Palette (radio items); set_theme_setting changes either (an empty
  // name keeps it) and has apply_ui_scale() apply it before the next frame.
  void draw_theme_menus();
  void set_theme_setting(const std::string& theme, const std::string& palette);
  bool start_state();

  // ---- actions (every failure keeps the previous state and shows a message).
  // None of them waits for the worker: resets are posted with a ticket and
  // committed (data_, view reset, module swap) by poll_pending() when they
  // succeed; data files and built-in data sets load on a background thread.
  // Where a dataset came from, so a preset can name it again: a built-in spec
  // or a file; both empty when it was edited (clicked points).
  struct DataOrigin {
    std::string spec;
    std::string file;
  };
  void open_module(const std::string& name);
  void set_dataset(std::shared_ptr<const Dataset> data, DataOrigin origin);
  void load_file(const std::string& path);
  void open_path(const std::string& path);  // a dropped or chosen file: a preset (.json) or data
  void load_builtin(const std::string& spec);
  void start_load(std::string what, std::string recent_path, DataOrigin origin,
                  std::function<std::shared_ptr<const Dataset>()> load);
  void restart();
  // Posts a reset on `data` with values_ and seed_ (error_prefix goes before a failure's message).
  void post_reset(std::shared_ptr<const Dataset> data, const std::string& error_prefix, DataOrigin origin);
  // The data the next edit builds on: that of the newest pending reset, else data_ (and its origin).
  std::shared_ptr<const Dataset> target_data() const;
  DataOrigin target_origin() const;
  void change_param(const ParamSpec& spec, double value);  // live: set_live; rebuild: restart
  void change_text(const ParamSpec& spec, const std::string& text);  // Text params: restart
  void draw_text_param(const ParamSpec& spec);
  float param_label_room_ = 0.0f;  // width right of the parameter widgets for their labels (draw_params_panel)
  void sync_data_panel();  // built-in combo + options follow the loaded dataset
  void show_error(const std::string& message);
  void apply_intents(std::vector<ViewIntent>& intents);
  // Once per frame, before drawing: finished loads, results of posted edits
  // (commit or roll back), a pending module swap, and this frame's snapshot.
  void poll_pending();
  bool edit_pending() const;           // a load, a reset or a module switch is under way
  std::string pending_label() const;   // what is under way ("" if nothing)
  // How far it is: the load's or the reset's stage as the work reports it
  // (report_progress), or the replay's iterations; after a module opened, the
  // rest of its replay (a preset's iterations). Inactive when nothing reports.
  Progress pending_progress() const;
  void draw_pending_status();          // spinner + label + progress bar, then SameLine (status bar)
  void draw_pending_overlay();         // the same over the module's view
  void handle_shortcuts();             // consumes key_queue_ (GLFW events, script keys)
  void handle_key(int key, int mods, bool repeat);
  void close_menus();  // Esc with a menu open
  bool run_script_line();  // --script: executes commands due at this frame (app_script.cpp)

  // ---- presets (app_presets.cpp)
  void reload_presets();
  // Opens a preset: its module with its data, parameters and seed, stepped to
  // its iteration, in the background like open_module; on success its note,
  // tab and panels are shown. A failure keeps the current run.
  void open_preset(const LabFile& preset);
  void commit_preset(const LabFile& preset);
  // The runner's recipe for a preset or session (values, seed, position,
  // edits); panel_values gets the values after its live edits. Throws.
  static RunRecipe recipe_of(const LabFile& lab, const ParamSpecs& specs, ParamValues* panel_values);  // note, tab and panels (poll_pending, start-up)
  LabFile preset_of_current_state() const;    // what Save as preset writes (throws if it cannot)
  LabFile session_of_current_state() const;   // what Save session writes (throws if it cannot)
  void save_session(const std::string& path);
  void draw_save_session_popup();
  void draw_presets_menu();
  // The note box: whole, or `collapsed` to its title line when the view needs the room (the
  // vertical budget, draw_center); returns the height it took (0 when hidden).
  float draw_preset_note(float width, bool collapsed);
  float preset_note_height(float width, bool collapsed) const;  // the same, measured only
  bool preset_note_shown() const;
  void draw_save_preset_popup();

  // ---- sweep (app_sweep.cpp): Run > Sweep
  void open_sweep_window();
  void start_sweep();
  void open_sweep_run(const SweepRow& row);
  void draw_sweep_window();

  // ---- A/B compare (app_compare.cpp): Run > Compare A/B (Ctrl+B). Run B is the same module on
  // the same data and seed, started as a copy of A at A's position; the parameter panel edits A
  // or B (the A/B switch at its top), the transport drives both, the centre shows A and B side
  // by side and the metrics strip overlays their curves. A Rebuild change, the seed, Reset and
  // a new dataset restart both from iteration 0; a live change applies to its own run. Opening
  // another module, a preset or a session ends the comparison.
  struct CompareRun {
    std::unique_ptr<Runner> runner;
    std::unique_ptr<ModuleView> view;
    ParamValues values;   // B's parameter panel
    ParamValues running;  // what B runs (after live changes)
    std::map<std::string, std::string> text_edit;  // B's text parameters being edited
    std::map<std::string, bool> text_dirty;
    std::shared_ptr<const Snapshot> shown;
    MetricHistoryMirror mirror;
    std::vector<uint64_t> tickets;  // B's posted resets and live changes, not yet reported
  };
  std::unique_ptr<CompareRun> compare_;
  bool edit_b_ = false;  // the parameter panel edits B
  void start_compare();
  void stop_compare();
  void restart_b();
  void change_param_b(const ParamSpec& spec, double value);
  void poll_compare();  // B's results and snapshot, once per frame (poll_pending)
  void apply_intents_b(std::vector<ViewIntent>& intents);
  // A view's SetParam for run A (side_b false) or B: a Text or Rebuild value is staged in that
  // run's panel values and true returned (the caller restarts once per frame); a Live value is
  // applied at once unless a restart is already pending. An unknown name shows an error.
  bool stage_param_intent(const ViewIntent& vi, bool side_b, bool restart_pending);
  void draw_compare_header();  // the A/B switch and what differs (top of the parameter panel)
  // The parameters whose values differ between A and B as they run, in panel order.
  struct CompareDiff {
    std::string name, a, b;
  };
  std::vector<CompareDiff> compare_diff_list() const;
  // Every run the transport drives: A, then B while comparing.
  void each_run(const std::function<void(Runner&)>& f);
  bool any_playing() const;
  void toggle_play_all();
  // Draws one run's view into the current child window (A: side 0, B: side 1).
  // `keys`: the view's keys this frame; *shown_tab receives the tab it drew (ViewContext::shown_tab).
  void draw_run_view(ModuleView& view, Runner& runner, const std::shared_ptr<const Snapshot>& snap,
                     const std::vector<std::vector<double>>& metric_history, const ParamValues& running,
                     const std::vector<int>& keys, int* shown_tab, std::vector<ViewIntent>& intents);
  // A reopened session's zoomed plots (LabFile::plot_views), each put back once its plot has drawn
  // for the session's run; dropped when another run, module or dataset replaces it.
  void restore_session_plot_views();

  // ---- animated export (app_animation.cpp): File > Export > Animation. The app seeks every
  // run to each iteration of the range in turn, waits until the view shows it (its pictures
  // computed off the UI thread included), and saves the centre area (views and metrics) or the
  // whole window as one frame of a GIF or as one PNG of a sequence. The transport and keys
  // wait meanwhile (Esc cancels); the run returns to the iteration it showed.
  struct AnimationExport {
    std::string path;         // the GIF, or the folder of the PNG sequence
    bool gif = true;
    bool window = false;      // the whole window, else the centre area
    int scale = 1;
    int delay_cs = 10;        // frame time, 1/100 s (GIF)
    std::vector<int> iterations;
    size_t next = 0;          // frames saved
    bool sought = false;      // the runs were sent to iterations[next]
    int frames_shown = 0;     // frames drawn since the snapshot showed it
    bool jobs_seen = false;   // the view computes pictures in the background: give them time
    std::chrono::steady_clock::time_point shown_since;
    int return_to = 0;        // the iteration shown before
    GifWriter writer;
    int width = 0, height = 0;  // the first frame's size (all frames are cut to it)
  };
  std::unique_ptr<AnimationExport> anim_;
  // The plots' views before the export, put back once the run shows return_to again (an export
  // leaves the view as it found it); anim_views_at_ < 0: nothing to put back.
  plot::SavedViews anim_views_;
  int anim_views_at_ = -1;
  uint64_t anim_views_key_ = 0;  // plot_data_key_ then: another run since drops them
  void restore_views_after_animation();
  bool anim_request_ = false;     // open the Export animation popup this frame
  int anim_from_ = 0, anim_to_ = 0, anim_every_ = 1, anim_frame_ms_ = 100, anim_scale_ = 1;
  bool anim_gif_ = true, anim_window_ = false;
  std::string anim_path_;
  ImVec2 centre_min_, centre_max_;  // the centre area last frame (screen pixels)
  void open_animation_popup();
  void draw_animation_popup();
  // Starts an export of iterations from..to every `every` (checked; a failure shows why).
  void start_animation_export(int from, int to, int every, bool gif, bool window, int scale, int frame_ms,
                              const std::string& path);
  void step_animation_export();                      // before a frame: send the runs to the next iteration
  void capture_animation_after_render(int fb_w, int fb_h);  // after rendering: save it once shown
  void end_animation_export(const std::string& error);      // "" on success; "cancelled" from Esc

  // ---- panels (app_panels.cpp)
  void frame();
  void draw_menu_bar();
  void draw_transport();
  void draw_sidebar(float width, float height);
  void draw_module_browser();
  void draw_data_panel();
  void draw_params_panel();
  void draw_center(float width, float height);
  void draw_metric_strip();      // the strip's plots (A's, and B's when comparing) in the current window
  void draw_metrics_overlay();  // after the main window: the collapsed strip, hovered, shown whole
  void draw_status_bar();
  void draw_presentation_readouts();  // F11: position, status and key metrics in the large font
  // ---- annotations (app_annotate.cpp): laser pointer (L), pen (P), E clears the pen's strokes
  enum class Annotate { Off, Laser, Pen };
  void set_annotate(Annotate mode);  // toggles `mode` (the other tool goes off)
  void draw_annotations();
  void toggle_presentation();
  void draw_error_banner();
  void draw_about();

  GuiOptions opts_;
  Settings settings_;
  GLFWwindow* window_ = nullptr;
  std::string ini_path_;  // ImGui's io.IniFilename points into it
  std::string monitor_key_;  // primary monitor's name and resolution (Settings::window_sizes)
  std::unique_ptr<GlTextureProvider> textures_;
  float applied_scale_ = 0.0f;
  Annotate annotate_ = Annotate::Off;
  std::vector<std::vector<ImVec2>> strokes_;                  // the pen's strokes (screen pixels)
  bool stroke_active_ = false;
  std::deque<std::pair<ImVec2, double>> laser_trail_;         // recent pointer positions and times
  ImFont* big_font_ = nullptr;  // 1.6x the UI font: presentation read-outs
  // Presentation mode (F11): fullscreen on the window's monitor, only the view and read-outs.
  bool presenting_ = false;
  int windowed_[4] = {0, 0, 0, 0};  // x, y, w, h to return to
  bool scale_dirty_ = true;

  // The run.
  std::string module_name_;
  std::unique_ptr<Runner> runner_;
  std::unique_ptr<ModuleView> view_;
  // Work of the views that outlasts a frame (sweeps), lent through ViewContext::jobs; joined in shutdown().
  std::unique_ptr<BackgroundJobs> jobs_ = std::make_unique<BackgroundJobs>();
  ParamSpecs specs_;
  ParamValues values_;        // what the parameter panel shows
  // Text parameters being edited: kept when a restart with them fails, so the
  // user can fix the typo instead of retyping.
  std::map<std::string, std::string> text_edit_;
  std::map<std::string, bool> text_edit_dirty_;
  uint64_t seed_ = 0;
  std::shared_ptr<const Dataset> data_;
  DataOrigin data_origin_;  // how data_ was made (a preset saved now names it)
  uint64_t data_version_ = 0;
  // plot::SetDataKey of every frame: a new module, run (a reset landed) or dataset bumps it, and
  // every plot refits as new (plot.h's refit policy).
  uint64_t plot_data_key_ = 0;
  // data_ is a module's default dataset (no --data/--dataset, nothing loaded): opening another
  // module replaces it with that module's default, so each module opens on data that shows its point.
  bool data_is_default_ = false;
  MetricHistoryMirror metric_mirror_;  // the runner's metric history for views (draw_center)
  std::shared_ptr<const Snapshot> last_seen_;
  int last_seen_iteration_ = -1;
  // This frame's snapshot and running values (poll_pending; consistent with data_).
  std::shared_ptr<const Snapshot> shown_;
  ParamValues running_;

  // Edits posted and not yet applied by the worker (oldest first).
  struct PendingEdit {
    uint64_t ticket = 0;
    bool reset = true;                        // a reset, else a live change
    std::shared_ptr<const Dataset> data;      // reset: the data it runs on
    bool new_data = false;                    // reset: data_ becomes `data` on success
    std::string error_prefix;                 // put before the runner's message on failure
    std::string live_name;                    // live change: parameter and value
    double live_value = 0.0;
    DataOrigin origin;                        // reset: where `data` came from
  };
  std::deque<PendingEdit> pending_;
  // A module being opened: its own runner, swapped in when its reset succeeds.
  struct PendingModule {
    std::string name;
    std::unique_ptr<Runner> runner;
    uint64_t ticket = 0;
    ParamSpecs specs;
    ParamValues values;
    std::shared_ptr<const Dataset> data;
    bool to_default = false;  // data is this module's default data set (data_is_default_ on success)
    std::future<std::shared_ptr<const Dataset>> data_load;  // its default data set, loading (ticket 0 until done)
    std::shared_ptr<ProgressSink> load_progress = std::make_shared<ProgressSink>();  // data_load's stages
    DataOrigin origin;        // where `data` comes from
    // What the new runner is given once the data is there (Runner::replay_recipe):
    // values and seed, and for a preset or session the position and the edits.
    RunRecipe recipe;
    std::shared_ptr<const LabFile> preset;  // opened from a preset or session: its note, tab and panels on success
  };
  // While another module opens, the run shown keeps only this much history (Runner::set_history_budget),
  // so the new module's reset does not come on top of a full budget (the soak test's switches); a
  // failed open gives it back its budget (restore_history_budget).
  static constexpr size_t kLeavingHistoryBytes = size_t(32) << 20;
  void thin_leaving_history();
  void restore_history_budget();
  // When a run's history budget shrinks (a module opening, Compare starting), its worker frees the
  // thinned snapshots into its own malloc arena, which the other threads (B's or the new module's
  // worker) do not reuse: once each run holds at most `bytes` of history (or kTrimWaitFrames frames
  // later), malloc_trim hands the pages back to the system (poll_pending).
  struct PendingTrim {
    size_t bytes = 0;
    int frames_left = 0;  // 0: none pending
  };
  static constexpr int kTrimWaitFrames = 600;
  PendingTrim pending_trim_;
  void trim_when_history_within(size_t bytes);
  std::unique_ptr<PendingModule> pending_module_;
  std::vector<std::future<std::shared_ptr<const Dataset>>> abandoned_loads_;  // dropped once ready
  std::vector<std::unique_ptr<Runner>> retired_runners_;  // destroyed once idle (never blocks a frame)
  // Data sets loading on background threads (oldest first).
  struct DataLoad {
    std::string what;         // shown while loading
    std::string recent_path;  // a file to add to the recent list on success
    DataOrigin origin;
    std::future<std::shared_ptr<const Dataset>> result;
    std::shared_ptr<ProgressSink> progress = std::make_shared<ProgressSink>();  // its stages
  };
  std::deque<DataLoad> loads_;
  std::chrono::steady_clock::time_point pending_since_;
  std::optional<std::chrono::steady_clock::time_point> progress_since_;  // a runner burst under way since
  bool was_pending_ = false;

  std::vector<ModuleInfo> module_infos_;  // module browser entries

  // Data panel state.
  int builtin_index_ = 0;
  std::vector<double> builtin_options_;
  bool edit_points_ = false;
  int add_label_ = 0;
  FileBrowser browser_;

  // Presets: shipped and the user's (reload_presets), files that did not parse,
  // the note box of the preset opened last, a tab for the view's next frame.
  // A preset's panels are the preset's, not the user's: the user's own choice is kept here while a
  // preset overrides it, written to the settings instead, and restored when a module opens by hand.
  bool panels_overridden_ = false;
  bool user_panels_[4] = {true, true, true, true};  // browser, data, params, metrics
  void restore_user_panels();
  Settings settings_to_save() const;
  std::vector<LabFile> presets_;
  std::vector<std::string> preset_errors_;
  std::shared_ptr<const LabFile> preset_shown_;
  bool preset_note_open_ = false;
  // The vertical budget's overrides (F2, F3, a click): the note or the metrics strip stays whole
  // even where it would yield to the view. strip_overlay_: the collapsed strip hovered, shown whole
  // over the view (draw_metrics_overlay) in the rectangle strip_overlay_min_/max_.
  bool note_expanded_ = false;
  bool compare_sidebar_shown_ = false;  // comparing: the sidebar shown although the views are narrow
  bool strip_expanded_ = false;
  bool strip_overlay_ = false;
  ImVec2 strip_overlay_min_, strip_overlay_max_;
  float strip_full_h_ = 0.0f;
  // Tabs: a preset's (or session's) to choose as its number key would (pending_tab_); B's when a
  // comparison starts (A's, so both show the same); the tab A and B drew last frame (1-9; 0: none).
  int pending_tab_ = 0, pending_tab_b_ = 0;
  int shown_tab_ = 0, shown_tab_b_ = 0;
  std::vector<LabPlotView> pending_plot_views_;
  uint64_t pending_views_key_ = 0;  // plot_data_key_ of the session they belong to
  uint64_t frame_data_key_ = 0;     // plot_data_key_ as given to plot::SetDataKey this frame
  bool save_preset_request_ = false;  // open the Save as preset popup this frame
  std::string save_name_, save_title_, save_note_;
  bool save_iteration_ = true;        // the preset opens at the current iteration
  // The File menu's save-to-a-path popup: a session, the metrics or the data as CSV.
  enum class SaveKind { Session, MetricsCsv, DataCsv, WindowPng, WordVectors, PlotPng, Weights };
  SaveKind save_kind_ = SaveKind::Session;
  bool save_session_request_ = false; // open the popup this frame (for save_kind_)
  std::string session_path_;          // the popup's path
  void export_metrics_csv(const std::string& path);
  // PNG export: the window (File > Export, saved two frames later so the dialog is gone) and one
  // plot (its right-click menu, plot::TakeExportRequest), at 1x or 2x; after rendering, before the swap.
  void export_pngs_after_render(int fb_w, int fb_h);
  int png_scale_ = 1;
  int png_export_delay_ = 0;  // frames until the window (or plot_png_) is saved (0: none pending)
  std::string png_export_path_;
  // A plot's "Save as PNG" asks where in the same dialog (its export folder first), then
  // saves the plot's rectangle once the dialog has gone; the folder chosen is the next default.
  std::optional<plot::ExportRequest> plot_png_;
  void request_plot_png(const plot::ExportRequest& req);
  std::string export_folder() const;  // where exports are offered: the last folder used, else the working one
  void export_data_csv(const std::string& path);
  void export_word_vectors(const std::string& path);  // word2vec, glove: word2vec text format
  void export_weights(const std::string& path);  // training modules: .npz, PyTorch state_dict names

  // The sweep window (Run > Sweep, app_sweep.cpp): its settings, and the last sweep, whose
  // results the background job writes under results->mu.
  struct SweepWindow {
    struct Results {
      std::mutex mu;
      std::vector<SweepRow> rows;
      size_t total = 0;
    };
    bool open = false;
    bool reset_range = true;  // the next open takes the range from the parameter's spec
    std::string param;
    double lo = 0.0, hi = 1.0;
    bool log = false;
    int n = 8, seeds = 3, steps = 0, metric = 0;
    SweepSpec spec;
    LabFile base;            // the run the sweep varies (opening a point starts from it)
    std::string module;      // the module swept
    std::vector<std::string> metric_names;
    std::shared_ptr<Results> results;
    JobHandle job;
  };
  SweepWindow sweep_;

  // Messages.
  std::string error_;
  double error_time_ = 0.0;
  std::string info_;  // a confirmation ("saved preset ..."), shown for a few seconds
  double info_time_ = 0.0;
  bool show_about_ = false;
  bool show_shortcuts_ = false;

  // Timing.
  std::vector<double> frame_ms_;
  double last_frame_ms_ = 0.0;
  std::chrono::steady_clock::time_point last_frame_start_;
  bool quit_ = false;

  // --script: the script's state; its commands are ScriptCommands' (app/script.h).
  friend struct ScriptCommands;
  ScriptState script_;
  std::string browser_scrolled_to_;  // the module the browser list last scrolled to
  // Key presses (GLFW events and script `key` commands), consumed in order by
  // handle_shortcuts(); the ones the app does not use go to the view.
  struct KeyPress {
    int key = 0;
    int mods = 0;
    bool repeat = false;
  };
  std::deque<KeyPress> key_queue_;
  struct KeyRelease {
    int key = 0, scancode = 0, mods = 0;
  };
  std::vector<int> pressed_since_frame_;         // keys pressed since the last ImGui::NewFrame
  std::vector<KeyRelease> deferred_releases_;    // their releases, for ImGui after that frame
  void release_deferred_keys();
  std::vector<int> view_keys_;  // this frame's keys for the view (ViewContext::keys)
  uint64_t landed_edits_ = 0;  // edits (module switch, reset, live change) committed so far (poll_pending)
  // Injects the next frame's planned script input; false when none is planned (app_script_ui.cpp).
  bool apply_script_input();
  // Names the last item (or a point) as a --script click target (no-op without a script).
  void mark_target(const std::string& name);
  void mark_target(const std::string& name, float x, float y);

  // Widget state.
  SliderEditState slider_edit_;  // the sidebar's sliders (fine drag, typed values)
  uint64_t seed_edit_ = 0;       // the seed field's value while it is edited
  bool seed_editing_ = false;
};

int run_gui(const GuiOptions& opts);

}  // namespace cilab
