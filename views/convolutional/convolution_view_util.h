// The convolution view's shared pieces (convolution_view.cpp, convolution_view_tabs.cpp): a map
// drawn as an equal-aspect heatmap with its values written in the cells, and cell outlines.
#pragma once

#include "views/plot/plot.h"

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

namespace cilab::convview {

struct MapStyle {
  double lo = NAN, hi = NAN;       // the colour range (NaN: from the values)
  bool signed_scale = false;       // a diverging map symmetric about 0 (else grey, lo black)
  bool numbers = false;            // write the values in cells large enough to read
  const char* x_label = "column";
  const char* y_label = "row";
  const char* colour_bar = nullptr;  // label of a colour bar (nullptr: none)
  uint64_t fit_salt = 0;           // tells the panels of one view apart in the refit key
};

// The cell under the mouse (-1: none) and whether it was clicked.
struct MapHover {
  int row = -1, col = -1;
  bool clicked = false;
};

// An h x w map (row-major, row 0 at the top) in a titled plot of `size`; `overlay` draws inside the
// plot (cell coordinates: column c at x = c, row r at y = h - 1 - r).
MapHover map_panel(const char* title, const double* values, int h, int w, const MapStyle& style, ImVec2 size,
                   const std::function<void()>& overlay = {});
// The outline of rows r0..r1 and columns c0..c1 (inclusive) of an h-row map.
void cell_outline(const char* id, int h, double r0, double c0, double r1, double c1, ImU32 colour, float weight);
// max |v| over the finite entries.
double max_abs(const double* v, size_t n);
// "holds" (v <= tol), "FAILS", or "n/a" (NaN).
std::string oracle_word(double v, double tol);

}  // namespace cilab::convview
