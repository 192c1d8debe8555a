// The gan view, drawn with real ImGui frames (no renderer) over snapshots of
// real runs: the ring of 8 (plane, curves, tabs by key), an image GAN
// (fashion-mnist, target=data), a wgan_gp critic (raw output, centred on its
// median), a diverged run (rewind and halve both rates); the pictures job's
// result against independent oracles (D and G of the copy at grid points, an
// arrow against central finite differences of the per-sample G loss); the
// Presets menu's intents.
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/data/datasets.h"
#include "algorithms/generative/gan.h"
#include "views/generative/gan_view.h"
#include "views/common/jobs.h"
#include "views/plot/plot.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

using namespace cilab;

namespace {

// A GAN run (seed 1): `steps` steps or until it ends, then settled; its pictures computed
// inline by the app's jobs.
struct Fixture : test_support::ViewFixture<Gan> {
  BackgroundJobs inline_jobs{BackgroundJobs::Mode::Inline};

  Fixture(std::shared_ptr<const Dataset> d, std::initializer_list<const char*> sets, int steps)
      : ViewFixture(std::move(d), std::vector<std::string>(sets.begin(), sets.end())) {
    jobs = &inline_jobs;
    run(steps);
  }
  std::shared_ptr<const GanSnapshot> snap() const { return mod.gan_snapshot(); }
};

bool has(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

double sigmoid(double l) { return 1 / (1 + std::exp(-l)); }

// D's output at one point (a fresh copy: forward passes write buffers).
double d_at(const nn::GanNet<float>& net, double x, double y) {
  nn::Sequential<float> d = net.discriminator;
  nn::Mat<float> in(1, 2);
  in << static_cast<float>(x), static_cast<float>(y);
  return d.forward(in, false)(0, 0);
}

// The pictures' heatmap at a few cells equals D of the copy at the cell centres; the mesh's
// nodes equal G of the grid's z; the fake samples are G of the fixed noise; the first arrow
// equals -d l_G / dx by central differences of the per-sample G loss `g_loss` (written here).
template <class GLoss>
void check_pictures(const GanPictures& pic, const GanSnapshot& s, GLoss g_loss) {
  const nn::GanNet<float>& net = *s.net;
  REQUIRE(pic.res > 1);
  const GanBox& b = s.spec.box;
  for (int r : {0, pic.res / 3, pic.res - 1})
    for (int c : {0, pic.res / 2, pic.res - 1}) {
      const double x = b.x0 + (c + 0.5) / pic.res * (b.x1 - b.x0),
                   y = b.y1 - (r + 0.5) / pic.res * (b.y1 - b.y0);
      const double l = d_at(net, x, y);
      CHECK(pic.heat[static_cast<size_t>(r * pic.res + c)] ==
            doctest::Approx(pic.probability ? sigmoid(l) : l).epsilon(1e-5));
    }
  nn::Sequential<float> g = net.generator;
  const int latent = g.in_features();
  REQUIRE(pic.mesh_n1 > 1);
  for (int node_r : {0, 7, 20})
    for (int node_c : {0, 10, 20}) {
      const int r = pic.mesh_n2 > 1 ? node_r * pic.mesh_sub : 0, c = node_c * pic.mesh_sub;
      nn::Mat<float> z = nn::Mat<float>::Zero(1, latent);
      z(0, 0) = static_cast<float>(-3.0 + 6.0 * node_c / 20);
      if (latent >= 2) z(0, 1) = static_cast<float>(3.0 - 6.0 * node_r / 20);
      const nn::Mat<float> gz = g.forward(z, false);
      const size_t k = static_cast<size_t>(r * pic.mesh_n1 + c);
      CHECK(pic.mesh_x[k] == doctest::Approx(gz(0, 0)).epsilon(1e-5));
      CHECK(pic.mesh_y[k] == doctest::Approx(gz(0, 1)).epsilon(1e-5));
    }
  REQUIRE(!pic.fake_x.empty());
  const nn::Mat<float> z0 = s.eval_noise->topRows(1);
  const nn::Mat<float> g0 = g.forward(z0, false);
  CHECK(pic.fake_x[0] == doctest::Approx(g0(0, 0)).epsilon(1e-5));
  CHECK(pic.fake_y[0] == doctest::Approx(g0(0, 1)).epsilon(1e-5));
  REQUIRE(!pic.arrow_dx.empty());
  const double h = 1e-3, x = pic.fake_x[0], y = pic.fake_y[0];
  const double fd_x = -(g_loss(d_at(net, x + h, y)) - g_loss(d_at(net, x - h, y))) / (2 * h);
  const double fd_y = -(g_loss(d_at(net, x, y + h)) - g_loss(d_at(net, x, y - h))) / (2 * h);
  const double scale = std::max({std::fabs(fd_x), std::fabs(fd_y), 1e-3});
  CHECK(std::fabs(pic.arrow_dx[0] - fd_x) < 0.02 * scale);
  CHECK(std::fabs(pic.arrow_dy[0] - fd_y) < 0.02 * scale);
}

}  // namespace

TEST_CASE(
    "gan view: ring of 8 - plane, diagram, coverage rule, curves, tabs by key, pictures vs "
    "oracles") {
  Fixture f(make_dataset("moons:n=200"),
            {"target=ring8", "loss=nonsaturating", "batch=64", "g_width=16", "d_width=16"}, 30);
  ImGuiHeadless ui;
  GanView view;
  std::string text = f.frame(ui, view);
  CHECK(view.tab() == GanView::Tab::Plane);
  CHECK(has(text, "ring8 target, nonsaturating loss"));
  CHECK(has(text, "modes covered"));
  CHECK(has(
      text,
      "a mode is covered when >= 1 % of 2 000 generated samples lie within 3 sd of its centre"));
  CHECK(has(text, "evaluated every 25 iterations"));
  CHECK(has(text, "next: D step"));
  CHECK(has(text, "G: max E_z log D(G(z))"));
  CHECK(has(text, "slow-mo (key M)"));
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  REQUIRE(view.pictures());
  CHECK(has(text, "D = sigmoid(l), centre 1/2"));
  CHECK(has(text, "real x"));
  CHECK(has(text, "generated G(z)"));
  CHECK(has(text, "z-grid mesh"));
  CHECK(has(text, "Arrows:"));
  CHECK(view.arrow_scale() > 0);
  auto snap = f.snap();
  check_pictures(*view.pictures(), *snap,
                 [](double l) { return std::log1p(std::exp(-l)); });  // -log sigmoid(l)
  CHECK(view.pictures()->mesh_n2 == view.pictures()->mesh_n1);        // latent 2: a 2-D grid

  // A sub-step: the D step done, the G step highlighted.
  f.mod.sub_step();
  text = f.frame(ui, view);
  CHECK(has(text, "next: G step"));

  text = f.frame(ui, view, '2');
  CHECK(view.tab() == GanView::Tab::Curves);
  text = f.frame(ui, view);
  CHECK(has(text, "GAN Lab's measure: histograms on a 40x40 grid"));
  CHECK(has(text, "KL"));
  CHECK(has(text, "nats"));
  CHECK(has(text, "modes covered"));
  CHECK(has(text, "|grad G|"));
  CHECK(has(text, "mean D"));  // D = sigmoid(l), with the dashed 1/2 line
  text = f.frame(ui, view, '3');
  CHECK(view.tab() == GanView::Tab::Optimal);
  text = f.frame(ui, view);
  CHECK(has(text, "V(G, D*) = "));  // the 1-D lesson: V(G, D*) beside 2 JS - log 4
  CHECK(has(text, "2 JS - log 4 = "));
  CHECK(std::abs(view.optimal_tab().report().v_optimal - view.optimal_tab().report().identity) < 1e-9);
  f.frame(ui, view, '1');
  CHECK(view.tab() == GanView::Tab::Plane);
}

TEST_CASE(
    "gan view: latent 3, minimax - the mesh is G of (z1, z2) with the rest 0, said on screen") {
  Fixture f(make_dataset("moons:n=200"),
            {"target=grid25", "loss=minimax", "latent=3", "batch=32", "g_width=8", "d_width=8"}, 5);
  ImGuiHeadless ui;
  GanView view;
  std::string text;
  for (int i = 0; i < 3; ++i) text = f.frame(ui, view);
  REQUIRE(view.pictures());
  CHECK(has(text, "the other 1 coordinates 0"));
  CHECK(has(text, "G: min E_z log(1 - D(G(z)))"));
  // minimax: l_G = log(1 - sigmoid(l)) = -log(1 + e^l)
  check_pictures(*view.pictures(), *f.snap(), [](double l) { return -std::log1p(std::exp(l)); });
}

TEST_CASE("gan view: wgan_gp - the raw critic centred on its median, arrows of -l") {
  Fixture f(make_dataset("moons:n=200"),
            {"target=moons", "loss=wgan_gp", "batch=32", "g_width=16", "d_width=16"}, 10);
  ImGuiHeadless ui;
  GanView view;
  std::string text;
  for (int i = 0; i < 3; ++i) text = f.frame(ui, view);
  REQUIRE(view.pictures());
  const GanPictures& pic = *view.pictures();
  CHECK_FALSE(pic.probability);
  CHECK(has(text, "raw D = l, centre = median"));
  CHECK(has(text, "G: min -E_z D(G(z))"));
  // The median: as many cells above it as below (up to ties).
  int above = 0, below = 0;
  for (double v : pic.heat) {
    above += v > pic.heat_median;
    below += v < pic.heat_median;
  }
  CHECK(std::abs(above - below) <= 1);
  CHECK(pic.heat_min <= pic.heat_median);
  CHECK(pic.heat_median <= pic.heat_max);
  check_pictures(pic, *f.snap(), [](double l) { return -l; });
  f.frame(ui, view, '2');
  text = f.frame(ui, view);
  CHECK(has(text, "W est."));
  CHECK(has(text, "mean l"));  // the raw critic: no 1/2 line
}

TEST_CASE("gan view: image GAN - fixed-noise grid beside real images, curves") {
  Fixture f(make_dataset("fashion-mnist:n=300"),
            {"target=data", "batch=16", "g_width=32", "d_width=32"}, 3);
  ImGuiHeadless ui;
  GanView view;
  std::string text;
  for (int i = 0; i < 3; ++i) text = f.frame(ui, view);
  CHECK(view.tab() == GanView::Tab::Images);
  REQUIRE(view.pictures());
  const GanPictures& pic = *view.pictures();
  CHECK(has(text, "G(64 fixed z), iteration"));
  CHECK(has(text, "Real: 64 training images"));
  CHECK(has(text, "d_loss"));
  // 8 x 8 tiles of 28 x 28 with 1-pixel gaps between them: both mosaics alike, pixels in [-1, 1]
  // (tanh; the pool).
  const Mosaic& m = pic.fake_mosaic;
  CHECK(m.w == 8 * (28 + 1) - 1);
  CHECK(m.h == m.w);
  CHECK(pic.real_mosaic.w == m.w);
  for (const Mosaic* mm : {&pic.fake_mosaic, &pic.real_mosaic})
    for (float v : mm->pixels) {
      CHECK(v >= -1.0f);
      CHECK(v <= 1.0f);
    }
  // The first tile is G of the first noise row.
  nn::Sequential<float> g = f.snap()->net->generator;
  const nn::Mat<float> z0 = f.snap()->eval_noise->topRows(1);
  const nn::Mat<float> g0 = g.forward(z0, false);
  CHECK(m.pixels[0] == doctest::Approx(g0(0, 0)).epsilon(1e-5));
  f.frame(ui, view, '2');
  CHECK(view.tab() == GanView::Tab::Curves);
}

TEST_CASE("gan view: Diverged - the banner rewinds and halves both learning rates") {
  Fixture f(make_dataset("moons:n=200"),
            {"loss=least_squares", "g_optimizer=sgd", "d_optimizer=sgd", "g_lr=10", "d_lr=10",
             "batch=32", "g_width=16", "d_width=16"},
            500);
  GanView view;
  f.check_rewind_button(view, "halve the learning rates", Gan::kMetricDLoss, {"g_lr", "d_lr"});
}


TEST_CASE(
    "gan view: target=data - axes in data units, a click in the edit mode adds a point in data "
    "units") {
  Fixture f(make_dataset("moons:n=200"), {"target=data", "batch=32", "g_width=8", "d_width=8"}, 3);
  auto s = f.snap();
  REQUIRE(s->target == GanTarget::Data);
  REQUIRE(s->scale[0] != 1.0);  // z-scored: data units differ from the network's
  ImGuiHeadless ui;
  GanView view;
  ViewContext ctx = f.context();
  ctx.edit_points = true;
  std::vector<ViewIntent> intents;
  std::string text;
  for (int i = 0; i < 3; ++i)
    text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), ctx, intents); });
  CHECK(has(text, "Shift+click on the plane adds a point"));
  CHECK(has(text, f.data->column_names[0].c_str()));  // the axis names are the dataset's
  const plot::PlotRect* rects = nullptr;
  const int n = plot::LastFramePlotRects(&rects);
  const plot::PlotRect* plane = nullptr;
  for (int i = 0; i < n; ++i)
    if (std::string(rects[i].title_id).rfind("plane##gan", 0) == 0) plane = &rects[i];
  REQUIRE(plane);
  // The plot's centre is the box's centre: the network's origin, i.e. the data's offset (its mean).
  const float cx = (plane->area_min.x + plane->area_max.x) / 2,
              cy = (plane->area_min.y + plane->area_max.y) / 2;
  const double bx = (s->spec.box.x0 + s->spec.box.x1) / 2,
               by = (s->spec.box.y0 + s->spec.box.y1) / 2;
  ui.mouse_move(cx, cy);
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), ctx, intents); });
  ui.mouse_button(0, true);
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), ctx, intents); });
  ui.mouse_button(0, false);
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), ctx, intents); });
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].kind == ViewIntent::Kind::AddPoint);
  const double span_x = (s->spec.box.x1 - s->spec.box.x0) * s->scale[0];
  CHECK(std::fabs(intents[0].x - (bx * s->scale[0] + s->offset[0])) < 0.02 * span_x);
  const double span_y = (s->spec.box.y1 - s->spec.box.y0) * s->scale[1];
  CHECK(std::fabs(intents[0].y - (by * s->scale[1] + s->offset[1])) < 0.02 * span_y);
}
