// `cilab run plsa`: the command line and columns on the fortunes, the
// user's own text from a folder of .txt files, and bad values exiting 2 with
// one line naming the parameter.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

namespace {

// A folder of .txt files, one document each: two themes over disjoint words.
std::string text_folder() {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "cilab_cli_plsa_docs";
  std::filesystem::create_directories(dir);
  const char* themes[2][6] = {{"cat", "dog", "horse", "sheep", "cow", "goat"},
                              {"stock", "bond", "market", "price", "trade", "bank"}};
  for (int d = 0; d < 40; ++d) {
    std::string text;
    for (int w = 0; w < 30; ++w) text += std::string(themes[d % 2][(d * 7 + w * 3) % 6]) + (w % 9 == 8 ? ".\n" : " ");
    std::ofstream(dir / ("doc" + std::to_string(100 + d) + ".txt")) << text;
  }
  return dir.string();
}

std::vector<double> column(const std::vector<std::string>& ls, size_t c) {
  std::vector<double> v;
  for (size_t i = 1; i < ls.size(); ++i) v.push_back(std::strtod(split(ls[i], ',')[c].c_str(), nullptr));
  return v;
}

}  // namespace

TEST_CASE("cli plsa: the issue's command writes iteration,log_likelihood,perplexity,test_perplexity,step_ms") {
  const CliRun r = cli({"run", "plsa", "--dataset", "fortunes", "--set", "k=20", "--steps", "5"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() == 6);
  CHECK(ls[0] == "iteration,log_likelihood,perplexity,test_perplexity,step_ms");
  const std::vector<double> ll = column(ls, 1), pp = column(ls, 2), tp = column(ls, 3);
  for (size_t i = 0; i < ll.size(); ++i) {
    CHECK(std::isfinite(ll[i]));
    CHECK(ll[i] < 0);
    CHECK(pp[i] > 1);
    CHECK(std::isfinite(tp[i]));
    if (i > 0) CHECK(ll[i] >= ll[i - 1]);  // EM never goes downhill
  }
}

TEST_CASE("cli plsa: the user's own text from a folder, every method") {
  const std::string dir = text_folder();
  for (const char* method : {"plsa", "nmf_kl", "nmf_frobenius"}) {
    CAPTURE(method);
    const CliRun r = cli({"run", "plsa", "--data", dir, "--set", std::string("method=") + method, "--set", "k=2",
                          "--set", "min_count=1", "--set", "max_df=1", "--steps", "10"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::string> ls = lines(r.out);
    CHECK(ls[0] == "iteration,log_likelihood,perplexity,test_perplexity,step_ms");
    CHECK(ls.size() >= 2);
  }
  // Too many topics for the vocabulary: one line naming it.
  const CliRun big = cli({"run", "plsa", "--data", dir, "--set", "k=50", "--steps", "1"});
  CHECK(big.code == 2);
  CHECK(big.err.find("vocabulary") != std::string::npos);
  CHECK(lines(big.err).size() == 1);
}

TEST_CASE("cli plsa: bad values exit 2 with one line naming the parameter") {
  for (const char* bad : {"k=0", "method=lda", "test_fraction=0.9", "max_df=0"})
    check_refused({"run", "plsa", "--dataset", "fortunes:n=1000", "--set", bad, "--steps", "1"},
                  std::string(bad).substr(0, std::string(bad).find('=')));
}
