// Partially observed matrices: the synthetic ratings generator, holes in a
// picture, and the ratings-file reader (triplets or a wide matrix).
#include "algorithms/data/ratings.h"

#include "algorithms/core/rng.h"
#include "algorithms/data/byte_stream.h"
#include "algorithms/data/loaders.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <unordered_map>

namespace cilab {

using data_detail::ByteStream;
using data_detail::CsvField;
using data_detail::CsvRecords;
using data_detail::file_stem;

namespace {

constexpr double kMaxEntries = 2.5e7;  // m * n cap: the truth and the masks stay below 200 MB

const char* const kGenreNames[] = {"Action", "Comedy", "Drama",     "Romance",  "Sci-Fi",  "Horror",
                                   "Documentary", "Animation", "Thriller", "Western", "Musical", "Crime"};
constexpr int kMaxGenres = static_cast<int>(sizeof kGenreNames / sizeof kGenreNames[0]);

std::string gfmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Marks `count` of `total` positions, uniformly without replacement (rejection
// on the smaller of the chosen set and its complement, so it stays fast near 1).
std::vector<uint8_t> choose(uint64_t total, uint64_t count, Rng& rng) {
  const bool complement = count > total / 2;
  const uint64_t draw = complement ? total - count : count;
  std::vector<uint8_t> mark(static_cast<size_t>(total), complement ? 1 : 0);
  for (uint64_t got = 0; got < draw;) {
    const size_t e = static_cast<size_t>(rng.below(total));
    if (mark[e] == (complement ? 1 : 0)) {
      mark[e] = complement ? 0 : 1;
      ++got;
    }
  }
  return mark;
}

bool is_missing_marker(std::string_view s) {
  if (s.empty()) return true;
  std::string t(s);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t == "na" || t == "nan" || t == "?" || t == "n/a" || t == "null";
}

bool is_integer_id(const std::string& s, long long& v) {
  if (s.empty() || s.size() > 18) return false;
  char* end = nullptr;
  v = std::strtoll(s.c_str(), &end, 10);
  return end && *end == '\0';
}

// Maps ids (in first-appearance order) to their final index: numeric order when
// every id is an integer, else first appearance.
std::vector<int> id_order(const std::vector<std::string>& ids) {
  std::vector<int> perm(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) perm[i] = static_cast<int>(i);
  std::vector<long long> num(ids.size());
  bool numeric = true;
  for (size_t i = 0; i < ids.size() && numeric; ++i) numeric = is_integer_id(ids[i], num[i]);
  if (numeric)
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return num[static_cast<size_t>(a)] < num[static_cast<size_t>(b)]; });
  std::vector<int> rank(ids.size());
  for (size_t r = 0; r < perm.size(); ++r) rank[static_cast<size_t>(perm[r])] = static_cast<int>(r);
  return rank;
}

struct Entry {
  int row, col;
  double value;
  uint64_t line;
};

// Sorts entries by (row, col), rejects duplicates (naming both lines) and fills `m`.
void fill_entries(std::vector<Entry>& entries, const std::string& path, ObservedMatrix& m) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.row != b.row ? a.row < b.row : a.col != b.col ? a.col < b.col : a.line < b.line;
  });
  for (size_t e = 1; e < entries.size(); ++e)
    if (entries[e].row == entries[e - 1].row && entries[e].col == entries[e - 1].col) {
      const std::string u = m.row_ids.empty() ? std::to_string(entries[e].row) : m.row_ids[static_cast<size_t>(entries[e].row)];
      const std::string i = m.col_ids.empty() ? std::to_string(entries[e].col) : m.col_ids[static_cast<size_t>(entries[e].col)];
      throw DataError(path + ":" + std::to_string(entries[e].line) + ":1: duplicate rating: expected each (" +
                      m.row_kind + ", " + m.col_kind + ") pair once, found " + m.row_kind + " " + data_detail::quoted_text(u) + " and " +
                      m.col_kind + " " + data_detail::quoted_text(i) + " again (first on line " + std::to_string(entries[e - 1].line) +
                      "); try: remove or average the duplicate lines");
    }
  m.row.resize(entries.size());
  m.col.resize(entries.size());
  m.value.resize(entries.size());
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (size_t e = 0; e < entries.size(); ++e) {
    m.row[e] = entries[e].row;
    m.col[e] = entries[e].col;
    m.value[e] = entries[e].value;
    lo = std::min(lo, entries[e].value);
    hi = std::max(hi, entries[e].value);
  }
  m.value_min = lo;
  m.value_max = hi;
}

std::shared_ptr<const Dataset> read_triplets(ByteStream& in, const LoadOptions& opts) {
  const std::string& path = in.path();
  CsvRecords rec(in, opts);
  std::vector<CsvField> f;
  std::unordered_map<std::string, int> users, items;
  std::vector<std::string> user_ids, item_ids;
  std::vector<Entry> entries;
  bool first = true, header = false;
  double v = 0;
  while (rec.next(f)) {
    const uint64_t line = rec.line();
    if (f.size() < 3) {
      if (first && f.size() < 3)
        throw DataError(path + ":" + std::to_string(line) + ":1: expected ratings triplets user,item,rating (" +
                        "comma, semicolon, tab or space separated), found " + std::to_string(f.size()) +
                        (f.size() == 1 ? " field" : " fields") +
                        "; try: a file such as MovieLens's u.data, or --layout wide for a matrix with empty cells");
      throw DataError(path + ":" + std::to_string(line) + ":" + std::to_string(f.back().col) +
                      ": expected 3 fields user,item,rating, found " + std::to_string(f.size()) +
                      "; try: complete or delete this line");
    }
    if (first) {
      first = false;
      if (!rec.parse_number(f[2].text, v)) {
        header = true;  // "user,item,rating" or "userId,movieId,rating,timestamp"
        continue;
      }
    }
    if (f[0].text.empty() || f[1].text.empty())
      throw DataError(path + ":" + std::to_string(line) + ":" + std::to_string(f[0].text.empty() ? f[0].col : f[1].col) +
                      ": expected a user id and an item id, found an empty field; try: fill in the id or delete the line");
    if (!rec.parse_number(f[2].text, v))
      throw DataError(path + ":" + std::to_string(line) + ":" + std::to_string(f[2].col) +
                      ": expected a numeric rating in field 3, found " + data_detail::quoted_text(f[2].text) +
                      "; try: a number such as 4 or 3.5 (the fields are user,item,rating)");
    if (!std::isfinite(v))
      throw DataError(path + ":" + std::to_string(line) + ":" + std::to_string(f[2].col) +
                      ": expected a finite rating, found " + data_detail::quoted_text(f[2].text) + "; try: a number such as 4");
    auto index_of = [](std::unordered_map<std::string, int>& map, std::vector<std::string>& ids, std::string_view t) {
      auto [it, inserted] = map.emplace(std::string(t), static_cast<int>(ids.size()));
      if (inserted) ids.emplace_back(t);
      return it->second;
    };
    entries.push_back({index_of(users, user_ids, f[0].text), index_of(items, item_ids, f[1].text), v, line});
  }
  if (entries.empty())
    throw DataError(path + ": byte 0: " + std::string(header ? "header only" : "empty file") +
                    ": expected user,item,rating lines, found none; try: a ratings file such as MovieLens's u.data");
  const std::vector<int> ur = id_order(user_ids), ir = id_order(item_ids);
  auto m = std::make_shared<ObservedMatrix>();
  m->rows = static_cast<int>(user_ids.size());
  m->cols = static_cast<int>(item_ids.size());
  m->row_ids.resize(user_ids.size());
  m->col_ids.resize(item_ids.size());
  for (size_t i = 0; i < user_ids.size(); ++i) m->row_ids[static_cast<size_t>(ur[i])] = user_ids[i];
  for (size_t i = 0; i < item_ids.size(); ++i) m->col_ids[static_cast<size_t>(ir[i])] = item_ids[i];
  for (Entry& e : entries) {
    e.row = ur[static_cast<size_t>(e.row)];
    e.col = ir[static_cast<size_t>(e.col)];
  }
  fill_entries(entries, path, *m);
  const char d = rec.delimiter();
  const char* dname = d == '\t' ? "tab" : d == ';' ? "semicolon" : d == ' ' ? "space" : "comma";
  return partial_dataset(m, file_stem(path),
                         path + " (ratings triplets, " + dname + "-separated" + (header ? ", header" : "") +
                             (in.gzip() ? ", gzip" : "") + ")");
}

std::shared_ptr<const Dataset> read_wide(ByteStream& in, const LoadOptions& opts) {
  const std::string& path = in.path();
  CsvRecords rec(in, opts);
  std::vector<CsvField> f;
  std::vector<std::string> col_ids, row_ids;
  std::unordered_map<std::string, uint64_t> seen_rows;
  std::vector<Entry> entries;
  bool first = true, header = false, id_column = false, id_known = false;
  int ncols = -1, row = 0;
  double v = 0;
  while (rec.next(f)) {
    const uint64_t line = rec.line();
    if (first) {
      first = false;
      for (size_t j = 1; j < f.size(); ++j)
        if (!is_missing_marker(f[j].text) && !rec.parse_number(f[j].text, v)) header = true;
      if (f.size() == 1 && !rec.parse_number(f[0].text, v) && !is_missing_marker(f[0].text)) header = true;
      if (header) {
        for (const CsvField& c : f) col_ids.emplace_back(c.text);
        continue;
      }
    }
    if (!id_known) {
      id_known = true;
      id_column = !f.empty() && !f[0].text.empty() && !rec.parse_number(f[0].text, v) && !is_missing_marker(f[0].text);
      if (header && id_column) col_ids.erase(col_ids.begin());
      if (header) ncols = static_cast<int>(col_ids.size());
    }
    const size_t start = id_column ? 1 : 0;
    const int cells = static_cast<int>(f.size() - start);
    if (ncols >= 0 && cells > ncols)
      throw DataError(path + ":" + std::to_string(line) + ":" + std::to_string(f[start + static_cast<size_t>(ncols)].col) +
                      ": expected at most " + std::to_string(ncols) + " values (the " +
                      (header ? "header's" : "first row's") + " columns), found " + std::to_string(cells) +
                      "; try: remove the extra cells or add their column names to the header");
    if (ncols < 0) ncols = cells;
    if (id_column) {
      const std::string id(f[0].text);
      if (id.empty())
        throw DataError(path + ":" + std::to_string(line) + ":1: expected a row id in the first column (the rows above have one), found an empty cell; try: name the row");
      auto [it, inserted] = seen_rows.emplace(id, line);
      if (!inserted)
        throw DataError(path + ":" + std::to_string(line) + ":1: duplicate row id " + data_detail::quoted_text(id) +
                        ": expected each user once, found it also on line " + std::to_string(it->second) +
                        "; try: merge the two rows");
      row_ids.push_back(id);
    }
    for (size_t j = start; j < f.size(); ++j) {
      if (is_missing_marker(f[j].text)) continue;
      if (!rec.parse_number(f[j].text, v))
        throw DataError(path + ":" + std::to_string(line) + ":" + std::to_string(f[j].col) +
                        ": expected a number or an empty cell (missing), found " + data_detail::quoted_text(f[j].text) +
                        "; try: a number, or leave the cell empty");
      if (!std::isfinite(v))
        throw DataError(path + ":" + std::to_string(line) + ":" + std::to_string(f[j].col) +
                        ": expected a finite number, found " + data_detail::quoted_text(f[j].text) + "; try: leave the cell empty if it is missing");
      entries.push_back({row, static_cast<int>(j - start), v, line});
    }
    ++row;
  }
  if (row == 0)
    throw DataError(path + ": byte 0: " + std::string(header ? "header only" : "empty file") +
                    ": expected rows of a matrix with empty cells for the missing entries, found none; try: add rows");
  if (entries.empty())
    throw DataError(path + ": no observed entry: expected at least one number, found only empty cells; try: a file with ratings");
  auto m = std::make_shared<ObservedMatrix>();
  m->rows = row;
  m->cols = std::max(ncols, 1);
  m->row_ids = std::move(row_ids);
  if (header) {
    for (size_t j = 0; j < col_ids.size(); ++j)
      if (col_ids[j].empty()) col_ids[j] = "item " + std::to_string(j + 1);
    m->col_ids = std::move(col_ids);
    m->col_ids.resize(static_cast<size_t>(m->cols));
  }
  fill_entries(entries, path, *m);
  return partial_dataset(m, file_stem(path),
                         path + " (wide matrix, empty cells missing" + std::string(header ? ", header" : "") +
                             (in.gzip() ? ", gzip" : "") + ")");
}

}  // namespace

std::shared_ptr<const Dataset> partial_dataset(std::shared_ptr<const ObservedMatrix> m, std::string name,
                                               std::string source) {
  auto d = std::make_shared<Dataset>();
  const size_t n = m->observed();
  d->x.resize(static_cast<Eigen::Index>(n), 3);
  for (size_t e = 0; e < n; ++e) {
    d->x(static_cast<Eigen::Index>(e), 0) = m->row[e];
    d->x(static_cast<Eigen::Index>(e), 1) = m->col[e];
    d->x(static_cast<Eigen::Index>(e), 2) = m->value[e];
  }
  d->column_names = {m->row_kind, m->col_kind, "value"};
  d->name = std::move(name);
  d->source = std::move(source);
  d->observed = std::move(m);
  return d;
}

std::shared_ptr<ObservedMatrix> synthetic_ratings(const RatingsSpec& s) {
  const std::string where = "ratings";
  if (s.users < 1 || s.items < 1 || static_cast<double>(s.users) * s.items > kMaxEntries)
    throw DataError(where + ": expected users x items <= " + gfmt(kMaxEntries) + ", found " + std::to_string(s.users) +
                    " x " + std::to_string(s.items) + "; try: fewer users or items");
  const uint64_t total = static_cast<uint64_t>(s.users) * static_cast<uint64_t>(s.items);
  if (s.observed < 1 || static_cast<uint64_t>(s.observed) > total)
    throw DataError(where + ": option 'observed': expected 1.." + std::to_string(total) + " (users x items), found " +
                    std::to_string(s.observed) + "; try: observed=" + std::to_string(std::max<uint64_t>(1, total / 16)));
  if (s.rank < 1 || s.rank > std::min(s.users, s.items))
    throw DataError(where + ": option 'rank': expected 1..min(users, items) = " + std::to_string(std::min(s.users, s.items)) +
                    ", found " + std::to_string(s.rank) + "; try: rank=5");
  if (s.genres < 1 || s.genres > kMaxGenres)
    throw DataError(where + ": option 'genres': expected 1.." + std::to_string(kMaxGenres) + ", found " +
                    std::to_string(s.genres) + "; try: genres=6");
  Rng rng(s.seed);
  const int m = s.users, n = s.items, r = s.rank, g = s.genres;
  Eigen::MatrixXd centre(g, r), u(m, r), v(n, r);
  for (int a = 0; a < g; ++a)
    for (int c = 0; c < r; ++c) centre(a, c) = rng.normal();
  auto out = std::make_shared<ObservedMatrix>();
  out->col_group.resize(static_cast<size_t>(n));
  for (int j = 0; j < n; ++j) {
    const int genre = static_cast<int>(rng.below(static_cast<uint64_t>(g)));
    out->col_group[static_cast<size_t>(j)] = genre;
    for (int c = 0; c < r; ++c) v(j, c) = centre(genre, c) + 0.35 * rng.normal();
  }
  for (int i = 0; i < m; ++i)
    for (int c = 0; c < r; ++c) u(i, c) = rng.normal();
  Eigen::MatrixXd p = u * v.transpose();
  const double rms = std::sqrt(std::max(p.array().square().mean(), 1e-300));
  out->truth = (3.0 + p.array() / rms).matrix();  // exactly 3 + rank r (E[U V^T] = 0)
  out->row_group.resize(static_cast<size_t>(m));
  const Eigen::MatrixXd affinity = u * centre.transpose();
  for (int i = 0; i < m; ++i) {
    Eigen::Index best = 0;
    affinity.row(i).maxCoeff(&best);
    out->row_group[static_cast<size_t>(i)] = static_cast<int>(best);
  }
  for (int a = 0; a < g; ++a) out->group_names.emplace_back(kGenreNames[a]);
  const std::vector<uint8_t> mark = choose(total, static_cast<uint64_t>(s.observed), rng);
  out->rows = m;
  out->cols = n;
  out->row.reserve(static_cast<size_t>(s.observed));
  out->col.reserve(static_cast<size_t>(s.observed));
  out->value.reserve(static_cast<size_t>(s.observed));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      if (!mark[static_cast<size_t>(i) * static_cast<size_t>(n) + static_cast<size_t>(j)]) continue;
      const double a = out->truth(i, j) + s.noise * rng.normal();
      out->row.push_back(i);
      out->col.push_back(j);
      out->value.push_back(a);
    }
  // The rating scale, for colour bars: values beyond it (noise) saturate there.
  out->value_min = 1.0;
  out->value_max = 5.0;
  return out;
}

std::shared_ptr<ObservedMatrix> with_holes(const Eigen::MatrixXd& full, double missing, HolePattern pattern, int block,
                                           uint64_t seed) {
  const Eigen::Index m = full.rows(), n = full.cols();
  if (m < 1 || n < 1 || static_cast<double>(m) * static_cast<double>(n) > kMaxEntries)
    throw DataError("holes: expected a matrix with 1.." + gfmt(kMaxEntries) + " entries, found " + std::to_string(m) +
                    " x " + std::to_string(n) + "; try: a smaller image or table");
  if (!(missing >= 0.0 && missing < 1.0))
    throw DataError("holes: expected a missing fraction in [0, 1), found " + gfmt(missing) + "; try: missing=0.7");
  if (!full.allFinite())
    throw DataError("holes: expected a complete matrix of finite numbers, found a non-finite entry; try: other data");
  const uint64_t total = static_cast<uint64_t>(m) * static_cast<uint64_t>(n);
  const uint64_t hide = static_cast<uint64_t>(std::llround(missing * static_cast<double>(total)));
  Rng rng(seed);
  std::vector<uint8_t> hidden;
  if (pattern == HolePattern::Random) {
    hidden = choose(total, std::min(hide, total - 1), rng);
  } else {
    hidden.assign(static_cast<size_t>(total), 0);
    const Eigen::Index bh = std::min<Eigen::Index>(std::max(block, 1), m), bw = std::min<Eigen::Index>(std::max(block, 1), n);
    uint64_t count = 0;
    const uint64_t max_tries = 64 * (total / static_cast<uint64_t>(bh * bw) + 1);
    for (uint64_t t = 0; t < max_tries && count < hide; ++t) {
      const Eigen::Index r0 = static_cast<Eigen::Index>(rng.below(static_cast<uint64_t>(m - bh + 1)));
      const Eigen::Index c0 = static_cast<Eigen::Index>(rng.below(static_cast<uint64_t>(n - bw + 1)));
      for (Eigen::Index r = r0; r < r0 + bh; ++r)
        for (Eigen::Index c = c0; c < c0 + bw; ++c) {
          uint8_t& h = hidden[static_cast<size_t>(r * n + c)];
          count += h == 0;
          h = 1;
        }
    }
    if (count >= total) hidden[0] = 0;  // keep one entry: nothing to learn from otherwise
  }
  auto out = std::make_shared<ObservedMatrix>();
  out->rows = static_cast<int>(m);
  out->cols = static_cast<int>(n);
  out->truth = full;
  for (Eigen::Index i = 0; i < m; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      if (hidden[static_cast<size_t>(i * n + j)]) continue;
      out->row.push_back(static_cast<int>(i));
      out->col.push_back(static_cast<int>(j));
      out->value.push_back(full(i, j));
    }
  out->value_min = full.minCoeff();
  out->value_max = full.maxCoeff();
  if (out->value_max <= out->value_min) out->value_max = out->value_min + 1.0;
  return out;
}

Eigen::MatrixXd complete_matrix(const Dataset& d, int row, std::string* what) {
  if (d.is_image() && d.rows() > 0) {
    const int r = std::clamp(row, 0, d.rows() - 1);
    Eigen::MatrixXd a(d.image_h, d.image_w);
    for (int i = 0; i < d.image_h; ++i)
      for (int j = 0; j < d.image_w; ++j) a(i, j) = d.x(r, static_cast<Eigen::Index>(i) * d.image_w + j);
    if (what)
      *what = d.name + (d.rows() > 1 ? " row " + std::to_string(r) : std::string()) + ", " + std::to_string(d.image_h) +
              " x " + std::to_string(d.image_w) + " picture";
    return a;
  }
  if (what) *what = d.name + ", " + std::to_string(d.rows()) + " x " + std::to_string(d.cols()) + " table";
  return d.x;
}

std::shared_ptr<const Dataset> load_ratings(const std::string& path, const LoadOptions& opts) {
  bool wide = opts.ratings == RatingsLayout::Wide;
  if (opts.ratings == RatingsLayout::Guess) {
    // Sniff the first records: a wide matrix shows an empty (or NA) cell, fewer
    // than 3 or more than 4 fields; triplets (u.data: 4 fields) show neither.
    ByteStream in(path, opts.max_file_bytes);
    CsvRecords rec(in, opts);
    std::vector<CsvField> f;
    for (int r = 0; r < 20 && !wide && rec.next(f); ++r) {
      wide = f.size() < 3 || f.size() > 4;
      for (const CsvField& c : f) wide = wide || is_missing_marker(c.text);
    }
  }
  ByteStream in(path, opts.max_file_bytes);
  return data_detail::load_ratings_stream(in, opts, wide);
}

namespace data_detail {

std::shared_ptr<const Dataset> load_ratings_stream(ByteStream& in, const LoadOptions& opts, bool wide) {
  try {
    return wide ? read_wide(in, opts) : read_triplets(in, opts);
  } catch (const std::bad_alloc&) {
    throw DataError(in.path() + ": out of memory while loading ratings: expected them to fit in memory; try: a smaller file");
  }
}

}  // namespace data_detail

}  // namespace cilab
