// The 2-D scatter coordinates of a dataset, shared by the clustering views
// (k-means, GMM): d = 1 is drawn on a line (y = 0), d = 2 as it is, d > 2 as
// two chosen features or as the scores on the first two principal axes
// (algorithms/linalg/projection.h, estimated from at most kProjectionRows rows).
//
// update() recomputes the cached float coordinates when the data (its
// version or row count), the mode or the chosen features change, and says
// so, so that the view can invalidate what it derived from them (colours,
// fit). project() / unproject() map single points (centroids, means, drags)
// between feature space and the plane: mu' = mu + A (s' - s), A the d x 2 axes.
#pragma once

#include "algorithms/linalg/projection.h"
#include "views/common/geometry.h"
#include "views/plot/plot.h"
#include "views/common/view.h"

#include <Eigen/Core>
#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace cilab {

struct Dataset;

// What a scatter of d > 2 data shows.
enum class ScatterMode { Features = 0, Principal = 1 };

// The projection control of a clustering scatter (k-means, GMM): the user's
// choice of 2-D map for d > 2 data, edited by ScatterProjection::draw_controls
// and read by ScatterProjection::update. View state: the view owns it (tests
// and presets set it), together with where its widgets were drawn.
struct ProjectionChoice {
  ScatterMode mode = ScatterMode::Principal;
  int feature_x = 0, feature_y = 1;  // Features mode: the columns on x and y
  // Screen centres of the control's widgets in the last frame that drew them
  // (NaN when not drawn: d <= 2, or the combos in Principal mode). Tests.
  struct Widgets {
    ImVec2 principal{NAN, NAN}, features{NAN, NAN}, x_combo{NAN, NAN}, y_combo{NAN, NAN};
  } widgets;
};

// Cached scatter coordinates of one dataset under one 2-D map.
class ScatterProjection {
 public:
  // Rows used to estimate the principal axes (labelled "estimated" beyond).
  static constexpr int kProjectionRows = 5000;
  // Rows above which hovering shows no point (hovered_row searches all of them every frame).
  static constexpr int kHoverMaxPoints = 300000;

  // Clamps the choice's features to [0, d - 1] (written back), then recomputes
  // xs/ys if data_version, the row count, the mode or the features changed (the
  // principal axes only when the data changed). Returns true if it recomputed.
  bool update(const Dataset& data, uint64_t data_version, ProjectionChoice& choice);

  // True when the plane is two features (Features mode, or d <= 2).
  bool uses_features() const { return mode_ == ScatterMode::Features || !has_axes_; }
  // A point of feature space (size d) in plot coordinates.
  Eigen::Vector2d project(const Eigen::VectorXd& point) const;
  // `base` moved within the plane so that it projects to (sx, sy).
  Eigen::VectorXd unproject(const Eigen::VectorXd& base, double sx, double sy) const;
  // The image P Sigma P^T of a d x d covariance under the map.
  Eigen::Matrix2d project_covariance(const Eigen::MatrixXd& cov) const;
  // Where a click in the plot is unprojected from: the data mean (features) or the axes' mean.
  Eigen::VectorXd click_origin(const Dataset& data) const;
  // Axis title: the feature name, or "PC1: principal axis 1 (x% of the variance)" / "PC2 (x%)";
  // "" for the y axis of 1-D data.
  std::string axis_label(int axis, const Dataset& data) const;

  // The projection control, one for every clustering view, for d > 2 data: "principal axes" /
  // "two features" radio buttons (principal_help: the first one's tooltip, the view's own
  // words) and, for features, the x and y feature combos. The features are clamped to
  // [0, d - 1] first: the data may have just been replaced by data with fewer columns. Draws
  // nothing for d <= 2. Records the widgets' centres in choice.widgets. Returns true if the
  // user changed the choice this frame.
  static bool draw_controls(const Dataset& data, ProjectionChoice& choice, const char* principal_help);

  // Inside a plot: the row drawn nearest the mouse, within 10 pixels, ringed in white; -1 if
  // none, or if there are more than kHoverMaxPoints rows (the search is O(n) per frame).
  int hovered_row() const;

  // Plot coordinates of the rows (size n).
  const std::vector<float>& xs() const { return xs_; }
  const std::vector<float>& ys() const { return ys_; }

 private:
  uint64_t version_ = ~0ull;
  ScatterMode mode_ = ScatterMode::Principal;
  int fx_ = -1, fy_ = -1;
  std::vector<float> xs_, ys_;
  Projection2d pca_;
  bool has_axes_ = false;
};

// ---- colour keys of the clustering scatters (k-means, GMM) -------------------------------------
// Clusters are coloured with plot::Colormap::Categorical and drawn as circles; true classes
// with plot::Colormap::Labels and drawn as squares, so a class never passes for a cluster.

// Marker of points coloured by their true class.
constexpr plot::Marker kLabelMarker = plot::Marker::Square;

// Publishes freshly computed point colours: when `next` differs from `shown`
// they swap and `version` advances (the scatter's splat image is rebuilt only
// then). Returns whether a colour changed.
bool publish_colours(std::vector<ImU32>& shown, std::vector<ImU32>& next, uint64_t& version);

// Inside a tooltip: "row i" and the row's class (in the label palette) if it has one.
void row_tooltip_header(const Dataset& data, int row);

// Inside a plot: the clicks of a clustering scatter (call when no handle is being dragged).
// Left click: while `placing` (manual init, centres left to place) and not editing points,
// a Module intent `place_kind` (index -1) at the click unprojected into feature space;
// with `point_edit` (the "click to add" mode, or Shift) on 2-D data an AddPoint. Right click
// in the "click to add" mode on 2-D data: a RemovePoint.
void scatter_clicks(const ScatterProjection& scatter, const Dataset& data, const ViewContext& ctx, bool placing,
                    bool point_edit, const char* place_kind, std::vector<ViewIntent>& out);

// Inside a plot: the Voronoi cells of `sites` (plot coordinates) over the visible range, one
// filled polygon per site in its cluster colour (outline alpha 110, fill `fill_alpha`), neither
// fitted nor in the legend. id_prefix names one item per cell ("<prefix><j>"); nullptr draws
// them as label-free polygons.
void voronoi_regions(const std::vector<Vec2>& sites, int fill_alpha, const char* id_prefix);

// Inside a plot: one legend entry per class (its name, else "class c") in the label palette.
// shown[c] (resized to the class count) is false for classes the user hid in the legend.
void label_legend(const Dataset& data, std::vector<char>& shown);
// Inside a plot: one legend entry per cluster ("<noun> j", cluster palette); shown as above.
void cluster_legend(const char* noun, int k, std::vector<char>& shown);
// Colour of each row by its class (label palette, the given alpha); `unlabelled` for rows
// without a class; transparent for classes with shown[c] == 0.
void label_colours(const Dataset& data, const std::vector<char>& shown, int alpha, ImU32 unlabelled,
                   std::vector<ImU32>& out);

}  // namespace cilab
