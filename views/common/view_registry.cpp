// The view registry (view_registry.h). A module without a view of its own
// (which the conformance suite reports) gets the generic view: its metric
// curves and status, so nothing is ever blank.
#include "views/common/view_registry.h"

#include "views/common/metrics_view.h"
#include "views/common/ui.h"

#include <imgui.h>

namespace cilab {
namespace {

class GenericView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>&) override {
    if (!ctx.info) return;
    fit_text("%s - %s, %s", ctx.info->title.c_str(), position_label(snap, ctx.info).c_str(),
                status_name(snap.status));
    if (!snap.message.empty()) ImGui::TextWrapped("%s", snap.message.c_str());
    if (ctx.metric_history) {
      const ImVec2 avail = ImGui::GetContentRegionAvail();
      for (size_t m = 0; m < ctx.info->metrics.size(); ++m) {
        const std::string id = "##generic_" + ctx.info->metrics[m].name;
        draw_metric_plot(id.c_str(), ctx.info->metrics[m], *ctx.metric_history, static_cast<int>(m),
                         snap.iteration, avail.x,
                         avail.y / static_cast<float>(std::max<size_t>(1, ctx.info->metrics.size())) - 8);
      }
    }
  }
};

std::vector<ViewEntry>& mutable_registry() {
  static std::vector<ViewEntry> entries;  // filled during static initialisation only
  return entries;
}

}  // namespace

ViewRegistration::ViewRegistration(std::unique_ptr<Module> (*probe)(), std::unique_ptr<ModuleView> (*make)()) {
  mutable_registry().push_back(ViewEntry{probe, make});
}

const std::vector<ViewEntry>& view_registry() { return mutable_registry(); }

namespace {

const ViewEntry* find_view(const std::string& module_name) {
  for (const ViewEntry& e : view_registry())
    if (e.probe()->info().name == module_name) return &e;
  return nullptr;
}

}  // namespace

bool has_own_view(const std::string& module_name) { return find_view(module_name) != nullptr; }

std::unique_ptr<ModuleView> make_view(const std::string& module_name) {
  if (const ViewEntry* e = find_view(module_name)) return e->make();
  return std::make_unique<GenericView>();
}

}  // namespace cilab
