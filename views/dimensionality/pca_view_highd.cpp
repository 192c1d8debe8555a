// The PCA view for d >= 4 (and d = 1): scree plot, score scatter, eigen-images
// or loadings, reconstructions with the Eckart-Young read-out (see pca_view.h).
#include "algorithms/dimensionality/pca.h"
#include "views/common/class_key.h"
#include "views/dimensionality/pca_view.h"
#include "views/plot/plot.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

constexpr uint64_t kHoverTextureKey = 0x7063616f76657231ull;
constexpr int kHoverMaxPoints = 300000;
constexpr int kDefaultSamples = 6;
constexpr int kEigenImages = 11;  // plus the mean image

std::string class_name(const Dataset& data, int l) {
  if (l >= 0 && l < static_cast<int>(data.class_names.size())) return data.class_names[static_cast<size_t>(l)];
  return l >= 0 ? "class " + std::to_string(l) : "unlabelled";
}

// A small image in its own canvas plot (row-major h x w floats).
void image_cell(const char* id, const std::vector<float>& px, int h, int w, float lo, float hi, float size,
                const char* caption) {
  if (plot::BeginPlot(id, ImVec2(size, size), plot::PlotFlags_CanvasOnly | plot::PlotFlags_NoInputs |
                                                 plot::PlotFlags_EqualAspect)) {
    plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines,
                    plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
    plot::SetupAxesLimits(0, 1, 0, 1, plot::Cond::Always);
    plot::PlotImageGray("##img", px.data(), h, w, lo, hi, plot::Point{0, 0}, plot::Point{1, 1});
    if (caption)
      plot::PlotText(caption, 0.5, 0.08, ImVec2(0, 0),
                     IM_COL32(255, 220, 120, 255));  // over the image: any theme
    plot::EndPlot();
  }
}

}  // namespace

void PcaView::refresh_scores(const PcaSnapshot& s, const Dataset& data, uint64_t version) {
  const int held = s.scores ? static_cast<int>(s.scores->cols()) : 0;
  score_x = std::clamp(score_x, 0, std::max(0, held - 1));
  score_y = std::clamp(score_y, 0, std::max(0, held - 1));
  if (s.serial.value == scores_serial_ && version == scores_version_ && score_x == scores_x_ && score_y == scores_y_)
    return;
  scores_serial_ = s.serial.value;
  scores_version_ = version;
  scores_x_ = score_x;
  scores_y_ = score_y;
  ++scatter_version_;
  const int classes = std::max(1, data.has_labels() ? data.num_classes() + 1 : 1);  // last: unlabelled
  class_x_.assign(static_cast<size_t>(classes), {});
  class_y_.assign(static_cast<size_t>(classes), {});
  class_rows_.assign(static_cast<size_t>(classes), {});
  if (!s.scores || held == 0) return;
  const Eigen::MatrixXf& z = *s.scores;
  for (int i = 0; i < s.n; ++i) {
    int l = data.has_labels() ? data.labels[static_cast<size_t>(i)] : -1;
    if (l < 0) l = classes - 1;
    class_x_[static_cast<size_t>(l)].push_back(z(i, score_x));
    class_y_[static_cast<size_t>(l)].push_back(held > 1 ? z(i, score_y) : 0.0f);
    class_rows_[static_cast<size_t>(l)].push_back(i);
  }
}

void PcaView::draw_high_d(const PcaSnapshot& s, const Dataset& data, const ViewContext& ctx,
                          std::vector<ViewIntent>&) {
  // ---- caption: what PCA sees, and what the step did.
  if (!s.fitted)
    fit_text("Iteration 0: %d x %d data, tr C = %.5g. Step (Right) fits: C = (1/n) sum_i x'_i x'_i^T = Q Lambda Q^T.",
                s.n, s.d, s.total_variance);
  else
    fit_text("Fitted %d components of %d x %d data: they explain %.2f%% of tr C = %.5g.", s.k(), s.n, s.d,
                100.0 * (s.metrics.size() > 3 ? s.metrics[3] : NAN), s.total_variance);
  ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
  fit_text_colored(colour_vec(colors().text_dim), "%s; %s",
                     s.centered ? "centred (x - mean)" : "NOT centred",
                     s.standardized ? "standardised (each feature / its std)" : "not standardised");
  tooltip_text("x' = (x - m) / s: m = mean (centre on) or 0; s_j = standard deviation of feature j "
               "(standardise on: C becomes the correlation matrix) or 1.");
  if (!s.fitted) {
    fit_text_disabled("Nothing to show before the fit: press Step.");
    return;
  }
  refresh_scores(s, data, ctx.data_version);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float sp = ImGui::GetStyle().ItemSpacing.x;
  // The top row's plots keep a readable area (the scree's caption row and controls around it); the
  // eigen-images and reconstructions below are pictures and take what is left.
  const float top_need = min_plot_height() + 2 * ImGui::GetFrameHeightWithSpacing();
  const float top_h = std::max(avail.y * 0.5f - sp, std::min(top_need, avail.y - ImGui::GetFontSize() * 5.0f));
  const float bottom_h = avail.y - top_h - ImGui::GetStyle().ItemSpacing.y;
  const float left_w = avail.x * 0.42f;
  const float right_w = avail.x - left_w - sp;

  ImGui::BeginChild("##pca_scree", ImVec2(left_w, top_h), false);
  draw_scree(s, left_w, top_h);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##pca_scores", ImVec2(right_w, top_h), false);
  draw_scores(s, data, right_w, top_h);
  ImGui::EndChild();
  ImGui::BeginChild("##pca_comps", ImVec2(left_w, bottom_h), false);
  draw_components(s, data, left_w, bottom_h);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##pca_recon", ImVec2(right_w, bottom_h), false);
  draw_reconstruction(s, data, ImGui::GetContentRegionAvail().x, bottom_h);  // less its scrollbar
  ImGui::EndChild();
}

void PcaView::draw_scree(const PcaSnapshot& s, float w, float h) {
  const int total = static_cast<int>(s.eigenvalues.size());
  const int m = std::clamp(scree_count, 1, std::max(1, total));
  fit_text_unformatted("scree plot: explained ratio lambda_i / tr C");
  tooltip_text("Bars: lambda_i / tr C, the share of the total variance along u_i. Line: the cumulative ratio "
               "sum_{j <= i} lambda_j / tr C. Dashed: the K of the reconstruction panel.");
  same_line_if_fits(ImGui::GetFontSize() * 6);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::SliderInt("##scree_n", &scree_count, 1, std::max(1, total), "show %d");
  std::vector<double> ratio(static_cast<size_t>(m)), cum(static_cast<size_t>(m)), xs(static_cast<size_t>(m));
  double c = 0.0;
  const double tr = s.total_variance > 0 ? s.total_variance : 1.0;
  for (int i = 0; i < m; ++i) {
    ratio[static_cast<size_t>(i)] = s.eigenvalues[i] / tr;
    // Beyond the computed K the cumulative ratio still follows from all eigenvalues.
    c += s.eigenvalues[i] / tr;
    cum[static_cast<size_t>(i)] = c;
    xs[static_cast<size_t>(i)] = i + 1;
  }
  const float ph = h - 2 * ImGui::GetFrameHeightWithSpacing();
  if (plot::BeginPlot("##scree", ImVec2(w, ph), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::SouthEast);
    plot::SetupAxes("component i", scree_log ? "ratio (log)" : "ratio of tr C", plot::AxisFlags_AutoFit,
                    plot::AxisFlags_AutoFit | (scree_log ? plot::AxisFlags_LogScale : 0));
    plot::Spec bs;
    bs.color = plot::GetColormapColor(1);
    plot::PlotBars("lambda_i / tr C", ratio.data(), m, 0.8, 1.0, bs);
    plot::Spec ls;
    ls.color = plot::GetColormapColor(0);
    ls.line_weight = 2.0f;
    ls.marker = m <= 60 ? plot::Marker::Circle : plot::Marker::None;
    ls.marker_size = 2.5f;
    plot::PlotLine("cumulative", xs.data(), cum.data(), m, ls);
    const int k = std::clamp(recon_k < 0 ? std::min(10, std::max(1, s.k() / 2)) : recon_k, 0, s.k());
    const double kx[2] = {k + 0.5, k + 0.5}, ky[2] = {scree_log ? 1e-6 : 0.0, 1.0};
    plot::Spec ks;
    ks.color = with_alpha(colors().accent, 220);
    ks.line_style = plot::LineStyle::Dashed;
    ks.flags = plot::ItemFlags_NoFit;
    char lab[48];
    std::snprintf(lab, sizeof lab, "K = %d", k);
    plot::PlotLine(lab, kx, ky, 2, ks);
    if (plot::IsPlotHovered()) {
      const int i = static_cast<int>(std::lround(plot::GetPlotMousePos().x)) - 1;
      if (i >= 0 && i < m)
        ImGui::SetTooltip("component %d\nlambda_%d = %.5g\nlambda_%d / tr C = %.4f%%\ncumulative = %.4f%%", i + 1, i + 1,
                          s.eigenvalues[i], i + 1, 100.0 * ratio[static_cast<size_t>(i)], 100.0 * cum[static_cast<size_t>(i)]);
    }
    plot::EndPlot();
  }
  // The cumulative ratio at K from all eigenvalues: K may lie beyond the scree plot's range.
  const int shown_k = std::clamp(recon_k, 0, s.k());
  fit_text("K = %d: cumulative %.2f%%, components computed: %d of %d", shown_k,
              100.0 * s.cumulative_ratio(shown_k), s.k(), total);
}

void PcaView::hover_sample(const Dataset& data, int row, const PcaSnapshot& s) {
  ImGui::BeginTooltip();
  fit_text("row %d", row);
  if (data.has_labels()) fit_text("label: %s", class_name(data, data.labels[static_cast<size_t>(row)]).c_str());
  if (s.scores) {
    const int held = static_cast<int>(s.scores->cols());
    fit_text("z_%d = %.4g,  z_%d = %.4g  (z = U^T x')", score_x + 1, (*s.scores)(row, score_x), score_y + 1,
                held > 1 ? (*s.scores)(row, score_y) : 0.0f);
  }
  plot::TextureProvider* tex = plot::GetTextureProvider();
  if (data.is_image() && tex) {
    const int h = data.image_h, w = data.image_w;
    if (hover_row_ != row) {
      hover_pixels_.resize(static_cast<size_t>(h) * w);
      const double lo = data.x.row(row).minCoeff(), hi = data.x.row(row).maxCoeff();
      for (int i = 0; i < h * w; ++i) {
        const double t = hi > lo ? (data.x(row, i) - lo) / (hi - lo) : 0.0;
        const auto g = static_cast<ImU32>(std::lround(255.0 * t));
        hover_pixels_[static_cast<size_t>(i)] = IM_COL32(g, g, g, 255);
      }
      hover_texture_ = tex->Update(kHoverTextureKey, w, h, hover_pixels_.data());
      hover_row_ = row;
    }
    const float size = ImGui::GetFontSize() * 7;
    ImGui::Image(hover_texture_, ImVec2(size, size * h / std::max(1, w)));
  } else if (data.cols() <= 12) {
    for (int j = 0; j < data.cols(); ++j)
      fit_text("%s = %.4g", j < static_cast<int>(data.column_names.size()) ? data.column_names[static_cast<size_t>(j)].c_str() : "x",
                  data.x(row, j));
  }
  fit_text_disabled("click: add to the reconstruction samples");
  ImGui::EndTooltip();
}

void PcaView::draw_scores(const PcaSnapshot& s, const Dataset& data, float w, float h) {
  const int held = s.scores ? static_cast<int>(s.scores->cols()) : 0;
  fit_text("scores z = U^T x': PC%d against PC%d", score_x + 1, held > 1 ? score_y + 1 : score_x + 1);
  tooltip_text("Each point is one sample's coordinates on two principal axes (choose them under View). The scores "
               "are uncorrelated, with variances lambda_i. Hover a point to see the sample; click to reconstruct it.");
  char xl[64], yl[64];
  const double tr = s.total_variance > 0 ? s.total_variance : 1.0;
  std::snprintf(xl, sizeof xl, "PC%d (%.1f%% of variance)", score_x + 1, 100.0 * s.eigenvalues[score_x] / tr);
  std::snprintf(yl, sizeof yl, "PC%d (%.1f%%)", score_y + 1,
                held > 1 ? 100.0 * s.eigenvalues[score_y] / tr : 0.0);
  // Labelled data: the class key above the scatter (a legend of ten classes would cover its
  // points); a click on a name hides that class.
  float plot_h = h - ImGui::GetTextLineHeightWithSpacing();
  const int classes = static_cast<int>(class_x_.size());
  const bool keyed = data.has_labels() && classes > 1;
  if (keyed) {
    std::vector<std::string> names;
    for (int c = 0; c + 1 < classes; ++c) names.push_back(class_name(data, c));
    const float y0 = ImGui::GetCursorPosY();
    class_key(names, w, hidden_classes_, class_x_.back().empty() ? std::vector<const char*>{}
                                                                 : std::vector<const char*>{"grey: unlabelled"});
    plot_h -= ImGui::GetCursorPosY() - y0;
  }
  if (plot::BeginPlot("##pca_scatter", ImVec2(w, plot_h), plot::PlotFlags_NoTitle | plot::PlotFlags_EqualAspect)) {
    plot::SetupLegend(plot::Location::NorthWest);
    plot::SetupAxes(xl, held > 1 ? yl : nullptr);
    plot::SetupAxesFitKey(scatter_version_);  // new scores (a new run, other PCs): show all of them
    for (int c = 0; c < classes; ++c) {
      const bool unlabelled = c == classes - 1;
      if (class_x_[static_cast<size_t>(c)].empty() || (!unlabelled && !class_shown(hidden_classes_, c))) continue;
      plot::Spec sp;
      if (keyed) sp.flags = plot::ItemFlags_NoLegend;
      // Classes take the label palette, as in every view.
      sp.color = unlabelled ? with_alpha(colors().neutral, 200)
                            : plot::GetColormapColor(c, plot::Colormap::Labels);
      sp.marker_size = s.n > 5000 ? 1.8f : 3.0f;
      sp.fill_alpha = s.n > 5000 ? 0.6f : 0.85f;
      sp.version = scatter_version_;
      const std::string label = unlabelled ? (data.has_labels() ? "unlabelled" : "samples") + std::string("##u")
                                           : class_name(data, c) + "##c" + std::to_string(c);
      plot::PlotScatter(label.c_str(), class_x_[static_cast<size_t>(c)].data(), class_y_[static_cast<size_t>(c)].data(),
                        static_cast<int>(class_x_[static_cast<size_t>(c)].size()), sp);
    }
    // Chosen samples ringed.
    if (plot::BeginItem("##chosen")) {
      ImDrawList* dl = plot::GetPlotDrawList();
      for (int r : samples) {
        if (r < 0 || r >= s.n || !s.scores) continue;
        const ImVec2 p = plot::PlotToPixels((*s.scores)(r, score_x), held > 1 ? (*s.scores)(r, score_y) : 0.0f);
        dl->AddCircle(p, 7.0f, colors().accent, 16, 2.0f);
      }
      plot::EndItem();
    }
    if (plot::IsPlotHovered() && !ImGui::IsMouseDown(0) && s.n <= kHoverMaxPoints && s.scores) {
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      int best = -1;
      float best_d2 = 10.0f * 10.0f;
      for (size_t c = 0; c < class_x_.size(); ++c) {
        if (c + 1 < class_x_.size() && !class_shown(hidden_classes_, static_cast<int>(c))) continue;  // hidden class
        for (size_t i = 0; i < class_x_[c].size(); ++i) {
          const ImVec2 p = plot::PlotToPixels(class_x_[c][i], class_y_[c][i]);
          const float dx = p.x - mouse.x, dy = p.y - mouse.y;
          if (dx * dx + dy * dy < best_d2) best_d2 = dx * dx + dy * dy, best = class_rows_[c][i];
        }
      }
      if (best >= 0) {
        const ImVec2 p = plot::PlotToPixels((*s.scores)(best, score_x), held > 1 ? (*s.scores)(best, score_y) : 0.0f);
        plot::GetPlotDrawList()->AddCircle(p, 6.0f, colors().selection, 16, 2.0f);
        hover_sample(data, best, s);
      }
      if (best >= 0 && plot::IsPlotClicked(0)) {
        if (samples.empty()) samples = {};
        samples.push_back(best);
        if (static_cast<int>(samples.size()) > 8) samples.erase(samples.begin());
      }
    }
    plot::EndPlot();
  }
}

void PcaView::draw_components(const PcaSnapshot& s, const Dataset& data, float w, float h) {
  const Eigen::MatrixXd& u = *s.components;
  if (data.is_image()) {
    const int ih = data.image_h, iw = data.image_w;
    fit_text_unformatted("mean image and eigen-images u_1, u_2, ...");
    tooltip_text("Each principal axis u_k (a unit vector in pixel space) drawn as an image: mid-grey = 0, white "
                 "= positive, black = negative weights (scale +-max|u_k|). The mean is the image the "
                 "reconstruction starts from (K = 0).");
    // As many tiles as fit the panel at 16 px or more each: rows with their spacing, all inside.
    const float gap = ImGui::GetStyle().ItemSpacing.y;
    const float room = h - ImGui::GetTextLineHeightWithSpacing() - 4;
    int count = std::min(kEigenImages, s.k()) + 1, cols = 1, rows = 1;
    float cell = 0;
    for (;; --count) {
      cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(count * w / std::max(1.0f, h)))));
      rows = (count + cols - 1) / cols;
      cell = std::floor(std::min((w - 4) / cols - 3, (room - (rows - 1) * gap) / rows - 1));
      if (cell >= 16.0f || count <= 1) break;
    }
    std::vector<float> px(static_cast<size_t>(ih) * iw);
    for (int t = 0; t < count; ++t) {
      if (t % cols) ImGui::SameLine(0, 3);
      char id[32], cap[32];
      std::snprintf(id, sizeof id, "##eig%d", t);
      float lo = 0, hi = 1;
      if (t == 0) {
        for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<float>(s.mean[static_cast<Eigen::Index>(i)]);
        lo = static_cast<float>(s.mean.minCoeff());
        hi = static_cast<float>(s.mean.maxCoeff());
        std::snprintf(cap, sizeof cap, "mean");
      } else {
        const double mx = u.row(t - 1).cwiseAbs().maxCoeff();
        for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<float>(u(t - 1, static_cast<Eigen::Index>(i)));
        lo = static_cast<float>(-mx);
        hi = static_cast<float>(mx);
        std::snprintf(cap, sizeof cap, "u_%d", t);
      }
      image_cell(id, px, ih, iw, lo, hi, std::max(16.0f, cell), cap);
      if (ImGui::IsItemHovered() && t > 0)
        ImGui::SetTooltip("u_%d: lambda_%d = %.4g (%.2f%% of tr C)", t, t, s.eigenvalues[t - 1],
                          100.0 * s.eigenvalues[t - 1] / std::max(1e-300, s.total_variance));
    }
    return;
  }
  // Loadings heat map: rows = components, columns = features.
  const int kshow = std::min(s.k(), 10), d = s.d;
  fit_text_unformatted("loadings: u_k as rows (feature weights)");
  tooltip_text("Row k is the principal axis u_k; each cell its weight on a feature (colour scale symmetric "
               "about 0). Hover a cell for the value.");
  std::vector<double> grid(static_cast<size_t>(kshow) * d);
  double mx = 0;
  for (int k = 0; k < kshow; ++k)
    for (int j = 0; j < d; ++j) {
      grid[static_cast<size_t>(k) * d + j] = u(k, j);
      mx = std::max(mx, std::abs(u(k, j)));
    }
  if (plot::BeginPlot("##loadings", ImVec2(w, h - ImGui::GetTextLineHeightWithSpacing()),
                      plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("feature j", "component k (1 at top)", plot::AxisFlags_Lock, plot::AxisFlags_Lock);
    plot::SetupAxesLimits(0, d, 0, kshow, plot::Cond::Always);
    plot::SetupColorBar("weight", -mx, mx);
    plot::PlotHeatmap("##load", grid.data(), kshow, d, -mx, mx, plot::Point{0, 0}, plot::Point{static_cast<double>(d),
                      static_cast<double>(kshow)});
    if (d <= 16 && kshow <= 10)
      for (int k = 0; k < kshow; ++k)
        for (int j = 0; j < d; ++j) {
          char b[16];
          std::snprintf(b, sizeof b, "%.2f", u(k, j));
          // on the heatmap: dark text on its bright end, white on its dark end (any theme)
          const bool bright = (u(k, j) + mx) / (2.0 * mx) > 0.6;
          plot::PlotText(b, j + 0.5, kshow - k - 0.5, ImVec2(0, 0),
                         bright ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 230));
        }
    if (plot::IsPlotHovered()) {
      const plot::Point m = plot::GetPlotMousePos();
      const int j = static_cast<int>(std::floor(m.x)), k = kshow - 1 - static_cast<int>(std::floor(m.y));
      if (j >= 0 && j < d && k >= 0 && k < kshow)
        ImGui::SetTooltip("u_%d[%s] = %.4f", k + 1,
                          j < static_cast<int>(data.column_names.size()) ? data.column_names[static_cast<size_t>(j)].c_str() : "?",
                          u(k, j));
    }
    plot::EndPlot();
  }
}

void PcaView::draw_reconstruction(const PcaSnapshot& s, const Dataset& data, float w, float) {
  const int kmax = s.k();
  if (recon_k < 0) recon_k = std::min(10, std::max(1, kmax / 2));  // auto: an instructive K < rank
  recon_k = std::clamp(recon_k, 0, kmax);
  ImGui::SetNextItemWidth(std::min(w * 0.45f, ImGui::GetFontSize() * 14));
  // Above 50 values the slider is log-spaced, so every small K can be reached by dragging.
  int_slider("K components##recon", &recon_k, 0, kmax, kmax > 50 ? ImGuiSliderFlags_Logarithmic : 0, k_slider_);
  tooltip_text((std::string("x~ = m + s * (U_K U_K^T x'): the reconstruction from the first K principal "
                            "components.\n") + int_slider_help()).c_str());
  const int k = recon_k;
  const double measured = k < s.recon_error.size() ? s.recon_error[k] : NAN;
  const double dropped = s.dropped_sum(k);
  fit_text_colored(colour_vec(colors().warning),
                     "e(K) = %.6g   sum_{i>K} lambda_i = %.6g   |diff| = %.2g", measured, dropped,
                     std::abs(measured - dropped));
  tooltip_text("Eckart-Young, live: e(K) = (1/n) sum_i ||x'_i - U_K U_K^T x'_i||^2 is measured from all n rows "
               "(via the scores: (1/n) sum ||x'_i||^2 - sum_{k<=K} (1/n) sum_i z_ik^2); sum_{i>K} lambda_i comes "
               "from the eigenvalues alone. They agree to rounding.");

  // Samples: chosen by click, else one per class (or the first rows).
  if (samples.empty()) {
    std::vector<int> first_of(static_cast<size_t>(std::max(1, data.num_classes())), -1);
    for (int i = 0; i < s.n && static_cast<int>(samples.size()) < kDefaultSamples; ++i) {
      const int l = data.has_labels() ? data.labels[static_cast<size_t>(i)] : -1;
      if (l < 0 || first_of[static_cast<size_t>(l)] >= 0) {
        if (!data.has_labels()) samples.push_back(i);
        continue;
      }
      first_of[static_cast<size_t>(l)] = i;
      samples.push_back(i);
    }
  }
  Eigen::MatrixXd rows(static_cast<Eigen::Index>(samples.size()), s.d);
  for (size_t t = 0; t < samples.size(); ++t) rows.row(static_cast<Eigen::Index>(t)) = data.x.row(samples[t]);
  const Eigen::MatrixXd z = pca_transform(s, rows, k);
  const Eigen::MatrixXd rec = pca_inverse_transform(s, z);

  if (data.is_image()) {
    const int ih = data.image_h, iw = data.image_w;
    const int count = static_cast<int>(samples.size());
    // Two rows of images, leaving the e(K) plot at least ~7 lines of height.
    const float plot_min = ImGui::GetFontSize() * 7.0f;
    const float cell =
        std::min((w - 4) / std::max(1, count), (ImGui::GetContentRegionAvail().y - plot_min) * 0.5f - 4.0f) - 3;
    std::vector<float> px(static_cast<size_t>(ih) * iw);
    for (int r = 0; r < 2; ++r)
      for (int t = 0; t < count; ++t) {
        if (t) ImGui::SameLine(0, 3);
        const Eigen::RowVectorXd v = r == 0 ? Eigen::RowVectorXd(rows.row(t)) : Eigen::RowVectorXd(rec.row(t));
        for (size_t i = 0; i < px.size(); ++i) px[i] = static_cast<float>(v[static_cast<Eigen::Index>(i)]);
        char id[32], cap[48];
        std::snprintf(id, sizeof id, "##rec%d_%d", r, t);
        const double err = (rows.row(t) - rec.row(t)).cwiseQuotient(s.scale.transpose()).squaredNorm();
        if (r == 0) std::snprintf(cap, sizeof cap, "row %d", samples[static_cast<size_t>(t)]);
        else std::snprintf(cap, sizeof cap, "K=%d", k);
        image_cell(id, px, ih, iw, 0.0f, 1.0f, std::max(16.0f, cell), cap);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s row %d\n||x'_i - x~'_i||^2 = %.4g", r == 0 ? "original" : "reconstruction",
                            samples[static_cast<size_t>(t)], err);
      }
  } else if (!samples.empty()) {
    fit_text("sample row %d: original vs reconstruction (K = %d)", samples.front(), k);
    if (plot::BeginPlot("##recon_bars", ImVec2(w * 0.5f, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y)), plot::PlotFlags_NoTitle)) {
      plot::SetupAxes("feature j", "value", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
      std::vector<double> a(static_cast<size_t>(s.d)), b(static_cast<size_t>(s.d));
      for (int j = 0; j < s.d; ++j) a[static_cast<size_t>(j)] = rows(0, j), b[static_cast<size_t>(j)] = rec(0, j);
      plot::PlotBars("original x", a.data(), s.d, 0.38, -0.2);
      plot::PlotBars("reconstruction x~", b.data(), s.d, 0.38, 0.2);
      plot::EndPlot();
    }
  }
  // e(K) and the dropped-eigenvalue sum against K (beside the bars for non-image data).
  if (!data.is_image() && !samples.empty()) ImGui::SameLine();
  std::vector<double> ks(static_cast<size_t>(kmax + 1)), es(static_cast<size_t>(kmax + 1)), ds(static_cast<size_t>(kmax + 1));
  for (int t = 0; t <= kmax; ++t) {
    ks[static_cast<size_t>(t)] = t;
    es[static_cast<size_t>(t)] = s.recon_error[t];
    ds[static_cast<size_t>(t)] = s.dropped_sum(t);
  }
  // At least a readable height: the column scrolls on a short window (1280 x 720).
  if (plot::BeginPlot("##recon_err", ImVec2(ImGui::GetContentRegionAvail().x, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y)),
                      plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("K", "mean squared error", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec ls;
    ls.color = plot::GetColormapColor(1);
    ls.line_weight = 2.0f;
    plot::PlotLine("sum_{i>K} lambda_i", ks.data(), ds.data(), kmax + 1, ls);
    plot::Spec ms;
    ms.color = plot::GetColormapColor(0);
    ms.marker = plot::Marker::Circle;
    ms.marker_size = 2.5f;
    plot::PlotScatter("e(K) measured", ks.data(), es.data(), kmax + 1, ms);
    const double px[1] = {static_cast<double>(k)}, py[1] = {measured};
    plot::Spec cs;
    cs.color = colors().accent;
    cs.marker = plot::Marker::Diamond;
    cs.marker_size = 6.0f;
    cs.flags = plot::ItemFlags_NoLegend;
    plot::PlotScatter("##k", px, py, 1, cs);
    plot::EndPlot();
  }
}

}  // namespace cilab
