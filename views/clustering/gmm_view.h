// The Gaussian-mixture (EM) view: soft clustering next to hard.
//
// Main plot: the points coloured by mixing the component colours with their
// responsibilities (colour_n = sum_k q_nk colour_k; grey before the first
// E-step), the 1-sigma and 2-sigma ellipses of every component, the mixture
// density (contour lines or a heatmap) under the points, and the means as
// draggable handles (intent "move_mean": EM continues from there). Hovering a
// point shows its responsibilities. For d > 2 the plot is a linear 2-D map
// (two features or the first two principal axes, as in the k-means view); the
// ellipses and the density are then the exact images P Sigma P^T of the
// components under that map, and are labelled as projections.
//
// Side column: the log-likelihood per iteration, the mixture weights pi_k as
// bars and the smallest eigenvalue of each Sigma_k (log scale, the
// singularity warning). A Diverged run (a component collapsed onto a point
// with reg = 0) is explained on screen with a button that rewinds to the last
// good iteration and sets reg = 1e-6 (ViewIntent Seek + SetParam).
//
// "Compare with k-means" (button or key K) sets the parameter compare_kmeans;
// the module then runs k-means in lockstep on the same data and seed, drawn
// beside the GMM plot on the same axes (hard colours, centroids, Voronoi cells
// for 2-D data).
//
// Model selection: a sweep K = 1..Kmax (gmm_sweep, scikit-learn's BIC and AIC
// and the final log-likelihood) run as a job of the app's BackgroundJobs
// (ViewContext::jobs; cancelled in on_reset() and the destructor, never waited
// for in a frame; without jobs the panel says it cannot run).
// Clicking a K in its plot sets the parameter k.
#pragma once

#include "views/clustering/gmm_view_density.h"
#include "views/common/jobs.h"
#include "views/common/scatter_projection.h"
#include "views/common/view.h"

#include <Eigen/Core>
#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct GmmSnapshot;
struct GmmSweepRow;

class GmmView : public ModuleView {
 public:
  GmmView();
  ~GmmView() override;  // cancels a running sweep (BackgroundJobs joins its thread)
  GmmView(const GmmView&) = delete;
  GmmView& operator=(const GmmView&) = delete;

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  // Cancels a running sweep (finished sweep results are kept, marked stale
  // when the data or the parameters no longer match).
  void on_reset() override;

  enum class ColourBy { Responsibility = 0, TrueLabel = 1 };
  enum class Density { Off = 0, Contours = 1, Heatmap = 2 };

  // View options (public: tests and presets set them).
  ProjectionChoice projection;  // the projection control (d > 2): principal axes or two features
  ColourBy colour_by = ColourBy::Responsibility;
  bool show_ellipses = true;
  Density density = Density::Contours;
  bool show_model_selection = false;  // the sweep panel under the plots
  int sweep_kmax = 8;

  // Starts the model-selection sweep (K = 1..sweep_kmax) as a job of `jobs`
  // with a copy of `data` (a running sweep is cancelled first).
  void start_sweep(BackgroundJobs& jobs, const Dataset& data, const ParamValues& values, uint64_t seed,
                   uint64_t data_version);
  // Cancels a running sweep and forgets it (returns at once; finished results are kept).
  void cancel_sweep();
  // Test helper: waits (blocking) until the sweep job ends.
  void join_sweep();
  bool sweep_running() const;
  // Finished sweep rows (empty while running or if never run).
  std::vector<GmmSweepRow> sweep_rows() const;

  // What the last draw() drew (tests).
  const std::vector<ImVec2>& mean_pixels() const { return mean_pixels_; }
  int ellipses_drawn() const { return ellipses_drawn_; }
  int contour_segments_drawn() const { return contour_segments_drawn_; }
  int hovered_row() const { return hovered_row_; }
  // Times the point colours changed (each rebuilds the splat image of a large scatter).
  int colour_refreshes() const { return colour_refreshes_; }
  // Point colours of the last draw() (GMM plot, k-means comparison plot).
  const std::vector<ImU32>& point_colours() const { return colours_; }
  const std::vector<ImU32>& kmeans_point_colours() const { return kcolours_; }
  bool kmeans_plot_drawn() const { return kmeans_plot_drawn_; }
  // Screen centre of the "rewind and set reg" button (NaN if not shown).
  ImVec2 rewind_button() const { return rewind_button_; }
  // Iteration the rewind button seeks to (-1 if not shown).
  int rewind_target() const { return rewind_target_; }
  // Screen position of K on the sweep's BIC plot (NaN if not drawn).
  ImVec2 sweep_pixel(int k) const;

 private:
  struct SweepResult;

  void refresh_points(const Dataset& data, uint64_t version);
  void refresh_colours(const GmmSnapshot& snap, const Dataset& data);

  void draw_banner(const GmmSnapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_gmm_plot(const GmmSnapshot& snap, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out);
  void draw_density(const GmmSnapshot& snap);
  void draw_kmeans_plot(const GmmSnapshot& snap, const Dataset& data, ImVec2 size);
  void draw_side(const GmmSnapshot& snap, const ViewContext& ctx, ImVec2 size);
  void draw_sweep(const GmmSnapshot& snap, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out);
  void hover_readout(const GmmSnapshot& snap, const Dataset& data);
  int last_good_iteration(const GmmSnapshot& snap, const ViewContext& ctx) const;

  // Cached per dataset / projection.
  ScatterProjection scatter_;
  bool fit_pending_ = false;
  bool equal_aspect_ = false;
  double data_scale_ = 1.0;  // smallest feature variance (collapse threshold)

  // Point colours, cached per (snapshot serial - never an address -, colour mode, groups shown
  // in the legend); shown_: components / classes not hidden in the legend (this frame).
  uint64_t colours_serial_ = 0;
  uint64_t colours_theme_ = 0;  // theme_serial() of the colours
  int colours_mode_ = -1;
  std::vector<char> colours_shown_, shown_;
  std::vector<ImU32> colours_, next_colours_;
  uint64_t colours_version_ = 0;
  int colour_refreshes_ = 0;
  // k-means comparison colours, cached per k-means snapshot serial.
  uint64_t kcolours_serial_ = 0;
  uint64_t kcolours_theme_ = 0;
  std::vector<ImU32> kcolours_;
  uint64_t kcolours_version_ = 0;

  // Density grid, cached per (mixture parameters, limits, plot size).
  uint64_t density_key_ = 0;
  std::vector<double> density_grid_;
  std::vector<uint32_t> density_rgba_;
  double density_max_ = 0;
  uint64_t density_uploaded_key_ = 0;
  ImTextureID density_texture_ = nullptr;
  double grid_x0_ = 0, grid_x1_ = 1, grid_y0_ = 0, grid_y1_ = 1;
  plot::ContourSegments contours_;
  std::vector<ImU32> contour_colours_;  // per level

  // Limits of the GMM plot (the k-means plot beside it follows them).
  double lim_x0_ = 0, lim_x1_ = 1, lim_y0_ = 0, lim_y1_ = 1;
  bool have_limits_ = false;

  // Drawn this frame (tests).
  std::vector<ImVec2> mean_pixels_;
  int ellipses_drawn_ = 0;
  int contour_segments_drawn_ = 0;
  int hovered_row_ = -1;
  bool kmeans_plot_drawn_ = false;
  ImVec2 rewind_button_ = ImVec2(NAN, NAN);
  int rewind_target_ = -1;
  int drag_index_ = -1;

  // Model-selection sweep: its results (written by the job, read once it ended) and its job.
  std::shared_ptr<SweepResult> sweep_;
  JobHandle sweep_job_;
  std::string sweep_key_;       // data/params/seed the finished rows belong to
  std::string sweep_error_;
  std::vector<double> sweep_px_x_, sweep_px_y_;  // pixels of K = 1..: BIC plot
  std::string sweep_auto_key_;  // parameters of the last automatic start
};

}  // namespace cilab
