// The svd-lowrank view: the Eckart-Young explorer.
//
// Top: the rank K (a slider over 0..r that jumps there, emitting the intent
// "set_rank") and a read-out table putting the measured errors ||A - A_K||_F and
// ||A - A_K||_2 beside the Eckart-Young values sqrt(sum_{i>K} sigma_i^2) and
// sigma_{K+1}. Middle: four panels - A, A_K, the rank-one layer sigma_K u_K
// v_K^T added by the last step, and the residual A - A_K - drawn as gray images
// for pictures (signed panels: mid-gray = 0) or as heatmaps for data matrices.
// Bottom: the singular-value spectrum (kept sigma_1..sigma_K coloured, the
// discarded ones gray; click a bar to jump to that rank) and both errors
// against K (Eckart-Young curves for every K, measured values as markers).
#pragma once

#include "views/common/view.h"

#include <Eigen/Core>
#include <imgui.h>

#include <memory>
#include <vector>

namespace cilab {

struct SvdFactors;

class SvdLowRankView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;

  // View options (public: tests and presets set them).
  bool show_residual = true;   // fourth panel: A - A_K
  bool log_spectrum = true;    // singular values on a log axis
  bool same_scale = true;      // A_K drawn with A's value range (else its own)

  // Rank the slider showed in the last frame (tests).
  int slider_rank() const { return slider_rank_; }
  // Screen rectangles of the rank slider and of the spectrum plot area in the last frame (tests).
  ImVec2 slider_min() const { return slider_min_; }
  ImVec2 slider_max() const { return slider_max_; }
  ImVec2 spectrum_min() const { return spectrum_min_; }
  ImVec2 spectrum_max() const { return spectrum_max_; }

 private:
  void refresh(const std::shared_ptr<const SvdFactors>& f, int rank);

  // Per factors: A as float; per (factors, rank): the layer sigma_K u_K v_K^T.
  std::shared_ptr<const SvdFactors> cached_factors_;  // held: no address reuse
  int cached_rank_ = -1;
  std::vector<float> a_;       // m x n row-major
  std::vector<float> layer_;   // m x n row-major
  float a_min_ = 0, a_max_ = 1;
  std::vector<double> ey_frob_, ey_spec_, ks_;  // Eckart-Young curves over K = 0..r
  int slider_rank_ = 0;
  ImVec2 slider_min_, slider_max_, spectrum_min_, spectrum_max_;
  // Per snapshot: A_K and A - A_K row-major.
  std::shared_ptr<const Eigen::MatrixXf> cached_approx_;
  std::vector<float> ak_, resid_;
};

}  // namespace cilab
