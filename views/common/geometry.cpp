#include "views/common/geometry.h"

#include <cstddef>

namespace cilab {

std::vector<Vec2> clip_half_plane(const std::vector<Vec2>& poly, double a, double b, double c) {
  std::vector<Vec2> out;
  const size_t n = poly.size();
  out.reserve(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& p = poly[i];
    const Vec2& q = poly[(i + 1) % n];
    const double fp = a * p.x + b * p.y - c;
    const double fq = a * q.x + b * q.y - c;
    if (fp <= 0) out.push_back(p);
    if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
      const double t = fp / (fp - fq);
      out.push_back({p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)});
    }
  }
  return out;
}

std::vector<Vec2> voronoi_cell(const std::vector<Vec2>& sites, int j, double x0, double y0, double x1,
                               double y1) {
  std::vector<Vec2> poly = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  const Vec2 s = sites[j];
  for (int i = 0; i < static_cast<int>(sites.size()) && !poly.empty(); ++i) {
    if (i == j) continue;
    const Vec2 t = sites[i];
    if (t.x == s.x && t.y == s.y) {
      if (i < j) return {};  // an exact duplicate: the earlier site owns the cell
      continue;
    }
    // |p - s|^2 <= |p - t|^2  <=>  2 (t - s) . p <= |t|^2 - |s|^2
    poly = clip_half_plane(poly, 2 * (t.x - s.x), 2 * (t.y - s.y),
                           (t.x * t.x + t.y * t.y) - (s.x * s.x + s.y * s.y));
  }
  return poly;
}

}  // namespace cilab
