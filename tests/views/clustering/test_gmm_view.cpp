// The Gaussian-mixture view, drawn with real ImGui frames (no renderer) over
// snapshots of a real EM run (make_module("gmm")), plus its ImGui-free
// density / contour maths.
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/core/registry.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/clustering/gmm.h"
#include "algorithms/clustering/gmm_select.h"
#include "views/clustering/gmm_view.h"
#include "views/clustering/gmm_view_density.h"
#include "views/common/jobs.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>

using namespace cilab;

namespace {

// A GMM on `spec` (or `d`) with the assignments `sets` (seed 3); the app's background jobs for
// the model-selection sweep (declared last: destroyed first, joining what the views started).
struct Fixture : test_support::ViewFixture<Gmm> {
  BackgroundJobs own_jobs;

  Fixture(std::shared_ptr<const Dataset> d, const std::vector<std::string>& sets) : ViewFixture(std::move(d), sets, 3) {
    jobs = &own_jobs;
  }
  Fixture(const std::string& spec, const std::vector<std::string>& sets) : Fixture(make_dataset(spec), sets) {}
  const GmmSnapshot& snap() const { return *mod.gmm_snapshot(); }
};

bool inside_display(const ImVec2& p) { return std::isfinite(p.x) && p.x > 0 && p.x < 1280 && p.y > 0 && p.y < 800; }

// 40 points of a unit blob and one far outlier (a mean placed on it collapses with reg = 0).
std::shared_ptr<const Dataset> blob_with_outlier() {
  auto d = std::make_shared<Dataset>();
  Rng rng(11);
  d->x.resize(41, 2);
  for (int i = 0; i < 40; ++i) d->x.row(i) << rng.normal(), rng.normal();
  d->x.row(40) << 30.0, 25.0;
  d->column_names = {"a", "b"};
  d->name = "blob+outlier";
  return d;
}

// Press and release the left button at p over a few frames.
template <class Frame>
void click(ImGuiHeadless& ui, ImVec2 p, Frame&& frame) {
  ui.mouse_move(p.x, p.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
}

}  // namespace

TEST_CASE("gmm view: faithful after EM steps draws points, 1 and 2 sigma ellipses, contours and means") {
  Fixture f("faithful", {"k=2"});
  f.run(3);
  ImGuiHeadless ui;
  GmmView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  CHECK(s.vertices > f.data->rows() * 4);  // one quad per point at least
  CHECK(intents.empty());
  CHECK(view.ellipses_drawn() == 2 * 2);  // 1 sigma and 2 sigma per component
  CHECK(view.contour_segments_drawn() > 50);
  REQUIRE(view.mean_pixels().size() == 2);
  for (const ImVec2& p : view.mean_pixels()) CHECK(inside_display(p));
  CHECK_FALSE(view.kmeans_plot_drawn());
  // Without ellipses and density, fewer vertices.
  view.show_ellipses = false;
  view.density = GmmView::Density::Off;
  const FrameStats bare = ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  CHECK(view.ellipses_drawn() == 0);
  CHECK(view.contour_segments_drawn() == 0);
  CHECK(bare.vertices < s.vertices);
  // Controls panel: the density and ellipse options are on screen.
  const std::string text = frame_text(ui, [&] { view.draw_controls(f.snap(), f.context()); });
  CAPTURE(text);
  CHECK(text.find("1 and 2 sigma ellipses") != std::string::npos);
  CHECK(text.find("heatmap") != std::string::npos);
}

TEST_CASE("gmm view: colours follow the snapshot even when the responsibility buffer is reused at the same address") {
  // Issue 9 D14: colours were cached by the responsibility matrix's address, which EM recycles.
  Fixture f("faithful", {"k=2"});
  f.run(2);
  const int n = f.data->rows();
  auto q = std::make_shared<Eigen::MatrixXd>(Eigen::MatrixXd::Zero(n, 2));
  q->col(0).setOnes();
  auto first = std::make_shared<GmmSnapshot>(f.snap());
  first->resp = q;
  ImGuiHeadless ui;
  GmmView view;
  view.density = GmmView::Density::Off;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(*first, f.context(), intents); });
  const ImU32 c0 = view.point_colours()[7];
  CHECK((c0 & 0x00FFFFFFu) == (plot::GetColormapColor(0) & 0x00FFFFFFu));
  q->col(0).setZero();  // the next E-step wrote into the same buffer
  q->col(1).setOnes();
  auto second = std::make_shared<GmmSnapshot>(f.snap());
  second->resp = q;
  REQUIRE(second->resp.get() == first->resp.get());
  ui.frame_in_window([&] { view.draw(*second, f.context(), intents); });
  CHECK((view.point_colours()[7] & 0x00FFFFFFu) == (plot::GetColormapColor(1) & 0x00FFFFFFu));
}

TEST_CASE("gmm view: switching to data with fewer columns clamps the chosen feature - the combo shows it") {
  Fixture f6("blobs:n=150,centers=3,dim=6,seed=2", {"k=3"});
  Fixture f3("blobs:n=150,centers=3,dim=3,seed=2", {"k=3"});
  ImGuiHeadless ui;
  GmmView view;
  view.projection.mode = ScatterMode::Features;
  view.projection.feature_x = 5;
  frame_text(ui, [&] { view.draw_controls(f6.snap(), f6.context()); });
  const std::string text = frame_text(ui, [&] { view.draw_controls(f3.snap(), f3.context()); });
  CAPTURE(text);
  CHECK(view.projection.feature_x == 2);
  CHECK(text.find(f3.data->column_names[2]) != std::string::npos);
}

TEST_CASE("gmm view: the legend names the components and the classes - the density heatmap has a colour bar") {
  // Issue 9 B9.
  Fixture f("iris", {"k=3"});
  f.run(2);
  ImGuiHeadless ui;
  GmmView view;
  std::vector<ViewIntent> intents;
  ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  std::string text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), intents); });
  CAPTURE(text);
  for (int j = 0; j < 3; ++j) CHECK(text.find("component " + std::to_string(j)) != std::string::npos);
  CHECK(text.find("density:") == std::string::npos);
  view.density = GmmView::Density::Heatmap;
  view.colour_by = GmmView::ColourBy::TrueLabel;
  ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  text = frame_text(ui, [&] { view.draw(f.snap(), f.context(), intents); });
  CAPTURE(text);
  CHECK(text.find("density: sqrt(p(x) / max p)") != std::string::npos);
  for (const std::string& name : f.data->class_names) CHECK(text.find(name) != std::string::npos);
  for (size_t i = 0; i < view.point_colours().size(); ++i)
    CHECK((view.point_colours()[i] & 0x00FFFFFFu) ==
          (plot::GetColormapColor(f.data->labels[i], plot::Colormap::Labels) & 0x00FFFFFFu));
}

TEST_CASE("gmm view: the E sub-step recolours the points, the M sub-step moves the ellipses") {
  Fixture f("faithful", {"k=2", "init=random"});
  ImGuiHeadless ui;
  GmmView view;
  std::vector<ViewIntent> intents;
  auto draw = [&] {
    for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  };
  draw();
  const int refresh0 = view.colour_refreshes();
  const std::vector<ImVec2> before = view.mean_pixels();
  draw();  // same snapshot: cached colours
  CHECK(view.colour_refreshes() == refresh0);

  f.mod.sub_step();  // E
  REQUIRE(f.snap().phase == 1);
  REQUIRE(f.snap().resp);
  draw();
  CHECK(view.colour_refreshes() == refresh0 + 1);  // new responsibilities
  const std::vector<ImVec2> after_e = view.mean_pixels();
  for (int j = 0; j < 2; ++j) {
    CHECK(after_e[j].x == doctest::Approx(before[j].x));  // ellipses/means unchanged by E
    CHECK(after_e[j].y == doctest::Approx(before[j].y));
  }

  f.mod.sub_step();  // M
  REQUIRE(f.snap().phase == 0);
  draw();
  CHECK(view.colour_refreshes() == refresh0 + 1);  // M leaves the responsibilities, so the colours, as they are
  const std::vector<ImVec2> after_m = view.mean_pixels();
  double moved = 0;
  for (int j = 0; j < 2; ++j) moved += std::abs(after_m[j].x - after_e[j].x) + std::abs(after_m[j].y - after_e[j].y);
  CHECK(moved > 1.0);  // pixels
  CHECK(intents.empty());
}

TEST_CASE("gmm view: hovering a point shows its responsibilities") {
  Fixture f("faithful", {"k=2"});
  f.run(2);
  ImGuiHeadless ui;
  GmmView view;
  view.density = GmmView::Density::Off;
  std::vector<ViewIntent> intents;
  auto frame = [&] { return ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); }); };
  frame();
  frame();
  ui.mouse_move(5, 5);
  const FrameStats away = frame();
  CHECK(view.hovered_row() == -1);
  // Search around a mean for a pixel with a point under it.
  const ImVec2 c = view.mean_pixels()[0];
  FrameStats over;
  for (int dx = 6; dx < 80 && view.hovered_row() < 0; dx += 6) {
    ui.mouse_move(c.x + dx, c.y + dx / 2.0f);
    frame();
    over = frame();
  }
  REQUIRE(view.hovered_row() >= 0);
  CHECK(view.hovered_row() < f.data->rows());
  CHECK(over.lists > away.lists);  // the tooltip is a window of its own
  CHECK(intents.empty());
}

TEST_CASE("gmm view: dragging a mean emits move_mean with all d coordinates (2-D and projected 4-D)") {
  for (const char* spec : {"faithful", "iris"}) {
    CAPTURE(spec);
    Fixture f(spec, {"k=3"});
    f.run(2);
    const int d = f.data->cols();
    ImGuiHeadless ui;
    GmmView view;
    view.density = GmmView::Density::Off;
    std::vector<ViewIntent> intents;
    auto frame = [&] { ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); }); };
    frame();
    frame();
    const ImVec2 c = view.mean_pixels()[1];
    REQUIRE(inside_display(c));
    ui.mouse_move(c.x, c.y);
    frame();
    ui.mouse_button(0, true);
    frame();
    ui.mouse_move(c.x + 30, c.y - 20);
    frame();
    ui.mouse_move(c.x + 60, c.y - 40);
    frame();
    ui.mouse_button(0, false);
    frame();
    REQUIRE_FALSE(intents.empty());
    const ViewIntent& last = intents.back();
    CHECK(last.kind == ViewIntent::Kind::Module);
    CHECK(last.intent.kind == "move_mean");
    CHECK(last.intent.index == 1);
    REQUIRE(static_cast<int>(last.intent.values.size()) == d);
    const Eigen::VectorXd old_mean = f.snap().means.row(1).transpose();
    const Eigen::Map<const Eigen::VectorXd> moved(last.intent.values.data(), d);
    CHECK((moved - old_mean).norm() > 0);
    CHECK(f.mod.apply(last.intent));  // the module accepts it
    CHECK((f.snap().means.row(1).transpose() - moved).norm() < 1e-9);
  }
}

TEST_CASE("gmm view: key K and the button toggle compare_kmeans - the k-means plot is drawn beside") {
  Fixture f("faithful", {"k=2"});
  f.run(1);
  ImGuiHeadless ui;
  GmmView view;
  std::vector<ViewIntent> intents;
  // The app hands the view the key presses of the frame (ViewContext::keys).
  auto frame = [&](Fixture& fx, std::vector<int> keys = {}) {
    ViewContext ctx = fx.context();
    ctx.keys = &keys;
    ui.frame_in_window([&] { view.draw(fx.snap(), ctx, intents); });
  };
  frame(f);
  frame(f);
  REQUIRE(intents.empty());
  frame(f, {'K'});
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].kind == ViewIntent::Kind::SetParam);
  CHECK(intents[0].param == "compare_kmeans");
  CHECK(intents[0].value == 1.0);
  intents.clear();
  frame(f, {'K', 'K'});  // two presses within one frame: on and off again
  CHECK(intents.empty());
  frame(f, {'J'});  // not the view's key
  CHECK(intents.empty());

  Fixture g("faithful", {"k=2", "compare_kmeans=true"});
  g.run(2);
  REQUIRE(g.snap().kmeans);
  frame(g);
  frame(g);
  CHECK(view.kmeans_plot_drawn());
  CHECK(intents.empty());
  frame(g, {'K'});
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].param == "compare_kmeans");
  CHECK(intents[0].value == 0.0);
}

TEST_CASE("gmm view: a collapsed run (reg = 0) explains itself - the button rewinds and sets reg") {
  Fixture f(blob_with_outlier(), {"k=2", "init=manual", "reg=0", "tol=0"});
  Intent a;
  a.kind = "place_mean";
  a.index = 0;
  a.values = {0.0, 0.0};
  REQUIRE(f.mod.apply(a));
  a.index = 1;
  a.values = {30.0, 25.0};  // on the outlier
  REQUIRE(f.mod.apply(a));
  f.record();
  for (int i = 0; i < 50 && f.snap().status != Status::Diverged; ++i) f.run(1);
  REQUIRE(f.snap().status == Status::Diverged);
  const int diverged_at = f.snap().iteration;

  ImGuiHeadless ui;
  GmmView view;
  std::vector<ViewIntent> intents;
  auto frame = [&] { return ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); }); };
  frame();
  frame();
  REQUIRE(std::isfinite(view.rewind_button().x));
  const int target = view.rewind_target();
  CHECK(target >= 0);
  CHECK(target < diverged_at);
  if (target > 0) {  // a good iteration: finite log-likelihood, no collapsing covariance
    const auto& good = static_cast<const GmmSnapshot&>(*f.stored[target]);
    CHECK(good.status != Status::Diverged);
    CHECK(std::isfinite(good.metrics[Gmm::kMetricLogLikelihood]));
  }
  click(ui, view.rewind_button(), frame);
  REQUIRE(intents.size() == 2);
  CHECK(intents[0].kind == ViewIntent::Kind::Seek);
  CHECK(intents[0].iteration == target);
  CHECK(intents[1].kind == ViewIntent::Kind::SetParam);
  CHECK(intents[1].param == "reg");
  CHECK(intents[1].value == doctest::Approx(1e-6));

  // Following the intents by hand (what the app does): rewind = replay to the
  // target, then reg = 1e-6 live; EM then runs without collapsing.
  Fixture r(blob_with_outlier(), {"k=2", "init=manual", "reg=0", "tol=0"});
  a.index = 0;
  a.values = {0.0, 0.0};
  REQUIRE(r.mod.apply(a));
  a.index = 1;
  a.values = {30.0, 25.0};
  REQUIRE(r.mod.apply(a));
  r.run(target);
  r.mod.set_live("reg", intents[1].value);
  r.run(10);
  CHECK(r.snap().status != Status::Diverged);

  // A healthy run shows no rewind button.
  Fixture h("faithful", {"k=2"});
  h.run(2);
  ui.frame_in_window([&] { view.draw(h.snap(), h.context(), intents); });
  CHECK(std::isnan(view.rewind_button().x));
}

TEST_CASE("gmm view: the model-selection sweep runs on a worker thread - clicking a K shows its fitted model") {
  Fixture f("faithful", {"k=2"});
  f.run(1);
  ImGuiHeadless ui;
  GmmView view;
  view.show_model_selection = true;
  view.sweep_kmax = 5;
  std::vector<ViewIntent> intents;
  auto frame = [&] { return ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); }); };
  const auto t0 = std::chrono::steady_clock::now();
  frame();  // starts the sweep, does not wait for it
  const double first_frame_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(first_frame_s < 2.0);
  view.join_sweep();
  const std::vector<GmmSweepRow> rows = view.sweep_rows();
  REQUIRE(rows.size() == 5);
  for (int i = 0; i < 5; ++i) CHECK(rows[i].k == i + 1);
  frame();
  frame();
  const ImVec2 p3 = view.sweep_pixel(3);
  REQUIRE(inside_display(p3));
  CHECK(std::isnan(view.sweep_pixel(6).x));
  CHECK(intents.empty());
  click(ui, p3, frame);
  // k = 3 (a restart), then to the iteration where the sweep's fit of K = 3 stopped - not iteration 0.
  REQUIRE(intents.size() == 2);
  CHECK(intents[0].kind == ViewIntent::Kind::SetParam);
  CHECK(intents[0].param == "k");
  CHECK(intents[0].value == 3.0);
  CHECK(intents[1].kind == ViewIntent::Kind::Seek);
  CHECK(intents[1].iteration == rows[2].n_iter);
  CHECK(rows[2].n_iter > 0);
  // A run with k = 3, the same parameters and seed stops at that iteration, as the sweep's fit did
  // (the same EM from the same start: its fitted model).
  Fixture k3("faithful", {"k=3"});
  k3.run(rows[2].n_iter - 1);
  CHECK(k3.snap().status == Status::Running);
  k3.run(1);
  CHECK(k3.snap().iteration == rows[2].n_iter);
  CHECK(k3.snap().status == (rows[2].converged ? Status::Converged : Status::Stopped));
  // A reset keeps finished results.
  view.on_reset();
  CHECK(view.sweep_rows().size() == 5);
}

TEST_CASE("gmm view: on_reset and the destructor cancel a running sweep without blocking - the app's jobs join it") {
  auto data = make_dataset("blobs:n=20000,centers=6,seed=2");
  Fixture f(data, {"k=2"});
  auto view = std::make_unique<GmmView>();
  view->sweep_kmax = 20;
  view->start_sweep(f.own_jobs, *data, f.values, 1, 1);
  CHECK(view->sweep_running());
  REQUIRE(f.own_jobs.statuses().size() == 1);
  CHECK_FALSE(f.own_jobs.statuses()[0].cancel_requested);
  const auto t0 = std::chrono::steady_clock::now();
  view->on_reset();
  const double reset_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK_FALSE(view->sweep_running());
  CHECK(view->sweep_rows().empty());
  CHECK(reset_s < 0.5);
  CHECK(f.own_jobs.statuses()[0].cancel_requested);  // the job stops after its current K

  // A module switch destroys the view: its running sweep is cancelled, nobody waits for it.
  view->start_sweep(f.own_jobs, *data, f.values, 1, 1);
  CHECK(view->sweep_running());
  const auto t1 = std::chrono::steady_clock::now();
  view.reset();
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count() < 0.5);
  for (const JobStatus& s : f.own_jobs.statuses()) CHECK(s.cancel_requested);
  // ~Fixture: ~BackgroundJobs joins both threads.
}

TEST_CASE("gmm view: without background jobs the sweep panel refuses politely") {
  Fixture f("faithful", {"k=2"});
  f.run(1);
  ImGuiHeadless ui;
  GmmView view;
  view.show_model_selection = true;
  std::vector<ViewIntent> intents;
  ViewContext ctx = f.context();
  ctx.jobs = nullptr;
  const std::string text = frame_text(ui, [&] { view.draw(f.snap(), ctx, intents); });
  CHECK(text.find("no background jobs are available") != std::string::npos);
  CHECK_FALSE(view.sweep_running());
  CHECK(view.sweep_rows().empty());
  CHECK(f.own_jobs.statuses().empty());
}

TEST_CASE("gmm view: heatmap density goes through the texture provider - large n colours are cached") {
  Fixture f("blobs:n=60000,centers=5,seed=4", {"k=5"});
  f.run(1);
  ImGuiHeadless ui;
  plot::NullTextureProvider tex;
  plot::SetTextureProvider(&tex);
  GmmView view;
  view.density = GmmView::Density::Heatmap;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  CHECK(view.colour_refreshes() == 1);  // the colours (and the splat image) change once
  CHECK(tex.live.count(0x676d6d64656e7331ull) == 1);  // the density texture
  const int updates = tex.update_count;
  ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); });
  CHECK(tex.update_count == updates);  // unchanged grid: no re-upload
  plot::SetTextureProvider(nullptr);
}

TEST_CASE("gmm view: manual init - a click places the next mean") {
  Fixture f("faithful", {"k=2", "init=manual"});
  REQUIRE(f.snap().placed.size() == 2);
  ImGuiHeadless ui;
  GmmView view;
  view.density = GmmView::Density::Off;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(f.snap(), f.context(), intents); }); };
  frame();
  frame();
  click(ui, ImVec2(400, 450), frame);
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].intent.kind == "place_mean");
  REQUIRE(intents[0].intent.values.size() == 2);
  CHECK(f.mod.apply(intents[0].intent));
}

TEST_CASE("gmm density: log density of one component matches the closed form - mixtures add up") {
  const Gauss2 g{1.0, 1.0, -2.0, 2.0, 0.5, 1.0};
  const double det = 2.0 * 1.0 - 0.25;
  const double dx = 0.3, dy = 0.7;
  const double maha = (1.0 * dx * dx - 2 * 0.5 * dx * dy + 2.0 * dy * dy) / det;
  const double expect = -std::log(2 * M_PI) - 0.5 * std::log(det) - 0.5 * maha;
  CHECK(mixture_log_density({g}, 1.3, -1.3) == doctest::Approx(expect).epsilon(1e-12));
  // Two halves of the same component give the same density.
  Gauss2 h = g;
  h.weight = 0.5;
  CHECK(mixture_log_density({h, h}, 1.3, -1.3) == doctest::Approx(expect).epsilon(1e-12));
  // Far in the tail: still finite (log-sum-exp), degenerate components ignored.
  Gauss2 bad = g;
  bad.a = 0;
  CHECK(std::isfinite(mixture_log_density({g, bad}, 500, 500)));
  CHECK(std::isinf(mixture_log_density({bad}, 0, 0)));
  // Grid layout: row 0 at the top.
  const std::vector<double> grid = mixture_log_density_grid({g}, 4, 3, 0.0, 3.0, -4.0, 0.0);
  REQUIRE(grid.size() == 12);
  CHECK(grid[0] == doctest::Approx(mixture_log_density({g}, 0.5, -0.5)));
  CHECK(grid[11] == doctest::Approx(mixture_log_density({g}, 2.5, -3.5)));
}

TEST_CASE("gmm density: the contours of a cell-centre grid (row 0 at the top) go through the plot library and lie on the circle") {
  const int n = 64;
  std::vector<double> grid(n * n);
  const double x0 = -2, x1 = 2, y0 = -2, y1 = 2;
  // Off-centre, so that a flipped row order or a half-cell shift would show.
  const double cx = 0.3, cy = 0.5;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = x0 + (c + 0.5) * (x1 - x0) / n, y = y1 - (r + 0.5) * (y1 - y0) / n;
      grid[r * n + c] = -((x - cx) * (x - cx) + (y - cy) * (y - cy));
    }
  plot::ContourSegments segs;
  density_contours(grid, n, n, x0, x1, y0, y1, {-1.0, -0.25}, segs);
  REQUIRE(segs.size() > 50);
  double length[2] = {0, 0};
  for (size_t i = 0; i < segs.size(); ++i) {
    const double* s = &segs.xy[4 * i];
    const double radius = segs.level[i] == 0 ? 1.0 : 0.5;
    CHECK(std::hypot(s[0] - cx, s[1] - cy) == doctest::Approx(radius).epsilon(0.01));
    CHECK(std::hypot(s[2] - cx, s[3] - cy) == doctest::Approx(radius).epsilon(0.01));
    length[segs.level[i]] += std::hypot(s[2] - s[0], s[3] - s[1]);
  }
  CHECK(length[0] == doctest::Approx(2 * M_PI).epsilon(0.01));
  CHECK(length[1] == doctest::Approx(M_PI).epsilon(0.01));
  // A level outside the range gives nothing; -inf corners (degenerate mixtures) are skipped.
  segs.clear();
  density_contours(grid, n, n, x0, x1, y0, y1, {5.0}, segs);
  CHECK(segs.size() == 0);
  std::vector<double> holed = grid;
  for (int c = 0; c < n; ++c) holed[(n / 2) * n + c] = -INFINITY;
  density_contours(holed, n, n, x0, x1, y0, y1, {-1.0}, segs);
  REQUIRE(segs.size() > 0);
  for (double v : segs.xy) CHECK(std::isfinite(v));
}
