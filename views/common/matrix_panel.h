// A matrix drawn as a picture: shared by the matrix views (svd-lowrank, shrinkage, completion).
#pragma once

#include <Eigen/Core>
#include <imgui.h>

#include <cmath>
#include <vector>

namespace cilab {

// What a matrix panel draws beside the defaults (the svd views'): the completion view names
// its axes, writes row 0 at the top, draws the mask's categories, a subsampled grid, a note
// while the estimate is computed, and reads the cell under the mouse.
struct MatrixPanelStyle {
  const char* col_axis = "feature (column)";  // a heatmap's axis names (pictures have none)
  const char* row_axis = "sample (row)";
  bool top_down = false;          // heatmap row 0 at the top, as written (the row axis without ticks)
  const char* scale = "##scale";  // the colour bar's label; nullptr: no colour bar
  bool categories = false;        // values are category codes: Colormap::Categorical over its size
  int grid_m = 0, grid_n = 0;     // the values' grid when not m x n (an even subset spanning it)
  const char* empty = nullptr;    // written in the middle when values is nullptr
  bool hover = false;             // find and outline the cell under the mouse
};

// The panel's plot in this frame: its area and the cell under the mouse (-1: none).
struct MatrixPanelHit {
  bool drawn = false;
  ImVec2 min{NAN, NAN}, max{NAN, NAN};
  int row = -1, col = -1;
};

// One titled matrix panel of `size` (title line included): a gray image (pictures,
// `image` true, equal aspect, no ticks) or a heatmap with labelled axes (data
// matrices: sample rows, feature columns), with its colour bar over [vmin, vmax].
// `values` is m x n row-major; signed panels pass a symmetric range [-L, L]
// (mid-gray / mid-colour = 0). `help` is the title's tooltip. The axes refit to
// the matrix whenever its shape changes (a new input).
MatrixPanelHit matrix_panel(const char* title, const char* help, const char* id, const float* values, int m, int n,
                            bool image, float vmin, float vmax, ImVec2 size, const MatrixPanelStyle& style = {});

// A column-major (Eigen) float matrix copied row-major into out (m * n entries).
void row_major(const Eigen::MatrixXf& m, std::vector<float>& out);

// max |v_i|, or 1 when every entry is 0 (a symmetric colour range that never collapses).
float max_abs(const std::vector<float>& v);

}  // namespace cilab
