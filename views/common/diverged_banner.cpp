#include "views/common/diverged_banner.h"

#include "views/common/theme.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cilab {

int rewind_target(const std::vector<std::vector<double>>* history, int loss_metric, int iteration) {
  if (!history || history->empty()) return 0;
  const auto& h = *history;
  const double start = h[0][static_cast<size_t>(loss_metric)];
  for (int i = std::min<int>(iteration - 1, static_cast<int>(h.size()) - 1); i >= 0; --i) {
    const double v = h[static_cast<size_t>(i)][static_cast<size_t>(loss_metric)];
    if (std::isfinite(v) && (!std::isfinite(start) || v <= 100 * std::max(start, 1e-12))) return i;
  }
  return 0;
}

ImVec2 draw_diverged_banner(const Snapshot& s, const ViewContext& ctx, int loss_metric, double lr,
                            std::vector<ViewIntent>& out) {
  return draw_diverged_banner(s, ctx, loss_metric, {{"lr", lr}}, out);
}

ImVec2 draw_diverged_banner(const Snapshot& s, const ViewContext& ctx, int loss_metric,
                            const std::vector<std::pair<std::string, double>>& rates,
                            std::vector<ViewIntent>& out) {
  if (s.status != Status::Diverged) return ImVec2(NAN, NAN);
  fit_text_colored(colour_vec(colors().error), "%s", s.message.c_str());
  const int target = rewind_target(ctx.metric_history, loss_metric, s.iteration);
  char id[96];
  std::snprintf(id, sizeof id, "rewind to iteration %d and halve the learning rate%s", target,
                rates.size() > 1 ? "s" : "");
  // Beside the message if it fits, else under it (never clipped by a narrow window).
  same_line_if_fits(ImGui::CalcTextSize(id).x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::SmallButton(id)) {
    out.push_back(ViewIntent::seek(target));
    for (const auto& r : rates) out.push_back(ViewIntent::set_param(r.first, r.second / 2));
  }
  const ImVec2 centre((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f,
                      (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f);
  tooltip_text(
      "Goes back to the last iteration whose batch loss was finite and at most 100x the first one, "
      "and "
      "sets each learning rate to half its value; training continues from there with the new rate.");
  return centre;
}

}  // namespace cilab
