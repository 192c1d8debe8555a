// The parameter table machinery: parsing, validation, Text parameters and
// compound aliases ("start=-1.5,2" -> start_x, start_y).
#include "algorithms/core/params.h"
#include "algorithms/core/registry.h"

#include <doctest/doctest.h>

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
