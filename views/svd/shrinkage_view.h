// The shrinkage view: soft versus hard thresholding of the singular values.
//
// Top: the input (sigma_1, ||A||_*, rank A), the tau slider (log scale over
// [0, 1.1 sigma_1]) and the k slider, both sending SetParam (the parameter
// panel follows), with two "match" buttons (tau = sigma_{k+1}: the soft rank
// becomes k; k = rank S_tau(A)); a read-out table of rank, nuclear norm,
// measured and closed-form Frobenius error and the prox objective of each
// operator. Left: A, S_tau(A), [A]_k and their difference S_tau(A) - [A]_k,
// as gray images (pictures) or heatmaps (data matrices), each captioned with
// rank, nuclear norm and error. Right: the spectrum sigma_i with
// (sigma_i - tau)_+ and the kept sigma_1..sigma_k, the tau line and the k line
// (click sets tau); below it the error against the rank: Eckart-Young for
// every k (hard, the optimum) and the soft path (tau = sigma_{R+1} for each
// rank R), the current pair marked.
#pragma once

#include "views/common/ui.h"
#include "views/common/view.h"

#include <Eigen/Core>
#include <imgui.h>

#include <memory>
#include <vector>

namespace cilab {

struct SvdFactors;
struct ShrinkageSnapshot;

class ShrinkageView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;

  // View options (public: tests and presets set them).
  bool log_spectrum = true;     // spectrum on log axes (index and value)
  bool show_difference = true;  // fourth panel: S_tau(A) - [A]_k
  bool same_scale = true;       // reconstructions drawn with A's value range (else their own)

  // Screen centre of the k slider in the last frame (tests).
  ImVec2 k_slider_centre() const { return ImVec2(k_edit_.slider_x, k_edit_.slider_y); }
  // Screen rectangle of the spectrum's plot area in the last frame (tests).
  ImVec2 spectrum_min() const { return spectrum_min_; }
  ImVec2 spectrum_max() const { return spectrum_max_; }

 private:
  void refresh(const ShrinkageSnapshot& s);

  // Per factors: A row-major, its range, the Eckart-Young and soft-path curves over the rank.
  std::shared_ptr<const SvdFactors> cached_factors_;  // held: no address reuse
  std::vector<float> a_;
  float a_min_ = 0, a_max_ = 1;
  std::vector<double> ranks_, hard_curve_, soft_curve_, index_, sigma_;
  // Per reconstruction: row-major copies and the difference.
  std::shared_ptr<const Eigen::MatrixXf> cached_soft_, cached_hard_;
  std::vector<float> soft_, hard_, diff_;
  SliderEditState tau_edit_, k_edit_;
  double sent_tau_ = -1.0;  // last tau sent while dragging (no repeats)
  int sent_k_ = -1;
  ImVec2 spectrum_min_, spectrum_max_;
};

}  // namespace cilab
