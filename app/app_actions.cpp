// App actions: every change of module, data or parameters goes through here.
// A failure keeps what the user had and shows the message.
#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "app/app.h"
#include "app/headless/cli.h"
#include "views/common/theme.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iostream>

namespace cilab {

std::future<std::shared_ptr<const Dataset>> load_async(std::shared_ptr<ProgressSink> sink,
                                                      std::function<std::shared_ptr<const Dataset>()> load) {
  return std::async(std::launch::async, [sink = std::move(sink), load = std::move(load)] {
    const ProgressScope scope(sink.get());
    return load();
  });
}

void App::show_error(const std::string& message) {
  error_ = message;
  error_time_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
  std::cerr << "cilab: " << message << "\n";
}

std::shared_ptr<const Dataset> App::target_data() const {
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it)
    if (it->reset) return it->data;
  return data_;
}

App::DataOrigin App::target_origin() const {
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it)
    if (it->reset) return it->origin;
  return data_origin_;
}

void App::post_reset(std::shared_ptr<const Dataset> data, const std::string& error_prefix, DataOrigin origin) {
  PendingEdit e;
  e.reset = true;
  e.data = data;
  e.error_prefix = error_prefix;
  e.origin = std::move(origin);
  e.ticket = runner_->reset(std::move(data), values_, seed_);
  pending_.push_back(std::move(e));
}

void App::restart() {
  post_reset(target_data(), "", target_origin());
  restart_b();  // comparing: B restarts with A (same data and seed, its own parameters)
}

void App::open_module(const std::string& name) {
  if (pending_module_ ? name == pending_module_->name : name == module_name_) return;
  restore_user_panels();  // a module opened by hand gets the user's layout back, and no preset's note
  preset_shown_.reset();
  preset_note_open_ = false;
  try {
    const std::unique_ptr<Module> probe = make_module(name);
    const ModuleInfo info = probe->info();
    auto pm = std::make_unique<PendingModule>();
    pm->name = name;
    pm->specs = probe->params();
    pm->values = default_values(pm->specs);
    pm->data = target_data();
    pm->origin = target_origin();
    pm->recipe.values = pm->values;
    pm->recipe.seed = seed_;
    pm->runner = std::make_unique<Runner>([name] { return make_module(name); });
    pm->runner->set_speed(runner_ ? runner_->speed() : 4.0);
    // Data that was only the previous module's default gives way to this module's
    // default; data the user chose is kept.
    pm->to_default = info.needs_dataset && (!pm->data || data_is_default_);
    if (pm->to_default) {
      const std::string spec = info.default_dataset;  // loads in the background, then resets
      pm->origin = {spec, ""};
      pm->data_load = load_async(pm->load_progress, [spec] { return make_dataset(spec); });
    } else {
      pm->ticket = pm->runner->replay_recipe(pm->data, pm->recipe);
    }
    if (pending_module_) {  // a newer choice replaces it; its worker ends without blocking this frame
      retired_runners_.push_back(std::move(pending_module_->runner));
      if (pending_module_->data_load.valid()) abandoned_loads_.push_back(std::move(pending_module_->data_load));
    }
    pending_module_ = std::move(pm);
    thin_leaving_history();
  } catch (const std::exception& e) {
    show_error(std::string("cannot open module ") + name + ": " + e.what());
  }
}

void App::thin_leaving_history() {
  if (runner_) runner_->set_history_budget(kLeavingHistoryBytes);
  if (compare_) compare_->runner->set_history_budget(kLeavingHistoryBytes);
  trim_when_history_within(kLeavingHistoryBytes);
}

void App::trim_when_history_within(size_t bytes) {
  pending_trim_.bytes = bytes;
  pending_trim_.frames_left = kTrimWaitFrames;
}

void App::restore_history_budget() {
  const size_t full = RunnerConfig{}.history_budget_bytes;
  if (runner_) runner_->set_history_budget(compare_ ? full / 2 : full);  // A and B share it (start_compare)
  if (compare_) compare_->runner->set_history_budget(full / 2);
}

void App::set_dataset(std::shared_ptr<const Dataset> data, DataOrigin origin) {
  post_reset(std::move(data), "kept the previous data: ", std::move(origin));
}

void App::change_param(const ParamSpec& spec, double value) {
  values_[spec.name] = value;
  if (spec.update == ParamUpdate::Live) {
    PendingEdit e;
    e.reset = false;
    e.live_name = spec.name;
    e.live_value = value;
    e.ticket = runner_->set_live(spec.name, value);
    pending_.push_back(std::move(e));
  } else {
    restart();
  }
}

void App::change_text(const ParamSpec& spec, const std::string& text) {
  auto it = values_.text.find(spec.name);
  if (it != values_.text.end() && it->second == text) return;
  values_.text[spec.name] = text;
  text_edit_[spec.name] = text;
  text_edit_dirty_[spec.name] = true;
  restart();  // on failure restart() restores values_ and shows the error; the box keeps the text
}

void App::sync_data_panel() {
  if (!data_) return;
  const std::vector<DatasetInfo>& infos = builtin_datasets();
  const std::string& src = data_->source;
  const std::string name = src.substr(0, src.find(':'));
  for (int i = 0; i < static_cast<int>(infos.size()); ++i) {
    if (infos[i].name != name && infos[i].name != data_->name) continue;
    builtin_index_ = i;
    builtin_options_ = dataset_option_values(infos[i], *data_);  // also Fashion-MNIST's split
    return;
  }
}

void App::start_load(std::string what, std::string recent_path, DataOrigin origin,
                     std::function<std::shared_ptr<const Dataset>()> load) {
  DataLoad l;
  l.what = std::move(what);
  l.recent_path = std::move(recent_path);
  l.origin = std::move(origin);
  l.result = load_async(l.progress, std::move(load));
  loads_.push_back(std::move(l));
}

void App::load_file(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(path, ec);
  // A ratings module (completion) reads the file as ratings: triplets, else a wide matrix.
  const LoadOptions opts = data_load_options(make_module(module_name_)->info(), "", true);
  start_load("loading " + std::filesystem::path(path).filename().string(), path, {"", ec ? path : abs.string()},
             [path, opts] { return cilab::load_file(path, opts); });
}

void App::load_builtin(const std::string& spec) {
  start_load("loading " + spec.substr(0, spec.find(':')), "", {spec, ""}, [spec] { return make_dataset(spec); });
}

bool App::edit_pending() const {
  return !pending_.empty() || pending_module_ || !loads_.empty() || (compare_ && !compare_->tickets.empty());
}

Progress App::pending_progress() const {
  if (!loads_.empty()) return loads_.back().progress->read();
  if (pending_module_) {
    const PendingModule& pm = *pending_module_;
    return pm.ticket == 0 ? pm.load_progress->read() : pm.runner->progress();
  }
  return runner_ ? runner_->progress() : Progress{};
}

std::string App::pending_label() const {
  if (!loads_.empty()) return loads_.back().what;
  if (pending_module_) return "opening " + pending_module_->name;
  for (const PendingEdit& e : pending_)
    if (e.reset) return "restarting";
  return "";  // live changes only: too short to announce
}

namespace {

template <class T>
bool ready(const std::future<T>& f) {
  return f.valid() && f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace

void App::poll_pending() {
  if (jobs_) jobs_->reap();  // joins the threads of ended background jobs (never waits)
  // Finished loads, in the order they were asked for: each posts a reset.
  while (!loads_.empty() && ready(loads_.front().result)) {
    DataLoad l = std::move(loads_.front());
    loads_.pop_front();
    try {
      set_dataset(l.result.get(), l.origin);
      if (!l.recent_path.empty()) {
        settings_.add_recent(l.recent_path);
        save_settings(settings_to_save());
      }
    } catch (const std::exception& e) {
      show_error(std::string(e.what()) + " (kept the previous data)");
    }
  }
  abandoned_loads_.erase(std::remove_if(abandoned_loads_.begin(), abandoned_loads_.end(),
                                        [](const auto& f) { return ready(f); }),
                         abandoned_loads_.end());
  const size_t retired = retired_runners_.size();
  retired_runners_.erase(std::remove_if(retired_runners_.begin(), retired_runners_.end(),
                                        [](const std::unique_ptr<Runner>& r) { return !r->busy(); }),
                         retired_runners_.end());
  // A run's history (up to the budget) and its module's data copies went with it:
  // hand the freed pages back to the system, or malloc keeps them (its arenas and
  // raised mmap threshold) and a long session's resident memory only grows.
  if (retired_runners_.size() < retired) malloc_trim(0);
  // A run that thinned its history (thin_leaving_history, start_compare): give the pages back.
  if (pending_trim_.frames_left > 0) {
    const bool thinned = (!runner_ || runner_->history_bytes() <= pending_trim_.bytes) &&
                         (!compare_ || compare_->runner->history_bytes() <= pending_trim_.bytes);
    if (thinned || --pending_trim_.frames_left == 0) {
      malloc_trim(0);
      pending_trim_ = {};
    }
  }

  // A module being opened: reset its runner once its data is there; swap on success.
  if (pending_module_) {
    PendingModule& pm = *pending_module_;
    bool drop = false;
    if (pm.ticket == 0 && ready(pm.data_load)) {
      try {
        pm.data = pm.data_load.get();
        pm.ticket = pm.runner->replay_recipe(pm.data, pm.recipe);
      } catch (const std::exception& e) {
        show_error("cannot open " + pm.name + ": " + e.what());
        restore_history_budget();
        drop = true;
      }
    }
    if (pm.ticket != 0 && pm.runner->done(pm.ticket)) {
      std::string error = "its reset gave no result";
      for (const CommandResult& r : pm.runner->take_frame().results)
        if (r.ticket == pm.ticket) error = r.ok ? "" : r.error;
      if (error.empty()) {
        runner_->pause();
        retired_runners_.push_back(std::move(runner_));
        runner_ = std::move(pm.runner);
        module_name_ = pm.name;
        specs_ = pm.specs;
        values_ = pm.values;
        seed_ = pm.recipe.seed;
        text_edit_.clear();
        text_edit_dirty_.clear();
        if (pm.data != data_) {
          data_ = pm.data;
          ++data_version_;
          sync_data_panel();
          if (data_ && !points_editable(*data_)) edit_points_ = false;
        }
        data_origin_ = pm.origin;
        if (pm.to_default) data_is_default_ = true;
        else if (pm.preset) data_is_default_ = false;  // the preset's data: kept when another module opens
        view_ = make_view(pm.name);
        ++plot_data_key_;
        ++landed_edits_;
        stop_compare();  // B ran the previous module (or state)
        pending_.clear();  // edits of the previous module's runner
        if (pm.preset) commit_preset(*pm.preset);
      } else {
        show_error("cannot open " + pm.name + ": " + error);
        restore_history_budget();  // the run shown stays: its budget too
      }
      drop = true;
    }
    if (drop) {
      if (pm.runner) retired_runners_.push_back(std::move(pm.runner));
      pending_module_.reset();
    }
  }

  // Results of the posted edits, read with the snapshot they belong to.
  RunnerFrame f = runner_->take_frame();
  for (const CommandResult& r : f.results) {
    auto it = std::find_if(pending_.begin(), pending_.end(), [&](const PendingEdit& e) { return e.ticket == r.ticket; });
    if (it == pending_.end()) continue;  // e.g. the start-up reset
    const PendingEdit e = *it;
    pending_.erase(it);
    if (r.ok) {
      ++landed_edits_;
      if (!e.reset) continue;
      if (e.data != data_) {
        data_ = e.data;
        data_origin_ = e.origin;
        data_is_default_ = false;  // chosen by the user: kept when another module opens
        ++data_version_;
        sync_data_panel();
        if (data_ && !points_editable(*data_)) edit_points_ = false;
        restart_b();  // B follows A onto the new data
      }
      if (view_) view_->on_reset();
      ++plot_data_key_;
      continue;
    }
    show_error(e.error_prefix + r.error);
    if (runner_->last_error() == r.error) runner_->clear_error();
    // Unless a newer reset is in flight, the panel goes back to what runs (plus
    // the live changes still queued behind this reset).
    if (std::none_of(pending_.begin(), pending_.end(), [](const PendingEdit& p) { return p.reset; })) {
      values_ = f.values;
      seed_ = runner_->seed();
      for (const PendingEdit& p : pending_) values_[p.live_name] = p.live_value;
    }
  }
  shown_ = f.snapshot;
  running_ = std::move(f.values);
  // Other failures (a step that threw); while edits are in flight their own results report.
  if (pending_.empty() && !runner_->last_error().empty()) {
    show_error(runner_->last_error());
    runner_->clear_error();
  }

  poll_compare();
  if (edit_pending() && !was_pending_) pending_since_ = std::chrono::steady_clock::now();
  was_pending_ = edit_pending();
}

namespace {

// "42 %" bar for a known fraction, `width` wide, on the current line.
void progress_bar(double fraction, float width) {
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.0f %%", 100.0 * fraction);
  ImGui::ProgressBar(static_cast<float>(fraction), ImVec2(width, ImGui::GetTextLineHeight()), pct);
}

// The spinning arc of "something is under way", radius r, centred at c.
void spinner(ImDrawList* dl, ImVec2 c, float r, ImU32 colour) {
  const float a0 = static_cast<float>(ImGui::GetTime()) * 6.0f;
  dl->PathArcTo(c, r, a0, a0 + 4.2f, 16);
  dl->PathStroke(colour, 0, std::max(1.5f, r * 0.35f));
}

}  // namespace

void App::draw_pending_status() {
  std::string label = pending_label();
  const Progress pr = pending_progress();
  // A burst after the module opened (a preset's iterations, B catching up) shows
  // once it has lasted a moment; short ones would only flicker.
  const auto now = std::chrono::steady_clock::now();
  if (label.empty()) {
    if (!pr.active()) {
      progress_since_.reset();
      return;
    }
    if (!progress_since_) progress_since_ = now;
    if (now - *progress_since_ < std::chrono::milliseconds(300)) return;
    label = "stepping";
  }
  const float fs = ImGui::GetFontSize();
  const float r = fs * 0.4f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  spinner(ImGui::GetWindowDrawList(), ImVec2(p.x + r + 1.0f, p.y + ImGui::GetTextLineHeight() * 0.5f + 1.0f), r,
          ImGui::GetColorU32(ImGuiCol_PlotLinesHovered));
  ImGui::Dummy(ImVec2(2.0f * r + 2.0f, ImGui::GetTextLineHeight()));
  ImGui::SameLine();
  const auto since = pending_label().empty() && progress_since_ ? *progress_since_ : pending_since_;
  const double secs = std::chrono::duration<double>(now - since).count();
  std::string text = label;
  if (pr.active()) text += ": " + pr.stage;
  ImGui::TextColored(colour_vec(colors().accent), "%s... %.1f s", text.c_str(), secs);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The window stays live: the previous run is shown until this finishes, and kept if it fails.");
  if (pr.fraction >= 0.0) {
    ImGui::SameLine();
    progress_bar(pr.fraction, fs * 6.0f);
  }
  ImGui::SameLine(0, fs * 1.5f);  // the rest of the status bar follows on this line
}

void App::draw_pending_overlay() {
  const std::string label = pending_label();
  if (label.empty()) return;
  const Progress pr = pending_progress();
  const ImVec2 wp = ImGui::GetWindowPos();
  const ImVec2 ws = ImGui::GetWindowSize();
  const float fs = ImGui::GetFontSize();
  const std::string text = label + "...";
  const std::string stage = pr.active() ? pr.stage : "";
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  const ImVec2 ss = ImGui::CalcTextSize(stage.c_str());
  const bool second = pr.active();  // a second line: the stage, and its bar when the fraction is known
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 box(std::max(ts.x, ss.x + (pr.fraction >= 0.0 ? fs * 7.0f : 0.0f)) + fs * 3.0f,
                   ts.y + fs * 1.2f + (second ? line : 0.0f));
  const ImVec2 a(wp.x + (ws.x - box.x) * 0.5f, wp.y + fs * 0.8f);
  const ImVec2 b(a.x + box.x, a.y + box.y);
  ImDrawList* dl = ImGui::GetForegroundDrawList();  // above the view's plot children
  dl->PushClipRect(wp, ImVec2(wp.x + ws.x, wp.y + ws.y), true);
  dl->AddRectFilled(ImVec2(wp.x, wp.y), ImVec2(wp.x + ws.x, wp.y + ws.y),
                    with_alpha(colors().window_bg, 90));
  dl->AddRectFilled(a, b, colors().overlay_bg, fs * 0.3f);
  dl->AddRect(a, b, colors().node_border, fs * 0.3f);
  const float r = fs * 0.45f;
  spinner(dl, ImVec2(a.x + fs * 1.2f, a.y + fs * 0.6f + ts.y * 0.5f), r, colors().accent);
  dl->AddText(ImVec2(a.x + fs * 2.2f, a.y + fs * 0.6f), colors().accent, text.c_str());
  if (second) {
    const ImVec2 sp(a.x + fs * 2.2f, a.y + fs * 0.6f + line);
    dl->AddText(sp, colors().text_dim, stage.c_str());
    if (pr.fraction >= 0.0) {  // the bar: track and fill
      const ImVec2 t0(sp.x + ss.x + fs * 0.6f, sp.y + ss.y * 0.2f);
      const ImVec2 t1(b.x - fs * 0.8f, sp.y + ss.y * 0.8f);
      dl->AddRectFilled(t0, t1, ImGui::GetColorU32(ImGuiCol_FrameBg), fs * 0.15f);
      dl->AddRectFilled(t0, ImVec2(t0.x + (t1.x - t0.x) * static_cast<float>(pr.fraction), t1.y), colors().accent,
                        fs * 0.15f);
      dl->AddRect(t0, t1, colors().node_border, fs * 0.15f);  // the track, visible on any theme
    }
  }
  dl->PopClipRect();
}

bool App::stage_param_intent(const ViewIntent& vi, bool side_b, bool restart_pending) {
  const ParamSpec* spec = find_param(specs_, vi.param);
  if (!spec || is_compound(*spec)) {
    show_error("the view asked for an unknown parameter '" + vi.param + "'");
    return false;
  }
  side_b = side_b && compare_;
  ParamValues& values = side_b ? compare_->values : values_;
  if (is_text_valued(*spec)) {
    values.text[spec->name] = vi.text;
    (side_b ? compare_->text_edit : text_edit_)[spec->name] = vi.text;
    (side_b ? compare_->text_dirty : text_edit_dirty_)[spec->name] = true;
    return true;
  }
  if (spec->update == ParamUpdate::Live && !restart_pending) {
    if (side_b) change_param_b(*spec, vi.value);
    else change_param(*spec, vi.value);
    return false;
  }
  values[spec->name] = vi.value;
  return true;
}

void App::apply_intents(std::vector<ViewIntent>& intents) {
  bool pending_restart = false;  // Rebuild changes of one frame restart once
  bool pending_load = false;     // ... or when a dataset it asked for has loaded
  for (ViewIntent& vi : intents) {
    try {
      switch (vi.kind) {
        case ViewIntent::Kind::SetParam:
          pending_restart |= stage_param_intent(vi, false, pending_restart);
          break;
        case ViewIntent::Kind::Seek:
          if (pending_restart) {
            // After a Rebuild change of this frame: the new run starts, then runs to the iteration.
            restart();
            pending_restart = false;
            each_run([&](Runner& r) { r.step_n(vi.iteration); });
          } else {
            each_run([&](Runner& r) { r.seek(vi.iteration); });
          }
          break;
        case ViewIntent::Kind::Module:
          runner_->apply(vi.intent);
          break;
        case ViewIntent::Kind::AddPoint:
          if (const std::shared_ptr<const Dataset> d = target_data())  // on top of pending edits
            set_dataset(with_point_added(*d, vi.x, vi.y, vi.label), {});
          break;
        case ViewIntent::Kind::SetDataset:
          load_builtin(vi.text);
          pending_load = true;
          break;
        case ViewIntent::Kind::RemovePoint:
          if (const std::shared_ptr<const Dataset> d = target_data(); d && d->rows() > 1) {
            const int row = nearest_point(*d, vi.x, vi.y);
            if (row >= 0) set_dataset(with_point_removed(*d, row), {});
          }
          break;
      }
    } catch (const std::exception& e) {
      show_error(e.what());
    }
  }
  intents.clear();
  if (pending_restart && !pending_load) restart();
}

void App::handle_shortcuts() {
  view_keys_.clear();
  const ImGuiIO& io = ImGui::GetIO();
  // Keys typed into a text field or a popup are theirs.
  const bool blocked = io.WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
  while (!key_queue_.empty()) {
    const KeyPress k = key_queue_.front();
    key_queue_.pop_front();
    if (anim_) {  // an animated export drives the runs: only Esc (cancel) counts
      if (k.key == GLFW_KEY_ESCAPE) end_animation_export("cancelled");
      continue;
    }
    if (!blocked) handle_key(k.key, k.mods, k.repeat);
    else if (k.key == GLFW_KEY_ESCAPE && !k.repeat && !io.WantTextInput) close_menus();
  }
}

// Esc closes the open menus and context menus (a plot's right-click menu, File, a combo):
// ImGui 1.86 does so only with keyboard navigation on, which would take the arrow keys and
// Space from the transport. A modal dialog and what opened under it stay (it has its buttons).
void App::close_menus() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  int keep = g.OpenPopupStack.Size;
  while (keep > 0) {
    const ImGuiWindow* w = g.OpenPopupStack[keep - 1].Window;
    if (w && (w->Flags & ImGuiWindowFlags_Modal)) break;
    --keep;
  }
  if (keep < g.OpenPopupStack.Size) ImGui::ClosePopupToLevel(keep, true);
}

// One key press (repeat: held down) in the order it came: five taps between
// two frames step five times.
void App::handle_key(int key, int mods, bool repeat) {
  if (mods & GLFW_MOD_CONTROL) {
    if (repeat) return;
    if (key == GLFW_KEY_O) browser_.open();
    if (key == GLFW_KEY_S) {
      save_kind_ = SaveKind::Session;
      save_session_request_ = true;
    }
    if (key == GLFW_KEY_Q) quit_ = true;
    if (key == GLFW_KEY_B) compare_ ? stop_compare() : start_compare();
    if (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD) {
      settings_.ui_scale = std::min(3.0f, settings_.ui_scale + 0.125f);
      scale_dirty_ = true;
    }
    if (key == GLFW_KEY_MINUS || key == GLFW_KEY_KP_SUBTRACT) {
      settings_.ui_scale = std::max(0.5f, settings_.ui_scale - 0.125f);
      scale_dirty_ = true;
    }
    return;
  }
  if (mods & (GLFW_MOD_ALT | GLFW_MOD_SUPER)) return;
  switch (key) {
    case GLFW_KEY_RIGHT: each_run([](Runner& r) { r.step(); }); return;  // these three repeat while held
    case GLFW_KEY_LEFT: each_run([](Runner& r) { r.back(); }); return;
    case GLFW_KEY_S: each_run([](Runner& r) { r.sub_step(); }); return;
    default: break;
  }
  if (repeat) return;
  switch (key) {
    case GLFW_KEY_SPACE: toggle_play_all(); break;
    case GLFW_KEY_R: restart(); break;
    case GLFW_KEY_M: {
      const bool slow = !runner_->play_sub_steps();
      each_run([slow](Runner& r) { r.set_play_sub_steps(slow); });
      break;
    }
    case GLFW_KEY_L: set_annotate(Annotate::Laser); break;
    case GLFW_KEY_P: set_annotate(Annotate::Pen); break;
    case GLFW_KEY_E: strokes_.clear(); break;
    case GLFW_KEY_F1: show_shortcuts_ = !show_shortcuts_; break;
    case GLFW_KEY_F2: note_expanded_ = !note_expanded_; break;    // the note whole / yielding to the view
    case GLFW_KEY_F3: strip_expanded_ = !strip_expanded_; break;  // the metrics strip likewise
    case GLFW_KEY_F11: toggle_presentation(); break;
    case GLFW_KEY_ESCAPE:
      if (presenting_) toggle_presentation();
      break;
    default: view_keys_.push_back(key); break;  // the module's own keys (gmm: K)
  }
}

}  // namespace cilab
