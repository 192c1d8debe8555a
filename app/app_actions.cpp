// App actions: every change of module, data or parameters goes through here.
// A failure keeps what the user had and shows the message.
#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace cilab {

void App::show_error(const std::string& message) {
  error_ = message;
  error_time_ = ImGui::GetCurrentContext() ? ImGui::GetTime() : 0.0;
  std::cerr << "cilab: " << message << "\n";
}

void App::restart() {
  runner_->reset(data_, values_, seed_);
  runner_->wait_idle();
  if (!runner_->last_error().empty()) {
    show_error(runner_->last_error());
    runner_->clear_error();
    values_ = runner_->values();  // back to what the run has
    return;
  }
  if (view_) view_->on_reset();
}

void App::open_module(const std::string& name) {
  if (name == module_name_) return;
  try {
    const std::unique_ptr<Module> probe = make_module(name);
    const ModuleInfo info = probe->info();
    std::shared_ptr<const Dataset> data = data_;
    const bool to_default = info.needs_dataset && (!data || data_is_default_);
    if (to_default) data = make_dataset(info.default_dataset);
    auto runner = std::make_unique<Runner>([name] { return make_module(name); });
    runner->set_speed(runner_ ? runner_->speed() : 4.0);
    const ParamValues values = default_values(probe->params());
    runner->reset(data, values, seed_);
    runner->wait_idle();
    if (!runner->last_error().empty()) {
      show_error("cannot open " + name + ": " + runner->last_error());
      return;
    }
    runner_ = std::move(runner);
    module_name_ = name;
    specs_ = probe->params();
    values_ = values;
    text_edit_.clear();
    text_edit_dirty_.clear();
    if (data != data_) {
      data_ = data;
      ++data_version_;
      sync_data_panel();
    }
    if (to_default) data_is_default_ = true;
    view_ = make_view(name);
  } catch (const std::exception& e) {
    show_error(std::string("cannot open module ") + name + ": " + e.what());
  }
}

void App::set_dataset(std::shared_ptr<const Dataset> data) {
  runner_->reset(data, values_, seed_);
  runner_->wait_idle();
  if (!runner_->last_error().empty()) {
    show_error("kept the previous data: " + runner_->last_error());
    runner_->clear_error();
    return;
  }
  data_ = std::move(data);
  data_is_default_ = false;  // chosen by the user: kept when another module opens
  ++data_version_;
  sync_data_panel();
  if (view_) view_->on_reset();
  if (data_ && data_->cols() != 2) edit_points_ = false;
}

void App::change_param(const ParamSpec& spec, double value) {
  values_[spec.name] = value;
  if (spec.update == ParamUpdate::Live) {
    runner_->set_live(spec.name, value);
    runner_->wait_idle();
    if (!runner_->last_error().empty()) {
      show_error(runner_->last_error());
      runner_->clear_error();
      values_ = runner_->values();
    }
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
    builtin_options_.clear();
    for (const DatasetOption& o : infos[i].options) {
      double v = o.def;
      const std::string key = o.name + "=";
      for (size_t pos = src.find(':'); pos != std::string::npos; pos = src.find(',', pos + 1)) {
        if (src.compare(pos + 1, key.size(), key) == 0) {
          v = std::strtod(src.c_str() + pos + 1 + key.size(), nullptr);
          break;
        }
      }
      builtin_options_.push_back(std::clamp(v, o.min, o.max));
    }
    return;
  }
}

void App::load_file(const std::string& path) {
  try {
    std::shared_ptr<const Dataset> d = cilab::load_file(path);
    set_dataset(std::move(d));
    settings_.add_recent(path);
    save_settings(settings_);
  } catch (const std::exception& e) {
    show_error(std::string(e.what()) + " (kept the previous data)");
  }
}

void App::load_builtin(const std::string& spec) {
  try {
    set_dataset(make_dataset(spec));
  } catch (const std::exception& e) {
    show_error(std::string(e.what()) + " (kept the previous data)");
  }
}

void App::apply_intents(std::vector<ViewIntent>& intents) {
  bool pending_restart = false;  // Rebuild changes of one frame restart once
  for (ViewIntent& vi : intents) {
    try {
      switch (vi.kind) {
        case ViewIntent::Kind::SetParam: {
          const ParamSpec* spec = find_param(specs_, vi.param);
          if (!spec || is_compound(*spec)) {
            show_error("the view asked for an unknown parameter '" + vi.param + "'");
            break;
          }
          if (spec->type == ParamType::Text) {
            values_.text[spec->name] = vi.text;
            text_edit_[spec->name] = vi.text;
            text_edit_dirty_[spec->name] = true;
            pending_restart = true;
          } else if (spec->update == ParamUpdate::Live && !pending_restart) {
            change_param(*spec, vi.value);
          } else {
            values_[spec->name] = vi.value;
            pending_restart = true;
          }
          break;
        }
        case ViewIntent::Kind::Seek:
          if (pending_restart) {
            // After a Rebuild change of this frame: the new run starts, then runs to the iteration.
            restart();
            pending_restart = false;
            runner_->step_n(vi.iteration);
          } else {
            runner_->seek(vi.iteration);
          }
          break;
        case ViewIntent::Kind::Module:
          runner_->apply(vi.intent);
          break;
        case ViewIntent::Kind::AddPoint:
          if (data_) set_dataset(with_point_added(*data_, vi.x, vi.y, vi.label));
          break;
        case ViewIntent::Kind::RemovePoint:
          if (data_ && data_->rows() > 1) {
            const int row = nearest_row(*data_, vi.x, vi.y);
            if (row >= 0) set_dataset(with_point_removed(*data_, row));
          }
          break;
      }
    } catch (const std::exception& e) {
      show_error(e.what());
    }
  }
  intents.clear();
  if (pending_restart) restart();
  if (!runner_->last_error().empty()) {
    show_error(runner_->last_error());
    runner_->clear_error();
  }
}

void App::handle_shortcuts() {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
  auto pressed = [](int glfw_key, bool repeat = false) {
    return ImGui::IsKeyPressed(glfw_key, repeat);
  };
  // ImGui 1.86 GLFW backend indexes KeysDown by GLFW key codes.
  if (pressed(GLFW_KEY_SPACE)) runner_->toggle_play();
  if (pressed(GLFW_KEY_RIGHT, true)) runner_->step();
  if (pressed(GLFW_KEY_LEFT, true)) runner_->back();
  if (pressed(GLFW_KEY_S, true)) runner_->sub_step();
  if (pressed(GLFW_KEY_R)) restart();
  if (io.KeyCtrl && pressed(GLFW_KEY_O)) browser_.open();
  if (io.KeyCtrl && (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD))) {
    settings_.ui_scale = std::min(3.0f, settings_.ui_scale + 0.125f);
    scale_dirty_ = true;
  }
  if (io.KeyCtrl && (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT))) {
    settings_.ui_scale = std::max(0.5f, settings_.ui_scale - 0.125f);
    scale_dirty_ = true;
  }
  if (pressed(GLFW_KEY_F1)) show_shortcuts_ = !show_shortcuts_;
}

}  // namespace cilab
