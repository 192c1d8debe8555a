// The optimizer race view (module "optimizers", course chapter 10): several
// gradient methods run from the same start on one landscape.
//
//   left   the landscape: contour lines (marching squares over the visible
//          window, log-spaced levels for basins) over a faint heatmap, known
//          minima, the start point (click to move it, drag to restart), one
//          trajectory per racer in its colour (pixel-decimated and cached,
//          so 8 x 10 000 points cost about what 8 x 100 do), the Polyak
//          average, an X where a racer diverged; after the "gradient"
//          sub-step, arrows at the current point: -grad f, the velocity /
//          first moment and the step. Finite-sum problems (least squares,
//          logistic) add an inset of the data with the primary's fit.
//   right  the race table (one row per optimizer: colour, race checkbox, lr
//          slider, status, f - f*, iterations, measured rate; the torch.optim
//          update equations as tooltips), the theory block (quadratics: L,
//          mu, kappa, the stable range, optimal step sizes and rates with
//          buttons that set them; SGD: the Robbins-Monro conditions of the
//          schedule), and the curves per racer against the iteration (log
//          y): f - f* and the distance to theta*, with the predicted rates.
//
// Colours: racer kind k always uses plot::GetColormapColor(k), in every panel.
// Intents (all ViewIntent::SetParam / Seek, applied by the app like the
// parameter panel): start_x + start_y (click / drag on the landscape),
// race_<name> (checkbox), lr or lr_<name> (slider; lr for the primary),
// expr (text, function = custom), theory buttons (lr / lr_gd / lr_momentum,
// momentum, race_*), "rewind and halve the step size" (Seek to the last
// iteration before the divergence whose loss gap was at most 100 times the
// start's, then that racer's lr / 2: a live change there, the history kept).
#pragma once

#include "algorithms/core/params.h"
#include "views/plot/contour.h"
#include "views/common/ui.h"
#include "views/common/view.h"

#include <imgui.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct OptimizersSnapshot;
struct RacerState;
class Landscape;

class OptimizersView : public ModuleView {
 public:
  OptimizersView();
  ~OptimizersView() override;
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;

  // View options (public: tests and presets set them).
  bool show_heatmap = true;        // faint heatmap of log(f - min) under the contours
  bool show_arrows_always = false; // arrows after every step, not only after the gradient sub-step
  bool arrows_for_all = false;     // arrows for every racer, not only the primary
  bool show_average = true;        // Polyak averages (when average is on)
  bool show_data_inset = true;     // finite-sum problems: the data and the primary's fit
  bool log_curves = true;          // loss / distance curves on a log axis
  int grid_size = 160;             // landscape samples per axis for the contours
  int contour_count = 18;          // contour levels

  // What the last draw() did (tests and the frame benchmark read these).
  struct DrawInfo {
    int contour_segments = 0;    // contour segments submitted
    int trajectory_points = 0;   // decimated trajectory points submitted (all racers)
    int path_points = 0;         // points of the underlying paths (all racers)
    int racers_drawn = 0;
    int diverged_marks = 0;      // X marks drawn on the landscape
    int arrows = 0;              // sub-step arrows drawn
    bool data_inset = false;
    ImVec2 plot_min{0, 0}, plot_max{0, 0};  // landscape plot area (screen)
    double limits[4] = {0, 0, 0, 0};        // landscape limits x_min, x_max, y_min, y_max
    bool equal_aspect = false;              // the landscape was drawn equal-aspect
    ImVec2 start_pixel{-1, -1};             // the start handle (screen)
    ImVec2 rewind_button{-1, -1};           // centre of the first "rewind" button (-1: none)
    ImVec2 expr_input{-1, -1};              // centre of the custom f(x, y) box (-1: none)
    ImVec2 expr_apply{-1, -1};              // centre of its "apply" button
    std::vector<std::string> race_names;    // table rows, in order
    std::vector<ImVec2> race_checkboxes;    // centre of each row's checkbox
    std::vector<ImVec2> race_lr_sliders;    // centre of each row's lr slider
    std::vector<ImVec2> theory_buttons;     // centres: eta = 1/L, eta = 2/(L+mu), heavy-ball optimal
  };
  const DrawInfo& last_draw() const { return info_; }
  // Times the landscape grid was evaluated (a cache miss: new landscape, limits or size).
  int grid_evaluations() const { return grid_evaluations_; }

 private:
  struct Grid;
  struct RacerCache;

  void draw_header(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_landscape(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out, ImVec2 size);
  void draw_inset(const OptimizersSnapshot& s, ImVec2 pos, ImVec2 size);
  void draw_table(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out, float height);
  void draw_theory(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_curves(const OptimizersSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void refresh_grid(const Landscape& f, double x0, double x1, double y0, double y1);
  RacerCache& cache_for(const RacerState& r);
  void rewind_button(const OptimizersSnapshot& s, const RacerState& r, const ViewContext& ctx,
                     std::vector<ViewIntent>& out, const char* label);

  const ParamSpecs& specs();
  double param(const ViewContext& ctx, const std::string& name, double fallback) const;

  std::unique_ptr<Grid> grid_;
  std::vector<std::unique_ptr<RacerCache>> racers_;
  ParamSpecs specs_;
  std::string bounds_key_;          // landscape whose default window was applied
  bool refit_pending_ = true;
  int grid_evaluations_ = 0;
  bool dragging_start_ = false;
  double drag_x_ = 0, drag_y_ = 0;
  std::array<char, 256> expr_buf_{};
  std::string expr_shown_;          // the run's expr the box was last synced to
  bool expr_active_ = false;        // the box is being edited (do not overwrite it)
  SliderEditState lr_edit_;         // an lr cell being typed into (Ctrl+click)
  DrawInfo info_;
  std::vector<double> line_x_, line_y_;  // scratch: a curve's trend line
};

}  // namespace cilab
