// The real app under a (virtual) display: renders frames, saves a
// screenshot that is not blank, reports frame times, rejects bad input
// before opening a window.
#include <doctest/doctest.h>

#include <stb_image.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

struct Proc {
  int code;
  std::string out, err;
};

Proc run_gui(const std::string& args, const std::string& png) {
  const std::string cmd = std::string(CILAB_SOURCE_DIR "/tests/gui_smoke.sh ") + CILAB_BINARY + " " + png +
                          " " + args + " >gui_out.txt 2>gui_err.txt";
  const int rc = std::system(cmd.c_str());
  auto slurp = [](const char* p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp("gui_out.txt"), slurp("gui_err.txt")};
}

// Distinct colours in a region, and the fraction of pixels differing from the background.
struct ImageStats {
  int w = 0, h = 0;
  size_t distinct = 0;
};

ImageStats stats(const std::string& png) {
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

}  // namespace

TEST_CASE("gui e2e: k-means on blobs renders and saves a non-blank screenshot") {
  const Proc p = run_gui("--dataset blobs:n=800,centers=4 --steps 3 --frames 20", "gui_kmeans.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  CHECK(p.out.find("frames 20 median_ms") != std::string::npos);
  const ImageStats s = stats("gui_kmeans.png");
  CHECK(s.w >= 800);
  CHECK(s.h >= 600);
  CHECK(s.distinct > 50);  // text, plots, points: far from a blank window
}

TEST_CASE("gui e2e: iris (d = 4, projected) renders") {
  const Proc p = run_gui("--dataset iris --set k=3 --steps 2 --frames 10", "gui_iris.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  CHECK(stats("gui_iris.png").distinct > 50);
}

TEST_CASE("gui e2e: bad input exits 2 with one line before any window") {
  Proc p = run_gui("--data /nonexistent/data.csv --frames 3", "gui_bad.png");
  CHECK(p.code == 2);
  CHECK(p.err.find("cilab: error:") != std::string::npos);
  p = run_gui("--set k=999 --frames 3", "gui_bad.png");
  CHECK(p.code == 2);
}
