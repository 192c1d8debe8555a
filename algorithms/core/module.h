// The module contract: every algorithm of the lab is a Module.
//
//   reset(data, params, seed)  validate (std::invalid_argument naming the
//                              parameter and its range) and initialise;
//   step()                     exactly one iteration (finishes the current one
//                              when a sub-step is half-way through it);
//   sub_step()                 the next textbook half of an iteration
//                              (assign/update, E/M, ...), see info().sub_steps;
//   snapshot()                 the evaluated state after the last (sub-)step,
//                              a plain immutable value the views draw;
//   apply(intent)              an edit from the UI ("centroid 2 dragged to
//                              (x, y)") applied between steps;
//   clone()                    a full copy of the state (immutable data such as
//                              the dataset is shared, not copied) - the runner
//                              keeps clones as keyframes to rewind and replay;
//   settle()                   the runner stopped: bring a thinned snapshot up
//                              to date (optional; training modules).
//
// Numerical failure is data, not an exception: a non-finite value sets
// Status::Diverged and the snapshot says why. Every stochastic module owns its
// Rng, seeded in reset(): same data + params + seed => bit-identical run.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/npz.h"
#include "algorithms/core/params.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

enum class Status {
  Running,    // more iterations would change the state
  Converged,  // the module's own convergence test holds (a fixed point)
  Stopped,    // the iteration budget (max_iter) ran out before convergence
  Diverged,   // a non-finite or exploding value; message says which
  Failed,     // could not continue (message says why and what to try)
};

const char* status_name(Status s);
// A number for a message: printf's "%.6g" ("0.001", "1e+06", "nan").
std::string fmt_g(double v);
inline bool is_terminal(Status s) { return s != Status::Running; }

struct MetricInfo {
  std::string name;       // CSV column, e.g. "objective"
  std::string help;       // tooltip: meaning and formula
  bool log_scale = false; // plot on log-y by default
};

struct ModuleInfo {
  std::string name;       // CLI name, e.g. "kmeans"
  std::string title;      // "k-means (Lloyd's algorithm)"
  std::string chapter;    // course chapter, groups the module browser
  std::string summary;    // one paragraph for the module browser tooltip
  std::vector<MetricInfo> metrics;      // per-iteration scalars, CSV order
  std::vector<std::string> sub_steps;   // names of the halves, empty if none
  std::string default_dataset;          // dataset spec used when none given
  bool needs_dataset = true;
  // Reads a data file as a partially observed matrix (ratings triplets
  // user,item,rating; a wide matrix with empty cells by `--layout wide`), not
  // as a feature table: `completion`.
  bool ratings_data = false;
  // Reads text, not numbers: its datasets are text corpora (Dataset::text) and
  // `--data PATH` is a folder of .txt files (one document each) or one text file
  // split on blank lines: `plsa`, `word2vec`, `glove`.
  bool text_data = false;
  // Modules whose result is a table (one row per component, per rank K...) name
  // its columns here and fill Snapshot::table; `cilab run` then writes that table
  // (plus step_ms, the total time of the steps) instead of one row per iteration.
  std::vector<std::string> table_columns;
  int default_cli_steps = 100;          // `cilab run` steps when --steps is not given
  // False for one-shot modules (a fit is one step): the shell then hides the
  // per-iteration metrics strip, which would show single dots.
  bool iterative = true;
  // Training modules (one iteration = one optimizer step on one mini-batch)
  // name the metrics that change once per epoch (e.g. "train_loss",
  // "test_loss", "test_accuracy"): `cilab run --epochs N` then writes one row
  // per completed epoch, epoch,iteration,<these>,epoch_ms. Empty: the module
  // has no epochs (and --epochs is refused).
  std::vector<std::string> epoch_columns;
  // The metrics `cilab run` writes per iteration (iteration,<these>,step_ms),
  // in this order, when a module has more metrics than its CSV needs (the
  // rest are for the window: curves, readouts). Empty: every metric.
  std::vector<std::string> iteration_columns;
  // What the module works on instead of the loaded dataset under `values` (its parameter
  // values), one sentence for the data panel ("shrinkage uses the shipped photograph
  // (input=photo); input=dataset thresholds the dataset below"); empty, or no function: the
  // loaded dataset. The panel says this instead of warning about data that is not used.
  std::function<std::string(const ParamValues& values)> data_use;
};

// Metric tables: one row per per-iteration scalar. The module's enum gives the
// index (its slot in Snapshot::metrics); the rows must list the enum in order
// (checked on construction: std::logic_error otherwise), so the index, the CSV
// column and the tooltip cannot drift apart.
//
//   enum Metric : int { kMetricObjective, kMetricChanged, kNumMetrics };
//   static const MetricTable kMetrics = {
//       {kMetricObjective, "objective", "J = sum_i ...", true},
//       {kMetricChanged, "changed", "points whose cluster changed", false},
//   };
//   info.metrics = kMetrics.infos();
//   snap.metrics = kMetrics.blank();  snap.metrics[kMetricObjective] = J;
struct MetricRow {
  int index;              // the module's enum value: the slot in Snapshot::metrics
  std::string name;       // MetricInfo::name
  std::string help;       // MetricInfo::help
  bool log_scale = false; // MetricInfo::log_scale
};

class MetricTable {
 public:
  MetricTable(std::initializer_list<MetricRow> rows);
  // ModuleInfo::metrics, in index order.
  const std::vector<MetricInfo>& infos() const { return infos_; }
  size_t size() const { return infos_.size(); }
  // A metric vector of the right size, every entry NaN ("n/a").
  std::vector<double> blank() const;

 private:
  std::vector<MetricInfo> infos_;
};

// A number unique to one snapshot object in the process: every construction,
// also a copy, draws the next value of a process-wide counter, so it is never
// reused (unlike an address, which a freed buffer hands to the next one).
// Views key what they derive from a snapshot (point colours...) by it.
struct SnapshotSerial {
  SnapshotSerial();
  SnapshotSerial(const SnapshotSerial&) : SnapshotSerial() {}
  SnapshotSerial& operator=(const SnapshotSerial&) { return *this; }  // keeps its own
  uint64_t value;
};

// Base of every module's snapshot. Modules derive and add what views draw.
struct Snapshot {
  virtual ~Snapshot() = default;
  SnapshotSerial serial;     // unique per snapshot object (see SnapshotSerial)
  int iteration = 0;         // completed iterations
  int phase = 0;             // 0: at an iteration boundary; p > 0: after sub-step p
  int epoch = 0;             // completed epochs (training modules; 0 otherwise)
  Status status = Status::Running;
  std::string message;       // why Diverged/Failed/Stopped, or a notice
  std::vector<double> metrics;  // aligned with ModuleInfo::metrics (NaN = n/a)
  // Result table, rows aligned with ModuleInfo::table_columns (empty if none).
  // When table_row_names is not empty (one name per row), the first of the
  // table_columns is that text column ("parameter": "W1[0,1]") and each row
  // holds the remaining, numeric columns.
  std::vector<std::vector<double>> table;
  std::vector<std::string> table_row_names;
  // Large parts a snapshot shares with other snapshots (a network copy refreshed
  // every ~100 ms, an epoch log, word vectors), as (identity, bytes): the runner's
  // history budget counts each part once, however many stored snapshots hold it.
  struct SharedPart {
    const void* id = nullptr;
    size_t bytes = 0;
  };
  virtual void shared_parts(std::vector<SharedPart>& out) const { (void)out; }
  // A training module's weights at this snapshot, named and shaped as PyTorch's state_dict
  // (npz.h; File > Export > Weights, cilab run --save-weights). False: no weights to save.
  virtual bool weights(std::vector<NpyArray>& out) const {
    (void)out;
    return false;
  }
  // Whether weights() has any (cheap: menus ask every frame).
  virtual bool has_weights() const { return false; }
  // Approximate memory held by this snapshot alone (its shared_parts() left out),
  // for the runner's history budget.
  virtual size_t byte_size() const {
    size_t b = sizeof(*this) + metrics.size() * sizeof(double);
    for (const std::vector<double>& row : table) b += row.size() * sizeof(double);
    for (const std::string& n : table_row_names) b += sizeof(n) + n.size();
    return b;
  }
};

// The one wording of a run position (iteration, phase), shared by the transport
// slider, the status bar and the view headers. Numbering as in `cilab run`: a
// position part-way through an iteration (phase p > 0, after sub-step p) is
// counted in the iteration being computed, iteration + 1. So after one k-means
// sub-step: "iteration 1 (after assign)" (the first iteration's assign step
// done, its update to come); at a boundary "iteration 1" (one complete
// iteration). `info` names the sub-steps (null: "sub-step p"); sentence_start
// capitalises the first letter for a header.
std::string position_label(const Snapshot& s, const ModuleInfo* info, bool sentence_start = false);
// The iteration number position_label() shows: iteration + 1 part-way through one.
inline int position_iteration(const Snapshot& s) { return s.iteration + (s.phase > 0 ? 1 : 0); }

// A UI edit, applied between steps. Modules document the kinds they accept.
struct Intent {
  std::string kind;            // e.g. "move_centroid", "place_centroid"
  int index = -1;              // which item (centroid index...)
  std::vector<double> values;  // coordinates in feature space (size d) or view space
};

class Module {
 public:
  virtual ~Module() = default;

  virtual const ModuleInfo& info() const = 0;
  virtual const ParamSpecs& params() const = 0;

  virtual void reset(std::shared_ptr<const Dataset> data, const ParamValues& values,
                     uint64_t seed) = 0;
  virtual void step() = 0;
  virtual void sub_step() { step(); }
  virtual std::shared_ptr<const Snapshot> snapshot() const = 0;

  // Changes a Live parameter mid-run. Throws std::invalid_argument for an
  // unknown, out-of-range or Rebuild parameter.
  virtual void set_live(const std::string& name, double value);
  // Applies an edit; returns false if this module does not accept it.
  virtual bool apply(const Intent& intent);

  virtual std::unique_ptr<Module> clone() const = 0;

  // Called by the runner when it stops stepping (paused, a burst done) while
  // the live module is the one shown. A module that thins what its snapshots
  // carry while running (the training modules publish their network copy a
  // few times a second) brings it up to date here and returns true; the
  // runner then publishes snapshot() again. Never changes the run itself.
  virtual bool settle() { return false; }

  // Text `cilab run` prints after the CSV, each line prefixed with "# " (so a
  // CSV reader with comment='#' skips it): word2vec's nearest neighbours of
  // the `probe` words. Reads only `last` (the run's final snapshot, settled),
  // so any instance of the module can write it. Empty (the default): nothing.
  virtual std::string report(const Snapshot& last) const {
    (void)last;
    return {};
  }

  // Approximate memory a clone() of the module holds (the runner's history
  // budget counts keyframes with it). Default: the snapshot's byte_size(),
  // right for modules whose snapshot carries their state; modules whose
  // state is larger than what they publish (a network and its optimizer)
  // override it.
  // (with its shared parts: a clone holds them whether or not a snapshot does).
  virtual size_t state_bytes() const {
    const std::shared_ptr<const Snapshot> s = snapshot();
    std::vector<Snapshot::SharedPart> parts;
    s->shared_parts(parts);
    size_t b = s->byte_size();
    for (const Snapshot::SharedPart& p : parts) b += p.bytes;
    return b;
  }

  Status status() const { return snapshot()->status; }
};

}  // namespace cilab
