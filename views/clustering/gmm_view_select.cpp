// The GMM view's model-selection panel: a sweep K = 1..Kmax (gmm_sweep) run as
// a job of the app's BackgroundJobs (views/common/jobs.h), plotted as BIC, AIC and the
// final log-likelihood against K. Clicking a K shows its fitted model
// (ViewIntent SetParam k, then Seek to the iteration where the sweep's fit of
// that K stopped).
//
// Threading: the job gets a copy of the dataset and the parameters and writes
// only into its SweepResult, which the view reads once the job has ended (the
// facility publishes the job's writes with its end state); progress goes through
// the CancelToken. Cancelling sets the job's flag, which gmm_sweep's progress
// callback reads after each K; BackgroundJobs joins the thread later, never in
// a frame.
#include "views/clustering/gmm_view.h"

#include "algorithms/clustering/gmm.h"
#include "algorithms/clustering/gmm_select.h"
#include "views/plot/plot.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace cilab {

// What a sweep job writes (before it ends) and the view reads (after).
struct GmmView::SweepResult {
  int kmax = 0;
  std::vector<GmmSweepRow> rows;
};

namespace {

// What a sweep result depends on: data, seed and every parameter but k (and
// the k-means comparison, which the sweep switches off).
std::string sweep_key(const ParamValues& values, uint64_t seed, uint64_t data_version, int kmax) {
  // 6 significant digits: the parameter panel's sliders store floats, so a
  // value may come back as 9.99999997e-07 for 1e-6 without anyone changing it.
  std::ostringstream s;
  s.precision(6);
  s << data_version << '|' << seed << '|' << kmax;
  for (const auto& [name, v] : values)
    if (name != "k" && name != "compare_kmeans") s << '|' << name << '=' << v;
  return s.str();
}

}  // namespace

void GmmView::start_sweep(BackgroundJobs& jobs, const Dataset& data, const ParamValues& values, uint64_t seed,
                          uint64_t data_version) {
  cancel_sweep();
  auto result = std::make_shared<SweepResult>();
  result->kmax = std::clamp(sweep_kmax, 1, std::min(20, std::max(1, data.rows())));
  sweep_key_ = sweep_key(values, seed, data_version, result->kmax);
  std::shared_ptr<const Dataset> copy = std::make_shared<Dataset>(data);  // the app may replace its dataset
  ParamValues base = values;
  base["compare_kmeans"] = 0.0;
  sweep_ = result;
  sweep_job_ = jobs.submit("GMM model selection (K = 1.." + std::to_string(result->kmax) + ")",
                           [result, copy, base, seed](const CancelToken& token) {
                             result->rows = gmm_sweep(copy, base, result->kmax, seed, [&token](int done, int total) {
                               token.set_progress(done, total);
                               return !token.cancelled();
                             });
                           });
}

void GmmView::cancel_sweep() {
  if (!sweep_ || is_terminal(sweep_job_.state())) return;  // finished results are kept
  sweep_job_.cancel();
  sweep_job_ = JobHandle();
  sweep_.reset();
}

void GmmView::join_sweep() { sweep_job_.wait(); }

bool GmmView::sweep_running() const { return sweep_ && sweep_job_.running(); }

std::vector<GmmSweepRow> GmmView::sweep_rows() const {
  if (!sweep_ || !is_terminal(sweep_job_.state())) return {};
  return sweep_->rows;
}

ImVec2 GmmView::sweep_pixel(int k) const {
  if (k < 1 || k > static_cast<int>(sweep_px_x_.size())) return ImVec2(NAN, NAN);
  return ImVec2(static_cast<float>(sweep_px_x_[k - 1]), static_cast<float>(sweep_px_y_[k - 1]));
}

void GmmView::draw_sweep(const GmmSnapshot& snap, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out) {
  sweep_px_x_.clear();
  sweep_px_y_.clear();
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::BeginChild("##gmm_sweep", size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const float inner_h = ImGui::GetContentRegionAvail().y;
  const float controls_w = ImGui::GetFontSize() * 15;

  const bool can_run = ctx.data && ctx.values && ctx.jobs;
  const std::string want_key =
      can_run ? sweep_key(*ctx.values, ctx.seed, ctx.data_version,
                          std::clamp(sweep_kmax, 1, std::min(20, std::max(1, ctx.data->rows()))))
              : std::string();
  // Opening the panel with no results starts a sweep (once per parameter set).
  if (!sweep_ && can_run && sweep_auto_key_ != want_key) {
    sweep_auto_key_ = want_key;
    start_sweep(*ctx.jobs, *ctx.data, *ctx.values, ctx.seed, ctx.data_version);
  }

  // ---- controls and status.
  ImGui::BeginGroup();
  fit_text_unformatted("Model selection: K = 1..Kmax");
  tooltip_text("Each K is fitted from scratch with the current parameters and seed (init=manual becomes kmeans). "
               "scikit-learn's criteria, lower is better:\n  BIC = -2 ln L + p ln n\n  AIC = -2 ln L + 2 p\nwith "
               "ln L = n * (mean log-likelihood per sample) and p the free parameters: k d means + (k - 1) weights + "
               "the covariance entries (full: k d (d + 1) / 2).");
  ImGui::SetNextItemWidth(controls_w - ImGui::GetFontSize() * 4);
  ImGui::SliderInt("Kmax", &sweep_kmax, 1, 20);
  const bool running = sweep_running();
  if (running) {
    const int done = sweep_job_.progress().done;
    const int kmax = sweep_->kmax;
    char txt[64];
    std::snprintf(txt, sizeof txt, "fitting K = %d of %d", std::min(done + 1, kmax), kmax);
    ImGui::ProgressBar(static_cast<float>(done) / static_cast<float>(std::max(1, kmax)), ImVec2(controls_w, 0), txt);
    if (ImGui::Button("Cancel")) cancel_sweep();
  } else {
    if (!can_run) ImGui::BeginDisabled();
    if (ImGui::Button(sweep_ ? "Re-run sweep" : "Run sweep") && can_run)
      start_sweep(*ctx.jobs, *ctx.data, *ctx.values, ctx.seed, ctx.data_version);
    if (!can_run) ImGui::EndDisabled();
  }
  std::vector<GmmSweepRow> rows = sweep_rows();
  const std::string error = sweep_ ? sweep_job_.error() : std::string();
  int best_bic = -1, best_aic = -1;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    if (!std::isfinite(rows[i].bic)) continue;
    if (best_bic < 0 || rows[i].bic < rows[best_bic].bic) best_bic = i;
    if (best_aic < 0 || rows[i].aic < rows[best_aic].aic) best_aic = i;
  }
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + controls_w);
  if (!error.empty()) {
    fit_text_colored(colour_vec(colors().error), "%s", error.c_str());
  } else if (!rows.empty()) {
    if (best_bic >= 0) fit_text("BIC picks K = %d", rows[best_bic].k);
    if (best_aic >= 0) fit_text("AIC picks K = %d", rows[best_aic].k);
    int diverged = 0;
    for (const GmmSweepRow& r : rows) diverged += r.diverged ? 1 : 0;
    if (diverged)
      fit_text_colored(colour_vec(colors().warning), "%d fit(s) collapsed (reg = 0)", diverged);
    if (sweep_ && sweep_key_ != want_key)
      fit_text_colored(colour_vec(colors().warning), "data or parameters changed since: re-run");
  } else if (!ctx.jobs) {
    fit_text_disabled("The sweep runs in the background, and no background jobs are available here.");
  } else if (!running) {
    fit_text_disabled("Press Run sweep.");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();

  // ---- the plots: BIC and AIC | final log-likelihood, against K.
  ImGui::SameLine();
  const float plots_w = ImGui::GetContentRegionAvail().x;
  const float w = (plots_w - style.ItemSpacing.x) * 0.5f;
  std::vector<double> ks, bic, aic, ll;
  for (const GmmSweepRow& r : rows) {
    ks.push_back(r.k);
    bic.push_back(r.bic);
    aic.push_back(r.aic);
    ll.push_back(r.log_likelihood);
  }
  const int current_k = snap.k();
  auto pick = [&](void) {
    // Click: the nearest K (rounded x) loads it; hover shows which.
    if (rows.empty() || !plot::IsPlotHovered()) return;
    const plot::Point m = plot::GetPlotMousePos();
    const int kk = std::clamp(static_cast<int>(std::lround(m.x)), rows.front().k, rows.back().k);
    const plot::Limits lim = plot::GetPlotLimits();
    plot::Spec spec;
    spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
    if (plot::BeginItem("##pick", spec)) {
      plot::GetPlotDrawList()->AddLine(plot::PlotToPixels(kk, lim.y_min),
                                       plot::PlotToPixels(kk, lim.y_max),
                                       with_alpha(colors().selection, 140), 2.0f);
      plot::EndItem();
    }
    ImGui::SetTooltip("click: show the fitted model with K = %d", kk);
    if (plot::IsPlotClicked(0)) {
      // The sweep fitted K from iteration 0 with the run's parameters and seed: the run with k = K
      // reaches the same model at the sweep's last iteration. Set k (a restart), then go there.
      const auto row = std::find_if(rows.begin(), rows.end(), [&](const GmmSweepRow& r) { return r.k == kk; });
      if (kk != current_k) out.push_back(ViewIntent::set_param("k", kk));
      if (row != rows.end()) out.push_back(ViewIntent::seek(row->n_iter));
    }
  };
  auto current_marker = [&]() {
    plot::Spec spec;
    spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
    if (plot::BeginItem("##current_k", spec)) {
      const plot::Limits lim = plot::GetPlotLimits();
      plot::GetPlotDrawList()->AddLine(plot::PlotToPixels(current_k, lim.y_min),
                                       plot::PlotToPixels(current_k, lim.y_max),
                                       with_alpha(colors().accent, 170), 1.0f);
      plot::EndItem();
    }
  };
  if (plot::BeginPlot("BIC and AIC (lower is better)##gmm_bic", ImVec2(w, inner_h), plot::PlotFlags_NoMenus)) {
    plot::SetupAxes("K (components)", "criterion", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::SetupLegend(plot::Location::NorthEast);
    plot::Spec sb;
    sb.color = plot::GetColormapColor(0);
    sb.line_weight = 2.0f;
    sb.marker = plot::Marker::Circle;
    sb.marker_size = 3.5f;
    plot::PlotLine("BIC", ks.data(), bic.data(), static_cast<int>(ks.size()), sb);
    plot::Spec sa = sb;
    sa.color = plot::GetColormapColor(1);
    sa.marker = plot::Marker::Square;
    plot::PlotLine("AIC", ks.data(), aic.data(), static_cast<int>(ks.size()), sa);
    current_marker();
    if (best_bic >= 0) {
      plot::Spec ring;
      ring.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      if (plot::BeginItem("##best_bic", ring)) {
        const ImVec2 p = plot::PlotToPixels(ks[best_bic], bic[best_bic]);
        plot::GetPlotDrawList()->AddCircle(p, 9.0f, colors().selection, 20, 2.0f);
        plot::GetPlotDrawList()->AddText(ImVec2(p.x - 24, p.y - 12 - ImGui::GetFontSize()),
                                         colors().text, "min BIC");
        plot::EndItem();
      }
    }
    for (size_t i = 0; i < ks.size(); ++i) {
      const ImVec2 p = plot::PlotToPixels(ks[i], bic[i]);
      sweep_px_x_.push_back(p.x);
      sweep_px_y_.push_back(p.y);
    }
    pick();
    plot::EndPlot();
  }
  ImGui::SameLine();
  if (plot::BeginPlot("final log-likelihood / n##gmm_sweep_ll", ImVec2(w, inner_h),
                      plot::PlotFlags_NoMenus | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("K (components)", "mean log-likelihood", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec sl;
    sl.color = plot::GetColormapColor(2);
    sl.line_weight = 2.0f;
    sl.marker = plot::Marker::Circle;
    sl.marker_size = 3.5f;
    plot::PlotLine("log-likelihood", ks.data(), ll.data(), static_cast<int>(ks.size()), sl);
    current_marker();
    pick();
    plot::EndPlot();
  }
  ImGui::EndChild();
}

}  // namespace cilab
