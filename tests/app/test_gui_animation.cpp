// File > Export > Animation in the real window: an iteration range as a GIF (decoded
// here with the tests' own decoder) and as a PNG sequence; every frame is the centre
// area as the window showed that iteration, and the run returns to where it was.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/gif_decoder.h"
#include "tests/support/gui_harness.h"

using namespace cilab;
using namespace cilab::test_support;
namespace fs = std::filesystem;

namespace {

// The PNG as 0xRRGGBB pixels (REQUIREs that it reads).
std::vector<uint32_t> png_pixels(const std::string& path, int* w, int* h) {
  int comp = 0;
  unsigned char* p = stbi_load(path.c_str(), w, h, &comp, 3);
  REQUIRE_MESSAGE(p, "cannot read " << path);
  std::vector<uint32_t> out(static_cast<size_t>(*w) * *h);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = (uint32_t(p[3 * i]) << 16) | (uint32_t(p[3 * i + 1]) << 8) | p[3 * i + 2];
  stbi_image_free(p);
  return out;
}

// Mean absolute difference per channel between two pictures of the same size.
double mean_abs_diff(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  REQUIRE(a.size() == b.size());
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (int sh = 0; sh <= 16; sh += 8) s += std::abs(int((a[i] >> sh) & 255) - int((b[i] >> sh) & 255));
  return s / (3.0 * a.size());
}

}  // namespace

TEST_CASE("gui animation: an iteration range as a GIF and as PNGs, frame for frame the centre area") {
  const QuietWindow window("animation", "ui_scale=1\n");
  const std::string gif = window.dir + "/kmeans.gif", seq = window.dir + "/frames";
  {
    std::ofstream script("gui_animation.txt");
    script << "step 6\n"
              "back\n"  // the position to return to: 5
              "wait 2\n"
              "export-animation 0 6 2 gif " << gif << "\n"
              "animation-wait\n"
              "expect iteration 5\n"
              "export-animation 0 6 2 png " << seq << "\n"
              "animation-wait\n"
              "expect iteration 5\n"
              "export-animation 3 99 1 gif " << window.dir << "/bad.gif\n"  // past the history: refused
              "wait 2\n"
              "expect error\n"
              "quit\n";
  }
  const Proc p = run_gui("--module kmeans --dataset blobs:n=300,centers=4,noise=2,seed=3 --set k=4 --set init=random "
                         "--seed 5 --frames 100000 --script gui_animation.txt",
                         "gui_animation_end.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  CHECK(p.err.find("is not in the history") != std::string::npos);
  CHECK_FALSE(fs::exists(window.dir + "/bad.gif"));

  // 0, 2, 4, 6: four frames, as four PNGs named after their iterations.
  const DecodedGif g = decode_gif(read_bytes(gif));
  CHECK(g.version == "89a");
  CHECK(g.loop == 0);  // repeats forever
  REQUIRE(g.frames.size() == 4);
  CHECK(g.frames[0].delay_cs == 10);
  const int iterations[] = {0, 2, 4, 6};
  std::vector<std::vector<uint32_t>> pngs;
  for (int k = 0; k < 4; ++k) {
    const std::string f = seq + "/frame-000" + std::to_string(k) + "-it" + std::to_string(iterations[k]) + ".png";
    REQUIRE_MESSAGE(fs::exists(f), f);
    int w = 0, h = 0;
    pngs.push_back(png_pixels(f, &w, &h));
    CHECK(w == g.width);
    CHECK(h == g.height);
    // The centre area, not the window (1280 x 720): no menu, transport or sidebar.
    CHECK(w < 1280 - 200);
    CHECK(h < 720 - 60);
    // The GIF's frame is the same picture (colours quantised only if it has more than 256).
    CHECK(mean_abs_diff(g.frames[static_cast<size_t>(k)].canvas, pngs.back()) < 3.0);
  }
  CHECK(mean_abs_diff(pngs[0], pngs[3]) > 0.5);  // the centroids moved: the frames differ
}
