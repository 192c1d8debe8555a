// Metric histories as curves: the views' common way of turning the runner's
// per-iteration metric rows (ViewContext::metric_history) into plot points.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace cilab {

// Iterations drawn per curve: longer histories are strided (every 2nd, 3rd, ... row).
constexpr size_t kMaxCurvePoints = 4000;

// One metric of the history as a curve (x = iteration): rows strided to at most
// about max_points, rows where the metric is missing or not finite skipped.
inline void history_series(const std::vector<std::vector<double>>& hist, size_t metric,
                           std::vector<double>& x, std::vector<double>& y,
                           size_t max_points = kMaxCurvePoints) {
  x.clear();
  y.clear();
  const size_t stride = std::max<size_t>(1, hist.size() / std::max<size_t>(1, max_points));
  for (size_t t = 0; t < hist.size(); t += stride) {
    if (metric >= hist[t].size() || !std::isfinite(hist[t][metric])) continue;
    x.push_back(static_cast<double>(t));
    y.push_back(hist[t][metric]);
  }
}

}  // namespace cilab
