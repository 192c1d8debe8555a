// A matrix drawn as a picture: see matrix_panel.h.
#include "views/common/matrix_panel.h"

#include "views/plot/plot.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace cilab {

void matrix_panel(const char* title, const char* help, const char* id, const float* values, int m, int n,
                  bool image, float vmin, float vmax, ImVec2 size) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  tooltip_text(help);
  plot::PlotFlags flags = plot::PlotFlags_CanvasOnly;
  if (image) flags |= plot::PlotFlags_EqualAspect;
  if (plot::BeginPlot(id, ImVec2(size.x, size.y - ImGui::GetTextLineHeightWithSpacing()), flags)) {
    plot::SetupAxes(image ? nullptr : "feature (column)", image ? nullptr : "sample (row)",
                    image ? plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines : plot::AxisFlags_NoGridLines,
                    image ? plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines : plot::AxisFlags_NoGridLines);
    plot::SetupAxesLimits(0, n, 0, m, plot::Cond::Once);
    plot::SetupAxesFitKey((static_cast<uint64_t>(static_cast<uint32_t>(m)) << 32) | static_cast<uint32_t>(n));
    plot::SetupColorBar("##scale", vmin, vmax, image ? plot::Colormap::Gray : plot::Colormap::Viridis);
    if (image) {
      plot::PlotImageGray("##img", values, m, n, vmin, vmax, plot::Point{0, 0}, plot::Point{static_cast<double>(n), static_cast<double>(m)});
    } else {
      // The heatmap draws its first row at the top; flip so that sample i sits at y in [i, i + 1].
      std::vector<float> flipped(static_cast<size_t>(m) * n);
      for (int i = 0; i < m; ++i)
        std::copy(values + static_cast<size_t>(i) * n, values + static_cast<size_t>(i + 1) * n,
                  flipped.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(m - 1 - i) * n));
      plot::PlotHeatmap("##heat", flipped.data(), m, n, vmin, vmax, plot::Point{0, 0},
                        plot::Point{static_cast<double>(n), static_cast<double>(m)}, plot::Colormap::Viridis);
    }
    plot::EndPlot();
  }
  ImGui::EndGroup();
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
