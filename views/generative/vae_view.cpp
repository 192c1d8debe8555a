// The vae view: pictures job, header, tabs, curves and controls (the tabs' drawing:
// vae_view_tabs.cpp).
#include "views/common/curves.h"
#include "views/generative/vae_view.h"
#include "views/common/training_header.h"
#include "views/common/readout.h"
#include "views/common/tab_bar.h"
#include "views/common/theme.h"

#include "views/common/diverged_banner.h"
#include "views/plot/plot.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

std::shared_ptr<const VaePictures> VaeView::compute_pictures(const PictureRequest& r) {
  return std::make_shared<const VaePictures>(compute_vae_pictures(*r.net, *r.data, r.net_iteration, r.request));
}

bool VaeView::images(const VaeSnapshot& s) const { return s.data && s.data->is_image(); }
bool VaeView::toy(const VaeSnapshot& s) const {
  return s.data && !s.data->is_image() && s.data->d == 2;
}

void VaeView::on_reset() {
  job_.reset();
  pictures_.reset();
  pictured_data_.reset();
  pictured_net_.reset();
  pictured_key_.clear();
  toy_of_.reset();
  interp_a = interp_b = -1;
}

VaePictureRequest VaeView::make_request(const VaeSnapshot& s) const {
  VaePictureRequest r;
  r.latent_space = tab_ == Tab::Latent || tab_ == Tab::Maps;
  r.images = images(s) && (tab_ == Tab::Manifold || tab_ == Tab::Samples);
  r.maps = toy(s) && tab_ == Tab::Maps;
  r.max_points = max_points;
  r.grid = grid;
  const bool active = active_axes && s.latent > 2;  // latent 2: the grid's axes are the scatter's
  r.axis_i = active ? -1 : axis_i;
  r.axis_j = active ? -1 : axis_j;
  if (r.images) {
    r.recon_rows = vae_sample_rows(*s.data, kReconCount, recon_offset);
    r.interp_a = interp_a;
    r.interp_b = interp_b;
  }
  return r;
}

namespace {

// What makes two requests give different pictures.
std::vector<long long> request_key(const VaePictureRequest& r) {
  std::vector<long long> k = {r.latent_space, r.images, r.maps,     r.max_points, r.grid,
                              r.axis_i,       r.axis_j, r.interp_a, r.interp_b};
  k.insert(k.end(), r.recon_rows.begin(), r.recon_rows.end());
  return k;
}

}  // namespace

void VaeView::update_pictures(const VaeSnapshot& s, const ViewContext& ctx) {
  if (auto done = job_.collect()) {
    pictures_ = std::move(done->result);
    pictured_data_ = done->request.data;
  }
  if (!s.net || !s.data || job_.busy()) return;
  // The interpolation's ends: the first rows of two classes (T-shirt and sneaker on Fashion-MNIST).
  if (interp_a < 0 || interp_b < 0) {
    const std::vector<int> rows = vae_sample_rows(*s.data, kReconCount, 0);
    interp_a = rows.empty() ? 0 : rows[0];
    interp_b = rows.empty() ? 0 : rows[std::min<size_t>(7, rows.size() - 1)];
  }
  const VaePictureRequest req = make_request(s);
  std::vector<long long> key = request_key(req);
  if (s.net == pictured_net_ && key == pictured_key_ && s.data == pictured_data_) return;
  const double now = ImGui::GetTime();
  // A changed request (a control, a tab) is answered at once; a new network at most kPictureHz
  // times a second, and with the job at most kJobShare of one core.
  if (job_.hold_back(now, pictures_ && key == pictured_key_)) return;
  PictureRequest r{s.net, s.data, s.net_iteration, req};
  pictured_net_ = s.net;
  pictured_key_ = std::move(key);
  if (!ctx.jobs) {  // tests without background jobs: compute here
    pictures_ = job_.compute_here(r, now);
    pictured_data_ = r.data;
    return;
  }
  job_.submit(*ctx.jobs, std::move(r), now);
}

void VaeView::draw_controls(const Snapshot& snap, const ViewContext&) {
  const auto* s = dynamic_cast<const VaeSnapshot*>(&snap);
  if (!s || !s->data) return;
  const float w = ImGui::GetFontSize() * 8;
  const auto slider = [w](const char* label, int* v, int lo, int hi, const char* help) {
    ImGui::SetNextItemWidth(w);
    ImGui::SliderInt(label, v, lo, hi);
    tooltip_text(help);
  };
  slider("latent points", &max_points, 200, 5000,
         "How many test rows the latent space plots (their posterior means mu(x), computed off the UI "
         "thread).");
  ImGui::Checkbox("sigma ellipses", &show_ellipses);
  tooltip_text(
      "1-sigma ellipses of q(z | x) = N(mu, diag sigma^2) for a few points (latent > 2: the "
      "projected "
      "covariance A^T diag(sigma^2) A).");
  if (!images(*s) && !toy(*s)) return;
  const int latent = std::max(1, s->latent);
  if (latent > 2) {
    ImGui::Checkbox("grid on the most active axes", &active_axes);
    tooltip_text(
        "The decoded grid (the decoder's z mesh on 2-D data) varies the two latent axes whose "
        "posterior means vary most over the test rows "
        "(the axes the model uses; KL pushes the others onto the prior). Off: choose the axes "
        "below.");
  }
  if (latent > 2 && !active_axes) {
    slider("grid axis i", &axis_i, 0, latent - 1,
           "Latent axis varied along the decoded grid's columns (the other axes held at 0).");
    slider("grid axis j", &axis_j, 0, latent - 1,
           "Latent axis varied along the decoded grid's rows (the other axes held at 0).");
  }
  if (!images(*s)) return;
  slider("grid size", &grid, 4, 20,
         "The decoded grid has grid x grid images, z at the N(0, 1) quantiles Phi^-1((k + 1/2) / "
         "grid).");
  const int n = std::max(1, s->data->n_test() > 0 ? s->data->n_test() : s->data->n_train());
  slider("reconstructed row", &recon_offset, 0, 99,
         "Reconstructions show the k-th test image of each class (k = this value).");
  slider("interpolate from", &interp_a, 0, n - 1,
         "Test row at t = 0 of the interpolation decode_mean((1 - t) mu(a) + t mu(b)).");
  slider("interpolate to", &interp_b, 0, n - 1, "Test row at t = 1 of the interpolation.");
}

void VaeView::draw_header(const VaeSnapshot& s, const ViewContext& ctx,
                          std::vector<ViewIntent>& out) {
  header_.clear();
  rewind_button_ = ImVec2(NAN, NAN);
  char line[400];
  std::snprintf(
      line, sizeof line, "%s, epoch %d (batch %d of %d)", position_label(s, ctx.info, true).c_str(),
      s.epoch +
          (s.iteration > 0 && s.phase == 0 && s.batch_index + 1 == s.batches_per_epoch ? 0 : 1),
      s.iteration == 0 && s.phase == 0 ? 0 : s.batch_index + 1, s.batches_per_epoch);
  header_.push_back(line);
  fit_text_unformatted(line);
  header_.push_back(s.architecture);
  same_line_if_fits(ImGui::CalcTextSize(s.architecture.c_str()).x, ImGui::GetFontSize());
  fit_text_disabled("%s", s.architecture.c_str());
  tooltip_text(
      (s.data->what + ", " + std::to_string(s.num_params) + " weights" +
       ". Encoder x -> Linear -> act -> Linear(2 latent) = [mu, log sigma^2]; z = mu + sigma * "
       "eps, "
       "eps ~ N(0, I) (the reparameterisation trick); decoder z -> Linear -> act -> Linear(D): " +
       (s.likelihood == nn::Likelihood::Bernoulli
            ? std::string("Bernoulli logits.")
            : "Gaussian means, sigma_x = " + readout_number(s.sigma_x) + "."))
          .c_str());
  const double rec = s.metrics[Vae::kMetricBatchRec], kl = s.metrics[Vae::kMetricBatchKl];
  const double beta = s.metrics[Vae::kMetricBeta];
  std::snprintf(line, sizeof line, "batch: loss = rec + beta KL = %s + %s x %s = %s",
                readout_number(rec).c_str(), readout_number(beta, "%.3g").c_str(), readout_number(kl).c_str(),
                readout_number(s.metrics[Vae::kMetricBatchLoss]).c_str());
  char more[200];
  std::snprintf(more, sizeof more, "test %s  mean sigma %s  lr %s",
                readout_number(s.metrics[Vae::kMetricTestLoss]).c_str(),
                readout_number(s.metrics[Vae::kMetricMeanSigma], "%.3g").c_str(), readout_number(s.lr, "%.3g").c_str());
  header_.push_back(std::string(line) + "  " + more);
  fit_text_unformatted(line);
  same_line_if_fits(ImGui::CalcTextSize(more).x, ImGui::GetFontSize() * 0.8f);
  fit_text_unformatted(more);
  tooltip_text(
      "Per sample, averaged over this step's mini-batch: rec = -log p(x | z) summed over the "
      "features (one z "
      "per sample), KL = KL(q(z | x) || N(0, I)) = 1/2 sum_k (mu_k^2 + sigma_k^2 - log sigma_k^2 - "
      "1); "
      "beta = 1 gives the negative ELBO. Test: the loss on the test set at the last epoch's end. "
      "Mean "
      "sigma near 1: the posterior collapsed onto the prior.");
  const char* what =
      s.phase == 1 ? "forward done: z sampled, reconstruction and KL of the batch computed"
      : s.phase == 2
          ? "backward done: dL/dtheta through the decoder, z = mu + sigma eps, and the encoder"
          : nullptr;
  rewind_button_ = draw_training_status(s, ctx, what, Vae::kMetricBatchLoss, {{"lr", running_value(ctx, "lr", s.lr)}},
                                        header_, out);
}

void VaeView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const VaeSnapshot*>(&snap);
  if (!sp || !sp->data || !sp->epochs) {
    draw_no_model_yet(snap, "model");
    return;
  }
  const VaeSnapshot& s = *sp;
  draw_header(s, ctx, out);

  // Tabs by data: keys 1-N choose one (the lecturer's remote has no mouse).
  std::vector<int> offered = {static_cast<int>(Tab::Latent)};
  if (images(s)) offered.insert(offered.end(), {static_cast<int>(Tab::Manifold), static_cast<int>(Tab::Samples)});
  if (toy(s)) offered.push_back(static_cast<int>(Tab::Maps));
  TabSubset tabs(ctx, std::move(offered), static_cast<int>(tab_));
  tab_ = static_cast<Tab>(tabs.tab());
  update_pictures(s, ctx);

  const TrainingColumns cols = training_columns(0.3f);
  const float main_w = cols.main_w;
  ImGui::BeginGroup();
  // Label and tooltip of every tab, in Tab's order.
  constexpr TabItem kTabItems[] = {
      {"Latent space", "Posterior means mu(x) of test rows coloured by class, with 1-sigma ellipses"},
      {"Decoded manifold", "decode_mean(z) over a grid of z at the prior's quantiles"},
      {"Reconstructions and samples", "Reconstructions, samples from the prior and an interpolation in latent space"},
      {"Encoder and decoder maps", "The decoder's image of a z grid and the encoder's image of an x grid"}};
  tab_ = static_cast<Tab>(tabs.draw("##vae_tabs", kTabItems));
  const ImVec2 size(main_w, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + main_w);  // captions wrap inside the column
  switch (tab_) {
    case Tab::Latent: draw_latent(s, size); break;
    case Tab::Manifold: draw_manifold(s, size); break;
    case Tab::Samples: draw_samples(s, size); break;
    case Tab::Maps: draw_maps(s, size); break;
  }
  ImGui::PopTextWrapPos();
  ImGui::Dummy(
      ImVec2(main_w, 0));  // the column keeps its width whatever the tab draws: the curves stay put
  ImGui::EndGroup();
  ImGui::SameLine();
  draw_curves(s, ctx, training_side_size(cols));
}

void VaeView::draw_curves(const VaeSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  ImGui::BeginGroup();
  const double bpe = std::max(1, s.batches_per_epoch);
  // Per step: the mini-batch terms (x in epochs), thinned to ~kMaxCurvePoints points.
  std::vector<double> bx, bl, br, bk;
  std::vector<std::pair<double, double>> beta_changes;  // (epoch, new beta)
  bool positive = true;
  if (ctx.metric_history && ctx.metric_history->size() > 1) {
    const auto& hst = *ctx.metric_history;
    const size_t n = shown_rows(hst, s.iteration);  // never past the iteration shown
    const size_t stride = std::max<size_t>(1, n / kMaxCurvePoints);
    for (size_t i = 1; i < n; i += stride) {
      bx.push_back(static_cast<double>(i) / bpe);
      bl.push_back(hst[i][Vae::kMetricBatchLoss]);
      br.push_back(hst[i][Vae::kMetricBatchRec]);
      bk.push_back(hst[i][Vae::kMetricBatchKl]);
      positive = positive && !(bl.back() <= 0) && !(br.back() <= 0) && !(bk.back() <= 0);
    }
    for (size_t i = 2; i < n; ++i)
      if (hst[i][Vae::kMetricBeta] != hst[i - 1][Vae::kMetricBeta] &&
          std::isfinite(hst[i][Vae::kMetricBeta]) && std::isfinite(hst[i - 1][Vae::kMetricBeta]))
        beta_changes.emplace_back(static_cast<double>(i) / bpe, hst[i][Vae::kMetricBeta]);
  }
  std::vector<double> ep, el, er, ek, et;
  for (const VaeEpochRow& r : *s.epochs) {
    ep.push_back(r.epoch);
    el.push_back(r.train.loss);
    er.push_back(r.train.reconstruction);
    ek.push_back(r.train.kl);
    et.push_back(r.test.loss);
    positive = positive && !(r.train.loss <= 0) && !(r.train.reconstruction <= 0) &&
               !(r.train.kl <= 0) && !(r.test.loss <= 0);
  }
  // Log scale while every term is positive (Bernoulli); a Gaussian rec can be negative.
  const plot::AxisFlags yflags =
      plot::AxisFlags_AutoFit | (positive ? plot::AxisFlags_LogScale : 0);
  // Where beta changed: a dashed vertical line and its new value.
  auto mark_beta = [&]() {
    const plot::Limits lim = plot::GetPlotLimits();
    for (size_t c = 0; c < beta_changes.size(); ++c) {
      const double x[2] = {beta_changes[c].first, beta_changes[c].first};
      const double y[2] = {lim.y_min, lim.y_max};
      plot::Spec dash;
      dash.color = with_alpha(colors().accent, 200);
      dash.line_style = plot::LineStyle::Dashed;
      dash.line_weight = 1.0f;
      dash.flags = plot::ItemFlags_NoFit | plot::ItemFlags_NoLegend;
      char id[48];
      std::snprintf(id, sizeof id, "##beta%zu", c);
      plot::PlotLine(id, x, y, 2, dash);
      char txt[32];
      std::snprintf(txt, sizeof txt, "beta %.3g", beta_changes[c].second);
      plot::PlotText(txt, x[0],
                     positive ? std::sqrt(std::max(lim.y_min, 1e-300) * lim.y_max)
                              : 0.5 * (lim.y_min + lim.y_max),
                     ImVec2(4, 0), colors().accent);
    }
  };
  // One colour key for both plots (plot legends would cover the curves in a narrow column).
  const ImU32 colours[4] = {plot::GetColormapColor(0), plot::GetColormapColor(1),
                            plot::GetColormapColor(2), plot::GetColormapColor(3)};
  const char* names[4] = {"loss", "rec", "KL", "test loss"};
  for (int c = 0; c < (s.data->n_test() > 0 ? 4 : 3); ++c) {
    if (c > 0) same_line_if_fits(ImGui::CalcTextSize(names[c]).x);
    fit_text_colored(legible(colours[c]), "%s", names[c]);
  }
  if (!beta_changes.empty()) {
    same_line_if_fits(ImGui::CalcTextSize("| beta moved").x);
    fit_text_colored(colour_vec(colors().accent), "| beta moved");
  }
  tooltip_text(
      "loss = rec + beta * KL, per sample: rec (reconstruction) = -log p(x | z) summed over the "
      "features (one z per sample), KL = KL(q(z | x) || N(0, I)) = 1/2 sum_k (mu_k^2 + sigma_k^2 - "
      "log "
      "sigma_k^2 - 1); beta = 1: the negative ELBO. Dashed: where beta was moved.");
  // No titles (the y labels say which): two readable plots fit under the key at 1280 x 720.
  const float h2 = std::max(
      min_plot_height(),
      (size.y - ImGui::GetTextLineHeightWithSpacing() - ImGui::GetStyle().ItemSpacing.y) / 2);
  auto line_spec = [&](int c, bool markers) {
    plot::Spec sp;
    sp.color = colours[c];
    sp.flags = plot::ItemFlags_NoLegend;
    sp.line_weight = 1.5f;
    if (markers) sp.marker = plot::Marker::Circle;
    if (c == 3) sp.line_style = plot::LineStyle::Dashed;
    return sp;
  };
  if (plot::BeginPlot("Per step##vae", ImVec2(size.x, h2),
                      plot::PlotFlags_NoLegend | plot::PlotFlags_NoTitle)) {
    plot::SetupAxes("epoch", "per step (batch)", plot::AxisFlags_AutoFit, yflags);
    const int n = static_cast<int>(bx.size());
    plot::PlotLine("loss", bx.data(), bl.data(), n, line_spec(0, false));
    plot::PlotLine("reconstruction", bx.data(), br.data(), n, line_spec(1, false));
    plot::PlotLine("KL", bx.data(), bk.data(), n, line_spec(2, false));
    mark_beta();
    plot::EndPlot();
  }
  tooltip_text(
      "Per step: every step's mini-batch (x in epochs: iteration / batches per epoch), per-sample "
      "means of "
      "loss = reconstruction + beta * KL and its two terms.");
  if (plot::BeginPlot("Per epoch##vae", ImVec2(size.x, h2),
                      plot::PlotFlags_NoLegend | plot::PlotFlags_NoTitle)) {
    plot::SetupAxes("epoch", "per epoch", plot::AxisFlags_AutoFit, yflags);
    const int n = static_cast<int>(ep.size());
    const bool markers = n <= 50;
    plot::PlotLine("loss", ep.data(), el.data(), n, line_spec(0, markers));
    plot::PlotLine("reconstruction", ep.data(), er.data(), n, line_spec(1, markers));
    plot::PlotLine("KL", ep.data(), ek.data(), n, line_spec(2, markers));
    if (s.data->n_test() > 0)
      plot::PlotLine("test loss", ep.data(), et.data(), n, line_spec(3, markers));
    mark_beta();
    plot::EndPlot();
  }
  tooltip_text(
      "Per epoch: means over each epoch's mini-batches (train mode, as the weights moved; epoch 0: "
      "the initial model on "
      "the training set); test loss: rec + beta KL on the test set at the epoch's end (one seeded "
      "z per row).");
  ImGui::EndGroup();
}

CILAB_REGISTER_VIEW(Vae, VaeView);

}  // namespace cilab
