#include "views/gmm_view_density.h"

#include <algorithm>
#include <cmath>
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

void contour_segments(const std::vector<double>& grid, int rows, int cols, double x0, double x1, double y0,
                      double y1, double level, std::vector<Segment2>& out) {
  if (rows < 2 || cols < 2 || grid.size() < static_cast<size_t>(rows) * cols) return;
  const double dx = (x1 - x0) / cols, dy = (y1 - y0) / rows;
  auto px = [&](double c) { return x0 + (c + 0.5) * dx; };
  auto py = [&](double r) { return y1 - (r + 0.5) * dy; };
  auto at = [&](int r, int c) { return grid[static_cast<size_t>(r) * cols + c]; };
  // Where the level crosses between two corner values (fraction from the first).
  auto frac = [&](double va, double vb) {
    const double t = (level - va) / (vb - va);
    return std::clamp(t, 0.0, 1.0);
  };
  for (int r = 0; r + 1 < rows; ++r) {
    for (int c = 0; c + 1 < cols; ++c) {
      const double tl = at(r, c), tr = at(r, c + 1), br = at(r + 1, c + 1), bl = at(r + 1, c);
      if (!std::isfinite(tl) || !std::isfinite(tr) || !std::isfinite(br) || !std::isfinite(bl)) continue;
      const bool s_tl = tl >= level, s_tr = tr >= level, s_br = br >= level, s_bl = bl >= level;
      // Crossing points on the edges top, right, bottom, left (NaN x = none).
      double ex[4] = {0, 0, 0, 0}, ey[4] = {0, 0, 0, 0};
      bool has[4] = {s_tl != s_tr, s_tr != s_br, s_bl != s_br, s_tl != s_bl};
      if (has[0]) ex[0] = px(c + frac(tl, tr)), ey[0] = py(r);
      if (has[1]) ex[1] = px(c + 1), ey[1] = py(r + frac(tr, br));
      if (has[2]) ex[2] = px(c + frac(bl, br)), ey[2] = py(r + 1);
      if (has[3]) ex[3] = px(c), ey[3] = py(r + frac(tl, bl));
      const int count = has[0] + has[1] + has[2] + has[3];
      auto seg = [&](int a, int b) { out.push_back({ex[a], ey[a], ex[b], ey[b]}); };
      if (count == 2) {
        int e[2] = {0, 0}, m = 0;
        for (int i = 0; i < 4; ++i)
          if (has[i]) e[m++] = i;
        seg(e[0], e[1]);
      } else if (count == 4) {
        // Saddle: cut off the two corners on the other side than the cell centre.
        const bool s_centre = 0.25 * (tl + tr + br + bl) >= level;
        if (s_centre == s_tl) {
          seg(0, 1);  // cut tr
          seg(2, 3);  // cut bl
        } else {
          seg(3, 0);  // cut tl
          seg(1, 2);  // cut br
        }
      }
    }
  }
}

}  // namespace cilab
