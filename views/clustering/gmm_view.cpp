// The GMM view: main plot (soft colours, ellipses, density, draggable means),
// the k-means comparison plot and the side column. The model-selection sweep
// panel and its background job live in gmm_view_select.cpp.
#include "views/common/curves.h"
#include "views/clustering/gmm_view.h"
#include "views/common/theme.h"
#include "views/common/view_registry.h"

#include "algorithms/clustering/gmm.h"
#include "algorithms/clustering/gmm_select.h"
#include "algorithms/clustering/kmeans.h"
#include "views/common/geometry.h"
#include "views/plot/plot.h"
#include "views/common/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace cilab {
namespace {

ImU32 unassigned_colour() { return with_alpha(colors().neutral, 170); }
ImVec4 warn_colour() { return colour_vec(colors().warning); }
ImVec4 error_colour() { return colour_vec(colors().error); }
// Density grid resolution (cells per side) over the visible plot range.
constexpr int kDensityGrid = 96;
// Contour levels: log p = peak - kContourStep * i, i = 1..kContourLevels.
constexpr int kContourLevels = 8;
constexpr double kContourStep = 1.0;
constexpr uint64_t kDensityTextureKey = 0x676d6d64656e7331ull;
// ViewContext::keys holds GLFW key codes; GLFW_KEY_K == 'K'.
constexpr int kKeyCompare = 'K';
// Components listed in the main plot's legend by default (more: from its right-click menu).
constexpr int kLegendMaxEntries = 16;
// Regularisation the rewind button sets (scikit-learn's default reg_covar).
constexpr double kSafeReg = 1e-6;

uint64_t mix_hash(uint64_t h, const void* p, size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
uint64_t mix_hash(uint64_t h, double v) { return mix_hash(h, &v, sizeof v); }

const char* covariance_name(int t) {
  switch (t) {
    case 1: return "diag";
    case 2: return "spherical";
    case 3: return "tied";
    default: return "full";
  }
}

// A caption that says what the (sub-)step just shown did, after the shared position label.
std::string caption(const GmmSnapshot& s, const ModuleInfo* info) {
  const std::string at = position_label(s, info, true);
  if (s.iteration == 0 && s.phase == 0)
    return at + ": initial parameters (" + covariance_name(s.covariance_type) +
           " covariances). Sub-step (S) runs the E-step, step (Right) a whole EM iteration.";
  if (s.phase == 1)
    return at + ": responsibilities q_nk = pi_k N(x_n | mu_k, Sigma_k) / sum_l pi_l N(x_n | mu_l, "
                "Sigma_l). The colours change; the ellipses stay.";
  return at + ", M-step: N_k = sum_n q_nk, pi_k = N_k / n, mu_k = sum_n q_nk x_n / N_k, Sigma_k = sum_n q_nk "
              "(x_n - mu_k)(x_n - mu_k)^T / N_k + reg I. The ellipses move.";
}

double param_or(const ViewContext& ctx, const char* name, double fallback) {
  if (!ctx.values) return fallback;
  const auto it = ctx.values->find(name);
  return it == ctx.values->end() ? fallback : it->second;
}

}  // namespace

GmmView::GmmView() = default;

GmmView::~GmmView() { cancel_sweep(); }

void GmmView::on_reset() {
  drag_index_ = -1;
  hovered_row_ = -1;
  colours_mode_ = -1;
  kcolours_serial_ = 0;
  density_key_ = 0;
  cancel_sweep();
}

void GmmView::refresh_points(const Dataset& data, uint64_t version) {
  if (!scatter_.update(data, version, projection)) return;
  const int d = data.cols();
  const int n = data.rows();
  // Smallest positive feature variance: the scale a covariance eigenvalue is
  // compared with (features may differ in units, as Old Faithful's do).
  double var = INFINITY;
  if (n > 1) {
    const Eigen::RowVectorXd mean = data.x.colwise().mean();
    for (int j = 0; j < d; ++j) {
      const double v = (data.x.col(j).array() - mean(j)).square().sum() / (n - 1);
      if (v > 0 && v < var) var = v;
    }
  }
  data_scale_ = std::isfinite(var) ? var : 1.0;
  const std::vector<float>& xs = scatter_.xs();
  const std::vector<float>& ys = scatter_.ys();
  // Same units on both axes (a projection, or features of similar spread):
  // equal aspect, so ellipses look round when they are. Features in different
  // units (Old Faithful: minutes against minutes*20) fill the plot instead.
  equal_aspect_ = false;
  if (d >= 2 && n > 1) {
    double mx = 0, my = 0, vx = 0, vy = 0;
    for (int i = 0; i < n; ++i) mx += xs[i], my += ys[i];
    mx /= n, my /= n;
    for (int i = 0; i < n; ++i) vx += (xs[i] - mx) * (xs[i] - mx), vy += (ys[i] - my) * (ys[i] - my);
    const double ratio = std::sqrt(vx / std::max(vy, 1e-300));
    equal_aspect_ = !scatter_.uses_features() || (ratio > 1.0 / 3.0 && ratio < 3.0);
  }
  ++colours_version_;
  colours_mode_ = -1;
  kcolours_serial_ = 0;
  density_key_ = 0;
  fit_pending_ = true;  // new data or a new projection: show all of it
}

void GmmView::refresh_colours(const GmmSnapshot& snap, const Dataset& data) {
  const int n = data.rows();
  const int mode = colour_by == ColourBy::TrueLabel && data.has_labels() ? 1 : 0;
  // Labels depend on the data only (refresh_points resets the mode when it changes).
  const uint64_t serial = mode == 1 ? 0 : snap.serial.value;
  if (serial == colours_serial_ && mode == colours_mode_ && colours_shown_ == shown_ &&
      colours_theme_ == theme_serial() && static_cast<int>(colours_.size()) == n)
    return;
  colours_serial_ = serial;
  colours_theme_ = theme_serial();
  colours_mode_ = mode;
  colours_shown_ = shown_;
  std::vector<ImU32>& next = next_colours_;
  next.resize(n);
  auto publish = [&] {
    if (publish_colours(colours_, next, colours_version_)) ++colour_refreshes_;
  };
  if (mode == 1) {
    label_colours(data, shown_, 200, unassigned_colour(), next);
    publish();
    return;
  }
  const Eigen::MatrixXd* q = snap.resp.get();
  if (!q || q->rows() != n || q->cols() == 0) {
    std::fill(next.begin(), next.end(), unassigned_colour());
    publish();
    return;
  }
  // colour_n = sum_k q_nk colour_k (the row sums to 1, so the mix stays in gamut).
  const int k = static_cast<int>(q->cols());
  std::vector<float> rgb(3 * static_cast<size_t>(k));
  for (int j = 0; j < k; ++j) {
    const ImU32 c = plot::GetColormapColor(j);
    rgb[3 * j] = static_cast<float>((c >> IM_COL32_R_SHIFT) & 0xFF);
    rgb[3 * j + 1] = static_cast<float>((c >> IM_COL32_G_SHIFT) & 0xFF);
    rgb[3 * j + 2] = static_cast<float>((c >> IM_COL32_B_SHIFT) & 0xFF);
  }
  for (int i = 0; i < n; ++i) {
    float r = 0, g = 0, b = 0, best = -1.0f;
    int top = 0;  // the most responsible component: hidden in the legend -> point hidden
    for (int j = 0; j < k; ++j) {
      const auto w = static_cast<float>((*q)(i, j));
      r += w * rgb[3 * j];
      g += w * rgb[3 * j + 1];
      b += w * rgb[3 * j + 2];
      if (w > best) best = w, top = j;
    }
    auto byte = [](float v) { return static_cast<ImU32>(std::clamp(std::lround(v), 0L, 255L)); };
    const bool on = top >= static_cast<int>(shown_.size()) || shown_[top];
    next[i] = IM_COL32(byte(r), byte(g), byte(b), on ? 215 : 0);
  }
  publish();
}

int GmmView::last_good_iteration(const GmmSnapshot& snap, const ViewContext& ctx) const {
  // The newest earlier iteration whose log-likelihood is finite and whose
  // covariances are not already collapsing (smallest eigenvalue far above 0 on
  // the data's scale); read from the metric history (log_likelihood and
  // min_eigenvalue per iteration), else from stored snapshots; 0 if none.
  const double floor = 1e-4 * data_scale_;
  int ll_metric = -1, eig_metric = -1;
  if (ctx.info)
    for (size_t m = 0; m < ctx.info->metrics.size(); ++m) {
      if (ctx.info->metrics[m].name == "log_likelihood") ll_metric = static_cast<int>(m);
      if (ctx.info->metrics[m].name == "min_eigenvalue") eig_metric = static_cast<int>(m);
    }
  for (int i = snap.iteration - 1; i > 0; --i) {
    if (ctx.metric_history && i < static_cast<int>(ctx.metric_history->size()) && ll_metric >= 0 &&
        eig_metric >= 0) {
      const std::vector<double>& m = (*ctx.metric_history)[i];
      if (static_cast<int>(m.size()) > std::max(ll_metric, eig_metric)) {
        if (std::isfinite(m[ll_metric]) && std::isfinite(m[eig_metric]) && m[eig_metric] >= floor) return i;
        continue;
      }
    }
    const std::shared_ptr<const Snapshot> s = ctx.stored_snapshot ? ctx.stored_snapshot(i) : nullptr;
    const auto* g = dynamic_cast<const GmmSnapshot*>(s.get());
    if (!g || g->status == Status::Diverged) continue;
    bool ok = !g->min_eigenvalue.empty();
    for (double e : g->min_eigenvalue) ok = ok && std::isfinite(e) && e >= floor;
    if (ok) return i;
  }
  return 0;
}

void GmmView::draw_controls(const Snapshot& snap_base, const ViewContext& ctx) {
  const auto* snap = dynamic_cast<const GmmSnapshot*>(&snap_base);
  if (!snap || !ctx.data) return;
  const Dataset& data = *ctx.data;
  fit_text_disabled("View");
  ScatterProjection::draw_controls(data, projection,
                                   "Scatter of the scores on the first two principal axes. The ellipses and the "
                                   "density are the images of the components under that map: N(P mu_k, P Sigma_k "
                                   "P^T). EM still runs in all d dimensions.");
  if (data.has_labels()) {
    int c = static_cast<int>(colour_by);
    ImGui::RadioButton("colour by responsibilities", &c, 0);
    ImGui::SameLine();
    ImGui::RadioButton("by true label", &c, 1);
    colour_by = static_cast<ColourBy>(c);
  }
  ImGui::Checkbox("1 and 2 sigma ellipses", &show_ellipses);
  tooltip_text("Points x with (x - mu_k)^T Sigma_k^-1 (x - mu_k) = 1 and = 4. In 2-D the 1-sigma ellipse holds "
               "39% of a Gaussian's mass, the 2-sigma one 86%.");
  int dens = static_cast<int>(density);
  fit_text_unformatted("density:");
  ImGui::SameLine();
  ImGui::RadioButton("off", &dens, 0);
  ImGui::SameLine();
  ImGui::RadioButton("contours", &dens, 1);
  ImGui::SameLine();
  ImGui::RadioButton("heatmap", &dens, 2);
  density = static_cast<Density>(dens);
  tooltip_text("The mixture density p(x) = sum_k pi_k N(x | mu_k, Sigma_k) on a grid over the visible range. "
               "Contours: log p drops by 1 between lines. For d > 2 it is the density of the projected data.");
  ImGui::Checkbox("model selection (BIC / AIC)", &show_model_selection);
}

void GmmView::draw_banner(const GmmSnapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  rewind_button_ = ImVec2(NAN, NAN);
  rewind_target_ = -1;
  const int k = snap.k();
  int unplaced = 0;
  for (char p : snap.placed) unplaced += p ? 0 : 1;
  if (snap.status == Status::Diverged) {
    const int j = snap.collapsed;
    if (j >= 0) {
      const double ev = j < static_cast<int>(snap.min_eigenvalue.size()) ? snap.min_eigenvalue[j] : NAN;
      fit_text_colored(
          error_colour(),
          "Diverged: component %d collapsed - Sigma_%d is singular (smallest eigenvalue "
          "%.3g), the likelihood is unbounded.",
          j, j, ev);
    } else {
      fit_text_colored(error_colour(), "Diverged: the log-likelihood is no longer finite.");
    }
    if (!snap.message.empty()) tooltip_text(snap.message.c_str());
    ImGui::PushTextWrapPos(0.0f);
    fit_text_disabled(
        "With reg = 0 nothing stops a component from shrinking onto one point (or a line of points): det(Sigma_k) "
        "-> 0, N(x_n | mu_k, Sigma_k) -> infinity, and maximum likelihood has no maximum. scikit-learn adds "
        "reg_covar * I to every Sigma_k to prevent it.");
    ImGui::PopTextWrapPos();
    rewind_target_ = last_good_iteration(snap, ctx);
    char label[96];
    std::snprintf(label, sizeof label, "Rewind to iteration %d and set reg = 1e-6", rewind_target_);
    if (ImGui::Button(label)) {
      out.push_back(ViewIntent::seek(rewind_target_));
      out.push_back(ViewIntent::set_param("reg", kSafeReg));
    }
    rewind_button_ = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f,
                            (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f);
    tooltip_text("Goes back to the last iteration before the collapse began (finite log-likelihood, every "
                 "covariance still well conditioned), then sets reg (reg_covar) = 1e-6; EM continues from there.");
  } else if (unplaced > 0 && snap.iteration == 0 && snap.phase == 0) {
    fit_text_colored(warn_colour(),
                       "Manual init: click in the plot to place mean %d (%d of %d placed)",
                       k - unplaced, k - unplaced, k);
  } else {
    // The singularity warning before it happens.
    int worst = -1;
    double worst_ev = INFINITY;
    for (int j = 0; j < static_cast<int>(snap.min_eigenvalue.size()); ++j)
      if (snap.min_eigenvalue[j] < worst_ev) worst_ev = snap.min_eigenvalue[j], worst = j;
    if (worst >= 0 && worst_ev < 1e-4 * data_scale_)
      fit_text_colored(warn_colour(),
                         "Component %d is collapsing: smallest eigenvalue of Sigma_%d = %.3g "
                         "(smallest feature variance %.3g).",
                         worst, worst, worst_ev, data_scale_);
    else if (!snap.message.empty())
      fit_text_colored(warn_colour(), "%s", snap.message.c_str());
  }
}

void GmmView::draw(const Snapshot& snap_base, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* snap_ptr = dynamic_cast<const GmmSnapshot*>(&snap_base);
  mean_pixels_.clear();
  ellipses_drawn_ = 0;
  contour_segments_drawn_ = 0;
  kmeans_plot_drawn_ = false;
  if (!snap_ptr || !ctx.data || ctx.data->rows() == 0) {
    fit_text_disabled("No Gaussian-mixture state to show.");
    return;
  }
  const GmmSnapshot& snap = *snap_ptr;
  const Dataset& data = *ctx.data;
  refresh_points(data, ctx.data_version);

  // ---- shortcut K: compare with k-means (each press toggles; the app queues the presses).
  const bool compare_on = param_or(ctx, "compare_kmeans", snap.kmeans ? 1.0 : 0.0) != 0.0;
  if (key_presses(ctx, kKeyCompare) % 2 == 1)
    out.push_back(ViewIntent::set_param("compare_kmeans", compare_on ? 0.0 : 1.0));

  // ---- caption, log-likelihood, toggles, banner.
  ImGui::PushTextWrapPos(0.0f);
  fit_text_unformatted(caption(snap, ctx.info).c_str());
  ImGui::PopTextWrapPos();
  const double ll = snap.metrics.empty() ? NAN : snap.metrics[0];
  if (std::isnan(ll)) fit_text_disabled("log-likelihood / n = n/a");
  else fit_text("log-likelihood / n = %.6g", ll);
  tooltip_text("Mean log-likelihood per sample (scikit-learn's score()): (1/n) sum_n log sum_k pi_k N(x_n | mu_k, "
               "Sigma_k), computed in the E-step from the parameters entering the iteration. EM never lets it "
               "fall (unless you drag a mean); with reg = 0 it can run to infinity.");
  same_line_if_fits(checkbox_width("Compare with k-means (K)"), ImGui::GetFontSize() * 2);
  bool compare = compare_on;
  if (ImGui::Checkbox("Compare with k-means (K)", &compare))
    out.push_back(ViewIntent::set_param("compare_kmeans", compare ? 1.0 : 0.0));
  tooltip_text("Runs k-means on the same data, k and seed, one Lloyd iteration per EM iteration, and draws it "
               "beside: hard assignment (each point to its nearest centroid) versus soft (q_nk).");
  same_line_if_fits(checkbox_width("Model selection (BIC)"));
  ImGui::Checkbox("Model selection (BIC)", &show_model_selection);
  tooltip_text("Fits K = 1..Kmax on a background thread and plots BIC and AIC; click a K to load it.");
  draw_banner(snap, ctx, out);

  // ---- layout: [GMM plot | k-means plot] over the sweep panel, then the side column (full height).
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float side_w = std::max(ImGui::GetFontSize() * 13, avail.x * 0.22f);
  const float left_w = avail.x - side_w - style.ItemSpacing.x;
  // Short windows (a 1280 x 720 projector): every plot keeps a readable height and the column
  // scrolls instead of squeezing them.
  const float sweep_min = min_plot_height(true) + 2 * style.WindowPadding.y;
  const float sweep_h =
      show_model_selection
          ? std::max(sweep_min, std::max(std::min(ImGui::GetFontSize() * 12, avail.y * 0.5f), avail.y * 0.36f))
          : 0.0f;
  float top_h =
      std::max(min_plot_height(true) + ImGui::GetFontSize() * 4, avail.y - sweep_h - (sweep_h > 0 ? style.ItemSpacing.y : 0));
  // GMM beside k-means while each keeps 16 font sizes of width, else one above the other (a
  // Compare half at 150 %), each at least a readable plot tall (the column then scrolls).
  const bool stacked = snap.kmeans && panel_pair(left_w - style.ScrollbarSize, 16).stacked;
  const float pair_h = std::max(min_plot_height(true) + ImGui::GetFontSize() * 2.5f, (top_h - style.ItemSpacing.y) * 0.5f);
  if (stacked) top_h = 2 * pair_h + style.ItemSpacing.y;
  const bool left_scrolls = top_h + (sweep_h > 0 ? sweep_h + style.ItemSpacing.y : 0) > avail.y + 0.5f;
  if (left_scrolls) ImGui::BeginChild("##gmm_left", ImVec2(left_w, avail.y), false);
  const float inner_w = left_scrolls ? left_w - style.ScrollbarSize : left_w;
  ImGui::BeginGroup();
  if (stacked) {
    draw_gmm_plot(snap, ctx, ImVec2(inner_w, pair_h), out);
    draw_kmeans_plot(snap, data, ImVec2(inner_w, pair_h));
  } else if (snap.kmeans) {
    const float w = (inner_w - style.ItemSpacing.x) * 0.5f;
    draw_gmm_plot(snap, ctx, ImVec2(w, top_h), out);
    ImGui::SameLine();
    draw_kmeans_plot(snap, data, ImVec2(w, top_h));
  } else {
    draw_gmm_plot(snap, ctx, ImVec2(inner_w, top_h), out);
  }
  if (show_model_selection) draw_sweep(snap, ctx, ImVec2(inner_w, sweep_h), out);
  ImGui::EndGroup();
  if (left_scrolls) ImGui::EndChild();
  ImGui::SameLine();
  draw_side(snap, ctx, ImVec2(side_w, avail.y));
}

void GmmView::draw_density(const GmmSnapshot& snap) {
  const plot::Limits lim = plot::GetPlotLimits();
  const ImVec2 size = plot::GetPlotSize();
  const int k = snap.k();
  std::vector<Gauss2> mix;
  mix.reserve(k);
  for (int j = 0; j < k; ++j) {
    if (!snap.placed.empty() && j < static_cast<int>(snap.placed.size()) && !snap.placed[j]) continue;
    if (j >= static_cast<int>(snap.covariances.size()) || j >= snap.weights.size()) continue;
    const Eigen::Vector2d m = scatter_.project(snap.means.row(j).transpose());
    const Eigen::Matrix2d s = scatter_.project_covariance(snap.covariances[j]);
    mix.push_back({snap.weights(j), m.x(), m.y(), s(0, 0), s(0, 1), s(1, 1)});
  }
  uint64_t key = 1469598103934665603ull;
  for (const Gauss2& g : mix) key = mix_hash(key, &g, sizeof g);
  key = mix_hash(key, lim.x_min);
  key = mix_hash(key, lim.x_max);
  key = mix_hash(key, lim.y_min);
  key = mix_hash(key, lim.y_max);
  key = mix_hash(key, static_cast<double>(density));
  key = mix_hash(key, static_cast<double>(size.x) * 7919.0 + size.y);
  if (key != density_key_) {
    density_key_ = key;
    grid_x0_ = lim.x_min, grid_x1_ = lim.x_max, grid_y0_ = lim.y_min, grid_y1_ = lim.y_max;
    density_grid_ = mixture_log_density_grid(mix, kDensityGrid, kDensityGrid, grid_x0_, grid_x1_, grid_y0_, grid_y1_);
    density_max_ = -INFINITY;
    for (double v : density_grid_)
      if (std::isfinite(v)) density_max_ = std::max(density_max_, v);
    contours_.clear();
    density_rgba_.clear();
    if (std::isfinite(density_max_)) {
      if (density == Density::Contours) {
        std::vector<double> levels;
        contour_colours_.clear();
        for (int i = 1; i <= kContourLevels; ++i) {
          levels.push_back(density_max_ - kContourStep * i);
          contour_colours_.push_back(0);  // set when drawn (the theme's ink, fainter further out)
        }
        density_contours(density_grid_, kDensityGrid, kDensityGrid, grid_x0_, grid_x1_, grid_y0_, grid_y1_, levels,
                         contours_);
      } else {
        density_rgba_.resize(density_grid_.size());
        for (size_t i = 0; i < density_grid_.size(); ++i) {
          const double t = std::isfinite(density_grid_[i]) ? std::exp(0.5 * (density_grid_[i] - density_max_)) : 0.0;
          const ImU32 c = plot::SampleColormap(t, plot::Colormap::Viridis);
          density_rgba_[i] = with_alpha(c, static_cast<int>(std::lround(40 + 150 * t)));
        }
      }
    }
  }
  // Its key: contours get a legend entry (hiding it hides them), the heatmap a colour bar
  // (SetupColorBar in draw_gmm_plot).
  const char* label = "density p(x): log p falls by 1 per line##density";
  plot::Spec spec;
  spec.flags = plot::ItemFlags_NoFit | (density == Density::Contours ? 0 : plot::ItemFlags_NoLegend);
  spec.color = colors().text;
  if (density == Density::Contours) {
    for (size_t i = 0; i < contour_colours_.size(); ++i)
      contour_colours_[i] = with_alpha(colors().text, 150 - 12 * static_cast<int>(i + 1));
    spec.line_weight = 1.0f;
    if (plot::PlotContours(label, contours_, contour_colours_.data(), spec))
      contour_segments_drawn_ = static_cast<int>(contours_.size());
    return;
  }
  if (!plot::BeginItem(label, spec)) return;
  ImDrawList* dl = plot::GetPlotDrawList();
  if (!density_rgba_.empty()) {
    const ImVec2 tl = plot::PlotToPixels(grid_x0_, grid_y1_), br = plot::PlotToPixels(grid_x1_, grid_y0_);
    plot::TextureProvider* tex = plot::GetTextureProvider();
    if (tex) {
      static_assert(sizeof(ImU32) == sizeof(uint32_t), "pixel layout");
      // Upload only when the grid changed (the key above), then reuse the texture.
      if (density_uploaded_key_ != density_key_) {
        density_texture_ = tex->Update(kDensityTextureKey, kDensityGrid, kDensityGrid, density_rgba_.data());
        density_uploaded_key_ = density_key_;
      }
      dl->AddImage(density_texture_, tl, br);
    } else {
      const float cw = (br.x - tl.x) / kDensityGrid, ch = (br.y - tl.y) / kDensityGrid;
      for (int r = 0; r < kDensityGrid; ++r)
        for (int c = 0; c < kDensityGrid; ++c) {
          const ImU32 col = density_rgba_[static_cast<size_t>(r) * kDensityGrid + c];
          if ((col >> IM_COL32_A_SHIFT) < 50) continue;
          dl->AddRectFilled(ImVec2(tl.x + c * cw, tl.y + r * ch), ImVec2(tl.x + (c + 1) * cw, tl.y + (r + 1) * ch), col);
        }
    }
  }
  plot::EndItem();
}

void GmmView::draw_gmm_plot(const GmmSnapshot& snap, const ViewContext& ctx, ImVec2 size,
                            std::vector<ViewIntent>& out) {
  const Dataset& data = *ctx.data;
  const int d = data.cols();
  const int k = snap.k();
  const std::string xl = scatter_.axis_label(0, data), yl = scatter_.axis_label(1, data);
  const ImGuiIO& io = ImGui::GetIO();
  const bool point_edit = ctx.edit_points || (io.KeyShift && d == 2);
  int unplaced = 0;
  for (char p : snap.placed) unplaced += p ? 0 : 1;
  auto is_placed = [&](int j) { return snap.placed.empty() || (j < static_cast<int>(snap.placed.size()) && snap.placed[j]); };

  const bool by_label = colour_by == ColourBy::TrueLabel && data.has_labels();
  plot::PlotFlags flags = 0;
  if (!by_label && k > kLegendMaxEntries) flags |= plot::PlotFlags_NoLegend;
  if (equal_aspect_) flags |= plot::PlotFlags_EqualAspect;
  if (ctx.edit_points) flags |= plot::PlotFlags_NoMenus;
  const char* title = d > 2 ? "GMM, soft (q_nk); projected ellipses P Sigma_k P^T##gmm" : "GMM, soft assignment (q_nk)##gmm";
  if (!plot::BeginPlot(title, size, flags)) return;
  plot::SetupAxes(xl.c_str(), yl.empty() ? nullptr : yl.c_str());
  const bool heatmap = density == Density::Heatmap && d >= 2;
  if (heatmap) plot::SetupColorBar("density: sqrt(p(x) / max p)", 0.0, 1.0, plot::Colormap::Viridis);
  if (fit_pending_) {
    plot::RequestFit();
    fit_pending_ = false;
  }
  const plot::Limits lim = plot::GetPlotLimits();
  lim_x0_ = lim.x_min, lim_x1_ = lim.x_max, lim_y0_ = lim.y_min, lim_y1_ = lim.y_max;
  have_limits_ = true;

  if (density != Density::Off && d >= 2) draw_density(snap);

  // The colour key: components (a point takes the colours of its components, mixed by q_nk;
  // hiding one hides the points it is most responsible for) or the true classes.
  if (by_label)
    label_legend(data, shown_);
  else
    cluster_legend("component", k, shown_);
  refresh_colours(snap, data);
  plot::Spec pts;
  pts.colors = colours_.data();
  pts.marker = by_label ? kLabelMarker : plot::Marker::Circle;
  pts.marker_size = data.rows() > 5000 ? 2.0f : 3.5f;
  pts.version = colours_version_;
  plot::PlotScatter("##points", scatter_.xs().data(), scatter_.ys().data(), static_cast<int>(scatter_.xs().size()), pts);

  // Ellipses: 1 sigma (bold, lightly filled) and 2 sigma (thin).
  std::vector<Eigen::Vector2d> centre(k, Eigen::Vector2d::Zero());
  for (int j = 0; j < k; ++j) centre[j] = scatter_.project(snap.means.row(j).transpose());
  if (show_ellipses) {
    for (int j = 0; j < k && j < static_cast<int>(snap.covariances.size()); ++j) {
      if (!is_placed(j)) continue;
      const Eigen::Matrix2d s = scatter_.project_covariance(snap.covariances[j]);
      const ImU32 col = plot::GetColormapColor(j);
      plot::Spec one;
      one.color = with_alpha(col, 255);
      one.fill_color = with_alpha(col, 28);
      one.line_weight = 2.2f;
      one.flags = plot::ItemFlags_NoLegend;
      plot::PlotEllipse(centre[j].x(), centre[j].y(), s(0, 0), s(0, 1), s(1, 1), 1.0, one);
      plot::Spec two;
      two.color = with_alpha(col, 170);
      two.line_weight = 1.2f;
      two.flags = plot::ItemFlags_NoLegend;
      plot::PlotEllipse(centre[j].x(), centre[j].y(), s(0, 0), s(0, 1), s(1, 1), 2.0, two);
      ellipses_drawn_ += 2;
    }
  }

  // Means: draggable handles with their index and weight.
  bool any_drag = false;
  mean_pixels_.assign(k, ImVec2(NAN, NAN));
  for (int j = 0; j < k; ++j) {
    if (!is_placed(j)) continue;
    double x = centre[j].x(), y = centre[j].y();
    const bool dragging = plot::DragPoint(j, &x, &y, plot::GetColormapColor(j), 6.5f);
    const ImVec2 px = plot::PlotToPixels(x, y);
    mean_pixels_[j] = px;
    ImDrawList* dl = plot::GetPlotDrawList();
    dl->AddCircle(px, 8.0f, colors().selection, 20, 2.0f);
    char label[16];
    std::snprintf(label, sizeof label, "%d", j);
    dl->AddText(ImVec2(px.x + 9, px.y - ImGui::GetFontSize() - 2), colors().text, label);
    if (j == snap.collapsed) {  // the singular component: a red ring and a label
      dl->AddCircle(px, 15.0f, colors().error, 24, 2.5f);
      dl->AddText(ImVec2(px.x + 16, px.y + 4), colors().error, "Sigma singular");
    }
    if (dragging) {
      any_drag = true;
      drag_index_ = j;
      ImGui::SetTooltip("mean mu_%d: drop it anywhere; EM continues from there (the next E-step re-weighs every "
                        "point)", j);
      if (x != centre[j].x() || y != centre[j].y()) {
        ViewIntent vi;
        vi.intent.kind = "move_mean";
        vi.intent.index = j;
        const Eigen::VectorXd moved = scatter_.unproject(snap.means.row(j).transpose(), x, y);
        vi.intent.values.assign(moved.data(), moved.data() + moved.size());
        out.push_back(vi);
      }
    }
  }
  if (!any_drag) drag_index_ = -1;

  // Clicks: manual placement, point edits.
  if (!any_drag)
    scatter_clicks(scatter_, data, ctx, unplaced > 0 && snap.iteration == 0 && snap.phase == 0, point_edit, "place_mean",
                   out);
  hovered_row_ = -1;
  if (!any_drag && plot::IsPlotHovered() && !ImGui::IsMouseDown(0)) hover_readout(snap, data);
  plot::EndPlot();
}

void GmmView::hover_readout(const GmmSnapshot& snap, const Dataset& data) {
  const int best = scatter_.hovered_row();
  if (best < 0) return;
  hovered_row_ = best;
  ImGui::BeginTooltip();
  row_tooltip_header(data, best);
  if (data.cols() <= 6)
    for (int j = 0; j < data.cols(); ++j)
      fit_text("%s = %.4g", j < static_cast<int>(data.column_names.size()) ? data.column_names[j].c_str() : "x",
                  data.x(best, j));
  const Eigen::MatrixXd* q = snap.resp.get();
  if (q && best < q->rows()) {
    ImGui::Separator();
    fit_text_unformatted("responsibilities q_nk = p(z = k | x_n):");
    const float bar_w = ImGui::GetFontSize() * 8;
    for (int j = 0; j < q->cols(); ++j) {
      const ImVec4 c = ImGui::ColorConvertU32ToFloat4(plot::GetColormapColor(j));
      fit_text_colored(c, "k = %d", j);
      ImGui::SameLine(ImGui::GetFontSize() * 3.5f);
      ImGui::PushStyleColor(ImGuiCol_PlotHistogram, c);
      char txt[32];
      std::snprintf(txt, sizeof txt, "%.3f", (*q)(best, j));
      ImGui::ProgressBar(static_cast<float>((*q)(best, j)), ImVec2(bar_w, 0), txt);
      ImGui::PopStyleColor();
    }
    fit_text_disabled("q_nk = pi_k N(x_n | mu_k, Sigma_k) / sum_l pi_l N(x_n | mu_l, Sigma_l)");
    if (snap.kmeans && snap.kmeans->labels && best < static_cast<int>(snap.kmeans->labels->size()))
      fit_text("k-means (hard): cluster %d", (*snap.kmeans->labels)[best]);
  } else {
    fit_text_disabled("no responsibilities before the first E-step");
  }
  ImGui::EndTooltip();
}

void GmmView::draw_kmeans_plot(const GmmSnapshot& snap, const Dataset& data, ImVec2 size) {
  const KMeansSnapshot& km = *snap.kmeans;
  const int d = data.cols();
  const int k = km.k();
  const size_t n = scatter_.xs().size();
  if (km.serial.value != kcolours_serial_ || kcolours_theme_ != theme_serial() ||
      kcolours_.size() != n) {
    kcolours_serial_ = km.serial.value;
    kcolours_theme_ = theme_serial();
    kcolours_.resize(n);
    ++kcolours_version_;
    for (size_t i = 0; i < n; ++i) {
      const int z = km.labels && i < km.labels->size() ? (*km.labels)[i] : -1;
      kcolours_[i] = z >= 0 ? with_alpha(plot::GetColormapColor(z), 215) : unassigned_colour();
    }
  }
  const std::string xl = scatter_.axis_label(0, data), yl = scatter_.axis_label(1, data);
  plot::PlotFlags flags = plot::PlotFlags_NoLegend | plot::PlotFlags_NoInputs;
  if (equal_aspect_) flags |= plot::PlotFlags_EqualAspect;
  char title[160];
  const double inertia = km.metrics.empty() ? NAN : km.metrics[0];
  if (std::isnan(inertia)) std::snprintf(title, sizeof title, "k-means, hard assignment (J = n/a)##gmm_kmeans");
  else std::snprintf(title, sizeof title, "k-means, hard assignment (J = %.5g)##gmm_kmeans", inertia);
  if (!plot::BeginPlot(title, size, flags)) return;
  plot::SetupAxes(xl.c_str(), yl.empty() ? nullptr : yl.c_str());
  if (have_limits_) plot::SetupAxesLimits(lim_x0_, lim_x1_, lim_y0_, lim_y1_, plot::Cond::Always);
  std::vector<Vec2> sites(k);
  for (int j = 0; j < k; ++j) {
    const Eigen::Vector2d v = scatter_.project(km.centroids.row(j).transpose());
    sites[j] = {v.x(), v.y()};
  }
  if (d == 2 && k > 1) voronoi_regions(sites, 24, nullptr);
  plot::Spec pts;
  pts.colors = kcolours_.data();
  pts.marker_size = data.rows() > 5000 ? 2.0f : 3.5f;
  pts.version = kcolours_version_;
  pts.flags = plot::ItemFlags_NoFit;
  plot::PlotScatter("##points_km", scatter_.xs().data(), scatter_.ys().data(), static_cast<int>(scatter_.xs().size()),
                    pts);
  plot::Spec cs;
  cs.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
  if (plot::BeginItem("##km_centroids", cs)) {
    ImDrawList* dl = plot::GetPlotDrawList();
    for (int j = 0; j < k; ++j) {
      const ImVec2 p = plot::PlotToPixels(sites[j].x, sites[j].y);
      dl->AddCircleFilled(p, 6.5f, plot::GetColormapColor(j), 20);
      dl->AddCircle(p, 8.0f, colors().selection, 20, 2.0f);
      char label[16];
      std::snprintf(label, sizeof label, "%d", j);
      dl->AddText(ImVec2(p.x + 9, p.y - ImGui::GetFontSize() - 2), colors().text, label);
    }
    plot::EndItem();
  }
  kmeans_plot_drawn_ = true;
  plot::EndPlot();
}

void GmmView::draw_side(const GmmSnapshot& snap, const ViewContext& ctx, ImVec2 size) {
  ImGui::BeginChild("##gmm_side", size, false);
  ImGui::PushTextWrapPos(0.0f);  // captions wrap in a narrow column
  const int k = snap.k();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // Three plots share the height, each at least min_plot_height() (the column scrolls then).
  const float h = std::max(min_plot_height(), (size.y - 3 * line) / 3.0f - ImGui::GetStyle().ItemSpacing.y);

  // Log-likelihood per iteration; a fall (only possible after an edit) in red.
  int metric = 0;
  if (ctx.info)
    for (size_t m = 0; m < ctx.info->metrics.size(); ++m)
      if (ctx.info->metrics[m].name == "log_likelihood") metric = static_cast<int>(m);
  std::vector<double> xs, ys;
  if (ctx.metric_history)
    for (size_t i = 0; i < shown_rows(*ctx.metric_history, snap.iteration); ++i) {
      const std::vector<double>& m = (*ctx.metric_history)[i];
      xs.push_back(static_cast<double>(i));
      ys.push_back(metric < static_cast<int>(m.size()) ? m[metric] : NAN);
    }
  fit_text_unformatted("log-likelihood / n per iteration");
  tooltip_text("(1/n) sum_n log p(x_n): EM never decreases it (Jensen: the E-step makes the lower bound tight, the "
               "M-step maximises it). Red marks a fall, which only an edit (a dragged mean) can cause. It is "
               "evaluated at the parameters entering each iteration's E-step, so iteration 0 has no value.");
  if (plot::BeginPlot("##gmm_ll", ImVec2(-1, h), plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("iteration", nullptr, plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec spec;
    spec.color = plot::GetColormapColor(0);
    spec.line_weight = 2.0f;
    if (xs.size() <= 60) spec.marker = plot::Marker::Circle, spec.marker_size = 2.5f;
    plot::PlotLine("log-likelihood", xs.data(), ys.data(), static_cast<int>(xs.size()), spec);
    std::vector<double> fx, fy;
    for (size_t i = 1; i < ys.size(); ++i)
      if (std::isfinite(ys[i]) && std::isfinite(ys[i - 1]) && ys[i] < ys[i - 1] - 1e-9 * std::abs(ys[i - 1]))
        fx.push_back(xs[i]), fy.push_back(ys[i]);
    if (!fx.empty()) {
      plot::Spec bad;
      bad.color = colors().error;
      bad.marker_size = 4.5f;
      bad.flags = plot::ItemFlags_NoLegend;
      plot::PlotScatter("##falls", fx.data(), fy.data(), static_cast<int>(fx.size()), bad);
    }
    plot::Spec cur;
    cur.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
    if (plot::BeginItem("##ll_now", cur)) {
      const plot::Limits lim = plot::GetPlotLimits();
      plot::GetPlotDrawList()->AddLine(plot::PlotToPixels(snap.iteration, lim.y_min),
                                       plot::PlotToPixels(snap.iteration, lim.y_max),
                                       colors().guide);
      plot::EndItem();
    }
    plot::EndPlot();
  }

  // Mixture weights.
  fit_text_unformatted("mixture weights pi_k");
  tooltip_text("pi_k = N_k / n with N_k = sum_n q_nk: the share of the data each component explains (sum 1).");
  if (plot::BeginPlot("##gmm_weights", ImVec2(-1, h), plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("component k", nullptr, plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    for (int j = 0; j < k && j < snap.weights.size(); ++j) {
      std::vector<double> v(k, 0.0);
      v[j] = snap.weights(j);
      plot::Spec spec;
      spec.color = plot::GetColormapColor(j);
      spec.flags = plot::ItemFlags_NoLegend;
      char id[32];
      std::snprintf(id, sizeof id, "##w%d", j);
      plot::PlotBars(id, v.data(), k, 0.7, 0.0, spec);
    }
    plot::EndPlot();
  }

  // Smallest eigenvalue of every covariance (log scale) with reg as a floor.
  fit_text_unformatted("min eigenvalue of Sigma_k");
  tooltip_text("lambda_min(Sigma_k) on a log scale. It heads for 0 when a component collapses onto few points; "
               "reg adds reg to every eigenvalue, so it can never go below the dashed line.");
  if (plot::BeginPlot("##gmm_mineig", ImVec2(-1, h), plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("component k", nullptr, plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
    for (int j = 0; j < static_cast<int>(snap.min_eigenvalue.size()); ++j) {
      const double xj = j, yj = std::max(snap.min_eigenvalue[j], 1e-17);  // 0 shown at the floor
      plot::Spec spec;
      spec.color = plot::GetColormapColor(j);
      spec.marker_size = j == snap.collapsed ? 7.0f : 5.0f;
      spec.flags = plot::ItemFlags_NoLegend;
      char id[32];
      std::snprintf(id, sizeof id, "##e%d", j);
      plot::PlotScatter(id, &xj, &yj, 1, spec);
    }
    plot::Spec room;
    room.flags = plot::ItemFlags_NoLegend;
    if (plot::BeginItem("##eig_room", room)) {  // headroom: markers off the frame
      if (plot::FitThisFrame())
        for (int j = 0; j < static_cast<int>(snap.min_eigenvalue.size()); ++j)
          if (snap.min_eigenvalue[j] > 0) {
            plot::FitPoint(j - 0.5, snap.min_eigenvalue[j] * 4.0);
            plot::FitPoint(j + 0.5, snap.min_eigenvalue[j] / 4.0);
          }
      plot::EndItem();
    }
    const double reg = snap.reg;
    if (reg > 0) {
      const double rx[2] = {-0.5, std::max(0.5, k - 0.5)}, ry[2] = {reg, reg};
      plot::Spec spec;
      spec.color = colors().neutral;
      spec.line_style = plot::LineStyle::Dashed;
      spec.flags = plot::ItemFlags_NoLegend;
      plot::PlotLine("reg", rx, ry, 2, spec);
    }
    plot::EndPlot();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

CILAB_REGISTER_VIEW(Gmm, GmmView);

}  // namespace cilab
