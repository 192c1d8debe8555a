// gui_harness.h - header-only helpers for the end-to-end GUI tests (tests/app/test_gui*.cpp):
// run the real app under a virtual display through tests/gui_smoke.sh (which saves a
// screenshot) and measure how far a screenshot is from a blank window.
//
//     const Proc p = run_gui("--module gmm --frames 100000 --script my.txt", "my_end.png");
//     CHECK(distinct_colours("my_screenshot.png") > 50);
//
// Needs CILAB_SOURCE_DIR and CILAB_BINARY (compile definitions of cilab_tests_app) and
// stb_image (libstb, linked through imgui).
#pragma once

#include <doctest/doctest.h>

#include <stb_image.h>

#include <cstddef>
#include <set>
#include <string>

#include "tests/support/process.h"

namespace cilab::test_support {

// Runs `gui_smoke.sh CILAB_BINARY png args...`; stdout and stderr go to png.out.txt and
// png.err.txt (output files named after the screenshot: ctest runs these cases in parallel).
inline Proc run_gui(const std::string& args, const std::string& png) {
  const std::string cmd = std::string(CILAB_SOURCE_DIR "/tests/gui_smoke.sh ") + CILAB_BINARY + " " + png + " " + args;
  return run_captured(cmd, png + ".out.txt", png + ".err.txt");
}

// Size of a screenshot and its number of distinct colours (sampled every 3rd pixel).
struct ImageStats {
  int w = 0, h = 0;
  size_t distinct = 0;
};

// Reads a PNG (REQUIREs that it can) and counts its distinct colours.
inline ImageStats stats(const std::string& png) {
  ImageStats s;
  int comp = 0;
  unsigned char* px = stbi_load(png.c_str(), &s.w, &s.h, &comp, 3);
  REQUIRE_MESSAGE(px != nullptr, "cannot read " << png);
  std::set<unsigned> colours;
  for (int y = 0; y < s.h; y += 3)
    for (int x = 0; x < s.w; x += 3) {
      const unsigned char* p = px + (static_cast<size_t>(y) * s.w + x) * 3;
      colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
    }
  s.distinct = colours.size();
  stbi_image_free(px);
  return s;
}

// Distinct colours of a screenshot: far above a blank window's handful.
inline size_t distinct_colours(const std::string& png) { return stats(png).distinct; }

}  // namespace cilab::test_support
