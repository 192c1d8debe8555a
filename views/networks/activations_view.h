// The activations view: the activation lesson on one screen.
//
// Header: the network in one line, and the reading of the backward pass
// (||dL/dW_1|| / ||dL/dW_L||: vanishing, stable or exploding, and the mean
// factor per layer), coloured.
// Top row: f and f' over z with the saturated stretches (|f'| < s max|f'|)
// shaded, the histogram of one layer's pre-activations z_l below the curves
// (where the units sit on f), the formulas in a hover read-out; the gradient
// norms ||dL/dW_l||, ||dL/dh_l||, ||dL/dz_l|| per layer on a log axis; the
// forward statistics per layer (mean and std of h_l, saturated fraction).
// Bottom row: layer x bin heatmaps (layer 1 at the bottom, the output on top,
// as the signal flows) of the activations h_l (or the pre-activations z_l) and
// of the gradients dL/dz_l, on one range for all layers (vanishing = mass
// collapsing on 0) or on each layer's own range (the shape), with colour bars.
// Keys: A = next activation, I = next initialisation (both SetParam intents,
// as the parameter panel), G = gradient bins common / per layer, Z = the left
// heatmap shows z_l instead of h_l.
#pragma once

#include "views/common/view.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cilab {

struct ActivationsSnapshot;

class ActivationsView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;

  // View options (public: tests and presets set them).
  bool show_pre_activations = false;  // left heatmap: z_l instead of h_l
  bool grad_per_layer_range = false;  // right heatmap: each layer on its own range
  int overlay_layer = 1;              // f plot: histogram of z_l of this layer (0 = none)

  // The header read-outs of the last frame, in order (tests).
  const std::vector<std::string>& header() const { return header_; }

 private:
  void draw_function_plot(const ActivationsSnapshot& s, float w, float h);
  void draw_norms_plot(const ActivationsSnapshot& s, float w, float h);
  void draw_stats_plot(const ActivationsSnapshot& s, float w, float h);
  void draw_heatmap(const ActivationsSnapshot& s, bool gradients, float w, float h);
  void refresh_grids(const ActivationsSnapshot& s);

  std::vector<std::string> header_;
  // Heatmap grids derived from the snapshot (fractions of the layer's units,
  // rows reversed so layer 1 is at the bottom), keyed by the snapshot serial and
  // the two toggles.
  uint64_t grids_serial_ = 0;
  int grids_mode_ = -1;
  std::vector<double> left_grid_, right_grid_;
  double left_max_ = 1, right_max_ = 1;
};

}  // namespace cilab
