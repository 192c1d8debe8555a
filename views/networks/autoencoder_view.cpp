#include "views/common/curves.h"
#include "views/common/training_header.h"
#include "views/common/readout.h"
#include "views/networks/autoencoder_view.h"

#include "views/common/class_key.h"
#include "views/common/diverged_banner.h"
#include "views/plot/plot.h"
#include "views/common/scatter_projection.h"
#include "views/common/tab_bar.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

namespace {


// A scatter of (xs, ys) coloured by class (hidden classes left out); the class key above the plot names them.
void class_scatter(const char* id, const std::vector<float>& xs, const std::vector<float>& ys,
                   const std::vector<int>& labels, const std::vector<char>& hidden, float size_px) {
  std::vector<ImU32> col(labels.size());
  for (size_t i = 0; i < labels.size(); ++i) col[i] = class_shown(hidden, labels[i]) ? class_colour(labels[i]) : 0u;
  plot::Spec sp;
  sp.marker = kLabelMarker;
  sp.marker_size = size_px;
  sp.colors = col.data();
  sp.flags = plot::ItemFlags_NoLegend;
  plot::PlotScatter(id, xs.data(), ys.data(), static_cast<int>(xs.size()), sp);
}

// A row of grey images (d = h * w values each) in one canvas-only plot, a 1-pixel gap between them.
void image_row(const char* id, const float* images, int count, int h, int w, float vmin, float vmax, float width) {
  const float pad = ImGui::GetStyle().FramePadding.y * 2 + 4;
  const double total_w = count * (w + 1) - 1;
  const float ph = std::min((width - pad) * static_cast<float>(h / total_w) + pad, ImGui::GetFontSize() * 9);
  const float pw = (ph - pad) * static_cast<float>(total_w / h) + pad;
  if (!plot::BeginPlot(id, ImVec2(std::max(pw, 16.0f), std::max(ph, 16.0f)),
                       plot::PlotFlags_CanvasOnly | plot::PlotFlags_NoInputs))
    return;
  plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock,
                  plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_Lock);
  plot::SetupAxesLimits(0, total_w, 0, h, plot::Cond::Always);
  for (int k = 0; k < count; ++k) {
    char item[32];
    std::snprintf(item, sizeof item, "##img%d", k);
    const double x0 = k * (w + 1);
    plot::PlotImageGray(item, images + static_cast<size_t>(k) * h * w, h, w, vmin, vmax, plot::Point{x0, 0},
                        plot::Point{x0 + w, static_cast<double>(h)});
  }
  plot::EndPlot();
}

// A colour key above a plot whose legend would cover its curves: "-- name" per entry, in its colour.
void key_line(const std::vector<std::pair<const char*, ImU32>>& entries) {
  bool first = true;
  for (const auto& [name, colour] : entries) {
    const std::string t = std::string("-- ") + name;
    if (!first) same_line_if_fits(ImGui::CalcTextSize(t.c_str()).x, ImGui::GetFontSize());
    fit_text_colored(legible(colour), "%s", t.c_str());
    first = false;
  }
}

ImU32 train_colour() { return plot::GetColormapColor(1); }
ImU32 test_colour() { return plot::GetColormapColor(0); }
ImU32 pca_colour() { return colors().text; }
ImU32 noise_colour() { return colors().error; }
ImU32 batch_colour() { return with_alpha(colors().neutral, 140); }
ImU32 product_colour() { return plot::GetColormapColor(2); }
ImU32 ortho_colour() { return plot::GetColormapColor(5); }

}  // namespace

std::shared_ptr<const AutoencoderPictures> AutoencoderView::compute_pictures(const PictureRequest& snap) {
  return std::make_shared<const AutoencoderPictures>(compute_autoencoder_pictures(*snap, kSamples));
}

void AutoencoderView::on_reset() {
  job_.reset();
  pictures_.reset();
  pictured_net_.reset();
  pictured_noise_ = -1;
}

void AutoencoderView::update_pictures(const AutoencoderSnapshot& s, const ViewContext& ctx) {
  if (auto done = job_.collect()) pictures_ = std::move(done->result);
  if (!s.net || !s.data) return;
  if ((s.net == pictured_net_ && s.noise == pictured_noise_) || job_.busy()) return;
  const double now = ImGui::GetTime();
  if (job_.hold_back(now, pictures_ != nullptr)) return;
  auto snap = std::make_shared<const AutoencoderSnapshot>(s);
  pictured_net_ = s.net;
  pictured_noise_ = s.noise;
  if (!ctx.jobs) {  // tests without background jobs: compute here
    pictures_ = job_.compute_here(snap, now);
    return;
  }
  job_.submit(*ctx.jobs, std::move(snap), now);
}

void AutoencoderView::draw_header(const AutoencoderSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  header_.clear();
  rewind_button_ = ImVec2(NAN, NAN);
  char line[400];
  std::snprintf(line, sizeof line, "%s, %d epoch%s done", position_label(s, ctx.info, true).c_str(), s.epoch,
                s.epoch == 1 ? "" : "s");
  header_.push_back(line);
  fit_text_unformatted(line);
  ImGui::SameLine(0, ImGui::GetFontSize());
  std::snprintf(line, sizeof line, "%s, %zu weights", s.architecture.c_str(), s.num_params);
  header_.push_back(line);
  fit_text_disabled("%s", line);
  tooltip_text((s.data->what + (s.linear ? ". Linear: z = W (x - mean), x_hat = V z + mean, no biases."
                                         : ". Encoder Linear -> activation per hidden layer -> Linear(m) = z; the "
                                           "decoder mirrors it -> Linear(d) = x_hat.") +
                " Loss: 1/2 ||x - x_hat||^2 per row, averaged.")
                   .c_str());
  std::snprintf(line, sizeof line, "loss %s   test %s   PCA (Eckart-Young) %s", readout_number(s.metrics[Autoencoder::kMetricLoss]).c_str(),
                readout_number(s.metrics[Autoencoder::kMetricTestLoss]).c_str(),
                readout_number(s.metrics[Autoencoder::kMetricEckartYoung]).c_str());
  std::string l2 = line;
  if (s.linear)
    l2 += "   max angle " + readout_number(s.metrics[Autoencoder::kMetricMaxAngle], "%.3g") + " rad   ||VW - UU^T|| " +
          readout_number(s.metrics[Autoencoder::kMetricProductError], "%.3g");
  if (s.tied) l2 += "   ||WW^T - I|| " + readout_number(s.metrics[Autoencoder::kMetricOrthoDefect], "%.3g");
  if (s.noise > 0) l2 += "   noise floor " + readout_number(s.metrics[Autoencoder::kMetricNoiseFloor]);
  header_.push_back(l2);
  fit_text_unformatted(l2.c_str());
  tooltip_text("loss: mean of 1/2 ||x - x_hat||^2 over this epoch's batches so far. test: the same on the test set "
               "at the last epoch's end (inputs corrupted when noise > 0). PCA: (1/2N) sum_{i>m} sigma_i^2 = 1/2 "
               "sum_{i>m} lambda_i, the best a linear map of rank m achieves on the training rows. Max angle: the "
               "largest principal angle between col(V) and PCA's top-m subspace. Noise floor: d sigma^2 / 2 = "
               "E 1/2 ||x - x_eta||^2.");
  const char* what = s.phase == 1   ? "forward done: codes, reconstructions and the loss of the batch"
                     : s.phase == 2 ? "backward done: dL/dtheta by the chain rule"
                                    : nullptr;
  rewind_button_ =
      draw_training_status(s, ctx, what, Autoencoder::kMetricBatchLoss,
                           {{"lr", running_value(ctx, "lr", s.metrics[Autoencoder::kMetricLr])}}, header_, out);
}

void AutoencoderView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const AutoencoderSnapshot*>(&snap);
  if (!sp || !sp->data) {
    draw_no_model_yet(snap, "network");
    return;
  }
  const AutoencoderSnapshot& s = *sp;
  update_pictures(s, ctx);
  draw_header(s, ctx, out);

  // Linear: two curve plots and their keys need a wider column.
  const TrainingColumns cols = training_columns(s.linear ? 0.36f : 0.32f);
  const float main_w = cols.main_w;
  ImGui::BeginGroup();
  const TabItem tabs[] = {
      {"Latent", "The codes z coloured by class, beside PCA's scores at the same m"},
      {"Reconstructions", "Rows and their reconstructions (images: original / noisy input / reconstruction)"},
      {"Weights", "Linear model: V's columns against PCA's eigenvectors"}};
  tab_ = static_cast<Tab>(tab_bar_with_keys("##ae_tabs", ctx, tabs, 3, static_cast<int>(tab_)));
  const ImVec2 size(main_w, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + main_w);
  if (!pictures_) {
    fit_text_disabled("Computing the pictures from the network ...");
  } else {
    switch (tab_) {
      case Tab::Latent: draw_latent(s, ctx, size); break;
      case Tab::Reconstructions: draw_reconstructions(s, size); break;
      case Tab::Weights: draw_weights(s, size); break;
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::SameLine();
  draw_curves(s, ctx, training_side_size(cols));
}

void AutoencoderView::draw_latent(const AutoencoderSnapshot& s, const ViewContext&, ImVec2 size) {
  const AutoencoderPictures& pic = *pictures_;
  const TrainData& td = *s.data;
  char line[300];
  std::snprintf(line, sizeof line, "On %d %s rows: autoencoder %s, PCA at m = %d %s (mean 1/2 ||x - x_hat||^2)",
                pic.rows, pic.on_test ? "test" : "training", readout_number(pic.ae_error).c_str(), s.m, readout_number(pic.pca_error).c_str());
  fit_text_unformatted(line);
  tooltip_text("Autoencoder: the network's reconstruction (of the corrupted rows when noise > 0). PCA: x_hat = mean + "
               "U_m U_m^T (x - mean), the best linear rank-m reconstruction of the training rows. A nonlinear "
               "autoencoder can beat it; a linear one reaches it at best.");
  const float key_top = ImGui::GetCursorPosY();
  class_key(td.class_names, size.x, hidden_classes_, {});
  const float used = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetCursorPosY() - key_top;
  // Codes beside the PCA scores while each keeps 12 font sizes of width, else one above the other.
  const PanelPair pair = panel_pair(size.x, 12);
  const bool stacked = pair.stacked;
  const float w = pair.width;
  const float h = stacked ? std::max(min_plot_height(true), (size.y - used - ImGui::GetStyle().ItemSpacing.y) / 2)
                          : std::max(min_plot_height(true), size.y - used);
  const float dot = pic.rows > 1000 ? 2.5f : 3.5f;
  const std::string code_title = pic.code_projected ? "Codes z, projected (m = " + std::to_string(s.m) + ")##ae"
                                                    : "Codes z (m = " + std::to_string(s.m) + ")##ae";
  if (plot::BeginPlot(code_title.c_str(), ImVec2(w, h))) {
    std::string xl = pic.code_projected ? "principal axis 1 of z (" + readout_number(100 * pic.code_axis_variance[0], "%.0f") + " %)" : "z1";
    std::string yl = pic.code_projected ? "principal axis 2 of z (" + readout_number(100 * pic.code_axis_variance[1], "%.0f") + " %)"
                     : s.m == 2          ? "z2"
                                         : "(m = 1: 0)";
    plot::SetupAxes(xl.c_str(), yl.c_str());
    class_scatter("codes", pic.code_x, pic.code_y, pic.labels, hidden_classes_, dot);
    plot::EndPlot();
  }
  tooltip_text(pic.code_projected
                   ? "The codes z = encoder(x) of the pictured rows, projected on the first two principal axes of the "
                     "codes themselves (m > 2 cannot be drawn as is). Colour: the row's class (never trained on)."
                   : "The codes z = encoder(x) of the pictured rows. Colour: the row's class (never trained on).");
  if (!stacked) ImGui::SameLine();
  if (plot::BeginPlot("PCA scores at the same m##ae", ImVec2(w, h))) {
    plot::SetupAxes("PC 1 score u_1 . (x - mean)", s.m > 1 ? "PC 2 score u_2 . (x - mean)" : "(m = 1: 0)");
    if (!pic.pca_x.empty()) class_scatter("pca", pic.pca_x, pic.pca_y, pic.labels, hidden_classes_, dot);
    plot::EndPlot();
  }
  tooltip_text("PCA's scores u_k . (x - mean) on the top two eigenvectors of the training covariance: the linear "
               "autoencoder's code space up to an invertible map.");
}

void AutoencoderView::draw_reconstructions(const AutoencoderSnapshot& s, ImVec2 size) {
  const AutoencoderPictures& pic = *pictures_;
  const TrainData& td = *s.data;
  if (td.is_image() && pic.samples > 0) {
    const float lo = td.min_value, hi = td.max_value;
    fit_text("%d %s images, network of iteration %d", pic.samples, pic.on_test ? "test" : "training",
                pic.net_iteration);
    fit_text_disabled("original x");
    image_row("##ae_clean", pic.clean.data(), pic.samples, td.image_h, td.image_w, lo, hi, size.x);
    if (s.noise > 0) {
      fit_text_disabled("noisy input x_eta = x + sigma eps (sigma = %.3g)", s.noise);
      image_row("##ae_noisy", pic.noisy.data(), pic.samples, td.image_h, td.image_w, lo, hi, size.x);
    }
    fit_text_disabled("reconstruction x_hat = decoder(encoder(%s))", s.noise > 0 ? "x_eta" : "x");
    image_row("##ae_recon", pic.recon.data(), pic.samples, td.image_h, td.image_w, lo, hi, size.x);
    tooltip_text("Grey scale: the data's range. With noise > 0 the network sees the middle row and is trained to "
                 "return the top one (denoising succeeds when ||x - x_hat||^2 < ||x - x_eta||^2).");
    return;
  }
  if (!pic.plane) {
    fit_text_disabled("Reconstructions are drawn for images and for 2-D or 3-D data (this data has %d features); "
                        "see the Latent tab for the errors.", td.d);
    return;
  }
  const float key_top = ImGui::GetCursorPosY();
  class_key(td.class_names, size.x, hidden_classes_, {});
  const ImVec2 psize(size.x, std::max(min_plot_height(true), size.y - (ImGui::GetCursorPosY() - key_top)));
  if (!plot::BeginPlot("Rows and reconstructions##ae", psize, plot::PlotFlags_EqualAspect)) return;
  plot::SetupAxes(pic.plane_x.c_str(), pic.plane_y.c_str());
  class_scatter("rows", pic.data_x, pic.data_y, pic.labels, hidden_classes_, pic.rows > 1000 ? 2.5f : 3.5f);
  // Segments from each row to its reconstruction.
  std::vector<double> seg;
  seg.reserve(static_cast<size_t>(pic.rows) * 4);
  for (int i = 0; i < pic.rows; ++i) {
    seg.push_back(pic.data_x[static_cast<size_t>(i)]);
    seg.push_back(pic.data_y[static_cast<size_t>(i)]);
    seg.push_back(pic.rec_x[static_cast<size_t>(i)]);
    seg.push_back(pic.rec_y[static_cast<size_t>(i)]);
  }
  plot::Spec ss;
  ss.color = with_alpha(colors().text_dim, 70);
  ss.line_weight = 1.0f;
  plot::PlotSegments("x -> x_hat", seg.data(), pic.rows, ss);
  plot::Spec rec;
  rec.color = with_alpha(colors().text, 230);
  rec.marker = plot::Marker::Circle;
  rec.marker_size = 2.0f;
  plot::PlotScatter("reconstructions x_hat", pic.rec_x.data(), pic.rec_y.data(), pic.rows, rec);
  for (size_t l = 0; l < pic.mesh_x.size(); ++l) {
    plot::Spec ms;
    ms.color = with_alpha(colors().accent, 200);
    ms.line_weight = 1.5f;
    if (l > 0) ms.flags = plot::ItemFlags_NoLegend;
    plot::PlotLine(s.m == 1 ? "decoder(line of z)" : "decoder(grid of z)", pic.mesh_x[l].data(), pic.mesh_y[l].data(),
                   static_cast<int>(pic.mesh_x[l].size()), ms);
  }
  plot::EndPlot();
  tooltip_text(
      "The rows (class colours), their reconstructions x_hat (text colour) joined by grey "
      "segments, and in the accent "
      "the decoder's image of a line (m = 1) or grid (m = 2) over the codes' range: the learned "
      "manifold. "
      "d = 3 is drawn on the training rows' top two principal axes.");
}

void AutoencoderView::draw_weights(const AutoencoderSnapshot& s, ImVec2 size) {
  if (!s.linear || !s.net || !s.pca) {
    fit_text_disabled("The weights-against-eigenvectors comparison is for the linear autoencoder (linear = true).");
    return;
  }
  const TrainData& td = *s.data;
  const Eigen::MatrixXd v = Autoencoder::decoder_matrix(*s.net);
  const Eigen::MatrixXd& u = s.pca->components;
  const double vu = (v - u).norm();
  fit_text("||V - U_m||_F = %s   but   ||V W - U_m U_m^T||_F = %s, weighted by the data %s", readout_number(vu, "%.3g").c_str(),
              readout_number(s.metrics[Autoencoder::kMetricProductError], "%.3g").c_str(),
              pictures_ ? readout_number(pictures_->product_error_weighted, "%.3g").c_str() : "n/a");
  tooltip_text("Only the product P = V W is identified: (V A)(A^-1 W) reconstructs the same for any invertible A "
               "(tied: any orthogonal A). The columns of V span PCA's subspace but need not be its eigenvectors. "
               "Weighted: ||(P - U_m U_m^T) C^(1/2)||_F / ||C^(1/2)||_F with C the training covariance. Directions "
               "in which the data barely vary (image borders) get gradients ~ their variance, so P converges there "
               "very slowly and the plain norm can stall while the weighted one goes to 0.");
  const int show = std::min(s.m, 10);
  if (td.is_image()) {
    std::vector<float> vi, ui;
    float vmax = 1e-12f, umax = 1e-12f;
    for (int k = 0; k < show; ++k)
      for (int j = 0; j < td.d; ++j) {
        vi.push_back(static_cast<float>(v(j, k)));
        ui.push_back(static_cast<float>(u(j, k)));
        vmax = std::max(vmax, std::fabs(vi.back()));
        umax = std::max(umax, std::fabs(ui.back()));
      }
    fit_text_disabled("decoder columns v_1..v_%d (grey = 0)", show);
    image_row("##ae_v", vi.data(), show, td.image_h, td.image_w, -vmax, vmax, size.x);
    fit_text_disabled("PCA eigen-images u_1..u_%d", show);
    image_row("##ae_u", ui.data(), show, td.image_h, td.image_w, -umax, umax, size.x);
    return;
  }
  // Few features: V and U_m as d x m heat maps side by side.
  const float w = (size.x - ImGui::GetStyle().ItemSpacing.x) / 2;
  const float h = std::max(min_plot_height(true), size.y - 2 * ImGui::GetTextLineHeightWithSpacing());
  const double lim = std::max(v.cwiseAbs().maxCoeff(), u.cwiseAbs().maxCoeff());
  auto heat = [&](const char* title, const Eigen::MatrixXd& a) {
    if (!plot::BeginPlot(title, ImVec2(w, h), plot::PlotFlags_NoLegend)) return;
    plot::SetupAxes("column k", "feature j", plot::AxisFlags_Lock, plot::AxisFlags_Lock);
    plot::SetupAxesLimits(0, static_cast<double>(a.cols()), 0, static_cast<double>(a.rows()), plot::Cond::Always);
    std::vector<double> vals(static_cast<size_t>(a.size()));
    for (Eigen::Index r = 0; r < a.rows(); ++r)
      for (Eigen::Index c = 0; c < a.cols(); ++c) vals[static_cast<size_t>(r * a.cols() + c)] = a(r, c);
    plot::PlotHeatmap("##w", vals.data(), static_cast<int>(a.rows()), static_cast<int>(a.cols()), -lim, lim,
                      plot::Point{0, 0}, plot::Point{static_cast<double>(a.cols()), static_cast<double>(a.rows())});
    if (a.size() <= 64)
      for (Eigen::Index r = 0; r < a.rows(); ++r)
        for (Eigen::Index c = 0; c < a.cols(); ++c)
          plot::PlotText(readout_number(a(r, c), "%.2f").c_str(), c + 0.5, a.rows() - r - 0.5);
    plot::EndPlot();
  };
  heat("decoder V (d x m)##ae", v);
  ImGui::SameLine();
  heat("PCA U_m (d x m)##ae", u);
}

void AutoencoderView::draw_curves(const AutoencoderSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  ImGui::BeginGroup();
  // Linear: the loss and the distance to PCA's subspace, stacked when the column is tall enough,
  // else one of them chosen by a radio button (nothing clipped at 1280x720).
  const float key_h = ImGui::GetTextLineHeightWithSpacing(), sp = ImGui::GetStyle().ItemSpacing.y;
  const bool both = s.linear && size.y >= 2 * (min_plot_height() + key_h + sp);
  const bool show_sub = s.linear && (both || subspace_only_);
  const bool show_loss = !s.linear || both || !subspace_only_;
  const std::vector<AutoencoderEpochRow>& rows = *s.epochs;
  std::vector<double> ep, trl, tel;
  for (const AutoencoderEpochRow& r : rows) {
    ep.push_back(r.epoch);
    trl.push_back(r.train_loss);
    tel.push_back(r.test_loss);
  }
  const int n = static_cast<int>(ep.size());
  const double bpe = std::max(1, s.batches_per_epoch);
  const double x_end = std::max(1.0, s.iteration / bpe);
  const bool has_test = s.data->n_test() > 0;
  const double ey = s.metrics[Autoencoder::kMetricEckartYoung], floor = s.metrics[Autoencoder::kMetricNoiseFloor];
  // Each plot is titled by its colour key (a legend would cover the curves of these small plots).
  std::vector<std::pair<const char*, ImU32>> keys = {{"train", train_colour()}};
  if (has_test) keys.push_back({"test", test_colour()});
  if (std::isfinite(ey)) keys.push_back({"PCA", pca_colour()});
  if (std::isfinite(floor)) keys.push_back({"noise", noise_colour()});
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
  if (s.linear && !both) {
    if (ImGui::RadioButton("loss", !subspace_only_)) subspace_only_ = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("distance to PCA", subspace_only_)) subspace_only_ = true;
    tooltip_text("The column is too short for both plots: choose one (a taller window shows both).");
  }
  // The plots share what is left below the first key (the second key takes as much).
  const float left = ImGui::GetContentRegionAvail().y - key_h;
  const float h = std::max(min_plot_height(), both ? (left - key_h - 2 * sp) / 2 : left);
  if (show_loss) key_line(keys);
  if (show_loss && plot::BeginPlot("Loss 1/2 ||x - x_hat||^2##ae", ImVec2(size.x, h), plot::PlotFlags_NoLegend | plot::PlotFlags_NoTitle)) {
    plot::SetupAxes("epoch", "loss", plot::AxisFlags_AutoFit, plot::AxisFlags_LogScale | plot::AxisFlags_AutoFit);
    if (ctx.metric_history && ctx.metric_history->size() > 1) {
      std::vector<double> bx, by;
      batch_series(*ctx.metric_history, Autoencoder::kMetricBatchLoss, s.iteration, bpe, bx, by);  // never past the iteration shown
      plot::Spec faint;
      faint.color = batch_colour();
      faint.line_weight = 1.0f;
      plot::PlotLine("batch", bx.data(), by.data(), static_cast<int>(bx.size()), faint);
    }
    plot::Spec m;
    m.marker = plot::Marker::Circle;
    m.color = train_colour();
    plot::PlotLine("train", ep.data(), trl.data(), n, m);
    m.color = test_colour();
    if (has_test) plot::PlotLine("test", ep.data(), tel.data(), n, m);
    const double xs[2] = {0, x_end};
    auto hline = [&](const char* label, double y, ImU32 col) {
      if (!std::isfinite(y) || y <= 0) return;
      const double ys[2] = {y, y};
      plot::Spec sp;
      sp.color = col;
      sp.line_style = plot::LineStyle::Dashed;
      plot::PlotLine(label, xs, ys, 2, sp);
    };
    hline("PCA (Eckart-Young)", ey, pca_colour());
    hline("noise floor d sigma^2/2", floor, noise_colour());
    plot::EndPlot();
  }
  if (show_loss)
    tooltip_text("Loss 1/2 ||x - x_hat||^2. Train: the mean of 1/2 ||x - x_hat||^2 over each epoch's batches (epoch 0: the initial network); "
               "test: on the held-out rows at each epoch's end; grey: every step's batch. Dashed: PCA's loss at the "
               "same m, (1/2N) sum_{i>m} sigma_i^2 (Eckart-Young), and with noise the floor d sigma^2 / 2 = "
               "E 1/2 ||x - x_eta||^2.");
  if (show_sub) {
    std::vector<std::pair<const char*, ImU32>> keys2 = {{"angle", train_colour()},
                                                        {"VW-UU^T", product_colour()}};
    if (s.tied) keys2.push_back({"WW^T-I", ortho_colour()});
    key_line(keys2);
    if (plot::BeginPlot("Distance to PCA's subspace##ae", ImVec2(size.x, h), plot::PlotFlags_NoLegend | plot::PlotFlags_NoTitle)) {
      plot::SetupAxes("epoch", "rad or norm", plot::AxisFlags_AutoFit, plot::AxisFlags_LogScale | plot::AxisFlags_AutoFit);
      if (ctx.metric_history && !ctx.metric_history->empty()) {
        const auto& hst = *ctx.metric_history;
        const size_t n = shown_rows(hst, s.iteration);
        const size_t stride = std::max<size_t>(1, n / 600);
        std::vector<double> bx, ang, prod, orth;
        for (size_t i = 0; i < n; i += stride) {
          bx.push_back(static_cast<double>(i) / bpe);
          ang.push_back(hst[i][Autoencoder::kMetricMaxAngle]);
          prod.push_back(hst[i][Autoencoder::kMetricProductError]);
          orth.push_back(hst[i][Autoencoder::kMetricOrthoDefect]);
        }
        plot::Spec sp;
        sp.color = train_colour();
        plot::PlotLine("max principal angle", bx.data(), ang.data(), static_cast<int>(bx.size()), sp);
        sp.color = product_colour();
        plot::PlotLine("||VW - U_m U_m^T||_F", bx.data(), prod.data(), static_cast<int>(bx.size()), sp);
        sp.color = ortho_colour();
        if (s.tied) plot::PlotLine("||WW^T - I||_F", bx.data(), orth.data(), static_cast<int>(bx.size()), sp);
      }
      plot::EndPlot();
    }
    tooltip_text("Distance to PCA's subspace, per step: the largest principal angle theta_max between col(V) and span(U_m) (sin theta = singular "
                 "values of (I - U_m U_m^T) Q_V), the product error ||VW - U_m U_m^T||_F and, tied, the orthogonality "
                 "defect ||WW^T - I||_F. All tend to 0 as the linear autoencoder finds PCA's subspace.");
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

CILAB_REGISTER_VIEW(Autoencoder, AutoencoderView);

}  // namespace cilab
