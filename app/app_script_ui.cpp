// --script commands that drive the shell's widgets the way a user does and
// read back what it shows (run_script_line in app_script.cpp hands them over):
//
//   click TARGET [ctrl]     move the mouse to a named widget and click it (3 frames)
//   type TEXT [enter]       type TEXT (one frame), then optionally press Enter
//   scale S                 set the UI scale, as View > UI scale does
//   expect text TEXT        TEXT (case-sensitive, the rest of the line) was drawn
//                           in the main window in the last frame (on a frame with a
//                           combo or menu open, only the text drawn before it)
//   expect no-text TEXT     ... was not drawn
//   expect seed N           the seed of the run is N
//   expect metric NAME V    the shown snapshot's metric NAME is V (relative 1e-9);
//                           NAME < V | NAME > V: below / above a bound
//   expect dialog-folder P  the file dialog is open and lists the folder P
//
// Targets: "seed", "builtin-combo", "dataset:NAME", "option:NAME",
// "option:NAME=CHOICE", "param:NAME:slider", "param:NAME:-", "param:NAME:+",
// "menu:View", "menu:View/Reset layout" (named with mark_target() when drawn;
// a popup's items exist once it has been open for a frame: `wait 1` first).
#include "app/app.h"
#include "views/common/theme.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cilab {

bool App::apply_script_input() {
  ImGuiIO& io = ImGui::GetIO();
  for (int k : script_keys_down_) io.KeysDown[k] = false;  // held for one frame
  script_keys_down_.clear();
  if (script_input_.empty()) return false;
  const ScriptInput in = script_input_.front();
  script_input_.erase(script_input_.begin());
  if (in.x >= 0.0f) io.MousePos = ImVec2(in.x, in.y);
  io.MouseDown[0] = in.down;
  io.KeyCtrl = in.ctrl;
  for (char c : in.chars) io.AddInputCharacter(static_cast<unsigned char>(c));
  if (in.key >= 0) {
    io.KeysDown[in.key] = true;  // ImGui's own key state: Enter in a text field
    script_keys_down_.push_back(in.key);
  }
  return true;
}

bool App::script_ui_command(const std::string& cmd, std::istringstream& in,
                            const std::function<void(const std::string&)>& fail) {
  auto rest_of_line = [&in] {
    std::string rest;
    std::getline(in >> std::ws, rest);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.pop_back();
    return rest;
  };
  if (cmd == "click") {
    std::string target = rest_of_line();  // names may hold spaces ("menu:View/Reset layout")
    std::string mod;
    if (target.size() > 5 && target.compare(target.size() - 5, 5, " ctrl") == 0) {
      mod = "ctrl";
      target.resize(target.size() - 5);
    }
    auto it = ui_targets_.find(target);
    if (it == ui_targets_.end()) {
      std::string known;
      for (const auto& [name, pos] : ui_targets_) known += (known.empty() ? "" : ", ") + name;
      fail("click: no widget named '" + target + "' on screen; known: " + known);
      return true;
    }
    const bool ctrl = mod == "ctrl";
    const float x = it->second.first, y = it->second.second;
    script_input_.push_back({x, y, false, ctrl, "", -1});  // hover
    script_input_.push_back({x, y, true, ctrl, "", -1});   // press
    script_input_.push_back({x, y, false, ctrl, "", -1});  // release
    return true;
  }
  if (cmd == "type") {
    std::string text = rest_of_line();
    bool enter = false;
    if (text.size() >= 6 && text.compare(text.size() - 6, 6, " enter") == 0) {
      enter = true;
      text.resize(text.size() - 6);
    }
    script_input_.push_back({-1.0f, -1.0f, false, false, text, -1});
    if (enter) script_input_.push_back({-1.0f, -1.0f, false, false, "", GLFW_KEY_ENTER});
    script_input_.push_back({});  // one frame for the result to show
    return true;
  }
  if (cmd == "scale") {
    float s = 0.0f;
    in >> s;
    if (!(s >= 0.5f && s <= 3.0f)) {
      fail("scale: expected a number in [0.5, 3]");
      return true;
    }
    settings_.ui_scale = s;
    scale_dirty_ = true;
    return true;
  }
  if (cmd == "theme" || cmd == "palette") {  // theme NAME, palette NAME: as the View menu does
    std::string name;
    in >> name;
    Theme t;
    Palette p;
    if (cmd == "theme" && !parse_theme(name, &t))
      fail("theme: unknown theme '" + name + "'; valid: " + theme_names());
    else if (cmd == "palette" && !parse_palette(name, &p))
      fail("palette: unknown palette '" + name + "'; valid: " + palette_names());
    else if (cmd == "theme")
      set_theme_setting(name, "");
    else
      set_theme_setting("", name);
    return true;
  }
  if (cmd != "expect") return false;
  const std::streampos start = in.tellg();
  std::string what;
  in >> what;
  if (what == "text" || what == "no-text") {
    if (captured_landed_ != landed_edits_ && !text_retried_) {
      // An edit (a module or preset opened, a restart) landed after the last frame was drawn:
      // read the text of the next frame instead (once). Steps do not count: a message shown
      // (and cleared by `expect error`) must still be read from the frame that drew it.
      text_retried_ = true;
      --script_pos_;
      script_wait_ = 1;
      return true;
    }
    text_retried_ = false;
    const std::string text = rest_of_line();
    const bool found = captured_text_.find(text) != std::string::npos;
    if (what == "text" && !found) fail("expected the text '" + text + "' on screen; drawn:\n" + captured_text_);
    if (what == "no-text" && found) fail("expected no text '" + text + "' on screen; drawn:\n" + captured_text_);
    return true;
  }
  if (what == "dialog-folder") {
    const std::string folder = rest_of_line();
    if (!browser_.is_open() || browser_.folder() != folder)
      fail("expected the file dialog open in " + folder + ", found " +
           (browser_.is_open() ? browser_.folder() : std::string("it closed")));
    return true;
  }
  if (what == "metric") {
    // expect metric NAME V (equal, relative 1e-9) | NAME < V | NAME > V (a bound).
    std::string name, op;
    double want = 0.0;
    in >> name >> op;
    if (op == "<" || op == ">") {
      in >> want;
    } else {
      want = std::strtod(op.c_str(), nullptr);
      op = "=";
    }
    runner_->wait_idle();
    const std::shared_ptr<const Snapshot> now = runner_->latest();
    const ModuleInfo* info = runner_->info();
    int index = -1;
    for (size_t i = 0; info && i < info->metrics.size(); ++i)
      if (info->metrics[i].name == name) index = static_cast<int>(i);
    if (index < 0 || !now || index >= static_cast<int>(now->metrics.size())) {
      fail("expect metric: no metric '" + name + "' in " + module_name_);
      return true;
    }
    const double got = now->metrics[static_cast<size_t>(index)];
    const bool ok = op == "<"   ? got < want
                    : op == ">" ? got > want
                                : std::abs(got - want) <= 1e-9 * std::max(1.0, std::abs(want));
    if (!ok) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "expected %s %s %.17g, found %.17g", name.c_str(), op.c_str(), want, got);
      fail(buf);
    }
    return true;
  }
  if (what == "seed") {
    unsigned long long n = 0;
    in >> n;
    if (seed_ != n) fail("expected seed " + std::to_string(n) + ", found " + std::to_string(seed_));
    return true;
  }
  in.clear();
  in.seekg(start);
  return false;
}

}  // namespace cilab
