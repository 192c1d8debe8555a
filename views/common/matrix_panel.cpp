// A matrix drawn as a picture: see matrix_panel.h.
#include "views/common/matrix_panel.h"

#include "views/plot/plot.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <algorithm>
#include <string>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace cilab {

MatrixPanelHit matrix_panel(const char* title, const char* help, const char* id, const float* values, int m, int n,
                            bool image, float vmin, float vmax, ImVec2 size, const MatrixPanelStyle& style) {
  MatrixPanelHit hit;
  ImGui::BeginGroup();
  // The title wraps at the panel's width (a longer line would widen the group and push the panels
  // beside it off their column); the picture takes what the title leaves of the height.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
  fit_text_unformatted(title);
  ImGui::PopTextWrapPos();
  tooltip_text(help);
  const float title_h = ImGui::CalcTextSize(title, nullptr, false, size.x).y + ImGui::GetStyle().ItemSpacing.y;
  plot::PlotFlags flags = plot::PlotFlags_CanvasOnly;
  if (image) flags |= plot::PlotFlags_EqualAspect;
  if (plot::BeginPlot(id, ImVec2(size.x, size.y - std::max(title_h, ImGui::GetTextLineHeightWithSpacing())), flags)) {
    const plot::AxisFlags none = plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines;
    const plot::AxisFlags axis = image ? none : plot::AxisFlags_NoGridLines;
    plot::SetupAxes(image ? nullptr : style.col_axis, image ? nullptr : style.row_axis, axis,
                    style.top_down ? none : axis);
    plot::SetupAxesLimits(0, n, 0, m, plot::Cond::Once);
    plot::SetupAxesFitKey((static_cast<uint64_t>(static_cast<uint32_t>(m)) << 32) | static_cast<uint32_t>(n));
    if (style.scale)
      plot::SetupColorBar(style.scale, vmin, vmax, image ? plot::Colormap::Gray : plot::Colormap::Viridis);
    const plot::Point lo{0, 0}, hi{static_cast<double>(n), static_cast<double>(m)};
    const int gm = style.grid_m > 0 ? style.grid_m : m, gn = style.grid_n > 0 ? style.grid_n : n;
    if (style.categories) {
      plot::PlotHeatmap("##mask", values, gm, gn, 0.0, plot::GetColormapSize(plot::Colormap::Categorical), lo, hi,
                        plot::Colormap::Categorical);
    } else if (values == nullptr) {
      const plot::Limits lim = plot::GetPlotLimits();
      if (style.empty)
        plot::PlotText(style.empty, 0.5 * (lim.x_min + lim.x_max), 0.5 * (lim.y_min + lim.y_max), ImVec2(0, 0),
                       colors().text_dim);
    } else if (image) {
      plot::PlotImageGray("##img", values, gm, gn, vmin, vmax, lo, hi);
    } else if (style.top_down) {
      plot::PlotHeatmap("##heat", values, gm, gn, vmin, vmax, lo, hi, plot::Colormap::Viridis);
    } else {
      // The heatmap draws its first row at the top; flip so that sample i sits at y in [i, i + 1].
      std::vector<float> flipped(static_cast<size_t>(gm) * gn);
      for (int i = 0; i < gm; ++i)
        std::copy(values + static_cast<size_t>(i) * gn, values + static_cast<size_t>(i + 1) * gn,
                  flipped.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(gm - 1 - i) * gn));
      plot::PlotHeatmap("##heat", flipped.data(), gm, gn, vmin, vmax, lo, hi, plot::Colormap::Viridis);
    }
    hit.drawn = true;
    hit.min = plot::GetPlotPos();
    hit.max = ImVec2(hit.min.x + plot::GetPlotSize().x, hit.min.y + plot::GetPlotSize().y);
    if (style.hover && plot::IsPlotHovered()) {
      const plot::Point mp = plot::GetPlotMousePos();
      const int j = static_cast<int>(std::floor(mp.x)), y = static_cast<int>(std::floor(mp.y));
      const int i = style.top_down ? m - 1 - y : y;
      if (i >= 0 && i < m && j >= 0 && j < n) {
        hit.row = i;
        hit.col = j;
        // Outline the cell (a thin ring in the theme's selection colour).
        const int y0 = style.top_down ? m - 1 - i : i;
        const ImVec2 a = plot::PlotToPixels(j, y0 + 1), b = plot::PlotToPixels(j + 1, y0);
        plot::GetPlotDrawList()->AddRect(ImVec2(std::min(a.x, b.x) - 1, std::min(a.y, b.y) - 1),
                                         ImVec2(std::max(a.x, b.x) + 1, std::max(a.y, b.y) + 1), colors().selection);
      }
    }
    plot::EndPlot();
  }
  ImGui::EndGroup();
  return hit;
}

float max_abs(const std::vector<float>& v) {
  float m = 0.0f;
  for (float x : v) m = std::max(m, std::abs(x));
  return m > 0.0f ? m : 1.0f;
}


void row_major(const Eigen::MatrixXf& mat, std::vector<float>& out) {
  const Eigen::Index m = mat.rows(), n = mat.cols();
  out.resize(static_cast<size_t>(m * n));
  Eigen::Map<Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(out.data(), m, n) = mat;
}

}  // namespace cilab
