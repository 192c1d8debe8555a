// Voronoi cells used by the k-means view.
#include "algorithms/core/rng.h"
#include "views/common/geometry.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace cilab;

namespace {
double area(const std::vector<Vec2>& p) {
  double a = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const Vec2& u = p[i];
    const Vec2& v = p[(i + 1) % p.size()];
    a += u.x * v.y - v.x * u.y;
  }
  return 0.5 * a;
}
}  // namespace

TEST_CASE("geometry: Voronoi cells tile the box and hold the points nearest to their site") {
  Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const int k = 2 + trial % 9;
    std::vector<Vec2> sites(k);
    for (Vec2& s : sites) s = {rng.uniform(-1, 3), rng.uniform(-2, 2)};
    double total = 0;
    for (int j = 0; j < k; ++j) {
      const std::vector<Vec2> cell = voronoi_cell(sites, j, -4, -5, 6, 5);
      const double a = area(cell);
      CHECK(a >= 0);  // counter-clockwise
      total += a;
      // Every vertex is (within rounding) at least as near to site j as to any other.
      for (const Vec2& v : cell)
        for (int i = 0; i < k; ++i) {
          const double dj = std::hypot(v.x - sites[j].x, v.y - sites[j].y);
          const double di = std::hypot(v.x - sites[i].x, v.y - sites[i].y);
          CHECK(dj <= di + 1e-9);
        }
    }
    CHECK(total == doctest::Approx(10.0 * 10.0).epsilon(1e-9));
  }
}

TEST_CASE("geometry: duplicate sites give the cell to the first one - half-plane clipping") {
  const std::vector<Vec2> sites = {{0, 0}, {1, 1}, {1, 1}};
  CHECK(voronoi_cell(sites, 2, -2, -2, 2, 2).empty());
  CHECK(area(voronoi_cell(sites, 1, -2, -2, 2, 2)) > 0);
  const std::vector<Vec2> square = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
  CHECK(area(clip_half_plane(square, 1, 0, 1)) == doctest::Approx(2.0));  // x <= 1
  CHECK(clip_half_plane(square, 1, 0, -1).empty());                        // x <= -1
  CHECK(area(clip_half_plane(square, 1, 0, 5)) == doctest::Approx(4.0));
}
