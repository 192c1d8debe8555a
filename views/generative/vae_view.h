// The vae module's view: the ELBO's curves (per step and per epoch, with the
// test loss) beside the model's pictures: the latent space (posterior means
// coloured by class, 1-sigma ellipses; latent > 2: their principal axes), the
// decoded manifold over the prior, reconstructions, prior samples and an
// interpolation (image data), or the encoder's and decoder's maps over the
// plane (2-D toy data). Pictures come from a background job on a private copy
// of the snapshot's network, at most kPictureHz times a second and only when
// the copy or the request changed: the UI never waits and training keeps its
// speed.
#pragma once

#include "views/common/picture_job.h"
#include "views/generative/vae_pictures.h"
#include "views/common/view.h"

#include "algorithms/generative/vae.h"

#include <imgui.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

class VaeView : public ModuleView {
 public:
  // Image data: Latent, Manifold, Samples; 2-D toy data: Latent, Maps; other data: Latent.
  enum class Tab { Latent = 0, Manifold, Samples, Maps };
  static constexpr double kPictureHz = 5.0;
  // The pictures job may use at most this share of one core: after a job of T seconds the next
  // starts no sooner than T / kJobShare later (a slow machine refreshes less often, never trains
  // slower).
  static constexpr double kJobShare = 0.05;
  static constexpr int kEllipses = 8;     // points drawn with their 1-sigma ellipse
  static constexpr int kReconCount = 10;  // reconstructions shown
  static constexpr int kMaxCurvePoints = 600;

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;
  bool pictures_pending() const override { return job_.pending(); }

  // The pictures last computed (tests).
  const VaePictures* pictures() const { return pictures_.get(); }
  // The tab shown in the last frame (tests).
  Tab tab() const { return tab_; }
  // Centre of the Diverged banner's rewind button in the last frame (NaN: none; tests).
  ImVec2 rewind_button() const { return rewind_button_; }
  // Header lines of the last frame (tests).
  const std::vector<std::string>& header() const { return header_; }

  int max_points = 2000;       // rows of the latent scatter
  bool show_ellipses = true;   // 1-sigma ellipses of kEllipses points
  bool active_axes = true;     // latent > 2: the decoded grid along the two most active axes ...
  int axis_i = 0, axis_j = 1;  // ... or along these (0-based)
  int grid = 12;               // decoded grid size
  int recon_offset = 0;        // which row of each class is reconstructed
  int interp_a = -1,
      interp_b = -1;  // interpolation ends (test rows; -1: chosen at the first pictures)

 private:
  // What a pictures job reads (shared copies) and what it draws.
  struct PictureRequest {
    std::shared_ptr<const nn::VaeNet<float>> net;
    std::shared_ptr<const TrainData> data;
    int net_iteration = 0;
    VaePictureRequest request;
  };
  static std::shared_ptr<const VaePictures> compute_pictures(const PictureRequest& r);
  VaePictureRequest make_request(const VaeSnapshot& s) const;
  void update_pictures(const VaeSnapshot& s, const ViewContext& ctx);
  void draw_header(const VaeSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_latent(const VaeSnapshot& s, ImVec2 size);
  void draw_manifold(const VaeSnapshot& s, ImVec2 size);
  void draw_samples(const VaeSnapshot& s, ImVec2 size);
  void draw_maps(const VaeSnapshot& s, ImVec2 size);
  void draw_curves(const VaeSnapshot& s, const ViewContext& ctx, ImVec2 size);
  bool images(const VaeSnapshot& s) const;
  bool toy(const VaeSnapshot& s) const;

  Tab tab_ = Tab::Latent;
  std::shared_ptr<const VaePictures> pictures_;
  std::shared_ptr<const TrainData> pictured_data_;  // the data the pictures index
  std::shared_ptr<const nn::VaeNet<float>>
      pictured_net_;                     // the copy the pictures (or the job) came from
  std::vector<long long> pictured_key_;  // the request they answer
  PictureJob<PictureRequest, std::shared_ptr<const VaePictures>> job_{"vae pictures", compute_pictures, kPictureHz,
                                                                      kJobShare};
  std::vector<std::string> header_;
  ImVec2 rewind_button_{NAN, NAN};
  // Toy data in the dataset's units (train then test rows), for the data plane.
  std::shared_ptr<const TrainData> toy_of_;
  std::vector<float> toy_x_, toy_y_;
  std::vector<int> toy_labels_;
  std::vector<char> hidden_classes_;  // classes hidden by a click on the class key
};

}  // namespace cilab
