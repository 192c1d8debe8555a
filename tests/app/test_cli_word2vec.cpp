// `cilab run word2vec`: one row per epoch (epoch,iteration,loss,words_per_s,
// synonym_recall_at_10,epoch_ms), the probe words' neighbours as "# " lines
// after the CSV, and bad values exiting 2 with one line.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
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
  for (const char* bad : {"window=0", "vector_size=0", "ns_exponent=2", "negative=0"})
    check_refused({"run", "word2vec", "--dataset", "tiny-text", "--set", bad, "--epochs", "1"},
                  std::string(bad).substr(0, std::string(bad).find('=')));
  // A vocabulary too small after min_count.
  const CliRun r = cli({"run", "word2vec", "--dataset", "tiny-text", "--set", "min_count=100000000", "--epochs", "1"});
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("min_count") != std::string::npos);
}

namespace {

// The word2vec text format as gensim's load_word2vec_format reads it: "V d", then
// V lines "word x_1 ... x_d"; returns the words and the values (empty on a format error).
struct VectorsFile {
  int v = -1, d = -1;
  std::vector<std::string> words;
  std::vector<std::vector<float>> values;
};
VectorsFile read_vectors(const std::string& path) {
  VectorsFile f;
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return f;
  std::istringstream head(line);
  head >> f.v >> f.d;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string word;
    row >> word;
    std::vector<float> x;
    for (std::string t; row >> t;) x.push_back(std::strtof(t.c_str(), nullptr));
    f.words.push_back(word);
    f.values.push_back(x);
  }
  return f;
}

}  // namespace

TEST_CASE("cli word2vec: --save-vectors writes the vectors in the word2vec text format, other modules refuse it") {
  const std::string path = "cli_word2vec_vectors.txt";
  std::remove(path.c_str());
  const CliRun r = cli({"run", "word2vec", "--dataset", "tiny-text", "--set", "vector_size=8", "--set", "min_count=1",
                        "--set", "probe=wa", "--epochs", "1", "--save-vectors", path});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("# word vectors: ") != std::string::npos);
  CHECK(r.out.find(" x 8 written to " + path) != std::string::npos);
  const VectorsFile f = read_vectors(path);
  std::remove(path.c_str());
  REQUIRE(f.v > 0);
  CHECK(f.d == 8);
  REQUIRE(static_cast<int>(f.words.size()) == f.v);
  for (size_t i = 0; i < f.words.size(); ++i) {
    CAPTURE(f.words[i]);
    CHECK(f.words[i].rfind("w", 0) == 0);  // tiny-text's words: wa, wb, ...
    CHECK(f.values[i].size() == 8);
  }
  // The neighbours the report printed come from the same vectors: wa's nearest by cosine.
  const std::vector<std::string> ls = lines(r.out);
  std::string report;
  for (const std::string& l : ls)
    if (l.rfind("# wa (iteration ", 0) == 0) report = l;
  REQUIRE(!report.empty());
  size_t wa = 0;
  while (wa < f.words.size() && f.words[wa] != "wa") ++wa;
  REQUIRE(wa < f.words.size());
  auto cosine = [&](size_t a, size_t b) {
    double ab = 0, aa = 0, bb = 0;
    for (int j = 0; j < f.d; ++j) {
      ab += static_cast<double>(f.values[a][j]) * f.values[b][j];
      aa += static_cast<double>(f.values[a][j]) * f.values[a][j];
      bb += static_cast<double>(f.values[b][j]) * f.values[b][j];
    }
    return ab / std::sqrt(aa * bb);
  };
  size_t best = wa == 0 ? 1 : 0;
  for (size_t i = 0; i < f.words.size(); ++i)
    if (i != wa && cosine(wa, i) > cosine(wa, best)) best = i;
  CHECK(report.find("): " + f.words[best] + " ") != std::string::npos);

  // A path that cannot be written: exit 2, one line naming it and what to try, before the run
  // (as --save-weights: nothing is trained for a file that cannot be written).
  const CliRun bad = cli({"run", "word2vec", "--dataset", "tiny-text", "--set", "min_count=1", "--epochs", "1",
                          "--save-vectors", "no-such-folder/v.txt"});
  CHECK(bad.code == 2);
  CHECK(lines(bad.err).size() == 1);
  CHECK(bad.err.find("--save-vectors no-such-folder/v.txt: cannot open for writing; try another path") !=
        std::string::npos);
  CHECK(bad.out.find("epoch,iteration,") == std::string::npos);

  const CliRun k = cli({"run", "kmeans", "--steps", "2", "--save-vectors", path});
  CHECK(k.code == 2);
  CHECK(lines(k.err).size() == 1);
  CHECK(k.err.find("has no word vectors") != std::string::npos);
}
