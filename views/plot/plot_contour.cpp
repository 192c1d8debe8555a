// plot_contour.cpp - PlotSegments: many independent line segments in one item (contour lines
// from contour.h's marching squares); PlotContours: the segments of a ContourSegments, coloured
// per level. Segments fully outside the plot area are culled.
#include <algorithm>
#include <cmath>

#include "views/plot/contour.h"
#include "views/plot/plot_internal.h"

namespace plot {
namespace {

// Draws segment i of xy in colour_of(i) into the current item (fitted unless NoFit), then ends it.
template <class ColourOf>
void draw_segments(const double* xy, int count, const Spec& spec, ColourOf colour_of) {
    Context& c = *GetCurrentContext();
    if (!(spec.flags & ItemFlags_NoFit) && FitThisFrame())
        for (int i = 0; i < count; ++i) {
            FitPoint(xy[4 * i], xy[4 * i + 1]);
            FitPoint(xy[4 * i + 2], xy[4 * i + 3]);
        }
    const ImRect& pr = c.plot_rect;
    const Axis& ax = c.plot->x;
    const Axis& ay = c.plot->y;
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
        dl->AddLine(ImVec2(static_cast<float>(x0), static_cast<float>(y0)),
                    ImVec2(static_cast<float>(x1), static_cast<float>(y1)), colour_of(i),
                    LineWeight(spec));
    }
    c.item = nullptr;
}

}  // namespace

void PlotSegments(const char* label_id, const double* xy, int count, const Spec& spec) {
    if (xy == nullptr) count = 0;
    const ItemState* it = RegisterItem(label_id, spec, SwatchKind::Line);
    if (it == nullptr) return;
    const ImU32 base = it->used_color;
    draw_segments(xy, count, spec, [&](int i) { return spec.colors ? spec.colors[i] : base; });
}

bool PlotContours(const char* label_id, const ContourSegments& segs, const ImU32* level_colors, const Spec& spec) {
    const ItemState* it = RegisterItem(label_id, spec, SwatchKind::Fill);
    if (it == nullptr) return false;
    const ImU32 base = it->used_color;
    const int count = static_cast<int>(std::min(segs.size(), segs.xy.size() / 4));
    draw_segments(segs.xy.data(), count, spec, [&](int i) {
        return level_colors ? level_colors[segs.level[static_cast<size_t>(i)]] : base;
    });
    return true;
}

}  // namespace plot
