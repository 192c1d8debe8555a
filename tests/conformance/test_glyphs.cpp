// Every text the lab shows renders with the lab's font (views/common/fonts.h): no glyph
// missing, so nothing is drawn as "?" (issue 29: word2vec's PMI, "king" and "uniform noise"
// preset notes showed "?" for >= alpha < > proportional-to sigma). Checked on the shipped
// preset titles and notes, every module's title, summary, parameter help, formulas, choices
// and metric help, what its data panel says, and the labels its view draws on every tab.
#include <doctest/doctest.h>

#include "../support/imgui_headless.h"
#include "../support/screen_text.h"
#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "app/headless/lab_file.h"
#include "views/common/fonts.h"
#include "views/common/view.h"

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace cilab;

namespace {

// The lab's font, built once (DejaVu Sans is a declared dependency: missing is a failure).
struct LabFont {
  ImFontAtlas atlas;
  ImFont* font = nullptr;
  LabFont() {
    font = add_lab_font(&atlas, 15.0f);
    if (font) atlas.Build();
  }
};

std::string code_points(const std::vector<unsigned>& cps) {
  std::string out;
  for (unsigned c : cps) {
    char b[16];
    std::snprintf(b, sizeof b, "%sU+%04X", out.empty() ? "" : " ", c);
    out += b;
  }
  return out;
}

// Every text with a missing glyph, named by where it comes from.
struct Missing {
  std::map<std::string, std::string> where;  // "preset word2vec-king note" -> "U+27E8 U+27E9"
  void check(const ImFont& font, const std::string& place, const std::string& text) {
    const std::vector<unsigned> m = missing_glyphs(font, text);
    if (!m.empty()) where[place] = code_points(m);
  }
  std::string report() const {
    std::string out;
    for (const auto& [place, cps] : where) out += place + ": " + cps + "\n";
    return out;
  }
};

}  // namespace

TEST_CASE("glyphs: the lab font has the glyphs the lab's text uses, and the check sees a missing one") {
  LabFont lf;
  REQUIRE_MESSAGE(lf.font != nullptr, "DejaVu Sans (fonts-dejavu-core) is not installed");
  for (const char* s : {"≥ α ⟨ ⟩ ∝ σ", "λ‖x‖² ≤ τ, Σᵢ xᵢ → ∞, xᵀy, ℓ(U, V), ±1, η₀ ⁻¹ — …"})
    CHECK_MESSAGE(missing_glyphs(*lf.font, s).empty(), s, " misses ", code_points(missing_glyphs(*lf.font, s)));
  // The check itself: a code point outside the ranges (CJK) and one beyond 16 bits are reported.
  CHECK(missing_glyphs(*lf.font, "a\xe4\xb8\xad") == std::vector<unsigned>{0x4E2D});
  CHECK(missing_glyphs(*lf.font, "\xf0\x9d\x94\xbc").size() == 1);  // ImGui reads it as U+FFFD
  CHECK(missing_glyphs(*lf.font, "line\nnext\ttab").empty());
  // ImGui's default ranges (what the shell loaded before) miss them: the old font drew "?".
  ImFontAtlas old;
  ImFont* def = old.AddFontFromFileTTF(lab_font_file(), 15.0f);
  REQUIRE(def != nullptr);
  old.Build();
  CHECK(missing_glyphs(*def, "≥ α ⟨ ⟩ ∝ σ").size() == 6);
}

TEST_CASE("glyphs: every preset note and title, parameter help and module text renders with no missing glyph") {
  LabFont lf;
  REQUIRE(lf.font != nullptr);
  Missing miss;
  std::vector<std::string> errors;
  const std::vector<LabFile> presets = load_presets(&errors);
  CHECK(errors.empty());
  CHECK(presets.size() >= 40);
  for (const LabFile& p : presets) {
    miss.check(*lf.font, "preset " + p.name + " title", p.title);
    miss.check(*lf.font, "preset " + p.name + " note", p.note);
  }
  for (const ModuleEntry& e : module_registry()) {
    const std::unique_ptr<Module> m = e.make();
    const ModuleInfo& info = m->info();
    miss.check(*lf.font, e.name + " title", info.title);
    miss.check(*lf.font, e.name + " summary", info.summary);
    for (const MetricInfo& mi : info.metrics) miss.check(*lf.font, e.name + " metric " + mi.name, mi.name + " " + mi.help);
    for (const ParamSpec& s : m->params()) {
      std::string all = s.name + " " + s.help + " " + s.formula;
      for (const std::string& c : s.choices) all += " " + c;
      for (const std::string& c : s.choice_help) all += " " + c;
      miss.check(*lf.font, e.name + " parameter " + s.name, all);
    }
    if (info.data_use) miss.check(*lf.font, e.name + " data panel", info.data_use(default_values(m->params())));
  }
  CHECK_MESSAGE(miss.where.empty(), "missing glyphs:\n", miss.report());
}

// The view labels of every module, on every tab: the conformance check "view labels have their
// glyphs" (tests/conformance/conformance.cpp).
