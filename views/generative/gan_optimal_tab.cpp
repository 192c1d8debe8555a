#include "views/generative/gan_optimal_tab.h"

#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cilab {
namespace {

ImU32 data_colour() { return plot::GetColormapColor(3); }          // p_data
ImU32 gen_colour() { return plot::GetColormapColor(0); }           // p_g
ImU32 optimal_colour() { return plot::GetColormapColor(2); }       // D*
ImU32 trained_colour() { return plot::GetColormapColor(4); }       // trained D
ImU32 half_colour() { return with_alpha(colors().neutral, 255); }  // D = 1/2
constexpr int kFillAlpha = 56;
constexpr int kCurveSamples = 400;
constexpr double kConvergedGrad = 1e-9;  // |grad V| below: D has stopped moving
constexpr int kMaxStepsPerFrame = 50;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

Mixture1d data_of(const GanOptimalSettings& s) {
  Mixture1d m = gaussian_density(s.data_mean, s.data_sd);
  if (s.data_bimodal) {
    m.components[0].weight = 1.0 - s.data2_weight;
    m.components.push_back(GaussianComponent{s.data2_weight, s.data2_mean, s.data2_sd});
  }
  return m;
}

Mixture1d gen_of(const GanOptimalSettings& s) { return gaussian_density(s.gen_mean, s.gen_sd); }

void check_settings(const GanOptimalSettings& s) {
  if (s.degree != 1 && s.degree != 2)
    throw std::invalid_argument("degree = " + std::to_string(s.degree) +
                                " must be 1 (linear) or 2 (quadratic)");
  if (!(s.lr > 0.0 && s.lr < 2.0))
    throw std::invalid_argument("lr = " + std::to_string(s.lr) + " must be in (0, 2)");
  if (s.steps_per_frame < 1 || s.steps_per_frame > kMaxStepsPerFrame)
    throw std::invalid_argument("steps_per_frame = " + std::to_string(s.steps_per_frame) +
                                " must be in [1, " + std::to_string(kMaxStepsPerFrame) + "]");
  if (s.data_bimodal && !(s.data2_weight > 0.0 && s.data2_weight < 1.0))
    throw std::invalid_argument("data2_weight = " + std::to_string(s.data2_weight) +
                                " must be in (0, 1)");
}

// A density as one legend item: the area under the curve filled, the curve on top.
void density_item(const char* label, const std::vector<double>& xs, const std::vector<double>& ys,
                  ImU32 color) {
  plot::Spec spec;
  spec.color = color;
  spec.fill_color = with_alpha(color, kFillAlpha);
  if (!plot::BeginItem(label, spec)) return;
  const int n = static_cast<int>(xs.size());
  if (plot::FitThisFrame())
    for (int i = 0; i < n; ++i) plot::FitPoint(xs[i], ys[i]);
  ImDrawList* dl = plot::GetPlotDrawList();
  const ImDrawListFlags flags = dl->Flags;
  dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;  // adjacent trapezoids: no seams between them
  const ImU32 fill = with_alpha(color, kFillAlpha);
  std::vector<ImVec2> line(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) line[static_cast<size_t>(i)] = plot::PlotToPixels(xs[i], ys[i]);
  for (int i = 0; i + 1 < n; ++i) {
    const ImVec2 quad[4] = {plot::PlotToPixels(xs[i], 0.0), line[static_cast<size_t>(i)],
                            line[static_cast<size_t>(i) + 1], plot::PlotToPixels(xs[i + 1], 0.0)};
    dl->AddConvexPolyFilled(quad, 4, fill);
  }
  dl->Flags = flags;
  dl->AddPolyline(line.data(), n, color, 0, 2.0f);
  plot::EndItem();
}

ImVec2 item_centre() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return ImVec2(0.5f * (a.x + b.x), 0.5f * (a.y + b.y));
}

plot::Spec line_spec(ImU32 color, float weight, plot::LineStyle style = plot::LineStyle::Solid) {
  plot::Spec spec;
  spec.color = color;
  spec.line_weight = weight;
  spec.line_style = style;
  return spec;
}

// A "label = value" read-out with a formula tooltip, on a new line when it does not fit.
void readout(const std::string& text, const char* tip, bool first = false) {
  if (!first) same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x, ImGui::GetFontSize() * 1.5f);
  fit_text_unformatted(text.c_str());
  tooltip_text(tip);
}

}  // namespace

GanOptimalTab::GanOptimalTab() { set_settings(settings_); }

void GanOptimalTab::set_settings(const GanOptimalSettings& s) {
  check_settings(s);
  Mixture1d data = data_of(s), gen = gen_of(s);
  QuadratureGrid grid =
      make_quadrature_grid(data, gen);  // throws naming p_data or p_g: nothing changed yet
  settings_ = s;
  data_ = std::move(data);
  gen_ = std::move(gen);
  grid_ = std::move(grid);
  report_ = divergences(grid_);
  d_.degree = settings_.degree;
  if (d_.degree == 1) d_.c = 0.0;
  refresh_trained();
}

void GanOptimalTab::refresh_trained() {
  trained_value_ = gan_value(grid_, d_);
  trained_gap_ = max_gap_to_optimal(grid_, d_, kGapMassFloor);
}

void GanOptimalTab::reset_discriminator() {
  d_ = QuadraticLogistic{};
  d_.degree = settings_.degree;
  d_steps_ = 0;
  last_grad_norm_ = 0.0;
  refresh_trained();
}

void GanOptimalTab::train_steps(int n) {
  for (int i = 0; i < n; ++i) {
    const AscentStep s = settings_.optimizer == GanOptimalOptimizer::Newton
                             ? newton_ascend_discriminator(grid_, d_)
                             : ascend_discriminator(grid_, d_, settings_.lr);
    last_grad_norm_ = s.grad_norm;
    ++d_steps_;
  }
  refresh_trained();
}

void GanOptimalTab::draw(const ImVec2& size) {
  if (training_) train_steps(settings_.steps_per_frame);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 sz(size.x > 0 ? size.x : avail.x, size.y > 0 ? size.y : avail.y);
  if (ImGui::BeginChild("##gan_optimal_tab", sz, false, ImGuiWindowFlags_NoScrollbar)) {
    const float fs = ImGui::GetFontSize();
    const float controls_w = std::clamp(sz.x * 0.25f, fs * 15.5f, fs * 19.0f);
    draw_controls(controls_w, sz.y);
    ImGui::SameLine();
    ImGui::BeginGroup();
    draw_readouts();
    const char* caption =
        "At p_g = p_data: D* = 1/2 everywhere, JS = 0 and V(G, D*) = -log 4 = -1.386, the "
        "generator's minimum. "
        "Otherwise D* maximises V over D and V(G, D*) = 2 JS - log 4 > -log 4.";
    const ImVec2 rest = ImGui::GetContentRegionAvail();
    const float caption_h =
        ImGui::CalcTextSize(caption, nullptr, false, rest.x).y + ImGui::GetStyle().ItemSpacing.y;
    draw_plot(ImVec2(rest.x, std::max(min_plot_height(true), rest.y - caption_h)));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + rest.x);
    fit_text_disabled("%s", caption);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
  }
  ImGui::EndChild();
}

void GanOptimalTab::draw_controls(float width, float height) {
  if (!ImGui::BeginChild("##gan_optimal_controls", ImVec2(width, height), true)) {
    ImGui::EndChild();
    return;
  }
  ImGui::PushItemWidth(
      -(ImGui::CalcTextSize("steps/frame").x + ImGui::GetStyle().ItemInnerSpacing.x + 2.0f));
  GanOptimalSettings s = settings_;
  bool changed = false;
  const int clamp = ImGuiSliderFlags_AlwaysClamp;
  const double m = kGanOptimalMeanRange;

  ImGui::AlignTextToFramePadding();
  fit_text_colored(legible(data_colour()), "p_data (the data)");
  ImGui::SameLine();
  changed |= ImGui::Checkbox("2 modes", &s.data_bimodal);
  tooltip_text(
      "p_data = (1 - w) N(mean, sd^2) + w N(mean 2, sd 2^2): a bimodal data density. Its log ratio "
      "to p_g "
      "is no longer quadratic, so the logistic D cannot reach D*.");
  changed |= real_slider("mean##data", &s.data_mean, -m, m, "%.2f", clamp, slider_state_);
  changed |= real_slider("sd##data", &s.data_sd, kGanOptimalSdMin, kGanOptimalSdMax, "%.2f", clamp,
                         slider_state_);
  if (s.data_bimodal) {
    changed |=
        real_slider("weight w##data2", &s.data2_weight, 0.05, 0.95, "%.2f", clamp, slider_state_);
    changed |= real_slider("mean 2##data2", &s.data2_mean, -m, m, "%.2f", clamp, slider_state_);
    changed |= real_slider("sd 2##data2", &s.data2_sd, kGanOptimalSdMin, kGanOptimalSdMax, "%.2f",
                           clamp, slider_state_);
  }
  ImGui::Separator();
  fit_text_colored(legible(gen_colour()), "p_g (the generator, fixed)");
  changed |= real_slider("mean##gen", &s.gen_mean, -m, m, "%.2f", clamp, slider_state_);
  targets_.gen_mean = item_centre();
  changed |= real_slider("sd##gen", &s.gen_sd, kGanOptimalSdMin, kGanOptimalSdMax, "%.2f", clamp,
                         slider_state_);
  ImGui::BeginDisabled(s.data_bimodal);
  if (ImGui::Button("p_g = p_data")) {
    s.gen_mean = s.data_mean;
    s.gen_sd = s.data_sd;
    changed = true;
  }
  targets_.match = item_centre();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::BeginTooltip();
    fit_text_unformatted(s.data_bimodal
                               ? "p_g is one Gaussian: it can equal a one-component p_data only"
                               : "Moves p_g onto p_data: D* = 1/2, JS = 0, V(G, D*) = -log 4");
    ImGui::EndTooltip();
  }

  ImGui::Separator();
  fit_text_colored(legible(trained_colour()), "D (trained, G fixed)");
  int capacity = s.degree - 1;
  if (ImGui::Combo("logit##d", &capacity, "a + bx\0a + bx + cx^2\0")) {
    s.degree = capacity + 1;
    changed = true;
  }
  tooltip_text(
      "D(x) = sigmoid(logit). Quadratic: holds D* exactly for two Gaussians, since log p_data - "
      "log p_g "
      "is quadratic in x. Linear: only when both sds are equal. Neither holds D* for a bimodal "
      "p_data.");
  int optimizer = static_cast<int>(s.optimizer);
  if (ImGui::Combo("optimizer##d", &optimizer, "bound step\0Newton\0")) {
    s.optimizer = static_cast<GanOptimalOptimizer>(optimizer);
    changed = true;
  }
  tooltip_text(
      "Bound step: theta += lr M^-1 grad V, theta = (a, b, c), M = 1/4 sum w (p_data + p_g) phi "
      "phi^T, "
      "phi = (1, x, x^2) (Boehning's bound: sigmoid' <= 1/4). V never decreases for lr in (0, 2); "
      "slow "
      "where D* is near 0 or 1. Newton: the exact Hessian, step halved until V does not decrease.");
  if (s.optimizer == GanOptimalOptimizer::Bound) {
    changed |= real_slider("lr##d", &s.lr, 0.05, 1.95, "%.2f", clamp, slider_state_);
    tooltip_text(
        "Step size of the bound step; 1 = the minorise-maximise step (the largest sure gain).");
  }
  changed |=
      ImGui::SliderInt("steps/frame##d", &s.steps_per_frame, 1, kMaxStepsPerFrame, "%d", clamp);
  tooltip_text(
      "Training steps per drawn frame while 'Train D' is on. Expectations are quadrature sums: "
      "every "
      "step is deterministic.");
  if (changed) {
    try {
      set_settings(s);
    } catch (const std::invalid_argument&) {
      // the sliders keep every value in range; nothing to do but keep the old settings
    }
  }
  if (ImGui::Button(training_ ? "Stop training" : "Train D (G fixed)")) training_ = !training_;
  targets_.train = item_centre();
  tooltip_text(
      "Runs 'steps/frame' ascent steps on V(G, D) = E_pdata[log D] + E_pg[log(1 - D)] each frame, "
      "with G "
      "fixed: D approaches D*.");
  ImGui::SameLine();
  if (ImGui::Button("Reset D")) reset_discriminator();
  targets_.reset = item_centre();
  tooltip_text("D back to a = b = c = 0: D(x) = 1/2, V(G, D) = -log 4.");
  fit_text("step %d%s", d_steps_,
              d_steps_ > 0 && last_grad_norm_ < kConvergedGrad ? " (converged)"
                                                               : (training_ ? " (training)" : ""));
  fit_text("D : a, b, c = %.3g, %.3g, %.3g", d_.a, d_.b, d_.c);
  tooltip_text("The trained D(x) = sigmoid(a + b x + c x^2) (c = 0 for the linear logit).");
  if (!settings_.data_bimodal) {
    const QuadraticLogistic exact = exact_quadratic_logistic(data_, gen_);
    fit_text_disabled("D*: a, b, c = %.3g, %.3g, %.3g", exact.a, exact.b, exact.c);
    tooltip_text(
        "D* as a logistic (log p_data - log p_g is quadratic): c = 1/(2 s_g^2) - 1/(2 s_d^2), "
        "b = m_d/s_d^2 - m_g/s_g^2, a = log(s_g/s_d) - m_d^2/(2 s_d^2) + m_g^2/(2 s_g^2).");
  }
  ImGui::PopItemWidth();
  ImGui::EndChild();
}

void GanOptimalTab::draw_readouts() {
  const float fs = ImGui::GetFontSize();
  const std::string v_text = "V(G, D*) = " + fmt("%.9f", report_.v_optimal);
  const std::string id_text = "2 JS - log 4 = " + fmt("%.9f", report_.identity);
  const std::string diff_text =
      "(difference " + fmt("%.1e", report_.v_optimal - report_.identity) + ")";
  // As large as fits (1 to 1.3 x the font) on one line; on two lines if even 1 x does not fit.
  const float gap = fs * 1.2f;
  const float one_line = ImGui::CalcTextSize(v_text.c_str()).x +
                         ImGui::CalcTextSize(id_text.c_str()).x + ImGui::CalcTextSize("=").x +
                         2.0f * gap;
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool wrap = one_line > avail;
  const float big = wrap ? 1.0f : std::clamp(avail / one_line, 1.0f, 1.3f);
  const float big_h = (wrap ? 2.0f : 1.0f) * ImGui::GetTextLineHeightWithSpacing() * big;
  if (ImGui::BeginChild("##gan_optimal_big", ImVec2(0, big_h), false,
                        ImGuiWindowFlags_NoScrollbar)) {
    ImGui::SetWindowFontScale(big);
    fit_text_colored(legible(optimal_colour()), "%s", v_text.c_str());
    tooltip_text(
        "V(G, D*) = E_pdata[log D*(x)] + E_pg[log(1 - D*(x))] with D*(x) = p_data / (p_data + "
        "p_g): the "
        "generator's objective when D is optimal. Composite Gauss-Legendre quadrature (16 nodes "
        "per panel) "
        "over every component's mean +- 10 sd, log terms through softplus.");
    ImGui::SameLine(0.0f, gap);
    fit_text_unformatted("=");
    if (!wrap) ImGui::SameLine(0.0f, gap);
    fit_text_colored(legible(optimal_colour()), "%s", id_text.c_str());
    tooltip_text(
        "2 JS(p_data || p_g) - log 4, JS computed from M = (p_data + p_g) / 2, not from D*. "
        "Goodfellow et "
        "al. (2014): V(G, D*) = 2 JS - log 4, so with D optimal the generator minimises JS.");
  }
  ImGui::EndChild();
  readout(diff_text,
          "V(G, D*) - (2 JS - log 4): the identity holds to quadrature accuracy (~1e-12).", true);
  readout("JS = " + fmt("%.5f", report_.js) + " (log 2 = 0.69315)",
          "JS(p_data || p_g) = 1/2 KL(p_data || M) + 1/2 KL(p_g || M), M = (p_data + p_g) / 2. "
          "Symmetric, in "
          "[0, log 2]: 0 iff p_g = p_data, log 2 when they do not overlap.");
  readout("KL(p_data || p_g) = " + fmt("%.5f", report_.kl_data_gen),
          "KL(p_data || p_g) = E_pdata[log p_data(x) - log p_g(x)]: large where the data has mass "
          "p_g misses.");
  readout("KL(p_g || p_data) = " + fmt("%.5f", report_.kl_gen_data),
          "KL(p_g || p_data) = E_pg[log p_g(x) - log p_data(x)]: large where p_g puts mass the "
          "data lacks. KL is "
          "not symmetric; JS is.");
  readout("V(G, D) = " + fmt("%.6f", trained_value_),
          "V(G, D) = E_pdata[log D(x)] + E_pg[log(1 - D(x))] for the trained D(x) = sigmoid(a + b "
          "x + c x^2). "
          "Always <= V(G, D*); equal when D = D*.",
          true);
  readout("V(G, D*) - V(G, D) = " + fmt("%.2e", report_.v_optimal - trained_value_),
          "How far the trained D is from optimal in V (>= 0).");
  readout("max |D - D*| = " + fmt("%.2e", trained_gap_),
          "The largest |D(x) - D*(x)| over the quadrature nodes where (p_data + p_g) / 2 is at "
          "least 1e-3 of its "
          "peak (the far tails carry no mass and do not change V).");
}

void GanOptimalTab::draw_plot(const ImVec2& size) {
  // x range: every component's mean +- 4 sd, at least [-6, 6], on even numbers (steady on drags).
  double lo = -6.0, hi = 6.0;
  for (const Mixture1d* m : {&data_, &gen_}) {
    for (const GaussianComponent& c : m->components) {
      lo = std::min(lo, 2.0 * std::floor((c.mean - 4.0 * c.sd) / 2.0));
      hi = std::max(hi, 2.0 * std::ceil((c.mean + 4.0 * c.sd) / 2.0));
    }
  }
  std::vector<double> xs(kCurveSamples), p(kCurveSamples), q(kCurveSamples), opt(kCurveSamples),
      dd(kCurveSamples);
  double peak = 0.0;
  for (int i = 0; i < kCurveSamples; ++i) {
    const double x = lo + (hi - lo) * i / (kCurveSamples - 1);
    xs[i] = x;
    p[i] = pdf(data_, x);
    q[i] = pdf(gen_, x);
    opt[i] = optimal_discriminator(data_, gen_, x);
    dd[i] = d_(x);
    peak = std::max({peak, p[i], q[i]});
  }
  // y: one axis for densities and probabilities; room above 1 for the legend (1.8), steps of 0.5.
  const double top = std::max(1.8, 0.5 * std::ceil(peak * 1.15 / 0.5));
  targets_.plot_min = ImGui::GetCursorScreenPos();
  targets_.plot_max = ImVec2(targets_.plot_min.x + size.x, targets_.plot_min.y + size.y);
  if (!plot::BeginPlot("Densities, D*(x) and the trained D(x)##gan_optimal", size)) return;
  plot::SetupAxes("x", "p(x) and D(x), one axis");
  plot::SetupAxesLimits(lo, hi, -0.03 * top, top, plot::Cond::Always);
  plot::SetupLegend(plot::Location::NorthEast);
  density_item("p_data(x)", xs, p, data_colour());
  density_item("p_g(x)", xs, q, gen_colour());
  const double half_x[2] = {lo, hi}, half_y[2] = {0.5, 0.5};
  plot::PlotLine("D = 1/2", half_x, half_y, 2,
                 line_spec(half_colour(), 1.0f, plot::LineStyle::Dotted));
  plot::PlotLine("D* = p_data/(p_data+p_g)", xs.data(), opt.data(), kCurveSamples,
                 line_spec(optimal_colour(), 2.5f));
  plot::PlotLine("D, trained (dashed)", xs.data(), dd.data(), kCurveSamples,
                 line_spec(trained_colour(), 2.0f, plot::LineStyle::Dashed));
  if (plot::IsPlotHovered()) {
    const double x = plot::GetPlotMousePos().x;
    ImGui::BeginTooltip();
    fit_text("x = %.3f", x);
    fit_text("p_data = %.4g   p_g = %.4g", pdf(data_, x), pdf(gen_, x));
    fit_text("D*(x) = p_data / (p_data + p_g) = %.4f", optimal_discriminator(data_, gen_, x));
    fit_text("D(x) = sigmoid(%.3g + %.3g x + %.3g x^2) = %.4f", d_.a, d_.b, d_.c, d_(x));
    ImGui::EndTooltip();
  }
  plot::EndPlot();
}

}  // namespace cilab
