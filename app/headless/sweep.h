// Parameter sweeps: one module run over a grid of parameter values and seeds
// on the same data, each run headless to its end (or a step budget), one
// result row per run: the values, the seed, the final metrics.
//
//   cilab sweep kmeans --dataset blobs:n=2000,centers=5 --param k=2:10:lin:9 --seeds 3
//   cilab sweep optimizers --param lr=1e-4:1e-1:log:8 --param optimizer=sgd,adam
//
// Several --param give their Cartesian product (the first varies slowest).
// The GUI's sweep panel runs the same code on a background job.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/params.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// One swept parameter and its values, as text `--set` takes ("0.001", "kmeans++").
struct SweepAxis {
  std::string name;
  std::vector<std::string> values;
};

// Parses "NAME=LO:HI:lin|log:N" (N points, ends included; an Int parameter's
// values are rounded and repeats dropped) or "NAME=V1,V2,..." (any type) against
// the module's parameters. Throws std::invalid_argument naming the part that is wrong.
SweepAxis parse_sweep_axis(const ParamSpecs& specs, const std::string& module, const std::string& text);

struct SweepSpec {
  std::string module;
  std::shared_ptr<const Dataset> data;   // shared by every run (nullptr: a module without data)
  std::vector<std::string> sets;         // fixed assignments ("k=3"), before the axes
  std::vector<SweepAxis> axes;
  std::vector<uint64_t> seeds;           // each grid point runs once per seed
  int steps = 100;                       // the step budget of each run
};

struct SweepRow {
  std::vector<std::string> values;  // one per axis
  uint64_t seed = 0;
  int iterations = 0;               // as `cilab run` numbers them
  std::string status;               // running (budget reached), converged, diverged...
  std::vector<double> metrics;      // the last snapshot's, ModuleInfo::metrics order
  double total_ms = 0.0;
  std::string error;                // a run that could not start ("" otherwise)
};

// Number of runs of a spec (grid points x seeds).
size_t sweep_size(const SweepSpec& spec);

// Runs every grid point and seed in order (grid first, seeds innermost),
// calling on_row after each. `cancel` (may be null) stops between runs. A run
// whose parameters are rejected gives a row with `error`, the others go on.
// Throws std::invalid_argument for an unknown module.
std::vector<SweepRow> run_sweep(const SweepSpec& spec, const std::function<bool()>& cancelled,
                                const std::function<void(const SweepRow&, size_t done, size_t total)>& on_row);

// One grid point of a one-parameter sweep, over its seeds: the metric's mean
// and standard deviation (n - 1; 0 for one seed) over the runs where it is
// finite (n of them), and every run's value (NaN where it was not).
struct SweepPoint {
  std::string value;     // the parameter's value as text
  double x = 0.0;        // as a number (its index for a non-numeric value)
  double mean = 0.0, sd = 0.0;
  int n = 0;
  std::vector<double> per_seed;
  std::vector<size_t> rows;  // indices into the rows, one per seed
};
// The points of axis `axis`, in grid order, for metric slot `metric`.
std::vector<SweepPoint> summarise_sweep(const std::vector<SweepRow>& rows, size_t axis, size_t metric);

// The CSV header and one row: axis names, seed, iterations, status, every
// metric, total_ms, error.
std::string sweep_csv_header(const SweepSpec& spec, const std::vector<std::string>& metric_names);
std::string sweep_csv_row(const SweepRow& row);

}  // namespace cilab
