// Writes a Dataset as CSV the CSV loader reads back: a header of the feature
// names, then the regression target's column (if any), then a `label` column
// (class names when known, else the class ids; an empty cell for an
// unlabelled row). Values with 17 significant digits, so they read back
// exactly. Image datasets are written too (one pixel per column).
#pragma once

#include "algorithms/core/dataset.h"

#include <iosfwd>

namespace cilab {

void write_dataset_csv(const Dataset& d, std::ostream& out);

}  // namespace cilab
