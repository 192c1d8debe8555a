// A grey image mosaic drawn as a canvas plot (see mosaic_plot.h).
#include "views/common/mosaic_plot.h"

#include "views/plot/plot.h"

#include <algorithm>

namespace cilab {

float mosaic_pad() { return ImGui::GetStyle().FramePadding.y * 2 + 4; }

ImVec2 mosaic_plot(const char* id, const Mosaic& m, float vmin, float vmax, float width) {
  ImVec2 hovered(-1, -1);
  if (m.empty()) return hovered;
  const float pad = mosaic_pad();
  const float height = (width - pad) * m.h / m.w + pad;
  if (plot::BeginPlot(id, ImVec2(std::max(width, 16.0f), std::max(height, 16.0f)),
                      plot::PlotFlags_CanvasOnly | plot::PlotFlags_NoInputs)) {
    plot::SetupAxes(
        nullptr, nullptr,
        plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock,
        plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock);
    plot::SetupAxesLimits(0, m.w, 0, m.h, plot::Cond::Always);
    plot::PlotImageGray("##mosaic", m.pixels.data(), m.h, m.w, vmin, vmax, plot::Point{0, 0},
                        plot::Point{double(m.w), double(m.h)});
    if (plot::IsPlotHovered()) {
      const plot::Point p = plot::GetPlotMousePos();
      if (p.x >= 0 && p.x < m.w && p.y >= 0 && p.y < m.h)
        hovered = ImVec2(static_cast<float>(p.x), static_cast<float>(m.h - p.y));
    }
    plot::EndPlot();
  }
  return hovered;
}

}  // namespace cilab
