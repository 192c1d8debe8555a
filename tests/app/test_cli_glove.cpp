// `cilab run glove`: per-epoch rows (epoch,iteration,loss,entries_per_s,
// synonym_recall_at_10,epoch_ms), the probe words' neighbours as "# " lines
// after the CSV, a folder of the user's own .txt files, and bad values exiting
// 2 with one line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("cli glove: --epochs writes one row per epoch, then the probe words' neighbours") {
  const CliRun r = cli({"run", "glove", "--dataset", "tiny-text", "--set", "min_count=1", "--set", "vector_size=6",
                        "--set", "batch_entries=40", "--set", "probe=wa,zzz", "--epochs", "3"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<std::string> ls = lines(r.out);
  REQUIRE(ls.size() >= 4);
  CHECK(ls[0] == "epoch,iteration,loss,entries_per_s,synonym_recall_at_10,epoch_ms");
  int csv_rows = 0;
  std::vector<std::string> report;
  for (size_t i = 1; i < ls.size(); ++i) {
    if (ls[i].rfind("# ", 0) == 0) {
      report.push_back(ls[i]);
      continue;
    }
    CHECK(report.empty());  // the report comes after every CSV row
    const std::vector<std::string> f = split(ls[i], ',');
    REQUIRE(f.size() == 6);
    CHECK(std::stoi(f[0]) == ++csv_rows);
    CHECK(std::stod(f[3]) > 0);  // entries per second
  }
  CHECK(csv_rows == 3);
  REQUIRE(report.size() == 2);
  CHECK(report[0].rfind("# wa ", 0) == 0);  // "# wa (iteration N): wb 0.93, ..."
  CHECK(report[0].find("): ") != std::string::npos);
  CHECK(report[1].find("zzz") != std::string::npos);
  CHECK(report[1].find("not in the vocabulary") != std::string::npos);
}

TEST_CASE("cli glove: --data FOLDER reads the user's own .txt files") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "cilab_cli_glove_text";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a.txt") << "the cat sat on the mat with the dog\n";
  std::ofstream(dir / "b.txt") << "the dog sat on the log with the cat\n";
  const CliRun r = cli({"run", "glove", "--data", dir.string(), "--set", "min_count=1", "--set", "vector_size=4",
                        "--epochs", "2"});
  INFO(r.err);
  CHECK(r.code == 0);
  int csv_rows = 0;
  for (const std::string& l : lines(r.out)) csv_rows += l.rfind("# ", 0) == 0 ? 0 : 1;
  CHECK(csv_rows == 3);  // the header and two epochs (then the default probes' report lines)
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli glove: a bad value and a non-text dataset exit 2 with one line") {
  const CliRun a = cli({"run", "glove", "--dataset", "tiny-text", "--set", "x_max=0", "--epochs", "1"});
  CHECK(a.code == 2);
  CHECK(lines(a.err).size() == 1);
  CHECK(a.err.find("x_max") != std::string::npos);
  const CliRun b = cli({"run", "glove", "--dataset", "blobs", "--epochs", "1"});
  CHECK(b.code == 2);
  CHECK(lines(b.err).size() == 1);
  CHECK(b.err.find("not text") != std::string::npos);
}
