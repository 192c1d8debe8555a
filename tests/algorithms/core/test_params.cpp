// The parameter table machinery: parsing, validation, Text parameters and
// compound aliases ("start=-1.5,2" -> start_x, start_y).
#include "algorithms/core/module.h"
#include "algorithms/core/params.h"
#include "algorithms/core/registry.h"
#include "algorithms/optim/optim_params.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

using namespace cilab;

namespace {

ParamSpecs sample_specs() {
  ParamSpecs s(6);
  s[0].name = "k";
  s[0].type = ParamType::Int;
  s[0].min = 1;
  s[0].max = 10;
  s[0].def = 3;
  s[1].name = "init";
  s[1].type = ParamType::Choice;
  s[1].choices = {"random", "kmeans++"};
  s[1].def = 1;
  s[2].name = "expr";
  s[2].type = ParamType::Text;
  s[2].text_def = "x^2 + y^2";
  s[3].name = "start_x";
  s[3].min = -5;
  s[3].max = 5;
  s[3].def = 1;
  s[4].name = "start_y";
  s[4].min = -5;
  s[4].max = 5;
  s[4].def = 2;
  s[5].name = "start";
  s[5].components = {"start_x", "start_y"};
  s[5].help = "start point";
  return s;
}

}  // namespace

TEST_CASE("params: defaults hold numbers and Text defaults but no compound entry") {
  const ParamValues v = default_values(sample_specs());
  CHECK(v.at("k") == 3);
  CHECK(v.at("init") == 1);
  CHECK(v.count("expr") == 0);
  CHECK(v.text.at("expr") == "x^2 + y^2");
  CHECK(v.count("start") == 0);
  CHECK(v.at("start_x") == 1);
}

TEST_CASE("params: a Text assignment is stored verbatim, including '=' and commas") {
  const ParamSpecs specs = sample_specs();
  ParamValues v = default_values(specs);
  apply_assignment(specs, v, "expr=sin(x)*y, a=1", "m");
  CHECK(get_text(v, "expr") == "sin(x)*y, a=1");
  const ParamValues checked = validated(specs, v);
  CHECK(get_text(checked, "expr") == "sin(x)*y, a=1");
  CHECK(checked == v);
}

TEST_CASE("params: a compound assignment sets each component, validated by its own spec") {
  const ParamSpecs specs = sample_specs();
  ParamValues v = default_values(specs);
  apply_assignment(specs, v, "start=-1.5,2", "m");
  CHECK(v.at("start_x") == -1.5);
  CHECK(v.at("start_y") == 2);
  // Wrong arity or an out-of-range part: an error naming the parameter, values untouched.
  const ParamValues before = v;
  CHECK_THROWS_WITH_AS(apply_assignment(specs, v, "start=1", "m"),
                       doctest::Contains("parameter 'start': expected 2 comma-separated numbers"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_assignment(specs, v, "start=1,9", "m"), doctest::Contains("start_y"),
                       std::invalid_argument);
  CHECK(v == before);
}

TEST_CASE("params: validation rejects numbers for Text or compound keys and unknown text keys") {
  const ParamSpecs specs = sample_specs();
  ParamValues v = default_values(specs);
  v["expr"] = 1.0;
  CHECK_THROWS_AS(validated(specs, v), std::invalid_argument);
  ParamValues w = default_values(specs);
  w["start"] = 1.0;
  CHECK_THROWS_AS(validated(specs, w), std::invalid_argument);
  ParamValues u = default_values(specs);
  u.text["k"] = "3";
  CHECK_THROWS_AS(validated(specs, u), std::invalid_argument);
  ParamValues missing;
  CHECK(get_text(validated(specs, missing), "expr") == "x^2 + y^2");
}

TEST_CASE("params: describe_params lists Text defaults and compound components") {
  const std::string d = describe_params(sample_specs());
  CHECK(d.find("'x^2 + y^2'") != std::string::npos);
  CHECK(d.find("sets start_x start_y") != std::string::npos);
}

TEST_CASE("params: numeric assignment errors name the parameter and the range") {
  const ParamSpecs specs = sample_specs();
  ParamValues v = default_values(specs);
  CHECK_THROWS_WITH_AS(apply_assignment(specs, v, "k=11", "m"),
                       doctest::Contains("parameter 'k': expected an integer in [1, 10], got '11'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(apply_assignment(specs, v, "nope=1", "m"), doctest::Contains("unknown parameter 'nope'"),
                       std::invalid_argument);
  apply_assignment(specs, v, "init=random", "m");
  CHECK(get_choice(v, "init") == 0);
}

TEST_CASE("params: shown_if shows a control only while its Choice has a listed option") {
  ParamSpecs specs = sample_specs();
  specs[2].shown_if = "init=kmeans++";         // expr: only with kmeans++
  specs[0].shown_if = "init=random|kmeans++";  // k: with either
  specs[3].shown_if = "nope=1";                // unknown control: always shown
  ParamValues v = default_values(specs);       // init = kmeans++
  CHECK(param_shown(specs, specs[2], v));
  CHECK(param_shown(specs, specs[0], v));
  CHECK(param_shown(specs, specs[3], v));
  CHECK(param_shown(specs, specs[4], v));      // no condition
  apply_assignment(specs, v, "init=random", "m");
  CHECK_FALSE(param_shown(specs, specs[2], v));
  CHECK(param_shown(specs, specs[0], v));
  specs[0].shown_if = "init=kmeans";           // a prefix of kmeans++ must not match
  apply_assignment(specs, v, "init=kmeans++", "m");
  CHECK_FALSE(param_shown(specs, specs[0], v));
}

TEST_CASE("params: every module's shown_if names a Choice parameter and its real options") {
  // A misspelt option would hide a slider forever.
  for (const ModuleEntry& e : module_registry()) {
    const std::unique_ptr<Module> m = e.make();
    const ParamSpecs& specs = m->params();
    for (const ParamSpec& s : specs) {
      if (s.shown_if.empty()) continue;
      INFO(e.name << " " << s.name << " shown_if " << s.shown_if);
      const size_t eq = s.shown_if.find('=');
      REQUIRE(eq != std::string::npos);
      const ParamSpec* ctl = find_param(specs, s.shown_if.substr(0, eq));
      REQUIRE(ctl != nullptr);
      REQUIRE(ctl->type == ParamType::Choice);
      std::string opts = s.shown_if.substr(eq + 1) + "|";
      for (size_t a = 0, b; (b = opts.find('|', a)) != std::string::npos; a = b + 1) {
        const std::string o = opts.substr(a, b - a);
        CHECK_NOTHROW(parse_value(*ctl, o));
        ParamValues v = default_values(specs);
        v[ctl->name] = parse_value(*ctl, o);
        CHECK(param_shown(specs, s, v));
      }
    }
  }
}

// ---------------------------------------------------------------- declarative tables

namespace {

enum class Shape { Round = 0, Square = 1, Star = 2 };

struct Toy {
  int k = 4;
  double lr = 0.05;
  bool on = true;
  Shape shape = Shape::Square;
  std::string expr = "x^2";
  std::vector<int> layers = {256, 128};
  double sx = 1.0, sy = -2.0;
  struct {
    double gamma = 0.5;
  } nested;
};

const ParamTable<Toy>& toy_table() {
  static const ParamTable<Toy> t = {
      Int("k", &Toy::k, 1, 64).help("clusters"),
      Real("lr", &Toy::lr, 1e-5, 10).live().log_scale().help("step"),
      Bool("on", &Toy::on).live(),
      Choice("shape", &Toy::shape, {"round", "square", "star"}),
      Text("expr", &Toy::expr),
      IntList("layers", &Toy::layers, 1, 4096).max_items(4),
      Compound<Toy>("start", {"sx", "sy"}),
      Real("sx", &Toy::sx, -5, 5),
      Real("sy", &Toy::sy, -5, 5),
      Real<Toy>("gamma", [](Toy& t) -> double& { return t.nested.gamma; }, 0.01, 1).live(),
  };
  return t;
}

}  // namespace

TEST_CASE("param table: the defaults are the struct's initialisers, every kind") {
  const ParamValues v = default_values(toy_table().specs());
  CHECK(v.at("k") == 4);
  CHECK(v.at("lr") == 0.05);
  CHECK(v.at("on") == 1);
  CHECK(v.at("shape") == 1);
  CHECK(v.text.at("expr") == "x^2");
  CHECK(v.text.at("layers") == "256,128");
  CHECK(v.at("gamma") == 0.5);
  CHECK(find_param(toy_table().specs(), "lr")->log_scale);
  CHECK(find_param(toy_table().specs(), "lr")->update == ParamUpdate::Live);
  CHECK(find_param(toy_table().specs(), "k")->update == ParamUpdate::Rebuild);
  CHECK(toy_table().values(Toy{}) == v);
}

TEST_CASE("param table: read() turns assignments into the struct, values() turns it back") {
  const ParamSpecs& specs = toy_table().specs();
  ParamValues v = default_values(specs);
  for (const char* a : {"k=9", "lr=0.5", "on=false", "shape=star", "expr=sin(x), y", "layers=64, 32,16", "start=0.5,-1",
                        "gamma=0.25"})
    apply_assignment(specs, v, a, "toy");
  const Toy t = toy_table().read(v);
  CHECK(t.k == 9);
  CHECK(t.lr == 0.5);
  CHECK(!t.on);
  CHECK(t.shape == Shape::Star);
  CHECK(t.expr == "sin(x), y");
  CHECK(t.layers == std::vector<int>{64, 32, 16});
  CHECK(t.sx == 0.5);
  CHECK(t.sy == -1);
  CHECK(t.nested.gamma == 0.25);
  CHECK(toy_table().read(toy_table().values(t)).layers == t.layers);
  CHECK(get_text(v, "layers") == "64,32,16");  // normalised on assignment
}

TEST_CASE("param table: an integer list is checked item by item, naming the parameter") {
  const ParamSpecs& specs = toy_table().specs();
  ParamValues v = default_values(specs);
  for (const char* bad : {"layers=", "layers=64,,32", "layers=64,x", "layers=0", "layers=5000", "layers=1.5",
                          "layers=1,2,3,4,5"})
    CHECK_THROWS_WITH_AS(apply_assignment(specs, v, bad, "toy"),
                         doctest::Contains("parameter 'layers': expected 1 to 4 comma-separated integers in [1, 4096]"),
                         std::invalid_argument);
  CHECK(get_text(v, "layers") == "256,128");  // untouched
  v.text["layers"] = "8,x";                   // e.g. from a saved session
  CHECK_THROWS_WITH_AS(toy_table().read(v), doctest::Contains("'layers'"), std::invalid_argument);
  CHECK(describe_params(specs).find("layers\t1 to 4 comma-separated integers in [1, 4096]\tdefault 256,128") !=
        std::string::npos);
}

TEST_CASE("param table: set_live assigns live values and refuses rebuild, unknown and out-of-range ones") {
  Toy t;
  toy_table().set_live(t, "lr", 0.2, "toy");
  toy_table().set_live(t, "gamma", 0.75, "toy");
  toy_table().set_live(t, "on", 0, "toy");
  CHECK(t.lr == 0.2);
  CHECK(t.nested.gamma == 0.75);
  CHECK(!t.on);
  CHECK_THROWS_WITH_AS(toy_table().set_live(t, "k", 5, "toy"),
                       doctest::Contains("parameter 'k' of toy cannot change mid-run"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(toy_table().set_live(t, "expr", 0, "toy"), doctest::Contains("'expr'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(toy_table().set_live(t, "nope", 1, "toy"),
                       doctest::Contains("unknown parameter 'nope' for module toy"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(toy_table().set_live(t, "lr", 20, "toy"),
                       doctest::Contains("parameter 'lr': expected a number in [1e-05, 10], got '20'"),
                       std::invalid_argument);
  CHECK_THROWS_AS(toy_table().set_live(t, "on", 0.5, "toy"), std::invalid_argument);
  CHECK(t.lr == 0.2);  // a refused value changes nothing
}

TEST_CASE("param table: a name listed twice or a compound naming a missing row is a programming error") {
  CHECK_THROWS_WITH_AS((ParamTable<Toy>{Int("k", &Toy::k, 1, 2), Int("k", &Toy::k, 1, 2)}),
                       doctest::Contains("'k' is listed twice"), std::logic_error);
  CHECK_THROWS_WITH_AS((ParamTable<Toy>{Real("sx", &Toy::sx, -5, 5), Compound<Toy>("start", {"sx", "sz"})}),
                       doctest::Contains("names 'sz'"), std::logic_error);
}

TEST_CASE("metric table: rows must follow the metric enum, and blank() has one NaN per metric") {
  enum Metric : int { kA, kB, kNum };
  const MetricTable ok = {{kA, "a", "first", false}, {kB, "b", "second", true}};
  REQUIRE(ok.size() == kNum);
  CHECK(ok.infos()[kB].name == "b");
  CHECK(ok.infos()[kB].log_scale);
  CHECK(ok.blank().size() == 2);
  CHECK(std::isnan(ok.blank()[kA]));
  CHECK_THROWS_WITH_AS((MetricTable{{kB, "b", "", false}, {kA, "a", "", false}}),
                       doctest::Contains("row 'b' has index 1 at position 0"), std::logic_error);
}

namespace {
struct Trainer {
  OptimizerConfig optim;
  ScheduleConfig schedule;
};
}  // namespace

TEST_CASE("optimizer groups: a trainer spells its optimizer settings as the optimizers module does") {
  const ParamTable<Trainer> trainer = {optimizer_params(&Trainer::optim), schedule_params(&Trainer::schedule)};
  const ParamSpecs& race = make_module("optimizers")->params();
  for (const ParamSpec& s : trainer.specs()) {
    INFO(s.name);
    const ParamSpec* o = find_param(race, s.name);
    REQUIRE(o != nullptr);
    CHECK(o->type == s.type);
    CHECK(o->min == s.min);
    CHECK(o->max == s.max);
    CHECK(o->choices == s.choices);
    CHECK(o->update == s.update);
    CHECK(o->log_scale == s.log_scale);
  }
  // torch.optim's names, and the defaults of OptimizerConfig / ScheduleConfig.
  for (const char* n : {"optimizer", "lr", "momentum", "dampening", "nesterov", "beta1", "beta2", "eps", "alpha",
                        "weight_decay", "lr_decay", "initial_accumulator_value", "centered", "amsgrad", "schedule",
                        "step_size", "gamma", "decay", "t_max", "eta_min"})
    CHECK_MESSAGE(find_param(trainer.specs(), n) != nullptr, n);
  const Trainer t = trainer.read(ParamValues{{"optimizer", 5}, {"lr", 0.01}, {"schedule", 4}, {"t_max", 50}});
  CHECK(t.optim.kind == OptimizerKind::RMSProp);
  CHECK(t.optim.lr == 0.01);
  CHECK(t.optim.eps == OptimizerConfig{}.eps);
  CHECK(t.schedule.kind == ScheduleKind::Cosine);
  CHECK(t.schedule.t_max == 50);
}
