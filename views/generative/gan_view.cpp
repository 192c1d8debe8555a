// The gan view: pictures job, header, tabs and controls (presets: the app's Presets menu, assets/presets/gan-*.json)
// (the plane and the diagram: gan_view_plane.cpp; curves and images: gan_view_curves.cpp).
#include "views/common/training_header.h"
#include "views/common/readout.h"
#include "views/generative/gan_view.h"

#include "views/common/diverged_banner.h"
#include "views/common/tab_bar.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace cilab {

std::shared_ptr<const GanPictures> GanView::compute_pictures(const PictureRequest& r) {
  return std::make_shared<const GanPictures>(
      compute_gan_pictures(*r.net, r.net_iteration, r.box, *r.noise, r.pool.get(), r.request));
}

void GanView::on_reset() {
  job_.reset();
  pictures_.reset();
  pictured_net_.reset();
}

void GanView::update_pictures(const GanSnapshot& s, const ViewContext& ctx) {
  if (auto done = job_.collect()) pictures_ = std::move(done->result);
  if (!s.net || !s.eval_noise || job_.busy() || !ctx.jobs) return;
  if (s.net == pictured_net_) return;
  // A new network at most kPictureHz times a second, and with the job at most kJobShare of one
  // core.
  const double now = ImGui::GetTime();
  if (job_.hold_back(now, pictures_ != nullptr)) return;
  PictureRequest r{s.net, s.eval_noise, s.pool, s.spec.box, s.net_iteration, {}};
  r.request.image = s.image;
  r.request.image_h = s.image_h;
  r.request.image_w = s.image_w;
  pictured_net_ = s.net;
  job_.submit(*ctx.jobs, std::move(r), now);
}

void GanView::draw_header(const GanSnapshot& s, const ViewContext& ctx,
                          std::vector<ViewIntent>& out) {
  header_.clear();
  rewind_button_ = ImVec2(NAN, NAN);
  char line[400];
  std::snprintf(line, sizeof line, "%s, %s target, %s loss",
                position_label(s, ctx.info, true).c_str(), gan_target_name(s.target),
                nn::gan_loss_name(s.loss));
  header_.push_back(line);
  fit_text_unformatted(line);
  same_line_if_fits(ImGui::CalcTextSize(s.architecture.c_str()).x, ImGui::GetFontSize());
  fit_text_disabled("%s", s.architecture.c_str());
  header_.push_back(s.architecture);
  char tip[400];
  std::snprintf(tip, sizeof tip,
                "Generator z ~ N(0, I_%d) -> MLP -> G(z) (%zu weights); discriminator x -> MLP -> "
                "one logit l "
                "(%zu weights). Batch %d, %d D step%s per G step, lr G %s, lr D %s.",
                s.latent, s.g_params, s.d_params, s.batch, s.d_steps, s.d_steps == 1 ? "" : "s",
                readout_number(s.lr_g, "%.3g").c_str(), readout_number(s.lr_d, "%.3g").c_str());
  tooltip_text(tip);
  const std::vector<double>& m = s.metrics;
  char cov[80] = "";
  if (!s.spec.modes.empty())
    std::snprintf(cov, sizeof cov, "  |  modes covered %d / %zu", s.coverage.covered,
                  s.spec.modes.size());
  std::snprintf(
      line, sizeof line, "loss D %s G %s  |  D(real) %s D(fake) %s%s",
      readout_number(m[Gan::kMetricDLoss], "%.3g").c_str(), readout_number(m[Gan::kMetricGLoss], "%.3g").c_str(),
      readout_number(m[Gan::kMetricDReal], "%.3f").c_str(), readout_number(m[Gan::kMetricDFake], "%.3f").c_str(), cov);
  header_.push_back(line);
  fit_text_unformatted(line);
  tooltip_text(
      nn::gan_loss_is_probabilistic(s.loss)
          ? "Last D step's batch: loss D = -mean log D(x) - mean log(1 - D(G(z))) (log 4 = 1.386 "
            "at D = 1/2), "
            "loss G as the loss says; D(real), D(fake): mean D = sigmoid(l) on the real and the "
            "generated rows "
            "(both 1/2 at the equilibrium p_g = p_data). Modes covered: a mode is covered when >= "
            "1 % of 2 000 "
            "generated samples lie within 3 sd of its centre (evaluated every 25 iterations, on "
            "fixed noise)."
          : "Last D step's batch: the losses of D and G; D(real), D(fake): mean raw output l of "
            "the real and "
            "generated rows (least_squares: 1 and 0 are the targets; wgan_gp: their difference "
            "estimates "
            "the Wasserstein-1 distance). Modes covered: a mode is covered when >= 1 % of 2 000 "
            "generated samples "
            "lie within 3 sd of its centre (evaluated every 25 iterations, on fixed noise).");
  const char* what =
      s.phase == 1 ? "D step done: the G step runs next (D is frozen for it)" : nullptr;
  rewind_button_ = draw_training_status(
      s, ctx, what, Gan::kMetricDLoss,
      {{"g_lr", running_value(ctx, "g_lr", s.lr_g)}, {"d_lr", running_value(ctx, "d_lr", s.lr_d)}}, header_, out);
}

void GanView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const GanSnapshot*>(&snap);
  if (!sp || !sp->pool) {
    draw_no_model_yet(snap, "model");
    return;
  }
  const GanSnapshot& s = *sp;
  draw_header(s, ctx, out);

  // Tabs by target: keys 1-N choose one (the lecturer's remote has no mouse).
  TabSubset tabs(ctx,
                 {static_cast<int>(s.image ? Tab::Images : Tab::Plane), static_cast<int>(Tab::Curves),
                  static_cast<int>(Tab::Optimal)},
                 static_cast<int>(tab_));
  tab_ = static_cast<Tab>(tabs.tab());
  update_pictures(s, ctx);

  // Label and tooltip of every tab, in Tab's order.
  constexpr TabItem kTabItems[] = {
      {"Plane", "Real and generated samples over the discriminator's output, the generator's warped z grid, the G "
                "step's arrows, the modes; the model diagram"},
      {"Curves", "Losses, D(real) and D(fake), grid KL and JS, modes covered, ||dL_G/dtheta||"},
      {"Images", "G of fixed noise beside real images, and the curves"},
      {"Optimal discriminator (1-D)", "D*(x) = p_data / (p_data + p_g) for two 1-D densities you move"}};
  tab_ = static_cast<Tab>(tabs.draw("##gan_tabs", kTabItems));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(avail.x, std::max(min_plot_height(), avail.y));
  switch (tab_) {
    case Tab::Plane: draw_plane_tab(s, ctx, size, out); break;
    case Tab::Curves: draw_curves(s, ctx, size, false); break;
    case Tab::Images: draw_images(s, ctx, size); break;
    case Tab::Optimal:
      optimal_.draw(size);
      break;
  }
}

CILAB_REGISTER_VIEW(Gan, GanView);

}  // namespace cilab
