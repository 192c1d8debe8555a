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

enum class ParamType { Int, Real, Choice, Bool, Text };

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
  std::string text_def;              // Text only: the default text
  std::vector<std::string> components;  // compound alias: the specs it assigns, in order
  // Panel only: show the slider only while another Choice parameter has one of
  // the listed options, "function=quadratic|least_squares" (empty: always).
  // The parameter still exists and is validated; the CLI is unaffected.
  std::string shown_if;
};

using ParamSpecs = std::vector<ParamSpec>;

// Parameter values: name -> number (Choice: option index, Bool: 0/1), plus
// the Text parameters' strings in `text`.
struct ParamValues : std::map<std::string, double> {
  using std::map<std::string, double>::map;  // ParamValues{{"k", 3}, {"init", 1}}
  ParamValues() = default;
  std::map<std::string, std::string> text;
};

inline bool operator==(const ParamValues& a, const ParamValues& b) {
  return static_cast<const std::map<std::string, double>&>(a) ==
             static_cast<const std::map<std::string, double>&>(b) &&
         a.text == b.text;
}
inline bool operator!=(const ParamValues& a, const ParamValues& b) { return !(a == b); }

// True for a compound alias spec (stores nothing itself).
inline bool is_compound(const ParamSpec& s) { return !s.components.empty(); }

// The spec called `name`, or nullptr.
const ParamSpec* find_param(const ParamSpecs& specs, const std::string& name);

// All defaults of a table (Text defaults in .text; compound specs skipped).
ParamValues default_values(const ParamSpecs& specs);

// Parses `text` for a numeric `spec` ("5", "0.01", "kmeans++", "true"). Throws
// std::invalid_argument: "parameter 'k': expected an integer in [1, 64], got 'x'".
double parse_value(const ParamSpec& spec, const std::string& text);

// Formats a value the way parse_value reads it ("kmeans++", "5", "0.001").
std::string format_value(const ParamSpec& spec, double value);

// Applies "key=value" to `values` (Text: stored verbatim in values.text;
// compound: "key=a,b" assigns a and b to the components). Throws std::invalid_argument naming the
// unknown key and listing the known ones, or the bad value and its range.
void apply_assignment(const ParamSpecs& specs, ParamValues& values, const std::string& assignment,
                      const std::string& module_name);

// Throws std::invalid_argument for the first value outside its spec's range
// (or a non-integer Int, or an out-of-range Choice index, or an unknown key).
// Missing keys (numbers and texts) are filled with defaults first.
ParamValues validated(const ParamSpecs& specs, const ParamValues& values);

// Typed reads for building a module's Params struct (value must be present).
int get_int(const ParamValues& v, const std::string& name);
double get_real(const ParamValues& v, const std::string& name);
bool get_bool(const ParamValues& v, const std::string& name);
int get_choice(const ParamValues& v, const std::string& name);
// Whether a spec's panel control applies under `values` (its shown_if holds;
// true when shown_if is empty or names no known Choice parameter).
bool param_shown(const ParamSpecs& specs, const ParamSpec& spec, const ParamValues& values);

// A Text parameter's value (throws std::invalid_argument if absent).
const std::string& get_text(const ParamValues& v, const std::string& name);

// One human-readable line per parameter: name, type/range, default, live/rebuild, help.
std::string describe_params(const ParamSpecs& specs);

}  // namespace cilab
