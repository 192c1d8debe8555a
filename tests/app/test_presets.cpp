// Presets: the lab-file format (parse, errors, round trip), every shipped
// preset opening and running headless, the CLI (list presets, run --preset,
// --preset for the GUI) and the user's own presets.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "algorithms/core/registry.h"
#include "app/headless/cli.h"
#include "app/headless/lab_file.h"
#include "app/headless/runner.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;
namespace fs = std::filesystem;

namespace {

// The error message of parse_lab_file(text), "" if it parsed.
std::string parse_error(const std::string& text) {
  try {
    parse_lab_file(text, "t.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A temporary config folder for the user's presets, restored on exit.
struct TempConfig {
  fs::path dir;
  std::string old;
  bool had_old = false;
  explicit TempConfig(const std::string& name) {
    dir = fs::temp_directory_path() / ("cilab_presets_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    if (const char* o = std::getenv("CILAB_CONFIG_DIR")) {
      old = o;
      had_old = true;
    }
    setenv("CILAB_CONFIG_DIR", dir.c_str(), 1);
  }
  ~TempConfig() {
    if (had_old) setenv("CILAB_CONFIG_DIR", old.c_str(), 1);
    else unsetenv("CILAB_CONFIG_DIR");
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

TEST_CASE("lab file: every field parses, and what is written reads back equal") {
  const std::string text = R"({
    "format": "cilab-preset", "version": 1,
    "title": "k-means: a bad start", "chapter": "Clustering",
    "note": ["Line one.", "Line two."],
    "module": "kmeans", "data": "blobs:n=300,centers=4,seed=3",
    "params": {"k": 4, "init": "random", "tol": 0.001, "max_iter": 50},
    "seed": 7, "iteration": 3, "tab": 2, "panels": {"metrics": false, "browser": true}, "note_open": false
  })";
  const LabFile a = parse_lab_file(text, "t.json");
  CHECK(a.title == "k-means: a bad start");
  CHECK(a.chapter == "Clustering");
  CHECK(a.note == "Line one.\nLine two.");
  CHECK(a.module == "kmeans");
  CHECK(a.dataset == "blobs:n=300,centers=4,seed=3");
  REQUIRE(a.params.size() == 4);
  CHECK(a.params[0] == std::make_pair(std::string("k"), std::string("4")));  // file order kept
  CHECK(a.params[1].second == "random");
  CHECK(std::stod(a.params[2].second) == 0.001);
  CHECK(a.seed == 7);
  CHECK(a.iteration == 3);
  CHECK(a.tab == 2);
  CHECK_FALSE(a.note_open);
  CHECK(parse_lab_file(R"({"format": "cilab-preset", "version": 1, "title": "t", "module": "kmeans"})", "u").note_open);
  CHECK(a.panels.at("metrics") == false);
  CHECK(a.panels.at("browser") == true);
  CHECK(lab_assignments(a) == std::vector<std::string>{"k=4", "init=random", "tol=0.001", "max_iter=50"});

  const LabFile b = parse_lab_file(write_lab_file(a), "round trip");
  CHECK(b.title == a.title);
  CHECK(b.chapter == a.chapter);
  CHECK(b.note == a.note);
  CHECK(b.module == a.module);
  CHECK(b.dataset == a.dataset);
  CHECK(b.params == a.params);
  CHECK(b.seed == a.seed);
  CHECK(b.iteration == a.iteration);
  CHECK(b.tab == a.tab);
  CHECK(b.note_open == a.note_open);
  CHECK(b.panels == a.panels);
  // Numbers are written as numbers, choices as strings.
  CHECK(has(write_lab_file(a), "\"k\": 4"));
  CHECK(has(write_lab_file(a), "\"init\": \"random\""));
}

TEST_CASE("lab file: bad input gives one line naming the file, the place and the key") {
  CHECK(has(parse_error("{\"module\": \"kmeans\",\n \"title\": }"), "t.json: line 2, column"));
  CHECK(has(parse_error("{\"module\": \"kmeans\",\n \"title\": }"), "not valid JSON"));
  CHECK(has(parse_error("[1, 2]"), "expected a JSON object"));
  CHECK(has(parse_error(R"({"title": "x"})"), "missing 'module'"));
  CHECK(has(parse_error(R"({"module": "kmeans"})"), "missing 'title'"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "itertion": 3})"), "unknown key 'itertion'"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "seed": -1})"), "'seed' must be an integer"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "seed": 1.5})"), "'seed' must be an integer"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "iteration": 2000000})"), "'iteration' must be"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "params": [1]})"), "'params' must be an object"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "params": {"k": [3]}})"), "parameter 'k' must be"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "params": {"seed": 3}})"), "top-level key"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "data": "iris", "data_file": "a.csv"})"),
            "not several"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "panels": {"sidebar": true}})"),
            "unknown panel 'sidebar'"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "note_open": "no"})"),
            "'note_open' must be true or false"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "version": 2})"), "version 2"));
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "format": "cilab-game"})"), "'format'"));
  CHECK(has(parse_error(std::string(100000, '[')), "nested deeper than"));
  CHECK(has(parse_error(std::string(65 << 20, ' ')), "at most 64 MiB"));
  CHECK(has(parse_error(""), "not valid JSON"));
  CHECK(parse_error(R"({"module": "kmeans", "title": "x"})").empty());
}

TEST_CASE("lab file: a session's zoomed plots read back exactly, a preset may not carry them, bad ones are named") {
  const std::string text = R"({"format": "cilab-session", "version": 1, "module": "mlp", "iteration": 4, "tab": 3,
    "plot_views": [{"plot": "0a1b2c3d", "x": [-0.5, 1.25], "y": [0.1, 0.30000000000000004]},
                   {"plot": "ffffffff", "x": [1e-300, 2], "y": [-3, 3]}]})";
  const LabFile a = parse_lab_file(text, "s.cilab");
  REQUIRE(a.plot_views.size() == 2);
  CHECK(a.plot_views[0].plot == 0x0a1b2c3du);
  CHECK(a.plot_views[0].y_max == 0.30000000000000004);
  CHECK(a.plot_views[1].plot == 0xffffffffu);
  CHECK(a.plot_views[1].x_min == 1e-300);
  const LabFile b = parse_lab_file(write_lab_file(a), "round trip");
  REQUIRE(b.plot_views.size() == 2);
  for (size_t i = 0; i < 2; ++i) {  // bit for bit
    CHECK(b.plot_views[i].plot == a.plot_views[i].plot);
    CHECK(b.plot_views[i].x_min == a.plot_views[i].x_min);
    CHECK(b.plot_views[i].x_max == a.plot_views[i].x_max);
    CHECK(b.plot_views[i].y_min == a.plot_views[i].y_min);
    CHECK(b.plot_views[i].y_max == a.plot_views[i].y_max);
  }
  CHECK(b.tab == 3);
  const auto session = [](const std::string& views) {
    return parse_error(R"({"format": "cilab-session", "module": "mlp", "plot_views": )" + views + "}");
  };
  CHECK(has(parse_error(R"({"module": "mlp", "title": "x", "plot_views": []})"), "'plot_views' belongs in a session"));
  CHECK(has(session("{}"), "'plot_views' must be an array"));
  CHECK(has(session(R"([{"plot": "xyz", "x": [0, 1], "y": [0, 1]}])"), "entry 1: 'plot' must be 1 to 8 hexadecimal digits"));
  CHECK(has(session(R"([{"plot": "123456789", "x": [0, 1], "y": [0, 1]}])"), "hexadecimal digits"));
  CHECK(has(session(R"([{"plot": "1", "x": [0, 1], "y": [0, 1]}, {"plot": "2", "x": [1, 0], "y": [0, 1]}])"),
            "entry 2: 'x' must be [min, max] with finite min < max"));
  CHECK(has(session(R"([{"plot": "1", "x": [0, 1], "y": [0]}])"), "entry 1: 'y' must be [min, max]"));
  CHECK(has(session(R"([{"plot": "1", "x": [0, 1]}])"), "entry 1: expected {"));
  CHECK(session(R"([{"plot": "1", "x": [0, 1], "y": [0, 1]}])").empty());
}

// Under the sanitizers every module steps some twenty times slower: 77 presets x 10 steps came to
// the 600 s timeout on a loaded CI machine, so 3 steps there (Release keeps 10).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kPresetSteps = 3;
#else
constexpr int kPresetSteps = 10;
#endif

TEST_CASE("presets: every shipped preset parses, is unique, and opens and runs 10 steps headless") {
  std::vector<std::string> errors;
  const std::vector<LabFile> presets = load_presets(&errors);
  CHECK_MESSAGE(errors.empty(), (errors.empty() ? "" : errors[0]));
  std::set<std::string> names, titles;
  std::map<std::string, int> per_module;
  for (const LabFile& p : presets) {
    if (p.user) continue;
    CAPTURE(p.name);
    CHECK(names.insert(p.name).second);
    CHECK(titles.insert(p.title).second);
    CHECK_FALSE(p.note.empty());  // the lecturer is told what to show
    CHECK(fs::path(p.path).parent_path() == fs::path(shipped_presets_dir()));
    REQUIRE_NOTHROW(check_preset(p));
    ++per_module[p.module];

    const std::unique_ptr<Module> probe = make_module(p.module);
    uint64_t seed = p.seed;
    bool seed_given = true;
    const ParamValues values = params_from_sets(probe->params(), lab_assignments(p), p.module, &seed, &seed_given);
    const bool data_needed = probe->info().needs_dataset || !p.dataset.empty() || !p.data_file.empty();
    std::shared_ptr<const Dataset> data;
    REQUIRE_NOTHROW(data = data_needed ? load_dataset_arg(p.data_file, p.dataset, probe->info().default_dataset)
                                       : nullptr);
    RunnerConfig cfg;
    cfg.threaded = false;
    cfg.history_budget_bytes = size_t(32) << 20;
    Runner runner([m = p.module] { return make_module(m); }, cfg);
    runner.reset(data, values, seed);
    REQUIRE_MESSAGE(runner.last_error().empty(), runner.last_error());
    REQUIRE(runner.info());
    CHECK(runner.info()->name == p.module);
    runner.run_steps(kPresetSteps, nullptr);
    CHECK_MESSAGE(runner.last_error().empty(), runner.last_error());
    REQUIRE(runner.latest());
    CHECK(runner.latest()->status != Status::Failed);
  }
  // Every module the registry has comes with its demos.
  for (const ModuleEntry& e : module_registry()) {
    const std::string m = e.make()->info().name;
    CHECK_MESSAGE(per_module[m] >= 3, m);
  }
}

TEST_CASE("cli: list presets groups them by chapter, run --preset runs one headless") {
  const CliRun l = cli({"list", "presets"});
  REQUIRE(l.code == 0);
  CHECK(has(l.out, "Generative models"));
  CHECK(has(l.out, "gan-ring-converge"));
  CHECK(l.err.empty());
  // run --preset equals run MODULE with the preset's settings spelled out.
  const LabFile p = resolve_preset_arg("gan-ring-converge");
  std::vector<std::string> args = {"run", p.module, "--steps", "4", "--seed", std::to_string(p.seed)};
  for (const std::string& s : lab_assignments(p)) {
    args.push_back("--set");
    args.push_back(s);
  }
  const CliRun a = cli({"run", "--preset", "gan-ring-converge", "--steps", "4"});
  const CliRun b = cli(args);
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  auto without_ms = [](const std::string& csv) {  // step_ms, the last column, is a timing
    std::string out;
    for (const std::string& row : lines(csv)) out += row.substr(0, row.rfind(',')) + "\n";
    return out;
  };
  CHECK(without_ms(a.out) == without_ms(b.out));
  CHECK(lines(a.out).size() == 5);
  // Options beside the preset override it.
  const CliRun c = cli({"run", "--preset", "gan-ring-converge", "--steps", "2", "--set", "loss=wgan_gp"});
  REQUIRE(c.code == 0);
  CHECK(without_ms(c.out) != without_ms(a.out).substr(0, without_ms(c.out).size()));
}

TEST_CASE("cli: a bad preset is one line on stderr and exit status 2") {
  CliRun r = cli({"run", "--preset", "no-such-preset"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "no preset called 'no-such-preset'"));
  r = cli({"run", "kmeans", "--preset", "gan-ring-converge"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "either a module or --preset"));
  r = cli({"--preset", "no-such-preset"});
  CHECK(r.code == 2);
  CHECK_FALSE(r.gui);
  const fs::path bad = fs::temp_directory_path() / ("cilab_bad_preset_" + std::to_string(::getpid()) + ".json");
  std::ofstream(bad) << R"({"module": "kmeans", "title": "bad k", "params": {"k": 0}})";
  r = cli({"run", "--preset", bad.string()});
  CHECK(r.code == 2);
  CHECK(has(r.err, bad.string() + ": parameter 'k'"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  std::ofstream(bad) << R"({"module": "no_such_module", "title": "x"})";
  r = cli({"--preset", bad.string()});
  CHECK(r.code == 2);
  CHECK(has(r.err, bad.string()));
  fs::remove(bad);
}

TEST_CASE("cli: --preset fills the GUI's options, and options beside it win") {
  const LabFile p = resolve_preset_arg("gan-fashion-mnist");
  CliRun r = cli({"--preset", "gan-fashion-mnist", "--frames", "1"});
  REQUIRE(r.code == 0);
  REQUIRE(r.gui);
  // (run_cli's GuiOptions are checked through the in-process result below.)
  const char* argv[] = {"cilab", "--preset", "gan-fashion-mnist", "--seed", "9", "--steps", "3"};
  std::ostringstream out, err;
  const CliResult g = run_cli(7, argv, out, err);
  REQUIRE(g.open_gui);
  CHECK(g.gui.module == "gan");
  CHECK(g.gui.dataset_spec == p.dataset);
  CHECK(g.gui.seed == 9);
  CHECK(g.gui.steps == 3);
  REQUIRE(g.gui.preset);
  CHECK(g.gui.preset->name == "gan-fashion-mnist");
  CHECK(g.gui.sets == lab_assignments(p));
}

TEST_CASE("presets: the user's own are saved, listed beside the shipped ones and run") {
  TempConfig config("user");
  LabFile lab;
  lab.title = "My k-means";
  lab.note = "Four blobs.\nAsk about k.";
  lab.module = "kmeans";
  lab.dataset = "blobs:n=200,centers=4,seed=1";
  lab.params = {{"k", "4"}};
  lab.seed = 3;
  lab.iteration = 2;
  const std::string path = save_user_preset(lab, "my-kmeans");
  CHECK(fs::path(path).parent_path() == fs::path(user_presets_dir()));
  CHECK(fs::path(user_presets_dir()).parent_path() == config.dir);

  std::vector<std::string> errors;
  const std::vector<LabFile> all = load_presets(&errors);
  CHECK(errors.empty());
  const LabFile* mine = find_preset(all, "my-kmeans");
  REQUIRE(mine);
  CHECK(mine->user);
  CHECK(mine->title == lab.title);
  CHECK(mine->note == lab.note);
  CHECK(mine->params == lab.params);
  CHECK(find_preset(all, "gan-ring-converge"));  // the shipped ones are still there
  const CliRun l = cli({"list", "presets"});
  CHECK(has(l.out, "my-kmeans"));
  CHECK(has(l.out, "(yours)"));
  const CliRun r = cli({"run", "--preset", "my-kmeans", "--steps", "2"});
  CHECK(r.code == 0);
  CHECK(lines(r.out).size() == 3);

  // Names that would escape the folder or replace a shipped demo are refused.
  CHECK_THROWS_WITH_AS(save_user_preset(lab, "../evil"), doctest::Contains("letters, digits"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(save_user_preset(lab, ""), doctest::Contains("letters, digits"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(save_user_preset(lab, "gan-ring-converge"), doctest::Contains("shipped preset"),
                       std::invalid_argument);
  // A broken file in the folder is reported by name and skips only itself.
  std::ofstream(fs::path(user_presets_dir()) / "broken.json") << "{ \"module\": ";
  errors.clear();
  const std::vector<LabFile> again = load_presets(&errors);
  REQUIRE(errors.size() == 1);
  CHECK(has(errors[0], "broken.json: line 1"));
  CHECK(find_preset(again, "my-kmeans"));
  const CliRun b = cli({"run", "--preset", "broken", "--steps", "1"});
  CHECK(b.code == 2);
  CHECK(has(b.err, "broken.json: line 1"));
}

TEST_CASE("lab file: a session keeps its edits, position and embedded data exactly") {
  auto d = std::make_shared<Dataset>();
  d->x.resize(3, 2);
  d->x << 0.1, -2.5e-300, 1.0 / 3.0, 7.0, -0.0, 1e300;
  d->labels = {1, -1, 0};
  d->class_names = {"a", "b, with \"quotes\""};
  d->column_names = {"x", "y"};
  d->target = {0.5, 1.5, 2.25};
  d->target_name = "t";
  d->name = "clicked";
  LabFile s;
  s.session = true;
  s.module = "gmm";
  s.data_embedded = d;
  s.params = {{"k", "2"}, {"reg", exact_number_text(0.1 + 0.2)}};
  s.seed = 12;
  s.iteration = 9;
  s.phase = 1;
  LabEdit live;
  live.iteration = 3;
  live.param = "reg";
  live.value = 1.0 / 7.0;
  LabEdit drag;
  drag.iteration = 5;
  drag.phase = 1;
  drag.intent = "move_mean";
  drag.index = 1;
  drag.values = {0.1 + 0.7, -1e-17};
  s.edits = {live, drag};
  const std::string text = write_lab_file(s);
  CHECK(has(text, "\"format\": \"cilab-session\""));
  const LabFile r = parse_lab_file(text, "s.cilab");
  CHECK(r.session);
  CHECK(r.title.empty());  // a session needs no title
  CHECK(r.iteration == 9);
  CHECK(r.phase == 1);
  CHECK(r.seed == 12);
  CHECK(std::stod(r.params[1].second) == 0.1 + 0.2);  // bit for bit
  REQUIRE(r.edits.size() == 2);
  CHECK(r.edits[0].param == "reg");
  CHECK(r.edits[0].value == 1.0 / 7.0);
  CHECK(r.edits[1].intent == "move_mean");
  CHECK(r.edits[1].index == 1);
  CHECK(r.edits[1].phase == 1);
  CHECK(r.edits[1].values == drag.values);
  REQUIRE(r.data_embedded);
  const Dataset& e = *r.data_embedded;
  CHECK(e.x == d->x);
  CHECK(e.labels == d->labels);
  CHECK(e.class_names == d->class_names);
  CHECK(e.column_names == d->column_names);
  CHECK(e.target == d->target);
  CHECK(e.target_name == "t");
  CHECK(e.name == "clicked");

  // Session-only keys in a preset, edits out of order or past the position, bad embedded rows.
  CHECK(has(parse_error(R"({"module": "kmeans", "title": "x", "edits": []})"), "belongs in a session"));
  const std::string head = R"({"format": "cilab-session", "module": "kmeans", "iteration": 4, )";
  CHECK(has(parse_error(head + R"("edits": [{"iteration": 3, "set": "k", "value": 1}, {"iteration": 2, "set": "k", "value": 1}]})"),
            "in the order"));
  CHECK(has(parse_error(head + R"("edits": [{"iteration": 5, "set": "k", "value": 1}]})"), "after the end"));
  CHECK(has(parse_error(head + R"("edits": [{"iteration": 1, "set": "k"}]})"), "missing 'value'"));
  CHECK(has(parse_error(head + R"("edits": [{"iteration": 1, "set": "k", "intent": "x", "value": 1}]})"),
            "either 'set'"));
  CHECK(has(parse_error(head + R"("data_embedded": {"columns": ["a", "b"], "rows": [[1, 2], [3]]}})"),
            "row 2 must be an array of 2"));
  CHECK(has(parse_error(head + R"("data_embedded": {"columns": ["a"], "rows": [[1]], "labels": [1, 2]}})"),
            "one integer per row"));
  CHECK(has(parse_error(head + R"("data": "iris", "data_embedded": {"columns": ["a"], "rows": [[1]]}})"),
            "not several"));
  CHECK(has(parse_error(head + R"("phase": 1, "last_iteration": 6})"), "'last_iteration' must not exceed"));
}
