// npz_reader.h - reads back the .npz files the lab writes (algorithms/core/npz.h): a stored zip
// of .npy entries, each checked (local header, CRC-32, central directory, npy header) as numpy's
// np.load would, so the tests fail on a file numpy could not open.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cilab::test_support {

struct NpyRead {
  std::string descr;            // "<f4", "<f8", "<i8"
  std::vector<int64_t> shape;
  std::vector<double> values;   // every element, as double
};

inline uint32_t npz_u16(const std::string& s, size_t at) {
  return static_cast<uint32_t>(static_cast<unsigned char>(s.at(at))) |
         static_cast<uint32_t>(static_cast<unsigned char>(s.at(at + 1))) << 8;
}
inline uint32_t npz_u32(const std::string& s, size_t at) { return npz_u16(s, at) | npz_u16(s, at + 2) << 16; }

inline NpyRead parse_npy(const std::string& d) {
  if (d.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) != 0) throw std::runtime_error("npy: bad magic");
  const uint32_t hlen = npz_u16(d, 8);
  const std::string header = d.substr(10, hlen);
  if ((10 + hlen) % 64 != 0) throw std::runtime_error("npy: header not padded to 64 bytes");
  if (header.back() != '\n') throw std::runtime_error("npy: header does not end in a newline");
  NpyRead r;
  const size_t dp = header.find("'descr': '");
  r.descr = header.substr(dp + 10, 3);
  if (header.find("'fortran_order': False") == std::string::npos) throw std::runtime_error("npy: not C order");
  const size_t sp = header.find("'shape': (");
  const size_t se = header.find(')', sp);
  const std::string dims = header.substr(sp + 10, se - sp - 10);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t next = dims.find(',', pos);
    if (next == std::string::npos) next = dims.size();
    const std::string tok = dims.substr(pos, next - pos);
    if (tok.find_first_not_of(' ') != std::string::npos) r.shape.push_back(std::stoll(tok));
    pos = next + 1;
  }
  int64_t n = 1;
  for (int64_t s : r.shape) n *= s;
  const size_t width = r.descr == "<f4" ? 4 : 8;
  const std::string data = d.substr(10 + hlen);
  if (data.size() != static_cast<size_t>(n) * width) throw std::runtime_error("npy: data size does not match the shape");
  for (int64_t i = 0; i < n; ++i) {
    if (r.descr == "<f4") {
      float f;
      std::memcpy(&f, data.data() + i * 4, 4);
      r.values.push_back(f);
    } else if (r.descr == "<f8") {
      double f;
      std::memcpy(&f, data.data() + i * 8, 8);
      r.values.push_back(f);
    } else {
      int64_t v;
      std::memcpy(&v, data.data() + i * 8, 8);
      r.values.push_back(static_cast<double>(v));
    }
  }
  return r;
}

// name (without ".npy") -> array, in the central directory's order checked against the local headers.
inline std::map<std::string, NpyRead> read_npz(const std::string& z) {
  std::map<std::string, NpyRead> out;
  const size_t eocd = z.rfind(std::string("PK\x05\x06", 4));
  if (eocd == std::string::npos) throw std::runtime_error("zip: no end of central directory");
  const uint32_t entries = npz_u16(z, eocd + 10);
  size_t cd = npz_u32(z, eocd + 16);
  for (uint32_t e = 0; e < entries; ++e) {
    if (npz_u32(z, cd) != 0x02014b50) throw std::runtime_error("zip: bad central directory record");
    const uint32_t method = npz_u16(z, cd + 10), crc = npz_u32(z, cd + 16), size = npz_u32(z, cd + 20);
    const uint32_t name_len = npz_u16(z, cd + 28), extra = npz_u16(z, cd + 30), comment = npz_u16(z, cd + 32);
    const uint32_t local = npz_u32(z, cd + 42);
    const std::string name = z.substr(cd + 46, name_len);
    if (method != 0) throw std::runtime_error("zip: compressed entry");
    if (npz_u32(z, local) != 0x04034b50) throw std::runtime_error("zip: bad local header");
    if (z.substr(local + 30, npz_u16(z, local + 26)) != name) throw std::runtime_error("zip: names differ");
    const size_t data_at = local + 30 + npz_u16(z, local + 26) + npz_u16(z, local + 28);
    const std::string data = z.substr(data_at, size);
    const uint32_t actual = static_cast<uint32_t>(
        crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    if (actual != crc) throw std::runtime_error("zip: CRC-32 mismatch in " + name);
    if (name.size() < 4 || name.compare(name.size() - 4, 4, ".npy") != 0) throw std::runtime_error("npz: not .npy");
    out[name.substr(0, name.size() - 4)] = parse_npy(data);
    cd += 46 + name_len + extra + comment;
  }
  return out;
}

}  // namespace cilab::test_support
