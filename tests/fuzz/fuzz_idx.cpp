// libFuzzer target: the IDX loader (raw or gzip) on bytes in memory, whole
// (load_idx) and as the first rows only (read_idx with max_rows, as
// Fashion-MNIST's n= option reads it).
// Contract: a valid Dataset / array (see fuzz_contract.h) or a one-line DataError.
#include "algorithms/data/loaders.h"
#include "tests/fuzz/fuzz_contract.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using cilab::data_detail::ByteStream;
  cilab::LoadOptions opts;
  opts.max_file_bytes = size_t(64) << 20;
  cilab_fuzz::check_contract<cilab::DataError>([&] {
    ByteStream in(data, size, "fuzz.idx", opts.max_file_bytes);
    cilab_fuzz::check_dataset(*cilab::data_detail::load_idx(in, opts));
  });
  cilab_fuzz::check_contract<cilab::DataError>([&] {
    constexpr uint64_t kRows = 2;
    ByteStream in(data, size, "fuzz.idx", opts.max_file_bytes);
    const cilab::data_detail::IdxArray a = cilab::data_detail::read_idx(in, kRows);
    if (a.dims.empty() || a.dims[0] < 1 || a.dims[0] > kRows)
      cilab_fuzz::broken("read_idx(max_rows=2) kept " + std::to_string(a.rows()) + " rows");
    if (a.payload.size() != a.rows() * a.row_len() * a.elem_size)
      cilab_fuzz::broken("IDX payload of " + std::to_string(a.payload.size()) + " bytes for its dims");
  });
  return 0;
}
