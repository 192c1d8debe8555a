// The cnn module's view: see cnn_view.h.
#include "views/convolutional/cnn_view.h"

#include "algorithms/core/npz.h"
#include "algorithms/nn/conv.h"
#include "algorithms/convolutional/cnn.h"
#include "views/common/class_key.h"
#include "views/common/mosaic_plot.h"
#include "views/common/readout.h"
#include "views/common/tab_bar.h"
#include "views/common/training_header.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"
#include "views/plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cilab {

namespace {

// Tiles `count` maps of h x w values (consecutive in `values`) `cols` to a row, each
// value mapped to [0, 1] by (v - lo) / (hi - lo); gap pixels of 1 (white).
Mosaic tile_maps(const float* values, int count, int h, int w, float lo, float hi) {
  const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(count * static_cast<double>(h) / w))));
  nn::Mat<float> rows(count, h * w);
  const float span = hi > lo ? hi - lo : 1.0f;
  for (int c = 0; c < count; ++c)
    for (int i = 0; i < h * w; ++i) rows(c, i) = (values[static_cast<size_t>(c) * h * w + i] - lo) / span;
  return tile_mosaic(rows, h, w, cols, 1, 1.0f);
}

// "conv 1", "fc 2", "pool 1": the layers with a picture, counted per kind.
std::string layer_label(const std::string& kind, int index) {
  const char* k = kind == "conv2d" ? "conv" : kind == "linear" ? "fc" : kind == "flatten" ? "flatten" : "pool";
  return std::string(k) + " " + std::to_string(index);
}

}  // namespace

void CnnView::on_reset() {
  MlpView::on_reset();
  maps_ = Maps();
  maps_net_ = nullptr;
  maps_holder_.reset();
  maps_image_ = -1;
  tied_ = TiedGradient();
  tied_net_.reset();
  tied_image_ = tied_filter_ = -1;
}

void CnnView::draw_controls(const Snapshot& snap, const ViewContext&) {
  const auto* s = dynamic_cast<const MlpSnapshot*>(&snap);
  if (!s || !s->problem) return;
  const MlpProblem& pr = *s->problem;
  const int n = pr.n_test() > 0 ? pr.n_test() : pr.n_train();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderInt("test image", &image, 0, std::max(0, n - 1));
  image = std::clamp(image, 0, std::max(0, n - 1));
  tooltip_text("The test image (row of the test set) whose feature maps the Feature maps tab draws and whose "
               "loss the Backprop tab differentiates.");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderInt("filter", &filter, 0, std::max(0, tied_.k > 0 ? conv_filters_ - 1 : 15));
  tooltip_text("The first conv layer's filter o whose tied-weight gradient the Backprop tab takes apart.");
}

void CnnView::update_maps(const MlpSnapshot& s) {
  if (!s.net) return;
  if (s.net.get() == maps_net_ && image == maps_image_) return;
  const MlpProblem& pr = *s.problem;
  const nn::Mat<float>& x = pr.n_test() > 0 ? pr.x_test : pr.x_train;
  if (x.rows() == 0) return;
  image = std::clamp(image, 0, static_cast<int>(x.rows()) - 1);
  nn::Sequential<float> net = *s.net;  // a private copy: forward writes its buffers
  const nn::Mat<float> row = x.row(image);
  net.forward(row, false);
  maps_ = Maps();
  // The input, then each conv (after its activation) and pool output.
  const nn::Shape in = Cnn::input_shape(pr);
  auto add = [&](const std::string& name, const float* v, int c, int h, int w) {
    float lo = *std::min_element(v, v + c * h * w), hi = *std::max_element(v, v + c * h * w);
    if (lo > 0) lo = 0;
    maps_.names.push_back(name);
    maps_.mosaics.push_back(tile_maps(v, c, h, w, lo, hi));
    maps_.lo.push_back(lo);
    maps_.hi.push_back(hi);
  };
  if (in.size() == 3) add("input: " + nn::shape_text(in), row.data(), in[0], in[1], in[2]);
  int conv = 0, pool = 0;
  nn::Shape shape = in;
  for (size_t l = 0; l < net.size(); ++l) {
    const std::string kind = net.layer(l).name();
    shape = net.layer(l).configure_shape(shape);  // the same input shape: the same output shape
    if (shape.size() != 3) continue;
    const float* v = net.activation(l).data();
    if (kind == "conv2d") {
      ++conv;
      const bool activated = l + 1 < net.size() && net.layer(l + 1).configure_shape(shape) == shape &&
                             net.layer(l + 1).name() != "conv2d";
      if (!activated) add(layer_label(kind, conv) + ": " + nn::shape_text(shape), v, shape[0], shape[1], shape[2]);
    } else if (kind == "max_pool2d" || kind == "avg_pool2d") {
      add(layer_label(kind, ++pool) + ": " + nn::shape_text(shape), v, shape[0], shape[1], shape[2]);
    } else if (l > 0 && net.layer(l - 1).name() == "conv2d") {
      add(layer_label("conv2d", conv) + " + " + kind + ": " + nn::shape_text(shape), v, shape[0], shape[1], shape[2]);
    }
  }
  maps_net_ = s.net.get();
  maps_holder_ = s.net;
  maps_image_ = image;
}

void CnnView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const MlpSnapshot*>(&snap);
  if (!sp || !sp->problem) {
    draw_no_model_yet(snap, "network");
    return;
  }
  const MlpSnapshot& s = *sp;
  draw_header(s, ctx, out);
  const TrainingColumns cols = training_columns(0.32f);
  const float main_w = cols.main_w;
  ImGui::BeginGroup();
  const TabItem tabs[] = {
      {"Filters", "The first conv layer's kernels as images (grey = 0, white > 0, black < 0)"},
      {"Feature maps", "Every conv and pool layer's output for the chosen test image"},
      {"Gradients", "||dL/dW|| per layer of the last backward pass"},
      {"Backprop", "Backprop through the first convolution: the shared kernel's gradient is the sum of the untied "
                   "per-position gradients"},
      {"Confusion", "Confusion matrix of the last evaluation"},
      {"Errors", "Misclassified test images"}};
  // Keys 1-6 choose a tab; a click on a misclassified image (Errors) opens its feature maps.
  int wanted = tab_key_pressed(ctx, 6);
  if (pick_tab_) wanted = static_cast<int>(CnnTab::Maps);
  pick_tab_ = false;
  ctab_ = static_cast<CnnTab>(tab_bar("##cnn_tabs", tabs, 6, static_cast<int>(ctab_), wanted));
  if (ctx.shown_tab) *ctx.shown_tab = static_cast<int>(ctab_) + 1;
  const ImVec2 size(main_w, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + main_w);
  switch (ctab_) {
    case CnnTab::Filters: draw_filters(s, ctx, size); break;
    case CnnTab::Maps: draw_maps(s, size); break;
    case CnnTab::Gradients: draw_gradients(s, ctx, size); break;
    case CnnTab::Backprop: draw_backprop(s, size); break;
    case CnnTab::Confusion: draw_confusion(s, size); break;
    case CnnTab::Errors: {
      const int picked = draw_errors(s, size, "Click: this image's feature maps (tab 2) and backprop (tab 4)");
      if (picked >= 0) {
        image = picked;
        ctab_ = CnnTab::Maps;
        pick_tab_ = true;
      }
      break;
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::SameLine();
  draw_curves(s, ctx, training_side_size(cols));
}

void CnnView::draw_filters(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  if (!s.net) return;
  const nn::Sequential<float>& net = *s.net;
  size_t first = net.size();
  for (size_t l = 0; l < net.size(); ++l)
    if (net.layer(l).name() == "conv2d") {
      first = l;
      break;
    }
  if (first == net.size()) {
    fit_text_disabled("This network has no conv layer (layers = fc... only): nothing to draw as filters.");
    return;
  }
  std::vector<NpyArray> tensors;
  net.layer(first).state_dict("", tensors);
  const NpyArray& wt = tensors.front();  // (out, C / groups, k, k)
  const int out_c = static_cast<int>(wt.shape[0]), in_c = static_cast<int>(wt.shape[1]);
  const int k = static_cast<int>(wt.shape[2]);
  float m = 0;
  for (float v : wt.f32) m = std::max(m, std::fabs(v));
  if (in_c == 1)
    fit_text("conv 1: %d filters of %d x %d at iteration %d", out_c, k, k, s.net_iteration);
  else
    fit_text("conv 1: %d filters of %d x %d x %d at iteration %d; one row per filter, one tile per input channel",
             out_c, in_c, k, k, s.net_iteration);
  // 12.6's oracle: the conv layers hold the calculator's K(pqc + 1) parameters (the convolution module's tab 5).
  const auto layers = ctx.values ? ctx.values->text.find("layers") : std::map<std::string, std::string>::const_iterator();
  if (s.problem && ctx.values && layers != ctx.values->text.end()) {
    const ConvParamCheck c = conv_param_check(net, layers->second,
                                              Cnn::input_shape(*s.problem));
    if (!c.names.empty()) {
      std::string parts;
      for (size_t i = 0; i < c.formula.size(); ++i)
        parts += (i ? " + " : "") + format_number(c.formula[i], "%.0f");
      ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(c.equal ? colors().good : colors().error));
      fit_text("%d parameters; the conv layers' K(pqc + 1) = %s, %s the layers' own count", c.total, parts.c_str(),
               c.equal ? "equal to" : "NOT equal to");
      ImGui::PopStyleColor();
      tooltip_text("The receptive-field and parameter-count calculator (the convolution module's tab 5) gives K(pqc + 1) "
                   "for K kernels of p x q over c input channels, one bias each; the network's conv layers must hold "
                   "exactly that many weights (the oracle of 12.6).");
    }
  }
  tooltip_text("Each tile is one kernel w[o, c] of the first convolution, grey = 0, white = +max|w|, black = "
               "-max|w| (one scale for all). After training, edge and blob detectors appear; a Gaussian "
               "blur kernel would look like a bright spot, a Sobel kernel like a bright and a dark stripe.");
  // One row per filter, one tile per input channel.
  nn::Mat<float> rows(out_c * in_c, k * k);
  for (int i = 0; i < out_c * in_c; ++i)
    for (int j = 0; j < k * k; ++j) rows(i, j) = 0.5f + 0.5f * wt.f32[static_cast<size_t>(i) * k * k + j] / (m > 0 ? m : 1);
  const int tiles_per_row = in_c == 1 ? static_cast<int>(std::ceil(std::sqrt(static_cast<double>(out_c)))) : in_c;
  const Mosaic mosaic = tile_mosaic(rows, k, k, tiles_per_row, 1, 1.0f);
  const float avail_h = ImGui::GetContentRegionAvail().y - mosaic_pad();
  const float width = std::min(size.x, std::max(64.0f, avail_h * mosaic.w / std::max(1, mosaic.h)));
  const ImVec2 hov = mosaic_plot("##cnn_filters", mosaic, 0.0f, 1.0f, width);
  if (hov.x >= 0) {
    const int tx = static_cast<int>(hov.x) / (k + 1), ty = static_cast<int>(hov.y) / (k + 1);
    const int tile = ty * tiles_per_row + tx;
    const int px = static_cast<int>(hov.x) % (k + 1), py = static_cast<int>(hov.y) % (k + 1);
    if (tile < out_c * in_c && px < k && py < k)
      ImGui::SetTooltip("filter %d, channel %d: w[%d, %d] = %.4g", tile / in_c, tile % in_c, py, px,
                        wt.f32[(static_cast<size_t>(tile) * k + py) * k + px]);
  }
}

void CnnView::draw_maps(const MlpSnapshot& s, ImVec2 size) {
  update_maps(s);
  const MlpProblem& pr = *s.problem;
  const bool on_test = pr.n_test() > 0;
  const std::vector<int>& y = on_test ? pr.y_test : pr.y_train;
  const int label = image < static_cast<int>(y.size()) ? y[static_cast<size_t>(image)] : -1;
  int predicted = -1;
  if (s.evaluation && image < static_cast<int>(s.evaluation->predicted.size()))
    predicted = s.evaluation->predicted[static_cast<size_t>(image)];
  auto name = [&](int c) { return c >= 0 && c < static_cast<int>(pr.class_names.size()) ? pr.class_names[static_cast<size_t>(c)].c_str() : "?"; };
  fit_text("%s image %d: %s (predicted %s at the last evaluation); choose it with 'test image' in the controls",
           on_test ? "test" : "training", image, name(label), predicted >= 0 ? name(predicted) : "-");
  tooltip_text("Each layer's output channels tiled, black = the layer's minimum (or 0), white = its maximum. Early "
               "layers keep the picture (edges, blobs); later ones are coarser and more abstract.");
  const int n = static_cast<int>(maps_.mosaics.size());
  if (n == 0) return;
  // One column per layer where they fit side by side, else two rows.
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const int per_row = n <= 3 ? n : (n + 1) / 2;
  const float w = (size.x - gap * (per_row - 1)) / per_row;
  // Each row's mosaics no taller than the row's share of the room left (all rows in view at
  // 1280 x 720): a mosaic m.w wide and m.h high drawn width-wide is width m.h / m.w high.
  const int rows = (n + per_row - 1) / per_row;
  float text_h = ImGui::GetTextLineHeightWithSpacing();  // the tallest title, as wrapped at w
  for (const std::string& name : maps_.names)
    text_h = std::max(text_h, ImGui::CalcTextSize(name.c_str(), nullptr, false, w).y + ImGui::GetStyle().ItemSpacing.y);
  const float row_h = std::max(2.0f * text_h, (ImGui::GetContentRegionAvail().y - gap * (rows - 1)) / rows -
                                                  text_h - mosaic_pad());
  const float x0 = ImGui::GetCursorPosX();
  for (int i = 0; i < n; ++i) {
    if (i % per_row) ImGui::SameLine(x0 + static_cast<float>(i % per_row) * (w + gap));  // fixed columns
    const Mosaic& m = maps_.mosaics[static_cast<size_t>(i)];
    const float width = std::min(w, std::max(32.0f, row_h * m.w / std::max(1, m.h) + mosaic_pad()));
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
    fit_text("%s", maps_.names[static_cast<size_t>(i)].c_str());
    ImGui::PopTextWrapPos();
    char id[32];
    std::snprintf(id, sizeof id, "##cnn_map%d", i);
    mosaic_plot(id, m, 0.0f, 1.0f, width);
    tooltip_text(("values from " + readout_number(maps_.lo[static_cast<size_t>(i)]) + " (black) to " +
                  readout_number(maps_.hi[static_cast<size_t>(i)]) + " (white)").c_str());
    ImGui::EndGroup();
  }
}

void CnnView::draw_gradients(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  if (!s.net) return;
  const nn::Sequential<float>& net = *s.net;
  std::vector<std::string> names;
  int conv = 0, fc = 0;
  for (size_t l = 0; l < net.size(); ++l) {
    const std::string kind = net.layer(l).name();
    if (kind == "conv2d") names.push_back(layer_label(kind, ++conv));
    else if (kind == "linear") names.push_back(layer_label(kind, ++fc));
  }
  const std::vector<double>& g = s.layer_grad_norms;
  fit_text("||dL/dtheta|| per layer (weights and bias) of the step's mini-batch, iteration %d", s.iteration);
  tooltip_text("The norm of each layer's gradient after backward. Layers far from the loss get smaller (vanishing) "
               "or larger (exploding) gradients; with ReLU and torch's initialisation they stay within a few "
               "orders of magnitude.");
  if (g.empty() || g.size() != names.size()) {
    fit_text_disabled("Gradients appear after the first backward pass (step once, or the backward sub-step).");
    return;
  }
  std::vector<const char*> labels;
  std::vector<double> ticks;
  for (size_t i = 0; i < names.size(); ++i) {
    labels.push_back(names[i].c_str());
    ticks.push_back(static_cast<double>(i));
  }
  // Each layer's norm over training, from the stored snapshots (at most ~300 of them, never past the
  // iteration shown).
  std::vector<std::vector<double>> series(names.size());
  std::vector<double> its;
  if (ctx.stored_snapshot && s.iteration > 1) {
    const int stride = std::max(1, s.iteration / 300);
    for (int it = 1; it <= s.iteration; it += stride) {
      const auto past = ctx.stored_snapshot(it);
      const auto* ps = dynamic_cast<const MlpSnapshot*>(past.get());
      if (!ps || ps->layer_grad_norms.size() != names.size()) continue;
      its.push_back(it);
      for (size_t l = 0; l < names.size(); ++l) series[l].push_back(ps->layer_grad_norms[l]);
    }
  }
  const float avail = std::max(min_plot_height(), ImGui::GetContentRegionAvail().y);
  const bool history = its.size() > 1;
  const float h = history ? std::max(min_plot_height(true), (avail - ImGui::GetStyle().ItemSpacing.y) / 2) : avail;
  if (history) {
    // One colour per layer, named in a key above the plot (a legend would cover the curves of this
    // column at 150 %).
    std::vector<ColourMeaning> key;
    for (size_t l = 0; l < names.size(); ++l) key.push_back({plot::GetColormapColor(static_cast<int>(l)), names[l].c_str()});
    const float key_top = ImGui::GetCursorPosY();
    colour_key(key);
    const float line_h = std::max(min_plot_height(true), h - (ImGui::GetCursorPosY() - key_top));
    if (plot::BeginPlot("Gradient norm per layer over training##cnn", ImVec2(size.x, line_h), plot::PlotFlags_NoLegend)) {
      plot::SetupAxes("iteration", "||dL/dW||", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
      for (size_t l = 0; l < names.size(); ++l) {
        plot::Spec sp;
        sp.color = key[l].colour;
        plot::PlotLine(names[l].c_str(), its.data(), series[l].data(), static_cast<int>(its.size()), sp);
      }
      plot::EndPlot();
    }
  }
  if (plot::BeginPlot("Gradient norm per layer##cnn", ImVec2(size.x, h), plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("layer", "||dL/dW||", 0, plot::AxisFlags_LogScale);
    double lo = g.front(), hi = g.front();
    for (double v : g) lo = std::min(lo, v), hi = std::max(hi, v);
    lo = lo > 0 ? lo / 2 : 1e-8;
    plot::SetupAxesLimits(-0.6, static_cast<double>(g.size()) - 0.4, lo, hi > lo ? hi * 1.5 : lo * 10, plot::Cond::Always);
    plot::SetupAxisTicks(plot::AxisId::X, ticks.data(), static_cast<int>(ticks.size()), labels.data());
    for (size_t l = 0; l < g.size(); ++l) {  // each layer in its colour of the key above
      plot::Spec sp;
      sp.color = plot::GetColormapColor(static_cast<int>(l));
      plot::PlotBars(names[l].c_str(), &g[l], 1, 0.67, static_cast<double>(l), sp);
    }
    plot::EndPlot();
  }
}

namespace {

// Values as grey tiles: 0 grey, +max|v| white, -max|v| black (one scale for all `sets`).
Mosaic signed_tiles(const std::vector<const std::vector<double>*>& sets, int tiles_each, int h, int w, int cols,
                    double scale) {
  const int count = static_cast<int>(sets.size()) * tiles_each;
  nn::Mat<float> rows(count, h * w);
  const double m = scale > 0 ? scale : 1.0;
  for (size_t s = 0; s < sets.size(); ++s)
    for (int t = 0; t < tiles_each; ++t)
      for (int i = 0; i < h * w; ++i)
        rows(static_cast<int>(s) * tiles_each + t, i) =
            static_cast<float>(0.5 + 0.5 * (*sets[s])[static_cast<size_t>(t * h * w + i)] / m);
  return tile_mosaic(rows, h, w, std::max(1, cols), 1, 1.0f);
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

}  // namespace

void CnnView::draw_backprop(const MlpSnapshot& s, ImVec2 size) {
  if (!s.net) return;
  const MlpProblem& pr = *s.problem;
  const bool on_test = pr.n_test() > 0;
  const nn::Mat<float>& x = on_test ? pr.x_test : pr.x_train;
  const std::vector<int>& y = on_test ? pr.y_test : pr.y_train;
  if (x.rows() == 0) return;
  image = std::clamp(image, 0, static_cast<int>(x.rows()) - 1);
  if (s.net != tied_net_ || image != tied_image_ || filter != tied_filter_) {
    tied_ = tied_gradient(*s.net, x, image, y[static_cast<size_t>(image)], filter);
    tied_net_ = s.net;
    tied_image_ = image;
    tied_filter_ = filter;
    conv_filters_ = 0;
    nn::ConvShape g;
    for (size_t l = 0; l < s.net->size(); ++l)
      if (nn::conv2d_geometry(s.net->layer(l), &g)) {
        conv_filters_ = g.c_out;
        break;
      }
    filter = tied_.filter;
  }
  const TiedGradient& t = tied_;
  if (t.k == 0) {
    fit_text_disabled("This network has no conv layer: nothing to take apart.");
    return;
  }
  const int k = t.k, kk = t.channels * k * k;
  fit_text("Filter %d of conv 1, %s image %d (loss %s): dL/dW = sum over the %d x %d output positions p of "
           "dL/dy[p] x_patch(p)", t.filter, on_test ? "test" : "training", image, readout_number(t.loss).c_str(),
           t.out_h, t.out_w);
  tooltip_text("The kernel is shared (tied) by every output position, so its gradient is the sum of the gradients "
               "it would get if each position had its own copy (untied): dL/dy[p] times the input patch p saw. "
               "Written as one operation, that sum is the cross-correlation of the input with dL/dy.");
  const bool equal = t.difference < 1e-4;
  ImGui::PushStyleColor(ImGuiCol_Text, colour_vec(equal ? colors().good : colors().error));
  fit_text("sum of untied gradients vs backprop's dL/dW: max difference %s of max|dL/dW| (%s)",
           readout_number(t.difference, "%.2g").c_str(), equal ? "equal up to float rounding" : "NOT equal");
  ImGui::PopStyleColor();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float w3 = (size.x - 2 * gap) / 3;
  // dL/dy as a signed map.
  const double dy_scale = max_abs(t.dy);
  const Mosaic dy_map = signed_tiles({&t.dy}, 1, t.out_h, t.out_w, 1, dy_scale);
  const double w_scale = std::max(max_abs(t.backprop), max_abs(t.untied_sum));
  const Mosaic bp = signed_tiles({&t.backprop}, t.channels, k, k, t.channels, w_scale);
  const Mosaic sum = signed_tiles({&t.untied_sum}, t.channels, k, k, t.channels, w_scale);
  const char* titles[3] = {"dL/dy (filter's output map)", "backprop: dL/dW", "sum_p of untied gradients"};
  const Mosaic* mosaics[3] = {&dy_map, &bp, &sum};
  const float row_h = std::min(w3, (ImGui::GetContentRegionAvail().y - 3 * ImGui::GetTextLineHeightWithSpacing()) * 0.55f);
  for (int i = 0; i < 3; ++i) {
    if (i) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w3);
    fit_text("%s", titles[i]);
    ImGui::PopTextWrapPos();
    char id[32];
    std::snprintf(id, sizeof id, "##cnn_tied%d", i);
    const Mosaic& m = *mosaics[i];
    const float width = std::min(w3, std::max(48.0f, row_h * m.w / std::max(1, m.h)));
    const ImVec2 hov = mosaic_plot(id, m, 0.0f, 1.0f, width);
    if (hov.x >= 0) {
      const int px = static_cast<int>(hov.x), py = static_cast<int>(hov.y);
      if (i == 0 && px < t.out_w && py < t.out_h)
        ImGui::SetTooltip("dL/dy[%d, %d] = %.4g", py, px, t.dy[static_cast<size_t>(py * t.out_w + px)]);
      else if (i > 0 && px % (k + 1) < k && py < k) {
        const int c = px / (k + 1);
        const size_t q = static_cast<size_t>((c * k + py) * k + px % (k + 1));
        if (static_cast<int>(q) < kk)
          ImGui::SetTooltip("w[%d, %d, %d, %d]: backprop %.6g, sum of untied %.6g", t.filter, c, py, px % (k + 1),
                            t.backprop[q], t.untied_sum[q]);
      }
    }
    ImGui::EndGroup();
  }
  // The largest untied gradients, one tile each (channel 0).
  fit_text("The untied gradients of the %zu positions with the largest |dL/dy| (channel 0), on the same scale:",
           t.top.size());
  std::vector<const std::vector<double>*> sets;
  for (const auto& g : t.top_gradients) sets.push_back(&g);
  if (sets.empty()) return;
  const Mosaic tops = signed_tiles(sets, 1, k, k, static_cast<int>(sets.size()), w_scale);
  const float avail = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing();
  const float width = std::min(size.x, std::max(64.0f, avail * tops.w / std::max(1, tops.h)));
  const ImVec2 hov = mosaic_plot("##cnn_tied_top", tops, 0.0f, 1.0f, width);
  if (hov.x >= 0) {
    const size_t i = static_cast<size_t>(hov.x) / static_cast<size_t>(k + 1);
    if (i < t.top.size())
      ImGui::SetTooltip("position (%d, %d): dL/dy = %.4g", t.top[i] / t.out_w, t.top[i] % t.out_w,
                        t.dy[static_cast<size_t>(t.top[i])]);
  }
}

CILAB_REGISTER_VIEW(Cnn, CnnView);

}  // namespace cilab
