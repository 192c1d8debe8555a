// The metrics strip: one small plot per metric of the module against the
// iteration, plus the step time, with the current iteration marked. Used by
// the app for every module; a module's own view may embed the same plot.
#pragma once

#include "algorithms/core/module.h"

#include <vector>

namespace cilab {

// metrics[i] = the metric vector of iteration i (ModuleInfo::metrics order);
// step_ms[i] = wall time of the step that produced iteration i.
void draw_metric_plots(const ModuleInfo& info, const std::vector<std::vector<double>>& metrics,
                       const std::vector<double>& step_ms, int current_iteration);

// One metric curve in its own plot (size as plot::BeginPlot). Returns false if clipped.
bool draw_metric_plot(const char* id, const MetricInfo& metric, const std::vector<std::vector<double>>& metrics,
                      int metric_index, int current_iteration, float width, float height);

}  // namespace cilab
