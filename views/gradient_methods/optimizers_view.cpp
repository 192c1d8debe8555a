// The optimizer race view: layout, header, the landscape panel (contours,
// trajectories, start point, arrows, divergence marks, data inset) and the
// per-racer caches. The table, theory block and curves are in
// optimizers_view_panels.cpp.
#include "views/gradient_methods/optimizers_view.h"
#include "views/gradient_methods/optimizers_view_internal.h"
#include "views/gradient_methods/optimizers_view_util.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include "algorithms/gradient_methods/optimizers.h"
#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

using namespace optview;

namespace {

ImU32 grad_colour() { return colors().error; }
ImU32 velocity_colour() { return colors().positive; }
ImU32 step_colour() { return colors().accent; }
ImU32 start_colour() { return colors().text; }
ImU32 min_colour() { return with_alpha(colors().text, 235); }
ImVec4 warn_colour() { return colour_vec(colors().warning); }
ImVec4 bad_colour() { return colour_vec(colors().error); }

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Fingerprint of a landscape's content (two runs with equal settings give equal landscapes).
std::string fingerprint(const Landscape& f) {
  std::string k = f.name() + "|" + f.formula();
  const std::array<double, 4> b = f.view_bounds();
  char buf[64];
  for (double v : b) {
    std::snprintf(buf, sizeof buf, "|%.17g", v);
    k += buf;
  }
  const double probes[5][2] = {{0.1234, -0.5678}, {-1.31, 0.77}, {0.5, 0.5}, {2.2, -1.9}, {-0.05, 1.6}};
  for (const auto& p : probes) {
    std::snprintf(buf, sizeof buf, "|%.17g", f.value(p[0], p[1]));
    k += buf;
  }
  return k;
}

std::string caption(const OptimizersSnapshot& s, const ModuleInfo* info) {
  char buf[320];
  const std::string at = position_label(s, info, true);
  const Eigen::Vector2d p0 = s.racers[0].path && s.racers[0].path->size() > 0 ? s.racers[0].path->point(0)
                                                                              : s.racers[0].theta;
  if (s.phase == 1)
    std::snprintf(buf, sizeof buf,
                  "%s: every racer evaluated g_t = grad f(theta_t) (arrows); the update comes next.",
                  at.c_str());
  else if (s.iteration == 0)
    std::snprintf(buf, sizeof buf,
                  "%s: all racers start at theta_0 = (%.3g, %.3g). Click the landscape to move the start, "
                  "drag it to restart.",
                  at.c_str(), p0.x(), p0.y());
  else
    std::snprintf(buf, sizeof buf, "%s: every racer took its update theta_t -> theta_{t+1} (its own rule).",
                  at.c_str());
  return buf;
}

}  // namespace

OptimizersView::OptimizersView() : grid_(std::make_unique<Grid>()) {}
OptimizersView::~OptimizersView() = default;

void OptimizersView::on_reset() {
  racers_.clear();
  dragging_start_ = false;
}

const ParamSpecs& OptimizersView::specs() {
  if (specs_.empty()) specs_ = Optimizers().params();
  return specs_;
}

double OptimizersView::param(const ViewContext& ctx, const std::string& name, double fallback) const {
  if (!ctx.values) return fallback;
  auto it = ctx.values->find(name);
  return it != ctx.values->end() ? it->second : fallback;
}

OptimizersView::RacerCache& OptimizersView::cache_for(const RacerState& r) {
  for (auto& c : racers_)
    if (c->kind == r.kind) return *c;
  racers_.push_back(std::make_unique<RacerCache>());
  racers_.back()->kind = r.kind;
  return *racers_.back();
}

void OptimizersView::RacerCache::validate(const PathBuffer& path) {
  const size_t n = path.size();
  bool ok = n >= synced;
  if (ok && synced > 0) {
    const Eigen::Vector2d a = path.point(0), b = path.point(synced - 1);
    ok = same(a.x(), x0) && same(a.y(), y0) && same(b.x(), xl) && same(b.y(), yl);
  }
  if (!ok) {
    traj_key.fill(-1.0);
    loss_key.fill(-1.0);
    dist_key.fill(-1.0);
    traj.reset(plot::PixelMap{}, plot::PixelMap{}, 1.0);
    loss.reset(plot::PixelMap{}, plot::PixelMap{});
    dist.reset(plot::PixelMap{}, plot::PixelMap{});
  }
  synced = n;
  if (n > 0) {
    const Eigen::Vector2d a = path.point(0), b = path.point(n - 1);
    x0 = a.x();
    y0 = a.y();
    xl = b.x();
    yl = b.y();
  }
}

// ---------------------------------------------------------------------------------------------
void OptimizersView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  info_ = DrawInfo{};
  const auto* sp = dynamic_cast<const OptimizersSnapshot*>(&snap);
  if (!sp || !sp->landscape || sp->racers.empty()) {
    fit_text_disabled("No optimizer race to show yet.");
    return;
  }
  const OptimizersSnapshot& s = *sp;
  for (const RacerState& r : s.racers)
    if (r.path) cache_for(r).validate(*r.path);

  draw_header(s, ctx, out);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  float left_w = std::min(avail.x * 0.5f, avail.y * 1.12f);
  left_w = std::max(left_w, std::min(avail.x * 0.45f, ImGui::GetFontSize() * 18.0f));
  draw_landscape(s, ctx, out, ImVec2(left_w, avail.y));
  ImGui::SameLine();
  const float right_w = avail.x - left_w - spacing;
  // Table, theory, curves; the column scrolls when the window is too short for all three.
  ImGui::BeginChild("##opt_right", ImVec2(right_w, avail.y), false);
  draw_table(s, ctx, out, 0.0f);
  draw_theory(s, ctx, out);
  const ImVec2 rest = ImGui::GetContentRegionAvail();
  draw_curves(s, ctx, ImVec2(rest.x, std::max(rest.y, min_plot_height() + ImGui::GetTextLineHeightWithSpacing() +
                                                          ImGui::GetStyle().ItemSpacing.y)));
  ImGui::EndChild();
}

// ---------------------------------------------------------------------------------------------
void OptimizersView::draw_header(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const Landscape& f = *s.landscape;
  fit_text_unformatted(caption(s, ctx.info).c_str());
  tooltip_text("Every racer runs the same loop per iteration: the gradient sub-step evaluates g_t at theta_t "
               "(full batch, or a mini-batch for SGD on finite sums), the update sub-step applies its own "
               "torch.optim rule. Sub-step (S) shows the arrows in between.");

  // The function.
  if (f.kind() == LandscapeKind::Custom) {
    ImGui::AlignTextToFramePadding();
    fit_text_unformatted("f(x, y) =");
    ImGui::SameLine();
    const std::string cur = ctx.values && ctx.values->text.count("expr") ? ctx.values->text.at("expr") : f.formula();
    if (cur != expr_shown_ && !expr_active_) {
      std::snprintf(expr_buf_.data(), expr_buf_.size(), "%s", cur.c_str());
      expr_shown_ = cur;
    }
    ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 14, ImGui::GetContentRegionAvail().x * 0.35f));
    const bool enter = ImGui::InputText("##expr", expr_buf_.data(), expr_buf_.size(),
                                        ImGuiInputTextFlags_EnterReturnsTrue);
    expr_active_ = ImGui::IsItemActive();
    tooltip_text("Your function of x and y in muParser syntax: + - * / ^, sin cos tan exp log (natural) sqrt abs, "
                 "pi, _e ... e.g.  x^2 + 10*y^2,  (1-x)^2 + 100*(y-x^2)^2,  sin(3*x)*cos(3*y) + 0.1*(x^2+y^2). "
                 "Enter or 'apply' restarts the race on it.");
    info_.expr_input = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                              (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
    ImGui::SameLine();
    const bool apply = ImGui::Button("apply##expr");
    info_.expr_apply = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                              (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
    if (enter || apply) out.push_back(ViewIntent::set_text("expr", expr_buf_.data()));
    ImGui::SameLine();
    fit_text_colored(warn_colour(), "gradients: central differences");
    tooltip_text("grad f is estimated numerically: df/dx ~ (f(x+h, y) - f(x-h, y)) / 2h with h = 1e-6 max(1, |x|), "
                 "the same for y. Error O(h^2) plus rounding ~ eps |f| / h.");
  } else {
    const auto* fs = dynamic_cast<const FiniteSumLandscape*>(&f);
    if (fs)
      fit_text_disabled("%s: f(%s, %s) = %s   [%s]", f.name().c_str(), f.x_label().c_str(), f.y_label().c_str(),
                          f.formula().c_str(), fs->data_description().c_str());
    else
      fit_text_disabled("%s: f(x, y) = %s", f.name().c_str(), f.formula().c_str());
  }

  // Divergence banner (first diverged racer) with the rewind button.
  bool banner = false;
  for (const RacerState& r : s.racers) {
    if (r.status != Status::Diverged) continue;
    banner = true;
    ImGui::AlignTextToFramePadding();
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s diverged at t = %d (lr = %s)", optimizer_title(r.kind), r.diverged_at,
                  fmt(r.lr, "%.3g").c_str());
    fit_text_colored(bad_colour(), "%s", buf);
    if (s.theory.valid && (r.kind == OptimizerKind::GD || r.kind == OptimizerKind::SGD)) {
      ImGui::SameLine();
      fit_text_colored(bad_colour(), "%s 2/L = %s", r.lr >= s.theory.eta_max ? ">=" : "<",
                         fmt(s.theory.eta_max, "%.3g").c_str());
    }
    ImGui::SameLine();
    rewind_button(s, r, ctx, out, "rewind and halve the step size");
    break;
  }
  if (!s.message.empty() && !(banner && s.message.find("diverged") != std::string::npos))
    fit_text_colored(warn_colour(), "%s", s.message.c_str());
}

void OptimizersView::rewind_button(const OptimizersSnapshot& s, const RacerState& r, const ViewContext& ctx,
                                   std::vector<ViewIntent>& out, const char* label) {
  (void)ctx;
  // Target: the last iterate before the divergence that had not yet blown up - its loss above
  // the optimum at most kRewindGrowth times the start's. A steady blow-up (GD with lr > 2/L grows
  // the gap from the first step) then rewinds to the iteration where it began to run away, not
  // to iteration 0: the history up to there stays and the race goes on from it with the halved lr.
  constexpr double kRewindGrowth = 100.0;
  int target = 0;
  if (r.path && r.diverged_at > 0) {
    const PathBuffer& p = *r.path;
    const double fstar = s.landscape->min_value();
    const double ref = std::isfinite(fstar) ? fstar : p.loss(0);
    const double start_gap = std::abs(p.loss(0) - ref);
    const int last = std::min<int>(r.diverged_at - 1, static_cast<int>(p.size()) - 1);
    for (int t = last; t >= 0; --t) {
      const double g = p.loss(static_cast<size_t>(t)) - ref;
      if (std::isfinite(g) && g <= kRewindGrowth * start_gap * (1 + 1e-12) + 1e-300) {
        target = t;
        break;
      }
    }
  }
  char id[96];
  std::snprintf(id, sizeof id, "%s##rewind_%s", label, r.name.c_str());
  if (ImGui::SmallButton(id)) {
    out.push_back(ViewIntent::seek(target));
    out.push_back(ViewIntent::set_param(lr_param(r), r.lr / 2));
  }
  if (info_.rewind_button.x < 0)
    info_.rewind_button = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                                 (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2);
  char tip[300];
  std::snprintf(tip, sizeof tip,
                "Rewinds the race to iteration %d (the last one before the divergence at t = %d whose loss above "
                "the optimum was at most 100 times the start's; the history up to there is kept) and goes on from "
                "there with %s = %s / 2 = %s. The other racers rewind too.",
                target, r.diverged_at, lr_param(r).c_str(), fmt(r.lr, "%.3g").c_str(), fmt(r.lr / 2, "%.3g").c_str());
  tooltip_text(tip);
}

// ---------------------------------------------------------------------------------------------
void OptimizersView::refresh_grid(const Landscape& f, double x0, double x1, double y0, double y1) {
  Grid& g = *grid_;
  const int n = std::clamp(grid_size, 16, 512);
  if (&f != g.landscape) {
    const std::string fp = fingerprint(f);
    if (fp != g.fingerprint) g.valid = false;
    g.fingerprint = fp;
    g.landscape = &f;
  }
  if (g.valid && g.n == n && g.levels_n == contour_count && g.x0 == x0 && g.x1 == x1 && g.y0 == y0 && g.y1 == y1)
    return;
  ++grid_evaluations_;
  g.valid = true;
  g.n = n;
  g.levels_n = contour_count;
  g.x0 = x0, g.x1 = x1, g.y0 = y0, g.y1 = y1;
  g.values.resize(static_cast<size_t>(n) * n);
  double vmin = INFINITY, vmax = -INFINITY;
  for (int r = 0; r < n; ++r) {
    const double y = y0 + (y1 - y0) * r / (n - 1);
    for (int c = 0; c < n; ++c) {
      const double v = f.value(x0 + (x1 - x0) * c / (n - 1), y);
      g.values[static_cast<size_t>(r) * n + c] = v;
      if (std::isfinite(v)) vmin = std::min(vmin, v), vmax = std::max(vmax, v);
    }
  }
  g.log_levels = f.log_contours() || plot::prefers_log_levels(g.values.data(), g.values.size());
  g.levels = plot::contour_levels(vmin, vmax, contour_count, g.log_levels, 5.0);
  g.segs.clear();
  plot::contour_segments(g.values.data(), n, n, x0, x1, y0, y1, g.levels, g.segs);
  g.colors.resize(g.segs.size());
  const int nl = std::max<int>(1, static_cast<int>(g.levels.size()));
  for (size_t i = 0; i < g.segs.size(); ++i) {
    const double t = 0.15 + 0.85 * (g.segs.level[i] + 0.5) / nl;
    g.colors[i] = with_alpha(plot::SampleColormap(t, plot::Colormap::Viridis), 215);
  }
  // Heatmap (row 0 at the top), log of the height above the minimum for basins.
  g.heat.resize(g.values.size());
  const double span = vmax > vmin ? vmax - vmin : 1.0;
  g.heat_min = INFINITY, g.heat_max = -INFINITY;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double v = g.values[static_cast<size_t>(r) * n + c];
      double h = NAN;
      if (std::isfinite(v)) h = g.log_levels ? std::log10(std::max(v - vmin, span * 1e-7)) : v;
      g.heat[static_cast<size_t>(n - 1 - r) * n + c] = static_cast<float>(h);
      if (std::isfinite(h)) g.heat_min = std::min(g.heat_min, h), g.heat_max = std::max(g.heat_max, h);
    }
  g.vmin = vmin;
  g.vmax = vmax;
}

void OptimizersView::draw_landscape(const OptimizersSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out,
                                    ImVec2 size) {
  const Landscape& f = *s.landscape;
  const std::array<double, 4> b = f.view_bounds();
  const std::string key = f.name() + "|" + f.formula();
  const bool new_bounds = key != bounds_key_;
  bounds_key_ = key;
  const auto* fs = dynamic_cast<const FiniteSumLandscape*>(&f);
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  // Inset rectangle (finite sums): clicks there do not move the start.
  const bool inset = fs && show_data_inset;
  const ImVec2 inset_size(size.x * 0.36f, size.y * 0.30f);
  const ImVec2 inset_pos(top_left.x + size.x - inset_size.x - 12.0f, top_left.y + size.y - inset_size.y - 34.0f);
  const ImGuiIO& io = ImGui::GetIO();
  const bool mouse_in_inset = inset && io.MousePos.x >= inset_pos.x && io.MousePos.x <= inset_pos.x + inset_size.x &&
                              io.MousePos.y >= inset_pos.y && io.MousePos.y <= inset_pos.y + inset_size.y;

  ImGui::BeginGroup();  // the plot and its inset are one layout item (the right column goes beside it)
  plot::PlotFlags flags = plot::PlotFlags_NoTitle;
  if (!fs) flags |= plot::PlotFlags_EqualAspect;
  if (plot::BeginPlot("##opt_landscape", size, flags)) {
    plot::SetupAxes(f.x_label().c_str(), f.y_label().c_str());
    plot::SetupAxesLimits(b[0], b[1], b[2], b[3], new_bounds ? plot::Cond::Always : plot::Cond::Once);
    plot::SetupLegend(inset ? plot::Location::NorthEast : plot::Location::SouthEast);
    plot::SetupFinish();
    const plot::Limits lim = plot::GetPlotLimits();
    info_.limits[0] = lim.x_min, info_.limits[1] = lim.x_max, info_.limits[2] = lim.y_min, info_.limits[3] = lim.y_max;
    info_.equal_aspect = (flags & plot::PlotFlags_EqualAspect) != 0;
    info_.plot_min = plot::GetPlotPos();
    info_.plot_max = ImVec2(info_.plot_min.x + plot::GetPlotSize().x, info_.plot_min.y + plot::GetPlotSize().y);
    refresh_grid(f, lim.x_min, lim.x_max, lim.y_min, lim.y_max);
    const Grid& g = *grid_;

    // Double-click fits the landscape's default window.
    plot::Spec fit_spec;
    fit_spec.flags = plot::ItemFlags_NoLegend;
    if (plot::BeginItem("##bounds", fit_spec)) {
      if (plot::FitThisFrame()) {
        plot::FitPoint(b[0], b[2]);
        plot::FitPoint(b[1], b[3]);
      }
      plot::EndItem();
    }

    if (show_heatmap && std::isfinite(g.heat_min) && g.heat_max > g.heat_min) {
      plot::Spec hs;
      hs.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      plot::PlotHeatmap("##heat", g.heat.data(), g.n, g.n, g.heat_min, g.heat_max, plot::Point{g.x0, g.y0},
                        plot::Point{g.x1, g.y1}, plot::Colormap::Viridis, hs);
      if (plot::BeginItem("##dim", hs)) {  // dim it: the contours and paths are the message
        const ImVec2 p = plot::GetPlotPos(), q = plot::GetPlotSize();
        plot::GetPlotDrawList()->AddRectFilled(p, ImVec2(p.x + q.x, p.y + q.y),
                                               with_alpha(colors().window_bg, 190));
        plot::EndItem();
      }
    }
    {
      plot::Spec cs;
      cs.colors = g.colors.data();
      cs.line_weight = 1.0f;
      cs.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      plot::PlotSegments("##contours", g.segs.xy.data(), static_cast<int>(g.segs.size()), cs);
      info_.contour_segments = static_cast<int>(g.segs.size());
    }

    // Known minima.
    const std::vector<Eigen::Vector2d> minima = f.minima();
    if (!minima.empty()) {
      std::vector<double> mx, my;
      for (const Eigen::Vector2d& m : minima) mx.push_back(m.x()), my.push_back(m.y());
      plot::Spec ms;
      ms.color = min_colour();
      ms.marker = plot::Marker::Plus;
      ms.marker_size = 6.0f;
      ms.flags = plot::ItemFlags_NoFit;
      plot::PlotScatter(minima.size() > 1 ? "minima" : "minimum theta*", mx.data(), my.data(),
                        static_cast<int>(mx.size()), ms);
    }

    // Trajectories, decimated in pixel space and cached per racer.
    const double sx = plot::GetPlotSize().x / std::max(1e-300, lim.x_max - lim.x_min);
    const double sy = -plot::GetPlotSize().y / std::max(1e-300, lim.y_max - lim.y_min);
    const std::array<double, 6> want = {lim.x_min, lim.x_max, lim.y_min, lim.y_max, plot::GetPlotSize().x,
                                        plot::GetPlotSize().y};
    ImDrawList* dl = plot::GetPlotDrawList();
    for (const RacerState& r : s.racers) {
      if (!r.path || r.path->size() == 0) continue;
      RacerCache& c = cache_for(r);
      const PathBuffer& p = *r.path;
      if (c.traj_key != want || c.traj.fed() > p.size()) {
        c.traj.reset(plot::PixelMap{-lim.x_min * sx, sx, false}, plot::PixelMap{-lim.y_min * sy, sy, false}, 1.0, true);
        c.traj_key = want;
      }
      for (size_t i = c.traj.fed(); i < p.size(); ++i) {
        const Eigen::Vector2d q = p.point(i);
        c.traj.add(q.x(), q.y());
      }
      const ImU32 col = racer_color(r.kind);
      plot::Spec ts;
      ts.color = col;
      ts.line_weight = r.primary ? 2.6f : 2.0f;
      ts.flags = plot::ItemFlags_NoFit;
      char label[64];
      std::snprintf(label, sizeof label, "%s%s##traj_%s", optimizer_title(r.kind), r.primary ? " (primary)" : "",
                    r.name.c_str());
      plot::PlotLine(label, c.traj.xs().data(), c.traj.ys().data(), static_cast<int>(c.traj.xs().size()), ts);
      for (double v : c.traj.xs()) info_.trajectory_points += std::isfinite(v) ? 1 : 0;
      info_.path_points += static_cast<int>(p.size());
      ++info_.racers_drawn;

      // Current point / divergence mark.
      if (r.status == Status::Diverged) {
        // An X at the last finite point, or where the path last was inside the window when that
        // point is off-screen (a diverging path leaves the window long before it overflows).
        long lf = last_finite(p);
        bool off = false;
        auto inside = [&](const Eigen::Vector2d& q) {
          return q.x() >= lim.x_min && q.x() <= lim.x_max && q.y() >= lim.y_min && q.y() <= lim.y_max;
        };
        if (lf >= 0 && !inside(p.point(static_cast<size_t>(lf)))) {
          off = true;
          while (lf >= 0 && !inside(p.point(static_cast<size_t>(lf)))) --lf;
        }
        if (lf >= 0) {
          const Eigen::Vector2d q = p.point(static_cast<size_t>(lf));
          const ImVec2 px = plot::PlotToPixels(q.x(), q.y());
          plot::Spec xs;
          xs.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
          if (plot::BeginItem("##diverged", xs)) {
            const float a = 7.0f;
            ImDrawList* xl = plot::GetPlotDrawList();
            xl->AddLine(ImVec2(px.x - a, px.y - a), ImVec2(px.x + a, px.y + a), colors().outline,
                        6.0f);
            xl->AddLine(ImVec2(px.x - a, px.y + a), ImVec2(px.x + a, px.y - a), colors().outline,
                        6.0f);
            xl->AddLine(ImVec2(px.x - a, px.y - a), ImVec2(px.x + a, px.y + a), col, 3.5f);
            xl->AddLine(ImVec2(px.x - a, px.y + a), ImVec2(px.x + a, px.y - a), col, 3.5f);
            char t[80];
            if (off)
              std::snprintf(t, sizeof t, "%s diverged at t = %d (off-screen after t = %ld)", optimizer_title(r.kind),
                            r.diverged_at, lf);
            else std::snprintf(t, sizeof t, "%s diverged at t = %d", optimizer_title(r.kind), r.diverged_at);
            const ImVec2 ts = ImGui::CalcTextSize(t);
            const ImVec2 pmax(info_.plot_max.x - ts.x - 4, info_.plot_max.y - ts.y - 4);
            const ImVec2 at(std::max(info_.plot_min.x + 4, std::min(px.x + 10, pmax.x)),
                            std::clamp(px.y + 10, info_.plot_min.y + 2, pmax.y));
            xl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + ts.x + 2, at.y + ts.y + 1),
                              colors().overlay_bg, 3);
            xl->AddText(at, col, t);
            plot::EndItem();
          }
          ++info_.diverged_marks;
        }
      } else if (std::isfinite(r.theta.x()) && std::isfinite(r.theta.y())) {
        const ImVec2 px = plot::PlotToPixels(r.theta.x(), r.theta.y());
        dl->AddCircleFilled(px, r.primary ? 5.5f : 4.5f, col, 16);
        dl->AddCircle(px, r.primary ? 5.5f : 4.5f, colors().outline, 16, 1.0f);
      }
      if (show_average && (r.averaged - r.theta).norm() > 0 && std::isfinite(r.averaged.x()) &&
          std::isfinite(r.averaged.y())) {
        const ImVec2 px = plot::PlotToPixels(r.averaged.x(), r.averaged.y());
        dl->AddCircle(px, 6.5f, col, 4, 2.0f);  // a diamond: the Polyak average
      }
    }

    // Sub-step arrows at the current point: -grad f, the velocity / first moment, the step.
    if (s.phase == 1 || show_arrows_always) {
      const double view_w = lim.x_max - lim.x_min;
      bool labelled[3] = {false, false, false};
      for (const RacerState& r : s.racers) {
        if (!(r.primary || arrows_for_all) || r.status == Status::Diverged) continue;
        const double lr = r.lr_now > 0 ? r.lr_now : r.lr;
        const double big = std::max(r.grad.norm(), r.velocity.norm()) * lr;
        double k = lr;
        const char* scale_note = "x lr";
        if (!(big > 0.03 * view_w && big < 0.35 * view_w) && std::max(r.grad.norm(), r.velocity.norm()) > 0) {
          k = 0.2 * view_w / std::max(r.grad.norm(), r.velocity.norm());
          scale_note = "rescaled";
        }
        const Eigen::Vector2d at = s.phase == 1 ? r.grad_at : r.theta;
        char lg[64], lv[64];
        std::snprintf(lg, sizeof lg, "-grad f (%s)%s", scale_note, f.numeric_gradient() ? ", central diff." : "");
        std::snprintf(lv, sizeof lv, "-velocity / moment (%s)", scale_note);
        auto arrow = [&](int kind, const char* label, const Eigen::Vector2d& from, const Eigen::Vector2d& to,
                         ImU32 col) {
          if (!std::isfinite(to.x()) || !std::isfinite(to.y()) || (to - from).norm() <= 0) return;
          plot::Spec as;
          as.color = col;
          as.line_weight = 2.5f;
          as.flags = plot::ItemFlags_NoFit;
          if (!labelled[kind]) plot::PlotArrow(label, from.x(), from.y(), to.x(), to.y(), as);
          else plot::PlotArrow(from.x(), from.y(), to.x(), to.y(), as);
          labelled[kind] = true;
          ++info_.arrows;
        };
        arrow(0, lg, at, at - k * r.grad, grad_colour());
        if (r.velocity.norm() > 0) arrow(1, lv, at, at - k * r.velocity, velocity_colour());
        if (r.step.norm() > 0)
          arrow(2, "last step theta_t - theta_{t-1}", r.theta - r.step, r.theta, step_colour());
      }
    }

    // The start point: click anywhere to move it, drag it to restart continuously.
    double st_x = param(ctx, "start_x", NAN), st_y = param(ctx, "start_y", NAN);
    if (!std::isfinite(st_x) || !std::isfinite(st_y)) {
      const Eigen::Vector2d p0 = s.racers[0].path && s.racers[0].path->size() ? s.racers[0].path->point(0)
                                                                               : s.racers[0].theta;
      st_x = p0.x();
      st_y = p0.y();
    }
    const double sx0 = st_x, sy0 = st_y;
    auto clamp_to_spec = [&](const char* name, double v) {
      const ParamSpec* spec = find_param(specs(), name);
      return spec ? std::clamp(v, spec->min, spec->max) : v;
    };
    const bool drag = plot::DragPoint(1, &st_x, &st_y, start_colour(), 6.0f);
    const ImVec2 spx = plot::PlotToPixels(st_x, st_y);
    info_.start_pixel = spx;
    plot::Spec ss;
    ss.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
    if (plot::BeginItem("##start", ss)) {
      plot::GetPlotDrawList()->AddCircle(spx, 9.5f, start_colour(), 20, 2.0f);
      plot::GetPlotDrawList()->AddText(ImVec2(spx.x + 11, spx.y + 2), start_colour(), "start");
      plot::EndItem();
    }
    auto emit_start = [&](double x, double y) {
      out.push_back(ViewIntent::set_param("start_x", clamp_to_spec("start_x", x)));
      out.push_back(ViewIntent::set_param("start_y", clamp_to_spec("start_y", y)));
    };
    if (drag) {
      dragging_start_ = true;
      ImGui::SetTooltip("start theta_0 = (%.3g, %.3g): the race restarts from here", st_x, st_y);
      if (st_x != sx0 || st_y != sy0) emit_start(st_x, st_y);
    } else {
      dragging_start_ = false;
      if (plot::IsPlotHovered() && plot::IsPlotClicked(0) && !mouse_in_inset) {
        const plot::Point m = plot::GetPlotMousePos();
        emit_start(m.x, m.y);
      }
    }

    // Read-out under the mouse: f and grad f.
    if (plot::IsPlotHovered() && !drag) {
      const plot::Point m = plot::GetPlotMousePos();
      const double v = f.value(m.x, m.y);
      const Eigen::Vector2d gr = f.gradient(m.x, m.y);
      char t[160];
      std::snprintf(t, sizeof t, "f = %s   grad f = (%s, %s)%s", fmt(v).c_str(), fmt(gr.x(), "%.3g").c_str(),
                    fmt(gr.y(), "%.3g").c_str(), f.numeric_gradient() ? "  (central differences)" : "");
      plot::Spec rs;
      rs.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
      if (plot::BeginItem("##readout", rs)) {
        const ImVec2 p = plot::GetPlotPos(), q = plot::GetPlotSize();
        const ImVec2 ts = ImGui::CalcTextSize(t);
        const ImVec2 at(p.x + 6, p.y + q.y - ts.y - 6);
        plot::GetPlotDrawList()->AddRectFilled(ImVec2(at.x - 3, at.y - 2),
                                               ImVec2(at.x + ts.x + 3, at.y + ts.y + 2),
                                               colors().overlay_bg, 3.0f);
        plot::GetPlotDrawList()->AddText(at, colors().text, t);
        plot::EndItem();
      }
    }
    plot::EndPlot();
  }
  if (inset) {
    const ImVec2 after = ImGui::GetCursorScreenPos();
    draw_inset(s, inset_pos, inset_size);
    ImGui::SetCursorScreenPos(after);
  }
  ImGui::EndGroup();
}

void OptimizersView::draw_inset(const OptimizersSnapshot& s, ImVec2 pos, ImVec2 size) {
  const auto* fs = dynamic_cast<const FiniteSumLandscape*>(s.landscape.get());
  if (!fs) return;
  const Eigen::MatrixXd& pts = fs->points();
  if (pts.rows() == 0 || pts.cols() < 2) return;
  info_.data_inset = true;
  ImGui::SetCursorScreenPos(pos);
  const bool logistic = s.landscape->kind() == LandscapeKind::Logistic;
  if (plot::BeginPlot("##opt_inset", size, plot::PlotFlags_NoTitle | plot::PlotFlags_NoMenus | plot::PlotFlags_NoInputs |
                                               plot::PlotFlags_NoLegend | plot::PlotFlags_NoMouseText)) {
    plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels, plot::AxisFlags_NoTickLabels);
    const double xmin = pts.col(0).minCoeff(), xmax = pts.col(0).maxCoeff();
    const double ymin = pts.col(1).minCoeff(), ymax = pts.col(1).maxCoeff();
    const double px = 0.08 * (xmax - xmin + 1e-12), py = 0.08 * (ymax - ymin + 1e-12);
    plot::SetupAxesLimits(xmin - px, xmax + px, ymin - py, ymax + py, plot::Cond::Always);
    plot::SetupFinish();
    const ImVec2 p = plot::GetPlotPos(), q = plot::GetPlotSize();
    plot::Spec bg;
    bg.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
    if (plot::BeginItem("##inset_bg", bg)) {
      plot::GetPlotDrawList()->AddRectFilled(p, ImVec2(p.x + q.x, p.y + q.y),
                                             with_alpha(colors().plot_bg, 235));
      plot::EndItem();
    }
    std::vector<double> xs(static_cast<size_t>(pts.rows())), ys(xs.size());
    std::vector<ImU32> cols(xs.size(), with_alpha(colors().neutral, 200));
    const std::vector<int>& labels = fs->labels();
    for (Eigen::Index i = 0; i < pts.rows(); ++i) {
      xs[static_cast<size_t>(i)] = pts(i, 0);
      ys[static_cast<size_t>(i)] = pts(i, 1);
      if (logistic && static_cast<size_t>(i) < labels.size())
        cols[static_cast<size_t>(i)] = labels[static_cast<size_t>(i)]
                                           ? with_alpha(colors().negative, 220)
                                           : with_alpha(colors().positive, 220);
    }
    plot::Spec ds;
    ds.colors = cols.data();
    ds.marker_size = 2.5f;
    ds.flags = plot::ItemFlags_NoFit;
    plot::PlotScatter("##inset_data", xs.data(), ys.data(), static_cast<int>(xs.size()), ds);
    // Fit lines of the racers (primary thickest, drawn last).
    for (int pass = 0; pass < 2; ++pass)
      for (const RacerState& r : s.racers) {
        if (r.primary != (pass == 1) || r.status == Status::Diverged) continue;
        const double a = r.theta.x(), bb = r.theta.y();
        double lx[2], ly[2];
        if (!logistic) {  // y = a x + b
          lx[0] = xmin - px, lx[1] = xmax + px;
          ly[0] = a * lx[0] + bb, ly[1] = a * lx[1] + bb;
        } else {  // decision boundary w1 x1 + w2 x2 = 0
          if (std::abs(bb) > std::abs(a)) {
            lx[0] = xmin - px, lx[1] = xmax + px;
            ly[0] = -a * lx[0] / bb, ly[1] = -a * lx[1] / bb;
          } else if (std::abs(a) > 0) {
            ly[0] = ymin - py, ly[1] = ymax + py;
            lx[0] = -bb * ly[0] / a, lx[1] = -bb * ly[1] / a;
          } else {
            continue;
          }
        }
        plot::Spec ls;
        ls.color = racer_color(r.kind);
        ls.line_weight = r.primary ? 2.5f : 1.2f;
        ls.flags = plot::ItemFlags_NoFit | plot::ItemFlags_NoLegend;
        char id[48];
        std::snprintf(id, sizeof id, "##fit_%s", r.name.c_str());
        plot::PlotLine(id, lx, ly, 2, ls);
      }
    plot::PlotText(logistic ? "data, boundary w.x = 0" : "data, fit y = a x + b",
                   xmin + 0.5 * (xmax - xmin), ymax + py, ImVec2(0, ImGui::GetFontSize() * 0.6f),
                   colors().text_dim);
    plot::EndPlot();
  }
}

CILAB_REGISTER_VIEW(Optimizers, OptimizersView);

}  // namespace cilab
