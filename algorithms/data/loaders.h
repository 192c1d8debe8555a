// Internal loaders behind cilab::load_file: CSV/TSV text and IDX arrays.
//
// Both read from a ByteStream (raw or gunzipped on the fly) in bounded chunks
// and throw DataError with path, position, expected, found and a hint.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/data/byte_stream.h"
#include "algorithms/data/datasets.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace cilab {
namespace data_detail {

// One field of a CSV/TSV record (a view into the reader's buffers, valid until
// the next record is read).
struct CsvField {
  std::string_view text;
  size_t col = 0;  // 1-based byte column of the field's start in its line
  bool quoted = false;
};

// The CSV/TSV reader's records one by one (delimiter detected on the first
// record; quotes, BOM, blank and '#' comment lines handled as in load_csv), for
// loaders that give the fields their own meaning (ratings triplets).
class CsvRecords {
 public:
  CsvRecords(ByteStream& in, const LoadOptions& opts);
  ~CsvRecords();
  CsvRecords(const CsvRecords&) = delete;
  CsvRecords& operator=(const CsvRecords&) = delete;
  // The next record's fields; false at the end of the data. Throws DataError
  // (binary data, a line too long, an unterminated quote).
  bool next(std::vector<CsvField>& fields);
  uint64_t line() const;   // physical line number of the last record
  char delimiter() const;  // ',', ';', '\t' or ' '
  // A number as load_csv reads one ("1,5" with ';' as delimiter); false if not.
  bool parse_number(std::string_view s, double& v) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// CSV/TSV text -> Dataset (delimiter, header and label column detected).
std::shared_ptr<Dataset> load_csv(ByteStream& in, const LoadOptions& opts);

// A found text for a one-line message, in single quotes: control bytes as \xNN,
// at most 40 bytes (then "...").
std::string quoted_text(std::string_view s);

// True when the leading bytes are an IDX magic number 00 00 TT NN.
bool looks_like_idx(const std::vector<uint8_t>& head);

// An IDX array as stored: element type code, dims, and the raw big-endian
// payload in row-major order (only the first `max_rows` rows when > 0).
struct IdxArray {
  uint8_t type = 0;
  std::vector<uint32_t> dims;
  std::vector<uint8_t> payload;
  size_t elem_size = 1;
  uint64_t header_bytes = 0;
  uint64_t rows() const { return dims.empty() ? 0 : dims[0]; }
  uint64_t row_len() const;  // product of dims[1..]
};

// Reads and validates an IDX array (magic, dims, exact payload size).
IdxArray read_idx(ByteStream& in, uint64_t max_rows = 0);

// IDX -> Dataset: 1-D = a label vector (n x 1), 2-D = n x d, 3-D = images.
std::shared_ptr<Dataset> load_idx(ByteStream& in, const LoadOptions& opts);

// A ratings file (algorithms/data/ratings.h) from a stream: triplets, or a
// wide matrix with empty cells when `wide`. Throws DataError.
std::shared_ptr<const Dataset> load_ratings_stream(ByteStream& in, const LoadOptions& opts, bool wide);

// Fills a column-major n x d matrix from row-major unsigned bytes times `scale`.
void bytes_to_matrix(const uint8_t* src, Eigen::Index n, Eigen::Index d, double scale,
                     Eigen::MatrixXd& out);

}  // namespace data_detail
}  // namespace cilab
