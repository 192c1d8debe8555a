// ImGui-free maths of the GMM view (unit-tested): the 2-D picture of a
// mixture, its density and the density's contour lines.
//
// A view of d > 2 data shows a linear 2-D map s = P (x - c) of the points
// (P: 2 x d, two chosen features or the first two principal axes). The image
// of N(mu, Sigma) under that map is N(P (mu - c), P Sigma P^T), so the
// ellipses drawn are exact, and the drawn density is the exact density of the
// projected data (a marginal for feature pairs).
#pragma once

#include "views/plot/contour.h"

#include <vector>

namespace cilab {

// One component of a 2-D mixture: weight, mean, covariance [[a, b], [b, c]].
struct Gauss2 {
  double weight = 0, mx = 0, my = 0, a = 1, b = 0, c = 1;
};

// log p(x, y) of the mixture sum_k w_k N((x, y) | m_k, S_k) (log-sum-exp;
// -inf if every component is degenerate or has zero weight).
double mixture_log_density(const std::vector<Gauss2>& mix, double x, double y);

// log p on a rows x cols grid of cell centres over [x0, x1] x [y0, y1];
// row-major, row 0 at the TOP (y near y1), as plot::PlotHeatmap draws it.
std::vector<double> mixture_log_density_grid(const std::vector<Gauss2>& mix, int rows, int cols, double x0,
                                             double x1, double y0, double y1);

// The contour lines of `levels` of a grid laid out like mixture_log_density_grid
// (row 0 at the top, cell centres), by the plot library's marching squares
// (plot::contour_segments, samples at the nodes): the nodes span the cell
// centres and the y range is passed top first. Appends to `out`.
void density_contours(const std::vector<double>& grid, int rows, int cols, double x0, double x1, double y0,
                      double y1, const std::vector<double>& levels, plot::ContourSegments& out);

}  // namespace cilab
