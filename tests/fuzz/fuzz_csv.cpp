// libFuzzer target: the CSV/TSV loader (raw or gzip) on bytes in memory.
// Contract: a valid Dataset (see fuzz_contract.h) or a one-line DataError.
#include "algorithms/data/loaders.h"
#include "tests/fuzz/fuzz_contract.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  cilab_fuzz::check_contract<cilab::DataError>([&] {
    cilab::LoadOptions opts;
    opts.max_line_bytes = 4096;  // small limits: the bounded paths get exercised too
    opts.max_file_bytes = size_t(1) << 20;
    cilab::data_detail::ByteStream in(data, size, "fuzz.csv", opts.max_file_bytes);
    cilab_fuzz::check_dataset(*cilab::data_detail::load_csv(in, opts));
  });
  return 0;
}
