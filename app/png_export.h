// PNG export of the window or of one plot, at 1x or 2x: the frame's ImGui draw
// data rendered again into an offscreen framebuffer of twice the size (shapes
// and lines crisp; glyphs and images scaled from their textures), or read from
// the back buffer at 1x.
#pragma once

#include <string>
#include <vector>

namespace cilab {

struct FramePixels {
  int w = 0, h = 0;                  // pixels
  std::vector<unsigned char> rgba;   // top row first
};

// The current frame (after ImGui_ImplOpenGL3_RenderDrawData, before the swap)
// at `scale` (1 or 2) times the framebuffer (fb_w x fb_h). Throws std::runtime_error.
FramePixels frame_pixels(int scale, int fb_w, int fb_h);

// The region [x0, x1) x [y0, y1) of `px` (clamped to it). Throws std::runtime_error if it is empty.
FramePixels crop_pixels(const FramePixels& px, int x0, int y0, int x1, int y1);

// Writes the region [x0, x1) x [y0, y1) of `px` (clamped to it) as PNG. Throws std::runtime_error.
void write_png_region(const std::string& path, const FramePixels& px, int x0, int y0, int x1, int y1);

}  // namespace cilab
