// --script commands that drive the shell's widgets the way a user does and
// read back what it shows (functions of ScriptCommands, in the table of
// app_script.cpp):
//
//   click TARGET [ctrl]     move the mouse to a named widget and click it (3 frames)
//   type TEXT [enter|escape] type TEXT (one frame), then optionally press Enter or Escape
//   scale S                 set the UI scale, as View > UI scale does
//   expect text TEXT        TEXT (case-sensitive, the rest of the line) was drawn
//                           in the main window in the last frame (on a frame with a
//                           combo or menu open, only the text drawn before it)
//   expect no-text TEXT     ... was not drawn
//   expect text-inside-panels  no window or panel of the last frame holds an item
//                           that runs past its right edge where it cannot scroll
//                           sideways (a line of text cut off: elide it instead)
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
#include "views/common/ui.h"

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
  for (int k : script_.keys_down) io.KeysDown[k] = false;  // held for one frame
  script_.keys_down.clear();
  if (script_.input.empty()) return false;
  const ScriptState::Input in = script_.input.front();
  script_.input.erase(script_.input.begin());
  if (in.x >= 0.0f) io.MousePos = ImVec2(in.x, in.y);
  io.MouseDown[0] = in.down;
  io.KeyCtrl = in.ctrl;
  for (char c : in.chars) io.AddInputCharacter(static_cast<unsigned char>(c));
  if (in.key >= 0) {
    io.KeysDown[in.key] = true;  // ImGui's own key state: Enter in a text field
    script_.keys_down.push_back(in.key);
  }
  return true;
}

ScriptFlow ScriptCommands::click(App& a, ScriptLine& l) {
  std::string target = l.rest();  // names may hold spaces ("menu:View/Reset layout")
  std::string mod;
  if (target.size() > 5 && target.compare(target.size() - 5, 5, " ctrl") == 0) {
    mod = "ctrl";
    target.resize(target.size() - 5);
  }
  auto it = a.script_.targets.find(target);
  if (it == a.script_.targets.end()) {
    std::string known;
    for (const auto& [name, pos] : a.script_.targets) known += (known.empty() ? "" : ", ") + name;
    l.fail("click: no widget named '" + target + "' on screen; known: " + known);
    return ScriptFlow::Next;
  }
  const bool ctrl = mod == "ctrl";
  const float x = it->second.first, y = it->second.second;
  a.script_.clicked[target] = it->second;
  a.script_.input.push_back({x, y, false, ctrl, "", -1});  // hover
  a.script_.input.push_back({x, y, true, ctrl, "", -1});   // press
  a.script_.input.push_back({x, y, false, ctrl, "", -1});  // release
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::type(App& a, ScriptLine& l) {
  std::string text = l.rest();
  int end_key = -1;  // " enter" / " escape" after the text: that key, in ImGui's own state
  if (text.size() >= 6 && text.compare(text.size() - 6, 6, " enter") == 0) {
    end_key = GLFW_KEY_ENTER;
    text.resize(text.size() - 6);
  } else if (text.size() >= 7 && text.compare(text.size() - 7, 7, " escape") == 0) {
    end_key = GLFW_KEY_ESCAPE;
    text.resize(text.size() - 7);
  }
  a.script_.input.push_back({-1.0f, -1.0f, false, false, text, -1});
  if (end_key >= 0) a.script_.input.push_back({-1.0f, -1.0f, false, false, "", end_key});
  a.script_.input.push_back({});  // one frame for the result to show
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::scale(App& a, ScriptLine& l) {
  float s = 0.0f;
  l.in >> s;
  if (!(s >= 0.5f && s <= 3.0f)) {
    l.fail("scale: expected a number in [0.5, 3]");
    return ScriptFlow::Next;
  }
  a.settings_.ui_scale = s;
  a.scale_dirty_ = true;
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::theme_or_palette(App& a, ScriptLine& l, bool theme) {
  // theme NAME, palette NAME: as the View menu does
  std::string name;
  l.in >> name;
  Theme t;
  Palette p;
  if (theme && !parse_theme(name, &t))
    l.fail("theme: unknown theme '" + name + "'; valid: " + theme_names());
  else if (!theme && !parse_palette(name, &p))
    l.fail("palette: unknown palette '" + name + "'; valid: " + palette_names());
  else if (theme)
    a.set_theme_setting(name, "");
  else
    a.set_theme_setting("", name);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::theme(App& a, ScriptLine& l) { return theme_or_palette(a, l, true); }
ScriptFlow ScriptCommands::palette(App& a, ScriptLine& l) { return theme_or_palette(a, l, false); }

ScriptFlow ScriptCommands::text(App& a, ScriptLine& l, bool present) {
  ScriptState& s = a.script_;
  if (s.captured_landed != a.landed_edits_ && !s.text_retried) {
    // An edit (a module or preset opened, a restart) landed after the last frame was drawn:
    // read the text of the next frame instead (once). Steps do not count: a message shown
    // (and cleared by `expect error`) must still be read from the frame that drew it.
    s.text_retried = true;
    s.wait = 1;
    return ScriptFlow::Again;
  }
  s.text_retried = false;
  const std::string text = l.rest();
  const bool found = s.captured_text.find(text) != std::string::npos;
  if (present && !found) l.fail("expected the text '" + text + "' on screen; drawn:\n" + s.captured_text);
  if (!present && found) l.fail("expected no text '" + text + "' on screen; drawn:\n" + s.captured_text);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_text(App& a, ScriptLine& l) { return text(a, l, true); }

ScriptFlow ScriptCommands::expect_text_inside_panels(App&, ScriptLine& l) {
  // Runs before the next NewFrame: the windows drawn last frame are still the active ones.
  std::string cut;
  for (const std::string& line : panels_cut_sideways()) cut += "\n  " + line;
  if (!cut.empty()) l.fail("expected every item inside its panel:" + cut);
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_unmoved(App& a, ScriptLine& l) {
  const std::string target = l.rest();
  const auto was = a.script_.clicked.find(target);
  const auto now = a.script_.targets.find(target);
  if (was == a.script_.clicked.end()) {
    l.fail("expect unmoved: '" + target + "' was not clicked");
  } else if (now == a.script_.targets.end()) {
    l.fail("expect unmoved: '" + target + "' is no longer on screen");
  } else if (std::abs(now->second.first - was->second.first) > 0.5f ||
             std::abs(now->second.second - was->second.second) > 0.5f) {
    l.fail("expected '" + target + "' where it was clicked (" + std::to_string(was->second.first) + ", " +
           std::to_string(was->second.second) + "), found it at (" + std::to_string(now->second.first) + ", " +
           std::to_string(now->second.second) + ")");
  }
  return ScriptFlow::Next;
}
ScriptFlow ScriptCommands::expect_no_text(App& a, ScriptLine& l) { return text(a, l, false); }

ScriptFlow ScriptCommands::expect_menus(App&, ScriptLine& l) {
  const std::string want = l.rest();
  if (want != "open" && want != "closed") {
    l.fail("expect menus: open or closed, not '" + want + "'");
    return ScriptFlow::Next;
  }
  const bool open = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
  if (open != (want == "open")) l.fail(std::string("expected the menus ") + want + ", found " + (open ? "one open" : "none open"));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_dialog_folder(App& a, ScriptLine& l) {
  const std::string folder = l.rest();
  if (!a.browser_.is_open() || a.browser_.folder() != folder)
    l.fail("expected the file dialog open in " + folder + ", found " +
           (a.browser_.is_open() ? a.browser_.folder() : std::string("it closed")));
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_metric(App& a, ScriptLine& l) {
  // expect metric NAME V (equal, relative 1e-9) | NAME < V | NAME > V (a bound).
  std::string name, op;
  double want = 0.0;
  l.in >> name >> op;
  if (op == "<" || op == ">") {
    l.in >> want;
  } else {
    want = std::strtod(op.c_str(), nullptr);
    op = "=";
  }
  a.runner_->wait_idle();
  const std::shared_ptr<const Snapshot> now = a.runner_->latest();
  const ModuleInfo* info = a.runner_->info();
  int index = -1;
  for (size_t i = 0; info && i < info->metrics.size(); ++i)
    if (info->metrics[i].name == name) index = static_cast<int>(i);
  if (index < 0 || !now || index >= static_cast<int>(now->metrics.size())) {
    l.fail("expect metric: no metric '" + name + "' in " + a.module_name_);
    return ScriptFlow::Next;
  }
  const double got = now->metrics[static_cast<size_t>(index)];
  const bool ok = op == "<"   ? got < want
                  : op == ">" ? got > want
                              : std::abs(got - want) <= 1e-9 * std::max(1.0, std::abs(want));
  if (!ok) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "expected %s %s %.17g, found %.17g", name.c_str(), op.c_str(), want, got);
    l.fail(buf);
  }
  return ScriptFlow::Next;
}

ScriptFlow ScriptCommands::expect_seed(App& a, ScriptLine& l) {
  unsigned long long n = 0;
  l.in >> n;
  if (a.seed_ != n) l.fail("expected seed " + std::to_string(n) + ", found " + std::to_string(a.seed_));
  return ScriptFlow::Next;
}

}  // namespace cilab
