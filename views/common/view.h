// The view contract: a module's panel is a ModuleView that draws one
// snapshot with Dear ImGui + the plot library and returns intents.
//
// A view never mutates the algorithm: edits ("centroid 2 dragged to (x, y)",
// "add a point here") come back as ViewIntents, which the app forwards to the
// runner (module edits) or applies to the dataset (point edits) after the
// frame. View state (toggles, chosen features) lives in the ModuleView object,
// owned by the app - never in function statics.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/module.h"

#include <functional>
#include <utility>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

class BackgroundJobs;

// What the app lends a view for one frame.
// A live parameter change on the line of the run shown: made at `iteration`
// (after sub-step `phase`), so it applies from the next step on; `role` is its
// ParamSpec's (LiveRole::Objective: the objective itself changed there).
struct LiveChange {
  int iteration = 0;
  int phase = 0;
  std::string name;
  double value = 0.0;
  LiveRole role = LiveRole::Other;
};

struct ViewContext {
  const Dataset* data = nullptr;     // the run's dataset (nullptr if none)
  const ModuleInfo* info = nullptr;
  // A stored snapshot of an earlier iteration, or nullptr if the runner did
  // not keep it (views use it for trails; never blocks).
  std::function<std::shared_ptr<const Snapshot>(int iteration)> stored_snapshot;
  // Metrics of iterations 0..last (phase-0 values, ModuleInfo::metrics order).
  const std::vector<std::vector<double>>* metric_history = nullptr;
  bool edit_points = false;          // "click to add points" mode is on (2-D data)
  uint64_t data_version = 0;         // changes whenever the dataset is replaced
  const ParamValues* values = nullptr;  // the parameter values of the run shown (after live changes)
  uint64_t seed = 0;                 // the run's seed
  // Keys pressed since the last frame that the app did not use, in order (GLFW
  // key codes: 'A'..'Z' for letters; presses only, no Ctrl/Alt). Views read
  // their shortcuts here, not with ImGui::IsKeyPressed, which misses a press
  // and release between two frames. Empty while a text field or popup has the keys.
  const std::vector<int>* keys = nullptr;
  // The app's background jobs (views/common/jobs.h) for work longer than a frame
  // (sweeps). nullptr when there are none (tests): a view then refuses such
  // work politely. A view keeps only the JobHandles it got, never this pointer.
  BackgroundJobs* jobs = nullptr;
  // The live parameter changes of the line shown, in order (nullptr: none known).
  // Monotonicity oracles re-base at a LiveRole::Objective change and mark it.
  const std::vector<LiveChange>* live_changes = nullptr;
  // --script click targets: names the last item drawn (the shell's mark_target); empty in tests.
  std::function<void(const std::string& name)> mark_target;
  // Set by the tab helpers (tab_bar.h) to the number key of the tab drawn this frame (1-9; left
  // alone by a view without tabs): a saved session or preset keeps the tab shown ("tab").
  int* shown_tab = nullptr;
};

// Names the last item drawn as a --script click target ("field:probes"), when the shell asks.
inline void mark_item(const ViewContext& ctx, const std::string& name) {
  if (ctx.mark_target) ctx.mark_target(name);
}

// Number of presses of `key` in ctx.keys.
inline int key_presses(const ViewContext& ctx, int key) {
  int n = 0;
  if (ctx.keys)
    for (int k : *ctx.keys) n += k == key;
  return n;
}

// Kinds:
//   Module       forwarded to Runner::apply (a module edit);
//   AddPoint     / RemovePoint: edit the dataset (2-D data);
//   SetParam     change parameter `param` to `value` (or to `text` for a Text
//                parameter) exactly as the parameter panel does: Live ones
//                mid-run, Rebuild ones restart (several Rebuild changes of
//                one frame restart once);
//   Seek         rewind / go to `iteration` (applied in order, so Seek then
//                SetParam = "rewind and change the parameter"; after a Rebuild
//                SetParam of the same frame the new run is stepped to it);
//   SetDataset   load the built-in dataset spec `text` ("fashion-mnist:n=20000")
//                in the background, then restart with it and the frame's
//                parameter changes (a preset that brings its data).
struct ViewIntent {
  enum class Kind { Module, AddPoint, RemovePoint, SetParam, Seek, SetDataset };
  Kind kind = Kind::Module;
  Intent intent;          // Kind::Module: forwarded to Runner::apply
  double x = 0, y = 0;    // AddPoint / RemovePoint: data coordinates (2-D data)
  int label = -1;         // AddPoint: class of the new point (-1 none)
  std::string param;      // SetParam: parameter name
  double value = 0;       // SetParam: numeric value (Choice: index, Bool: 0/1)
  std::string text;       // SetParam of a Text parameter; SetDataset: the dataset spec
  int iteration = 0;      // Seek: target iteration

  static ViewIntent set_param(std::string name, double v) {
    ViewIntent i;
    i.kind = Kind::SetParam;
    i.param = std::move(name);
    i.value = v;
    return i;
  }
  static ViewIntent set_text(std::string name, std::string t) {
    ViewIntent i;
    i.kind = Kind::SetParam;
    i.param = std::move(name);
    i.text = std::move(t);
    return i;
  }
  static ViewIntent set_dataset(std::string spec) {
    ViewIntent i;
    i.kind = Kind::SetDataset;
    i.text = std::move(spec);
    return i;
  }
  static ViewIntent seek(int it) {
    ViewIntent i;
    i.kind = Kind::Seek;
    i.iteration = it;
    return i;
  }
};

// The least height of a view, in font sizes (ImGui::GetFontSize()): the shell's vertical
// budget (app_panels.cpp, draw_center) gives a view at least this much of the centre, the
// preset's note and then the metrics strip yielding (one line each) when it would get less.
constexpr float kViewMinHeightEm = 20.0f;

class ModuleView {
 public:
  virtual ~ModuleView() = default;
  // Draws the module's main panel into the current ImGui window region.
  virtual void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) = 0;
  // Extra controls shown under the parameters (view toggles); optional.
  virtual void draw_controls(const Snapshot&, const ViewContext&) {}
  // Forget per-run state (trails...) after a reset or a new dataset.
  virtual void on_reset() {}
  // True while the pictures of the snapshot last drawn are still to come: a view whose
  // picture jobs are paced by their own cost (gan, vae: at most a share of one core)
  // may wait longer than the script's `settle` quiet period before it submits the next.
  // Views paced at >= 4 Hz need not say so (settle waits longer than their pause).
  virtual bool pictures_pending() const { return false; }
  // The least height (in font sizes) the view needs to show its plots at a readable size:
  // the note and the metrics strip yield to it (see kViewMinHeightEm).
  virtual float min_height_em() const { return kViewMinHeightEm; }
};

// The view of a module by name, or a generic view (metrics + status) if none.
std::unique_ptr<ModuleView> make_view(const std::string& module_name);

}  // namespace cilab
