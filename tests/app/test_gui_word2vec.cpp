// word2vec in the real app at a projector's 1280 x 720: word vectors learned
// from the GCIDE dictionary, the probes' neighbour table recomputed from newer
// vectors as training goes (the table's "vectors of iteration N" moves on),
// probe words typed into the field (key 2 puts the keyboard there, Enter
// leaves it), then every other tab by its key; each scene saved as a
// screenshot that must not be blank.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui word2vec: GCIDE neighbours update as training goes, typed probes, every tab") {
  std::ofstream script("gui_word2vec_session.txt");
  script << R"(# word vectors from a dictionary
expect module word2vec
expect no-error
step 5
expect iteration 5
key 2
settle
expect text probe words:
expect text vectors of iteration 5
screenshot gui_word2vec_neighbours_5.png
click field:probes
type king, water, horse, quickly enter
settle
expect text horse
expect text quickly
step 30
expect iteration 35
settle
expect text vectors of iteration 35
expect no-text vectors of iteration 5
screenshot gui_word2vec_neighbours_35.png
key 1
settle
expect text mean sigma(score)
expect text recall@10
screenshot gui_word2vec_curves.png
key 3
settle
expect text PC 1
screenshot gui_word2vec_map.png
key 4
settle
expect text expected:
screenshot gui_word2vec_analogies.png
key 5
settle
expect text q_alpha
screenshot gui_word2vec_noise.png
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui(
      "--module word2vec --dataset gcide --set vector_size=50 --set epochs=1 --frames 100000 "
      "--script gui_word2vec_session.txt",
      "gui_word2vec_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_word2vec_neighbours_5.png", "gui_word2vec_neighbours_35.png", "gui_word2vec_curves.png",
                          "gui_word2vec_map.png", "gui_word2vec_analogies.png", "gui_word2vec_noise.png"}) {
    INFO(png);
    const ImageStats st = stats(png);
    CHECK(st.w == 1280);
    CHECK(st.h == 720);
    CHECK(st.distinct > 100);
  }
}

TEST_CASE("gui word2vec: File > Export > Word vectors writes the vectors shown, in the word2vec text format") {
  const std::string path = "gui_word2vec_vectors.txt";
  std::remove(path.c_str());
  {
    std::ofstream script("gui_word2vec_export.txt");
    script << "step 20\n"
              "settle\n"
              "export-vectors " << path << "\n"
              "wait 2\n"
              "expect no-error\n"
              "quit\n";
  }
  const Proc p = run_gui("--module word2vec --dataset tiny-text --set vector_size=6 --set min_count=1 --frames 100000 "
                         "--script gui_word2vec_export.txt",
                         "gui_word2vec_export.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  std::ifstream in(path);
  int v = 0, d = 0;
  in >> v >> d;
  CHECK(v > 5);
  CHECK(d == 6);
  int rows = 0;
  std::string word;
  for (std::string line; std::getline(in >> std::ws, line);) {
    std::istringstream row(line);
    row >> word;
    int values = 0;
    for (double x; row >> x;) ++values;
    CHECK(values == 6);
    ++rows;
  }
  CHECK(rows == v);
}

// Issue 29 §4: number keys switch tabs and nothing else; a text field takes the keyboard only when
// clicked, and Enter or Escape gives it back. The old view put the keyboard into the probe field
// when key 2 opened its tab (text selected), so the next keys were typed into it ("345 not in the
// vocabulary") instead of switching tabs.
TEST_CASE("gui word2vec: key 2 opens the probes without taking the keyboard, a clicked field gives it back on Enter and Escape") {
  std::ofstream script("gui_word2vec_fields.txt");
  script << R"(expect module word2vec
step 3
settle
key 2
settle
type zqx
settle
expect text probe words:
expect no-text not in the vocabulary
expect no-text zqx
key 3
settle
expect text PC 1
key 2
settle
click field:probes
type cat, dog enter
settle
expect text dog
key 3
settle
expect text PC 1
click field:map-words
type cat escape
key 1
settle
expect text mean sigma(score)
quit
)";
  script.close();
  setenv("CILAB_SCREEN", "1280x720", 1);
  const Proc p = run_gui("--module word2vec --dataset tiny-text --set probe=wa,wb --frames 100000 --script gui_word2vec_fields.txt",
                         "gui_word2vec_fields_end.png");
  unsetenv("CILAB_SCREEN");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}

// Issue 29 §3: after "trained 1 epoch (raise epochs to train longer)", raising epochs continues that
// run from where it stopped. epochs was a Rebuild parameter: the panel restarted the run from
// iteration 0 and lost what it had trained.
TEST_CASE("gui word2vec: epochs raised after the run stopped continues it") {
  std::ofstream script("gui_word2vec_budget.txt");
  script << R"(expect module word2vec
step 5
expect iteration 1
expect status stopped
settle
expect text raise epochs to train longer
set epochs=3
expect no-error
expect iteration 1
expect status running
step 5
expect iteration 3
expect status stopped
quit
)";
  script.close();
  const Proc p = run_gui("--module word2vec --dataset tiny-text --set epochs=1 --frames 100000 --script gui_word2vec_budget.txt",
                         "gui_word2vec_budget_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}
