// The optimizer race view's right column: the race table, the theory block
// and the curves (f - f*, distance to theta*) against the iteration, plus the
// view's own controls.
#include "views/gradient_methods/optimizers_view.h"
#include "views/gradient_methods/optimizers_view_internal.h"
#include "views/gradient_methods/optimizers_view_util.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include "algorithms/gradient_methods/optimizers.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

using namespace optview;

namespace {

ImVec4 good_colour() { return colour_vec(colors().good); }
ImVec4 bad_colour() { return colour_vec(colors().error); }

const RacerState* find_racer(const OptimizersSnapshot& s, OptimizerKind k, size_t* index = nullptr) {
  for (size_t i = 0; i < s.racers.size(); ++i)
    if (s.racers[i].kind == k) {
      if (index) *index = i;
      return &s.racers[i];
    }
  return nullptr;
}

ImVec2 item_centre() {
  return ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
}

// Predicted linear rate of a racer on a quadratic at its base lr (NaN if no closed form here).
double predicted_rate(const RacerState& r, const QuadraticTheory& th, double momentum, double dampening,
                      bool nesterov) {
  if (!th.valid) return NAN;
  if (r.kind == OptimizerKind::GD) return gd_rate(r.lr, th.mu, th.L);
  if (r.kind == OptimizerKind::Momentum && dampening == 0.0 && !nesterov)
    return heavy_ball_rate(r.lr, momentum, th.mu, th.L);
  return NAN;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
void OptimizersView::draw_table(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out,
                                float) {
  const OptimizerKind primary = s.racers[0].kind;
  const double fstar = s.landscape->min_value();
  const double momentum = param(ctx, "momentum", 0.9), dampening = param(ctx, "dampening", 0.0);
  const bool nesterov = param(ctx, "nesterov", 0.0) != 0.0;
  // Stretch columns (weights ~ their usual widths in em): the table always fits the column.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  const bool theory = s.theory.valid;
  const int columns = theory ? 7 : 6;
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(4, 1));
  if (!ImGui::BeginTable("##race", columns, flags)) {
    ImGui::PopStyleVar(2);
    return;
  }
  ImGui::TableSetupColumn("race", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn("optimizer", ImGuiTableColumnFlags_WidthStretch, 5.0f);
  ImGui::TableSetupColumn("lr", ImGuiTableColumnFlags_WidthStretch, 5.0f);
  ImGui::TableSetupColumn("status", ImGuiTableColumnFlags_WidthStretch, 6.6f);
  ImGui::TableSetupColumn(std::isfinite(fstar) ? "f - f*" : "f", ImGuiTableColumnFlags_WidthStretch, 4.4f);
  ImGui::TableSetupColumn("rate", ImGuiTableColumnFlags_WidthStretch, 2.6f);
  if (theory) ImGui::TableSetupColumn("pred.", ImGuiTableColumnFlags_WidthStretch, 2.6f);
  ImGui::TableHeadersRow();
  // Header tooltips.
  const char* header_help[7] = {
      "Checked: this optimizer races (race_<name>). The primary (the `optimizer` parameter) always runs.",
      "Hover a name for its update rule in torch.optim form.",
      "Base learning rate: `lr` for the primary, lr_<name> for the others. Live: the race goes on.",
      "running / converged (||grad f|| < tol) / stopped (max_iter) / diverged, with the iteration t.",
      "Current loss above the optimum (full batch).",
      "Measured linear rate of ||theta_t - theta*||: geometric mean of the last per-step ratios.",
      "Predicted rate on this quadratic at these settings: GD max(|1 - lr mu|, |1 - lr L|); heavy ball "
      "(Momentum, dampening 0) the spectral radius of its 2x2 iteration. Blank: no closed form.",
  };
  for (int c = 0; c < columns; ++c) {
    ImGui::TableSetColumnIndex(c);
    if (ImGui::IsItemHovered()) tooltip_text(header_help[c]);
  }
  for (int k = 0; k < kNumOptimizerKinds; ++k) {
    const auto kind = static_cast<OptimizerKind>(k);
    const std::string name = optimizer_name(kind);
    size_t index = 0;
    const RacerState* r = find_racer(s, kind, &index);
    const bool is_primary = kind == primary;
    ImGui::PushID(k);
    ImGui::TableNextRow();
    // Colour swatch + race checkbox.
    ImGui::TableSetColumnIndex(0);
    {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float h = ImGui::GetFrameHeight();
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 3), ImVec2(p.x + 5, p.y + h - 3), racer_color(kind));
      ImGui::SetCursorScreenPos(ImVec2(p.x + 7, p.y));
      bool on = is_primary || param(ctx, "race_" + name, r ? 1.0 : 0.0) != 0.0;
      if (is_primary) ImGui::BeginDisabled();
      if (ImGui::Checkbox("##race", &on) && !is_primary) out.push_back(ViewIntent::set_param("race_" + name, on ? 1 : 0));
      if (is_primary) ImGui::EndDisabled();
      info_.race_names.push_back(name);
      info_.race_checkboxes.push_back(item_centre());
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip(is_primary ? "%s is the primary optimizer (the `optimizer` parameter): it always runs."
                                     : "race_%s: add %s to the race (live).",
                          is_primary ? optimizer_title(kind) : name.c_str(), optimizer_title(kind));
    }
    // Name with the update rule.
    ImGui::TableSetColumnIndex(1);
    ImGui::AlignTextToFramePadding();
    fit_text_colored(legible(racer_color(kind)), "%s%s", optimizer_title(kind),
                       is_primary ? " *" : "");
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      fit_text_unformatted(update_equations(kind));
      fit_text_disabled("%s%s", torch_equivalent(kind).c_str(), is_primary ? "\n* primary: its metrics are the CLI columns" : "");
      ImGui::EndTooltip();
    }
    // Learning rate slider.
    ImGui::TableSetColumnIndex(2);
    {
      const std::string pname = lr_param(kind, primary);
      const ParamSpec* spec = find_param(specs(), pname);
      double lr = param(ctx, pname, r ? r->lr : (spec ? spec->def : 0.01));
      // Doubles: the float nearest 1e-5 lies below a 1e-5 minimum. Typed text applies on Enter only.
      const double lo = spec ? std::max(spec->min, 1e-7) : 1e-5;
      const double hi = spec ? spec->max : 10.0;
      ImGui::SetNextItemWidth(-1);
      if (real_slider("##lr", &lr, lo, hi, "%.3g", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp,
                      lr_edit_))
        out.push_back(ViewIntent::set_param(pname, lr));
      info_.race_lr_sliders.push_back(item_centre());
      if (ImGui::IsItemHovered()) {
        char tip[200];
        std::snprintf(tip, sizeof tip, "%s = %.4g (live). Ctrl+click to type a value.%s", pname.c_str(), lr,
                      s.theory.valid && (kind == OptimizerKind::GD || kind == OptimizerKind::SGD)
                          ? (lr >= s.theory.eta_max ? "  Above 2/L: GD diverges." : "  Below 2/L: GD is stable.")
                          : "");
        tooltip_text(tip);
      }
    }
    // Status.
    ImGui::TableSetColumnIndex(3);
    if (!r) {
      fit_text_disabled("-");
    } else if (r->status == Status::Diverged) {
      fit_text_colored(bad_colour(), "div. t=%d", r->diverged_at);
      if (!r->message.empty() && ImGui::IsItemHovered()) tooltip_text(r->message.c_str());
      ImGui::SameLine(0, 3);
      rewind_button(s, *r, ctx, out, "<<");
    } else if (r->status == Status::Running) {
      fit_text_colored(status_colour(r->status), "t = %d", r->iterations);
      if (ImGui::IsItemHovered()) tooltip_text("running; t = updates made so far");
    } else {
      if (r->status == Status::Converged)
        fit_text_colored(status_colour(r->status), "conv. t=%d", r->iterations);
      else
        fit_text_colored(status_colour(r->status), "%s", status_name(r->status));
      if (ImGui::IsItemHovered()) {
        char tip[300];
        std::snprintf(tip, sizeof tip, "%s after %d updates. %s", status_name(r->status), r->iterations, r->message.c_str());
        tooltip_text(tip);
      }
    }
    // Loss, measured and predicted rate.
    ImGui::TableSetColumnIndex(4);
    if (r) fit_text_unformatted(fmt(std::isfinite(fstar) ? r->loss - fstar : r->loss, "%.3g").c_str());
    ImGui::TableSetColumnIndex(5);
    if (r) {
      const double measured = index < s.measured_rate.size() ? s.measured_rate[index] : NAN;
      fit_text_unformatted(fmt(measured, "%.3f").c_str());
      if (ImGui::IsItemHovered()) {
        char tip[200];
        std::snprintf(tip, sizeof tip, "measured ||theta_{t+1} - theta*|| / ||theta_t - theta*||: %s (geometric mean, last %d steps)",
                      fmt(measured, "%.4f").c_str(), Optimizers::kRateWindow);
        tooltip_text(tip);
      }
    }
    if (theory) {
      ImGui::TableSetColumnIndex(6);
      const double pred = r ? predicted_rate(*r, s.theory, momentum, dampening, nesterov) : NAN;
      if (!std::isnan(pred)) fit_text_unformatted(fmt(pred, "%.3f").c_str());
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
  ImGui::PopStyleVar(2);
}

// ---------------------------------------------------------------------------------------------
void OptimizersView::draw_theory(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const QuadraticTheory& th = s.theory;
  const OptimizerKind primary = s.racers[0].kind;
  ImGui::Spacing();
  if (th.valid) {
    const double dampening = param(ctx, "dampening", 0.0);
    const bool nesterov = param(ctx, "nesterov", 0.0) != 0.0;
    fit_text("L = %s, mu = %s, kappa = L/mu = %s.", fmt(th.L, "%.4g").c_str(), fmt(th.mu, "%.4g").c_str(),
                fmt(th.kappa, "%.4g").c_str());
    tooltip_text("f is quadratic: its Hessian H is constant; L and mu are its largest and smallest eigenvalues, "
                 "kappa = L / mu its condition number. Large kappa = a long narrow valley.");
    ImGui::SameLine();
    const RacerState* gd = find_racer(s, OptimizerKind::GD);
    const double gd_lr_now = gd ? gd->lr : s.racers[0].lr;
    fit_text_colored(gd_lr_now < th.eta_max ? good_colour() : bad_colour(),
                       "GD stable iff lr < 2/L = %s", fmt(th.eta_max, "%.4g").c_str());
    tooltip_text("GD on a quadratic: e_{t+1} = (I - lr H) e_t, stable iff |1 - lr lambda| < 1 for every eigenvalue "
                 "lambda of H, i.e. 0 < lr < 2/L. Green: GD's current lr is inside the stable range.");
    fit_text("GD best: lr = 2/(L+mu) = %s -> rate %s", fmt(th.eta_gd_opt, "%.4g").c_str(),
                fmt(th.rate_gd_opt, "%.4f").c_str());
    tooltip_text("The constant step minimising max(|1 - lr mu|, |1 - lr L|); the error shrinks by the factor "
                 "(kappa - 1)/(kappa + 1) per step. "
                 "With lr = 1/L the rate is 1 - 1/kappa.");
    fit_text("heavy ball: lr = %s, beta = %s -> rate %s", fmt(th.eta_hb, "%.4g").c_str(),
                fmt(th.beta_hb, "%.4f").c_str(), fmt(th.rate_hb, "%.4f").c_str());
    tooltip_text("Polyak's optimal heavy ball on a quadratic: lr = 4/(sqrt L + sqrt mu)^2, beta = ((sqrt kappa - 1)/"
                 "(sqrt kappa + 1))^2, rate (sqrt kappa - 1)/(sqrt kappa + 1): it depends on sqrt(kappa) instead of kappa: momentum wins on "
                 "ill-conditioned problems. torch.optim.SGD(momentum=beta, dampening=0) is exactly this method. "
                 "The table compares measured and predicted rates per racer.");
    // Buttons: set GD's lr / the heavy-ball parameters.
    const std::string gd_lr = lr_param(OptimizerKind::GD, primary);
    const std::string hb_lr = lr_param(OptimizerKind::Momentum, primary);
    auto race_on = [&](OptimizerKind k) {
      if (k != primary && param(ctx, std::string("race_") + optimizer_name(k), 0.0) == 0.0)
        out.push_back(ViewIntent::set_param(std::string("race_") + optimizer_name(k), 1));
    };
    if (ImGui::Button("lr = 1/L")) {
      race_on(OptimizerKind::GD);
      out.push_back(ViewIntent::set_param(gd_lr, 1.0 / th.L));
    }
    info_.theory_buttons.push_back(item_centre());
    tooltip_text(("Sets " + gd_lr + " = 1/L (GD's classic safe step, rate 1 - 1/kappa) and races GD.").c_str());
    ImGui::SameLine();
    if (ImGui::Button("lr = 2/(L+mu)")) {
      race_on(OptimizerKind::GD);
      out.push_back(ViewIntent::set_param(gd_lr, th.eta_gd_opt));
    }
    info_.theory_buttons.push_back(item_centre());
    tooltip_text(("Sets " + gd_lr + " = 2/(L+mu), GD's optimal constant step, and races GD.").c_str());
    ImGui::SameLine();
    if (ImGui::Button("heavy-ball optimal")) {
      race_on(OptimizerKind::Momentum);
      out.push_back(ViewIntent::set_param(hb_lr, th.eta_hb));
      out.push_back(ViewIntent::set_param("momentum", th.beta_hb));
      if (find_param(specs(), "dampening") && dampening != 0.0) out.push_back(ViewIntent::set_param("dampening", 0));
      if (find_param(specs(), "nesterov") && nesterov) out.push_back(ViewIntent::set_param("nesterov", 0));
    }
    info_.theory_buttons.push_back(item_centre());
    tooltip_text(("Sets " + hb_lr + " = 4/(sqrt L + sqrt mu)^2 and momentum = beta (dampening 0) and races Momentum.")
                     .c_str());
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Closed-form rates and optimal step sizes: for quadratics (function = quadratic or "
                       "least_squares).");
    ImGui::PopStyleColor();
  }
  // SGD: the schedule and Robbins-Monro.
  const bool sgd = find_racer(s, OptimizerKind::SGD) != nullptr;
  const int sched = static_cast<int>(param(ctx, "schedule", 0));
  if (sgd) {
    const auto* fs = dynamic_cast<const FiniteSumLandscape*>(s.landscape.get());
    const int batch = static_cast<int>(param(ctx, "batch", 16));
    const double noise = param(ctx, "noise", 0.0);
    if (fs)
      ImGui::TextWrapped("SGD: mini-batches of %d of the n = %d rows, g_t unbiased (E g_t = grad f) with variance ~ 1/batch.",
                         std::min(batch, fs->num_samples()), fs->num_samples());
    else if (noise > 0)
      ImGui::TextWrapped("SGD (and the other stochastic racers): g_t = grad f + N(0, %.3g^2 I), simulated noise.", noise);
    else
      ImGui::TextWrapped("SGD: noise = 0 on an analytic function, so SGD takes exact gradients here (set noise > 0).");
  }
  if (sgd || sched != 0) {
    const char* formula = sched >= 0 && sched < kNumScheduleKinds ? schedule_formula(static_cast<ScheduleKind>(sched)) : "";
    ImGui::TextWrapped("schedule: %s.  %s", formula, s.schedule_note.c_str());
    tooltip_text("Robbins-Monro: SGD converges to the optimum (not just to a noise ball) when sum_t eta_t = inf "
                 "(it can travel any distance) and sum_t eta_t^2 < inf (the noise it injects is finite). "
                 "eta_t = eta_0 / (1 + decay t) satisfies both; 1/sqrt(t) does NOT (sum 1/t diverges); a constant "
                 "step stalls in a ball of radius ~ lr * noise.");
  }
}

// ---------------------------------------------------------------------------------------------
void OptimizersView::draw_curves(const OptimizersSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  const double momentum = param(ctx, "momentum", 0.9);
  const double fstar = s.landscape->min_value();
  const std::vector<Eigen::Vector2d> minima = s.landscape->minima();
  // Side by side while each keeps 16 font sizes of width, else one above the other (the panel scrolls).
  const PanelPair pair = panel_pair(size.x, 16);
  const bool stacked = !minima.empty() && pair.stacked;
  const float w = minima.empty() ? size.x : pair.width;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(), size.y - line - ImGui::GetStyle().ItemSpacing.y);
  const int last_t = s.iteration;

  for (int which = 0; which < 2; ++which) {
    const bool dist = which == 1;
    if (dist && minima.empty()) break;  // no known minimum: the loss takes the width
    if (which == 1 && !stacked) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
    fit_text_unformatted(dist ? "||theta_t - theta*|| (dashed: predicted)"
                                : (std::isfinite(fstar) ? "f(theta_t) - f*" : "f(theta_t), linear axis (f* unknown)"));
    ImGui::PopTextWrapPos();
    tooltip_text(dist ? "Distance of each racer to the nearest known minimum theta*, log scale: a straight line = a "
                        "linear rate. Dashed: d_0 r^t with the predicted rate r (quadratics: GD, heavy ball)."
                 : std::isfinite(fstar)
                     ? "Loss above the optimum per racer, log scale (full batch). An X marks a divergence."
                     : "The loss itself per racer on a linear axis: this f has no known minimum f*, and f may be "
                       "negative, which a log axis cannot show. An X marks a divergence.");
    const bool log_y = log_curves && (std::isfinite(fstar) || dist);
    const char* id = dist ? "##opt_dist" : "##opt_loss";
    if (plot::BeginPlot(id, ImVec2(w, h), plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
      plot::SetupAxes("iteration t", nullptr, plot::AxisFlags_AutoFit,
                      plot::AxisFlags_AutoFit | (log_y ? plot::AxisFlags_LogScale : 0));
      plot::SetupFinish();
      const plot::Limits lim = plot::GetPlotLimits();
      const ImVec2 ps = plot::GetPlotSize();
      const double sx = ps.x / std::max(1e-300, lim.x_max - lim.x_min);
      const double sy = log_y ? -ps.y / std::max(1e-300, std::log10(std::max(lim.y_max, 1e-300)) -
                                                              std::log10(std::max(lim.y_min, 1e-300)))
                              : -ps.y / std::max(1e-300, lim.y_max - lim.y_min);
      const std::array<double, 6> want = {lim.x_min, lim.x_max, lim.y_min, lim.y_max, ps.x, ps.y + (log_y ? 0.5 : 0)};
      const plot::PixelMap mx{-lim.x_min * sx, sx, false}, my{0.0, sy, log_y};
      for (const RacerState& r : s.racers) {
        if (!r.path || r.path->size() == 0) continue;
        RacerCache& c = cache_for(r);
        const PathBuffer& p = *r.path;
        plot::ColumnDecimator& d = dist ? c.dist : c.loss;
        std::array<double, 6>& key = dist ? c.dist_key : c.loss_key;
        if (key != want || d.fed() > p.size()) {
          d.reset(mx, my);
          key = want;
        }
        for (size_t i = d.fed(); i < p.size(); ++i) {
          double y;
          if (dist) {
            const Eigen::Vector2d q = p.point(i);
            y = INFINITY;
            for (const Eigen::Vector2d& m : minima) y = std::min(y, (q - m).norm());
            if (!std::isfinite(q.x()) || !std::isfinite(q.y())) y = NAN;
          } else {
            y = std::isfinite(fstar) ? p.loss(i) - fstar : p.loss(i);
          }
          d.add(static_cast<double>(i), y);
        }
        // Per pixel column: a faint min-max band (the noise) and the trend through the columns'
        // means (geometric on the log axis) - a noisy 10 000-point curve costs about what a
        // 300-point one does. The last point is drawn exactly.
        const std::vector<plot::ColumnDecimator::Band>& bands = d.bands();
        line_x_.clear();
        line_y_.clear();
        bool open = false;
        for (const plot::ColumnDecimator::Band& bd : bands) {
          if (std::isnan(bd.lo)) {
            line_x_.push_back(NAN);
            line_y_.push_back(NAN);
            open = false;
            continue;
          }
          if (!open) {
            line_x_.push_back(bd.x0);
            line_y_.push_back(bd.first);
          } else {
            line_x_.push_back(0.5 * (bd.x0 + bd.x1));
            line_y_.push_back(bd.mean);
          }
          open = true;
        }
        if (open && !bands.empty()) {
          line_x_.push_back(bands.back().x1);
          line_y_.push_back(bands.back().last);
        }
        plot::Spec ls;
        ls.color = racer_color(r.kind);
        ls.line_weight = r.primary ? 2.2f : 1.6f;
        char label[48];
        plot::Spec bs;
        bs.flags = plot::ItemFlags_NoLegend;
        std::snprintf(label, sizeof label, "##band_%s_%s", id, r.name.c_str());
        if (plot::BeginItem(label, bs)) {
          ImDrawList* bl = plot::GetPlotDrawList();
          const ImU32 band_col = with_alpha(ls.color, 70);
          const bool fit = plot::FitThisFrame();
          for (const plot::ColumnDecimator::Band& bd : bands) {
            if (std::isnan(bd.lo)) continue;
            if (fit) {
              plot::FitPoint(bd.x0, bd.lo);
              plot::FitPoint(bd.x1, bd.hi);
            }
            const ImVec2 a = plot::PlotToPixels(bd.x0, bd.hi), b = plot::PlotToPixels(bd.x1, bd.lo);
            if (!(b.y - a.y > 1.5f)) continue;
            bl->AddRectFilled(ImVec2(std::floor(a.x), a.y), ImVec2(std::floor(b.x) + 1.0f, b.y), band_col);
          }
          plot::EndItem();
        }
        std::snprintf(label, sizeof label, "%s##%s_%s", optimizer_title(r.kind), id, r.name.c_str());
        plot::PlotLine(label, line_x_.data(), line_y_.data(), static_cast<int>(line_x_.size()), ls);
        // Divergence: an X at the last finite value.
        if (r.status == Status::Diverged) {
          const long lf = last_finite(p);
          if (lf >= 0) {
            double y = std::isfinite(fstar) ? p.loss(static_cast<size_t>(lf)) - fstar : p.loss(static_cast<size_t>(lf));
            if (dist) {
              y = INFINITY;
              for (const Eigen::Vector2d& m : minima) y = std::min(y, (p.point(static_cast<size_t>(lf)) - m).norm());
            }
            plot::Spec xs;
            xs.color = ls.color;
            xs.marker = plot::Marker::Cross;
            xs.marker_size = 7.0f;
            xs.flags = plot::ItemFlags_NoLegend;
            const double xv = static_cast<double>(lf);
            char xid[48];
            std::snprintf(xid, sizeof xid, "##x_%s_%s", id, r.name.c_str());
            plot::PlotScatter(xid, &xv, &y, 1, xs);
          }
        }
        // Predicted rate lines on the distance plot (quadratics).
        if (dist && s.theory.valid && p.size() > 0) {
          const double pred = r.kind == OptimizerKind::GD ? gd_rate(r.lr, s.theory.mu, s.theory.L)
                              : r.kind == OptimizerKind::Momentum
                                  ? heavy_ball_rate(r.lr, momentum, s.theory.mu, s.theory.L)
                                  : NAN;
          if (std::isfinite(pred) && pred < 1.0) {
            double d0 = INFINITY;
            for (const Eigen::Vector2d& m : minima) d0 = std::min(d0, (p.point(0) - m).norm());
            const int n = std::max(2, std::max(last_t, static_cast<int>(p.size())) + 1);
            const int pts = std::min(n, 200);
            std::vector<double> tx(static_cast<size_t>(pts)), ty(static_cast<size_t>(pts));
            for (int i = 0; i < pts; ++i) {
              const double t = static_cast<double>(n - 1) * i / (pts - 1);
              tx[static_cast<size_t>(i)] = t;
              ty[static_cast<size_t>(i)] = d0 * std::pow(pred, t);
            }
            plot::Spec ps2;
            ps2.color = with_alpha(ls.color, 200);
            ps2.line_style = plot::LineStyle::Dashed;
            ps2.line_weight = 1.3f;
            ps2.flags = plot::ItemFlags_NoFit | plot::ItemFlags_NoLegend;
            char pid[48];
            std::snprintf(pid, sizeof pid, "##pred_%s", r.name.c_str());
            plot::PlotLine(pid, tx.data(), ty.data(), pts, ps2);
          }
        }
      }
      // Current iteration.
      plot::PlotGuideX("##now", last_t, colors().guide);
      plot::EndPlot();
    }
    ImGui::EndGroup();
  }
}

// ---------------------------------------------------------------------------------------------
void OptimizersView::draw_controls(const Snapshot& snap, const ViewContext&) {
  const auto* s = dynamic_cast<const OptimizersSnapshot*>(&snap);
  if (!s) return;
  fit_text_disabled("View");
  ImGui::Checkbox("faint heatmap under the contours", &show_heatmap);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::SliderInt("contour levels", &contour_count, 4, 40);
  tooltip_text("Levels are log-spaced above the minimum for basins (quadratics, Rosenbrock), evenly spaced otherwise. "
               "Contours are recomputed only when the landscape or the visible window changes.");
  ImGui::Checkbox("arrows after every step", &show_arrows_always);
  tooltip_text("Off: the arrows (-grad f, velocity / first moment, last step) appear after the gradient sub-step (S).");
  ImGui::Checkbox("arrows for every racer", &arrows_for_all);
  ImGui::Checkbox("Polyak averages (diamonds)", &show_average);
  tooltip_text("With average = on, each racer's running mean of its iterates theta_bar_t = mean(theta_0..theta_t).");
  if (s->landscape && s->landscape->finite_sum()) ImGui::Checkbox("data inset with the fit", &show_data_inset);
  ImGui::Checkbox("log scale for the curves", &log_curves);
}

}  // namespace cilab
