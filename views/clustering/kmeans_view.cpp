#include "views/clustering/kmeans_view.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include "algorithms/clustering/kmeans.h"
#include "views/common/geometry.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

ImU32 unassigned_colour() { return with_alpha(colors().neutral, 150); }
constexpr uint64_t kHoverTextureKey = 0x6b6d686f76657231ull;
// Clusters listed in the scatter's legend by default (more: from its right-click menu).
constexpr int kLegendMaxEntries = 16;

// A caption that says what the step just shown did, after the shared position label.
std::string caption(const KMeansSnapshot& s, const ModuleInfo* info) {
  const std::string at = position_label(s, info, true);
  if (s.iteration == 0 && s.phase == 0) return at + ": initial centroids. Step (Right) or sub-step (S) to assign.";
  if (s.phase == 1)
    return at + ": every point joins its nearest centroid  z_i = argmin_j ||x_i - mu_j||^2";
  return at + ": every centroid moved to the mean of its points  mu_j = mean{x_i : z_i = j}";
}

}  // namespace

void KMeansView::on_reset() {
  drag_index_ = -1;
  hover_row_ = -1;
  colours_mode_ = -1;
  seeding_round = -1;
}

void KMeansView::refresh_points(const Dataset& data, uint64_t version) {
  if (!scatter_.update(data, version, projection)) return;
  ++colours_version_;
  colours_mode_ = -1;
  fit_pending_ = true;  // new data or a new projection: show all of it
}

KMeansView::Colouring KMeansView::colouring(const KMeansSnapshot& snap, const Dataset& data) const {
  if (show_seeding && snap.iteration == 0 && snap.phase == 0 && snap.seeding && !snap.seeding->probs.empty())
    return Colouring::Seeding;
  return colour_by == ColourBy::TrueLabel && data.has_labels() ? Colouring::TrueLabel : Colouring::Cluster;
}

void KMeansView::refresh_colours(const KMeansSnapshot& snap, const Dataset& data, Colouring colouring) {
  const int n = data.rows();
  const int mode = static_cast<int>(colouring);
  // Labels depend on the data only (refresh_points resets the mode when it changes).
  const uint64_t serial = colouring == Colouring::TrueLabel ? 0 : snap.serial.value;
  if (serial == colours_serial_ && mode == colours_mode_ && colours_round_ == seeding_round &&
      colours_shown_ == shown_ && colours_theme_ == theme_serial() &&
      static_cast<int>(colours_.size()) == n)
    return;
  colours_serial_ = serial;
  colours_theme_ = theme_serial();
  colours_mode_ = mode;
  colours_round_ = seeding_round;
  colours_shown_ = shown_;
  std::vector<ImU32>& next = next_colours_;
  next.resize(n);
  auto publish = [&] { publish_colours(colours_, next, colours_version_); };
  if (colouring == Colouring::Seeding) {
    const auto& probs = snap.seeding->probs;
    int r = seeding_round;
    if (r < 0 || r >= static_cast<int>(probs.size()) || probs[r].empty()) {
      r = static_cast<int>(probs.size()) - 1;
      while (r > 0 && probs[r].empty()) --r;
    }
    const std::vector<double>& p = probs[r];
    double pmax = 0.0;
    for (double v : p) pmax = std::max(pmax, v);
    for (int i = 0; i < n; ++i) {
      const double t = p.empty() || pmax <= 0 ? 0.0 : std::sqrt(p[i] / pmax);  // sqrt: D_i / D_max
      next[i] = p.empty() ? unassigned_colour() : plot::SampleColormap(t, plot::Colormap::Viridis);
    }
    publish();
    return;
  }
  if (colouring == Colouring::TrueLabel) {
    label_colours(data, shown_, 200, unassigned_colour(), next);
    publish();
    return;
  }
  const std::vector<int>* labels = snap.labels.get();
  for (int i = 0; i < n; ++i) {
    const int z = labels && i < static_cast<int>(labels->size()) ? (*labels)[i] : -1;
    const bool on = z < 0 || z >= static_cast<int>(shown_.size()) || shown_[z];
    next[i] = z >= 0 ? with_alpha(plot::GetColormapColor(z), on ? 210 : 0) : unassigned_colour();
  }
  publish();
}

void KMeansView::hover_readout(const KMeansSnapshot& snap, const Dataset& data) {
  const int best = scatter_.hovered_row();
  if (best < 0) return;
  ImGui::BeginTooltip();
  row_tooltip_header(data, best);
  const int z = snap.labels && best < static_cast<int>(snap.labels->size()) ? (*snap.labels)[best] : -1;
  if (z >= 0) {
    const double dist2 = (data.x.row(best) - snap.centroids.row(z)).squaredNorm();
    fit_text_colored(legible(plot::GetColormapColor(z)), "cluster %d", z);
    fit_text("||x - mu_%d||^2 = %.4g", z, dist2);
  }
  if (data.cols() <= 8) {
    for (int j = 0; j < data.cols(); ++j)
      fit_text("%s = %.4g", j < static_cast<int>(data.column_names.size()) ? data.column_names[j].c_str() : "x",
                  data.x(best, j));
  }
  plot::TextureProvider* tex = plot::GetTextureProvider();
  if (data.is_image() && tex) {
    const int h = data.image_h, w = data.image_w;
    if (hover_row_ != best) {
      hover_pixels_.resize(static_cast<size_t>(h) * w);
      const double lo = data.x.row(best).minCoeff(), hi = data.x.row(best).maxCoeff();
      for (int i = 0; i < h * w; ++i) {
        const double t = hi > lo ? (data.x(best, i) - lo) / (hi - lo) : 0.0;
        const auto g = static_cast<ImU32>(std::lround(255.0 * t));
        hover_pixels_[i] = IM_COL32(g, g, g, 255);
      }
      hover_texture_ = tex->Update(kHoverTextureKey, w, h, hover_pixels_.data());
      hover_row_ = best;
    }
    const float size = ImGui::GetFontSize() * 7;
    ImGui::Image(hover_texture_, ImVec2(size, size * h / std::max(1, w)));
  }
  ImGui::EndTooltip();
}

void KMeansView::draw_controls(const Snapshot& snap_base, const ViewContext& ctx) {
  const auto* snap = dynamic_cast<const KMeansSnapshot*>(&snap_base);
  if (!snap || !ctx.data) return;
  const Dataset& data = *ctx.data;
  fit_text_disabled("View");
  const int d = data.cols();
  ScatterProjection::draw_controls(data, projection,
                                   "Scatter of the scores on the first two principal axes of the data "
                                   "(eigenvectors of the covariance with the largest eigenvalues). Clustering "
                                   "still happens in all d dimensions.");
  if (data.has_labels()) {
    int c = static_cast<int>(colour_by);
    ImGui::RadioButton("colour by cluster", &c, 0);
    ImGui::SameLine();
    ImGui::RadioButton("by true label", &c, 1);
    colour_by = static_cast<ColourBy>(c);
    tooltip_text("True labels use their own palette and square markers (clusters: circles), named in the "
                 "plot's legend; click a legend entry to hide that class or cluster.");
  }
  const bool voronoi_ok = d == 2;
  if (!voronoi_ok) ImGui::BeginDisabled();
  ImGui::Checkbox("Voronoi regions", &show_voronoi);
  if (!voronoi_ok) ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(voronoi_ok ? "Cells of the points nearest to each centroid: the assign step's partition."
                                 : "Only for 2-D data (a projection's cells are not the real ones).");
  ImGui::Checkbox("centroid trails", &show_trails);
  if (show_trails) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::SliderInt("##trail", &trail_length, 2, 200, "%d its");
  }
  if (snap->seeding && !snap->seeding->probs.empty()) {
    ImGui::Checkbox("k-means++ D^2 probabilities", &show_seeding);
    tooltip_text("At iteration 0: colour = D_i / max D, the probability of being picked as the next seed "
                 "is p_i = D_i^2 / sum_j D_j^2 (D_i = distance to the nearest seed chosen so far).");
    const int rounds = static_cast<int>(snap->seeding->probs.size());
    if (show_seeding && rounds > 1) {
      int r = seeding_round < 0 ? rounds - 1 : seeding_round;
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      if (ImGui::SliderInt("seeding round", &r, 1, rounds - 1)) seeding_round = r;
    }
  }
}

void KMeansView::draw(const Snapshot& snap_base, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* snap_ptr = dynamic_cast<const KMeansSnapshot*>(&snap_base);
  if (!snap_ptr || !ctx.data || ctx.data->rows() == 0) {
    fit_text_disabled("No k-means state to show.");
    return;
  }
  const KMeansSnapshot& snap = *snap_ptr;
  const Dataset& data = *ctx.data;
  const int d = data.cols();
  const int k = snap.k();
  refresh_points(data, ctx.data_version);
  const Colouring colouring_now = colouring(snap, data);

  // ---- caption: what the last (sub-)step did, and the objective.
  const double objective = snap.metrics.empty() ? NAN : snap.metrics[0];
  fit_text_unformatted(caption(snap, ctx.info).c_str());
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  if (std::isnan(objective)) fit_text_disabled("J = n/a");
  else fit_text("J = %.6g", objective);
  tooltip_text("Objective (scikit-learn's inertia): J = sum_i ||x_i - mu_{z_i}||^2. It never rises, after "
               "either half-step: each is an exact minimisation over z or over mu.");
  const bool manual = !snap.placed.empty();
  int unplaced = 0;
  for (char p : snap.placed) unplaced += p ? 0 : 1;
  if (manual && unplaced > 0 && snap.iteration == 0 && snap.phase == 0)
    fit_text_colored(colour_vec(colors().warning),
                       "Manual init: click in the plot to place centroid %d (%d of %d placed)",
                       k - unplaced, k - unplaced, k);
  else if (!snap.message.empty())
    fit_text_colored(colour_vec(colors().warning), "%s", snap.message.c_str());

  // ---- layout: scatter | side column (cluster sizes, centroid images).
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side_w = std::max(ImGui::GetFontSize() * 12, avail.x * 0.22f);
  const float main_w = avail.x - side_w - ImGui::GetStyle().ItemSpacing.x;

  // Axis labels say what the axes are.
  const std::string xl = scatter_.axis_label(0, data), yl = scatter_.axis_label(1, data);
  const std::vector<float>& xs = scatter_.xs();
  const std::vector<float>& ys = scatter_.ys();

  const ImGuiIO& io = ImGui::GetIO();
  const bool point_edit = ctx.edit_points || (io.KeyShift && d == 2);
  // The colour key: a legend of the clusters (or classes) - by default unless k is large - or
  // the colour bar of the D^2 probabilities.
  plot::PlotFlags flags = plot::PlotFlags_NoTitle;
  if (colouring_now == Colouring::Seeding || (colouring_now == Colouring::Cluster && k > kLegendMaxEntries))
    flags |= plot::PlotFlags_NoLegend;
  if (d == 2 || !scatter_.uses_features()) flags |= plot::PlotFlags_EqualAspect;
  if (ctx.edit_points) flags |= plot::PlotFlags_NoMenus;
  if (plot::BeginPlot("##kmeans_scatter", ImVec2(main_w, avail.y), flags)) {
    plot::SetupAxes(xl.c_str(), yl.empty() ? nullptr : yl.c_str());
    if (colouring_now == Colouring::Seeding)
      plot::SetupColorBar("D_i / max D  (next seed: p_i = D_i^2 / sum_j D_j^2)", 0.0, 1.0, plot::Colormap::Viridis);
    if (fit_pending_) {
      plot::RequestFit();
      fit_pending_ = false;
    }

    // Centroids in view coordinates (a dragged one follows the mouse).
    std::vector<Vec2> sites(k);
    for (int j = 0; j < k; ++j) {
      const Eigen::Vector2d v = scatter_.project(snap.centroids.row(j).transpose());
      sites[j] = {v.x(), v.y()};
    }

    // Voronoi regions (2-D data only: a projection's cells would be wrong).
    if (show_voronoi && d == 2 && k > 1) voronoi_regions(sites, 28, "##voronoi");

    // The data, with its colour key (hiding a legend entry hides its points).
    if (colouring_now == Colouring::TrueLabel)
      label_legend(data, shown_);
    else if (colouring_now == Colouring::Cluster)
      cluster_legend("cluster", k, shown_);
    else
      shown_.clear();
    refresh_colours(snap, data, colouring_now);
    plot::Spec pts;
    pts.colors = colours_.data();
    pts.marker = colouring_now == Colouring::TrueLabel ? kLabelMarker : plot::Marker::Circle;
    pts.marker_size = data.rows() > 5000 ? 2.0f : 3.5f;
    pts.version = colours_version_;
    plot::PlotScatter("##points", xs.data(), ys.data(), static_cast<int>(xs.size()), pts);

    // Trails of past centroid positions from the stored history.
    if (show_trails && ctx.stored_snapshot && snap.iteration > 0) {
      const int first = std::max(0, snap.iteration - trail_length);
      std::vector<std::vector<double>> tx(k), ty(k);
      for (int it = first; it <= snap.iteration; ++it) {
        const std::shared_ptr<const Snapshot> s = it == snap.iteration ? nullptr : ctx.stored_snapshot(it);
        const auto* ks = s ? dynamic_cast<const KMeansSnapshot*>(s.get()) : (it == snap.iteration ? &snap : nullptr);
        if (!ks || ks->k() != k || ks->centroids.cols() != d) continue;
        for (int j = 0; j < k; ++j) {
          const Eigen::Vector2d v = scatter_.project(ks->centroids.row(j).transpose());
          tx[j].push_back(v.x());
          ty[j].push_back(v.y());
        }
      }
      for (int j = 0; j < k; ++j) {
        if (tx[j].size() < 2) continue;
        plot::Spec spec;
        spec.color = plot::GetColormapColor(j);
        spec.line_weight = 2.0f;
        spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
        char id[32];
        std::snprintf(id, sizeof id, "##trail%d", j);
        plot::PlotTrail(id, tx[j].data(), ty[j].data(), static_cast<int>(tx[j].size()), spec);
      }
    }

    // Seeds chosen so far while showing the D^2 distribution.
    if (colouring_now == Colouring::Seeding && snap.seeding) {
      plot::Spec spec;
      spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      if (plot::BeginItem("##seeds", spec)) {
        ImDrawList* dl = plot::GetPlotDrawList();
        const auto& rows = snap.seeding->rows;
        int r = seeding_round < 0 ? static_cast<int>(snap.seeding->probs.size()) - 1 : seeding_round;
        for (int s = 0; s < static_cast<int>(rows.size()); ++s) {
          const ImVec2 p = plot::PlotToPixels(xs[rows[s]], ys[rows[s]]);
          if (s < r)
            dl->AddCircle(p, 9.0f, colors().selection, 20, 2.0f);
          else if (s == r)
            dl->AddCircle(p, 12.0f, colors().error, 24, 3.0f);
        }
        plot::EndItem();
      }
    }

    // Centroids: draggable handles with their index.
    bool any_drag = false;
    centroid_pixels_.assign(k, ImVec2(NAN, NAN));
    for (int j = 0; j < k; ++j) {
      if (manual && !snap.placed[j]) continue;
      double x = sites[j].x, y = sites[j].y;
      const bool dragging = plot::DragPoint(j, &x, &y, plot::GetColormapColor(j), 7.0f);
      const ImVec2 px = plot::PlotToPixels(x, y);
      centroid_pixels_[j] = px;
      ImDrawList* dl = plot::GetPlotDrawList();
      dl->AddCircle(px, 8.5f, colors().selection, 20, 2.0f);
      char label[16];
      std::snprintf(label, sizeof label, "%d", j);
      dl->AddText(ImVec2(px.x + 9, px.y - ImGui::GetFontSize() - 2), colors().text, label);
      if (dragging) {
        any_drag = true;
        drag_index_ = j;
        ImGui::SetTooltip("centroid %d: drop to move it; the run continues from there", j);
        // Send the move as the mouse moves so the Voronoi cells and the objective follow.
        if (x != sites[j].x || y != sites[j].y) {
          ViewIntent vi;
          vi.intent.kind = "move_centroid";
          vi.intent.index = j;
          const Eigen::VectorXd moved = scatter_.unproject(snap.centroids.row(j).transpose(), x, y);
          vi.intent.values.assign(moved.data(), moved.data() + moved.size());
          out.push_back(vi);
        }
      }
    }
    if (!any_drag) drag_index_ = -1;

    // Clicks: manual placement, point edits.
    if (!any_drag)
      scatter_clicks(scatter_, data, ctx, manual && unplaced > 0 && snap.iteration == 0, point_edit, "place_centroid",
                     out);
    if (!any_drag && plot::IsPlotHovered() && !ImGui::IsMouseDown(0)) hover_readout(snap, data);
    plot::EndPlot();
  }

  // ---- side column: cluster sizes, centroid images.
  ImGui::SameLine();
  ImGui::BeginChild("##kmeans_side", ImVec2(side_w, avail.y), false);
  const float bars_h = data.is_image() ? avail.y * 0.35f : avail.y;
  fit_text_unformatted("cluster sizes n_j");
  if (plot::BeginPlot("##sizes", ImVec2(-1, bars_h - ImGui::GetTextLineHeightWithSpacing()),
                      plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("cluster", "points", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    for (int j = 0; j < k; ++j) {
      std::vector<double> v(k, 0.0);
      v[j] = j < static_cast<int>(snap.cluster_sizes.size()) ? snap.cluster_sizes[j] : 0.0;
      plot::Spec spec;
      spec.color = plot::GetColormapColor(j);
      spec.flags = plot::ItemFlags_NoLegend;
      char id[32];
      std::snprintf(id, sizeof id, "##size%d", j);
      plot::PlotBars(id, v.data(), k, 0.7, 0.0, spec);
    }
    plot::EndPlot();
  }
  if (data.is_image()) {
    fit_text_unformatted("centroids as images");
    tooltip_text("Each centroid is the mean of its cluster's images: for Fashion-MNIST, an 'average garment'.");
    const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(k)))));
    const float cell = std::min((side_w - 4) / cols, (avail.y - bars_h - 2 * ImGui::GetTextLineHeightWithSpacing()) /
                                                         static_cast<float>((k + cols - 1) / cols));
    std::vector<float> px(static_cast<size_t>(data.image_h) * data.image_w);
    for (int j = 0; j < k; ++j) {
      if (j % cols) ImGui::SameLine(0, 2);
      for (size_t i = 0; i < px.size() && static_cast<Eigen::Index>(i) < snap.centroids.cols(); ++i)
        px[i] = static_cast<float>(snap.centroids(j, static_cast<Eigen::Index>(i)));
      char id[32];
      std::snprintf(id, sizeof id, "##cimg%d", j);
      if (plot::BeginPlot(id, ImVec2(std::max(16.0f, cell - 2), std::max(16.0f, cell - 2)),
                          plot::PlotFlags_CanvasOnly | plot::PlotFlags_NoInputs | plot::PlotFlags_EqualAspect)) {
        plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines,
                        plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
        plot::SetupAxesLimits(0, 1, 0, 1, plot::Cond::Always);
        plot::PlotImageGray("##img", px.data(), data.image_h, data.image_w, 0.0f, 1.0f, plot::Point{0, 0},
                            plot::Point{1, 1});
        plot::PlotText(std::to_string(j).c_str(), 0.1, 0.9, ImVec2(0, 0), plot::GetColormapColor(j));
        plot::EndPlot();
      }
    }
  }
  ImGui::EndChild();
}

CILAB_REGISTER_VIEW(KMeans, KMeansView);

}  // namespace cilab
