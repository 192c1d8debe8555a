// `cilab run word2vec`: one row per epoch (epoch,iteration,loss,words_per_s,
// synonym_recall_at_10,epoch_ms), the probe words' neighbours as "# " lines
// after the CSV, and bad values exiting 2 with one line.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli word2vec: --epochs writes one row per epoch and --set probe prints the neighbours") {
  const CliRun r = cli({"run", "word2vec", "--dataset", "tiny-text", "--set", "vector_size=10", "--set", "min_count=1",
                        "--set", "batch_words=1000", "--set", "probe=wa,nosuchword", "--epochs", "2"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() >= 3);
  CHECK(ls[0] == "epoch,iteration,loss,words_per_s,synonym_recall_at_10,epoch_ms");
  int rows = 0, last_iteration = 0;
  std::vector<std::string> notes;
  for (size_t i = 1; i < ls.size(); ++i) {
    if (ls[i].rfind("# ", 0) == 0) {
      notes.push_back(ls[i]);
      continue;
    }
    REQUIRE(notes.empty());  // the report comes after the CSV
    const std::vector<std::string> f = split(ls[i], ',');
    REQUIRE(f.size() == 6);
    CHECK(std::stoi(f[0]) == ++rows);
    CHECK(std::stoi(f[1]) > last_iteration);
    last_iteration = std::stoi(f[1]);
    CHECK(std::stod(f[2]) > 0);  // loss
    CHECK(std::stod(f[3]) > 0);  // words per second
  }
  CHECK(rows == 2);
  REQUIRE(notes.size() >= 2);
  bool found_wa = false, found_unknown = false;
  for (const std::string& n : notes) {
    found_wa = found_wa || n.rfind("# wa ", 0) == 0;
    found_unknown = found_unknown || n == "# nosuchword: not in the vocabulary";
  }
  CHECK(found_wa);
  CHECK(found_unknown);
}

TEST_CASE("cli word2vec: bad values exit 2 with one line naming the parameter") {
  for (const char* bad : {"window=0", "vector_size=0", "ns_exponent=2", "negative=0"}) {
    CAPTURE(bad);
    const CliRun r = cli({"run", "word2vec", "--dataset", "tiny-text", "--set", bad, "--epochs", "1"});
    CHECK(r.code == 2);
    CHECK(lines(r.err).size() == 1);
    const std::string name = std::string(bad).substr(0, std::string(bad).find('='));
    CHECK(r.err.find(name) != std::string::npos);
  }
  // A vocabulary too small after min_count.
  const CliRun r = cli({"run", "word2vec", "--dataset", "tiny-text", "--set", "min_count=100000000", "--epochs", "1"});
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("min_count") != std::string::npos);
}
