// The gan module's view (GAN Lab's lesson and more): on 2-D targets the plane
// (the discriminator's output as a heatmap, real and generated samples, the
// generator's image of a z grid as a warped mesh, the G step's gradient
// arrows, the modes and their coverage) beside the model-overview diagram
// (z -> G -> G(z) -> D <- x, the sub-step about to run highlighted, the
// loss's formulas); the curves (losses, D(real) and D(fake), grid KL and JS,
// modes covered, ||dL_G/dtheta_G||); on image targets an 8 x 8 grid of G of
// fixed noise beside real images; the optimal discriminator in 1-D (another
// panel); and a Presets menu that sets a teaching setting in one frame.
// Pictures come from a background job on a private copy of the snapshot's
// networks, at most kPictureHz times a second and kJobShare of one core: the
// UI never waits and training keeps its speed.
#pragma once

#include "views/generative/gan_optimal_tab.h"
#include "views/generative/gan_pictures.h"
#include "views/common/picture_job.h"
#include "views/common/view.h"

#include "algorithms/generative/gan.h"

#include <imgui.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

class GanView : public ModuleView {
 public:
  // 2-D targets: Plane, Curves, Optimal; image targets: Images, Curves, Optimal (keys 1..3).
  enum class Tab { Plane = 0, Curves, Images, Optimal };
  static constexpr double kPictureHz = 5.0;
  // The pictures job may use at most this share of one core (see VaeView::kJobShare).
  static constexpr double kJobShare = 0.05;
  static constexpr int kRealShown = 1000;  // real samples drawn on the plane (of the pool)
  static constexpr int kMaxCurvePoints = 600;

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void on_reset() override;
  bool pictures_pending() const override { return job_.pending(); }

  // The pictures last computed (tests).
  const GanPictures* pictures() const { return pictures_.get(); }
  // The tab shown in the last frame (tests).
  Tab tab() const { return tab_; }
  // Centre of the Diverged banner's rewind button in the last frame (NaN: none; tests).
  ImVec2 rewind_button() const { return rewind_button_; }
  // Header lines of the last frame (tests).
  const std::vector<std::string>& header() const { return header_; }
  // The 1-D optimal-discriminator tab (tests drive it).
  GanOptimalTab& optimal_tab() { return optimal_; }
  // The arrows' drawing scale: an arrow is arrow_scale * (-dL_G/dx) long (plane units).
  double arrow_scale() const { return arrow_scale_; }

  // Layers of the plane.
  bool show_heatmap = true, show_real = true, show_fake = true, show_mesh = true,
       show_arrows = true, show_modes = true;

 private:
  // What a pictures job reads (shared copies).
  struct PictureRequest {
    std::shared_ptr<const nn::GanNet<float>> net;
    std::shared_ptr<const GanRows> noise, pool;
    GanBox box;
    int net_iteration = 0;
    GanPictureRequest request;
  };
  static std::shared_ptr<const GanPictures> compute_pictures(const PictureRequest& r);
  void update_pictures(const GanSnapshot& s, const ViewContext& ctx);
  void draw_header(const GanSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_plane_tab(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size,
                      std::vector<ViewIntent>& out);
  void draw_plane(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size,
                  std::vector<ViewIntent>& out);
  void draw_layer_toggles();
  void draw_diagram(const GanSnapshot& s, float width);
  void draw_curves(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size, bool compact);
  void draw_images(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size);

  Tab tab_ = Tab::Plane;
  std::shared_ptr<const GanPictures> pictures_;
  std::shared_ptr<const nn::GanNet<float>>
      pictured_net_;  // the copy the pictures (or the job) came from
  PictureJob<PictureRequest, std::shared_ptr<const GanPictures>> job_{"gan pictures", compute_pictures, kPictureHz,
                                                                      kJobShare};
  double arrow_scale_ = 0;
  std::vector<std::string> header_;
  ImVec2 rewind_button_{NAN, NAN};
  GanOptimalTab optimal_;  // the 1-D optimal-discriminator lesson (its own state, no run needed)
};

}  // namespace cilab
