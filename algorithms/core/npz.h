// NumPy's .npz: named arrays in one zip file (numpy.savez), the format a student
// opens with np.load or loads into PyTorch (torch.from_numpy per entry, then
// model.load_state_dict). The lab writes trained weights this way, named as
// PyTorch's state_dict names them ("0.weight", "encoder.2.bias").
//
// Each array is an entry "NAME.npy" (format version 1.0: magic, header dict
// {'descr', 'fortran_order': False, 'shape'}, padded to 64 bytes, then the C-order
// little-endian data), stored without compression (numpy's savez does the same),
// with its CRC-32 (zlib). Reading back: np.load(path)[NAME].
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace cilab {

struct NpyArray {
  enum class Type { Float32, Int64, Float64 };
  std::string name;              // the key in np.load's dict ("0.weight")
  std::vector<int64_t> shape;    // {} = a 0-d scalar (PyTorch's num_batches_tracked)
  Type type = Type::Float32;
  std::vector<float> f32;        // Float32: prod(shape) values, C order
  std::vector<int64_t> i64;      // Int64: likewise
  std::vector<double> f64;       // Float64: likewise (gradient checks, the kernel benches)

  static NpyArray floats(std::string name, std::vector<int64_t> shape, std::vector<float> values);
  static NpyArray doubles(std::string name, std::vector<int64_t> shape, std::vector<double> values);
  static NpyArray int64_scalar(std::string name, int64_t value);
};

// The .npy bytes of one array.
std::string npy_bytes(const NpyArray& a);

// Writes the arrays as an .npz to `out` (throws std::invalid_argument for an array whose data
// does not match its shape, an empty or duplicate name, or more than 65535 entries).
void write_npz(std::ostream& out, const std::vector<NpyArray>& arrays);

}  // namespace cilab
