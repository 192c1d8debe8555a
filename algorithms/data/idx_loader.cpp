// IDX loader (the MNIST / Fashion-MNIST format), raw or gzip.
//
// Layout: magic 00 00 TT NN (TT = element type: 08 ubyte, 09 byte, 0B short,
// 0C int, 0D float, 0E double; NN = number of dims), then NN big-endian uint32
// dims, then prod(dims) big-endian elements in row-major order. Shapes:
// 1-D (n) = a label vector, loaded as n x 1 (and as labels when integral);
// 2-D (n, d) = n x d; 3-D (n, h, w) = n images of h x w, rows of h*w pixels;
// more dims are flattened after the first. The payload size implied by the
// header is checked against the size limit, and against the file size for raw
// files, before anything large is allocated; gzip payloads grow only as data
// actually arrives, so a lying header cannot make us allocate absurd memory.
#include "algorithms/data/loaders.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

namespace cilab {
namespace data_detail {

namespace {

constexpr size_t kMaxDims = 8;

const char* type_name(uint8_t t) {
  switch (t) {
    case 0x08: return "ubyte";
    case 0x09: return "byte";
    case 0x0B: return "short";
    case 0x0C: return "int";
    case 0x0D: return "float";
    case 0x0E: return "double";
    default: return nullptr;
  }
}

size_t type_size(uint8_t t) {
  switch (t) {
    case 0x0B: return 2;
    case 0x0C: return 4;
    case 0x0D: return 4;
    case 0x0E: return 8;
    default: return 1;
  }
}

uint32_t be32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

uint64_t be64(const uint8_t* p) {
  return (uint64_t(be32(p)) << 32) | be32(p + 4);
}

std::string dims_text(const std::vector<uint32_t>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? " x " : "") + std::to_string(dims[i]);
  return s;
}

// Element i of the payload as a double.
double element(const IdxArray& a, size_t i) {
  const uint8_t* p = a.payload.data() + i * a.elem_size;
  switch (a.type) {
    case 0x08: return p[0];
    case 0x09: return static_cast<int8_t>(p[0]);
    case 0x0B: return static_cast<int16_t>(static_cast<uint16_t>((p[0] << 8) | p[1]));
    case 0x0C: return static_cast<int32_t>(be32(p));
    case 0x0D: {
      const uint32_t bits = be32(p);
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case 0x0E: {
      const uint64_t bits = be64(p);
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    default: return 0.0;
  }
}

// Sibling labels file of an images file ("x-images-idx3-ubyte.gz" ->
// "x-labels-idx1-ubyte.gz", with or without .gz), or "" if none exists.
std::string sibling_labels(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  bool changed = false;
  for (const char* from : {"images-idx3-ubyte", "images.idx3-ubyte"}) {
    const size_t at = name.find(from);
    if (at != std::string::npos) {
      name.replace(at, std::strlen(from), from[6] == '-' ? "labels-idx1-ubyte" : "labels.idx1-ubyte");
      changed = true;
      break;
    }
  }
  if (!changed) return {};
  std::vector<std::string> candidates = {dir + name};
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0)
    candidates.push_back(dir + name.substr(0, name.size() - 3));
  else
    candidates.push_back(dir + name + ".gz");
  for (const std::string& c : candidates) {
    std::FILE* f = std::fopen(c.c_str(), "rb");
    if (f) {
      std::fclose(f);
      return c;
    }
  }
  return {};
}

}  // namespace

uint64_t IdxArray::row_len() const {
  uint64_t r = 1;
  for (size_t i = 1; i < dims.size(); ++i) r *= dims[i];
  return r;
}

bool looks_like_idx(const std::vector<uint8_t>& head) {
  return head.size() >= 4 && head[0] == 0 && head[1] == 0 && type_name(head[2]) != nullptr &&
         head[3] >= 1 && head[3] <= kMaxDims;
}

IdxArray read_idx(ByteStream& in, uint64_t max_rows) {
  const std::string& path = in.path();
  uint8_t magic[4];
  if (in.read_full(magic, 4) < 4)
    throw DataError(path + ": byte 0: expected a 4-byte IDX magic number, found a shorter file; "
                           "try: the file is truncated, download or copy it again");
  if (magic[0] != 0 || magic[1] != 0 || type_name(magic[2]) == nullptr) {
    char found[32];
    std::snprintf(found, sizeof found, "%02x %02x %02x %02x", magic[0], magic[1], magic[2], magic[3]);
    throw DataError(path + ": byte 0: bad IDX magic: expected 00 00 TT NN with TT one of 08 (ubyte), "
                           "09 (byte), 0B (short), 0C (int), 0D (float), 0E (double), found " +
                    std::string(found) + "; try: check this is an IDX file (e.g. *-idx3-ubyte)");
  }
  if (magic[3] < 1 || magic[3] > kMaxDims)
    throw DataError(path + ": byte 3: bad IDX header: expected 1.." + std::to_string(kMaxDims) +
                    " dimensions, found " + std::to_string(magic[3]) +
                    "; try: the header is corrupt, download or copy the file again");
  IdxArray a;
  a.type = magic[2];
  a.elem_size = type_size(a.type);
  const size_t nd = magic[3];
  uint8_t dimbuf[4 * kMaxDims];
  if (in.read_full(dimbuf, 4 * nd) < 4 * nd)
    throw DataError(path + ": " + in.where() + ": truncated IDX header: expected " +
                    std::to_string(nd) + " dimension sizes (" + std::to_string(4 * nd) +
                    " bytes), found the end of the data; try: download or copy the file again");
  a.header_bytes = 4 + 4 * nd;
  uint64_t count = 1;
  bool overflow = false;
  for (size_t i = 0; i < nd; ++i) {
    a.dims.push_back(be32(dimbuf + 4 * i));
    if (a.dims.back() == 0)
      throw DataError(path + ": byte " + std::to_string(4 + 4 * i) + ": empty IDX array: expected "
                      "non-zero dimensions, found dimension " + std::to_string(i + 1) + " of " +
                      std::to_string(nd) + " = 0; try: choose a file with data");
    overflow = overflow || __builtin_mul_overflow(count, uint64_t(a.dims.back()), &count);
  }
  uint64_t bytes = 0;
  overflow = overflow || __builtin_mul_overflow(count, uint64_t(a.elem_size), &bytes);
  const std::string shape = dims_text(a.dims) + " " + type_name(a.type);
  if (overflow || bytes > (uint64_t(1) << 40))
    throw DataError(path + ": byte 4: absurd IDX dimensions: expected a payload that fits in memory, "
                           "found a header saying " + shape +
                    (overflow ? " (overflows 64 bits)" : " (more than 1 TiB)") +
                    "; try: the header is corrupt, download or copy the file again");
  const uint64_t row_len = a.row_len();
  if (a.dims[0] > uint64_t(INT_MAX) || row_len > uint64_t(INT_MAX))
    throw DataError(path + ": byte 4: IDX dimensions too large: expected at most " +
                    std::to_string(INT_MAX) + " rows and columns, found " + shape +
                    "; try: split the data");
  const uint64_t limit_rows = (max_rows > 0 && max_rows < a.dims[0]) ? max_rows : a.dims[0];
  const uint64_t want = limit_rows * row_len * a.elem_size;
  if (!in.gzip()) {
    const uint64_t have = in.file_size() > a.header_bytes ? in.file_size() - a.header_bytes : 0;
    if (have < want)
      throw DataError(path + ": byte " + std::to_string(in.file_size()) + ": truncated IDX data: "
                      "expected " + std::to_string(want) + " bytes after the " +
                      std::to_string(a.header_bytes) + "-byte header (" + shape + "), found " +
                      std::to_string(have) + "; try: the file is truncated or its header lies, "
                      "download or copy it again");
    if (max_rows == 0 && have > bytes)
      throw DataError(path + ": byte " + std::to_string(a.header_bytes + bytes) +
                      ": IDX size mismatch: expected the file to end after " + shape + " (" +
                      std::to_string(a.header_bytes + bytes) + " bytes), found " +
                      std::to_string(have - bytes) + " extra bytes; try: check the header's "
                      "dimensions, the file may be damaged");
  }
  // Grow with the data actually read (never trust the header for allocation):
  // steps of 64 KiB doubling up to 4 MiB, so a tiny gzip file claiming a large
  // array does not allocate and zero megabytes before its data runs out.
  constexpr size_t kStep = size_t(4) << 20, kFirstStep = size_t(64) << 10;
  while (a.payload.size() < want) {
    const size_t old = a.payload.size();
    const size_t step = static_cast<size_t>(std::min<uint64_t>(std::min(kStep, std::max(kFirstStep, old)), want - old));
    a.payload.resize(old + step);
    const size_t got = in.read_full(a.payload.data() + old, step);
    if (got < step) {
      const uint64_t have = old + got;
      throw DataError(path + ": " + in.where() + ": truncated IDX data: expected " +
                      std::to_string(bytes) + " bytes after the " + std::to_string(a.header_bytes) +
                      "-byte header (" + shape + "), found only " + std::to_string(have) +
                      "; try: the file is truncated or its header lies, download or copy it again");
    }
  }
  if (limit_rows < a.dims[0]) {
    a.dims[0] = static_cast<uint32_t>(limit_rows);
  } else {
    uint8_t extra[1];
    if (in.read(extra, 1) > 0)
      throw DataError(path + ": " + in.where(a.header_bytes + bytes) + ": IDX size mismatch: "
                      "expected the data to end after " + shape + ", found extra bytes; try: "
                      "check the header's dimensions, the file may be damaged");
  }
  return a;
}

void bytes_to_matrix(const uint8_t* src, Eigen::Index n, Eigen::Index d, double scale,
                     Eigen::MatrixXd& out) {
  out.resize(n, d);
  // Blocked transpose: row-major bytes -> column-major doubles, cache friendly.
  constexpr Eigen::Index kBlock = 64;
  for (Eigen::Index i0 = 0; i0 < n; i0 += kBlock) {
    const Eigen::Index i1 = std::min(n, i0 + kBlock);
    for (Eigen::Index j = 0; j < d; ++j) {
      double* col = out.data() + j * n;
      for (Eigen::Index i = i0; i < i1; ++i) col[i] = scale * src[i * d + j];
    }
  }
}

std::shared_ptr<Dataset> load_idx(ByteStream& in, const LoadOptions& opts) {
  const std::string& path = in.path();
  const IdxArray a = read_idx(in);
  auto data = std::make_shared<Dataset>();
  const Eigen::Index n = static_cast<Eigen::Index>(a.rows());
  const Eigen::Index d = static_cast<Eigen::Index>(a.row_len());
  const bool integral = a.type != 0x0D && a.type != 0x0E;
  if (a.type == 0x08) {
    bytes_to_matrix(a.payload.data(), n, d, 1.0, data->x);
  } else {
    data->x.resize(n, d);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < d; ++j) {
        const size_t k = static_cast<size_t>(i * d + j);
        const double v = element(a, k);
        if (!std::isfinite(v))
          throw DataError(path + ": " + in.where(a.header_bytes + k * a.elem_size) + ": expected a "
                          "finite number in row " + std::to_string(i) + ", column " +
                          std::to_string(j) + ", found " + (std::isnan(v) ? "NaN" : "Inf") +
                          "; try: clean the data before exporting it");
        data->x(i, j) = v;
      }
    }
  }
  data->name = file_stem(path);
  std::string shape = dims_text(a.dims) + " " + type_name(a.type);
  if (a.dims.size() == 1) {
    data->column_names = {"label"};
    if (integral && data->x.minCoeff() >= 0 && data->x.maxCoeff() <= 65535) {
      const int k = static_cast<int>(data->x.maxCoeff()) + 1;
      data->labels.resize(static_cast<size_t>(n));
      for (Eigen::Index i = 0; i < n; ++i) data->labels[static_cast<size_t>(i)] = static_cast<int>(data->x(i, 0));
      for (int c = 0; c < k; ++c) data->class_names.push_back(std::to_string(c));
    }
  } else {
    for (Eigen::Index j = 0; j < d; ++j) data->column_names.push_back("x" + std::to_string(j));
    if (a.dims.size() == 3) {
      data->image_h = static_cast<int>(a.dims[1]);
      data->image_w = static_cast<int>(a.dims[2]);
    }
  }
  std::string paired;
  if (a.dims.size() == 3) {
    const std::string lpath = sibling_labels(path);
    if (!lpath.empty()) {
      ByteStream lin(lpath, opts.max_file_bytes);
      if (!looks_like_idx(lin.peek(4)))
        throw DataError(lpath + ": byte 0: expected an IDX labels file to pair with " + path +
                        ", found other data; try: rename or remove the labels file");
      const IdxArray la = read_idx(lin);
      if (la.dims.size() != 1 || la.dims[0] != a.dims[0] || (la.type != 0x08 && la.type != 0x09))
        throw DataError(lpath + ": byte 4: expected a 1-D byte label vector of " +
                        std::to_string(a.dims[0]) + " entries to pair with " + path + ", found " +
                        dims_text(la.dims) + " " + type_name(la.type) +
                        "; try: rename or remove the mismatched labels file");
      int k = 0;
      data->labels.resize(static_cast<size_t>(n));
      for (Eigen::Index i = 0; i < n; ++i) {
        const int lab = static_cast<int>(element(la, static_cast<size_t>(i)));
        data->labels[static_cast<size_t>(i)] = lab < 0 ? -1 : lab;
        k = std::max(k, lab + 1);
      }
      for (int c = 0; c < k; ++c) data->class_names.push_back(std::to_string(c));
      paired = ", labels from " + lpath;
    }
  }
  data->source = path + " (IDX " + shape + (in.gzip() ? ", gzip" : "") + ", raw values" + paired + ")";
  return data;
}

}  // namespace data_detail
}  // namespace cilab
