// The CLI and text data: a module with ModuleInfo::text_data reads --data as
// text (a folder of .txt files or one file split on blank lines) and refuses
// --layout; `cilab list datasets` shows the corpora; a numeric module given a
// text corpus exits 2 naming the text modules.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "algorithms/core/module.h"
#include "algorithms/core/text_corpus.h"
#include "app/headless/cli.h"
#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

namespace fs = std::filesystem;

// A module description that reads text, as plsa, word2vec and glove declare.
ModuleInfo text_module() {
  ModuleInfo info;
  info.name = "textish";
  info.text_data = true;
  info.needs_dataset = true;
  return info;
}

struct TempFolder {
  fs::path path = fs::temp_directory_path() / ("cilab_cli_text_" + std::to_string(::getpid()));
  TempFolder() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

}  // namespace

TEST_CASE("cli text data: data_load_options reads text for a text module and refuses --layout") {
  const ModuleInfo text = text_module();
  CHECK(data_load_options(text, "").text);
  CHECK(data_load_options(text, "", true).text);  // the window's loads
  CHECK(data_load_options(text, "").ratings == RatingsLayout::Table);
  try {
    data_load_options(text, "wide");
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    CHECK(msg.find("--layout wide") == 0);
    CHECK(msg.find("textish reads text") != std::string::npos);
  }
  ModuleInfo numeric;
  numeric.name = "numeric";
  CHECK_FALSE(data_load_options(numeric, "").text);
  ModuleInfo ratings;
  ratings.name = "ratings";
  ratings.ratings_data = true;
  CHECK_FALSE(data_load_options(ratings, "wide").text);
}

TEST_CASE("cli text data: --data FOLDER or FILE is read as text for a text module") {
  TempFolder dir;
  dir.write("a.txt", "The king and the queen.");
  dir.write("b.txt", "Water, water everywhere.");
  const LoadOptions opts = data_load_options(text_module(), "");
  const auto folder = load_dataset_arg(dir.path.string(), "", "", opts);
  REQUIRE(folder->is_text());
  CHECK(folder->text->docs() == 2);
  const std::string one = dir.write("story.txt", "One paragraph.\n\nAnother paragraph.\n");
  const auto file = load_dataset_arg(one, "", "", opts);
  REQUIRE(file->is_text());
  CHECK(file->text->docs() == 2);
  CHECK(file->name == "story");
  // The same file for a numeric module is a table attempt, not text.
  CHECK_THROWS(load_dataset_arg(dir.path.string(), "", "", LoadOptions{}));
  // A built-in corpus by spec.
  const auto tiny = load_dataset_arg("", "tiny-text:docs=5,length=6", "", opts);
  REQUIRE(tiny->is_text());
  CHECK(tiny->text->size() == 30);
}

TEST_CASE("cli text data: list datasets shows the corpora, a numeric module refuses one by name") {
  const CliRun d = cli({"list", "datasets"});
  REQUIRE(d.code == 0);
  for (const char* name : {"fortunes", "gcide", "tiny-text"}) {
    CAPTURE(name);
    CHECK(d.out.find("\n  " + std::string(name) + " ") != std::string::npos);
  }
  CHECK(d.out.find(".txt files") != std::string::npos);
  const CliRun r = cli({"run", "kmeans", "--dataset", "tiny-text", "--steps", "2"});
  CHECK(r.code == 2);
  CHECK(r.err.find("'tiny-text' is a text corpus") != std::string::npos);
  CHECK(r.out.empty());
}
