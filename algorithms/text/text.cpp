// The text data layer (text.h): tokeniser, corpus builder, stop words,
// vocabulary, encoding, the document-term matrix, windowed co-occurrence and
// subsampling.
#include "algorithms/text/text.h"

#include "algorithms/data/datasets.h"
#include "algorithms/core/progress.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <unordered_set>
#include <utility>

namespace cilab {

namespace {

bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower_letter(unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c); }

// Length of an apostrophe at p (ASCII ' = 1 byte, U+2019 = E2 80 99 = 3
// bytes), 0 when there is none.
size_t apostrophe_at(const unsigned char* p, const unsigned char* end) {
  if (p < end && *p == '\'') return 1;
  if (end - p >= 3 && p[0] == 0xE2 && p[1] == 0x80 && p[2] == 0x99) return 3;
  return 0;
}

// Calls emit(std::string_view token) for every token of `text` (the rule of
// tokenize), in order. `buf` is scratch space reused across calls.
template <class Emit>
void for_each_token(std::string_view text, std::string& buf, Emit&& emit) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    if (!is_letter(*p)) {
      ++p;
      continue;
    }
    buf.clear();
    while (true) {
      while (p < end && is_letter(*p)) {
        if (buf.size() < kMaxTokenBytes) buf.push_back(lower_letter(*p));
        ++p;
      }
      const size_t a = apostrophe_at(p, end);
      if (a == 0 || p + a >= end || !is_letter(p[a])) break;
      p += a;  // an apostrophe between two letters joins them
    }
    emit(std::string_view(buf));
  }
}

// The shipped stop-word list, read from the asset once.
struct StopWords {
  std::vector<std::string> list;
  std::unordered_set<std::string_view> set;  // views into `list`
};

StopWords read_stop_words() {
  const std::string path = asset_path("stopwords-en.txt");
  std::ifstream in(path);
  if (!in)
    throw DataError(path + ": cannot read the English stop-word list: expected the shipped asset "
                    "stopwords-en.txt, found no readable file; try: set CILAB_ASSET_DIR to the "
                    "project's assets folder");
  StopWords s;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    size_t a = 0;
    while (a < line.size() && (line[a] == ' ' || line[a] == '\t')) ++a;
    if (a == line.size() || line[a] == '#') continue;
    std::string w;
    for (size_t i = a; i < line.size(); ++i) w.push_back(lower_letter(static_cast<unsigned char>(line[i])));
    s.list.push_back(std::move(w));
  }
  if (s.list.empty())
    throw DataError(path + ": expected one stop word per line, found none; try: restore the shipped "
                    "assets/stopwords-en.txt");
  std::sort(s.list.begin(), s.list.end());
  s.list.erase(std::unique(s.list.begin(), s.list.end()), s.list.end());
  for (const std::string& w : s.list) s.set.insert(w);
  return s;
}

const StopWords& stop_words() {
  // Read once (thread-safe initialisation); a failed read throws and is retried by the next call.
  static const StopWords kWords = read_stop_words();
  return kWords;
}

template <class T>
size_t vector_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

size_t strings_bytes(const std::vector<std::string>& v) {
  size_t n = vector_bytes(v);
  for (const std::string& s : v)
    if (s.capacity() > 15) n += s.capacity() + 1;  // outside the small-string buffer
  return n;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

// ---------------------------------------------------------------- tokenising

void tokenize(std::string_view text, std::vector<std::string>* out) {
  std::string buf;
  for_each_token(text, buf, [&](std::string_view t) { out->emplace_back(t); });
}

bool looks_binary(std::string_view bytes) {
  size_t control = 0;
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0) return true;
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7F) ++control;
  }
  return control * 10 > bytes.size();
}

size_t TextCorpus::byte_size() const {
  return sizeof(TextCorpus) + strings_bytes(words) + vector_bytes(word_count) + vector_bytes(doc_freq) +
         vector_bytes(tokens) + vector_bytes(doc_start) + vector_bytes(doc_label) + strings_bytes(label_names) +
         strings_bytes(doc_names) + strings_bytes(doc_text) + kind.capacity();
}

CorpusBuilder::CorpusBuilder(std::string kind) : c_(std::make_shared<TextCorpus>()) {
  c_->kind = std::move(kind);
  c_->doc_start.push_back(0);
}

int CorpusBuilder::label(const std::string& name) {
  const auto it = labels_.find(name);
  if (it != labels_.end()) return it->second;
  const int id = static_cast<int>(c_->label_names.size());
  c_->label_names.push_back(name);
  labels_.emplace(name, id);
  return id;
}

int CorpusBuilder::find_or_add(std::string_view word) {
  TextCorpus& c = *c_;
  const uint64_t h = std::hash<std::string_view>{}(word);
  if (slots_.empty()) slots_.assign(size_t(1) << 12, -1);
  size_t mask = slots_.size() - 1;
  for (size_t s = h & mask;; s = (s + 1) & mask) {
    const int32_t id = slots_[s];
    if (id < 0) break;
    if (word_hash_[static_cast<size_t>(id)] == h && c.words[static_cast<size_t>(id)] == word) return id;
  }
  const int id = static_cast<int>(c.words.size());
  c.words.emplace_back(word);
  c.word_count.push_back(0);
  c.doc_freq.push_back(0);
  last_doc_.push_back(-1);
  word_hash_.push_back(h);
  if (2 * c.words.size() > slots_.size()) {  // keep the load under 1/2
    slots_.assign(2 * slots_.size(), -1);
    mask = slots_.size() - 1;
    for (size_t w = 0; w < c.words.size(); ++w) {
      size_t s = word_hash_[w] & mask;
      while (slots_[s] >= 0) s = (s + 1) & mask;
      slots_[s] = static_cast<int32_t>(w);
    }
    return id;
  }
  size_t s = h & mask;
  while (slots_[s] >= 0) s = (s + 1) & mask;
  slots_[s] = id;
  return id;
}

bool CorpusBuilder::add_document(std::string_view text, int label, const std::string& name, bool keep_text) {
  TextCorpus& c = *c_;
  const int doc = c.docs();
  const size_t before = c.tokens.size();
  for_each_token(text, scratch_, [&](std::string_view t) {
    const int id = find_or_add(t);
    c.tokens.push_back(id);
    ++c.word_count[static_cast<size_t>(id)];
    if (last_doc_[static_cast<size_t>(id)] != doc) {
      last_doc_[static_cast<size_t>(id)] = doc;
      ++c.doc_freq[static_cast<size_t>(id)];
    }
  });
  if (c.tokens.size() == before) return false;
  c.doc_start.push_back(static_cast<int64_t>(c.tokens.size()));
  c.doc_label.push_back(label < 0 ? -1 : label);
  // Names and texts are stored once one is given (empty for the documents before).
  if (!name.empty() || !c.doc_names.empty()) {
    c.doc_names.resize(static_cast<size_t>(doc));
    c.doc_names.push_back(name);
  }
  if (keep_text || !c.doc_text.empty()) {
    c.doc_text.resize(static_cast<size_t>(doc));
    c.doc_text.emplace_back(keep_text ? text : std::string_view());
  }
  return true;
}

int CorpusBuilder::docs() const { return c_->docs(); }

int64_t CorpusBuilder::tokens() const { return c_->size(); }

std::shared_ptr<TextCorpus> CorpusBuilder::finish() {
  std::shared_ptr<TextCorpus> out = std::move(c_);
  const bool any_label = std::any_of(out->doc_label.begin(), out->doc_label.end(), [](int l) { return l >= 0; });
  if (!any_label || out->label_names.empty()) out->doc_label.clear();
  out->words.shrink_to_fit();
  out->tokens.shrink_to_fit();
  c_ = std::make_shared<TextCorpus>();  // the builder starts over
  c_->kind = out->kind;
  c_->doc_start.push_back(0);
  slots_.clear();
  word_hash_.clear();
  labels_.clear();
  last_doc_.clear();
  return out;
}

// ---------------------------------------------------------------- stop words

bool is_stop_word(std::string_view word) { return stop_words().set.count(word) > 0; }

const std::vector<std::string>& english_stop_words() { return stop_words().list; }

// ---------------------------------------------------------------- vocabulary

int Vocabulary::find(std::string_view word) const {
  const auto it = index.find(std::string(word));
  return it == index.end() ? -1 : it->second;
}

Vocabulary build_vocabulary(const TextCorpus& corpus, const VocabOptions& opt) {
  Vocabulary v;
  v.options = opt;
  v.total_tokens = corpus.size();
  const int raw = corpus.raw_vocabulary();
  const double max_docs = opt.max_df * corpus.docs();
  std::vector<int> kept;
  kept.reserve(static_cast<size_t>(raw));
  for (int w = 0; w < raw; ++w) {
    const size_t i = static_cast<size_t>(w);
    if (corpus.word_count[i] < opt.min_count) {
      ++v.dropped_rare;
    } else if (opt.max_df < 1.0 && static_cast<double>(corpus.doc_freq[i]) > max_docs) {
      ++v.dropped_frequent;
    } else if (opt.stop_words && is_stop_word(corpus.words[i])) {
      ++v.dropped_stop;
    } else {
      kept.push_back(w);
    }
  }
  // Descending count; ties keep the raw order, which is the order of first appearance.
  std::stable_sort(kept.begin(), kept.end(), [&](int a, int b) {
    return corpus.word_count[static_cast<size_t>(a)] > corpus.word_count[static_cast<size_t>(b)];
  });
  if (opt.max_size > 0 && static_cast<int>(kept.size()) > opt.max_size) {
    v.dropped_cap = static_cast<int>(kept.size()) - opt.max_size;
    kept.resize(static_cast<size_t>(opt.max_size));
  }
  v.raw_to_id.assign(static_cast<size_t>(raw), -1);
  v.words.reserve(kept.size());
  v.counts.reserve(kept.size());
  v.doc_freq.reserve(kept.size());
  v.index.reserve(kept.size());
  for (const int w : kept) {
    const size_t i = static_cast<size_t>(w);
    const int id = static_cast<int>(v.words.size());
    v.raw_to_id[i] = id;
    v.words.push_back(corpus.words[i]);
    v.counts.push_back(corpus.word_count[i]);
    v.doc_freq.push_back(corpus.doc_freq[i]);
    v.index.emplace(corpus.words[i], id);
    v.kept_tokens += corpus.word_count[i];
  }
  return v;
}

void require_vocabulary(const Vocabulary& v, int at_least, const std::string& module, const std::string& corpus_name,
                        const std::string& what_needs_it, const std::string& max_size_param) {
  if (v.size() >= at_least) return;
  const VocabOptions& o = v.options;
  std::string dropped;
  auto add = [&](int n, const char* what) {
    if (n > 0) dropped += (dropped.empty() ? "; dropped " : ", ") + std::to_string(n) + " " + what;
  };
  add(v.dropped_rare, "rare");
  add(v.dropped_frequent, "frequent");
  add(v.dropped_stop, "stop words");
  add(v.dropped_cap, ("over " + max_size_param).c_str());
  std::string tries;
  auto hint = [&](bool when, const std::string& what) {
    if (when) tries += (tries.empty() ? "" : ", ") + what;
  };
  // Only the filters that dropped words.
  hint(o.min_count > 1 && v.dropped_rare > 0, "lower min_count");
  hint(o.max_df < 1.0 && v.dropped_frequent > 0, "raise max_df");
  hint(o.stop_words && v.dropped_stop > 0, "keep the stop words");
  hint(o.max_size > 0 && o.max_size < at_least, "raise " + max_size_param);
  hint(true, "a larger corpus");
  // A setting (name=value) that asks for the words can be lowered too.
  hint(what_needs_it.find('=') != std::string::npos, "or lower " + what_needs_it.substr(0, what_needs_it.find('=')));
  throw std::invalid_argument(module + ": the vocabulary of '" + corpus_name + "' has " + std::to_string(v.size()) +
                              (v.size() == 1 ? " word" : " words") + " after filtering (min_count=" +
                              std::to_string(o.min_count) + ", max_df=" + fmt(o.max_df) +
                              ", stop words " + (o.stop_words ? "on" : "off") +
                              ", " + max_size_param + "=" + std::to_string(o.max_size) + dropped + "), but " +
                              (what_needs_it.empty() ? std::string("the module") : what_needs_it) +
                              " needs at least " + std::to_string(at_least) + "; try: " + tries);
}

EncodedCorpus encode(const TextCorpus& corpus, const Vocabulary& vocab) {
  EncodedCorpus e;
  e.tokens.reserve(static_cast<size_t>(vocab.kept_tokens));
  e.doc_start.reserve(corpus.doc_start.size());
  e.doc_start.push_back(0);
  for (int d = 0; d < corpus.docs(); ++d) {
    for (int64_t t = corpus.doc_start[static_cast<size_t>(d)]; t < corpus.doc_start[static_cast<size_t>(d) + 1]; ++t) {
      const int id = vocab.raw_to_id[static_cast<size_t>(corpus.tokens[static_cast<size_t>(t)])];
      if (id >= 0) e.tokens.push_back(id);
    }
    e.doc_start.push_back(static_cast<int64_t>(e.tokens.size()));
  }
  return e;
}

// ---------------------------------------------------------------- matrices

double DocTermMatrix::total() const { return std::accumulate(count.begin(), count.end(), 0.0); }

DocTermMatrix doc_term_matrix(const TextCorpus& corpus, const Vocabulary& vocab, bool drop_empty) {
  DocTermMatrix m;
  m.terms = vocab.size();
  m.row_start.push_back(0);
  std::vector<int> tally(static_cast<size_t>(vocab.size()), 0);
  std::vector<int32_t> seen;
  for (int d = 0; d < corpus.docs(); ++d) {
    seen.clear();
    for (int64_t t = corpus.doc_start[static_cast<size_t>(d)]; t < corpus.doc_start[static_cast<size_t>(d) + 1]; ++t) {
      const int id = vocab.raw_to_id[static_cast<size_t>(corpus.tokens[static_cast<size_t>(t)])];
      if (id < 0) continue;
      if (tally[static_cast<size_t>(id)]++ == 0) seen.push_back(id);
    }
    if (seen.empty() && drop_empty) continue;
    std::sort(seen.begin(), seen.end());
    double length = 0.0;
    for (const int32_t id : seen) {
      const double n = tally[static_cast<size_t>(id)];
      m.col.push_back(id);
      m.count.push_back(n);
      length += n;
      tally[static_cast<size_t>(id)] = 0;
    }
    m.row_start.push_back(static_cast<int64_t>(m.col.size()));
    m.doc_length.push_back(length);
    m.doc_index.push_back(d);
  }
  m.docs = static_cast<int>(m.doc_index.size());
  return m;
}

double Cooccurrence::total() const { return std::accumulate(value.begin(), value.end(), 0.0); }

Cooccurrence cooccurrence(const EncodedCorpus& text, int vocab_size, int window, CoocWeight weight,
                          int64_t bucket_pairs) {
  if (vocab_size < 0 || window < 0 || bucket_pairs < 1)
    throw std::invalid_argument("cooccurrence: expected vocab_size >= 0, window >= 0 and bucket_pairs >= 1, found " +
                                std::to_string(vocab_size) + ", " + std::to_string(window) + " and " +
                                std::to_string(bucket_pairs));
  // Each token pair (t, t + delta), delta in 1..window, is counted once in the
  // upper triangle (row = the smaller id w, column c >= w) and mirrored at the
  // end. The most frequent words (vocabulary ids are by descending count)
  // accumulate in a dense triangle. Pairs with a rarer word are bucketed by
  // row, a range of rows at a time (bounded memory), then each row's bucket is
  // sorted and reduced.
  const size_t V = static_cast<size_t>(vocab_size);
  const int dense = std::min(vocab_size, 2048);
  std::vector<int64_t> dense_row(static_cast<size_t>(dense) + 1, 0);
  for (int w = 0; w < dense; ++w) dense_row[static_cast<size_t>(w) + 1] = dense_row[static_cast<size_t>(w)] + (dense - w);
  std::vector<double> tri(static_cast<size_t>(dense_row.back()), 0.0);
  std::vector<double> wt(static_cast<size_t>(window) + 1, 0.0);
  for (int d = 1; d <= window; ++d) wt[static_cast<size_t>(d)] = weight == CoocWeight::Count ? 1.0 : 1.0 / d;

  const int32_t* tok = text.tokens.data();
  // Progress: one scan of the corpus counts, then one per range of rare rows
  // (scans is known once the first has counted them).
  int scans = 2, scan = 0;
  auto for_each_pair = [&](auto&& f) {
    const bool report = progress_wanted();
    for (int doc = 0; doc < text.docs(); ++doc) {
      if (report && (doc & 1023) == 0)
        report_progress("counting co-occurrences (window " + std::to_string(window) + ")",
                        (scan + static_cast<double>(doc) / std::max(1, text.docs())) / scans);
      const int64_t b = text.doc_start[static_cast<size_t>(doc)], e = text.doc_start[static_cast<size_t>(doc) + 1];
      for (int64_t t = b; t < e; ++t) {
        const int32_t x = tok[t];
        const int64_t last = std::min<int64_t>(e - 1, t + window);
        for (int64_t u = t + 1; u <= last; ++u) {
          const int32_t y = tok[u];
          f(std::min(x, y), std::max(x, y), static_cast<uint32_t>(u - t));
        }
      }
    }
  };
  std::vector<int64_t> sparse_count(V, 0);
  for_each_pair([&](int32_t w, int32_t c, uint32_t d) {
    if (c < dense)
      tri[static_cast<size_t>(dense_row[static_cast<size_t>(w)] + (c - w))] += wt[d];
    else
      ++sparse_count[static_cast<size_t>(w)];
  });
  // The row ranges below, each as many rows as fit bucket_pairs pairs (at least one).
  auto next_range = [&](size_t r0, int64_t* held) {
    size_t r1 = r0;
    *held = 0;
    while (r1 < V && (r1 == r0 || *held + sparse_count[r1] <= bucket_pairs)) *held += sparse_count[r1++];
    return r1;
  };
  scan = 1;
  scans = 1;
  for (size_t r = 0; r < V;) {
    int64_t held = 0;
    r = next_range(r, &held);
    if (held > 0) ++scans;
  }

  // The upper triangle in CSR, row by row.
  std::vector<int64_t> up_start(V + 1, 0);
  std::vector<int32_t> up_col;
  std::vector<double> up_val;
  std::vector<uint64_t> bucket;  // column << 32 | distance
  std::vector<int64_t> next;
  size_t r0 = 0;
  while (r0 < V) {
    int64_t held = 0;
    const size_t r1 = next_range(r0, &held);
    next.assign(r1 - r0 + 1, 0);
    for (size_t r = r0; r < r1; ++r) next[r - r0 + 1] = next[r - r0] + sparse_count[r];
    const std::vector<int64_t> start(next.begin(), next.end());
    bucket.resize(static_cast<size_t>(held));
    if (held > 0) {
      for_each_pair([&](int32_t w, int32_t c, uint32_t d) {
        if (c >= dense && static_cast<size_t>(w) >= r0 && static_cast<size_t>(w) < r1)
          bucket[static_cast<size_t>(next[static_cast<size_t>(w) - r0]++)] = static_cast<uint64_t>(c) << 32 | d;
      });
      ++scan;
    }
    for (size_t r = r0; r < r1; ++r) {
      if (static_cast<int>(r) < dense)
        for (int c = static_cast<int>(r); c < dense; ++c) {
          const double v = tri[static_cast<size_t>(dense_row[r] + (c - static_cast<int>(r)))];
          if (v != 0.0) {
            up_col.push_back(c);
            up_val.push_back(v);
          }
        }
      const auto b = bucket.begin() + start[r - r0], e = bucket.begin() + start[r - r0 + 1];
      std::sort(b, e);
      for (auto it = b; it != e;) {
        const uint64_t col = *it >> 32;
        double v = 0.0;
        for (; it != e && (*it >> 32) == col; ++it) v += wt[static_cast<size_t>(*it & 0xFFFFFFFFu)];
        up_col.push_back(static_cast<int32_t>(col));
        up_val.push_back(v);
      }
      up_start[r + 1] = static_cast<int64_t>(up_col.size());
    }
    r0 = r1;
  }
  tri = std::vector<double>();
  bucket = std::vector<uint64_t>();

  // Mirror into the symmetric CSR. Visiting the upper entries by ascending
  // (w, c), a row r receives its lower entries (from rows w < r) before its
  // own upper ones, each in ascending column order: columns come out sorted.
  Cooccurrence out;
  out.words = vocab_size;
  std::vector<int64_t> row_size(V, 0);
  for (size_t w = 0; w < V; ++w)
    for (int64_t k = up_start[w]; k < up_start[w + 1]; ++k) {
      ++row_size[w];
      if (static_cast<size_t>(up_col[static_cast<size_t>(k)]) != w) ++row_size[static_cast<size_t>(up_col[static_cast<size_t>(k)])];
    }
  out.row_start.assign(V + 1, 0);
  for (size_t w = 0; w < V; ++w) out.row_start[w + 1] = out.row_start[w] + row_size[w];
  out.col.resize(static_cast<size_t>(out.row_start.back()));
  out.value.resize(out.col.size());
  next.assign(out.row_start.begin(), out.row_start.end() - 1);
  for (size_t w = 0; w < V; ++w)
    for (int64_t k = up_start[w]; k < up_start[w + 1]; ++k) {
      const int32_t c = up_col[static_cast<size_t>(k)];
      const double v = up_val[static_cast<size_t>(k)];
      size_t at = static_cast<size_t>(next[w]++);
      out.col[at] = c;
      if (static_cast<size_t>(c) == w) {  // a word next to itself: the pair counts in both orders
        out.value[at] = 2.0 * v;
        continue;
      }
      out.value[at] = v;
      at = static_cast<size_t>(next[static_cast<size_t>(c)]++);
      out.col[at] = static_cast<int32_t>(w);
      out.value[at] = v;
    }
  return out;
}

// ---------------------------------------------------------------- subsampling

std::vector<double> subsample_keep_probability(const Vocabulary& vocab, double sample) {
  std::vector<double> keep(static_cast<size_t>(vocab.size()), 1.0);
  if (!(sample > 0.0) || vocab.kept_tokens <= 0) return keep;
  const double total = static_cast<double>(vocab.kept_tokens);
  for (int w = 0; w < vocab.size(); ++w) {
    const double f = static_cast<double>(vocab.counts[static_cast<size_t>(w)]) / total;
    if (f > 0.0) keep[static_cast<size_t>(w)] = std::min(1.0, (std::sqrt(f / sample) + 1.0) * sample / f);
  }
  return keep;
}

}  // namespace cilab
