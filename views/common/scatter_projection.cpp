#include "views/common/scatter_projection.h"

#include "algorithms/core/dataset.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace cilab {

bool ScatterProjection::update(const Dataset& data, uint64_t data_version, ProjectionChoice& choice) {
  const int d = data.cols();
  int& feature_x = choice.feature_x;
  int& feature_y = choice.feature_y;
  const ScatterMode mode = choice.mode;
  feature_x = std::clamp(feature_x, 0, std::max(0, d - 1));
  feature_y = std::clamp(feature_y, 0, std::max(0, d - 1));
  const int n = data.rows();
  const bool same_data = data_version == version_ && static_cast<int>(xs_.size()) == n;
  if (same_data && mode == mode_ && feature_x == fx_ && feature_y == fy_) return false;
  if (!same_data) {
    has_axes_ = false;
    if (d > 2) {
      pca_ = principal_axes_2d(data.x, kProjectionRows);
      has_axes_ = true;
    }
  }
  version_ = data_version;
  mode_ = mode;
  fx_ = feature_x;
  fy_ = feature_y;
  xs_.resize(n);
  ys_.resize(n);
  if (d == 1) {
    for (int i = 0; i < n; ++i) {
      xs_[i] = static_cast<float>(data.x(i, 0));
      ys_[i] = 0.0f;
    }
  } else if (uses_features()) {
    for (int i = 0; i < n; ++i) {
      xs_[i] = static_cast<float>(data.x(i, fx_));
      ys_[i] = static_cast<float>(data.x(i, fy_));
    }
  } else {
    const Eigen::MatrixXd s = project_2d(pca_, data.x);
    for (int i = 0; i < n; ++i) {
      xs_[i] = static_cast<float>(s(i, 0));
      ys_[i] = static_cast<float>(s(i, 1));
    }
  }
  return true;
}

namespace {

// Centre of the last ImGui item.
ImVec2 last_item_centre() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
}

}  // namespace

bool ScatterProjection::draw_controls(const Dataset& data, ProjectionChoice& choice, const char* principal_help) {
  choice.widgets = ProjectionChoice::Widgets();
  const int d = data.cols();
  if (d <= 2) return false;
  const ProjectionChoice before = choice;
  int proj = static_cast<int>(choice.mode);
  ImGui::RadioButton("principal axes", &proj, 1);
  choice.widgets.principal = last_item_centre();
  tooltip_text(principal_help);
  ImGui::SameLine();
  ImGui::RadioButton("two features", &proj, 0);
  choice.widgets.features = last_item_centre();
  choice.mode = static_cast<ScatterMode>(proj);
  if (choice.mode == ScatterMode::Features) {
    auto name = [&](int j) {
      return j < static_cast<int>(data.column_names.size()) ? data.column_names[static_cast<size_t>(j)]
                                                            : "x" + std::to_string(j);
    };
    auto feature_combo = [&](const char* label, int& f, ImVec2& centre) {
      f = std::clamp(f, 0, d - 1);
      const float width = ImGui::GetFontSize() * 10;
      const ImVec2 at = ImGui::GetCursorScreenPos();
      centre = ImVec2(at.x + width * 0.5f, at.y + ImGui::GetFrameHeight() * 0.5f);  // the combo's box
      ImGui::SetNextItemWidth(width);
      if (ImGui::BeginCombo(label, name(f).c_str())) {
        for (int j = 0; j < d; ++j)
          if (ImGui::Selectable(name(j).c_str(), j == f)) f = j;
        ImGui::EndCombo();
      }
    };
    feature_combo("x feature", choice.feature_x, choice.widgets.x_combo);
    feature_combo("y feature", choice.feature_y, choice.widgets.y_combo);
  }
  return choice.mode != before.mode ||
         (choice.mode == ScatterMode::Features &&
          (choice.feature_x != before.feature_x || choice.feature_y != before.feature_y));
}

int ScatterProjection::hovered_row() const {
  const int n = static_cast<int>(xs_.size());
  if (n == 0 || n > kHoverMaxPoints) return -1;
  const int best = plot::NearestPointToMouse(xs_.data(), ys_.data(), n, 10.0f);
  if (best < 0) return -1;
  const ImVec2 p = plot::PlotToPixels(xs_[best], ys_[best]);
  plot::GetPlotDrawList()->AddCircle(p, 6.0f, colors().selection, 16, 2.0f);
  return best;
}

void row_tooltip_header(const Dataset& data, int row) {
  fit_text("row %d", row);
  if (data.has_labels() && data.labels[row] >= 0) {
    const int l = data.labels[row];
    fit_text_colored(legible(plot::GetColormapColor(l, plot::Colormap::Labels)), "label: %s",
                       l < static_cast<int>(data.class_names.size()) ? data.class_names[l].c_str()
                                                                     : std::to_string(l).c_str());
  }
}

void scatter_clicks(const ScatterProjection& scatter, const Dataset& data, const ViewContext& ctx, bool placing,
                    bool point_edit, const char* place_kind, std::vector<ViewIntent>& out) {
  if (!plot::IsPlotHovered()) return;
  const int d = data.cols();
  const plot::Point m = plot::GetPlotMousePos();
  if (placing && plot::IsPlotClicked(0) && !point_edit) {
    ViewIntent vi;
    vi.intent.kind = place_kind;
    vi.intent.index = -1;
    const Eigen::VectorXd p = scatter.unproject(scatter.click_origin(data), m.x, m.y);
    vi.intent.values.assign(p.data(), p.data() + p.size());
    out.push_back(vi);
  } else if (point_edit && d == 2 && plot::IsPlotClicked(0)) {
    ViewIntent vi;
    vi.kind = ViewIntent::Kind::AddPoint;
    vi.x = m.x;
    vi.y = m.y;
    out.push_back(vi);
  } else if (ctx.edit_points && d == 2 && plot::IsPlotClicked(1)) {
    ViewIntent vi;
    vi.kind = ViewIntent::Kind::RemovePoint;
    vi.x = m.x;
    vi.y = m.y;
    out.push_back(vi);
  }
}

void voronoi_regions(const std::vector<Vec2>& sites, int fill_alpha, const char* id_prefix) {
  const int k = static_cast<int>(sites.size());
  const plot::Limits lim = plot::GetPlotLimits();
  const double pad_x = lim.x_max - lim.x_min, pad_y = lim.y_max - lim.y_min;
  for (int j = 0; j < k; ++j) {
    const std::vector<Vec2> cell =
        voronoi_cell(sites, j, lim.x_min - pad_x, lim.y_min - pad_y, lim.x_max + pad_x, lim.y_max + pad_y);
    if (cell.size() < 3) continue;
    std::vector<double> cx(cell.size()), cy(cell.size());
    for (size_t i = 0; i < cell.size(); ++i) cx[i] = cell[i].x, cy[i] = cell[i].y;
    plot::Spec spec;
    spec.color = with_alpha(plot::GetColormapColor(j), 110);
    spec.line_weight = 1.0f;
    spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
    const ImU32 fill = with_alpha(plot::GetColormapColor(j), fill_alpha);
    if (id_prefix) {
      const std::string id = id_prefix + std::to_string(j);
      plot::PlotPolygon(id.c_str(), cx.data(), cy.data(), static_cast<int>(cell.size()), fill, spec);
    } else {
      plot::PlotPolygon(cx.data(), cy.data(), static_cast<int>(cell.size()), fill, spec);
    }
  }
}

Eigen::Vector2d ScatterProjection::project(const Eigen::VectorXd& p) const {
  if (p.size() == 1) return Eigen::Vector2d(p(0), 0.0);
  if (uses_features()) return Eigen::Vector2d(p(fx_), p(fy_));
  const Eigen::RowVectorXd c = p.transpose() - pca_.mean;
  return Eigen::Vector2d(c.dot(pca_.axes.col(0)), c.dot(pca_.axes.col(1)));
}

Eigen::VectorXd ScatterProjection::unproject(const Eigen::VectorXd& base, double sx, double sy) const {
  Eigen::VectorXd p = base;
  if (p.size() == 1) {
    p(0) = sx;
  } else if (uses_features()) {
    p(fx_) = sx;
    p(fy_) = sy;
  } else {
    const Eigen::Vector2d now = project(base);
    p += pca_.axes * (Eigen::Vector2d(sx, sy) - now);
  }
  return p;
}

Eigen::Matrix2d ScatterProjection::project_covariance(const Eigen::MatrixXd& cov) const {
  Eigen::Matrix2d s = Eigen::Matrix2d::Zero();
  if (cov.rows() == 1) {
    s(0, 0) = cov(0, 0);
  } else if (uses_features()) {
    s << cov(fx_, fx_), cov(fx_, fy_), cov(fy_, fx_), cov(fy_, fy_);
  } else {
    const Eigen::MatrixXd ca = cov * pca_.axes;  // d x 2
    s = pca_.axes.transpose() * ca;              // P Sigma P^T with P = axes^T
  }
  return s;
}

Eigen::VectorXd ScatterProjection::click_origin(const Dataset& data) const {
  return uses_features() || data.cols() <= 2 ? Eigen::VectorXd(data.x.colwise().mean().transpose())
                                             : Eigen::VectorXd(pca_.mean.transpose());
}

std::string ScatterProjection::axis_label(int axis, const Dataset& data) const {
  const int d = data.cols();
  auto name = [&](int j) {
    return j < static_cast<int>(data.column_names.size()) ? data.column_names[j] : "x" + std::to_string(j);
  };
  if (d == 1) return axis == 0 ? name(0) : std::string();
  if (uses_features()) return name(axis == 0 ? fx_ : fy_);
  char buf[128];
  const double share = 100.0 * pca_.variance(axis) / std::max(1e-300, pca_.total_variance);
  if (axis == 0)
    std::snprintf(buf, sizeof buf, "PC1: principal axis 1 (%.1f%% of the variance%s)", share,
                  pca_.rows_used < data.rows() ? ", estimated" : "");
  else
    std::snprintf(buf, sizeof buf, "PC2 (%.1f%%)", share);
  return buf;
}

void label_legend(const Dataset& data, std::vector<char>& shown) {
  const int classes = data.num_classes();
  shown.assign(static_cast<size_t>(std::max(0, classes)), 1);
  for (int c = 0; c < classes; ++c) {
    std::string label = c < static_cast<int>(data.class_names.size()) && !data.class_names[static_cast<size_t>(c)].empty()
                            ? data.class_names[static_cast<size_t>(c)]
                            : "class " + std::to_string(c);
    label += "##label" + std::to_string(c);
    plot::Spec spec;
    spec.color = plot::GetColormapColor(c, plot::Colormap::Labels);
    spec.marker = kLabelMarker;
    spec.flags = plot::ItemFlags_NoFit;
    shown[static_cast<size_t>(c)] = plot::PlotLegendEntry(label.c_str(), spec) ? 1 : 0;
  }
}

void cluster_legend(const char* noun, int k, std::vector<char>& shown) {
  shown.assign(static_cast<size_t>(std::max(0, k)), 1);
  for (int j = 0; j < k; ++j) {
    const std::string label = std::string(noun) + " " + std::to_string(j) + "##cluster" + std::to_string(j);
    plot::Spec spec;
    spec.color = plot::GetColormapColor(j);
    spec.marker = plot::Marker::Circle;
    spec.flags = plot::ItemFlags_NoFit;
    shown[static_cast<size_t>(j)] = plot::PlotLegendEntry(label.c_str(), spec) ? 1 : 0;
  }
}

bool publish_colours(std::vector<ImU32>& shown, std::vector<ImU32>& next, uint64_t& version) {
  if (next == shown) return false;
  shown.swap(next);
  ++version;
  return true;
}

void label_colours(const Dataset& data, const std::vector<char>& shown, int alpha, ImU32 unlabelled,
                   std::vector<ImU32>& out) {
  const int n = data.rows();
  out.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int c = i < static_cast<int>(data.labels.size()) ? data.labels[static_cast<size_t>(i)] : -1;
    if (c < 0) {
      out[static_cast<size_t>(i)] = unlabelled;
    } else {
      const bool on = c >= static_cast<int>(shown.size()) || shown[static_cast<size_t>(c)];
      out[static_cast<size_t>(i)] = with_alpha(plot::GetColormapColor(c, plot::Colormap::Labels), on ? alpha : 0);
    }
  }
}

}  // namespace cilab
