#include "views/common/curves.h"
#include "views/svd/power_iteration_view.h"
#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include "algorithms/svd/power_iteration.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

ImU32 v_colour() { return plot::GetColormapColor(1); }     // v_t
ImU32 w_colour() { return plot::GetColormapColor(0); }     // w = A v
ImU32 u1_colour() { return plot::GetColormapColor(2); }    // top eigenvector
ImU32 u2_colour() { return plot::GetColormapColor(5); }    // second eigenvector
ImU32 pred_colour() { return plot::GetColormapColor(3); }  // predicted rate
ImU32 gray_colour() { return colors().neutral; }
constexpr double kPi = 3.14159265358979323846;

std::string fmt(double v) { return format_number(v, "%.6g"); }

std::string caption(const PowerSnapshot& s, const ModuleInfo* info) {
  char buf[256];
  const std::string at = position_label(s, info, true);
  if (s.phase == 1)
    std::snprintf(buf, sizeof buf, "%s: w = A v_%d  (||w|| = %s)", at.c_str(), s.iteration, fmt(s.av.norm()).c_str());
  else if (s.iteration == 0)
    std::snprintf(buf, sizeof buf, "%s: start vector v_0. Sub-step: multiply w = A v; then normalise.", at.c_str());
  else if (!s.components.empty() && s.components.back().start_iteration == s.iteration && s.component > 0)
    std::snprintf(buf, sizeof buf, "%s: deflated, component %d starts from a new v_0", at.c_str(), s.component + 1);
  else
    std::snprintf(buf, sizeof buf, "%s, normalise: v_%d = w / ||w||", at.c_str(), s.iteration);
  return buf;
}

// Predicted angle atan(tan theta_0 r^t), or NaN below the rounding floor.
double predicted_angle(double theta0, double rate, int t) {
  const double v = std::atan(std::tan(theta0) * std::pow(rate, t));
  return v > 1e-17 ? v : NAN;
}

// Arrow with a legend entry and a fixed colour.
void arrow(const char* label, double x0, double y0, double x1, double y1, ImU32 color, float weight = 2.5f) {
  plot::Spec spec;
  spec.color = color;
  spec.line_weight = weight;
  plot::PlotArrow(label, x0, y0, x1, y1, spec);
}

// A line through the origin along (x, y), from -len to +len.
void axis_line(const char* label, double x, double y, double len, ImU32 color, plot::LineStyle style) {
  const double xs[2] = {-len * x, len * x}, ys[2] = {-len * y, len * y};
  plot::Spec spec;
  spec.color = color;
  spec.line_weight = 1.5f;
  spec.line_style = style;
  plot::PlotLine(label, xs, ys, 2, spec);
}

// Orthographic 3-D -> 2-D: yaw about e3, then pitch towards the viewer.
struct Projector {
  double cy, sy, cp, sp;
  Projector(double yaw_deg, double pitch_deg)
      : cy(std::cos(yaw_deg * kPi / 180)), sy(std::sin(yaw_deg * kPi / 180)),
        cp(std::cos(pitch_deg * kPi / 180)), sp(std::sin(pitch_deg * kPi / 180)) {}
  plot::Point operator()(double x, double y, double z) const {
    const double rx = cy * x - sy * y, ry = sy * x + cy * y;
    return {rx, cp * z - sp * ry};
  }
};

// Signed vector as a gray image (mid-gray = 0, symmetric range).
void vector_image(const char* title, const char* help, const char* id, const Eigen::VectorXd& v, int h, int w,
                  ImVec2 size) {
  ImGui::BeginGroup();
  fit_text_unformatted(title);
  tooltip_text(help);
  std::vector<float> px(static_cast<size_t>(h) * w);
  float l = 0.0f;
  for (size_t i = 0; i < px.size() && static_cast<Eigen::Index>(i) < v.size(); ++i) {
    px[i] = static_cast<float>(v[static_cast<Eigen::Index>(i)]);
    l = std::max(l, std::abs(px[i]));
  }
  if (!(l > 0)) l = 1.0f;
  if (plot::BeginPlot(id, ImVec2(size.x, size.y - ImGui::GetTextLineHeightWithSpacing()),
                      plot::PlotFlags_CanvasOnly | plot::PlotFlags_EqualAspect)) {
    plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines,
                    plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
    plot::SetupAxesLimits(0, w, 0, h, plot::Cond::Once);
    // A vector of another image shape (new data) refits the panel, as the SVD panels do.
    plot::SetupAxesFitKey((static_cast<uint64_t>(static_cast<uint32_t>(h)) << 32) | static_cast<uint32_t>(w));
    plot::PlotImageGray("##v", px.data(), h, w, -l, l, plot::Point{0, 0},
                        plot::Point{static_cast<double>(w), static_cast<double>(h)});
    plot::EndPlot();
  }
  ImGui::EndGroup();
}

}  // namespace

void PowerIterationView::on_reset() {
  dragging_ = false;
  arrow_tip_ = ImVec2(NAN, NAN);
}

void PowerIterationView::draw_controls(const Snapshot& snap_base, const ViewContext&) {
  const auto* s = dynamic_cast<const PowerSnapshot*>(&snap_base);
  if (!s || !s->problem) return;
  fit_text_disabled("View");
  const int d = s->problem->d();
  if (d == 3) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    ImGui::SliderFloat("yaw", &yaw_deg, -180.0f, 180.0f, "%.0f deg");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    ImGui::SliderFloat("pitch", &pitch_deg, -89.0f, 89.0f, "%.0f deg");
  }
  if (d == 2 || d == 3) {
    ImGui::Checkbox("trail of past iterates", &show_trail);
    if (show_trail) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
      ImGui::SliderInt("##power_trail", &trail_length, 2, 200, "%d its");
    }
  }
  if (d == 2) {
    ImGui::Checkbox("image of the unit circle under A", &show_image_of_circle);
    tooltip_text("The ellipse {A x / |lambda_1| : ||x|| = 1}: its axes are the eigenvectors, their lengths "
                 "|lambda_i| / |lambda_1|. Multiplying by A stretches v towards u_1.");
  }
  ImGui::Checkbox("spectrum on a log axis", &log_spectrum);
}

void PowerIterationView::draw(const Snapshot& snap_base, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const PowerSnapshot*>(&snap_base);
  if (!sp || !sp->problem || !sp->stage || sp->v.size() == 0) {
    fit_text_disabled("No power-iteration state to show yet.");
    return;
  }
  const PowerSnapshot& s = *sp;
  const PowerProblem& pr = *s.problem;
  const PowerStage& st = *s.stage;

  // ---- caption and read-outs.
  // The read-outs flow: each goes on the current line if it fits, else on the next (a narrow
  // window wraps them instead of cutting them off). Hover any for its meaning.
  header_.clear();
  auto item = [&](const std::string& text, const char* tip, bool first, bool disabled = false) {
    if (!first) same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x, ImGui::GetFontSize());
    if (disabled) fit_text_disabled("%s", text.c_str());
    else fit_text_unformatted(text.c_str());
    tooltip_text(tip);
    header_.push_back(text);
  };
  char buf[256];
  item(caption(s, ctx.info), "Power iteration: v_{t+1} = A v_t / ||A v_t||, two sub-steps (multiply, normalise). "
                   "v_t -> +-u_1 when <v_0, u_1> != 0 and |lambda_1| > |lambda_2|.", true);
  std::snprintf(buf, sizeof buf, "A: %s; component %d of %d", pr.what.c_str(), s.component + 1,
                std::max(s.n_components, s.component + 1));
  item(buf, "The matrix and the eigenpair being computed (deflation finds them one after another).", false, true);
  if (!s.message.empty()) fit_text_colored(colour_vec(colors().warning), "%s", s.message.c_str());
  const double rho = s.metrics.size() > 0 ? s.metrics[0] : NAN;
  const double theta = s.metrics.size() > 1 ? s.metrics[1] : NAN;
  const double resid = s.metrics.size() > 2 ? s.metrics[2] : NAN;
  // Component j (1-based) works on the deflated A_j, whose top eigenpair is (lambda_j, u_j) of A
  // and whose rate is |lambda_{j+1} / lambda_j|: name them by j, not by 1 and 2.
  const int j = s.component + 1;
  item("rho_t = " + fmt(rho), "Rayleigh quotient rho_t = v_t^T A_j v_t (||v_t|| = 1): the eigenvalue estimate. It "
                              "tends to lambda_j.", true);
  std::snprintf(buf, sizeof buf, "lambda_%d = %s", j, fmt(st.eigvals.size() ? st.eigvals[0] : NAN).c_str());
  item(buf, j == 1 ? "Top eigenvalue (largest |lambda|) of A, from Eigen's SelfAdjointEigenSolver."
                   : "Top eigenvalue of the deflated matrix A_j (the found components removed) = lambda_j of A, "
                     "from Eigen's SelfAdjointEigenSolver.", false);
  std::snprintf(buf, sizeof buf, "theta_t = %s rad (%.3g deg)", fmt(theta).c_str(), theta * 180.0 / kPi);
  item(buf, "Angle between v_t and the line of u_j, the top eigenvector of the current (deflated) matrix, "
            "from Eigen: atan2(||v - (v.u)u||, |v.u|).", false);
  std::snprintf(buf, sizeof buf, "|lambda_%d/lambda_%d| = %s", j + 1, j, fmt(st.rate).c_str());
  item(buf, "The convergence rate of this component: tan theta_t <= |lambda_{j+1}/lambda_j|^t tan theta_0 "
            "(equality in 2-D). Eigen-gap = 1 - |lambda_{j+1}/lambda_j|.", false);
  item("residual = " + fmt(resid), "||A_j v_t - rho_t v_t||: zero exactly when v_t is an eigenvector.", false);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left_w = std::max(200.0f, avail.x * 0.5f);
  draw_vector_panel(s, ctx, out, ImVec2(left_w, avail.y));
  ImGui::SameLine();
  draw_plots(s, ctx, ImVec2(avail.x - left_w - ImGui::GetStyle().ItemSpacing.x, avail.y));
}

void PowerIterationView::draw_vector_panel(const PowerSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out,
                                  ImVec2 size) {
  const PowerProblem& pr = *s.problem;
  const PowerStage& st = *s.stage;
  const int d = pr.d();
  const double l1 = std::abs(st.eigvals[0]) > 0 ? std::abs(st.eigvals[0]) : 1.0;
  arrow_tip_ = ImVec2(NAN, NAN);
  ImGui::BeginChild("##power_vector", size, false);
  ImGui::PushTextWrapPos(0.0f);  // captions wrap in a narrow column

  // Past iterates from the stored history (same component only).
  std::vector<Eigen::VectorXd> past;
  if ((d == 2 || d == 3) && show_trail && ctx.stored_snapshot) {
    const int start = s.component < static_cast<int>(s.components.size())
                          ? s.components[static_cast<size_t>(s.component)].start_iteration
                          : 0;
    for (int it = std::max(start, s.iteration - trail_length); it < s.iteration; ++it) {
      const std::shared_ptr<const Snapshot> o = ctx.stored_snapshot(it);
      const auto* ps = o ? dynamic_cast<const PowerSnapshot*>(o.get()) : nullptr;
      if (ps && ps->v.size() == d && ps->component == s.component) past.push_back(ps->v);
    }
    past.push_back(s.v);
  }
  // The eigenvector line closest to v's side (sign-aligned for display).
  const Eigen::VectorXd u1 = st.top.dot(s.v) >= 0 ? Eigen::VectorXd(st.top) : Eigen::VectorXd(-st.top);

  if (d == 2) {
    const std::string xl = pr.feature_names.size() > 0 ? pr.feature_names[0] : "e1";
    const std::string yl = pr.feature_names.size() > 1 ? pr.feature_names[1] : "e2";
    fit_text_unformatted("the iterate v_t in the plane (drag its tip to restart from there)");
    tooltip_text("Unit vectors live on the unit circle. Each multiply stretches v along u_1 by |lambda_1| and along "
                 "u_2 by |lambda_2|; normalising brings it back to the circle, a little closer to u_1.");
    if (plot::BeginPlot("##power_plane", ImVec2(-1, -1), plot::PlotFlags_EqualAspect | plot::PlotFlags_NoTitle)) {
      plot::SetupAxes(xl.c_str(), yl.c_str());
      plot::SetupAxesLimits(-1.35, 1.35, -1.35, 1.35, plot::Cond::Once);
      // Unit circle and the image of the circle under A / |lambda_1|.
      std::vector<double> cx(129), cy(129), ex(129), ey(129);
      for (int i = 0; i <= 128; ++i) {
        const double t = 2 * kPi * i / 128;
        cx[static_cast<size_t>(i)] = std::cos(t);
        cy[static_cast<size_t>(i)] = std::sin(t);
        const Eigen::Vector2d x(std::cos(t), std::sin(t));
        const Eigen::Vector2d y = st.a.topLeftCorner(2, 2) * x / l1;
        ex[static_cast<size_t>(i)] = y.x();
        ey[static_cast<size_t>(i)] = y.y();
      }
      plot::Spec circ;
      circ.color = gray_colour();
      circ.line_weight = 1.0f;
      circ.flags = plot::ItemFlags_NoLegend;
      plot::PlotLine("##unit circle", cx.data(), cy.data(), 129, circ);
      if (show_image_of_circle) {
        plot::Spec el;
        el.color = with_alpha(colors().text_dim, 170);
        el.line_weight = 1.0f;
        el.line_style = plot::LineStyle::Dashed;
        plot::PlotLine("A x / |lambda_1|, ||x|| = 1", ex.data(), ey.data(), 129, el);
      }
      axis_line("u_1 (Eigen)", st.top[0], st.top[1], 1.3, u1_colour(), plot::LineStyle::Solid);
      if (pr.eigvecs.cols() > 1 && s.component == 0)
        axis_line("u_2 (Eigen)", pr.eigvecs(0, 1), pr.eigvecs(1, 1), 1.3, u2_colour(),
                  plot::LineStyle::Dashed);
      if (past.size() >= 2) {
        std::vector<double> tx, ty;
        for (const Eigen::VectorXd& v : past) {
          tx.push_back(v[0]);
          ty.push_back(v[1]);
        }
        plot::Spec tr;
        tr.color = v_colour();
        tr.line_weight = 2.0f;
        tr.marker = plot::Marker::Circle;
        tr.marker_size = 2.5f;
        tr.flags = plot::ItemFlags_NoLegend;
        plot::PlotTrail("##trail", tx.data(), ty.data(), static_cast<int>(tx.size()), tr);
      }
      if (s.phase == 1) arrow("w = A v / |lambda_1|", 0, 0, s.av[0] / l1, s.av[1] / l1, w_colour());
      arrow("v_t", 0, 0, s.v[0], s.v[1], v_colour(), 3.0f);
      double x = s.v[0], y = s.v[1];
      const bool drag = plot::DragPoint(0, &x, &y, v_colour(), 6.0f);
      arrow_tip_ = plot::PlotToPixels(s.v[0], s.v[1]);
      if (drag) {
        dragging_ = true;
        ImGui::SetTooltip("drop to restart the iteration from this direction");
        if ((x != s.v[0] || y != s.v[1]) && (x * x + y * y) > 1e-12) {
          ViewIntent vi;
          vi.intent.kind = "set_vector";
          vi.intent.values = {x, y};
          out.push_back(vi);
        }
      } else {
        dragging_ = false;
      }
      plot::PlotText("u_1", 1.2 * st.top[0], 1.2 * st.top[1], ImVec2(0, -10), u1_colour());
      plot::EndPlot();
    }
  } else if (d == 3) {
    const Projector proj(yaw_deg, pitch_deg);
    fit_text_unformatted("the iterate v_t in 3-D (rotate with yaw / pitch in the controls)");
    tooltip_text("Orthographic view. Unit vectors live on the unit sphere (outline). v_t turns towards the line of u_1.");
    if (plot::BeginPlot("##power_space", ImVec2(-1, -1), plot::PlotFlags_EqualAspect | plot::PlotFlags_NoTitle)) {
      plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines,
                      plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
      plot::SetupAxesLimits(-1.4, 1.4, -1.4, 1.4, plot::Cond::Once);
      std::vector<double> cx(129), cy(129), qx(129), qy(129);
      for (int i = 0; i <= 128; ++i) {
        const double t = 2 * kPi * i / 128;
        cx[static_cast<size_t>(i)] = std::cos(t);
        cy[static_cast<size_t>(i)] = std::sin(t);
        const plot::Point q = proj(std::cos(t), std::sin(t), 0.0);
        qx[static_cast<size_t>(i)] = q.x;
        qy[static_cast<size_t>(i)] = q.y;
      }
      plot::Spec circ;
      circ.color = gray_colour();
      circ.line_weight = 1.0f;
      circ.flags = plot::ItemFlags_NoLegend;
      plot::PlotLine("##unit sphere", cx.data(), cy.data(), 129, circ);
      circ.line_style = plot::LineStyle::Dotted;
      circ.flags = plot::ItemFlags_NoLegend;
      plot::PlotLine("##equator", qx.data(), qy.data(), 129, circ);
      const char* names[3] = {"e1", "e2", "e3"};
      for (int a = 0; a < 3; ++a) {
        const plot::Point o = proj(0, 0, 0);
        const plot::Point e = proj(a == 0 ? 1.1 : 0, a == 1 ? 1.1 : 0, a == 2 ? 1.1 : 0);
        const double xs[2] = {o.x, e.x}, ys[2] = {o.y, e.y};
        plot::Spec ax;
        ax.color = with_alpha(colors().text_dim, 140);
        ax.line_weight = 1.0f;
        ax.flags = plot::ItemFlags_NoLegend;
        char id[16];
        std::snprintf(id, sizeof id, "##axis%d", a);
        plot::PlotLine(id, xs, ys, 2, ax);
        plot::PlotText(pr.feature_names.size() > static_cast<size_t>(a)
                           ? pr.feature_names[static_cast<size_t>(a)].c_str()
                           : names[a],
                       e.x, e.y, ImVec2(0, -8), colors().text_dim);
      }
      auto line3 = [&](const char* label, const Eigen::VectorXd& u, ImU32 color, plot::LineStyle style) {
        const plot::Point a = proj(-1.3 * u[0], -1.3 * u[1], -1.3 * u[2]);
        const plot::Point b = proj(1.3 * u[0], 1.3 * u[1], 1.3 * u[2]);
        const double xs[2] = {a.x, b.x}, ys[2] = {a.y, b.y};
        plot::Spec spec;
        spec.color = color;
        spec.line_weight = 1.5f;
        spec.line_style = style;
        plot::PlotLine(label, xs, ys, 2, spec);
      };
      line3("u_1 (Eigen)", st.top, u1_colour(), plot::LineStyle::Solid);
      if (s.component == 0)
        line3("u_2 (Eigen)", pr.eigvecs.col(1), u2_colour(), plot::LineStyle::Dashed);
      if (past.size() >= 2) {
        std::vector<double> tx, ty;
        for (const Eigen::VectorXd& v : past) {
          const plot::Point q = proj(v[0], v[1], v[2]);
          tx.push_back(q.x);
          ty.push_back(q.y);
        }
        plot::Spec tr;
        tr.color = v_colour();
        tr.line_weight = 2.0f;
        tr.flags = plot::ItemFlags_NoLegend;
        plot::PlotTrail("##trail3", tx.data(), ty.data(), static_cast<int>(tx.size()), tr);
      }
      const plot::Point o = proj(0, 0, 0);
      if (s.phase == 1) {
        const plot::Point w = proj(s.av[0] / l1, s.av[1] / l1, s.av[2] / l1);
        arrow("w = A v / |lambda_1|", o.x, o.y, w.x, w.y, w_colour());
      }
      const plot::Point v = proj(s.v[0], s.v[1], s.v[2]);
      arrow("v_t", o.x, o.y, v.x, v.y, v_colour(), 3.0f);
      arrow_tip_ = plot::PlotToPixels(v.x, v.y);
      plot::EndPlot();
    }
  } else if (pr.image_h > 0 && pr.image_w > 0 && pr.image_h * pr.image_w == d) {
    const int h = pr.image_h, w = pr.image_w;
    const int found = static_cast<int>(s.found.cols());
    const int across = s.phase == 1 ? 3 : 2;
    const float cell = std::min((size.x - across * ImGui::GetStyle().ItemSpacing.x) / across,
                                size.y * (found > 0 ? 0.55f : 0.9f));
    vector_image("v_t", "The iterate as an image: mid-gray = 0, light = positive, dark = negative.", "##power_v",
                 s.v, h, w, ImVec2(cell, cell));
    ImGui::SameLine();
    vector_image("u_1 (Eigen)", "Top eigenvector of the current matrix, sign matched to v_t.", "##power_u1", u1, h, w,
                 ImVec2(cell, cell));
    if (s.phase == 1) {
      ImGui::SameLine();
      vector_image("w = A v", "The product before normalising.", "##power_w", s.av, h, w, ImVec2(cell, cell));
    }
    if (found > 0) {
      fit_text_unformatted("found by deflation: u_hat_1 ...");
      tooltip_text("The eigenvectors found so far; each is the power iteration's limit on the deflated matrix.");
      const float small = std::min(size.x / std::max(1, std::min(found, 8)) - 6.0f, size.y * 0.3f);
      for (int j = 0; j < found; ++j) {
        if (j % 8) ImGui::SameLine(0, 4);
        char title[32], id[32];
        std::snprintf(title, sizeof title, "u_hat_%d", j + 1);
        std::snprintf(id, sizeof id, "##found%d", j);
        vector_image(title, "A found eigenvector (mid-gray = 0).", id, s.found.col(j), h, w,
                     ImVec2(std::max(24.0f, small), std::max(24.0f, small)));
      }
    }
  } else {
    fit_text_unformatted("components of v_t and of the top eigenvector u_1");
    tooltip_text("d > 3: the vectors as bar charts over the coordinates (features). v_t approaches +-u_1.");
    if (plot::BeginPlot("##power_bars", ImVec2(-1, -1), plot::PlotFlags_NoTitle)) {
      plot::SetupAxes("coordinate i (feature)", "value", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
      plot::Spec sv;
      sv.color = v_colour();
      plot::PlotBars("v_t", s.v.data(), d, 0.4, -0.2, sv);
      plot::Spec su;
      su.color = u1_colour();
      plot::PlotBars("u_1 (Eigen, sign matched)", u1.data(), d, 0.4, 0.2, su);
      if (d <= 16) {
        const plot::Limits lim = plot::GetPlotLimits();
        for (int i = 0; i < d && i < static_cast<int>(pr.feature_names.size()); ++i)
          plot::PlotText(pr.feature_names[static_cast<size_t>(i)].c_str(), i, lim.y_min,
                         ImVec2(0, -10), colors().text_dim);
      }
      plot::EndPlot();
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

void PowerIterationView::draw_plots(const PowerSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  const PowerProblem& pr = *s.problem;
  const PowerStage& st = *s.stage;
  ImGui::BeginChild("##power_plots", size, false);
  ImGui::PushTextWrapPos(0.0f);  // captions wrap in a narrow column
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // Three plots share the height, each at least min_plot_height() (the column scrolls then).
  const float h = std::max(min_plot_height(), (size.y - 3 * line) / 3.0f - ImGui::GetStyle().ItemSpacing.y);

  // Measured series from the history (phase-0 metrics), else the current point only.
  std::vector<double> ts, angles, rhos;
  if (ctx.metric_history) {
    for (size_t i = 0; i < shown_rows(*ctx.metric_history, s.iteration); ++i) {
      const std::vector<double>& m = (*ctx.metric_history)[i];
      ts.push_back(static_cast<double>(i));
      angles.push_back(m.size() > 1 ? m[1] : NAN);
      rhos.push_back(m.size() > 0 ? m[0] : NAN);
    }
  }
  if (ts.empty()) {
    ts.push_back(s.iteration);
    angles.push_back(s.metrics.size() > 1 ? s.metrics[1] : NAN);
    rhos.push_back(s.metrics.size() > 0 ? s.metrics[0] : NAN);
  }
  const int last = std::max(static_cast<int>(ts.back()), s.iteration);

  fit_text_unformatted("angle theta_t to the top eigenvector (log): measured vs predicted");
  tooltip_text("Measured: theta_t = angle(v_t, u_1), u_1 from Eigen's eigensolver. Predicted: "
               "atan(tan theta_0 |lambda_2/lambda_1|^t), a straight line of slope log10|lambda_2/lambda_1| per "
               "iteration on this axis (an upper bound; equality in 2-D). Each deflated component starts again.");
  if (plot::BeginPlot("##power_angle", ImVec2(-1, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("iteration t", "theta_t (rad)", plot::AxisFlags_AutoFit,
                    plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
    plot::Spec ms;
    ms.color = v_colour();
    ms.line_weight = 2.0f;
    if (ts.size() <= 80) ms.marker = plot::Marker::Circle, ms.marker_size = 2.5f;
    plot::PlotLine("measured", ts.data(), angles.data(), static_cast<int>(ts.size()), ms);
    for (size_t c = 0; c < s.components.size(); ++c) {
      const PowerComponent& pc = s.components[c];
      const bool current = static_cast<int>(c) == s.component;
      const int end = current ? last + 5 : pc.start_iteration + std::max(1, pc.iterations);
      std::vector<double> px, py;
      for (int t = pc.start_iteration; t <= end; ++t) {
        px.push_back(t);
        py.push_back(predicted_angle(pc.theta0, pc.rate, t - pc.start_iteration));
      }
      plot::Spec ps;
      ps.color = pred_colour();
      ps.line_weight = 1.5f;
      ps.line_style = plot::LineStyle::Dashed;
      ps.flags = c == 0 ? plot::ItemFlags_NoFit : plot::ItemFlags_NoFit | plot::ItemFlags_NoLegend;
      char label[64];
      std::snprintf(label, sizeof label, "%s##pred%zu", "predicted", c);
      plot::PlotLine(label, px.data(), py.data(), static_cast<int>(px.size()), ps);
    }
    plot::PlotGuideX("##now", s.iteration, colors().guide);
    plot::EndPlot();
  }

  fit_text_unformatted("Rayleigh quotient rho_t against the true eigenvalue");
  tooltip_text("rho_t = v_t^T A v_t. Its error shrinks like theta_t^2 (twice as fast on a log scale). For a "
               "covariance (A positive semi-definite) it never decreases.");
  if (plot::BeginPlot("##power_rayleigh", ImVec2(-1, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::SouthEast);
    plot::SetupAxes("iteration t", "rho_t", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec rs;
    rs.color = v_colour();
    rs.line_weight = 2.0f;
    plot::PlotLine("rho_t = v^T A v", ts.data(), rhos.data(), static_cast<int>(ts.size()), rs);
    for (size_t c = 0; c < s.components.size(); ++c) {
      const PowerComponent& pc = s.components[c];
      const bool current = static_cast<int>(c) == s.component;
      const double lam = static_cast<Eigen::Index>(c) < pr.eigvals.size() ? pr.eigvals[static_cast<Eigen::Index>(c)] : NAN;
      const double xs[2] = {static_cast<double>(pc.start_iteration),
                            static_cast<double>(current ? last : pc.start_iteration + pc.iterations)};
      const double ys[2] = {lam, lam};
      plot::Spec ls;
      ls.color = u1_colour();
      ls.line_style = plot::LineStyle::Dashed;
      if (c > 0) ls.flags = plot::ItemFlags_NoLegend;
      char label[48];
      std::snprintf(label, sizeof label, "lambda_j of A (Eigen)##lam%zu", c);
      plot::PlotLine(label, xs, ys, 2, ls);
    }
    plot::EndPlot();
  }

  // The key is in the caption (a legend inside would cover the bars of a 2 x 2 or 3 x 3 matrix).
  fit_text_unformatted(log_spectrum ? "spectrum |lambda_i| (log):" : "spectrum lambda_i:");
  ImGui::SameLine();
  fit_text_colored(legible(gray_colour() | IM_COL32_A_MASK), "A");
  ImGui::SameLine();
  fit_text_colored(legible(v_colour()), "deflated A_%d", s.component + 1);
  ImGui::SameLine();
  fit_text_colored(legible(pred_colour()), "found lambda_hat_j");
  tooltip_text("Gray: eigenvalues of A (sorted by |lambda|). Blue: eigenvalues of the current deflated matrix "
               "A_j = A - sum_{i<j} lambda_hat_i u_hat_i u_hat_i^T: the found ones drop to ~0 (stubs at the "
               "bottom on the log axis), the rest stay. Diamonds: the eigenvalues found so far.");
  if (plot::BeginPlot("##power_spectrum", ImVec2(-1, h), plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("index i", log_spectrum ? "|lambda_i|" : "lambda_i", 0, log_spectrum ? plot::AxisFlags_LogScale : 0);
    const int shown = std::min<int>(static_cast<int>(pr.eigvals.size()), 40);
    // Log axis: |lambda|, floored a decade below the smallest non-negligible value shown.
    double floor_v = 0.0;
    if (log_spectrum) {
      const double top = std::abs(pr.eigvals[0]);
      floor_v = top;
      for (int i = 0; i < shown; ++i)
        if (std::abs(pr.eigvals[i]) > 1e-12 * top) floor_v = std::min(floor_v, std::abs(pr.eigvals[i]));
      floor_v /= 10.0;
    }
    auto shown_value = [&](double v) { return log_spectrum ? std::max(std::abs(v), floor_v) : v; };
    std::vector<double> orig(static_cast<size_t>(shown)), defl(static_cast<size_t>(shown));
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i < shown; ++i) {
      orig[static_cast<size_t>(i)] = shown_value(pr.eigvals[i]);
      defl[static_cast<size_t>(i)] = i < st.eigvals.size() ? shown_value(st.eigvals[i]) : NAN;
      for (double v : {orig[static_cast<size_t>(i)], defl[static_cast<size_t>(i)]})
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
    // Fixed limits (a fit of bars from 0 on a log axis, or of 2 or 3 bars, cut them): every bar
    // [i + 0.6, i + 1.4] whole, from the floor (log) or 0 (linear).
    if (log_spectrum)
      plot::SetupAxesLimits(0.4, shown + 0.6, floor_v / 2.0, std::max(hi, floor_v * 10.0) * 2.0, plot::Cond::Always);
    else
      plot::SetupAxesLimits(0.4, shown + 0.6, lo < 0 ? lo * 1.1 : 0.0, hi > 0 ? hi * 1.1 : 1.0, plot::Cond::Always);
    spectrum_limits_ = plot::GetPlotLimits();
    plot::Spec so;
    so.color = gray_colour();
    plot::PlotBars("A", orig.data(), shown, 0.4, 0.8, so);
    plot::Spec sd;
    sd.color = v_colour();
    char label[48];
    std::snprintf(label, sizeof label, "deflated A_%d", s.component + 1);
    plot::PlotBars(label, defl.data(), shown, 0.4, 1.2, sd);
    std::vector<double> fx, fy;
    for (size_t c = 0; c < s.components.size(); ++c)
      if (s.components[c].done) {
        fx.push_back(static_cast<double>(c) + 1.0);
        fy.push_back(shown_value(s.components[c].lambda));
      }
    plot::Spec sf;
    sf.color = pred_colour();
    sf.marker = plot::Marker::Diamond;
    sf.marker_size = 5.0f;
    plot::PlotScatter("found lambda_hat_j", fx.data(), fy.data(), static_cast<int>(fx.size()), sf);
    plot::EndPlot();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

CILAB_REGISTER_VIEW(PowerIteration, PowerIterationView);

}  // namespace cilab
