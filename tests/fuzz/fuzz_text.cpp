// libFuzzer target: the user's own text (load_text) through a temporary file.
// Byte 0 even: the rest is one text file split on blank lines (gzip sniffed);
// odd: a folder of .txt files whose contents are separated by 0x1e bytes.
// Contract: a consistent TextCorpus (every document non-empty, counts and
// document frequencies matching the tokens, words lowercase letters of at most
// kMaxTokenBytes, first appearance order) or a one-line DataError.
#include "algorithms/data/corpora.h"
#include "algorithms/text/text.h"
#include "tests/fuzz/fuzz_contract.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& p, const uint8_t* data, size_t size) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

void check_corpus(const cilab::TextCorpus& c) {
  const size_t docs = static_cast<size_t>(c.docs());
  if (docs < 1 || c.size() < 1) cilab_fuzz::broken("an empty corpus instead of a DataError");
  if (c.doc_start.front() != 0 || c.doc_start.back() != c.size()) cilab_fuzz::broken("document offsets");
  const size_t v = c.words.size();
  if (c.word_count.size() != v || c.doc_freq.size() != v) cilab_fuzz::broken("per-word arrays of other sizes");
  std::vector<int64_t> count(v, 0);
  std::vector<int> df(v, 0), last(v, -1);
  int32_t next_new = 0;
  for (size_t d = 0; d < docs; ++d) {
    if (c.doc_start[d] >= c.doc_start[d + 1]) cilab_fuzz::broken("an empty or reversed document");
    for (int64_t t = c.doc_start[d]; t < c.doc_start[d + 1]; ++t) {
      const int32_t w = c.tokens[static_cast<size_t>(t)];
      if (w < 0 || static_cast<size_t>(w) >= v) cilab_fuzz::broken("a token id outside the words");
      if (w > next_new) cilab_fuzz::broken("raw ids not in order of first appearance");
      if (w == next_new) ++next_new;
      ++count[static_cast<size_t>(w)];
      if (last[static_cast<size_t>(w)] != static_cast<int>(d)) last[static_cast<size_t>(w)] = static_cast<int>(d), ++df[static_cast<size_t>(w)];
    }
  }
  if (count != c.word_count) cilab_fuzz::broken("word counts do not match the tokens");
  if (df != c.doc_freq) cilab_fuzz::broken("document frequencies do not match the tokens");
  for (const std::string& w : c.words) {
    if (w.empty() || w.size() > cilab::kMaxTokenBytes) cilab_fuzz::broken("a word of length " + std::to_string(w.size()));
    for (const char ch : w)
      if (ch < 'a' || ch > 'z') cilab_fuzz::broken("a word with a byte other than a-z: " + w);
  }
  if (!c.doc_names.empty() && c.doc_names.size() != docs) cilab_fuzz::broken("doc_names not one per document");
  if (!c.doc_text.empty() && c.doc_text.size() != docs) cilab_fuzz::broken("doc_text not one per document");
  // The kept text tokenises to the document's tokens.
  for (size_t d = 0; d < c.doc_text.size(); ++d) {
    if (c.doc_text[d].empty()) continue;
    std::vector<std::string> toks;
    cilab::tokenize(c.doc_text[d], &toks);
    if (static_cast<int64_t>(toks.size()) != c.doc_start[d + 1] - c.doc_start[d]) cilab_fuzz::broken("doc_text disagrees");
    for (size_t i = 0; i < toks.size(); ++i)
      if (toks[i] != c.words[static_cast<size_t>(c.tokens[static_cast<size_t>(c.doc_start[d]) + i])])
        cilab_fuzz::broken("doc_text disagrees");
  }
}

// The process's scratch folder, kept between inputs (in memory when /dev/shm exists).
fs::path scratch_root() {
  std::error_code ec;
  const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
  return base / ("cilab_fuzz_text_" + std::to_string(::getpid()));
}

void remove_scratch() {
  std::error_code ec;
  fs::remove_all(scratch_root(), ec);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::atexit(remove_scratch);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool folder = data[0] & 1;
  std::error_code ec;
  const fs::path root = scratch_root();
  fs::path target = root / "input.txt";
  if (folder) {
    target = root / "docs";
    fs::remove_all(target, ec);
    fs::create_directories(target);
    size_t start = 1;
    int n = 0;
    for (size_t i = 1; i <= size; ++i)
      if (i == size || data[i] == 0x1e) {
        write_file(target / ("doc" + std::to_string(n++) + ".txt"), data + start, i - start);
        start = i + 1;
      }
  } else {
    fs::create_directories(root);
    write_file(target, data + 1, size - 1);
  }
  cilab_fuzz::check_contract<cilab::DataError>([&] {
    cilab::LoadOptions opts;
    opts.max_line_bytes = 4096;
    opts.max_file_bytes = size_t(1) << 20;
    check_corpus(*cilab::load_text(target.string(), opts));
  });
  return 0;
}
