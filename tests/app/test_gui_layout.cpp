// Room for the picture at a projector's 1280 x 720: every module of the registry in the real app
// (under a virtual display), at 100 % and 150 % UI scale, on its own, with its first preset's note
// open and in Compare A/B, every chart's plot area at least 80 px tall and 80 px wide (side-by-side
// plots stack when a half is narrow), no legend hidden behind a "key" tab, and no plot off the
// screen or off a panel that cannot scroll (the shell's vertical budget: the note and the metrics strip yield to
// the view; comparing, the sidebar yields to the two halves). A module registered tomorrow, and its
// presets, are covered the day they are. Also: what a preset's note names is on screen.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "algorithms/core/registry.h"
#include "app/headless/lab_file.h"
#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

namespace {

// Each scale's modules are split over this many processes (ctest runs the cases in parallel).
constexpr int kParts = 5;

// The iteration a preset opens at (at most): the layout, not the training, is tested. Under the
// sanitizers the training modules step some twenty times slower, so 3 keeps CI's time down.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kPresetIteration = 3;
#else
constexpr int kPresetIteration = 20;
#endif

// The first shipped preset of each module, in the Presets menu's order (by file name).
std::map<std::string, std::string> first_presets() {
  std::map<std::string, std::string> first;
  for (const cilab::LabFile& p : cilab::load_presets(nullptr))
    if (!p.user && !first.count(p.module)) first[p.module] = p.name;
  return first;
}

std::vector<std::string> modules_of_part(int part) {
  std::vector<std::string> out;
  const auto& reg = cilab::module_registry();
  for (size_t i = 0; i < reg.size(); ++i)
    if (static_cast<int>(i % kParts) == part) out.push_back(reg[i].name);
  return out;
}

// The script of one part: its modules on their own (default data, two steps), then each one's first
// preset with its note (at kPresetIteration at most: the layout, not the training, is tested here) and
// that preset in Compare A/B; the last frame's plots checked each time, a screenshot each time.
std::string layout_script(const std::string& scale, const std::vector<std::string>& modules,
                          const std::map<std::string, std::string>& first, const std::string& tag) {
  std::string s = "settle\nscale " + scale + "\nsettle\n";
  auto check = [&](const std::string& what, const std::string& shot) {
    s += what + "settle\nexpect plots-min-height 80\nexpect plots-min-width 80\nexpect plots-inside-window\n"
         "expect text-inside-panels\nexpect plots-legends-shown\n";
    s += "screenshot gui_layout_" + tag + "_" + shot + ".png\nwait 1\n";
  };
  for (const std::string& m : modules) check("module " + m + "\nstep 2\n", m);
  for (const std::string& m : modules) {
    const auto it = first.find(m);
    if (it == first.end()) continue;  // reported by the caller
    check("preset " + it->second + " " + std::to_string(kPresetIteration) + "\nexpect text Preset:\n", m + "_note");
    check("compare on\n", m + "_compare");
    s += "compare off\n";
  }
  s += "quit\n";
  return s;
}

void run_part(const std::string& scale, const std::string& scale_tag, int part) {
  const QuietWindow window("layout_" + scale_tag + "_" + std::to_string(part), "ui_scale=1\n");
  const std::map<std::string, std::string> first = first_presets();
  const std::vector<std::string> modules = modules_of_part(part);
  REQUIRE(!modules.empty());
  for (const std::string& m : modules) CHECK_MESSAGE(first.count(m) == 1, m << ": no shipped preset");
  const std::string tag = scale_tag + "_" + std::to_string(part);
  const std::string script = "gui_layout_" + tag + ".txt";
  std::ofstream(script) << layout_script(scale, modules, first, tag);
  const Proc p = run_gui("--frames 100000 --script " + script, "gui_layout_" + tag + "_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const std::string& m : modules)
    for (const char* shot : {"", "_note", "_compare"}) {
      const ImageStats st = stats("gui_layout_" + tag + "_" + m + shot + ".png");
      CHECK(st.w == 1280);
      CHECK(st.h == 720);
      CHECK_MESSAGE(st.distinct > 50, m << shot << ": " << st.distinct << " colours");
    }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

TEST_CASE("gui layout: 1280 x 720 at 100 % - every module alone, with its first preset's note and in Compare A/B - part 1 of 5") {
  run_part("1", "100", 0);
}
TEST_CASE("gui layout: 1280 x 720 at 100 % - every module alone, with its first preset's note and in Compare A/B - part 2 of 5") {
  run_part("1", "100", 1);
}
TEST_CASE("gui layout: 1280 x 720 at 100 % - every module alone, with its first preset's note and in Compare A/B - part 3 of 5") {
  run_part("1", "100", 2);
}
TEST_CASE("gui layout: 1280 x 720 at 100 % - every module alone, with its first preset's note and in Compare A/B - part 4 of 5") {
  run_part("1", "100", 3);
}
TEST_CASE("gui layout: 1280 x 720 at 100 % - every module alone, with its first preset's note and in Compare A/B - part 5 of 5") {
  run_part("1", "100", 4);
}
TEST_CASE("gui layout: 1280 x 720 at 150 % - every module alone, with its first preset's note and in Compare A/B - part 1 of 5") {
  run_part("1.5", "150", 0);
}
TEST_CASE("gui layout: 1280 x 720 at 150 % - every module alone, with its first preset's note and in Compare A/B - part 2 of 5") {
  run_part("1.5", "150", 1);
}
TEST_CASE("gui layout: 1280 x 720 at 150 % - every module alone, with its first preset's note and in Compare A/B - part 3 of 5") {
  run_part("1.5", "150", 2);
}
TEST_CASE("gui layout: 1280 x 720 at 150 % - every module alone, with its first preset's note and in Compare A/B - part 4 of 5") {
  run_part("1.5", "150", 3);
}
TEST_CASE("gui layout: 1280 x 720 at 150 % - every module alone, with its first preset's note and in Compare A/B - part 5 of 5") {
  run_part("1.5", "150", 4);
}
static_assert(kParts == 5, "one TEST_CASE per part and scale above");

TEST_CASE("gui layout: a preset's note names only what its layout shows - no metric curve when it hides the metrics strip") {
  // What only the metrics strip draws: a note that names it while the preset hides the strip talks
  // about something not on screen (the backprop view draws its own loss plot only when it has room).
  const std::vector<std::string> strip_words = {"loss curve", "metrics strip", "the strip", "curves below",
                                                "step time"};
  int hiding = 0;
  for (const cilab::LabFile& p : cilab::load_presets(nullptr)) {
    if (p.user) continue;
    const auto it = p.panels.find("metrics");
    if (it == p.panels.end() || it->second) continue;
    ++hiding;
    const std::string note = lower(p.note);
    for (const std::string& w : strip_words)
      CHECK_MESSAGE(note.find(w) == std::string::npos,
                    p.name << " hides the metrics strip but its note names '" << w << "'");
  }
  CHECK(hiding > 0);  // the rule is exercised
}

TEST_CASE("gui layout: a preset's layout lasts while it is open - the next preset and a module opened by hand show the strip again") {
  const QuietWindow window("preset_panels", "ui_scale=1\n");
  // backprop-gradient-check hides the metrics strip; glove-tiny-lowrank leaves it as the user has it (shown).
  std::ofstream("gui_preset_panels.txt") << R"(settle
preset backprop-gradient-check
settle
expect no-text (F3: the curves)
expect no-text step time
preset glove-tiny-lowrank
settle
expect text step time
preset backprop-gradient-check
settle
expect no-text step time
module gmm
settle
expect text step time
quit
)";
  const Proc p = run_gui("--frames 100000 --script gui_preset_panels.txt", "gui_preset_panels_end.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
}
