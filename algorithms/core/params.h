// Parameter tables: the single description of a module's hyper-parameters.
//
// Every module describes each parameter once, in a ParamTable bound to the
// members of its plain `Params` struct (see the end of this file): name, kind,
// range, meaning, formula, live or rebuild. The defaults are the struct's
// member initialisers. From the table come the ParamSpecs (the runtime
// description: GUI sliders, the CLI's `--set key=value`, `cilab list params
// MODULE`), the reading of ParamValues into the struct, the range checks and
// the live updates with their messages. Values travel as ParamValues (name ->
// double); a Choice parameter stores the index of the chosen option, Text and
// IntList parameters travel as strings in ParamValues::text.
#pragma once

#include <cmath>
#include <functional>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cilab {

// IntList: comma-separated integers, "256,128" (layer widths...), each in
// [min, max], between 1 and max_items of them; travels as text.
enum class ParamType { Int, Real, Choice, Bool, Text, IntList };

// Live: may change mid-run (applied between steps). Rebuild: changing it
// restarts the run from iteration 0.
enum class ParamUpdate { Live, Rebuild };

// What a Live parameter's change means for the run, so the shell and the
// oracles treat every module alike:
//   Other      a setting (a learning rate, a tolerance, what is shown);
//   Objective  it enters the objective the module reports (a ridge penalty, a
//              threshold): after a change the objective is another function, so a
//              monotonicity oracle re-bases there instead of calling the jump a
//              violation, and the curves mark the change;
//   Budget     a budget (max_iter, epochs, max_epochs, max_steps): raised after
//              the run stopped at it, the run continues from where it stopped.
enum class LiveRole { Other, Objective, Budget };

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
  size_t max_items = 16;             // IntList only: at most this many entries
  LiveRole role = LiveRole::Other;   // Live only: see LiveRole
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
// True for the kinds whose value is a string in ParamValues::text (Text, IntList).
inline bool is_text_valued(const ParamSpec& s) {
  return s.type == ParamType::Text || s.type == ParamType::IntList;
}

// Parses an IntList value ("256,128", spaces allowed) against its spec. Throws
// std::invalid_argument: "parameter 'layers': expected 1 to 16 comma-separated
// integers in [1, 4096], got '256,x'".
std::vector<int> parse_int_list(const ParamSpec& spec, const std::string& text);
// "256,128": the text parse_int_list reads.
std::string format_int_list(const std::vector<int>& values);

// The spec called `name`, or nullptr.
const ParamSpec* find_param(const ParamSpecs& specs, const std::string& name);

// All defaults of a table (Text and IntList defaults in .text; compound specs skipped).
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

// The option name of Choice parameter `name` under `values` (its default when absent; "" when
// `name` is no Choice).
std::string choice_name(const ParamSpecs& specs, const ParamValues& values, const std::string& name);

// A Text parameter's value (throws std::invalid_argument if absent).
const std::string& get_text(const ParamValues& v, const std::string& name);

// One human-readable line per parameter: name, type/range, default, live/rebuild, help.
std::string describe_params(const ParamSpecs& specs);

// Checks a mid-run change of `spec` to `value` (the spec is Live, numeric, and
// the value in range; an integer for Int, Choice and Bool). Throws
// std::invalid_argument naming the parameter: unknown (spec == nullptr),
// rebuild-only, or the expected range and the value found.
void check_live_value(const ParamSpec* spec, const std::string& name, double value,
                      const std::string& module_name);

// ------------------------------------------------------------------------
// Declarative tables (compare Dear ImGui's GStyleVarInfo: one row per field).
//
//   struct Params { int k = 4; Init init = Init::KMeansPlusPlus; int max_iter = 300; };
//   static const ParamTable<Params> kTable = {
//       Int("k", &Params::k, 1, 64).help("number of clusters (scikit-learn: n_clusters)"),
//       Choice("init", &Params::init, {"random", "kmeans++", "first", "manual"}).help("..."),
//       Int("max_iter", &Params::max_iter, 1, 10000).live().help("iteration budget"),
//   };
//   Params p = kTable.read(values);             // validated ParamValues -> struct
//   kTable.set_live(p, "max_iter", 500, "kmeans");  // range-checked, Live only
//
// A row binds a member pointer (&Params::k) or, for nested members, an
// accessor written with the struct named: Real<Params>("gamma", [](Params& p)
// -> double& { return p.schedule.gamma; }, 0.01, 1). Enum members are Choice
// indices. The default of every row is read from a default-constructed Params:
// the member initialisers are the one place defaults live. Groups of rows
// (std::vector<ParamField<P>>) can be spliced into a table whole, e.g. the
// shared optimizer and schedule groups of algorithms/optim/optim_params.h.

namespace param_detail {
template <class T>
double to_number(const T& v) {
  if constexpr (std::is_enum_v<T>) return static_cast<double>(static_cast<int>(v));
  else return static_cast<double>(v);
}
template <class T>
T from_number(double v) {
  if constexpr (std::is_enum_v<T>) return static_cast<T>(static_cast<int>(std::lround(v)));
  else if constexpr (std::is_same_v<T, bool>) return v != 0.0;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(std::llround(v));
  else return static_cast<T>(v);
}
}  // namespace param_detail

// One row of a ParamTable: the runtime spec plus the accessors into P.
template <class P>
struct ParamField {
  ParamSpec spec;
  std::function<double(const P&)> get;                   // numeric kinds
  std::function<void(P&, double)> set;
  std::function<std::string(const P&)> get_text;         // Text, IntList
  std::function<void(P&, const std::string&)> set_text;  // (already validated)

  ParamField& help(std::string h) { spec.help = std::move(h); return *this; }
  ParamField& formula(std::string f) { spec.formula = std::move(f); return *this; }
  ParamField& live(bool on = true) {
    spec.update = on ? ParamUpdate::Live : ParamUpdate::Rebuild;
    return *this;
  }
  // Live, and it enters the objective (LiveRole::Objective).
  ParamField& objective() {
    spec.update = ParamUpdate::Live;
    spec.role = LiveRole::Objective;
    return *this;
  }
  // Live, and a budget: raised after the run stopped, the run continues (LiveRole::Budget).
  ParamField& budget() {
    spec.update = ParamUpdate::Live;
    spec.role = LiveRole::Budget;
    return *this;
  }
  ParamField& log_scale(bool on = true) { spec.log_scale = on; return *this; }
  ParamField& choice_help(std::vector<std::string> h) { spec.choice_help = std::move(h); return *this; }
  // Panel only: show the control while Choice `param` has one of the options
  // ("function=quadratic|rosenbrock"); see ParamSpec::shown_if.
  ParamField& shown_if(std::string cond) { spec.shown_if = std::move(cond); return *this; }
  ParamField& max_items(size_t n) { spec.max_items = n; return *this; }
};

namespace param_detail {
// Binds a numeric field through `ref` (member pointer or accessor returning T&).
template <class P, class T, class Ref>
ParamField<P> numeric(std::string name, ParamType type, double lo, double hi, Ref ref) {
  ParamField<P> f;
  f.spec.name = std::move(name);
  f.spec.type = type;
  f.spec.min = lo;
  f.spec.max = hi;
  f.get = [ref](const P& p) { return to_number<T>(std::invoke(ref, const_cast<P&>(p))); };
  f.set = [ref](P& p, double v) { std::invoke(ref, p) = from_number<T>(v); };
  return f;
}
template <class P, class Ref>
using RefTarget = std::remove_reference_t<std::invoke_result_t<Ref, P&>>;
}  // namespace param_detail

namespace param_detail {
template <class P, class Ref>
ParamField<P> text(std::string name, Ref ref) {
  ParamField<P> f;
  f.spec.name = std::move(name);
  f.spec.type = ParamType::Text;
  f.get_text = [ref](const P& p) { return std::string(std::invoke(ref, const_cast<P&>(p))); };
  f.set_text = [ref](P& p, const std::string& t) { std::invoke(ref, p) = t; };
  return f;
}
template <class P, class Ref>
ParamField<P> int_list(std::string name, Ref ref, double lo, double hi) {
  ParamField<P> f;
  f.spec.name = std::move(name);
  f.spec.type = ParamType::IntList;
  f.spec.min = lo;
  f.spec.max = hi;
  f.get_text = [ref](const P& p) { return format_int_list(std::invoke(ref, const_cast<P&>(p))); };
  // The text was validated against the final spec (max_items...) before it is set.
  f.set_text = [ref, lo, hi](P& p, const std::string& t) {
    ParamSpec any;
    any.type = ParamType::IntList;
    any.min = lo;
    any.max = hi;
    any.max_items = static_cast<size_t>(-1);
    std::invoke(ref, p) = parse_int_list(any, t);
  };
  return f;
}
}  // namespace param_detail

namespace param_detail {
// The struct a row binds to: named explicitly (Real<P>("gamma", accessor, ...)),
// or the class of a member pointer (Int("k", &Params::k, ...)).
template <class M>
struct member_class {};
template <class T, class C>
struct member_class<T C::*> {
  using type = C;
};
template <class P, class Ref>
struct owner {
  using type = P;
};
template <class Ref>
struct owner<void, Ref> {
  using type = typename member_class<Ref>::type;
};
template <class P, class Ref>
using Owner = typename owner<P, Ref>::type;
}  // namespace param_detail

// Every builder takes a member pointer (&Params::k) or, with the struct named,
// an accessor returning a reference (Real<Params>("gamma", [](Params& p) -> double& {...}, ...)).

// An integer in [lo, hi] (int member).
template <class P = void, class Ref>
ParamField<param_detail::Owner<P, Ref>> Int(std::string name, Ref ref, double lo, double hi) {
  using O = param_detail::Owner<P, Ref>;
  return param_detail::numeric<O, param_detail::RefTarget<O, Ref>>(std::move(name), ParamType::Int, lo, hi, ref);
}
// A real number in [lo, hi] (double member); .log_scale() for a log slider.
template <class P = void, class Ref>
ParamField<param_detail::Owner<P, Ref>> Real(std::string name, Ref ref, double lo, double hi) {
  using O = param_detail::Owner<P, Ref>;
  return param_detail::numeric<O, param_detail::RefTarget<O, Ref>>(std::move(name), ParamType::Real, lo, hi, ref);
}
// true / false (bool member).
template <class P = void, class Ref>
ParamField<param_detail::Owner<P, Ref>> Bool(std::string name, Ref ref) {
  using O = param_detail::Owner<P, Ref>;
  return param_detail::numeric<O, param_detail::RefTarget<O, Ref>>(std::move(name), ParamType::Bool, 0, 1, ref);
}
// One of `choices` (an enum or int member holding the option's index); min/max
// stay unused (0, 1): a Choice's range is its option list.
template <class P = void, class Ref>
ParamField<param_detail::Owner<P, Ref>> Choice(std::string name, Ref ref, std::vector<std::string> choices) {
  using O = param_detail::Owner<P, Ref>;
  ParamField<O> f = param_detail::numeric<O, param_detail::RefTarget<O, Ref>>(std::move(name), ParamType::Choice, 0, 1, ref);
  f.spec.choices = std::move(choices);
  return f;
}
// Free text (std::string member), e.g. a formula.
template <class P = void, class Ref>
ParamField<param_detail::Owner<P, Ref>> Text(std::string name, Ref ref) {
  return param_detail::text<param_detail::Owner<P, Ref>>(std::move(name), ref);
}
// Comma-separated integers in [lo, hi] (std::vector<int> member): "layers=256,128".
template <class P = void, class Ref>
ParamField<param_detail::Owner<P, Ref>> IntList(std::string name, Ref ref, double lo, double hi) {
  return param_detail::int_list<param_detail::Owner<P, Ref>>(std::move(name), ref, lo, hi);
}
// A compound alias: "start=-1.5,2" assigns the listed rows in order.
template <class P>
ParamField<P> Compound(std::string name, std::vector<std::string> components) {
  ParamField<P> f;
  f.spec.name = std::move(name);
  f.spec.components = std::move(components);
  return f;
}

// Rows spliced into a table: one field, or a whole group.
template <class P>
struct ParamRows {
  std::vector<ParamField<P>> rows;
  ParamRows(ParamField<P> f) { rows.push_back(std::move(f)); }  // NOLINT: implicit by design
  ParamRows(std::vector<ParamField<P>> g) : rows(std::move(g)) {}  // NOLINT
};

// Non-template core of a table, shared by every instantiation (params.cpp).
void finish_param_specs(ParamSpecs& specs);  // checks names unique, compounds resolve

template <class P>
class ParamTable {
 public:
  ParamTable(std::initializer_list<ParamRows<P>> groups) {
    for (const ParamRows<P>& g : groups)
      for (const ParamField<P>& f : g.rows) fields_.push_back(f);
    finish();
  }
  explicit ParamTable(std::vector<ParamField<P>> fields) : fields_(std::move(fields)) { finish(); }

  // The runtime description (defaults filled in from P{}).
  const ParamSpecs& specs() const { return specs_; }

  // Validates `values` (missing keys take the defaults; std::invalid_argument
  // naming the parameter otherwise) and reads them into a Params struct.
  P read(const ParamValues& values) const {
    const ParamValues v = validated(specs_, values);
    P p{};
    for (const ParamField<P>& f : fields_) {
      if (is_compound(f.spec)) continue;
      if (is_text_valued(f.spec)) f.set_text(p, get_text(v, f.spec.name));
      else f.set(p, v.at(f.spec.name));
    }
    return p;
  }

  // The ParamValues that read() turns into `p`.
  ParamValues values(const P& p) const {
    ParamValues v;
    for (const ParamField<P>& f : fields_) {
      if (is_compound(f.spec)) continue;
      if (is_text_valued(f.spec)) v.text[f.spec.name] = f.get_text(p);
      else v[f.spec.name] = f.get(p);
    }
    return v;
  }

  // A mid-run change: checks (check_live_value) and assigns `value` to p.
  void set_live(P& p, const std::string& name, double value, const std::string& module_name) const {
    const ParamField<P>* f = field(name);
    check_live_value(f ? &f->spec : nullptr, name, value, module_name);
    f->set(p, value);
  }

 private:
  const ParamField<P>* field(const std::string& name) const {
    for (const ParamField<P>& f : fields_)
      if (f.spec.name == name) return &f;
    return nullptr;
  }
  void finish() {
    const P defaults{};
    for (const ParamField<P>& f : fields_) {
      ParamSpec s = f.spec;
      if (is_text_valued(s) && f.get_text) s.text_def = f.get_text(defaults);
      else if (!is_compound(s) && f.get) s.def = f.get(defaults);
      specs_.push_back(std::move(s));
    }
    finish_param_specs(specs_);
  }

  std::vector<ParamField<P>> fields_;
  ParamSpecs specs_;
};

}  // namespace cilab
