// A/B compare: run B beside the run A the app always has (see app.h, "A/B compare").
// B is a second Runner on the same module, data and seed; it starts as a replay of A's
// recipe, so both show the same state until the user changes one of them.
#include "algorithms/core/registry.h"
#include "app/app.h"
#include "views/common/metrics_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace cilab {
namespace {
// The banner shown when Compare starts (cleared when it stops, if still shown).
constexpr const char* kCompareInfo =
    "Comparing A and B: the parameter panel now edits B (switch at its top); the transport drives both";
}  // namespace

void App::each_run(const std::function<void(Runner&)>& f) {
  f(*runner_);
  if (compare_) f(*compare_->runner);
}

bool App::any_playing() const { return runner_->playing() || (compare_ && compare_->runner->playing()); }

// Space, the Play button: both play, or both pause (never one of each).
void App::toggle_play_all() {
  if (any_playing()) each_run([](Runner& r) { r.pause(); });
  else each_run([](Runner& r) { r.play(); });
}

void App::start_compare() {
  if (compare_) return;
  if (edit_pending() || !runner_->info() || !shown_) {
    show_error("cannot compare yet: wait until the run has started (the status bar shows what is under way)");
    return;
  }
  try {
    auto c = std::make_unique<CompareRun>();
    const std::string name = module_name_;
    // A and B share the one history budget (a long session stays within it).
    RunnerConfig half;
    half.history_budget_bytes = RunnerConfig{}.history_budget_bytes / 2;
    c->runner = std::make_unique<Runner>([name] { return make_module(name); }, half);
    runner_->set_history_budget(half.history_budget_bytes);
    trim_when_history_within(half.history_budget_bytes);  // A's thinned half back to the system, not kept for A
    c->runner->set_speed(runner_->speed());
    c->runner->set_play_sub_steps(runner_->play_sub_steps());
    // The recipe of the position A shows: B re-simulates it (deterministic), so it starts equal.
    const RunRecipe recipe = runner_->recipe();
    c->values = running_;
    c->running = running_;
    c->tickets.push_back(c->runner->replay_recipe(data_, recipe));
    if (runner_->playing()) c->runner->play();  // joins A mid-play from A's position
    c->view = make_view(name);
    compare_ = std::move(c);
    pending_tab_b_ = shown_tab_;  // B opens on the tab A shows
    edit_b_ = true;  // the next change is B's: that is what a comparison is for
    if (!settings_.show_params) settings_.show_params = true;
    info_ = kCompareInfo;
    info_time_ = ImGui::GetTime();
  } catch (const std::exception& e) {
    show_error(std::string("cannot start the comparison: ") + e.what());
  }
}

void App::stop_compare() {
  if (!compare_) return;
  compare_->runner->pause();
  retired_runners_.push_back(std::move(compare_->runner));  // its worker ends without blocking a frame
  runner_->set_history_budget(RunnerConfig{}.history_budget_bytes);  // A has the whole budget again
  compare_.reset();
  edit_b_ = false;
  if (info_ == kCompareInfo) info_.clear();  // it would speak of a B that is gone
}

void App::restart_b() {
  if (!compare_) return;
  const std::shared_ptr<const Dataset> data = target_data();
  compare_->tickets.push_back(compare_->runner->reset(data, compare_->values, seed_));
}

void App::change_param_b(const ParamSpec& spec, double value) {
  if (!compare_) return;
  compare_->values[spec.name] = value;
  if (spec.update == ParamUpdate::Live) {
    compare_->tickets.push_back(compare_->runner->set_live(spec.name, value));
  } else {
    restart();  // both from iteration 0: A and B stay aligned
  }
}

void App::poll_compare() {
  if (!compare_) return;
  CompareRun& c = *compare_;
  RunnerFrame f = c.runner->take_frame();
  for (const CommandResult& r : f.results) {
    auto it = std::find(c.tickets.begin(), c.tickets.end(), r.ticket);
    if (it == c.tickets.end()) continue;
    c.tickets.erase(it);
    if (r.ok) {
      if (c.view) c.view->on_reset();
      ++plot_data_key_;
      continue;
    }
    show_error("B: " + r.error);
    if (c.runner->last_error() == r.error) c.runner->clear_error();
    c.values = f.values;  // the panel goes back to what B runs
  }
  c.shown = f.snapshot;
  c.running = std::move(f.values);
  if (c.tickets.empty() && !c.runner->last_error().empty()) {
    show_error("B: " + c.runner->last_error());
    c.runner->clear_error();
  }
}

void App::apply_intents_b(std::vector<ViewIntent>& intents) {
  std::vector<ViewIntent> shared;  // data edits and seeks concern both runs: A's path
  bool restart_both = false;
  for (ViewIntent& vi : intents) {
    try {
      switch (vi.kind) {
        case ViewIntent::Kind::Module:
          compare_->tickets.push_back(compare_->runner->apply(vi.intent));
          break;
        case ViewIntent::Kind::SetParam:
          restart_both |= stage_param_intent(vi, true, restart_both);
          break;
        default:
          shared.push_back(std::move(vi));
          break;
      }
    } catch (const std::exception& e) {
      show_error(std::string("B: ") + e.what());
    }
  }
  intents.clear();
  if (restart_both) restart();
  apply_intents(shared);
}

std::vector<App::CompareDiff> App::compare_diff_list() const {
  std::vector<CompareDiff> out;
  if (!compare_) return out;
  const ParamValues& ra = running_;
  const ParamValues& rb = compare_->running;
  for (const ParamSpec& s : specs_) {
    if (is_compound(s)) continue;
    std::string a, b;
    if (is_text_valued(s)) {
      auto ia = ra.text.find(s.name), ib = rb.text.find(s.name);
      a = ia != ra.text.end() ? ia->second : s.text_def;
      b = ib != rb.text.end() ? ib->second : s.text_def;
    } else {
      auto ia = ra.find(s.name), ib = rb.find(s.name);
      if (ia == ra.end() || ib == rb.end()) continue;
      if (ia->second == ib->second) continue;
      a = format_value(s, ia->second);
      b = format_value(s, ib->second);
    }
    if (a == b) continue;
    out.push_back({s.name, a, b});
  }
  return out;
}

void App::draw_compare_header() {
  if (!compare_) return;
  ImGui::TextUnformatted("Edit:");
  ImGui::SameLine();
  if (ImGui::RadioButton("A", !edit_b_)) edit_b_ = false;
  mark_target("compare:A");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The parameter panel edits run A (left)");
  ImGui::SameLine();
  if (ImGui::RadioButton("B", edit_b_)) edit_b_ = true;
  mark_target("compare:B");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The parameter panel edits run B (right)");
  ImGui::SameLine();
  if (ImGui::SmallButton("End compare")) stop_compare();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to run A alone (Ctrl+B)");
  if (!compare_) return;
  std::string diff;
  for (const CompareDiff& d : compare_diff_list()) diff += (diff.empty() ? "" : "; ") + d.name + " " + d.a + " | " + d.b;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", diff.empty() ? "A and B have the same parameters: change one of B's"
                                          : ("A | B: " + diff).c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Same module, data and seed. A live change applies to its own run from the\n"
                      "iteration shown; a Rebuild change, the seed and Reset restart both from iteration 0.");
  ImGui::Separator();
}

}  // namespace cilab
