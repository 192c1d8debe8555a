// libFuzzer target: the PNG/PGM/PPM decoder on bytes in memory, then the
// one-row image Dataset built from it.
// Contract: an h x w matrix (sides in [1, kMaxImageSide], values in [0, 1])
// and a valid Dataset (see fuzz_contract.h), or a one-line DataError.
#include "algorithms/data/datasets.h"
#include "algorithms/data/image_loader.h"
#include "tests/fuzz/fuzz_contract.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  cilab_fuzz::check_contract<cilab::DataError>([&] {
    const Eigen::MatrixXd m = cilab::decode_gray_image(data, size, "fuzz.png");
    if (m.rows() < 1 || m.cols() < 1 || m.rows() > cilab::kMaxImageSide || m.cols() > cilab::kMaxImageSide)
      cilab_fuzz::broken("an image of " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()));
    if (!m.allFinite() || m.minCoeff() < 0.0 || m.maxCoeff() > 1.0)
      cilab_fuzz::broken("pixel values outside [0, 1]");
    cilab_fuzz::check_dataset(*cilab::image_dataset(m, "fuzz", "fuzz.png"));
  });
  return 0;
}
