#include "app/gif_writer.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace cilab {
namespace {

constexpr int kMaxColours = 256;
constexpr int kMaxCodeWidth = 12;
constexpr int kMaxCodes = 1 << kMaxCodeWidth;  // 4096
constexpr int kCellBits = 5;                   // median cut's histogram: 5 bits per channel
constexpr int kCells = 1 << (3 * kCellBits);   // 32768
constexpr int kLzwHashBits = 14;               // 16384 slots for at most 4096 strings
constexpr int kExactHashBits = 10;             // 1024 slots for at most 257 colours

using Rgb = uint32_t;  // 0xRRGGBB

int red(Rgb c) { return static_cast<int>(c >> 16); }
int green(Rgb c) { return static_cast<int>((c >> 8) & 0xFF); }
int blue(Rgb c) { return static_cast<int>(c & 0xFF); }

int cell_of(Rgb c) {
  return ((red(c) >> 3) << 10) | ((green(c) >> 3) << 5) | (blue(c) >> 3);
}

void put_u16(std::vector<unsigned char>& out, int v) {
  out.push_back(static_cast<unsigned char>(v & 0xFF));
  out.push_back(static_cast<unsigned char>((v >> 8) & 0xFF));
}

// Fills `indices` with the exact palette of `px` (colours in order of first
// appearance); false when there are more than 256 colours.
bool exact_palette(const std::vector<Rgb>& px, std::vector<Rgb>* palette, std::vector<unsigned char>* indices) {
  constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  constexpr uint32_t kMask = (1u << kExactHashBits) - 1;
  std::array<uint32_t, 1u << kExactHashBits> keys;
  std::array<unsigned char, 1u << kExactHashBits> slots{};
  keys.fill(kEmpty);
  palette->clear();
  indices->resize(px.size());
  Rgb last = kEmpty;
  unsigned char last_index = 0;
  for (size_t i = 0; i < px.size(); ++i) {
    const Rgb c = px[i];
    if (c != last) {
      uint32_t h = (c * 2654435761u) >> (32 - kExactHashBits);
      while (keys[h] != kEmpty && keys[h] != c) h = (h + 1) & kMask;
      if (keys[h] == kEmpty) {
        if (palette->size() == kMaxColours) return false;
        keys[h] = c;
        slots[h] = static_cast<unsigned char>(palette->size());
        palette->push_back(c);
      }
      last = c;
      last_index = slots[h];
    }
    (*indices)[i] = last_index;
  }
  return true;
}

// One box of median cut: the cells [begin, end) of the cell list.
struct Box {
  size_t begin = 0, end = 0;
  uint64_t count = 0;
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // cell coordinates per channel
  int longest() const {
    int a = 0;
    for (int k = 1; k < 3; ++k)
      if (hi[k] - lo[k] > hi[a] - lo[a]) a = k;
    return a;
  }
  int extent() const { return hi[longest()] - lo[longest()]; }
};

int cell_axis(int cell, int axis) { return (cell >> (kCellBits * (2 - axis))) & ((1 << kCellBits) - 1); }

// Median cut to at most 256 colours, then nearest-colour mapping per histogram cell.
class Quantiser {
 public:
  void run(const std::vector<Rgb>& px, std::vector<Rgb>* palette, std::vector<unsigned char>* indices) {
    count_.assign(kCells, 0);
    sum_.assign(static_cast<size_t>(kCells) * 3, 0);
    for (const Rgb c : px) {
      const int cell = cell_of(c);
      ++count_[cell];
      uint64_t* s = &sum_[static_cast<size_t>(cell) * 3];
      s[0] += static_cast<uint64_t>(red(c));
      s[1] += static_cast<uint64_t>(green(c));
      s[2] += static_cast<uint64_t>(blue(c));
    }
    cells_.clear();
    for (int cell = 0; cell < kCells; ++cell)
      if (count_[cell] > 0) cells_.push_back(cell);
    boxes_.clear();
    boxes_.push_back(make_box(0, cells_.size()));
    while (boxes_.size() < static_cast<size_t>(kMaxColours)) {
      // The box with the most pixels times its longest side: crowded and wide boxes first.
      size_t best = boxes_.size();
      uint64_t best_score = 0;
      for (size_t b = 0; b < boxes_.size(); ++b) {
        const uint64_t score = boxes_[b].count * static_cast<uint64_t>(boxes_[b].extent());
        if (boxes_[b].end - boxes_[b].begin >= 2 && score > best_score) {
          best = b;
          best_score = score;
        }
      }
      if (best == boxes_.size()) break;  // every box is one cell
      split(best);
    }
    // Each colour: the mean of its box's pixels.
    palette->clear();
    std::vector<std::array<double, 3>> mean_of_box;
    for (const Box& b : boxes_) {
      uint64_t s[3] = {0, 0, 0};
      for (size_t i = b.begin; i < b.end; ++i)
        for (int k = 0; k < 3; ++k) s[k] += sum_[static_cast<size_t>(cells_[i]) * 3 + k];
      int ch[3];
      for (int k = 0; k < 3; ++k)
        ch[k] = static_cast<int>((s[k] + b.count / 2) / b.count);
      palette->push_back(static_cast<Rgb>(ch[0] << 16 | ch[1] << 8 | ch[2]));
    }
    // Each cell maps to the palette colour nearest to its mean.
    cell_index_.assign(kCells, 0);
    for (const int cell : cells_) {
      const uint64_t n = count_[cell];
      const uint64_t* s = &sum_[static_cast<size_t>(cell) * 3];
      const int r = static_cast<int>((s[0] + n / 2) / n);
      const int g = static_cast<int>((s[1] + n / 2) / n);
      const int bl = static_cast<int>((s[2] + n / 2) / n);
      int best = 0;
      int best_d = 1 << 30;
      for (size_t p = 0; p < palette->size(); ++p) {
        const Rgb c = (*palette)[p];
        const int dr = red(c) - r, dg = green(c) - g, db = blue(c) - bl;
        const int d = dr * dr + dg * dg + db * db;
        if (d < best_d) {
          best_d = d;
          best = static_cast<int>(p);
        }
      }
      cell_index_[cell] = static_cast<unsigned char>(best);
    }
    indices->resize(px.size());
    for (size_t i = 0; i < px.size(); ++i) (*indices)[i] = cell_index_[cell_of(px[i])];
  }

 private:
  Box make_box(size_t begin, size_t end) const {
    Box b;
    b.begin = begin;
    b.end = end;
    for (int k = 0; k < 3; ++k) {
      b.lo[k] = (1 << kCellBits) - 1;
      b.hi[k] = 0;
    }
    for (size_t i = begin; i < end; ++i) {
      const int cell = cells_[i];
      b.count += count_[cell];
      for (int k = 0; k < 3; ++k) {
        b.lo[k] = std::min(b.lo[k], cell_axis(cell, k));
        b.hi[k] = std::max(b.hi[k], cell_axis(cell, k));
      }
    }
    return b;
  }

  // Splits box `b` along its longest side where half its pixels lie on each side.
  void split(size_t b) {
    const Box box = boxes_[b];
    const int axis = box.longest();
    std::sort(cells_.begin() + static_cast<std::ptrdiff_t>(box.begin),
              cells_.begin() + static_cast<std::ptrdiff_t>(box.end),
              [axis](int x, int y) { return cell_axis(x, axis) < cell_axis(y, axis); });
    uint64_t acc = 0;
    size_t cut = box.begin + 1;
    for (size_t i = box.begin; i + 1 < box.end; ++i) {
      acc += count_[cells_[i]];
      cut = i + 1;
      if (2 * acc >= box.count) break;
    }
    boxes_[b] = make_box(box.begin, cut);
    boxes_.push_back(make_box(cut, box.end));
  }

  std::vector<uint64_t> count_, sum_;
  std::vector<int> cells_;
  std::vector<Box> boxes_;
  std::vector<unsigned char> cell_index_;
};

// LZW for GIF: codes of 3..12 bits (min_code_size + 1 first), a clear code
// first and whenever the 4096 codes are used up, the end code last. The
// bytes go to `out` in sub-blocks of at most 255 bytes and a terminator.
class LzwEncoder {
 public:
  void encode(const std::vector<unsigned char>& indices, int min_code_size, std::vector<unsigned char>& out) {
    bytes_.clear();
    acc_ = 0;
    nbits_ = 0;
    const int clear = 1 << min_code_size;
    const int end = clear + 1;
    int width = min_code_size + 1;
    int next = clear + 2;
    keys_.assign(size_t{1} << kLzwHashBits, 0);
    values_.resize(size_t{1} << kLzwHashBits);
    emit(clear, width);
    int prefix = indices[0];
    constexpr uint32_t kMask = (1u << kLzwHashBits) - 1;
    for (size_t i = 1; i < indices.size(); ++i) {
      const int k = indices[i];
      const uint32_t key = (static_cast<uint32_t>(prefix) << 8 | static_cast<uint32_t>(k)) + 1;
      uint32_t h = (key * 2654435761u) >> (32 - kLzwHashBits);
      bool found = false;
      while (keys_[h] != 0) {
        if (keys_[h] == key) {
          found = true;
          break;
        }
        h = (h + 1) & kMask;
      }
      if (found) {
        prefix = values_[h];
        continue;
      }
      emit(prefix, width);
      keys_[h] = key;
      values_[h] = static_cast<uint16_t>(next);
      ++next;
      // The decoder adds this string one code later; it widens when its next
      // code reaches 1 << width, i.e. when ours passes it.
      if (next > (1 << width) && width < kMaxCodeWidth) ++width;
      if (next == kMaxCodes) {
        emit(clear, width);
        std::fill(keys_.begin(), keys_.end(), 0u);
        width = min_code_size + 1;
        next = clear + 2;
      }
      prefix = k;
    }
    emit(prefix, width);
    emit(end, width);
    if (nbits_ > 0) bytes_.push_back(static_cast<unsigned char>(acc_ & 0xFF));
    out.push_back(static_cast<unsigned char>(min_code_size));
    for (size_t i = 0; i < bytes_.size(); i += 255) {
      const size_t n = std::min<size_t>(255, bytes_.size() - i);
      out.push_back(static_cast<unsigned char>(n));
      out.insert(out.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(i),
                 bytes_.begin() + static_cast<std::ptrdiff_t>(i + n));
    }
    out.push_back(0);
  }

 private:
  void emit(int code, int width) {
    acc_ |= static_cast<uint64_t>(code) << nbits_;
    nbits_ += width;
    while (nbits_ >= 8) {
      bytes_.push_back(static_cast<unsigned char>(acc_ & 0xFF));
      acc_ >>= 8;
      nbits_ -= 8;
    }
  }

  std::vector<uint32_t> keys_;  // (prefix << 8 | k) + 1, 0 = empty
  std::vector<uint16_t> values_;
  std::vector<unsigned char> bytes_;
  uint64_t acc_ = 0;
  int nbits_ = 0;
};

}  // namespace

struct GifWriter::State {
  std::FILE* file = nullptr;
  std::string path;
  int width = 0, height = 0;
  int frames = 0;
  long long bytes = 0;
  std::string failure;       // the first write error, reported again by close()
  std::vector<Rgb> canvas;   // what a decoder shows after the frames so far
  std::vector<Rgb> px;       // the rectangle being written
  std::vector<Rgb> palette;
  std::vector<unsigned char> indices, out;
  Quantiser quantiser;
  LzwEncoder lzw;

  std::string prefix() const { return "cannot write animation " + path + ": "; }

  bool write(const std::vector<unsigned char>& data, std::string* error) {
    if (!failure.empty()) {
      if (error) *error = failure;
      return false;
    }
    errno = 0;
    if (std::fwrite(data.data(), 1, data.size(), file) != data.size()) {
      failure = prefix() + (errno ? std::strerror(errno) : "write failed") + "; check the free space on its disk";
      if (error) *error = failure;
      return false;
    }
    bytes += static_cast<long long>(data.size());
    return true;
  }
};

GifWriter::GifWriter() : st_(std::make_unique<State>()) {}

GifWriter::~GifWriter() {
  if (st_->file) close(nullptr);
}

bool GifWriter::open(const std::string& path, int width, int height, std::string* error, int loop) {
  if (st_->file) close(nullptr);
  State& s = *st_;
  s.path = path;
  s.frames = 0;
  s.bytes = 0;
  s.failure.clear();
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide) {
    if (error)
      *error = s.prefix() + "the size " + std::to_string(width) + "x" + std::to_string(height) +
               " is outside 1..65535 pixels per side; check the window or region size";
    return false;
  }
  if (loop < -1 || loop > 65535) {
    if (error)
      *error = s.prefix() + "the loop count " + std::to_string(loop) +
               " is outside -1..65535; use 0 to repeat forever or -1 to play once";
    return false;
  }
  errno = 0;
  s.file = std::fopen(path.c_str(), "wb");
  if (!s.file) {
    if (error)
      *error = s.prefix() + (errno ? std::strerror(errno) : "cannot create the file") +
               "; check that the folder exists and is writable";
    return false;
  }
  s.width = width;
  s.height = height;
  s.canvas.assign(static_cast<size_t>(width) * height, 0);
  std::vector<unsigned char> head = {'G', 'I', 'F', '8', '9', 'a'};
  put_u16(head, width);
  put_u16(head, height);
  head.push_back(0x70);  // no global colour table, 8 bits of colour resolution
  head.push_back(0);     // background colour index
  head.push_back(0);     // pixel aspect ratio: square
  if (loop >= 0) {
    const char* app = "NETSCAPE2.0";
    head.insert(head.end(), {0x21, 0xFF, 11});
    head.insert(head.end(), app, app + 11);
    head.insert(head.end(), {3, 1});
    put_u16(head, loop);
    head.push_back(0);
  }
  if (!s.write(head, error)) {
    close(nullptr);
    return false;
  }
  return true;
}

bool GifWriter::add_frame(const unsigned char* rgba, int delay_cs, std::string* error) {
  State& s = *st_;
  if (!s.file) {
    if (error) *error = "cannot add a frame: no animation is open; open one first";
    return false;
  }
  if (!rgba) {
    if (error) *error = s.prefix() + "frame " + std::to_string(s.frames + 1) + " has no pixels";
    return false;
  }
  if (delay_cs < 0 || delay_cs > 65535) {
    if (error)
      *error = s.prefix() + "the delay " + std::to_string(delay_cs) +
               " is outside 0..65535 hundredths of a second; check the frame rate";
    return false;
  }
  if (!s.failure.empty()) {
    if (error) *error = s.failure;
    return false;
  }
  const int w = s.width, h = s.height;
  auto rgb_at = [rgba, w](int x, int y) {
    const unsigned char* p = rgba + (static_cast<size_t>(y) * w + x) * 4;
    return static_cast<Rgb>(p[0]) << 16 | static_cast<Rgb>(p[1]) << 8 | p[2];
  };
  // The rectangle to write: everything first, then what differs from the canvas.
  int x0 = 0, y0 = 0, x1 = w, y1 = h;  // [x0, x1) x [y0, y1)
  if (s.frames > 0) {
    x0 = w;
    y0 = h;
    x1 = 0;
    y1 = 0;
    for (int y = 0; y < h; ++y) {
      const Rgb* row = &s.canvas[static_cast<size_t>(y) * w];
      int first = 0;
      while (first < w && row[first] == rgb_at(first, y)) ++first;
      if (first == w) continue;
      int last = w - 1;
      while (row[last] == rgb_at(last, y)) --last;
      x0 = std::min(x0, first);
      x1 = std::max(x1, last + 1);
      y0 = std::min(y0, y);
      y1 = y + 1;
    }
    if (x1 <= x0) {  // nothing changed: one unchanged pixel carries the delay
      x0 = 0;
      y0 = 0;
      x1 = 1;
      y1 = 1;
    }
  }
  const int rw = x1 - x0, rh = y1 - y0;
  s.px.resize(static_cast<size_t>(rw) * rh);
  for (int y = 0; y < rh; ++y)
    for (int x = 0; x < rw; ++x) s.px[static_cast<size_t>(y) * rw + x] = rgb_at(x0 + x, y0 + y);
  if (!exact_palette(s.px, &s.palette, &s.indices)) s.quantiser.run(s.px, &s.palette, &s.indices);
  for (int y = 0; y < rh; ++y)
    for (int x = 0; x < rw; ++x)
      s.canvas[static_cast<size_t>(y0 + y) * w + x0 + x] = s.palette[s.indices[static_cast<size_t>(y) * rw + x]];

  int table_bits = 1;  // the table holds 2^table_bits >= palette size colours
  while ((1u << table_bits) < s.palette.size()) ++table_bits;
  std::vector<unsigned char>& out = s.out;
  out.clear();
  // Graphic Control Extension: disposal 1 (do not dispose), no transparency.
  out.insert(out.end(), {0x21, 0xF9, 4, 1 << 2});
  put_u16(out, delay_cs);
  out.insert(out.end(), {0, 0});
  // Image Descriptor with a local colour table, not interlaced.
  out.push_back(0x2C);
  put_u16(out, x0);
  put_u16(out, y0);
  put_u16(out, rw);
  put_u16(out, rh);
  out.push_back(static_cast<unsigned char>(0x80 | (table_bits - 1)));
  for (int i = 0; i < (1 << table_bits); ++i) {
    const Rgb c = i < static_cast<int>(s.palette.size()) ? s.palette[static_cast<size_t>(i)] : 0;
    out.insert(out.end(), {static_cast<unsigned char>(red(c)), static_cast<unsigned char>(green(c)),
                           static_cast<unsigned char>(blue(c))});
  }
  s.lzw.encode(s.indices, std::max(2, table_bits), out);
  if (!s.write(out, error)) return false;
  ++s.frames;
  return true;
}

bool GifWriter::close(std::string* error) {
  State& s = *st_;
  if (!s.file) {
    if (error) *error = "cannot close the animation: none is open";
    return false;
  }
  bool ok = s.write({0x3B}, error);
  errno = 0;
  if (std::fclose(s.file) != 0 && ok) {
    s.failure = s.prefix() + (errno ? std::strerror(errno) : "closing failed") + "; check the free space on its disk";
    if (error) *error = s.failure;
    ok = false;
  }
  s.file = nullptr;
  if (ok && s.frames == 0) {
    std::remove(s.path.c_str());
    if (error) *error = s.prefix() + "no frame was added; add at least one frame before closing";
    ok = false;
  }
  s.canvas.clear();
  s.canvas.shrink_to_fit();
  return ok;
}

int GifWriter::frames() const { return st_->frames; }

long long GifWriter::bytes() const { return st_->bytes; }

bool GifWriter::is_open() const { return st_->file != nullptr; }

}  // namespace cilab
