#include "algorithms/core/params.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace cilab {
namespace {

std::string fmt_num(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

std::string range_text(const ParamSpec& s) {
  switch (s.type) {
    case ParamType::Int:
      return "an integer in [" + fmt_num(s.min) + ", " + fmt_num(s.max) + "]";
    case ParamType::Real:
      return "a number in [" + fmt_num(s.min) + ", " + fmt_num(s.max) + "]";
    case ParamType::Bool:
      return "true or false";
    case ParamType::Text:
      return "a text";
    case ParamType::IntList:
      return "1 to " + std::to_string(s.max_items) + " comma-separated integers in [" + fmt_num(s.min) +
             ", " + fmt_num(s.max) + "]";
    case ParamType::Choice: {
      std::string out = "one of ";
      for (size_t i = 0; i < s.choices.size(); ++i) out += (i ? ", " : "") + s.choices[i];
      return out;
    }
  }
  return "";
}

[[noreturn]] void bad_value(const ParamSpec& s, const std::string& found) {
  throw std::invalid_argument("parameter '" + s.name + "': expected " + range_text(s) + ", got '" +
                              found + "'");
}

// Whether a numeric value is one `s` accepts: finite; an option index for a
// Choice, 0 or 1 for a Bool, in [min, max] (and whole for an Int) otherwise.
bool value_ok(const ParamSpec& s, double v) {
  if (!std::isfinite(v)) return false;
  if (s.type == ParamType::Choice) return v == std::floor(v) && v >= 0 && v < static_cast<double>(s.choices.size());
  if (s.type == ParamType::Bool) return v == 0.0 || v == 1.0;
  return v >= s.min && v <= s.max && (s.type != ParamType::Int || v == std::floor(v));
}

}  // namespace

std::vector<int> parse_int_list(const ParamSpec& s, const std::string& text) {
  std::vector<int> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    item = b == std::string::npos ? std::string() : item.substr(b, e - b + 1);
    if (item.empty()) bad_value(s, text);
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (end == item.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v != std::floor(v) ||
        v < s.min || v > s.max)
      bad_value(s, text);
    out.push_back(static_cast<int>(v));
    if (out.size() > s.max_items) bad_value(s, text);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string format_int_list(const std::vector<int>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out;
}

void check_live_value(const ParamSpec* s, const std::string& name, double value,
                      const std::string& module_name) {
  if (!s) throw std::invalid_argument("unknown parameter '" + name + "' for module " + module_name);
  if (s->update != ParamUpdate::Live || is_compound(*s) || is_text_valued(*s))
    throw std::invalid_argument("parameter '" + name + "' of " + module_name +
                                " cannot change mid-run; changing it restarts the run");
  if (!value_ok(*s, value)) bad_value(*s, fmt_num(value));
}

void finish_param_specs(ParamSpecs& specs) {
  for (size_t i = 0; i < specs.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (specs[j].name == specs[i].name)
        throw std::logic_error("parameter table: '" + specs[i].name + "' is listed twice");
    for (const std::string& c : specs[i].components) {
      const ParamSpec* t = find_param(specs, c);
      if (!t || is_compound(*t) || is_text_valued(*t))
        throw std::logic_error("parameter table: compound '" + specs[i].name + "' names '" + c +
                               "', which is not a numeric parameter of the table");
    }
    if (is_text_valued(specs[i]) && specs[i].type == ParamType::IntList)
      parse_int_list(specs[i], specs[i].text_def);  // the default must be valid
  }
}

const ParamSpec* find_param(const ParamSpecs& specs, const std::string& name) {
  for (const ParamSpec& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

ParamValues default_values(const ParamSpecs& specs) {
  ParamValues v;
  for (const ParamSpec& s : specs) {
    if (is_compound(s)) continue;
    if (is_text_valued(s))
      v.text[s.name] = s.text_def;
    else
      v[s.name] = s.def;
  }
  return v;
}

double parse_value(const ParamSpec& s, const std::string& text) {
  if (is_text_valued(s) || is_compound(s))
    throw std::invalid_argument("parameter '" + s.name + "' is not a number (internal: use apply_assignment)");
  if (s.type == ParamType::Choice) {
    for (size_t i = 0; i < s.choices.size(); ++i)
      if (s.choices[i] == text) return static_cast<double>(i);
    bad_value(s, text);
  }
  if (s.type == ParamType::Bool) {
    if (text == "true" || text == "1" || text == "on" || text == "yes") return 1.0;
    if (text == "false" || text == "0" || text == "off" || text == "no") return 0.0;
    bad_value(s, text);
  }
  if (text.empty()) bad_value(s, text);
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v)) bad_value(s, text);
  if (s.type == ParamType::Int && v != std::floor(v)) bad_value(s, text);
  if (v < s.min || v > s.max) bad_value(s, text);
  return v;
}

std::string format_value(const ParamSpec& s, double value) {
  switch (s.type) {
    case ParamType::Choice: {
      const int i = static_cast<int>(value);
      if (i >= 0 && i < static_cast<int>(s.choices.size())) return s.choices[i];
      return fmt_num(value);
    }
    case ParamType::Bool:
      return value != 0.0 ? "true" : "false";
    case ParamType::Int:
      return std::to_string(static_cast<long long>(value));
    case ParamType::Real:
    case ParamType::Text:
    case ParamType::IntList:
      return fmt_num(value);
  }
  return fmt_num(value);
}

void apply_assignment(const ParamSpecs& specs, ParamValues& values, const std::string& assignment,
                      const std::string& module_name) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument("--set '" + assignment + "': expected KEY=VALUE, e.g. --set " +
                                (specs.empty() ? std::string("k=3") : specs.front().name + "=" +
                                                     format_value(specs.front(), specs.front().def)));
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  const ParamSpec* s = find_param(specs, key);
  if (!s) {
    std::string known;
    for (size_t i = 0; i < specs.size(); ++i) known += (i ? ", " : "") + specs[i].name;
    throw std::invalid_argument("unknown parameter '" + key + "' for module " + module_name +
                                "; known: " + known + " (see: cilab list params " + module_name +
                                ")");
  }
  if (s->type == ParamType::Text) {
    values.text[key] = text;
    return;
  }
  if (s->type == ParamType::IntList) {
    values.text[key] = format_int_list(parse_int_list(*s, text));
    return;
  }
  if (is_compound(*s)) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
      const size_t comma = text.find(',', start);
      parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (parts.size() != s->components.size()) {
      std::string example;
      for (size_t i = 0; i < s->components.size(); ++i) example += (i ? "," : "") + std::string("0");
      throw std::invalid_argument("parameter '" + key + "': expected " +
                                  std::to_string(s->components.size()) +
                                  " comma-separated numbers, got '" + text + "'; e.g. --set " + key +
                                  "=" + example);
    }
    ParamValues tmp = values;
    for (size_t i = 0; i < parts.size(); ++i) {
      const ParamSpec* c = find_param(specs, s->components[i]);
      if (!c) throw std::invalid_argument("parameter '" + key + "': unknown component '" + s->components[i] + "'");
      tmp[c->name] = parse_value(*c, parts[i]);
    }
    values = tmp;
    return;
  }
  values[key] = parse_value(*s, text);
}

ParamValues validated(const ParamSpecs& specs, const ParamValues& values) {
  ParamValues out = default_values(specs);
  for (const auto& [key, t] : values.text) {
    const ParamSpec* s = find_param(specs, key);
    if (!s || !is_text_valued(*s)) throw std::invalid_argument("unknown text parameter '" + key + "'");
    if (s->type == ParamType::IntList) parse_int_list(*s, t);  // throws naming the parameter
    out.text[key] = t;
  }
  for (const auto& [key, v] : values) {
    const ParamSpec* s = find_param(specs, key);
    if (!s) throw std::invalid_argument("unknown parameter '" + key + "'");
    if (is_text_valued(*s) || is_compound(*s))
      throw std::invalid_argument("parameter '" + key + "' takes no number");
    if (!value_ok(*s, v)) bad_value(*s, fmt_num(v));
    out[key] = v;
  }
  return out;
}

static double get_checked(const ParamValues& v, const std::string& name) {
  auto it = v.find(name);
  if (it == v.end()) throw std::invalid_argument("parameter '" + name + "' missing");
  return it->second;
}

int get_int(const ParamValues& v, const std::string& name) {
  return static_cast<int>(std::lround(get_checked(v, name)));
}
double get_real(const ParamValues& v, const std::string& name) { return get_checked(v, name); }
bool get_bool(const ParamValues& v, const std::string& name) { return get_checked(v, name) != 0.0; }
int get_choice(const ParamValues& v, const std::string& name) { return get_int(v, name); }
bool param_shown(const ParamSpecs& specs, const ParamSpec& spec, const ParamValues& values) {
  if (spec.shown_if.empty()) return true;
  const size_t eq = spec.shown_if.find('=');
  if (eq == std::string::npos) return true;
  const ParamSpec* ctl = find_param(specs, spec.shown_if.substr(0, eq));
  if (!ctl || ctl->type != ParamType::Choice) return true;
  auto it = values.find(ctl->name);
  const std::string current = format_value(*ctl, it != values.end() ? it->second : ctl->def);
  const std::string options = spec.shown_if.substr(eq + 1);
  size_t start = 0;
  for (;;) {
    const size_t bar = options.find('|', start);
    if (options.compare(start, bar == std::string::npos ? std::string::npos : bar - start, current) == 0)
      return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

std::string choice_name(const ParamSpecs& specs, const ParamValues& values, const std::string& name) {
  const ParamSpec* s = find_param(specs, name);
  if (!s || s->type != ParamType::Choice || s->choices.empty()) return "";
  const auto it = values.find(name);
  const int i = static_cast<int>(it != values.end() ? it->second : s->def);
  return s->choices[static_cast<size_t>(std::clamp(i, 0, static_cast<int>(s->choices.size()) - 1))];
}

const std::string& get_text(const ParamValues& v, const std::string& name) {
  auto it = v.text.find(name);
  if (it == v.text.end()) throw std::invalid_argument("parameter '" + name + "' missing");
  return it->second;
}

std::string describe_params(const ParamSpecs& specs) {
  std::ostringstream os;
  for (const ParamSpec& s : specs) {
    if (is_compound(s)) {
      os << s.name << "\t" << s.components.size() << " comma-separated numbers, sets";
      for (const std::string& c : s.components) os << " " << c;
      os << "\t\t\t" << s.help << "\n";
      continue;
    }
    const std::string def = s.type == ParamType::Text      ? "'" + s.text_def + "'"
                            : s.type == ParamType::IntList ? s.text_def
                                                           : format_value(s, s.def);
    os << s.name << "\t" << range_text(s) << "\tdefault " << def << "\t"
       << (s.update == ParamUpdate::Live ? "live" : "rebuild") << "\t" << s.help;
    if (!s.formula.empty()) os << " [" << s.formula << "]";
    os << "\n";
  }
  return os.str();
}

}  // namespace cilab
