#include "app/headless/cli.h"

#include "algorithms/core/npz.h"
#include "algorithms/core/parallel.h"
#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "algorithms/data/csv_writer.h"
#include "algorithms/text/embedding.h"
#include "app/headless/runner.h"
#include "app/headless/sweep.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace cilab {
namespace {

// The slots of the metrics named in `names` (every metric when empty), for
// the CSV columns of `cilab run`.
std::vector<size_t> metric_columns(const ModuleInfo& info, const std::vector<std::string>& names, const char* what) {
  std::vector<size_t> cols;
  if (names.empty()) {
    for (size_t k = 0; k < info.metrics.size(); ++k) cols.push_back(k);
    return cols;
  }
  for (const std::string& c : names) {
    size_t k = 0;
    while (k < info.metrics.size() && info.metrics[k].name != c) ++k;
    if (k == info.metrics.size())
      throw std::logic_error(info.name + ": " + what + " column '" + c + "' is not one of its metrics");
    cols.push_back(k);
  }
  return cols;
}


// A bad argument: reported as one line, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

long long parse_int_arg(const std::string& flag, const std::string& text, long long lo, long long hi) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    throw UsageError(flag + ": expected an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'");
  }
  return v;
}

// --threads N: the bound on threads per parallel loop, as torch.set_num_threads is for PyTorch
// (default: the machine's cores). Results do not depend on it (core/parallel.h).
int parse_threads(const std::string& text) {
  return static_cast<int>(parse_int_arg("--threads", text, 1, kMaxParallelThreads));
}

// Fetches the value after a flag.
std::string take_value(int argc, const char* const* argv, int& i) {
  const std::string flag = argv[i];
  if (i + 1 >= argc) throw UsageError(flag + " needs a value (see: cilab --help)");
  return argv[++i];
}

void print_modules(std::ostream& out) {
  out << "Modules (cilab run MODULE; cilab list params MODULE):\n";
  for (const ModuleEntry& e : module_registry()) {
    const std::unique_ptr<Module> m = e.make();
    const ModuleInfo& info = m->info();
    out << "  " << std::left << std::setw(18) << info.name << info.title << "  [" << info.chapter
        << "]\n";
  }
}

void print_datasets(std::ostream& out) {
  out << "Datasets (--dataset NAME[:key=value,...]; or --data FILE for CSV/TSV/IDX[.gz], or for the text\n"
         "modules a folder of .txt files or one text file, a document per paragraph):\n";
  for (const DatasetInfo& d : builtin_datasets()) {
    out << "  " << std::left << std::setw(16) << d.name << d.description << "\n";
    for (const DatasetOption& o : d.options) {
      // A choice option shows its names (split: train|test), a numeric one its range.
      std::ostringstream def, range;
      if (o.choices.empty()) {
        def << o.def;
        range << "[" << o.min << ", " << o.max << "]";
      } else {
        const size_t i = static_cast<size_t>(o.def);
        def << (i < o.choices.size() ? o.choices[i] : std::to_string(o.def));
        for (size_t c = 0; c < o.choices.size(); ++c) range << (c ? "|" : "") << o.choices[c];
      }
      out << "      " << std::setw(14) << o.name << "default " << std::setw(10) << def.str()
          << std::setw(22) << range.str() << o.help << "\n";
    }
  }
}

// The chapter a preset is listed under: its own, else its module's.
std::string preset_chapter(const LabFile& p) {
  if (!p.chapter.empty()) return p.chapter;
  for (const ModuleEntry& e : module_registry()) {
    const std::unique_ptr<Module> m = e.make();
    if (m->info().name == p.module) return m->info().chapter;
  }
  return "Other";
}

void print_presets(std::ostream& out, std::ostream& err) {
  std::vector<std::string> errors;
  const std::vector<LabFile> presets = load_presets(&errors);
  out << "Presets (cilab --preset NAME opens one; cilab run --preset NAME runs it headless):\n";
  // Chapters in the module registry's order, then any other chapter.
  std::vector<std::string> chapters;
  for (const ModuleEntry& e : module_registry()) {
    const std::string c = e.make()->info().chapter;
    if (std::find(chapters.begin(), chapters.end(), c) == chapters.end()) chapters.push_back(c);
  }
  for (const LabFile& p : presets) {
    const std::string c = preset_chapter(p);
    if (std::find(chapters.begin(), chapters.end(), c) == chapters.end()) chapters.push_back(c);
  }
  for (const std::string& c : chapters) {
    bool header = false;
    for (const LabFile& p : presets) {
      if (preset_chapter(p) != c) continue;
      if (!header) out << "  " << c << "\n";
      header = true;
      out << "    " << std::left << std::setw(34) << p.name << " " << std::setw(16) << p.module << " " << p.title
          << (p.user ? "  (yours)" : "") << "\n";
    }
  }
  out << "Shipped: " << shipped_presets_dir() << "\nYours (Presets > Save as preset): " << user_presets_dir()
      << "\n";
  for (const std::string& e : errors) err << "cilab: skipped a preset: " << e << "\n";
}

// Fills what a preset gives and the command line did not: module (exclusive),
// data, parameters (the preset's first, so --set overrides), seed, steps.
void apply_preset(const LabFile& p, std::string& module, bool module_given, std::string& dataset_spec,
                  std::string& data_file, std::vector<std::string>& sets, uint64_t& seed, bool& seed_given,
                  int* steps) {
  if (module_given)
    throw UsageError("give either a module or --preset (the preset names its module: " + p.module + ")");
  module = p.module;
  if (dataset_spec.empty() && data_file.empty()) {
    dataset_spec = p.dataset;
    data_file = p.data_file;
  }
  std::vector<std::string> merged = lab_assignments(p);
  merged.insert(merged.end(), sets.begin(), sets.end());
  sets = std::move(merged);
  if (!seed_given) {
    seed = p.seed;
    seed_given = true;
  }
  if (steps && *steps < 0) *steps = p.iteration;
}

void print_params(std::ostream& out, const std::string& name) {
  const std::unique_ptr<Module> m = make_module(name);
  out << "Parameters of " << name << " (--set KEY=VALUE; live = may change mid-run, rebuild = "
      << "restarts the run):\n";
  out << "seed\tan integer in [0, 2^63)\tdefault 0\trebuild\tseed of the module's random "
         "generator (same seed, same run)\n";
  out << describe_params(m->params());
  const ModuleInfo& info = m->info();
  out << "Metrics (CSV columns of cilab run): iteration";
  for (size_t c : metric_columns(info, info.iteration_columns, "iteration")) out << "," << info.metrics[c].name;
  out << ",step_ms\n";
  if (!info.iteration_columns.empty()) {
    out << "Also shown in the window:";
    for (const MetricInfo& mi : info.metrics)
      if (std::find(info.iteration_columns.begin(), info.iteration_columns.end(), mi.name) == info.iteration_columns.end())
        out << " " << mi.name;
    out << "\n";
  }
  if (!info.epoch_columns.empty()) {
    out << "Per epoch (cilab run --epochs N): epoch,iteration";
    for (const std::string& c : info.epoch_columns) out << "," << c;
    out << ",epoch_ms\n";
  }
}

// The data of a headless run: the file or built-in spec the user named, else the
// module's default when it needs data (modules that can do without, such as
// optimizers on 2-D functions, still get data the user names).
std::shared_ptr<const Dataset> run_data(const ModuleInfo& info, const std::string& data_file,
                                        const std::string& dataset_spec, const std::string& layout) {
  const LoadOptions opts = data_load_options(info, layout);
  return info.needs_dataset || !data_file.empty() || !dataset_spec.empty()
             ? load_dataset_arg(data_file, dataset_spec, info.default_dataset, opts)
             : nullptr;
}

// The CSV's stream: `file` opened at --out PATH, else `out`.
// A command's --threads, in force while it runs (the bound before it is restored after: the
// CLI's tests run many commands in one process). 0: the bound is left as it is.
class ThreadsScope {
 public:
  explicit ThreadsScope(int threads) : previous_(max_threads()), set_(threads > 0) {
    if (set_) set_max_threads(threads);
  }
  ~ThreadsScope() {
    if (set_) set_max_threads(previous_);
  }
  ThreadsScope(const ThreadsScope&) = delete;
  ThreadsScope& operator=(const ThreadsScope&) = delete;

 private:
  int previous_;
  bool set_;
};

std::ostream& csv_output(const std::string& out_path, std::ofstream& file, std::ostream& out) {
  if (out_path.empty()) return out;
  file.open(out_path);
  if (!file) throw UsageError("--out " + out_path + ": cannot open for writing; try another path");
  return file;
}

int cmd_run(int argc, const char* const* argv, int i, std::ostream& out, std::ostream& err) {
  if (i >= argc) throw UsageError("run: missing MODULE or --preset NAME (see: cilab list)");
  std::string module_name;
  const bool module_given = std::string(argv[i]).rfind("--", 0) != 0;
  if (module_given) module_name = argv[i++];
  std::string preset_arg;
  std::string dataset_spec, data_file, out_path, layout, vectors_path, weights_path;
  std::vector<std::string> sets;
  uint64_t seed = 0;
  bool seed_given = false;
  int steps = -1, epochs = -1, threads = 0;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dataset") dataset_spec = take_value(argc, argv, i);
    else if (a == "--data") data_file = take_value(argc, argv, i);
    else if (a == "--layout") layout = take_value(argc, argv, i);
    else if (a == "--set") sets.push_back(take_value(argc, argv, i));
    else if (a == "--seed") {
      seed = static_cast<uint64_t>(parse_int_arg("--seed", take_value(argc, argv, i), 0, INT64_MAX));
      seed_given = true;
    } else if (a == "--steps") steps = static_cast<int>(parse_int_arg("--steps", take_value(argc, argv, i), 0, 100000000));
    else if (a == "--epochs") epochs = static_cast<int>(parse_int_arg("--epochs", take_value(argc, argv, i), 1, 100000));
    else if (a == "--out") out_path = take_value(argc, argv, i);
    else if (a == "--preset") preset_arg = take_value(argc, argv, i);
    else if (a == "--save-vectors") vectors_path = take_value(argc, argv, i);
    else if (a == "--save-weights") weights_path = take_value(argc, argv, i);
    else if (a == "--threads") threads = parse_threads(take_value(argc, argv, i));
    else throw UsageError("run: unknown option '" + a + "' (see: cilab --help)");
  }
  const ThreadsScope threads_scope(threads);
  if (!preset_arg.empty()) {
    const LabFile preset = resolve_preset_arg(preset_arg);
    check_preset(preset);
    if (!preset.edits.empty())
      throw UsageError(preset_arg + ": a session with edits made while it ran opens in the window: cilab --session " +
                       preset_arg);
    apply_preset(preset, module_name, module_given, dataset_spec, data_file, sets, seed, seed_given, nullptr);
  } else if (!module_given) {
    throw UsageError("run: missing MODULE or --preset NAME (see: cilab list)");
  }
  if (!dataset_spec.empty() && !data_file.empty())
    throw UsageError("run: give either --dataset or --data, not both");

  const std::unique_ptr<Module> probe = make_module(module_name);
  const ModuleInfo info = probe->info();
  if (epochs > 0 && info.epoch_columns.empty())
    throw UsageError("run: --epochs: " + module_name +
                     " does not train in epochs; try: --steps N (iterations)");
  if (epochs > 0 && steps < 0) steps = 100000000;  // --steps, if given, caps the run
  if (steps < 0) steps = info.default_cli_steps;
  ParamValues values = params_from_sets(probe->params(), sets, module_name, &seed, &seed_given);
  // A module whose schedule spans its own `epochs` parameter (word2vec's
  // linear lr decay: gensim's epochs; glove's pass count) trains exactly the
  // --epochs asked for, unless a --set epochs= says otherwise.
  const bool epochs_set = std::any_of(sets.begin(), sets.end(), [](const std::string& a) { return a.rfind("epochs=", 0) == 0; });
  if (epochs > 0 && values.count("epochs") && !epochs_set) values["epochs"] = epochs;
  std::shared_ptr<const Dataset> data = run_data(info, data_file, dataset_spec, layout);
  std::ofstream file;
  std::ostream* os = &csv_output(out_path, file, out);

  RunnerConfig cfg;
  cfg.threaded = false;
  cfg.history_budget_bytes = size_t(64) << 20;
  Runner runner([module_name] { return make_module(module_name); }, cfg);
  runner.reset(data, values, seed);
  if (!runner.last_error().empty()) throw UsageError(runner.last_error());
  if (!vectors_path.empty() && !dynamic_cast<const EmbeddingSnapshot*>(runner.latest().get()))
    throw UsageError("--save-vectors: " + module_name + " has no word vectors; try: cilab run word2vec (or glove) ... --save-vectors FILE");
  std::ofstream vectors_file;  // opened before the run, as --save-weights: a path that cannot be written fails first
  if (!vectors_path.empty()) {
    vectors_file.open(vectors_path, std::ios::binary);
    if (!vectors_file) throw UsageError("--save-vectors " + vectors_path + ": cannot open for writing; try another path");
  }
  std::ofstream weights_file;  // opened before the run: a path that cannot be written fails first
  if (!weights_path.empty()) {
    if (!runner.latest() || !runner.latest()->has_weights())
      throw UsageError("--save-weights: " + module_name +
                       " trains no network; try: cilab run mlp (or cnn, autoencoder, vae, gan) ... --save-weights FILE.npz");
    weights_file.open(weights_path, std::ios::binary);
    if (!weights_file) throw UsageError("--save-weights " + weights_path + ": cannot open for writing; try another path");
  }

  os->precision(17);
  auto write_ms = [os](double ms) {
    std::ostringstream t;
    t << std::fixed << std::setprecision(3) << ms;
    *os << t.str();
  };
  if (epochs > 0) {
    // One row per completed epoch: the per-epoch metrics the module names
    // (after reset, so a regression's "test_r2" is named as such).
    const ModuleInfo& ri = *runner.info();
    const std::vector<size_t> cols = metric_columns(ri, ri.epoch_columns, "epoch");
    *os << "epoch,iteration";
    for (size_t c : cols) *os << "," << ri.metrics[c].name;
    *os << ",epoch_ms\n";
    int last_epoch = runner.latest() ? runner.latest()->epoch : 0;
    double epoch_ms = 0.0;
    for (int k = 0; k < steps && last_epoch < epochs; ++k) {
      bool stepped = false;
      runner.run_steps(1, [&](const Snapshot& s, double step_ms) {
        stepped = true;
        epoch_ms += step_ms;
        if (s.epoch == last_epoch || s.phase != 0) return;
        last_epoch = s.epoch;
        *os << s.epoch << "," << s.iteration;
        for (size_t c : cols) {
          *os << ",";
          write_csv_number(*os, s.metrics[c]);
        }
        *os << ",";
        write_ms(epoch_ms);
        *os << "\n";
        epoch_ms = 0.0;
      });
      if (!stepped) break;  // terminal status
    }
  } else if (!info.table_columns.empty()) {
    // A result table: run the steps, then one row per table entry.
    double total_ms = 0.0;
    runner.run_steps(steps, [&](const Snapshot&, double step_ms) { total_ms += step_ms; });
    const std::shared_ptr<const Snapshot> last = runner.latest();
    for (size_t c = 0; c < info.table_columns.size(); ++c) *os << (c ? "," : "") << info.table_columns[c];
    *os << ",step_ms\n";
    for (size_t r = 0; r < last->table.size(); ++r) {
      const std::vector<double>& row = last->table[r];
      const bool named = r < last->table_row_names.size();
      if (named) *os << csv_field(last->table_row_names[r]);
      for (size_t c = 0; c < row.size(); ++c) {
        if (c || named) *os << ",";
        write_csv_number(*os, row[c]);
      }
      *os << ",";
      write_ms(total_ms);
      *os << "\n";
    }
  } else {
    const ModuleInfo& ri = *runner.info();
    const std::vector<size_t> cols = metric_columns(ri, ri.iteration_columns, "iteration");
    *os << "iteration";
    for (size_t c : cols) *os << "," << ri.metrics[c].name;
    *os << ",step_ms\n";
    runner.run_steps(steps, [&](const Snapshot& s, double step_ms) {
      // A run that stops half-way through an iteration (EM diverging in its
      // M-step after the E-step) reports that partial iteration as the next one.
      *os << position_iteration(s);
      for (size_t c : cols) {
        *os << ",";
        write_csv_number(*os, s.metrics[c]);
      }
      *os << ",";
      write_ms(step_ms);
      *os << "\n";
    });
  }
  const std::shared_ptr<const Snapshot> last = runner.latest();
  if (last) {
    // The module's closing report (word2vec's neighbours of the probe words), as "# " lines.
    std::istringstream lines(probe->report(*last));
    for (std::string line; std::getline(lines, line);) *os << "# " << line << "\n";
    if (!vectors_path.empty()) {
      const auto& e = dynamic_cast<const EmbeddingSnapshot&>(*last);
      std::ofstream& f = vectors_file;
      int words = 0;
      try {
        words = write_word2vec_format(e, f);
      } catch (const std::exception& ex) {
        throw UsageError("--save-vectors " + vectors_path + ": " + ex.what());
      }
      f.close();
      if (!f) throw UsageError("--save-vectors " + vectors_path + ": the write failed (disk full?)");
      *os << "# word vectors: " << words << " words x " << e.vectors->dim << " written to " << vectors_path
          << " (word2vec text format)\n";
    }
    if (!weights_path.empty()) {
      std::vector<NpyArray> weights;
      last->weights(weights);
      write_npz(weights_file, weights);
      weights_file.close();
      if (!weights_file) throw UsageError("--save-weights " + weights_path + ": the write failed (disk full?)");
      size_t values = 0;
      for (const NpyArray& w : weights) values += w.f32.size() + w.i64.size();
      *os << "# weights: " << weights.size() << " tensors, " << values << " values (iteration "
          << position_iteration(*last) << ") written to " << weights_path
          << " (numpy .npz, PyTorch state_dict names: model.load_state_dict({k: torch.from_numpy(v) for k, v in "
             "np.load(path).items()}))\n";
    }
  }
  os->flush();
  if (last && (last->status == Status::Diverged || last->status == Status::Failed)) {
    err << "cilab: " << module_name << " " << status_name(last->status) << " at iteration "
        << position_iteration(*last) << ": " << last->message << "\n";
  }
  return 0;
}

int cmd_sweep(int argc, const char* const* argv, int i, std::ostream& out, std::ostream& err) {
  if (i >= argc || std::string(argv[i]).rfind("--", 0) == 0)
    throw UsageError("sweep: missing MODULE (see: cilab list modules)");
  SweepSpec spec;
  spec.module = argv[i++];
  std::string dataset_spec, data_file, out_path, layout;
  std::vector<std::string> axes;
  long long n_seeds = 1;
  uint64_t first_seed = 0;
  int steps = -1, threads = 0;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dataset") dataset_spec = take_value(argc, argv, i);
    else if (a == "--data") data_file = take_value(argc, argv, i);
    else if (a == "--set") spec.sets.push_back(take_value(argc, argv, i));
    else if (a == "--param") axes.push_back(take_value(argc, argv, i));
    else if (a == "--seeds") n_seeds = parse_int_arg("--seeds", take_value(argc, argv, i), 1, 1000);
    else if (a == "--seed")
      first_seed = static_cast<uint64_t>(parse_int_arg("--seed", take_value(argc, argv, i), 0, INT64_MAX - 1000));
    else if (a == "--steps") steps = static_cast<int>(parse_int_arg("--steps", take_value(argc, argv, i), 1, 100000000));
    else if (a == "--out") out_path = take_value(argc, argv, i);
    else if (a == "--layout") layout = take_value(argc, argv, i);
    else if (a == "--threads") threads = parse_threads(take_value(argc, argv, i));
    else throw UsageError("sweep: unknown option '" + a + "' (see: cilab --help)");
  }
  const ThreadsScope threads_scope(threads);
  if (axes.empty()) throw UsageError("sweep: give at least one --param NAME=LO:HI:lin|log:N or NAME=V1,V2,...");
  if (!dataset_spec.empty() && !data_file.empty()) throw UsageError("sweep: give either --dataset or --data, not both");
  for (const std::string& s : spec.sets)
    if (s.rfind("seed=", 0) == 0) throw UsageError("sweep: the seeds are --seed N (the first) and --seeds COUNT");
  const std::unique_ptr<Module> probe = make_module(spec.module);
  const ModuleInfo info = probe->info();
  {
    uint64_t unused_seed = 0;
    bool unused_given = false;
    params_from_sets(probe->params(), spec.sets, spec.module, &unused_seed, &unused_given);  // fixed values are valid
  }
  for (const std::string& a : axes) spec.axes.push_back(parse_sweep_axis(probe->params(), spec.module, a));
  for (long long k = 0; k < n_seeds; ++k) spec.seeds.push_back(first_seed + static_cast<uint64_t>(k));
  spec.steps = steps > 0 ? steps : info.default_cli_steps;
  if (sweep_size(spec) > 100000) throw UsageError("sweep: more than 100000 runs; use fewer values or seeds");
  spec.data = run_data(info, data_file, dataset_spec, layout);
  std::ofstream file;
  std::ostream* os = &csv_output(out_path, file, out);
  std::vector<std::string> names;
  for (const MetricInfo& m : info.metrics) names.push_back(m.name);
  *os << sweep_csv_header(spec, names) << "\n";
  size_t failed = 0;
  run_sweep(spec, {}, [&](const SweepRow& row, size_t, size_t) {
    *os << sweep_csv_row(row) << "\n";
    os->flush();
    if (!row.error.empty() && failed++ == 0) err << "cilab: sweep: a run failed: " << row.error << "\n";
  });
  return 0;
}

}  // namespace

std::string usage_text() {
  return "CILab " CILAB_VERSION
         " - an interactive lab for the Computational Intelligence course\n"
         "\n"
         "Usage:\n"
         "  cilab [GUI options]                 open the lab\n"
         "  cilab list [modules|datasets|presets]  what is available\n"
         "  cilab list params MODULE            a module's parameters (for --set)\n"
         "  cilab run MODULE [options]          run without a window, one CSV row per iteration\n"
         "  cilab run --preset NAME [options]   the same for a preset (its module, data, "
         "parameters)\n"
         "  cilab sweep MODULE --param NAME=LO:HI:lin|log:N [--param NAME=V1,V2,...] [--seeds S]\n"
         "                      [options]       one CSV row per run: the values, seed, final "
         "metrics\n"
         "  cilab --version | --help\n"
         "\n"
         "Options (run and GUI):\n"
         "  --module NAME          module to open (GUI; default kmeans)\n"
         "  --preset NAME|FILE     a preset (cilab list presets) or a preset file: its module,\n"
         "                         data, parameters, seed and iteration; options beside it win\n"
         "  --session FILE         GUI: reopen a saved session (File > Save session) exactly\n"
         "  --dataset SPEC         built-in data, e.g. iris, blobs:n=1000,centers=5\n"
         "  --data FILE            CSV/TSV (header optional, label column detected) or IDX[.gz];\n"
         "                         for completion: ratings triplets user,item,rating (MovieLens u.data);\n"
         "                         for plsa, word2vec, glove: a folder of .txt files (one document\n"
         "                         each) or one text file split on blank lines\n"
         "  --layout triplets|wide completion's --data: triplets (default) or a wide matrix whose\n"
         "                         empty cells (or NA, NaN, ?) are the missing entries\n"
         "  --set KEY=VALUE        a parameter (repeatable), e.g. --set k=5 --set init=kmeans++\n"
         "  --seed N               seed of the module's random generator (default 0)\n"
         "  --steps N              iterations to run (run: default 100 or the module's own; GUI:\n"
         "                         before showing)\n"
         "  --epochs N             run, training modules: N passes over the training set, one\n"
         "                         row per epoch (epoch,iteration,...,epoch_ms); --steps caps it\n"
         "  --out FILE.csv         run, sweep: write the CSV there instead of stdout\n"
         "  --save-vectors FILE    run word2vec, glove: the word vectors in word2vec's text format\n"
         "  --save-weights F.npz   run mlp, cnn, autoencoder, vae, gan: the weights as .npz (PyTorch's\n"
         "                         state_dict names)\n"
         "  --param NAME=GRID      sweep: LO:HI:lin|log:N (N points, ends included) or V1,V2,...;\n"
         "                         several --param give their product\n"
         "  --seeds S              sweep: run each point with seeds --seed .. --seed + S - 1\n"
         "  --threads N            threads per parallel loop, 1 - 16 (default: the machine's cores;\n"
         "                         as torch.set_num_threads; the numbers do not depend on it)\n"
         "GUI only:\n"
         "  --play                 start running at launch\n"
         "  --frames N             render N frames and exit; prints 'frames N median_ms X p95_ms "
         "Y'\n"
         "  --screenshot FILE.png  save the window as PNG on exit\n"
         "  --scale X              UI scale (0.5 - 3; default: the saved setting)\n"
         "  --theme NAME           light, dark or high-contrast (default: the saved setting, else "
         "light)\n"
         "  --palette NAME         categorical colours: okabe-ito, tol-bright or classic "
         "(default:\n"
         "                         the saved setting, else okabe-ito)\n"
         "  --script FILE          run a demo script between frames (see README: Scripts;\n"
         "                         cilab --script-help lists its commands)\n"
         "\n"
         "Example:\n"
         "  cilab run kmeans --dataset blobs:n=100000,centers=5 --set k=5 --set init=kmeans++ "
         "--steps 30\n";
}

std::string subcommand_help(const std::string& cmd) {
  if (cmd == "run")
    return "Usage:\n"
           "  cilab run MODULE [options]          run without a window, one CSV row per iteration\n"
           "  cilab run --preset NAME [options]   the same for a preset (its module, data, parameters)\n"
           "\n"
           "Options:\n"
           "  --preset NAME|FILE     a preset (cilab list presets) or a preset file; options beside it win\n"
           "  --dataset SPEC         built-in data, e.g. iris, blobs:n=1000,centers=5 (cilab list datasets)\n"
           "  --data FILE            CSV/TSV or IDX[.gz]; ratings triplets for completion; a folder of .txt\n"
           "                         files or one text file for plsa, word2vec, glove\n"
           "  --layout triplets|wide completion's --data: triplets (default) or a wide matrix\n"
           "  --set KEY=VALUE        a parameter (repeatable; cilab list params MODULE)\n"
           "  --seed N               seed of the module's random generator (default 0)\n"
           "  --steps N              iterations to run (default 100 or the module's own)\n"
           "  --epochs N             training modules: N passes over the training set, one row per epoch\n"
           "  --out FILE.csv         write the CSV there instead of stdout\n"
           "  --save-vectors FILE    word2vec, glove: the trained word vectors in the word2vec text\n"
           "                         format (gensim: KeyedVectors.load_word2vec_format)\n"
           "  --save-weights F.npz   mlp, cnn, autoencoder, vae, gan: the trained weights as numpy .npz,\n"
           "                         named as PyTorch's state_dict (0.weight, encoder.2.bias, ...)\n"
           "  --threads N            threads per parallel loop, 1 - 16 (default: the machine's cores;\n"
           "                         the numbers do not depend on it)\n"
           "\n"
           "Example:\n"
           "  cilab run kmeans --dataset blobs:n=100000,centers=5 --set k=5 --steps 30\n";
  if (cmd == "sweep")
    return "Usage:\n"
           "  cilab sweep MODULE --param NAME=GRID [--param NAME=GRID ...] [options]\n"
           "                      one CSV row per run: the swept values, seed, iterations, status,\n"
           "                      the final metrics (a metric named like a swept parameter is\n"
           "                      metric_NAME), total_ms, error\n"
           "\n"
           "Options:\n"
           "  --param NAME=GRID      LO:HI:lin|log:N (N points, ends included, interior points to 12\n"
           "                         significant digits) or V1,V2,...; several --param give their product\n"
           "  --seeds S              run each point with seeds --seed .. --seed + S - 1 (default 1)\n"
           "  --seed N               the first seed (default 0)\n"
           "  --set KEY=VALUE        a fixed parameter (repeatable)\n"
           "  --dataset SPEC | --data FILE [--layout triplets|wide]   the data, as for cilab run\n"
           "  --steps N              iterations per run (default: the module's own)\n"
           "  --threads N            threads per parallel loop, 1 - 16 (default: the machine's cores)\n"
           "  --out FILE.csv         write the CSV there instead of stdout\n"
           "\n"
           "Example:\n"
           "  cilab sweep kmeans --param k=2:6:lin:5 --seeds 3 --dataset blobs:n=600,centers=4\n";
  if (cmd == "list")
    return "Usage:\n"
           "  cilab list                          the modules and the built-in datasets\n"
           "  cilab list modules|datasets|presets one of them\n"
           "  cilab list params MODULE            a module's parameters: name, range, default, live or\n"
           "                                      rebuild, help (for --set and --param)\n";
  return usage_text();
}

std::shared_ptr<const Dataset> load_dataset_arg(const std::string& data_file,
                                                const std::string& dataset_spec,
                                                const std::string& module_default, const LoadOptions& opts) {
  if (!data_file.empty()) return load_file(data_file, opts);
  return make_dataset(dataset_spec.empty() ? module_default : dataset_spec);
}

LoadOptions data_load_options(const ModuleInfo& info, const std::string& layout, bool guess) {
  LoadOptions o;
  if (info.text_data) {
    if (!layout.empty())
      throw std::invalid_argument("--layout " + layout + ": " + info.name +
                                  " reads text (a folder of .txt files or one file split on blank lines), not "
                                  "ratings; try: leave --layout out (it is for completion)");
    o.text = true;
    return o;
  }
  if (!info.ratings_data) {
    if (!layout.empty())
      throw std::invalid_argument("--layout " + layout + ": " + info.name +
                                  " reads a feature table, not ratings; try: leave --layout out (it is for completion)");
    return o;
  }
  if (layout == "triplets") o.ratings = RatingsLayout::Triplets;
  else if (layout == "wide") o.ratings = RatingsLayout::Wide;
  else if (layout.empty()) o.ratings = guess ? RatingsLayout::Guess : RatingsLayout::Triplets;
  else
    throw std::invalid_argument("--layout: expected triplets (user,item,rating per line) or wide (a matrix with "
                                "empty cells), got '" + layout + "'");
  return o;
}

ParamValues params_from_sets(const ParamSpecs& specs, const std::vector<std::string>& sets,
                             const std::string& module_name, uint64_t* seed, bool* seed_given) {
  ParamValues values = default_values(specs);
  for (const std::string& s : sets) {
    if (s.rfind("seed=", 0) == 0) {
      *seed = static_cast<uint64_t>(parse_int_arg("--set seed", s.substr(5), 0, INT64_MAX));
      *seed_given = true;
      continue;
    }
    apply_assignment(specs, values, s, module_name);
  }
  return values;
}

void check_preset(const LabFile& p) {
  const std::string origin = p.path.empty() ? "preset '" + p.title + "'" : p.path;
  try {
    const std::unique_ptr<Module> m = make_module(p.module);
    uint64_t seed = 0;
    bool seed_given = false;
    params_from_sets(m->params(), lab_assignments(p), p.module, &seed, &seed_given);
  } catch (const std::exception& e) {
    throw std::invalid_argument(origin + ": " + e.what());
  }
}

CliResult run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CliResult r;
  try {
    if (argc >= 2) {
      const std::string cmd = argv[1];
      if (cmd == "--version") {
        out << "cilab " CILAB_VERSION "\n";
        return r;
      }
      if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        out << usage_text();
        return r;
      }
      // run --help, sweep -h, list --help: that command's help (exit 0).
      if (cmd == "run" || cmd == "sweep" || cmd == "list")
        for (int k = 2; k < argc; ++k)
          if (std::string(argv[k]) == "--help" || std::string(argv[k]) == "-h") {
            out << subcommand_help(cmd);
            return r;
          }
      if (cmd == "list") {
        const std::string what = argc >= 3 ? argv[2] : "";
        if (what.empty()) {
          print_modules(out);
          out << "\n";
          print_datasets(out);
        } else if (what == "modules") {
          print_modules(out);
        } else if (what == "datasets") {
          print_datasets(out);
        } else if (what == "presets") {
          print_presets(out, err);
        } else if (what == "params") {
          if (argc < 4) throw UsageError("list params: missing MODULE (see: cilab list modules)");
          print_params(out, argv[3]);
        } else {
          throw UsageError("list: unknown topic '" + what + "'; try: modules, datasets, presets, params MODULE");
        }
        return r;
      }
      if (cmd == "run") {
        r.exit_code = cmd_run(argc, argv, 2, out, err);
        return r;
      }
      if (cmd == "sweep") {
        r.exit_code = cmd_sweep(argc, argv, 2, out, err);
        return r;
      }
    }
    // GUI options.
    GuiOptions& g = r.gui;
    bool module_given = false;
    std::string preset_arg;
    g.steps = -1;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--module") {
        g.module = take_value(argc, argv, i);
        module_given = true;
      } else if (a == "--preset") preset_arg = take_value(argc, argv, i);
      else if (a == "--session") {
        preset_arg = take_value(argc, argv, i);
        if (preset_arg.find('/') == std::string::npos) preset_arg = "./" + preset_arg;  // a file, never a preset name
      }
      else if (a == "--dataset") g.dataset_spec = take_value(argc, argv, i);
      else if (a == "--data") g.data_file = take_value(argc, argv, i);
      else if (a == "--layout") g.layout = take_value(argc, argv, i);
      else if (a == "--set") g.sets.push_back(take_value(argc, argv, i));
      else if (a == "--seed") {
        g.seed = static_cast<uint64_t>(parse_int_arg("--seed", take_value(argc, argv, i), 0, INT64_MAX));
        g.seed_given = true;
      } else if (a == "--steps") g.steps = static_cast<int>(parse_int_arg("--steps", take_value(argc, argv, i), 0, 1000000));
      else if (a == "--play") g.play = true;
      else if (a == "--frames") g.frames = static_cast<int>(parse_int_arg("--frames", take_value(argc, argv, i), 1, 10000000));
      else if (a == "--screenshot") g.screenshot = take_value(argc, argv, i);
      else if (a == "--script") {
        g.script = take_value(argc, argv, i);
        std::ifstream probe_file(g.script);
        if (!probe_file) throw UsageError("--script " + g.script + ": cannot read the file; check the path");
      }
      else if (a == "--scale") {
        const std::string v = take_value(argc, argv, i);
        char* end = nullptr;
        const double s = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0' || !(s >= 0.5 && s <= 3.0))
          throw UsageError("--scale: expected a number in [0.5, 3], got '" + v + "'");
        g.scale = static_cast<float>(s);
      } else if (a == "--theme") {
        g.theme = take_value(argc, argv, i);
      } else if (a == "--palette") {
        g.palette = take_value(argc, argv, i);
      } else if (a == "--threads") {
        g.threads = parse_threads(take_value(argc, argv, i));
      } else {
        throw UsageError("unknown option or command '" + a + "' (see: cilab --help)");
      }
    }
    if (!g.dataset_spec.empty() && !g.data_file.empty())
      throw UsageError("give either --dataset or --data, not both");
    if (!preset_arg.empty()) {
      auto preset = std::make_shared<LabFile>(resolve_preset_arg(preset_arg));
      check_preset(*preset);
      apply_preset(*preset, g.module, module_given, g.dataset_spec, g.data_file, g.sets, g.seed, g.seed_given,
                   &g.steps);
      g.preset = std::move(preset);
    }
    if (g.steps < 0) g.steps = 0;
    // Validate everything the GUI will need before a window opens.
    const std::unique_ptr<Module> probe = make_module(g.module);
    data_load_options(probe->info(), g.layout, true);
    uint64_t seed = g.seed;
    bool seed_given = g.seed_given;
    params_from_sets(probe->params(), g.sets, g.module, &seed, &seed_given);
    g.seed = seed;
    g.seed_given = seed_given;
    r.open_gui = true;
    return r;
  } catch (const std::exception& e) {
    err << "cilab: error: " << e.what() << "\n";
    r.exit_code = 2;
    r.open_gui = false;
    return r;
  }
}

}  // namespace cilab
