// CSV/TSV loader: delimited text -> Dataset, streaming and bounded.
//
// Lines are read in chunks of up to 1 MiB (never more than max_line_bytes + one chunk held),
// split on the detected delimiter (tab, else semicolon, else comma, else runs
// of spaces), with RFC 4180 quoted fields ("a ""b""") that may not span lines.
// Row 1 is a header when all of it is non-numeric, or when some cell of it is
// non-numeric where row 2 is numeric. The label column is the first header
// named label/class/species/target (any case), else a last column whose first
// data cell is not a number. Label strings map to ids in order of first
// appearance; an all-integer label column maps its sorted distinct values to
// 0..k-1 named by the numbers; an empty label cell is -1 (unlabelled).
// Feature cells must be finite numbers (NaN/Inf rejected). CRLF, a UTF-8 BOM,
// blank lines and '#' comment lines are accepted.
#include "algorithms/data/loaders.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>
#include <map>
#include <string_view>
#include <unordered_map>

namespace cilab {
namespace data_detail {

std::string quoted_text(std::string_view s) {
  std::string out = "'";
  const size_t limit = 40;
  for (size_t i = 0; i < s.size() && i < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 32 && c != 127) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (s.size() > limit) out += "...";
  return out + "'";
}

namespace {

constexpr size_t kChunk = size_t(1) << 20;
// The first read is smaller and each next one doubles up to kChunk: a small file
// does not allocate and zero a whole megabyte (under ASan, libFuzzer ran 17 inputs/s).
constexpr size_t kFirstChunk = size_t(16) << 10;

// Reads lines (without the '\n' and a trailing '\r') in bounded chunks.
class LineReader {
 public:
  LineReader(ByteStream& in, size_t max_line) : in_(in), max_line_(max_line) {}

  // Next physical line; false at the end of the data.
  bool next(std::string_view& line) {
    for (;;) {
      const char* base = buf_.data();
      const void* nl = scan_ < end_ ? std::memchr(base + scan_, '\n', end_ - scan_) : nullptr;
      if (nl) {
        const size_t p = static_cast<size_t>(static_cast<const char*>(nl) - base);
        return emit(p, p + 1, line);
      }
      scan_ = end_;
      if (end_ - start_ > max_line_) too_long();
      if (eof_) {
        if (start_ < end_) return emit(end_, end_, line);
        return false;
      }
      refill();
    }
  }

  uint64_t line_no() const { return line_no_; }
  uint64_t line_offset() const { return line_offset_; }

 private:
  bool emit(size_t stop, size_t resume, std::string_view& line) {
    if (stop - start_ > max_line_) too_long();
    size_t len = stop - start_;
    if (len > 0 && buf_[start_ + len - 1] == '\r') --len;
    line = std::string_view(buf_.data() + start_, len);
    line_offset_ = base_offset_ + start_;
    ++line_no_;
    start_ = resume;
    scan_ = resume;
    return true;
  }

  void refill() {
    if (start_ > 0) {  // compact the unfinished line to the front
      std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
      base_offset_ += start_;
      end_ -= start_;
      scan_ -= start_;
      start_ = 0;
    }
    if (buf_.size() < end_ + chunk_) buf_.resize(end_ + chunk_);
    const size_t got = in_.read(reinterpret_cast<uint8_t*>(buf_.data() + end_), chunk_);
    if (got == 0) eof_ = true;
    end_ += got;
    chunk_ = std::min(kChunk, 2 * chunk_);
  }

  [[noreturn]] void too_long() const {
    throw DataError(in_.path() + ":" + std::to_string(line_no_ + 1) + ":1: line longer than " +
                    human_bytes(max_line_) + " (max_line_bytes): expected a text table, found " +
                    human_bytes(end_ - start_) + " without a line break (line starts at " +
                    in_.where(base_offset_ + start_) +
                    "); try: check this is a CSV/TSV text file, not binary or single-line data");
  }

  ByteStream& in_;
  size_t max_line_;
  std::vector<char> buf_;
  size_t start_ = 0, scan_ = 0, end_ = 0;
  uint64_t base_offset_ = 0;
  uint64_t line_no_ = 0;
  uint64_t line_offset_ = 0;
  size_t chunk_ = kFirstChunk;  // bytes asked of the next read
  bool eof_ = false;
};

using Field = CsvField;

bool is_blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t') return false;
  return true;
}

class CsvParser {
 public:
  CsvParser(ByteStream& in, const LoadOptions& opts)
      : in_(in), path_(in.path()), lines_(in, opts.max_line_bytes) {}

  std::shared_ptr<Dataset> run();

 private:
  friend class data_detail::CsvRecords;
  // Next non-blank, non-comment line split into fields_; false at the end.
  bool next_record(std::vector<Field>& fields, std::string& arena);
  void split(std::string_view line, std::vector<Field>& fields, std::string& arena);
  char detect_delimiter(std::string_view line) const;
  bool parse_number(std::string_view s, double& v) const;
  std::string pos(size_t col) const {
    return path_ + ":" + std::to_string(line_) + ":" + std::to_string(col);
  }
  std::string field_desc(size_t j) const {
    return "field " + std::to_string(j + 1) + " (" + quoted_text(names_[j]) + ")";
  }
  void check_text(std::string_view line) const;

  ByteStream& in_;
  std::string path_;
  LineReader lines_;
  uint64_t line_ = 0;  // current physical line number
  bool first_line_ = true;
  char delim_ = ',';
  bool delim_known_ = false;
  std::vector<std::string> names_;
};

void CsvParser::check_text(std::string_view line) const {
  for (size_t col = 0; col < line.size(); ++col) {
    const unsigned char c = static_cast<unsigned char>(line[col]);
    if (c < 0x09 || (c >= 0x0e && c < 0x20)) {
      char found[8];
      std::snprintf(found, sizeof found, "0x%02x", c);
      throw DataError(path_ + ": " + in_.where(lines_.line_offset() + col) + " (line " +
                      std::to_string(line_) +
                      "): expected text (CSV/TSV), IDX (magic 00 00 08..0E) or gzip data, found "
                      "binary data (control byte " + found +
                      "); try: open a .csv, .tsv, IDX or .gz file");
    }
  }
}

bool CsvParser::next_record(std::vector<Field>& fields, std::string& arena) {
  std::string_view line;
  while (lines_.next(line)) {
    line_ = lines_.line_no();
    if (first_line_) {
      first_line_ = false;
      if (line.size() >= 3 && static_cast<unsigned char>(line[0]) == 0xEF &&
          static_cast<unsigned char>(line[1]) == 0xBB && static_cast<unsigned char>(line[2]) == 0xBF)
        line.remove_prefix(3);  // UTF-8 byte-order mark
    }
    check_text(line);
    if (is_blank(line)) continue;
    size_t k = 0;
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t')) ++k;
    if (line[k] == '#') continue;  // comment
    if (!delim_known_) {
      delim_ = detect_delimiter(line);
      delim_known_ = true;
    }
    split(line, fields, arena);
    return true;
  }
  return false;
}

char CsvParser::detect_delimiter(std::string_view line) const {
  size_t tabs = 0, semis = 0, commas = 0, spaces = 0;
  bool in_quote = false;
  for (char c : line) {
    if (c == '"') in_quote = !in_quote;
    if (in_quote) continue;
    tabs += c == '\t';
    semis += c == ';';
    commas += c == ',';
    spaces += c == ' ';
  }
  if (tabs) return '\t';
  if (semis) return ';';
  if (commas) return ',';
  if (spaces) {
    // Whitespace-separated only if the spaces separate tokens (not just padding).
    std::string_view t = line;
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    if (t.find(' ') != std::string_view::npos) return ' ';
  }
  return ',';
}

void CsvParser::split(std::string_view line, std::vector<Field>& fields, std::string& arena) {
  fields.clear();
  arena.clear();
  arena.reserve(line.size());  // unescaped quoted text never exceeds the line
  const size_t n = line.size();
  auto is_pad = [&](char c) { return c == ' ' || (c == '\t' && delim_ != '\t'); };
  size_t i = 0;
  if (delim_ == ' ')
    while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
  for (;;) {
    while (i < n && is_pad(line[i])) ++i;
    Field f;
    f.col = i + 1;
    if (i < n && line[i] == '"') {
      const size_t open = i;
      const size_t start = arena.size();
      ++i;
      bool closed = false;
      while (i < n) {
        if (line[i] == '"') {
          if (i + 1 < n && line[i + 1] == '"') {
            arena += '"';
            i += 2;
            continue;
          }
          closed = true;
          ++i;
          break;
        }
        arena += line[i++];
      }
      if (!closed)
        throw DataError(pos(open + 1) + ": unterminated quote: expected a closing '\"' for the quote "
                        "opened here, found the end of the line; try: close the quote (a field "
                        "cannot span lines) or remove the stray '\"'");
      while (i < n && is_pad(line[i])) ++i;
      if (i < n && line[i] != delim_)
        throw DataError(pos(i + 1) + ": expected a delimiter '" +
                        std::string(delim_ == '\t' ? "\\t" : std::string(1, delim_)) +
                        "' or the end of the line after a closing quote, found " +
                        quoted_text(line.substr(i, 1)) + "; try: quote the whole field");
      f.text = std::string_view(arena.data() + start, arena.size() - start);
      f.quoted = true;
    } else {
      const size_t start = i;
      if (delim_ == ' ') {
        while (i < n && line[i] != ' ' && line[i] != '\t') ++i;
      } else {
        while (i < n && line[i] != delim_) ++i;
      }
      size_t stop = i;
      while (stop > start && is_pad(line[stop - 1])) --stop;
      f.text = line.substr(start, stop - start);
    }
    fields.push_back(f);
    if (delim_ == ' ') {
      while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i >= n) break;
    } else {
      if (i >= n) break;
      ++i;  // skip the delimiter; a trailing delimiter yields an empty last field
      if (i == n) {
        Field empty;
        empty.col = n + 1;
        fields.push_back(empty);
        break;
      }
    }
  }
}

bool CsvParser::parse_number(std::string_view s, double& v) const {
  if (s.empty()) return false;
  if (s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return false;
  char tmp[64];
  if (delim_ == ';' && s.size() < sizeof tmp && s.find('.') == std::string_view::npos) {
    // Decimal comma, as in semicolon-separated European exports: "1,5".
    const size_t comma = s.find(',');
    if (comma != std::string_view::npos && s.find(',', comma + 1) == std::string_view::npos) {
      std::memcpy(tmp, s.data(), s.size());
      tmp[comma] = '.';
      s = std::string_view(tmp, s.size());
    }
  }
  const char* first = s.data();
  const char* last = s.data() + s.size();
  const std::from_chars_result r = std::from_chars(first, last, v);
  if (r.ec == std::errc::result_out_of_range && r.ptr == last) {
    v = HUGE_VAL;  // reported as "not finite" by the caller
    return true;
  }
  return r.ec == std::errc() && r.ptr == last;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // Shortest form that round-trips (integers print as "3").
  for (int prec = 1; prec <= 17; ++prec) {
    char t[32];
    std::snprintf(t, sizeof t, "%.*g", prec, v);
    if (std::strtod(t, nullptr) == v) return t;
  }
  return buf;
}

std::shared_ptr<Dataset> CsvParser::run() {
  std::vector<Field> f1, f2;
  std::string a1, a2;
  if (!next_record(f1, a1))
    throw DataError(path_ + ": byte 0: empty file: expected a CSV/TSV table (or IDX/gzip data), "
                            "found no data lines; try: choose a file with data rows");
  const uint64_t line1 = line_;
  // Own row 1's text: reading row 2 may move the line buffer under f1's views.
  std::vector<std::string> first_cells;
  for (const Field& f : f1) first_cells.emplace_back(f.text);
  for (size_t j = 0; j < f1.size(); ++j) f1[j].text = first_cells[j];
  const bool have2 = next_record(f2, a2);
  const uint64_t line2 = line_;

  double v = 0.0;
  bool all_non_numeric = true;
  for (const Field& f : f1)
    if (parse_number(f.text, v)) all_non_numeric = false;
  // Header: row 1 all non-numeric, or non-numeric in most columns where row 2 is numeric.
  bool header = all_non_numeric;
  if (!header && have2) {
    size_t numeric2 = 0, text1 = 0;
    for (size_t j = 0; j < f1.size() && j < f2.size(); ++j) {
      if (!parse_number(f2[j].text, v)) continue;
      ++numeric2;
      if (!parse_number(f1[j].text, v)) ++text1;
    }
    header = numeric2 > 0 && 2 * text1 > numeric2;
  }
  const size_t k = f1.size();
  names_.resize(k);
  for (size_t j = 0; j < k; ++j) {
    names_[j] = header ? first_cells[j] : std::string();
    if (names_[j].empty()) names_[j] = "x" + std::to_string(j);
  }
  if (header) {
    std::map<std::string, size_t> seen;
    for (size_t j = 0; j < k; ++j) {
      auto [it, inserted] = seen.emplace(names_[j], j);
      if (!inserted)
        throw DataError(path_ + ":" + std::to_string(line1) + ":" + std::to_string(f1[j].col) +
                        ": duplicate column name: expected distinct header names, found " +
                        quoted_text(names_[j]) + " in fields " + std::to_string(it->second + 1) + " and " +
                        std::to_string(j + 1) + "; try: rename one of the columns");
    }
    if (!have2)
      throw DataError(path_ + ":" + std::to_string(line1 + 1) +
                      ":1: header only: expected data rows after the header line, found the end "
                      "of the file; try: add data rows below the header");
  }

  // The label column.
  int label_col = -1;
  if (header) {
    for (size_t j = 0; j < k && label_col < 0; ++j) {
      const std::string n = lower(names_[j]);
      if (n == "label" || n == "class" || n == "species" || n == "target") label_col = static_cast<int>(j);
    }
  }
  const std::vector<Field>& first_data = header ? f2 : f1;
  if (label_col < 0 && !first_data.empty() && first_data.size() == k &&
      !parse_number(first_data.back().text, v) && !first_data.back().text.empty())
    label_col = static_cast<int>(k) - 1;
  if (label_col >= 0 && k == 1)
    throw DataError(path_ + ":" + std::to_string(line1) +
                    ":1: only a label column: expected numeric feature columns besides the "
                    "label " + quoted_text(names_[0]) + ", found a single column; try: add the feature columns");

  const size_t nfeat = k - (label_col >= 0 ? 1 : 0);
  std::vector<double> values;  // row-major features
  std::vector<std::string> label_text;
  std::vector<int> label_ids;
  std::unordered_map<std::string, int> label_index;
  std::vector<double> label_num;
  bool labels_numeric = true, labels_integer = true;
  size_t rows = 0;

  auto take_row = [&](const std::vector<Field>& f, uint64_t line) {
    line_ = line;
    if (rows >= static_cast<size_t>(INT_MAX))
      throw DataError(pos(1) + ": expected at most " + std::to_string(INT_MAX) +
                      " rows, found more; try: split the file");
    if (f.size() != k)
      throw DataError(path_ + ":" + std::to_string(line) + ":1: ragged row: expected " +
                      std::to_string(k) + " fields (as in line " + std::to_string(line1) +
                      "), found " + std::to_string(f.size()) +
                      "; try: check for a missing or extra delimiter, or quote fields that "
                      "contain the delimiter");
    for (size_t j = 0; j < k; ++j) {
      const std::string_view t = f[j].text;
      if (static_cast<int>(j) == label_col) {
        if (t.empty()) {
          label_ids.push_back(-1);
          label_num.push_back(0.0);
          continue;
        }
        auto [it, inserted] = label_index.emplace(std::string(t), static_cast<int>(label_text.size()));
        if (inserted) label_text.emplace_back(t);
        label_ids.push_back(it->second);
        double lv = 0.0;
        if (labels_numeric && parse_number(t, lv) && std::isfinite(lv)) {
          if (lv != std::floor(lv) || std::fabs(lv) > 1e9) labels_integer = false;
        } else {
          labels_numeric = false;
        }
        label_num.push_back(lv);
        continue;
      }
      double x = 0.0;
      if (!parse_number(t, x)) {
        const std::string found = t.empty() ? std::string("an empty field") : quoted_text(t);
        throw DataError(pos(f[j].col) + ": " + field_desc(j) + ": expected a number, found " +
                        found + "; try: fix the cell" +
                        (t.empty() ? std::string(" or remove the row (missing values are not supported)")
                                   : std::string(", or name the column 'label' (or put it last) if "
                                                 "it holds class names")));
      }
      if (!std::isfinite(x))
        throw DataError(pos(f[j].col) + ": " + field_desc(j) + ": expected a finite number, found " +
                        quoted_text(t) + "; try: remove or impute the rows with missing or infinite values");
      values.push_back(x);
    }
    ++rows;
  };

  if (header) {
    take_row(f2, line2);
  } else {
    take_row(f1, line1);
    if (have2) take_row(f2, line2);
  }
  std::vector<Field> f;
  std::string arena;
  while (next_record(f, arena)) take_row(f, line_);

  auto data = std::make_shared<Dataset>();
  const Eigen::Index n = static_cast<Eigen::Index>(rows);
  bool label_as_feature = label_col >= 0 && labels_numeric && !labels_integer;
  const size_t d = nfeat + (label_as_feature ? 1 : 0);
  data->x.resize(n, static_cast<Eigen::Index>(d));
  for (Eigen::Index i = 0; i < n; ++i) {
    const double* row = values.data() + static_cast<size_t>(i) * nfeat;
    for (size_t j = 0; j < nfeat; ++j) data->x(i, static_cast<Eigen::Index>(j)) = row[j];
    if (label_as_feature) data->x(i, static_cast<Eigen::Index>(nfeat)) = label_num[static_cast<size_t>(i)];
  }
  for (size_t j = 0; j < k; ++j)
    if (static_cast<int>(j) != label_col) data->column_names.push_back(names_[j]);
  std::string note;
  // A numeric label column is also a regression target (the mlp regresses on it).
  if (label_col >= 0 && labels_numeric) {
    bool all_present = true;
    for (int id : label_ids) all_present = all_present && id >= 0;
    if (all_present) {
      data->target = label_num;
      data->target_name = names_[static_cast<size_t>(label_col)];
    }
  }
  if (label_as_feature) {
    data->column_names.push_back(names_[static_cast<size_t>(label_col)]);
    note = "; column " + quoted_text(names_[static_cast<size_t>(label_col)]) +
           " has non-integer numbers, kept as a feature";
  } else if (label_col >= 0) {
    if (labels_numeric) {
      // Integer class ids: sorted distinct values -> 0..k-1, named by the numbers.
      std::vector<double> distinct;
      for (size_t i = 0; i < label_ids.size(); ++i)
        if (label_ids[i] >= 0) distinct.push_back(label_num[i]);
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      data->labels.resize(label_ids.size());
      for (size_t i = 0; i < label_ids.size(); ++i) {
        data->labels[i] = label_ids[i] < 0
                              ? -1
                              : static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(),
                                                                  label_num[i]) -
                                                 distinct.begin());
      }
      for (double c : distinct) data->class_names.push_back(format_number(c));
    } else {
      data->labels = std::move(label_ids);
      data->class_names = std::move(label_text);
    }
    note = "; labels from column " + quoted_text(names_[static_cast<size_t>(label_col)]);
  }
  data->name = file_stem(path_);
  const char* dname = delim_ == '\t' ? "tab" : delim_ == ';' ? "semicolon" : delim_ == ' ' ? "space" : "comma";
  data->source = path_ + " (" + std::string(dname) + "-separated" + (header ? ", header" : ", no header") +
                 (in_.gzip() ? ", gzip" : "") + note + ")";
  return data;
}

}  // namespace

std::shared_ptr<Dataset> load_csv(ByteStream& in, const LoadOptions& opts) {
  CsvParser parser(in, opts);
  return parser.run();
}

struct CsvRecords::Impl {
  Impl(ByteStream& in, const LoadOptions& opts) : parser(in, opts) {}
  CsvParser parser;
  std::string arena;
};

CsvRecords::CsvRecords(ByteStream& in, const LoadOptions& opts) : impl_(std::make_unique<Impl>(in, opts)) {}
CsvRecords::~CsvRecords() = default;
bool CsvRecords::next(std::vector<CsvField>& fields) { return impl_->parser.next_record(fields, impl_->arena); }
uint64_t CsvRecords::line() const { return impl_->parser.line_; }
char CsvRecords::delimiter() const { return impl_->parser.delim_; }
bool CsvRecords::parse_number(std::string_view s, double& v) const { return impl_->parser.parse_number(s, v); }

}  // namespace data_detail
}  // namespace cilab
