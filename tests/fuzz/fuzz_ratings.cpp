// libFuzzer target: the ratings loader (triplets, or a wide matrix with empty
// cells, chosen by the first byte) on bytes in memory.
// Contract: a valid partially observed Dataset or a one-line DataError.
#include "algorithms/core/observed_matrix.h"
#include "algorithms/data/loaders.h"
#include "tests/fuzz/fuzz_contract.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool wide = data[0] & 1;
  cilab_fuzz::check_contract<cilab::DataError>([&] {
    cilab::LoadOptions opts;
    opts.max_line_bytes = 4096;
    opts.max_file_bytes = size_t(1) << 20;
    cilab::data_detail::ByteStream in(data + 1, size - 1, "fuzz.ratings", opts.max_file_bytes);
    const auto d = cilab::data_detail::load_ratings_stream(in, opts, wide);
    cilab_fuzz::check_dataset(*d);
    if (!d->observed) cilab_fuzz::broken("no observed matrix");
    const cilab::ObservedMatrix& m = *d->observed;
    if (m.rows < 1 || m.cols < 1 || m.observed() < 1) cilab_fuzz::broken("an empty observed matrix");
    if (m.row.size() != m.observed() || m.col.size() != m.observed()) cilab_fuzz::broken("ragged entries");
    if (!m.row_ids.empty() && static_cast<int>(m.row_ids.size()) != m.rows) cilab_fuzz::broken("row ids");
    if (!m.col_ids.empty() && static_cast<int>(m.col_ids.size()) != m.cols) cilab_fuzz::broken("column ids");
    for (size_t e = 0; e < m.observed(); ++e) {
      if (m.row[e] < 0 || m.row[e] >= m.rows || m.col[e] < 0 || m.col[e] >= m.cols) cilab_fuzz::broken("an entry outside the matrix");
      if (!std::isfinite(m.value[e])) cilab_fuzz::broken("a non-finite value");
      if (e > 0 && !(m.row[e - 1] < m.row[e] || (m.row[e - 1] == m.row[e] && m.col[e - 1] < m.col[e])))
        cilab_fuzz::broken("entries not sorted or duplicated");
    }
    if (static_cast<size_t>(d->rows()) != m.observed()) cilab_fuzz::broken("x not one row per entry");
  });
  return 0;
}
