// The convolution view's tabs besides the image window: the signal window, Matrix, FFT, Pooling
// and Receptive field (see convolution_view.h).
#include "views/convolutional/convolution_view.h"
#include "views/convolutional/convolution_view_util.h"

#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cilab {

using namespace convview;

namespace {

plot::Spec line_spec(ImU32 colour, plot::Marker marker = plot::Marker::None, float weight = 1.5f) {
  plot::Spec s;
  s.color = colour;
  s.marker = marker;
  s.line_weight = weight;
  return s;
}

ImU32 series(int i) { return plot::GetColormapColor(i, plot::Colormap::Categorical); }

// A signal's values against their index (x0 the first index), as a line with markers.
void signal_plot_line(const char* label, const std::vector<double>& v, double x0, ImU32 colour, plot::Marker m) {
  std::vector<double> xs(v.size());
  for (size_t i = 0; i < v.size(); ++i) xs[i] = x0 + static_cast<double>(i);
  plot::PlotLine(label, xs.data(), v.data(), static_cast<int>(v.size()), line_spec(colour, m));
}

}  // namespace

void ConvolutionView::draw_signal_window(const ConvolutionSnapshot& s, int f, const std::vector<double>& out,
                                         double out_scale, float big_w, float kernel_w, float panel_h, int pinned,
                                         std::vector<ViewIntent>& intents) {
  const ConvLesson& L = *s.lesson;
  const convmath::Setup& st = L.setup;
  const int n = st.w, P = st.pad, ow = st.out_w();
  const int span = st.dilation * (st.k - 1);
  double lo = 0, hi = 0;
  for (double v : L.padded) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const double pad_y = 0.1 * std::max(hi - lo, 1e-9);
  const int stepping_col = s.row >= 0 && s.filter == f ? s.col : -1;
  auto window = [&](int j, ImU32 colour, const char* id) {
    const double x0 = j * st.stride - P - 0.4, x1 = j * st.stride - P + span + 0.4;
    const double xs[4] = {x0, x1, x1, x0}, ys[4] = {lo - pad_y, lo - pad_y, hi + pad_y, hi + pad_y};
    plot::Spec sp;
    sp.color = colour;
    sp.line_weight = 2.0f;
    sp.flags = plot::ItemFlags_NoFit;
    plot::PlotPolygon(id, xs, ys, 4, with_alpha(colour, 40), sp);
    // The taps the kernel touches.
    std::vector<double> tx, ty;
    for (int q = 0; q < st.k; ++q) {
      const int pos = j * st.stride + q * st.dilation;  // in padded coordinates
      tx.push_back(pos - P);
      ty.push_back(L.padded[static_cast<size_t>(pos)]);
    }
    plot::Spec tap = line_spec(colour, plot::Marker::Circle);
    tap.marker_size = 5.5f;
    tap.flags = plot::ItemFlags_NoLegend;
    plot::PlotScatter("##taps", tx.data(), ty.data(), static_cast<int>(tx.size()), tap);
  };
  char title[160];
  std::snprintf(title, sizeof title, "input, padded by %d on each side##conv_sig_in", P);
  if (plot::BeginPlot(title, ImVec2(big_w, panel_h))) {
    plot::SetupAxes("position t", "x[t]");
    plot::SetupAxesFitKey(static_cast<uint64_t>(n * 131 + P));
    plot::SetupLegend(plot::Location::NorthWest);
    // The padding's values (what the window sees outside the input), then the input.
    std::vector<double> px, py;
    for (int i = 0; i < n + 2 * P; ++i)
      if (i < P || i >= P + n) {
        px.push_back(i - P);
        py.push_back(L.padded[static_cast<size_t>(i)]);
      }
    if (!px.empty()) {
      plot::Spec ps = line_spec(colors().neutral, plot::Marker::Square);
      plot::PlotScatter("padding", px.data(), py.data(), static_cast<int>(px.size()), ps);
    }
    signal_plot_line("x", L.x, 0, colors().text, plot::Marker::Circle);
    if (pinned >= 0) window(pinned, colors().warning, "receptive field");
    if (stepping_col >= 0) window(stepping_col, colors().accent, "window");
    plot::EndPlot();
  }
  ImGui::SameLine();
  std::vector<double> k(static_cast<size_t>(st.k));
  for (int q = 0; q < st.k; ++q)
    k[static_cast<size_t>(q)] = L.kernels[static_cast<size_t>(f) * st.c * st.k + (L.convolution ? st.k - 1 - q : q)];
  std::snprintf(title, sizeof title, "kernel %d (%s)%s##conv_sig_k", f, L.kernel_names[static_cast<size_t>(f)].c_str(),
                L.convolution ? ", flipped" : "");
  ImGui::BeginGroup();
  int hit_q = -1;
  bool clicked = false;
  if (plot::BeginPlot(title, ImVec2(kernel_w, std::max(min_plot_height(true), panel_h - ImGui::GetFrameHeightWithSpacing())),
                      plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("tap q", "w[q]");
    plot::SetupAxesFitKey(static_cast<uint64_t>(st.k));
    plot::PlotBars("w", k.data(), st.k, 0.67, 0.0, line_spec(colors().positive));
    if (plot::IsPlotHovered()) {
      const int q = static_cast<int>(std::lround(plot::GetPlotMousePos().x));
      if (q >= 0 && q < st.k) {
        hit_q = q;
        clicked = plot::IsPlotClicked(0);
        ImGui::SetTooltip("w[%d] = %s\nclick to edit", q, readout_number(k[static_cast<size_t>(q)], "%.4g").c_str());
      }
    }
    plot::EndPlot();
  }
  draw_kernel_editor(s, f, 0, hit_q, clicked && hit_q >= 0, kernel_w, intents);
  ImGui::EndGroup();
  ImGui::SameLine();
  const int written = std::clamp(s.written - f * ow, 0, ow);
  std::snprintf(title, sizeof title, "output, filter %d: %d values (%d written)##conv_sig_out", f, ow, written);
  if (plot::BeginPlot(title, ImVec2(big_w, panel_h), plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("output position j", "y[j]");
    plot::SetupAxesFitKey(static_cast<uint64_t>(ow * 977) ^ static_cast<uint64_t>(out_scale * 1e6));
    plot::SetupAxesLimits(-0.5, ow - 0.5, -out_scale * 1.1, out_scale * 1.1, plot::Cond::Once);
    std::vector<double> done(out.begin(), out.begin() + written);
    signal_plot_line("y", done, 0, colors().accent, plot::Marker::Circle);
    if (stepping_col >= 0 && stepping_col < written) {
      const double xs = stepping_col, ys = out[static_cast<size_t>(stepping_col)];
      plot::Spec cur = line_spec(colors().selection, plot::Marker::Circle);
      cur.marker_size = 6.5f;
      plot::PlotScatter("##current", &xs, &ys, 1, cur);
    }
    if (plot::IsPlotHovered()) {
      const int j = static_cast<int>(std::lround(plot::GetPlotMousePos().x));
      if (j >= 0 && j < ow) {
        hover_col_ = j;
        hover_row_ = 0;
        ImGui::SetTooltip("y[%d] = %s%s\nits receptive field is shaded on the input; click to pin it", j,
                          readout_number(L.y[static_cast<size_t>(f * ow + j)]).c_str(), j < written ? "" : " (not written yet)");
        if (plot::IsPlotClicked(0)) {
          pinned_row = 0;
          pinned_col = j;
        }
      }
    }
    plot::EndPlot();
  }
}

void ConvolutionView::draw_matrix(const ConvolutionSnapshot& s, ImVec2 size) {
  const ConvLesson& L = *s.lesson;
  const convmath::Setup& st = L.setup;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  fit_text("y = W x + b: row i of W holds the kernel shifted to output position i (stride S moves it S columns, "
           "dilation spreads its taps); max |W x + b - y| = %s",
           readout_number(s.metrics[Convolution::kMetricMatrixError], "%.2g").c_str());
  tooltip_text("Copying the kernel into shifted rows builds a band (Toeplitz) matrix: the convolution is this matrix "
               "times the input. Padding changes the edges: zeros drop entries, circular padding wraps them around "
               "(a circulant matrix), reflect and replicate fold them back onto the first and last columns.");
  const float h = size.y - line;
  const bool both = L.matrix.size() > 0 && !st.signal();
  const float w = both ? (size.x - gap) / 2 : size.x * 0.55f;
  MapStyle ms;
  ms.signed_scale = true;
  ms.numbers = true;
  ms.x_label = "input position";
  ms.y_label = "output position";
  ms.colour_bar = "w##conv_w_bar";
  if (both) {
    const Eigen::MatrixXd& W = L.matrix;
    std::vector<double> rows(static_cast<size_t>(W.size()));
    for (Eigen::Index r = 0; r < W.rows(); ++r)
      for (Eigen::Index c = 0; c < W.cols(); ++c) rows[static_cast<size_t>(r * W.cols() + c)] = W(r, c);
    char title[160];
    std::snprintf(title, sizeof title, "W of filter 0: %d x %d (doubly block Toeplitz)##conv_W2", static_cast<int>(W.rows()),
                  static_cast<int>(W.cols()));
    ms.fit_salt = 11;
    const MapHover hit = map_panel(title, rows.data(), static_cast<int>(W.rows()), static_cast<int>(W.cols()), ms, ImVec2(w, h));
    if (hit.row >= 0) {
      const int c = hit.col % (st.h * st.w);
      ImGui::SetTooltip("W[%d, %d] = %s\noutput (%d, %d) <- input channel %d, (%d, %d)", hit.row, hit.col,
                        readout_number(W(hit.row, hit.col), "%.3g").c_str(), hit.row / st.out_w(), hit.row % st.out_w(),
                        hit.col / (st.h * st.w), c / st.w, c % st.w);
    }
    ImGui::SameLine();
  }
  if (L.toeplitz.size() > 0) {
    const Eigen::MatrixXd& T = L.toeplitz;
    std::vector<double> rows(static_cast<size_t>(T.size()));
    for (Eigen::Index r = 0; r < T.rows(); ++r)
      for (Eigen::Index c = 0; c < T.cols(); ++c) rows[static_cast<size_t>(r * T.cols() + c)] = T(r, c);
    char title[160];
    std::snprintf(title, sizeof title, "%s: W is %d x %d##conv_T", st.signal() ? "the signal" : "the middle row with the kernel's middle row",
                  static_cast<int>(T.rows()), static_cast<int>(T.cols()));
    ms.fit_salt = 12;
    const MapHover hit = map_panel(title, rows.data(), static_cast<int>(T.rows()), static_cast<int>(T.cols()), ms, ImVec2(w, h));
    if (hit.row >= 0)
      ImGui::SetTooltip("W[%d, %d] = %s: y[%d] takes x[%d] with this weight", hit.row, hit.col,
                        readout_number(T(hit.row, hit.col), "%.3g").c_str(), hit.row, hit.col);
    if (!both) {
      ImGui::SameLine();
      // W x beside the convolution: the same values.
      if (plot::BeginPlot("W x against conv(x)##conv_Wx", ImVec2(size.x - w - gap, h))) {
        plot::SetupAxes("output position", "value");
        plot::SetupLegend(plot::Location::NorthWest);
        const Eigen::VectorXd wx =
            T * Eigen::Map<const Eigen::VectorXd>(L.row_signal.data(), static_cast<Eigen::Index>(L.row_signal.size()));
        std::vector<double> wxv(wx.data(), wx.data() + wx.size());
        signal_plot_line("conv(x)", L.row_output, 0, colors().text, plot::Marker::None);
        plot::Spec sp = line_spec(colors().accent, plot::Marker::Circle, 0.0f);
        std::vector<double> xs(wxv.size());
        for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>(i);
        plot::PlotScatter("W x", xs.data(), wxv.data(), static_cast<int>(xs.size()), sp);
        plot::EndPlot();
      }
    }
  } else {
    fit_text_disabled("The kernel's row does not fit the signal's row with this padding: no 1-D matrix.");
  }
}

void ConvolutionView::draw_fft(const ConvolutionSnapshot& s, ImVec2 size) {
  const ConvLesson& L = *s.lesson;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const int m = static_cast<int>(L.row_kernel.size());
  if (timed_m_ != m) {  // measured once per kernel length (~0.1 s)
    const std::vector<convmath::FftTiming> t = convmath::time_direct_fft(m, 4096);
    t_n_.clear();
    t_direct_.clear();
    t_fft_.clear();
    t_direct_full_.clear();
    t_fft_full_.clear();
    for (const convmath::FftTiming& e : t) {
      t_n_.push_back(e.n);
      t_direct_.push_back(e.direct_ms);
      t_fft_.push_back(e.fft_ms);
      t_direct_full_.push_back(e.direct_full_ms);
      t_fft_full_.push_back(e.fft_full_ms);
    }
    timed_m_ = m;
  }
  const double err = s.metrics[Convolution::kMetricFftError];
  ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(std::isnan(err) ? colors().text_dim : err <= 1e-12 ? colors().good : colors().error));
  fit_text("Convolution theorem: F(h * x) = F(h) F(x), so circular convolution = IFFT(FFT(h) FFT(x)); max |direct - "
           "FFT| / max |y| = %s (%s)",
           readout_number(err, "%.2g").c_str(), oracle_word(err, 1e-12).c_str());
  ImGui::PopStyleColor();
  const float h = size.y - line;
  const float w = (size.x - gap) / 2;
  char title[160];
  std::snprintf(title, sizeof title, "circular convolution of %s (n = %d, m = %d)##conv_fft_vals",
                L.setup.signal() ? "the signal" : "the middle row", static_cast<int>(L.row_signal.size()), m);
  if (plot::BeginPlot(title, ImVec2(w, h))) {
    plot::SetupAxes("position i", "value");
    plot::SetupLegend(plot::Location::NorthWest);
    signal_plot_line("x", L.row_signal, 0, colors().neutral, plot::Marker::None);
    signal_plot_line("direct: sum_t h[t] x[(i - t) mod n]", L.circular_direct, 0, colors().text, plot::Marker::None);
    std::vector<double> xs(L.circular_fft.size());
    for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>(i);
    plot::PlotScatter("FFT: IFFT(FFT(h) FFT(x))", xs.data(), L.circular_fft.data(), static_cast<int>(xs.size()),
                      line_spec(colors().accent, plot::Marker::Circle));
    plot::EndPlot();
  }
  ImGui::SameLine();
  std::snprintf(title, sizeof title, "time per convolution against n (this machine)##conv_fft_time");
  if (plot::BeginPlot(title, ImVec2(w, h))) {
    plot::SetupAxes("signal length n", "milliseconds", plot::AxisFlags_LogScale, plot::AxisFlags_LogScale);
    plot::SetupLegend(plot::Location::NorthWest);
    const int c = static_cast<int>(t_n_.size());
    char a[64], b[64];
    std::snprintf(a, sizeof a, "direct, m = %d: O(n m)", m);
    std::snprintf(b, sizeof b, "FFT, m = %d: O(n log n)", m);
    plot::PlotLine(a, t_n_.data(), t_direct_.data(), c, line_spec(series(0), plot::Marker::Circle));
    plot::PlotLine(b, t_n_.data(), t_fft_.data(), c, line_spec(series(1), plot::Marker::Circle));
    plot::Spec dash0 = line_spec(series(0), plot::Marker::Square);
    dash0.line_style = plot::LineStyle::Dashed;
    plot::Spec dash1 = line_spec(series(1), plot::Marker::Square);
    dash1.line_style = plot::LineStyle::Dashed;
    int full = 0;
    while (full < c && std::isfinite(t_direct_full_[static_cast<size_t>(full)])) ++full;
    plot::PlotLine("direct, m = n: O(n^2)", t_n_.data(), t_direct_full_.data(), full, dash0);
    plot::PlotLine("FFT, m = n", t_n_.data(), t_fft_full_.data(), c, dash1);
    plot::EndPlot();
  }
  tooltip_text("Wall-clock time of one circular convolution on this machine, measured when the tab first opened. A "
               "small kernel (m about log n) is cheaper directly, which is why CNNs rarely use the FFT; a kernel as "
               "long as the signal is far cheaper by FFT.");
}

void ConvolutionView::draw_pooling(const ConvolutionSnapshot& s, ImVec2 size) {
  const ConvLesson& L = *s.lesson;
  const convmath::Setup& st = L.setup;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const int f = shown_filter(s);
  if (!L.pool_problem.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(colors().warning));
    ImGui::TextWrapped("Pooling: %s.", L.pool_problem.c_str());
    ImGui::PopStyleColor();
    return;
  }
  const convmath::Pooled& P = L.pooled;
  const double err = s.metrics[Convolution::kMetricRoutingError];
  if (L.max_pool) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(err == 0 ? colors().good : colors().error));
    fit_text("%dx%d max pooling, stride %d: y = max over the window; backward sends dL/dy to the argmax only "
             "(gradient elsewhere: %s, %s)",
             L.pool_size, st.signal() ? 1 : L.pool_size, L.pool_stride, readout_number(err, "%.2g").c_str(),
             oracle_word(err, 0).c_str());
    ImGui::PopStyleColor();
  } else {
    fit_text("%dx%d average pooling, stride %d: y = the window's mean; backward spreads dL/dy / %d over the window",
             L.pool_size, st.signal() ? 1 : L.pool_size, L.pool_stride, st.signal() ? L.pool_size : L.pool_size * L.pool_size);
  }
  tooltip_text("Pooling reduces the map and gives some invariance to small shifts; information is lost. The "
               "gradient panel is dL/dx for dL/dy = 1 everywhere: where each window's gradient goes.");
  const float h = size.y - line;
  const float w = (size.x - 2 * gap) / 3;
  const int H = P.h, W = P.w, plane = H * W, oplane = P.out_h * P.out_w;
  const double* map = L.y.data() + static_cast<size_t>(f) * plane;
  const double* pooled = P.y.data() + static_cast<size_t>(f) * oplane;
  const double* grad = P.grad.data() + static_cast<size_t>(f) * plane;
  const double scale = std::max(max_abs(map, static_cast<size_t>(plane)), 1e-12);
  if (st.signal()) {
    std::vector<double> mv(map, map + plane), pv(pooled, pooled + oplane), gv(grad, grad + plane);
    if (plot::BeginPlot("output map and each window's argmax##conv_pool_sig", ImVec2(w, h))) {
      plot::SetupAxes("position", "y");
      plot::SetupLegend(plot::Location::NorthWest);
      signal_plot_line("y", mv, 0, colors().text, plot::Marker::Circle);
      if (L.max_pool) {
        std::vector<double> ax, ay;
        for (int o = 0; o < oplane; ++o) {
          const int a = P.argmax[static_cast<size_t>(f * oplane + o)];
          ax.push_back(a);
          ay.push_back(map[a]);
        }
        plot::Spec sp = line_spec(colors().accent, plot::Marker::Circle);
        sp.marker_size = 6.0f;
        plot::PlotScatter("argmax", ax.data(), ay.data(), static_cast<int>(ax.size()), sp);
      }
      plot::EndPlot();
    }
    ImGui::SameLine();
    if (plot::BeginPlot("pooled##conv_pool_sig_p", ImVec2(w, h), plot::PlotFlags_NoLegend)) {
      plot::SetupAxes("pooled position", "pooled y");
      signal_plot_line("pooled", pv, 0, colors().accent, plot::Marker::Circle);
      plot::EndPlot();
    }
    ImGui::SameLine();
    if (plot::BeginPlot("dL/dx for dL/dy = 1##conv_pool_sig_g", ImVec2(w, h), plot::PlotFlags_NoLegend)) {
      plot::SetupAxes("position", "gradient");
      plot::PlotBars("gradient", gv.data(), plane, 0.67, 0.0, line_spec(colors().positive));
      plot::EndPlot();
    }
    return;
  }
  MapStyle ms;
  ms.signed_scale = true;
  ms.lo = -scale;
  ms.hi = scale;
  ms.numbers = true;
  ms.fit_salt = 21;
  char title[160];
  std::snprintf(title, sizeof title, "output of filter %d: %d x %d%s##conv_pool_in", f, H, W, L.max_pool ? ", argmaxes marked" : "");
  map_panel(title, map, H, W, ms, ImVec2(w, h), [&] {
    if (!L.max_pool) return;
    // Each window's argmax: an outline while the cells are large, a dot when they are small.
    const float cell = std::abs(plot::PlotToPixels(1, 0).x - plot::PlotToPixels(0, 0).x);
    if (cell >= 14.0f) {
      for (int o = 0; o < oplane; ++o) {
        const int a = P.argmax[static_cast<size_t>(f * oplane + o)];
        cell_outline("##argmax", H, a / W, a % W, a / W, a % W, colors().accent, 2.0f);
      }
      return;
    }
    std::vector<double> ax, ay;
    for (int o = 0; o < oplane; ++o) {
      const int a = P.argmax[static_cast<size_t>(f * oplane + o)];
      ax.push_back(a % W);
      ay.push_back(H - 1 - a / W);
    }
    plot::Spec dot = line_spec(colors().accent, plot::Marker::Circle);
    dot.marker_size = std::max(1.5f, cell * 0.3f);
    dot.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
    plot::PlotScatter("##argmax", ax.data(), ay.data(), static_cast<int>(ax.size()), dot);
  });
  ImGui::SameLine();
  ms.fit_salt = 22;
  std::snprintf(title, sizeof title, "%s pooled: %d x %d##conv_pool_out", L.max_pool ? "max" : "average", P.out_h, P.out_w);
  const MapHover hit = map_panel(title, pooled, P.out_h, P.out_w, ms, ImVec2(w, h));
  if (hit.row >= 0) {
    const double v = pooled[hit.row * P.out_w + hit.col];
    if (L.max_pool) {
      const int a = P.argmax[static_cast<size_t>(f * oplane + hit.row * P.out_w + hit.col)];
      ImGui::SetTooltip("pooled[%d, %d] = %s, the maximum of its window, at (%d, %d) of the output map", hit.row, hit.col,
                        readout_number(v).c_str(), a / W, a % W);
    } else {
      ImGui::SetTooltip("pooled[%d, %d] = %s, the mean of its window", hit.row, hit.col, readout_number(v).c_str());
    }
  }
  ImGui::SameLine();
  MapStyle gs;
  gs.lo = 0;
  gs.hi = std::max(max_abs(grad, static_cast<size_t>(plane)), 1e-12);
  gs.numbers = true;
  gs.fit_salt = 23;
  gs.colour_bar = "dL/dx##conv_pool_bar";
  map_panel("where the gradient goes: dL/dx for dL/dy = 1##conv_pool_grad", grad, H, W, gs, ImVec2(w, h));
}

void ConvolutionView::draw_receptive(const ConvolutionSnapshot& s, ImVec2 size) {
  const ConvLesson& L = *s.lesson;
  const std::vector<convmath::StackRow>& rows = L.stack;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  if (rows.size() < 2) {
    fit_text_disabled("The stack (parameter layers) has no layer.");
    return;
  }
  const convmath::StackRow& last = rows.back();
  const bool ok = L.empirical_rf == last.rf;
  ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(ok ? colors().good : colors().error));
  fit_text("r_l = r_{l-1} + (k_l - 1) d_l j_{l-1}: the last layer sees %d x %d input pixels; a one-hot gradient "
           "backpropagated from its centre reaches %d x %d (%s)",
           last.rf, last.rf, L.empirical_rf, L.empirical_rf, ok ? "equal" : "NOT equal");
  ImGui::PopStyleColor();
  tooltip_text("The receptive field grows by (k - 1) times the jump (the product of the strides so far) per layer: "
               "two 3 x 3 convolutions see 5 x 5 with 18 c^2 weights instead of 25 c^2 (VGG). The check sends "
               "dL/dy = 1 at the last layer's centre back through all-ones kernels and measures what it reaches.");
  // The table.
  const float table_h = std::min(size.y * 0.5f, ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(rows.size()) + 1.6f));
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("##conv_stack", 7, flags, ImVec2(size.x, table_h))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    const char* heads[] = {"layer", "output c x m x n", "receptive field r", "jump j", "CNN K(pqc + 1)",
                           "fully connected (mnc + 1) O K", "locally connected (pqc + 1) O K"};
    for (const char* hname : heads) ImGui::TableSetupColumn(hname);
    ImGui::TableHeadersRow();
    for (const convmath::StackRow& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%d x %d x %d", r.channels, r.size, r.size);
      ImGui::TableNextColumn();
      ImGui::Text("%d", r.rf);
      ImGui::TableNextColumn();
      ImGui::Text("%d", r.jump);
      for (double v : {r.params_cnn, r.params_fc, r.params_lc}) {
        ImGui::TableNextColumn();
        if (v > 0) ImGui::TextUnformatted(format_number(v, "%.4g").c_str());
        else ImGui::TextDisabled("-");
      }
    }
    ImGui::EndTable();
  }
  const float h = ImGui::GetContentRegionAvail().y;
  const float w = (size.x - gap) / 2;
  const int n = static_cast<int>(rows.size());
  std::vector<double> rf, xs;
  std::vector<const char*> names;
  for (int i = 0; i < n; ++i) {
    rf.push_back(rows[static_cast<size_t>(i)].rf);
    xs.push_back(i);
    names.push_back(rows[static_cast<size_t>(i)].name.c_str());
  }
  if (plot::BeginPlot("receptive field per layer##conv_rf", ImVec2(w, std::max(h, min_plot_height(true))), plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("layer", "r (input pixels)");
    plot::SetupAxisTicks(plot::AxisId::X, xs.data(), n, names.data());
    plot::PlotBars("r", rf.data(), n, 0.67, 0.0, line_spec(colors().accent));
    plot::EndPlot();
  }
  ImGui::SameLine();
  std::vector<double> cnn, fc, lc, cx;
  std::vector<const char*> cnames;
  for (int i = 1; i < n; ++i) {
    const convmath::StackRow& r = rows[static_cast<size_t>(i)];
    if (r.params_cnn <= 0) continue;
    cx.push_back(static_cast<double>(cx.size()));
    cnames.push_back(r.name.c_str());
    cnn.push_back(r.params_cnn);
    fc.push_back(r.params_fc);
    lc.push_back(r.params_lc);
  }
  if (plot::BeginPlot("parameters per conv layer (log)##conv_params", ImVec2(size.x - w - gap, std::max(h, min_plot_height(true))))) {
    plot::SetupAxes("conv layer", "parameters", 0, plot::AxisFlags_LogScale);
    plot::SetupLegend(plot::Location::NorthWest);
    const int c = static_cast<int>(cx.size());
    if (c > 0) plot::SetupAxisTicks(plot::AxisId::X, cx.data(), c, cnames.data());
    plot::PlotBars("CNN (shared kernel)", cnn.data(), c, 0.25, -0.27, line_spec(series(0)));
    plot::PlotBars("locally connected", lc.data(), c, 0.25, 0.0, line_spec(series(1)));
    plot::PlotBars("fully connected", fc.data(), c, 0.25, 0.27, line_spec(series(2)));
    plot::EndPlot();
  }
}

}  // namespace cilab
