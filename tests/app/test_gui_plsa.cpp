// The plsa module in the real app at a projector's 1280 x 720: topics emerging from the fortune
// cookies, EM step by step (whole steps, then an E-step and an M-step on their own), every tab
// by its number key, a topic added mid-run (the simplex turns into the projection), each scene
// saved as a screenshot that must not be blank.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui plsa: fortune topics at 1280 x 720, EM steps and sub-steps, every tab, a topic added") {
  std::ofstream script("gui_plsa_session.txt");
  script << R"(# topics emerging from the fortunes
expect module plsa
expect no-error
expect param k=3
step 6
expect iteration 6
settle
expect text pLSA by EM, K = 3
expect text l never falls: holds
expect text U, V, q stochastic: holds
expect text l <= saturated bound: holds
expect text log-likelihood l
expect text test_perplexity (held out)
screenshot gui_plsa_curves.png
substep
settle
expect text E-step done: the M-step runs next
expect text after the E-step (l unchanged)
substep
expect iteration 7
key 2
settle
expect text top words per topic
expect text topic 2
screenshot gui_plsa_topics.png
key 3
settle
expect text document-topic simplex
screenshot gui_plsa_simplex.png
key 4
settle
expect text U = p(w|z)
expect text V = p(z|d)
screenshot gui_plsa_matrices.png
key 5
settle
expect text categories (rows) against topics (columns)
screenshot gui_plsa_categories.png
intent add_topic -1
step 3
settle
expect text K = 4
key 3
settle
expect text principal axes
screenshot gui_plsa_projection.png
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--module plsa --set k=3 --frames 100000 --script gui_plsa_session.txt", "gui_plsa_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_plsa_curves.png", "gui_plsa_topics.png", "gui_plsa_simplex.png", "gui_plsa_matrices.png",
                          "gui_plsa_categories.png", "gui_plsa_projection.png"}) {
    INFO(png);
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 200);
  }
}

TEST_CASE("gui plsa: a bad text folder keeps the corpus and the run, shows the message, and a good one loads") {
  namespace fs = std::filesystem;
  // A folder of binary files, an empty folder, and a folder of twelve short documents on three themes.
  fs::remove_all("gui_text_binary");
  fs::remove_all("gui_text_empty");
  fs::remove_all("gui_text_good");
  fs::create_directories("gui_text_binary");
  fs::create_directories("gui_text_empty");
  fs::create_directories("gui_text_good");
  {
    std::ofstream bin("gui_text_binary/image.txt", std::ios::binary);
    for (int i = 0; i < 4096; ++i) bin.put(static_cast<char>(i * 7 % 256));
  }
  const char* const themes[] = {"river water boat fish stream bank flood rain",
                                "music song guitar piano melody rhythm choir drum",
                                "garden flower seed soil leaf root bloom spring"};
  for (int d = 0; d < 12; ++d) {
    std::ofstream doc("gui_text_good/doc" + std::to_string(d) + ".txt");
    for (int r = 0; r < 4; ++r) doc << themes[d % 3] << (r % 2 ? " " : "\n");
  }
  std::ofstream script("gui_text_folder.txt");
  script << R"(# bad text folders leave the lesson as it was
expect module plsa
expect dataset fortunes
step 3
expect iteration 3
drop gui_text_binary
settle
expect text found binary
expect error
expect dataset fortunes
expect iteration 3
drop gui_text_empty
settle
expect text found no .txt file
screenshot gui_text_folder_error.png
expect error
expect dataset fortunes
expect iteration 3
drop gui_text_good
expect no-error
expect dataset gui_text_good
step 2
expect iteration 2
quit
)";
  script.close();
  const Proc p = run_gui("--module plsa --dataset fortunes:n=400 --set k=3 --frames 100000 --script gui_text_folder.txt",
                         "gui_text_folder_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  CHECK(stats("gui_text_folder_error.png").distinct > 50);
}
