// The power-iteration view.
//
// Left: the iterate v_t. For d = 2 an arrow in the plane with the unit circle,
// its image under A (the ellipse {A x : ||x|| = 1}), the eigenvector lines
// u_1, u_2 and a trail of past iterates; the arrow tip is draggable (intent
// "set_vector": restart from there). After the multiply sub-step the product
// w = A v is drawn too. For d = 3 the same in an orthographic 3-D view (yaw and
// pitch in the controls). Image data (covariance of images): v_t and the true
// top eigenvector u_1 as images (mid-gray = 0). Other d: bar charts of the
// components of v_t and of +-u_1.
// Right: the angle theta_t to the top eigenvector on a log axis beside the
// predicted atan(tan theta_0 |lambda_2/lambda_1|^t) of each component, the
// Rayleigh quotient against lambda_1, and the spectrum of A beside the spectrum
// of the current deflated matrix with the eigenvalues found so far.
#pragma once

#include "views/plot/plot.h"
#include "views/common/view.h"

#include <imgui.h>

#include <cmath>
#include <string>
#include <vector>

namespace cilab {

struct PowerSnapshot;

class PowerIterationView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;

  // View options (public: tests and presets set them).
  float yaw_deg = 35.0f;     // 3-D view rotation about the vertical axis
  float pitch_deg = 25.0f;   // and about the horizontal axis
  bool show_trail = true;    // past iterates (d = 2, 3)
  int trail_length = 20;
  bool show_image_of_circle = true;  // d = 2: the ellipse A * (unit circle)
  bool log_spectrum = true;   // |lambda_i| on a log axis

  // Screen position of the arrow tip of v in the last frame (d = 2; tests).
  ImVec2 arrow_tip() const { return arrow_tip_; }
  // Limits of the spectrum plot in the last frame (tests: every bar must be inside).
  plot::Limits spectrum_limits() const { return spectrum_limits_; }
  // The header read-outs of the last frame, in order (caption, matrix, rho, lambda_j, ...).
  const std::vector<std::string>& header() const { return header_; }

 private:
  void draw_vector_panel(const PowerSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out,
                         ImVec2 size);
  void draw_plots(const PowerSnapshot& s, const ViewContext& ctx, ImVec2 size);

  ImVec2 arrow_tip_ = ImVec2(NAN, NAN);
  bool dragging_ = false;
  std::vector<std::string> header_;
  plot::Limits spectrum_limits_;
};

}  // namespace cilab
