// The shell's panels: menu, transport, sidebar (modules, data, parameters),
// centre view, metrics strip, status bar. Pure ImGui; the module's own
// drawing is its ModuleView, the metric curves are views/metrics_view.
#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "algorithms/text/embedding.h"
#include "app/app.h"
#include "views/common/metrics_view.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>

namespace cilab {
namespace {

// Classes a user can draw (the label palette has 10 colours).
constexpr int kMaxDrawnClasses = 10;
// Most lines the module list shows before it scrolls.
constexpr float kBrowserMaxLines = 9.0f;

std::string param_tooltip(const ParamSpec& s) {
  std::ostringstream os;
  os << s.help;
  if (!s.formula.empty()) os << "\n\n" << s.formula;
  if (s.type == ParamType::Choice && !s.choice_help.empty()) {
    os << "\n";
    for (size_t i = 0; i < s.choices.size() && i < s.choice_help.size(); ++i)
      os << "\n" << s.choices[i] << ": " << s.choice_help[i];
  }
  os << "\n\n"
     << (s.update == ParamUpdate::Live ? "Live: applies from the next step, the run continues."
                                       : "Rebuild: changing it restarts the run from iteration 0.")
     << "\nCLI: --set " << s.name << "="
     << (s.type == ParamType::Text ? "'" + s.text_def + "'" : s.type == ParamType::IntList ? s.text_def : format_value(s, s.def));
  return os.str();
}

}  // namespace

void App::draw_text_param(const ParamSpec& s) {
  // Comparing with the panel on B: B's own text and edit buffer.
  const bool b = edit_b_ && compare_;
  ParamValues& values = b ? compare_->values : values_;
  std::string& buf = b ? compare_->text_edit[s.name] : text_edit_[s.name];
  bool& dirty = b ? compare_->text_dirty[s.name] : text_edit_dirty_[s.name];
  if (buf.empty() && !dirty) {
    auto it = values.text.find(s.name);
    buf = it != values.text.end() ? it->second : s.text_def;
  }
  char tmp[512];
  std::snprintf(tmp, sizeof tmp, "%s", buf.c_str());
  ImGui::SetNextItemWidth(-param_label_room_);
  const bool enter = ImGui::InputText(s.name.c_str(), tmp, sizeof tmp, ImGuiInputTextFlags_EnterReturnsTrue);
  if (buf != tmp) {
    buf = tmp;
    dirty = true;
  }
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted((param_tooltip(s) + "\nPress Enter to apply.").c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (!(enter || ImGui::IsItemDeactivatedAfterEdit())) return;
  if (!b) {
    change_text(s, buf);
  } else if (values.text[s.name] != buf) {
    values.text[s.name] = buf;
    restart();  // a Rebuild change: both restart
  }
}

void App::frame() {
  handle_shortcuts();
  plot::SetDataKey(plot_data_key_);  // a new module, run or dataset: every plot refits
  frame_data_key_ = plot_data_key_;
  restore_views_after_animation();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | (presenting_ ? 0 : ImGuiWindowFlags_MenuBar) |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 6));
  ImGui::Begin("CILab", nullptr, flags);
  ImGui::PopStyleVar();
  // --script `expect text`: the text this window draws (depth 0: no tree node opens for the log).
  const bool capture = script_.active();
  if (capture) ImGui::LogToBuffer(0);
  if (capture) script_.captured_landed = landed_edits_;
  if (presenting_) {  // F11: the view and large read-outs only; the keys still work
    draw_error_banner();
    draw_presentation_readouts();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    draw_center(avail.x, avail.y);
    if (capture) {
      script_.captured_text = GImGui->LogEnabled ? GImGui->LogBuffer.c_str() : "";
      ImGui::LogFinish();
    }
    ImGui::End();
    draw_about();
    draw_annotations();
    return;
  }
  // An animated export drives the runs until it ends: the controls wait (not the view: it is
  // what the frames show, undimmed).
  const bool locked = anim_ != nullptr;
  if (locked) ImGui::BeginDisabled();
  draw_menu_bar();
  draw_transport();
  if (locked) ImGui::EndDisabled();
  draw_error_banner();

  const float status_h = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float body_h = std::max(100.0f, avail.y - status_h);
  bool sidebar = settings_.show_browser || settings_.show_data || settings_.show_params;
  float side_w = sidebar ? std::min(ImGui::GetFontSize() * 22.0f, avail.x * 0.4f) : 0.0f;
  // Comparing, the sidebar yields to the two views when they would be narrower than
  // kCompareMinHalfEm: a rail whose button brings it back (compare_sidebar_shown_).
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  if (sidebar && compare_ && !compare_sidebar_shown_ &&
      (avail.x - side_w - 2.0f * gap) * 0.5f < ImGui::GetFontSize() * kCompareMinHalfEm) {
    side_w = ImGui::GetFrameHeight() + 2.0f * ImGui::GetStyle().WindowPadding.x;
    ImGui::BeginChild("sidebar_rail", ImVec2(side_w, body_h), true, ImGuiWindowFlags_NoScrollbar);
    if (ImGui::ArrowButton("##show_sidebar", ImGuiDir_Right)) compare_sidebar_shown_ = true;
    mark_target("sidebar:show");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Show the modules, data and parameters (comparing, they make room for the two views)");
    ImGui::EndChild();
    ImGui::SameLine();
  } else if (sidebar) {
    if (locked) ImGui::BeginDisabled();
    draw_sidebar(side_w, body_h);
    if (locked) ImGui::EndDisabled();
    ImGui::SameLine();
  }
  draw_center(avail.x - (sidebar ? side_w + gap : 0.0f), body_h);
  draw_status_bar();
  // (ImGui ends a log at the end of any top-level window, a combo's or a menu's
  // popup too: on a frame with one open, the text after it is not captured.)
  if (capture) {
    script_.captured_text = GImGui->LogEnabled ? GImGui->LogBuffer.c_str() : "";
    ImGui::LogFinish();
  }
  ImGui::End();

  draw_metrics_overlay();
  draw_save_preset_popup();
  draw_save_session_popup();
  draw_sweep_window();
  draw_animation_popup();
  if (browser_.draw()) open_path(browser_.chosen());
  draw_annotations();
  if (!browser_.last_folder().empty()) settings_.last_folder = browser_.last_folder();
  draw_about();
  restore_session_plot_views();
}

void App::restore_session_plot_views() {
  if (pending_plot_views_.empty()) return;
  if (plot_data_key_ != pending_views_key_) {  // another run, module or dataset since the session opened
    pending_plot_views_.clear();
    return;
  }
  if (frame_data_key_ != plot_data_key_) return;  // this frame's plots drew for the previous run
  std::vector<LabPlotView> left;
  for (const LabPlotView& v : pending_plot_views_) {
    plot::SavedViews::View view;
    view.id = v.plot;
    view.x_min = v.x_min;
    view.x_max = v.x_max;
    view.y_min = v.y_min;
    view.y_max = v.y_max;
    view.user_view = true;
    if (!plot::RestoreView(view)) left.push_back(v);  // not drawn yet (another tab): later
  }
  pending_plot_views_ = std::move(left);
}

void App::draw_menu_bar() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open data file, preset or session...", "Ctrl+O")) browser_.open();
    if (ImGui::MenuItem("Save session...", "Ctrl+S")) {
      save_kind_ = SaveKind::Session;
      save_session_request_ = true;
    }
    mark_target("menu:File/Save session");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The module, data, parameters, seed, edits and iteration shown, to reopen exactly\n"
                        "(File > Open, drop the file on the window, or cilab --session FILE).");
    if (ImGui::BeginMenu("Export")) {
      if (ImGui::MenuItem("Metrics per iteration (CSV)...")) {
        save_kind_ = SaveKind::MetricsCsv;
        save_session_request_ = true;
      }
      mark_target("menu:File/Export/Metrics");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("iteration, every metric, step_ms: the columns of cilab run");
      if (ImGui::MenuItem("Data (CSV)...", nullptr, false, data_ != nullptr)) {
        save_kind_ = SaveKind::DataCsv;
        save_session_request_ = true;
      }
      mark_target("menu:File/Export/Data");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The current dataset, clicked points included: features, then a label column;\n"
                          "it loads back with File > Open.");
      if (ImGui::MenuItem("The window (PNG, 1x or 2x)...")) {
        save_kind_ = SaveKind::WindowPng;
        save_session_request_ = true;
      }
      mark_target("menu:File/Export/Window");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The whole window as it is now; one plot alone: right-click it > Save as PNG.");
      if (ImGui::MenuItem("Word vectors (word2vec text format)...", nullptr, false,
                          dynamic_cast<const EmbeddingSnapshot*>(shown_.get()) != nullptr)) {
        save_kind_ = SaveKind::WordVectors;
        save_session_request_ = true;
      }
      mark_target("menu:File/Export/Word vectors");
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("word2vec, glove: the vectors of the iteration shown, one line per word (\"V d\", then\n"
                          "\"word x_1 ... x_d\"), as gensim's KeyedVectors.load_word2vec_format reads them.");
      if (ImGui::MenuItem("Weights (.npz, PyTorch names)...", nullptr, false, shown_ && shown_->has_weights())) {
        save_kind_ = SaveKind::Weights;
        save_session_request_ = true;
      }
      mark_target("menu:File/Export/Weights");
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("mlp, cnn, autoencoder, vae, gan: the network's weights at the iteration shown, as numpy .npz\n"
                          "named as PyTorch's state_dict (\"0.weight\", \"encoder.2.bias\"): load them into the same\n"
                          "layers with model.load_state_dict and go on in PyTorch.");
      if (ImGui::MenuItem("Animation (GIF or PNG sequence)...", nullptr, false, shown_ != nullptr && !anim_))
        open_animation_popup();
      mark_target("menu:File/Export/Animation");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A range of iterations as an animated GIF or numbered PNGs, for slides: the view and\n"
                          "metrics (or the whole window) as the window shows each iteration.");
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Recent files", !settings_.recent_files.empty())) {
      for (const std::string& r : settings_.recent_files)
        if (ImGui::MenuItem(r.c_str())) {
          const std::string path = r;  // load_file edits the list
          load_file(path);
          break;
        }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  draw_presets_menu();
  if (ImGui::BeginMenu("Run")) {
    if (ImGui::MenuItem(any_playing() ? "Pause" : "Play", "Space")) toggle_play_all();
    if (ImGui::MenuItem("Step", "Right")) each_run([](Runner& r) { r.step(); });
    if (ImGui::MenuItem("Sub-step", "S")) each_run([](Runner& r) { r.sub_step(); });
    if (ImGui::MenuItem("Slow motion (play sub-steps)", "M", runner_->play_sub_steps())) {
      const bool slow = !runner_->play_sub_steps();
      each_run([slow](Runner& r) { r.set_play_sub_steps(slow); });
    }
    if (ImGui::MenuItem("Back", "Left")) each_run([](Runner& r) { r.back(); });
    if (ImGui::MenuItem("Step 10")) each_run([](Runner& r) { r.step_n(10); });
    if (ImGui::MenuItem("Reset", "R")) restart();
    ImGui::Separator();
    if (ImGui::MenuItem("Compare A/B", "Ctrl+B", compare_ != nullptr)) compare_ ? stop_compare() : start_compare();
    mark_target("menu:Run/Compare");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Run this module twice side by side from the same data and seed: change B's parameters\n"
                        "(the switch at the top of the parameter panel), step both, compare the overlaid metrics.");
    if (ImGui::MenuItem("Sweep a parameter...")) open_sweep_window();
    mark_target("menu:Run/Sweep");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Run this module over a range of one parameter and several seeds in the background;\n"
                        "plot the final metric against it (the k-means elbow, final loss against lr).");
    ImGui::EndMenu();
  }
  const bool view_menu = ImGui::BeginMenu("View");
  mark_target("menu:View");
  if (view_menu) {
    bool toggled = ImGui::MenuItem("Module browser", nullptr, &settings_.show_browser);
    toggled |= ImGui::MenuItem("Data panel", nullptr, &settings_.show_data);
    toggled |= ImGui::MenuItem("Parameters panel", nullptr, &settings_.show_params);
    toggled |= ImGui::MenuItem("Metrics panel", nullptr, &settings_.show_metrics);
    if (toggled) panels_overridden_ = false;  // the user's own choice from now on
    ImGui::Separator();
    if (ImGui::MenuItem("Presentation mode", "F11")) toggle_presentation();
    mark_target("menu:View/Presentation");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Fullscreen with the controls hidden: the view fills the screen, the key metrics in large\n"
                        "type above it. The keys still work (Space, Right, Left, S); F11 or Esc returns.");
    if (ImGui::MenuItem("Reset layout")) {
      settings_.reset_layout();
      panels_overridden_ = false;
    }
    mark_target("menu:View/Reset layout");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Shows every panel again (they stay hidden between runs).");
    ImGui::Separator();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    float scale = settings_.ui_scale;
    if (ImGui::SliderFloat("UI scale", &scale, 0.5f, 3.0f, "%.2f")) {
      settings_.ui_scale = scale;
    }
    if (ImGui::IsItemDeactivatedAfterEdit()) scale_dirty_ = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Font size for lecture halls (Ctrl+= / Ctrl+-). Saved between runs.");
    draw_theme_menus();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard shortcuts", "F1")) show_shortcuts_ = true;
    if (ImGui::MenuItem("About CILab")) show_about_ = true;
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void App::draw_theme_menus() {
  const bool theme_open = ImGui::BeginMenu("Theme");
  mark_target("menu:View/Theme");
  if (!theme_open && ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Light is made for projectors; high contrast is white on black. Saved between runs.");
  if (theme_open) {
    for (Theme t : kAllThemes) {
      if (ImGui::MenuItem(theme_title(t), nullptr, settings_.theme == theme_name(t)))
        set_theme_setting(theme_name(t), "");
      mark_target(std::string("menu:View/Theme/") + theme_name(t));
    }
    ImGui::EndMenu();
  }
  const bool palette_open = ImGui::BeginMenu("Palette");
  mark_target("menu:View/Palette");
  if (!palette_open && ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Colours of clusters, series and classes. Okabe-Ito and Tol's bright stay apart under\n"
        "every common colour-vision deficiency. Saved between runs.");
  if (palette_open) {
    for (Palette p : kAllPalettes) {
      if (ImGui::MenuItem(palette_title(p), nullptr, settings_.palette == palette_name(p)))
        set_theme_setting("", palette_name(p));
      mark_target(std::string("menu:View/Palette/") + palette_name(p));
    }
    ImGui::EndMenu();
  }
}

void App::set_theme_setting(const std::string& theme, const std::string& palette) {
  if (!theme.empty()) settings_.theme = theme;
  if (!palette.empty()) settings_.palette = palette;
  scale_dirty_ = true;  // apply_ui_scale() sets the theme and rebuilds the style
}

void App::draw_transport() {
  const bool playing = any_playing();
  const ModuleInfo* info = runner_->info();
  const bool has_sub = info && !info->sub_steps.empty();
  // The buttons are 5 em wide when the row keeps kScrubberMinEm for the scrubber, else as wide as
  // their labels; a scrubber with less room than that goes to a row of its own (a large UI scale).
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const auto checkbox_w = [&](const char* label) {
    return ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x + style.ItemSpacing.x;
  };
  const float fixed = em * 9 + checkbox_w("max") + (has_sub ? checkbox_w("slow-mo") : 0.0f) + style.ItemSpacing.x * 6;
  const float btn = ImGui::GetContentRegionAvail().x - fixed - em * kScrubberMinEm >= 25.0f * em ? 5.0f * em : 0.0f;
  if (ImGui::Button(playing ? "Pause" : "Play", ImVec2(btn, 0))) toggle_play_all();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Run continuously (Space)");
  ImGui::SameLine();
  if (ImGui::Button("Step", ImVec2(btn, 0))) each_run([](Runner& r) { r.step(); });
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("One full iteration (Right arrow)");
  ImGui::SameLine();
  if (ImGui::Button("Sub-step", ImVec2(btn, 0))) each_run([](Runner& r) { r.sub_step(); });
  if (ImGui::IsItemHovered()) {
    std::string t = "Half an iteration (S)";
    if (has_sub) {
      t += ": ";
      for (size_t i = 0; i < info->sub_steps.size(); ++i) t += (i ? " then " : "") + info->sub_steps[i];
    }
    ImGui::SetTooltip("%s", t.c_str());
  }
  ImGui::SameLine();
  if (ImGui::Button("Back", ImVec2(btn, 0))) each_run([](Runner& r) { r.back(); });
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("One iteration back in the history (Left arrow)");
  ImGui::SameLine();
  if (ImGui::Button("Reset", ImVec2(btn, 0))) restart();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Restart from iteration 0 with the same seed (R)");

  // Speed: steps per second on a log slider, or as fast as possible.
  ImGui::SameLine();
  bool max_speed = runner_->speed() <= 0.0;
  float sps = max_speed ? 1000.0f : static_cast<float>(runner_->speed());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (max_speed) ImGui::BeginDisabled();
  if (ImGui::SliderFloat("##speed", &sps, 0.5f, 1000.0f, "%.1f steps/s", ImGuiSliderFlags_Logarithmic))
    each_run([sps](Runner& r) { r.set_speed(sps); });
  if (max_speed) ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Playback speed");
  ImGui::SameLine();
  if (ImGui::Checkbox("max", &max_speed)) each_run([max_speed](Runner& r) { r.set_speed(max_speed ? 0.0 : 5.0); });
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("As fast as possible");
  if (has_sub) {
    ImGui::SameLine();
    bool slow = runner_->play_sub_steps();
    if (ImGui::Checkbox("slow-mo", &slow)) {
      each_run([slow](Runner& r) {
        r.set_play_sub_steps(slow);
        if (slow && r.speed() <= 0.0) r.set_speed(2.0);  // a pace one can follow
      });
    }
    if (ImGui::IsItemHovered()) {
      std::string t = "Slow motion (M): Play advances one sub-step at a time (";
      for (size_t i = 0; i < info->sub_steps.size(); ++i) t += (i ? ", then " : "") + info->sub_steps[i];
      t += "), pausing between them; the speed counts sub-steps per second";
      ImGui::SetTooltip("%s", t.c_str());
    }
  }

  // History scrubber.
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < em * kScrubberMinEm) new_row_after_same_line();
  int it = runner_->current_iteration();
  const int last = std::max(0, std::max(runner_->last_iteration(), compare_ ? compare_->runner->last_iteration() : 0));
  // The shown position in the shared wording (part-way through an iteration:
  // "iteration 1 (after assign)"); while dragging, the iteration under the mouse.
  std::string format = "iteration %d";
  if (const std::shared_ptr<const Snapshot>& shown = shown_; shown && shown->iteration == it) {
    format.clear();
    for (char c : position_label(*shown, runner_->info())) format += c == '%' ? std::string("%%") : std::string(1, c);
  }
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##iteration", &it, 0, std::max(1, last), format.c_str()) && it <= last)
    each_run([it](Runner& r) { r.seek(it); });
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Scrub the history: iterations 0..%d. Stepping from an earlier iteration "
                      "starts a new branch.",
                      last);
}

void App::draw_error_banner() {
  if (anim_) return;  // the frames of an animated export keep one layout (the message waits)
  if (error_.empty() && !info_.empty()) {
    if (ImGui::GetTime() - info_time_ > 8.0) {
      info_.clear();
      return;
    }
    ImGui::TextColored(colour_vec(colors().good), "%s", info_.c_str());
    return;
  }
  if (error_.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, colors().error_bg);
  const float h = ImGui::GetTextLineHeightWithSpacing() * 2.2f;
  ImGui::BeginChild("error", ImVec2(0, h), true);
  ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 5);
  ImGui::TextColored(colour_vec(colors().error), "%s", error_.c_str());
  ImGui::PopTextWrapPos();
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 3.5f);
  if (ImGui::Button("Dismiss")) error_.clear();
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

void App::draw_sidebar(float width, float height) {
  ImGui::BeginChild("sidebar", ImVec2(width, height), true);
  // One ID scope per panel: the data panel's "seed" option and the run's "seed" are different widgets.
  ImGui::PushID("modules");
  if (settings_.show_browser) draw_module_browser();
  ImGui::PopID();
  ImGui::PushID("data");
  if (settings_.show_data) draw_data_panel();
  ImGui::PopID();
  ImGui::PushID("params");
  if (settings_.show_params) draw_params_panel();
  ImGui::PopID();
  ImGui::EndChild();
}

void App::draw_module_browser() {
  if (!ImGui::CollapsingHeader("Modules", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // Group by chapter, in registry order.
  if (module_infos_.empty())
    for (const ModuleEntry& e : module_registry()) module_infos_.push_back(e.make()->info());
  std::vector<std::string> chapters;
  std::map<std::string, std::vector<const ModuleInfo*>> by_chapter;
  for (const ModuleInfo& info : module_infos_) {
    if (!by_chapter.count(info.chapter)) chapters.push_back(info.chapter);
    by_chapter[info.chapter].push_back(&info);
  }
  // Each title wraps to the list's width (whole names, however narrow the sidebar).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float indent = style.IndentSpacing;
  const float wrap = std::max(ImGui::GetFontSize() * 6,
                              ImGui::GetContentRegionAvail().x - indent - style.ScrollbarSize - style.WindowPadding.x * 2);
  float full = line * static_cast<float>(chapters.size()) + style.WindowPadding.y * 2;
  for (const ModuleInfo& info : module_infos_)
    full += ImGui::CalcTextSize(info.title.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
  // Its height: all it needs when the Data and Parameters panels below are hidden or
  // collapsed, else up to kBrowserMaxLines lines within 35 % of the sidebar (the panels below
  // keep their room); it scrolls inside.
  const ImGuiStorage* st = ImGui::GetStateStorage();
  auto open_below = [&](const char* scope, const char* header, bool shown) {
    if (!shown) return false;
    ImGui::PushID(scope);
    const bool open = st->GetInt(ImGui::GetID(header), 1) != 0;  // headers open by default
    ImGui::PopID();
    return open;
  };
  ImGui::PopID();  // the panels' scopes are siblings of this one (draw_sidebar)
  const bool below = open_below("data", "Data", settings_.show_data) || open_below("params", "Parameters", settings_.show_params);
  ImGui::PushID("modules");
  const float avail = ImGui::GetContentRegionAvail().y;
  const float rest = (settings_.show_data ? line * 1.3f : 0.0f) + (settings_.show_params ? line * 1.3f : 0.0f);
  const float cap = below ? std::max(line * 4, std::min(line * kBrowserMaxLines, avail * 0.35f))
                          : std::max(line * 4, avail - rest);
  ImGui::BeginChild("##module_list", ImVec2(0, std::min(full, cap)), false);
  for (const std::string& ch : chapters) {
    ImGui::TextColored(colour_vec(colors().text_dim), "%s", ch.c_str());
    for (const ModuleInfo* m : by_chapter[ch]) {
      ImGui::Indent();
      const bool current = m->name == module_name_;
      const ImVec2 ts = ImGui::CalcTextSize(m->title.c_str(), nullptr, false, wrap);
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::PushID(m->name.c_str());
      if (ImGui::Selectable("##module", current, 0, ImVec2(0, ts.y))) open_module(m->name);
      ImGui::PopID();
      mark_target("module:" + m->name);
      ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, ImGui::GetColorU32(ImGuiCol_Text),
                                          m->title.c_str(), nullptr, wrap);
      ImGui::LogText("%s\n", m->title.c_str());  // what the script's `expect text` reads
      // The open module scrolls into view once (opened from a preset, a session, the
      // command line) and only when it is not in view already: a click never moves the list.
      if (current && browser_scrolled_to_ != module_name_) {
        const float top = ImGui::GetItemRectMin().y, bottom = ImGui::GetItemRectMax().y;
        const float wtop = ImGui::GetWindowPos().y, wbottom = wtop + ImGui::GetWindowHeight();
        if (top < wtop) ImGui::SetScrollHereY(0.0f);
        else if (bottom > wbottom) ImGui::SetScrollHereY(1.0f);
        browser_scrolled_to_ = module_name_;
      }
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextUnformatted(m->title.c_str());
        ImGui::Separator();
        ImGui::TextUnformatted(m->summary.c_str());
        ImGui::TextDisabled("cilab run %s", m->name.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
      ImGui::Unindent();
    }
  }
  ImGui::EndChild();
}

void App::draw_data_panel() {
  if (!ImGui::CollapsingHeader("Data", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // What the module works on when it is not the dataset below (its parameters decide): said,
  // not warned about.
  if (const ModuleInfo* info = runner_->info()) {
    const std::string use = info->data_use ? info->data_use(running_) : std::string();
    if (!use.empty() || !info->needs_dataset) {
      ImGui::PushTextWrapPos(0);
      if (!use.empty())
        ImGui::TextColored(colour_vec(colors().text_dim), "%s.", use.c_str());
      else
        ImGui::TextColored(colour_vec(colors().text_dim),
                           "%s needs no data: what you load here is used only where a parameter "
                           "asks for it (see the parameter tooltips).",
                           info->name.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  if (data_) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(describe(*data_).c_str());
    ImGui::TextColored(colour_vec(colors().text_dim), "%s", data_->source.c_str());
    ImGui::PopTextWrapPos();
  }
  const std::vector<DatasetInfo>& infos = builtin_datasets();
  builtin_index_ = std::clamp(builtin_index_, 0, static_cast<int>(infos.size()) - 1);
  bool load = false;  // a pick or a committed option loads at once
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
  // Tall enough for every built-in dataset without scrolling.
  const bool combo = ImGui::BeginCombo("Built-in", infos[builtin_index_].name.c_str(), ImGuiComboFlags_HeightLarge);
  mark_target("builtin-combo");
  if (ImGui::IsItemHovered() && !combo) ImGui::SetTooltip("Picking a dataset loads it.");
  if (combo) {
    for (int i = 0; i < static_cast<int>(infos.size()); ++i) {
      if (ImGui::Selectable(infos[i].name.c_str(), i == builtin_index_)) {
        builtin_index_ = i;
        builtin_options_.clear();
        load = true;
      }
      mark_target("dataset:" + infos[i].name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", infos[i].description.c_str());
    }
    ImGui::EndCombo();
  }
  const DatasetInfo& cur = infos[builtin_index_];
  if (builtin_options_.size() != cur.options.size()) {
    builtin_options_.clear();
    for (const DatasetOption& o : cur.options) builtin_options_.push_back(o.def);
  }
  for (size_t i = 0; i < cur.options.size(); ++i) {
    const DatasetOption& o = cur.options[i];
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
    if (!o.choices.empty()) {
      const int idx = std::clamp(static_cast<int>(builtin_options_[i]), 0, static_cast<int>(o.choices.size()) - 1);
      const bool open = ImGui::BeginCombo(o.name.c_str(), o.choices[idx].c_str());
      mark_target("option:" + o.name);
      if (open) {
        for (int c = 0; c < static_cast<int>(o.choices.size()); ++c) {
          if (ImGui::Selectable(o.choices[c].c_str(), c == idx) && c != idx) {
            builtin_options_[i] = c;
            load = true;
          }
          mark_target("option:" + o.name + "=" + o.choices[c]);
        }
        ImGui::EndCombo();
      }
    } else if (o.is_int && o.max - o.min > 1000) {
      int v = static_cast<int>(builtin_options_[i]);
      if (ImGui::DragInt(o.name.c_str(), &v, std::max(1.0f, static_cast<float>(v) * 0.01f), static_cast<int>(o.min),
                         static_cast<int>(o.max)))
        builtin_options_[i] = std::clamp<double>(v, o.min, o.max);
      load = load || ImGui::IsItemDeactivatedAfterEdit();
    } else if (o.is_int) {
      int v = static_cast<int>(builtin_options_[i]);
      load = int_slider(o.name.c_str(), &v, static_cast<int>(o.min), static_cast<int>(o.max), 0, slider_edit_) || load;
      builtin_options_[i] = std::clamp<double>(v, o.min, o.max);
    } else {
      // Loads when a drag ends or typed text is committed, not on every frame of a drag.
      double v = builtin_options_[i];
      const bool changed =
          real_slider(o.name.c_str(), &v, o.min, o.max, "%.3g", ImGuiSliderFlags_AlwaysClamp, slider_edit_);
      builtin_options_[i] = v;
      load = load || (changed && !ImGui::IsItemActive()) || ImGui::IsItemDeactivatedAfterEdit();
    }
    if (ImGui::IsItemHovered()) {
      const bool int_row = o.is_int && o.choices.empty() && o.max - o.min <= 1000;
      ImGui::SetTooltip("%s%s%s", o.help.c_str(), int_row ? "\n" : "", int_row ? int_slider_help() : "");
    }
  }
  if (ImGui::Button("Reload") || load) {
    std::ostringstream spec;
    spec << cur.name;
    for (size_t i = 0; i < cur.options.size(); ++i) {
      spec << (i ? "," : ":") << cur.options[i].name << "=";
      if (!cur.options[i].choices.empty())
        spec << cur.options[i].choices[std::clamp<size_t>(static_cast<size_t>(builtin_options_[i]), 0,
                                                          cur.options[i].choices.size() - 1)];
      else if (cur.options[i].is_int) spec << static_cast<long long>(builtin_options_[i]);
      else spec << builtin_options_[i];
    }
    load_builtin(spec.str());
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Loads %s again with these options (a pick or a changed option loads at once).", cur.name.c_str());
  ImGui::SameLine();
  if (ImGui::Button("Open file...")) browser_.open();
  mark_target("open-file");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("CSV/TSV or IDX (.gz); or drag a file onto the window (Ctrl+O)");
  if (!settings_.recent_files.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Recent")) ImGui::OpenPopup("recent");
    if (ImGui::BeginPopup("recent")) {
      for (const std::string& r : settings_.recent_files)
        if (ImGui::Selectable(r.c_str())) {
          const std::string path = r;
          load_file(path);
          break;
        }
      ImGui::EndPopup();
    }
  }
  const bool editable = data_ && points_editable(*data_);
  const bool two_d = data_ && data_->cols() == 2;
  if (!editable) ImGui::BeginDisabled();
  ImGui::Checkbox("Click to add points", &edit_points_);
  if (!editable) ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(editable ? "Left-click in the plot adds a point, right-click removes the nearest.\n"
                                 "Shift+click works without this toggle."
                               : "Only for 2-D data, or 1-D data with a regression target");
  if (edit_points_ && two_d && data_->num_classes() > 0) {
    // One past the last class starts a new class (draw a third class on two moons).
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt("label of new points", &add_label_, 0, std::min(data_->num_classes(), kMaxDrawnClasses - 1));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Class of the points you click in; %d starts a new class", data_->num_classes());
  }
}

void App::draw_params_panel() {
  if (!ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) return;
  draw_compare_header();  // comparing: which run the panel edits, and what differs
  const bool side_b = edit_b_ && compare_;
  // Seed first: every module has one. 64 bits, as in the CLI (same seed, same
  // run); applied on Enter or when the field loses focus, not per keystroke.
  if (!seed_editing_) seed_edit_ = seed_;
  // The labels sit right of the widgets, in one column as wide as the widest label shown (at
  // least 7.5 em), the widgets keeping 6 em at least: a long name ("negative (live)") is never cut.
  const ParamValues& shown_values = side_b ? compare_->values : values_;
  float label_w = ImGui::CalcTextSize("seed").x;
  for (const ParamSpec& s : specs_)
    if (!is_compound(s) && param_shown(specs_, s, shown_values))
      label_w = std::max(label_w, ImGui::CalcTextSize((s.name + (s.update == ParamUpdate::Rebuild || is_text_valued(s)
                                                                     ? ""
                                                                     : " (live)"))
                                                          .c_str())
                                      .x);
  const float em = ImGui::GetFontSize();
  param_label_room_ = std::clamp(label_w + ImGui::GetStyle().ItemInnerSpacing.x + 2.0f, em * 7.5f,
                                 std::max(em * 7.5f, ImGui::GetContentRegionAvail().x - em * 6.0f));
  ImGui::SetNextItemWidth(-param_label_room_);
  const uint64_t seed_max = static_cast<uint64_t>(INT64_MAX);  // the CLI's range, [0, 2^63)
  ImGui::InputScalar("seed", ImGuiDataType_U64, &seed_edit_, nullptr, nullptr, "%llu",
                     ImGuiInputTextFlags_AutoSelectAll | ImGuiInputTextFlags_CharsDecimal);
  seed_editing_ = ImGui::IsItemActive();
  mark_target("seed");
  if (ImGui::IsItemDeactivatedAfterEdit() && seed_edit_ != seed_) {
    if (seed_edit_ > seed_max) {
      show_error("seed: expected an integer in [0, 2^63), found " + std::to_string(seed_edit_) +
                 "; try a smaller number (kept seed " + std::to_string(seed_) + ")");
    } else {
      seed_ = seed_edit_;
      restart();
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Seed of the module's random generator: same seed, same run.\nRebuild: restarts "
                      "the run. CLI: --seed N");
  const ParamValues& running = side_b ? compare_->running : running_;
  ParamValues& panel_values = side_b ? compare_->values : values_;
  for (const ParamSpec& s : specs_) {
    if (is_compound(s) || !param_shown(specs_, s, panel_values)) continue;
    if (is_text_valued(s)) {
      draw_text_param(s);
      continue;
    }
    double& v = panel_values[s.name];
    bool changed = false;
    ImGui::SetNextItemWidth(-param_label_room_);
    const std::string label = s.name + (s.update == ParamUpdate::Rebuild ? "" : " (live)");
    switch (s.type) {
      case ParamType::Choice: {
        int idx = static_cast<int>(v);
        const std::string preview = format_value(s, v);
        if (ImGui::BeginCombo(label.c_str(), preview.c_str())) {
          for (int i = 0; i < static_cast<int>(s.choices.size()); ++i) {
            if (ImGui::Selectable(s.choices[i].c_str(), i == idx)) {
              v = i;
              changed = true;
            }
            if (ImGui::IsItemHovered() && i < static_cast<int>(s.choice_help.size()))
              ImGui::SetTooltip("%s", s.choice_help[i].c_str());
          }
          ImGui::EndCombo();
        }
        break;
      }
      case ParamType::Bool: {
        bool b = v != 0.0;
        if (ImGui::Checkbox(label.c_str(), &b)) {
          v = b ? 1.0 : 0.0;
          changed = true;
        }
        break;
      }
      case ParamType::Int: {
        int i = static_cast<int>(v);
        const ImGuiSliderFlags f = s.log_scale || s.max - s.min > 1000 ? ImGuiSliderFlags_Logarithmic : 0;
        changed = int_slider(label.c_str(), &i, static_cast<int>(s.min), static_cast<int>(s.max), f, slider_edit_);
        v = i;
        mark_target("param:" + s.name + ":slider", slider_edit_.slider_x, slider_edit_.slider_y);
        mark_target("param:" + s.name + ":-", slider_edit_.minus_x, slider_edit_.minus_y);
        mark_target("param:" + s.name + ":+", slider_edit_.plus_x, slider_edit_.plus_y);
        break;
      }
      case ParamType::Text:
      case ParamType::IntList:
        break;
      case ParamType::Real: {
        // Doubles end to end: a value set from the CLI or a view (reg = 1e-6)
        // must not come back rounded to float.
        const double lo = s.min, hi = s.max;
        ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &v, &lo, &hi, "%.4g",
                            (s.log_scale ? ImGuiSliderFlags_Logarithmic : 0) | ImGuiSliderFlags_AlwaysClamp);
        changed = ImGui::IsItemDeactivatedAfterEdit();
        break;
      }
    }
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      ImGui::TextUnformatted(param_tooltip(s).c_str());
      if (s.type == ParamType::Int) ImGui::TextDisabled("%s", int_slider_help());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    if (changed) {
      auto it = running.find(s.name);
      if (it != running.end() && it->second == v) continue;
      if (side_b) change_param_b(s, v);
      else change_param(s, v);
    }
  }
  ModuleView* view = side_b ? compare_->view.get() : view_.get();
  if (const std::shared_ptr<const Snapshot>& snap = side_b ? compare_->shown : shown_; snap && view) {
    ImGui::Separator();
    ViewContext ctx;
    ctx.data = data_.get();
    ctx.info = (side_b ? compare_->runner : runner_)->info();
    ctx.values = &running;
    ctx.seed = seed_;
    ctx.jobs = jobs_.get();
    view->draw_controls(*snap, ctx);
  }
}

void App::draw_run_view(ModuleView& view, Runner& runner, const std::shared_ptr<const Snapshot>& snap,
                        const std::vector<std::vector<double>>& metric_history, const ParamValues& running,
                        const std::vector<int>& keys, int* shown_tab, std::vector<ViewIntent>& intents) {
  ViewContext ctx;
  ctx.data = data_.get();
  ctx.info = runner.info();
  Runner* r = &runner;
  ctx.stored_snapshot = [r](int i) { return r->stored_snapshot(i); };
  ctx.metric_history = &metric_history;
  ctx.edit_points = edit_points_ && data_ && points_editable(*data_);
  ctx.data_version = data_version_;
  ctx.values = &running;
  ctx.seed = seed_;
  ctx.keys = &keys;
  if (shown_tab) *shown_tab = 0;  // a view without tabs leaves it so
  ctx.shown_tab = shown_tab;
  ctx.jobs = jobs_.get();
  // The live changes of the line shown, each with its parameter's role (the oracles re-base there).
  std::vector<LiveChange> changes;
  for (const RunEdit& e : runner.recipe().edits) {
    if (!e.live) continue;
    const ParamSpec* spec = find_param(specs_, e.name);
    changes.push_back({e.iteration, e.phase, e.name, e.value, spec ? spec->role : LiveRole::Other});
  }
  ctx.live_changes = &changes;
  ctx.mark_target = [this](const std::string& name) { mark_target(name); };
  view.draw(*snap, ctx, intents);
  for (ViewIntent& vi : intents)
    if (vi.kind == ViewIntent::Kind::AddPoint && vi.label < 0 && data_ && data_->has_labels()) vi.label = add_label_;
}

// The centre's vertical budget: the view keeps at least its min_height_em() font sizes. When it
// would get less, the preset's note yields first (to its title line, whole on hover or F2), then
// the metrics strip (down to one row of plots, then to one line of values, whole over the view on
// hover or F3). Presentation mode has neither.
CentreBudget centre_budget(float height, float spacing, float view_min, float note_full, float note_line,
                           float strip_full, float strip_min, float strip_line, bool note_whole, bool strip_whole) {
  CentreBudget b;
  b.note_h = note_full;
  b.strip_h = strip_full;
  const auto view_h = [&] { return height - b.note_h - (b.strip_h > 0 ? b.strip_h + spacing : 0.0f); };
  if (view_h() >= view_min) return b;
  if (!note_whole && note_full > 0) {
    b.note_h = note_line;
    b.note_collapsed = true;
  }
  if (view_h() >= view_min || strip_whole || strip_full <= 0) return b;
  b.strip_h = std::max(strip_min, height - b.note_h - spacing - view_min);
  if (view_h() >= view_min) return b;
  b.strip_h = strip_line;
  b.strip_collapsed = true;
  return b;
}

void App::draw_center(float width, float height) {
  ImGui::BeginGroup();
  const ModuleInfo* run_info = runner_->info();
  const bool show_metrics = !presenting_ && settings_.show_metrics && (!run_info || run_info->iterative);
  const ImGuiStyle& style = ImGui::GetStyle();
  strip_full_h_ = std::max(ImGui::GetFontSize() * 11.0f, height * 0.26f);
  const float view_min = ImGui::GetFontSize() * (view_ ? view_->min_height_em() : kViewMinHeightEm);
  const CentreBudget budget =
      presenting_ ? CentreBudget{}
                  : centre_budget(height, style.ItemSpacing.y, view_min, preset_note_height(width, false),
                                  preset_note_height(width, true), show_metrics ? strip_full_h_ : 0.0f,
                                  metric_strip_min_height(), ImGui::GetFrameHeightWithSpacing() + 2.0f * style.WindowPadding.y,
                                  note_expanded_, strip_expanded_);
  if (!presenting_) height -= draw_preset_note(width, budget.note_collapsed);
  const float metrics_h = show_metrics ? budget.strip_h : 0.0f;
  const float view_h = height - (show_metrics ? metrics_h + style.ItemSpacing.y : 0.0f);
  const ImGuiWindowFlags view_flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  // Incremental: only iterations new since the last frame are copied.
  metric_mirror_.sync(runner_->metric_history().get());
  const std::vector<std::vector<double>>& metric_history = metric_mirror_.metrics();
  if (pending_tab_ > 0) {  // a preset's tab, chosen as its key would
    view_keys_.push_back('0' + pending_tab_);
    pending_tab_ = 0;
  }
  // B's keys: A's, and when the comparison has just started, A's tab (B opens where A is).
  std::vector<int> keys_b = view_keys_;
  if (compare_ && compare_->shown && pending_tab_b_ > 0) {
    keys_b.push_back('0' + pending_tab_b_);
    pending_tab_b_ = 0;
  }
  if (!compare_) {
    ImGui::BeginChild("view", ImVec2(width, view_h), true, view_flags);
    std::vector<ViewIntent> intents;
    if (shown_ && view_) {
      draw_run_view(*view_, *runner_, shown_, metric_history, running_, view_keys_, &shown_tab_, intents);
      apply_intents(intents);
    } else {
      ImGui::TextColored(colour_vec(colors().text_dim), "No run yet: choose a module and data on the left.");
    }
    draw_pending_overlay();
    ImGui::EndChild();
  } else {
    // A and B side by side, each under a caption: its position and what it changes.
    CompareRun& c = *compare_;
    c.mirror.sync(c.runner->metric_history().get());
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float half = std::floor((width - gap) * 0.5f);
    for (int side = 0; side < 2; ++side) {
      if (side) ImGui::SameLine(0.0f, gap);
      ImGui::BeginChild(side ? "view_b" : "view", ImVec2(half, view_h), true, view_flags);
      Runner& r = side ? *c.runner : *runner_;
      const std::shared_ptr<const Snapshot>& snap = side ? c.shown : shown_;
      const bool editing = (side == 1) == edit_b_;
      // The letter in the run's colour in the metrics strip; "editing" marks the panel's run.
      ImGui::TextColored(legible(compare_color(side)), "%s", side ? "B" : "A");
      if (ImGui::IsItemClicked()) edit_b_ = side == 1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Click: the parameter panel edits run %s", side ? "B" : "A");
      if (editing) {
        ImGui::SameLine();
        ImGui::TextColored(colour_vec(colors().text_dim), "(editing)");
      }
      ImGui::SameLine();
      ImGui::TextUnformatted(snap ? position_label(*snap, r.info()).c_str() : "starting...");
      if (snap && snap->status != Status::Running) {
        ImGui::SameLine();
        ImGui::TextColored(status_colour(snap->status), "%s", status_name(snap->status));
      }
      std::string mine;  // this run's values of the parameters that differ
      for (const CompareDiff& d : compare_diff_list()) mine += (mine.empty() ? "" : ", ") + d.name + "=" + (side ? d.b : d.a);
      if (!mine.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", mine.c_str());
      }
      std::vector<ViewIntent> intents;
      if (snap && (side ? c.view : view_)) {
        draw_run_view(side ? *c.view : *view_, r, snap, side ? c.mirror.metrics() : metric_history,
                      side ? c.running : running_, side ? keys_b : view_keys_, side ? &shown_tab_b_ : &shown_tab_,
                      intents);
        if (side) apply_intents_b(intents);
        else apply_intents(intents);
      }
      if (!side) draw_pending_overlay();
      ImGui::EndChild();
      if (!compare_) break;  // B's view ended the comparison (a new dataset...)
    }
  }
  strip_overlay_ = false;
  if (show_metrics && !budget.strip_collapsed) {
    ImGui::BeginChild("metrics", ImVec2(width, metrics_h), true);
    draw_metric_strip();
    ImGui::EndChild();
  } else if (show_metrics) {
    // One line of values; hovering it (or the strip it opened) shows the whole strip over the view.
    ImGui::BeginChild("metrics", ImVec2(width, metrics_h), true, ImGuiWindowFlags_NoScrollbar);
    const char* hint = "(F3: the curves)";
    const float hint_w = ImGui::CalcTextSize(hint).x;
    const float room = ImGui::GetContentRegionAvail().x - hint_w - style.ItemSpacing.x;
    if (const ModuleInfo* info = runner_->info()) {
      MetricCompare b;
      if (compare_) {
        b.metrics = &compare_->mirror.metrics();
        b.current_iteration = compare_->runner->current_iteration();
      }
      draw_metric_line(*info, metric_history, runner_->current_iteration(), room, compare_ ? &b : nullptr);
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - hint_w);
    }
    ImGui::TextDisabled("%s", hint);
    const ImVec2 line_min = ImGui::GetWindowPos();
    const ImVec2 line_max(line_min.x + width, line_min.y + metrics_h);
    const bool hovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows);
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) strip_expanded_ = true;
    ImGui::EndChild();
    // The whole strip above the line, over the view, while the mouse is on the line or on it.
    const float full = std::min(strip_full_h_, line_max.y - ImGui::GetMainViewport()->WorkPos.y);
    const ImVec2 over_min(line_min.x, line_max.y - full);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool in_overlay = mouse.x >= over_min.x && mouse.x < line_max.x && mouse.y >= over_min.y && mouse.y < line_max.y;
    strip_overlay_ = hovered || (in_overlay && strip_overlay_min_.y == over_min.y);
    strip_overlay_min_ = over_min;
    strip_overlay_max_ = line_max;
  }
  ImGui::EndGroup();
  centre_min_ = ImGui::GetItemRectMin();  // what an animated export saves
  centre_max_ = ImGui::GetItemRectMax();
}

void App::draw_metric_strip() {
  const ModuleInfo* info = runner_->info();
  MetricCompare b;
  if (compare_) {
    b.metrics = &compare_->mirror.metrics();
    b.step_ms = &compare_->mirror.step_ms();
    b.current_iteration = compare_->runner->current_iteration();
    b.version = compare_->mirror.version();
  }
  if (info) draw_metric_plots(*info, metric_mirror_.metrics(), metric_mirror_.step_ms(), runner_->current_iteration(),
                              metric_mirror_.version(), compare_ ? &b : nullptr);
}

void App::draw_metrics_overlay() {
  if (!strip_overlay_ || presenting_) return;
  ImGui::SetNextWindowPos(strip_overlay_min_);
  ImGui::SetNextWindowSize(ImVec2(strip_overlay_max_.x - strip_overlay_min_.x, strip_overlay_max_.y - strip_overlay_min_.y));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImGui::GetStyleColorVec4(ImGuiCol_ChildBg).w > 0.5f
                                               ? ImGui::GetStyleColorVec4(ImGuiCol_ChildBg)
                                               : ImGui::GetStyleColorVec4(ImGuiCol_WindowBg));
  if (ImGui::Begin("##metrics_overlay", nullptr, flags)) draw_metric_strip();
  ImGui::End();
  ImGui::PopStyleColor();
}

void App::draw_presentation_readouts() {
  const std::shared_ptr<const Snapshot>& snap = shown_;
  const ModuleInfo* info = runner_->info();
  if (big_font_) ImGui::PushFont(big_font_);
  const ImVec4 label = colour_vec(colors().text_dim);
  if (snap) {
    ImGui::TextUnformatted(position_label(*snap, info).c_str());
    ImGui::SameLine(0.0f, ImGui::GetFontSize());
    const bool paused = snap->status == Status::Running && !runner_->playing();
    ImGui::TextColored(label, "%s", paused ? "paused" : status_name(snap->status));
    // The module's key metrics: its CLI columns if it names them, else the first three.
    std::vector<size_t> slots;
    if (info) {
      for (const std::string& c : info->iteration_columns)
        for (size_t k = 0; k < info->metrics.size(); ++k)
          if (info->metrics[k].name == c && slots.size() < 4) slots.push_back(k);
      for (size_t k = 0; slots.empty() && k < info->metrics.size() && k < 3; ++k) slots.push_back(k);
      if (slots.empty() && info->metrics.size() > 3) slots = {0, 1, 2};
    }
    auto number = [](const std::shared_ptr<const Snapshot>& s, size_t k) {
      char value[48];
      const double v = s && k < s->metrics.size() ? s->metrics[k] : NAN;
      if (std::isfinite(v)) std::snprintf(value, sizeof value, "%.4g", v);
      else std::snprintf(value, sizeof value, "n/a");
      return std::string(value);
    };
    for (size_t k : slots) {
      if (k >= snap->metrics.size()) continue;
      // Comparing: both runs' values, "A 0.12  B 0.34".
      const std::string value =
          compare_ ? "A " + number(snap, k) + "  B " + number(compare_->shown, k) : number(snap, k);
      const std::string text = info->metrics[k].name + " " + value;
      const float w = ImGui::CalcTextSize(text.c_str()).x;
      // One line: the metrics that fit (the view keeps the height).
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      const float gap = ImGui::GetFontSize() * 1.2f;
      if (ImGui::GetItemRectMax().x + gap + w >= right) break;
      ImGui::SameLine(0.0f, gap);
      ImGui::TextColored(label, "%s", info->metrics[k].name.c_str());
      ImGui::SameLine();
      ImGui::TextUnformatted(value.c_str());
    }
  } else {
    ImGui::TextUnformatted("no run yet");
  }
  if (big_font_) ImGui::PopFont();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Presentation mode: F11 or Esc leaves it; Space, Right, Left, S still work");
}

void App::draw_status_bar() {
  draw_pending_status();  // "restarting... 1.2 s" with a spinner while an edit is under way
  if (anim_ && !anim_->window) {
    ImGui::TextColored(colour_vec(colors().warning), "exporting the animation: frame %zu of %zu (Esc cancels)",
                       anim_->next + 1, anim_->iterations.size());
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
  }
  const std::shared_ptr<const Snapshot>& snap = shown_;
  const ModuleInfo* info = runner_->info();
  const float gap = ImGui::GetFontSize() * 1.5f;
  std::string full;  // the whole line, for the tooltip (a narrow window drops its last parts)
  // One row: after the position and the state, the run's message (cut to the room left), then
  // each part that still fits (the others are in the tooltip).
  const auto room = [&] {  // right of the last item drawn, on its row
    return ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - ImGui::GetItemRectMax().x - gap;
  };
  const auto part = [&](const std::string& text, const ImVec4& colour) {
    if (room() < ImGui::CalcTextSize(text.c_str()).x) return;
    ImGui::SameLine(0, gap);
    ImGui::TextColored(colour, "%s", text.c_str());
  };
  ImGui::BeginGroup();
  if (snap) {
    const std::string at = position_label(*snap, info);
    ImGui::TextUnformatted(at.c_str());
    // "running" only while it plays: a Running run that waits for Step is paused.
    const bool paused = snap->status == Status::Running && !runner_->playing();
    const char* state = paused ? "paused" : status_name(snap->status);
    ImGui::SameLine(0, gap);
    ImGui::TextColored(paused ? colour_vec(colors().text_dim) : status_colour(snap->status), "%s",
                       state);
    full = at + "   " + state;
    if (!snap->message.empty() && room() > ImGui::GetFontSize() * 6) {
      ImGui::SameLine(0, gap);
      ImGui::PushStyleColor(ImGuiCol_Text, snap->status == Status::Diverged || snap->status == Status::Failed
                                               ? colour_vec(colors().error)
                                               : colour_vec(colors().text_dim));
      cut_text_unformatted(snap->message.c_str());
      ImGui::PopStyleColor();
    }
    if (!snap->message.empty()) full += "\n" + snap->message;
  }
  if (!settings_.show_browser || !settings_.show_data || !settings_.show_params || !settings_.show_metrics) {
    part("hidden panels: View > Reset layout", colour_vec(colors().text_dim));
    full += "\nSome panels are hidden: the View menu shows them one by one, or all with Reset layout.";
  }
  char timing[160];
  std::snprintf(timing, sizeof timing, "step %.2f ms   frame %.1f ms   history %.1f MiB", runner_->last_step_ms(),
                last_frame_ms_, runner_->history_bytes() / 1048576.0);
  part(timing, colour_vec(colors().text_dim));
  full += std::string("\n") + timing;
  if (data_) {
    const std::string d = describe(*data_);
    part(d, colour_vec(colors().text_dim));
    full += "\n" + d;
  }
  ImGui::EndGroup();
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    ImGui::TextUnformatted(full.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void App::draw_about() {
  if (show_shortcuts_) {
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 24, 0), ImGuiCond_Appearing);
    if (ImGui::Begin("Keyboard shortcuts", &show_shortcuts_, ImGuiWindowFlags_NoCollapse)) {
      const char* rows[][2] = {{"Space", "play / pause"},       {"Right", "one step"},
                               {"S", "one sub-step"},          {"Left", "one step back"},
                               {"M", "slow motion: play sub-steps"},
                               {"R", "reset the run"},         {"Ctrl+O", "open data, a preset or a session"},
                               {"Ctrl+S", "save the session"},  {"L / P / E", "laser pointer / pen / erase the pen"},  {"F11 / Esc", "presentation mode: the view, large read-outs"},
                               {"Esc", "close an open menu"},
                               {"Ctrl+= / Ctrl+-", "UI scale"}, {"Double-click plot", "fit the view"},
                               {"Wheel / drag", "zoom / pan a plot"}, {"Shift+click", "add a point (2-D data)"},
                               {"F2 / F3", "the preset's note / the metrics strip whole (where they yield to the view)"},
                               {"F1", "this window"},          {"Ctrl+Q", "quit"}};
      if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
        for (const auto& r : rows) {
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(r[0]);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(r[1]);
        }
        ImGui::EndTable();
      }
    }
    ImGui::End();
  }
  if (show_about_) {
    if (ImGui::Begin("About CILab", &show_about_, ImGuiWindowFlags_AlwaysAutoResize)) {
      ImGui::Text("CILab %s", CILAB_VERSION);
      ImGui::TextUnformatted("An interactive lab for the Computational Intelligence course.");
      ImGui::TextColored(colour_vec(colors().text_dim), "Dear ImGui %s, Eigen %d.%d.%d",
                         IMGUI_VERSION, 3, 4, 0);
    }
    ImGui::End();
  }
}

void App::mark_target(const std::string& name) {
  if (!script_.active()) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  mark_target(name, 0.5f * (a.x + b.x), 0.5f * (a.y + b.y));
}

void App::mark_target(const std::string& name, float x, float y) {
  if (script_.active()) script_.targets[name] = {x, y};
}

}  // namespace cilab
