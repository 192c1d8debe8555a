// The vae view's tabs: the latent space, the decoded manifold, reconstructions
// and samples (image data), the encoder's and decoder's maps (2-D toy data).
#include "views/generative/vae_view.h"

#include "views/common/class_key.h"
#include "views/common/mosaic_plot.h"
#include "views/plot/plot.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

namespace {

const char* class_name(const TrainData& td, int c) {
  return c >= 0 && c < td.num_classes() ? td.class_names[static_cast<size_t>(c)].c_str()
                                        : "unlabelled";
}

// A grey image (h x w, row-major) drawn pixel by pixel into the current window (a tooltip), `px`
// pixels per pixel.
void tooltip_image(const float* pixels, int h, int w, float vmin, float vmax, float px) {
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float span = vmax > vmin ? vmax - vmin : 1.0f;
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) {
      const float v = std::clamp((pixels[r * w + c] - vmin) / span, 0.0f, 1.0f);
      const int g = static_cast<int>(v * 255.0f + 0.5f);
      dl->AddRectFilled(ImVec2(p0.x + c * px, p0.y + r * px),
                        ImVec2(p0.x + (c + 1) * px, p0.y + (r + 1) * px), IM_COL32(g, g, g, 255));
    }
  ImGui::Dummy(ImVec2(w * px, h * px));
}

// mu and sigma of a point as text: every axis up to 4, then "...".
std::string vector_text(const nn::Mat<float>& m, int row) {
  std::string s = "(";
  const int k = static_cast<int>(m.cols());
  for (int j = 0; j < std::min(k, 4); ++j) {
    char b[32];
    std::snprintf(b, sizeof b, "%s%.3f", j ? ", " : "", static_cast<double>(m(row, j)));
    s += b;
  }
  if (k > 4) s += ", ... " + std::to_string(k) + " axes";
  return s + ")";
}

}  // namespace

void VaeView::draw_latent(const VaeSnapshot& s, ImVec2 size) {
  const VaePictures* pic = pictures_.get();
  if (!pic || pic->rows.empty() || !pictured_data_ || pic->latent != s.latent) {
    // The title now, the picture when the background job has computed it.
    if (s.latent > 2)
      fit_text("Principal axes of the posterior means mu(x), latent = %d", s.latent);
    else
      fit_text_unformatted("Posterior means mu(x) of the test rows");
    fit_text_disabled("computing the latent space off the UI thread...");
    return;
  }
  const TrainData& td = *pictured_data_;
  const int n = static_cast<int>(pic->rows.size());
  const char* set = pic->from_test ? "test" : "training";
  char title[300];
  if (pic->projected)
    std::snprintf(title, sizeof title,
                  "Principal axes of the posterior means mu(x), latent = %d (%d %s rows; %.0f%% of "
                  "their variance)",
                  pic->latent, n, set,
                  100.0 * (pic->axes_variance(0) + pic->axes_variance(1)) /
                      std::max(1e-300, pic->total_variance));
  else
    std::snprintf(title, sizeof title,
                  "Posterior means mu(x) of %d %s rows (network of iteration %d)", n, set,
                  pic->net_iteration);
  fit_text_unformatted(title);
  tooltip_text(
      pic->projected
          ? "Each dot is mu(x) of a row, projected on the top two principal axes of the plotted "
            "means (their "
            "sample covariance's eigenvectors): (mu - mean) A. Ellipses: 1 sigma of q(z | x) "
            "projected, "
            "A^T diag(sigma^2) A. Circles: the prior N(0, I) at 1 and 2 sigma (projected: still "
            "unit circles)."
          : "Each dot is mu(x) of a row: the centre of q(z | x) = N(mu(x), diag sigma^2(x)). "
            "Ellipses: 1 sigma "
            "of q(z | x) (axis-aligned). Circles: the prior N(0, I) at 1 and 2 sigma. The KL term "
            "pulls the "
            "ellipses towards the unit circle; the reconstruction term spreads the classes apart.");
  class_key(td.class_names, size.x, hidden_classes_,
            {"rings: 1 sigma of q(z | x)", "dashed: prior N(0, I), 1 and 2 sigma"});
  const ImVec2 psize(size.x, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y));
  // The latent space moves as it trains: both axes follow the points (equal aspect).
  if (!plot::BeginPlot(
          "latent space##vae", psize,
          plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend | plot::PlotFlags_EqualAspect))
    return;
  const plot::AxisFlags fit = plot::AxisFlags_AutoFit;
  if (pic->projected)
    plot::SetupAxes("principal axis 1 of mu", "principal axis 2 of mu", fit, fit);
  else
    plot::SetupAxes("z1 (mu_1)", pic->latent > 1 ? "z2 (mu_2)" : "", fit, fit);
  const std::vector<int>& labels = pic->from_test ? td.y_test : td.y_train;
  auto shown = [&](int l) { return class_shown(hidden_classes_, l); };
  std::vector<float> xs, ys;
  std::vector<ImU32> cols;
  std::vector<int> index;  // point -> picture row
  xs.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int l =
        labels.empty() ? -1 : labels[static_cast<size_t>(pic->rows[static_cast<size_t>(i)])];
    if (!shown(l)) continue;
    xs.push_back(pic->px[static_cast<size_t>(i)]);
    ys.push_back(pic->py[static_cast<size_t>(i)]);
    cols.push_back(class_colour(l));
    index.push_back(i);
  }
  // The prior's 1- and 2-sigma circles (centred at the projected origin).
  double ox = 0, oy = 0;
  if (pic->projected) {
    for (int k = 0; k < pic->latent; ++k) {
      ox -= pic->axes_mean(k) * pic->axes(k, 0);
      oy -= pic->axes_mean(k) * pic->axes(k, 1);
    }
  }
  plot::Spec prior;
  prior.color = with_alpha(colors().text_dim, 200);
  prior.line_style = plot::LineStyle::Dashed;
  prior.line_weight = 1.0f;
  plot::PlotEllipse("prior N(0, I): 1 and 2 sigma", ox, oy, 1, 0, 1, 1.0, prior);
  prior.flags = plot::ItemFlags_NoLegend;
  plot::PlotEllipse("##prior2", ox, oy, 1, 0, 1, 2.0, prior);
  plot::Spec dots;
  dots.marker = plot::Marker::Circle;
  dots.marker_size = n > 3000 ? 2.0f : 2.5f;
  dots.colors = cols.data();
  dots.flags = plot::ItemFlags_NoLegend;
  plot::PlotScatter("##mu", xs.data(), ys.data(), static_cast<int>(xs.size()), dots);
  if (show_ellipses && pic->sigma.rows() == n) {
    std::vector<float> ex, ey;
    for (int k = 0; k < kEllipses && k < n; ++k) {
      const int i = static_cast<int>(static_cast<int64_t>(k) * n / kEllipses + n / (2 * kEllipses));
      double a, b, c;
      vae_point_covariance(*pic, i, &a, &b, &c);
      plot::Spec e;
      e.color = with_alpha(colors().text, 230);
      e.fill_color = with_alpha(
          class_colour(
              labels.empty() ? -1 : labels[static_cast<size_t>(pic->rows[static_cast<size_t>(i)])]),
          70);
      e.line_weight = 1.5f;
      e.flags = k == 0 ? 0 : plot::ItemFlags_NoLegend;
      char id[48];
      std::snprintf(id, sizeof id, "##ell%d", k);
      plot::PlotEllipse(k == 0 ? "1 sigma of q(z | x)" : id, pic->px[static_cast<size_t>(i)],
                        pic->py[static_cast<size_t>(i)], a, b, c, 1.0, e);
      ex.push_back(pic->px[static_cast<size_t>(i)]);
      ey.push_back(pic->py[static_cast<size_t>(i)]);
    }
    plot::Spec ring;
    ring.marker = plot::Marker::Circle;
    ring.marker_size = 4.0f;
    ring.color = colors().text;
    ring.flags = plot::ItemFlags_NoLegend;
    plot::PlotScatter("##ell_centres", ex.data(), ey.data(), static_cast<int>(ex.size()), ring);
  }
  // Hover: the nearest point within 10 px, its image (or features), mu, sigma and KL.
  if (plot::IsPlotHovered() && !ImGui::IsMouseDown(0) && !xs.empty()) {
    const int near = plot::NearestPointToMouse(xs.data(), ys.data(), static_cast<int>(xs.size()), 10.0f);
    const int best = near >= 0 ? index[static_cast<size_t>(near)] : -1;
    if (best >= 0) {
      const int row = pic->rows[static_cast<size_t>(best)];
      const nn::Mat<float>& x = pic->from_test ? td.x_test : td.x_train;
      ImGui::BeginTooltip();
      fit_text("%s row %d: %s", set, row,
                  class_name(td, labels.empty() ? -1 : labels[static_cast<size_t>(row)]));
      if (td.is_image() && row < x.rows()) {
        tooltip_image(x.row(row).data(), td.image_h, td.image_w, td.min_value, td.max_value, 3.0f);
      } else if (row < x.rows()) {
        std::vector<double> v(static_cast<size_t>(td.d));
        td.unstandardise(x.row(row).data(), v.data());
        std::string t = "x = (";
        for (int j = 0; j < std::min(td.d, 6); ++j)
          t += (j ? ", " : "") + std::to_string(v[static_cast<size_t>(j)]).substr(0, 7);
        fit_text_unformatted((t + (td.d > 6 ? ", ...)" : ")")).c_str());
      }
      fit_text("mu    = %s", vector_text(pic->mu, best).c_str());
      fit_text("sigma = %s", vector_text(pic->sigma, best).c_str());
      double kl = 0;
      for (int k = 0; k < pic->latent; ++k) {
        const double m = pic->mu(best, k), sg = pic->sigma(best, k);
        kl += 0.5 * (m * m + sg * sg - std::log(sg * sg) - 1.0);
      }
      fit_text("KL(q(z | x) || N(0, I)) = %.3f", kl);
      fit_text_disabled("KL = 1/2 sum_k (mu_k^2 + sigma_k^2 - log sigma_k^2 - 1)");
      ImGui::EndTooltip();
    }
  }
  plot::EndPlot();
}

void VaeView::draw_manifold(const VaeSnapshot& s, ImVec2 size) {
  const VaePictures* pic = pictures_.get();
  if (!pic || pic->manifold.empty() || !pictured_data_ || pic->latent != s.latent) {
    // The title now, the picture when the background job has computed it.
    if (s.latent > 2 && active_axes)
      fit_text("Decoded grid along the two most active latent axes, the other %d axes held at 0",
                  s.latent - 2);
    else if (s.latent > 2)
      fit_text("Decoded grid along latent axes %d and %d, the other %d axes held at 0", axis_i + 1,
                  axis_j + 1, s.latent - 2);
    else
      fit_text_unformatted("Decoded manifold: decode_mean(z) over the N(0, 1) quantiles");
    fit_text_disabled("computing the decoded grid off the UI thread...");
    return;
  }
  const TrainData& td = *pictured_data_;
  const int g = pic->grid;
  char title[300];
  if (pic->latent == 2)
    std::snprintf(title, sizeof title,
                  "Decoded manifold: decode_mean(z) for z on a %d x %d grid at the N(0, 1) "
                  "quantiles (network of "
                  "iteration %d)",
                  g, g, pic->net_iteration);
  else if (pic->latent > 2)
    std::snprintf(title, sizeof title,
                  "Decoded grid along latent axes %d and %d%s (at the N(0, 1) quantiles), the "
                  "other %d axes held at 0",
                  pic->axis_i + 1, pic->axis_j + 1, pic->auto_axes ? " (the two most active)" : "",
                  pic->latent - 2);
  else
    std::snprintf(title, sizeof title,
                  "Decoded line: decode_mean(z_1) at %d N(0, 1) quantiles (each row the same)", g);
  fit_text_unformatted(title);
  tooltip_text(
      "Kingma & Welling's figure: z_i = Phi^-1((k + 1/2) / grid), k = 0 .. grid - 1, so every tile "
      "covers "
      "the same prior probability; the axes show Phi(z) (the prior's CDF). Each tile is the "
      "decoder's mean "
      "(Bernoulli: sigmoid of its logits). Smooth changes between tiles: a continuous latent "
      "space.");
  const float side =
      std::max(min_plot_height(), std::min(size.x, size.y - ImGui::GetTextLineHeightWithSpacing()));
  if (!plot::BeginPlot(
          "decoded manifold##vae", ImVec2(side, side),
          plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend | plot::PlotFlags_EqualAspect))
    return;
  char xl[64], yl[64];
  std::snprintf(xl, sizeof xl, "Phi(z%d): prior CDF", pic->axis_i + 1);
  std::snprintf(yl, sizeof yl, "Phi(z%d): prior CDF", pic->axis_j + 1);
  plot::SetupAxes(xl, pic->latent > 1 ? yl : "");
  plot::PlotImageGray("##manifold", pic->manifold.pixels.data(), pic->manifold.h, pic->manifold.w,
                      td.min_value, td.max_value, plot::Point{0, 0}, plot::Point{1, 1});
  if (plot::IsPlotHovered()) {
    const plot::Point m = plot::GetPlotMousePos();
    const int c = static_cast<int>(std::floor(m.x * g)),
              r = static_cast<int>(std::floor((1.0 - m.y) * g));
    if (c >= 0 && c < g && r >= 0 && r < g) {
      ImGui::BeginTooltip();
      fit_text("z%d = %.3f", pic->axis_i + 1, pic->grid_values[static_cast<size_t>(c)]);
      if (pic->latent > 1)
        fit_text("z%d = %.3f", pic->axis_j + 1,
                    pic->grid_values[static_cast<size_t>(g - 1 - r)]);
      if (pic->latent > 2) fit_text_disabled("the other %d axes: 0", pic->latent - 2);
      if (pic->auto_axes)
        fit_text_disabled("var(mu) along z%d, z%d: %.3g, %.3g (the two largest of %d)",
                            pic->axis_i + 1, pic->axis_j + 1,
                            pic->axis_variance[static_cast<size_t>(pic->axis_i)],
                            pic->axis_variance[static_cast<size_t>(pic->axis_j)], pic->latent);
      fit_text_disabled("tile = decode_mean(z)");
      ImGui::EndTooltip();
    }
  }
  plot::EndPlot();
}

void VaeView::draw_samples(const VaeSnapshot&, ImVec2 size) {
  const VaePictures* pic = pictures_.get();
  if (!pic || pic->recon_mosaic.empty() || !pictured_data_) {
    fit_text_disabled(
        "Reconstructions and samples appear with the next pictures (computed off the UI thread).");
    return;
  }
  const TrainData& td = *pictured_data_;
  const char* set = pic->from_test ? "test" : "training";
  char cap[3][200];
  std::snprintf(cap[0], sizeof cap[0], "Reconstructions: %s images, decode_mean(mu(x)) under each",
                set);
  std::snprintf(cap[1], sizeof cap[1], "Prior samples: decode_mean(z), z ~ N(0, I), %d fixed draws",
                static_cast<int>(pic->prior_z.rows()));
  std::snprintf(cap[2], sizeof cap[2],
                "Interpolation: %s rows %d -> %d, decode_mean((1 - t) mu(a) + t mu(b)), originals "
                "at both ends",
                set, pic->interp_a, pic->interp_b);
  // Layout: reconstructions and prior samples side by side, the interpolation below across the
  // column; scaled down together so that everything fits the height without scrolling.
  const float gap_x = ImGui::GetStyle().ItemSpacing.x, gap_y = ImGui::GetStyle().ItemSpacing.y,
              pad = mosaic_pad();
  const float half = (size.x - gap_x) / 2;
  auto text_h = [&](const char* t, float w) {
    return ImGui::CalcTextSize(t, nullptr, false, w).y + gap_y;
  };
  auto ratio = [](const Mosaic& m) { return m.empty() ? 0.0f : static_cast<float>(m.h) / m.w; };
  const float top_ratio = std::max(ratio(pic->recon_mosaic), ratio(pic->prior_mosaic));
  const float captions =
      std::max(text_h(cap[0], half), text_h(cap[1], half)) + text_h(cap[2], size.x);
  const float avail =
      ImGui::GetContentRegionAvail().y - captions - 2 * gap_y - ImGui::GetTextLineHeight();
  // Heights at scale f: f * (half - pad) * top_ratio + pad + f * (size.x - pad) * interp_ratio +
  // pad.
  const float full = (half - pad) * top_ratio + (size.x - pad) * ratio(pic->interp_mosaic);
  const float f = full > 0 ? std::clamp((avail - 2 * pad) / full, 0.2f, 1.0f) : 1.0f;
  const float w_top = pad + f * (half - pad), w_bottom = pad + f * (size.x - pad);
  const int tile_w = td.image_w + 2, tile_h = td.image_h + 2;
  const std::vector<int>& labels = pic->from_test ? td.y_test : td.y_train;

  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + half);
  fit_text_unformatted(cap[0]);
  ImGui::PopTextWrapPos();
  tooltip_text(
      "Each image x is encoded to the mean of q(z | x) and decoded back: decode_mean(mu(x)) (the "
      "row below "
      "it). Blurry reconstructions are the likelihood's mean, averaging what z cannot tell apart. "
      "The rows "
      "are the k-th test image of each class (k: 'reconstructed row' under the parameters).");
  const ImVec2 hr =
      mosaic_plot("##vae_recon", pic->recon_mosaic, td.min_value, td.max_value, w_top);
  if (hr.x >= 0) {
    const int c = static_cast<int>(hr.x) / tile_w, r = static_cast<int>(hr.y) / tile_h;
    const int i = (r / 2) * pic->recon_cols + c;
    if (c < pic->recon_cols && i < static_cast<int>(pic->recon_rows.size())) {
      const int row = pic->recon_rows[static_cast<size_t>(i)];
      ImGui::BeginTooltip();
      fit_text("%s row %d: %s", set, row,
                  class_name(td, labels.empty() ? -1 : labels[static_cast<size_t>(row)]));
      fit_text_disabled("%s", r % 2 == 0 ? "the image x" : "decode_mean(mu(x))");
      ImGui::EndTooltip();
    }
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + half);
  fit_text_unformatted(cap[1]);
  ImGui::PopTextWrapPos();
  tooltip_text(
      "z drawn once from the prior with a fixed seed (the same z at every refresh, so the images "
      "change only "
      "as the decoder learns), decoded to the likelihood's mean.");
  const ImVec2 hp =
      mosaic_plot("##vae_prior", pic->prior_mosaic, td.min_value, td.max_value, w_top);
  if (hp.x >= 0) {
    const int i =
        (static_cast<int>(hp.y) / tile_h) * pic->prior_cols + static_cast<int>(hp.x) / tile_w;
    if (i < pic->prior_z.rows()) {
      ImGui::BeginTooltip();
      fit_text("z = %s", vector_text(pic->prior_z, i).c_str());
      ImGui::EndTooltip();
    }
  }
  ImGui::EndGroup();
  fit_text_unformatted(cap[2]);
  tooltip_text(
      "The path between the two posterior means, linear in z, decoded at evenly spaced t from 0 to "
      "1. The "
      "end rows are chosen under the parameters (interpolate from / to).");
  const ImVec2 hi =
      mosaic_plot("##vae_interp", pic->interp_mosaic, td.min_value, td.max_value, w_bottom);
  if (hi.x >= 0) {
    const int c = static_cast<int>(hi.x) / tile_w, steps = static_cast<int>(pic->interp_z.rows());
    ImGui::BeginTooltip();
    if (c == 0 || c == steps + 1)
      fit_text("%s row %d (the original)", set, c == 0 ? pic->interp_a : pic->interp_b);
    else if (c <= steps)
      fit_text("t = %.2f", static_cast<double>(c - 1) / std::max(1, steps - 1));
    ImGui::EndTooltip();
  }
}

void VaeView::draw_maps(const VaeSnapshot&, ImVec2 size) {
  const VaePictures* pic = pictures_.get();
  if (!pic || pic->decoder_mesh.empty() || !pictured_data_) {
    fit_text_disabled(
        "The encoder's and decoder's maps appear with the next pictures (computed off the UI "
        "thread).");
    return;
  }
  const TrainData& td = *pictured_data_;
  // The data in its units (train then test rows), cached per data set.
  if (toy_of_ != pictured_data_) {
    toy_x_.clear();
    toy_y_.clear();
    toy_labels_.clear();
    double v[2];
    for (const nn::Mat<float>* x : {&td.x_train, &td.x_test})
      for (Eigen::Index i = 0; i < x->rows(); ++i) {
        td.unstandardise(x->row(i).data(), v);
        toy_x_.push_back(static_cast<float>(v[0]));
        toy_y_.push_back(static_cast<float>(v[1]));
      }
    toy_labels_ = td.y_train;
    toy_labels_.insert(toy_labels_.end(), td.y_test.begin(), td.y_test.end());
    toy_of_ = pictured_data_;
  }
  class_key(td.class_names, size.x, hidden_classes_,
            {"lines: image of a regular grid", "crosses: decoded prior samples"});
  auto shown = [&](int l) { return class_shown(hidden_classes_, l); };
  const float w = (size.x - ImGui::GetStyle().ItemSpacing.x) / 2;
  char data_caption[120];
  if (pic->latent > 2)
    std::snprintf(data_caption, sizeof data_caption,
                  "Data plane: the decoder's image of a regular grid of (z%d, z%d)",
                  pic->axis_i + 1, pic->axis_j + 1);
  else
    std::snprintf(data_caption, sizeof data_caption,
                  "Data plane: the decoder's image of a regular z grid");
  const char* captions[2] = {
      data_caption, pic->projected
                        ? "Latent plane (principal axes of mu): the encoder's image of an x grid"
                        : "Latent plane: the encoder's image of a regular x grid"};
  const float caption_h = std::max(ImGui::CalcTextSize(captions[0], nullptr, false, w).y,
                                   ImGui::CalcTextSize(captions[1], nullptr, false, w).y) +
                          ImGui::GetStyle().ItemSpacing.y;
  const ImVec2 psize(w, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y - caption_h));
  // Both planes move as the model trains: the axes follow the points (equal aspect).
  const plot::AxisFlags fit = plot::AxisFlags_AutoFit;
  const plot::PlotFlags flags =
      plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend | plot::PlotFlags_EqualAspect;
  plot::Spec mesh;
  mesh.color = with_alpha(colors().text, 120);
  mesh.line_weight = 1.0f;

  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
  fit_text_unformatted(captions[0]);
  ImGui::PopTextWrapPos();
  tooltip_text(
      "Lines: decode_mean(z) along the lines of a regular grid of z in [-3, 3]^2 (latent > 2: "
      "along the two "
      "most active axes or the chosen ones, the others 0), in the data's units: how the decoder "
      "folds the latent plane onto the data. Crosses: decode_mean(z) "
      "of z ~ N(0, I) (means, without the sigma_x noise). The axes fit the data.");
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + caption_h - ImGui::GetItemRectSize().y -
                       ImGui::GetStyle().ItemSpacing.y);
  if (plot::BeginPlot("data plane##vae", psize, flags)) {
    plot::SetupAxes(td.feature_names.size() > 0 ? td.feature_names[0].c_str() : "x1",
                    td.feature_names.size() > 1 ? td.feature_names[1].c_str() : "x2", fit, fit);
    std::vector<ImU32> cols(toy_x_.size());
    for (size_t i = 0; i < cols.size(); ++i)
      cols[i] = shown(toy_labels_[i]) ? with_alpha(class_colour(toy_labels_[i]), 170) : 0u;
    plot::Spec dots;
    dots.marker_size = 2.5f;
    dots.colors = cols.data();
    plot::PlotScatter("data", toy_x_.data(), toy_y_.data(), static_cast<int>(toy_x_.size()), dots);
    plot::Spec dmesh = mesh;
    dmesh.flags = plot::ItemFlags_NoFit;  // the z grid's far lines may land far from the data
    plot::PlotSegments("decoder image of a z grid", pic->decoder_mesh.data(),
                       static_cast<int>(pic->decoder_mesh.size() / 4), dmesh);
    plot::Spec cross;
    cross.marker = plot::Marker::Cross;
    cross.marker_size = 3.0f;
    cross.color = with_alpha(colors().accent, 220);
    cross.flags = plot::ItemFlags_NoFit;
    plot::PlotScatter("decoded prior samples", pic->prior_x.data(), pic->prior_y.data(),
                      static_cast<int>(pic->prior_x.size()), cross);
    plot::EndPlot();
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
  fit_text_unformatted(captions[1]);
  ImGui::PopTextWrapPos();
  tooltip_text(
      "Lines: mu(x) along the lines of a regular grid over the data's range (plus 10 %): how the "
      "encoder "
      "maps the data plane into z. Dots: mu(x) of the rows, by class.");
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + caption_h - ImGui::GetItemRectSize().y -
                       ImGui::GetStyle().ItemSpacing.y);
  if (plot::BeginPlot("latent plane##vae", psize, flags)) {
    if (pic->projected)
      plot::SetupAxes("principal axis 1 of mu", "principal axis 2 of mu", fit, fit);
    else
      plot::SetupAxes("z1 (mu_1)", pic->latent > 1 ? "z2 (mu_2)" : "", fit, fit);
    const std::vector<int>& labels = pic->from_test ? td.y_test : td.y_train;
    std::vector<ImU32> cols(pic->px.size());
    for (size_t i = 0; i < cols.size(); ++i) {
      const int l = labels.empty() ? -1 : labels[static_cast<size_t>(pic->rows[i])];
      cols[i] = shown(l) ? class_colour(l) : 0u;
    }
    plot::Spec dots;
    dots.marker_size = 2.5f;
    dots.colors = cols.data();
    plot::PlotScatter("mu(x)", pic->px.data(), pic->py.data(), static_cast<int>(pic->px.size()),
                      dots);
    plot::PlotSegments("encoder image of an x grid", pic->encoder_mesh.data(),
                       static_cast<int>(pic->encoder_mesh.size() / 4), mesh);
    plot::EndPlot();
  }
  ImGui::EndGroup();
}

}  // namespace cilab
