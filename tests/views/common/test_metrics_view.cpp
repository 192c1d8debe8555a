// The metrics strip (views/common/metrics_view.h) with long histories: drawn decimated
// per pixel column (bounded vertex count), hover reads the exact recorded
// value, NaN gaps stay gaps, and the incremental decimation (version) draws
// what a full recomputation draws.
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "views/common/metrics_view.h"
#include "views/plot/plot_internal.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace cilab;

namespace {

// A noisy decreasing loss: a zigzag between two curves (every point is a
// local extreme, so no column mean equals a recorded value).
double zigzag(size_t i) { return (i % 2 ? 2.0 : 1.0) + 100.0 / (1.0 + static_cast<double>(i)); }

std::vector<std::vector<double>> history(size_t n, size_t nan_from = 0, size_t nan_to = 0) {
  std::vector<std::vector<double>> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = {i >= nan_from && i < nan_to ? NAN : zigzag(i)};
  return h;
}

MetricInfo loss_info(bool log_scale) { return MetricInfo{"loss", "a noisy loss", log_scale}; }

constexpr float kPlotW = 700.0f, kPlotH = 260.0f;

// Draws the plot for a few frames (autofit settles after one) and returns the last frame's totals.
FrameStats draw(ImGuiHeadless& ui, const std::vector<std::vector<double>>& h, bool log_y, uint64_t version,
                MetricHover* hover = nullptr, int frames = 3) {
  FrameStats s;
  for (int k = 0; k < frames; ++k) {
    if (hover) *hover = MetricHover{};
    s = ui.frame_in_window([&] {
      draw_metric_plot("##loss", loss_info(log_y), h, 0, static_cast<int>(h.size()) - 1, kPlotW, kPlotH, hover,
                       version);
    });
  }
  return s;
}

}  // namespace

TEST_CASE("metrics view: a 100 000-point history draws a bounded number of vertices") {
  for (bool log_y : {false, true}) {
    CAPTURE(log_y);
    ImGuiHeadless ui;
    const FrameStats empty = ui.frame_in_window([] {});
    const int v1k = draw(ui, history(1000), log_y, 1).vertices - empty.vertices;    // drawn point by point
    const int v10k = draw(ui, history(10000), log_y, 2).vertices - empty.vertices;  // decimated
    const int v100k = draw(ui, history(100000), log_y, 3).vertices - empty.vertices;
    CHECK(v1k > 1000);  // the zigzag itself: at least one vertex per point
    CHECK(v100k > 0);
    CHECK(v100k < 2 * v1k);         // 100x the points, not 100x the vertices
    CHECK(v100k < 8 * kPlotW * 2);  // a few quads per pixel column at most
    CHECK(v100k < 2 * v10k);        // independent of the length
  }
}

TEST_CASE("metrics view: hover over a decimated curve reports the exact value of the nearest iteration") {
  for (bool log_y : {false, true}) {
    CAPTURE(log_y);
    ImGuiHeadless ui;
    const std::vector<std::vector<double>> h = history(100000);
    draw(ui, h, log_y, 5);
    MetricHover hover;
    draw(ui, h, log_y, 5, &hover, 1);
    CHECK_FALSE(hover.active);  // the mouse is elsewhere
    // The plot is at the window's top-left: its middle is around (kPlotW/2, kPlotH/2).
    ui.mouse_move(kPlotW * 0.5f, kPlotH * 0.5f);
    draw(ui, h, log_y, 5, &hover, 2);
    REQUIRE(hover.active);
    REQUIRE(hover.iteration >= 0);
    REQUIRE(hover.iteration < 100000);
    CHECK(std::abs(hover.iteration - 50000) < 10000);  // about the middle of the x range
    CHECK(hover.value == h[static_cast<size_t>(hover.iteration)][0]);  // the recorded value, not a column mean
    CHECK(hover.value == zigzag(static_cast<size_t>(hover.iteration)));
    // One pixel to the right is a different iteration of the same column or the next: still exact.
    ui.mouse_move(kPlotW * 0.5f + 1.0f, kPlotH * 0.5f);
    draw(ui, h, log_y, 5, &hover, 1);
    REQUIRE(hover.active);
    CHECK(hover.value == zigzag(static_cast<size_t>(hover.iteration)));
  }
}

TEST_CASE("metrics view: NaN gaps stay gaps when decimated and hover there reports NaN") {
  ImGuiHeadless ui;
  const std::vector<std::vector<double>> gap = history(100000, 30000, 70000);
  const std::vector<std::vector<double>> full = history(100000);
  const FrameStats empty = ui.frame_in_window([] {});
  const int v_gap = draw(ui, gap, false, 11).vertices - empty.vertices;
  const int v_full = draw(ui, full, false, 12).vertices - empty.vertices;
  CHECK(v_gap > 0);
  CHECK(v_gap < v_full);  // 40% of the columns have nothing to draw
  MetricHover hover;
  ui.mouse_move(kPlotW * 0.5f, kPlotH * 0.5f);
  draw(ui, gap, false, 11, &hover, 2);
  REQUIRE(hover.active);
  CHECK(hover.iteration > 30000);
  CHECK(hover.iteration < 70000);
  CHECK(std::isnan(hover.value));
}

TEST_CASE("metrics view: incremental decimation of a growing history draws what a full recomputation draws") {
  std::vector<std::vector<double>> h = history(60000);
  ImGuiHeadless ui;
  draw(ui, h, true, 21);
  // Grow under the same version (append only), as the app's mirror does while playing.
  for (size_t i = 60000; i < 90000; ++i) h.push_back({zigzag(i)});
  const FrameStats grown = draw(ui, h, true, 21);
  // Same data, a new version: recomputed from scratch; version 0: recomputed every frame.
  const FrameStats fresh = draw(ui, h, true, 22);
  const FrameStats unversioned = draw(ui, h, true, 0);
  CHECK(grown.vertices == fresh.vertices);
  CHECK(unversioned.vertices == fresh.vertices);
  // Shrinking under the same version breaks the promise but must not crash or draw stale points.
  h.resize(40000);
  const FrameStats shrunk = draw(ui, h, true, 22);
  const FrameStats shrunk_fresh = draw(ui, h, true, 23);
  CHECK(shrunk.vertices == shrunk_fresh.vertices);
}

TEST_CASE("metrics view: the decimation caches live in the plot context and go when their plots go") {
  // Issue 9 D17: the caches were a function-static map that only grew.
  ImGuiHeadless ui;
  const std::vector<std::vector<double>> h = history(20000);
  const int before = plot::GetCacheCount();
  auto frame = [&](int plots) {
    ui.frame_in_window([&] {
      for (int p = 0; p < plots; ++p) {
        const std::string id = "##curve" + std::to_string(p);
        draw_metric_plot(id.c_str(), loss_info(false), h, 0, 19999, kPlotW, 120.0f, nullptr, 1);
      }
    });
  };
  frame(4);
  frame(4);
  CHECK(plot::GetCacheCount() == before + 4);  // one decimation cache per decimated plot
  for (int i = 0; i < plot::kCacheKeepFrames + 5; ++i) frame(1);
  CHECK(plot::GetCacheCount() == before + 1);
}

TEST_CASE("metrics view: a new run's curve is shown in full, not in the previous run's axes") {
  // Issue 9 B6 (metric plots): the axes follow the data of the run shown.
  ImGuiHeadless ui;
  std::vector<std::vector<double>> big(50), small(8);
  for (size_t i = 0; i < big.size(); ++i) big[i] = {1000.0 + 10.0 * static_cast<double>(i)};
  for (size_t i = 0; i < small.size(); ++i) small[i] = {0.5 + 0.01 * static_cast<double>(i)};
  auto limits = [&](const std::vector<std::vector<double>>& h, uint64_t version) {
    plot::Limits lim;
    for (int k = 0; k < 3; ++k)
      ui.frame_in_window([&] {
        draw_metric_plot("##run", loss_info(false), h, 0, static_cast<int>(h.size()) - 1, kPlotW, kPlotH, nullptr,
                         version);
        const plot::PlotState& st = ui.plot_context()->plots.at(ImGui::GetID("##run"));
        lim = plot::Limits{st.x.min(), st.x.max(), st.y.min(), st.y.max()};
      });
    return lim;
  };
  const plot::Limits a = limits(big, 1);
  CHECK(a.y_min > 900.0);
  CHECK(a.x_max > 45.0);
  const plot::Limits b = limits(small, 2);
  CHECK(b.y_max < 1.0);
  CHECK(b.y_min > 0.4);
  CHECK(b.x_max < 10.0);
}

TEST_CASE("metrics view: scrubbed back, every curve of the strip ends at the shown iteration") {
  // Issue 29 section 2: at iteration 114 of 15 000 the curves showed the whole future run.
  ImGuiHeadless ui;
  const std::vector<std::vector<double>> h = history(15000);
  std::vector<double> step_ms(15000, 0.5);
  ModuleInfo info;
  info.metrics = {loss_info(false)};
  MetricHover hover;
  ImGuiID alone = 0;
  int seen = 0;
  for (int part = 0; part < 2; ++part) {
    for (int k = 0; k < 3; ++k)
      ui.frame_in_window([&] {
        if (part == 0) draw_metric_plots(info, h, step_ms, 114, 1);
        if (part == 1) draw_metric_plot("##alone", loss_info(true), h, 0, 114, kPlotW, kPlotH, &hover, 1);
        alone = ImGui::GetID("##alone");
      });
    const plot::PlotRect* rects = nullptr;
    const int n = plot::LastFramePlotRects(&rects);
    for (int i = 0; i < n; ++i) {
      CAPTURE(rects[i].title_id);
      CHECK(rects[i].limits.x_max < 130.0);  // fitted to iterations 0..114 (old: 0..14 999)
      CHECK(rects[i].limits.x_max > 100.0);
      ++seen;
    }
  }
  CHECK(seen == 3);  // loss, step time, alone
  // hovering the right end reads the shown iteration, not a later one
  const plot::PlotState& st = ui.plot_context()->plots.at(alone);
  ui.mouse_move(static_cast<float>(st.x.pixel_max()) - 2.0f, static_cast<float>(st.y.pixel_max() + st.y.pixel_min()) * 0.5f);
  for (int k = 0; k < 2; ++k)
    ui.frame_in_window([&] { draw_metric_plot("##alone", loss_info(true), h, 0, 114, kPlotW, kPlotH, &hover, 1); });
  CHECK(hover.active);
  CHECK(hover.iteration <= 114);
}

TEST_CASE("metrics view: a metric measured at a few iterations (epoch ends) is drawn, its caption the last measure") {
  // Issue 29 section 2: word2vec's words_per_s and recall, glove's entries_per_s stayed empty.
  ImGuiHeadless ui;
  std::vector<std::vector<double>> sparse(350, std::vector<double>{NAN}), none = sparse;
  for (size_t i : {100u, 200u, 300u}) sparse[i][0] = 1000.0 + static_cast<double>(i);
  const MetricInfo wps{"words_per_s", "per epoch", false};
  auto vertices = [&](const std::vector<std::vector<double>>& h) {
    FrameStats s;
    for (int k = 0; k < 3; ++k) s = ui.frame_in_window([&] { draw_metric_plot("##wps", wps, h, 0, 340, kPlotW, kPlotH); });
    return s.vertices;
  };
  const int empty = vertices(none);
  const int drawn = vertices(sparse);
  CHECK(drawn > empty + 20);  // a line through the three measures and their markers (old: nothing)
  const std::string text = frame_text(ui, [&] { draw_metric_plot("##wps", wps, sparse, 0, 340, kPlotW, kPlotH); });
  CHECK(text.find("words_per_s = 1300 (iteration 300)") != std::string::npos);
  // before the first measure the plot says there is none yet (old: an empty frame)
  const std::string before = frame_text(ui, [&] { draw_metric_plot("##wps", wps, sparse, 0, 90, kPlotW, kPlotH); });
  CHECK(before.find("no value yet") != std::string::npos);
  // scrubbed back before the third measure: the caption and curve stop at the second
  const std::string back = frame_text(ui, [&] { draw_metric_plot("##wps", wps, sparse, 0, 250, kPlotW, kPlotH); });
  CHECK(back.find("words_per_s = 1200 (iteration 200)") != std::string::npos);
}
