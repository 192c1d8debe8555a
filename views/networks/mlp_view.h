// The mlp module's view: the model (decision regions with the data, the
// fitted 1-D curve, or the confusion matrix), per-epoch loss and accuracy
// curves, a picture per hidden neuron, the network drawn as a graph, and for
// image data the misclassified test images. Pictures that need a forward pass
// over a grid are computed by a background job from the snapshot's network
// copy, at most kPictureHz times a second: the UI never slows training.
#pragma once

#include "algorithms/networks/mlp.h"
#include "views/common/picture_job.h"
#include "views/networks/mlp_pictures.h"
#include "views/common/view.h"

#include <imgui.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

class MlpView : public ModuleView {
 public:
  enum class Tab { Model = 0, Neurons, Network, Errors };
  static constexpr double kPictureHz = 5.0;
  static constexpr int kGridRes = 96;

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;
  bool pictures_pending() const override { return job_.pending(); }

  // The pictures last computed (tests).
  const MlpPictures* pictures() const { return pictures_.get(); }
  // Centre of the Diverged banner's rewind button in the last frame (NaN: none; tests).
  ImVec2 rewind_button() const { return rewind_button_; }
  // Header lines of the last frame (tests).
  const std::vector<std::string>& header() const { return header_; }

  bool show_probability = true;  // decision regions shaded by confidence (else argmax only)
  bool show_test = true;         // test rows drawn (squares)
  int max_neurons = 16;          // neuron pictures / graph nodes per layer

 protected:
  // What a pictures job reads (shared copies) and the grid's box.
  struct PictureRequest {
    std::shared_ptr<const nn::Sequential<float>> net;
    std::shared_ptr<const MlpProblem> problem;
    int net_iteration = 0;
    double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
  };
  static std::shared_ptr<const MlpPictures> compute_pictures(const PictureRequest& r);
  void update_pictures(const MlpSnapshot& s, const ViewContext& ctx);
  void draw_header(const MlpSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_model(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out);
  void draw_boundary(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out);
  void draw_curve(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out);
  void draw_confusion(const MlpSnapshot& s, ImVec2 size);
  void draw_curves(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_neurons(const MlpSnapshot& s, ImVec2 size);
  void draw_network(const MlpSnapshot& s, ImVec2 size);
  // The misclassified images; with `pick` (a hover tooltip), returns the evaluated row clicked (else -1).
  int draw_errors(const MlpSnapshot& s, ImVec2 size, const char* pick = nullptr);

  Tab tab_ = Tab::Model;
  std::shared_ptr<const MlpPictures> pictures_;
  std::shared_ptr<const nn::Sequential<float>> pictured_net_;  // the copy the pictures (or the job) came from
  PictureJob<PictureRequest, std::shared_ptr<const MlpPictures>> job_{"mlp pictures", compute_pictures, kPictureHz};
  std::vector<std::string> header_;
  ImVec2 rewind_button_{NAN, NAN};
  // Colours of the data points (cached by data version).
  uint64_t colours_version_key_ = ~uint64_t(0);
  std::vector<ImU32> colours_;
  std::vector<float> rgb_;  // decision-region image (res x res x 3)
  const MlpPictures* rgb_of_ = nullptr;  // compared only while pictures_ holds it alive
  bool rgb_probability_ = true;
  uint64_t rgb_theme_ = 0;  // theme_serial() of rgb_
};

}  // namespace cilab
