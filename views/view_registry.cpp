// Which view draws which module. A module without a view of its own gets the
// generic view: its metric curves and status, so nothing is ever blank.
#include "views/gmm_view.h"
#include "views/kmeans_view.h"
#include "views/metrics_view.h"
#include "views/optimizers_view.h"
#include "views/pca_view.h"
#include "views/power_view.h"
#include "views/svd_view.h"
#include "views/view.h"

#include <imgui.h>

namespace cilab {
namespace {

class GenericView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>&) override {
    if (!ctx.info) return;
    ImGui::Text("%s - %s, %s", ctx.info->title.c_str(), position_label(snap, ctx.info).c_str(),
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

}  // namespace

std::unique_ptr<ModuleView> make_view(const std::string& module_name) {
  if (module_name == "kmeans") return std::make_unique<KMeansView>();
  if (module_name == "optimizers") return std::make_unique<OptimizersView>();
  if (module_name == "gmm") return std::make_unique<GmmView>();
  if (module_name == "pca") return std::make_unique<PcaView>();
  if (module_name == "svd-lowrank") return std::make_unique<SvdView>();
  if (module_name == "power-iteration") return std::make_unique<PowerView>();
  return std::make_unique<GenericView>();
}

}  // namespace cilab
