// Lab files (presets) in JSON: parse, write, find. nlohmann::json stays in
// this one translation unit (it is a heavy header).
#include "app/headless/lab_file.h"

#include "algorithms/data/datasets.h"
#include "app/headless/settings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cilab {
namespace {

using json = nlohmann::ordered_json;  // keeps the file's order of parameters

constexpr const char* kFormat = "cilab-preset";
constexpr int kVersion = 1;
constexpr size_t kMaxFileBytes = size_t(1) << 20;  // a preset is a few hundred bytes
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
  fail(origin, "parameter '" + key + "' must be a number, a string or a boolean, got " + type_of(v));
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
                                             "iteration", "tab", "panels"};
const std::vector<std::string> kPanelNames = {"browser", "data", "params", "metrics"};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

const std::vector<std::string>& lab_panel_names() { return kPanelNames; }

LabFile parse_lab_file(const std::string& text, const std::string& origin) {
  if (text.size() > kMaxFileBytes)
    fail(origin, "the file is " + std::to_string(text.size()) + " bytes; a preset is at most 1 MiB of JSON");
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
  }
  if (!doc.is_object()) fail(origin, "expected a JSON object { ... } at the top, got " + type_of(doc));
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (std::find(kKnownKeys.begin(), kKnownKeys.end(), it.key()) == kKnownKeys.end())
      fail(origin, "unknown key '" + it.key() + "' (known: " + join(kKnownKeys) + ")");
  }
  LabFile lab;
  if (doc.contains("format")) {
    const std::string f = get_string(doc["format"], "format", origin);
    if (f != kFormat) fail(origin, "'format' is '" + f + "'; this reader takes '" + kFormat + "'");
  }
  if (doc.contains("version")) {
    const uint64_t v = get_count(doc["version"], "version", 1000000, origin);
    if (v != static_cast<uint64_t>(kVersion))
      fail(origin, "format version " + std::to_string(v) + "; this CILab reads version " +
                       std::to_string(kVersion) + " (a newer CILab wrote it?)");
  }
  if (!doc.contains("module")) fail(origin, "missing 'module' (the module to open, e.g. \"kmeans\")");
  lab.module = get_string(doc["module"], "module", origin);
  if (lab.module.empty()) fail(origin, "'module' is empty; name a module (see: cilab list modules)");
  if (!doc.contains("title")) fail(origin, "missing 'title' (shown in the Presets menu)");
  lab.title = get_string(doc["title"], "title", origin);
  if (lab.title.empty()) fail(origin, "'title' is empty; give the menu a title");
  if (doc.contains("chapter")) lab.chapter = get_string(doc["chapter"], "chapter", origin);
  if (doc.contains("note")) lab.note = get_lines(doc["note"], "note", origin);
  if (doc.contains("data")) lab.dataset = get_string(doc["data"], "data", origin);
  if (doc.contains("data_file")) lab.data_file = get_string(doc["data_file"], "data_file", origin);
  if (!lab.dataset.empty() && !lab.data_file.empty())
    fail(origin, "give either 'data' (a built-in dataset) or 'data_file', not both");
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
  if (doc.contains("tab")) lab.tab = static_cast<int>(get_count(doc["tab"], "tab", 9, origin));
  if (doc.contains("panels")) {
    const json& p = doc["panels"];
    if (!p.is_object()) fail(origin, "'panels' must be an object {\"metrics\": false, ...}, got " + type_of(p));
    for (auto it = p.begin(); it != p.end(); ++it) {
      const auto& names = lab_panel_names();
      if (std::find(names.begin(), names.end(), it.key()) == names.end())
        fail(origin, "'panels': unknown panel '" + it.key() + "' (known: " + join(names) + ")");
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
  o << "{\n  \"format\": " << str(kFormat) << ",\n  \"version\": " << kVersion << ",\n";
  o << "  \"title\": " << str(lab.title) << ",\n";
  if (!lab.chapter.empty()) o << "  \"chapter\": " << str(lab.chapter) << ",\n";
  if (!lab.note.empty()) {
    o << "  \"note\": [";
    std::istringstream lines(lab.note);
    std::string line;
    bool first = true;
    while (std::getline(lines, line)) {
      o << (first ? "\n    " : ",\n    ") << str(line);
      first = false;
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
  if (lab.tab > 0) o << ",\n  \"tab\": " << lab.tab;
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
  const bool is_path = arg.find('/') != std::string::npos ||
                       (arg.size() > 5 && arg.compare(arg.size() - 5, 5, ".json") == 0);
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
