#include "algorithms/core/module.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace cilab {
namespace {

std::atomic<uint64_t> g_snapshot_serial{0};  // last SnapshotSerial handed out

}  // namespace

SnapshotSerial::SnapshotSerial() : value(g_snapshot_serial.fetch_add(1, std::memory_order_relaxed) + 1) {}

std::string fmt_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Running: return "running";
    case Status::Converged: return "converged";
    case Status::Stopped: return "stopped";
    case Status::Diverged: return "diverged";
    case Status::Failed: return "failed";
  }
  return "?";
}

std::string position_label(const Snapshot& s, const ModuleInfo* info, bool sentence_start) {
  std::string label = (sentence_start ? "Iteration " : "iteration ") + std::to_string(position_iteration(s));
  if (s.phase > 0) {
    const bool named = info && s.phase - 1 < static_cast<int>(info->sub_steps.size());
    label += " (after " + (named ? info->sub_steps[s.phase - 1] : "sub-step " + std::to_string(s.phase)) + ")";
  }
  return label;
}

void Module::set_live(const std::string& name, double) {
  const ParamSpec* s = find_param(params(), name);
  if (!s) throw std::invalid_argument("unknown parameter '" + name + "' for module " + info().name);
  throw std::invalid_argument("parameter '" + name + "' of " + info().name +
                              " cannot change mid-run; changing it restarts the run");
}

bool Module::apply(const Intent&) { return false; }

MetricTable::MetricTable(std::initializer_list<MetricRow> rows) {
  for (const MetricRow& r : rows) {
    if (r.index != static_cast<int>(infos_.size()))
      throw std::logic_error("metric table: row '" + r.name + "' has index " + std::to_string(r.index) +
                             " at position " + std::to_string(infos_.size()) +
                             "; list the rows in the order of the metric enum");
    infos_.push_back(MetricInfo{r.name, r.help, r.log_scale});
  }
}

std::vector<double> MetricTable::blank() const {
  return std::vector<double>(infos_.size(), std::numeric_limits<double>::quiet_NaN());
}

void require_usable_data(const Dataset* data, const std::string& module) {
  if (!data) throw std::invalid_argument(module + ": no dataset; load or generate one first");
  if (data->is_text())
    throw std::invalid_argument(module + ": '" + data->name +
                                "' is a text corpus, not a table of numbers; try: the text modules plsa, word2vec "
                                "or glove, or choose a numeric dataset");
  const int n = data->rows(), d = data->cols();
  if (n == 0 || d == 0)
    throw std::invalid_argument(module + ": the dataset is empty (" + std::to_string(n) + " x " +
                                std::to_string(d) + "); load or generate data first");
  if (data->x.allFinite()) return;
  for (int c = 0; c < d; ++c)
    for (int i = 0; i < n; ++i) {
      const double v = data->x(i, c);
      if (std::isfinite(v)) continue;
      const std::string col = c < static_cast<int>(data->column_names.size())
                                  ? data->column_names[static_cast<size_t>(c)]
                                  : "x" + std::to_string(c);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.6g", v);
      throw std::invalid_argument(module + ": the dataset has a non-finite value (" + buf + ") at row " +
                                  std::to_string(i) + ", column '" + col + "'; clean the data or drop that row");
    }
}

int Dataset::num_classes() const {
  int m = 0;
  for (int l : labels) m = std::max(m, l + 1);
  return std::max(m, static_cast<int>(class_names.size()));
}

}  // namespace cilab
