// The k-means view and the metrics strip, drawn with real ImGui frames
// (no renderer) over snapshots of a real k-means run.
#include "tests/support/imgui_headless.h"
#include "tests/support/view_fixture.h"
#include "tests/support/screen_text.h"
#include "algorithms/data/datasets.h"
#include "algorithms/clustering/kmeans.h"
#include "views/clustering/kmeans_view.h"
#include "views/common/metrics_view.h"

#include <doctest/doctest.h>

#include <cmath>
#include <set>

using namespace cilab;

namespace {

// A k-means run on `spec` with `init` and k clusters (seed 3), `steps` iterations recorded.
struct Fixture : test_support::ViewFixture<KMeans> {
  Fixture(const std::string& spec, const std::string& init, int k, int steps)
      : ViewFixture(make_dataset(spec), {"k=" + std::to_string(k), "init=" + init}, 3) {
    run(steps);
  }
};

}  // namespace

TEST_CASE("kmeans view: draws points, centroids and trails - no intents without input") {
  Fixture f("blobs:n=500,centers=4,seed=2", "kmeans++", 4, 3);
  ImGuiHeadless ui;
  KMeansView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i)
    s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(s.vertices > 500 * 4);  // one quad per point at least
  CHECK(intents.empty());
  REQUIRE(view.centroid_pixels().size() == 4);
  for (const ImVec2& p : view.centroid_pixels()) {
    CHECK(std::isfinite(p.x));
    CHECK(p.x > 0);
    CHECK(p.x < 1280);
    CHECK(p.y > 0);
    CHECK(p.y < 800);
  }
}

TEST_CASE("kmeans view: dragging a centroid emits move_centroid with full coordinates") {
  Fixture f("blobs:n=300,centers=3,seed=4", "first", 3, 2);
  ImGuiHeadless ui;
  KMeansView view;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  frame();
  frame();
  const ImVec2 c = view.centroid_pixels()[1];
  ui.mouse_move(c.x, c.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_move(c.x + 40, c.y);
  frame();
  ui.mouse_move(c.x + 80, c.y);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE_FALSE(intents.empty());
  const ViewIntent& last = intents.back();
  CHECK(last.kind == ViewIntent::Kind::Module);
  CHECK(last.intent.kind == "move_centroid");
  CHECK(last.intent.index == 1);
  REQUIRE(last.intent.values.size() == 2);
  const auto& snap = static_cast<const KMeansSnapshot&>(*f.mod.snapshot());
  CHECK(last.intent.values[0] > snap.centroids(1, 0));             // moved right
  CHECK(last.intent.values[1] == doctest::Approx(snap.centroids(1, 1)).epsilon(0.05));
  // The module accepts it.
  CHECK(f.mod.apply(last.intent));
}

TEST_CASE("kmeans view: shift+click adds a point (2-D data)") {
  Fixture f("blobs:n=200,centers=2,seed=1", "kmeans++", 2, 1);
  ImGuiHeadless ui;
  KMeansView view;
  view.show_voronoi = false;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  frame();
  frame();
  const ImVec2 c0 = view.centroid_pixels()[0], c1 = view.centroid_pixels()[1];
  // Somewhere between the centroids but away from both handles.
  const ImVec2 p((c0.x + c1.x) / 2 + 25, (c0.y + c1.y) / 2 + 25);
  ui.key_mods(false, true);
  ui.mouse_move(p.x, p.y);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].kind == ViewIntent::Kind::AddPoint);
  CHECK(std::isfinite(intents[0].x));
}

TEST_CASE("kmeans view: d > 2 data is projected on principal axes - image data shows centroid images") {
  Fixture f("iris", "kmeans++", 3, 2);
  ImGuiHeadless ui;
  KMeansView view;
  std::vector<ViewIntent> intents;
  FrameStats s;
  for (int i = 0; i < 3; ++i) s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(s.vertices > 150 * 4);
  CHECK(intents.empty());
  // Features mode too.
  view.projection.mode = ScatterMode::Features;
  view.projection.feature_x = 2;
  view.projection.feature_y = 3;
  s = ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CHECK(s.vertices > 150 * 4);
  // Controls panel: the projection choice and the chosen features are on screen.
  const std::string text = frame_text(ui, [&] { view.draw_controls(*f.mod.snapshot(), f.context()); });
  CAPTURE(text);
  CHECK(text.find("principal axes") != std::string::npos);
  CHECK(text.find("x feature") != std::string::npos);
  CHECK(text.find(f.data->column_names[2]) != std::string::npos);
  CHECK(text.find(f.data->column_names[3]) != std::string::npos);
}

TEST_CASE("kmeans view: image rows draw their centroids as images") {
  auto d = std::make_shared<Dataset>();
  d->x = Eigen::MatrixXd::Random(60, 16).cwiseAbs();
  d->image_h = d->image_w = 4;
  for (int j = 0; j < 16; ++j) d->column_names.push_back("px" + std::to_string(j));
  d->name = "tiny-images";
  KMeans km;
  ParamValues v = default_values(km.params());
  v["k"] = 5;
  km.reset(d, v, 1);
  km.step();
  ViewContext ctx;
  ctx.data = d.get();
  ctx.info = &km.info();
  ctx.data_version = 9;
  ImGuiHeadless ui;
  plot::NullTextureProvider tex;
  plot::SetTextureProvider(&tex);
  KMeansView view;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*km.snapshot(), ctx, intents); });
  CHECK(tex.data_updates() >= 5);  // each of the 5 centroid images went through the texture provider
  plot::SetTextureProvider(nullptr);
}

TEST_CASE("kmeans view: k-means++ seeding probabilities are shown at iteration 0") {
  Fixture f("blobs:n=400,centers=5,seed=3", "kmeans++", 5, 0);
  const auto& snap = static_cast<const KMeansSnapshot&>(*f.mod.snapshot());
  REQUIRE(snap.seeding);
  REQUIRE_FALSE(snap.seeding->probs.empty());
  ImGuiHeadless ui;
  KMeansView view;
  std::vector<ViewIntent> intents;
  view.show_seeding = false;
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(snap, f.context(), intents); });
  const std::vector<ImU32> plain = view.point_colours();
  view.show_seeding = true;
  ui.frame_in_window([&] { view.draw(snap, f.context(), intents); });
  const std::string text = frame_text(ui, [&] { view.draw(snap, f.context(), intents); });
  // The points take the D^2 colours (viridis), with a colour bar that says what they mean.
  const std::vector<ImU32> seeded = view.point_colours();
  REQUIRE(seeded.size() == plain.size());
  CHECK(seeded != plain);
  int at_top = 0;
  for (ImU32 c : seeded) at_top += c == plot::SampleColormap(1.0) ? 1 : 0;
  CHECK(at_top >= 1);  // the farthest point of the last round: D_i = max D
  CAPTURE(text);
  CHECK(text.find("D_i / max D") != std::string::npos);
  // A later round recolours; the slider for it is shown.
  view.seeding_round = 1;
  ui.frame_in_window([&] { view.draw(snap, f.context(), intents); });
  CHECK(view.point_colours() != seeded);
  const std::string controls = frame_text(ui, [&] { view.draw_controls(snap, f.context()); });
  CHECK(controls.find("seeding round") != std::string::npos);
}

TEST_CASE("kmeans view: colours follow the snapshot even when the label buffer is reused at the same address") {
  // Issue 9 D14: colours were cached by the label buffer's address, which k-means recycles.
  Fixture f("blobs:n=300,centers=3,seed=5", "kmeans++", 3, 2);
  const auto& base = static_cast<const KMeansSnapshot&>(*f.mod.snapshot());
  auto buffer = std::make_shared<std::vector<int>>(300, 0);
  auto first = std::make_shared<KMeansSnapshot>(base);
  first->labels = buffer;
  ImGuiHeadless ui;
  KMeansView view;
  view.show_voronoi = false;
  std::vector<ViewIntent> intents;
  for (int i = 0; i < 2; ++i) ui.frame_in_window([&] { view.draw(*first, f.context(), intents); });
  const ImU32 c0 = view.point_colours()[10];
  // The next iteration: the same buffer (same address) now holds other labels.
  std::fill(buffer->begin(), buffer->end(), 2);
  auto second = std::make_shared<KMeansSnapshot>(base);
  second->labels = buffer;
  REQUIRE(second->labels.get() == first->labels.get());
  ui.frame_in_window([&] { view.draw(*second, f.context(), intents); });
  const ImU32 c2 = view.point_colours()[10];
  CHECK(c2 != c0);
  CHECK((c2 & 0x00FFFFFFu) == (plot::GetColormapColor(2) & 0x00FFFFFFu));
}

TEST_CASE("kmeans view: switching to data with fewer columns clamps the chosen feature - the combo shows it") {
  // Issue 9 D15: the feature combo read column_names[5] of a 3-column dataset.
  Fixture f6("blobs:n=120,centers=3,dim=6,seed=2", "kmeans++", 3, 1);
  Fixture f3("blobs:n=120,centers=3,dim=3,seed=2", "kmeans++", 3, 1);
  REQUIRE(f6.data->cols() == 6);
  REQUIRE(f3.data->cols() == 3);
  ImGuiHeadless ui;
  KMeansView view;
  view.projection.mode = ScatterMode::Features;
  view.projection.feature_x = 5;
  view.projection.feature_y = 4;
  std::string text = frame_text(ui, [&] { view.draw_controls(*f6.mod.snapshot(), f6.context()); });
  CHECK(text.find(f6.data->column_names[5]) != std::string::npos);
  text = frame_text(ui, [&] { view.draw_controls(*f3.mod.snapshot(), f3.context()); });
  CAPTURE(text);
  CHECK(view.projection.feature_x == 2);
  CHECK(view.projection.feature_y == 2);
  CHECK(text.find(f3.data->column_names[2]) != std::string::npos);
}

TEST_CASE("kmeans view: the legend names the clusters, true labels get their own palette, markers and names") {
  // Issue 9 B9: "by true label" reused the cluster colours with no key; the legend said "points".
  Fixture f("iris", "kmeans++", 3, 3);
  ImGuiHeadless ui;
  KMeansView view;
  std::vector<ViewIntent> intents;
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  std::string text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CAPTURE(text);
  for (int j = 0; j < 3; ++j) CHECK(text.find("cluster " + std::to_string(j)) != std::string::npos);
  const std::vector<ImU32> by_cluster = view.point_colours();
  view.colour_by = KMeansView::ColourBy::TrueLabel;
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  text = frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), intents); });
  CAPTURE(text);
  REQUIRE(f.data->class_names.size() == 3);
  for (const std::string& name : f.data->class_names) CHECK(text.find(name) != std::string::npos);
  std::set<ImU32> cluster_rgb;
  for (int j = 0; j < plot::GetColormapSize(); ++j) cluster_rgb.insert(plot::GetColormapColor(j) & 0x00FFFFFFu);
  const std::vector<ImU32>& by_label = view.point_colours();
  REQUIRE(by_label.size() == by_cluster.size());
  for (size_t i = 0; i < by_label.size(); ++i) {
    CHECK(cluster_rgb.count(by_label[i] & 0x00FFFFFFu) == 0);
    CHECK((by_label[i] & 0x00FFFFFFu) ==
          (plot::GetColormapColor(f.data->labels[i], plot::Colormap::Labels) & 0x00FFFFFFu));
  }
}

TEST_CASE("metrics view: one plot per metric plus step time") {
  Fixture f("blobs:n=300,centers=3,seed=5", "random", 3, 6);
  ImGuiHeadless ui;
  std::vector<double> ms(f.history.size(), 0.5);
  FrameStats empty = ui.frame_in_window([] {});
  FrameStats s;
  for (int i = 0; i < 2; ++i)
    s = ui.frame_in_window([&] { draw_metric_plots(f.mod.info(), f.history, ms, 3); });
  CHECK(s.vertices > empty.vertices + 200);
}

TEST_CASE("kmeans view: manual init places centroids where the user clicks") {
  Fixture f("blobs:n=200,centers=3,seed=6", "manual", 3, 0);
  const auto& snap0 = static_cast<const KMeansSnapshot&>(*f.mod.snapshot());
  REQUIRE(snap0.placed.size() == 3);
  ImGuiHeadless ui;
  KMeansView view;
  view.show_voronoi = false;
  std::vector<ViewIntent> intents;
  auto frame = [&] { ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  frame();
  frame();
  // Click somewhere in the plot area (the window centre-left is inside the scatter).
  ui.mouse_move(400, 400);
  frame();
  ui.mouse_button(0, true);
  frame();
  ui.mouse_button(0, false);
  frame();
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].intent.kind == "place_centroid");
  REQUIRE(intents[0].intent.values.size() == 2);
  CHECK(f.mod.apply(intents[0].intent));
  const auto& snap1 = static_cast<const KMeansSnapshot&>(*f.mod.snapshot());
  int placed = 0;
  for (char p : snap1.placed) placed += p ? 1 : 0;
  CHECK(placed == 1);
}

TEST_CASE("kmeans view: hovering a point shows its readout tooltip") {
  Fixture f("blobs:n=300,centers=3,seed=8", "kmeans++", 3, 2);
  ImGuiHeadless ui;
  KMeansView view;
  view.show_voronoi = false;
  std::vector<ViewIntent> intents;
  auto frame = [&] { return ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), intents); }); };
  frame();
  frame();
  ui.mouse_move(5, 5);  // outside the plot
  const FrameStats away = frame();
  // A centroid sits among its points: hover just beside it.
  const ImVec2 c = view.centroid_pixels()[0];
  ui.mouse_move(c.x + 12, c.y + 12);
  frame();
  const FrameStats over = frame();
  CHECK(over.lists > away.lists);  // the tooltip is a window of its own
  CHECK(intents.empty());
}
