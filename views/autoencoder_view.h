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

#include "algorithms/autoencoder.h"
#include "views/jobs.h"
#include "views/view.h"

#include <imgui.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// What the view draws from one network copy (ImGui-free; computed off the UI thread).
struct AutoencoderPictures {
  int net_iteration = -1;
  bool on_test = true;              // the pictured rows are test rows (else training rows)
  int rows = 0;                     // pictured rows (at most kMaxRows)
  std::vector<int> labels;          // their classes (-1: none)
  // Codes: m = 1 (x, 0), m = 2 as is, m > 2 the first two principal axes of the codes.
  std::vector<float> code_x, code_y;
  bool code_projected = false;
  double code_axis_variance[2] = {0, 0};  // m > 2: share of the codes' variance on each axis
  // PCA's scores on its top two components (m = 1: (score, 0)).
  std::vector<float> pca_x, pca_y;
  // Mean 1/2 ||x - x_hat||^2 over the pictured rows: the network (noisy inputs when
  // noise > 0) and PCA's rank-m reconstruction (NaN without the reference).
  double ae_error = NAN, pca_error = NAN;
  // Linear: ||(V W - U_m U_m^T) C^(1/2)||_F / ||C^(1/2)||_F, the product error weighted by the
  // training covariance C (directions the data never visit do not count).
  double product_error_weighted = NAN;
  // Toy data (2 or 3 features): rows and reconstructions in the plane (d = 2: the
  // features; d = 3: the top two PCA axes), and the decoder's image of the
  // latent grid (m = 2) or line (m = 1) as polylines of the same plane.
  bool plane = false;
  std::string plane_x, plane_y;     // axis labels
  std::vector<float> data_x, data_y, rec_x, rec_y;
  std::vector<std::vector<float>> mesh_x, mesh_y;
  // Images: a few chosen rows, clean / corrupted input / reconstruction (d each, as trained on).
  int samples = 0;
  std::vector<float> clean, noisy, recon;
};

// Computes the pictures (the net copy is copied again: forward writes its buffers).
AutoencoderPictures compute_autoencoder_pictures(const AutoencoderSnapshot& s, int samples);

class AutoencoderView : public ModuleView {
 public:
  enum class Tab { Latent = 0, Reconstructions, Weights };
  static constexpr double kPictureHz = 5.0;
  static constexpr int kMaxRows = 2000;  // rows in the scatters
  static constexpr int kSamples = 8;     // images in the reconstruction rows

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void on_reset() override;

  // The pictures last computed (tests).
  const AutoencoderPictures* pictures() const { return pictures_.get(); }
  // Header lines of the last frame (tests).
  const std::vector<std::string>& header() const { return header_; }
  // Centre of the Diverged banner's rewind button in the last frame (NaN: none; tests).
  ImVec2 rewind_button() const { return rewind_button_; }
  // The tab shown (keys 1-3 choose it).
  Tab tab() const { return tab_; }

 private:
  struct PictureJob;
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
  std::shared_ptr<PictureJob> job_;
  JobHandle job_handle_;
  double last_submit_ = -1e9;
  std::vector<std::string> header_;
  std::vector<char> hidden_classes_;  // classes hidden by a click on the class key
  ImVec2 rewind_button_{NAN, NAN};
  bool subspace_only_ = false;  // linear, short column: the distance plot instead of the loss
};

}  // namespace cilab
