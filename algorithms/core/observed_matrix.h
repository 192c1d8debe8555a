// ObservedMatrix: a partially observed matrix (matrix completion's input).
//
// An m x n matrix of which only the entries in Omega are known: user-item
// ratings (synthetic, or a ratings file such as MovieLens's u.data), or a photo
// with holes. Entries are stored as coordinates sorted by (row, col), each pair
// at most once. A Dataset carries one in `Dataset::observed`; its `x` then holds
// the same entries as an |Omega| x 3 table (row, col, value), so modules that
// read features still get finite numbers.
#pragma once

#include <Eigen/Core>

#include <cstddef>
#include <string>
#include <vector>

namespace cilab {

struct ObservedMatrix {
  int rows = 0;                      // m (users, image rows)
  int cols = 0;                      // n (items, image columns)
  std::vector<int> row, col;         // Omega, sorted by (row, col), no duplicates
  std::vector<double> value;         // a_ij for (row[e], col[e])
  Eigen::MatrixXd truth;             // empty, or m x n: the complete matrix when known
                                     // (synthetic ratings before noise, the photo)
  std::vector<std::string> row_ids;  // empty, or m: the ids as written in a file
  std::vector<std::string> col_ids;  // empty, or n
  std::vector<int> col_group;        // empty, or n: item genre (synthetic data)
  std::vector<int> row_group;        // empty, or m: the user's favourite genre
  std::vector<std::string> group_names;
  int image_h = 0, image_w = 0;      // > 0 when the matrix is a picture (m = h, n = w)
  double value_min = 0, value_max = 0;  // the scale (1..5 stars, 0..1 grey), for colour bars
  std::string row_kind = "user", col_kind = "item";  // "pixel row"/"pixel column" for images

  size_t observed() const { return value.size(); }
  double fraction() const {
    return rows > 0 && cols > 0 ? static_cast<double>(observed()) / (static_cast<double>(rows) * cols) : 0.0;
  }
  bool is_image() const { return image_h > 0 && image_w > 0; }
  bool has_truth() const { return truth.size() > 0; }
};

}  // namespace cilab
