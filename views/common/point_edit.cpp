// The point-editing click of the 2-D training views (see point_edit.h).
#include "views/common/point_edit.h"

#include <imgui.h>

namespace cilab {

bool point_edit_click(const ViewContext& ctx, plot::Point m, std::vector<ViewIntent>& out) {
  ViewIntent vi;
  if ((ctx.edit_points || ImGui::GetIO().KeyShift) && plot::IsPlotClicked(0))
    vi.kind = ViewIntent::Kind::AddPoint;
  else if (ctx.edit_points && plot::IsPlotClicked(1))
    vi.kind = ViewIntent::Kind::RemovePoint;
  else
    return false;
  vi.x = m.x;
  vi.y = m.y;
  out.push_back(vi);
  return true;
}

}  // namespace cilab
