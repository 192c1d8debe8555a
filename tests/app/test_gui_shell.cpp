// The shell around the views, driven through --script as a user would: the
// UI scale rebuilt from its base, a window that fits the screen, one wording
// of the run position, the 64-bit seed field, integer sliders that step by
// one, a dataset loaded on selection, Fashion-MNIST's train/test choice, the
// file dialog's folder and View > Reset layout.
#include <doctest/doctest.h>

#include <stb_image.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

namespace {

// A fresh settings folder for this case (the app reads and writes settings.ini there).
std::string fresh_config(const std::string& name, const std::string& settings = "") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("cilab-shell-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (!settings.empty()) std::ofstream(dir / "settings.ini") << settings;
  setenv("CILAB_CONFIG_DIR", dir.c_str(), 1);
  return dir.string();
}

void write_script(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
}

// Pixels of the rectangle [0, w) x [0, h) of two screenshots: equal sizes and identical bytes.
bool same_pixels(const std::string& a, const std::string& b, int w, int h, std::string* why) {
  int wa = 0, ha = 0, wb = 0, hb = 0, c = 0;
  unsigned char* pa = stbi_load(a.c_str(), &wa, &ha, &c, 3);
  unsigned char* pb = stbi_load(b.c_str(), &wb, &hb, &c, 3);
  bool same = pa && pb && wa == wb && ha == hb && w <= wa && h <= ha;
  int differing = 0;
  if (same)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w * 3; ++x) differing += pa[(static_cast<size_t>(y) * wa * 3) + x] != pb[(static_cast<size_t>(y) * wa * 3) + x];
  if (!same) *why = "cannot compare " + a + " and " + b;
  else if (differing) *why = std::to_string(differing) + " bytes differ";
  stbi_image_free(pa);
  stbi_image_free(pb);
  return same && differing == 0;
}

}  // namespace

TEST_CASE("gui shell: UI scale 1 -> 2 -> 1.25 draws the same frame as starting at 1.25") {
  fresh_config("scale");
  write_script("shell_scale_a.txt", "settle\nscale 2\nsettle\nscale 1.25\nsettle\nscreenshot shell_scale_a.png\n"
                                    "wait 1\nquit\n");
  write_script("shell_scale_b.txt", "settle\nscreenshot shell_scale_b.png\nwait 1\nquit\n");
  const std::string common = "--module kmeans --dataset blobs:n=300,centers=3 --frames 100000 ";
  Proc p = run_gui(common + "--scale 1 --script shell_scale_a.txt", "shell_scale_a_end.png");
  INFO("stderr a: " << p.err);
  REQUIRE(p.code == 0);
  p = run_gui(common + "--scale 1.25 --script shell_scale_b.txt", "shell_scale_b_end.png");
  INFO("stderr b: " << p.err);
  REQUIRE(p.code == 0);
  // The menu and transport bars (full width) and the sidebar (down to the status bar): all
  // style. (Not the plots: a plot keeps the view it fitted at the first frame's size.)
  const ImageStats s = stats("shell_scale_a.png");
  std::string why;
  CHECK_MESSAGE(same_pixels("shell_scale_a.png", "shell_scale_b.png", s.w, 60, &why), why);
  CHECK_MESSAGE(same_pixels("shell_scale_a.png", "shell_scale_b.png", 400, s.h - 40, &why), why);
}

TEST_CASE("gui shell: on a 1280x720 screen the window fits (status bar on screen)") {
  fresh_config("fit");
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--module kmeans --frames 5", "shell_fit.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  const ImageStats s = stats("shell_fit.png");
  CHECK(s.w <= 1280);
  CHECK(s.h <= 720);
  CHECK(s.w >= 1000);  // and uses the screen
  CHECK(s.h >= 600);
}

TEST_CASE("gui shell: the window size is remembered per monitor and resolution, capped at the screen") {
  // GLFW names Xvfb's monitor "screen". Another monitor's size is not used here.
  fresh_config("remember", "window_size=1100x650 screen 1600x1000\nwindow_size=3000x2000 other 640x480\n");
  setenv("CILAB_SCREEN", "1600x1000", 1);
  Proc p = run_gui("--module kmeans --frames 5", "shell_remember.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  ImageStats s = stats("shell_remember.png");
  CHECK(s.w == 1100);
  CHECK(s.h == 650);
  // Remembered at a size larger than this screen: capped at its work area.
  fresh_config("remember_big", "window_size=3000x2000 screen 1280x720\n");
  setenv("CILAB_SCREEN", "1280x720", 1);
  p = run_gui("--module kmeans --frames 5", "shell_remember_big.png");
  REQUIRE(p.code == 0);
  s = stats("shell_remember_big.png");
  CHECK(s.w == 1280);
  CHECK(s.h == 720);
}

TEST_CASE("gui shell: after a sub-step the header, the slider and the status bar say the same position") {
  fresh_config("position");
  write_script("shell_position.txt", R"(wait 2
expect text paused
expect no-text running
substep
settle
expect text Iteration 1 (after assign)
expect text iteration 1 (after assign)
expect no-text iteration 0 (after assign)
expect no-text Iteration 0 (after assign)
substep
settle
expect text Iteration 1: every centroid moved
expect no-text (after assign)
quit
)");
  const Proc p = run_gui("--module kmeans --dataset blobs:n=300,centers=3 --frames 100000 --script shell_position.txt",
                         "shell_position.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui shell: GMM after a sub-step - header, slider and status agree") {
  fresh_config("position_gmm");
  write_script("shell_position_gmm.txt", R"(wait 2
step 3
substep
settle
expect text Iteration 4 (after E)
expect text iteration 4 (after E)
expect no-text iteration 3 (after E)
quit
)");
  const Proc p = run_gui("--module gmm --frames 100000 --script shell_position_gmm.txt", "shell_position_gmm.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui shell: a 64-bit seed typed in the seed field gives the CLI's run for that seed") {
  // The CLI's objective after 3 iterations with --seed 12345678901 (> 2^32: an int would cut it).
  const Proc cli = run_captured(std::string(CILAB_BINARY) + " run kmeans --seed 12345678901 --steps 3", "shell_seed_cli.csv",
                                "shell_seed_cli.err");
  REQUIRE(cli.code == 0);
  const size_t row3 = cli.out.find("\n3,");
  REQUIRE(row3 != std::string::npos);
  const std::string objective = cli.out.substr(row3 + 3, cli.out.find(',', row3 + 3) - row3 - 3);
  fresh_config("seed");
  write_script("shell_seed.txt", "wait 2\nclick seed\ntype 12345678901 enter\nwait 2\nexpect seed 12345678901\n"
                                 "expect no-error\nstep 3\nidle\nexpect iteration 3\nexpect metric objective " +
                                     objective + "\nquit\n");
  const Proc p = run_gui("--module kmeans --frames 100000 --script shell_seed.txt", "shell_seed.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui shell: an integer parameter steps by one with its + and - buttons") {
  fresh_config("int_step");
  write_script("shell_int.txt", R"(wait 2
expect param k=4
click param:k:+
wait 2
expect param k=5
click param:k:-
click param:k:-
wait 2
expect param k=3
quit
)");
  const Proc p = run_gui("--module kmeans --set k=4 --frames 100000 --script shell_int.txt", "shell_int.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui shell: picking a built-in dataset loads it at once") {
  fresh_config("pick");
  write_script("shell_pick.txt", R"(wait 2
expect rows 300
click builtin-combo
wait 2
click dataset:iris
wait 2
expect rows 150
expect no-error
quit
)");
  const Proc p = run_gui("--module kmeans --dataset blobs:n=300 --frames 100000 --script shell_pick.txt",
                         "shell_pick.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

// `expect rows` waits for the load to land; the panel's text is that of the
// last frame drawn, so a frame or two must pass before it names the new split.
TEST_CASE("gui shell: Fashion-MNIST's split is a train/test choice") {
  REQUIRE_MESSAGE(std::ifstream("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz").good(),
                  "dataset-fashion-mnist (a declared dependency) is not installed");
  fresh_config("split");
  write_script("shell_split.txt", R"(wait 2
dataset fashion-mnist:split=train,n=200
expect rows 200
wait 2
expect text train
click option:split
wait 2
click option:split=test
wait 2
expect rows 200
wait 2
expect text Fashion-MNIST test
quit
)");
  const Proc p = run_gui("--module pca --frames 100000 --script shell_split.txt", "shell_split.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui shell: panels hidden last time - a hint, and View > Reset layout shows them again") {
  const std::string dir = fresh_config("layout", "show_browser=0\nshow_data=0\nshow_params=0\nshow_metrics=0\n");
  write_script("shell_layout.txt", R"(wait 2
expect text View > Reset layout
expect no-text Modules
click menu:View
wait 2
click menu:View/Reset layout
wait 2
expect text Modules
expect no-text hidden panels
quit
)");
  const Proc p = run_gui("--module kmeans --frames 100000 --script shell_layout.txt", "shell_layout.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(slurp(dir + "/settings.ini").find("show_browser=1") != std::string::npos);
}

TEST_CASE("gui shell: the file dialog opens in the folder it was last in") {
  const std::filesystem::path data = std::filesystem::temp_directory_path() /
                                     ("cilab-shell-folder-" + std::to_string(::getpid()));
  std::filesystem::create_directories(data);
  std::ofstream(data / "marker_points.csv") << "x,y\n1,2\n3,4\n";
  const std::string dir = fresh_config("folder", "last_folder=" + data.string() + "\n");
  write_script("shell_folder.txt", "wait 2\nclick open-file\nwait 2\nexpect dialog-folder " + data.string() + "\nquit\n");
  const Proc p = run_gui("--module kmeans --frames 100000 --script shell_folder.txt", "shell_folder.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(slurp(dir + "/settings.ini").find("last_folder=" + data.string()) != std::string::npos);
  std::filesystem::remove_all(data);
}

TEST_CASE("gui shell: opening a preset says what it is doing - its stage, then its iterations with a bar") {
  // The VAE's large-beta preset trains 395 iterations before its note is true: the
  // status bar names the replay ("iterations k of 395") while the window stays live.
  fresh_config("progress");
  write_script("shell_progress.txt", R"(wait 2
preset vae-beta-collapse
wait-text opening vae
wait-text (to iteration 395)
screenshot-now shell_progress_replay.png
wait 2
quit
)");
  const Proc p = run_gui("--frames 100000 --script shell_progress.txt", "shell_progress.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui shell: the module list never moves under the pointer - a click opens the module where it is") {
  // At 1280 x 720 the list scrolls; a module near its bottom edge, clicked, opens
  // and stays where the pointer is (the list used to re-centre on it).
  fresh_config("module_list");
  write_script("shell_module_list.txt", R"(wait 2
expect module kmeans
click module:svd-lowrank
wait 2
expect module svd-lowrank
wait 2
expect unmoved module:svd-lowrank
screenshot shell_module_list_after.png
quit
)");
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--frames 100000 --script shell_module_list.txt", "shell_module_list.png");
  unsetenv("CILAB_SCREEN");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui shell: a plot's Save as PNG asks where (the export folder first), says where, and remembers the folder") {
  namespace fs = std::filesystem;
  fresh_config("plot_png");
  const fs::path dir = fs::absolute("plot_png_export");
  fs::remove_all(dir);
  fs::create_directories(dir / "chosen");
  write_script("shell_plot_png.txt", "wait 2\n"
                                     "plot-save 1 0\n"
                                     "wait 2\n"
                                     "type " + (dir / "chosen" / "bars.png").string() + " enter\n"
                                     "wait 6\n"
                                     "expect text Saved the plot to " + (dir / "chosen" / "bars.png").string() + "\n"
                                     "plot-save 2 0\n"
                                     "wait 2\n"
                                     "click save-session:save\n"
                                     "wait 6\n"
                                     "quit\n");
  const Proc p = run_gui("--module kmeans --frames 100000 --script shell_plot_png.txt", "shell_plot_png.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  // The path typed in the dialog, at 1x; then the folder chosen is offered again (2x, its default name).
  CHECK(fs::exists(dir / "chosen" / "bars.png"));
  CHECK(fs::exists(dir / "chosen" / "kmeans-plot-it0.png"));
  const ImageStats one = stats((dir / "chosen" / "bars.png").string());
  const ImageStats two = stats((dir / "chosen" / "kmeans-plot-it0.png").string());
  CHECK(std::abs(two.w - 2 * one.w) <= 2);  // the plot's rectangle, not the window
  CHECK(one.w < 1280);
}

TEST_CASE("gui shell: a plot's Save as PNG to a folder that does not exist says so and keeps the run") {
  fresh_config("plot_png_bad");
  write_script("shell_plot_png_bad.txt", "wait 2\n"
                                         "step 2\n"
                                         "plot-save 1 0\n"
                                         "wait 2\n"
                                         "type /nonexistent-cilab-folder/bars.png enter\n"
                                         "wait 6\n"
                                         "expect error\n"
                                         "expect iteration 2\n"
                                         "quit\n");
  const Proc p = run_gui("--module kmeans --frames 100000 --script shell_plot_png_bad.txt", "shell_plot_png_bad.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK_FALSE(std::filesystem::exists("/nonexistent-cilab-folder/bars.png"));
}
