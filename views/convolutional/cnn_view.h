// The cnn module's view (mlp's trainer, mlp's snapshot): the first layer's filters
// as images, the feature maps of every layer for a chosen test image, the
// per-layer gradient norms of the last backward pass, backprop through the first convolution
// (the tied kernel's gradient as the sum of the untied per-position gradients, 12.3), the
// confusion matrix and the misclassified images; loss and accuracy per epoch beside them
// (MlpView's curves). Keys 1-6 choose a tab.
#pragma once

#include "algorithms/convolutional/cnn.h"
#include "views/generative/vae_pictures.h"
#include "views/networks/mlp_view.h"

#include <string>
#include <vector>

namespace cilab {

class CnnView : public MlpView {
 public:
  enum class CnnTab { Filters = 0, Maps, Gradients, Backprop, Confusion, Errors };

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;
  bool pictures_pending() const override { return false; }

  int image = 0;   // the test image whose feature maps (and backprop) are drawn
  int filter = 0;  // the first conv layer's filter the Backprop tab follows

  // The feature maps last computed: one mosaic per conv / pool layer (tests).
  struct Maps {
    std::vector<std::string> names;  // "conv 1: 6 x 28 x 28 (after relu)"
    std::vector<Mosaic> mosaics;     // channels tiled, each map scaled to its layer's range
    std::vector<float> lo, hi;       // the range of each layer's values
  };
  const Maps& maps() const { return maps_; }
  // The Backprop tab's last computation (tests).
  const TiedGradient& tied() const { return tied_; }

 private:
  void draw_filters(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_maps(const MlpSnapshot& s, ImVec2 size);
  void draw_gradients(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_backprop(const MlpSnapshot& s, ImVec2 size);
  void update_maps(const MlpSnapshot& s);

  CnnTab ctab_ = CnnTab::Filters;
  bool pick_tab_ = false;  // an image was picked in Errors: show Feature maps next frame
  Maps maps_;
  const nn::Sequential<float>* maps_net_ = nullptr;  // compared only while the snapshot holds it
  int maps_image_ = -1;
  std::shared_ptr<const nn::Sequential<float>> maps_holder_;
  TiedGradient tied_;
  std::shared_ptr<const nn::Sequential<float>> tied_net_;  // the copy tied_ came from
  int tied_image_ = -1, tied_filter_ = -1;
  int conv_filters_ = 0;  // the first conv layer's filters (the filter slider's range)
};

}  // namespace cilab
