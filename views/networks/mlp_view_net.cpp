// The mlp view's Neurons, Network and Errors tabs.
#include "views/common/class_key.h"
#include "views/networks/mlp_view.h"

#include "views/plot/plot.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace cilab {

namespace {

// Diverging colour for v in [-1, 1]: orange (negative), near-black (0), blue (positive), as
// TensorFlow Playground colours weights and activations.
void diverging(float v, float* rgb) {
  v = std::clamp(v, -1.0f, 1.0f);
  const float base[3] = {0.10f, 0.10f, 0.12f};
  const float neg[3] = {0.96f, 0.58f, 0.16f};
  const float pos[3] = {0.20f, 0.55f, 0.95f};
  const float* c = v < 0 ? neg : pos;
  const float a = std::fabs(v);
  for (int i = 0; i < 3; ++i) rgb[i] = base[i] + (c[i] - base[i]) * a;
}

ImU32 diverging_u32(float v, int alpha) {
  float rgb[3];
  diverging(v, rgb);
  return IM_COL32(static_cast<int>(rgb[0] * 255), static_cast<int>(rgb[1] * 255), static_cast<int>(rgb[2] * 255), alpha);
}

// Tiles `count` images of h x w (values scaled by 1/scale into [-1, 1]) into one RGB strip image,
// `cols` tiles per row, a 1-pixel gap; returns its height and width.
void tile_rgb(const std::vector<const float*>& images, int h, int w, int stride, float scale, int cols,
              std::vector<float>& rgb, int* out_h, int* out_w) {
  const int count = static_cast<int>(images.size());
  const int rows = (count + cols - 1) / cols;
  const int gap = 1;
  *out_w = cols * (w + gap) - gap;
  *out_h = rows * (h + gap) - gap;
  rgb.assign(static_cast<size_t>(*out_w) * *out_h * 3, 0.05f);
  for (int t = 0; t < count; ++t) {
    const int r0 = (t / cols) * (h + gap), c0 = (t % cols) * (w + gap);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const float v = images[static_cast<size_t>(t)][static_cast<size_t>(y * w + x) * stride] / scale;
        diverging(v, &rgb[(static_cast<size_t>(r0 + y) * *out_w + c0 + x) * 3]);
      }
  }
}

// An RGB image (h x w pixels) in a canvas-only plot of at most max_w x max_h pixels, sized to
// the image's aspect ratio.
void image_plot(const char* id, const std::vector<float>& rgb, int h, int w, float max_w, float max_h) {
    const float pad = ImGui::GetStyle().FramePadding.y * 2 + 4;
    float pw = max_w, ph = (max_w - pad) * h / std::max(1, w) + pad;
    if (ph > max_h) {
        ph = max_h;
        pw = (max_h - pad) * w / std::max(1, h) + pad;
    }
    if (plot::BeginPlot(id, ImVec2(std::max(pw, 16.0f), std::max(ph, 16.0f)), plot::PlotFlags_CanvasOnly | plot::PlotFlags_NoInputs)) {
        plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock,
                        plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock);
        plot::SetupAxesLimits(0, w, 0, h, plot::Cond::Always);
        plot::PlotImageRGB("##img", rgb.data(), h, w, plot::Point{0, 0}, plot::Point{double(w), double(h)});
        plot::EndPlot();
    }
}

}  // namespace

void MlpView::draw_neurons(const MlpSnapshot& s, ImVec2 size) {
  const MlpProblem& pr = *s.problem;
  if (pr.image_h > 0 && s.net) {
    // Image inputs: each first-layer neuron's weights w_j (its "template") as an image.
    const nn::Sequential<float>& net = *s.net;
    const int out = net.layer(0).num_params() / (pr.d + 1);
    const int shown = std::min(out, max_neurons * 2);
    const float* w = net.params() + net.param_offset(0);
    float scale = 1e-12f;
    std::vector<const float*> imgs;
    for (int j = 0; j < shown; ++j) {
      imgs.push_back(w + static_cast<size_t>(j) * pr.d);
      for (int i = 0; i < pr.d; ++i) scale = std::max(scale, std::fabs(w[static_cast<size_t>(j) * pr.d + i]));
    }
    std::vector<float> rgb;
    int h = 0, wd = 0;
    const int cols = std::max(1, std::min(shown, 8));
    tile_rgb(imgs, pr.image_h, pr.image_w, 1, scale, cols, rgb, &h, &wd);
    fit_text("First hidden layer: the weights w_j of %d of its %d neurons as %dx%d images", shown, out, pr.image_h, pr.image_w);
    tooltip_text("Neuron j computes f(w_j . x + b_j): it responds to images that look like its weight image. "
                 "Blue: positive weights, orange: negative (scaled by the largest |w|). Network of iteration "
                 "shown in the header.");
    colour_key({{diverging_u32(1.0f, 255), "w > 0"}, {diverging_u32(-1.0f, 255), "w < 0"}},
               "brightness ~ |w| / max |w|");
    image_plot("##mlp_weights", rgb, h, wd, size.x, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y));
    return;
  }
  if (!pictures_ || pictures_->d == 0) {
    fit_text_disabled(pr.d > 2 ? "Neuron pictures need 1-D, 2-D or image inputs (this data has %d features)."
                                 : "Computing the neuron pictures...", pr.d);
    return;
  }
  const MlpPictures& pic = *pictures_;
  const int layers = static_cast<int>(pic.hidden.size());
  fit_text("What each hidden neuron computes over the input %s (network of iteration %d)",
              pic.d == 2 ? "plane" : "line", pic.net_iteration);
  tooltip_text(pic.d == 2 ? "Tile j of layer l: a_j^(l)(x) = f(z_j^(l)) over the same square as the Model tab. "
                            "Blue: positive, orange: negative, black: 0 (scaled by the layer's largest |a|). Deeper "
                            "layers combine the simpler pictures of earlier ones."
                          : "Each line: a hidden neuron's output a_j^(l)(x) over the input range; the output layer "
                            "adds them up with its weights.");
  if (pic.d == 2)
    colour_key({{diverging_u32(1.0f, 255), "a > 0"}, {diverging_u32(-1.0f, 255), "a < 0"}, {diverging_u32(0.0f, 255), "a = 0"}},
               "brightness ~ |a| / max |a| of the layer");
  const float avail_h = ImGui::GetContentRegionAvail().y;  // below the (wrapped) caption
  const float h = std::max(min_plot_height(true), (avail_h - (layers - 1) * ImGui::GetStyle().ItemSpacing.y) /
                                                      std::max(1, layers));
  for (int l = 0; l < layers; ++l) {
    const int width = pic.hidden_width[static_cast<size_t>(l)];
    const int shown = std::min(width, max_neurons);
    char title[96];
    std::snprintf(title, sizeof title, "hidden layer %d: %d of %d neurons##mlp_layer%d", l + 1, shown, width, l);
    const std::vector<float>& a = pic.hidden[static_cast<size_t>(l)];
    if (pic.d == 2) {
      // Downsample the grid 2x for the tiles.
      const int sub = 2, r = pic.res / sub;
      const float scale = std::max(std::fabs(pic.hidden_min[static_cast<size_t>(l)]), std::fabs(pic.hidden_max[static_cast<size_t>(l)]));
      std::vector<std::vector<float>> tiles(static_cast<size_t>(shown), std::vector<float>(static_cast<size_t>(r * r)));
      for (int j = 0; j < shown; ++j)
        for (int y = 0; y < r; ++y)
          for (int x = 0; x < r; ++x)
            tiles[static_cast<size_t>(j)][static_cast<size_t>(y * r + x)] =
                a[(static_cast<size_t>(y * sub) * pic.res + static_cast<size_t>(x * sub)) * width + static_cast<size_t>(j)];
      std::vector<const float*> ptrs;
      for (const auto& t : tiles) ptrs.push_back(t.data());
      // Tiles per row: the count that gives the largest tiles in the plot area.
      const float area_w = size.x - 2 * ImGui::GetFontSize(), area_h = h - 2.5f * ImGui::GetFontSize();
      int cols = 1;
      float best = 0;
      for (int c = 1; c <= shown; ++c) {
        const int rows = (shown + c - 1) / c;
        const float t = std::min(area_w / c, area_h / rows);
        if (t > best) {
          best = t;
          cols = c;
        }
      }
      std::vector<float> rgb;
      int th = 0, tw = 0;
      tile_rgb(ptrs, r, r, 1, std::max(scale, 1e-12f), cols, rgb, &th, &tw);
      fit_text_unformatted(title, std::strstr(title, "##"));
      image_plot(title, rgb, th, tw, size.x, h - ImGui::GetTextLineHeightWithSpacing());
    } else {
      if (plot::BeginPlot(title, ImVec2(size.x, h), plot::PlotFlags_NoLegend)) {
        plot::SetupAxes(pr.feature_names.empty() ? "x" : pr.feature_names[0].c_str(), "a(x)", plot::AxisFlags_AutoFit,
                        plot::AxisFlags_AutoFit);
        std::vector<double> xs(static_cast<size_t>(pic.res)), ys(static_cast<size_t>(pic.res));
        for (int i = 0; i < pic.res; ++i) xs[static_cast<size_t>(i)] = pic.x_min + (pic.x_max - pic.x_min) * (i + 0.5) / pic.res;
        for (int j = 0; j < shown; ++j) {
          for (int i = 0; i < pic.res; ++i) ys[static_cast<size_t>(i)] = a[static_cast<size_t>(i) * width + static_cast<size_t>(j)];
          char id[32];
          std::snprintf(id, sizeof id, "neuron %d", j + 1);
          plot::PlotLine(id, xs.data(), ys.data(), pic.res);
        }
        plot::EndPlot();
      }
    }
  }
}

void MlpView::draw_network(const MlpSnapshot& s, ImVec2 size) {
  const MlpProblem& pr = *s.problem;
  if (!s.net) return;
  const nn::Sequential<float>& net = *s.net;
  // The Linear layers in order: widths in_0, out_0 = in_1, ...
  std::vector<size_t> linear;
  for (size_t l = 0; l < net.size(); ++l)
    if (net.layer(l).name() == "linear") linear.push_back(l);
  std::vector<int> widths = {pr.d};
  for (size_t i = 0; i < linear.size(); ++i) widths.push_back(net.layer(linear[i]).num_params() / (widths.back() + 1));
  fit_text("The network of iteration %d: %d layers of weights, %zu parameters", s.net_iteration,
              static_cast<int>(linear.size()), net.num_params());
  tooltip_text("Columns: the input, each hidden layer, the output. An edge is a weight w_ji: blue positive, orange "
               "negative, thickness and opacity ~ |w_ji| / max |w| of its layer. Large layers show their first "
               "neurons only (slider 'neurons per layer shown').");
  colour_key({{diverging_u32(1.0f, 255), "w > 0"}, {diverging_u32(-1.0f, 255), "w < 0"}},
             "edge width and opacity ~ |w| / max |w| of its layer");
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 area(size.x, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y));
  ImGui::InvisibleButton("##mlp_graph", area);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + area.x, p0.y + area.y), colors().plot_bg, 4.0f);
  const int cols = static_cast<int>(widths.size());
  const float fs = ImGui::GetFontSize();
  const float margin_x = fs * 5, margin_y = fs * 1.5f;
  auto col_x = [&](int c) { return p0.x + margin_x + (area.x - 2 * margin_x) * (cols > 1 ? float(c) / (cols - 1) : 0.5f); };
  auto shown_of = [&](int c) { return std::min(widths[static_cast<size_t>(c)], max_neurons); };
  auto node_y = [&](int c, int j) {
    const int n = shown_of(c);
    return p0.y + margin_y + (area.y - 2 * margin_y) * (n > 1 ? float(j) / (n - 1) : 0.5f);
  };
  const float radius = std::clamp((area.y - 2 * margin_y) / (2.5f * std::max(1, max_neurons)), 2.5f, fs * 0.6f);
  // Edges, layer by layer.
  for (size_t i = 0; i < linear.size(); ++i) {
    const int in = widths[i], out = widths[i + 1];
    const float* w = net.params() + net.param_offset(linear[i]);
    float wmax = 1e-12f;
    for (int k = 0; k < in * out; ++k) wmax = std::max(wmax, std::fabs(w[k]));
    const int c = static_cast<int>(i);
    for (int j = 0; j < shown_of(c + 1); ++j)
      for (int k = 0; k < shown_of(c); ++k) {
        const float v = w[static_cast<size_t>(j) * in + k] / wmax;
        const float a = std::fabs(v);
        dl->AddLine(ImVec2(col_x(c), node_y(c, k)), ImVec2(col_x(c + 1), node_y(c + 1, j)),
                    diverging_u32(v > 0 ? 1.0f : -1.0f, static_cast<int>(40 + 200 * a)), 0.5f + 3.0f * a);
      }
  }
  // Nodes and labels.
  for (int c = 0; c < cols; ++c) {
    const int n = shown_of(c);
    for (int j = 0; j < n; ++j) {
      const ImVec2 p(col_x(c), node_y(c, j));
      dl->AddCircleFilled(p, radius, colors().text_dim);
      const char* label = nullptr;
      if (c == 0 && j < static_cast<int>(pr.feature_names.size()) && pr.image_h == 0) label = pr.feature_names[static_cast<size_t>(j)].c_str();
      if (c == cols - 1) label = pr.regression ? pr.target_name.c_str() : pr.class_names[static_cast<size_t>(j)].c_str();
      if (label && n <= 16) {
        const ImVec2 ts = ImGui::CalcTextSize(label);
        const float x = c == 0 ? p.x - radius - 4 - ts.x : p.x + radius + 4;
        dl->AddText(ImVec2(x, p.y - ts.y / 2), colors().text, label);
      }
    }
    char head[64];
    if (widths[static_cast<size_t>(c)] > n)
      std::snprintf(head, sizeof head, "%d of %d", n, widths[static_cast<size_t>(c)]);
    else
      std::snprintf(head, sizeof head, "%d", widths[static_cast<size_t>(c)]);
    const ImVec2 ts = ImGui::CalcTextSize(head);
    dl->AddText(ImVec2(col_x(c) - ts.x / 2, p0.y + 2), colors().text_dim, head);
  }
}

int MlpView::draw_errors(const MlpSnapshot& s, ImVec2 size, const char* pick) {
  int picked = -1;
  const MlpProblem& pr = *s.problem;
  if (!s.evaluation || s.evaluation->predicted.empty() || pr.image_h == 0) {
    fit_text_disabled("Misclassified images appear after the first evaluation.");
    return picked;
  }
  const MlpEvaluation& ev = *s.evaluation;
  const nn::Mat<float>& x = ev.on_test ? pr.x_test : pr.x_train;
  const std::vector<int>& y = ev.on_test ? pr.y_test : pr.y_train;
  std::vector<int> wrong;
  for (size_t i = 0; i < ev.predicted.size() && i < y.size(); ++i)
    if (ev.predicted[i] != y[i]) wrong.push_back(static_cast<int>(i));
  // Layout in pixels: each cell holds the image at 2x (or less) and its two captions.
  const float line = ImGui::GetTextLineHeight();
  float name_w = 0;
  for (const std::string& n : pr.class_names) name_w = std::max(name_w, ImGui::CalcTextSize(n.c_str()).x);
  const int h = pr.image_h, w = pr.image_w;
  const float img = std::max(static_cast<float>(w), std::min(2.0f * w, 4.0f * line));
  const float cell_w = std::max(img, name_w) + 8, cell_h = img * h / w + 2 * line + 8;
  const float avail_h = ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing();
  const int cols = std::max(1, static_cast<int>((size.x - 8) / cell_w));
  const int rows_fit = std::max(1, static_cast<int>((avail_h - 8) / cell_h));
  const int count = std::min<int>(static_cast<int>(wrong.size()), cols * rows_fit);
  fit_text("%zu of %zu %s images misclassified after epoch %d; the first %d:", wrong.size(), ev.predicted.size(),
              ev.on_test ? "test" : "training", ev.epoch, count);
  tooltip_text("Each image with the network's prediction (red, above) and the true class (green, below), evaluated "
               "in eval mode at the end of the epoch.");
  colour_key({{colors().error, "above: the network's prediction"}, {colors().good, "below: the true class"}});
  if (count == 0) return picked;
  const int rows = (count + cols - 1) / cols;
  const float pw = cols * cell_w, ph = rows * cell_h;
  const float pad = ImGui::GetStyle().FramePadding.y * 2 + 4;
  if (plot::BeginPlot("##mlp_errors", ImVec2(pw + pad, ph + pad), plot::PlotFlags_CanvasOnly | plot::PlotFlags_NoInputs)) {
    plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock,
                    plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock);
    plot::SetupAxesLimits(0, pw, 0, ph, plot::Cond::Always);  // one unit = one pixel
    std::vector<float> px(static_cast<size_t>(h * w));
    const float img_h = img * h / w;
    for (int t = 0; t < count; ++t) {
      const int i = wrong[static_cast<size_t>(t)];
      const double cx = (t % cols + 0.5) * cell_w;
      const double y0 = (rows - 1 - t / cols) * cell_h + line + 4;  // bottom of the image
      char id[32];
      std::snprintf(id, sizeof id, "##err%d", t);
      // Pixels as the network saw them, un-standardised.
      for (int k = 0; k < h * w; ++k) px[static_cast<size_t>(k)] = static_cast<float>(x(i, k) * pr.scale(k) + pr.mean(k));
      plot::PlotImageGray(id, px.data(), h, w, 0.0f, 1.0f, plot::Point{cx - img / 2, y0}, plot::Point{cx + img / 2, y0 + img_h});
      plot::PlotText(
          pr.class_names[static_cast<size_t>(ev.predicted[static_cast<size_t>(i)])].c_str(), cx,
          y0 + img_h + line / 2 + 1, ImVec2(0, 0), colors().error);
      plot::PlotText(pr.class_names[static_cast<size_t>(y[static_cast<size_t>(i)])].c_str(), cx,
                     y0 - line / 2 - 1, ImVec2(0, 0), colors().good);
    }
    if (pick && plot::IsPlotHovered()) {
      const plot::Point m = plot::GetPlotMousePos();
      const int col = static_cast<int>(m.x / cell_w), row = rows - 1 - static_cast<int>(std::floor(m.y / cell_h));
      const int t = row * cols + col;
      if (m.x >= 0 && col < cols && row >= 0 && t < count) {
        ImGui::SetTooltip("%s", pick);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) picked = wrong[static_cast<size_t>(t)];
      }
    }
    plot::EndPlot();
  }
  return picked;
}

}  // namespace cilab
