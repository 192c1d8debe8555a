#include "app/headless/sweep.h"

#include "algorithms/core/registry.h"
#include "algorithms/data/csv_writer.h"
#include "app/headless/cli.h"
#include "app/headless/lab_file.h"
#include "app/headless/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace cilab {
namespace {

constexpr int kMaxGridPoints = 1000;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

double number(const std::string& what, const std::string& t) {
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !std::isfinite(v))
    throw std::invalid_argument(what + ": expected a number, got '" + t + "'");
  return v;
}




// A grid point is the decimal it names: interior points rounded to this many significant
// digits (the ends are the user's LO and HI as given).
constexpr int kGridDigits = 12;

std::string fmt_sig(double v, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

}  // namespace

SweepAxis parse_sweep_axis(const ParamSpecs& specs, const std::string& module, const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("--param '" + text + "': expected NAME=LO:HI:lin|log:N or NAME=V1,V2,...");
  SweepAxis axis;
  axis.name = text.substr(0, eq);
  const std::string rest = text.substr(eq + 1);
  const ParamSpec* spec = find_param(specs, axis.name);
  if (!spec || is_compound(*spec))
    throw std::invalid_argument("--param: " + module + " has no parameter '" + axis.name +
                                "' (see: cilab list params " + module + ")");
  const std::string what = "--param " + axis.name;
  if (rest.find(':') != std::string::npos) {
    const std::vector<std::string> p = split(rest, ':');
    if (p.size() != 4 || (p[2] != "lin" && p[2] != "log"))
      throw std::invalid_argument(what + ": expected LO:HI:lin|log:N, got '" + rest + "'");
    if (spec->type != ParamType::Int && spec->type != ParamType::Real)
      throw std::invalid_argument(what + " is not numeric: list its values instead (" + axis.name + "=a,b,c)");
    const double lo = number(what + " LO", p[0]), hi = number(what + " HI", p[1]);
    const double n = number(what + " N", p[3]);
    if (n < 1 || n > kMaxGridPoints || n != std::floor(n))
      throw std::invalid_argument(what + ": N must be an integer in [1, " + std::to_string(kMaxGridPoints) + "]");
    const bool log = p[2] == "log";
    if (log && (lo <= 0 || hi <= 0)) throw std::invalid_argument(what + ": a log grid needs LO and HI > 0");
    const int count = static_cast<int>(n);
    for (int i = 0; i < count; ++i) {
      const double t = count == 1 ? 0.0 : static_cast<double>(i) / (count - 1);
      double v = log ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))) : lo + t * (hi - lo);
      v = std::stod(fmt_sig(v, kGridDigits));  // 1e-3:1e-1:log:3 gives 0.01, not 0.010000000000000004
      if (i == count - 1) v = hi;  // the end exactly
      if (i == 0) v = lo;
      std::string s = spec->type == ParamType::Int ? std::to_string(std::llround(v)) : exact_number_text(v);
      if (std::find(axis.values.begin(), axis.values.end(), s) == axis.values.end()) axis.values.push_back(s);
    }
  } else {
    axis.values = split(rest, ',');
    if (axis.values.size() > static_cast<size_t>(kMaxGridPoints))
      throw std::invalid_argument(what + ": more than " + std::to_string(kMaxGridPoints) + " values");
  }
  // Every value must be one the parameter takes (the message names it and the range).
  ParamValues probe = default_values(specs);
  for (const std::string& v : axis.values) {
    if (v.empty()) throw std::invalid_argument(what + ": an empty value in '" + rest + "'");
    apply_assignment(specs, probe, axis.name + "=" + v, module);
  }
  return axis;
}

size_t sweep_size(const SweepSpec& spec) {
  size_t n = std::max<size_t>(1, spec.seeds.size());
  for (const SweepAxis& a : spec.axes) n *= a.values.size();
  return n;
}

std::vector<SweepRow> run_sweep(const SweepSpec& spec, const std::function<bool()>& cancelled,
                                const std::function<void(const SweepRow&, size_t, size_t)>& on_row) {
  const std::unique_ptr<Module> probe = make_module(spec.module);
  const ParamSpecs specs = probe->params();
  const size_t n_metrics = probe->info().metrics.size();
  const std::vector<uint64_t> seeds = spec.seeds.empty() ? std::vector<uint64_t>{0} : spec.seeds;
  const size_t total = sweep_size(spec);
  std::vector<SweepRow> rows;
  std::vector<size_t> index(spec.axes.size(), 0);
  for (size_t done = 0; done < total;) {
    for (uint64_t seed : seeds) {
      if (cancelled && cancelled()) return rows;
      SweepRow row;
      row.seed = seed;
      std::vector<std::string> sets = spec.sets;
      for (size_t a = 0; a < spec.axes.size(); ++a) {
        row.values.push_back(spec.axes[a].values[index[a]]);
        sets.push_back(spec.axes[a].name + "=" + row.values.back());
      }
      try {
        uint64_t s = seed;
        bool given = true;
        const ParamValues values = params_from_sets(specs, sets, spec.module, &s, &given);
        RunnerConfig cfg;
        cfg.threaded = false;
        cfg.history_budget_bytes = size_t(16) << 20;  // only the last snapshot is read
        cfg.keyframe_interval = 1 << 20;
        Runner runner([m = spec.module] { return make_module(m); }, cfg);
        runner.reset(spec.data, values, seed);
        if (!runner.last_error().empty()) throw std::invalid_argument(runner.last_error());
        runner.run_steps(spec.steps, [&](const Snapshot&, double ms) { row.total_ms += ms; });
        const std::shared_ptr<const Snapshot> last = runner.latest();
        row.iterations = last ? position_iteration(*last) : 0;
        row.status = last ? status_name(last->status) : "failed";
        if (last) row.metrics = last->metrics;
      } catch (const std::exception& e) {
        row.status = "error";
        row.error = e.what();
      }
      row.metrics.resize(n_metrics, std::nan(""));  // a run that failed: n/a
      ++done;
      if (on_row) on_row(row, done, total);
      rows.push_back(std::move(row));
    }
    // The next grid point: the last axis varies fastest.
    size_t a = spec.axes.size();
    while (a > 0) {
      --a;
      if (++index[a] < spec.axes[a].values.size()) break;
      index[a] = 0;
    }
    if (spec.axes.empty()) break;
  }
  return rows;
}

std::vector<SweepPoint> summarise_sweep(const std::vector<SweepRow>& rows, size_t axis, size_t metric) {
  std::vector<SweepPoint> points;
  for (size_t r = 0; r < rows.size(); ++r) {
    const SweepRow& row = rows[r];
    if (axis >= row.values.size()) continue;
    auto it = std::find_if(points.begin(), points.end(), [&](const SweepPoint& p) { return p.value == row.values[axis]; });
    if (it == points.end()) {
      SweepPoint p;
      p.value = row.values[axis];
      char* end = nullptr;
      const double v = std::strtod(p.value.c_str(), &end);
      p.x = (!p.value.empty() && *end == '\0') ? v : static_cast<double>(points.size());
      points.push_back(p);
      it = points.end() - 1;
    }
    const double v = metric < row.metrics.size() ? row.metrics[metric] : std::nan("");
    it->per_seed.push_back(v);
    it->rows.push_back(r);
  }
  for (SweepPoint& p : points) {
    double sum = 0.0;
    for (double v : p.per_seed)
      if (std::isfinite(v)) {
        sum += v;
        ++p.n;
      }
    p.mean = p.n > 0 ? sum / p.n : std::nan("");
    double ss = 0.0;
    for (double v : p.per_seed)
      if (std::isfinite(v)) ss += (v - p.mean) * (v - p.mean);
    p.sd = p.n > 1 ? std::sqrt(ss / (p.n - 1)) : 0.0;
  }
  return points;
}

std::string sweep_csv_header(const SweepSpec& spec, const std::vector<std::string>& metric_names) {
  std::string h;
  for (const SweepAxis& a : spec.axes) h += csv_field(a.name) + ",";
  h += "seed,iterations,status";
  // A metric named like a swept parameter (mlp's lr: the learning rate after the schedule)
  // is written as metric_<name>: one column per name.
  for (const std::string& m : metric_names) {
    const bool clash = std::any_of(spec.axes.begin(), spec.axes.end(), [&](const SweepAxis& a) { return a.name == m; });
    h += "," + csv_field(clash ? "metric_" + m : m);
  }
  h += ",total_ms,error";
  return h;
}

std::string sweep_csv_row(const SweepRow& row) {
  std::string r;
  for (const std::string& v : row.values) r += csv_field(v) + ",";
  r += std::to_string(row.seed) + "," + std::to_string(row.iterations) + "," + row.status;
  for (double m : row.metrics) r += "," + csv_number(m);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.3f", row.total_ms);
  r += std::string(",") + ms + "," + csv_field(row.error);
  return r;
}

}  // namespace cilab
