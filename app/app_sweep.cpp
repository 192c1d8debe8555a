// Run > Sweep: one parameter of the current module over a grid (linear, log,
// or a choice's options), several seeds, on the current data and the other
// parameters as they are, run in the background (run_sweep, as `cilab
// sweep`), with progress and cancel. The final metric is plotted against the
// parameter with its spread over the seeds; a click on a run opens it.
#include "algorithms/core/registry.h"
#include "app/app.h"
#include "views/plot/plot.h"
#include "views/common/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cilab {
namespace {

// The parameters a sweep can vary: numbers and choices (not text, lists or compounds).
bool sweepable(const ParamSpec& s) {
  return !is_compound(s) && !is_text_valued(s) &&
         (s.type == ParamType::Int || s.type == ParamType::Real || s.type == ParamType::Choice);
}

}  // namespace

void App::open_sweep_window() {
  sweep_.open = true;
  if (sweep_.module == module_name_ && !sweep_.param.empty()) return;  // keep the last settings of this module
  sweep_.param.clear();
  for (const ParamSpec& s : specs_)
    if (sweepable(s) && s.update == ParamUpdate::Live && s.type == ParamType::Real) {  // a rate is the classic
      sweep_.param = s.name;
      break;
    }
  if (sweep_.param.empty())
    for (const ParamSpec& s : specs_)
      if (sweepable(s)) {
        sweep_.param = s.name;
        break;
      }
  sweep_.reset_range = true;
}

void App::start_sweep() {
  try {
    if (sweep_.job.running()) throw std::runtime_error("a sweep is running; cancel it first");
    if (!jobs_) throw std::runtime_error("no background jobs in this window");
    const ParamSpec* spec = find_param(specs_, sweep_.param);
    if (!spec) throw std::runtime_error("choose a parameter to sweep");
    // The base: this run's module, data and parameters (the panel's values), seeds from seed_.
    LabFile base = session_of_current_state();
    base.edits.clear();
    base.session = true;
    SweepSpec s;
    s.module = module_name_;
    s.data = data_;
    for (const auto& [k, v] : base.params)
      if (k != sweep_.param) s.sets.push_back(k + "=" + v);
    std::string grid;
    if (spec->type == ParamType::Choice) {
      for (size_t c = 0; c < spec->choices.size(); ++c) grid += (c ? "," : "") + spec->choices[c];
    } else {
      char buf[128];
      std::snprintf(buf, sizeof buf, "%.17g:%.17g:%s:%d", sweep_.lo, sweep_.hi, sweep_.log ? "log" : "lin", sweep_.n);
      grid = buf;
    }
    s.axes.push_back(parse_sweep_axis(specs_, module_name_, sweep_.param + "=" + grid));
    for (int k = 0; k < sweep_.seeds; ++k) s.seeds.push_back(seed_ + static_cast<uint64_t>(k));
    s.steps = std::max(1, sweep_.steps);
    auto state = std::make_shared<SweepWindow::Results>();
    state->total = sweep_size(s);
    sweep_.spec = s;
    sweep_.base = base;
    sweep_.results = state;
    sweep_.module = module_name_;
    sweep_.metric_names.clear();
    if (const ModuleInfo* info = runner_->info())
      for (const MetricInfo& m : info->metrics) sweep_.metric_names.push_back(m.name);
    sweep_.metric = std::min(sweep_.metric, static_cast<int>(sweep_.metric_names.size()) - 1);
    sweep_.metric = std::max(0, sweep_.metric);
    sweep_.job = jobs_->submit("sweep " + sweep_.param, [s, state](const CancelToken& token) {
      run_sweep(
          s, [&token] { return token.cancelled(); },
          [&](const SweepRow& row, size_t done, size_t total) {
            {
              std::lock_guard<std::mutex> lk(state->mu);
              state->rows.push_back(row);
            }
            token.set_progress(static_cast<int>(done), static_cast<int>(total));
          });
    });
  } catch (const std::exception& e) {
    show_error(std::string("cannot start the sweep: ") + e.what());
  }
}

void App::open_sweep_run(const SweepRow& row) {
  LabFile lab = sweep_.base;
  for (auto& [k, v] : lab.params)
    if (k == sweep_.spec.axes[0].name) v = row.values[0];
  lab.seed = row.seed;
  lab.iteration = row.iterations;
  lab.phase = 0;
  lab.last_iteration = 0;
  lab.title = sweep_.spec.axes[0].name + " = " + row.values[0] + ", seed " + std::to_string(row.seed);
  lab.note.clear();
  open_preset(lab);
}

void App::draw_sweep_window() {
  if (!sweep_.open) return;
  const float fs = ImGui::GetFontSize();
  ImGui::SetNextWindowSize(ImVec2(fs * 40.0f, fs * 30.0f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Sweep", &sweep_.open)) {
    ImGui::End();
    return;
  }
  const bool running = sweep_.job.running();
  const bool other_module = !sweep_.module.empty() && sweep_.module != module_name_;
  ImGui::TextWrapped("Runs %s once per value and seed on the current data, with the other parameters as "
                     "they are now, each to its end or the step budget (as cilab sweep).",
                     module_name_.c_str());
  // The parameter.
  ImGui::BeginDisabled(running);
  ImGui::SetNextItemWidth(fs * 12.0f);
  if (ImGui::BeginCombo("parameter", sweep_.param.c_str())) {
    for (const ParamSpec& s : specs_) {
      if (!sweepable(s)) continue;
      if (ImGui::Selectable(s.name.c_str(), s.name == sweep_.param)) {
        sweep_.param = s.name;
        sweep_.reset_range = true;
      }
    }
    ImGui::EndCombo();
  }
  mark_target("sweep:param");
  const ParamSpec* spec = find_param(specs_, sweep_.param);
  if (spec && sweep_.reset_range) {  // a sensible default range: a decade each side for a rate, else the range
    sweep_.reset_range = false;
    const double v = running_.count(spec->name) ? running_.at(spec->name) : spec->def;
    if (spec->type == ParamType::Real && v > 0 && spec->log_scale) {
      sweep_.lo = std::max(spec->min > 0 ? spec->min : v / 100.0, v / 10.0);
      sweep_.hi = std::min(spec->max, v * 10.0);
      sweep_.log = true;
    } else {
      sweep_.lo = spec->min;
      sweep_.hi = std::min(spec->max, spec->type == ParamType::Int ? spec->min + 9 : spec->max);
      sweep_.log = false;
    }
    sweep_.n = spec->type == ParamType::Int ? static_cast<int>(std::min(10.0, sweep_.hi - sweep_.lo + 1)) : 8;
  }
  if (spec && spec->type != ParamType::Choice) {
    ImGui::SetNextItemWidth(fs * 7.0f);
    ImGui::InputDouble("from", &sweep_.lo, 0, 0, "%.6g");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fs * 7.0f);
    ImGui::InputDouble("to", &sweep_.hi, 0, 0, "%.6g");
    ImGui::SameLine();
    ImGui::Checkbox("log", &sweep_.log);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("log: values spaced by a constant factor (learning rates)");
    ImGui::SetNextItemWidth(fs * 7.0f);
    ImGui::SliderInt("values", &sweep_.n, 2, 40);
  } else if (spec) {
    ImGui::TextColored(colour_vec(colors().text_dim), "every option: %d values",
                       static_cast<int>(spec->choices.size()));
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(fs * 6.0f);
  ImGui::SliderInt("seeds", &sweep_.seeds, 1, 10);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Each value runs with seeds %llu .. %llu (the run's seed and the next ones)",
                      static_cast<unsigned long long>(seed_),
                      static_cast<unsigned long long>(seed_ + static_cast<uint64_t>(sweep_.seeds) - 1));
  if (sweep_.steps <= 0)
    if (const ModuleInfo* info = runner_->info()) sweep_.steps = info->default_cli_steps;
  ImGui::SetNextItemWidth(fs * 7.0f);
  ImGui::InputInt("steps per run", &sweep_.steps, 0, 0);
  sweep_.steps = std::clamp(sweep_.steps, 1, 1000000);
  ImGui::EndDisabled();
  if (!running) {
    if (ImGui::Button("Start")) start_sweep();
    mark_target("sweep:start");
  } else {
    if (ImGui::Button("Cancel")) sweep_.job.cancel();
    mark_target("sweep:cancel");
  }
  // Progress.
  std::vector<SweepRow> rows;
  size_t total = 0;
  if (sweep_.results) {
    std::lock_guard<std::mutex> lk(sweep_.results->mu);
    rows = sweep_.results->rows;
    total = sweep_.results->total;
  }
  if (total > 0) {
    ImGui::SameLine();
    char label[96];
    std::snprintf(label, sizeof label, "%zu / %zu runs%s", rows.size(), total,
                  sweep_.job.valid() && sweep_.job.state() == JobState::Cancelled ? " (cancelled)" : "");
    ImGui::ProgressBar(static_cast<float>(rows.size()) / static_cast<float>(total), ImVec2(-1.0f, 0.0f), label);
  }
  if (rows.empty() || sweep_.spec.axes.empty()) {
    ImGui::TextColored(colour_vec(colors().text_dim),
                       "No results yet: choose a parameter and Start.");
    ImGui::End();
    return;
  }
  if (other_module)
    ImGui::TextColored(colour_vec(colors().text_dim),
                       "(results of %s: open it again to click a run)", sweep_.module.c_str());
  // The metric.
  ImGui::SetNextItemWidth(fs * 12.0f);
  const char* metric_name =
      sweep_.metric < static_cast<int>(sweep_.metric_names.size()) ? sweep_.metric_names[sweep_.metric].c_str() : "";
  if (ImGui::BeginCombo("final metric", metric_name)) {
    for (int m = 0; m < static_cast<int>(sweep_.metric_names.size()); ++m)
      if (ImGui::Selectable(sweep_.metric_names[m].c_str(), m == sweep_.metric)) sweep_.metric = m;
    ImGui::EndCombo();
  }
  const std::vector<SweepPoint> points = summarise_sweep(rows, 0, static_cast<size_t>(sweep_.metric));
  const std::string& axis = sweep_.spec.axes[0].name;
  const ParamSpec* swept = find_param(specs_, axis);
  const bool choice = swept && swept->type == ParamType::Choice;
  const bool log_x = !choice && std::all_of(points.begin(), points.end(), [](const SweepPoint& p) { return p.x > 0; }) &&
                     sweep_.spec.axes[0].values.size() > 2 &&
                     std::stod(sweep_.spec.axes[0].values.back()) / std::stod(sweep_.spec.axes[0].values.front()) > 50;
  bool positive = true;
  for (const SweepPoint& p : points)
    for (double v : p.per_seed) positive = positive && (!std::isfinite(v) || v > 0);
  std::vector<double> xs, mean, lo, hi, sx, sy;
  std::vector<size_t> srow;
  for (const SweepPoint& p : points) {
    xs.push_back(p.x);
    mean.push_back(p.mean);
    lo.push_back(p.mean - p.sd);
    hi.push_back(p.mean + p.sd);
    for (size_t k = 0; k < p.per_seed.size(); ++k)
      if (std::isfinite(p.per_seed[k])) {
        sx.push_back(p.x);
        sy.push_back(p.per_seed[k]);
        srow.push_back(p.rows[k]);
      }
  }
  const std::string ylabel = std::string("final ") + metric_name + (sweep_.spec.seeds.size() > 1 ? " (mean, ±1 sd)" : "");
  if (plot::BeginPlot("##sweep", ImVec2(-1.0f, std::max(fs * 10.0f, ImGui::GetContentRegionAvail().y - fs * 1.5f)))) {
    plot::SetupAxes(axis.c_str(), ylabel.c_str(), (log_x ? plot::AxisFlags_LogScale : 0) | plot::AxisFlags_AutoFit,
                    (positive && metric_name[0] ? 0 : 0) | plot::AxisFlags_AutoFit);
    plot::SetupLegend(plot::Location::NorthEast);
    plot::Spec band;
    band.line_style = plot::LineStyle::Dashed;
    band.line_weight = 1.0f;
    band.color = with_alpha(colors().neutral, 220);
    if (sweep_.spec.seeds.size() > 1) {
      plot::PlotLine("mean ± 1 sd over seeds", xs.data(), lo.data(), static_cast<int>(xs.size()), band);
      plot::PlotLine("##mean + sd", xs.data(), hi.data(), static_cast<int>(xs.size()), band);
    }
    plot::Spec line;
    line.marker = plot::Marker::Circle;
    line.color = plot::GetColormapColor(0);
    plot::PlotLine(sweep_.spec.seeds.size() > 1 ? "mean over seeds" : "final value", xs.data(), mean.data(),
                   static_cast<int>(xs.size()), line);
    plot::Spec dots;
    dots.color = plot::GetColormapColor(1);
    dots.fill_alpha = 0.6f;
    dots.marker_size = 3.0f;
    plot::PlotScatter("one run (click: open it)", sx.data(), sy.data(), static_cast<int>(sx.size()), dots);
    if (choice)
      for (const SweepPoint& p : points) plot::PlotText(p.value.c_str(), p.x, p.mean, ImVec2(0, -12));
    // Hover: the nearest run; click opens it.
    if (plot::IsPlotHovered() && !sx.empty()) {
      const int best = plot::NearestPointToMouse(sx.data(), sy.data(), static_cast<int>(sx.size()), fs);
      if (best >= 0) {
        const SweepRow& r = rows[srow[static_cast<size_t>(best)]];
        ImGui::SetTooltip("%s = %s, seed %llu\n%s = %.6g after %d iterations (%s)\nclick: open this run",
                          axis.c_str(), r.values[0].c_str(), static_cast<unsigned long long>(r.seed), metric_name,
                          sy[static_cast<size_t>(best)], r.iterations, r.status.c_str());
        if (plot::IsPlotClicked(0) && !other_module) open_sweep_run(r);
      }
    }
    plot::EndPlot();
  }
  size_t failed = 0;
  for (const SweepRow& r : rows) failed += !r.error.empty();
  if (failed) {
    for (const SweepRow& r : rows)
      if (!r.error.empty()) {
        ImGui::TextColored(colour_vec(colors().error), "%zu run(s) failed, e.g. %s", failed,
                           r.error.c_str());
        break;
      }
  }
  ImGui::End();
}

}  // namespace cilab
