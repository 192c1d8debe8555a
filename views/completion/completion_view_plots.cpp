// The completion view's Spectrum, Curves and Embeddings tabs (see completion_view.h).
#include "views/completion/completion_view.h"

#include "algorithms/completion/completion.h"
#include "algorithms/core/observed_matrix.h"
#include "views/common/class_key.h"
#include "views/common/curves.h"
#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

// A horizontal guide at y over the whole plot width (in the legend as `label`).
void horizontal_guide(const char* label, double y, ImU32 colour) {
  plot::Spec sp;
  sp.color = colour;
  sp.line_weight = 2.0f;
  sp.line_style = plot::LineStyle::Dashed;
  sp.flags = plot::ItemFlags_NoFit;
  if (plot::BeginItem(label, sp)) {
    const plot::Limits lim = plot::GetPlotLimits();
    plot::GetPlotDrawList()->AddLine(plot::PlotToPixels(lim.x_min, y), plot::PlotToPixels(lim.x_max, y), colour, 2.0f);
    plot::EndItem();
  }
}

bool is_method(const CompletionSnapshot& s, Completion::Method m) { return s.method == static_cast<int>(m); }

}  // namespace

void CompletionView::draw_spectrum(const CompletionSnapshot& s, ImVec2 size) {
  const bool svt = is_method(s, Completion::Method::Svt);
  const bool svd = is_method(s, Completion::Method::SvdImpute);
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float w = svt ? (size.x - spacing) * 0.6f : size.x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(), size.y - 2 * line);
  std::vector<double> iterate;
  if (s.estimate) iterate.assign(s.estimate->s.data(), s.estimate->s.data() + s.estimate->s.size());
  const std::vector<double>& before = s.spectrum_before;

  ImGui::BeginGroup();
  fit_text_unformatted(svt ? "singular values: Y (thresholded) and the iterate B = shrink_tau(Y)"
                         : svd ? "singular values: A + eta Pi_Omega(Z - A) (truncated) and the iterate [.]_k"
                               : "singular values of the iterate A = U V^T");
  tooltip_text(svt ? "shrink_tau(Y) = U diag((sigma_i - tau)_+) V^T: every singular value of Y drops by tau and those "
                     "below tau vanish, so the rank of the iterate is #{sigma_i(Y) > tau}. Normalised units (Z)."
               : svd ? "[M]_k = U_k diag(sigma_1..sigma_k) V_k^T keeps the k largest singular values of "
                       "M = A + eta Pi_Omega(Z - A) and drops the rest (Eckart-Young). Normalised units (Z)."
                     : "A = U V^T has rank at most k: its singular values past k are 0. Normalised units (Z).");
  if (plot::BeginPlot("##cmp_spectrum", ImVec2(w, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::SouthEast);  // a falling spectrum leaves that corner free
    plot::SetupAxes("index i", "sigma_i", 0, log_spectrum ? plot::AxisFlags_LogScale : 0);
    // x: every value shown and the k line; y: the positive values shown and tau.
    const size_t shown = std::max(iterate.size(), before.size());
    double y_lo = INFINITY, y_hi = 0;
    const std::vector<double>* const lists[] = {&iterate, &before};
    for (const std::vector<double>* v : lists)
      for (double x : *v)
        if (x > 1e-12 * v->front() && std::isfinite(x)) {  // rounding-level values are not drawn on a log axis
          y_lo = std::min(y_lo, x);
          y_hi = std::max(y_hi, x);
        }
    if (svt && s.tau > 0) {
      y_lo = std::min(y_lo, s.tau);
      y_hi = std::max(y_hi, s.tau);
    }
    if (!(y_hi > 0)) {
      y_lo = 0.1;
      y_hi = 10;
    }
    plot::SetupAxesLimits(0.3, std::max<double>(static_cast<double>(shown), svt ? 1.0 : s.k + 1.0) + 0.7,
                          log_spectrum ? y_lo / 1.6 : 0.0, log_spectrum ? y_hi * 1.6 : y_hi * 1.1, plot::Cond::Always);
    plot::Spec bars;
    bars.color = plot::GetColormapColor(0);
    plot::PlotBars(svt ? "sigma_i(B)" : "sigma_i(A)", iterate.data(),
                   static_cast<int>(iterate.size()), 0.7, 1.0, bars);
    if (!before.empty()) {
      plot::Spec ln;
      ln.color = plot::GetColormapColor(1);
      ln.marker = plot::Marker::Circle;
      ln.marker_size = 2.5f;
      plot::PlotLine(svt ? "sigma_i(Y)" : "sigma_i before [.]_k", before.data(),
                     static_cast<int>(before.size()), 1.0, 1.0, ln);
    }
    if (svt) {
      char label[64];
      std::snprintf(label, sizeof label, "tau = %.4g", s.tau);
      horizontal_guide(label, s.tau, colors().accent);
    } else {
      plot::PlotGuideX("##k_line", s.k + 0.5, colors().accent, 1.5f);
      const plot::Limits lim = plot::GetPlotLimits();
      char label[32];
      std::snprintf(label, sizeof label, "k = %d", s.k);
      plot::PlotText(label, s.k + 0.5, lim.y_max, ImVec2(ImGui::GetFontSize() * 1.8f, ImGui::GetFontSize()),
                     colors().accent);
    }
    if (iterate.empty() && before.empty()) {
      const plot::Limits lim = plot::GetPlotLimits();
      plot::PlotText("no singular values yet (A = 0: step once)", 0.5 * (lim.x_min + lim.x_max),
                     log_spectrum ? std::sqrt(lim.y_min * lim.y_max) : 0.5 * (lim.y_min + lim.y_max), ImVec2(0, 0),
                     colors().text_dim);
    }
    plot::EndPlot();
  }
  if (svt)
    fit_text_disabled("tau line: shrink_tau keeps sigma_i - tau of the values above it");
  else if (svd)
    fit_text_disabled("k line: [.]_k keeps the values left of it, drops the rest");
  else
    fit_text_disabled("k line: the factorisation's rank; ALS / SGD have no truncation step");
  ImGui::EndGroup();
  if (!svt) return;

  // rank(shrink_tau) against tau, from the current spectrum of Y.
  ImGui::SameLine();
  ImGui::BeginGroup();
  fit_text_unformatted("rank(shrink_tau(Y)) against tau");
  tooltip_text("rank(shrink_tau(Y)) = #{i : sigma_i(Y) > tau}: it can only fall as tau grows (a staircase down at "
               "every sigma_i). The current tau is marked. Only the singular values above tau (and a few more) are "
               "computed, so the curve is exact right of the smallest one shown.");
  const double tau_max = std::max({2.0 * s.tau, before.empty() ? 1.0 : 1.1 * before.front(), 1e-12});
  std::vector<double> taus, ranks;
  rank_staircase(before, tau_max, taus, ranks);
  const bool monotone = spectrum_descending(before);
  if (plot::BeginPlot("##cmp_rank_tau", ImVec2(size.x - w - spacing, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("tau", "rank", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec st;
    st.color = plot::GetColormapColor(2);
    st.line_weight = 2.0f;
    plot::PlotLine("rank(shrink_tau)", taus.data(), ranks.data(), static_cast<int>(taus.size()), st);
    const double r_now = rank_above(before, s.tau);
    plot::Spec cur;
    cur.color = colors().accent;
    cur.marker = plot::Marker::Diamond;
    cur.marker_size = 5.0f;
    char label[64];
    std::snprintf(label, sizeof label, "tau = %.4g: rank %d", s.tau, static_cast<int>(r_now));
    plot::PlotScatter(label, &s.tau, &r_now, 1, cur);
    plot::PlotGuideX("##tau_now", s.tau, colors().accent, 1.5f);
    plot::EndPlot();
  }
  if (monotone)
    fit_text_colored(colour_vec(colors().good), "oracle: non-increasing in tau - holds");
  else
    fit_text_colored(colour_vec(colors().error), "oracle: the spectrum is not sorted - VIOLATED");
  ImGui::EndGroup();
}

void CompletionView::draw_curves(const CompletionSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float w = (size.x - spacing) * 0.5f;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(), size.y - 2 * line);  // title, plot, a caption
  const std::vector<std::vector<double>> none;
  const std::vector<std::vector<double>>& hist = ctx.metric_history ? *ctx.metric_history : none;
  std::vector<double> train_it, train, test_it, test;
  history_series(hist, Completion::kMetricTrainRmse, s.iteration, train_it, train);
  history_series(hist, Completion::kMetricTestRmse, s.iteration, test_it, test);
  const int current = s.iteration;

  ImGui::BeginGroup();
  fit_text_unformatted("RMSE: train (Omega) and held out");
  tooltip_text("RMSE = sqrt(mean (x_ij - x_hat_ij)^2) over the training entries (what the method fits) and over the "
               "held-out entries (what it predicts), in the data's units. A train curve that keeps falling while "
               "the held-out one rises is overfitting: lower k or raise lambda.");
  if (plot::BeginPlot("##cmp_rmse", ImVec2(w, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("iteration", "RMSE", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec a;
    a.color = plot::GetColormapColor(0);
    a.line_weight = 2.0f;
    plot::PlotLine("train_rmse", train_it.data(), train.data(), static_cast<int>(train.size()), a);
    plot::Spec b;
    b.color = plot::GetColormapColor(1);
    b.line_weight = 2.0f;
    plot::PlotLine("test_rmse (held out)", test_it.data(), test.data(), static_cast<int>(test.size()), b);
    plot::PlotGuideX("##now", current, colors().guide, 1.5f);
    plot::EndPlot();
  }
  fit_text("train %s, held out %s", readout_number(s.metrics[Completion::kMetricTrainRmse]).c_str(),
              readout_number(s.metrics[Completion::kMetricTestRmse]).c_str());
  ImGui::EndGroup();
  ImGui::SameLine();

  // The objective, with the oracle's violations.
  const bool als = is_method(s, Completion::Method::Als);
  const bool svd = is_method(s, Completion::Method::SvdImpute);
  const int metric = svd ? Completion::kMetricObservedLoss : Completion::kMetricObjective;
  std::vector<double> ox, oy;
  const size_t stride = std::max<size_t>(1, hist.size() / kMaxCurvePoints);
  for (size_t t = 0; t < hist.size(); t += stride) {
    if (als && t > 0 && stride == 1) {  // l after the V-sweep, between two objectives
      const double half = hist[t][Completion::kMetricHalfObjective];
      if (std::isfinite(half)) {
        ox.push_back(static_cast<double>(t) - 0.5);
        oy.push_back(half);
      }
    }
    ox.push_back(static_cast<double>(t));
    oy.push_back(hist[t][static_cast<size_t>(metric)]);
  }
  ImGui::BeginGroup();
  fit_text_unformatted(svd ? "observed loss 1/2 ||Pi_Omega(Z - A)||^2"
                         : als ? "objective l(U, V) after each half-step"
                               : "objective");
  tooltip_text(svd ? "Singular value projection with eta <= 1 never raises the observed loss: "
                     "A + eta Pi_Omega(Z - A) is at least as close to Z on Omega, and [.]_k is the closest rank-k "
                     "matrix to it. A rise is marked red."
               : als ? "l(U, V) = 1/2 ||Pi_Omega(Z - U V^T)||^2 + lambda/2 (||U||^2 + ||V||^2). Each half-step "
                       "(V-sweep at t - 1/2, U-sweep at t) solves its block exactly, so l never rises. A rise is "
                       "marked red (a live lambda change moves l itself)."
                     : "svt: tau ||B||_* + 1/2 ||B||_F^2 (it need not fall: SVT is dual ascent); sgd: l(U, V) "
                       "after an epoch of noisy mini-batch steps.");
  if (plot::BeginPlot("##cmp_objective", ImVec2(size.x - w - spacing, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("iteration", svd ? "observed loss" : "objective", plot::AxisFlags_AutoFit,
                    plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
    plot::Spec o;
    o.color = plot::GetColormapColor(2);
    o.line_weight = 2.0f;
    if (als) {  // a point per half-step
      o.marker = plot::Marker::Circle;
      o.marker_size = 2.5f;
    }
    plot::PlotLine(svd ? "observed loss" : als ? "l after V- and U-sweeps" : "objective", ox.data(), oy.data(),
                   static_cast<int>(ox.size()), o);
    if (!oracle_.bad_x.empty()) {
      plot::Spec bad;
      bad.color = colors().error;
      bad.marker = plot::Marker::Cross;
      bad.marker_size = 6.0f;
      bad.line_weight = 2.5f;
      plot::PlotScatter("oracle violated", oracle_.bad_x.data(), oracle_.bad_y.data(),
                        static_cast<int>(oracle_.bad_x.size()), bad);
    }
    // Live changes of the objective (lambda, tau): the curve jumps there by definition.
    for (size_t i = 0; i < oracle_.rebase_x.size(); ++i) {
      char id[32];
      std::snprintf(id, sizeof id, "##rebase%zu", i);
      plot::PlotGuideX(id, oracle_.rebase_x[i], colors().accent, 1.0f);
      // Below the legend, one line per change, on the side of the line with more room.
      const std::string& text = oracle_.rebase_label[i];
      const plot::Limits lim = plot::GetPlotLimits();
      const float half_w = ImGui::CalcTextSize(text.c_str()).x * 0.5f + 4;
      const bool left = oracle_.rebase_x[i] > 0.5 * (lim.x_min + lim.x_max);
      plot::PlotText(text.c_str(), oracle_.rebase_x[i], lim.y_max,
                     ImVec2(left ? -half_w : half_w, ImGui::GetTextLineHeight() * (2.2f + static_cast<float>(i))),
                     colors().accent);
    }
    plot::PlotGuideX("##now", current, colors().guide, 1.5f);
    plot::EndPlot();
  }
  // The caption: the violation (the header keeps the full oracle line).
  if (oracle_.violations > 0) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x - w - spacing);
    fit_text_colored(colour_vec(colors().error), "x marks: %s", oracle_.text.c_str());
    ImGui::PopTextWrapPos();
  } else {
    fit_text_disabled("%s%s", oracle_.applies ? "no oracle violation (a rise would be marked x)" : "",
                        oracle_.rebase_x.empty() ? "" : "; blue lines: the objective changed, the oracle re-based");
  }
  ImGui::EndGroup();
}

void CompletionView::draw_embeddings(const CompletionSnapshot& s, ImVec2 size) {
  const CompletionProblem& p = *s.problem;
  const ObservedMatrix& d = *p.data;
  const int have = s.estimate ? static_cast<int>(s.estimate->item_factors.cols()) : 0;
  if (have < 2) {
    if (is_method(s, Completion::Method::Svt))
      fit_text_disabled("The embeddings need two factor columns: the iterate has rank %d so far (svt's rank is "
                          "#{sigma_i(Y) > tau}; it grows as Y accumulates, or lower tau).",
                          have);
    else
      fit_text_disabled("The embeddings need k >= 2 factor columns (%d here%s).", have,
                          s.iteration == 0 ? "; step once" : "");
    return;
  }
  const Eigen::MatrixXd& items = s.estimate->item_factors;
  const Eigen::MatrixXd& users = s.estimate->user_factors;
  const int cols = static_cast<int>(items.cols());
  const bool factored = is_method(s, Completion::Method::Als) || is_method(s, Completion::Method::Sgd);
  char caption[256];
  if (cols == 2)
    std::snprintf(caption, sizeof caption, "2 factor columns: each %s and %s is a point (%s).", d.col_kind.c_str(),
                  d.row_kind.c_str(), factored ? "the rows of V and U" : "rows of V S^(1/2) and U S^(1/2)");
  else
    std::snprintf(caption, sizeof caption,
                  "columns 0 and 1 of the %d factor columns (%s), not a projection; k = 2 shows it all.", cols,
                  factored ? "V and U" : "V S^(1/2) and U S^(1/2), the two largest singular directions");
  fit_text_unformatted(caption);
  tooltip_text("Items the users rate alike get nearby factor vectors: the latent genres appear as clusters. A rating "
               "is predicted by <u_i, v_j> (plus the means), so a user points toward the genres they like.");
  const bool grouped = !d.group_names.empty();
  if (grouped) class_key(d.group_names, size.x, hidden_genres_, {"items by genre, users by favourite genre"});
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float w = (size.x - spacing) * 0.5f;
  const float h = std::max(min_plot_height(true), ImGui::GetContentRegionAvail().y);
  const auto scatter = [&](const char* id, const char* what, const Eigen::MatrixXd& f, const std::vector<int>& group) {
    std::vector<double> x, y;
    std::vector<ImU32> c;
    for (Eigen::Index r = 0; r < f.rows(); ++r) {
      const int g = static_cast<size_t>(r) < group.size() ? group[static_cast<size_t>(r)] : -1;
      if (!class_shown(hidden_genres_, g)) continue;
      x.push_back(f(r, 0));
      y.push_back(f(r, 1));
      c.push_back(class_colour(g));
    }
    ImGui::BeginGroup();
    fit_text("%s (%d)", what, static_cast<int>(f.rows()));
    if (plot::BeginPlot(id, ImVec2(w, h - ImGui::GetTextLineHeightWithSpacing()),
                        plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
      plot::SetupAxes("factor 0", "factor 1", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
      plot::Spec sp;
      sp.colors = c.data();
      sp.marker_size = f.rows() > 1000 ? 2.0f : 3.0f;
      sp.fill_alpha = 0.8f;
      plot::PlotScatter("##pts", x.data(), y.data(), static_cast<int>(x.size()), sp);
      plot::EndPlot();
    }
    ImGui::EndGroup();
  };
  std::string items_title = d.col_kind + "s (columns of X)", users_title = d.row_kind + "s (rows of X)";
  scatter("##cmp_items", items_title.c_str(), items, d.col_group);
  ImGui::SameLine();
  scatter("##cmp_users", users_title.c_str(), users, d.row_group);
}

}  // namespace cilab
