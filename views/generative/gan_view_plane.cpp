// The gan view's plane tab (2-D targets): the discriminator's heatmap, real and
// generated samples, the generator's warped z grid, the G step's gradient
// arrows, the modes; beside it the model-overview diagram and compact curves.
#include "views/generative/gan_view.h"

#include "views/plot/plot.h"
#include "views/common/point_edit.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

namespace {

ImU32 real_colour() { return plot::GetColormapColor(1); }         // real samples: sky blue
ImU32 fake_colour() { return plot::GetColormapColor(0); }         // generated samples: orange
ImU32 mesh_colour() { return with_alpha(colors().accent, 130); }  // the warped z grid
ImU32 arrow_colour() { return with_alpha(colors().text, 210); }
ImU32 covered_colour() { return with_alpha(colors().text, 230); }
ImU32 missed_colour() { return with_alpha(colors().error, 230); }
ImU32 highlight_colour() { return colors().accent; }
// The arrows are drawn so that the longest is this share of the box's width.
constexpr double kArrowShare = 0.08;

// The losses' formulas: the discriminator's, then the generator's.
const char* d_formula(nn::GanLoss loss) {
  switch (loss) {
    case nn::GanLoss::Minimax:
    case nn::GanLoss::NonSaturating: return "D: max E_x log D(x) + E_z log(1 - D(G(z)))";
    case nn::GanLoss::LeastSquares: return "D: min 1/2 E_x (D(x) - 1)^2 + 1/2 E_z D(G(z))^2";
    case nn::GanLoss::WassersteinGP:
      return "D: min E_z D(G(z)) - E_x D(x) + lambda E (||grad D(x_hat)|| - 1)^2";
  }
  return "";
}
const char* g_formula(nn::GanLoss loss) {
  switch (loss) {
    case nn::GanLoss::Minimax:
      return "G: min E_z log(1 - D(G(z)))   (saturates when D rejects G(z))";
    case nn::GanLoss::NonSaturating: return "G: max E_z log D(G(z))   (the non-saturating fix)";
    case nn::GanLoss::LeastSquares: return "G: min 1/2 E_z (D(G(z)) - 1)^2";
    case nn::GanLoss::WassersteinGP: return "G: min -E_z D(G(z))";
  }
  return "";
}

}  // namespace

void GanView::draw_layer_toggles() {
  struct Toggle {
    const char* name;
    bool* on;
    ImU32 colour;  // the layer's swatch (0: none)
    const char* tip;
  };
  const Toggle toggles[] = {
      {"heatmap D(x)", &show_heatmap, 0,
       "The discriminator's output over the plane (the colour bar says what is shown)."},
      {"real x", &show_real, real_colour(),
       "Real samples x (1 000 rows of the target's pool of 20 000)."},
      {"generated G(z)", &show_fake, fake_colour(),
       "Generated samples G(z) of 600 fixed noise vectors z, from the latest network copy."},
      {"z-grid mesh", &show_mesh, mesh_colour(),
       "The generator's image of a regular 21 x 21 grid in z over [-3, 3]^2: how G warps the "
       "latent plane."},
      {"arrows -dl_G/dx", &show_arrows, arrow_colour(),
       "On 120 generated samples: the direction the G step moves each sample, -dl_G/dx with l_G "
       "the "
       "generator's per-sample loss, through D's input gradient."},
      {"modes (3 sd)", &show_modes, covered_colour(),
       "The target's modes as 3-sd circles: covered in the text colour, missed in red."},
  };
  const float fs = ImGui::GetFontSize();
  for (size_t i = 0; i < sizeof toggles / sizeof toggles[0]; ++i) {
    const Toggle& t = toggles[i];
    if (i > 0)
      same_line_if_fits(ImGui::CalcTextSize(t.name).x + ImGui::GetFrameHeight() +
                        ImGui::GetStyle().ItemInnerSpacing.x + fs * (t.on == &show_modes ? 2.2f : 1.4f));
    ImGui::Checkbox(t.name, t.on);
    tooltip_text(t.tip);
    if (t.colour) {
      // A swatch in the layer's colour (the plane's legend).
      ImGui::SameLine(0, fs * 0.25f);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float h = ImGui::GetFrameHeight();
      ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + fs * 0.35f, p.y + h * 0.5f),
                                                  fs * 0.3f, with_alpha(t.colour, 255));
      if (t.on == &show_modes)
        ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + fs * 1.05f, p.y + h * 0.5f),
                                                    fs * 0.3f, missed_colour());
      ImGui::Dummy(ImVec2(fs * (t.on == &show_modes ? 1.4f : 0.7f), h));
    }
  }
}

void GanView::draw_plane_tab(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size,
                             std::vector<ViewIntent>& out) {
  const float fs = ImGui::GetFontSize();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  // A square plot area as large as the height allows (plus the y labels and the colour bar beside
  // it), the rest of the width for the diagram.
  const float plane =
      std::max(min_plot_height(), std::min(size.y + fs * 6.5f, size.x - fs * 18 - gap));
  const float side_w = std::max(fs * 12, size.x - plane - gap);
  draw_plane(s, ctx, ImVec2(plane, size.y), out);
  ImGui::SameLine();
  ImGui::BeginChild("##gan_side", ImVec2(side_w, size.y), false);
  ImGui::PushTextWrapPos(0.0f);
  draw_diagram(s, ImGui::GetContentRegionAvail().x);
  ImGui::Separator();
  draw_layer_toggles();
  // Captions: coverage and its rule, the mesh and the arrows' scale.
  if (!s.spec.modes.empty())
    ImGui::TextWrapped(
        "covered %d / %zu: a mode is covered when >= 1 %% of 2 000 generated samples lie within 3 "
        "sd of its "
        "centre (evaluated every 25 iterations).",
        s.coverage.covered, s.spec.modes.size());
  if (show_mesh && s.latent > 2)
    ImGui::TextWrapped("Mesh: G over (z1, z2) in [-3, 3]^2, the other %d coordinates 0.",
                       s.latent - 2);
  else if (show_mesh && s.latent == 1)
    ImGui::TextWrapped("Mesh: G of the z line [-3, 3] (latent = 1).");
  if (arrow_scale_ > 0)
    ImGui::TextWrapped("Arrows: %.3g x (-dl_G/dx), the longest %.0f %% of the plane's width.",
                       arrow_scale_, kArrowShare * 100);
  if (s.target == GanTarget::Data)
    ImGui::TextWrapped("Shift+click on the plane adds a point (user-drawn data).");
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

void GanView::draw_plane(const GanSnapshot& s, const ViewContext& ctx, ImVec2 size,
                         std::vector<ViewIntent>& out) {
  const GanPictures* pic = pictures_.get();
  const bool editable = s.target == GanTarget::Data;
  // Data units = network units * scale + offset (the z-score of target=data undone).
  auto ux = [&](double x) { return x * s.scale[0] + s.offset[0]; };
  auto uy = [&](double y) { return y * s.scale[1] + s.offset[1]; };
  const GanBox& b = s.spec.box;
  plot::PlotFlags flags =
      plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend | plot::PlotFlags_EqualAspect;
  if (ctx.edit_points && editable) flags |= plot::PlotFlags_NoMenus;
  if (plot::BeginPlot("plane##gan", size, flags)) {
    plot::SetupAxes(s.axis_names[0].c_str(), s.axis_names[1].c_str());
    // Always the target's box (a plot that was tiny for a frame must not keep its widened range).
    plot::SetupAxesLimits(ux(b.x0), ux(b.x1), uy(b.y0), uy(b.y1), plot::Cond::Always);
    // Heatmap: D = sigmoid(l) centred on 1/2, or the raw output centred on its median.
    double lo = 0, hi = 1;
    if (pic && !pic->probability && pic->res > 0) {
      const double r =
          std::max({pic->heat_max - pic->heat_median, pic->heat_median - pic->heat_min, 1e-9});
      lo = pic->heat_median - r;
      hi = pic->heat_median + r;
    }
    const bool heat = show_heatmap && pic && pic->res > 0;
    if (heat) {
      char bar[160];
      if (pic->probability)
        std::snprintf(bar, sizeof bar, "D = sigmoid(l), centre 1/2");
      else
        std::snprintf(bar, sizeof bar, "raw D = l, centre = median %.3g", pic->heat_median);
      plot::SetupColorBar(bar, lo, hi, plot::Colormap::Diverging);
      plot::Spec hs;
      hs.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      plot::PlotHeatmap("##D", pic->heat.data(), pic->res, pic->res, lo, hi,
                        plot::Point{ux(b.x0), uy(b.y0)}, plot::Point{ux(b.x1), uy(b.y1)},
                        plot::Colormap::Diverging, hs);
    }
    // The warped z grid: lines through every mesh_sub-th point of each row and column.
    if (show_mesh && pic && !pic->mesh_x.empty()) {
      std::vector<double> xy;
      const int n1 = pic->mesh_n1, n2 = pic->mesh_n2, sub = pic->mesh_sub;
      auto seg = [&](int i, int j) {
        xy.insert(
            xy.end(),
            {ux(pic->mesh_x[static_cast<size_t>(i)]), uy(pic->mesh_y[static_cast<size_t>(i)]),
             ux(pic->mesh_x[static_cast<size_t>(j)]), uy(pic->mesh_y[static_cast<size_t>(j)])});
      };
      for (int r = 0; r < n2; r += sub)
        for (int c = 0; c + 1 < n1; ++c) seg(r * n1 + c, r * n1 + c + 1);
      for (int c = 0; c < n1 && n2 > 1; c += sub)
        for (int r = 0; r + 1 < n2; ++r) seg(r * n1 + c, (r + 1) * n1 + c);
      plot::Spec ms;
      ms.color = mesh_colour();
      ms.line_weight = 1.0f;
      ms.flags = plot::ItemFlags_NoFit;
      plot::PlotSegments(n2 > 1 ? "G of the z grid" : "G of the z line", xy.data(),
                         static_cast<int>(xy.size() / 4), ms);
    }
    // Real samples: kRealShown rows of the pool, evenly spaced.
    if (show_real && s.pool && s.pool->cols() == 2) {
      const GanRows& pool = *s.pool;
      const int n = static_cast<int>(std::min<Eigen::Index>(kRealShown, pool.rows()));
      std::vector<double> xs(static_cast<size_t>(n)), ys(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        const Eigen::Index r = static_cast<Eigen::Index>(i) * pool.rows() / std::max(1, n);
        xs[static_cast<size_t>(i)] = ux(pool(r, 0));
        ys[static_cast<size_t>(i)] = uy(pool(r, 1));
      }
      plot::Spec rs;
      rs.color = real_colour();
      rs.marker_size = 2.5f;
      plot::PlotScatter("real x", xs.data(), ys.data(), n, rs);
    }
    // Generated samples: the pictures' G(fixed noise), else the last evaluation's.
    if (show_fake) {
      std::vector<double> xs, ys;
      if (pic && !pic->fake_x.empty()) {
        for (size_t i = 0; i < pic->fake_x.size(); ++i) {
          xs.push_back(ux(pic->fake_x[i]));
          ys.push_back(uy(pic->fake_y[i]));
        }
      } else if (s.eval_fake && s.eval_fake->cols() == 2) {
        for (Eigen::Index i = 0; i < std::min<Eigen::Index>(600, s.eval_fake->rows()); ++i) {
          xs.push_back(ux((*s.eval_fake)(i, 0)));
          ys.push_back(uy((*s.eval_fake)(i, 1)));
        }
      }
      plot::Spec fs;
      fs.color = fake_colour();
      fs.marker_size = 2.5f;
      fs.flags = plot::ItemFlags_NoFit;
      plot::PlotScatter("generated G(z)", xs.data(), ys.data(), static_cast<int>(xs.size()), fs);
    }
    // Arrows -dl_G/dx, scaled so that the longest is kArrowShare of the box.
    arrow_scale_ = 0;
    if (show_arrows && pic && !pic->arrow_dx.empty()) {
      double longest = 0;
      for (size_t i = 0; i < pic->arrow_dx.size(); ++i)
        longest = std::max(
            longest, std::hypot(pic->arrow_dx[i] * s.scale[0], pic->arrow_dy[i] * s.scale[1]));
      if (longest > 0 && std::isfinite(longest)) {
        arrow_scale_ = kArrowShare * (ux(b.x1) - ux(b.x0)) / longest;
        plot::Spec as;
        as.color = arrow_colour();
        as.line_weight = 1.2f;
        if (plot::PlotLegendEntry("-dl_G/dx (G step)", as))
          for (size_t i = 0; i < pic->arrow_dx.size(); ++i) {
            const double x = ux(pic->fake_x[i]), y = uy(pic->fake_y[i]);
            plot::PlotArrow(x, y, x + arrow_scale_ * pic->arrow_dx[i] * s.scale[0],
                            y + arrow_scale_ * pic->arrow_dy[i] * s.scale[1], as);
          }
      }
    }
    // Modes: 3-sd circles, in the text colour when covered, red when missed.
    if (show_modes && !s.spec.modes.empty()) {
      const double need =
          kModeMinShare * (s.eval_fake ? static_cast<double>(s.eval_fake->rows()) : kTargetPool);
      plot::Spec cs, ms;
      cs.color = covered_colour();
      ms.color = missed_colour();
      cs.line_weight = ms.line_weight = 1.5f;
      const bool show_c = plot::PlotLegendEntry("mode covered (3 sd)", cs);
      const bool show_m = plot::PlotLegendEntry("mode missed", ms);
      for (size_t j = 0; j < s.spec.modes.size(); ++j) {
        const bool covered = j < s.coverage.counts.size() && s.coverage.counts[j] >= need;
        if (covered ? !show_c : !show_m) continue;
        const double sx = s.spec.sd * s.scale[0], sy = s.spec.sd * s.scale[1];
        plot::PlotEllipse(ux(s.spec.modes[j][0]), uy(s.spec.modes[j][1]), sx * sx, 0.0, sy * sy,
                          kModeRadiusSds, covered ? cs : ms);
      }
    }
    // Hover: D at the mouse; clicks add points (target = data).
    if (plot::IsPlotHovered()) {
      const plot::Point m = plot::GetPlotMousePos();
      const bool edited = editable && point_edit_click(ctx, m, out);
      if (!edited && heat && !ImGui::IsMouseDown(0)) {
        const double nx = (m.x - s.offset[0]) / s.scale[0], ny = (m.y - s.offset[1]) / s.scale[1];
        const int c = static_cast<int>(std::floor((nx - b.x0) / (b.x1 - b.x0) * pic->res));
        const int r = static_cast<int>(std::floor((b.y1 - ny) / (b.y1 - b.y0) * pic->res));
        if (c >= 0 && c < pic->res && r >= 0 && r < pic->res) {
          ImGui::BeginTooltip();
          fit_text("(%.3g, %.3g): D = %.3f  (network of iteration %d)", m.x, m.y,
                      pic->heat[static_cast<size_t>(r * pic->res + c)], pic->net_iteration);
          fit_text_disabled(pic->probability
                                  ? "D(x) = sigmoid(l(x)), the probability D gives x of being real"
                                  : "D(x) = l(x), the raw critic output (no sigmoid)");
          if (editable) fit_text_disabled("Shift+click: add a point here (user-drawn data)");
          ImGui::EndTooltip();
        }
      }
    }
    plot::EndPlot();
  }
}

void GanView::draw_diagram(const GanSnapshot& s, float width) {
  const float fs = ImGui::GetFontSize();
  const float h = fs * 4.6f;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##gan_diagram", ImVec2(width, h));
  const bool g_next = s.phase == 1;  // phase 0: the D step runs next; 1: the G step
  tooltip_text(
      "One iteration: the D step (d_steps times) updates D on a batch of real x and generated G(z) "
      "with G fixed; "
      "then the G step updates G through D (D fixed). Highlighted: the part the next sub-step "
      "updates. Slow-mo "
      "(key M on the transport) plays the sub-steps one by one.");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float col = width / 5.0f, bh = fs * 1.6f, y1 = p0.y + fs * 0.3f, y2 = p0.y + fs * 2.7f;
  struct Box {
    const char* text;
    float cx, cy;
    bool network, lit;
  };
  const Box boxes[] = {
      {"z ~ N(0,I)", p0.x + col * 0.5f, y1 + bh / 2, false, false},
      {"G", p0.x + col * 1.5f, y1 + bh / 2, true, g_next},
      {"G(z)", p0.x + col * 2.5f, y1 + bh / 2, false, false},
      {"D", p0.x + col * 3.5f, y1 + bh / 2, true, !g_next},
      {"loss", p0.x + col * 4.5f, y1 + bh / 2, false, false},
      {"real x", p0.x + col * 2.5f, y2 + bh / 2, false, false},
  };
  auto half_w = [&](const Box& bx) {
    return std::min(col * 0.46f, ImGui::CalcTextSize(bx.text).x * 0.5f + fs * 0.4f);
  };
  for (const Box& bx : boxes) {
    const float hw = half_w(bx);
    const ImVec2 a(bx.cx - hw, bx.cy - bh / 2), c(bx.cx + hw, bx.cy + bh / 2);
    const ImU32 fill = bx.lit       ? colors().node_lit
                       : bx.network ? colors().node_fill
                                    : colors().plot_bg;
    dl->AddRectFilled(a, c, fill, 4.0f);
    dl->AddRect(a, c, bx.lit ? highlight_colour() : colors().node_border, 4.0f, 0,
                bx.lit ? 2.5f : 1.0f);
    const ImVec2 ts = ImGui::CalcTextSize(bx.text);
    dl->AddText(ImVec2(bx.cx - ts.x / 2, bx.cy - ts.y / 2), colors().text, bx.text);
  }
  auto arrow = [&](ImVec2 a, ImVec2 c) {
    dl->AddLine(a, c, colors().text_dim, 1.5f);
    const float dx = c.x - a.x, dy = c.y - a.y, len = std::max(1e-3f, std::sqrt(dx * dx + dy * dy));
    const float ux = dx / len, uy = dy / len, hs = fs * 0.35f;
    dl->AddTriangleFilled(c, ImVec2(c.x - ux * hs - uy * hs * 0.6f, c.y - uy * hs + ux * hs * 0.6f),
                          ImVec2(c.x - ux * hs + uy * hs * 0.6f, c.y - uy * hs - ux * hs * 0.6f),
                          colors().text_dim);
  };
  for (int i = 0; i < 4; ++i)
    arrow(ImVec2(boxes[i].cx + half_w(boxes[i]), boxes[i].cy),
          ImVec2(boxes[i + 1].cx - half_w(boxes[i + 1]), boxes[i + 1].cy));
  arrow(ImVec2(boxes[5].cx + half_w(boxes[5]), boxes[5].cy),
        ImVec2(boxes[3].cx - fs * 0.2f, boxes[3].cy + bh / 2));
  const char* next = g_next ? "next: G step (updates G through D; D fixed)"
                            : "next: D step (updates D on real x and G(z); G fixed)";
  fit_text_colored(colour_vec(colors().accent), "%s", next);
  ImGui::TextWrapped("%s", d_formula(s.loss));
  ImGui::TextWrapped("%s", g_formula(s.loss));
  fit_text_disabled("slow-mo (key M) plays the D and G sub-steps");
  tooltip_text(
      "The transport's slow motion pauses between the D step and the G step, so the highlight "
      "above "
      "and the heatmap move one sub-step at a time.");
}

}  // namespace cilab
