#include "views/clustering/gmm_view_density.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace cilab {

double mixture_log_density(const std::vector<Gauss2>& mix, double x, double y) {
  constexpr double kLog2Pi = 1.8378770664093453;  // log(2 pi)
  double terms[64];
  double best = -std::numeric_limits<double>::infinity();
  const size_t k = std::min<size_t>(mix.size(), 64);
  for (size_t j = 0; j < k; ++j) {
    const Gauss2& g = mix[j];
    const double det = g.a * g.c - g.b * g.b;
    if (!(g.weight > 0) || !(det > 0) || !std::isfinite(det)) {
      terms[j] = -std::numeric_limits<double>::infinity();
      continue;
    }
    const double dx = x - g.mx, dy = y - g.my;
    // (dx, dy) S^-1 (dx, dy)^T with S^-1 = [[c, -b], [-b, a]] / det
    const double maha = (g.c * dx * dx - 2.0 * g.b * dx * dy + g.a * dy * dy) / det;
    terms[j] = std::log(g.weight) - kLog2Pi - 0.5 * std::log(det) - 0.5 * maha;
    best = std::max(best, terms[j]);
  }
  if (!std::isfinite(best)) return best;
  double sum = 0.0;
  for (size_t j = 0; j < k; ++j) sum += std::exp(terms[j] - best);
  return best + std::log(sum);
}

std::vector<double> mixture_log_density_grid(const std::vector<Gauss2>& mix, int rows, int cols, double x0,
                                             double x1, double y0, double y1) {
  std::vector<double> out(static_cast<size_t>(std::max(0, rows)) * static_cast<size_t>(std::max(0, cols)));
  const double dx = (x1 - x0) / cols, dy = (y1 - y0) / rows;
  for (int r = 0; r < rows; ++r) {
    const double y = y1 - (r + 0.5) * dy;
    for (int c = 0; c < cols; ++c)
      out[static_cast<size_t>(r) * cols + c] = mixture_log_density(mix, x0 + (c + 0.5) * dx, y);
  }
  return out;
}

void density_contours(const std::vector<double>& grid, int rows, int cols, double x0, double x1, double y0,
                      double y1, const std::vector<double>& levels, plot::ContourSegments& out) {
  if (grid.size() < static_cast<size_t>(rows) * cols) return;
  const double dx = (x1 - x0) / cols, dy = (y1 - y0) / rows;
  // Row 0 at the top: the y range is given top to bottom.
  plot::contour_segments(grid.data(), rows, cols, x0 + 0.5 * dx, x1 - 0.5 * dx, y1 - 0.5 * dy, y0 + 0.5 * dy, levels,
                         out);
}

}  // namespace cilab
