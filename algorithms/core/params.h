// Parameter tables: the single description of a module's hyper-parameters.
//
// Every module describes each parameter once in a ParamSpec table (name, type,
// range, default, meaning, formula, live or rebuild). The GUI sliders, the
// CLI's `--set key=value`, `cilab list params MODULE` and presets are all
// generated from that table. Values travel as ParamValues (name -> double);
// a Choice parameter stores the index of the chosen option. Each module turns
// ParamValues into its own plain `Params` struct with the get_* helpers below.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace cilab {

enum class ParamType { Int, Real, Choice, Bool };

// Live: may change mid-run (applied between steps). Rebuild: changing it
// restarts the run from iteration 0.
enum class ParamUpdate { Live, Rebuild };

struct ParamSpec {
  std::string name;                  // CLI key, e.g. "k", "init"
  ParamType type = ParamType::Real;
  double min = 0.0;                  // inclusive range (Int/Real)
  double max = 1.0;
  double def = 0.0;                  // default (Choice: index)
  std::vector<std::string> choices;  // Choice only: option names
  std::string help;                  // one-line meaning
  std::string formula;               // optional: the equation it enters
  ParamUpdate update = ParamUpdate::Rebuild;
  bool log_scale = false;            // slider on a log scale (learning rates...)
  std::vector<std::string> choice_help;  // optional: one line per choice
};

using ParamSpecs = std::vector<ParamSpec>;
using ParamValues = std::map<std::string, double>;

// The spec called `name`, or nullptr.
const ParamSpec* find_param(const ParamSpecs& specs, const std::string& name);

// All defaults of a table.
ParamValues default_values(const ParamSpecs& specs);

// Parses `text` for `spec` ("5", "0.01", "kmeans++", "true"). Throws
// std::invalid_argument: "parameter 'k': expected an integer in [1, 64], got 'x'".
double parse_value(const ParamSpec& spec, const std::string& text);

// Formats a value the way parse_value reads it ("kmeans++", "5", "0.001").
std::string format_value(const ParamSpec& spec, double value);

// Applies "key=value" to `values`. Throws std::invalid_argument naming the
// unknown key and listing the known ones, or the bad value and its range.
void apply_assignment(const ParamSpecs& specs, ParamValues& values, const std::string& assignment,
                      const std::string& module_name);

// Throws std::invalid_argument for the first value outside its spec's range
// (or a non-integer Int, or an out-of-range Choice index). Missing keys are
// filled with defaults first.
ParamValues validated(const ParamSpecs& specs, const ParamValues& values);

// Typed reads for building a module's Params struct (value must be present).
int get_int(const ParamValues& v, const std::string& name);
double get_real(const ParamValues& v, const std::string& name);
bool get_bool(const ParamValues& v, const std::string& name);
int get_choice(const ParamValues& v, const std::string& name);

// One human-readable line per parameter: name, type/range, default, live/rebuild, help.
std::string describe_params(const ParamSpecs& specs);

}  // namespace cilab
