// Grayscale PNG/PGM/PPM loading through stb_image (see image_loader.h).
#include "algorithms/data/image_loader.h"

#include "algorithms/data/datasets.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <vector>

// stb_image compiled into this translation unit only (static functions), the
// PNG decoder only, no stdio (we read the bytes ourselves).
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS 8192
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

namespace cilab {

namespace {

constexpr size_t kMaxFileBytes = size_t(256) << 20;

std::vector<unsigned char> read_all(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw DataError(path + ": image not found: expected a PNG or PGM file, found no such file; try: "
                           "check the path");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxFileBytes)
    throw DataError(path + ": expected an image file of at most 256 MB, found " +
                    (ec ? std::string("an unreadable size") : std::to_string(size) + " bytes") +
                    "; try: a smaller image");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw DataError(path + ": cannot open for reading; try: check the file's permissions");
  std::vector<unsigned char> bytes(static_cast<size_t>(size));
  f.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f && !bytes.empty())
    throw DataError(path + ": byte " + std::to_string(f.gcount()) + ": read error (expected " +
                    std::to_string(size) + " bytes); try: copy the file again");
  return bytes;
}

uint32_t be32(const unsigned char* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

// Walks a PNG's chunks before stb_image sees them. stb_image allocates what a
// chunk's length field or the header's size claims before reading the data,
// so a 100-byte file could make it allocate gigabytes: every chunk must have a
// letters-only type and fit in the file, and the pixel data the header announces must be within deflate's
// reach (at most 1032 bytes out per byte in) of the IDAT bytes present.
// Returns the byte offsets of zero-length IDAT chunks: legal, but stb_image
// then copies 0 bytes into a null buffer (undefined behaviour); the caller drops them.
std::vector<size_t> check_png_chunks(const unsigned char* bytes, size_t size, const std::string& what) {
  std::vector<size_t> empty_idat;
  size_t pos = 8;  // after the signature
  uint64_t idat = 0;
  uint32_t w = 0, h = 0, depth = 0, colour = 0;
  bool header = false;
  while (size - pos >= 8) {
    const uint32_t len = be32(bytes + pos);
    const std::string type(reinterpret_cast<const char*>(bytes + pos + 4), 4);
    for (char c : type)
      if (!std::isalpha(static_cast<unsigned char>(c))) {
        char found[16];
        std::snprintf(found, sizeof found, "%02x %02x %02x %02x", bytes[pos + 4], bytes[pos + 5],
                      bytes[pos + 6], bytes[pos + 7]);
        throw DataError(what + ": byte " + std::to_string(pos + 4) + ": PNG chunk type: expected 4 ASCII "
                        "letters, found bytes " + found + "; try: the file is corrupt, re-export it as PNG");
      }
    const size_t left = size - pos - 8;  // bytes after the length and type fields
    if (len > left || (type != "IEND" && left - len < 4)) {
      throw DataError(what + ": byte " + std::to_string(pos) + ": PNG chunk '" + type + "': expected " +
                      std::to_string(len) + " data bytes and a 4-byte CRC, found " + std::to_string(left) +
                      " bytes left in the file; try: the file is truncated or corrupt, re-export it as PNG");
    }
    if (type == "IHDR" && len >= 13) {
      w = be32(bytes + pos + 8);
      h = be32(bytes + pos + 12);
      depth = bytes[pos + 16];
      colour = bytes[pos + 17];
      header = true;
    }
    if (type == "IDAT") idat += len;
    if (type == "IDAT" && len == 0) empty_idat.push_back(pos);
    if (type == "IEND") break;
    pos += 12 + size_t(len);
  }
  // Out-of-range sides and unknown colour types are left to stb_image's own errors.
  const uint32_t channels = colour == 0 || colour == 3 ? 1 : colour == 2 ? 3 : colour == 4 ? 2 : colour == 6 ? 4 : 0;
  if (!header || channels == 0 || depth == 0 || depth > 16 || w == 0 || h == 0 ||
      w > uint32_t(kMaxImageSide) || h > uint32_t(kMaxImageSide))
    return empty_idat;
  const uint64_t inflated = ((uint64_t(w) * channels * depth + 7) / 8 + 1) * h;  // + a filter byte per row
  constexpr uint64_t kDeflateMaxRatio = 1032;
  if (inflated > kDeflateMaxRatio * idat + 1024)
    throw DataError(what + ": byte 16: PNG header says " + std::to_string(w) + " x " + std::to_string(h) +
                    ": expected pixel data that inflates to " + std::to_string(inflated) + " bytes, found " +
                    std::to_string(idat) + " compressed bytes (deflate inflates at most " +
                    std::to_string(kDeflateMaxRatio) + " times); try: the file is truncated or corrupt, "
                    "re-export it as PNG");
  return empty_idat;
}

}  // namespace

bool looks_like_image(const unsigned char* head, size_t size) {
  static const unsigned char kPng[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (size >= 8 && std::equal(kPng, kPng + 8, head)) return true;
  // PGM/PPM: "P2".."P6", whitespace, then a width (digit) or a comment ('#'); a CSV header such
  // as "P2,P3" or "P2\tlabel" is not an image.
  if (size < 4 || head[0] != 'P' || !(head[1] == '2' || head[1] == '3' || head[1] == '5' || head[1] == '6'))
    return false;
  size_t i = 2;
  if (!std::isspace(head[i])) return false;
  while (i < size && std::isspace(head[i])) ++i;
  return i < size && (std::isdigit(head[i]) || head[i] == '#');
}

Eigen::MatrixXd decode_gray_image(const unsigned char* bytes, size_t size, const std::string& what) {
  if (size == 0)
    throw DataError(what + ": byte 0: empty file: expected a PNG or PGM image, found 0 bytes; try: "
                           "choose an image file");
  if (!looks_like_image(bytes, size))
    throw DataError(what + ": byte 0: expected a PNG signature or a PGM/PPM magic (P2, P3, P5, P6), "
                           "found another format; try: convert the image to PNG or PGM (JPEG is not read)");
  if (size > static_cast<size_t>(INT32_MAX))
    throw DataError(what + ": expected an image of at most 2 GB; try: a smaller image");
  // PGM/PPM are parsed here (stb_image does not read P2/P3 and does not
  // report a truncated P5/P6 payload).
  if (bytes[0] == 'P') {
    const bool colour = bytes[1] == '3' || bytes[1] == '6';
    const bool binary = bytes[1] == '5' || bytes[1] == '6';
    size_t pos = 2;
    auto next_int = [&](const char* name) -> long {
      for (;;) {
        while (pos < size && std::isspace(bytes[pos])) ++pos;
        if (pos < size && bytes[pos] == '#') {
          while (pos < size && bytes[pos] != '\n') ++pos;
          continue;
        }
        break;
      }
      if (pos >= size || !std::isdigit(bytes[pos]))
        throw DataError(what + ": byte " + std::to_string(pos) + ": expected " + name +
                        " (a non-negative integer), found " +
                        (pos >= size ? std::string("the end of the file") : "'" + std::string(1, static_cast<char>(bytes[pos])) + "'") +
                        "; try: re-export the image as binary PGM or PNG");
      long v = 0;
      while (pos < size && std::isdigit(bytes[pos])) {
        v = v * 10 + (bytes[pos++] - '0');
        if (v > 1000000000L)
          throw DataError(what + ": byte " + std::to_string(pos) + ": " + name + " is too large; try: a smaller image");
      }
      return v;
    };
    const long w = next_int("the width"), h = next_int("the height"), maxval = next_int("the maximum value");
    if (w <= 0 || h <= 0 || w > kMaxImageSide || h > kMaxImageSide || maxval <= 0 || maxval > 65535)
      throw DataError(what + ": expected width and height in [1, " + std::to_string(kMaxImageSide) +
                      "] and a maximum value in [1, 65535], found " + std::to_string(w) + " x " +
                      std::to_string(h) + ", max " + std::to_string(maxval) + "; try: a smaller image");
    const size_t ch = colour ? 3 : 1;
    const size_t samples = static_cast<size_t>(w) * static_cast<size_t>(h) * ch;
    if (binary) {
      ++pos;  // the single whitespace byte after maxval
      const size_t bps = maxval > 255 ? 2 : 1;
      const size_t need = samples * bps;
      if (pos > size || size - pos < need)
        throw DataError(what + ": byte " + std::to_string(std::min(pos, size)) + ": expected " + std::to_string(need) +
                        " bytes of pixel data for " + std::to_string(w) + " x " + std::to_string(h) +
                        ", found " + std::to_string(pos > size ? 0 : size - pos) +
                        " (truncated file); try: copy or export the image again");
      Eigen::MatrixXd m(h, w);
      auto sample = [&](size_t i) -> double {
        const unsigned char* b = bytes + pos + i * bps;
        return bps == 2 ? static_cast<double>((b[0] << 8) | b[1]) : static_cast<double>(b[0]);
      };
      for (long r = 0; r < h; ++r)
        for (long c = 0; c < w; ++c) {
          const size_t i = (static_cast<size_t>(r) * static_cast<size_t>(w) + static_cast<size_t>(c)) * ch;
          const double v = colour ? (77.0 * sample(i) + 150.0 * sample(i + 1) + 29.0 * sample(i + 2)) / 256.0
                                  : sample(i);
          m(r, c) = std::min(1.0, v / static_cast<double>(maxval));
        }
      return m;
    }
    // Each ASCII sample takes a digit and a separator at least: check before allocating.
    if ((size - pos) / 2 < samples)
      throw DataError(what + ": byte " + std::to_string(pos) + ": expected " + std::to_string(samples) +
                      " ASCII sample values for " + std::to_string(w) + " x " + std::to_string(h) +
                      " (2 bytes each at least), found " + std::to_string(size - pos) +
                      " bytes left (truncated file); try: copy or export the image again");
    Eigen::MatrixXd m(h, w);
    for (long r = 0; r < h; ++r)
      for (long c = 0; c < w; ++c) {
        double v = 0.0;
        if (colour) {
          const long R = next_int("a red value"), G = next_int("a green value"), B = next_int("a blue value");
          v = (77.0 * R + 150.0 * G + 29.0 * B) / 256.0;
          if (R > maxval || G > maxval || B > maxval)
            throw DataError(what + ": byte " + std::to_string(pos) + ": expected values <= " +
                            std::to_string(maxval) + "; try: fix the header's maximum value");
        } else {
          const long g = next_int("a gray value");
          if (g > maxval)
            throw DataError(what + ": byte " + std::to_string(pos) + ": expected a gray value <= " +
                            std::to_string(maxval) + ", found " + std::to_string(g) +
                            "; try: fix the header's maximum value");
          v = static_cast<double>(g);
        }
        m(r, c) = v / static_cast<double>(maxval);
      }
    return m;
  }
  const std::vector<size_t> empty_idat = check_png_chunks(bytes, size, what);
  std::vector<unsigned char> kept;  // the bytes without empty IDAT chunks (12 bytes each)
  if (!empty_idat.empty()) {
    size_t from = 0;
    for (size_t at : empty_idat) {
      kept.insert(kept.end(), bytes + from, bytes + at);
      from = at + 12;
    }
    kept.insert(kept.end(), bytes + from, bytes + size);
    bytes = kept.data();
    size = kept.size();
  }
  int w = 0, h = 0, channels = 0;
  unsigned char* px = stbi_load_from_memory(bytes, static_cast<int>(size), &w, &h, &channels, 1);
  if (!px) {
    // stb_image's reason may quote raw bytes of the file (an unknown chunk's type): keep it printable.
    std::string why = stbi_failure_reason() ? stbi_failure_reason() : "unknown reason";
    for (char& c : why)
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    throw DataError(what + ": cannot decode the image (" + why +
                    "): expected a valid PNG, found corrupt or unsupported data "
                    "(sides > " + std::to_string(kMaxImageSide) + " are refused); try: re-export it as an 8-bit PNG");
  }
  Eigen::MatrixXd m(h, w);
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) m(r, c) = px[static_cast<size_t>(r) * static_cast<size_t>(w) + c] / 255.0;
  stbi_image_free(px);
  return m;
}

Eigen::MatrixXd load_gray_image(const std::string& path) {
  const std::vector<unsigned char> bytes = read_all(path);
  return decode_gray_image(bytes.data(), bytes.size(), path);
}

std::shared_ptr<const Dataset> image_dataset(const Eigen::MatrixXd& pixels, const std::string& name,
                                             const std::string& source) {
  auto d = std::make_shared<Dataset>();
  const int h = static_cast<int>(pixels.rows()), w = static_cast<int>(pixels.cols());
  d->x.resize(1, static_cast<Eigen::Index>(h) * w);
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) d->x(0, static_cast<Eigen::Index>(r) * w + c) = pixels(r, c);
  d->column_names.reserve(static_cast<size_t>(h) * static_cast<size_t>(w));
  for (int j = 0; j < h * w; ++j) d->column_names.push_back("x" + std::to_string(j));
  d->image_h = h;
  d->image_w = w;
  d->name = name;
  d->source = source;
  return d;
}

std::shared_ptr<const Dataset> load_image_dataset(const std::string& path) {
  const Eigen::MatrixXd m = load_gray_image(path);
  return image_dataset(m, std::filesystem::path(path).stem().string(),
                       path + " (" + std::to_string(m.rows()) + " x " + std::to_string(m.cols()) +
                           " gray image, pixels scaled to [0,1])");
}

std::shared_ptr<const Dataset> load_image_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> classes;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec) && e.path().filename().string().rfind('.', 0) != 0) classes.push_back(e.path());
  if (ec) throw DataError(dir + ": cannot read the folder: " + ec.message() + "; try: check the path and its permissions");
  auto is_image_file = [](const fs::path& p) {
    std::string ext = p.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".png" || ext == ".pgm" || ext == ".ppm";
  };
  // The images of each class folder, sorted by name.
  std::vector<std::vector<fs::path>> files(classes.size());
  std::sort(classes.begin(), classes.end());
  bool any = false;
  for (size_t c = 0; c < classes.size(); ++c) {
    for (const auto& e : fs::directory_iterator(classes[c], ec))
      if (e.is_regular_file(ec) && is_image_file(e.path())) files[c].push_back(e.path());
    std::sort(files[c].begin(), files[c].end());
    any = any || !files[c].empty();
  }
  if (!any)
    throw DataError(dir + ": expected a data file or an image folder with one subfolder of images per class "
                    "(torchvision's ImageFolder: " + dir + "/cat/1.png, " + dir + "/dog/7.png), found a directory "
                    "without class folders of images; try: a CSV, IDX or image file, or a folder of class folders");
  auto d = std::make_shared<Dataset>();
  std::vector<std::vector<double>> rows;
  int h = 0, w = 0;
  std::string first;
  for (size_t c = 0; c < classes.size(); ++c) {
    if (files[c].empty())
      throw DataError(classes[c].string() + ": class folder '" + classes[c].filename().string() +
                      "' holds no PNG, PGM or PPM file; try: add its images or remove the folder");
    for (const fs::path& f : files[c]) {
      if (static_cast<int>(rows.size()) >= kMaxFolderImages)
        throw DataError(dir + ": more than " + std::to_string(kMaxFolderImages) +
                        " images; try: a subset of the images");
      const Eigen::MatrixXd m = load_gray_image(f.string());
      if (rows.empty()) {
        h = static_cast<int>(m.rows());
        w = static_cast<int>(m.cols());
        first = f.string();
      } else if (m.rows() != h || m.cols() != w) {
        throw DataError(f.string() + ": expected " + std::to_string(h) + " x " + std::to_string(w) + " pixels as " +
                        first + ", found " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()) +
                        "; try: resize every image of the folder to one size");
      }
      std::vector<double> px(static_cast<size_t>(h) * static_cast<size_t>(w));
      for (int r = 0; r < h; ++r)
        for (int q = 0; q < w; ++q) px[static_cast<size_t>(r) * w + q] = m(r, q);
      rows.push_back(std::move(px));
      d->labels.push_back(static_cast<int>(c));
    }
    d->class_names.push_back(classes[c].filename().string());
  }
  d->x.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(h) * w);
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < rows[i].size(); ++j) d->x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
  for (int j = 0; j < h * w; ++j) d->column_names.push_back("x" + std::to_string(j));
  d->image_h = h;
  d->image_w = w;
  std::string trimmed = dir;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  d->name = fs::path(trimmed).filename().string();
  d->source = dir + " (image folder: " + std::to_string(rows.size()) + " images of " + std::to_string(h) + " x " +
              std::to_string(w) + " in " + std::to_string(classes.size()) + " classes, grey pixels scaled to [0,1])";
  return d;
}

std::shared_ptr<const Dataset> photo_dataset() {
  static std::mutex mutex;
  static std::weak_ptr<const Dataset> cache;
  std::lock_guard<std::mutex> lock(mutex);
  if (std::shared_ptr<const Dataset> hit = cache.lock()) return hit;
  const std::string path = asset_path(kPhotoAsset);
  Eigen::MatrixXd m;
  try {
    m = load_gray_image(path);
  } catch (const DataError& e) {
    throw DataError(std::string(e.what()) + " (shipped photograph; try: set CILAB_ASSET_DIR to the folder "
                                            "holding " + kPhotoAsset + ")");
  }
  std::shared_ptr<const Dataset> d =
      image_dataset(m, "photo", "photograph 'camera' (scikit-image, CC0, Lav Varshney), " + path);
  cache = d;
  return d;
}

}  // namespace cilab
