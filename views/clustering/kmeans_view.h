// The k-means view: the data coloured by cluster, centroids (draggable) with
// trails of their past positions, optional Voronoi regions (2-D data), the
// D^2 sampling probabilities while k-means++ seeds, cluster sizes, and for
// image data (Fashion-MNIST) the centroids drawn as images.
//
// d > 2: the scatter shows two chosen features or the first two principal
// axes (the default), labelled as such. Dragging a centroid in a projection
// moves it within the projected plane: mu' = mu + A (s' - s), A the d x 2 axes.
//
// Intents: move_centroid / place_centroid (to the module), AddPoint /
// RemovePoint (to the app) with shift+click or the "click to add" mode.
#pragma once

#include "views/common/scatter_projection.h"
#include "views/common/view.h"

#include <Eigen/Core>
#include <imgui.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace cilab {

struct KMeansSnapshot;

class KMeansView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;

  enum class ColourBy { Cluster = 0, TrueLabel = 1 };

  // View options (public: tests and presets set them).
  ProjectionChoice projection;  // the projection control (d > 2): principal axes or two features
  ColourBy colour_by = ColourBy::Cluster;
  bool show_voronoi = true;
  bool show_trails = true;
  int trail_length = 30;
  bool show_seeding = true;   // D^2 probabilities at iteration 0 (kmeans++)
  int seeding_round = -1;     // -1 = last recorded round

  // Screen positions of the centroids drawn by the last draw() (tests, tooltips).
  const std::vector<ImVec2>& centroid_pixels() const { return centroid_pixels_; }
  // Point colours of the last draw() (tests).
  const std::vector<ImU32>& point_colours() const { return colours_; }

 private:
  // What the points are coloured by.
  enum class Colouring { Cluster = 0, TrueLabel = 1, Seeding = 2 };
  Colouring colouring(const KMeansSnapshot& snap, const Dataset& data) const;
  void refresh_points(const Dataset& data, uint64_t version);
  void refresh_colours(const KMeansSnapshot& snap, const Dataset& data, Colouring mode);
  void hover_readout(const KMeansSnapshot& snap, const Dataset& data);

  // Cached per dataset / projection.
  ScatterProjection scatter_;
  bool fit_pending_ = false;

  // Point colours, cached per (snapshot serial - never an address -, colouring, seeding round,
  // groups shown in the legend); colours_version_ changes only when a colour does.
  uint64_t colours_serial_ = 0;
  int colours_mode_ = -1;
  int colours_round_ = -2;
  std::vector<char> colours_shown_;
  uint64_t colours_theme_ = 0;  // theme_serial() of the colours
  std::vector<ImU32> colours_, next_colours_;
  uint64_t colours_version_ = 0;
  std::vector<char> shown_;  // clusters / classes not hidden in the legend (this frame)

  std::vector<ImVec2> centroid_pixels_;

  // Hover readout: the image of the hovered row (image data).
  int hover_row_ = -1;
  std::vector<uint32_t> hover_pixels_;
  ImTextureID hover_texture_ = nullptr;

  // Centroid being dragged (its position overrides the snapshot's while held).
  int drag_index_ = -1;
  Eigen::VectorXd drag_origin_;
};

}  // namespace cilab
