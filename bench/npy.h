// Minimal .npy writer shared by the benchmarks (numpy format version 1.0,
// little-endian float64, C order), so python reference scripts can read the
// benchmark's exact data with np.load.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace cilab {

// Writes `m` (rows x cols) as a C-order float64 array of shape (rows, cols),
// or shape (rows,) when `as_vector` is set and cols == 1. Returns false on I/O error.
inline bool write_npy(const std::string& path, const Eigen::MatrixXd& m, bool as_vector = false) {
  std::ofstream f(path, std::ios::binary);
  if (!f) return false;
  const std::string shape = as_vector && m.cols() == 1
                                ? "(" + std::to_string(m.rows()) + ",)"
                                : "(" + std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + ")";
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  const uint16_t len = static_cast<uint16_t>(header.size());
  f.write("\x93NUMPY\x01\x00", 8);
  f.write(reinterpret_cast<const char*>(&len), 2);
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  std::vector<double> row(static_cast<size_t>(m.cols()));
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) row[static_cast<size_t>(c)] = m(i, c);
    f.write(reinterpret_cast<const char*>(row.data()),
            static_cast<std::streamsize>(row.size() * sizeof(double)));
  }
  return static_cast<bool>(f);
}

}  // namespace cilab
