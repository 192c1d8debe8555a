// Lab files: presets (the classic demos, one click away) and their on-disk
// format, JSON. A preset names a module, its data, its parameters and seed,
// the iteration to open at and the view to show, with a title and a note for
// the lecturer. Shipped presets live in assets/presets/ (one file each, the
// file stem is the preset's name); the user's own ("Save as preset") in the
// config folder's presets/ (beside settings.ini). The format is documented in
// docs/ARCHITECTURE.md (section 4b) and assets/presets/README.md.
//
// Nothing here runs a module: the CLI and the app turn a LabFile into a run
// (lab_run_spec) the way they turn --module/--dataset/--set/--seed into one.
#pragma once

#include "algorithms/core/dataset.h"

#include <cstdint>
#include <memory>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cilab {

// A logged edit in a session: at (iteration, phase), a live parameter change
// (`param` = value) or a module edit (`intent`, index, values).
struct LabEdit {
  int iteration = 0;
  int phase = 0;
  std::string param;
  double value = 0.0;
  std::string intent;
  int index = -1;
  std::vector<double> values;
};

// A plot the user zoomed or panned in a session: its identity in the view (the plot library's
// ImGuiID: its title under the view's ID stack) and the ranges it showed.
struct LabPlotView {
  uint32_t plot = 0;
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
};

struct LabFile {
  // A session ("format": "cilab-session") reopens a saved state exactly: it
  // may embed its data and carries the edits made during the run and the
  // sub-step shown. A preset ("cilab-preset") is a demo: a title is required.
  bool session = false;
  std::string name;     // the file stem ("kmeans-bad-init"); "" when not read from a file
  std::string path;     // the file it was read from ("" if none)
  bool user = false;    // from the user's presets folder (else shipped)
  std::string title;    // "k-means: a bad initialisation"
  std::string chapter;  // menu group; "" = the module's chapter
  std::string note;     // what to look at and what to ask the class (shown on open)
  bool note_open = true;  // the note is shown on open ("note_open": false: a session saved with it hidden)
  std::string module;   // registry name ("kmeans")
  // The data: at most one of a built-in dataset spec with its generator's seed
  // ("blobs:n=1500,centers=5,seed=4") or a file (absolute, or relative to the
  // lab file's folder; resolved to an absolute path when read). Neither = the
  // module's default data.
  std::string dataset;
  std::string data_file;
  // Parameter assignments in file order, values as text ("k" -> "5", "init" ->
  // "kmeans++"): exactly what `--set k=5` would apply.
  std::vector<std::pair<std::string, std::string>> params;
  uint64_t seed = 0;
  int iteration = 0;    // the run is stepped to it on open
  // The view's tab to show, as its keys choose them (1 = the first tab; 0 =
  // the view's default). Views with tabs document their order (key 1-N).
  int tab = 0;
  // Sessions only: the sub-step shown within `iteration`, the run's edits in
  // order, and the data itself when it was edited (clicked points): "data_embedded",
  // exact (features, labels, class names, target), not image data.
  int phase = 0;
  int last_iteration = 0;  // the history's end when it goes on past `iteration` (else 0)
  std::vector<LabEdit> edits;
  std::shared_ptr<const Dataset> data_embedded;
  // Sidebar/strip panels to show or hide on open: "browser", "data", "params",
  // "metrics" (absent = left as the user has them).
  std::map<std::string, bool> panels;
  // Sessions only: the plots the user had zoomed or panned ("plot_views"), put back on open.
  std::vector<LabPlotView> plot_views;
};

// The panel names a lab file may set.
const std::vector<std::string>& lab_panel_names();

// Parses a lab file's JSON text. `origin` (a path or a name) prefixes every
// error. Throws std::invalid_argument with one line: "presets/x.json: line 3,
// column 9: ...", "...: unknown key 'itertion' (known: ...)", "...: 'seed'
// must be a non-negative integer". Checks the structure only; module,
// parameters and data are checked when the file is run (lab_run_spec).
LabFile parse_lab_file(const std::string& text, const std::string& origin);

// The shortest text that reads back to exactly `v` ("0.1", "1e-05"): real
// parameters of a session are written with it. `v` must be finite.
std::string exact_number_text(double v);

// Reads and parses a file (name = its stem; a relative data file is resolved
// against the file's folder). Throws std::invalid_argument naming the path.
LabFile read_lab_file(const std::string& path);

// The JSON text of a lab file (parse_lab_file reads it back to an equal value;
// name, path and user are not written).
std::string write_lab_file(const LabFile& lab);

// The shipped presets' folder (assets/presets) and the user's
// (<config folder>/presets, see settings_path()).
std::string shipped_presets_dir();
std::string user_presets_dir();

// Every preset: shipped ones, then the user's; each group sorted by name. A
// file that does not parse is skipped and its one-line error appended to
// `errors` (nothing else is lost). A user preset with a shipped preset's name
// is listed too (find_preset prefers the user's).
std::vector<LabFile> load_presets(std::vector<std::string>* errors);

// The preset called `name` (the user's first), or nullptr.
const LabFile* find_preset(const std::vector<LabFile>& presets, const std::string& name);

// A preset by name, or a lab file by path (an argument with a '/' or ending in
// ".json"). Throws std::invalid_argument: "no preset called 'x' (see: cilab
// list presets)", or the file's parse error.
LabFile resolve_preset_arg(const std::string& arg);

// Saves `lab` as the user's preset `name` (letters, digits, '-', '_'; not a
// shipped preset's name) and returns the file's path. Throws
// std::invalid_argument (bad name) or std::runtime_error (cannot write).
std::string save_user_preset(const LabFile& lab, const std::string& name);

// The `--set`-style assignments of a lab file's parameters ("k=5").
std::vector<std::string> lab_assignments(const LabFile& lab);

}  // namespace cilab
