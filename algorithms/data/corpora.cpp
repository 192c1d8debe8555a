// Text corpora (corpora.h): the fortune cookies, the GCIDE dictionary, the
// user's own text and a tiny generated corpus, each read into a TextCorpus
// through the CorpusBuilder of algorithms/text/text.h.
#include "algorithms/data/corpora.h"
#include "algorithms/core/progress.h"

#include "algorithms/core/rng.h"
#include "algorithms/data/byte_stream.h"
#include "algorithms/text/text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <new>
#include <string_view>
#include <system_error>
#include <utility>

namespace cilab {

namespace fs = std::filesystem;
using data_detail::ByteStream;

namespace {

constexpr size_t kChunk = size_t(1) << 20;
// Documents longer than this keep no copy of their text (TextCorpus::doc_text).
constexpr size_t kMaxKeptText = size_t(64) << 10;

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : std::string(fallback);
}

// The whole (gunzipped) content of `path`, at most opts.max_file_bytes, refused
// when it looks binary or holds a line longer than opts.max_line_bytes.
std::string read_text_file(const std::string& path, const LoadOptions& opts) {
  ByteStream in(path, opts.max_file_bytes);
  const std::vector<uint8_t>& head = in.peek(2);
  if (head.size() >= 2 && ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF)))
    throw DataError(path + ": byte 0: expected UTF-8 or ASCII text, found a UTF-16 byte-order mark; try: save "
                           "the file as UTF-8 text");
  std::string text;
  if (!in.gzip()) text.reserve(static_cast<size_t>(std::min<uint64_t>(in.file_size(), opts.max_file_bytes)));
  std::vector<uint8_t> buf(size_t(64) << 10);
  for (size_t got; (got = in.read(buf.data(), buf.size())) > 0;) text.append(reinterpret_cast<const char*>(buf.data()), got);
  const char* nul = static_cast<const char*>(std::memchr(text.data(), 0, text.size()));
  if (nul || looks_binary(text))
    throw DataError(path + ": " + in.where(nul ? static_cast<uint64_t>(nul - text.data()) : 0) +
                    ": expected text (one document per file, or documents split by blank lines), found binary "
                    "data (" + (nul ? std::string("a NUL byte") : std::string("more than 10 % control bytes")) +
                    "); try: a plain-text (.txt) file");
  size_t line_start = 0;
  uint64_t line = 1;
  while (line_start <= text.size()) {
    const char* nl = static_cast<const char*>(std::memchr(text.data() + line_start, '\n', text.size() - line_start));
    const size_t end = nl ? static_cast<size_t>(nl - text.data()) : text.size();
    if (end - line_start > opts.max_line_bytes)
      throw DataError(path + ": line " + std::to_string(line) + ": expected lines of at most " +
                      data_detail::human_bytes(opts.max_line_bytes) + ", found a longer one; try: break the text "
                      "into lines or paragraphs");
    if (!nl) break;
    line_start = end + 1;
    ++line;
  }
  return text;
}

bool is_blank(std::string_view line) {
  for (const char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\n') return false;
  return true;
}

// Applies terminal overstrikes: a backspace erases the byte before it, so
// "___\b\b\band" (an underlined "and") reads "and".
std::string apply_overstrikes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    if (c == '\b') {
      if (!out.empty()) out.pop_back();
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string trim_blank_lines(std::string s) {
  size_t a = 0;
  while (a < s.size() && (s[a] == '\n' || s[a] == '\r')) ++a;
  size_t b = s.size();
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool has_letter(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80; });
}

// Shares a loaded corpus while anyone holds it (GCIDE takes a second or two).
std::shared_ptr<const TextCorpus> cached(const std::string& key,
                                         const std::function<std::shared_ptr<const TextCorpus>()>& load) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const TextCorpus>> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = cache.find(key);
    if (it != cache.end())
      if (std::shared_ptr<const TextCorpus> hit = it->second.lock()) return hit;
  }
  std::shared_ptr<const TextCorpus> out = load();
  std::lock_guard<std::mutex> lock(mutex);
  cache[key] = out;
  return out;
}

// ---------------------------------------------------------------- fortunes

struct Fortune {
  int file;
  int number;  // 1-based within its file
  std::string text;
};

// Which of `all` (grouped by file, in file order) to keep for at most
// `max_docs` documents (0 = all): when max_docs >= the number of files, each
// file keeps at least one and the rest is shared in proportion to the files'
// sizes (largest remainders); each file's picks are evenly spaced in it.
std::vector<size_t> spread_picks(const std::vector<Fortune>& all, size_t files, int max_docs) {
  std::vector<size_t> picks;
  const size_t total = all.size();
  if (max_docs <= 0 || static_cast<size_t>(max_docs) >= total) {
    for (size_t i = 0; i < total; ++i) picks.push_back(i);
    return picks;
  }
  const size_t keep = static_cast<size_t>(max_docs);
  std::vector<size_t> first(files, 0), size(files, 0);  // each file's first fortune and count
  for (const Fortune& f : all) ++size[static_cast<size_t>(f.file)];
  for (size_t f = 1; f < files; ++f) first[f] = first[f - 1] + size[f - 1];
  std::vector<size_t> quota(files, 0);
  size_t base = 0;
  if (keep >= files)
    for (size_t f = 0; f < files; ++f)
      if (size[f] > 0) quota[f] = 1, ++base;
  // The remaining picks in proportion to what is left of each file.
  const size_t rest = keep - base, pool = total - base;
  std::vector<std::pair<double, size_t>> remainder;
  size_t given = base;
  for (size_t f = 0; f < files; ++f) {
    const double share = static_cast<double>(rest) * static_cast<double>(size[f] - quota[f]) / static_cast<double>(pool);
    const size_t whole = static_cast<size_t>(share);
    quota[f] += whole;
    given += whole;
    remainder.push_back({share - static_cast<double>(whole), f});
  }
  std::stable_sort(remainder.begin(), remainder.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t r = 0; given < keep && r < remainder.size(); ++r)
    if (quota[remainder[r].second] < size[remainder[r].second]) ++quota[remainder[r].second], ++given;
  for (size_t f = 0; f < files; ++f)
    for (size_t j = 0; j < quota[f]; ++j) picks.push_back(first[f] + j * size[f] / quota[f]);
  return picks;
}

// ---------------------------------------------------------------- GCIDE

// GCIDE's character entities: "[a^]", "['e]", "[imac]" ... The letters of
// most of them are kept (so "C[oe]lenterata" reads "Coelenterata"); these
// stand for other letters or for symbols.
const char* gcide_entity(std::string_view name) {
  static const std::pair<const char*, const char*> kEntities[] = {
      {"imac", "i"},  {"aum", "a"},   {"asl", "a"},   {"udd", "u"},    {"eth", "th"},   {"thorn", "th"},
      {"yogh", "gh"}, {"dsdot", "d"}, {"zdot", "z"},  {"root", " "},   {"add", " "},    {"deg", " "},
      {"sect", " "},  {"bar", " "},   {"bprime", " "}, {"rarr", " "},  {"middot", " "}, {"nbsp", " "},
      {"cuberoot", " "}, {"div", " "}, {"divby", " "}, {"dagger", " "}, {"dag", " "},    {"ldqo", " "},
      {"rdqo", " "},  {"pounds", " "}, {"para", " "}, {"sec", " "},    {"min", " "},    {"flat", " "},
      {"sharp", " "}, {"crescent", " "}, {"break", " "}, {"times", " "}, {"hand", " "}, {"asper", " "}};
  for (const auto& e : kEntities)
    if (name == e.first) return e.second;
  return nullptr;
}

bool is_source_note(std::string_view s) {
  return s.find("Webster") != std::string_view::npos || s.find("WordNet") != std::string_view::npos ||
         s.find("PJC") != std::string_view::npos;
}

// One dictionary entry's text, cleaned for tokenising: pronunciations
// \Ab*bey\ and the respelling in parentheses right after one removed, source
// notes "[1913 Webster]" removed (with the next headword that the dictd
// conversion leaves on an entry's last line), character entities "[a^]"
// replaced by their letters.
void clean_gcide_entry(std::string_view in, std::string& out) {
  out.clear();
  const size_t n = in.size();
  size_t i = 0;
  auto last_line_of_entry = [&](size_t from) {
    const size_t nl = in.find('\n', from);
    if (nl == std::string_view::npos) return true;
    return is_blank(in.substr(nl));
  };
  while (i < n) {
    const char c = in[i];
    if (c == '\\') {
      const size_t close = in.find('\\', i + 1);
      if (close == std::string_view::npos || close - i > 160) {
        out.push_back(' ');
        ++i;
        continue;
      }
      out.push_back(' ');
      i = close + 1;
      // A respelling right after: "(b[.a]*n[aum]"n[.a])".
      size_t j = i;
      while (j < n && (in[j] == ' ' || in[j] == '\n' || in[j] == '\t')) ++j;
      if (j < n && in[j] == '(') {
        const size_t shut = in.find(')', j);
        if (shut != std::string_view::npos && shut - j < 160) {
          const std::string_view inside = in.substr(j, shut - j);
          if (inside.find_first_of("[*\"`'") != std::string_view::npos) i = shut + 1;
        }
      }
      continue;
    }
    if (c == '[') {
      const size_t close = in.find_first_of("[]\n", i + 1);
      if (close == std::string_view::npos || in[close] != ']') {
        out.push_back(' ');
        ++i;
        continue;
      }
      const std::string_view inside = in.substr(i + 1, close - i - 1);
      if (is_source_note(inside)) {
        i = close + 1;
        if (last_line_of_entry(i)) {  // drop the next headword left on the line
          const size_t nl = in.find('\n', i);
          i = nl == std::string_view::npos ? n : nl;
        }
        out.push_back(' ');
        continue;
      }
      if (!inside.empty() && inside.size() <= 8 && inside.find(' ') == std::string_view::npos) {
        if (const char* e = gcide_entity(inside)) {
          out += e;
        } else {
          for (const char l : inside)
            if (std::isalpha(static_cast<unsigned char>(l))) out.push_back(l);
        }
        i = close + 1;
        continue;
      }
      out.push_back(' ');  // an etymology or a usage note: its words stay
      ++i;
      continue;
    }
    out.push_back(c);
    ++i;
  }
}

// A headword line: "word \pron\ ..." (a non-blank first character and a
// backslash pair on the line).
bool looks_like_headword(std::string_view line) {
  const size_t a = line.find('\\');
  return a != std::string_view::npos && a > 0 && line.find('\\', a + 1) != std::string_view::npos;
}

std::shared_ptr<const TextCorpus> read_gcide(const std::string& path, int64_t max_tokens) {
  ByteStream in(path, size_t(1) << 32);
  CorpusBuilder builder("dictionary");
  std::string entry, cleaned, pending;
  bool started = false;     // past the database's own entries and the licence
  bool skipping = false;    // inside a 00-database-* entry
  bool prev_blank = true;
  bool done = false;        // max_tokens reached
  uint64_t line_no = 0, binary_checked = 0;
  auto flush = [&] {
    if (!entry.empty() && !skipping && !done) {
      clean_gcide_entry(entry, cleaned);
      builder.add_document(cleaned);
      done = max_tokens > 0 && builder.tokens() >= max_tokens;
    }
    entry.clear();
  };
  auto on_line = [&](std::string_view line) {
    ++line_no;
    if (done) return;
    const bool blank = is_blank(line);
    // An entry starts at a line that is not indented after a blank line; the
    // first headword follows the licence's last line directly.
    const bool starts_entry = !blank && line[0] != ' ' && line[0] != '\t' &&
                              (prev_blank || (!started && looks_like_headword(line)));
    prev_blank = blank;
    if (starts_entry) {
      flush();
      skipping = line.rfind("00-database-", 0) == 0 || line.rfind("00-gcide-", 0) == 0 ||
                 line.rfind("00-web1913-", 0) == 0;
      if (!started && !skipping && looks_like_headword(line)) started = true;
    }
    if (!started || skipping) return;
    entry.append(line.data(), line.size());
    entry.push_back('\n');
  };
  std::vector<uint8_t> buf(kChunk);
  while (!done) {
    if (progress_wanted())
      report_progress("reading the GCIDE dictionary: " + std::to_string(builder.tokens() / 1000) + "k words",
                      max_tokens > 0 ? static_cast<double>(builder.tokens()) / static_cast<double>(max_tokens) : -1.0);
    const size_t got = in.read(buf.data(), buf.size());
    if (got == 0) break;
    const std::string_view chunk(reinterpret_cast<const char*>(buf.data()), got);
    if (binary_checked < 4 * kChunk) {
      binary_checked += got;
      if (chunk.find('\0') != std::string_view::npos || looks_binary(chunk))
        throw DataError(path + ": " + in.where(in.offset() - got) +
                        ": expected the GCIDE dictionary's text (dictd format), found binary data; try: reinstall "
                        "dict-gcide, or point CILAB_GCIDE_PATH at gcide.dict.dz");
    }
    size_t a = 0;
    while (a < chunk.size() && !done) {
      const size_t nl = chunk.find('\n', a);
      if (nl == std::string_view::npos) {
        pending.append(chunk.substr(a));
        if (pending.size() > (size_t(1) << 20))
          throw DataError(path + ": line " + std::to_string(line_no + 1) +
                          ": expected dictionary lines, found a line over 1 MiB; try: reinstall dict-gcide");
        break;
      }
      if (pending.empty()) {
        on_line(chunk.substr(a, nl - a));
      } else {
        pending.append(chunk.substr(a, nl - a));
        on_line(pending);
        pending.clear();
      }
      a = nl + 1;
    }
  }
  if (!pending.empty()) on_line(pending);
  flush();
  if (builder.docs() == 0)
    throw DataError(path + ": expected dictionary entries (a headword line \"word \\pron\\ ...\" then its "
                    "indented definition), found none; try: reinstall dict-gcide, or point CILAB_GCIDE_PATH at "
                    "gcide.dict.dz");
  return builder.finish();
}

// ---------------------------------------------------------------- tiny corpus

// "wa", "wb", ... "wz" for up to 26 words, "waa", "wab", ... beyond: letters only.
std::string tiny_word(int w, int width) {
  std::string s(static_cast<size_t>(width) + 1, 'a');
  s[0] = 'w';
  for (int k = width; k >= 1; --k, w /= 26) s[static_cast<size_t>(k)] = static_cast<char>('a' + w % 26);
  return s;
}

std::string count_text(double v) {
  char buf[32];
  if (v < 10000)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (v < 1e6)
    std::snprintf(buf, sizeof buf, "%.0f k", v / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.1f M", v / 1e6);
  return buf;
}

}  // namespace

std::string fortunes_dir() { return env_or("CILAB_FORTUNES_DIR", "/usr/share/games/fortunes"); }

std::string gcide_path() { return env_or("CILAB_GCIDE_PATH", "/usr/share/dictd/gcide.dict.dz"); }

std::shared_ptr<const TextCorpus> load_fortunes(int max_docs) {
  const std::string dir = fortunes_dir();
  const std::string install = "; try: install it: sudo apt install fortunes (or set CILAB_FORTUNES_DIR to a folder of "
                              "fortune files with their .dat indexes)";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw DataError(dir + ": the fortunes were not found: expected the folder of the Debian package fortunes, found "
                    "no such folder" + install);
  std::vector<std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.' || e.path().extension() == ".dat") continue;
    std::error_code ec2;
    if (fs::is_regular_file(e.path(), ec2) && fs::exists(e.path().string() + ".dat", ec2)) files.push_back(name);
  }
  if (ec) throw DataError(dir + ": cannot list the folder: " + ec.message() + install);
  if (files.empty())
    throw DataError(dir + ": expected fortune files (each with a sibling NAME.dat index), found none" + install);
  std::sort(files.begin(), files.end());

  return cached("fortunes#" + dir + "#" + std::to_string(std::max(0, max_docs)), [&] {
    std::vector<Fortune> all;
    LoadOptions opts;
    for (size_t f = 0; f < files.size(); ++f) {
      const std::string path = (fs::path(dir) / files[f]).string();
      const std::string text = read_text_file(path, opts);
      int number = 0;
      std::string current;
      auto end_fortune = [&] {
        ++number;
        std::string t = trim_blank_lines(apply_overstrikes(current));
        current.clear();
        if (has_letter(t)) all.push_back({static_cast<int>(f), number, std::move(t)});
      };
      size_t a = 0;
      while (a < text.size()) {
        size_t nl = text.find('\n', a);
        if (nl == std::string::npos) nl = text.size();
        std::string_view line(text.data() + a, nl - a);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line == "%") {
          end_fortune();
        } else {
          current.append(line.data(), line.size());
          current.push_back('\n');
        }
        a = nl + 1;
      }
      if (has_letter(current)) end_fortune();
    }
    if (all.empty())
      throw DataError(dir + ": expected fortunes split by lines holding only %, found no text" + install);
    const std::vector<size_t> picks = spread_picks(all, files.size(), max_docs);
    CorpusBuilder builder("fortunes");
    for (const std::string& f : files) builder.label(f);  // every category, in file order
    for (const size_t i : picks) {
      const Fortune& f = all[i];
      builder.add_document(f.text, f.file, files[static_cast<size_t>(f.file)] + " #" + std::to_string(f.number),
                           f.text.size() <= kMaxKeptText);
    }
    return std::shared_ptr<const TextCorpus>(builder.finish());
  });
}

std::shared_ptr<const TextCorpus> load_gcide(int64_t max_tokens) {
  const std::string path = gcide_path();
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw DataError(path + ": the GCIDE dictionary was not found: expected the file of the Debian package "
                    "dict-gcide, found no such file; try: install it: sudo apt install dict-gcide (or set "
                    "CILAB_GCIDE_PATH to gcide.dict.dz or a plain-text copy)");
  const int64_t cap = std::max<int64_t>(0, max_tokens);
  return cached("gcide#" + path + "#" + std::to_string(cap), [&] {
    try {
      return read_gcide(path, cap);
    } catch (const std::bad_alloc&) {
      throw DataError(path + ": out of memory reading the dictionary; try: the option tokens=1000000");
    }
  });
}

std::shared_ptr<const TextCorpus> load_text(const std::string& path, const LoadOptions& opts) {
  std::error_code ec;
  if (path.empty()) throw DataError("(empty path): expected a text file or a folder of .txt files, found an empty "
                                    "string; try: choose a file or a folder");
  CorpusBuilder builder("text");
  try {
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> files;
      for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
        const std::string name = e.path().filename().string();
        std::string low = name;
        for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const bool txt = (low.size() > 4 && low.compare(low.size() - 4, 4, ".txt") == 0) ||
                         (low.size() > 7 && low.compare(low.size() - 7, 7, ".txt.gz") == 0);
        std::error_code ec2;
        if (txt && name[0] != '.' && fs::is_regular_file(e.path(), ec2)) files.push_back(e.path());
      }
      if (ec)
        throw DataError(path + ": cannot list the folder: " + ec.message() + "; try: check its permissions");
      if (files.empty())
        throw DataError(path + ": expected a folder of .txt files (one document each), found no .txt file; try: "
                               "put the documents in NAME.txt files, or choose one text file split by blank lines");
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        const std::string text = read_text_file(f.string(), opts);
        builder.add_document(text, -1, f.filename().string(), text.size() <= kMaxKeptText);
      }
    } else {
      const std::string text = read_text_file(path, opts);
      const std::string stem = data_detail::file_stem(path);
      // Paragraphs: runs of non-blank lines.
      size_t a = 0, para_start = std::string::npos;
      int number = 0;
      auto end_paragraph = [&](size_t end) {
        if (para_start == std::string::npos) return;
        const std::string_view p(text.data() + para_start, end - para_start);
        ++number;
        builder.add_document(p, -1, stem + " #" + std::to_string(number), p.size() <= kMaxKeptText);
        para_start = std::string::npos;
      };
      while (a < text.size()) {
        size_t nl = text.find('\n', a);
        if (nl == std::string::npos) nl = text.size();
        if (is_blank(std::string_view(text.data() + a, nl - a)))
          end_paragraph(a);
        else if (para_start == std::string::npos)
          para_start = a;
        a = nl + 1;
      }
      end_paragraph(text.size());
    }
  } catch (const std::bad_alloc&) {
    throw DataError(path + ": out of memory while loading the text; try: fewer or smaller documents");
  }
  if (builder.tokens() == 0)
    throw DataError(path + ": expected text with words (runs of letters a-z), found none; try: a file or folder "
                           "of English text");
  return builder.finish();
}

std::shared_ptr<const TextCorpus> tiny_corpus(const TinyTextSpec& spec) {
  if (spec.words < 2 || spec.words > 26 * 26 * 26 || spec.docs < 1 || spec.length < 1)
    throw DataError("tiny-text: expected words in [2, 17576], docs >= 1 and length >= 1, found words=" +
                    std::to_string(spec.words) + ", docs=" + std::to_string(spec.docs) + ", length=" +
                    std::to_string(spec.length) + "; try: tiny-text:words=12,docs=200,length=30");
  int width = 1;
  for (int cap = 26; cap < spec.words; cap *= 26) ++width;
  std::vector<std::string> names;
  for (int w = 0; w < spec.words; ++w) names.push_back(tiny_word(w, width));
  Rng rng(spec.seed);
  // Each word has one strong successor (a random permutation): it follows with
  // probability 1/2, otherwise the next word is uniform.
  std::vector<int> successor(static_cast<size_t>(spec.words));
  for (int w = 0; w < spec.words; ++w) successor[static_cast<size_t>(w)] = w;
  for (size_t i = successor.size(); i > 1; --i) std::swap(successor[i - 1], successor[rng.below(i)]);
  CorpusBuilder builder("generated");
  std::string text;
  for (int d = 0; d < spec.docs; ++d) {
    text.clear();
    int w = static_cast<int>(rng.below(static_cast<uint64_t>(spec.words)));
    for (int t = 0; t < spec.length; ++t) {
      text += names[static_cast<size_t>(w)];
      text += ' ';
      w = rng.uniform() < 0.5 ? successor[static_cast<size_t>(w)]
                              : static_cast<int>(rng.below(static_cast<uint64_t>(spec.words)));
    }
    builder.add_document(text);
  }
  return builder.finish();
}

std::shared_ptr<const Dataset> text_dataset(std::shared_ptr<const TextCorpus> corpus, std::string name,
                                            std::string source) {
  auto d = std::make_shared<Dataset>();
  d->class_names = corpus->label_names;
  d->name = std::move(name);
  d->source = std::move(source);
  d->text = std::move(corpus);
  return d;
}

std::string describe_corpus(const TextCorpus& c, const std::string& name) {
  std::string s = (name.empty() ? std::string("text") : name) + ": " + std::to_string(c.docs()) +
                  (c.docs() == 1 ? " document" : " documents");
  if (c.has_labels())
    s += ", " + std::to_string(c.label_names.size()) + (c.label_names.size() == 1 ? " category" : " categories");
  s += ", " + count_text(static_cast<double>(c.size())) + " tokens, " + count_text(c.raw_vocabulary()) +
       " word types";
  return s;
}

}  // namespace cilab
