// The optimizer race view, drawn with real ImGui frames (no renderer) over
// snapshots of real runs of the "optimizers" module: contours, trajectories,
// the race table, theory buttons, divergence and rewind, the custom f(x, y)
// box, the finite-sum inset, and the caches that keep 10 000-point paths cheap.
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "algorithms/core/registry.h"
#include "algorithms/gradient_methods/optimizers.h"
#include "views/common/metrics_view.h"
#include "views/gradient_methods/optimizers_view.h"

#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <memory>
#include <string>

using namespace cilab;

namespace {

// The optimizers module with the assignments `sets` (seed 7), `steps` iterations recorded.
struct Fixture : test_support::ViewFixture<Optimizers> {
  Fixture(std::initializer_list<const char*> sets, int steps)
      : ViewFixture(nullptr, std::vector<std::string>(sets.begin(), sets.end()), 7) {
    run(steps);
  }
  const OptimizersSnapshot& snap() const { return *mod.optimizers_snapshot(); }
};

struct Harness {
  ImGuiHeadless ui;
  OptimizersView view;
  std::vector<ViewIntent> intents;
  FrameStats frame(Fixture& f) {
    std::shared_ptr<const Snapshot> s = f.mod.snapshot();
    return ui.frame_in_window([&] { view.draw(*s, f.context(), intents); });
  }
  FrameStats frame(Fixture& f, const Snapshot& s) {
    return ui.frame_in_window([&] { view.draw(s, f.context(), intents); });
  }
  void click(Fixture& f, ImVec2 p) {
    ui.mouse_move(p.x, p.y);
    frame(f);
    ui.mouse_button(0, true);
    frame(f);
    ui.mouse_button(0, false);
    frame(f);
  }
};

const ViewIntent* find_set(const std::vector<ViewIntent>& v, const std::string& name) {
  for (const ViewIntent& i : v)
    if (i.kind == ViewIntent::Kind::SetParam && i.param == name) return &i;
  return nullptr;
}

}  // namespace

TEST_CASE("optimizers view: quadratic race draws contours, trajectories and the theory - no intents without input") {
  Fixture f({"function=quadratic", "kappa=20", "optimizer=gd", "lr=0.05", "race_momentum=true", "race_adam=false",
             "race_sgd=false"},
            40);
  const OptimizersSnapshot& s = f.snap();
  REQUIRE(s.theory.valid);
  Harness h;
  FrameStats st;
  for (int i = 0; i < 3; ++i) st = h.frame(f);
  const OptimizersView::DrawInfo& d = h.view.last_draw();
  CHECK(h.intents.empty());
  CHECK(d.contour_segments > 200);
  CHECK(d.racers_drawn == static_cast<int>(s.racers.size()));
  CHECK(d.racers_drawn >= 2);
  CHECK(d.trajectory_points >= 2 * d.racers_drawn);
  CHECK(d.trajectory_points <= d.path_points);
  CHECK(d.theory_buttons.size() == 3);
  CHECK(d.race_names.size() == 8);
  CHECK(d.plot_max.x > d.plot_min.x + 200);
  CHECK(d.start_pixel.x > d.plot_min.x);
  CHECK(d.start_pixel.x < d.plot_max.x);
  CHECK(st.vertices > 5000);
  // The grid is evaluated once, not every frame.
  const int evaluations = h.view.grid_evaluations();
  h.frame(f);
  h.frame(f);
  CHECK(h.view.grid_evaluations() == evaluations);
  // The controls draw.
  st = h.ui.frame_in_window([&] { h.view.draw_controls(s, f.context()); });
  CHECK(st.vertices > h.ui.empty_vertices());
}

TEST_CASE("optimizers view: a click on the landscape sets start_x and start_y where the mouse is") {
  Fixture f({"function=rosenbrock"}, 5);
  Harness h;
  h.frame(f);
  h.frame(f);
  const OptimizersView::DrawInfo d = h.view.last_draw();
  // Lower-right area of the plot: away from the legend (top-left) and the start handle.
  const ImVec2 p(d.plot_min.x + 0.8f * (d.plot_max.x - d.plot_min.x), d.plot_min.y + 0.75f * (d.plot_max.y - d.plot_min.y));
  h.click(f, p);
  const ViewIntent* sx = find_set(h.intents, "start_x");
  const ViewIntent* sy = find_set(h.intents, "start_y");
  REQUIRE(sx);
  REQUIRE(sy);
  CHECK(h.intents.size() == 2);
  // Rosenbrock's window is [-2, 2] x [-1, 3] (equal aspect may widen one axis): the click is right of
  // centre and below centre.
  CHECK(sx->value > 0.0);
  CHECK(sy->value < 1.0);
  CHECK(std::isfinite(sx->value));
  // The module accepts them.
  ParamValues v = f.values;
  v["start_x"] = sx->value;
  v["start_y"] = sy->value;
  CHECK_NOTHROW(f.mod.reset(nullptr, v, 7));
}

TEST_CASE("optimizers view: dragging the start point emits start_x and start_y as it moves") {
  Fixture f({"function=himmelblau", "start=0,0"}, 3);
  Harness h;
  h.frame(f);
  h.frame(f);
  const ImVec2 s0 = h.view.last_draw().start_pixel;
  h.ui.mouse_move(s0.x, s0.y);
  h.frame(f);
  h.ui.mouse_button(0, true);
  h.frame(f);
  h.ui.mouse_move(s0.x + 30, s0.y);
  h.frame(f);
  h.ui.mouse_move(s0.x + 60, s0.y);
  h.frame(f);
  h.ui.mouse_button(0, false);
  h.frame(f);
  const ViewIntent* last_x = nullptr;
  for (const ViewIntent& i : h.intents)
    if (i.kind == ViewIntent::Kind::SetParam && i.param == "start_x") last_x = &i;
  REQUIRE(last_x);
  CHECK(last_x->value > 0.0);  // moved right of x = 0
  CHECK(find_set(h.intents, "start_y"));
}

TEST_CASE("optimizers view: the race table checkbox emits race_<name> - the primary's cannot be unticked") {
  Fixture f({"function=rosenbrock", "optimizer=adam", "race_adagrad=false"}, 3);
  Harness h;
  h.frame(f);
  h.frame(f);
  const OptimizersView::DrawInfo d = h.view.last_draw();
  int adagrad = -1, adam = -1;
  for (size_t i = 0; i < d.race_names.size(); ++i) {
    if (d.race_names[i] == "adagrad") adagrad = static_cast<int>(i);
    if (d.race_names[i] == "adam") adam = static_cast<int>(i);
  }
  REQUIRE(adagrad >= 0);
  REQUIRE(adam >= 0);
  h.click(f, d.race_checkboxes[static_cast<size_t>(adagrad)]);
  REQUIRE(h.intents.size() == 1);
  CHECK(h.intents[0].kind == ViewIntent::Kind::SetParam);
  CHECK(h.intents[0].param == "race_adagrad");
  CHECK(h.intents[0].value == 1.0);
  h.intents.clear();
  h.click(f, d.race_checkboxes[static_cast<size_t>(adam)]);
  CHECK(h.intents.empty());
}

TEST_CASE("optimizers view: a diverged racer is marked and its rewind button emits Seek then lr / 2") {
  // GD on a quadratic with L = 20: lr = 0.12 > 2/L = 0.1 diverges.
  Fixture f({"function=quadratic", "kappa=20", "optimizer=gd", "lr=0.12", "race_momentum=false", "race_adam=false",
             "race_sgd=false"},
            0);
  for (int i = 0; i < 2000 && f.snap().racers[0].status != Status::Diverged; ++i) f.run(1);
  const OptimizersSnapshot& s = f.snap();
  REQUIRE(s.racers[0].status == Status::Diverged);
  const int at = s.racers[0].diverged_at;
  REQUIRE(at > 3);
  Harness h;
  h.frame(f);
  h.frame(f);
  const OptimizersView::DrawInfo d = h.view.last_draw();
  CHECK(d.diverged_marks >= 1);
  REQUIRE(d.rewind_button.x > 0);
  h.click(f, d.rewind_button);
  REQUIRE(h.intents.size() == 2);
  CHECK(h.intents[0].kind == ViewIntent::Kind::Seek);
  // Not a restart: GD's gap grows from the first step (lr > 2/L), and the rewind still goes to where
  // it ran away (gap <= 100 x the start's), past iteration 0 and before the divergence.
  const int target = h.intents[0].iteration;
  CHECK(target > 0);
  CHECK(target < at);
  const double fstar = s.landscape->min_value(), gap0 = s.racers[0].path->loss(0) - fstar;
  CHECK(s.racers[0].path->loss(static_cast<size_t>(target)) - fstar <= 100.0 * gap0);
  CHECK(s.racers[0].path->loss(static_cast<size_t>(target) + 1) - fstar > 100.0 * gap0);
  CHECK(h.intents[1].kind == ViewIntent::Kind::SetParam);
  CHECK(h.intents[1].param == "lr");
  CHECK(h.intents[1].value == doctest::Approx(0.06));
  // Applied as the app does (seek, then a live change there): the history up to the target stays and
  // the race goes on from it with the halved step, to convergence instead of a second blow-up.
  Fixture g({"function=quadratic", "kappa=20", "optimizer=gd", "lr=0.12", "race_momentum=false", "race_adam=false",
             "race_sgd=false"},
            target);
  const Eigen::Vector2d at_target = g.snap().racers[0].theta;
  CHECK((at_target - s.racers[0].path->point(static_cast<size_t>(target))).norm() == doctest::Approx(0.0));
  g.mod.set_live("lr", h.intents[1].value);
  g.run(300);
  CHECK(g.snap().racers[0].status != Status::Diverged);
  CHECK(g.snap().racers[0].loss - fstar < 1e-6 * gap0);
}

TEST_CASE("optimizers view: a diverged non-primary racer is rewound through its lr_<name>") {
  Fixture f({"function=quadratic", "kappa=20", "optimizer=adam", "race_gd=true", "lr_gd=0.15", "race_momentum=false",
             "race_sgd=false"},
            0);
  const RacerState* gd = nullptr;
  for (int i = 0; i < 2000; ++i) {
    f.run(1);
    gd = nullptr;
    for (const RacerState& r : f.snap().racers)
      if (r.kind == OptimizerKind::GD) gd = &r;
    REQUIRE(gd);
    if (gd->status == Status::Diverged) break;
  }
  REQUIRE(gd->status == Status::Diverged);
  Harness h;
  h.frame(f);
  h.frame(f);
  REQUIRE(h.view.last_draw().rewind_button.x > 0);
  h.click(f, h.view.last_draw().rewind_button);
  REQUIRE(h.intents.size() == 2);
  CHECK(h.intents[0].kind == ViewIntent::Kind::Seek);
  CHECK(h.intents[1].param == "lr_gd");
  CHECK(h.intents[1].value == doctest::Approx(0.075));
}

TEST_CASE("optimizers view: the theory buttons set GD's step and the heavy-ball parameters") {
  Fixture f({"function=quadratic", "kappa=20", "optimizer=gd", "lr=0.05", "race_momentum=false", "race_adam=false",
             "race_sgd=false"},
            5);
  const QuadraticTheory th = f.snap().theory;
  REQUIRE(th.valid);
  Harness h;
  h.frame(f);
  h.frame(f);
  REQUIRE(h.view.last_draw().theory_buttons.size() == 3);
  const std::vector<ImVec2> buttons = h.view.last_draw().theory_buttons;
  h.click(f, buttons[1]);  // lr = 2/(L+mu): the primary is GD
  REQUIRE(h.intents.size() == 1);
  CHECK(h.intents[0].param == "lr");
  CHECK(h.intents[0].value == doctest::Approx(2.0 / (th.L + th.mu)));
  h.intents.clear();
  h.click(f, buttons[2]);  // heavy ball: races momentum, sets lr_momentum and momentum
  const ViewIntent* on = find_set(h.intents, "race_momentum");
  const ViewIntent* lr = find_set(h.intents, "lr_momentum");
  const ViewIntent* beta = find_set(h.intents, "momentum");
  REQUIRE(on);
  REQUIRE(lr);
  REQUIRE(beta);
  CHECK(on->value == 1.0);
  const double sl = std::sqrt(th.L), sm = std::sqrt(th.mu);
  CHECK(lr->value == doctest::Approx(4.0 / ((sl + sm) * (sl + sm))));
  CHECK(beta->value == doctest::Approx(std::pow((sl - sm) / (sl + sm), 2)));
}

TEST_CASE("optimizers view: the custom f(x, y) box emits a Text SetParam of expr - gradients labelled numeric") {
  Fixture f({"function=custom", "expr=x^2+3*y^2"}, 3);
  f.values.text["expr"] = "x^2+3*y^2";
  REQUIRE(f.snap().landscape->numeric_gradient());
  Harness h;
  h.frame(f);
  h.frame(f);
  const OptimizersView::DrawInfo d = h.view.last_draw();
  REQUIRE(d.expr_input.x > 0);
  REQUIRE(d.expr_apply.x > 0);
  CHECK(d.contour_segments > 50);
  // Focus the box (the cursor goes where clicked), type, apply.
  h.click(f, d.expr_input);  // the box is wider than the text: the caret ends up at the end
  h.ui.io().AddInputCharacter('+');
  h.ui.io().AddInputCharacter('y');
  h.frame(f);
  h.click(f, d.expr_apply);
  REQUIRE_FALSE(h.intents.empty());
  const ViewIntent& t = h.intents.back();
  INFO("text: " << t.text << " intents " << h.intents.size());
  CHECK(t.kind == ViewIntent::Kind::SetParam);
  CHECK(t.param == "expr");
  CHECK(t.text.find("x^2+3*y^2") != std::string::npos);
  CHECK(t.text.find("+y") != std::string::npos);
}

TEST_CASE("optimizers view: least squares shows the data inset with the fit and the finite-sum contours") {
  Fixture f({"function=least_squares", "optimizer=sgd", "batch=8", "race_gd=true"}, 30);
  REQUIRE(f.snap().landscape->finite_sum());
  Harness h;
  for (int i = 0; i < 3; ++i) h.frame(f);
  const OptimizersView::DrawInfo& d = h.view.last_draw();
  CHECK(d.data_inset);
  CHECK(d.contour_segments > 100);
  CHECK(h.intents.empty());
}

TEST_CASE("optimizers view: sub-step arrows appear after the gradient sub-step") {
  Fixture f({"function=rosenbrock", "optimizer=momentum", "lr=0.001"}, 5);
  Harness h;
  h.frame(f);
  h.frame(f);
  CHECK(h.view.last_draw().arrows == 0);
  f.mod.sub_step();
  REQUIRE(f.snap().phase == 1);
  h.frame(f);
  CHECK(h.view.last_draw().arrows >= 2);  // -grad f and the velocity (and the last step)
}

TEST_CASE("optimizers view: 10 000-point paths are drawn decimated, cached, and follow a rewind") {
  Fixture f({"function=rosenbrock", "race_gd=true", "race_sgd=true", "race_momentum=true", "race_nesterov=true",
             "race_adagrad=true", "race_rmsprop=true", "race_adam=true", "race_adamw=true", "tol=0", "lr_gd=0.0005",
             "lr_momentum=0.0002", "lr_nesterov=0.0002", "lr=0.01"},
            0);
  std::shared_ptr<const Snapshot> early;
  for (int i = 0; i < 10000; ++i) {
    f.mod.step();
    if (i == 99) early = f.mod.snapshot();
  }
  Harness h;
  h.frame(f);
  h.frame(f);
  const OptimizersView::DrawInfo d = h.view.last_draw();
  CHECK(d.racers_drawn == 8);
  CHECK(d.path_points >= 8 * 5000);
  CHECK(d.trajectory_points * 4 < d.path_points);  // pixel decimation
  // A rewound snapshot (shorter paths) is drawn from scratch, not from the long cache.
  h.frame(f, *early);
  CHECK(h.view.last_draw().path_points <= 8 * 101);
  CHECK(h.view.last_draw().trajectory_points <= h.view.last_draw().path_points);
  CHECK(h.view.last_draw().trajectory_points >= 8 * 2);
}

TEST_CASE("optimizers view: typing an lr (Ctrl+click, 0.3, Enter) applies 0.3 once - no half-typed value") {
  Fixture f({"function=quadratic", "optimizer=gd"}, 3);
  Harness h;
  h.ui.io().KeyMap[ImGuiKey_Enter] = 13;
  h.frame(f);
  h.frame(f);
  const OptimizersView::DrawInfo d = h.view.last_draw();
  int gd = -1;
  for (size_t i = 0; i < d.race_names.size(); ++i)
    if (d.race_names[i] == "gd") gd = static_cast<int>(i);
  REQUIRE(gd >= 0);
  REQUIRE(d.race_lr_sliders.size() == d.race_names.size());
  const ImVec2 cell = d.race_lr_sliders[static_cast<size_t>(gd)];
  h.ui.key_mods(true, false);  // Ctrl+click: the cell becomes a text field, all selected
  h.click(f, cell);
  h.ui.key_mods(false, false);
  for (char c : {'0', '.', '3'}) {
    h.ui.io().AddInputCharacter(c);
    h.frame(f);
  }
  h.ui.io().KeysDown[13] = true;
  h.frame(f);
  h.ui.io().KeysDown[13] = false;
  h.frame(f);
  const ParamSpec* spec = find_param(f.mod.params(), "lr");
  REQUIRE(spec != nullptr);
  std::vector<double> lrs;
  for (const ViewIntent& i : h.intents)
    if (i.kind == ViewIntent::Kind::SetParam && i.param == "lr") lrs.push_back(i.value);
  INFO("intents: " << h.intents.size());
  REQUIRE(lrs.size() == 1);  // one edit, on Enter: "0" and "0." were never applied
  CHECK(lrs[0] == doctest::Approx(0.3));
  for (double v : lrs) CHECK(v >= spec->min);  // every value the run is given validates
}

TEST_CASE("optimizers view: the landscape is equal-aspect by default - kappa = 1 circles stay circles in any window") {
  Fixture f({"function=quadratic", "kappa=1", "optimizer=gd", "lr=0.1"}, 3);
  for (const ImVec2 display : {ImVec2(1280, 800), ImVec2(1900, 600), ImVec2(900, 1000)}) {
    ImGuiHeadless ui(display);
    OptimizersView view;
    std::vector<ViewIntent> intents;
    for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
    const OptimizersView::DrawInfo& d = view.last_draw();
    CHECK(d.equal_aspect);
    const double px_w = d.plot_max.x - d.plot_min.x, px_h = d.plot_max.y - d.plot_min.y;
    REQUIRE(px_w > 50);
    REQUIRE(px_h > 50);
    const double ux = (d.limits[1] - d.limits[0]) / px_w, uy = (d.limits[3] - d.limits[2]) / px_h;
    INFO("display " << display.x << " x " << display.y << ": " << ux << " vs " << uy << " units per pixel");
    CHECK(ux == doctest::Approx(uy).epsilon(0.01));
  }
}

TEST_CASE("optimizers: a custom f below zero is drawn - the metric strip's loss plot goes linear and says so") {
  // f < 0 everywhere near the start: a log axis would show nothing.
  Fixture f({"function=custom", "expr=x^2 + 3*y^2 - 50", "optimizer=gd", "lr=0.05"}, 30);
  const ModuleInfo& info = f.mod.info();
  int loss = -1;
  for (size_t m = 0; m < info.metrics.size(); ++m)
    if (info.metrics[m].name == "loss") loss = static_cast<int>(m);
  REQUIRE(loss >= 0);
  REQUIRE(info.metrics[static_cast<size_t>(loss)].log_scale);
  REQUIRE(f.history.back()[static_cast<size_t>(loss)] < 0);
  CHECK_FALSE(metric_uses_log_axis(info.metrics[static_cast<size_t>(loss)], f.history, loss));
  // A positive loss keeps its log axis.
  Fixture q({"function=quadratic", "kappa=5", "optimizer=gd", "lr=0.05"}, 30);
  CHECK(metric_uses_log_axis(info.metrics[static_cast<size_t>(loss)], q.history, loss));

  // Drawn as a linear plot would be (plus the caption's note), not as an empty log plot.
  ImGuiHeadless ui;
  auto draw = [&](const MetricInfo& m, const char* id) {
    FrameStats s;
    for (int i = 0; i < 3; ++i)
      s = ui.frame_in_window([&] { draw_metric_plot(id, m, f.history, loss, 30, 400, 240, nullptr, 0); });
    return s;
  };
  MetricInfo linear = info.metrics[static_cast<size_t>(loss)];
  linear.log_scale = false;
  const FrameStats as_linear = draw(linear, "##loss_linear");
  const FrameStats drawn = draw(info.metrics[static_cast<size_t>(loss)], "##loss_log");
  MESSAGE("vertices: linear " << as_linear.vertices << ", log metric " << drawn.vertices);
  CHECK(drawn.vertices >= as_linear.vertices);
}
