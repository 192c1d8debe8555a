// Lab files (presets) in JSON: parse, write, find. nlohmann::json stays in
// this one translation unit (it is a heavy header).
#include "app/headless/lab_file.h"

#include "algorithms/data/datasets.h"
#include "app/headless/settings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cilab {
namespace {

using json = nlohmann::ordered_json;  // keeps the file's order of parameters

constexpr const char* kFormat = "cilab-preset";
constexpr const char* kSessionFormat = "cilab-session";
constexpr size_t kMaxEdits = 100000;
constexpr int kVersion = 1;
constexpr size_t kMaxFileBytes = size_t(64) << 20;  // a session may embed its data as CSV
constexpr int kMaxDepth = 16;                        // the format nests three deep
constexpr int kMaxIteration = 1000000;               // as the GUI's --steps

[[noreturn]] void fail(const std::string& origin, const std::string& what) {
  throw std::invalid_argument(origin + ": " + what);
}

// "line L, column C" of byte offset `pos` (0-based) in `text`.
std::string where(const std::string& text, size_t pos) {
  pos = std::min(pos, text.size());
  int line = 1, col = 1;
  for (size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// Rejects nesting deeper than kMaxDepth before the parser sees it (a file of
// a million '[' must give an error, not exhaust the stack or the memory).
void check_depth(const std::string& text, const std::string& origin) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth)
        fail(origin, where(text, i) + ": nested deeper than " + std::to_string(kMaxDepth) +
                         " levels; a preset is a flat object (see assets/presets/README.md)");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// A text from the file for a one-line message: control characters escaped ("\n", "\x01").
std::string printable(const std::string& s) {
  std::string out;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

std::string type_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a number";
  }
}

std::string get_string(const json& v, const std::string& key, const std::string& origin) {
  if (!v.is_string()) fail(origin, "'" + key + "' must be a string, got " + type_of(v));
  return v.get<std::string>();
}

// A text that may be written as one string or as an array of lines (joined with '\n').
std::string get_lines(const json& v, const std::string& key, const std::string& origin) {
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_array()) fail(origin, "'" + key + "' must be a string or an array of strings, got " + type_of(v));
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string())
      fail(origin, "'" + key + "' line " + std::to_string(i + 1) + " must be a string, got " + type_of(v[i]));
    if (i) out += '\n';
    out += v[i].get<std::string>();
  }
  return out;
}

// A non-negative integer in [0, hi] (a JSON integer, or a float with an integral value).
uint64_t get_count(const json& v, const std::string& key, uint64_t hi, const std::string& origin) {
  const std::string bad = "'" + key + "' must be an integer in [0, " + std::to_string(hi) + "], got ";
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > hi) fail(origin, bad + std::to_string(u));
    return u;
  }
  if (v.is_number_integer()) fail(origin, bad + std::to_string(v.get<int64_t>()));
  if (v.is_number_float()) fail(origin, bad + v.dump());
  fail(origin, bad + type_of(v));
}

// A parameter value as the text `--set name=value` takes.
std::string param_text(const json& v, const std::string& key, const std::string& origin) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_float()) return v.dump();  // shortest text that reads back to the same double
  fail(origin, "parameter '" + printable(key) + "' must be a number, a string or a boolean, got " + type_of(v));
}

// A parameter's text as JSON: a bare number when the text is one that reads
// back as the same text ("5", "0.001"), else a string ("kmeans++", "1e-3").
std::string param_json(const std::string& text) {
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-')) return json(text).dump();
  const json v = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (v.is_number() && v.dump() == text) return text;
  return json(text).dump();
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

const std::vector<std::string> kKnownKeys = {"format", "version", "title", "chapter", "note",
                                             "module", "data",   "data_file", "params", "seed",
                                             "iteration", "tab", "panels", "phase", "last_iteration", "edits", "data_embedded",
                                             "note_open", "plot_views"};
const std::vector<std::string> kSessionOnlyKeys = {"phase", "last_iteration", "edits", "data_embedded", "plot_views"};
const std::vector<std::string> kPanelNames = {"browser", "data", "params", "metrics"};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

constexpr size_t kMaxEmbeddedValues = size_t(4) << 20;

// An embedded dataset: {"name", "columns": [..], "rows": [[..], ..], "labels":
// [..], "class_names": [..], "target_name", "target": [..]}.
std::shared_ptr<const Dataset> read_embedded(const json& v, const std::string& origin) {
  const std::string at = "'data_embedded'";
  if (!v.is_object()) fail(origin, at + " must be an object, got " + type_of(v));
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string& k = it.key();
    if (k != "name" && k != "source" && k != "columns" && k != "rows" && k != "labels" && k != "class_names" &&
        k != "target_name" && k != "target")
      fail(origin, at + ": unknown key '" + printable(k) + "'");
  }
  auto d = std::make_shared<Dataset>();
  if (v.contains("name")) d->name = get_string(v["name"], "data_embedded name", origin);
  if (v.contains("source")) d->source = get_string(v["source"], "data_embedded source", origin);
  if (!v.contains("columns") || !v["columns"].is_array() || v["columns"].empty())
    fail(origin, at + ": 'columns' must be a non-empty array of column names");
  for (const json& c : v["columns"]) d->column_names.push_back(get_string(c, "data_embedded column", origin));
  const size_t cols = d->column_names.size();
  if (!v.contains("rows") || !v["rows"].is_array() || v["rows"].empty())
    fail(origin, at + ": 'rows' must be a non-empty array of rows");
  const json& rows = v["rows"];
  if (rows.size() * cols > kMaxEmbeddedValues) fail(origin, at + ": too large to embed");
  d->x.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols));
  for (size_t i = 0; i < rows.size(); ++i) {
    const json& r = rows[i];
    if (!r.is_array() || r.size() != cols)
      fail(origin, at + ": row " + std::to_string(i + 1) + " must be an array of " + std::to_string(cols) + " numbers");
    for (size_t j = 0; j < cols; ++j) {
      if (!r[j].is_number()) fail(origin, at + ": row " + std::to_string(i + 1) + " has a value that is not a number");
      d->x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = r[j].get<double>();
    }
  }
  if (v.contains("labels")) {
    const json& l = v["labels"];
    if (!l.is_array() || l.size() != rows.size())
      fail(origin, at + ": 'labels' must be an array with one integer per row");
    for (const json& x : l) {
      if (!x.is_number_integer() || x.get<int64_t>() < -1 || x.get<int64_t>() > 100000)
        fail(origin, at + ": a label must be an integer in [-1, 100000]");
      d->labels.push_back(static_cast<int>(x.get<int64_t>()));
    }
  }
  if (v.contains("class_names")) {
    const json& c = v["class_names"];
    if (!c.is_array() || c.size() > 100001) fail(origin, at + ": 'class_names' must be an array of strings");
    for (const json& x : c) d->class_names.push_back(get_string(x, "data_embedded class name", origin));
  }
  if (v.contains("target")) {
    const json& t = v["target"];
    if (!t.is_array() || t.size() != rows.size()) fail(origin, at + ": 'target' must have one number per row");
    for (const json& x : t) {
      if (!x.is_number()) fail(origin, at + ": a target value is not a number");
      d->target.push_back(x.get<double>());
    }
    d->target_name = v.contains("target_name") ? get_string(v["target_name"], "data_embedded target_name", origin)
                                               : std::string("target");
  }
  return d;
}

std::string write_embedded(const Dataset& d) {
  if (d.is_image()) throw std::invalid_argument("image data cannot be embedded in a session; save it with its file");
  if (static_cast<size_t>(d.rows()) * static_cast<size_t>(d.cols()) > kMaxEmbeddedValues)
    throw std::invalid_argument("the data is too large to embed in a session (" + std::to_string(d.rows()) +
                                " rows); use a built-in dataset or a file");
  auto str = [](const std::string& s) { return json(s).dump(); };
  auto num = [](double x) { return exact_number_text(x); };
  std::ostringstream o;
  o << "{\n    \"name\": " << str(d.name) << ",\n    \"source\": " << str(d.source) << ",\n    \"columns\": [";
  for (int j = 0; j < d.cols(); ++j)
    o << (j ? ", " : "") << str(j < static_cast<int>(d.column_names.size()) ? d.column_names[static_cast<size_t>(j)]
                                                                            : "x" + std::to_string(j));
  o << "],\n    \"rows\": [";
  for (int i = 0; i < d.rows(); ++i) {
    o << (i ? ",\n      [" : "\n      [");
    for (int j = 0; j < d.cols(); ++j) o << (j ? ", " : "") << num(d.x(i, j));
    o << "]";
  }
  o << "\n    ]";
  if (d.has_labels()) {
    o << ",\n    \"labels\": [";
    for (size_t i = 0; i < d.labels.size(); ++i) o << (i ? ", " : "") << d.labels[i];
    o << "]";
  }
  if (!d.class_names.empty()) {
    o << ",\n    \"class_names\": [";
    for (size_t i = 0; i < d.class_names.size(); ++i) o << (i ? ", " : "") << str(d.class_names[i]);
    o << "]";
  }
  if (d.has_target()) {
    o << ",\n    \"target_name\": " << str(d.target_name) << ",\n    \"target\": [";
    for (size_t i = 0; i < d.target.size(); ++i) o << (i ? ", " : "") << num(d.target[i]);
    o << "]";
  }
  o << "\n  }";
  return o.str();
}

}  // namespace

const std::vector<std::string>& lab_panel_names() { return kPanelNames; }

LabFile parse_lab_file(const std::string& text, const std::string& origin) {
  if (text.size() > kMaxFileBytes)
    fail(origin, "the file is " + std::to_string(text.size()) + " bytes; a preset or session is at most 64 MiB");
  check_depth(text, origin);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is the 1-based position of the offending character.
    const std::string msg = e.what();
    const size_t cut = msg.find("syntax error");
    fail(origin, where(text, e.byte > 0 ? e.byte - 1 : 0) + ": not valid JSON (" +
                     (cut == std::string::npos ? msg : msg.substr(cut)) + ")");
  } catch (const json::out_of_range& e) {
    // A number beyond a double's range ("1e999"); nlohmann gives no position.
    const std::string msg = e.what();
    const size_t cut = msg.find("number overflow");
    fail(origin, "not valid JSON (" + (cut == std::string::npos ? msg : msg.substr(cut)) +
                     "); numbers must be within a double's range");
  }
  if (!doc.is_object()) fail(origin, "expected a JSON object { ... } at the top, got " + type_of(doc));
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (std::find(kKnownKeys.begin(), kKnownKeys.end(), it.key()) == kKnownKeys.end())
      fail(origin, "unknown key '" + printable(it.key()) + "' (known: " + join(kKnownKeys) + ")");
  }
  LabFile lab;
  if (doc.contains("format")) {
    const std::string f = get_string(doc["format"], "format", origin);
    if (f != kFormat && f != kSessionFormat)
      fail(origin, "'format' is '" + printable(f) + "'; expected '" + kFormat + "' or '" + kSessionFormat + "'");
    lab.session = f == kSessionFormat;
  }
  if (!lab.session)
    for (const std::string& k : kSessionOnlyKeys)
      if (doc.contains(k)) fail(origin, "'" + k + "' belongs in a session (\"format\": \"" + kSessionFormat + "\")");
  if (doc.contains("version")) {
    const uint64_t v = get_count(doc["version"], "version", 1000000, origin);
    if (v != static_cast<uint64_t>(kVersion))
      fail(origin, "format version " + std::to_string(v) + "; this CILab reads version " +
                       std::to_string(kVersion) + " (a newer CILab wrote it?)");
  }
  if (!doc.contains("module")) fail(origin, "missing 'module' (the module to open, e.g. \"kmeans\")");
  lab.module = get_string(doc["module"], "module", origin);
  if (lab.module.empty()) fail(origin, "'module' is empty; name a module (see: cilab list modules)");
  if (!lab.session && !doc.contains("title")) fail(origin, "missing 'title' (shown in the Presets menu)");
  if (doc.contains("title")) lab.title = get_string(doc["title"], "title", origin);
  if (!lab.session && lab.title.empty()) fail(origin, "'title' is empty; give the menu a title");
  if (doc.contains("chapter")) lab.chapter = get_string(doc["chapter"], "chapter", origin);
  if (doc.contains("note")) lab.note = get_lines(doc["note"], "note", origin);
  if (doc.contains("data")) lab.dataset = get_string(doc["data"], "data", origin);
  if (doc.contains("data_file")) lab.data_file = get_string(doc["data_file"], "data_file", origin);
  if (doc.contains("data_embedded")) lab.data_embedded = read_embedded(doc["data_embedded"], origin);
  if (!lab.dataset.empty() + !lab.data_file.empty() + (lab.data_embedded != nullptr) > 1)
    fail(origin, "give one of 'data' (a built-in dataset), 'data_file' or 'data_embedded', not several");
  if (doc.contains("params")) {
    const json& p = doc["params"];
    if (!p.is_object()) fail(origin, "'params' must be an object {\"name\": value, ...}, got " + type_of(p));
    for (auto it = p.begin(); it != p.end(); ++it) {
      if (it.key().empty()) fail(origin, "'params' has an empty parameter name");
      if (it.key() == "seed") fail(origin, "the seed is a top-level key (\"seed\": N), not a parameter");
      lab.params.emplace_back(it.key(), param_text(it.value(), it.key(), origin));
    }
  }
  if (doc.contains("seed")) lab.seed = get_count(doc["seed"], "seed", uint64_t(INT64_MAX), origin);
  if (doc.contains("iteration"))
    lab.iteration = static_cast<int>(get_count(doc["iteration"], "iteration", kMaxIteration, origin));
  if (doc.contains("phase")) lab.phase = static_cast<int>(get_count(doc["phase"], "phase", 64, origin));
  if (doc.contains("last_iteration"))
    lab.last_iteration = static_cast<int>(get_count(doc["last_iteration"], "last_iteration", kMaxIteration, origin));
  if (lab.last_iteration > lab.iteration && lab.phase > 0)
    fail(origin, "a session shown inside an iteration (phase > 0) ends there: 'last_iteration' must not exceed 'iteration'");
  if (doc.contains("edits")) {
    const json& list = doc["edits"];
    if (!list.is_array()) fail(origin, "'edits' must be an array of edits, got " + type_of(list));
    if (list.size() > kMaxEdits) fail(origin, "more than " + std::to_string(kMaxEdits) + " edits");
    int last_it = 0, last_phase = 0;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string at = "edit " + std::to_string(i + 1);
      const json& e = list[i];
      if (!e.is_object()) fail(origin, at + " must be an object, got " + type_of(e));
      for (auto it = e.begin(); it != e.end(); ++it) {
        const std::string& k = it.key();
        if (k != "iteration" && k != "phase" && k != "set" && k != "value" && k != "intent" && k != "index" &&
            k != "values")
          fail(origin, at + ": unknown key '" + printable(k) + "' (known: iteration, phase, set, value, intent, index, values)");
      }
      LabEdit ed;
      if (!e.contains("iteration")) fail(origin, at + ": missing 'iteration'");
      ed.iteration = static_cast<int>(get_count(e["iteration"], at + " iteration", kMaxIteration, origin));
      if (e.contains("phase")) ed.phase = static_cast<int>(get_count(e["phase"], at + " phase", 64, origin));
      if (ed.iteration < last_it || (ed.iteration == last_it && ed.phase < last_phase))
        fail(origin, at + ": edits must be in the order they were made (iteration, phase)");
      last_it = ed.iteration;
      last_phase = ed.phase;
      if (e.contains("set") == e.contains("intent"))
        fail(origin, at + ": give either 'set' (a live parameter) or 'intent' (a module edit)");
      auto number = [&](const json& v, const std::string& what) {
        if (!v.is_number()) fail(origin, at + ": '" + what + "' must be a number, got " + type_of(v));
        return v.get<double>();
      };
      if (e.contains("set")) {
        ed.param = get_string(e["set"], at + " set", origin);
        if (!e.contains("value")) fail(origin, at + ": missing 'value'");
        ed.value = number(e["value"], "value");
      } else {
        ed.intent = get_string(e["intent"], at + " intent", origin);
        if (e.contains("index")) {
          const json& v = e["index"];
          if (!v.is_number_integer() || v.get<int64_t>() < -1 || v.get<int64_t>() > 1000000)
            fail(origin, at + ": 'index' must be an integer in [-1, 1000000]");
          ed.index = static_cast<int>(v.get<int64_t>());
        }
        if (e.contains("values")) {
          const json& v = e["values"];
          if (!v.is_array() || v.size() > 4096) fail(origin, at + ": 'values' must be an array of numbers");
          for (const json& x : v) ed.values.push_back(number(x, "values"));
        }
      }
      lab.edits.push_back(std::move(ed));
    }
  }
  const int end = std::max(lab.iteration, lab.last_iteration);
  if (lab.edits.size() && (lab.edits.back().iteration > end ||
                           (lab.edits.back().iteration == end && end == lab.iteration && lab.edits.back().phase > lab.phase)))
    fail(origin, "an edit comes after the end of the session's history (iteration " + std::to_string(end) + ")");
  if (doc.contains("tab")) lab.tab = static_cast<int>(get_count(doc["tab"], "tab", 9, origin));
  if (doc.contains("note_open")) {
    if (!doc["note_open"].is_boolean()) fail(origin, "'note_open' must be true or false, got " + type_of(doc["note_open"]));
    lab.note_open = doc["note_open"].get<bool>();
  }
  if (doc.contains("plot_views")) {
    const json& pv = doc["plot_views"];
    if (!pv.is_array() || pv.size() > 256)
      fail(origin, "'plot_views' must be an array of {\"plot\": \"1a2b3c4d\", \"x\": [min, max], \"y\": [min, max]}");
    for (size_t i = 0; i < pv.size(); ++i) {
      const std::string at = "'plot_views' entry " + std::to_string(i + 1);
      const json& e = pv[i];
      if (!e.is_object() || !e.contains("plot") || !e.contains("x") || !e.contains("y"))
        fail(origin, at + ": expected {\"plot\": \"1a2b3c4d\", \"x\": [min, max], \"y\": [min, max]}");
      const std::string id = get_string(e["plot"], at + " plot", origin);
      if (id.empty() || id.size() > 8 || id.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        fail(origin, at + ": 'plot' must be 1 to 8 hexadecimal digits, got '" + printable(id) + "'");
      LabPlotView v;
      v.plot = static_cast<uint32_t>(std::stoul(id, nullptr, 16));
      auto range = [&](const char* key, double* lo, double* hi) {
        const json& r = e[key];
        if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number())
          fail(origin, at + ": '" + key + "' must be [min, max]");
        *lo = r[0].get<double>();
        *hi = r[1].get<double>();
        if (!std::isfinite(*lo) || !std::isfinite(*hi) || !(*lo < *hi))
          fail(origin, at + ": '" + key + "' must be [min, max] with finite min < max");
      };
      range("x", &v.x_min, &v.x_max);
      range("y", &v.y_min, &v.y_max);
      lab.plot_views.push_back(v);
    }
  }
  if (doc.contains("panels")) {
    const json& p = doc["panels"];
    if (!p.is_object()) fail(origin, "'panels' must be an object {\"metrics\": false, ...}, got " + type_of(p));
    for (auto it = p.begin(); it != p.end(); ++it) {
      const auto& names = lab_panel_names();
      if (std::find(names.begin(), names.end(), it.key()) == names.end())
        fail(origin, "'panels': unknown panel '" + printable(it.key()) + "' (known: " + join(names) + ")");
      if (!it.value().is_boolean())
        fail(origin, "'panels': '" + it.key() + "' must be true or false, got " + type_of(it.value()));
      lab.panels[it.key()] = it.value().get<bool>();
    }
  }
  return lab;
}

LabFile read_lab_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) fail(path, "is a folder, not a preset file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot read the file; check the path");
  std::string text;
  char buf[8192];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) break;  // parse_lab_file reports the size
  }
  LabFile lab = parse_lab_file(text, path);
  lab.path = path;
  lab.name = fs::path(path).stem().string();
  if (!lab.data_file.empty() && fs::path(lab.data_file).is_relative())
    lab.data_file = (fs::path(path).parent_path() / lab.data_file).lexically_normal().string();
  return lab;
}

std::string write_lab_file(const LabFile& lab) {
  // Hand-written so the keys keep a readable order (nlohmann's object sorts them).
  auto str = [](const std::string& s) { return json(s).dump(); };
  std::ostringstream o;
  o << "{\n  \"format\": " << str(lab.session ? kSessionFormat : kFormat) << ",\n  \"version\": " << kVersion
    << ",\n";
  if (!lab.title.empty() || !lab.session) o << "  \"title\": " << str(lab.title) << ",\n";
  if (!lab.chapter.empty()) o << "  \"chapter\": " << str(lab.chapter) << ",\n";
  if (!lab.note.empty()) {
    // One string per line; a trailing newline gives a last empty line (read back joined with '\n').
    o << "  \"note\": [";
    for (size_t start = 0, nl = 0; nl != std::string::npos; start = nl + 1) {
      nl = lab.note.find('\n', start);
      o << (start == 0 ? "\n    " : ",\n    ") << str(lab.note.substr(start, nl == std::string::npos ? nl : nl - start));
    }
    o << "\n  ],\n";
  }
  o << "  \"module\": " << str(lab.module) << ",\n";
  if (!lab.dataset.empty()) o << "  \"data\": " << str(lab.dataset) << ",\n";
  if (!lab.data_file.empty()) o << "  \"data_file\": " << str(lab.data_file) << ",\n";
  o << "  \"params\": {";
  for (size_t i = 0; i < lab.params.size(); ++i)
    o << (i ? ",\n    " : "\n    ") << str(lab.params[i].first) << ": " << param_json(lab.params[i].second);
  o << (lab.params.empty() ? "},\n" : "\n  },\n");
  o << "  \"seed\": " << lab.seed << ",\n  \"iteration\": " << lab.iteration;
  if (lab.session && lab.phase > 0) o << ",\n  \"phase\": " << lab.phase;
  if (lab.session && lab.last_iteration > lab.iteration) o << ",\n  \"last_iteration\": " << lab.last_iteration;
  if (lab.session && !lab.edits.empty()) {
    o << ",\n  \"edits\": [";
    for (size_t i = 0; i < lab.edits.size(); ++i) {
      const LabEdit& e = lab.edits[i];
      o << (i ? ",\n    " : "\n    ") << "{\"iteration\": " << e.iteration;
      if (e.phase > 0) o << ", \"phase\": " << e.phase;
      if (e.intent.empty()) {
        o << ", \"set\": " << str(e.param) << ", \"value\": " << exact_number_text(e.value) << "}";
      } else {
        o << ", \"intent\": " << str(e.intent) << ", \"index\": " << e.index << ", \"values\": [";
        for (size_t k = 0; k < e.values.size(); ++k) o << (k ? ", " : "") << exact_number_text(e.values[k]);
        o << "]}";
      }
    }
    o << "\n  ]";
  }
  if (lab.session && lab.data_embedded) o << ",\n  \"data_embedded\": " << write_embedded(*lab.data_embedded);
  if (lab.tab > 0) o << ",\n  \"tab\": " << lab.tab;
  if (!lab.note_open && !lab.note.empty()) o << ",\n  \"note_open\": false";
  if (lab.session && !lab.plot_views.empty()) {
    o << ",\n  \"plot_views\": [";
    for (size_t i = 0; i < lab.plot_views.size(); ++i) {
      const LabPlotView& v = lab.plot_views[i];
      char id[16];
      std::snprintf(id, sizeof id, "%08x", static_cast<unsigned>(v.plot));
      o << (i ? ",\n    " : "\n    ") << "{\"plot\": \"" << id << "\", \"x\": [" << exact_number_text(v.x_min) << ", "
        << exact_number_text(v.x_max) << "], \"y\": [" << exact_number_text(v.y_min) << ", "
        << exact_number_text(v.y_max) << "]}";
    }
    o << "\n  ]";
  }
  if (!lab.panels.empty()) {
    o << ",\n  \"panels\": {";
    bool first = true;
    for (const auto& [k, v] : lab.panels) {
      o << (first ? " " : ", ") << str(k) << ": " << (v ? "true" : "false");
      first = false;
    }
    o << " }";
  }
  o << "\n}\n";
  return o.str();
}

std::string exact_number_text(double v) {
  if (!std::isfinite(v)) throw std::invalid_argument("cannot write a non-finite number to a lab file");
  return json(v).dump();  // nlohmann writes the shortest text that reads back to the same double
}

std::string shipped_presets_dir() { return asset_path("presets"); }

std::string user_presets_dir() { return (fs::path(settings_path()).parent_path() / "presets").string(); }

namespace {

void load_dir(const std::string& dir, bool user, std::vector<LabFile>& out, std::vector<std::string>* errors) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    try {
      LabFile lab = read_lab_file(f.string());
      lab.user = user;
      out.push_back(std::move(lab));
    } catch (const std::exception& e) {
      if (errors) errors->push_back(e.what());
    }
  }
}

}  // namespace

std::vector<LabFile> load_presets(std::vector<std::string>* errors) {
  std::vector<LabFile> out;
  load_dir(shipped_presets_dir(), false, out, errors);
  load_dir(user_presets_dir(), true, out, errors);
  return out;
}

const LabFile* find_preset(const std::vector<LabFile>& presets, const std::string& name) {
  const LabFile* found = nullptr;
  for (const LabFile& p : presets)
    if (p.name == name && (!found || p.user)) found = &p;
  return found;
}

LabFile resolve_preset_arg(const std::string& arg) {
  auto ends_with = [&](const std::string& ext) {
    return arg.size() > ext.size() && arg.compare(arg.size() - ext.size(), ext.size(), ext) == 0;
  };
  const bool is_path = arg.find('/') != std::string::npos || ends_with(".json") || ends_with(".cilab");
  if (is_path) return read_lab_file(arg);
  std::vector<std::string> errors;
  const std::vector<LabFile> presets = load_presets(&errors);
  if (const LabFile* p = find_preset(presets, arg)) return *p;
  for (const std::string& e : errors)  // the preset may be the file that did not parse
    if (e.find("/" + arg + ".json:") != std::string::npos) throw std::invalid_argument(e);
  throw std::invalid_argument("no preset called '" + arg + "' (see: cilab list presets)");
}

std::string save_user_preset(const LabFile& lab, const std::string& name) {
  if (!valid_name(name))
    throw std::invalid_argument("preset name '" + name +
                                "': use 1 to 64 letters, digits, '-' or '_' (it becomes the file name)");
  std::error_code ec;
  if (fs::exists(fs::path(shipped_presets_dir()) / (name + ".json"), ec))
    throw std::invalid_argument("a shipped preset is called '" + name + "'; choose another name");
  const fs::path dir = user_presets_dir();
  fs::create_directories(dir, ec);
  const fs::path path = dir / (name + ".json");
  const fs::path tmp = dir / (name + ".json.tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << write_lab_file(lab);
    if (!out) throw std::runtime_error("cannot write " + tmp.string() + "; check the folder's permissions");
  }
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
  return path.string();
}

std::vector<std::string> lab_assignments(const LabFile& lab) {
  std::vector<std::string> sets;
  for (const auto& [k, v] : lab.params) sets.push_back(k + "=" + v);
  return sets;
}

}  // namespace cilab
