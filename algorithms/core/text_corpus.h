// TextCorpus: tokenised documents, the input of the text modules (plsa,
// word2vec, glove).
//
// A corpus keeps every token of its documents as a raw word id, in text order
// (tokenisation: algorithms/text/text.h - lowercase runs of ASCII letters,
// apostrophes inside a word dropped). Nothing is filtered here: each module
// builds its own Vocabulary (min_count, max_df, stop words) from the raw counts,
// so one corpus serves every module and every slider setting. A Dataset carries
// one in `Dataset::text` (its `x` is then empty).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cilab {

struct TextCorpus {
  std::vector<std::string> words;    // raw word id -> word, in order of first appearance
  std::vector<int64_t> word_count;   // raw id -> occurrences in the whole corpus
  std::vector<int> doc_freq;         // raw id -> number of documents containing it
  std::vector<int32_t> tokens;       // every token's raw id, documents one after another
  std::vector<int64_t> doc_start;    // size docs() + 1: document d is tokens[doc_start[d], doc_start[d + 1])
  std::vector<int> doc_label;        // empty, or per document: its category (fortune file), -1 = none
  std::vector<std::string> label_names;  // category id -> name ("art", "computers", ...)
  std::vector<std::string> doc_names;    // empty, or per document: "art #12", a file name
  std::vector<std::string> doc_text;     // empty, or per document: its original text (small corpora)
  std::string kind = "text";         // "fortunes", "dictionary", "text", "generated"

  int docs() const { return doc_start.empty() ? 0 : static_cast<int>(doc_start.size()) - 1; }
  int64_t size() const { return static_cast<int64_t>(tokens.size()); }  // tokens in all
  int raw_vocabulary() const { return static_cast<int>(words.size()); }
  bool has_labels() const { return !doc_label.empty() && !label_names.empty(); }
  size_t byte_size() const;  // approximate memory held (text.cpp)
};

}  // namespace cilab
