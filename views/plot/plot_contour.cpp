// plot_contour.cpp - PlotSegments: many independent line segments in one item (contour lines
// from contour.h's marching squares). Segments fully outside the plot area are culled.
#include <algorithm>
#include <cmath>

#include "views/plot/plot_internal.h"

namespace plot {

void PlotSegments(const char* label_id, const double* xy, int count, const Spec& spec) {
    if (xy == nullptr) count = 0;
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Line);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    if (!(spec.flags & ItemFlags_NoFit) && FitThisFrame())
        for (int i = 0; i < count; ++i) {
            FitPoint(xy[4 * i], xy[4 * i + 1]);
            FitPoint(xy[4 * i + 2], xy[4 * i + 3]);
        }
    const ImRect& pr = c.plot_rect;
    const Axis& ax = c.plot->x;
    const Axis& ay = c.plot->y;
    const ImU32 base = it->used_color;
    ImDrawList* dl = c.draw_list;
    for (int i = 0; i < count; ++i) {
        const double* s = xy + 4 * static_cast<size_t>(i);
        if (!std::isfinite(s[0]) || !std::isfinite(s[1]) || !std::isfinite(s[2]) || !std::isfinite(s[3])) continue;
        const double x0 = ax.plot_to_pixels(s[0]), y0 = ay.plot_to_pixels(s[1]);
        const double x1 = ax.plot_to_pixels(s[2]), y1 = ay.plot_to_pixels(s[3]);
        if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) continue;
        if (std::max(x0, x1) < pr.Min.x || std::min(x0, x1) > pr.Max.x || std::max(y0, y1) < pr.Min.y ||
            std::min(y0, y1) > pr.Max.y)
            continue;
        const ImU32 col = spec.colors ? spec.colors[i] : base;
        dl->AddLine(ImVec2(static_cast<float>(x0), static_cast<float>(y0)),
                    ImVec2(static_cast<float>(x1), static_cast<float>(y1)), col, spec.line_weight);
    }
    c.item = nullptr;
}

}  // namespace plot
