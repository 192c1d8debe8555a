// The convolution module's view: see convolution_view.h. This file: the header with the
// formula and the oracles, the tab bar, and the Window tab; the other tabs are in
// convolution_view_tabs.cpp.
#include "views/convolutional/convolution_view.h"
#include "views/convolutional/convolution_view_util.h"

#include "views/common/readout.h"
#include "views/common/tab_bar.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"
#include "views/plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cilab {

namespace convview {

double max_abs(const double* v, size_t n) {
  double m = 0;
  for (size_t i = 0; i < n; ++i)
    if (std::isfinite(v[i])) m = std::max(m, std::abs(v[i]));
  return m;
}

MapHover map_panel(const char* title, const double* values, int h, int w, const MapStyle& style, ImVec2 size,
                   const std::function<void()>& overlay) {
  MapHover hit;
  double lo = style.lo, hi = style.hi;
  if (!(hi > lo)) {
    const double m = std::max(max_abs(values, static_cast<size_t>(h) * w), 1e-12);
    lo = style.signed_scale ? -m : 0.0;
    hi = m;
  }
  if (style.signed_scale && std::isnan(style.lo)) {
    const double m = std::max(std::abs(lo), std::abs(hi));
    lo = -m;
    hi = m;
  }
  const plot::Colormap cmap = style.signed_scale ? plot::Colormap::Diverging : plot::Colormap::Gray;
  if (!plot::BeginPlot(title, size, plot::PlotFlags_EqualAspect | plot::PlotFlags_NoLegend | plot::PlotFlags_NoMouseText))
    return hit;
  plot::SetupAxes(style.x_label, style.y_label, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines,
                  plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
  plot::SetupAxesFitKey((static_cast<uint64_t>(h) << 32) ^ static_cast<uint64_t>(w) ^ style.fit_salt);
  plot::SetupAxesLimits(-0.5, w - 0.5, -0.5, h - 0.5, plot::Cond::Once);
  if (style.colour_bar) plot::SetupColorBar(style.colour_bar, lo, hi, cmap);
  plot::PlotHeatmap("##map", values, h, w, lo, hi, plot::Point{-0.5, -0.5}, plot::Point{w - 0.5, h - 0.5}, cmap);
  // Values written in the cells when they are large enough to read.
  const ImVec2 a = plot::PlotToPixels(0, 0), b = plot::PlotToPixels(1, 0);
  const float cell = std::abs(b.x - a.x);
  if (style.numbers && cell > ImGui::GetFontSize() * 2.2f) {
    char buf[32];
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c) {
        const double v = values[static_cast<size_t>(r) * w + c];
        if (!std::isfinite(v)) continue;
        std::snprintf(buf, sizeof buf, std::abs(v - std::round(v)) < 1e-9 ? "%.0f" : "%.2g", v);
        const double t = (v - lo) / (hi - lo);
        const ImU32 ink = style.signed_scale ? colors().text : (t > 0.55 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255));
        plot::PlotText(buf, c, h - 1 - r, ImVec2(0, 0), ink);
      }
  }
  if (overlay) overlay();
  if (plot::IsPlotHovered()) {
    const plot::Point p = plot::GetPlotMousePos();
    const int c = static_cast<int>(std::floor(p.x + 0.5)), r = h - 1 - static_cast<int>(std::floor(p.y + 0.5));
    if (r >= 0 && r < h && c >= 0 && c < w) {
      hit.row = r;
      hit.col = c;
      hit.clicked = plot::IsPlotClicked(0);
    }
  }
  plot::EndPlot();
  return hit;
}

void cell_outline(const char* id, int h, double r0, double c0, double r1, double c1, ImU32 colour, float weight) {
  // Rows r0..r1 and columns c0..c1 inclusive (cell units), drawn in plot coordinates.
  const double xs[4] = {c0 - 0.5, c1 + 0.5, c1 + 0.5, c0 - 0.5};
  const double ys[4] = {h - 1 - r0 + 0.5, h - 1 - r0 + 0.5, h - 1 - r1 - 0.5, h - 1 - r1 - 0.5};
  plot::Spec spec;
  spec.color = colour;
  spec.line_weight = weight;
  spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
  plot::PlotPolygon(id, xs, ys, 4, with_alpha(colour, 0), spec);
}

std::string oracle_word(double v, double tol) {
  if (std::isnan(v)) return "n/a";
  return v <= tol ? "holds" : "FAILS";
}

}  // namespace convview

using namespace convview;

void ConvolutionView::on_reset() {
  pinned_row = pinned_col = -1;
  channel = 0;
  filter = -1;
}

int ConvolutionView::shown_filter(const ConvolutionSnapshot& s) const {
  const int F = s.lesson->setup.filters;
  if (filter >= 0) return std::min(filter, F - 1);
  return std::clamp(s.filter, 0, F - 1);
}

void ConvolutionView::draw_controls(const Snapshot& snap, const ViewContext&) {
  const auto* s = dynamic_cast<const ConvolutionSnapshot*>(&snap);
  if (!s || !s->lesson) return;
  const convmath::Setup& st = s->lesson->setup;
  if (st.c > 1) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderInt("input channel", &channel, 0, st.c - 1);
    tooltip_text("The input channel drawn in the Window tab, with that channel's slice of the kernel. Every filter "
                 "sums its products over all channels.");
  }
  channel = std::clamp(channel, 0, st.c - 1);
  if (st.filters > 1) {
    bool follow = filter < 0;
    if (ImGui::Checkbox("follow the window", &follow)) filter = follow ? -1 : std::max(0, s->filter);
    tooltip_text("Show the filter being stepped (on), or the one chosen below (off).");
    if (!follow) {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      ImGui::SliderInt("filter shown", &filter, 0, st.filters - 1);
      filter = std::clamp(filter, 0, st.filters - 1);
    }
  }
  if (pinned_row >= 0 && ImGui::SmallButton("unpin the output cell")) pinned_row = pinned_col = -1;
}

void ConvolutionView::draw_header(const ConvolutionSnapshot& s, const ViewContext&) {
  const ConvLesson& L = *s.lesson;
  const convmath::Setup& st = L.setup;
  static const char* kSize[] = {"valid", "same", "full", "explicit"};
  static const char* kPad[] = {"zeros", "reflect", "replicate", "circular"};
  std::string kernels;
  for (size_t f = 0; f < L.kernel_names.size() && f < 4; ++f) kernels += (f ? ", " : "") + L.kernel_names[f];
  if (L.kernel_names.size() > 4) kernels += ", ...";
  fit_text("%s. %d filter%s of %d x %d x %d (%s), %s.", L.input_name.c_str(), st.filters, st.filters > 1 ? "s" : "",
           st.c, st.kh(), st.k, kernels.c_str(), L.convolution ? "convolution (kernel flipped)" : "correlation");
  auto axis = [&](int in, int out, int measured) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "floor((%d + 2*%d - %d*(%d - 1) - 1) / %d) + 1 = %d (counted: %d)", in, st.pad,
                  st.dilation, st.k, st.stride, out, measured);
    return std::string(buf);
  };
  char geometry[128];
  std::snprintf(geometry, sizeof geometry, "%s padding, P = %d (%s), S = %d, d = %d: O", kPad[static_cast<int>(st.padding)],
                st.pad, kSize[L.size_mode], st.stride, st.dilation);
  const bool size_ok = s.metrics[Convolution::kMetricSizeError] == 0;
  ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(size_ok ? colors().good : colors().error));
  if (st.signal())
    fit_text("%s = %s", geometry, axis(st.w, st.out_w(), L.measured_w).c_str());
  else if (st.h == st.w)
    fit_text("%s = %s per side: output %d x %d x %d", geometry, axis(st.w, st.out_w(), L.measured_w).c_str(), st.filters,
             st.out_h(), st.out_w());
  else
    fit_text("%s_h = %s;  O_w = %s", geometry, axis(st.h, st.out_h(), L.measured_h).c_str(),
             axis(st.w, st.out_w(), L.measured_w).c_str());
  ImGui::PopStyleColor();
  tooltip_text("O = floor((I + 2P - d(K - 1) - 1) / S) + 1: the output size from the formula (torch.nn.Conv2d's), beside the number of window positions that "
               "fit, counted one by one: I input size, P padding on each side, K kernel size, d dilation (the kernel "
               "spans d(K - 1) + 1), S stride.");
  // The oracles, one coloured item each.
  struct Item {
    const char* label;
    double value;
    double tol;
    const char* help;
  };
  const Item items[] = {
      {"corr = flipped conv", s.metrics[Convolution::kMetricFlipError], 1e-9,
       "Cross-correlation with the kernel rotated by 180 degrees equals the convolution sum_t f[t] h[u - t] computed "
       "from its definition: max difference shown."},
      {"y = W x", s.metrics[Convolution::kMetricMatrixError], 1e-9,
       "The band (Toeplitz) matrix W built from its formula times x, plus the bias, equals the output: max "
       "difference shown (Matrix tab)."},
      {"FFT = direct", s.metrics[Convolution::kMetricFftError], 1e-12,
       "Circular convolution computed as the inverse FFT of the product of FFTs equals the direct sum to 1e-12 "
       "(relative; FFT tab)."},
      {"shift equivariance", s.metrics[Convolution::kMetricEquivarianceError], 1e-9,
       "conv(shift x) = shift conv(x) for a shift by one column: exact with circular padding, stride 1 and size "
       "same; n/a otherwise (zero padding breaks it at the edges)."},
      {"max-pool grad at argmax", s.metrics[Convolution::kMetricRoutingError], 0.0,
       "Backward through max pooling puts each window's gradient on its argmax and nowhere else (Pooling tab); n/a "
       "for average pooling or a window that does not fit."},
  };
  oracle_text_.clear();
  bool first = true;
  for (const Item& it : items) {
    const std::string word = oracle_word(it.value, it.tol);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: %s", it.label, word.c_str());
    if (first) {
      ImGui::TextDisabled("oracles:");
      tooltip_text("Each identity checked on this run's numbers (green while it holds; hover one for its difference).");
    }
    same_line_if_fits(ImGui::CalcTextSize(buf).x + ImGui::GetStyle().ItemSpacing.x * 2);
    first = false;
    const ImU32 col = word == "holds" ? colors().good : word == "n/a" ? colors().text_dim : colors().error;
    ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(col));
    ImGui::TextUnformatted(buf);
    ImGui::PopStyleColor();
    const std::string help = std::string(it.help) + (std::isnan(it.value) ? "" : " Difference: " + readout_number(it.value, "%.2e") + ".");
    tooltip_text(help.c_str());
    oracle_text_ += std::string(oracle_text_.empty() ? "" : "; ") + buf;
  }
}

void ConvolutionView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const ConvolutionSnapshot*>(&snap);
  if (!sp || !sp->lesson) {
    fit_text_disabled("convolution: %s", snap.message.empty() ? "not reset yet" : snap.message.c_str());
    return;
  }
  const ConvolutionSnapshot& s = *sp;
  draw_header(s, ctx);
  const TabItem tabs[] = {
      {"Window", "The sliding window: padded input, kernel, output map, and the window's products and sum"},
      {"Matrix", "y = W x: the band (Toeplitz) matrix of the convolution"},
      {"FFT", "Circular convolution direct against the FFT product, and their timings over n"},
      {"Pooling", "Max or average pooling of the output map: the argmaxes and where the gradient goes"},
      {"Receptive field", "Receptive field and parameter counts of a layer stack (the layers parameter)"}};
  tab_ = static_cast<Tab>(tab_bar_with_keys("##conv_tabs", ctx, tabs, 5, static_cast<int>(tab_)));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(avail.x, std::max(min_plot_height(true), avail.y));
  switch (tab_) {
    case Tab::Window: draw_window(s, size, out); break;
    case Tab::Matrix: draw_matrix(s, size); break;
    case Tab::Fft: draw_fft(s, size); break;
    case Tab::Pooling: draw_pooling(s, size); break;
    case Tab::Receptive: draw_receptive(s, size); break;
  }
}

void ConvolutionView::draw_products(const ConvolutionSnapshot& s) {
  const ConvLesson& L = *s.lesson;
  const convmath::Setup& st = L.setup;
  const int ow = st.out_w(), per = st.positions();
  // The window's products and their sum.
  if (s.row < 0) {
    fit_text_disabled("Step (or sub-step) to slide the window: each step writes one output position.");
    return;
  }
  const std::vector<convmath::Term> terms =
      convmath::window_terms(st, L.x, L.kernels, L.convolution, s.filter, s.row, s.col);
  std::string sum;
  int shown = 0;
  double total = L.bias[static_cast<size_t>(s.filter)];
  for (const convmath::Term& t : terms) {
    total += t.w * t.x;
    if (t.w == 0 || shown >= 9) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s (%.3g)(%.3g)", shown ? "+" : "", t.w, t.x);
    sum += buf;
    ++shown;
  }
  int nonzero = 0;
  for (const convmath::Term& t : terms) nonzero += t.w != 0;
  if (nonzero > shown) sum += " + ... (" + std::to_string(nonzero - shown) + " more)";
  const bool written = s.phase == 0;
  if (st.signal())
    fit_text("Position %d of %d: y[%d, %d] = b +%s", s.filter * per + s.col + 1, L.positions(), s.filter, s.col, sum.c_str());
  else
    fit_text("Position %d of %d: y[%d, %d, %d] = b +%s", s.filter * per + s.row * ow + s.col + 1, L.positions(), s.filter,
             s.row, s.col, sum.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(written ? colors().accent : colors().text_dim));
  fit_text(written ? "= %s (b) + %s = %s, written into the output map (%zu products over %d channel%s)"
                   : "= %s (b) + %s = %s: the products are shown; the next sub-step writes the sum (%zu products over %d channel%s)",
           readout_number(L.bias[static_cast<size_t>(s.filter)], "%.3g").c_str(),
           readout_number(total - L.bias[static_cast<size_t>(s.filter)], "%.4g").c_str(), readout_number(total, "%.4g").c_str(),
           terms.size(), st.c, st.c > 1 ? "s" : "");
  ImGui::PopStyleColor();
}

namespace {

// The `kernel` parameter's item for filter g as the lesson has it: its name, or its values typed
// (channel 0, as given: before any flip).
std::string kernel_item(const ConvLesson& L, int g, int edit_index = -1, double edit_value = 0) {
  const convmath::Setup& st = L.setup;
  const std::string& name = L.kernel_names[static_cast<size_t>(g)];
  if (edit_index < 0 && name != "typed") return name;
  const int kh = st.kh(), kw = st.k;
  std::string text;
  char buf[32];
  for (int p = 0; p < kh; ++p) {
    if (p) text += ';';
    for (int q = 0; q < kw; ++q) {
      const int idx = p * kw + q;
      const double v = idx == edit_index ? edit_value : L.kernels[static_cast<size_t>(g) * st.c * kh * kw + static_cast<size_t>(idx)];
      std::snprintf(buf, sizeof buf, "%s%.6g", q ? "," : "", v);
      text += buf;
    }
  }
  return text;
}

// The whole `kernel` text with filter f's item replaced.
std::string kernel_text(const ConvLesson& L, int f, const std::string& item) {
  std::string text;
  for (int g = 0; g < L.setup.filters; ++g) text += (g ? "|" : "") + (g == f ? item : kernel_item(L, g));
  return text;
}

}  // namespace

void ConvolutionView::draw_kernel_editor(const ConvolutionSnapshot& s, int f, int p, int q, bool clicked, float width,
                                         std::vector<ViewIntent>& out) {
  const ConvLesson& L = *s.lesson;
  const convmath::Setup& st = L.setup;
  auto change = [&](const std::string& item) {
    out.push_back(ViewIntent::set_text("kernel", kernel_text(L, f, item)));
    out.push_back(ViewIntent::seek(s.iteration));  // the new run is stepped back to this position
  };
  static const char* kImage[] = {"identity", "box", "gaussian", "sobel_x", "sobel_y", "laplacian", "sharpen", "emboss", "random"};
  static const char* kSignal[] = {"identity", "box", "gaussian", "derivative", "sobel_x", "laplacian", "sharpen", "emboss", "random"};
  const char* const* names = st.signal() ? kSignal : kImage;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo("##conv_kernel_preset", "kernel preset...")) {
    for (int i = 0; i < 9; ++i)
      if (ImGui::Selectable(names[i], L.kernel_names[static_cast<size_t>(f)] == names[i])) change(names[i]);
    ImGui::EndCombo();
  }
  tooltip_text("Sets the shown filter's kernel (the kernel parameter; box, gaussian, identity and random take "
               "kernel_size). A click on a kernel cell edits its value.");
  if (clicked && st.c == 1) {
    edit_f_ = f;
    edit_p_ = p;
    edit_q_ = q;
    const int kh = st.kh(), kw = st.k;
    const int pp = L.convolution ? kh - 1 - p : p, qq = L.convolution ? kw - 1 - q : q;
    edit_value_ = L.kernels[static_cast<size_t>(f) * kh * kw + static_cast<size_t>(pp * kw + qq)];
    ImGui::OpenPopup("##conv_kernel_cell");
  }
  if (ImGui::BeginPopup("##conv_kernel_cell")) {
    ImGui::Text("w[%d, %d] of filter %d", edit_p_, edit_q_, edit_f_);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputDouble("##conv_w", &edit_value_, 0.0, 0.0, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((enter || ImGui::Button("apply")) && std::isfinite(edit_value_) && edit_f_ < st.filters) {
      const int kh = st.kh(), kw = st.k;
      const int pp = L.convolution ? kh - 1 - edit_p_ : edit_p_, qq = L.convolution ? kw - 1 - edit_q_ : edit_q_;
      if (pp >= 0 && pp < kh && qq >= 0 && qq < kw) {
        const std::string item = kernel_item(L, edit_f_, pp * kw + qq, edit_value_);
        out.push_back(ViewIntent::set_text("kernel", kernel_text(L, edit_f_, item)));
        out.push_back(ViewIntent::seek(s.iteration));
      }
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

void ConvolutionView::draw_window(const ConvolutionSnapshot& s, ImVec2 size, std::vector<ViewIntent>& intents) {
  const ConvLesson& L = *s.lesson;
  const convmath::Setup& st = L.setup;
  const int f = shown_filter(s);
  const int oh = st.out_h(), ow = st.out_w(), per = st.positions();
  const int ch = std::clamp(channel, 0, st.c - 1);
  // The position shown: the one computed (phase 1) or written last; a pinned or hovered cell's
  // receptive field is drawn on the input too.
  const bool stepping = s.row >= 0 && s.filter == f;
  // The output map so far: written cells, NaN (blank) elsewhere.
  std::vector<double> out(static_cast<size_t>(per), NAN);
  const int done_before = f * per;
  for (int k = 0; k < per; ++k)
    if (done_before + k < s.written) out[static_cast<size_t>(k)] = L.y[static_cast<size_t>(done_before + k)];
  const double out_scale = std::max(max_abs(L.y.data() + static_cast<size_t>(f) * per, static_cast<size_t>(per)), 1e-12);

  // The window's products and their sum first (always in view), the panels below.
  const float top = ImGui::GetCursorPosY();
  draw_products(s);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float panel_h = std::max(min_plot_height(true), size.y - (ImGui::GetCursorPosY() - top));
  const float kernel_w = std::min(size.x * 0.22f, panel_h);
  const float big_w = (size.x - kernel_w - 2 * gap) / 2;
  const int ph = st.h + 2 * st.pad_h(), pw = st.w + 2 * st.pad;
  const int kh = st.kh(), kw = st.k;
  const int hov_row = pinned_row >= 0 ? pinned_row : hover_row_, hov_col = pinned_row >= 0 ? pinned_col : hover_col_;
  hover_row_ = hover_col_ = -1;

  // Window origin in padded coordinates for output (i, j).
  auto window_overlay = [&](int i, int j, ImU32 colour, const char* id) {
    const int r0 = i * st.stride, c0 = j * st.stride;
    if (st.dilation == 1 || kw * kh > 49) {
      cell_outline(id, st.signal() ? 1 : ph, r0, c0, r0 + st.dilation * (kh - 1), c0 + st.dilation * (kw - 1), colour, 2.5f);
    } else {
      for (int p = 0; p < kh; ++p)
        for (int q = 0; q < kw; ++q)
          cell_outline(id, st.signal() ? 1 : ph, r0 + p * st.dilation, c0 + q * st.dilation, r0 + p * st.dilation,
                       c0 + q * st.dilation, colour, 2.0f);
    }
  };

  if (st.signal()) {
    draw_signal_window(s, f, out, out_scale, big_w, kernel_w, panel_h, hov_col, intents);
  } else {
    // Padded input (channel ch), padding cells dimmed by the outline of the unpadded input.
    std::vector<double> pin(L.padded.begin() + static_cast<long>(ch) * ph * pw, L.padded.begin() + static_cast<long>(ch + 1) * ph * pw);
    double lo = 0, hi = 0;
    for (double v : L.x) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    MapStyle in_style;
    in_style.lo = lo;
    in_style.hi = hi > lo ? hi : lo + 1;
    in_style.numbers = true;
    in_style.x_label = "column (padded)";
    in_style.y_label = "row";
    char title[160];
    std::snprintf(title, sizeof title, "input, channel %d of %d, padded to %d x %d##conv_in", ch, st.c, ph, pw);
    map_panel(title, pin.data(), ph, pw, in_style, ImVec2(big_w, panel_h), [&] {
      if (st.pad > 0) cell_outline("##unpadded", ph, st.pad, st.pad, st.pad + st.h - 1, st.pad + st.w - 1, colors().neutral, 1.5f);
      if (hov_row >= 0) window_overlay(hov_row, hov_col, colors().warning, "##rf");
      if (stepping) window_overlay(s.row, s.col, colors().accent, "##window");
    });
    ImGui::SameLine();
    // The kernel slice (filter f, channel ch) as applied: flipped for a convolution.
    std::vector<double> k(static_cast<size_t>(kh) * kw);
    for (int p = 0; p < kh; ++p)
      for (int q = 0; q < kw; ++q) {
        const int pp = L.convolution ? kh - 1 - p : p, qq = L.convolution ? kw - 1 - q : q;
        k[static_cast<size_t>(p) * kw + q] = L.kernels[((static_cast<size_t>(f) * st.c + ch) * kh + pp) * kw + qq];
      }
    MapStyle k_style;
    k_style.signed_scale = true;
    k_style.numbers = true;
    k_style.x_label = "q";
    k_style.y_label = "p";
    k_style.fit_salt = 1;
    std::snprintf(title, sizeof title, "kernel %d (%s)%s##conv_k", f, L.kernel_names[static_cast<size_t>(f)].c_str(),
                  L.convolution ? ", flipped" : "");
    ImGui::BeginGroup();
    const float combo_h = ImGui::GetFrameHeightWithSpacing();
    const MapHover kh_hit = map_panel(title, k.data(), kh, kw, k_style,
                                      ImVec2(kernel_w, std::max(min_plot_height(true),
                                                                std::min(panel_h - combo_h, kernel_w + min_plot_height(true) * 0.4f))));
    if (kh_hit.row >= 0)
      ImGui::SetTooltip("w[%d, %d] = %s%s", kh_hit.row, kh_hit.col,
                        readout_number(k[static_cast<size_t>(kh_hit.row) * kw + kh_hit.col], "%.4g").c_str(),
                        st.c == 1 ? "\nclick to edit" : "\n(several channels: edit the kernel parameter)");
    draw_kernel_editor(s, f, kh_hit.row, kh_hit.col, kh_hit.clicked, kernel_w, intents);
    ImGui::EndGroup();
    ImGui::SameLine();
    MapStyle o_style;
    o_style.signed_scale = true;
    o_style.lo = -out_scale;
    o_style.hi = out_scale;
    o_style.numbers = true;
    o_style.x_label = "column j";
    o_style.y_label = "row i";
    o_style.fit_salt = 2;
    o_style.colour_bar = "y##conv_out_bar";
    std::snprintf(title, sizeof title, "output, filter %d: %d x %d (%d of %d written)##conv_out", f, oh, ow,
                  std::clamp(s.written - done_before, 0, per), per);
    const MapHover hit = map_panel(title, out.data(), oh, ow, o_style, ImVec2(big_w, panel_h), [&] {
      if (stepping) cell_outline("##current", oh, s.row, s.col, s.row, s.col, colors().accent, 2.5f);
      if (pinned_row >= 0) cell_outline("##pinned", oh, pinned_row, pinned_col, pinned_row, pinned_col, colors().warning, 2.0f);
    });
    if (hit.row >= 0) {
      hover_row_ = hit.row;
      hover_col_ = hit.col;
      const double v = L.y[(static_cast<size_t>(f) * oh + hit.row) * ow + hit.col];
      ImGui::SetTooltip("y[%d, %d, %d] = %s%s\nits receptive field is outlined on the input; click to pin it", f, hit.row,
                        hit.col, readout_number(v, "%.4g").c_str(),
                        done_before + hit.row * ow + hit.col < s.written ? "" : " (not written yet)");
      if (hit.clicked) {
        pinned_row = hit.row;
        pinned_col = hit.col;
      }
    }
  }

}

CILAB_REGISTER_VIEW(Convolution, ConvolutionView);

}  // namespace cilab
