// Internal: the finite-sum landscapes (least squares, logistic regression) on
// built-in real data or on a loaded Dataset; make_landscape() in
// landscapes.cpp dispatches to the built-in ones, the optimizers module calls
// the Dataset overloads for data=loaded.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/optim/landscape.h"

#include <memory>

namespace cilab {

// Least squares on Old Faithful (x = eruptions, y = waiting), standardised or raw.
std::shared_ptr<const Landscape> make_least_squares_landscape(bool standardize);
// Logistic regression, iris versicolor (0) vs virginica (1), standardised petal
// length / width, no bias.
std::shared_ptr<const Landscape> make_logistic_landscape();

// Least squares on a loaded dataset: x_i = column 0, y_i = column 1 (further
// columns are ignored and the description says so). Throws
// std::invalid_argument naming parameter 'data' for a null dataset, fewer than
// 2 rows or columns, non-finite values or a constant x column.
std::shared_ptr<const Landscape> make_least_squares_landscape(const Dataset* data, bool standardize);
// Logistic regression on a loaded dataset: the first two feature columns,
// z-scored, no bias; the labels must name exactly 2 classes (the smaller class
// id is y = 0, the larger y = 1; unlabelled rows, -1, are skipped). Linearly
// separable data (through the origin) have no finite minimiser: minima() is
// then empty and the description says so. Throws std::invalid_argument naming
// parameter 'data' for unusable data (null, < 2 columns or rows, no labels,
// not exactly 2 classes, non-finite values, constant or collinear features).
std::shared_ptr<const Landscape> make_logistic_landscape(const Dataset* data);

}  // namespace cilab
