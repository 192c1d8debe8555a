// A grey image mosaic (views/generative/vae_pictures.h: tile_mosaic) drawn as a canvas
// plot: the vae view's reconstructions and samples, the gan view's image grids.
#pragma once

#include "views/generative/vae_pictures.h"

#include <imgui.h>

namespace cilab {

// Pixels a canvas plot adds around its image (frame padding and border).
float mosaic_pad();

// A mosaic in a canvas plot `width` pixels wide (one unit = one mosaic pixel, row 0 at the top),
// grey from vmin (black) to vmax (white). Returns the hovered mosaic pixel (column, row), or (-1,
// -1).
ImVec2 mosaic_plot(const char* id, const Mosaic& m, float vmin, float vmax, float width);

}  // namespace cilab
