// The command line of the `cilab` binary (no window needed for these).
//
//   cilab --version | --help
//   cilab list [datasets | modules | presets | params MODULE]
//   cilab run (MODULE | --preset NAME) [--dataset SPEC | --data FILE] [--set K=V]...
//                    [--seed N] [--steps N] [--out FILE.csv]
//   cilab [--module NAME | --preset NAME] [--dataset SPEC | --data FILE] [--set K=V]...
//         [--seed N] [--steps N] [--play] [--frames N] [--screenshot FILE.png] [--scale X]
//         [--script FILE]
//
// A preset (app/headless/lab_file.h) supplies the module, data, parameters,
// seed and iteration (--steps); options given beside it override its values.
//
// The first four finish here; the last describes the GUI to open. Errors in
// arguments or data: one line on stderr, exit status 2.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/params.h"
#include "algorithms/data/datasets.h"
#include "app/headless/lab_file.h"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct ModuleInfo;

// How the GUI should start.
struct GuiOptions {
  std::string module = "kmeans";
  std::string dataset_spec;    // built-in spec; empty = module default
  std::string data_file;       // user file (wins over dataset_spec)
  std::string layout;          // --layout triplets|wide (ratings modules; empty = guess)
  std::vector<std::string> sets;  // "key=value"
  uint64_t seed = 0;
  bool seed_given = false;
  int steps = 0;               // steps to run before the first frame
  bool play = false;
  int frames = -1;             // > 0: render N frames and exit
  std::string screenshot;      // PNG path written on exit
  float scale = 0.0f;          // UI scale override (0 = saved setting)
  std::string theme;           // --theme NAME (empty = saved setting; checked by run_gui)
  std::string palette;         // --palette NAME (likewise)
  std::string script;          // --script FILE: commands run between frames
  int threads = 0;             // --threads N: threads per parallel loop (0 = the machine's cores)
  // --preset: the preset opened (its note, tab and panels are shown at start;
  // module, data, sets, seed and steps above already hold its values).
  std::shared_ptr<const LabFile> preset;
};

struct CliResult {
  bool open_gui = false;
  int exit_code = 0;
  GuiOptions gui;
};

// Parses argv; runs list/run/--help/--version itself (writing to out/err).
CliResult run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// Loads the dataset named by a file path or a built-in spec (module default if both empty).
// Throws std::exception with a one-line message.
// `opts` says how a file is read (a ratings module's: data_load_options).
std::shared_ptr<const Dataset> load_dataset_arg(const std::string& data_file,
                                                const std::string& dataset_spec,
                                                const std::string& module_default,
                                                const LoadOptions& opts = {});

// How `info`'s module reads a data file: a feature table; for a text module
// (ModuleInfo::text_data) text (LoadOptions::text: a folder of .txt files or one
// file split on blank lines); or for a ratings module (ModuleInfo::ratings_data)
// a partially observed matrix laid out as `layout` ("triplets", "wide"; "" =
// triplets on the command line, `guess` = sniffed from the first records, for
// the window). Throws std::invalid_argument for another layout, or a layout
// given to a module that reads tables or text.
LoadOptions data_load_options(const ModuleInfo& info, const std::string& layout, bool guess = false);

// Applies "key=value" assignments (and "seed=N") to the module's defaults. Throws std::invalid_argument.
ParamValues params_from_sets(const ParamSpecs& specs, const std::vector<std::string>& sets,
                             const std::string& module_name, uint64_t* seed, bool* seed_given);

// Checks that a preset's module exists and its parameters apply (its data is
// loaded only when it runs). Throws std::invalid_argument naming the file.
void check_preset(const LabFile& preset);

std::string usage_text();
// The help of one command (run, sweep, list): `cilab run --help`.
std::string subcommand_help(const std::string& cmd);

}  // namespace cilab
