#include "views/common/metrics_view.h"
#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include "views/plot/contour.h"
#include "views/plot/plot.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>

namespace cilab {
namespace {

// A dashed vertical line at the iteration the views show.
void current_marker(int iteration) {
  plot::Spec spec;
  spec.color = colors().guide;
  spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
  if (plot::BeginItem("##current", spec)) {
    const plot::Limits lim = plot::GetPlotLimits();
    const ImVec2 a = plot::PlotToPixels(iteration, lim.y_min);
    const ImVec2 b = plot::PlotToPixels(iteration, lim.y_max);
    plot::GetPlotDrawList()->AddLine(a, b, spec.color, 1.0f);
    plot::EndItem();
  }
}

std::string fmt(double v) { return format_number(v, "%.6g"); }

// Four significant digits: two values share a caption (A/B compare).
std::string short_fmt(double v) { return format_number(v, "%.4g"); }

// One curve: value(i) for iteration i < size (NaN: no value), read in place, up to the iteration
// shown (`end` rows: a curve never shows the future of a run scrubbed back).
struct Series {
  const std::vector<std::vector<double>>* rows = nullptr;  // rows[i][index] ...
  int index = 0;
  const std::vector<double>* flat = nullptr;  // ... or flat[i]
  bool skip_first = false;                    // flat[0] is not a value (step time)
  size_t end = SIZE_MAX;                      // rows shown: the shown iteration + 1
  size_t size() const { return std::min(end, rows ? rows->size() : flat->size()); }
  void end_at(int iteration) { end = static_cast<size_t>(std::max(0, iteration)) + 1; }
  double at(size_t i) const {
    if (rows) return index < static_cast<int>((*rows)[i].size()) ? (*rows)[i][index] : NAN;
    return skip_first && i == 0 ? NAN : (*flat)[i];
  }
};

// Decimation state of one plot, kept across frames in the plot context (by
// the plot's ID; dropped once the plot is no longer drawn): columns of a fixed
// width in iterations (a power of two, so the plot's autofit does not
// invalidate them), fed only with the iterations new since the last frame
// while the caller's version says the data only grew.
struct DecimationCache : plot::CacheEntry {
  plot::ColumnDecimator dec;
  const void* data = nullptr;
  int index = 0;
  uint64_t version = 0;
  double per_column = 0.0;
  bool log_y = false;
};

// True if the current plot's y axis is logarithmic (the plot's menu may toggle
// it): on a log axis the geometric mean of the limits sits half-way in pixels.
bool plot_y_is_log() {
  const plot::Limits lim = plot::GetPlotLimits();
  if (!(lim.y_min > 0 && lim.y_max > lim.y_min)) return false;
  const float a = plot::PlotToPixels(lim.x_min, lim.y_min).y, b = plot::PlotToPixels(lim.x_min, lim.y_max).y;
  return std::abs(plot::PlotToPixels(lim.x_min, std::sqrt(lim.y_min * lim.y_max)).y - 0.5f * (a + b)) < 0.25f;
}

// Draws the series decimated per column (plot::ColumnDecimator): a faint
// min-max band per column and a line through the columns' means, from the
// first to the last value of each finite run (NaN breaks stay gaps; on a log
// axis values <= 0 are gaps too, as in PlotLine). version: see draw_metric_plot.
void decimated_line(ImGuiID id, const char* y_label, const Series& ys, uint64_t version, const plot::Spec& spec) {
  const size_t n = ys.size();
  const double width_px = std::max(16.0f, plot::GetPlotSize().x);
  double per_column = 1.0;  // iterations per column: n / per_column in (width/2, width]
  while (static_cast<double>(n) / per_column > width_px) per_column *= 2.0;
  const bool log_y = plot_y_is_log();
  DecimationCache& c = plot::GetOrCreateCache<DecimationCache>(id);
  const void* data = ys.rows ? static_cast<const void*>(ys.rows) : static_cast<const void*>(ys.flat);
  if (version == 0 || c.version != version || c.data != data || c.index != ys.index ||
      c.per_column != per_column || c.log_y != log_y || c.dec.fed() > n) {
    // Column boundaries at multiples of per_column; y only orders values
    // (and takes log10 for a geometric mean on a log axis).
    c.dec.reset(plot::PixelMap{0.0, 1.0 / per_column, false}, plot::PixelMap{0.0, 1.0, log_y});
    c.data = data;
    c.index = ys.index;
    c.version = version;
    c.per_column = per_column;
    c.log_y = log_y;
  }
  for (size_t i = c.dec.fed(); i < n; ++i) c.dec.add(static_cast<double>(i), ys.at(i));
  const std::vector<plot::ColumnDecimator::Band>& bands = c.dec.bands();

  plot::Spec bs;
  bs.color = spec.color;
  bs.flags = plot::ItemFlags_NoLegend;
  const std::string band_id = std::string("##band_") + y_label;
  if (plot::BeginItem(band_id.c_str(), bs)) {
    ImDrawList* dl = plot::GetPlotDrawList();
    const ImU32 band_col = (spec.color & ~IM_COL32_A_MASK) | (IM_COL32(0, 0, 0, 70) & IM_COL32_A_MASK);
    const bool fit = plot::FitThisFrame();
    for (const plot::ColumnDecimator::Band& b : bands) {
      if (std::isnan(b.lo)) continue;
      if (fit) {
        plot::FitPoint(b.x0, b.lo);
        plot::FitPoint(b.x1, b.hi);
      }
      const ImVec2 a = plot::PlotToPixels(b.x0, b.hi), d = plot::PlotToPixels(b.x1, b.lo);
      if (!(d.y - a.y > 1.5f)) continue;  // the line covers it
      dl->AddRectFilled(ImVec2(std::floor(a.x), a.y), ImVec2(std::floor(d.x) + 1.0f, d.y), band_col);
    }
    plot::EndItem();
  }
  std::vector<double> lx, ly;
  lx.reserve(bands.size() + 4);
  ly.reserve(bands.size() + 4);
  const plot::ColumnDecimator::Band* prev = nullptr;  // last band of the open run
  for (const plot::ColumnDecimator::Band& b : bands) {
    if (std::isnan(b.lo)) {
      if (prev) lx.push_back(prev->x1), ly.push_back(prev->last);
      lx.push_back(NAN), ly.push_back(NAN);
      prev = nullptr;
      continue;
    }
    if (!prev) lx.push_back(b.x0), ly.push_back(b.first);
    lx.push_back(0.5 * (b.x0 + b.x1)), ly.push_back(b.mean);
    prev = &b;
  }
  if (prev) lx.push_back(prev->x1), ly.push_back(prev->last);
  plot::PlotLine(y_label, lx.data(), ly.data(), static_cast<int>(lx.size()), spec);
}

// True when the series has values at a few iterations only (an epoch's words per second, a
// recall measured now and then): a line through consecutive values would draw nothing, so
// such a series is drawn as its values joined, with markers. Judged on at most ~2000 rows.
bool sparse_series(const Series& s) {
  const size_t n = s.size(), stride = std::max<size_t>(1, n / 2000);
  size_t seen = 0, finite = 0;
  for (size_t i = 0; i < n; i += stride, ++seen) finite += std::isfinite(s.at(i)) ? 1 : 0;
  if (n > 0 && (n - 1) % stride != 0) ++seen, finite += std::isfinite(s.at(n - 1)) ? 1 : 0;
  return finite > 0 && 2 * finite < seen;
}

// True when the series has a finite value (a full scan: called for series without one drawn).
bool has_value(const Series& s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (std::isfinite(s.at(i))) return true;
  return false;
}

// The last value of the series at or before iteration `it` and its iteration (-1: none).
double last_value(const Series& s, int it, int* at) {
  *at = -1;
  for (long i = std::min<long>(it, static_cast<long>(s.size()) - 1); i >= 0; --i) {
    const double v = s.at(static_cast<size_t>(i));
    if (std::isfinite(v)) {
      *at = static_cast<int>(i);
      return v;
    }
  }
  return NAN;
}

// The nearest iteration to the mouse: a dot on its value and a tooltip (with b: on both
// runs' values, named A and B).
void hover_readout(const char* y_label, const Series& ys, ImU32 color, MetricHover* out, const Series* b = nullptr,
                   ImU32 b_color = 0) {
  const size_t n = std::max(ys.size(), b ? b->size() : size_t(0));
  if (n == 0 || !plot::IsPlotHovered()) return;
  const double mx = plot::GetPlotMousePos().x;
  const int i = static_cast<int>(std::clamp(std::lround(mx), 0L, static_cast<long>(n) - 1));
  auto value = [i](const Series& s) { return static_cast<size_t>(i) < s.size() ? s.at(static_cast<size_t>(i)) : NAN; };
  const double v = value(ys);
  if (out) *out = MetricHover{true, i, v};
  plot::Spec spec;
  spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
  auto dot = [&](const char* id, double y, ImU32 c) {
    spec.color = c;
    if (std::isfinite(y) && plot::BeginItem(id, spec)) {
      plot::GetPlotDrawList()->AddCircleFilled(plot::PlotToPixels(i, y), 3.5f, c);
      plot::EndItem();
    }
  };
  dot("##hover", v, color);
  if (b) dot("##hover_b", value(*b), b_color);
  ImGui::BeginTooltip();
  fit_text("iteration %d", i);
  if (!b) {
    fit_text("%s = %s", y_label, fmt(v).c_str());
  } else {
    fit_text("A: %s = %s", y_label, fmt(v).c_str());
    fit_text("B: %s = %s", y_label, fmt(value(*b)).c_str());
  }
  ImGui::EndTooltip();
}

// One curve plot; with b, run B's curve over it (legend A, B; colours compare_color).
bool curve_plot(const char* id, const char* title, const char* y_label, const char* help, bool log_y,
                const Series& ys, uint64_t version, int current, float w, float h, ImU32 color,
                MetricHover* hover, const Series* b = nullptr, uint64_t b_version = 0) {
  ImGui::BeginGroup();
  // The caption never widens the column past its plot: cut with "..." (the tooltip has it whole).
  // Comparing, the caption's segments after '\t' are A's and B's values, in their colours (the legend).
  const ImVec2 title_size = ImGui::CalcTextSize(title);
  const bool cut = title_size.x > w;
  if (b && std::strchr(title, '\t')) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(std::min(w, title_size.x), title_size.y));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(p, ImVec2(p.x + w, p.y + title_size.y), true);
    float x = p.x;
    int segment = 0;
    for (const char* s = title; *s;) {
      const char* e = std::strchr(s, '\t');
      if (!e) e = s + std::strlen(s);
      // The runs' colours as text: darkened where needed to read on the window (theme.h legible).
      const ImU32 c = segment == 0 ? ImGui::GetColorU32(ImGuiCol_Text)
                                   : ImGui::ColorConvertFloat4ToU32(legible(compare_color(segment - 1)));
      dl->AddText(ImVec2(x, p.y), c, s, e);
      x += ImGui::CalcTextSize(s, e).x + ImGui::GetFontSize() * 0.6f;
      ++segment;
      s = *e ? e + 1 : e;
    }
    dl->PopClipRect();
  } else if (!cut) {
    fit_text_unformatted(title);
  } else {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(w, title_size.y));
    ImGui::RenderTextEllipsis(ImGui::GetWindowDrawList(), p, ImVec2(p.x + w, p.y + title_size.y), p.x + w, p.x + w,
                              title, nullptr, &title_size);
  }
  if (((help && *help) || cut) && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    if (cut) {
      std::string whole = title;
      std::replace(whole.begin(), whole.end(), '\t', ' ');
      fit_text_unformatted(whole.c_str());
    }
    if (help && *help) fit_text_unformatted(help);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  bool shown = false;
  const ImGuiID cache_id = ImGui::GetID(id);
  if (b) color = compare_color(0);
  if (plot::BeginPlot(id, ImVec2(w, h - ImGui::GetTextLineHeightWithSpacing()),
                      plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("iteration", nullptr, plot::AxisFlags_AutoFit,
                    plot::AxisFlags_AutoFit | (log_y ? plot::AxisFlags_LogScale : 0));
    plot::SetupFinish();
    auto curve = [&](const char* label, const Series& s, ImGuiID cid, uint64_t ver, ImU32 c) {
      plot::Spec spec;
      spec.color = c;
      spec.line_weight = 2.0f;
      const size_t n = s.size();
      if (sparse_series(s)) {  // values at a few iterations: joined, each one marked
        std::vector<double> xs, vs;
        for (size_t i = 0; i < n; ++i)
          if (std::isfinite(s.at(i))) xs.push_back(static_cast<double>(i)), vs.push_back(s.at(i));
        if (xs.size() <= 200) spec.marker = plot::Marker::Circle, spec.marker_size = 2.5f;
        plot::PlotLine(label, xs.data(), vs.data(), static_cast<int>(xs.size()), spec);
      } else if (static_cast<double>(n) > 2.0 * plot::GetPlotSize().x) {
        decimated_line(cid, label, s, ver, spec);
      } else {
        std::vector<double> v(n);
        for (size_t i = 0; i < n; ++i) v[i] = s.at(i);
        if (n <= 60) spec.marker = plot::Marker::Circle, spec.marker_size = 2.5f;
        plot::PlotLine(label, v.data(), static_cast<int>(n), 0.0, 1.0, spec);
      }
    };
    curve(b ? "A" : y_label, ys, cache_id, version, color);
    if (b) curve("B", *b, ImGui::GetID((std::string(id) + "#B").c_str()), b_version, compare_color(1));
    if (ys.size() > 0 && !has_value(ys) && !(b && has_value(*b))) {
      // Nothing to draw up to the shown iteration (a metric set at each epoch's end, before the
      // first one ends): said in the plot, not left as an empty frame.
      const plot::Limits lim = plot::GetPlotLimits();
      plot::PlotText("no value yet", 0.5 * (lim.x_min + lim.x_max), 0.5 * (lim.y_min + lim.y_max), ImVec2(0, 0),
                     colors().text_dim);
    }
    current_marker(current);
    hover_readout(y_label, ys, color, hover, b, compare_color(1));
    plot::EndPlot();
    shown = true;
  }
  ImGui::EndGroup();
  return shown;
}

}  // namespace

unsigned int compare_color(int side) { return plot::GetColormapColor(side ? 1 : 0); }

bool metric_uses_log_axis(const MetricInfo& metric, const std::vector<std::vector<double>>& metrics,
                          int metric_index) {
  if (!metric.log_scale) return false;
  const size_t n = metrics.size(), stride = std::max<size_t>(1, n / 100000);
  auto non_positive = [&](size_t i) {
    const std::vector<double>& row = metrics[i];
    const double v = metric_index >= 0 && metric_index < static_cast<int>(row.size()) ? row[static_cast<size_t>(metric_index)] : NAN;
    return std::isfinite(v) && v <= 0.0;
  };
  for (size_t i = 0; i < n; i += stride)
    if (non_positive(i)) return false;
  return n == 0 || !non_positive(n - 1);
}

bool draw_metric_plot(const char* id, const MetricInfo& metric, const std::vector<std::vector<double>>& metrics,
                      int metric_index, int current_iteration, float width, float height, MetricHover* hover,
                      uint64_t version) {
  Series ys;
  ys.rows = &metrics;
  ys.index = metric_index;
  ys.end_at(current_iteration);
  const double now =
      current_iteration >= 0 && current_iteration < static_cast<int>(metrics.size()) ? ys.at(current_iteration) : NAN;
  const bool log_y = metric_uses_log_axis(metric, metrics, metric_index);
  std::string title = metric.name + " = " + fmt(now);
  int at = -1;
  if (!std::isfinite(now) && sparse_series(ys)) {  // measured now and then: its last measure
    const double last = last_value(ys, current_iteration, &at);
    if (at >= 0) title = metric.name + " = " + fmt(last) + " (iteration " + std::to_string(at) + ")";
  }
  title += metric.log_scale && !log_y ? "  (linear: values <= 0)" : "";
  return curve_plot(id, title.c_str(), metric.name.c_str(), metric.help.c_str(), log_y, ys, version,
                    current_iteration, width, height, plot::GetColormapColor(metric_index), hover);
}

float metric_plot_min_height() { return min_plot_height() + ImGui::GetTextLineHeightWithSpacing(); }

float metric_strip_min_height() { return metric_plot_min_height() + 2.0f * ImGui::GetStyle().WindowPadding.y; }

int draw_metric_line(const ModuleInfo& info, const std::vector<std::vector<double>>& metrics, int current_iteration,
                     float width, const MetricCompare* b) {
  const float right = ImGui::GetCursorScreenPos().x + width;
  const float gap = ImGui::GetFontSize();
  auto value_at = [](const std::vector<std::vector<double>>& rows, size_t m, int it) {
    return it >= 0 && static_cast<size_t>(it) < rows.size() && m < rows[static_cast<size_t>(it)].size()
               ? rows[static_cast<size_t>(it)][m]
               : NAN;
  };
  int shown = 0;
  for (size_t m = 0; m < info.metrics.size(); ++m) {
    std::string value = short_fmt(value_at(metrics, m, current_iteration));
    if (b && b->metrics) value = "A " + value + "  B " + short_fmt(value_at(*b->metrics, m, b->current_iteration));
    const std::string& name = info.metrics[m].name;
    const float w = ImGui::CalcTextSize(name.c_str()).x + ImGui::GetStyle().ItemInnerSpacing.x +
                    ImGui::CalcTextSize(value.c_str()).x;
    const float ellipsis = ImGui::CalcTextSize("...").x + gap;
    if (shown > 0) ImGui::SameLine(0, gap);
    // The last metric needs no room for "..." after it.
    if (ImGui::GetCursorScreenPos().x + w + (m + 1 < info.metrics.size() ? ellipsis : 0.0f) > right) {
      fit_text_disabled("...");
      break;
    }
    ImGui::BeginGroup();
    fit_text_colored(colour_vec(colors().text_dim), "%s", name.c_str());
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    fit_text_unformatted(value.c_str());
    ImGui::EndGroup();
    ++shown;
  }
  return shown;
}

void draw_metric_plots(const ModuleInfo& info, const std::vector<std::vector<double>>& metrics,
                       const std::vector<double>& step_ms, int current_iteration, uint64_t version,
                       const MetricCompare* b) {
  // One plot per metric plus the step time, in as many rows as the width needs
  // (the strip scrolls when they do not fit its height).
  const int n = static_cast<int>(info.metrics.size()) + 1;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Each plot keeps a readable area (min_plot_height below its one-line caption); the strip scrolls.
  const float min_w = ImGui::GetFontSize() * 14.0f, min_h = metric_plot_min_height();
  const int cols = std::clamp(static_cast<int>((avail.x + spacing) / (min_w + spacing)), 1, n);
  const int rows = (n + cols - 1) / cols;
  const float w = std::max(80.0f, (avail.x - spacing * (cols - 1)) / cols);
  const float h = std::max(min_h, (avail.y - ImGui::GetStyle().ItemSpacing.y * (rows - 1)) / rows);
  for (int m = 0; m < n - 1; ++m) {
    if (m % cols) ImGui::SameLine();
    const std::string id = "##metric_" + info.metrics[m].name;
    if (!b || !b->metrics) {
      draw_metric_plot(id.c_str(), info.metrics[m], metrics, m, current_iteration, w, h, nullptr, version);
      continue;
    }
    // A and B: one axis for both (log only if both can be), both values in the caption.
    const MetricInfo& mi = info.metrics[m];
    Series a_s, b_s;
    a_s.rows = &metrics;
    a_s.index = m;
    a_s.end_at(current_iteration);
    b_s.rows = b->metrics;
    b_s.index = m;
    b_s.end_at(b->current_iteration);
    const bool log_y = metric_uses_log_axis(mi, metrics, m) && metric_uses_log_axis(mi, *b->metrics, m);
    auto now = [](const Series& s, int it) { return it >= 0 && static_cast<size_t>(it) < s.size() ? s.at(it) : NAN; };
    const std::string title = mi.name + "\tA = " + short_fmt(now(a_s, current_iteration)) +
                              "\tB = " + short_fmt(now(b_s, b->current_iteration)) +
                              (mi.log_scale && !log_y ? "  (linear)" : "");
    curve_plot(id.c_str(), title.c_str(), mi.name.c_str(), mi.help.c_str(), log_y, a_s, version, current_iteration,
               w, h, 0, nullptr, &b_s, b->version);
  }
  if ((n - 1) % cols) ImGui::SameLine();
  Series ys;
  ys.flat = &step_ms;
  ys.skip_first = true;  // iteration 0 is the initial state, no step
  ys.end_at(current_iteration);
  const double now = current_iteration > 0 && current_iteration < static_cast<int>(step_ms.size())
                         ? step_ms[current_iteration]
                         : NAN;
  Series bs;
  bs.flat = b ? b->step_ms : nullptr;
  bs.skip_first = true;
  if (b) bs.end_at(b->current_iteration);
  std::string title = "step time = " + fmt(now) + " ms";
  if (bs.flat) {
    const int bi = b->current_iteration;
    title = "step time (ms)\tA = " + short_fmt(now) + "\tB = " +
            short_fmt(bi > 0 && bi < static_cast<int>(bs.flat->size()) ? (*bs.flat)[bi] : NAN);
  }
  curve_plot("##metric_step_ms", title.c_str(), "ms", "Wall time of each step on the worker thread.",
             false, ys, version, current_iteration, w, h, with_alpha(colors().neutral, 255), nullptr,
             bs.flat ? &bs : nullptr, b ? b->version : 0);
}

}  // namespace cilab
