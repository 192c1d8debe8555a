#include "views/metrics_view.h"

#include "views/plot/plot.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

// A dashed vertical line at the iteration the views show.
void current_marker(int iteration) {
  plot::Spec spec;
  spec.color = IM_COL32(255, 255, 255, 90);
  spec.flags = plot::ItemFlags_NoLegend | plot::ItemFlags_NoFit;
  if (plot::BeginItem("##current", spec)) {
    const plot::Limits lim = plot::GetPlotLimits();
    const ImVec2 a = plot::PlotToPixels(iteration, lim.y_min);
    const ImVec2 b = plot::PlotToPixels(iteration, lim.y_max);
    plot::GetPlotDrawList()->AddLine(a, b, spec.color, 1.0f);
    plot::EndItem();
  }
}

std::string fmt(double v) {
  char buf[48];
  if (std::isnan(v)) return "n/a";
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool curve_plot(const char* id, const char* title, const char* y_label, const char* help, bool log_y,
                const std::vector<double>& xs, const std::vector<double>& ys, int current, float w, float h,
                ImU32 color) {
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  if (help && *help && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(help);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  bool shown = false;
  if (plot::BeginPlot(id, ImVec2(w, h - ImGui::GetTextLineHeightWithSpacing()),
                      plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("iteration", nullptr, plot::AxisFlags_AutoFit,
                    plot::AxisFlags_AutoFit | (log_y ? plot::AxisFlags_LogScale : 0));
    plot::Spec spec;
    spec.color = color;
    spec.line_weight = 2.0f;
    if (xs.size() <= 60) spec.marker = plot::Marker::Circle, spec.marker_size = 2.5f;
    plot::PlotLine(y_label, xs.data(), ys.data(), static_cast<int>(xs.size()), spec);
    current_marker(current);
    plot::EndPlot();
    shown = true;
  }
  ImGui::EndGroup();
  return shown;
}

}  // namespace

bool draw_metric_plot(const char* id, const MetricInfo& metric, const std::vector<std::vector<double>>& metrics,
                      int metric_index, int current_iteration, float width, float height) {
  std::vector<double> xs, ys;
  xs.reserve(metrics.size());
  ys.reserve(metrics.size());
  for (size_t i = 0; i < metrics.size(); ++i) {
    xs.push_back(static_cast<double>(i));
    ys.push_back(metric_index < static_cast<int>(metrics[i].size()) ? metrics[i][metric_index] : NAN);
  }
  const double now = current_iteration >= 0 && current_iteration < static_cast<int>(ys.size())
                         ? ys[current_iteration]
                         : NAN;
  const std::string title = metric.name + " = " + fmt(now);
  return curve_plot(id, title.c_str(), metric.name.c_str(), metric.help.c_str(), metric.log_scale, xs, ys,
                    current_iteration, width, height, plot::GetColormapColor(metric_index));
}

void draw_metric_plots(const ModuleInfo& info, const std::vector<std::vector<double>>& metrics,
                       const std::vector<double>& step_ms, int current_iteration) {
  // One plot per metric plus the step time, in as many rows as the width needs
  // (the strip scrolls when they do not fit its height).
  const int n = static_cast<int>(info.metrics.size()) + 1;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float min_w = ImGui::GetFontSize() * 11.0f, min_h = ImGui::GetFontSize() * 8.0f;
  const int cols = std::clamp(static_cast<int>((avail.x + spacing) / (min_w + spacing)), 1, n);
  const int rows = (n + cols - 1) / cols;
  const float w = std::max(80.0f, (avail.x - spacing * (cols - 1)) / cols);
  const float h = std::max(min_h, (avail.y - ImGui::GetStyle().ItemSpacing.y * (rows - 1)) / rows);
  for (int m = 0; m < n - 1; ++m) {
    if (m % cols) ImGui::SameLine();
    const std::string id = "##metric_" + info.metrics[m].name;
    draw_metric_plot(id.c_str(), info.metrics[m], metrics, m, current_iteration, w, h);
  }
  if ((n - 1) % cols) ImGui::SameLine();
  std::vector<double> xs(step_ms.size()), ys(step_ms);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<double>(i);
  if (!ys.empty()) ys[0] = NAN;  // iteration 0 is the initial state, no step
  const double now = current_iteration > 0 && current_iteration < static_cast<int>(ys.size())
                         ? ys[current_iteration]
                         : NAN;
  const std::string title = "step time = " + fmt(now) + " ms";
  curve_plot("##metric_step_ms", title.c_str(), "ms", "Wall time of each step on the worker thread.",
             false, xs, ys, current_iteration, w, h, IM_COL32(160, 160, 170, 255));
}

}  // namespace cilab
