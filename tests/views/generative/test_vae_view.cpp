// The vae view, drawn with real ImGui frames (no renderer) over snapshots of
// real runs: every tab by its key (latent 2 and latent > 2 on images, the
// maps on 2-D toy data), pictures through the background-job path (inline
// jobs) and refreshed only for a new network or request, the curves with
// beta's change marked, and the Diverged banner's rewind-and-halve button.
#include "tests/support/view_fixture.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "algorithms/data/datasets.h"
#include "algorithms/generative/vae.h"
#include "views/common/jobs.h"
#include "views/generative/vae_view.h"

#include <doctest/doctest.h>
#include <imgui_internal.h>

#include <cmath>
#include <memory>
#include <string>

using namespace cilab;

namespace {

// 8x8 images of three classes (a bright band at the top, middle or bottom) in [0, 1].
std::shared_ptr<const Dataset> tiny_images(int n) {
  Dataset d;
  d.x = Eigen::MatrixXd::Zero(n, 64);
  d.labels.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int c = i % 3;
    for (int p = 0; p < 64; ++p)
      d.x(i, p) = (p / 8 / 3 == c ? 0.85 : 0.1) + 0.03 * ((i * 7 + p) % 4);
    d.labels[static_cast<size_t>(i)] = c;
  }
  d.class_names = {"top", "middle", "bottom"};
  d.image_h = d.image_w = 8;
  d.name = "tiny-images";
  return std::make_shared<const Dataset>(d);
}

// A VAE run (seed 1): `steps` steps or until it ends, then settled.
struct Fixture : test_support::ViewFixture<Vae> {
  Fixture(std::shared_ptr<const Dataset> d, std::initializer_list<const char*> sets, int steps)
      : ViewFixture(std::move(d), std::vector<std::string>(sets.begin(), sets.end())) {
    run(steps);
  }
  // A frame with `key` pressed, the app's background jobs `with` (nullptr: none).
  std::string frame(ImGuiHeadless& ui, VaeView& view, int key = 0, BackgroundJobs* with = nullptr) {
    jobs = with;
    return ViewFixture::frame(ui, view, key);
  }
  ViewContext context(BackgroundJobs* with = nullptr) {
    jobs = with;
    return ViewFixture::context();
  }
};

bool has(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("vae view: images, latent 2 - header, curves and every tab by its key") {
  Fixture f(tiny_images(150), {"hidden=16", "batch=32"}, 20);
  ImGuiHeadless ui;
  VaeView view;
  std::string text = f.frame(ui, view);
  CHECK(has(text, "epoch"));
  CHECK(has(text, "64-16-(2x2) | 2-16-64 relu, bernoulli"));
  CHECK(has(text, "loss = rec + beta KL"));
  CHECK(has(text, "per step (batch)"));
  CHECK(has(text, "per epoch"));
  CHECK(view.tab() == VaeView::Tab::Latent);
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  CHECK(has(text, "Posterior means mu(x)"));
  CHECK(has(text, "middle"));  // the class key
  REQUIRE(view.pictures());
  CHECK(view.pictures()->latent == 2);
  CHECK_FALSE(view.pictures()->rows.empty());
  CHECK(view.pictures()->manifold.empty());  // only what the tab needs

  f.frame(ui, view, '2');
  CHECK(view.tab() == VaeView::Tab::Manifold);
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  CHECK(has(text, "Decoded manifold"));
  REQUIRE(view.pictures());
  CHECK(view.pictures()->grid == view.grid);
  CHECK_FALSE(view.pictures()->manifold.empty());

  f.frame(ui, view, '3');
  CHECK(view.tab() == VaeView::Tab::Samples);
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  CHECK(has(text, "Reconstructions"));
  CHECK(has(text, "Prior samples"));
  CHECK(has(text, "Interpolation"));
  REQUIRE(view.pictures());
  const VaePictures& pic = *view.pictures();
  REQUIRE(pic.recon_rows.size() == VaeView::kReconCount);
  for (int c = 0; c < 3; ++c)  // one per class first
    CHECK(f.mod.vae_snapshot()
              ->data->y_test[static_cast<size_t>(pic.recon_rows[static_cast<size_t>(c)])] == c);
  CHECK_FALSE(view.pictures()->interp_mosaic.empty());

  f.frame(ui, view, '4');  // images have three tabs: nothing changes
  CHECK(view.tab() == VaeView::Tab::Samples);
  f.frame(ui, view, '1');
  CHECK(view.tab() == VaeView::Tab::Latent);
}

TEST_CASE(
    "vae view: latent 20 - the principal axes of the means and the grid along two chosen axes, "
    "titled so") {
  Fixture f(tiny_images(150), {"hidden=16", "batch=32", "latent=20"}, 10);
  ImGuiHeadless ui;
  VaeView view;
  std::string text;
  for (int i = 0; i < 3; ++i) text = f.frame(ui, view);
  CHECK(has(text, "Principal axes of the posterior means mu(x), latent = 20"));
  CHECK(has(text, "principal axis 1 of mu"));
  REQUIRE(view.pictures());
  CHECK(view.pictures()->projected);
  f.frame(ui, view, '2');
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  CHECK(has(text, "(the two most active)"));
  REQUIRE(view.pictures());
  const VaePictures& act = *view.pictures();
  REQUIRE(act.auto_axes);
  for (size_t k = 0; k < act.axis_variance.size(); ++k) {  // the two largest variances of mu
    CHECK(act.axis_variance[k] <= act.axis_variance[static_cast<size_t>(act.axis_i)]);
    if (static_cast<int>(k) != act.axis_i)
      CHECK(act.axis_variance[k] <= act.axis_variance[static_cast<size_t>(act.axis_j)]);
  }
  view.active_axes = false;
  view.axis_i = 4;
  view.axis_j = 11;
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  CHECK(has(text, "along latent axes 5 and 12"));
  CHECK(has(text, "the other 18 axes held at 0"));
  REQUIRE(view.pictures());
  CHECK(view.pictures()->axis_i == 4);
  CHECK(view.pictures()->axis_j == 11);
  CHECK(has(text, "grid axis i"));  // its control
}

TEST_CASE("vae view: 2-D toy data - the latent plane and the encoder/decoder maps") {
  Fixture f(make_dataset("moons:n=200"), {"hidden=16", "batch=32"}, 30);
  ImGuiHeadless ui;
  VaeView view;
  std::string text;
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  CHECK(has(text, "gaussian sigma_x = 0.1"));
  CHECK(has(text, "upper moon"));
  f.frame(ui, view, '2');
  CHECK(view.tab() == VaeView::Tab::Maps);
  for (int i = 0; i < 2; ++i) text = f.frame(ui, view);
  CHECK(has(text, "Data plane: the decoder's image of a regular z grid"));
  CHECK(has(text, "Latent plane: the encoder's image of a regular x grid"));
  REQUIRE(view.pictures());
  CHECK_FALSE(view.pictures()->decoder_mesh.empty());
  CHECK_FALSE(view.pictures()->encoder_mesh.empty());
  f.frame(ui, view, '3');  // two tabs only
  CHECK(view.tab() == VaeView::Tab::Maps);
}

TEST_CASE("vae view: pictures come from the job, only for a new network or a new request") {
  Fixture f(make_dataset("moons:n=200"), {"hidden=8", "batch=32"}, 5);
  ImGuiHeadless ui;
  VaeView view;
  BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
  f.frame(ui, view, 0, &jobs);  // submits (runs inline)
  f.frame(ui, view, 0, &jobs);  // collects
  REQUIRE(view.pictures());
  const VaePictures* first = view.pictures();
  CHECK(first->net_iteration == f.mod.vae_snapshot()->net_iteration);
  for (int i = 0; i < 30; ++i) f.frame(ui, view, 0, &jobs);
  CHECK(view.pictures() == first);  // the same network: never recomputed
  f.run(3);                         // a new network copy
  for (int i = 0; i < 30; ++i)
    f.frame(ui, view, 0, &jobs);  // 0.5 s of frames: past the 1 / kPictureHz wait
  REQUIRE(view.pictures());
  CHECK(view.pictures() != first);
  CHECK(view.pictures()->net_iteration == f.mod.vae_snapshot()->net_iteration);
  const VaePictures* second = view.pictures();
  view.max_points = 50;  // a new request: recomputed
  f.frame(ui, view, 0, &jobs);
  f.frame(ui, view, 0, &jobs);
  REQUIRE(view.pictures());
  CHECK(view.pictures() != second);
  CHECK(view.pictures()->rows.size() == 40);  // the test set has 40 rows: all of them
  view.on_reset();
  CHECK(view.pictures() == nullptr);
}

TEST_CASE("vae view: a live beta change is marked on the curves") {
  Fixture f(make_dataset("moons:n=200"), {"hidden=8", "batch=32"}, 10);
  f.mod.set_live("beta", 0.25);
  f.values["beta"] = 0.25;
  f.run(10);
  ImGuiHeadless ui;
  VaeView view;
  f.frame(ui, view);
  const std::string text = f.frame(ui, view);  // the plots fit their data one frame late
  CHECK(has(text, "beta moved"));
  CHECK(has(text, "beta 0.25"));
  CHECK(has(text, "0.25 x"));  // the header's rec + beta KL
}

TEST_CASE("vae view: the Diverged banner's button rewinds and halves lr") {
  Fixture f(make_dataset("moons:n=200"), {"optimizer=sgd", "lr=10"}, 50);
  VaeView view;
  f.check_rewind_button(view, "halve the learning rate", Vae::kMetricBatchLoss, {"lr"});
}

TEST_CASE(
    "vae view: hovering the latent space near a point opens its tooltip (image, mu, sigma, KL)") {
  Fixture f(tiny_images(600), {"hidden=16", "batch=64"}, 20);  // 120 test points
  ImGuiHeadless ui;
  VaeView view;
  for (int i = 0; i < 3; ++i) f.frame(ui, view);
  const plot::PlotRect* rects = nullptr;
  const int n = plot::LastFramePlotRects(&rects);
  plot::PlotRect area;  // a copy: the list is rebuilt every frame
  for (int i = 0; i < n; ++i)
    if (std::string(rects[i].title_id).find("latent space") != std::string::npos) area = rects[i];
  REQUIRE(area.area_max.x > area.area_min.x);
  const plot::PlotRect* latent = &area;
  // Sweep the mouse over the plot area: some position is within 10 px of one of the points.
  int opened = 0, frames = 0;
  constexpr int kSteps = 40;  // about 10 px apart: some position lands within 10 px of a point
  for (int gy = 1; gy < kSteps; ++gy)
    for (int gx = 1; gx < kSteps; ++gx) {
      ui.mouse_move(latent->area_min.x + (latent->area_max.x - latent->area_min.x) * gx / kSteps,
                    latent->area_min.y + (latent->area_max.y - latent->area_min.y) * gy / kSteps);
      f.frame(ui, view);
      ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
      opened += tip && tip->Active;
      ++frames;
    }
  CHECK(opened > 0);
  CHECK(opened < frames);  // not everywhere: only near a point
}
