// The autoencoder module's view: tabs Latent (the codes coloured by label
// beside PCA's 2-D scores at the same m, with both reconstruction errors),
// Reconstructions (images: original / noisy input / reconstruction rows; toy
// data: the rows and their reconstructions in the plane, and the decoder's
// image of a latent line or grid), Weights (linear: V's columns against PCA's
// eigenvectors, ||V - U_m|| against ||VW - U_m U_m^T||), and on the right the
// loss curves with the Eckart-Young and noise-floor lines and, linear, the
// principal angles and the product error per step.
//
// Everything needing a forward pass is computed by a background job from the
// snapshot's network copy, at most kPictureHz times a second (as mlp_view).
#pragma once

#include "algorithms/networks/autoencoder.h"
#include "views/networks/autoencoder_pictures.h"
#include "views/common/picture_job.h"
#include "views/common/view.h"

#include <imgui.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

class AutoencoderView : public ModuleView {
 public:
  enum class Tab { Latent = 0, Reconstructions, Weights };
  static constexpr double kPictureHz = 5.0;
  static constexpr int kMaxRows = kAutoencoderPictureRows;  // rows in the scatters
  static constexpr int kSamples = 8;     // images in the reconstruction rows

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void on_reset() override;
  bool pictures_pending() const override { return job_.pending(); }

  // The pictures last computed (tests).
  const AutoencoderPictures* pictures() const { return pictures_.get(); }
  // Header lines of the last frame (tests).
  const std::vector<std::string>& header() const { return header_; }
  // Centre of the Diverged banner's rewind button in the last frame (NaN: none; tests).
  ImVec2 rewind_button() const { return rewind_button_; }
  // The tab shown (keys 1-3 choose it).
  Tab tab() const { return tab_; }

 private:
  // A pictures job reads its own copy of the snapshot (immutable; shares the network and data).
  using PictureRequest = std::shared_ptr<const AutoencoderSnapshot>;
  static std::shared_ptr<const AutoencoderPictures> compute_pictures(const PictureRequest& snap);
  void update_pictures(const AutoencoderSnapshot& s, const ViewContext& ctx);
  void draw_header(const AutoencoderSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_latent(const AutoencoderSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_reconstructions(const AutoencoderSnapshot& s, ImVec2 size);
  void draw_weights(const AutoencoderSnapshot& s, ImVec2 size);
  void draw_curves(const AutoencoderSnapshot& s, const ViewContext& ctx, ImVec2 size);

  Tab tab_ = Tab::Latent;
  std::shared_ptr<const AutoencoderPictures> pictures_;
  std::shared_ptr<const nn::Sequential<float>> pictured_net_;
  double pictured_noise_ = -1;
  PictureJob<PictureRequest, std::shared_ptr<const AutoencoderPictures>> job_{"autoencoder pictures", compute_pictures,
                                                                              kPictureHz};
  std::vector<std::string> header_;
  std::vector<char> hidden_classes_;  // classes hidden by a click on the class key
  ImVec2 rewind_button_{NAN, NAN};
  bool subspace_only_ = false;  // linear, short column: the distance plot instead of the loss
};

}  // namespace cilab
