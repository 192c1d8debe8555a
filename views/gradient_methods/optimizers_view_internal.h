// Private state of OptimizersView shared by its .cpp files (not part of the views API).
#pragma once

#include "views/gradient_methods/optimizers_view.h"

#include "algorithms/optim/optimizer.h"
#include "algorithms/gradient_methods/optimizers.h"
#include "views/plot/contour.h"

#include <imgui.h>

#include <array>
#include <string>
#include <vector>

namespace cilab {

// The landscape sampled on an n x n node grid over the visible window, its contour segments
// and heatmap. Rebuilt only when the landscape's content, the window or the settings change.
struct OptimizersView::Grid {
  const Landscape* landscape = nullptr;
  std::string fingerprint;  // content key: a new landscape object with the same content reuses the grid
  bool valid = false;
  int n = 0, levels_n = 0;
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  std::vector<double> values;  // row 0 at y0
  double vmin = 0, vmax = 0;
  bool log_levels = false;
  std::vector<double> levels;
  plot::ContourSegments segs;
  std::vector<ImU32> colors;   // per segment
  std::vector<float> heat;     // row 0 at y1 (PlotHeatmap order)
  double heat_min = 0, heat_max = 0;
};

// Per racer: its path's decimated drawings, fed incrementally. A key holds what the pixel
// mapping depends on (plot limits and size); a changed key, or a path that is not the
// continuation of the one seen (rewind, restart), starts over.
struct OptimizersView::RacerCache {
  OptimizerKind kind = OptimizerKind::GD;
  size_t synced = 0;
  double x0 = 0, y0 = 0, xl = 0, yl = 0;  // first and last point seen
  plot::PolylineDecimator traj;
  plot::ColumnDecimator loss, dist;
  std::array<double, 6> traj_key{}, loss_key{}, dist_key{};
  // Checks that path continues what was seen (else forgets the drawings).
  void validate(const PathBuffer& path);
};

}  // namespace cilab
