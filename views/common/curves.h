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

// The rows of the history a view of iteration `iteration` draws: 0..iteration. The history
// runs ahead of the iteration shown when the run was scrubbed back (or an export shows an
// earlier frame): a curve ends at the shown iteration and never shows the future.
inline size_t shown_rows(const std::vector<std::vector<double>>& hist, int iteration) {
  return std::min(hist.size(), static_cast<size_t>(std::max(0, iteration)) + 1);
}

// One metric of the history up to the shown iteration (shown_rows) as a curve (x = iteration):
// rows strided to at most about max_points, rows where the metric is missing or not finite skipped.
inline void history_series(const std::vector<std::vector<double>>& hist, size_t metric, int iteration,
                           std::vector<double>& x, std::vector<double>& y,
                           size_t max_points = kMaxCurvePoints) {
  x.clear();
  y.clear();
  const size_t n = shown_rows(hist, iteration);
  const size_t stride = std::max<size_t>(1, n / std::max<size_t>(1, max_points));
  for (size_t t = 0; t < n; t += stride) {
    if (metric >= hist[t].size() || !std::isfinite(hist[t][metric])) continue;
    x.push_back(static_cast<double>(t));
    y.push_back(hist[t][metric]);
  }
}

// A training view's faint line of every step's mini-batch value of `metric`: iterations 1 up to
// the one shown, x = iteration / batches_per_epoch (the curves' epoch axis), strided to about
// max_points rows.
inline void batch_series(const std::vector<std::vector<double>>& hist, size_t metric, int iteration,
                         double batches_per_epoch, std::vector<double>& x, std::vector<double>& y,
                         size_t max_points = 600) {
  x.clear();
  y.clear();
  const size_t n = shown_rows(hist, iteration);
  const size_t stride = std::max<size_t>(1, n / std::max<size_t>(1, max_points));
  for (size_t i = 1; i < n; i += stride) {
    x.push_back(static_cast<double>(i) / batches_per_epoch);
    y.push_back(hist[i][metric]);
  }
}

}  // namespace cilab
