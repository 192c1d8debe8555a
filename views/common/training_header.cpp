#include "views/common/training_header.h"

#include "views/common/diverged_banner.h"
#include "views/common/readout.h"
#include "views/common/ui.h"

#include <algorithm>

namespace cilab {

double running_value(const ViewContext& ctx, const char* name, double fallback) {
  if (ctx.values) {
    const auto it = ctx.values->find(name);
    if (it != ctx.values->end()) return it->second;
  }
  return fallback;
}

ImVec2 draw_training_status(const Snapshot& s, const ViewContext& ctx, const char* phase_text, int loss_metric,
                            const std::vector<std::pair<std::string, double>>& rates,
                            std::vector<std::string>& header, std::vector<ViewIntent>& out) {
  if (phase_text) {
    fit_text_colored(readout_warn(), "%s", phase_text);
    header.push_back(phase_text);
  }
  if (s.status == Status::Diverged) {
    header.push_back(s.message);
    return draw_diverged_banner(s, ctx, loss_metric, rates, out);
  }
  if (!s.message.empty()) {
    fit_text_colored(readout_warn(), "%s", s.message.c_str());
    header.push_back(s.message);
  }
  return ImVec2(NAN, NAN);
}

TrainingColumns training_columns(float side_share) {
  TrainingColumns c;
  c.avail = ImGui::GetContentRegionAvail();
  c.side_w = std::max(ImGui::GetFontSize() * 16, c.avail.x * side_share);
  const float spacing = ImGui::GetStyle().ItemSpacing.x, em = ImGui::GetFontSize();
  c.main_w = c.avail.x - c.side_w - spacing;
  if (c.main_w < em * kPictureMinEm) {
    // The curves give up width first, down to kSideMinEm (the view at 150 % on a 1280 px screen):
    // both stay in sight; only when even that leaves the picture too narrow do they go under it.
    c.main_w = em * kPictureMinEm;
    c.side_w = c.avail.x - c.main_w - spacing;
  }
  if (c.side_w < em * kSideMinEm) {  // the curves go under the picture
    c.stacked = true;
    c.main_w = c.side_w = c.avail.x;
  }
  return c;
}

ImVec2 training_side_size(const TrainingColumns& c) {
  const float left = ImGui::GetContentRegionAvail().x;
  if (!c.stacked && left >= ImGui::GetFontSize() * kSideMinEm) return ImVec2(std::min(c.side_w, left), c.avail.y);
  // No room beside the picture (a narrow Compare half at a large UI scale): the curves go under
  // it, the whole width (the view scrolls to them).
  new_row_after_same_line();
  return ImVec2(c.avail.x, std::max(c.avail.y * 0.5f, ImGui::GetFontSize() * kSideMinEm));
}

void draw_no_model_yet(const Snapshot& snap, const char* what) {
  fit_text_disabled("No %s yet: %s", what, snap.message.empty() ? "reset the run" : snap.message.c_str());
}

}  // namespace cilab
