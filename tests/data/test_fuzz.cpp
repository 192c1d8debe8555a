// Robustness: deterministic random mutations (byte flips, truncations,
// insertions) of valid CSV, IDX and gzip files must either load or throw
// DataError - never crash, hang or trip the sanitizers (CI runs this under
// ASan + UBSan).
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "tests/data/test_util.h"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <typeinfo>

namespace {

std::string mutate(const std::string& in, cilab::Rng& rng) {
  std::string s = in;
  const int edits = 1 + static_cast<int>(rng.below(4));
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = static_cast<size_t>(rng.below(s.size()));
    switch (rng.below(5)) {
      case 0: s[at] = static_cast<char>(rng.below(256)); break;
      case 1: s.resize(at); break;
      case 2: s.insert(at, 1, "\",;\t\n\r\0x9-.e"[rng.below(13)]); break;
      case 3: s.erase(at, 1 + static_cast<size_t>(rng.below(8))); break;
      default: s[at] ^= static_cast<char>(1u << rng.below(8)); break;
    }
  }
  return s;
}

// Loads every mutant; counts outcomes. A mutant that throws anything but DataError, or a
// loaded one that breaks the dataset's invariants, is counted and fails the test by name;
// a run that never reaches one of the two paths (all loaded or all rejected) exercised
// nothing and fails too.
void fuzz(const std::string& seed_bytes, const std::string& name, bool gzip, int rounds, uint64_t seed) {
  cilab_test::TempDir tmp;
  cilab::Rng rng(seed);
  int loaded = 0, rejected = 0, broken = 0, other = 0, unchanged = 0;
  for (int r = 0; r < rounds; ++r) {
    const std::string bytes = mutate(seed_bytes, rng);
    if (bytes == seed_bytes) ++unchanged;
    const std::string path = tmp.file(name);
    if (gzip && rng.below(2) == 0)
      cilab_test::write_gzip(path, bytes);  // valid gzip of mutated content
    else
      cilab_test::write_bytes(path, bytes);
    try {
      const auto d = cilab::load_file(path);
      const bool ok = d->rows() >= 1 && static_cast<int>(d->column_names.size()) == d->cols() &&
                      (d->labels.empty() || static_cast<int>(d->labels.size()) == d->rows());
      if (ok) {
        ++loaded;
      } else {
        ++broken;
        FAIL_CHECK((name + " round " + std::to_string(r) + ": loaded a dataset that breaks its invariants"));
      }
    } catch (const cilab::DataError& e) {
      const std::string msg = e.what();
      if (msg.find("try:") != std::string::npos) {
        ++rejected;
      } else {
        ++broken;
        FAIL_CHECK((name + " round " + std::to_string(r) + ": DataError without a 'try:' hint: " + msg));
      }
    } catch (const std::exception& e) {
      ++other;
      FAIL_CHECK((name + " round " + std::to_string(r) + ": " + typeid(e).name() + " instead of DataError: " + e.what()));
    }
  }
  MESSAGE(name << ": " << loaded << " loaded, " << rejected << " rejected, " << broken << " broken, " << other
               << " other exceptions, " << unchanged << " unchanged");
  CHECK(broken == 0);
  CHECK(other == 0);
  CHECK(loaded > 0);    // some mutants still parse (the loader is not rejecting everything)
  CHECK(rejected > 0);  // and some are refused (the mutations reach the error paths)
  CHECK(unchanged < rounds / 10);
}

std::string gz_bytes(const std::string& content) {
  cilab_test::TempDir tmp;
  const std::string p = cilab_test::write_gzip(tmp.file("x.gz"), content);
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("fuzz: mutated CSV files load or give a DataError") {
  const std::string csv =
      "\"a\",b x,c,species\n1.5,2,\"3\",setosa\n-4e2,5,6,virginica\n7,8,9,setosa\n";
  {
    cilab_test::TempDir tmp;
    const auto d = cilab::load_file(cilab_test::write_bytes(tmp.file("seed.csv"), csv));
    REQUIRE(d->rows() == 3);  // the seed itself is valid
    REQUIRE(d->cols() == 3);
  }
  fuzz(csv, "f.csv", false, 400, 1);
}

TEST_CASE("fuzz: mutated IDX files load or give a DataError") {
  std::string pixels;
  for (int i = 0; i < 3 * 4 * 4; ++i) pixels += static_cast<char>(i * 5);
  fuzz(cilab_test::idx_bytes(0x08, {3, 4, 4}, pixels), "f.idx", true, 400, 2);
  fuzz(cilab_test::idx_bytes(0x0D, {2, 2}, std::string("\x3f\x80\0\0\x40\0\0\0\xbf\x80\0\0\0\0\0\0", 16)),
       "g.idx", false, 200, 3);
}

TEST_CASE("fuzz: mutated gzip streams load or give a DataError") {
  std::string text;
  for (int i = 0; i < 200; ++i) text += std::to_string(i) + "," + std::to_string(i % 7) + "\n";
  fuzz(gz_bytes(text), "f.csv.gz", false, 400, 4);
}
