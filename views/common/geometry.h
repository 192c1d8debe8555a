// Small 2-D geometry for views (ImGui-free, unit-tested).
#pragma once

#include <vector>

namespace cilab {

struct Vec2 {
  double x = 0, y = 0;
};

// The Voronoi cell of sites[j] clipped to the box [x0, x1] x [y0, y1]: the
// convex polygon {p in box : |p - s_j| <= |p - s_i| for all i}. Vertices
// counter-clockwise; empty if the cell misses the box (or j duplicates an
// earlier site exactly).
std::vector<Vec2> voronoi_cell(const std::vector<Vec2>& sites, int j, double x0, double y0, double x1,
                               double y1);

// Clips a convex polygon to the half-plane a*x + b*y <= c (Sutherland-Hodgman).
std::vector<Vec2> clip_half_plane(const std::vector<Vec2>& poly, double a, double b, double c);

}  // namespace cilab
