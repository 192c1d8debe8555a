// Text corpora (algorithms/data/corpora.h): the installed fortunes and GCIDE
// (required: the Makefile installs them), hand-written corpora in their
// formats, the user's own text (folder, blank-line file, gzip, bad inputs), the
// tiny generated corpus and the datasets built on them.
#include "algorithms/data/corpora.h"

#include "algorithms/core/params.h"
#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "algorithms/text/text.h"
#include "tests/data/test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cilab::DataError;
using cilab::TextCorpus;
using cilab_test::TempDir;
using cilab_test::write_bytes;

// Sets an environment variable for the scope, restoring the previous value.
class EnvGuard {
 public:
  EnvGuard(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~EnvGuard() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::vector<std::string> doc_words(const TextCorpus& c, int d) {
  std::vector<std::string> out;
  for (int64_t t = c.doc_start[static_cast<size_t>(d)]; t < c.doc_start[static_cast<size_t>(d) + 1]; ++t)
    out.push_back(c.words[static_cast<size_t>(c.tokens[static_cast<size_t>(t)])]);
  return out;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

// The corpus's internal consistency: counts, document frequencies, offsets.
void check_consistent(const TextCorpus& c) {
  REQUIRE(c.doc_start.size() == static_cast<size_t>(c.docs()) + 1);
  CHECK(c.doc_start.front() == 0);
  CHECK(c.doc_start.back() == c.size());
  std::vector<int64_t> count(c.words.size(), 0);
  std::vector<int> df(c.words.size(), 0), last(c.words.size(), -1);
  for (int d = 0; d < c.docs(); ++d) {
    CHECK(c.doc_start[static_cast<size_t>(d)] < c.doc_start[static_cast<size_t>(d) + 1]);  // no empty document
    for (int64_t t = c.doc_start[static_cast<size_t>(d)]; t < c.doc_start[static_cast<size_t>(d) + 1]; ++t) {
      const size_t w = static_cast<size_t>(c.tokens[static_cast<size_t>(t)]);
      ++count[w];
      if (last[w] != d) last[w] = d, ++df[w];
    }
  }
  CHECK(count == c.word_count);
  CHECK(df == c.doc_freq);
  if (!c.doc_label.empty()) CHECK(c.doc_label.size() == static_cast<size_t>(c.docs()));
  if (!c.doc_names.empty()) CHECK(c.doc_names.size() == static_cast<size_t>(c.docs()));
  if (!c.doc_text.empty()) CHECK(c.doc_text.size() == static_cast<size_t>(c.docs()));
}

// Fortunes counted independently: segments between lines holding only "%" that contain a letter.
std::map<std::string, int> count_fortunes(const std::string& dir) {
  std::map<std::string, int> per_file;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".dat" || !fs::exists(e.path().string() + ".dat")) continue;
    std::ifstream in(e.path());
    int n = 0;
    bool letter = false;
    for (std::string line; std::getline(in, line);) {
      if (line == "%") {
        n += letter;
        letter = false;
      } else {
        letter = letter || std::any_of(line.begin(), line.end(), [](char ch) {
                   return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
                 });
      }
    }
    per_file[e.path().filename().string()] = n + letter;
  }
  return per_file;
}

}  // namespace

TEST_CASE("fortunes: every fortune of the 43 installed category files, labelled by its file") {
  const std::string dir = cilab::fortunes_dir();
  REQUIRE_MESSAGE(fs::is_directory(dir), "the Debian package fortunes is required (make deps installs it)");
  const std::map<std::string, int> expected = count_fortunes(dir);
  const auto c = cilab::load_fortunes();
  check_consistent(*c);
  CHECK(c->kind == "fortunes");
  CHECK(c->label_names.size() == 43);
  CHECK(expected.size() == 43);
  int total = 0;
  for (const auto& [file, n] : expected) total += n;
  CHECK(c->docs() == total);
  CHECK(c->docs() > 15000);
  CHECK(c->docs() < 15300);
  REQUIRE(c->has_labels());
  std::map<std::string, int> got;
  for (const int l : c->doc_label) ++got[c->label_names[static_cast<size_t>(l)]];
  CHECK(got == expected);
  // Names "art #12" and the original text are kept.
  REQUIRE(c->doc_names.size() == static_cast<size_t>(c->docs()));
  REQUIRE(c->doc_text.size() == static_cast<size_t>(c->docs()));
  CHECK(c->doc_names[0].rfind(c->label_names[static_cast<size_t>(c->doc_label[0])] + " #", 0) == 0);
  for (int d = 0; d < c->docs(); d += 997) {
    std::vector<std::string> toks;
    cilab::tokenize(c->doc_text[static_cast<size_t>(d)], &toks);
    CHECK(toks == doc_words(*c, d));
  }
  // Overstruck text ("___\b\b\band") reads as its letters: no stray one-letter runs from it.
  CHECK(c->size() > 300000);
}

TEST_CASE("fortunes: n keeps n fortunes, every category represented in proportion") {
  const auto all = cilab::load_fortunes();
  for (const int n : {43, 500, 3000}) {
    CAPTURE(n);
    const auto c = cilab::load_fortunes(n);
    check_consistent(*c);
    CHECK(c->docs() == n);
    std::vector<int> per(43, 0), per_all(43, 0);
    for (const int l : c->doc_label) ++per[static_cast<size_t>(l)];
    for (const int l : all->doc_label) ++per_all[static_cast<size_t>(l)];
    for (size_t k = 0; k < 43; ++k) {
      CAPTURE(all->label_names[k]);
      CHECK(per[k] >= 1);
      // Largest remainders after one each: within one document of the proportional share.
      const double share = 1.0 + (n - 43.0) * (per_all[k] - 1.0) / (all->docs() - 43.0);
      CHECK(std::abs(per[k] - share) < 1.0 + 1e-9);
    }
  }
  CHECK(cilab::load_fortunes(10)->docs() == 10);
}

TEST_CASE("fortunes: a hand-written fortunes folder, overstrikes applied, files without .dat ignored") {
  TempDir dir;
  write_bytes(dir.file("b-cats"), "The cat sat.\n%\n%\n  12345\n%\nA ___\b\b\bbig dog\n  -- Anon\n%\n");
  write_bytes(dir.file("b-cats.dat"), "index");
  write_bytes(dir.file("a-law"), "Law one.\n%\nLaw two, no final percent");
  write_bytes(dir.file("a-law.dat"), "index");
  write_bytes(dir.file("notes"), "not a fortune file\n%\n");
  EnvGuard env("CILAB_FORTUNES_DIR", dir.dir());
  const auto c = cilab::load_fortunes();
  check_consistent(*c);
  CHECK(c->label_names == std::vector<std::string>{"a-law", "b-cats"});
  REQUIRE(c->docs() == 4);
  CHECK(doc_words(*c, 0) == split("law one"));
  CHECK(doc_words(*c, 1) == split("law two no final percent"));
  CHECK(doc_words(*c, 2) == split("the cat sat"));
  CHECK(doc_words(*c, 3) == split("a big dog anon"));
  CHECK(c->doc_label == std::vector<int>{0, 0, 1, 1});
  // Numbers count every fortune of the file, the empty ones too.
  CHECK(c->doc_names == std::vector<std::string>{"a-law #1", "a-law #2", "b-cats #1", "b-cats #4"});
  CHECK(c->doc_text[3] == "A big dog\n  -- Anon");
}

TEST_CASE("fortunes and gcide: a missing package says how to install it") {
  TempDir dir;
  {
    EnvGuard env("CILAB_FORTUNES_DIR", dir.file("nowhere"));
    const std::string msg = error_of([] { cilab::load_fortunes(); });
    CHECK(msg.find(dir.file("nowhere")) != std::string::npos);
    CHECK(msg.find("apt install fortunes") != std::string::npos);
    CHECK(error_of([] { cilab::make_dataset("fortunes"); }).find("apt install fortunes") != std::string::npos);
  }
  {
    EnvGuard env("CILAB_FORTUNES_DIR", dir.dir());  // a folder with no fortune file
    CHECK(error_of([] { cilab::load_fortunes(); }).find("apt install fortunes") != std::string::npos);
  }
  {
    EnvGuard env("CILAB_GCIDE_PATH", dir.file("gcide.dict.dz"));
    const std::string msg = error_of([] { cilab::load_gcide(); });
    CHECK(msg.find(dir.file("gcide.dict.dz")) != std::string::npos);
    CHECK(msg.find("apt install dict-gcide") != std::string::npos);
  }
}

TEST_CASE("gcide: the installed dictionary, 4 to 7 million tokens, no licence, no source notes") {
  const std::string path = cilab::gcide_path();
  REQUIRE_MESSAGE(fs::exists(path), "the Debian package dict-gcide is required (make deps installs it)");
  const auto c = cilab::load_gcide();
  check_consistent(*c);
  CHECK(c->kind == "dictionary");
  CHECK(c->size() > 4000000);
  CHECK(c->size() < 7000000);
  CHECK(c->docs() > 100000);
  CHECK_FALSE(c->has_labels());
  // The first entry is the first headword's ("0: indicating the absence of any or all units"), not the licence.
  const std::vector<std::string> first = doc_words(*c, 0);
  CHECK(std::find(first.begin(), first.end(), "absence") != first.end());
  CHECK(std::find(first.begin(), first.end(), "warranty") == first.end());
  // "[1913 Webster]" closes almost every definition: stripped, the word is rare.
  const auto webster = std::find(c->words.begin(), c->words.end(), "webster");
  const int64_t n_webster = webster == c->words.end() ? 0 : c->word_count[static_cast<size_t>(webster - c->words.begin())];
  CHECK(n_webster < 2000);
  // Common English words are there.
  const cilab::Vocabulary v = cilab::build_vocabulary(*c, cilab::VocabOptions{});
  for (const char* w : {"king", "queen", "water", "coelenterata"}) {
    CAPTURE(w);
    CHECK(v.find(w) >= 0);
  }
  // tokens= stops after the entry that reaches it.
  const auto part = cilab::load_gcide(20000);
  CHECK(part->size() >= 20000);
  CHECK(part->doc_start[static_cast<size_t>(part->docs()) - 1] < 20000);  // the last entry reached it
  for (int d = 0; d < part->docs(); ++d) CHECK(doc_words(*part, d) == doc_words(*c, d));
}

TEST_CASE("gcide: a hand-written dictionary in the dictd format gives exactly its entries") {
  TempDir dir;
  const std::string text =
      "\n\n00-database-url\n   ftp://ftp.gnu.org/gnu/gcide\n\n00-database-info\n   This file was converted.\n\n"
      "The original data was distributed with the notice below.\n\nGCIDE is free software; no warranty.\n"
      "      A quotation.                --Locke.\n"
      "Apple \\Ap\"ple\\ ([a^]p\"p'l), n. [AS. [ae]ppel.]\n"
      "   A fruit of the {Pyrus malus}. [1913 Webster] Banana\n\n"
      "Banana \\Ba*na\"na\\, n.\n   A tropical fruit; C[oe]lenterata [imac]s not one.\n   [1913 Webster]\n"
      "   2. Any [Obs.] plant. [WordNet 1.5 +PJC]\n\n"
      "Cat \\Cat\\ (k[a^]t), n. (Zool.)\n   A small animal.\n";
  const std::string path = write_bytes(dir.file("mini.dict"), text);
  const std::vector<std::string> want[] = {split("apple n as aeppel a fruit of the pyrus malus"),
                                           split("banana n a tropical fruit coelenterata is not one any obs plant"),
                                           split("cat n zool a small animal")};
  for (const bool gz : {false, true}) {
    CAPTURE(gz);
    const std::string file = gz ? cilab_test::write_gzip(dir.file("mini.dict.dz"), text) : path;
    EnvGuard env("CILAB_GCIDE_PATH", file);
    const auto c = cilab::load_gcide();
    check_consistent(*c);
    REQUIRE(c->docs() == 3);
    for (int d = 0; d < 3; ++d) CHECK(doc_words(*c, d) == want[d]);
  }
  // A file with no headword at all.
  EnvGuard env("CILAB_GCIDE_PATH", write_bytes(dir.file("none.dict"), "00-database-url\n   x\n\nJust text.\n"));
  CHECK(error_of([] { cilab::load_gcide(); }).find("found none") != std::string::npos);
  EnvGuard env2("CILAB_GCIDE_PATH", write_bytes(dir.file("bin.dict"), std::string("\x01\x02\x03\0\x05 zz", 8)));
  CHECK(error_of([] { cilab::load_gcide(); }).find("binary") != std::string::npos);
}

TEST_CASE("load_text: a folder of .txt files, one document each, sorted by name") {
  TempDir dir;
  write_bytes(dir.file("b.txt"), "Second document.\n\nStill the second.");
  write_bytes(dir.file("a.TXT"), "First document.");
  write_bytes(dir.file("empty.txt"), "  123 \n");
  write_bytes(dir.file("notes.md"), "ignored words");
  cilab_test::write_gzip(dir.file("c.txt.gz"), "Third, gzipped.");
  fs::create_directories(dir.file("sub"));
  write_bytes(dir.file("sub/d.txt"), "in a subfolder");
  const auto c = cilab::load_text(dir.dir());
  check_consistent(*c);
  REQUIRE(c->docs() == 3);
  CHECK(doc_words(*c, 0) == split("first document"));
  CHECK(doc_words(*c, 1) == split("second document still the second"));
  CHECK(doc_words(*c, 2) == split("third gzipped"));
  CHECK(c->doc_names == std::vector<std::string>{"a.TXT", "b.txt", "c.txt.gz"});
  CHECK(c->doc_text[0] == "First document.");
  CHECK(c->kind == "text");
}

TEST_CASE("load_text: one file split on blank lines, CRLF and whitespace-only lines included, gzip too") {
  TempDir dir;
  const std::string text = "\n\nOne para\r\ngraph here.\r\n\r\n \t \nTwo.\n\n\n\n42\n\nThree: the end";
  for (const bool gz : {false, true}) {
    CAPTURE(gz);
    const std::string path = gz ? cilab_test::write_gzip(dir.file("story.txt.gz"), text)
                                : write_bytes(dir.file("story.txt"), text);
    const auto c = cilab::load_text(path);
    check_consistent(*c);
    REQUIRE(c->docs() == 3);
    CHECK(doc_words(*c, 0) == split("one para graph here"));
    CHECK(doc_words(*c, 1) == split("two"));
    CHECK(doc_words(*c, 2) == split("three the end"));
    // Numbered among all paragraphs ("42" has no word and is skipped).
    CHECK(c->doc_names == std::vector<std::string>{"story #1", "story #2", "story #4"});
  }
}

TEST_CASE("load_text: bad inputs are DataErrors naming the file") {
  TempDir dir;
  cilab::LoadOptions opts;
  SUBCASE("binary data") {
    const std::string bin = write_bytes(dir.file("image.txt"), std::string("GIF89a\0\0\x01\x02", 10));
    const std::string msg = error_of([&] { cilab::load_text(bin); });
    CHECK(msg.find(bin) == 0);
    CHECK(msg.find("binary") != std::string::npos);
    // Inside a folder, the bad file is named.
    write_bytes(dir.file("good.txt"), "fine words");
    const std::string folder_msg = error_of([&] { cilab::load_text(dir.dir()); });
    CHECK(folder_msg.find(bin) == 0);
  }
  SUBCASE("control bytes") {
    const std::string p = write_bytes(dir.file("ctl.txt"), "ab\x01\x02\x03\x04");
    CHECK(error_of([&] { cilab::load_text(p); }).find(p + ": ") == 0);
  }
  SUBCASE("no word at all") {
    const std::string p = write_bytes(dir.file("numbers.txt"), "1 2 3\n\n4 5 6\n");
    const std::string msg = error_of([&] { cilab::load_text(p); });
    CHECK(msg.find(p) == 0);
    CHECK(msg.find("found none") != std::string::npos);
    const std::string empty = write_bytes(dir.file("empty.txt"), "");
    CHECK(error_of([&] { cilab::load_text(empty); }).find(empty) == 0);
    // A folder whose files have no word: the folder is named.
    fs::create_directories(dir.file("nowords"));
    write_bytes(dir.file("nowords/a.txt"), "...");
    CHECK(error_of([&] { cilab::load_text(dir.file("nowords")); }).find(dir.file("nowords")) == 0);
  }
  SUBCASE("a folder with no .txt file") {
    write_bytes(dir.file("data.csv"), "a,b\n1,2\n");
    const std::string msg = error_of([&] { cilab::load_text(dir.dir()); });
    CHECK(msg.find(dir.dir()) == 0);
    CHECK(msg.find("no .txt file") != std::string::npos);
  }
  SUBCASE("missing file, UTF-16, a line too long, a file too large") {
    CHECK(error_of([&] { cilab::load_text(dir.file("missing.txt")); }).find(dir.file("missing.txt")) == 0);
    const std::string u16 = write_bytes(dir.file("u16.txt"), std::string("\xFF\xFEh\0i\0", 6));
    CHECK(error_of([&] { cilab::load_text(u16); }).find("UTF-16") != std::string::npos);
    opts.max_line_bytes = 10;
    const std::string longline = write_bytes(dir.file("long.txt"), "short\nthis line is longer than ten\n");
    const std::string msg = error_of([&] { cilab::load_text(longline, opts); });
    CHECK(msg.find(longline + ": line 2") == 0);
    opts = cilab::LoadOptions{};
    opts.max_file_bytes = 8;
    CHECK(error_of([&] { cilab::load_text(longline, opts); }).find(longline) == 0);
  }
}

TEST_CASE("load_file with LoadOptions::text reads text as a text dataset") {
  TempDir dir;
  write_bytes(dir.file("one.txt"), "alpha beta\n\ngamma");
  cilab::LoadOptions opts;
  opts.text = true;
  const auto d = cilab::load_file(dir.file("one.txt"), opts);
  REQUIRE(d->is_text());
  CHECK(d->rows() == 0);
  CHECK(d->name == "one");
  CHECK(d->text->docs() == 2);
  CHECK(cilab::describe(*d) == "one: 2 documents, 3 tokens, 3 word types");
  const auto folder = cilab::load_file(dir.dir() + "/", opts);
  CHECK(folder->text->docs() == 1);
  CHECK(folder->name == fs::path(dir.dir()).filename().string());
  // Without the flag a .txt file is a table attempt, not text.
  write_bytes(dir.file("table.txt"), "1 2\n3 4\n");
  const auto table = cilab::load_file(dir.file("table.txt"));
  CHECK_FALSE(table->is_text());
  CHECK(table->rows() == 2);
}

TEST_CASE("tiny_corpus: seeded, letters-only words, the requested shape") {
  cilab::TinyTextSpec spec;
  spec.words = 30;
  spec.docs = 50;
  spec.length = 40;
  spec.seed = 4;
  const auto a = cilab::tiny_corpus(spec);
  const auto b = cilab::tiny_corpus(spec);
  check_consistent(*a);
  CHECK(a->docs() == 50);
  CHECK(a->size() == 50 * 40);
  CHECK(a->raw_vocabulary() == 30);
  CHECK(a->kind == "generated");
  CHECK(a->tokens == b->tokens);
  CHECK(a->words == b->words);
  spec.seed = 5;
  CHECK(cilab::tiny_corpus(spec)->tokens != a->tokens);
  for (const std::string& w : a->words) {
    std::vector<std::string> t;
    cilab::tokenize(w, &t);
    CHECK(t == std::vector<std::string>{w});
  }
  // Each word's strong successor follows it about half the time: the most frequent
  // next word of w takes well above the uniform 1/30 of its transitions.
  std::vector<std::map<int, int>> next(30);
  for (int d = 0; d < a->docs(); ++d)
    for (int64_t t = a->doc_start[static_cast<size_t>(d)]; t + 1 < a->doc_start[static_cast<size_t>(d) + 1]; ++t)
      ++next[static_cast<size_t>(a->tokens[static_cast<size_t>(t)])][a->tokens[static_cast<size_t>(t) + 1]];
  for (const auto& m : next) {
    int total = 0, best = 0;
    for (const auto& [w, n] : m) total += n, best = std::max(best, n);
    CHECK(best > 0.3 * total);
  }
  spec.words = 1;
  CHECK(error_of([&] { cilab::tiny_corpus(spec); }).find("tiny-text") == 0);
}

TEST_CASE("text datasets: built-in specs, option values read back, descriptions") {
  const auto tiny = cilab::make_dataset("tiny-text:words=5,docs=3,length=4,seed=2");
  REQUIRE(tiny->is_text());
  CHECK(tiny->text->docs() == 3);
  CHECK(tiny->text->size() == 12);
  CHECK(tiny->rows() == 0);
  CHECK(cilab::describe(*tiny).rfind("tiny-text: 3 documents, 12 tokens", 0) == 0);
  const auto fortunes = cilab::make_dataset("fortunes:n=100");
  REQUIRE(fortunes->is_text());
  CHECK(fortunes->text->docs() == 100);
  CHECK(cilab::describe(*fortunes).rfind("fortunes: 100 documents, 43 categories, ", 0) == 0);
  CHECK(fortunes->class_names.size() == 43);
  const auto gcide = cilab::make_dataset("gcide:tokens=5000");
  REQUIRE(gcide->is_text());
  CHECK(gcide->text->size() >= 5000);
  for (const auto& info : cilab::builtin_datasets()) {
    const std::shared_ptr<const cilab::Dataset>* d = info.name == "tiny-text"  ? &tiny
                                                     : info.name == "fortunes" ? &fortunes
                                                     : info.name == "gcide"    ? &gcide
                                                                               : nullptr;
    if (!d) continue;
    CAPTURE(info.name);
    const std::vector<double> values = cilab::dataset_option_values(info, **d);
    std::map<std::string, double> by_name;
    for (size_t i = 0; i < info.options.size(); ++i) by_name[info.options[i].name] = values[i];
    if (info.name == "tiny-text") CHECK(by_name == std::map<std::string, double>{{"docs", 3}, {"length", 4}, {"seed", 2}, {"words", 5}});
    if (info.name == "fortunes") CHECK(by_name == std::map<std::string, double>{{"n", 100}});
    if (info.name == "gcide") CHECK(by_name == std::map<std::string, double>{{"tokens", 5000}});
  }
  CHECK(cilab::describe_corpus(*fortunes->text, "f").find("f: 100 documents") == 0);
  CHECK(error_of([] { cilab::make_dataset("tiny-text:words=0"); }).find("words") != std::string::npos);
  CHECK(error_of([] { cilab::make_dataset("fortunes:n=-1"); }).find("'n'") != std::string::npos);
}

TEST_CASE("text datasets: modules that read numbers refuse a text corpus by name or ignore it") {
  const auto tiny = cilab::make_dataset("tiny-text");
  int refused = 0;
  for (const cilab::ModuleEntry& e : cilab::module_registry()) {
    const std::unique_ptr<cilab::Module> m = e.make();
    if (m->info().text_data) continue;
    // The defaults, and every choice of a parameter that picks the module's input.
    std::vector<cilab::ParamValues> settings{cilab::default_values(m->params())};
    for (const cilab::ParamSpec& p : m->params())
      if (p.type == cilab::ParamType::Choice && (p.name == "input" || p.name == "matrix" || p.name == "data"))
        for (size_t c = 0; c < p.choices.size(); ++c) {
          settings.push_back(settings.front());
          settings.back()[p.name] = static_cast<double>(c);
        }
    for (const cilab::ParamValues& values : settings) {
      CAPTURE(e.name);
      std::string msg;
      try {
        e.make()->reset(tiny, values, 0);
      } catch (const std::exception& ex) {
        msg = ex.what();
      }
      if (msg.empty()) continue;  // the module does not read the dataset with these settings
      ++refused;
      CHECK(msg.find("text corpus") != std::string::npos);
      CHECK(msg.find("tiny-text") != std::string::npos);
    }
  }
  CHECK(refused > 5);
}
