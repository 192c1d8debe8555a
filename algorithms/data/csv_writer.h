// Writes a Dataset as CSV the CSV loader reads back: a header of the feature
// names, then the regression target's column (if any), then a `label` column
// (class names when known, else the class ids; an empty cell for an
// unlabelled row). Values with 17 significant digits, so they read back
// exactly. Image datasets are written too (one pixel per column).
#pragma once

#include "algorithms/core/dataset.h"

#include <iosfwd>
#include <string>

namespace cilab {

void write_dataset_csv(const Dataset& d, std::ostream& out);

// A CSV text field: quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text);
// Writes a number with the stream's precision, NaN and infinities as nan, inf, -inf.
void write_csv_number(std::ostream& out, double v);
// The same as text, with 17 significant digits (reads back exactly).
std::string csv_number(double v);

}  // namespace cilab
