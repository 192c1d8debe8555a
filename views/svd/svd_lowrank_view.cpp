#include "views/svd/svd_lowrank_view.h"
#include "views/common/matrix_panel.h"
#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include "algorithms/svd/svd_lowrank.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

ImU32 kept_colour() { return plot::GetColormapColor(1); }
ImU32 dropped_colour() { return with_alpha(colors().neutral, 150); }
ImU32 fro_colour() { return plot::GetColormapColor(2); }
ImU32 spec_colour() { return plot::GetColormapColor(0); }

std::string fmt(double v) { return format_number(v, "%.6g"); }

}  // namespace

void SvdLowRankView::on_reset() {
  cached_rank_ = -1;
  cached_factors_ = nullptr;
  cached_approx_ = nullptr;
}

void SvdLowRankView::refresh(const std::shared_ptr<const SvdFactors>& fp, int rank) {
  const SvdFactors& f = *fp;
  const int m = f.m(), n = f.n(), r = f.r();
  if (fp != cached_factors_) {
    cached_factors_ = fp;
    cached_rank_ = -1;
    cached_approx_ = nullptr;
    a_.resize(static_cast<size_t>(m) * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) a_[static_cast<size_t>(i) * n + j] = static_cast<float>(f.a(i, j));
    a_min_ = static_cast<float>(f.a.minCoeff());
    a_max_ = static_cast<float>(f.a.maxCoeff());
    if (!(a_max_ > a_min_)) a_max_ = a_min_ + 1.0f;
    ks_.resize(static_cast<size_t>(r) + 1);
    ey_frob_.resize(ks_.size());
    ey_spec_.resize(ks_.size());
    for (int k = 0; k <= r; ++k) {
      ks_[static_cast<size_t>(k)] = k;
      ey_frob_[static_cast<size_t>(k)] = f.eckart_young_frobenius(k);
      ey_spec_[static_cast<size_t>(k)] = f.sigma_next(k);
    }
  }
  if (rank != cached_rank_) {
    cached_rank_ = rank;
    // The layer added by the last step (K >= 1), or the next one at K = 0.
    const int i = std::clamp(rank >= 1 ? rank - 1 : 0, 0, std::max(0, r - 1));
    layer_.assign(static_cast<size_t>(m) * n, 0.0f);
    if (r > 0) {
      const double s = f.sigma[i];
      for (int a = 0; a < m; ++a)
        for (int b = 0; b < n; ++b)
          layer_[static_cast<size_t>(a) * n + b] = static_cast<float>(s * f.u(a, i) * f.v(b, i));
    }
  }
}

void SvdLowRankView::draw_controls(const Snapshot& snap_base, const ViewContext&) {
  if (!dynamic_cast<const SvdSnapshot*>(&snap_base)) return;
  fit_text_disabled("View");
  ImGui::Checkbox("residual panel A - A_K", &show_residual);
  ImGui::Checkbox("singular values on a log axis", &log_spectrum);
  ImGui::Checkbox("A_K on A's value range", &same_scale);
  tooltip_text("On: A_K uses the colour range of A, so over- and undershoots saturate. Off: A_K uses its own "
               "range (the first layers of a positive image can be faint otherwise).");
}

void SvdLowRankView::draw(const Snapshot& snap_base, const ViewContext&, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const SvdSnapshot*>(&snap_base);
  if (!sp || !sp->svd || !sp->approx) {
    fit_text_disabled("No SVD to show yet.");
    return;
  }
  const SvdSnapshot& s = *sp;
  const SvdFactors& f = *s.svd;
  const int m = f.m(), n = f.n(), r = f.r(), k = s.rank;
  refresh(s.svd, k);
  const double fro = s.metrics[SvdLowRank::kMetricFrobenius];
  const double spec = s.metrics[SvdLowRank::kMetricSpectral];

  // ---- caption and the rank slider.
  fit_text("A: %s.  Rank K = %d of r = %d.", f.what.c_str(), k, r);
  tooltip_text("A = U Sigma V^T = sum_i sigma_i u_i v_i^T (SVD). The rank-K approximation keeps the first K "
               "rank-one layers: A_K = sum_{i<=K} sigma_i u_i v_i^T. A step adds the next layer.");
  if (!s.message.empty()) {
    same_line_if_fits(ImGui::CalcTextSize(s.message.c_str()).x, ImGui::GetFontSize());
    ImGui::PushTextWrapPos(0.0f);
    fit_text_colored(colour_vec(colors().warning), "%s", s.message.c_str());
    ImGui::PopTextWrapPos();
  }
  slider_rank_ = k;
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.45f, ImGui::GetFontSize() * 30));
  int want = k;
  if (ImGui::SliderInt("rank K##svd_rank", &want, 0, r, "K = %d") && want != k) {
    ViewIntent vi;
    vi.intent.kind = "set_rank";
    vi.intent.index = std::clamp(want, 0, r);
    out.push_back(vi);
    slider_rank_ = vi.intent.index;
  }
  slider_min_ = ImGui::GetItemRectMin();
  slider_max_ = ImGui::GetItemRectMax();
  tooltip_text("Jump to rank K: A_K = U_K Sigma_K V_K^T is rebuilt directly (Step adds one layer at a time).");
  const double stored = static_cast<double>(k) * (m + n + 1);
  char storage[128];
  std::snprintf(storage, sizeof storage, "storage K(m+n+1) = %.0f numbers = %.1f%% of m n", stored,
                100.0 * stored / (static_cast<double>(m) * n));
  same_line_if_fits(ImGui::CalcTextSize(storage).x, ImGui::GetFontSize() * 1.5f);  // wraps in a narrow window
  fit_text_unformatted(storage);
  tooltip_text("A_K needs K left vectors (m), K right vectors (n) and K singular values, against m n entries of A.");

  // ---- the error read-out: measured beside Eckart-Young.
  // Stretched columns: all four stay on screen in a narrow window (each cell's tooltip has the full text).
  if (ImGui::BeginTable("##svd_errors", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("error of A_K");
    ImGui::TableSetupColumn("measured from A - A_K");
    ImGui::TableSetupColumn("Eckart-Young");
    ImGui::TableSetupColumn("relative");
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    fit_text_unformatted("Frobenius ||A - A_K||_F");
    tooltip_text("||M||_F = sqrt(sum_ij m_ij^2). Eckart-Young: ||A - A_K||_F = sqrt(sum_{i>K} sigma_i^2), the "
                 "smallest over all matrices of rank <= K.");
    ImGui::TableNextColumn();
    fit_text_unformatted(fmt(fro).c_str());
    ImGui::TableNextColumn();
    fit_text("sqrt(sum_{i>K} sigma_i^2) = %s", fmt(s.metrics[SvdLowRank::kMetricFrobeniusEY]).c_str());
    ImGui::TableNextColumn();
    fit_text("%.4g of ||A||_F", s.metrics[SvdLowRank::kMetricRelative]);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    fit_text_unformatted("spectral ||A - A_K||_2");
    tooltip_text("||M||_2 = max_{|x|=1} ||M x|| = sigma_1(M), measured by Lanczos bidiagonalisation of the "
                 "residual. Eckart-Young: ||A - A_K||_2 = sigma_{K+1}.");
    ImGui::TableNextColumn();
    fit_text_unformatted(fmt(spec).c_str());
    ImGui::TableNextColumn();
    fit_text("sigma_{K+1} = %s", fmt(s.metrics[SvdLowRank::kMetricSigmaNext]).c_str());
    ImGui::TableNextColumn();
    fit_text("%.4g of sigma_1", r > 0 && f.sigma[0] > 0 ? spec / f.sigma[0] : 0.0);
    ImGui::EndTable();
  }

  // ---- layout: the matrix panels in a 2 x 2 grid on the left, spectrum and errors stacked on the right.
  // A short window (1280 x 720) keeps every panel readable and scrolls the body instead.
  const ImVec2 full = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing(), spacing_y = ImGui::GetStyle().ItemSpacing.y;
  const float need = 2 * std::max(kMinPlotArea + 16.0f + line, min_plot_height() + line) + spacing_y;
  const bool body_scrolls = need > full.y + 0.5f;
  if (body_scrolls) ImGui::BeginChild("##svd_body", full, false);
  const ImVec2 avail = body_scrolls ? ImVec2(full.x - ImGui::GetStyle().ScrollbarSize, need) : full;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float grid_w = std::floor(avail.x * 0.5f);
  const float cell_h = (avail.y - ImGui::GetStyle().ItemSpacing.y) * 0.5f;
  float cell_w = (grid_w - spacing) * 0.5f;
  if (f.is_image)  // square-ish pictures: no wider than their height needs
    cell_w = std::min(cell_w, (cell_h - ImGui::GetTextLineHeightWithSpacing()) * n / std::max(1, m) + 8.0f +
                                  ImGui::GetFontSize() * 4.5f);  // + the colour bar
  const ImVec2 psize(cell_w, cell_h);
  if (cached_approx_ != s.approx) {
    // The snapshot's float matrix is column-major (Eigen): copy row-major for the panels.
    cached_approx_ = s.approx;
    row_major(*s.approx, ak_);
    resid_.resize(ak_.size());
    for (size_t i = 0; i < ak_.size(); ++i) resid_[i] = a_[i] - ak_[i];
  }
  float ak_min = a_min_, ak_max = a_max_;
  if (!same_scale && !ak_.empty()) {
    const auto mm = std::minmax_element(ak_.begin(), ak_.end());
    ak_min = *mm.first;
    ak_max = *mm.second > *mm.first ? *mm.second : *mm.first + 1.0f;
  }
  ImGui::BeginGroup();
  matrix_panel("A (input)", "The matrix being approximated.", "##svd_a", a_.data(), m, n, f.is_image, a_min_,
               a_max_, psize);
  ImGui::SameLine();
  char title[96];
  std::snprintf(title, sizeof title, "A_K, K = %d", k);
  matrix_panel(title, "A_K = sum_{i<=K} sigma_i u_i v_i^T, the best rank-K approximation (Eckart-Young).",
               "##svd_ak", ak_.data(), m, n, f.is_image, ak_min, ak_max, psize);
  const int li = k >= 1 ? k : 1;
  if (k >= 1)
    std::snprintf(title, sizeof title, "layer %d: sigma_%d u_%d v_%d^T", li, li, li, li);
  else
    std::snprintf(title, sizeof title, "next layer: sigma_1 u_1 v_1^T");
  const float ll = max_abs(layer_);
  matrix_panel(title,
               "The rank-one layer the last step added (an outer product: every row is a multiple of v_K^T, "
               "every column a multiple of u_K). Mid-gray = 0.",
               "##svd_layer", layer_.data(), m, n, f.is_image, -ll, ll, psize);
  if (show_residual) {
    ImGui::SameLine();
    const float rl = std::max(max_abs(resid_), 1e-12f);
    matrix_panel("residual A - A_K", "What the first K layers miss; its norms are the errors above. Mid-gray = 0.",
                 "##svd_resid", resid_.data(), m, n, f.is_image, -rl, rl, psize);
  }
  ImGui::EndGroup();
  ImGui::SameLine();

  // ---- spectrum and error curves, stacked.
  const ImVec2 rest = ImGui::GetContentRegionAvail();
  const float bw = rest.x;
  const float bh = std::max(min_plot_height() + line, ((body_scrolls ? avail.y : rest.y) - spacing_y) * 0.5f);
  ImGui::BeginGroup();
  fit_text_unformatted("singular values sigma_i (kept | discarded)");
  tooltip_text("sigma_1 >= sigma_2 >= ... >= 0. A_K keeps sigma_1..sigma_K (coloured); the discarded ones (gray) "
               "make up the error: sum_{i>K} sigma_i^2 = ||A - A_K||_F^2. Click a bar to set K to it.");
  if (plot::BeginPlot("##svd_spectrum", ImVec2(bw, bh - ImGui::GetTextLineHeightWithSpacing()), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("index i", "sigma_i", plot::AxisFlags_AutoFit,
                    plot::AxisFlags_AutoFit | (log_spectrum ? plot::AxisFlags_LogScale : 0));
    std::vector<double> kept(static_cast<size_t>(r), NAN), dropped(static_cast<size_t>(r), NAN);
    // On the log axis, values at rounding level (<= 1e-13 sigma_1) are numerically zero: not drawn.
    const double zero = log_spectrum && r > 0 ? 1e-13 * f.sigma[0] : -1.0;
    int zeros = 0;
    for (int i = 0; i < r; ++i) {
      if (f.sigma[i] <= zero) {
        ++zeros;
        continue;
      }
      (i < k ? kept : dropped)[static_cast<size_t>(i)] = f.sigma[i];
    }
    if (zeros > 0) {
      char note[96];
      std::snprintf(note, sizeof note, "%d sigma_i ~ 0 (rank %d)", zeros, r - zeros);
      const plot::Limits lim = plot::GetPlotLimits();
      plot::PlotText(note, 0.5 * (lim.x_min + lim.x_max), lim.y_min, ImVec2(0, -12),
                     colors().text_dim);
    }
    plot::Spec sk;
    sk.color = kept_colour();
    plot::PlotBars("kept (i <= K)", kept.data(), r, 0.8, 1.0, sk);
    plot::Spec sd;
    sd.color = dropped_colour();
    plot::PlotBars("discarded (i > K)", dropped.data(), r, 0.8, 1.0, sd);
    spectrum_min_ = plot::GetPlotPos();
    spectrum_max_ = ImVec2(spectrum_min_.x + plot::GetPlotSize().x, spectrum_min_.y + plot::GetPlotSize().y);
    if (plot::IsPlotClicked(0)) {
      const int want_k = std::clamp(static_cast<int>(std::lround(plot::GetPlotMousePos().x)), 0, r);
      if (want_k != k) {
        ViewIntent vi;
        vi.intent.kind = "set_rank";
        vi.intent.index = want_k;
        out.push_back(vi);
      }
    }
    plot::EndPlot();
  }
  fit_text_unformatted("error against K: Eckart-Young (lines), measured (dots)");
  tooltip_text("Lines: sqrt(sum_{i>K} sigma_i^2) and sigma_{K+1} for every K. Dots: ||A - A_K||_F and "
               "||A - A_K||_2 measured from the residual at the ranks computed in this run. They coincide: "
               "Eckart-Young.");
  if (plot::BeginPlot("##svd_errors_k", ImVec2(bw, bh - ImGui::GetTextLineHeightWithSpacing()), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    // x follows the ranks computed so far (the measured dots), at least 0..16.
    double k_hi = 16.0;
    for (const std::vector<double>& row : s.table)
      if (!row.empty()) k_hi = std::max(k_hi, 2.0 * row[0] + 4.0);
    k_hi = std::min<double>(k_hi, r);
    // y: the positive values shown within that K range (log axis), with a margin.
    double y_lo = INFINITY, y_hi = 0.0;
    auto take = [&](double v) {
      if (v > 0 && std::isfinite(v)) {
        y_lo = std::min(y_lo, v);
        y_hi = std::max(y_hi, v);
      }
    };
    for (int kk = 0; kk <= static_cast<int>(k_hi); ++kk) {
      take(ey_frob_[static_cast<size_t>(kk)]);
      take(ey_spec_[static_cast<size_t>(kk)]);
    }
    for (const std::vector<double>& row : s.table)
      if (row.size() >= 3 && row[0] <= k_hi) take(row[1]), take(row[2]);
    if (!(y_hi > 0)) y_lo = 0.1, y_hi = 10.0;
    plot::SetupAxes("rank K", "error", 0, plot::AxisFlags_LogScale);
    plot::SetupAxesLimits(0, std::max(1.0, k_hi), y_lo / 1.6, y_hi * 1.6, plot::Cond::Always);
    plot::Spec lf;
    lf.color = fro_colour();
    lf.line_weight = 2.0f;
    plot::PlotLine("sqrt(sum_{i>K} sigma_i^2)", ks_.data(), ey_frob_.data(), r + 1, lf);
    plot::Spec ls;
    ls.color = spec_colour();
    ls.line_weight = 2.0f;
    ls.line_style = plot::LineStyle::Dashed;
    plot::PlotLine("sigma_{K+1}", ks_.data(), ey_spec_.data(), r + 1, ls);
    std::vector<double> tk, tf, ts;
    for (const std::vector<double>& row : s.table) {
      if (row.size() < 3) continue;
      tk.push_back(row[0]);
      tf.push_back(row[1]);
      ts.push_back(row[2]);
    }
    plot::Spec mf;
    mf.color = fro_colour();
    mf.marker = plot::Marker::Circle;
    mf.marker_size = 3.5f;
    plot::PlotScatter("measured ||A - A_K||_F", tk.data(), tf.data(), static_cast<int>(tk.size()), mf);
    plot::Spec ms;
    ms.color = spec_colour();
    ms.marker = plot::Marker::Diamond;
    ms.marker_size = 3.5f;
    plot::PlotScatter("measured ||A - A_K||_2", tk.data(), ts.data(), static_cast<int>(tk.size()), ms);
    // The current K.
    plot::PlotGuideX("##current_k", k, colors().guide);
    plot::EndPlot();
  }
  ImGui::EndGroup();
  if (body_scrolls) ImGui::EndChild();
}

CILAB_REGISTER_VIEW(SvdLowRank, SvdLowRankView);

}  // namespace cilab
