#include "views/svd/shrinkage_view.h"

#include "algorithms/linalg/spectral.h"
#include "algorithms/svd/shrinkage.h"
#include "views/common/matrix_panel.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

ImU32 soft_colour() { return plot::GetColormapColor(0); }
ImU32 hard_colour() { return plot::GetColormapColor(1); }
ImU32 input_colour() { return colors().neutral; }

constexpr const char* kSoftHelp =
    "Soft thresholding: S_tau(A) = U diag((sigma_i - tau)_+) V^T. Every singular value is lowered by tau; those "
    "below tau vanish. It is the proximal operator of the nuclear norm: S_tau(A) = argmin_B 1/2 ||A - B||_F^2 + "
    "tau ||B||_* (the shrink step of singular value thresholding).";
constexpr const char* kHardHelp =
    "Hard truncation: [A]_k = U_k Sigma_k V_k^T keeps sigma_1..sigma_k unchanged and drops the rest. Eckart-Young: "
    "it is the best rank-k approximation, ||A - [A]_k||_F = sqrt(sum_{i>k} sigma_i^2).";

// A number in at most 4 significant digits (read-outs; tooltips and the CLI give more).
std::string g4(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// A panel's caption under the picture: "nuclear 514.2, error 36.77".
std::string caption(double nuclear, double error) { return "nuclear " + g4(nuclear) + ", error " + g4(error); }

// A vertical or horizontal guide line across the plot, named by a label at its end
// (no legend entry: the legend stays small in a small plot).
void guide_line(const char* id, const char* label, ImU32 colour, bool vertical, double at) {
  plot::Spec sp;
  sp.color = colour;
  sp.flags = plot::ItemFlags_NoFit | plot::ItemFlags_NoLegend;
  if (!plot::BeginItem(id, sp)) return;
  const plot::Limits lim = plot::GetPlotLimits();
  const ImVec2 a = vertical ? plot::PlotToPixels(at, lim.y_min) : plot::PlotToPixels(lim.x_min, at);
  const ImVec2 b = vertical ? plot::PlotToPixels(at, lim.y_max) : plot::PlotToPixels(lim.x_max, at);
  plot::GetPlotDrawList()->AddLine(a, b, colour, 2.0f);
  plot::EndItem();
  // The label just inside the plot: at the top of a vertical line, at the left end of a horizontal one
  // (the legend sits top right).
  const float em = ImGui::GetFontSize();
  if (vertical)
    plot::PlotText(label, at, lim.y_max, ImVec2(0.6f * em, 0.7f * em), colour);
  else
    plot::PlotText(label, lim.x_min, at, ImVec2(1.2f * em, -0.7f * em), colour);
}

}  // namespace

void ShrinkageView::on_reset() {
  cached_factors_ = nullptr;
  cached_soft_ = cached_hard_ = nullptr;
  sent_tau_ = -1.0;
  sent_k_ = -1;
}

void ShrinkageView::refresh(const ShrinkageSnapshot& s) {
  const SvdFactors& f = *s.svd;
  const int m = f.m(), n = f.n(), r = f.r();
  if (s.svd != cached_factors_) {
    cached_factors_ = s.svd;
    cached_soft_ = cached_hard_ = nullptr;
    row_major(f.a.cast<float>(), a_);
    a_min_ = static_cast<float>(f.a.minCoeff());
    a_max_ = static_cast<float>(f.a.maxCoeff());
    if (!(a_max_ > a_min_)) a_max_ = a_min_ + 1.0f;
    // Error against rank R = 0..r: hard = Eckart-Young; soft at the smallest tau of rank R,
    // tau = sigma_{R+1}: sqrt(R sigma_{R+1}^2 + sum_{i>R} sigma_i^2).
    ranks_.resize(static_cast<size_t>(r) + 1);
    hard_curve_.resize(ranks_.size());
    soft_curve_.resize(ranks_.size());
    for (int k = 0; k <= r; ++k) {
      ranks_[static_cast<size_t>(k)] = k;
      hard_curve_[static_cast<size_t>(k)] = f.eckart_young_frobenius(k);
      soft_curve_[static_cast<size_t>(k)] = soft_threshold_error(f.sigma, f.sigma_next(k));
    }
    index_.resize(static_cast<size_t>(r));
    sigma_.resize(static_cast<size_t>(r));
    for (int i = 0; i < r; ++i) {
      index_[static_cast<size_t>(i)] = i + 1;
      sigma_[static_cast<size_t>(i)] = f.sigma[i];
    }
  }
  if (s.soft != cached_soft_ || s.hard != cached_hard_) {
    if (s.soft != cached_soft_) row_major(*s.soft, soft_);
    if (s.hard != cached_hard_) row_major(*s.hard, hard_);
    cached_soft_ = s.soft;
    cached_hard_ = s.hard;
    diff_.resize(static_cast<size_t>(m) * n);
    for (size_t i = 0; i < diff_.size(); ++i) diff_[i] = soft_[i] - hard_[i];
  }
}

void ShrinkageView::draw_controls(const Snapshot& snap, const ViewContext&) {
  if (!dynamic_cast<const ShrinkageSnapshot*>(&snap)) return;
  fit_text_disabled("View");
  ImGui::Checkbox("spectrum on log axes", &log_spectrum);
  ImGui::Checkbox("difference panel S_tau(A) - [A]_k", &show_difference);
  ImGui::Checkbox("reconstructions on A's value range", &same_scale);
  tooltip_text("On: S_tau(A) and [A]_k use the colour range of A, so the contrast soft thresholding takes away "
               "shows (every kept layer is shrunk by tau). Off: each uses its own range.");
}

void ShrinkageView::draw(const Snapshot& snap_base, const ViewContext&, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const ShrinkageSnapshot*>(&snap_base);
  if (!sp || !sp->svd || !sp->soft || !sp->hard) {
    fit_text_disabled("No SVD to show yet.");
    return;
  }
  const ShrinkageSnapshot& s = *sp;
  const SvdFactors& f = *s.svd;
  const int m = f.m(), n = f.n(), r = f.r();
  refresh(s);
  const std::vector<double>& mt = s.metrics;
  const double sigma1 = mt[Shrinkage::kMetricSigma1];
  const int rank_a = rank_above(f.sigma, rank_tolerance(f.sigma, m, n));

  // ---- the input.
  fit_text("A: %s.", f.what.c_str());
  tooltip_text("A = U diag(sigma) V^T (SVD, computed once). Both operators keep U and V and change only the "
               "singular values.");
  char line[256];
  std::snprintf(line, sizeof line, "sigma_1 = %.4g   ||A||_* = %.4g   ||A||_F = %.4g   rank A = %d of r = %d", sigma1,
                mt[Shrinkage::kMetricNuclear], f.frobenius, rank_a, r);
  same_line_if_fits(ImGui::CalcTextSize(line).x, ImGui::GetFontSize());
  fit_text_unformatted(line);
  tooltip_text("sigma_1 = ||A||_2 (tau >= sigma_1 shrinks A to 0); ||A||_* = sum_i sigma_i, the nuclear norm; "
               "||A||_F = sqrt(sum_i sigma_i^2); rank A counts sigma_i > max(m, n) eps sigma_1 (numpy's "
               "matrix_rank tolerance).");
  if (!s.message.empty()) {
    same_line_if_fits(ImGui::CalcTextSize(s.message.c_str()).x, ImGui::GetFontSize());
    ImGui::PushTextWrapPos(0.0f);
    fit_text_colored(colour_vec(colors().warning), "%s", s.message.c_str());
    ImGui::PopTextWrapPos();
  }

  // ---- the two sliders (SetParam: the parameter panel follows) and the match buttons.
  const float slider_w = std::min(ImGui::GetContentRegionAvail().x * 0.3f, ImGui::GetFontSize() * 18);
  double tau = s.tau;
  ImGui::SetNextItemWidth(slider_w);
  const double tau_hi = std::max(sigma1 * 1.1, 1e-12);
  if (real_slider("tau (soft)##shrink_tau", &tau, 0.0, std::max(tau_hi, s.tau), "tau = %.4g",
                  ImGuiSliderFlags_Logarithmic, tau_edit_) &&
      tau != s.tau && tau != sent_tau_) {
    out.push_back(ViewIntent::set_param("tau", tau));
    sent_tau_ = tau;
  }
  tooltip_text("The soft threshold tau (log scale up to 1.1 sigma_1): S_tau(A) = U diag((sigma_i - tau)_+) V^T. "
               "Ctrl+click to type a value. Click in the spectrum to put tau there.");
  ImGui::SameLine();
  char label[64];
  std::snprintf(label, sizeof label, "tau = sigma_%d##match_tau", s.k + 1);
  ImGui::BeginDisabled(s.k >= r);
  if (ImGui::Button(label)) out.push_back(ViewIntent::set_param("tau", f.sigma_next(s.k)));
  ImGui::EndDisabled();
  tooltip_text("Set tau = sigma_{k+1}: the smallest tau whose S_tau(A) has rank k, the rank of [A]_k. Then both "
               "have the same rank: compare their errors and nuclear norms.");
  same_line_if_fits(slider_w + ImGui::CalcTextSize("k (hard)").x + 2 * ImGui::GetStyle().ItemInnerSpacing.x,
                    ImGui::GetFontSize() * 1.5f);
  int k = s.k;
  ImGui::SetNextItemWidth(slider_w);
  int_slider("k (hard)##shrink_k", &k, 0, r, 0, k_edit_);  // k follows a drag: sent as it moves
  if (k != s.k && k != sent_k_) {
    out.push_back(ViewIntent::set_param("k", k));
    sent_k_ = k;
  }
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    fit_text_unformatted("The hard truncation rank k: [A]_k = U_k Sigma_k V_k^T keeps sigma_1..sigma_k.");
    fit_text_disabled("%s", int_slider_help());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  const int soft_rank = static_cast<int>(mt[Shrinkage::kMetricSoftRank]);
  std::snprintf(label, sizeof label, "k = rank S_tau = %d##match_k", soft_rank);
  same_line_if_fits(ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button(label)) out.push_back(ViewIntent::set_param("k", soft_rank));
  tooltip_text("Set k to the rank of S_tau(A), #{i : sigma_i > tau}: same rank, different singular values.");
  if (s.tau == sent_tau_) sent_tau_ = -1.0;  // arrived: a later drag back to it sends again
  if (s.k == sent_k_) sent_k_ = -1;

  // ---- read-outs.
  if (ImGui::BeginTable("##shrink_readout", 6, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("B");
    ImGui::TableSetupColumn("rank");
    ImGui::TableSetupColumn("||B||_*");
    ImGui::TableSetupColumn("||A - B||_F");
    ImGui::TableSetupColumn("from sigma");
    ImGui::TableSetupColumn("prox objective");
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const char* header_help[6] = {
        "The operator applied to A.",
        "rank B: the number of singular values of B above the rounding tolerance max(m, n) eps sigma_1.",
        "Nuclear norm ||B||_* = sum of B's singular values: sum_i (sigma_i - tau)_+ (soft), sum_{i<=k} sigma_i "
        "(hard).",
        "||A - B||_F measured from the entries of A - B.",
        "The same error from the spectrum alone (U and V are orthogonal): sqrt(sum_i min(sigma_i, tau)^2) (soft), "
        "sqrt(sum_{i>k} sigma_i^2) (hard, Eckart-Young).",
        "1/2 ||A - B||_F^2 + tau ||B||_*. S_tau(A) minimises it over all B (the prox of tau ||.||_*), so the soft "
        "row is never larger than the hard one."};
    for (int c = 0; c < 6; ++c) {
      ImGui::TableSetColumnIndex(c);
      ImGui::TableHeader(ImGui::TableGetColumnName(c));
      tooltip_text(header_help[c]);
    }
    const struct {
      const char* name;
      const char* help;
      ImU32 colour;
      int rank, nuclear, error, predicted, objective;
    } rows[2] = {
        {"soft S_tau(A)", kSoftHelp, soft_colour(), Shrinkage::kMetricSoftRank, Shrinkage::kMetricSoftNuclear,
         Shrinkage::kMetricSoftError, Shrinkage::kMetricSoftPredicted, Shrinkage::kMetricSoftObjective},
        {"hard [A]_k", kHardHelp, hard_colour(), Shrinkage::kMetricHardRank, Shrinkage::kMetricHardNuclear,
         Shrinkage::kMetricHardError, Shrinkage::kMetricHardPredicted, Shrinkage::kMetricHardObjective},
    };
    for (const auto& row : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      fit_text_colored(legible(row.colour), "%s", row.name);
      tooltip_text(row.help);
      for (int c : {row.rank, row.nuclear, row.error, row.predicted, row.objective}) {
        ImGui::TableNextColumn();
        fit_text_unformatted(g4(mt[static_cast<size_t>(c)]).c_str());
        tooltip_text(fmt_g(mt[static_cast<size_t>(c)]).c_str());
      }
    }
    ImGui::EndTable();
  }

  // ---- layout: the 2 x 2 matrix grid on the left, spectrum and errors stacked on the right.
  const ImVec2 full = ImGui::GetContentRegionAvail();
  const float text_line = ImGui::GetTextLineHeightWithSpacing(), spacing_y = ImGui::GetStyle().ItemSpacing.y;
  const float need = 2 * std::max(kMinPlotArea + 16.0f + 2 * text_line, min_plot_height() + text_line) + spacing_y;
  const bool body_scrolls = need > full.y + 0.5f;
  if (body_scrolls) ImGui::BeginChild("##shrink_body", full, false);
  const ImVec2 avail = body_scrolls ? ImVec2(full.x - ImGui::GetStyle().ScrollbarSize, need) : full;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float grid_w = std::floor(avail.x * 0.5f);
  const float cell_h = (avail.y - spacing_y) * 0.5f;
  float cell_w = (grid_w - spacing) * 0.5f;
  if (f.is_image)  // square-ish pictures: no wider than their height needs (+ the colour bar)
    cell_w = std::min(cell_w, (cell_h - 2 * text_line) * n / std::max(1, m) + 8.0f + ImGui::GetFontSize() * 4.5f);
  const ImVec2 psize(cell_w, cell_h - text_line);  // the caption line below each panel
  auto range_of = [&](const std::vector<float>& v, float* lo, float* hi) {
    *lo = a_min_;
    *hi = a_max_;
    if (same_scale || v.empty()) return;
    const auto mm = std::minmax_element(v.begin(), v.end());
    *lo = *mm.first;
    *hi = *mm.second > *mm.first ? *mm.second : *mm.first + 1.0f;
  };
  auto captioned = [&](const char* title, const char* help, const char* id, const std::vector<float>& v, float lo,
                       float hi, const std::string& cap, ImU32 colour) {
    ImGui::BeginGroup();
    matrix_panel(title, help, id, v.data(), m, n, f.is_image, lo, hi, psize);
    fit_text_colored(legible(colour), "%s", cap.c_str());
    tooltip_text(help);
    ImGui::EndGroup();
  };
  ImGui::BeginGroup();
  char title[96];
  std::snprintf(title, sizeof title, "A (input): rank %d", rank_a);
  captioned(title, "The matrix being thresholded.", "##shrink_a", a_, a_min_, a_max_,
            "nuclear " + g4(mt[Shrinkage::kMetricNuclear]) + ", ||A||_F " + g4(f.frobenius), colors().text_dim);
  ImGui::SameLine();
  float lo, hi;
  std::snprintf(title, sizeof title, "S_tau(A), tau = %.4g: rank %.0f", s.tau, mt[Shrinkage::kMetricSoftRank]);
  range_of(soft_, &lo, &hi);
  captioned(title, kSoftHelp, "##shrink_soft", soft_, lo, hi,
            caption(mt[Shrinkage::kMetricSoftNuclear], mt[Shrinkage::kMetricSoftError]),
            soft_colour());
  std::snprintf(title, sizeof title, "[A]_k, k = %d: rank %.0f", s.k, mt[Shrinkage::kMetricHardRank]);
  range_of(hard_, &lo, &hi);
  captioned(title, kHardHelp, "##shrink_hard", hard_, lo, hi,
            caption(mt[Shrinkage::kMetricHardNuclear], mt[Shrinkage::kMetricHardError]),
            hard_colour());
  if (show_difference) {
    ImGui::SameLine();
    const float dl = std::max(max_abs(diff_), 1e-12f);
    char cap[96];
    std::snprintf(cap, sizeof cap, "max |entry| %.4g", static_cast<double>(max_abs(diff_)));
    captioned("S_tau(A) - [A]_k",
              "The soft minus the hard reconstruction (mid-gray = 0): where shrinking every kept layer by tau, "
              "and keeping a different number of layers, changes the picture.",
              "##shrink_diff", diff_, -dl, dl, cap, colors().text_dim);
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  // No room left beside the grid (its captions made it wider: a narrow Compare half at a large UI
  // scale): the plots go under it, the whole width.
  if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 10.0f) new_row_after_same_line();

  // ---- spectrum and the error against the rank, stacked.
  const ImVec2 rest = ImGui::GetContentRegionAvail();
  const float bw = rest.x;
  const float bh = std::max(min_plot_height() + text_line, ((body_scrolls ? avail.y : rest.y) - spacing_y) * 0.5f);
  ImGui::BeginGroup();
  fit_text_unformatted("spectrum of A, S_tau(A) and [A]_k");
  tooltip_text("Log axes by default (the view's options). Grey: sigma_i of A. Soft: (sigma_i - tau)_+, every value lowered by tau, those under the tau line "
               "vanish. Hard: sigma_1..sigma_k unchanged, the rest dropped (right of the k line). Click to set tau "
               "to the height clicked.");
  if (plot::BeginPlot("##shrink_spectrum", ImVec2(bw, bh - text_line), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("index i", "singular value",
                    plot::AxisFlags_AutoFit | (log_spectrum ? plot::AxisFlags_LogScale : 0),
                    plot::AxisFlags_AutoFit | (log_spectrum ? plot::AxisFlags_LogScale : 0));
    // On the log axis, zeros and rounding-level values (<= 1e-13 sigma_1) are not drawn.
    const double zero = log_spectrum ? 1e-13 * sigma1 : -1.0;
    std::vector<double> a_sig(sigma_.size()), soft_sig(sigma_.size()), hard_sig(sigma_.size());
    for (size_t i = 0; i < sigma_.size(); ++i) {
      const double sg = sigma_[i], so = std::max(sg - s.tau, 0.0), ha = static_cast<int>(i) < s.k ? sg : 0.0;
      a_sig[i] = sg > zero ? sg : NAN;
      soft_sig[i] = so > zero ? so : NAN;
      hard_sig[i] = ha > zero ? ha : NAN;
    }
    plot::Spec sh;
    sh.color = hard_colour();
    sh.line_weight = 4.0f;
    plot::PlotLine("hard", index_.data(), hard_sig.data(), r, sh);
    plot::Spec sa;
    sa.color = input_colour();
    sa.line_weight = 1.5f;
    plot::PlotLine("A", index_.data(), a_sig.data(), r, sa);
    plot::Spec ss;
    ss.color = soft_colour();
    ss.line_weight = 2.0f;
    plot::PlotLine("soft", index_.data(), soft_sig.data(), r, ss);
    if (!log_spectrum || s.tau > 0) guide_line("##tau", "tau", soft_colour(), false, s.tau);
    guide_line("##k", "k", hard_colour(), true, s.k + 0.5);
    spectrum_min_ = plot::GetPlotPos();
    spectrum_max_ = ImVec2(spectrum_min_.x + plot::GetPlotSize().x, spectrum_min_.y + plot::GetPlotSize().y);
    if (plot::IsPlotClicked(0)) {
      const double y = plot::GetPlotMousePos().y;
      if (std::isfinite(y)) out.push_back(ViewIntent::set_param("tau", std::clamp(y, 0.0, tau_hi)));
    }
    plot::EndPlot();
  }
  fit_text_unformatted("error ||A - B||_F against rank B");
  tooltip_text("Hard: sqrt(sum_{i>k} sigma_i^2) for every k, the smallest error of any rank-k matrix "
               "(Eckart-Young). Soft: S_tau(A) at tau = sigma_{R+1}, the smallest tau of rank R: error "
               "sqrt(R sigma_{R+1}^2 + sum_{i>R} sigma_i^2), above the hard curve - soft pays in error for the "
               "smaller nuclear norm. Dots: the current S_tau(A) and [A]_k.");
  if (plot::BeginPlot("##shrink_error", ImVec2(bw, bh - text_line), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    const double x_hi = std::min<double>(
        r, std::max(16.0, 2.0 * std::max(mt[Shrinkage::kMetricSoftRank], mt[Shrinkage::kMetricHardRank]) + 4.0));
    double y_lo = INFINITY, y_hi = 0.0;
    for (int kk = 0; kk <= static_cast<int>(x_hi); ++kk)
      for (double v : {hard_curve_[static_cast<size_t>(kk)], soft_curve_[static_cast<size_t>(kk)]})
        if (v > 0 && std::isfinite(v)) y_lo = std::min(y_lo, v), y_hi = std::max(y_hi, v);
    if (!(y_hi > 0)) y_lo = 0.1, y_hi = 10.0;
    plot::SetupAxes("rank", "||A - B||_F", 0, plot::AxisFlags_LogScale);
    plot::SetupAxesLimits(0, std::max(1.0, x_hi), y_lo / 1.6, y_hi * 1.6, plot::Cond::Always);
    plot::Spec lh;
    lh.color = hard_colour();
    lh.line_weight = 2.0f;
    plot::PlotLine("hard", ranks_.data(), hard_curve_.data(), r + 1, lh);
    plot::Spec ls;
    ls.color = soft_colour();
    ls.line_weight = 2.0f;
    ls.line_style = plot::LineStyle::Dashed;
    plot::PlotLine("soft", ranks_.data(), soft_curve_.data(), r + 1, ls);
    const double cx[2] = {mt[Shrinkage::kMetricSoftRank], mt[Shrinkage::kMetricHardRank]};
    const double cy[2] = {mt[Shrinkage::kMetricSoftError], mt[Shrinkage::kMetricHardError]};
    plot::Spec ms;
    ms.color = soft_colour();
    ms.marker = plot::Marker::Circle;
    ms.marker_size = 5.0f;
    ms.flags = plot::ItemFlags_NoLegend;
    plot::PlotScatter("##soft_now", &cx[0], &cy[0], 1, ms);
    plot::Spec mh = ms;
    mh.color = hard_colour();
    mh.marker = plot::Marker::Diamond;
    plot::PlotScatter("##hard_now", &cx[1], &cy[1], 1, mh);
    plot::EndPlot();
  }
  ImGui::EndGroup();
  if (body_scrolls) ImGui::EndChild();
}

CILAB_REGISTER_VIEW(Shrinkage, ShrinkageView);

}  // namespace cilab
