// The metrics strip: one small plot per metric of the module against the
// iteration, plus the step time, with the current iteration marked. Used by
// the app for every module; a module's own view may embed the same plot.
#pragma once

#include "algorithms/core/module.h"

#include <cstdint>
#include <vector>

namespace cilab {

// A second run of the same module drawn over the first (the app's A/B compare): its
// metrics, step times, shown iteration and version (as for the first run).
struct MetricCompare {
  const std::vector<std::vector<double>>* metrics = nullptr;
  const std::vector<double>* step_ms = nullptr;
  int current_iteration = 0;
  uint64_t version = 0;
};

// The colours of runs A and B wherever a comparison shows them (categorical palette 0 and 1).
unsigned int compare_color(int side);

// metrics[i] = the metric vector of iteration i (ModuleInfo::metrics order);
// step_ms[i] = wall time of the step that produced iteration i. version: see
// draw_metric_plot. With b, every plot overlays run B's curve on this run's
// (then called A): a legend names them and the caption and hover give both values.
void draw_metric_plots(const ModuleInfo& info, const std::vector<std::vector<double>>& metrics,
                       const std::vector<double>& step_ms, int current_iteration, uint64_t version = 0,
                       const MetricCompare* b = nullptr);

// The least height of the strip's panel that shows its plots: one row (metric_plot_min_height)
// and the panel's padding. Below it the shell collapses the strip to draw_metric_line.
float metric_strip_min_height();

// The strip collapsed to one line (the shell's vertical budget, when the view would fall below
// its least height): each metric's name and current value (with b: A's and B's), as many as fit
// `width`, then "..." . Returns how many metrics it showed.
int draw_metric_line(const ModuleInfo& info, const std::vector<std::vector<double>>& metrics, int current_iteration,
                     float width, const MetricCompare* b = nullptr);

// What the mouse points at in a metric plot: the nearest iteration and its
// recorded value (exact, also when the curve is drawn decimated).
struct MetricHover {
  bool active = false;  // the mouse is over the plot and there is data
  int iteration = -1;
  double value = 0.0;   // NaN where the metric is undefined
};

// Whether a metric's curve is drawn on a log axis: its MetricInfo::log_scale, unless the series
// has a value <= 0 (a custom f below zero), which a log axis cannot show - then the plot is
// linear and its caption says so. Long series are sampled (about 100 000 entries and the last).
bool metric_uses_log_axis(const MetricInfo& metric, const std::vector<std::vector<double>>& metrics,
                          int metric_index);

// The least height of a draw_metric_plot: its one-line caption and a plot area of at least
// kMinPlotArea (the strip's rows, and a view that shows one metric's curve: backprop's loss).
float metric_plot_min_height();

// One metric curve in its own plot (size as plot::BeginPlot). Returns false if
// clipped. A curve with more points than twice the plot's width in pixels is
// drawn per pixel column as a min-max band plus the columns' mean (geometric
// on a log axis), so its cost is bounded by the width; hovering shows the
// nearest iteration's value (also written to *hover if given). version != 0
// promises that while it stays the same, `metrics` only grows (entries are
// appended, never changed): the decimation then only reads the new entries
// each frame (MetricHistoryMirror::version()); 0: all entries every frame.
bool draw_metric_plot(const char* id, const MetricInfo& metric, const std::vector<std::vector<double>>& metrics,
                      int metric_index, int current_iteration, float width, float height,
                      MetricHover* hover = nullptr, uint64_t version = 0);

}  // namespace cilab
