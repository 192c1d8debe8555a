// The PCA view: dispatch, controls, and the 2-D / 3-D line fit (see pca_view.h).
// The high-dimensional layout is in pca_view_highd.cpp.
#include "views/dimensionality/pca_view.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include "algorithms/dimensionality/pca.h"
#include "views/plot/plot.h"

#include <Eigen/Dense>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxResidualSegments = 3000;  // residual segments drawn (first rows)
constexpr double kLineGrabPx = 6.0;        // manual mode: the line is grabbed this near (pixels)
constexpr double kLineGrabMinPx = 16.0;    // ... and at least this far from the anchor
ImU32 no_label_colour() { return with_alpha(colors().neutral, 200); }
ImU32 line_colour() { return colors().accent; }
ImU32 axis_colour1() { return plot::GetColormapColor(2); }
ImU32 axis_colour2() { return plot::GetColormapColor(5); }
ImU32 axis_colour3() { return plot::GetColormapColor(4); }

std::string column_name(const Dataset& data, int j) {
  return j < static_cast<int>(data.column_names.size()) ? data.column_names[static_cast<size_t>(j)]
                                                        : "x" + std::to_string(j);
}

// Top eigenvector of a small C (the exact maximiser of u^T C u).
Eigen::VectorXd top_eigenvector(const Eigen::MatrixXd& c) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(c);
  return es.eigenvectors().col(c.cols() - 1);
}

// A direction chosen in the view (dragged handle or line, objective plot): sent as the angle
// (and, for 3-D data, elevation) parameters, so the parameter panel shows the u on screen and
// the module puts u there (PCA::set_live).
void set_direction_intent(const Eigen::VectorXd& u, std::vector<ViewIntent>& out) {
  double angle = 0, elevation = 0;
  pca_angles_from_direction(u, &angle, &elevation);
  out.push_back(ViewIntent::set_param("angle", std::clamp(angle, 0.0, 180.0)));
  if (u.size() >= 3) out.push_back(ViewIntent::set_param("elevation", std::clamp(elevation, -90.0, 90.0)));
}

// Largest t >= 0 with a + t u inside [lo, hi] (2-D plot coordinates); +inf if u is 0.
double room_along(const Eigen::Vector2d& a, const Eigen::Vector2d& u, const Eigen::Vector2d& lo,
                  const Eigen::Vector2d& hi) {
  double t = INFINITY;
  for (int i = 0; i < 2; ++i) {
    if (u[i] > 1e-12) t = std::min(t, (hi[i] - a[i]) / u[i]);
    if (u[i] < -1e-12) t = std::min(t, (lo[i] - a[i]) / u[i]);
  }
  return t;
}

}  // namespace

void PcaView::on_reset() {
  points_version_ = ~0ull;
  scores_serial_ = 0;
  dragging_ = rotating_ = line_drag_ = false;
  hover_row_ = -1;
  samples.clear();
}

Eigen::Matrix3d PcaView::rotation() const {
  const double y = yaw_deg * kPi / 180.0, p = pitch_deg * kPi / 180.0;
  Eigen::Matrix3d rz;  // yaw about x2
  rz << std::cos(y), -std::sin(y), 0, std::sin(y), std::cos(y), 0, 0, 0, 1;
  Eigen::Matrix3d view;  // screen x = x0, screen y = x2 (up), depth = -x1
  view << 1, 0, 0, 0, 0, 1, 0, -1, 0;  // a rotation (det +1): no mirror image
  Eigen::Matrix3d rx;  // pitch: tilt the top towards the viewer
  rx << 1, 0, 0, 0, std::cos(p), -std::sin(p), 0, std::sin(p), std::cos(p);
  return rx * view * rz;
}

void PcaView::draw(const Snapshot& base, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* s = dynamic_cast<const PcaSnapshot*>(&base);
  handle_px_ = anchor_px_ = ImVec2(NAN, NAN);
  if (!s || !ctx.data || ctx.data->rows() == 0 || s->d != ctx.data->cols()) {
    fit_text_disabled("No PCA state to show (load data and reset).");
    return;
  }
  if (s->d == 2 || s->d == 3)
    draw_line_fit(*s, *ctx.data, ctx, out);
  else
    draw_high_d(*s, *ctx.data, ctx, out);
}

void PcaView::draw_controls(const Snapshot& base, const ViewContext& ctx) {
  const auto* s = dynamic_cast<const PcaSnapshot*>(&base);
  if (!s || !ctx.data) return;
  fit_text_disabled("View");
  if (s->d == 2 || s->d == 3) {
    ImGui::Checkbox("residual segments", &show_residuals);
    tooltip_text("Each point x'_i joined to its projection <u, x'_i> u on the line: the residual whose "
                 "mean squared length is tr C - u^T C u.");
    ImGui::Checkbox("principal axes", &show_axes);
    tooltip_text("After the fit: u_k scaled by sqrt(lambda_k), the standard deviation of the data along u_k.");
    if (s->d == 3) {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      float yaw = static_cast<float>(yaw_deg), pitch = static_cast<float>(pitch_deg);
      if (ImGui::SliderFloat("yaw", &yaw, -180, 180, "%.0f deg")) yaw_deg = yaw;
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      if (ImGui::SliderFloat("pitch", &pitch, -89, 89, "%.0f deg")) pitch_deg = pitch;
      tooltip_text("Rotation of the 3-D view (or drag empty space in the plot).");
    }
    return;
  }
  if (!s->fitted) return;
  const int k = s->k();
  const int held = s->scores ? static_cast<int>(s->scores->cols()) : 0;
  if (held >= 2) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    int a = score_x + 1, b = score_y + 1;
    if (ImGui::SliderInt("scatter x: PC", &a, 1, held)) score_x = a - 1;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::SliderInt("scatter y: PC", &b, 1, held)) score_y = b - 1;
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (recon_k < 0) recon_k = std::min(10, std::max(1, k / 2));
  int_slider("reconstruction K", &recon_k, 0, k, k > 50 ? ImGuiSliderFlags_Logarithmic : 0, k_slider_);
  recon_plus_px_ = ImVec2(k_slider_.plus_x, k_slider_.plus_y);
  tooltip_text((std::string("x~ = m + s * (U_K U_K^T x'): reconstruction from the first K components.\n") +
                int_slider_help()).c_str());
  ImGui::Checkbox("log scree plot", &scree_log);
  if (!samples.empty() && ImGui::Button("reset samples")) samples.clear();
}

// ---------------------------------------------------------------- line fit

void PcaView::refresh_points(const PcaSnapshot& s, const Dataset& data, uint64_t version) {
  if (version == points_version_ && points_theme_ == theme_serial() &&
      points_scale_.size() == s.scale.size() && points_scale_ == s.scale)
    return;
  points_version_ = version;
  points_theme_ = theme_serial();  // the colours follow the theme's palette
  points_scale_ = s.scale;
  points_ = data.x;
  for (int j = 0; j < s.d; ++j) points_.col(j) /= s.scale[j];
  const int n = data.rows();
  colours_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int l = data.has_labels() ? data.labels[static_cast<size_t>(i)] : -1;
    colours_[static_cast<size_t>(i)] =
        l >= 0 ? with_alpha(plot::GetColormapColor(l, plot::Colormap::Labels), 200)
               : no_label_colour();
  }
  ++scatter_version_;
}

void PcaView::draw_line_fit(const PcaSnapshot& s, const Dataset& data, const ViewContext& ctx,
                            std::vector<ViewIntent>& out) {
  refresh_points(s, data, ctx.data_version);
  const int d = s.d, n = data.rows();
  const bool three = d == 3;
  const Eigen::VectorXd anchor = s.offset.cwiseQuotient(s.scale);  // m / s in plot coordinates
  const Eigen::VectorXd mean_p = s.mean.cwiseQuotient(s.scale);
  const Eigen::VectorXd u = s.direction;
  const Eigen::MatrixXd rot = rotation();  // dynamic: no fixed/dynamic mixing below
  // Plot coordinates of a point q in PCA coordinates (2-D: q itself; 3-D: rotated about the anchor).
  auto to_plot = [&](const Eigen::VectorXd& q) -> Eigen::Vector2d {
    if (!three) return Eigen::Vector2d(q[0], q[1]);
    const Eigen::VectorXd r = rot * (q - anchor);
    return Eigen::Vector2d(r[0], r[1]);
  };

  // ---- caption
  if (!s.fitted)
    ImGui::TextWrapped(
        "%s", s.manual ? "Manual line fit: drag the line or its handle to choose u, or press "
                         "solve. Step (Right) runs the eigen-decomposition."
                       : "Iteration 0: data and C ready. Step (Right) fits: C = Q Lambda Q^T.");
  else
    fit_text("Fitted: C = Q Lambda Q^T, lambda = (%s)",
                [&] {
                  std::string t;
                  char b[32];
                  for (Eigen::Index i = 0; i < s.eigenvalues.size(); ++i) {
                    std::snprintf(b, sizeof b, "%s%.4g", i ? ", " : "", s.eigenvalues[i]);
                    t += b;
                  }
                  return t;
                }()
                    .c_str());
  char prep[128];
  std::snprintf(prep, sizeof prep, "%s; %s", s.centered ? "centred (x - mean)" : "NOT centred (line through 0)",
                s.standardized ? "standardised (each feature / its std)" : "not standardised");
  same_line_if_fits(ImGui::CalcTextSize(prep).x, ImGui::GetFontSize() * 1.5f);  // wraps in a narrow window
  fit_text_colored(colour_vec(colors().text_dim), "%s", prep);
  tooltip_text("Preprocessing, always explicit: x' = (x - m) / s with m = mean (centre on) or 0, and s = the "
               "standard deviation of each feature (standardise on) or 1. The plot shows x / s, so the "
               "line is m/s + R u.");

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side_w = std::max(ImGui::GetFontSize() * 18, avail.x * 0.34f);
  const float main_w = avail.x - side_w - ImGui::GetStyle().ItemSpacing.x;

  std::string xl, yl;
  auto axis_name = [&](int j) {
    std::string c = column_name(data, j);
    if (s.standardized) c += " / s (std " + [&] { char b[32]; std::snprintf(b, sizeof b, "%.3g", s.scale[j]); return std::string(b); }() + ")";
    return c;
  };
  if (three) {
    xl = "screen x (drag empty space to rotate)";
    yl = "screen y";
  } else {
    xl = axis_name(0);
    yl = axis_name(1);
  }

  const double spread = std::sqrt(std::max(s.total_variance, 1e-300));
  const double handle_r = 2.0 * spread;
  plot::PlotFlags flags = plot::PlotFlags_NoTitle | plot::PlotFlags_EqualAspect;
  plot::AxisFlags xf = 0, yf = 0;
  if (three) {
    xf = yf = plot::AxisFlags_Lock | plot::AxisFlags_NoTickLabels;
  }
  if (plot::BeginPlot("##pca_line", ImVec2(main_w, avail.y), flags)) {
    plot::SetupAxes(xl.c_str(), yl.c_str(), xf, yf);
    if (three) {
      double r = 0.0;
      for (int i = 0; i < n; ++i) r = std::max(r, (points_.row(i).transpose() - anchor).norm());
      r = std::max(r, handle_r) * 1.08;
      plot::SetupAxesLimits(-r, r, -r, r, plot::Cond::Always);
    }

    // Points.
    px_.resize(static_cast<size_t>(n));
    py_.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const Eigen::Vector2d v = to_plot(points_.row(i).transpose());
      px_[static_cast<size_t>(i)] = static_cast<float>(v[0]);
      py_[static_cast<size_t>(i)] = static_cast<float>(v[1]);
    }
    plot::Spec pts;
    pts.colors = colours_.data();
    pts.color =
        colours_.empty() ? no_label_colour() : with_alpha(colours_[0], 255);  // the legend's swatch
    pts.marker_size = n > 5000 ? 2.0f : 3.0f;
    pts.version = scatter_version_ + (three ? static_cast<uint64_t>(std::llround(yaw_deg * 7 + pitch_deg * 131)) : 0);
    plot::PlotScatter(s.standardized ? "data x / s" : "data x", px_.data(), py_.data(), n, pts);

    // Feature axes triad (3-D): where x0, x1, x2 point.
    if (three) {
      plot::Spec ts;
      ts.color = with_alpha(colors().text_dim, 160);
      ts.line_weight = 1.0f;
      ts.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      for (int j = 0; j < 3; ++j) {
        Eigen::VectorXd e = Eigen::VectorXd::Zero(3);
        e[j] = spread;
        const Eigen::VectorXd r = rot * e;
        plot::PlotArrow(0, 0, r[0], r[1], ts);
        plot::PlotText(column_name(data, j).c_str(), r[0] * 1.15, r[1] * 1.15, ImVec2(0, 0),
                       colors().text_dim);
      }
    }

    // Projections onto the line and residual segments.
    const Eigen::VectorXd a = anchor;
    plot::Spec line_spec;
    line_spec.color = line_colour();
    line_spec.line_weight = 2.0f;
    line_spec.flags = plot::ItemFlags_NoFit;
    {
      const double len = 6.0 * spread + (mean_p - anchor).norm();
      const Eigen::Vector2d p0 = to_plot(a - len * u), p1 = to_plot(a + len * u);
      const double xs[2] = {p0[0], p1[0]}, ys[2] = {p0[1], p1[1]};
      plot::PlotLine(s.manual ? "line m + R u (your u)" : "line m + R u_1", xs, ys, 2, line_spec);
    }
    if (show_residuals) {
      plot::Spec rs;
      rs.color = with_alpha(colors().accent, 90);
      rs.flags = plot::ItemFlags_NoFit;
      if (plot::BeginItem("residuals x - x^", rs)) {
        ImDrawList* dl = plot::GetPlotDrawList();
        const int m = std::min(n, kMaxResidualSegments);
        for (int i = 0; i < m; ++i) {
          const Eigen::VectorXd q = points_.row(i).transpose();
          const Eigen::VectorXd proj = a + (q - a).dot(u) * u;
          const Eigen::Vector2d p0 = to_plot(q), p1 = to_plot(proj);
          const ImVec2 s0 = plot::PlotToPixels(p0[0], p0[1]), s1 = plot::PlotToPixels(p1[0], p1[1]);
          dl->AddLine(s0, s1, with_alpha(colors().accent, 90), 1.0f);
          dl->AddCircleFilled(s1, 1.8f, with_alpha(colors().accent, 200), 6);
        }
        plot::EndItem();
      }
    }

    // Principal axes scaled by sqrt(lambda_k).
    if (show_axes && s.fitted && s.components) {
      const ImU32 cols[3] = {axis_colour1(), axis_colour2(), axis_colour3()};
      for (int k = 0; k < std::min(d, s.k()); ++k) {
        const Eigen::VectorXd uk = s.components->row(k).transpose();
        const double sd = std::sqrt(std::max(0.0, s.eigenvalues[k]));
        const Eigen::Vector2d p0 = to_plot(a), p1 = to_plot(a + sd * uk), p2 = to_plot(a - sd * uk);
        plot::Spec as;
        as.color = cols[k];
        as.line_weight = 3.0f;
        as.flags = plot::ItemFlags_NoFit;
        char label[64];
        std::snprintf(label, sizeof label, "sqrt(lambda_%d) u_%d", k + 1, k + 1);
        plot::PlotArrow(label, p0[0], p0[1], p1[0], p1[1], as);
        as.flags |= plot::ItemFlags_NoLegend;
        std::snprintf(label, sizeof label, "##neg%d", k);
        plot::PlotArrow(label, p0[0], p0[1], p2[0], p2[1], as);
      }
    }

    // The mean and the anchor.
    {
      const Eigen::Vector2d mp = to_plot(mean_p);
      plot::Spec ms;
      ms.color = colors().text;
      ms.marker = plot::Marker::Cross;
      ms.marker_size = 7.0f;
      ms.line_weight = 2.5f;
      ms.flags = plot::ItemFlags_NoFit;
      const double mx = mp[0], my = mp[1];
      plot::PlotScatter("data mean", &mx, &my, 1, ms);
      const Eigen::Vector2d ap = to_plot(a);
      anchor_px_ = plot::PlotToPixels(ap[0], ap[1]);
      if (!s.centered) {
        ms.marker = plot::Marker::Circle;
        ms.color = colors().error;
        const double ax = ap[0], ay = ap[1];
        plot::PlotScatter("origin (centring off)", &ax, &ay, 1, ms);
      }
    }

    // The handle at the tip of u: draggable in manual mode. It stays inside the visible view:
    // 2 sqrt(tr C) from the anchor, or less where the view's edge (less a margin) is nearer.
    double tip_r = handle_r;
    if (!three) {
      const plot::Limits lim = plot::GetPlotLimits();
      const double mx = 0.1 * (lim.x_max - lim.x_min), my = 0.1 * (lim.y_max - lim.y_min);
      const Eigen::Vector2d lo(lim.x_min + mx, lim.y_min + my), hi(lim.x_max - mx, lim.y_max - my);
      const Eigen::Vector2d a2(a[0], a[1]), u2(u[0], u[1]);
      if (a2[0] > lo[0] && a2[0] < hi[0] && a2[1] > lo[1] && a2[1] < hi[1]) {
        // The side of the line with more room, so the handle is not squeezed onto the anchor.
        const double fwd = room_along(a2, u2, lo, hi), back = room_along(a2, -u2, lo, hi);
        const double room = std::max(fwd, back);
        if (back > fwd) u_sign_ = -1.0;
        else if (fwd > back) u_sign_ = 1.0;
        if (std::isfinite(room)) tip_r = std::min(tip_r, room);
      }
    }
    // The fitted view (first frame, double-click) includes the anchor and the full-length handle.
    plot::Spec fit_spec;
    fit_spec.flags = plot::ItemFlags_NoLegend;
    if (plot::BeginItem("##u_extent", fit_spec)) {
      if (plot::FitThisFrame())
        for (const double sgn : {1.0, -1.0}) {
          const Eigen::Vector2d e = to_plot(a + sgn * handle_r * u);
          plot::FitPoint(e[0], e[1]);
        }
      plot::EndItem();
    }
    const Eigen::VectorXd tip = a + u_sign_ * tip_r * u;
    Eigen::Vector2d tp = to_plot(tip);
    double hx = tp[0], hy = tp[1];
    bool held = false;
    if (s.manual) {
      held = !line_drag_ && plot::DragPoint(1, &hx, &hy, line_colour(), 7.0f);
      if (held) {
        Eigen::VectorXd nu(d);
        if (!three) {
          nu[0] = hx - a[0];
          nu[1] = hy - a[1];
        } else {
          const Eigen::VectorXd rt = rot * (tip - a);
          Eigen::VectorXd depth_kept(3);
          depth_kept << hx, hy, rt[2];  // keep the depth of the tip
          nu = rot.transpose() * depth_kept;
        }
        if (nu.norm() > 1e-12 * spread) {
          ImGui::SetTooltip("u = (%s)  captured u^T C u = %.4g", [&] {
            std::string t;
            char b[32];
            const Eigen::VectorXd un = nu.normalized();
            for (int j = 0; j < d; ++j) {
              std::snprintf(b, sizeof b, "%s%.3f", j ? ", " : "", un[j]);
              t += b;
            }
            return t;
          }().c_str(), s.covariance ? pca_captured_variance(*s.covariance, nu) : NAN);
          if (hx != tp[0] || hy != tp[1]) set_direction_intent(nu.normalized(), out);
        }
      }
    } else {
      plot::Spec hs;
      hs.color = line_colour();
      hs.marker_size = 4.0f;
      hs.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      plot::PlotScatter("##tip", &hx, &hy, 1, hs);
    }
    handle_px_ = plot::PlotToPixels(hx, hy);
    plot::PlotText("u", hx, hy, ImVec2(12, -12), line_colour());
    dragging_ = held;

    // Manual mode: grabbing the line anywhere (not only its handle) turns it about the anchor
    // instead of panning the plot. Near the line a small grip follows the mouse; pressing it
    // claims the press like the handle does.
    if (s.manual && !held) {
      const Eigen::Vector2d a_plot = to_plot(a), u_plot = to_plot(a + u) - a_plot;
      const ImVec2 ap = plot::PlotToPixels(a_plot[0], a_plot[1]);
      const ImVec2 up = plot::PlotToPixels(a_plot[0] + u_plot[0], a_plot[1] + u_plot[1]);
      Eigen::Vector2d dir(up.x - ap.x, up.y - ap.y);
      const ImVec2 m = ImGui::GetIO().MousePos;
      if (!line_drag_ && dir.norm() > 1e-9 && plot::IsPlotHovered()) {
        dir.normalize();
        const Eigen::Vector2d rel(m.x - ap.x, m.y - ap.y);
        const double along = rel.dot(dir), across = std::abs(rel[0] * dir[1] - rel[1] * dir[0]);
        const double to_handle = std::hypot(m.x - handle_px_.x, m.y - handle_px_.y);
        if (across <= kLineGrabPx && std::abs(along) >= kLineGrabMinPx && to_handle > 14.0) {
          const plot::Point g = plot::PixelsToPlot(ImVec2(static_cast<float>(ap.x + along * dir[0]),
                                                          static_cast<float>(ap.y + along * dir[1])));
          line_grab_x_ = g.x;
          line_grab_y_ = g.y;
          // 3-D: the grip's depth along u is kept while dragging (the line turns in the screen plane).
          const double pu2 = u_plot.squaredNorm();
          const double along_u = pu2 > 0 ? (Eigen::Vector2d(g.x, g.y) - a_plot).dot(u_plot) / pu2 : 0.0;
          line_depth_ = three ? along_u * (rot * u)[2] : 0.0;
          line_drag_ = plot::DragPoint(2, &line_grab_x_, &line_grab_y_, line_colour(), 4.0f);
        }
      } else if (line_drag_) {
        const double gx0 = line_grab_x_, gy0 = line_grab_y_;
        line_drag_ = plot::DragPoint(2, &line_grab_x_, &line_grab_y_, line_colour(), 4.0f);
        if (line_drag_ && (line_grab_x_ != gx0 || line_grab_y_ != gy0)) {
          Eigen::VectorXd nu(d);
          if (!three) {
            nu[0] = line_grab_x_ - a[0];
            nu[1] = line_grab_y_ - a[1];
          } else {
            Eigen::VectorXd screen(3);
            screen << line_grab_x_, line_grab_y_, line_depth_;
            nu = rot.transpose() * screen;
          }
          if (nu.norm() > 1e-12 * spread) set_direction_intent(nu.normalized(), out);
        }
      }
      if (!ImGui::IsMouseDown(0)) line_drag_ = false;
    } else {
      line_drag_ = false;
    }
    dragging_ = held || line_drag_;

    // 3-D: drag empty space to rotate.
    if (three) {
      if (!dragging_ && plot::IsPlotHovered() && ImGui::IsMouseClicked(0)) rotating_ = true;
      if (!ImGui::IsMouseDown(0)) rotating_ = false;
      if (rotating_ && !dragging_) {
        const ImVec2 dm = ImGui::GetIO().MouseDelta;
        yaw_deg += 0.4 * dm.x;
        pitch_deg = std::clamp(pitch_deg + 0.4 * dm.y, -89.0, 89.0);
        if (yaw_deg > 180) yaw_deg -= 360;
        if (yaw_deg < -180) yaw_deg += 360;
      }
    }
    plot::EndPlot();
  }

  ImGui::SameLine();
  ImGui::BeginChild("##pca_side", ImVec2(side_w, avail.y), false);
  // The column's own width (less its scrollbar when the read-outs make it scroll).
  draw_objective(s, ImGui::GetContentRegionAvail().x, std::max(avail.y * 0.55f, min_plot_height() + 2 * ImGui::GetTextLineHeightWithSpacing()), out);
  draw_readouts(s, out);
  ImGui::EndChild();
}

void PcaView::draw_objective(const PcaSnapshot& s, float w, float h, std::vector<ViewIntent>& out) {
  if (!s.covariance) {
    fit_text_disabled("C not kept (d too large): no objective curve.");
    return;
  }
  const Eigen::MatrixXd& c = *s.covariance;
  const int d = s.d;
  const double tr = c.trace();
  double cur_a = 0, cur_e = 0, best_a = 0, best_e = 0;
  pca_angles_from_direction(s.direction, &cur_a, &cur_e);
  const Eigen::VectorXd u1 = top_eigenvector(c);
  pca_angles_from_direction(u1, &best_a, &best_e);
  const double lam1 = pca_captured_variance(c, u1);
  const plot::AxisFlags lock = plot::AxisFlags_Lock;
  if (d == 2) {
    fit_text_unformatted("objective against the angle of u");
    tooltip_text("u(theta) = (cos theta, sin theta). Captured variance f(theta) = u^T C u = (1/n) sum_i <u, x'_i>^2 "
                 "(maximise) and residual tr C - f(theta) = (1/n) sum_i ||x'_i - <u, x'_i> u||^2 (minimise): "
                 "the same problem. f is pi-periodic; its maximum is at the top eigenvector u_1 (Sigma u = lambda u).");
    if (plot::BeginPlot("##pca_objective", ImVec2(w, h - ImGui::GetTextLineHeightWithSpacing()), plot::PlotFlags_NoTitle)) {
      plot::SetupLegend(plot::Location::SouthEast);
      plot::SetupAxes("angle of u (degrees)", "variance", lock, lock);
      plot::SetupAxesLimits(0, 180, 0, tr * 1.08, plot::Cond::Always);
      double th[181], f[181], r[181];
      for (int i = 0; i <= 180; ++i) {
        th[i] = i;
        const Eigen::VectorXd ui = pca_direction_from_angles(2, i, 0);
        f[i] = pca_captured_variance(c, ui);
        r[i] = tr - f[i];
      }
      plot::Spec fs;
      fs.color = line_colour();
      fs.line_weight = 2.0f;
      plot::PlotLine("captured u^T C u", th, f, 181, fs);
      plot::Spec rsp;
      rsp.color = plot::GetColormapColor(0);
      rsp.line_weight = 2.0f;
      plot::PlotLine("residual tr C - u^T C u", th, r, 181, rsp);
      const double tx[2] = {0, 180}, ty[2] = {tr, tr};
      plot::Spec tsp;
      tsp.color = with_alpha(colors().text_dim, 160);
      tsp.line_style = plot::LineStyle::Dashed;
      plot::PlotLine("total tr C", tx, ty, 2, tsp);
      plot::Spec ms;
      ms.color = axis_colour1();
      ms.marker = plot::Marker::Diamond;
      ms.marker_size = 6.0f;
      plot::PlotScatter("max: u_1, lambda_1", &best_a, &lam1, 1, ms);
      const double cx[2] = {cur_a, cur_a}, cy[2] = {0, tr * 1.08};
      plot::Spec cs;
      cs.color = with_alpha(colors().text, 200);
      cs.flags = plot::ItemFlags_NoLegend;
      plot::PlotLine("##current", cx, cy, 2, cs);
      if (s.manual && plot::IsPlotHovered() && ImGui::IsMouseDown(0)) {
        const plot::Point m = plot::GetPlotMousePos();
        set_direction_intent(pca_direction_from_angles(2, std::clamp(m.x, 0.0, 180.0), 0), out);
      }
      plot::EndPlot();
    }
  } else {
    fit_text_unformatted("captured variance u^T C u over all directions");
    tooltip_text(
        "u = (cos e cos a, cos e sin a, sin e); u and -u are the same line, so azimuth a in [0, "
        "180). "
        "Colour = u^T C u. Ring: your u. Diamond: the maximum, the top eigenvector u_1. "
        "Click or drag here (manual mode) to set u.");
    if (plot::BeginPlot("##pca_objective3", ImVec2(w, h - ImGui::GetTextLineHeightWithSpacing()),
                        plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
      plot::SetupLegend(plot::Location::SouthEast);
      plot::SetupAxes("azimuth a (degrees)", "elevation e (degrees)", lock, lock);
      plot::SetupAxesLimits(0, 180, -90, 90, plot::Cond::Always);
      constexpr int kCols = 72, kRows = 36;
      static_assert(kCols * kRows < 128 * 128, "small grid: drawn as quads");
      std::vector<double> grid(static_cast<size_t>(kCols * kRows));
      for (int r = 0; r < kRows; ++r)
        for (int q = 0; q < kCols; ++q) {
          const double az = (q + 0.5) * 180.0 / kCols, el = 90.0 - (r + 0.5) * 180.0 / kRows;
          grid[static_cast<size_t>(r * kCols + q)] = pca_captured_variance(c, pca_direction_from_angles(3, az, el));
        }
      const auto range = std::minmax_element(grid.begin(), grid.end());
      plot::SetupColorBar("u^T C u", *range.first, *range.second);
      plot::PlotHeatmap("##obj", grid.data(), kRows, kCols, 0.0, 0.0, plot::Point{0, -90}, plot::Point{180, 90});
      plot::Spec ms;
      ms.color = axis_colour1();
      ms.marker = plot::Marker::Diamond;
      ms.marker_size = 7.0f;
      plot::PlotScatter("max u_1", &best_a, &best_e, 1, ms);
      plot::Spec cs;
      cs.color = IM_COL32(255, 255, 255, 255);  // on the viridis heatmap: right on every theme
      cs.marker = plot::Marker::Circle;
      cs.marker_size = 6.0f;
      cs.fill_alpha = 0.3f;
      plot::PlotScatter("your u", &cur_a, &cur_e, 1, cs);
      if (plot::IsPlotHovered()) {
        const plot::Point m = plot::GetPlotMousePos();
        const double v = pca_captured_variance(c, pca_direction_from_angles(3, m.x, m.y));
        ImGui::SetTooltip("a = %.1f, e = %.1f: u^T C u = %.4g (%.1f%% of tr C)", m.x, m.y, v, 100.0 * v / tr);
        if (s.manual && ImGui::IsMouseDown(0))
          set_direction_intent(pca_direction_from_angles(3, std::clamp(m.x, 0.0, 180.0), std::clamp(m.y, -90.0, 90.0)), out);
      }
      plot::EndPlot();
    }
  }
}

void PcaView::draw_readouts(const PcaSnapshot& s, std::vector<ViewIntent>& out) {
  const double tr = s.total_variance;
  fit_text("captured  u^T C u         = %.5g", s.captured);
  tooltip_text("Variance of the projections onto the line: u^T C u = (1/n) sum_i <u, x'_i>^2.");
  fit_text("residual  tr C - u^T C u = %.5g", s.residual);
  tooltip_text("Mean squared distance of the points to the line: (1/n) sum_i ||x'_i - <u, x'_i> u||^2.");
  fit_text("total     tr C             = %.5g", tr);
  tooltip_text("tr C = sum of the eigenvalues = total variance; captured + residual = tr C for every u.");
  fit_text("u captures %.2f%% of the variance", tr > 0 ? 100.0 * s.captured / tr : 0.0);
  if (s.covariance) {
    const Eigen::VectorXd u1 = top_eigenvector(*s.covariance);
    const double lam1 = pca_captured_variance(*s.covariance, u1);
    const double cosang = std::min(1.0, std::abs(u1.dot(s.direction)));
    fit_text("best: lambda_1 = %.5g", lam1);
    fit_text("angle between u and u_1: %.1f deg", std::acos(cosang) * 180.0 / kPi);
    tooltip_text("The maximiser of u^T C u over unit u is the top eigenvector u_1 of C (Lagrangian "
                 "u^T C u - lambda (u^T u - 1): C u = lambda u), with value lambda_1.");
  }
  if (ImGui::Button("solve: snap u to u_1")) {
    ViewIntent vi;
    vi.intent.kind = "solve";
    out.push_back(vi);
    // The angle parameters follow (in sync with the u shown).
    if (s.covariance) set_direction_intent(top_eigenvector(*s.covariance), out);
  }
  tooltip_text("Sets u to the top eigenvector of C (the exact maximiser).");
  if (!s.manual) fit_text_disabled("mode = fit: set mode = manual to drag u.");
  ImGui::Separator();
  ImGui::TextWrapped("Preprocessing: %s; %s.",
                     s.centered ? "centred, m = mean" : "not centred, m = 0 (C is the second moment)",
                     s.standardized ? "standardised: each feature divided by its standard deviation s_j"
                                    : "not standardised (s = 1)");
  if (s.zero_std_features > 0) ImGui::TextWrapped("%s", s.message.c_str());
}

CILAB_REGISTER_VIEW(PCA, PcaView);

}  // namespace cilab
