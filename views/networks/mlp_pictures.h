// What the mlp view draws from a network copy, computed off the UI thread
// (a BackgroundJob) a few times a second: ImGui-free, unit-tested.
//
// For 1-D and 2-D inputs the network (a private copy of MlpSnapshot::net, in
// eval mode) is run once over a grid of the input space in the dataset's
// units: the output gives the decision regions (class probabilities) or the
// fitted curve, and every hidden activation layer's output gives each
// neuron's picture over the same grid.
#pragma once

#include "algorithms/networks/mlp.h"

#include <memory>
#include <vector>

namespace cilab {

struct MlpPictures {
  int net_iteration = -1;       // the network copy's iteration
  int d = 0;                    // 1 or 2 (0: no grid pictures)
  int res = 0;                  // grid points per axis (d = 2: res x res, row 0 at the top)
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;  // grid bounds (dataset units)
  // Classification: probabilities, res*res x outputs (row-major, grid row-major);
  // regression (d = 1): the prediction at each of res grid points (target units).
  std::vector<float> output;
  int outputs = 0;
  // Per hidden activation layer: res^d x width values (grid point-major).
  std::vector<std::vector<float>> hidden;
  std::vector<int> hidden_width;
  std::vector<float> hidden_min, hidden_max;  // value range per hidden layer
};

// Bounds of the grid: the data's range per axis plus a 10 % margin.
void mlp_grid_bounds(const Dataset& data, int d, double* x_min, double* x_max, double* y_min, double* y_max);

// Runs the network over the grid (res per axis; d = 1 or 2 inputs). Returns
// an empty result (d = 0) when the problem has another input dimension.
MlpPictures compute_mlp_pictures(const nn::Sequential<float>& net, const MlpProblem& problem, int net_iteration,
                                 int res, double x_min, double x_max, double y_min, double y_max);

}  // namespace cilab
