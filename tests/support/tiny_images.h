// A small labelled image set for view tests: n 8 x 8 'images' of two classes, "top" (bright
// upper half) and "bottom" (bright lower half), with a little deterministic texture.
#pragma once

#include "algorithms/core/dataset.h"

#include <memory>

namespace cilab::test_support {

inline std::shared_ptr<const Dataset> tiny_images(int n = 120) {
  Dataset d;
  d.x = Eigen::MatrixXd::Zero(n, 64);
  d.labels.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int c = i % 2;
    for (int p = 0; p < 64; ++p) d.x(i, p) = ((p / 8 < 4) == (c == 0) ? 0.8 : 0.1) + 0.05 * ((i * 7 + p) % 5);
    d.labels[static_cast<size_t>(i)] = c;
  }
  d.class_names = {"top", "bottom"};
  d.image_h = d.image_w = 8;
  d.name = "tiny-images";
  return std::make_shared<const Dataset>(d);
}

}  // namespace cilab::test_support
