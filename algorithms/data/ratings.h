// Partially observed matrices: synthetic ratings, pictures with holes, and
// ratings files (triplets such as MovieLens's u.data, or a wide matrix with
// empty cells).
//
// Each becomes a Dataset with `observed` set (algorithms/core/observed_matrix.h)
// and `x` listing the observed entries as rows (row, col, value). Generators
// are seeded (cilab::Rng) and deterministic; loaders throw DataError naming the
// path, the line and column, what was expected, what was found and what to try.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/observed_matrix.h"
#include "algorithms/data/datasets.h"

#include <cstdint>
#include <memory>
#include <string>

namespace cilab {

// Wraps an observed matrix as a Dataset (x = the |Omega| x 3 entry table,
// column names from row_kind / col_kind, "value").
std::shared_ptr<const Dataset> partial_dataset(std::shared_ptr<const ObservedMatrix> m, std::string name,
                                               std::string source);

// Synthetic ratings: `users` x `items`, truth = 3 + U V^T (rank `rank`, scaled to
// root mean square 1, so ratings sit on a 1-5 scale), items drawn around
// `genres` genre centres in the latent space (V_j = c_g + 0.35 e, c_g and U
// standard normal), `observed` entries drawn uniformly without replacement, each
// observed as truth + noise * N(0, 1). col_group = the item's genre, row_group =
// the user's favourite genre (argmax_g <u_i, c_g>).
struct RatingsSpec {
  int users = 943;        // MovieLens-100k's shape
  int items = 1682;
  int observed = 100000;
  int rank = 5;
  double noise = 0.5;
  int genres = 6;
  uint64_t seed = 0;
};
std::shared_ptr<ObservedMatrix> synthetic_ratings(const RatingsSpec& spec);

// Which entries a picture loses.
enum class HolePattern {
  Random,  // exactly round(missing * m * n) entries, uniformly without replacement
  Blocks,  // block x block squares at uniform positions until >= missing is gone
};

// The complete matrix `full` (kept as the truth) with a fraction `missing` of
// its entries hidden. Throws DataError when nothing would be observed.
std::shared_ptr<ObservedMatrix> with_holes(const Eigen::MatrixXd& full, double missing, HolePattern pattern,
                                           int block, uint64_t seed);

// The matrix a complete dataset stands for: an image dataset's row `row` as an
// image_h x image_w picture, otherwise the n x d table itself. `what` (if not
// null) receives a description ("photo, 512 x 512 picture").
Eigen::MatrixXd complete_matrix(const Dataset& d, int row, std::string* what);

// Reads a ratings file (load_file with LoadOptions::ratings = Triplets or Wide
// comes here). Triplets: "user,item,rating" per line (comma, semicolon, tab or
// spaces; optional header; further columns such as a timestamp are ignored);
// ids are any text, integers sort numerically, other ids keep their first
// appearance order. Wide: one row per user, one column per item; an optional
// header names the items, a non-numeric first column names the users; an empty
// cell (or NA, NaN, ?) is a missing entry. Errors name the line: a duplicate
// (user, item) pair (with the line of the first), a non-numeric or non-finite
// rating, too few fields, an empty file, no observed entry. Guess (the
// window's file loads for the completion module): a wide matrix when one of the
// first 20 records has an empty or NA cell or not 3-4 fields, else triplets.
std::shared_ptr<const Dataset> load_ratings(const std::string& path, const LoadOptions& opts);

}  // namespace cilab
