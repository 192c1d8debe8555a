// The PCA view, in two layouts chosen by the data's dimension d.
//
// d = 2 or 3 - fitting a line m + R u (course 2.1): the cloud (in the
// coordinates PCA sees: x / s when standardising), the mean, the principal
// axes scaled by sqrt(lambda_k), every point's projection onto the line with
// its residual segment, and beside it the objective u^T C u and the residual
// tr C - u^T C u against the direction (a curve over the angle for 2-D, a
// heat map over azimuth x elevation for 3-D) with the maximum u_1 marked.
// In manual mode the handle at the tip of u (kept inside the visible view) and
// the line itself are draggable: u turns about the anchor, sent as the angle
// (and elevation) parameters so the panel shows it; "solve" sends the intent
// solve and the angles of u_1. 3-D data are drawn with our
// own rotation: yaw about the x2 axis then pitch about the screen's x axis,
// an orthographic projection; drag empty space to rotate.
//
// d >= 4 (or d = 1) - the spectrum (course 2.2): scree plot of lambda_i / tr C
// with the cumulative ratio; scatter of two chosen scores coloured by label
// (hover shows the sample, as an image for image rows; click adds it to the
// reconstruction samples); eigen-images (image data) or the loadings heat map;
// reconstructions of the chosen samples with a K slider, and the measured
// mean reconstruction error e(K) beside sum_{i > K} lambda_i (Eckart-Young).
//
// Preprocessing (centred? standardised?) is always stated on screen.
#pragma once

#include "views/common/ui.h"
#include "views/common/view.h"

#include <Eigen/Core>
#include <imgui.h>

#include <cstdint>
#include <vector>

namespace cilab {

struct PcaSnapshot;

class PcaView : public ModuleView {
 public:
  // Many-feature data: two rows of plots and pictures under a two-line header.
  float min_height_em() const override { return 26.0f; }
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;

  // ---- options (public: tests and presets set them)
  bool show_residuals = true;   // residual segments x -> projection (line fit)
  bool show_axes = true;        // principal axes scaled by sqrt(lambda) after the fit
  double yaw_deg = 35.0;        // 3-D rotation: about the x2 axis
  double pitch_deg = 25.0;      // then about the screen x axis
  int score_x = 0, score_y = 1; // score scatter: components shown (0-based)
  int recon_k = -1;             // K of the reconstruction panel (-1: min(10, K/2); clamped to K)
  int scree_count = 50;         // components shown in the scree plot
  bool scree_log = false;       // log-y scree plot
  std::vector<int> samples;     // rows reconstructed (empty: chosen automatically)

  // ---- read-outs of the last draw() (tests, tooltips)
  // Screen position of the draggable tip of u (NaN if not drawn).
  ImVec2 handle_pixel() const { return handle_px_; }
  // Screen position of the line's anchor m (NaN if not drawn).
  ImVec2 anchor_pixel() const { return anchor_px_; }
  // Centre of the "+" button of the reconstruction K control (NaN if not drawn).
  ImVec2 recon_plus_pixel() const { return recon_plus_px_; }
  // The 3 x 3 rotation of the 3-D view (rows: screen x, screen y, depth).
  Eigen::Matrix3d rotation() const;

 private:
  void draw_line_fit(const PcaSnapshot& s, const Dataset& data, const ViewContext& ctx,
                     std::vector<ViewIntent>& out);
  void draw_objective(const PcaSnapshot& s, float w, float h, std::vector<ViewIntent>& out);
  void draw_readouts(const PcaSnapshot& s, std::vector<ViewIntent>& out);
  void draw_high_d(const PcaSnapshot& s, const Dataset& data, const ViewContext& ctx,
                   std::vector<ViewIntent>& out);
  void draw_scree(const PcaSnapshot& s, float w, float h);
  void draw_scores(const PcaSnapshot& s, const Dataset& data, float w, float h);
  void draw_components(const PcaSnapshot& s, const Dataset& data, float w, float h);
  void draw_reconstruction(const PcaSnapshot& s, const Dataset& data, float w, float h);
  void refresh_points(const PcaSnapshot& s, const Dataset& data, uint64_t version);
  void refresh_scores(const PcaSnapshot& s, const Dataset& data, uint64_t version);
  void hover_sample(const Dataset& data, int row, const PcaSnapshot& s);

  // Line fit: points in PCA coordinates p = x / s (n x d, d <= 3), cached.
  uint64_t points_version_ = ~0ull;
  uint64_t points_theme_ = 0;  // theme_serial() of colours_
  Eigen::VectorXd points_scale_;
  Eigen::MatrixXd points_;  // n x d
  std::vector<ImU32> colours_;
  std::vector<float> px_, py_;  // 2-D / projected 3-D coordinates for PlotScatter
  bool dragging_ = false;     // the handle or the line is held (manual mode)
  bool line_drag_ = false;    // the line itself is held: it turns about the anchor
  double line_grab_x_ = 0, line_grab_y_ = 0;  // the grip on the line (plot coordinates)
  double line_depth_ = 0;     // 3-D: depth of the grip, kept while dragging
  double u_sign_ = 1.0;       // the handle sits at +u or -u, whichever side has room
  bool rotating_ = false;
  ImVec2 handle_px_ = ImVec2(NAN, NAN);
  ImVec2 anchor_px_ = ImVec2(NAN, NAN);
  ImVec2 recon_plus_px_ = ImVec2(NAN, NAN);
  SliderEditState k_slider_;  // the K sliders' fine-drag state

  // High-d: per-class score coordinates, cached by snapshot scores / chosen pair.
  uint64_t scores_serial_ = 0;  // snapshot the cached scores come from (a serial, never an address)
  uint64_t scores_version_ = ~0ull;
  int scores_x_ = -1, scores_y_ = -1;
  std::vector<std::vector<float>> class_x_, class_y_;
  std::vector<std::vector<int>> class_rows_;
  uint64_t scatter_version_ = 0;
  std::vector<char> hidden_classes_;  // classes hidden by a click on the class key

  // Hover image (image data).
  int hover_row_ = -1;
  std::vector<uint32_t> hover_pixels_;
  ImTextureID hover_texture_ = nullptr;
};

}  // namespace cilab
