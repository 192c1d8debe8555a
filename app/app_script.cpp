// --script FILE: commands run between frames, for demos prepared in advance
// and for end-to-end tests of the real shell. One command per line, '#'
// starts a comment. Commands go through the same paths as the mouse and the
// keyboard (keys go into the app's key queue like GLFW's key events; `drop`
// is the drag-and-drop callback; `set` is the parameter panel's change).
// Edits (set, dataset, load, module, reset...) do not block the window: the
// next command waits, frame after frame, until they have landed - except the
// ones marked to run at once (wait, wait-file, expect restarting).
//
// The commands are the table script_commands() below (one small function of
// ScriptCommands each; the widget commands are in app_script_ui.cpp), and
// `expect WHAT` dispatches on script_expectations(); `cilab --script-help`
// prints both tables.
#include "app/app.h"

#include "algorithms/core/params.h"
#include "views/plot/plot.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
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
  if (name == "F2") return GLFW_KEY_F2;
  if (name == "F3") return GLFW_KEY_F3;
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

// Seconds since `since`, starting the clock on the first call (since = now).
double seconds_waited(std::chrono::steady_clock::time_point& since) {
  const auto now = std::chrono::steady_clock::now();
  if (since == std::chrono::steady_clock::time_point{}) since = now;
  return std::chrono::duration<double>(now - since).count();
}

const ScriptCommand* find_command(const std::vector<ScriptCommand>& table, const std::string& name) {
  for (const ScriptCommand& c : table)
    if (name == c.name) return &c;
  return nullptr;
}

std::string names_of(const std::vector<ScriptCommand>& table) {
  std::string out;
  for (const ScriptCommand& c : table) out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

}  // namespace

std::string ScriptLine::rest() {
  std::string r;
  std::getline(in >> std::ws, r);
  while (!r.empty() && (r.back() == ' ' || r.back() == '\r')) r.pop_back();
  return r;
}

// ---------------------------------------------------------------- waiting

ScriptFlow ScriptCommands::wait(App& a, ScriptLine& l) {
  int n = 1;
  l.in >> n;
  a.script_.wait = std::max(0, n - 1);
  return ScriptFlow::EndFrame;
}

ScriptFlow ScriptCommands::wait_file(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  if (std::filesystem::exists(path)) {
    a.script_.wait_since = {};
    return ScriptFlow::Next;
  }
  if (seconds_waited(a.script_.wait_since) > kWaitFileSeconds) {
    a.script_.wait_since = {};
    l.fail("waited " + std::to_string(static_cast<int>(kWaitFileSeconds)) + " s for " + path);
    return ScriptFlow::Next;
  }
  return ScriptFlow::Again;
}

ScriptFlow ScriptCommands::wait_text(App& a, ScriptLine& l) {
  const std::string text = l.rest();
  if (a.script_.captured_text.find(text) != std::string::npos) {
    a.script_.wait_since = {};
    return ScriptFlow::Next;
  }
  if (seconds_waited(a.script_.wait_since) > kWaitFileSeconds) {
    a.script_.wait_since = {};
    l.fail("waited " + std::to_string(static_cast<int>(kWaitFileSeconds)) + " s for the text '" + text +
           "'; drawn last:\n" + a.script_.captured_text);
    return ScriptFlow::Next;
  }
  return ScriptFlow::Again;
}

ScriptFlow ScriptCommands::plot_save(App& a, ScriptLine& l) {
  int scale = 1, index = -1;
  l.in >> scale >> index;
  const plot::PlotRect* rects = nullptr;
  const int n = plot::LastFramePlotRects(&rects);
  if (index < 0 || index >= n) {
    l.fail("plot-save: expected a plot index in [0, " + std::to_string(n) + ") (the last frame's plots), found " +
           std::to_string(index));
    return ScriptFlow::Next;
  }
  const std::string t = rects[index].title_id;
  plot::ExportRequest req;  // what the plot's menu item asks for (plot.cpp)
  req.min = rects[index].frame_min;
  req.max = rects[index].frame_max;
  req.scale = scale == 2 ? 2 : 1;
  req.name = t.substr(0, t.find("##"));
  for (char& ch : req.name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '-';
  if (req.name.empty()) req.name = "plot";
  a.request_plot_png(req);
  return ScriptFlow::EndFrame;
}

ScriptFlow ScriptCommands::idle(App& a, ScriptLine&) {
  a.runner_->wait_idle();
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::drain(App& a, ScriptLine&) {
  // Waits, drawing frame after frame (unlike idle), until a step burst or play has ended.
  return a.runner_->playing() || a.runner_->busy() ? ScriptFlow::Again : ScriptFlow::Next;
}

ScriptFlow ScriptCommands::settle(App& a, ScriptLine& l) {
  // Until nothing runs in the background: the runners (the compared one too) idle, no view
  // job running and no view holding pictures back (ModuleView::pictures_pending), for
  // kSettleQuietSeconds and kSettleQuietFrames in a row, so the pictures of the position
  // shown are drawn. What a script waits with for background work, never a number of frames.
  ScriptState& s = a.script_;
  const double waited = seconds_waited(s.wait_since);
  const auto now = std::chrono::steady_clock::now();
  const bool busy = a.runner_->playing() || a.runner_->busy() || a.edit_pending() ||
                    (a.compare_ && (a.compare_->runner->busy() || a.compare_->runner->playing())) ||
                    (a.jobs_ && a.jobs_->running() > 0) || (a.view_ && a.view_->pictures_pending()) ||
                    (a.compare_ && a.compare_->view && a.compare_->view->pictures_pending());
  if (busy || s.quiet_frames == 0) {
    s.quiet_since = now;
    s.quiet_frames = busy ? 0 : 1;
  } else {
    ++s.quiet_frames;
  }
  const bool quiet = s.quiet_frames > kSettleQuietFrames &&
                     std::chrono::duration<double>(now - s.quiet_since).count() >= kSettleQuietSeconds;
  const bool timed_out = waited > kSettleMaxSeconds;
  if (!quiet && !timed_out) return ScriptFlow::Again;
  s.wait_since = {};
  s.quiet_frames = 0;
  if (!quiet) l.fail("settle: still busy after 120 s (runner or a view's picture job)");
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::sweep_wait(App& a, ScriptLine& l) {
  return wait_for(a, l, a.sweep_.job.running(), "sweep-wait: the sweep");
}

ScriptFlow ScriptCommands::animation_wait(App& a, ScriptLine& l) {
  return wait_for(a, l, a.anim_ != nullptr, "animation-wait: the export");
}

ScriptFlow ScriptCommands::wait_for(App& a, ScriptLine& l, bool running, const char* what) {
  // Until the sweep's job, or the animated export, has ended (at most 120 s).
  if (!running) {
    a.script_.wait_since = {};
    return ScriptFlow::Next;
  }
  if (seconds_waited(a.script_.wait_since) > 2 * kWaitFileSeconds) {
    a.script_.wait_since = {};
    l.fail(std::string(what) + " still runs after 120 s");
    return ScriptFlow::Next;
  }
  return ScriptFlow::Again;
}

ScriptFlow ScriptCommands::progress(App& a, ScriptLine&) {
  // One stdout line for benches: the iteration shown and the seconds since the script started.
  const auto now = std::chrono::steady_clock::now();
  if (a.script_.start == std::chrono::steady_clock::time_point{}) a.script_.start = now;
  std::printf("progress iteration=%d seconds=%.6f last=%d history_bytes=%zu\n", a.runner_->current_iteration(),
              std::chrono::duration<double>(now - a.script_.start).count(), a.runner_->last_iteration(),
              a.runner_->history_bytes());
  std::fflush(stdout);
  return ScriptFlow::Next;
}

// ---------------------------------------------------------------- the run

ScriptFlow ScriptCommands::key(App& a, ScriptLine& l) {
  std::string name;
  l.in >> name;
  int mods = 0;
  if (name.rfind("Ctrl+", 0) == 0) {
    mods = GLFW_MOD_CONTROL;
    name = name.substr(5);
  }
  const int k = key_code(name);
  if (k < 0) {
    l.fail("unknown key '" + name + "'; known: Space Right Left F1 F2 F3 F11 Escape Equal Minus, letters A-Z, digits 0-9, Ctrl+NAME");
    return ScriptFlow::Next;
  }
  a.key_queue_.push_back(App::KeyPress{k, mods, false});
  return ScriptFlow::EndFrame;  // handled by this frame, like a GLFW key event
}

ScriptFlow ScriptCommands::step(App& a, ScriptLine& l) {
  int n = 1;
  l.in >> n;
  a.each_run([n](Runner& r) { r.step_n(n); });
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::substep(App& a, ScriptLine&) {
  a.each_run([](Runner& r) { r.sub_step(); });
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::back(App& a, ScriptLine&) {
  a.each_run([](Runner& r) { r.back(); });
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::seek(App& a, ScriptLine& l) {
  // seek N, or seek P% of the last iteration (the soak bench's scrubbing)
  double n = 0;
  l.in >> n;
  if (l.in.peek() == '%') n = n / 100.0 * a.runner_->last_iteration();
  const int it = static_cast<int>(std::clamp(n, 0.0, 2e9));
  a.each_run([it](Runner& r) { r.seek(it); });
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::play(App& a, ScriptLine&) {
  a.each_run([](Runner& r) { r.play(); });
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::pause(App& a, ScriptLine&) {
  a.each_run([](Runner& r) { r.pause(); });
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::reset(App& a, ScriptLine&) {
  a.restart();
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::set(App& a, ScriptLine& l) {
  std::string kv;
  l.in >> kv;
  const size_t eq = kv.find('=');
  const ParamSpec* spec = eq == std::string::npos ? nullptr : find_param(a.specs_, kv.substr(0, eq));
  if (!spec) {
    l.fail("set " + kv + ": unknown parameter of " + a.module_name_);
    return ScriptFlow::Next;
  }
  try {
    if (is_text_valued(*spec)) {
      // The rest of the line is the text (formulas may contain spaces).
      std::string rest;
      std::getline(l.in, rest);
      a.change_text(*spec, kv.substr(eq + 1) + rest);
    } else if (is_compound(*spec)) {
      ParamValues v = a.values_;
      apply_assignment(a.specs_, v, kv, a.module_name_);
      a.values_ = v;
      a.restart();
    } else {
      a.change_param(*spec, parse_value(*spec, kv.substr(eq + 1)));
    }
  } catch (const std::exception& e) {
    a.show_error(e.what());
  }
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::seed(App& a, ScriptLine& l) {
  unsigned long long s = 0;
  l.in >> s;
  a.seed_ = s;
  a.restart();
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::compare(App& a, ScriptLine& l) {
  std::string onoff;
  l.in >> onoff;
  if (onoff == "on") {
    a.runner_->wait_idle();  // deterministic scripts: B copies A after the steps asked before
    a.poll_pending();        // ... as this frame's snapshot shows them
    a.start_compare();
  } else if (onoff == "off") {
    a.stop_compare();
  } else {
    l.fail("compare: expected on or off, found '" + onoff + "'");
  }
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::set_b(App& a, ScriptLine& l) {
  std::string kv;
  l.in >> kv;
  const size_t eq = kv.find('=');
  const ParamSpec* spec = eq == std::string::npos ? nullptr : find_param(a.specs_, kv.substr(0, eq));
  if (!a.compare_ || !spec || is_compound(*spec) || is_text_valued(*spec)) {
    l.fail("set-b " + kv + ": " + (a.compare_ ? "unknown or non-numeric parameter of " + a.module_name_
                                              : std::string("no comparison (compare on)")));
    return ScriptFlow::Next;
  }
  try {
    a.change_param_b(*spec, parse_value(*spec, kv.substr(eq + 1)));
  } catch (const std::exception& e) {
    a.show_error(e.what());
  }
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::intent(App& a, ScriptLine& l) {
  ViewIntent vi;
  l.in >> vi.intent.kind >> vi.intent.index;
  for (double v; l.in >> v;) vi.intent.values.push_back(v);
  std::vector<ViewIntent> intents = {vi};
  a.apply_intents(intents);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::point(App& a, ScriptLine& l, bool add) {
  ViewIntent vi;
  vi.kind = add ? ViewIntent::Kind::AddPoint : ViewIntent::Kind::RemovePoint;
  l.in >> vi.x >> vi.y;
  std::vector<ViewIntent> intents = {vi};
  a.apply_intents(intents);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::add_point(App& a, ScriptLine& l) { return point(a, l, true); }
ScriptFlow ScriptCommands::remove_point(App& a, ScriptLine& l) { return point(a, l, false); }

ScriptFlow ScriptCommands::pen_stroke(App& a, ScriptLine& l) {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  l.in >> x0 >> y0 >> x1 >> y1;
  std::vector<ImVec2> st;
  for (int k = 0; k <= 20; ++k) st.emplace_back(x0 + (x1 - x0) * k / 20.0f, y0 + (y1 - y0) * k / 20.0f);
  a.strokes_.push_back(std::move(st));
  return ScriptFlow::Next;
}

// ---------------------------------------------------------------- data, modules, files

ScriptFlow ScriptCommands::dataset(App& a, ScriptLine& l) {
  std::string spec;
  l.in >> spec;
  a.load_builtin(spec);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::load(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  a.load_file(path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::drop(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  a.on_drop(path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::module(App& a, ScriptLine& l) {
  std::string name;
  l.in >> name;
  a.open_module(name);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::preset(App& a, ScriptLine& l) {
  std::string name;
  l.in >> name;
  const LabFile* p = find_preset(a.presets_, name);
  int at = -1;  // preset NAME N: at iteration min(N, the preset's) (layout tests of heavy presets)
  l.in >> at;
  if (!p) {
    l.fail("no preset called '" + name + "'");
  } else if (at >= 0 && !p->session && p->edits.empty()) {
    LabFile early = *p;
    early.iteration = std::min(early.iteration, at);
    a.open_preset(early);
  } else {
    a.open_preset(*p);
  }
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::sweep(App& a, ScriptLine& l) {
  std::string mode;
  l.in >> a.sweep_.param >> a.sweep_.lo >> a.sweep_.hi >> mode >> a.sweep_.n >> a.sweep_.seeds >> a.sweep_.steps;
  a.sweep_.log = mode == "log";
  a.sweep_.open = true;
  a.sweep_.reset_range = false;
  a.start_sweep();
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::open_sweep_run(App& a, ScriptLine& l) {
  size_t r = 0;
  l.in >> r;
  std::vector<SweepRow> rows;
  if (a.sweep_.results) {
    std::lock_guard<std::mutex> lk(a.sweep_.results->mu);
    rows = a.sweep_.results->rows;
  }
  if (r >= rows.size()) l.fail("open-sweep-run: no run " + std::to_string(r) + " yet");
  else a.open_sweep_run(rows[r]);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::save_session(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  a.save_session(path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::export_metrics(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  a.export_metrics_csv(path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::export_data(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  a.export_data_csv(path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::export_vectors(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  a.export_word_vectors(path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::export_weights(App& a, ScriptLine& l) {
  std::string path;
  std::getline(l.in >> std::ws, path);
  a.export_weights(path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::export_png(App& a, ScriptLine& l) {
  l.in >> a.png_scale_;
  std::getline(l.in >> std::ws, a.png_export_path_);
  a.png_export_delay_ = 1;
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::export_animation(App& a, ScriptLine& l) {
  // export-animation FROM TO EVERY gif|png PATH [window] [2x]
  int from = 0, to = 0, every = 1;
  std::string format, path, opt;
  l.in >> from >> to >> every >> format >> path;
  bool window = false;
  int scale = 1;
  while (l.in >> opt) {
    if (opt == "window") window = true;
    else if (opt == "2x") scale = 2;
  }
  if (format != "gif" && format != "png") {
    l.fail("export-animation: expected gif or png, found '" + format + "'");
    return ScriptFlow::Next;
  }
  a.start_animation_export(from, to, every, format == "gif", window, scale, 100, path);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::screenshot(App& a, ScriptLine& l) {
  l.in >> a.script_.screenshot;
  return ScriptFlow::EndFrame;
}

ScriptFlow ScriptCommands::quit(App& a, ScriptLine&) {
  a.quit_ = true;
  return ScriptFlow::Quit;
}

// ---------------------------------------------------------------- expectations

ScriptFlow ScriptCommands::expect(App& a, ScriptLine& l) {
  std::string what;
  l.in >> what;
  const ScriptCommand* e = find_command(script_expectations(), what);
  if (!e) {
    l.fail("unknown expectation '" + what + "'; known: " + names_of(script_expectations()));
    return ScriptFlow::Next;
  }
  if (e->waits_for_runs) a.each_run([](Runner& r) { r.wait_idle(); });
  return e->run(a, l);
}

ScriptFlow ScriptCommands::expect_restarting(App& a, ScriptLine& l) {
  if (!a.edit_pending()) l.fail("expected an edit under way (restarting), found none");
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_iteration(App& a, ScriptLine& l) {
  int n = -1;
  l.in >> n;
  const std::shared_ptr<const Snapshot> now = a.runner_->latest();
  if (!now || now->iteration != n)
    l.fail("expected iteration " + std::to_string(n) + ", found " +
           (now ? std::to_string(now->iteration) : std::string("none")));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_status(App& a, ScriptLine& l) {
  std::string name;
  l.in >> name;
  const std::shared_ptr<const Snapshot> now = a.runner_->latest();
  if (!now || name != status_name(now->status))
    l.fail("expected status " + name + ", found " + (now ? status_name(now->status) : "none"));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_rows(App& a, ScriptLine& l) {
  int n = -1;
  l.in >> n;
  if (!a.data_ || a.data_->rows() != n)
    l.fail("expected " + std::to_string(n) + " rows, found " +
           (a.data_ ? std::to_string(a.data_->rows()) : "no data"));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_dataset(App& a, ScriptLine& l) {
  // The loaded data's name (a text corpus has no rows).
  std::string name;
  std::getline(l.in >> std::ws, name);
  if (!a.data_ || a.data_->name != name)
    l.fail("expected dataset '" + name + "', found " + (a.data_ ? "'" + a.data_->name + "'" : std::string("no data")));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_annotations(App& a, ScriptLine& l) {
  size_t n = 0;
  l.in >> n;
  if (a.strokes_.size() != n)
    l.fail("expected " + std::to_string(n) + " pen strokes, found " + std::to_string(a.strokes_.size()));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_sweep_rows(App& a, ScriptLine& l) {
  // Runs the sweep has finished (failed ones included).
  size_t n = 0, have = 0;
  l.in >> n;
  if (a.sweep_.results) {
    std::lock_guard<std::mutex> lk(a.sweep_.results->mu);
    have = a.sweep_.results->rows.size();
    for (const SweepRow& r : a.sweep_.results->rows)
      if (!r.error.empty()) l.fail("sweep run failed: " + r.error);
  }
  if (have != n) l.fail("expected " + std::to_string(n) + " sweep runs, found " + std::to_string(have));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_module(App& a, ScriptLine& l) {
  std::string name;
  l.in >> name;
  if (name != a.module_name_) l.fail("expected module " + name + ", found " + a.module_name_);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_error(App& a, ScriptLine& l) {
  if (a.error_.empty()) l.fail("expected an error message, found none");
  a.error_.clear();
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_no_error(App& a, ScriptLine& l) {
  if (!a.error_.empty()) l.fail("expected no error, found: " + a.error_);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_b_iteration(App& a, ScriptLine& l) {
  // Run B's shown iteration (A/B compare).
  int n = -1;
  l.in >> n;
  const std::shared_ptr<const Snapshot> b = a.compare_ ? a.compare_->runner->latest() : nullptr;
  if (!b || b->iteration != n)
    l.fail("expected run B at iteration " + std::to_string(n) + ", found " +
           (b ? std::to_string(b->iteration) : std::string(a.compare_ ? "none" : "no comparison")));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::param(App& a, ScriptLine& l, bool b) {
  std::string kv;
  l.in >> kv;
  const size_t eq = kv.find('=');
  const ParamSpec* spec = eq == std::string::npos ? nullptr : find_param(a.specs_, kv.substr(0, eq));
  if (b && !a.compare_) {
    l.fail("expect b-param: no comparison (Run > Compare A/B)");
    return ScriptFlow::Next;
  }
  const ParamValues running = (b ? a.compare_->runner : a.runner_)->values();
  if (spec && is_text_valued(*spec)) {  // Text and IntList values travel as text
    auto t = running.text.find(spec->name);
    const std::string have = t == running.text.end() ? std::string("no value") : t->second;
    if (have != kv.substr(eq + 1)) l.fail("expected " + kv + ", found " + have);
  } else {
    auto it = spec ? running.find(spec->name) : running.end();
    if (!spec || it == running.end() || format_value(*spec, it->second) != kv.substr(eq + 1))
      l.fail("expected " + kv + ", found " +
             (spec && it != running.end() ? format_value(*spec, it->second) : std::string("no such parameter")));
  }
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_param(App& a, ScriptLine& l) { return param(a, l, false); }
ScriptFlow ScriptCommands::expect_b_param(App& a, ScriptLine& l) { return param(a, l, true); }

ScriptFlow ScriptCommands::plots(App& a, ScriptLine& l, PlotCheck check) {
  // Layout of the last frame's plots (plot::LastFramePlotRects): every chart's plot area at
  // least N px tall (or wide), or every plot inside the part of the window the screen shows (and
  // inside its panel unless that panel scrolls).
  const bool min_height = check == PlotCheck::MinHeight, min_width = check == PlotCheck::MinWidth;
  float min_h = 0.0f;
  l.in >> min_h;
  int wx = 0, wy = 0;
  glfwGetWindowPos(a.window_, &wx, &wy);
  ImVec2 lo(0, 0), hi = ImGui::GetIO().DisplaySize;
  if (const GLFWvidmode* vm = glfwGetVideoMode(glfwGetPrimaryMonitor())) {
    lo = ImVec2(std::max(0.0f, static_cast<float>(-wx)), std::max(0.0f, static_cast<float>(-wy)));
    hi = ImVec2(std::min(hi.x, static_cast<float>(vm->width - wx)), std::min(hi.y, static_cast<float>(vm->height - wy)));
  }
  const plot::PlotRect* rects = nullptr;
  const int n = plot::LastFramePlotRects(&rects);
  if (n == 0) l.fail("expected plots in the last frame, found none");
  for (int i = 0; i < n; ++i) {
    const plot::PlotRect& r = rects[i];
    char buf[320];
    std::snprintf(buf, sizeof buf, "plot '%s': frame (%.0f, %.0f)-(%.0f, %.0f), area %.0f x %.0f px, panel (%.0f, %.0f)-(%.0f, %.0f)%s, screen (%.0f, %.0f)-(%.0f, %.0f)",
                  r.title_id, r.frame_min.x, r.frame_min.y, r.frame_max.x, r.frame_max.y, r.area_max.x - r.area_min.x,
                  r.area_max.y - r.area_min.y, r.clip_min.x, r.clip_min.y, r.clip_max.x, r.clip_max.y,
                  r.window_scrolls ? " (scrolls)" : "", lo.x, lo.y, hi.x, hi.y);
    // (image tiles - eigen-images, thumbnails, drawn canvas-only - are pictures, not charts)
    if (min_height && !r.canvas && r.area_max.y - r.area_min.y < min_h)
      l.fail(std::string(buf) + ": shorter than " + std::to_string(static_cast<int>(min_h)) + " px");
    if (min_width && !r.canvas && r.area_max.x - r.area_min.x < min_h)
      l.fail(std::string(buf) + ": narrower than " + std::to_string(static_cast<int>(min_h)) + " px");
    // In a panel that scrolls vertically the plot may lie partly below or above it (scroll to
    // it); what shows is the part inside the panel, and that must be on screen.
    const float top = r.window_scrolls ? std::max(r.frame_min.y, r.clip_min.y) : r.frame_min.y;
    const float bottom = r.window_scrolls ? std::min(r.frame_max.y, r.clip_max.y) : r.frame_max.y;
    const bool off_screen = r.frame_min.x < lo.x - 1 || top < lo.y - 1 || r.frame_max.x > hi.x + 1 || bottom > hi.y + 1;
    const bool off_panel = r.frame_min.x < r.clip_min.x - 1 || r.frame_max.x > r.clip_max.x + 1 ||
                           (!r.window_scrolls && (r.frame_min.y < r.clip_min.y - 1 || r.frame_max.y > r.clip_max.y + 1));
    if (check == PlotCheck::LegendsShown && r.legend_tab)
      l.fail(std::string(buf) + ": its legend is hidden behind the \"key\" tab (too big for the plot)");
    if (check == PlotCheck::Inside && (off_screen || off_panel))
      l.fail(std::string(buf) + (off_screen ? ": runs off the screen" : ": runs off its panel (sideways, or it does not scroll)"));
  }
  return ScriptFlow::Next;
}

// The plots of the last frame whose label id contains `title` (plot::LastFramePlotRects).
static std::vector<plot::PlotRect> plots_titled(const std::string& title) {
  const plot::PlotRect* rects = nullptr;
  const int n = plot::LastFramePlotRects(&rects);
  std::vector<plot::PlotRect> out;
  for (int i = 0; i < n; ++i)
    if (std::string(rects[i].title_id).find(title) != std::string::npos) out.push_back(rects[i]);
  return out;
}

static std::string describe_plot(const plot::PlotRect& r) {
  char buf[320];
  std::snprintf(buf, sizeof buf, "plot '%s' x %.9g %.9g y %.9g %.9g zoomed %d edge-marks %d", r.title_id, r.limits.x_min,
                r.limits.x_max, r.limits.y_min, r.limits.y_max, r.user_view ? 1 : 0, r.edge_marks);
  return buf;
}

ScriptFlow ScriptCommands::plot_limits(App&, ScriptLine& l) {
  // One stdout line per plot of the last frame whose title holds TITLE: its view (tests compare them).
  const std::string title = l.rest();
  const std::vector<plot::PlotRect> found = plots_titled(title);
  if (found.empty()) l.fail("no plot titled '" + title + "' in the last frame");
  for (const plot::PlotRect& r : found) std::printf("%s\n", describe_plot(r).c_str());
  std::fflush(stdout);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::plot_zoom(App&, ScriptLine& l) {
  // plot-zoom FACTOR TITLE: the first plot titled TITLE shows 1/FACTOR of its view about the centre,
  // as the wheel zooms it (the plot then keeps the user's view).
  double factor = 0.0;
  l.in >> factor;
  const std::string title = l.rest();
  const std::vector<plot::PlotRect> found = plots_titled(title);
  if (found.empty() || !(factor > 0.0) || !std::isfinite(factor)) {
    l.fail(found.empty() ? "no plot titled '" + title + "' in the last frame" : "plot-zoom: FACTOR must be a positive number");
    return ScriptFlow::Next;
  }
  const plot::PlotRect& r = found.front();
  plot::SavedViews::View v;
  v.id = r.id;
  const double cx = 0.5 * (r.limits.x_min + r.limits.x_max), hx = 0.5 * (r.limits.x_max - r.limits.x_min) / factor;
  const double cy = 0.5 * (r.limits.y_min + r.limits.y_max), hy = 0.5 * (r.limits.y_max - r.limits.y_min) / factor;
  v.x_min = cx - hx;
  v.x_max = cx + hx;
  v.y_min = cy - hy;
  v.y_max = cy + hy;
  v.user_view = true;
  if (!plot::RestoreView(v)) l.fail("plot-zoom: the plot titled '" + title + "' drew for another run");
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_plot(App&, ScriptLine& l) {
  // expect plot WHAT OP V TITLE: WHAT x-min|x-max|y-min|y-max|edge-marks|zoomed|count, OP < > =.
  std::string what, op;
  double v = 0.0;
  l.in >> what >> op >> v;
  const std::string title = l.rest();
  const std::vector<plot::PlotRect> found = plots_titled(title);
  const auto holds = [&](double have) {
    return op == "<" ? have < v : op == ">" ? have > v : std::fabs(have - v) <= 1e-9 * std::max(1.0, std::fabs(v));
  };
  if (what == "count" && (op == "<" || op == ">" || op == "=")) {  // how many plots hold TITLE (0: none drawn)
    if (!holds(static_cast<double>(found.size())))
      l.fail("expected count " + op + " " + std::to_string(v) + ": " + std::to_string(found.size()) + " plots titled '" +
             title + "' in the last frame");
    return ScriptFlow::Next;
  }
  if (found.empty() || !(op == "<" || op == ">" || op == "=")) {
    l.fail(found.empty() ? "no plot titled '" + title + "' in the last frame" : "expect plot: OP is <, > or =");
    return ScriptFlow::Next;
  }
  const plot::PlotRect& r = found.front();
  double have = NAN;
  if (what == "x-min") have = r.limits.x_min;
  else if (what == "x-max") have = r.limits.x_max;
  else if (what == "y-min") have = r.limits.y_min;
  else if (what == "y-max") have = r.limits.y_max;
  else if (what == "edge-marks") have = r.edge_marks;
  else if (what == "zoomed") have = r.user_view ? 1 : 0;
  else {
    l.fail("expect plot: WHAT is x-min, x-max, y-min, y-max, edge-marks, zoomed or count, not '" + what + "'");
    return ScriptFlow::Next;
  }
  if (!holds(have)) l.fail("expected " + what + " " + op + " " + std::to_string(v) + ": " + describe_plot(r));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_plots_min_height(App& a, ScriptLine& l) { return plots(a, l, PlotCheck::MinHeight); }
ScriptFlow ScriptCommands::expect_plots_min_width(App& a, ScriptLine& l) { return plots(a, l, PlotCheck::MinWidth); }
ScriptFlow ScriptCommands::expect_plots_inside_window(App& a, ScriptLine& l) { return plots(a, l, PlotCheck::Inside); }
ScriptFlow ScriptCommands::expect_plots_legends_shown(App& a, ScriptLine& l) { return plots(a, l, PlotCheck::LegendsShown); }

// ---------------------------------------------------------------- the tables

const std::vector<ScriptCommand>& script_commands() {
  using C = ScriptCommands;
  static const std::vector<ScriptCommand> kCommands = {
      {"wait", "N", "draw N frames", C::wait, true},
      {"wait-file", "PATH", "draw frames until PATH exists (at most 60 s; tests with real input)", C::wait_file, true},
      {"wait-text", "TEXT", "draw frames until the main window draws TEXT (at most 60 s; e.g. a stage of a load)",
       C::wait_text, true},
      {"screenshot-now", "PATH", "save the next frame as PNG at once, even while an edit is landing", C::screenshot,
       true},
      {"idle", "", "block until the runner has applied every command", C::idle},
      {"drain", "", "draw frames until a step burst or play has ended", C::drain},
      {"settle", "", "draw frames until nothing runs in the background (runners, view jobs; at most 120 s)",
       C::settle},
      {"progress", "", "print \"progress iteration=I seconds=T last=L history_bytes=B\" (benches)", C::progress},
      {"plot-limits", "TITLE", "print \"plot 'ID' x MIN MAX y MIN MAX zoomed 0|1 edge-marks N\" for the plots titled TITLE",
       C::plot_limits},
      {"plot-zoom", "FACTOR TITLE", "zoom the first plot titled TITLE by FACTOR about its centre, as the wheel does",
       C::plot_zoom},
      {"key", "NAME", "press a key: Space Right Left F1 F2 F3 F11 Escape Equal Minus, a letter or digit; Ctrl+NAME",
       C::key},
      {"step", "[N]", "N steps (default 1)", C::step},
      {"substep", "", "one sub-step", C::substep},
      {"back", "", "one step back", C::back},
      {"seek", "N | P%", "show iteration N, or P % of the last one", C::seek},
      {"play", "", "play", C::play},
      {"pause", "", "pause", C::pause},
      {"reset", "", "restart the run from iteration 0", C::reset},
      {"set", "KEY=VALUE", "set a parameter, as the panel does (text parameters take the rest of the line)", C::set},
      {"seed", "N", "set the seed and restart", C::seed},
      {"compare", "on|off", "Run > Compare A/B", C::compare},
      {"set-b", "KEY=VALUE", "set run B's parameter (numbers and choices)", C::set_b},
      {"intent", "KIND INDEX [V...]", "an edit, as a view would send it", C::intent},
      {"add-point", "X Y", "add a point (data units), as a Shift+click", C::add_point},
      {"remove-point", "X Y", "remove the point nearest (X, Y)", C::remove_point},
      {"pen-stroke", "X0 Y0 X1 Y1", "a pen stroke (screen pixels), as a drag with the pen (key P)", C::pen_stroke},
      {"dataset", "SPEC", "load a built-in dataset", C::dataset},
      {"load", "PATH", "open a data file, as File > Open", C::load},
      {"drop", "PATH", "drop a file on the window", C::drop},
      {"module", "NAME", "open a module", C::module},
      {"preset", "NAME [N]", "open a preset, as the Presets menu does (N: at iteration N if it opens later)", C::preset},
      {"sweep", "PARAM LO HI lin|log N SEEDS STEPS", "Run > Sweep, started (a choice: LO HI ignored)", C::sweep},
      {"sweep-wait", "", "draw frames until the sweep has ended", C::sweep_wait},
      {"open-sweep-run", "ROW", "open run ROW of the sweep (as a click on its point)", C::open_sweep_run},
      {"save-session", "PATH", "File > Save session", C::save_session},
      {"export-metrics", "PATH", "File > Export, the metrics (CSV)", C::export_metrics},
      {"export-data", "PATH", "File > Export, the data (CSV)", C::export_data},
      {"export-vectors", "PATH", "File > Export, the word vectors (word2vec text format; word2vec, glove)",
       C::export_vectors},
      {"export-weights", "PATH", "File > Export, the weights (.npz, PyTorch state_dict names; mlp, cnn, autoencoder, vae, gan)",
       C::export_weights},
      {"export-png", "SCALE PATH", "File > Export > the window as PNG, at 1x or 2x", C::export_png},
      {"plot-save", "SCALE INDEX", "plot INDEX's (drawing order) right-click menu > Save as PNG at SCALE 1|2",
       C::plot_save},
      {"export-animation", "FROM TO EVERY gif|png PATH [window] [2x]", "File > Export > Animation",
       C::export_animation},
      {"animation-wait", "", "draw frames until the animated export has ended", C::animation_wait},
      {"click", "TARGET [ctrl]", "move the mouse to a named widget and click it (3 frames)", C::click},
      {"type", "TEXT [enter|escape]", "type TEXT (one frame), then optionally press Enter or Escape", C::type},
      {"scale", "S", "set the UI scale, as View > UI scale does", C::scale},
      {"theme", "NAME", "set the theme, as the View menu does", C::theme},
      {"palette", "NAME", "set the palette, as the View menu does", C::palette},
      {"expect", "WHAT ...", "check what the lab shows (the expectations below; a failure: exit status 1)",
       C::expect},
      {"screenshot", "PATH", "save the next frame as PNG", C::screenshot},
      {"quit", "", "close the lab", C::quit},
  };
  return kCommands;
}

const std::vector<ScriptCommand>& script_expectations() {
  using C = ScriptCommands;
  // waits_for_runs: the runners apply every command first (the shown state is then final).
  static const std::vector<ScriptCommand> kExpectations = {
      {"restarting", "", "an edit (load, reset, module switch) is still under way", C::expect_restarting, true},
      {"iteration", "N", "the shown iteration", C::expect_iteration, false, true},
      {"status", "NAME", "the shown status (running, converged, ...)", C::expect_status, false, true},
      {"rows", "N", "the data's rows", C::expect_rows, false, true},
      {"dataset", "NAME", "the loaded data's name (a text corpus has no rows)", C::expect_dataset, false, true},
      {"module", "NAME", "the open module", C::expect_module, false, true},
      {"error", "", "an error message is shown (and clears it)", C::expect_error, false, true},
      {"no-error", "", "no error message is shown", C::expect_no_error, false, true},
      {"param", "KEY=VALUE", "the running value of a parameter", C::expect_param, false, true},
      {"b-iteration", "N", "run B's shown iteration (A/B compare)", C::expect_b_iteration, false, true},
      {"b-param", "KEY=VALUE", "run B's running value of a parameter", C::expect_b_param, false, true},
      {"annotations", "N", "N pen strokes on screen", C::expect_annotations, false, true},
      {"sweep-rows", "N", "runs the sweep has finished (failed ones included)", C::expect_sweep_rows, false, true},
      {"plots-min-height", "N", "every chart of the last frame has a plot area at least N px tall",
       C::expect_plots_min_height, false, true},
      {"plots-min-width", "N", "every chart of the last frame has a plot area at least N px wide",
       C::expect_plots_min_width, false, true},
      {"plots-inside-window", "", "every plot of the last frame lies on screen and inside its panel",
       C::expect_plots_inside_window, false, true},
      {"plots-legends-shown", "", "no plot of the last frame hides its legend behind a \"key\" tab (a legend too big "
       "for its plot)", C::expect_plots_legends_shown, false, true},
      {"text-inside-panels", "", "no window or panel of the last frame has an item (a line of text) running past its "
       "right edge where it cannot scroll sideways", C::expect_text_inside_panels, false, true},
      {"plot", "WHAT OP V TITLE", "the first plot whose title holds TITLE: WHAT (x-min x-max y-min y-max edge-marks "
       "zoomed; count: how many plots hold TITLE) OP (< > =) V", C::expect_plot},
      {"text", "TEXT", "TEXT was drawn in the main window in the last frame", C::expect_text},
      {"unmoved", "TARGET", "the widget is where it was when the script clicked it (nothing shifted)",
       C::expect_unmoved},
      {"no-text", "TEXT", "TEXT was not drawn in the main window in the last frame", C::expect_no_text},
      {"seed", "N", "the seed of the run", C::expect_seed},
      {"metric", "NAME V | NAME < V | NAME > V", "the shown metric equals V (relative 1e-9), or a bound",
       C::expect_metric},
      {"dialog-folder", "PATH", "the file dialog is open and lists the folder PATH", C::expect_dialog_folder},
      {"menus", "open|closed", "a menu, context menu or popup is open (or none is)", C::expect_menus},
  };
  return kExpectations;
}

std::string script_help() {
  auto row = [](const std::string& head, const ScriptCommand& c) {
    std::string left = "  " + head + c.name + (c.usage[0] ? std::string(" ") + c.usage : std::string());
    if (left.size() < 34) left.resize(34, ' ');
    else left += "  ";
    return left + c.help + "\n";
  };
  std::string out = "cilab --script FILE: one command per line, # starts a comment. A command waits, frame after\n"
                    "frame, until the edits before it have landed (except wait, wait-file, expect restarting).\n\n"
                    "Commands:\n";
  for (const ScriptCommand& c : script_commands()) out += row("", c);
  out += "\nExpectations (expect WHAT ...):\n";
  for (const ScriptCommand& c : script_expectations()) out += row("expect ", c);
  out += "\nClick targets: seed, builtin-combo, dataset:NAME, option:NAME, option:NAME=CHOICE,\n"
         "param:NAME:slider|-|+, menu:View, menu:View/Reset layout (a popup's items exist once it\n"
         "has been open for a frame: wait 1 first).\n";
  return out;
}

// ---------------------------------------------------------------- the engine

bool App::run_script_line() {
  if (apply_script_input()) return true;  // a click or typing in progress (app_script_ui.cpp)
  ScriptState& s = script_;
  if (s.wait > 0) {
    --s.wait;
    return true;
  }
  while (s.running()) {
    const size_t line_no = s.pos + 1;
    std::istringstream in(s.lines[s.pos]);
    std::string cmd;
    if (!(in >> cmd) || cmd[0] == '#') {
      ++s.pos;
      continue;
    }
    const ScriptCommand* c = find_command(script_commands(), cmd);
    {
      // Deterministic scripts: a command waits (the window keeps drawing) until the edits
      // before it have landed, unless it runs at once (wait, wait-file, expect restarting).
      bool at_once = c && c->runs_at_once;
      if (c && c->run == &ScriptCommands::expect) {
        std::istringstream peek(s.lines[s.pos]);
        std::string word, what;
        peek >> word >> what;
        const ScriptCommand* e = find_command(script_expectations(), what);
        at_once = e && e->runs_at_once;
      }
      if (!at_once && edit_pending()) return true;
    }
    ++s.pos;
    const std::function<void(const std::string&)> fail = [&](const std::string& what) {
      ++s.failures;
      std::cerr << "cilab: script line " << line_no << ": " << what << "\n";
    };
    if (!c) {
      fail("unknown command '" + cmd + "'; known: " + names_of(script_commands()));
      continue;
    }
    ScriptLine line{in, fail};
    switch (c->run(*this, line)) {
      case ScriptFlow::Next:
        if (!s.input.empty() || s.wait > 0) return true;  // input planned (click, type) or a wait
        continue;
      case ScriptFlow::EndFrame:
        return true;
      case ScriptFlow::Again:
        --s.pos;  // this line again at the next frame
        return true;
      case ScriptFlow::Quit:
        return false;
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
