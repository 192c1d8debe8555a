// The gan view's curves (metric history: losses, D(real) and D(fake), grid KL
// and JS, modes covered, gradient norms) and its images tab (image targets).
#include "views/common/curves.h"
#include "views/generative/gan_view.h"

#include "views/common/mosaic_plot.h"
#include "views/plot/plot.h"
#include "views/common/theme.h"
#include "views/common/training_header.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

namespace {

// One curve of a plot: a metric, its name and colour.
struct Series {
  int metric;
  const char* name;
  ImU32 colour;
  bool dashed = false;
};

// A plot of metric history `series` against the iteration, rows 0..rows-1 (the shown iteration:
// shown_rows; thinned to ~max_points points),
// with a hover readout of every series at the iteration under the mouse; `half`: the 1/2 line.
// key: a row of coloured names above the plot in place of its legend (narrow plots).
void history_plot(const char* id, const char* y_label, const std::vector<std::vector<double>>& hst, size_t rows,
                  const std::vector<Series>& series, ImVec2 size, bool log_y, bool half,
                  const char* tip, int max_points, bool key) {
  ImGui::BeginGroup();
  if (key) {
    for (size_t i = 0; i < series.size(); ++i) {
      if (i > 0) ImGui::SameLine();
      fit_text_colored(legible(series[i].colour), "%s", series[i].name);
    }
    size.y -= ImGui::GetTextLineHeightWithSpacing();
  }
  if (!plot::BeginPlot(id, size, plot::PlotFlags_NoTitle | (key ? plot::PlotFlags_NoLegend : 0))) {
    ImGui::EndGroup();
    return;
  }
  plot::SetupAxes("iteration", y_label, plot::AxisFlags_AutoFit,
                  plot::AxisFlags_AutoFit | (log_y ? plot::AxisFlags_LogScale : 0));
  plot::SetupLegend(plot::Location::NorthEast);
  const size_t stride =
      std::max<size_t>(1, rows / static_cast<size_t>(std::max(1, max_points)));
  std::vector<double> xs;
  for (size_t i = 0; i < rows; i += stride) xs.push_back(static_cast<double>(i));
  for (const Series& se : series) {
    std::vector<double> ys;
    for (size_t i = 0; i < rows; i += stride)
      ys.push_back(hst[i][static_cast<size_t>(se.metric)]);
    plot::Spec sp;
    sp.color = se.colour;
    sp.line_weight = 1.5f;
    if (se.dashed) sp.line_style = plot::LineStyle::Dashed;
    plot::PlotLine(se.name, xs.data(), ys.data(), static_cast<int>(xs.size()), sp);
  }
  if (half && rows != 0) {
    const double x[2] = {0.0, static_cast<double>(rows - 1)}, y[2] = {0.5, 0.5};
    plot::Spec dash;
    dash.color = with_alpha(colors().text_dim, 170);
    dash.line_style = plot::LineStyle::Dashed;
    dash.line_weight = 1.0f;
    dash.flags = plot::ItemFlags_NoLegend;
    plot::PlotLine("##half", x, y, 2, dash);
  }
  if (plot::IsPlotHovered() && rows != 0) {
    const plot::Point m = plot::GetPlotMousePos();
    const long it = std::clamp(std::lround(m.x), 0L, static_cast<long>(rows) - 1);
    ImGui::BeginTooltip();
    fit_text("iteration %ld", it);
    for (const Series& se : series)
      fit_text_colored(legible(se.colour), "%s = %.5g", se.name,
                         hst[static_cast<size_t>(it)][static_cast<size_t>(se.metric)]);
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    fit_text_disabled("%s", tip);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  plot::EndPlot();
  ImGui::EndGroup();
}

}  // namespace

void GanView::draw_curves(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size, bool compact) {
  if (!ctx.metric_history || ctx.metric_history->empty()) {
    fit_text_disabled("The curves appear once the run has a history.");
    return;
  }
  const auto& hst = *ctx.metric_history;
  ImGui::BeginGroup();
  const ImU32 c0 = plot::GetColormapColor(0), c1 = plot::GetColormapColor(1),
              c2 = plot::GetColormapColor(2), c3 = plot::GetColormapColor(3);
  const bool prob = nn::gan_loss_is_probabilistic(s.loss);
  const char* loss_tip =
      "d_loss: the discriminator's loss on the last D step's batch (minimax/nonsaturating: log 4 = "
      "1.386 at "
      "D = 1/2); g_loss: the generator's loss on the G step's batch (the loss chosen).";
  const char* d_tip =
      prob ? "Mean D(x) = sigmoid(l) on the real rows and mean D(G(z)) on the generated rows of "
             "the last D step: "
             "both tend to 1/2 (the dashed line) at the equilibrium p_g = p_data (D cannot tell "
             "them apart)."
           : "Mean raw output l on the real and the generated rows (least_squares: targets 1 and "
             "0; wgan_gp: "
             "their difference is the critic's estimate of the Wasserstein-1 distance).";
  struct Panel {
    const char* id;
    const char* y;
    std::vector<Series> series;
    bool log_y, half;
    const char* tip;
  };
  std::vector<Panel> panels;
  panels.push_back({"losses##gan",
                    "loss",
                    {{Gan::kMetricDLoss, "d_loss", c0}, {Gan::kMetricGLoss, "g_loss", c1}},
                    false,
                    false,
                    loss_tip});
  panels.push_back({"D(real), D(fake)##gan",
                    prob ? "mean D" : "mean l",
                    {{Gan::kMetricDReal, "D(real)", c2}, {Gan::kMetricDFake, "D(fake)", c3}},
                    false,
                    prob,
                    d_tip});
  if (!compact) {
    if (!s.image)
      panels.push_back({"KL, JS##gan",
                        "nats",
                        {{Gan::kMetricKl, "KL", c0}, {Gan::kMetricJs, "JS", c1}},
                        false,
                        false,
                        "KL(p_data || p_g) and JS(p_data || p_g), GAN Lab's measure: histograms on "
                        "a 40x40 grid over the plane of the target's 20 000 rows and "
                        "2 000 generated samples (0.5 added to every cell), KL(p_data || p_g) and "
                        "JS in [0, log 2], "
                        "every 25 iterations."});
    if (!s.spec.modes.empty())
      panels.push_back({"modes##gan",
                        "modes covered",
                        {{Gan::kMetricModesCovered, "modes", c2}},
                        false,
                        false,
                        "Modes with >= 1 % of 2 000 generated samples (fixed noise) within 3 sd of "
                        "their centre, "
                        "every 25 iterations."});
    panels.push_back(
        {"gradient norms##gan",
         "||grad|| (log)",
         {{Gan::kMetricGGradNorm, "|grad G|", c0}, {Gan::kMetricDGradNorm, "|grad D|", c1}},
         true,
         false,
         "|grad G| = ||dL_G/dtheta_G|| of the G step and |grad D| = ||dL_D/dtheta_D|| of the last "
         "D step (log scale): with the minimax loss "
         "||dL_G/dtheta_G|| collapses early, when D rejects the fakes confidently (the saturation "
         "demo)."});
    if (s.loss == nn::GanLoss::WassersteinGP)
      panels.push_back(
          {"critic##gan",
           "critic",
           {{Gan::kMetricWasserstein, "W est.", c2}, {Gan::kMetricPenalty, "GP", c3}},
           false,
           false,
           "wgan_gp: W est. = mean critic(real) - mean critic(fake), the critic's estimate of the "
           "Wasserstein-1 "
           "distance, and GP, the gradient penalty lambda mean (||grad D(x_hat)|| - 1)^2."});
  }
  if (!compact && !s.image) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
    ImGui::TextWrapped(
        "KL and JS: GAN Lab's measure: histograms on a 40x40 grid over the plane of the target's "
        "20 000 rows and "
        "2 000 generated samples, every 25 iterations.");
    ImGui::PopTextWrapPos();
    size.y -= ImGui::GetItemRectSize().y + ImGui::GetStyle().ItemSpacing.y;
  }
  // Compact: the panels stacked; full: two columns, or more when the height holds fewer rows.
  const ImVec2 sp = ImGui::GetStyle().ItemSpacing;
  const int count = static_cast<int>(panels.size());
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const int max_rows =
      std::max(1, static_cast<int>((size.y + sp.y) / (min_plot_height() + line + sp.y)));
  const int cols = compact ? 1 : std::min(count, std::max(2, (count + max_rows - 1) / max_rows));
  const int rows = (count + cols - 1) / cols;
  const bool key = compact || (size.x - sp.x * (cols - 1)) / cols < ImGui::GetFontSize() * 16;
  const float w = (size.x - sp.x * (cols - 1)) / cols;
  const float h = std::max(min_plot_height() + (key ? line : 0.0f), (size.y - sp.y * rows) / rows);  // the key row on top
  for (size_t i = 0; i < panels.size(); ++i) {
    if (i % static_cast<size_t>(cols) != 0) ImGui::SameLine();
    const Panel& p = panels[i];
    history_plot(p.id, p.y, hst, shown_rows(hst, s.iteration), p.series, ImVec2(w, h), p.log_y, p.half, p.tip, kMaxCurvePoints,
                 key);
  }
  ImGui::EndGroup();
}

void GanView::draw_images(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  // The grids and the curves in the training views' two columns (the curves under the grids when
  // the view is too narrow for both: a Compare half at 150 %).
  TrainingColumns columns = training_columns(0.3f);
  const GanPictures* pic = pictures_.get();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float cap_h = 2 * ImGui::GetTextLineHeightWithSpacing();
  const float pad = mosaic_pad();
  // The grids' width when the height is what limits them (a short view): the curves take the rest
  // of the row beside them if it holds kSideMinEm, rather than going under half-empty columns.
  if (columns.stacked && pic && !pic->fake_mosaic.empty()) {
    const float ratio = static_cast<float>(pic->fake_mosaic.h) / pic->fake_mosaic.w;
    const float grids_w = 2 * ((size.y - cap_h - pad) / ratio + pad) + gap;
    if (columns.avail.x - grids_w - gap >= ImGui::GetFontSize() * kSideMinEm) {
      columns.stacked = false;
      columns.main_w = grids_w;
      columns.side_w = columns.avail.x - grids_w - gap;
    }
  }
  const float main_w = columns.main_w;
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + main_w);
  if (!pic || pic->fake_mosaic.empty()) {
    fit_text_disabled(
        "The image grids appear with the next pictures (computed off the UI thread).");
  } else {
    // Two square-ish mosaics side by side, as large as the width and the height allow.
    const float ratio = static_cast<float>(pic->fake_mosaic.h) / pic->fake_mosaic.w;
    float w = (main_w - gap) / 2;
    w = std::min(w, (size.y - cap_h - pad) / ratio + pad);
    auto one = [&](const char* id, const Mosaic& m, const char* caption, const char* tip) {
      ImGui::BeginGroup();
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
      ImGui::TextWrapped("%s", caption);
      ImGui::PopTextWrapPos();
      mosaic_plot(id, m, -1.0f, 1.0f, w);
      tooltip_text(tip);
      ImGui::EndGroup();
    };
    char cap[160];
    std::snprintf(cap, sizeof cap, "G(64 fixed z), iteration %d", pic->net_iteration);
    one("##gan_fake", pic->fake_mosaic, cap,
        "Generated: G(z) of the same 64 noise vectors every time: the grid shows how G's output "
        "for them changes as it trains. "
        "Pixels in [-1, 1] (tanh output) shown black to white; data = pixel * scale + offset.");
    ImGui::SameLine();
    one("##gan_real", pic->real_mosaic, "Real: 64 training images",
        "Rows of the training pool, pixels mapped to [-1, 1] as the generator sees them (black -1, "
        "white 1).");
  }
  ImGui::PopTextWrapPos();
  ImGui::Dummy(ImVec2(main_w, 0));
  ImGui::EndGroup();
  ImGui::SameLine();
  draw_curves(s, ctx, training_side_size(columns), true);
}

}  // namespace cilab
