// The point-editing click of the 2-D training views (mlp, gan): in the "click
// to add points" mode (ctx.edit_points) or with Shift held, a left click on
// the plot adds a point at the mouse, and in that mode a right click removes
// the nearest one (ViewIntent AddPoint / RemovePoint, in data units).
#pragma once

#include "views/plot/plot.h"
#include "views/common/view.h"

#include <vector>

namespace cilab {

// Call between plot::BeginPlot and EndPlot while the plot is hovered, with the mouse at `m`
// (data units). Returns true when it sent an intent (the click was an edit).
bool point_edit_click(const ViewContext& ctx, plot::Point m, std::vector<ViewIntent>& out);

}  // namespace cilab
