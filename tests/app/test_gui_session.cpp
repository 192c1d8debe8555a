// Sessions and presets in the real window: a session saved after clicked
// points and a live change reopens at the same iteration with the same
// picture (pixel for pixel outside the timings), and a preset opened from the
// menu shows its module, its note and its iteration.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/data/datasets.h"
#include "app/headless/lab_file.h"
#include "tests/support/gui_harness.h"

using namespace cilab;
using namespace cilab::test_support;
namespace fs = std::filesystem;

namespace {

// Pixels that differ between two screenshots of the same size, rows [0, rows).
long differing_pixels(const std::string& a, const std::string& b, int rows) {
  int wa = 0, ha = 0, wb = 0, hb = 0, comp = 0;
  unsigned char* pa = stbi_load(a.c_str(), &wa, &ha, &comp, 3);
  unsigned char* pb = stbi_load(b.c_str(), &wb, &hb, &comp, 3);
  REQUIRE(pa);
  REQUIRE(pb);
  REQUIRE(wa == wb);
  REQUIRE(ha == hb);
  long n = 0;
  for (int y = 0; y < std::min(rows, ha); ++y)
    for (int x = 0; x < wa; ++x) {
      const size_t i = (static_cast<size_t>(y) * wa + x) * 3;
      n += pa[i] != pb[i] || pa[i + 1] != pb[i + 1] || pa[i + 2] != pb[i + 2];
    }
  stbi_image_free(pa);
  stbi_image_free(pb);
  return n;
}

}  // namespace

TEST_CASE("gui session: saved after edits, reopened at the same iteration with the same picture") {
  const QuietWindow window("roundtrip");
  const std::string& config = window.dir;
  const std::string session = config + "/gmm.cilab";
  {
    std::ofstream script("gui_session_save.txt");
    script << "step 4\n"
              "add-point 2.5 -1.0\n"  // edited data: the session embeds it
              "step 6\n"
              "set reg=0.001\n"        // a live change mid-run: replayed at its iteration
              "step 3\n"
              "back\n"                // the position shown, not the last one
              "settle\n"
              "expect no-error\n"
              "screenshot gui_session_a.png\n"
              "wait 2\n"
              "save-session " << session << "\n"
              "export-metrics " << config << "/metrics.csv\n"
              "export-png 2 " << config << "/window2x.png\n"
              "wait 2\n"
              "export-data " << config << "/data.csv\n"
              "wait 2\n"
              "expect no-error\n"
              "quit\n";
  }
  const Proc a = run_gui("--module gmm --dataset blobs:n=300,centers=3,noise=1.2,seed=5 --set k=3 --set tol=0 --seed 4 "
                         "--frames 100000 --script gui_session_save.txt",
                         "gui_session_a_end.png");
  INFO("stderr a: " << a.err);
  REQUIRE(a.code == 0);
  const LabFile lab = read_lab_file(session);
  CHECK(lab.session);
  CHECK(lab.module == "gmm");
  CHECK(lab.iteration == 8);  // tol = 0: EM runs on; 6 + 3 after the restart, then back one
  REQUIRE(lab.data_embedded);
  CHECK(lab.data_embedded->rows() == 301);
  REQUIRE(lab.edits.size() == 1);
  CHECK(lab.edits[0].param == "reg");
  CHECK(lab.edits[0].value == 0.001);
  CHECK(lab.edits[0].iteration == 6);
  CHECK(lab.seed == 4);
  // File > Export: the metrics as cilab run writes them, the edited data exactly.
  {
    std::ifstream m(config + "/metrics.csv");
    std::string header, line;
    std::getline(m, header);
    CHECK(header.rfind("iteration,log_likelihood", 0) == 0);
    CHECK(header.substr(header.size() - 8) == ",step_ms");
    int n = 0;
    while (std::getline(m, line)) ++n;
    CHECK(n == 10);  // iterations 0..9: the whole line, past the position shown
    const std::shared_ptr<const Dataset> back = load_file(config + "/data.csv");
    CHECK(back->rows() == 301);
    CHECK(back->x == lab.data_embedded->x);
    CHECK(back->labels.size() == 301);
    const ImageStats w2 = stats(config + "/window2x.png");  // File > Export > the window at 2x
    CHECK(w2.w == 2 * 1280);
    CHECK(w2.h == 2 * 720);
    CHECK(w2.distinct > 100);
  }

  {
    std::ofstream script("gui_session_open.txt");
    script << "settle\n"
              "expect iteration " << lab.iteration << "\n"
              "expect param reg=0.001\n"
              "expect no-error\n"
              "screenshot gui_session_b.png\n"
              "wait 1\n"
              "quit\n";
  }
  const Proc b = run_gui("--session " + session + " --frames 100000 --script gui_session_open.txt",
                         "gui_session_b_end.png");
  INFO("stderr b: " << b.err);
  CHECK(b.code == 0);
  // Everything above the status bar (its last 40 rows: step and frame times).
  CHECK(differing_pixels("gui_session_a.png", "gui_session_b.png", 720 - 40) == 0);
}

TEST_CASE("gui presets: a preset from the menu opens its module at its iteration with its note") {
  const QuietWindow window("menu");
  // A broken preset and a session with an unknown parameter, dropped on the window: a message, the run kept.
  std::ofstream(window.dir + "/broken.json") << "{\"module\": \"kmeans\", \"title\": }";
  std::ofstream(window.dir + "/bad.cilab") << R"({"format": "cilab-session", "module": "gan", "params": {"nope": 1}})";
  {
    std::ofstream script("gui_preset_menu.txt");
    script << "wait 2\n"
              "click menu:Presets\n"
              "wait 2\n"
              "click menu:Presets/Generative models\n"
              "wait 2\n"
              "click preset:gan-ring-collapse\n"
              "settle\n"
              "expect module gan\n"
              "expect param g_lr=0.01\n"
              "expect text Preset: Mode collapse\n"
              "click preset-note:hide\n"
              "wait 2\n"
              "expect no-text Preset: Mode collapse\n"
              "preset gan-ring-converge\n"
              "wait 2\n"
              "expect param g_lr=0.001\n"
              "wait 2\n"
              "expect text Preset: Ring of 8\n"
              "expect no-error\n"
              "step 3\n"
              "drop " << window.dir << "/broken.json\n"
              "wait 2\n"
              "expect error\n"
              "expect text broken.json: line 1\n"
              "expect module gan\n"
              "expect iteration 3\n"
              "expect param g_lr=0.001\n"
              "drop " << window.dir << "/bad.cilab\n"
              "wait 2\n"
              "expect text unknown parameter 'nope'\n"
              "expect module gan\n"
              "expect iteration 3\n"
              "quit\n";
  }
  const Proc p = run_gui("--frames 100000 --script gui_preset_menu.txt", "gui_preset_menu_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

TEST_CASE("gui sweep: k over 2..6 with two seeds in the background, then a point opens as its run") {
  const QuietWindow window("sweep");
  {
    std::ofstream script("gui_sweep.txt");
    script << "sweep k 2 6 lin 5 2 100\n"
              "wait 2\n"
              "sweep-wait\n"
              "settle\n"
              "expect sweep-rows 10\n"
              "screenshot gui_sweep_plot.png\n"
              "open-sweep-run 5\n"  // rows: k slowest, seeds innermost: row 5 = k 4, seed 8
              "settle\n"
              "expect module kmeans\n"
              "expect param k=4\n"
              "expect seed 8\n"
              "expect status converged\n"
              "expect no-error\n"
              "quit\n";
  }
  const Proc p = run_gui("--dataset blobs:n=1000,centers=4,seed=3 --seed 7 --frames 100000 --script gui_sweep.txt",
                         "gui_sweep_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(distinct_colours("gui_sweep_plot.png") > 50);
}

TEST_CASE("gui presentation: F11 at 1280x720 and 200 % keeps every plot inside the window and legible") {
  const QuietWindow window("present");
  {
    std::ofstream script("gui_present.txt");
    script << "scale 2\n"
              "settle\n"
              "key F11\n"
              "step 3\n"
              "settle\n"
              "expect text iteration 3\n"     // the large read-out
              "expect text objective\n"
              "expect no-text Modules\n"      // the sidebar is hidden
              "expect plots-inside-window\n"
              "expect plots-min-height 120\n"
              "screenshot gui_present_kmeans.png\n"
              "key Escape\n"
              "settle\n"
              "expect text Modules\n"         // back to the lab
              "preset gan-ring-converge\n"
              "settle\n"
              "key F11\n"
              "settle\n"
              "expect plots-inside-window\n"
              "expect plots-min-height 120\n"
              "screenshot gui_present_gan.png\n"
              "key F11\n"
              "wait 2\n"
              "expect no-error\n"
              "quit\n";
  }
  const Proc p = run_gui("--dataset blobs:n=600,centers=4,seed=1 --set k=4 --frames 100000 --script gui_present.txt",
                         "gui_present_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_present_kmeans.png", "gui_present_gan.png"}) {
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 50);
  }
}

TEST_CASE("gui annotations: the pen draws over the view, E clears it, L and P toggle the tools") {
  const QuietWindow window("annotate");
  {
    std::ofstream script("gui_annotate.txt");
    script << "settle\n"
              "screenshot gui_annotate_0.png\n"
              "key P\n"
              "pen-stroke 700 300 900 400\n"
              "settle\n"
              "expect annotations 1\n"
              "screenshot gui_annotate_1.png\n"
              "key E\n"
              "key P\n"
              "settle\n"
              "expect annotations 0\n"
              "screenshot gui_annotate_2.png\n"
              "expect no-error\n"
              "quit\n";
  }
  const Proc p = run_gui("--dataset blobs:n=300,centers=3,seed=1 --frames 100000 --script gui_annotate.txt",
                         "gui_annotate_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  // The stroke changes pixels along its path (and the tool's label); after E the picture is back.
  CHECK(differing_pixels("gui_annotate_0.png", "gui_annotate_1.png", 720) > 200);
  CHECK(differing_pixels("gui_annotate_0.png", "gui_annotate_2.png", 720 - 40) == 0);
}

TEST_CASE("gui session: a note hidden when the session was saved stays hidden on reopen, a shown one shows") {
  const QuietWindow window("note");
  const std::string hidden = window.dir + "/hidden.cilab", shown = window.dir + "/shown.cilab";
  {
    std::ofstream script("gui_session_note.txt");
    script << "preset kmeans-bad-init\n"
              "expect text Five well-separated blobs\n"
              "save-session " << shown << "\n"
              "wait 2\n"  // the "Saved" line above the view moves the note down: click where it is now
              "click preset-note:hide\n"
              "wait 2\n"
              "expect no-text Five well-separated blobs\n"
              "save-session " << hidden << "\n"
              "wait 2\n"
              "quit\n";
  }
  const Proc a = run_gui("--frames 100000 --script gui_session_note.txt", "gui_session_note.png");
  INFO("stderr: " << a.err);
  REQUIRE(a.code == 0);
  CHECK_FALSE(read_lab_file(hidden).note_open);
  CHECK(read_lab_file(shown).note_open);
  for (const auto& [file, visible] : {std::pair<std::string, bool>{hidden, false}, {shown, true}}) {
    std::ofstream("gui_session_note_open.txt") << "settle\n"
                                               << (visible ? "expect text" : "expect no-text")
                                               << " Five well-separated blobs\nquit\n";
    const Proc b = run_gui("--session " + file + " --frames 100000 --script gui_session_note_open.txt",
                           "gui_session_note_open.png");
    INFO("stderr: " << b.err);
    CHECK(b.code == 0);
  }
}

TEST_CASE("gui session: the tab shown and the plots zoomed are what a reopened session shows") {
  const QuietWindow window("views", "ui_scale=1\n");
  const std::string session = window.dir + "/mlp.cilab";
  {
    std::ofstream script("gui_session_views.txt");
    script << "step 30\n"
              "settle\n"
              "wait 2\n"
              "plot-zoom 2 decision regions##mlp\n"  // as the wheel would, in the Model tab
              "plot-zoom 4 Loss per epoch##mlp\n"
              "wait 2\n"
              "expect plot zoomed = 1 decision regions##mlp\n"
              "plot-limits decision regions##mlp\n"
              "plot-limits Loss per epoch##mlp\n"
              "key 3\n"  // the Network tab: the zoomed regions are not drawn when the session is saved
              "wait 2\n"
              "expect text The network of iteration\n"
              "save-session " << session << "\n"
              "wait 2\n"
              "quit\n";
  }
  const Proc a = run_gui("--module mlp --dataset moons:n=300,seed=2 --seed 3 --frames 100000 --script gui_session_views.txt",
                         "gui_session_views_a.png");
  INFO("stdout a: " << a.out);
  INFO("stderr a: " << a.err);
  REQUIRE(a.code == 0);
  const LabFile lab = read_lab_file(session);
  CHECK(lab.tab == 3);
  CHECK(lab.plot_views.size() == 2);
  {
    std::ofstream script("gui_session_views_open.txt");
    script << "settle\n"
              "wait 2\n"
              "expect text The network of iteration\n"  // the tab it was saved on
              "plot-limits Loss per epoch##mlp\n"
              "key 1\n"  // the Model tab: its zoomed plot is put back as soon as it draws
              "wait 3\n"
              "plot-limits decision regions##mlp\n"
              "quit\n";
  }
  const Proc b = run_gui("--session " + session + " --frames 100000 --script gui_session_views_open.txt",
                         "gui_session_views_b.png");
  INFO("stdout b: " << b.out);
  INFO("stderr b: " << b.err);
  REQUIRE(b.code == 0);
  const std::vector<std::string> la = lines_starting(a.out, "plot '"), lb = lines_starting(b.out, "plot '");
  REQUIRE(la.size() == 2);
  REQUIRE(lb.size() == 2);
  CHECK(la[0].find("zoomed 1") != std::string::npos);
  CHECK(lb[1] == la[0]);  // the decision regions, zoomed as they were
  CHECK(lb[0] == la[1]);  // the loss curve
}
