#include "views/networks/activations_view.h"
#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include "algorithms/networks/activations.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace cilab {
namespace {

ImU32 f_colour() { return plot::GetColormapColor(1); }         // f
ImU32 d_colour() { return plot::GetColormapColor(0); }         // f'
ImU32 sat_colour() { return with_alpha(colors().error, 60); }  // saturated stretches
ImU32 norm_w_colour() { return plot::GetColormapColor(2); }    // ||dL/dW_l||
ImU32 norm_h_colour() { return plot::GetColormapColor(5); }    // ||dL/dh_l||
ImU32 norm_z_colour() { return plot::GetColormapColor(3); }    // ||dL/dz_l||
ImVec4 bad_colour() { return colour_vec(colors().error); }     // vanishing / exploding
ImVec4 good_colour() { return colour_vec(colors().good); }     // stable
constexpr int kCurveSamples = 400;
constexpr double kVanishing = 0.1;  // grad_ratio below: vanishing; above 1 / this: exploding
// grad_factor (the mean factor per layer) above 1 + this: exploding, below 1 / (1 + this): vanishing,
// whatever the depth (tanh with gain 2: x1.16 per layer is x8.45 over 15 layers, x85 over 30).
constexpr double kFactorDrift = 0.1;

std::string fmt(double v, const char* f = "%.3g") { return format_number(v, f); }

nn::Activation next_activation(nn::Activation a) {
  return static_cast<nn::Activation>((static_cast<int>(a) + 1) % nn::kNumActivations);
}

plot::Spec line_spec(ImU32 color, plot::Marker marker = plot::Marker::None, float weight = 2.0f) {
  plot::Spec spec;
  spec.color = color;
  spec.line_weight = weight;
  spec.marker = marker;
  spec.marker_size = 3.0f;
  return spec;
}

// An invisible item that extends the fit up to y_top at x: room above the data
// for the legend (the axes keep fitting the data, the legend never covers it).
void legend_room(const char* id, double x, double y_top) {
  plot::Spec spec;
  spec.flags = plot::ItemFlags_NoLegend;
  if (plot::BeginItem(id, spec)) {
    if (plot::FitThisFrame()) plot::FitPoint(x, y_top);
    plot::EndItem();
  }
}

// The layer nearest to x on a per-layer plot, clamped to 1..n (x may be far off when zoomed out).
int layer_at(double x, int n) {
  return std::isfinite(x) ? static_cast<int>(std::clamp(std::round(x), 1.0, static_cast<double>(n))) : 1;
}

// The reading of the backward pass: what a lecturer would say about it.
std::string reading(const ActivationsSnapshot& s, bool* bad) {
  const double ratio = s.metrics.size() > Activations::kMetricGradRatio ? s.metrics[Activations::kMetricGradRatio] : NAN;
  const double factor = s.metrics.size() > Activations::kMetricGradFactor ? s.metrics[Activations::kMetricGradFactor] : NAN;
  *bad = false;
  if (s.layers <= 1) return "one layer: add layers to see the gradient vanish or explode";
  if (!std::isfinite(ratio)) {
    *bad = true;
    return "gradients overflowed: exploding";
  }
  const std::string per = " (x" + fmt(factor) + " per layer)";
  // The label follows the measured factor per layer too: a steady growth explodes with depth.
  if (ratio < kVanishing || factor < 1.0 / (1.0 + kFactorDrift)) {
    *bad = true;
    return "vanishing: ||dL/dh_1|| is " + fmt(ratio) + " of ||dL/dh_L||" + per;
  }
  if (ratio > 1.0 / kVanishing || factor > 1.0 + kFactorDrift) {
    *bad = true;
    return "exploding: ||dL/dh_1|| is " + fmt(ratio) + " x ||dL/dh_L||" + per;
  }
  return "stable: ||dL/dh_1|| / ||dL/dh_L|| = " + fmt(ratio) + per;
}

}  // namespace

void ActivationsView::draw_controls(const Snapshot& snap, const ViewContext&) {
  const auto* s = dynamic_cast<const ActivationsSnapshot*>(&snap);
  if (!s) return;
  fit_text_disabled("View");
  ImGui::Checkbox("left histogram: pre-activations z (Z)", &show_pre_activations);
  tooltip_text("Off: the activations h_l = f(z_l). On: the pre-activations z_l = h_{l-1} W_l^T + b_l, where the "
               "saturation test |f'(z)| < s max|f'| is made.");
  ImGui::Checkbox("gradient bins per layer (G)", &grad_per_layer_range);
  tooltip_text("Off: one range [-m, m] for all layers (m = the largest |dL/dz|): a vanishing gradient collapses "
               "onto the middle bin. On: each layer on its own range [-m_l, m_l]: the shape of every layer's "
               "gradient, whatever its size.");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderInt("z histogram on f: layer", &overlay_layer, 0, std::max(1, s->layers));
  tooltip_text("Draws the histogram of this layer's pre-activations z_l under f and f' (0: none): the units "
               "inside the shaded stretches are saturated. Raise the input std or the gain to push them there.");
  fit_text_disabled("Keys: A next activation, I next init");
}

void ActivationsView::refresh_grids(const ActivationsSnapshot& s) {
  const int mode = (show_pre_activations ? 1 : 0) | (grad_per_layer_range ? 2 : 0);
  if (grids_serial_ == s.serial.value && grids_mode_ == mode) return;
  grids_serial_ = s.serial.value;
  grids_mode_ = mode;
  const ActivationsHistograms& h = *s.hist;
  const double units = static_cast<double>(s.batch) * s.width;
  auto fill = [&](const std::vector<double>& table, std::vector<double>& grid, double* max) {
    grid.assign(table.size(), 0.0);
    *max = 0.0;
    for (int l = 0; l < h.layers; ++l) {  // grid row r = layer L - r: layer 1 at the bottom
      const double* src = h.row(table, l);
      double* dst = grid.data() + static_cast<size_t>(h.layers - 1 - l) * static_cast<size_t>(h.bins);
      for (int k = 0; k < h.bins; ++k) {
        dst[k] = src[k] / units;
        *max = std::max(*max, dst[k]);
      }
    }
    if (!(*max > 0)) *max = 1.0;
  };
  fill(show_pre_activations ? h.pre : h.act, left_grid_, &left_max_);
  fill(grad_per_layer_range ? h.grad_own : h.grad, right_grid_, &right_max_);
}

void ActivationsView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const ActivationsSnapshot*>(&snap);
  if (!sp || !sp->hist || sp->per_layer.empty()) {
    fit_text_disabled("No pass computed yet (reset the module).");
    return;
  }
  const ActivationsSnapshot& s = *sp;

  // ---- keys: A = next activation, I = next init, G / Z = the heatmap toggles.
  const int a_presses = key_presses(ctx, 'A');
  if (a_presses > 0) {
    nn::Activation a = s.activation;
    for (int i = 0; i < a_presses; ++i) a = next_activation(a);
    out.push_back(ViewIntent::set_param("activation", static_cast<double>(static_cast<int>(a))));
  }
  const int i_presses = key_presses(ctx, 'I');
  if (i_presses > 0)
    out.push_back(ViewIntent::set_param("init", static_cast<double>((static_cast<int>(s.init) + i_presses) % 3)));
  if (key_presses(ctx, 'G') % 2 == 1) grad_per_layer_range = !grad_per_layer_range;
  if (key_presses(ctx, 'Z') % 2 == 1) show_pre_activations = !show_pre_activations;

  // ---- header: the network, the reading, the saturation.
  header_.clear();
  auto item = [&](const std::string& text, const char* tip, bool first, const ImVec4* color = nullptr) {
    if (!first) same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x, ImGui::GetFontSize());
    if (color)
      fit_text_colored(*color, "%s", text.c_str());
    else
      fit_text_unformatted(text.c_str());
    tooltip_text(tip);
    header_.push_back(text);
  };
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s, %s init x gain %s: L = %d layers of width %d, X ~ N(%s, %s^2), n = %d",
                nn::activation_name(s.activation), nn::init_name(s.init), fmt(s.gain).c_str(), s.layers, s.width,
                fmt(s.mean).c_str(), fmt(s.std).c_str(), s.batch);
  item(buf,
       "z_l = h_{l-1} W_l^T + b_l, h_l = f(z_l), h_0 = X (n x w), l = 1..L; W_l scaled by the gain after the "
       "init. Backward: L = (1/n) sum_ij G_ij h_L,ij with G ~ N(0, 1) fixed by the seed, so dL/dh_L = G / n; "
       "then dL/dz_l = dL/dh_l * f'(z_l), dL/dh_{l-1} = dL/dz_l W_l, dL/dW_l = dL/dz_l^T h_{l-1}.",
       true);
  bool bad = false;
  const std::string read = reading(s, &bad);
  const ImVec4 read_colour = bad ? bad_colour() : good_colour();
  item(read,
       "The backward signal: Frobenius norm of dL/dh_1 (after L - 1 layers) against the upstream "
       "dL/dh_L = "
       "G / n. Each layer multiplies it by f'(z_l) elementwise and by W_l: ||dL/dz_l|| <= max|f'| "
       "||dL/dh_l|| "
       "and ||dL/dh_{l-1}|| <= ||W_l||_2 ||dL/dz_l||, so with sigmoid (max f' = 1/4) it shrinks "
       "unless "
       "||W||_2 > 4; a gain > 1 grows it. Per-layer factor = ratio^(1/(L-1)).",
       false, &read_colour);
  const double wr = s.metrics.size() > Activations::kMetricWeightGradRatio ? s.metrics[Activations::kMetricWeightGradRatio] : NAN;
  const double sr = s.metrics.size() > Activations::kMetricSignalRatio ? s.metrics[Activations::kMetricSignalRatio] : NAN;
  if (s.layers > 1) {
    item("||dL/dW_1|| / ||dL/dW_L|| = " + fmt(wr),
         "The weight gradients the optimiser sees, first layer against last. dL/dW_l = dL/dz_l^T h_{l-1} mixes "
         "both passes: when the forward signal h grows as fast as the backward one shrinks (or the reverse) this "
         "ratio stays near 1 although the gradients explode or vanish (try relu, he, gain 2).",
         false);
    item("std(h_L) / std(h_1) = " + fmt(sr),
         "Growth of the forward signal over the layers: << 1 the activations shrink towards a constant, >> 1 "
         "they blow up. Var(z_{l+1}) = w Var(W) gain^2 E[h_l^2] (+ Var(b)).",
         false);
  }
  const double sat = s.metrics.size() > Activations::kMetricSaturated ? s.metrics[Activations::kMetricSaturated] : NAN;
  std::snprintf(buf, sizeof buf, "saturated: %s %% of units", fmt(100.0 * sat, "%.1f").c_str());
  item(buf,
       "Mean over the layers of the fraction of units whose pre-activation lies where |f'(z)| < s max|f'| "
       "(the shaded stretches of the left plot): almost no gradient passes them. For ReLU these are the dead "
       "units (z <= 0).",
       false);
  if (!s.message.empty()) fit_text_colored(bad_colour(), "%s", s.message.c_str());

  // ---- layout: three plots on top, two heatmaps below.
  refresh_grids(s);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float sp_x = ImGui::GetStyle().ItemSpacing.x, sp_y = ImGui::GetStyle().ItemSpacing.y;
  const float min_h = min_plot_height(true);
  // The top row a little taller than the heat maps: its plots carry legends (a Compare half at
  // 100 % keeps them as boxes, not "key" tabs).
  const float top_h = std::max(min_h, (avail.y - sp_y) * 0.56f);
  const float bottom_h = std::max(min_h, avail.y - top_h - sp_y);
  const float w3 = std::max(120.0f, (avail.x - 2 * sp_x) / 3.0f);
  if (w3 < ImGui::GetFontSize() * 11) {
    // Too narrow for three in a row (a Compare half at a large UI scale): one plot per row in a
    // column that scrolls.
    ImGui::BeginChild("##act_rows", avail, false);
    const float row_w = avail.x - ImGui::GetStyle().ScrollbarSize;
    draw_function_plot(s, row_w, top_h);
    draw_norms_plot(s, row_w, top_h);
    draw_stats_plot(s, row_w, top_h);
    draw_heatmap(s, false, row_w, bottom_h);
    draw_heatmap(s, true, row_w, bottom_h);
    ImGui::EndChild();
    return;
  }
  draw_function_plot(s, w3, top_h);
  ImGui::SameLine();
  draw_norms_plot(s, w3, top_h);
  ImGui::SameLine();
  draw_stats_plot(s, std::max(120.0f, avail.x - 2 * (w3 + sp_x)), top_h);
  const float w2 = std::max(160.0f, (avail.x - sp_x) / 2.0f);
  draw_heatmap(s, false, w2, bottom_h);
  ImGui::SameLine();
  draw_heatmap(s, true, std::max(160.0f, avail.x - w2 - sp_x), bottom_h);
}

void ActivationsView::draw_function_plot(const ActivationsSnapshot& s, float w, float h) {
  char title[96];
  std::snprintf(title, sizeof title, "%s and its derivative##act_f", nn::activation_name(s.activation));
  if (!plot::BeginPlot(title, ImVec2(w, h))) return;
  const nn::Activation a = s.activation;
  // Initial limits: z in [-6, 6], y over f and f' there plus room for the legend.
  double y_lo = 0.0, y_hi = 0.0;
  for (int i = 0; i <= 120; ++i) {
    const double z = -6.0 + 0.1 * i;
    for (const double v : {nn::activation_value(a, z), nn::activation_derivative(a, z)}) {
      y_lo = std::min(y_lo, v);
      y_hi = std::max(y_hi, v);
    }
  }
  const double y_room = y_hi + 1.3 * (y_hi - y_lo);
  plot::SetupAxes("z", "f(z), f'(z)");
  plot::SetupAxesLimits(-6.0, 6.0, y_lo - 0.05 * (y_hi - y_lo), y_room, plot::Cond::Once);
  plot::SetupAxesFitKey(static_cast<uint64_t>(a) + 1);  // another activation: refit
  plot::SetupLegend(plot::Location::NorthWest);
  plot::SetupFinish();
  const plot::Limits lim = plot::GetPlotLimits();

  // Saturated stretches of the visible z range, shaded over the full height.
  legend_room("##f_room", 0.0, y_room);
  const char* sat_label = "saturated";
  plot::Spec sat_spec;
  sat_spec.color = sat_colour();
  sat_spec.fill_color = sat_colour();
  sat_spec.flags = plot::ItemFlags_NoFit;
  if (plot::BeginItem(sat_label, sat_spec)) {
    ImDrawList* dl = plot::GetPlotDrawList();
    for (const ZInterval& iv : saturation_intervals(a, s.saturation, lim.x_min, lim.x_max)) {
      const ImVec2 p0 = plot::PlotToPixels(iv.lo, lim.y_max), p1 = plot::PlotToPixels(iv.hi, lim.y_min);
      dl->AddRectFilled(ImVec2(std::min(p0.x, p1.x), std::min(p0.y, p1.y)),
                        ImVec2(std::max(p0.x, p1.x), std::max(p0.y, p1.y)), sat_colour());
    }
    plot::EndItem();
  }
  // Where layer l's units sit: the histogram of z_l, its peak at 40 % of the f range.
  const int ol = std::min(overlay_layer, s.layers);
  if (ol >= 1) {
    const ActivationsHistograms& h = *s.hist;
    char label[48];
    std::snprintf(label, sizeof label, "z of layer %d", ol);
    plot::Spec zs_spec;
    zs_spec.color = with_alpha(colors().neutral, 255);
    zs_spec.flags = plot::ItemFlags_NoFit;
    if (plot::BeginItem(label, zs_spec)) {
      const double* row = h.row(h.pre, ol - 1);
      double peak = 0.0;
      for (int k = 0; k < h.bins; ++k) peak = std::max(peak, row[k]);
      const double dx = (h.pre_hi - h.pre_lo) / h.bins, base = std::min(0.0, y_lo);
      const double scale = peak > 0 ? 0.4 * (y_hi - y_lo) / peak : 0.0;
      ImDrawList* dl = plot::GetPlotDrawList();
      for (int k = 0; k < h.bins; ++k) {
        if (row[k] <= 0) continue;
        const ImVec2 p0 = plot::PlotToPixels(h.pre_lo + k * dx, base + row[k] * scale);
        const ImVec2 p1 = plot::PlotToPixels(h.pre_lo + (k + 1) * dx, base);
        dl->AddRectFilled(ImVec2(p0.x, p0.y), ImVec2(std::max(p1.x, p0.x + 1.0f), p1.y),
                          with_alpha(colors().neutral, 90));
      }
      plot::EndItem();
    }
  }
  double zs[kCurveSamples], fs[kCurveSamples], ds[kCurveSamples];
  for (int i = 0; i < kCurveSamples; ++i) {
    zs[i] = lim.x_min + (lim.x_max - lim.x_min) * i / (kCurveSamples - 1);
    fs[i] = nn::activation_value(a, zs[i]);
    ds[i] = nn::activation_derivative(a, zs[i]);
  }
  plot::PlotLine("f(z)", zs, fs, kCurveSamples, line_spec(f_colour()));
  plot::PlotLine("f'(z)", zs, ds, kCurveSamples, line_spec(d_colour()));
  if (plot::IsPlotHovered()) {
    const double z = plot::GetPlotMousePos().x;
    const double d = nn::activation_derivative(a, z);
    const bool saturated = std::abs(d) < s.saturation * s.derivative_max;
    ImGui::BeginTooltip();
    fit_text("%s\n%s", activation_formula(a), activation_derivative_formula(a));
    ImGui::Separator();
    fit_text("z = %s: f(z) = %s, f'(z) = %s%s", fmt(z).c_str(), fmt(nn::activation_value(a, z)).c_str(),
                fmt(d).c_str(), saturated ? "  (saturated)" : "");
    fit_text_disabled("Saturated: |f'(z)| < s max|f'| = %s x %s; shaded.", fmt(s.saturation).c_str(),
                        fmt(s.derivative_max).c_str());
    ImGui::EndTooltip();
  }
  plot::EndPlot();
}

void ActivationsView::draw_norms_plot(const ActivationsSnapshot& s, float w, float h) {
  if (!plot::BeginPlot("Gradient norms per layer##act_norms", ImVec2(w, h))) return;
  plot::SetupAxes("layer l (1 = input side)", "Frobenius norm", plot::AxisFlags_AutoFit,
                  plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
  plot::SetupLegend(plot::Location::NorthWest);
  plot::SetupFinish();
  const int n = s.layers;
  std::vector<double> xs(static_cast<size_t>(n)), nw(xs.size()), nh(xs.size()), nz(xs.size());
  for (int l = 0; l < n; ++l) {
    const ActivationsLayer& r = s.per_layer[static_cast<size_t>(l)];
    xs[static_cast<size_t>(l)] = l + 1;
    nw[static_cast<size_t>(l)] = r.grad_norm_w;
    nh[static_cast<size_t>(l)] = r.grad_norm_h;
    nz[static_cast<size_t>(l)] = r.grad_norm_z;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (const std::vector<double>* v : {&nw, &nh, &nz})
    for (const double x : *v)
      if (x > 0 && std::isfinite(x)) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
  if (hi > 0) legend_room("##norms_room", 1.0, hi * std::max(10.0, hi / lo));
  plot::PlotLine("||dL/dW_l||", xs.data(), nw.data(), n,
                 line_spec(norm_w_colour(), plot::Marker::Circle));
  plot::PlotLine("||dL/dh_l||", xs.data(), nh.data(), n,
                 line_spec(norm_h_colour(), plot::Marker::Square, 1.5f));
  plot::PlotLine("||dL/dz_l||", xs.data(), nz.data(), n,
                 line_spec(norm_z_colour(), plot::Marker::Diamond, 1.5f));
  if (plot::IsPlotHovered()) {
    const int l = layer_at(plot::GetPlotMousePos().x, n);
    const ActivationsLayer& r = s.per_layer[static_cast<size_t>(l - 1)];
    ImGui::BeginTooltip();
    fit_text("layer %d: ||dL/dW|| = %s, ||dL/dh|| = %s, ||dL/dz|| = %s", l, fmt(r.grad_norm_w).c_str(),
                fmt(r.grad_norm_h).c_str(), fmt(r.grad_norm_z).c_str());
    fit_text_disabled("dL/dW_l = dL/dz_l^T h_{l-1} (torch's W.grad), dL/dz_l = dL/dh_l * f'(z_l),\n"
                        "dL/dh_{l-1} = dL/dz_l W_l. Frobenius norms; log axis.");
    ImGui::EndTooltip();
  }
  plot::EndPlot();
}

void ActivationsView::draw_stats_plot(const ActivationsSnapshot& s, float w, float h) {
  if (!plot::BeginPlot("Forward pass per layer##act_stats", ImVec2(w, h))) return;
  plot::SetupAxes("layer l (1 = input side)", "value", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
  plot::SetupLegend(plot::Location::NorthWest);
  plot::SetupFinish();
  const int n = s.layers;
  std::vector<double> xs(static_cast<size_t>(n)), mean(xs.size()), sd(xs.size()), sat(xs.size());
  for (int l = 0; l < n; ++l) {
    const ActivationsLayer& r = s.per_layer[static_cast<size_t>(l)];
    xs[static_cast<size_t>(l)] = l + 1;
    mean[static_cast<size_t>(l)] = r.act_mean;
    sd[static_cast<size_t>(l)] = r.act_std;
    sat[static_cast<size_t>(l)] = r.saturated;
  }
  double lo = 0.0, hi = 0.0;
  for (const std::vector<double>* v : {&mean, &sd, &sat})
    for (const double x : *v)
      if (std::isfinite(x)) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
  legend_room("##stats_room", 1.0, hi + 1.3 * std::max(hi - lo, 0.1));
  plot::PlotLine("mean h_l", xs.data(), mean.data(), n,
                 line_spec(f_colour(), plot::Marker::Circle));
  plot::PlotLine("std h_l", xs.data(), sd.data(), n, line_spec(d_colour(), plot::Marker::Square));
  plot::PlotLine("saturated", xs.data(), sat.data(), n,
                 line_spec(colors().error, plot::Marker::Diamond));
  if (plot::IsPlotHovered()) {
    const int l = layer_at(plot::GetPlotMousePos().x, n);
    const ActivationsLayer& r = s.per_layer[static_cast<size_t>(l - 1)];
    ImGui::BeginTooltip();
    fit_text("layer %d: h mean %s, std %s; z mean %s, std %s; saturated %s %%", l, fmt(r.act_mean).c_str(),
                fmt(r.act_std).c_str(), fmt(r.pre_mean).c_str(), fmt(r.pre_std).c_str(),
                fmt(100.0 * r.saturated, "%.1f").c_str());
    fit_text_disabled("Over the n x w units of the layer. Input X: mean %s, std %s.", fmt(s.input_mean).c_str(),
                        fmt(s.input_std).c_str());
    ImGui::EndTooltip();
  }
  plot::EndPlot();
}

void ActivationsView::draw_heatmap(const ActivationsSnapshot& s, bool gradients, float w, float h) {
  const ActivationsHistograms& hist = *s.hist;
  double lo, hi;
  const char* title;
  const char* xlabel;
  if (!gradients) {
    lo = show_pre_activations ? hist.pre_lo : hist.act_lo;
    hi = show_pre_activations ? hist.pre_hi : hist.act_hi;
    title = show_pre_activations ? "Pre-activations z_l per layer##act_hist" : "Activations h_l per layer##act_hist";
    xlabel = show_pre_activations ? "z_l" : "h_l = f(z_l)";
  } else {
    lo = grad_per_layer_range ? -1.0 : hist.grad_lo;
    hi = grad_per_layer_range ? 1.0 : hist.grad_hi;
    title = "Gradients dL/dz_l per layer##act_grad";
    xlabel = grad_per_layer_range ? "dL/dz_l / max|dL/dz_l| (each layer)" : "dL/dz_l (one range)";
  }
  const std::vector<double>& grid = gradients ? right_grid_ : left_grid_;
  const double vmax = gradients ? right_max_ : left_max_;
  if (!plot::BeginPlot(title, ImVec2(w, h))) return;
  plot::SetupAxes(xlabel, "layer l", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
  plot::SetupColorBar("fraction of units", 0.0, vmax, plot::Colormap::Viridis);
  plot::SetupFinish();
  plot::PlotHeatmap("##cells", grid.data(), hist.layers, hist.bins, 0.0, vmax, plot::Point{lo, 0.5},
                    plot::Point{hi, hist.layers + 0.5}, plot::Colormap::Viridis);
  if (plot::IsPlotHovered()) {
    const plot::Point m = plot::GetPlotMousePos();
    const double ly = std::round(m.y), kx = std::floor((m.x - lo) / (hi - lo) * hist.bins);
    if (ly >= 1 && ly <= hist.layers && kx >= 0 && kx < hist.bins) {  // before any cast: zoomed far out
      const int l = static_cast<int>(ly), k = static_cast<int>(kx);
      const double dx = (hi - lo) / hist.bins;
      const double frac = grid[static_cast<size_t>(hist.layers - l) * static_cast<size_t>(hist.bins) + static_cast<size_t>(k)];
      const ActivationsLayer& r = s.per_layer[static_cast<size_t>(l - 1)];
      ImGui::BeginTooltip();
      fit_text("layer %d, bin [%s, %s): %s %% of its %d units", l, fmt(lo + k * dx).c_str(),
                  fmt(lo + (k + 1) * dx).c_str(), fmt(100.0 * frac, "%.2f").c_str(), s.batch * s.width);
      if (gradients && grad_per_layer_range)
        fit_text("this layer's range: +-%s", fmt(hist.grad_own_max[static_cast<size_t>(l - 1)]).c_str());
      if (gradients)
        fit_text_disabled("dL/dz_l = dL/dh_l * f'(z_l); ||dL/dz_l|| = %s", fmt(r.grad_norm_z).c_str());
      else
        fit_text_disabled("h_l = f(z_l): std %s; z_l: std %s; saturated %s %%", fmt(r.act_std).c_str(),
                            fmt(r.pre_std).c_str(), fmt(100.0 * r.saturated, "%.1f").c_str());
      ImGui::EndTooltip();
    }
  }
  plot::EndPlot();
}

CILAB_REGISTER_VIEW(Activations, ActivationsView);

}  // namespace cilab
