// The backprop view, drawn with real ImGui frames (no renderer) over
// snapshots of real runs: values appear on the graph as the walk reveals
// them, the equation panel's numbers are the trace's, the gradient-check
// table, the sample (N) and edge-label (E) keys, and the layout of the nodes.
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/networks/backprop.h"
#include "views/networks/backprop_view.h"
#include "views/common/view_registry.h"

#include <doctest/doctest.h>

#include <imgui_internal.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace cilab;

namespace {

std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// A backprop network of hidden widths `layers` on mini-batches of `batch` (seed 5).
struct Fixture : test_support::ViewFixture<Backprop> {
  explicit Fixture(const std::string& layers = "3", int batch = 1)
      : ViewFixture(nullptr, {"layers=" + layers, "batch=" + std::to_string(batch)}, 5) {}
  void step() { run(1); }
  const BackpropSnapshot& snap() { return *mod.backprop_snapshot(); }
};

// Node and edge labels: three significant digits.
std::string short_num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// True if a line of `text` starts with "z ", "a " or "dL/dz " and then a number (a node value).
// (No std::regex: GCC 12 warns inside <regex> under the sanitizer build's -Werror.)
bool has_node_value_line(const std::string& text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    for (const char* p : {"z ", "a ", "dL/dz "}) {
      const size_t n = std::string(p).size();
      if (line.compare(0, n, p) != 0) continue;
      size_t k = n;
      if (k < line.size() && line[k] == '-') ++k;
      if (k < line.size() && line[k] >= '0' && line[k] <= '9') return true;
    }
    start = end + 1;
  }
  return false;
}

}  // namespace

TEST_CASE("backprop view: registered, the graph before any step shows inputs, neurons and the loss, no values") {
  CHECK(has_own_view("backprop"));
  Fixture f;
  ImGuiHeadless ui;
  BackpropView view;
  std::vector<ViewIntent> out;
  const std::string text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), out); });
  for (const char* w : {"x0", "x1", "h1[0]", "h1[2]", "out  y", "loss L", "Gradient check", "W1[2,1]", "b2[0]"})
    CHECK_MESSAGE(has(text, w), w);
  CHECK(has(text, "Iteration 0"));
  // No node values yet: no "z 0.12", "a -0.3", "dL/dz 0.05" lines.
  CHECK_FALSE(has_node_value_line(text));
  CHECK(out.empty());
}

TEST_CASE("backprop view: each sub-step reveals its node's z and a, the backward pass adds dL/dz") {
  Fixture f;
  ImGuiHeadless ui;
  BackpropView view;
  std::vector<ViewIntent> out;
  f.mod.sub_step();  // forward h1[0]
  std::string text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), out); });
  const BackpropTrace& tr = *f.snap().trace;
  CHECK(has(text, "(after forward h1[0])"));
  CHECK(has_node_value_line(text));  // the first test's pattern can match
  CHECK(has(text, "z " + short_num(tr.z[0](0, 0))));
  CHECK(has(text, "a " + short_num(tr.a[0](0, 0))));
  CHECK_FALSE(has(text, "z " + short_num(tr.z[0](0, 1))));  // h1[1] not yet computed
  CHECK_FALSE(has(text, "L " + short_num(tr.loss)));
  for (int i = 0; i < 4; ++i) f.mod.sub_step();  // h1[1], h1[2], out, loss
  text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), out); });
  CHECK(has(text, "z " + short_num(tr.z[0](0, 2))));
  CHECK(has(text, "L " + short_num(tr.loss)));
  CHECK_FALSE(has(text, "dL/dz " + short_num(tr.delta[1](0, 0))));
  f.mod.sub_step();  // backward out
  text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), out); });
  CHECK(has(text, "dL/dz " + short_num(tr.delta[1](0, 0))));
  // The current node's incoming edges carry dL/dw (the walk's gradient) and the check table its value.
  const BackpropGraph& g = *f.snap().graph;
  CHECK(has(text, "dL/dw " + short_num(tr.grad_walk[g.w_index(2, 0, 1)])));
  CHECK(has(text, short_num(tr.grad_lib[g.b_index(2, 0)])));
}

TEST_CASE("backprop view: the equation panel writes the chain rule with the trace's numbers") {
  Fixture f;
  for (int i = 0; i < 7; ++i) f.mod.sub_step();  // ... backward out, backward h1[0]
  const BackpropSnapshot& s = f.snap();
  const BackpropTrace& tr = *s.trace;
  const std::vector<std::string> eq = BackpropView::step_equations(s, 0);
  REQUIRE(eq.size() >= 5);
  auto term = [](double v) { return v < 0 ? "(" + num(v) + ")" : num(v); };
  const double da = tr.da[0](0, 0), fp = tr.fprime[0](0, 0), delta = tr.delta[0](0, 0);
  CHECK(delta == doctest::Approx(da * fp).epsilon(1e-14));
  bool chain = false, weight = false;
  for (const std::string& l : eq) {
    chain = chain || l == "dL/dz = dL/da * da/dz = " + term(da) + " * " + term(fp) + " = " + num(delta);
    weight = weight || has(l, "dL/dW1[0,1] = dL/dz * dz/dw = dL/dz * x[1] = " + term(delta) + " * " +
                                  term(tr.x(0, 1)) + " = " + num(delta * tr.x(0, 1)));
  }
  CHECK(chain);
  CHECK(weight);
  // The update lists every parameter: before - lr * gradient = after (plain SGD).
  for (int i = 0; i < 3; ++i) f.mod.sub_step();
  const BackpropSnapshot& u = f.snap();
  const std::vector<std::string> up = BackpropView::step_equations(u, 0);
  REQUIRE(static_cast<int>(up.size()) == 2 + u.graph->num_params());
  CHECK(up[1] == "theta <- theta - lr * dL/dtheta");
  CHECK(up[2] == "W1[0,0] = " + num(u.trace->theta_before[0]) + " - " + num(u.trace->lr) + " * " +
                     term(u.trace->grad_lib[0]) + " = " + num(u.trace->theta_after[0]));
}

TEST_CASE("backprop view: N picks the next sample of the batch, E labels every edge") {
  Fixture f("3", 4);
  f.step();
  ImGuiHeadless ui;
  BackpropView view;
  std::vector<ViewIntent> out;
  std::string text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), out); });
  CHECK(has(text, "sample 1 of 4"));
  CHECK_FALSE(has(text, "w " + short_num(f.snap().trace->theta_before[f.snap().graph->w_index(1, 1, 0)])));
  f.keys = {'N', 'E'};
  text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), out); });
  f.keys.clear();
  CHECK(view.sample == 1);
  CHECK(view.all_edge_labels);
  CHECK(has(text, "sample 2 of 4"));
  const BackpropTrace& tr = *f.snap().trace;
  CHECK(has(text, "x0"));
  CHECK(has(text, "z " + short_num(tr.z[0](1, 0))));
  CHECK(has(text, "dL/dw " + short_num(tr.grad_walk[f.snap().graph->w_index(1, 1, 0)])));
  const std::string ctrl = frame_text(ui, [&] { view.draw_controls(f.snap(), f.context()); });
  CHECK(has(ctrl, "label every edge (E)"));
  CHECK(has(ctrl, "sample (N)"));
}

TEST_CASE("backprop view: the nodes of the largest network fit the window without overlapping") {
  for (const char* layers : {"3", "4,4", "1"}) {
    CAPTURE(layers);
    Fixture f(layers);
    f.step();
    ImGuiHeadless ui;
    BackpropView view;
    std::vector<ViewIntent> out;
    for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), out); });
    const BackpropGraph& g = *f.snap().graph;
    std::vector<ImVec4> rects;
    for (int c = 0; c <= g.layers() + 1; ++c) {
      const int count = c <= g.layers() ? g.widths[static_cast<size_t>(c)] : 1;
      for (int j = 0; j < count; ++j) {
        const ImVec4 r = view.node_rect(c, j);
        CHECK(r.z > r.x);
        CHECK(r.x >= 0);
        CHECK(r.y >= 0);
        CHECK(r.z <= 1280);
        CHECK(r.w <= 800);
        rects.push_back(r);
      }
    }
    for (size_t a = 0; a < rects.size(); ++a)
      for (size_t b = a + 1; b < rects.size(); ++b) {
        const bool apart = rects[a].z <= rects[b].x || rects[b].z <= rects[a].x || rects[a].w <= rects[b].y ||
                           rects[b].w <= rects[a].y;
        CHECK(apart);
      }
  }
}

TEST_CASE("backprop view: the graph's colours have a key on screen") {
  // Issue 29 section 5: the blue and orange edges (and the nodes' colours) had no key.
  Fixture f;
  ImGuiHeadless ui;
  BackpropView view;
  std::vector<ViewIntent> out;
  const std::string text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), out); });
  for (const char* w : {"w > 0", "w < 0", "node computed", "dL/dz known"}) CHECK_MESSAGE(has(text, w), w);
}

TEST_CASE("backprop view: in a narrow panel the gradient-check table's font scale settles (no flicker) and shrinks it") {
  // The scale was measured under the window's own scale of the frame before (SetWindowFontScale
  // lasts per window): 1.0 and the shrunk scale took turns, frame after frame.
  Fixture f;
  f.step();
  ImGuiHeadless ui(ImVec2(720.0f, 720.0f), true);
  BackpropView view;
  std::vector<ViewIntent> out;
  std::vector<float> scales;
  for (int i = 0; i < 6; ++i) {
    ui.frame_in_window([&] { view.draw(f.snap(), f.context(), out); });
    for (ImGuiWindow* w : GImGui->Windows)
      if (w->Active && std::string(w->Name).rfind("/##bp_check_area") != std::string::npos &&
          std::string(w->Name).rfind('/') == std::string(w->Name).rfind("/##bp_check_area"))
        scales.push_back(w->FontWindowScale);
  }
  REQUIRE(scales.size() == 6);
  for (size_t i = 2; i < scales.size(); ++i) CHECK(scales[i] == doctest::Approx(scales[1]));
  CHECK(scales.back() < 1.0f);  // 720 px: the table does not fit at full size
}
