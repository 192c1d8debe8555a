// The Presets menu (shipped demos grouped by chapter, and the user's own),
// opening a preset, its note box, and Save as preset.
#include "algorithms/core/npz.h"
#include "algorithms/core/registry.h"
#include "algorithms/data/csv_writer.h"
#include "algorithms/data/datasets.h"
#include "algorithms/text/embedding.h"
#include "app/app.h"
#include "app/headless/cli.h"
#include "views/common/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <future>

namespace cilab {
namespace {

// ImGui 1.86 has no std::string InputText: a fixed buffer edited in place.
bool input_string(const char* label, std::string& s, size_t capacity, bool multiline, float height = 0.0f) {
  std::vector<char> buf(capacity, '\0');
  std::memcpy(buf.data(), s.data(), std::min(s.size(), capacity - 1));
  const bool changed =
      multiline ? ImGui::InputTextMultiline(label, buf.data(), buf.size(), ImVec2(-1.0f, height))
                : ImGui::InputText(label, buf.data(), buf.size());
  if (changed) s = buf.data();
  return changed;
}

// Lines of `text` no wider than `width`, broken at spaces only (ImGui's own
// wrapping also breaks after '.', which splits "0.0331" at the end of a line).
// Moves the front of an over-wide `line` (one word longer than the width: a layer line, a path)
// into `lines` while it does not fit: cut after the last ',' '/' '-' that fits, else after the
// last whole UTF-8 character that fits.
void break_wide(std::string& line, float width, std::vector<std::string>& lines) {
  while (line.size() > 1 && ImGui::CalcTextSize(line.c_str()).x > width) {
    size_t fit = 0, soft = 0;
    for (size_t i = 1; i <= line.size(); ++i) {
      if (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;  // inside a character
      if (ImGui::CalcTextSize(line.c_str(), line.c_str() + i).x > width) break;
      fit = i;
      const char c = line[i - 1];
      if (c == ',' || c == '/' || c == '-') soft = i;
    }
    if (fit == 0) fit = 1;
    while (fit < line.size() && (static_cast<unsigned char>(line[fit]) & 0xC0) == 0x80) ++fit;
    const size_t cut = soft > fit / 2 ? soft : fit;
    lines.push_back(line.substr(0, cut));
    line.erase(0, cut);
  }
}

std::vector<std::string> wrap_on_spaces(const std::string& text, float width) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    const std::string para = text.substr(start, nl - start);
    std::string line;
    size_t i = 0;
    while (i <= para.size()) {
      size_t sp = para.find(' ', i);
      if (sp == std::string::npos) sp = para.size();
      const std::string word = para.substr(i, sp - i);
      const std::string candidate = line.empty() ? word : line + " " + word;
      if (!line.empty() && ImGui::CalcTextSize(candidate.c_str()).x > width) {
        lines.push_back(line);
        line = word;
      } else {
        line = candidate;
      }
      break_wide(line, width, lines);
      i = sp + 1;
    }
    lines.push_back(line);
    start = nl + 1;
  }
  return lines;
}

}  // namespace

void App::reload_presets() {
  preset_errors_.clear();
  presets_ = load_presets(&preset_errors_);
}

RunRecipe App::recipe_of(const LabFile& lab, const ParamSpecs& specs, ParamValues* panel_values) {
  RunRecipe recipe;
  uint64_t seed = lab.seed;
  bool seed_given = true;
  recipe.values = params_from_sets(specs, lab_assignments(lab), lab.module, &seed, &seed_given);
  recipe.seed = seed;
  recipe.iteration = lab.iteration;
  recipe.phase = lab.phase;
  recipe.last_iteration = lab.last_iteration;
  *panel_values = recipe.values;  // the panel shows the values after the run's live edits
  for (const LabEdit& e : lab.edits) {
    RunEdit r;
    r.iteration = e.iteration;
    r.phase = e.phase;
    r.live = e.intent.empty();
    r.name = e.param;
    r.value = e.value;
    r.intent = Intent{e.intent, e.index, e.values};
    if (r.live) {
      const ParamSpec* spec = find_param(specs, r.name);
      if (!spec || spec->update != ParamUpdate::Live)
        throw std::invalid_argument("edit at iteration " + std::to_string(r.iteration) + ": '" + r.name +
                                    "' is not a live parameter of " + lab.module);
      if (r.iteration < lab.iteration || (r.iteration == lab.iteration && r.phase <= lab.phase))
        (*panel_values)[r.name] = r.value;  // the values at the position shown
    }
    recipe.edits.push_back(std::move(r));
  }
  return recipe;
}

void App::open_preset(const LabFile& preset) {
  const char* what = preset.session ? "session" : "preset";
  try {
    check_preset(preset);
    const std::unique_ptr<Module> probe = make_module(preset.module);
    const ModuleInfo info = probe->info();
    auto pm = std::make_unique<PendingModule>();
    pm->name = preset.module;
    pm->specs = probe->params();
    pm->recipe = recipe_of(preset, pm->specs, &pm->values);
    pm->preset = std::make_shared<const LabFile>(preset);
    pm->runner = std::make_unique<Runner>([name = preset.module] { return make_module(name); });
    pm->runner->set_speed(runner_ ? runner_->speed() : 4.0);
    // The file's data, else the module's default: loaded in the background, then the replay.
    std::string spec = preset.dataset;
    const std::string file = preset.data_file;
    if (spec.empty() && file.empty() && !preset.data_embedded && info.needs_dataset) {
      spec = info.default_dataset;
      pm->to_default = true;
    }
    pm->origin = {spec, file};
    if (!file.empty()) {
      const LoadOptions opts = data_load_options(info, "", true);
      pm->data_load = load_async(pm->load_progress, [file, opts] { return cilab::load_file(file, opts); });
    } else if (!spec.empty()) {
      pm->data_load = load_async(pm->load_progress, [spec] { return make_dataset(spec); });
    } else {  // embedded data, or a module that runs without data (optimizers on 2-D functions)
      pm->data = preset.data_embedded;
      pm->ticket = pm->runner->replay_recipe(pm->data, pm->recipe);
    }
    if (pending_module_) {
      retired_runners_.push_back(std::move(pending_module_->runner));
      if (pending_module_->data_load.valid()) abandoned_loads_.push_back(std::move(pending_module_->data_load));
    }
    pending_module_ = std::move(pm);
    thin_leaving_history();
  } catch (const std::exception& e) {
    show_error(std::string("cannot open the ") + what + ": " + e.what());
  }
}

void App::commit_preset(const LabFile& preset) {
  if (!preset.session || !preset.note.empty()) {
    preset_shown_ = std::make_shared<const LabFile>(preset);
    preset_note_open_ = !preset.note.empty() && preset.note_open;
  }
  pending_tab_ = preset.tab;
  pending_plot_views_ = preset.plot_views;  // a session's zoomed plots, put back as they draw
  pending_views_key_ = plot_data_key_;
  // A preset's layout lasts while it is open: the previous preset's ends here (a preset that hid
  // the metrics strip does not hide it for the next one), then this one's applies.
  restore_user_panels();
  if (!preset.panels.empty()) {
    panels_overridden_ = true;
    user_panels_[0] = settings_.show_browser;
    user_panels_[1] = settings_.show_data;
    user_panels_[2] = settings_.show_params;
    user_panels_[3] = settings_.show_metrics;
  }
  for (const auto& [panel, shown] : preset.panels) {
    if (panel == "browser") settings_.show_browser = shown;
    else if (panel == "data") settings_.show_data = shown;
    else if (panel == "params") settings_.show_params = shown;
    else if (panel == "metrics") settings_.show_metrics = shown;
  }
}

void App::restore_user_panels() {
  if (!panels_overridden_) return;
  panels_overridden_ = false;
  settings_.show_browser = user_panels_[0];
  settings_.show_data = user_panels_[1];
  settings_.show_params = user_panels_[2];
  settings_.show_metrics = user_panels_[3];
}

Settings App::settings_to_save() const {
  Settings s = settings_;
  if (panels_overridden_) {
    s.show_browser = user_panels_[0];
    s.show_data = user_panels_[1];
    s.show_params = user_panels_[2];
    s.show_metrics = user_panels_[3];
  }
  return s;
}

LabFile App::preset_of_current_state() const {
  if (!data_origin_.spec.empty() || !data_origin_.file.empty() || !data_) {
    LabFile lab;
    lab.module = module_name_;
    lab.dataset = data_origin_.spec;
    lab.data_file = data_origin_.file;
    for (const ParamSpec& s : specs_) {
      if (is_compound(s)) continue;
      if (is_text_valued(s)) {
        auto it = running_.text.find(s.name);
        if (it != running_.text.end()) lab.params.emplace_back(s.name, it->second);
        continue;
      }
      auto it = running_.find(s.name);
      if (it == running_.end()) continue;
      if (s.type == ParamType::Real) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", it->second);  // exact: the run reopens bit for bit
        lab.params.emplace_back(s.name, buf);
      } else {
        lab.params.emplace_back(s.name, format_value(s, it->second));
      }
    }
    lab.seed = seed_;
    lab.iteration = save_iteration_ ? std::max(0, runner_->current_iteration()) : 0;
    lab.tab = shown_tab_;  // the preset opens on the tab shown now
    return lab;
  }
  throw std::invalid_argument(
      "the data was edited (clicked points), and a preset can only name built-in data or a file; "
      "save the points first (File > Export) or use a built-in dataset");
}

LabFile App::session_of_current_state() const {
  LabFile lab;
  lab.session = true;
  lab.module = module_name_;
  if (preset_shown_) {  // a session of a preset keeps its title and note, shown or hidden as now
    lab.title = preset_shown_->title;
    lab.note = preset_shown_->note;
    lab.note_open = preset_note_open_;
  }
  if (!data_origin_.spec.empty()) lab.dataset = data_origin_.spec;
  else if (!data_origin_.file.empty()) lab.data_file = data_origin_.file;
  else if (data_) lab.data_embedded = data_;  // edited (clicked points): the data itself
  const RunRecipe r = runner_->recipe();
  for (const ParamSpec& s : specs_) {
    if (is_compound(s)) continue;
    if (is_text_valued(s)) {
      auto it = r.values.text.find(s.name);
      if (it != r.values.text.end()) lab.params.emplace_back(s.name, it->second);
      continue;
    }
    auto it = r.values.find(s.name);
    if (it == r.values.end()) continue;
    lab.params.emplace_back(s.name, s.type == ParamType::Real ? exact_number_text(it->second)
                                                              : format_value(s, it->second));
  }
  lab.seed = r.seed;
  lab.iteration = r.iteration;
  lab.phase = r.phase;
  lab.last_iteration = r.last_iteration > r.iteration ? r.last_iteration : 0;
  for (const RunEdit& e : r.edits) {
    LabEdit l;
    l.iteration = e.iteration;
    l.phase = e.phase;
    if (e.live) {
      l.param = e.name;
      l.value = e.value;
    } else {
      l.intent = e.intent.kind;
      l.index = e.intent.index;
      l.values = e.intent.values;
    }
    lab.edits.push_back(std::move(l));
  }
  lab.tab = shown_tab_;
  // The plots the user zoomed or panned (of this run; in a stable order).
  for (const plot::SavedViews::View& v : plot::SaveViews().views)
    if (v.user_view && v.current_data) lab.plot_views.push_back({v.id, v.x_min, v.x_max, v.y_min, v.y_max});
  std::sort(lab.plot_views.begin(), lab.plot_views.end(),
            [](const LabPlotView& a, const LabPlotView& b) { return a.plot < b.plot; });
  lab.panels = {{"browser", settings_.show_browser},
                {"data", settings_.show_data},
                {"params", settings_.show_params},
                {"metrics", settings_.show_metrics}};
  return lab;
}

void App::save_session(const std::string& path) {
  try {
    const LabFile lab = session_of_current_state();
    const std::string text = write_lab_file(lab);
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out) throw std::runtime_error("cannot write " + tmp + "; check the folder and its permissions");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw std::runtime_error("cannot write " + path + ": " + ec.message());
    info_ = "Saved the session at iteration " + std::to_string(lab.iteration) + " to " + path +
            (compare_ ? " (run A: a session holds one run)" : "");
    info_time_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
  } catch (const std::exception& e) {
    show_error(std::string("cannot save the session: ") + e.what());
  }
}

namespace {

// Writes `text` to `path` through a temporary file (a failed write leaves the old file).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp + "; check the folder and its permissions");
    write(out);
    if (!out) throw std::runtime_error("cannot write " + tmp + "; is the disk full?");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot write " + path + ": " + ec.message());
}

}  // namespace

void App::export_metrics_csv(const std::string& path) {
  try {
    const ModuleInfo* info = runner_->info();
    if (!info) throw std::runtime_error("no run yet");
    // One block of columns per run: the metrics and step_ms of A, then (comparing) of B,
    // named "A metric" and "B metric"; a run with fewer iterations leaves its fields empty.
    struct Block {
      const std::vector<std::vector<double>>* metrics;
      const std::vector<double>* ms;
    };
    metric_mirror_.sync(runner_->metric_history().get());
    std::vector<Block> blocks = {{&metric_mirror_.metrics(), &metric_mirror_.step_ms()}};
    if (compare_) {
      compare_->mirror.sync(compare_->runner->metric_history().get());
      blocks.push_back({&compare_->mirror.metrics(), &compare_->mirror.step_ms()});
    }
    size_t rows = 0;
    for (const Block& b : blocks) rows = std::max(rows, b.metrics->size());
    write_file_atomically(path, [&](std::ostream& out) {
      out.precision(17);
      out << "iteration";
      for (size_t k = 0; k < blocks.size(); ++k) {
        const std::string prefix = blocks.size() == 1 ? "" : k == 0 ? "A " : "B ";
        for (const MetricInfo& m : info->metrics) out << "," << csv_field(prefix + m.name);
        out << "," << prefix << "step_ms";
      }
      out << "\n";
      for (size_t i = 0; i < rows; ++i) {
        out << i;
        for (const Block& b : blocks) {
          const bool has = i < b.metrics->size();
          for (size_t m = 0; m < info->metrics.size(); ++m) {
            out << ",";
            if (has && m < (*b.metrics)[i].size()) write_csv_number(out, (*b.metrics)[i][m]);
          }
          char t[32] = "";
          if (has) std::snprintf(t, sizeof t, "%.3f", i < b.ms->size() ? (*b.ms)[i] : 0.0);
          out << "," << t;
        }
        out << "\n";
      }
    });
    info_ = "Exported the metrics of " + std::to_string(rows) + " iterations" + (compare_ ? " (runs A and B)" : "") +
            " to " + path;
    info_time_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
  } catch (const std::exception& e) {
    show_error(std::string("cannot export the metrics: ") + e.what());
  }
}

void App::export_data_csv(const std::string& path) {
  try {
    if (!data_) throw std::runtime_error("no data loaded");
    const std::shared_ptr<const Dataset> d = data_;
    write_file_atomically(path, [&](std::ostream& out) { write_dataset_csv(*d, out); });
    info_ = "Exported " + std::to_string(d->rows()) + " rows to " + path;
    info_time_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
  } catch (const std::exception& e) {
    show_error(std::string("cannot export the data: ") + e.what());
  }
}

void App::export_word_vectors(const std::string& path) {
  try {
    const auto* e = dynamic_cast<const EmbeddingSnapshot*>(shown_.get());
    if (!e) throw std::runtime_error(module_name_ + " has no word vectors (word2vec and glove have)");
    int words = 0;
    write_file_atomically(path, [&](std::ostream& out) { words = write_word2vec_format(*e, out); });
    info_ = "Exported " + std::to_string(words) + " word vectors (iteration " + std::to_string(e->vectors_iteration) +
            ") to " + path;
    info_time_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
  } catch (const std::exception& ex) {
    show_error(std::string("cannot export the word vectors: ") + ex.what());
  }
}

void App::export_weights(const std::string& path) {
  try {
    std::vector<NpyArray> weights;
    if (!shown_ || !shown_->weights(weights))
      throw std::runtime_error(module_name_ + " trains no network (mlp, cnn, autoencoder, vae and gan do)");
    write_file_atomically(path, [&](std::ostream& out) { write_npz(out, weights); });
    size_t values = 0;
    for (const NpyArray& w : weights) values += w.f32.size() + w.i64.size();
    info_ = "Exported " + std::to_string(weights.size()) + " weight tensors (" + std::to_string(values) +
            " values, iteration " + std::to_string(shown_->iteration) + ") to " + path;
    info_time_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
  } catch (const std::exception& ex) {
    show_error(std::string("cannot export the weights: ") + ex.what());
  }
}

std::string App::export_folder() const {
  if (!settings_.last_folder.empty()) return settings_.last_folder;
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  return ec ? std::string(".") : cwd.string();
}

void App::request_plot_png(const plot::ExportRequest& req) {
  if (plot_png_ || png_export_delay_ > 0) return;  // one export at a time
  plot_png_ = req;
  save_kind_ = SaveKind::PlotPng;
  save_session_request_ = true;
}

void App::draw_save_session_popup() {
  const char* titles[] = {"Save session", "Export metrics", "Export data", "Export the window as PNG",
                          "Export word vectors", "Save the plot as PNG", "Export weights"};
  const char* title = titles[static_cast<int>(save_kind_)];
  if (save_session_request_) {
    save_session_request_ = false;
    const std::string dir = export_folder();
    const std::string file = save_kind_ == SaveKind::Session      ? module_name_ + ".cilab"
                             : save_kind_ == SaveKind::MetricsCsv ? module_name_ + "-metrics.csv"
                             : save_kind_ == SaveKind::WordVectors ? module_name_ + "-vectors.txt"
                             : save_kind_ == SaveKind::Weights
                                 ? module_name_ + "-weights-it" + std::to_string(std::max(0, runner_->current_iteration())) + ".npz"
                             : save_kind_ == SaveKind::WindowPng
                                 ? module_name_ + "-it" + std::to_string(std::max(0, runner_->current_iteration())) + ".png"
                             : save_kind_ == SaveKind::PlotPng && plot_png_
                                 ? module_name_ + "-" + plot_png_->name + "-it" +
                                       std::to_string(std::max(0, runner_->current_iteration())) + ".png"
                                 : (data_ ? data_->name : std::string("data")) + ".csv";
    session_path_ = (std::filesystem::path(dir) / file).string();
    ImGui::OpenPopup(title);
  }
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36.0f, 0.0f), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  if (save_kind_ == SaveKind::Session)
    ImGui::TextWrapped(
        "A session reopens this exact state: module %s, its data, parameters, seed, the edits made while it ran, "
        "and iteration %d (re-simulated on open). File > Open, a drop on the window, or cilab --session FILE.",
        module_name_.c_str(), std::max(0, runner_->current_iteration()));
  else if (save_kind_ == SaveKind::MetricsCsv)
    ImGui::TextWrapped("One row per iteration: iteration, every metric of %s, step_ms (as cilab run writes).",
                       module_name_.c_str());
  else if (save_kind_ == SaveKind::WordVectors)
    ImGui::TextWrapped("The word vectors of the iteration shown in the word2vec text format: a line \"V d\", then "
                       "each word and its d values. gensim: KeyedVectors.load_word2vec_format(path).");
  else if (save_kind_ == SaveKind::Weights)
    ImGui::TextWrapped("The network's weights at the iteration shown, as numpy .npz named as PyTorch's state_dict "
                       "(0.weight, 0.bias, ...; the VAE's under encoder and decoder, the GAN's under generator and "
                       "discriminator). In PyTorch: "
                       "model.load_state_dict({k: torch.from_numpy(v) for k, v in np.load(path).items()}) on the "
                       "same layers.");
  else if (save_kind_ == SaveKind::WindowPng) {
    ImGui::TextWrapped("The whole window as it is drawn (this dialog closes first). 2x renders it again at twice "
                       "the resolution, for slides. One plot: right-click it > Save as PNG.");
    ImGui::RadioButton("1x", &png_scale_, 1);
    ImGui::SameLine();
    ImGui::RadioButton("2x", &png_scale_, 2);
  } else if (save_kind_ == SaveKind::PlotPng) {
    ImGui::TextWrapped("The plot '%s' as drawn (this dialog closes first), at %dx. Exports go to the folder of "
                       "the path below, which the next export offers again.",
                       plot_png_ ? plot_png_->name.c_str() : "", plot_png_ ? plot_png_->scale : 1);
  } else
    ImGui::TextWrapped("The current dataset (%d rows, clicked points included): features, then a label column.",
                       data_ ? data_->rows() : 0);
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  input_string("##save_path", session_path_, 1024, false);
  mark_target("save-session:path");
  if (ImGui::Button("Save") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
    if (save_kind_ == SaveKind::Session) save_session(session_path_);
    else if (save_kind_ == SaveKind::MetricsCsv) export_metrics_csv(session_path_);
    else if (save_kind_ == SaveKind::WordVectors) export_word_vectors(session_path_);
    else if (save_kind_ == SaveKind::Weights) export_weights(session_path_);
    else if (save_kind_ == SaveKind::WindowPng || save_kind_ == SaveKind::PlotPng) {
      png_export_path_ = session_path_;
      png_export_delay_ = 3;  // after the dialog has gone from the picture
    }
    else export_data_csv(session_path_);
    // The folder chosen is where the next export is offered (and the file dialog opens).
    const std::filesystem::path chosen = std::filesystem::path(session_path_).parent_path();
    std::error_code ec;
    if (!chosen.empty() && std::filesystem::is_directory(chosen, ec)) browser_.set_last_folder(chosen.string());
    ImGui::CloseCurrentPopup();
  }
  mark_target("save-session:save");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) {
    if (save_kind_ == SaveKind::PlotPng) plot_png_.reset();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void App::draw_presets_menu() {
  const bool open = ImGui::BeginMenu("Presets");
  mark_target("menu:Presets");
  if (!open) return;
  // Chapters in the module browser's order, then any other.
  std::vector<std::string> chapters;
  for (const ModuleInfo& m : module_infos_)
    if (std::find(chapters.begin(), chapters.end(), m.chapter) == chapters.end()) chapters.push_back(m.chapter);
  auto chapter_of = [&](const LabFile& p) {
    if (!p.chapter.empty()) return p.chapter;
    for (const ModuleInfo& m : module_infos_)
      if (m.name == p.module) return m.chapter;
    return std::string("Other");
  };
  for (const LabFile& p : presets_) {
    const std::string c = chapter_of(p);
    if (std::find(chapters.begin(), chapters.end(), c) == chapters.end()) chapters.push_back(c);
  }
  const LabFile* chosen = nullptr;
  for (const std::string& c : chapters) {
    const bool any = std::any_of(presets_.begin(), presets_.end(), [&](const LabFile& p) { return chapter_of(p) == c; });
    if (!any) continue;
    const bool sub = ImGui::BeginMenu(c.c_str());
    mark_target("menu:Presets/" + c);
    if (!sub) continue;
    for (const LabFile& p : presets_) {
      if (chapter_of(p) != c) continue;
      const std::string label = p.title + (p.user ? "  (yours)" : "") + "##" + p.name + (p.user ? "-user" : "");
      if (ImGui::MenuItem(label.c_str(), p.module.c_str())) chosen = &p;
      mark_target("preset:" + p.name);
      if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        ImGui::TextUnformatted(p.note.empty() ? p.title.c_str() : p.note.c_str());
        ImGui::TextDisabled("%s: module %s%s%s, seed %llu%s", p.name.c_str(), p.module.c_str(),
                            p.dataset.empty() ? "" : ", data ", p.dataset.c_str(),
                            static_cast<unsigned long long>(p.seed),
                            p.iteration > 0 ? (", opens at iteration " + std::to_string(p.iteration)).c_str() : "");
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
    ImGui::EndMenu();
  }
  if (presets_.empty()) ImGui::TextDisabled("No presets found in %s", shipped_presets_dir().c_str());
  ImGui::Separator();
  if (ImGui::MenuItem("Save as preset...")) save_preset_request_ = true;
  mark_target("menu:Presets/Save as preset");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Saves the module, data, parameters, seed and iteration shown as your own preset\n"
                      "(in %s); it appears in this menu beside the shipped ones.",
                      user_presets_dir().c_str());
  if (ImGui::MenuItem("Show the note", nullptr, false, preset_shown_ && !preset_shown_->note.empty()))
    preset_note_open_ = true;
  if (ImGui::MenuItem("Reload presets")) reload_presets();
  if (!preset_errors_.empty()) {
    ImGui::Separator();
    ImGui::TextColored(colour_vec(colors().error), "%d preset file(s) could not be read",
                       static_cast<int>(preset_errors_.size()));
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      for (const std::string& e : preset_errors_) ImGui::TextUnformatted(e.c_str());
      ImGui::EndTooltip();
    }
  }
  ImGui::EndMenu();
  if (chosen) {
    const LabFile copy = *chosen;  // reload_presets may replace the list
    open_preset(copy);
  }
}

bool App::preset_note_shown() const { return preset_note_open_ && preset_shown_ && !preset_shown_->note.empty(); }

float App::preset_note_height(float width, bool collapsed) const {
  if (!preset_note_shown()) return 0.0f;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float frame = 2.0f * style.WindowPadding.y + 4.0f + style.ItemSpacing.y;
  if (collapsed) return ImGui::GetTextLineHeightWithSpacing() + frame;
  const float wrap = width - 2.0f * style.WindowPadding.x - ImGui::GetFontSize() * 1.0f;
  const size_t lines = wrap_on_spaces(preset_shown_->note, wrap).size();
  return std::min(ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(lines + 1) + frame - style.ItemSpacing.y,
                  ImGui::GetIO().DisplaySize.y * 0.3f) +
         style.ItemSpacing.y;
}

float App::draw_preset_note(float width, bool collapsed) {
  if (!preset_note_shown()) return 0.0f;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float h = preset_note_height(width, collapsed) - style.ItemSpacing.y;
  const float wrap = width - 2.0f * style.WindowPadding.x - ImGui::GetFontSize() * 1.0f;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, colors().note_bg);
  ImGui::BeginChild("preset_note", ImVec2(width, h), true, collapsed ? ImGuiWindowFlags_NoScrollbar : 0);
  const float hide_x = width - 2.0f * style.WindowPadding.x - ImGui::CalcTextSize("Hide").x - 2.0f * style.FramePadding.x;
  ImGui::TextColored(colour_vec(colors().accent), "Preset: %s", preset_shown_->title.c_str());
  if (collapsed) {
    // One line (the view needs the room): the note's start, the whole note on hover or F2.
    const char* hint = "(F2: the whole note)";
    const float hint_w = ImGui::CalcTextSize(hint).x;
    ImGui::SameLine();
    const float room = hide_x - ImGui::GetCursorPosX() - hint_w - 2.0f * style.ItemSpacing.x;
    if (room > ImGui::GetFontSize() * 4.0f) {
      const std::vector<std::string> first = wrap_on_spaces(preset_shown_->note, room - ImGui::CalcTextSize(" ...").x);
      ImGui::TextUnformatted(first.empty() ? "" : (first[0] + (first.size() > 1 ? " ..." : "")).c_str());
      ImGui::SameLine();
    }
    if (ImGui::GetCursorPosX() + hint_w < hide_x) ImGui::TextDisabled("%s", hint);
  }
  ImGui::SameLine(hide_x);
  if (ImGui::SmallButton("Hide")) preset_note_open_ = false;
  mark_target("preset-note:hide");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide the note (Presets > Show the note brings it back)");
  if (!collapsed)
    for (const std::string& l : wrap_on_spaces(preset_shown_->note, wrap)) ImGui::TextUnformatted(l.c_str());
  const bool hovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) && !ImGui::IsAnyItemHovered();
  if (collapsed && hovered) {
    ImGui::BeginTooltip();
    const float tip_w = std::min(ImGui::GetFontSize() * 40.0f, ImGui::GetIO().DisplaySize.x * 0.8f);
    for (const std::string& l : wrap_on_spaces(preset_shown_->note, tip_w)) ImGui::TextUnformatted(l.c_str());
    ImGui::TextDisabled("F2 or a click keeps it open (the view gets smaller)");
    ImGui::EndTooltip();
  }
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) note_expanded_ = !note_expanded_;
  ImGui::EndChild();
  ImGui::PopStyleColor();
  return h + style.ItemSpacing.y;
}

void App::draw_save_preset_popup() {
  if (save_preset_request_) {
    save_preset_request_ = false;
    if (preset_shown_ && !preset_shown_->user) {  // start from the preset opened, under a new name
      save_title_ = preset_shown_->title + " (mine)";
      save_note_ = preset_shown_->note;
    } else if (save_title_.empty()) {
      save_title_ = module_name_ + ": my settings";
    }
    if (save_name_.empty()) save_name_ = "my-" + module_name_;
    ImGui::OpenPopup("Save as preset");
  }
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34.0f, 0.0f), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Save as preset", nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
  ImGui::TextWrapped("Saves module %s with its data, parameters and seed to your presets folder:",
                     module_name_.c_str());
  ImGui::TextDisabled("%s", user_presets_dir().c_str());
  input_string("Name (file name)", save_name_, 65, false);
  mark_target("save-preset:name");
  input_string("Title (menu)", save_title_, 200, false);
  mark_target("save-preset:title");
  ImGui::TextUnformatted("Note (shown on open: what to look at, what to ask):");
  input_string("##note", save_note_, 4096, true, ImGui::GetTextLineHeight() * 6.0f);
  const int it = std::max(0, runner_->current_iteration());
  const std::string open_at = "Open at iteration " + std::to_string(it) + " (else at the start)";
  ImGui::Checkbox(open_at.c_str(), &save_iteration_);
  if (ImGui::Button("Save")) {
    try {
      LabFile lab = preset_of_current_state();
      lab.title = save_title_.empty() ? save_name_ : save_title_;
      lab.note = save_note_;
      const std::string path = save_user_preset(lab, save_name_);
      reload_presets();
      info_ = "Saved preset '" + save_name_ + "' (" + path + "): it is in the Presets menu.";
      info_time_ = ImGui::GetTime();
      ImGui::CloseCurrentPopup();
    } catch (const std::exception& e) {
      show_error(std::string("cannot save the preset: ") + e.what());
    }
  }
  mark_target("save-preset:save");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace cilab
