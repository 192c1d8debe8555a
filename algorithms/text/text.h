// The text data layer: tokenisation, stop words, vocabularies, the sparse
// document-term matrix, windowed co-occurrence counts and frequent-word
// subsampling. It sits beside the numeric data layer (algorithms/data/) and
// feeds the text modules (plsa, word2vec, glove); the corpora themselves are
// read by algorithms/data/corpora.h.
//
// Conventions follow scikit-learn's CountVectorizer (max_df, max_features,
// stop_words='english') and gensim's Word2Vec (min_count, sample), where those
// libraries have a name for the setting.
#pragma once

#include "algorithms/core/text_corpus.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cilab {

// ---------------------------------------------------------------- tokenising

// Appends the tokens of `text` to `out`: maximal runs of ASCII letters,
// lowercased; an apostrophe between two letters (ASCII ' or the typographic
// U+2019) is dropped and joins them ("don't" -> "dont", "King's" -> "kings").
// Digits, punctuation, other bytes (UTF-8 included) separate tokens. A token
// longer than kMaxTokenBytes keeps its first kMaxTokenBytes letters (the rest
// of the run is dropped, not made a second token).
constexpr size_t kMaxTokenBytes = 64;
void tokenize(std::string_view text, std::vector<std::string>* out);

// True when `bytes` look like binary data rather than text: a NUL byte, or more
// than 10 % control bytes other than tab, newline, carriage return and form
// feed. Loaders refuse such files with a DataError naming the file.
bool looks_binary(std::string_view bytes);

// Builds a TextCorpus document by document (the corpus loaders use it).
class CorpusBuilder {
 public:
  explicit CorpusBuilder(std::string kind);
  // Category id of `name` (created on first use).
  int label(const std::string& name);
  // Tokenises `text` and appends it as one document (label -1 = none). Empty
  // documents (no token) are skipped; returns whether it was added.
  // keep_text stores the original text too (TextCorpus::doc_text).
  bool add_document(std::string_view text, int label = -1, const std::string& name = {}, bool keep_text = false);
  int docs() const;
  int64_t tokens() const;
  std::shared_ptr<TextCorpus> finish();

 private:
  int find_or_add(std::string_view word);  // raw id of `word`, added on first sight

  std::shared_ptr<TextCorpus> c_;
  // Open-addressing word index (millions of lookups per corpus): slot -> raw
  // id or -1; word_hash_[id] is the hash of words[id].
  std::vector<int32_t> slots_;
  std::vector<uint64_t> word_hash_;
  std::unordered_map<std::string, int> labels_;
  std::vector<int> last_doc_;  // raw id -> last document that counted it (doc_freq)
  std::string scratch_;  // the tokeniser's buffer
};

// ---------------------------------------------------------------- stop words

// The shipped English stop-word list (assets/stopwords-en.txt: scikit-learn's
// ENGLISH_STOP_WORDS, plus the single letters the tokeniser leaves behind),
// read once; a missing asset throws DataError saying where it was looked for.
bool is_stop_word(std::string_view word);
const std::vector<std::string>& english_stop_words();

// ---------------------------------------------------------------- vocabulary

struct VocabOptions {
  int64_t min_count = 1;    // drop words seen fewer times (gensim: min_count)
  double max_df = 1.0;      // drop words in more than this fraction of the documents (scikit-learn: max_df)
  bool stop_words = false;  // drop the shipped English stop words (scikit-learn: stop_words='english')
  int max_size = 0;         // keep only the most frequent words, 0 = all (scikit-learn: max_features)
};

struct Vocabulary {
  VocabOptions options;            // what it was built with (for messages)
  std::vector<std::string> words;  // id -> word, by descending count (ties: first appearance)
  std::vector<int64_t> counts;     // id -> occurrences in the corpus
  std::vector<int> doc_freq;       // id -> documents containing it
  std::vector<int> raw_to_id;      // raw corpus id -> vocabulary id, -1 = dropped
  int64_t kept_tokens = 0;         // sum of counts
  int64_t total_tokens = 0;        // tokens in the corpus before filtering
  // Word types dropped, each under the first rule that drops it, in this order.
  int dropped_rare = 0, dropped_frequent = 0, dropped_stop = 0, dropped_cap = 0;

  int size() const { return static_cast<int>(words.size()); }
  int find(std::string_view word) const;  // id, or -1 when not in the vocabulary
  std::unordered_map<std::string, int> index;
};

// Builds the vocabulary of `corpus` under `opt`. Never throws for an empty
// result: callers check size() against what they need (see require_vocabulary).
Vocabulary build_vocabulary(const TextCorpus& corpus, const VocabOptions& opt);

// Throws std::invalid_argument when the vocabulary has fewer than `at_least`
// words: "<module>: the vocabulary of '<corpus name>' has 3 words after
// filtering (min_count=5, max_df=1, stop words on, max_size=0; dropped 40 rare,
// ...), but <what_needs_it> needs at least 20; try: lower min_count ...".
// what_needs_it names the setting, e.g. "k=20" ("or lower k" is then one of
// the hints), or what needs the words, e.g. "two words to co-occur" (empty:
// "the module"). max_size_param: the module's name for VocabOptions::max_size
// (plsa: max_features, glove: max_vocab), used in the message and the hint.
void require_vocabulary(const Vocabulary& v, int at_least, const std::string& module, const std::string& corpus_name,
                        const std::string& what_needs_it, const std::string& max_size_param = "max_size");

// The corpus in vocabulary ids: dropped words removed, documents kept in order
// (a document may become empty).
struct EncodedCorpus {
  std::vector<int32_t> tokens;
  std::vector<int64_t> doc_start;  // size docs + 1
  int docs() const { return doc_start.empty() ? 0 : static_cast<int>(doc_start.size()) - 1; }
  int64_t size() const { return static_cast<int64_t>(tokens.size()); }
};
EncodedCorpus encode(const TextCorpus& corpus, const Vocabulary& vocab);

// ---------------------------------------------------------------- matrices

// The document-term count matrix N (documents x words), CSR: row i holds
// (col[e], count[e]) for e in [row_start[i], row_start[i + 1]), columns sorted.
// doc_length[i] = s_i = sum_j N_ij. Documents are the corpus's, in order
// (empty rows kept); doc_index maps a row back to its corpus document.
struct DocTermMatrix {
  int docs = 0, terms = 0;
  std::vector<int64_t> row_start;  // docs + 1
  std::vector<int32_t> col;
  std::vector<double> count;
  std::vector<double> doc_length;
  std::vector<int> doc_index;      // row -> corpus document
  int64_t nnz() const { return static_cast<int64_t>(col.size()); }
  double total() const;            // sum of all counts
};
// drop_empty removes documents with no word left in the vocabulary (their
// p(z | d) would be undefined).
DocTermMatrix doc_term_matrix(const TextCorpus& corpus, const Vocabulary& vocab, bool drop_empty = true);

// How a co-occurrence at distance delta (1 <= |delta| <= window) is counted.
enum class CoocWeight {
  Count,            // 1 per pair: C_R of the course (8.1), N_vw of skip-gram (8.2)
  InverseDistance,  // 1 / |delta|: GloVe's weighting
};

// Windowed co-occurrence counts inside documents: N_vw = sum over token pairs
// (t, t + delta) with 1 <= |delta| <= window of the weight, for both orders, so
// N is symmetric. Stored as a sparse symmetric matrix in CSR (rows sorted,
// columns sorted within a row, the diagonal included when a word follows
// itself).
struct Cooccurrence {
  int words = 0;
  std::vector<int64_t> row_start;
  std::vector<int32_t> col;
  std::vector<double> value;
  int64_t nnz() const { return static_cast<int64_t>(col.size()); }
  double total() const;
};
// Pairs with a word beyond the 2048 most frequent are bucketed by row, as many rows at a time as
// `bucket_pairs` pairs (8 bytes each; the default, 128 MiB, holds GCIDE's 13 million in one range:
// two scans of the corpus in all, where 32 MiB took five); tests pass a small one to cover ranges.
constexpr int64_t kCoocBucketPairs = int64_t(1) << 24;
Cooccurrence cooccurrence(const EncodedCorpus& text, int vocab_size, int window, CoocWeight weight,
                          int64_t bucket_pairs = kCoocBucketPairs);

// ---------------------------------------------------------------- subsampling

// gensim's frequent-word subsampling: word w with corpus frequency
// f = count_w / total is kept with probability
//   min(1, (sqrt(f / sample) + 1) * sample / f)
// (word2vec's C code and gensim; sample = 0 keeps everything).
std::vector<double> subsample_keep_probability(const Vocabulary& vocab, double sample);

}  // namespace cilab
