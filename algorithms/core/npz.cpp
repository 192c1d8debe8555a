// The .npz writer (npz.h): a stored (uncompressed) zip of .npy entries.
#include "algorithms/core/npz.h"

#include <zlib.h>

#include <set>
#include <stdexcept>

namespace cilab {

namespace {

void put16(std::string& s, uint32_t v) {
  s.push_back(static_cast<char>(v & 0xff));
  s.push_back(static_cast<char>((v >> 8) & 0xff));
}
void put32(std::string& s, uint32_t v) {
  put16(s, v & 0xffff);
  put16(s, v >> 16);
}

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (const int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("npz: negative dimension");
    n *= d;
  }
  return n;
}

}  // namespace

NpyArray NpyArray::floats(std::string name, std::vector<int64_t> shape, std::vector<float> values) {
  NpyArray a;
  a.name = std::move(name);
  a.shape = std::move(shape);
  a.type = Type::Float32;
  a.f32 = std::move(values);
  return a;
}

NpyArray NpyArray::doubles(std::string name, std::vector<int64_t> shape, std::vector<double> values) {
  NpyArray a;
  a.name = std::move(name);
  a.shape = std::move(shape);
  a.type = Type::Float64;
  a.f64 = std::move(values);
  return a;
}

NpyArray NpyArray::int64_scalar(std::string name, int64_t value) {
  NpyArray a;
  a.name = std::move(name);
  a.type = Type::Int64;
  a.i64 = {value};
  return a;
}

std::string npy_bytes(const NpyArray& a) {
  const int64_t n = elements(a.shape);
  const size_t have = a.type == NpyArray::Type::Float32   ? a.f32.size()
                      : a.type == NpyArray::Type::Float64 ? a.f64.size()
                                                          : a.i64.size();
  if (static_cast<int64_t>(have) != n)
    throw std::invalid_argument("npz: '" + a.name + "' holds " + std::to_string(have) + " values for " +
                                std::to_string(n) + " elements of its shape");
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + (i + 1 < a.shape.size() ? ", " : "");
  if (a.shape.size() == 1) shape += ",";
  shape += ")";
  std::string header = std::string("{'descr': '") + (a.type == NpyArray::Type::Float32   ? "<f4"
                                                     : a.type == NpyArray::Type::Float64 ? "<f8"
                                                                                         : "<i8") +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  put16(out, static_cast<uint32_t>(header.size()));
  out += header;
  // Little-endian data (this build's byte order: x86-64 and aarch64 are little-endian).
  static_assert(sizeof(float) == 4, "float32");
  if (a.type == NpyArray::Type::Float32)
    out.append(reinterpret_cast<const char*>(a.f32.data()), a.f32.size() * sizeof(float));
  else if (a.type == NpyArray::Type::Float64)
    out.append(reinterpret_cast<const char*>(a.f64.data()), a.f64.size() * sizeof(double));
  else
    out.append(reinterpret_cast<const char*>(a.i64.data()), a.i64.size() * sizeof(int64_t));
  return out;
}

void write_npz(std::ostream& out, const std::vector<NpyArray>& arrays) {
  if (arrays.size() > 65535) throw std::invalid_argument("npz: more than 65535 arrays");
  std::set<std::string> names;
  for (const NpyArray& a : arrays) {
    if (a.name.empty()) throw std::invalid_argument("npz: an array without a name");
    if (!names.insert(a.name).second) throw std::invalid_argument("npz: two arrays named '" + a.name + "'");
  }
  std::string central;
  uint64_t offset = 0;
  for (const NpyArray& a : arrays) {
    const std::string data = npy_bytes(a);
    const std::string file = a.name + ".npy";
    if (data.size() >= 0xffffffffu || offset >= 0xffffffffu)
      throw std::invalid_argument("npz: '" + a.name + "' is too large for a zip without ZIP64 (4 GiB)");
    const uint32_t crc = static_cast<uint32_t>(
        crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    const uint32_t size = static_cast<uint32_t>(data.size());
    // Local file header: version 2.0, no flags, stored, time/date 0 (1980-01-01 00:00).
    std::string local;
    put32(local, 0x04034b50);
    put16(local, 20);
    put16(local, 0);
    put16(local, 0);
    put16(local, 0);
    put16(local, 0x21);  // 1980-01-01
    put32(local, crc);
    put32(local, size);
    put32(local, size);
    put16(local, static_cast<uint32_t>(file.size()));
    put16(local, 0);
    local += file;
    out.write(local.data(), static_cast<std::streamsize>(local.size()));
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    // Its central directory record.
    put32(central, 0x02014b50);
    put16(central, 20);
    put16(central, 20);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0x21);
    put32(central, crc);
    put32(central, size);
    put32(central, size);
    put16(central, static_cast<uint32_t>(file.size()));
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put32(central, 0);
    put32(central, static_cast<uint32_t>(offset));
    central += file;
    offset += local.size() + data.size();
  }
  if (offset >= 0xffffffffu) throw std::invalid_argument("npz: the arrays exceed 4 GiB (no ZIP64)");
  std::string end;
  put32(end, 0x06054b50);
  put16(end, 0);
  put16(end, 0);
  put16(end, static_cast<uint32_t>(arrays.size()));
  put16(end, static_cast<uint32_t>(arrays.size()));
  put32(end, static_cast<uint32_t>(central.size()));
  put32(end, static_cast<uint32_t>(offset));
  put16(end, 0);
  out.write(central.data(), static_cast<std::streamsize>(central.size()));
  out.write(end.data(), static_cast<std::streamsize>(end.size()));
}

}  // namespace cilab
