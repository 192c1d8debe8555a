// The text data layer (algorithms/text/text.h): the tokeniser, the corpus
// builder, stop words, vocabularies, the document-term matrix (course 7.1),
// windowed co-occurrence (8.1, 8.3) and frequent-word subsampling (8.2).
#include "algorithms/text/text.h"

#include "algorithms/core/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using cilab::CoocWeight;
using cilab::CorpusBuilder;
using cilab::TextCorpus;
using cilab::VocabOptions;

std::vector<std::string> tokens_of(const std::string& text) {
  std::vector<std::string> out;
  cilab::tokenize(text, &out);
  return out;
}

std::shared_ptr<TextCorpus> corpus_of(const std::vector<std::string>& docs) {
  CorpusBuilder b("text");
  for (const std::string& d : docs) b.add_document(d);
  return b.finish();
}

// The words of document d, as strings.
std::vector<std::string> doc_words(const TextCorpus& c, int d) {
  std::vector<std::string> out;
  for (int64_t t = c.doc_start[static_cast<size_t>(d)]; t < c.doc_start[static_cast<size_t>(d) + 1]; ++t)
    out.push_back(c.words[static_cast<size_t>(c.tokens[static_cast<size_t>(t)])]);
  return out;
}

// A random corpus over `words` words (Zipf-like draws), `docs` documents of random length.
std::shared_ptr<TextCorpus> random_corpus(int words, int docs, int max_len, uint64_t seed) {
  cilab::Rng rng(seed);
  CorpusBuilder b("generated");
  for (int d = 0; d < docs; ++d) {
    std::string text;
    const int len = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(max_len)));
    for (int t = 0; t < len; ++t) {
      // Squaring a uniform draw favours the first words.
      const double u = rng.uniform();
      const int w = static_cast<int>(u * u * words);
      text += "w";
      for (int k = w; ; k /= 26) {
        text += static_cast<char>('a' + k % 26);
        if (k < 26) break;
      }
      text += ' ';
    }
    b.add_document(text);
  }
  return b.finish();
}

// Dense symmetric matrix of a Cooccurrence.
std::vector<std::vector<double>> dense(const cilab::Cooccurrence& n) {
  std::vector<std::vector<double>> m(static_cast<size_t>(n.words), std::vector<double>(static_cast<size_t>(n.words), 0.0));
  for (int w = 0; w < n.words; ++w)
    for (int64_t e = n.row_start[static_cast<size_t>(w)]; e < n.row_start[static_cast<size_t>(w) + 1]; ++e)
      m[static_cast<size_t>(w)][static_cast<size_t>(n.col[static_cast<size_t>(e)])] += n.value[static_cast<size_t>(e)];
  return m;
}

// The co-occurrence matrix by the definition: every ordered pair of tokens in a document at distance 1..R.
std::vector<std::vector<double>> brute_cooc(const cilab::EncodedCorpus& e, int v, int window, CoocWeight weight) {
  std::vector<std::vector<double>> m(static_cast<size_t>(v), std::vector<double>(static_cast<size_t>(v), 0.0));
  for (int d = 0; d < e.docs(); ++d)
    for (int64_t s = e.doc_start[static_cast<size_t>(d)]; s < e.doc_start[static_cast<size_t>(d) + 1]; ++s)
      for (int64_t t = e.doc_start[static_cast<size_t>(d)]; t < e.doc_start[static_cast<size_t>(d) + 1]; ++t) {
        const int64_t dist = std::abs(s - t);
        if (dist < 1 || dist > window) continue;
        m[static_cast<size_t>(e.tokens[static_cast<size_t>(s)])][static_cast<size_t>(e.tokens[static_cast<size_t>(t)])] +=
            weight == CoocWeight::Count ? 1.0 : 1.0 / static_cast<double>(dist);
      }
  return m;
}

}  // namespace

TEST_CASE("text: the tokeniser lowercases runs of letters and joins apostrophes") {
  using V = std::vector<std::string>;
  CHECK(tokens_of("The King's dog DON'T bark.") == V{"the", "kings", "dog", "dont", "bark"});
  // A typographic apostrophe (U+2019) joins too.
  CHECK(tokens_of("don\xE2\x80\x99t") == V{"dont"});
  // Apostrophes not between two letters separate.
  CHECK(tokens_of("'quoted' rock'n'roll dogs' ''a") == V{"quoted", "rocknroll", "dogs", "a"});
  CHECK(tokens_of("it''s") == V{"it", "s"});
  // Digits, punctuation, UTF-8 bytes split words.
  CHECK(tokens_of("abc123def 4x4 e-mail") == V{"abc", "def", "x", "e", "mail"});
  CHECK(tokens_of("caf\xC3\xA9 na\xC3\xAFve \xE2\x80\x94 ok") == V{"caf", "na", "ve", "ok"});
  // Nothing to find.
  CHECK(tokens_of("").empty());
  CHECK(tokens_of("123 456 !!! \xC3\xA9\xC3\xA9 '").empty());
  // A long run is cut to kMaxTokenBytes letters and stays one token.
  const std::string run(200, 'Q');
  const V long_tokens = tokens_of("a " + run + " b");
  REQUIRE(long_tokens.size() == 3);
  CHECK(long_tokens[1] == std::string(cilab::kMaxTokenBytes, 'q'));
  // Appends, does not clear.
  V out{"x"};
  cilab::tokenize("y z", &out);
  CHECK(out == V{"x", "y", "z"});
}

TEST_CASE("text: looks_binary flags NUL bytes and many control bytes, not text") {
  CHECK_FALSE(cilab::looks_binary("plain text\twith tabs\r\nand\flines\n"));
  CHECK_FALSE(cilab::looks_binary(""));
  CHECK_FALSE(cilab::looks_binary("caf\xC3\xA9 UTF-8"));
  CHECK(cilab::looks_binary(std::string("ab\0cd", 5)));
  // 10 % control bytes is still text (a fortune's overstrikes), more is binary.
  CHECK_FALSE(cilab::looks_binary("abcdefghi\b"));
  CHECK(cilab::looks_binary("abcdefgh\b\b"));
}

TEST_CASE("text: the corpus builder counts words, documents and document frequencies") {
  CorpusBuilder b("text");
  const int art = b.label("art");
  CHECK(b.label("art") == art);
  const int law = b.label("law");
  CHECK(law != art);
  CHECK(b.add_document("the cat and the hat", art, "art #1", true));
  CHECK_FALSE(b.add_document("123 ... !!!", law, "law #1", true));  // no token: skipped
  CHECK(b.add_document("a cat", law, "law #2"));
  CHECK(b.docs() == 2);
  CHECK(b.tokens() == 7);
  const std::shared_ptr<TextCorpus> c = b.finish();
  CHECK(c->docs() == 2);
  CHECK(c->size() == 7);
  CHECK(c->kind == "text");
  // Raw ids in order of first appearance.
  CHECK(c->words == std::vector<std::string>{"the", "cat", "and", "hat", "a"});
  CHECK(c->word_count == std::vector<int64_t>{2, 2, 1, 1, 1});
  CHECK(c->doc_freq == std::vector<int>{1, 2, 1, 1, 1});
  CHECK(doc_words(*c, 1) == std::vector<std::string>{"a", "cat"});
  CHECK(c->has_labels());
  CHECK(c->doc_label == std::vector<int>{art, law});
  CHECK(c->label_names == std::vector<std::string>{"art", "law"});
  CHECK(c->doc_names == std::vector<std::string>{"art #1", "law #2"});
  CHECK(c->doc_text == std::vector<std::string>{"the cat and the hat", ""});
  CHECK(c->byte_size() > c->tokens.size() * sizeof(int32_t));
  // Unlabelled, unnamed documents store no labels, names or texts.
  const auto plain = corpus_of({"one two", "three"});
  CHECK_FALSE(plain->has_labels());
  CHECK(plain->doc_label.empty());
  CHECK(plain->doc_names.empty());
  CHECK(plain->doc_text.empty());
}

TEST_CASE("text: the shipped stop-word list is scikit-learn's plus the single letters") {
  const std::vector<std::string>& words = cilab::english_stop_words();
  CHECK(words.size() >= 318);
  CHECK(std::is_sorted(words.begin(), words.end()));
  for (const char* w : {"the", "and", "of", "which", "yourselves", "x", "q"}) {
    CAPTURE(w);
    CHECK(cilab::is_stop_word(w));
  }
  // Contractions as the tokeniser joins them ("don't" -> "dont"), except those that are words too.
  const std::pair<const char*, const char*> contractions[] = {
      {"don't", "dont"}, {"I'm", "im"}, {"you're", "youre"}, {"isn't", "isnt"}, {"they're", "theyre"}};
  for (const auto& [text, w] : contractions) {
    CAPTURE(text);
    CHECK(tokens_of(text) == std::vector<std::string>{w});
    CHECK(cilab::is_stop_word(w));
  }
  for (const char* w : {"king", "queen", "water", "", "The", "ill", "shell", "wed"}) {
    CAPTURE(w);
    CHECK_FALSE(cilab::is_stop_word(w));
  }
  // Every entry is a token the tokeniser can produce.
  for (const std::string& w : words) CHECK(tokens_of(w) == std::vector<std::string>{w});
}

TEST_CASE("text: vocabulary filters by min_count, max_df, stop words and max_size") {
  // Counts: the 5 (4 docs), cat 3, dog 3 (cat first), fish 1, bird 2.
  const auto c = corpus_of({"the cat the dog", "the cat bird", "the dog fish", "cat dog the bird"});
  SUBCASE("no filter: descending count, ties by first appearance") {
    const cilab::Vocabulary v = cilab::build_vocabulary(*c, VocabOptions{});
    CHECK(v.words == std::vector<std::string>{"the", "cat", "dog", "bird", "fish"});
    CHECK(v.counts == std::vector<int64_t>{5, 3, 3, 2, 1});
    CHECK(v.doc_freq == std::vector<int>{4, 3, 3, 2, 1});
    CHECK(v.kept_tokens == c->size());
    CHECK(v.total_tokens == c->size());
    CHECK(v.find("dog") == 2);
    CHECK(v.find("cow") == -1);
    for (int w = 0; w < c->raw_vocabulary(); ++w)
      CHECK(v.words[static_cast<size_t>(v.raw_to_id[static_cast<size_t>(w)])] == c->words[static_cast<size_t>(w)]);
  }
  SUBCASE("min_count") {
    VocabOptions o;
    o.min_count = 3;
    const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
    CHECK(v.words == std::vector<std::string>{"the", "cat", "dog"});
    CHECK(v.dropped_rare == 2);
    CHECK(v.kept_tokens == 11);
    CHECK(v.raw_to_id[static_cast<size_t>(std::find(c->words.begin(), c->words.end(), "fish") - c->words.begin())] == -1);
  }
  SUBCASE("max_df drops words in more than that fraction of the documents") {
    VocabOptions o;
    o.max_df = 0.75;  // at most 3 of 4 documents
    const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
    CHECK(v.find("the") == -1);
    CHECK(v.find("cat") >= 0);
    CHECK(v.dropped_frequent == 1);
    o.max_df = 0.5;
    CHECK(cilab::build_vocabulary(*c, o).words == std::vector<std::string>{"bird", "fish"});
  }
  SUBCASE("stop words") {
    VocabOptions o;
    o.stop_words = true;
    const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
    CHECK(v.find("the") == -1);
    CHECK(v.dropped_stop == 1);
    CHECK(v.size() == 4);
  }
  SUBCASE("max_size keeps the most frequent") {
    VocabOptions o;
    o.max_size = 2;
    const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
    CHECK(v.words == std::vector<std::string>{"the", "cat"});
    CHECK(v.dropped_cap == 3);
  }
  SUBCASE("an empty result does not throw; require_vocabulary does, naming everything") {
    VocabOptions o;
    o.min_count = 100;
    const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
    CHECK(v.size() == 0);
    CHECK_NOTHROW(cilab::require_vocabulary(v, 0, "plsa", "mine", "k=1"));
    try {
      cilab::require_vocabulary(v, 20, "plsa", "mine", "k=20");
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      CHECK(msg.find("plsa: ") == 0);
      CHECK(msg.find("'mine'") != std::string::npos);
      CHECK(msg.find("has 0 words") != std::string::npos);
      CHECK(msg.find("min_count=100") != std::string::npos);
      CHECK(msg.find("k=20 needs at least 20") != std::string::npos);
      CHECK(msg.find("lower min_count") != std::string::npos);
      CHECK(msg.find("or lower k") != std::string::npos);
      CHECK(msg.find("max_size=") != std::string::npos);  // the default name of the cap
    }
    // The module's own name for the cap; a need that is not a setting is not offered for lowering.
    try {
      cilab::require_vocabulary(v, 2, "glove", "mine", "two words to co-occur", "max_vocab");
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      CHECK(msg.find("max_vocab=") != std::string::npos);
      CHECK(msg.find("max_size") == std::string::npos);
      CHECK(msg.find("two words to co-occur needs at least 2") != std::string::npos);
      CHECK(msg.find("or lower") == std::string::npos);
    }
  }
}

TEST_CASE("text: encode keeps the vocabulary's words in order, documents aligned") {
  const auto c = corpus_of({"the cat the dog", "the the", "cat fish"});
  VocabOptions o;
  o.stop_words = true;
  const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
  const cilab::EncodedCorpus e = cilab::encode(*c, v);
  REQUIRE(e.docs() == 3);
  CHECK(e.doc_start == std::vector<int64_t>{0, 2, 2, 4});
  std::vector<std::string> words;
  for (const int32_t id : e.tokens) words.push_back(v.words[static_cast<size_t>(id)]);
  CHECK(words == std::vector<std::string>{"cat", "dog", "cat", "fish"});
}

TEST_CASE("text: the document-term matrix (course 7.1): row sums are lengths, word order does not matter") {
  const auto c = random_corpus(40, 60, 30, 7);
  VocabOptions o;
  o.min_count = 2;
  const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
  const cilab::DocTermMatrix n = cilab::doc_term_matrix(*c, v);
  const cilab::EncodedCorpus e = cilab::encode(*c, v);
  CHECK(n.terms == v.size());
  CHECK(n.total() == doctest::Approx(static_cast<double>(v.kept_tokens)));
  for (int i = 0; i < n.docs; ++i) {
    const int d = n.doc_index[static_cast<size_t>(i)];
    const int64_t len = e.doc_start[static_cast<size_t>(d) + 1] - e.doc_start[static_cast<size_t>(d)];
    double row = 0.0;
    for (int64_t k = n.row_start[static_cast<size_t>(i)]; k < n.row_start[static_cast<size_t>(i) + 1]; ++k) {
      row += n.count[static_cast<size_t>(k)];
      if (k > n.row_start[static_cast<size_t>(i)]) CHECK(n.col[static_cast<size_t>(k) - 1] < n.col[static_cast<size_t>(k)]);
    }
    CHECK(row == static_cast<double>(len));
    CHECK(n.doc_length[static_cast<size_t>(i)] == static_cast<double>(len));
  }
  // Permuting the words of every document leaves every row unchanged.
  cilab::Rng rng(3);
  CorpusBuilder b("generated");
  for (int d = 0; d < c->docs(); ++d) {
    std::vector<std::string> w = doc_words(*c, d);
    for (size_t i = w.size(); i > 1; --i) std::swap(w[i - 1], w[rng.below(i)]);
    std::string text;
    for (const std::string& s : w) text += s + " ";
    b.add_document(text);
  }
  const auto shuffled = b.finish();
  // The shuffled corpus meets the words in another order: compare by word.
  const cilab::Vocabulary v2 = cilab::build_vocabulary(*shuffled, o);
  const cilab::DocTermMatrix n2 = cilab::doc_term_matrix(*shuffled, v2);
  REQUIRE(n2.docs == n.docs);
  for (int i = 0; i < n.docs; ++i) {
    std::map<std::string, double> a, b2;
    for (int64_t k = n.row_start[static_cast<size_t>(i)]; k < n.row_start[static_cast<size_t>(i) + 1]; ++k)
      a[v.words[static_cast<size_t>(n.col[static_cast<size_t>(k)])]] = n.count[static_cast<size_t>(k)];
    for (int64_t k = n2.row_start[static_cast<size_t>(i)]; k < n2.row_start[static_cast<size_t>(i) + 1]; ++k)
      b2[v2.words[static_cast<size_t>(n2.col[static_cast<size_t>(k)])]] = n2.count[static_cast<size_t>(k)];
    CHECK(a == b2);
  }
}

TEST_CASE("text: the document-term matrix drops or keeps documents left empty by the vocabulary") {
  const auto c = corpus_of({"cat dog", "the of and", "dog"});
  VocabOptions o;
  o.stop_words = true;
  const cilab::Vocabulary v = cilab::build_vocabulary(*c, o);
  const cilab::DocTermMatrix dropped = cilab::doc_term_matrix(*c, v, true);
  CHECK(dropped.docs == 2);
  CHECK(dropped.doc_index == std::vector<int>{0, 2});
  const cilab::DocTermMatrix kept = cilab::doc_term_matrix(*c, v, false);
  CHECK(kept.docs == 3);
  CHECK(kept.row_start[1] == kept.row_start[2]);
  CHECK(kept.doc_length[1] == 0.0);
}

TEST_CASE("text: co-occurrence is symmetric and matches the definition") {
  for (const int window : {1, 2, 5}) {
    for (const CoocWeight weight : {CoocWeight::Count, CoocWeight::InverseDistance}) {
      CAPTURE(window);
      const auto c = random_corpus(30, 40, 25, 11 + static_cast<uint64_t>(window));
      const cilab::Vocabulary v = cilab::build_vocabulary(*c, VocabOptions{});
      const cilab::EncodedCorpus e = cilab::encode(*c, v);
      const cilab::Cooccurrence n = cilab::cooccurrence(e, v.size(), window, weight);
      CHECK(n.words == v.size());
      const auto m = dense(n);
      const auto want = brute_cooc(e, v.size(), window, weight);
      for (int a = 0; a < v.size(); ++a)
        for (int b = 0; b < v.size(); ++b) {
          CHECK(m[static_cast<size_t>(a)][static_cast<size_t>(b)] == doctest::Approx(want[static_cast<size_t>(a)][static_cast<size_t>(b)]));
          CHECK(m[static_cast<size_t>(a)][static_cast<size_t>(b)] == m[static_cast<size_t>(b)][static_cast<size_t>(a)]);
        }
      // Columns sorted and unique within a row, no stored zero.
      for (int w = 0; w < n.words; ++w)
        for (int64_t k = n.row_start[static_cast<size_t>(w)]; k < n.row_start[static_cast<size_t>(w) + 1]; ++k) {
          CHECK(n.value[static_cast<size_t>(k)] > 0.0);
          if (k > n.row_start[static_cast<size_t>(w)]) CHECK(n.col[static_cast<size_t>(k) - 1] < n.col[static_cast<size_t>(k)]);
        }
      if (weight == CoocWeight::Count) {
        // Total = 2 * sum over documents of sum_{d=1..R} max(0, len - d).
        double pairs = 0.0;
        for (int d = 0; d < e.docs(); ++d) {
          const int64_t len = e.doc_start[static_cast<size_t>(d) + 1] - e.doc_start[static_cast<size_t>(d)];
          for (int dist = 1; dist <= window; ++dist) pairs += static_cast<double>(std::max<int64_t>(0, len - dist));
        }
        CHECK(n.total() == 2.0 * pairs);
      }
    }
  }
}

TEST_CASE("text: co-occurrence with inverse-distance weights on a 5-token document, by hand") {
  // "a b a c b", window 2. Pairs at distance 1: (a,b) (b,a) (a,c) (c,b); at distance 2: (a,a) (b,c) (a,b).
  const auto c = corpus_of({"a b a c b"});
  const cilab::Vocabulary v = cilab::build_vocabulary(*c, VocabOptions{});
  const int a = v.find("a"), b = v.find("b"), cc = v.find("c");
  const auto m = dense(cilab::cooccurrence(cilab::encode(*c, v), v.size(), 2, CoocWeight::InverseDistance));
  auto at = [&](int x, int y) { return m[static_cast<size_t>(x)][static_cast<size_t>(y)]; };
  CHECK(at(a, b) == doctest::Approx(1.0 + 1.0 + 0.5));  // a-b twice at 1, once at 2
  CHECK(at(b, a) == at(a, b));
  CHECK(at(a, cc) == doctest::Approx(1.0));
  CHECK(at(b, cc) == doctest::Approx(1.0 + 0.5));
  CHECK(at(a, a) == doctest::Approx(2 * 0.5));  // one pair, both orders
  CHECK(at(b, b) == 0.0);
  CHECK(at(cc, cc) == 0.0);
  // Windows do not cross documents.
  const auto two = corpus_of({"a b", "c"});
  const cilab::Vocabulary v2 = cilab::build_vocabulary(*two, VocabOptions{});
  const cilab::Cooccurrence n2 = cilab::cooccurrence(cilab::encode(*two, v2), v2.size(), 5, CoocWeight::Count);
  CHECK(n2.total() == 2.0);
}

TEST_CASE("text: co-occurrence beyond the dense block (a vocabulary of thousands of words)") {
  const auto c = random_corpus(5000, 800, 60, 5);
  const cilab::Vocabulary v = cilab::build_vocabulary(*c, VocabOptions{});
  REQUIRE(v.size() > 2048);
  const cilab::EncodedCorpus e = cilab::encode(*c, v);
  const cilab::Cooccurrence n = cilab::cooccurrence(e, v.size(), 3, CoocWeight::Count);
  // Rows bucketed a few at a time (many scans of the corpus) give the same matrix, bit for bit.
  const cilab::Cooccurrence ranged = cilab::cooccurrence(e, v.size(), 3, CoocWeight::Count, 5000);
  CHECK(ranged.row_start == n.row_start);
  CHECK(ranged.col == n.col);
  CHECK(ranged.value == n.value);
  CHECK_THROWS_WITH_AS(cilab::cooccurrence(e, v.size(), 3, CoocWeight::Count, 0),
                       doctest::Contains("bucket_pairs >= 1"), std::invalid_argument);
  // Reference: every pair tallied in a map.
  std::map<std::pair<int, int>, double> want;
  for (int d = 0; d < e.docs(); ++d)
    for (int64_t s = e.doc_start[static_cast<size_t>(d)]; s < e.doc_start[static_cast<size_t>(d) + 1]; ++s)
      for (int64_t t = s + 1; t < std::min(s + 4, e.doc_start[static_cast<size_t>(d) + 1]); ++t) {
        want[{e.tokens[static_cast<size_t>(s)], e.tokens[static_cast<size_t>(t)]}] += 1.0;
        want[{e.tokens[static_cast<size_t>(t)], e.tokens[static_cast<size_t>(s)]}] += 1.0;
      }
  std::map<std::pair<int, int>, double> got;
  for (int w = 0; w < n.words; ++w)
    for (int64_t k = n.row_start[static_cast<size_t>(w)]; k < n.row_start[static_cast<size_t>(w) + 1]; ++k) {
      if (k > n.row_start[static_cast<size_t>(w)]) CHECK(n.col[static_cast<size_t>(k) - 1] < n.col[static_cast<size_t>(k)]);
      got[{w, n.col[static_cast<size_t>(k)]}] = n.value[static_cast<size_t>(k)];
    }
  CHECK(got == want);
}

TEST_CASE("text: subsampling follows gensim's formula, keeps all at sample 0, falls with frequency") {
  const auto c = random_corpus(200, 400, 50, 9);
  const cilab::Vocabulary v = cilab::build_vocabulary(*c, VocabOptions{});
  const double sample = 1e-3;
  const std::vector<double> keep = cilab::subsample_keep_probability(v, sample);
  REQUIRE(static_cast<int>(keep.size()) == v.size());
  const double total = static_cast<double>(v.kept_tokens);
  bool some_below_one = false;
  for (int w = 0; w < v.size(); ++w) {
    const double f = static_cast<double>(v.counts[static_cast<size_t>(w)]) / total;
    CHECK(keep[static_cast<size_t>(w)] == doctest::Approx(std::min(1.0, (std::sqrt(f / sample) + 1.0) * sample / f)));
    CHECK(keep[static_cast<size_t>(w)] > 0.0);
    CHECK(keep[static_cast<size_t>(w)] <= 1.0);
    some_below_one = some_below_one || keep[static_cast<size_t>(w)] < 1.0;
    // Ids are by descending count: the probability never falls as the id grows.
    if (w > 0) CHECK(keep[static_cast<size_t>(w)] >= keep[static_cast<size_t>(w) - 1]);
  }
  CHECK(some_below_one);
  for (const double p : cilab::subsample_keep_probability(v, 0.0)) CHECK(p == 1.0);
}
