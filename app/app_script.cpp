// --script FILE: commands run between frames, for demos prepared in advance
// and for end-to-end tests of the real shell. One command per line, '#'
// starts a comment. Commands go through the same paths as the mouse and the
// keyboard (keys go into the app's key queue like GLFW's key events; `drop`
// is the drag-and-drop callback; `set` is the parameter panel's change).
// Edits (set, dataset, load, module, reset...) do not block the window: the
// next command waits, frame after frame, until they have landed - except
// `wait` and `expect restarting`, which run at once.
//
//   wait N                 render N frames
//   wait-file PATH         render frames until PATH exists (at most 60 s; tests with real input)
//   idle                   wait until the runner has applied every command
//   key NAME               press a key: Space Right Left F1 F11 Escape Equal Minus, a letter or digit; Ctrl+NAME
//   step [N] | substep | back | seek N | seek P% | play | pause | reset
//   progress               prints "progress iteration=I seconds=T last=L history_bytes=B" (benches)
//   set KEY=VALUE | seed N
//   compare on|off         Run > Compare A/B; set-b KEY=VALUE changes run B's parameter
//   expect b-iteration N | expect b-param KEY=VALUE   (run B)
//   dataset SPEC | load PATH | drop PATH | module NAME
//   preset NAME            open a preset, as the Presets menu does
//   save-session PATH      File > Save session
//   sweep PARAM LO HI lin|log N SEEDS STEPS   Run > Sweep, started (a choice: LO HI ignored)
//   sweep-wait             until the sweep has ended
//   pen-stroke X0 Y0 X1 Y1 a pen stroke (screen pixels), as a drag with the pen (key P)
//   expect annotations N   N pen strokes on screen
//   open-sweep-run ROW     open run ROW of the sweep (as a click on its point)
//   export-metrics PATH | export-data PATH   File > Export (CSV)
//   export-png SCALE PATH  File > Export > the window as PNG, at 1x or 2x
//   export-animation FROM TO EVERY gif|png PATH [window] [2x]   File > Export > Animation
//   animation-wait         until the animated export has ended
//   intent KIND INDEX [V...]        an edit, as a view would send it
//   add-point X Y | remove-point X Y
//   expect iteration N | expect status NAME | expect rows N | expect module NAME | expect sweep-rows N
//   expect error | expect no-error | expect param KEY=VALUE
//   expect restarting      an edit (load, reset, module switch) is still under way
//   expect plots-min-height N | expect plots-inside-window   (the last frame's plots)
//   screenshot PATH        save the next frame as PNG
//   click / type / scale / expect text|no-text|seed: see app_script_ui.cpp
//   quit
#include "app/app.h"

#include "algorithms/core/params.h"
#include "views/plot/plot.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cilab {
namespace {

constexpr double kWaitFileSeconds = 60.0;
// settle: quiet means the runner idle and no view job running for this long (more than
// a view's picture-job pacing, at most 4 Hz: a job that follows a new snapshot starts
// within 250 ms of the previous one) and for this many frames (the last result drawn).
constexpr double kSettleQuietSeconds = 0.3;
constexpr int kSettleQuietFrames = 3;
constexpr double kSettleMaxSeconds = 120.0;

int key_code(const std::string& name) {
  if (name == "Space") return GLFW_KEY_SPACE;
  if (name == "Right") return GLFW_KEY_RIGHT;
  if (name == "Left") return GLFW_KEY_LEFT;
  if (name == "F1") return GLFW_KEY_F1;
  if (name == "F11") return GLFW_KEY_F11;
  if (name == "Escape") return GLFW_KEY_ESCAPE;
  if (name == "Equal") return GLFW_KEY_EQUAL;
  if (name == "Minus") return GLFW_KEY_MINUS;
  // Letters (module views use some: K = compare with k-means in gmm).
  if (name.size() == 1 && std::isalpha(static_cast<unsigned char>(name[0])))
    return GLFW_KEY_A + (std::toupper(static_cast<unsigned char>(name[0])) - 'A');
  // Digits (the mlp view's tabs).
  if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0]))) return GLFW_KEY_0 + (name[0] - '0');
  return -1;
}

}  // namespace

bool App::run_script_line() {
  if (apply_script_input()) return true;  // a click or typing in progress (app_script_ui.cpp)
  if (script_wait_ > 0) {
    --script_wait_;
    return true;
  }
  while (script_pos_ < script_.size()) {
    const size_t line_no = script_pos_ + 1;
    std::istringstream in(script_[script_pos_]);
    std::string cmd;
    if (!(in >> cmd) || cmd[0] == '#') {
      ++script_pos_;
      continue;
    }
    {
      // Deterministic scripts: a command waits (the window keeps drawing) until
      // the edits before it have landed; `wait` and `expect restarting` do not.
      std::istringstream peek(script_[script_pos_]);
      std::string c, what;
      peek >> c >> what;
      const bool runs_now = c == "wait" || c == "wait-file" || (c == "expect" && what == "restarting");
      if (!runs_now && edit_pending()) return true;
    }
    ++script_pos_;
    auto fail = [&](const std::string& what) {
      ++script_failures_;
      std::cerr << "cilab: script line " << line_no << ": " << what << "\n";
    };
    const std::shared_ptr<const Snapshot> snap = runner_->latest();
    if (script_ui_command(cmd, in, fail)) {  // click, type, scale, expect text... (app_script_ui.cpp)
      if (!script_input_.empty() || script_wait_ > 0) return true;
      continue;
    }
    if (cmd == "wait") {
      int n = 1;
      in >> n;
      script_wait_ = std::max(0, n - 1);
      return true;
    } else if (cmd == "wait-file") {
      std::string path;
      std::getline(in >> std::ws, path);
      if (std::filesystem::exists(path)) {
        script_wait_since_ = {};
        continue;
      }
      const auto now = std::chrono::steady_clock::now();
      if (script_wait_since_ == std::chrono::steady_clock::time_point{}) script_wait_since_ = now;
      if (std::chrono::duration<double>(now - script_wait_since_).count() > kWaitFileSeconds) {
        script_wait_since_ = {};
        fail("waited " + std::to_string(static_cast<int>(kWaitFileSeconds)) + " s for " + path);
        continue;
      }
      --script_pos_;  // again at the next frame
      return true;
    } else if (cmd == "pen-stroke") {  // a pen stroke from (X0, Y0) to (X1, Y1), screen pixels
      float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
      in >> x0 >> y0 >> x1 >> y1;
      std::vector<ImVec2> st;
      for (int k = 0; k <= 20; ++k) st.emplace_back(x0 + (x1 - x0) * k / 20.0f, y0 + (y1 - y0) * k / 20.0f);
      strokes_.push_back(std::move(st));
    } else if (cmd == "sweep-wait" || cmd == "animation-wait") {
      // Until the sweep's job, or the animated export, has ended (at most 120 s).
      const bool sweep = cmd == "sweep-wait";
      if (!(sweep ? sweep_job_.running() : anim_ != nullptr)) {
        script_wait_since_ = {};
        continue;
      }
      const auto now = std::chrono::steady_clock::now();
      if (script_wait_since_ == std::chrono::steady_clock::time_point{}) script_wait_since_ = now;
      if (std::chrono::duration<double>(now - script_wait_since_).count() > 2 * kWaitFileSeconds) {
        script_wait_since_ = {};
        fail(cmd + (sweep ? ": the sweep" : ": the export") + " still runs after 120 s");
        continue;
      }
      --script_pos_;
      return true;
    } else if (cmd == "export-animation") {
      // File > Export > Animation: export-animation FROM TO EVERY gif|png PATH [window] [2x]
      int from = 0, to = 0, every = 1;
      std::string format, path, opt;
      in >> from >> to >> every >> format >> path;
      bool window = false;
      int scale = 1;
      while (in >> opt) {
        if (opt == "window") window = true;
        else if (opt == "2x") scale = 2;
      }
      if (format != "gif" && format != "png") {
        fail("export-animation: expected gif or png, found '" + format + "'");
        continue;
      }
      start_animation_export(from, to, every, format == "gif", window, scale, 100, path);
    } else if (cmd == "drain") {
      // Waits, drawing frame after frame (unlike idle), until a step burst or play has ended.
      if (runner_->playing() || runner_->busy()) {
        --script_pos_;  // again at the next frame
        return true;
      }
    } else if (cmd == "progress") {
      // One stdout line for benches: the iteration shown and the seconds since the script started.
      const auto now = std::chrono::steady_clock::now();
      if (script_start_ == std::chrono::steady_clock::time_point{}) script_start_ = now;
      std::printf("progress iteration=%d seconds=%.6f last=%d history_bytes=%zu\n", runner_->current_iteration(),
                  std::chrono::duration<double>(now - script_start_).count(), runner_->last_iteration(),
                  runner_->history_bytes());
      std::fflush(stdout);
    } else if (cmd == "idle") {
      runner_->wait_idle();
    } else if (cmd == "settle") {
      // Waits, drawing frames, until nothing runs in the background: the runners (the
      // compared one too) idle, no view job running and no view holding pictures back
      // (ModuleView::pictures_pending), for kSettleQuietSeconds and
      // kSettleQuietFrames in a row, so the pictures of the position shown are drawn.
      // What a script waits with for background work, never a fixed number of frames.
      const auto now = std::chrono::steady_clock::now();
      if (script_wait_since_ == std::chrono::steady_clock::time_point{}) script_wait_since_ = now;
      const bool busy = runner_->playing() || runner_->busy() || edit_pending() ||
                        (compare_ && (compare_->runner->busy() || compare_->runner->playing())) ||
                        (jobs_ && jobs_->running() > 0) || (view_ && view_->pictures_pending()) ||
                        (compare_ && compare_->view && compare_->view->pictures_pending());
      if (busy || script_quiet_frames_ == 0) {
        script_quiet_since_ = now;
        script_quiet_frames_ = busy ? 0 : 1;
      } else {
        ++script_quiet_frames_;
      }
      const bool quiet = script_quiet_frames_ > kSettleQuietFrames &&
                         std::chrono::duration<double>(now - script_quiet_since_).count() >= kSettleQuietSeconds;
      const bool timed_out = std::chrono::duration<double>(now - script_wait_since_).count() > kSettleMaxSeconds;
      if (quiet || timed_out) {
        script_wait_since_ = {};
        script_quiet_frames_ = 0;
        if (timed_out && !quiet) fail("settle: still busy after 120 s (runner or a view's picture job)");
        continue;
      }
      --script_pos_;  // again at the next frame
      return true;
    } else if (cmd == "key") {
      std::string name;
      in >> name;
      int mods = 0;
      if (name.rfind("Ctrl+", 0) == 0) {
        mods = GLFW_MOD_CONTROL;
        name = name.substr(5);
      }
      const int k = key_code(name);
      if (k < 0) {
        fail("unknown key '" + name + "'; known: Space Right Left F1 Equal Minus, letters A-Z, digits 0-9, Ctrl+NAME");
        continue;
      }
      key_queue_.push_back(KeyPress{k, mods, false});
      return true;  // handled by this frame, like a GLFW key event
    } else if (cmd == "step") {
      int n = 1;
      in >> n;
      each_run([n](Runner& r) { r.step_n(n); });
    } else if (cmd == "substep") {
      each_run([](Runner& r) { r.sub_step(); });
    } else if (cmd == "back") {
      each_run([](Runner& r) { r.back(); });
    } else if (cmd == "seek") {  // seek N, or seek P% of the last iteration (the soak bench's scrubbing)
      double n = 0;
      in >> n;
      if (in.peek() == '%') n = n / 100.0 * runner_->last_iteration();
      const int it = static_cast<int>(std::clamp(n, 0.0, 2e9));
      each_run([it](Runner& r) { r.seek(it); });
    } else if (cmd == "play") {
      each_run([](Runner& r) { r.play(); });
    } else if (cmd == "pause") {
      each_run([](Runner& r) { r.pause(); });
    } else if (cmd == "reset") {
      restart();
    } else if (cmd == "set") {
      std::string kv;
      in >> kv;
      const size_t eq = kv.find('=');
      const ParamSpec* spec = eq == std::string::npos ? nullptr : find_param(specs_, kv.substr(0, eq));
      if (!spec) {
        fail("set " + kv + ": unknown parameter of " + module_name_);
        continue;
      }
      try {
        if (is_text_valued(*spec)) {
          // The rest of the line is the text (formulas may contain spaces).
          std::string rest;
          std::getline(in, rest);
          change_text(*spec, kv.substr(eq + 1) + rest);
        } else if (is_compound(*spec)) {
          ParamValues v = values_;
          apply_assignment(specs_, v, kv, module_name_);
          values_ = v;
          restart();
        } else {
          change_param(*spec, parse_value(*spec, kv.substr(eq + 1)));
        }
      } catch (const std::exception& e) {
        show_error(e.what());
      }
    } else if (cmd == "compare") {  // Run > Compare A/B: compare on|off
      std::string onoff;
      in >> onoff;
      if (onoff == "on") {
        runner_->wait_idle();  // deterministic scripts: B copies A after the steps asked before
        poll_pending();        // ... as this frame's snapshot shows them
        start_compare();
      }
      else if (onoff == "off") stop_compare();
      else fail("compare: expected on or off, found '" + onoff + "'");
    } else if (cmd == "set-b") {  // as the parameter panel set to B: set-b KEY=VALUE (numbers and choices)
      std::string kv;
      in >> kv;
      const size_t eq = kv.find('=');
      const ParamSpec* spec = eq == std::string::npos ? nullptr : find_param(specs_, kv.substr(0, eq));
      if (!compare_ || !spec || is_compound(*spec) || is_text_valued(*spec)) {
        fail("set-b " + kv + ": " + (compare_ ? "unknown or non-numeric parameter of " + module_name_
                                              : std::string("no comparison (compare on)")));
        continue;
      }
      try {
        change_param_b(*spec, parse_value(*spec, kv.substr(eq + 1)));
      } catch (const std::exception& e) {
        show_error(e.what());
      }
    } else if (cmd == "seed") {
      unsigned long long s = 0;
      in >> s;
      seed_ = s;
      restart();
    } else if (cmd == "dataset") {
      std::string spec;
      in >> spec;
      load_builtin(spec);
    } else if (cmd == "load" || cmd == "drop") {
      std::string path;
      std::getline(in >> std::ws, path);
      if (cmd == "drop") on_drop(path);
      else load_file(path);
    } else if (cmd == "module") {
      std::string name;
      in >> name;
      open_module(name);
    } else if (cmd == "sweep") {  // Run > Sweep: sweep PARAM LO HI lin|log N SEEDS STEPS, then Start
      std::string mode;
      in >> sweep_param_ >> sweep_lo_ >> sweep_hi_ >> mode >> sweep_n_ >> sweep_seeds_ >> sweep_steps_;
      sweep_log_ = mode == "log";
      sweep_open_ = true;
      sweep_reset_range_ = false;
      start_sweep();
    } else if (cmd == "open-sweep-run") {  // a click on run ROW of the sweep plot
      size_t r = 0;
      in >> r;
      std::vector<SweepRow> rows;
      if (sweep_state_) {
        std::lock_guard<std::mutex> lk(sweep_state_->mu);
        rows = sweep_state_->rows;
      }
      if (r >= rows.size()) fail("open-sweep-run: no run " + std::to_string(r) + " yet");
      else open_sweep_run(rows[r]);
    } else if (cmd == "save-session") {  // as File > Save session
      std::string path;
      std::getline(in >> std::ws, path);
      save_session(path);
    } else if (cmd == "export-metrics" || cmd == "export-data") {  // as File > Export
      std::string path;
      std::getline(in >> std::ws, path);
      if (cmd == "export-metrics") export_metrics_csv(path);
      else export_data_csv(path);
    } else if (cmd == "export-png") {  // File > Export > the window: export-png SCALE PATH
      in >> png_scale_;
      std::getline(in >> std::ws, png_export_path_);
      png_export_delay_ = 1;
    } else if (cmd == "preset") {  // as a click in the Presets menu
      std::string name;
      in >> name;
      const LabFile* p = find_preset(presets_, name);
      if (!p) fail("no preset called '" + name + "'");
      else open_preset(*p);
    } else if (cmd == "intent") {
      ViewIntent vi;
      in >> vi.intent.kind >> vi.intent.index;
      for (double v; in >> v;) vi.intent.values.push_back(v);
      std::vector<ViewIntent> intents = {vi};
      apply_intents(intents);
    } else if (cmd == "add-point" || cmd == "remove-point") {
      ViewIntent vi;
      vi.kind = cmd == "add-point" ? ViewIntent::Kind::AddPoint : ViewIntent::Kind::RemovePoint;
      in >> vi.x >> vi.y;
      std::vector<ViewIntent> intents = {vi};
      apply_intents(intents);
    } else if (cmd == "expect") {
      std::string what;
      in >> what;
      if (what == "restarting") {
        if (!edit_pending()) fail("expected an edit under way (restarting), found none");
        continue;
      }
      each_run([](Runner& r) { r.wait_idle(); });
      const std::shared_ptr<const Snapshot> now = runner_->latest();
      if (what == "iteration") {
        int n = -1;
        in >> n;
        if (!now || now->iteration != n)
          fail("expected iteration " + std::to_string(n) + ", found " +
               (now ? std::to_string(now->iteration) : std::string("none")));
      } else if (what == "status") {
        std::string name;
        in >> name;
        if (!now || name != status_name(now->status))
          fail("expected status " + name + ", found " + (now ? status_name(now->status) : "none"));
      } else if (what == "rows") {
        int n = -1;
        in >> n;
        if (!data_ || data_->rows() != n)
          fail("expected " + std::to_string(n) + " rows, found " + (data_ ? std::to_string(data_->rows()) : "no data"));
      } else if (what == "dataset") {  // the loaded data's name (a text corpus has no rows)
        std::string name;
        std::getline(in >> std::ws, name);
        if (!data_ || data_->name != name)
          fail("expected dataset '" + name + "', found " + (data_ ? "'" + data_->name + "'" : std::string("no data")));
      } else if (what == "annotations") {  // pen strokes on screen
        size_t n = 0;
        in >> n;
        if (strokes_.size() != n)
          fail("expected " + std::to_string(n) + " pen strokes, found " + std::to_string(strokes_.size()));
      } else if (what == "sweep-rows") {  // runs the sweep has finished (failed ones included)
        size_t n = 0, have = 0;
        in >> n;
        if (sweep_state_) {
          std::lock_guard<std::mutex> lk(sweep_state_->mu);
          have = sweep_state_->rows.size();
          for (const SweepRow& r : sweep_state_->rows)
            if (!r.error.empty()) fail("sweep run failed: " + r.error);
        }
        if (have != n) fail("expected " + std::to_string(n) + " sweep runs, found " + std::to_string(have));
      } else if (what == "module") {
        std::string name;
        in >> name;
        if (name != module_name_) fail("expected module " + name + ", found " + module_name_);
      } else if (what == "error") {
        if (error_.empty()) fail("expected an error message, found none");
        error_.clear();
      } else if (what == "no-error") {
        if (!error_.empty()) fail("expected no error, found: " + error_);
      } else if (what == "b-iteration") {  // run B's shown iteration (A/B compare)
        int n = -1;
        in >> n;
        const std::shared_ptr<const Snapshot> b = compare_ ? compare_->runner->latest() : nullptr;
        if (!b || b->iteration != n)
          fail("expected run B at iteration " + std::to_string(n) + ", found " +
               (b ? std::to_string(b->iteration) : std::string(compare_ ? "none" : "no comparison")));
      } else if (what == "param" || what == "b-param") {
        std::string kv;
        in >> kv;
        const size_t eq = kv.find('=');
        const ParamSpec* spec = eq == std::string::npos ? nullptr : find_param(specs_, kv.substr(0, eq));
        if (what == "b-param" && !compare_) {
          fail("expect b-param: no comparison (Run > Compare A/B)");
          continue;
        }
        const ParamValues running = (what == "b-param" ? compare_->runner : runner_)->values();
        if (spec && is_text_valued(*spec)) {  // Text and IntList values travel as text
          auto t = running.text.find(spec->name);
          const std::string have = t == running.text.end() ? std::string("no value") : t->second;
          if (have != kv.substr(eq + 1)) fail("expected " + kv + ", found " + have);
        } else {
          auto it = spec ? running.find(spec->name) : running.end();
          if (!spec || it == running.end() || format_value(*spec, it->second) != kv.substr(eq + 1))
            fail("expected " + kv + ", found " +
                 (spec && it != running.end() ? format_value(*spec, it->second) : std::string("no such parameter")));
        }
      } else if (what == "plots-min-height" || what == "plots-inside-window") {
        // Layout of the last frame's plots (plot::LastFramePlotRects): every chart's plot area at
        // least N px tall, or every plot inside the part of the window the screen shows (and inside
        // its panel unless that panel scrolls).
        float min_h = 0.0f;
        in >> min_h;
        int wx = 0, wy = 0;
        glfwGetWindowPos(window_, &wx, &wy);
        ImVec2 lo(0, 0), hi = ImGui::GetIO().DisplaySize;
        if (const GLFWvidmode* vm = glfwGetVideoMode(glfwGetPrimaryMonitor())) {
          lo = ImVec2(std::max(0.0f, static_cast<float>(-wx)), std::max(0.0f, static_cast<float>(-wy)));
          hi = ImVec2(std::min(hi.x, static_cast<float>(vm->width - wx)), std::min(hi.y, static_cast<float>(vm->height - wy)));
        }
        const plot::PlotRect* rects = nullptr;
        const int n = plot::LastFramePlotRects(&rects);
        if (n == 0) fail("expected plots in the last frame, found none");
        for (int i = 0; i < n; ++i) {
          const plot::PlotRect& r = rects[i];
          char buf[320];
          std::snprintf(buf, sizeof buf, "plot '%s': frame (%.0f, %.0f)-(%.0f, %.0f), area %.0f x %.0f px, panel (%.0f, %.0f)-(%.0f, %.0f)%s, screen (%.0f, %.0f)-(%.0f, %.0f)",
                        r.title_id, r.frame_min.x, r.frame_min.y, r.frame_max.x, r.frame_max.y, r.area_max.x - r.area_min.x,
                        r.area_max.y - r.area_min.y, r.clip_min.x, r.clip_min.y, r.clip_max.x, r.clip_max.y,
                        r.window_scrolls ? " (scrolls)" : "", lo.x, lo.y, hi.x, hi.y);
          // (image tiles - eigen-images, thumbnails, drawn canvas-only - are pictures, not charts)
          if (what == "plots-min-height" && !r.canvas && r.area_max.y - r.area_min.y < min_h)
            fail(std::string(buf) + ": shorter than " + std::to_string(static_cast<int>(min_h)) + " px");
          // In a panel that scrolls vertically the plot may lie partly below or above it (scroll to
          // it); what shows is the part inside the panel, and that must be on screen.
          const float top = r.window_scrolls ? std::max(r.frame_min.y, r.clip_min.y) : r.frame_min.y;
          const float bottom = r.window_scrolls ? std::min(r.frame_max.y, r.clip_max.y) : r.frame_max.y;
          const bool off_screen = r.frame_min.x < lo.x - 1 || top < lo.y - 1 || r.frame_max.x > hi.x + 1 || bottom > hi.y + 1;
          const bool off_panel = r.frame_min.x < r.clip_min.x - 1 || r.frame_max.x > r.clip_max.x + 1 ||
                                 (!r.window_scrolls && (r.frame_min.y < r.clip_min.y - 1 || r.frame_max.y > r.clip_max.y + 1));
          if (what == "plots-inside-window" && (off_screen || off_panel))
            fail(std::string(buf) + (off_screen ? ": runs off the screen" : ": runs off its panel (sideways, or it does not scroll)"));
        }
      } else {
        fail("unknown expectation '" + what + "'");
      }
    } else if (cmd == "screenshot") {
      in >> script_screenshot_;
      return true;
    } else if (cmd == "quit") {
      quit_ = true;
      return false;
    } else {
      fail("unknown command '" + cmd + "'");
    }
  }
  return false;
}

std::vector<std::string> read_script(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

}  // namespace cilab
