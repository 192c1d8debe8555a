// GifWriter (app/gif_writer.h) against an independent GIF decoder written here
// from the GIF89a specification: blocks, LZW with growing code widths and clear
// codes, global and local colour tables, sub-rectangles, interlacing and the
// four disposal methods. Exact round trips for frames of <= 256 colours,
// bounded error above, delays and loop counts read back, failures reported.
#include "app/gif_writer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>
#include <unistd.h>

using namespace cilab;

namespace {

// ---------------------------------------------------------------- the decoder

struct DecodedFrame {
  std::vector<uint32_t> canvas;  // 0xRRGGBB, the whole screen after this image
  int delay_cs = 0;
  int disposal = 0;
  int x = 0, y = 0, w = 0, h = 0;  // the image's rectangle
  int table_size = 0;              // colours in the table used
  bool local_table = false;
};

struct DecodedGif {
  std::string version;  // "89a" or "87a"
  int width = 0, height = 0;
  int loop = -1;  // NETSCAPE2.0 loop count, -1 when absent
  std::vector<DecodedFrame> frames;
  int max_code_width = 0;  // over every image's LZW stream
  int clear_codes = 0;     // clear codes after the first of each stream
};

class Reader {
 public:
  explicit Reader(std::vector<unsigned char> bytes) : b_(std::move(bytes)) {}
  int u8() {
    if (pos_ >= b_.size()) throw std::runtime_error("truncated at byte " + std::to_string(pos_));
    return b_[pos_++];
  }
  int u16() {
    const int lo = u8();
    return lo | u8() << 8;
  }
  std::string text(size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>(u8());
    return s;
  }
  // The data of a chain of sub-blocks up to the terminator.
  std::vector<unsigned char> sub_blocks() {
    std::vector<unsigned char> data;
    for (int n = u8(); n != 0; n = u8())
      for (int i = 0; i < n; ++i) data.push_back(static_cast<unsigned char>(u8()));
    return data;
  }
  bool at_end() const { return pos_ >= b_.size(); }

 private:
  std::vector<unsigned char> b_;
  size_t pos_ = 0;
};

std::vector<uint32_t> read_table(Reader& r, int n) {
  std::vector<uint32_t> t(static_cast<size_t>(n));
  for (auto& c : t) {
    const uint32_t red = static_cast<uint32_t>(r.u8()), green = static_cast<uint32_t>(r.u8());
    c = red << 16 | green << 8 | static_cast<uint32_t>(r.u8());
  }
  return t;
}

// LZW decoding as in the GIF89a specification, appendix F.
std::vector<int> lzw_decode(const std::vector<unsigned char>& data, int min_size, size_t pixels, DecodedGif* gif) {
  if (min_size < 2 || min_size > 8) throw std::runtime_error("bad LZW minimum code size");
  const int clear = 1 << min_size, end = clear + 1;
  std::vector<int> prefix(4096, -1), suffix(4096, 0), length(4096, 0);
  for (int i = 0; i < clear; ++i) {
    suffix[static_cast<size_t>(i)] = i;
    length[static_cast<size_t>(i)] = 1;
  }
  int width = min_size + 1, next = clear + 2, previous = -1;
  size_t bit = 0;
  bool first_clear = true;
  std::vector<int> out;
  auto string_of = [&](int code, std::vector<int>& s) {
    s.assign(static_cast<size_t>(length[static_cast<size_t>(code)]), 0);
    for (int c = code, i = length[static_cast<size_t>(code)] - 1; i >= 0; c = prefix[static_cast<size_t>(c)], --i)
      s[static_cast<size_t>(i)] = suffix[static_cast<size_t>(c)];
  };
  std::vector<int> s;
  while (true) {
    if (bit + static_cast<size_t>(width) > data.size() * 8) throw std::runtime_error("LZW data ends without the end code");
    int code = 0;
    for (int i = 0; i < width; ++i, ++bit)
      code |= ((data[bit / 8] >> (bit % 8)) & 1) << i;
    gif->max_code_width = std::max(gif->max_code_width, width);
    if (code == clear) {
      if (!first_clear) ++gif->clear_codes;
      first_clear = false;
      width = min_size + 1;
      next = clear + 2;
      previous = -1;
      continue;
    }
    if (code == end) break;
    if (previous < 0) {
      if (code >= clear) throw std::runtime_error("first code after a clear is not a colour");
      string_of(code, s);
    } else {
      if (code > next) throw std::runtime_error("LZW code " + std::to_string(code) + " beyond the table");
      if (code == next) {  // the string being defined: previous + its first colour
        string_of(previous, s);
        s.push_back(s[0]);
      } else {
        string_of(code, s);
      }
      if (next < 4096) {
        prefix[static_cast<size_t>(next)] = previous;
        suffix[static_cast<size_t>(next)] = s[0];
        length[static_cast<size_t>(next)] = length[static_cast<size_t>(previous)] + 1;
        ++next;
        if (next == (1 << width) && width < 12) ++width;
      }
    }
    out.insert(out.end(), s.begin(), s.end());
    previous = code;
  }
  if (out.size() != pixels)
    throw std::runtime_error("LZW gave " + std::to_string(out.size()) + " pixels, expected " + std::to_string(pixels));
  return out;
}

DecodedGif decode_gif(const std::vector<unsigned char>& bytes) {
  Reader r(bytes);
  DecodedGif gif;
  if (r.text(3) != "GIF") throw std::runtime_error("no GIF signature");
  gif.version = r.text(3);
  gif.width = r.u16();
  gif.height = r.u16();
  const int packed = r.u8();
  const int background = r.u8();
  r.u8();  // aspect
  std::vector<uint32_t> global;
  if (packed & 0x80) global = read_table(r, 2 << (packed & 7));
  const uint32_t background_rgb =
      background < static_cast<int>(global.size()) ? global[static_cast<size_t>(background)] : 0;
  std::vector<uint32_t> canvas(static_cast<size_t>(gif.width) * gif.height, background_rgb);
  int delay = 0, disposal = 0, transparent = -1;
  while (true) {
    const int block = r.u8();
    if (block == 0x3B) break;
    if (block == 0x21) {
      const int label = r.u8();
      if (label == 0xF9) {
        const std::vector<unsigned char> d = r.sub_blocks();
        if (d.size() != 4) throw std::runtime_error("bad graphic control extension");
        disposal = (d[0] >> 2) & 7;
        delay = d[1] | d[2] << 8;
        transparent = (d[0] & 1) ? d[3] : -1;
      } else if (label == 0xFF) {
        const std::vector<unsigned char> d = r.sub_blocks();
        if (d.size() == 14 && std::string(d.begin(), d.begin() + 11) == "NETSCAPE2.0" && d[11] == 1)
          gif.loop = d[12] | d[13] << 8;
      } else {
        r.sub_blocks();
      }
      continue;
    }
    if (block != 0x2C) throw std::runtime_error("unknown block " + std::to_string(block));
    DecodedFrame f;
    f.x = r.u16();
    f.y = r.u16();
    f.w = r.u16();
    f.h = r.u16();
    const int ip = r.u8();
    f.local_table = (ip & 0x80) != 0;
    const std::vector<uint32_t> table = f.local_table ? read_table(r, 2 << (ip & 7)) : global;
    if (table.empty()) throw std::runtime_error("an image without a colour table");
    f.table_size = static_cast<int>(table.size());
    if (f.x + f.w > gif.width || f.y + f.h > gif.height) throw std::runtime_error("image outside the screen");
    const int min_size = r.u8();
    const std::vector<int> idx =
        lzw_decode(r.sub_blocks(), min_size, static_cast<size_t>(f.w) * f.h, &gif);
    const std::vector<uint32_t> before = canvas;
    std::vector<int> rows(static_cast<size_t>(f.h));
    if (ip & 0x40) {  // interlaced: rows 0, 8, ... then 4, 12, ... then 2, 6, ... then 1, 3, ...
      int k = 0;
      for (const auto& [start, step] : {std::pair{0, 8}, {4, 8}, {2, 4}, {1, 2}})
        for (int y = start; y < f.h; y += step) rows[static_cast<size_t>(k++)] = y;
    } else {
      for (int y = 0; y < f.h; ++y) rows[static_cast<size_t>(y)] = y;
    }
    for (int i = 0; i < f.h; ++i)
      for (int x = 0; x < f.w; ++x) {
        const int c = idx[static_cast<size_t>(i) * f.w + x];
        if (c >= static_cast<int>(table.size())) throw std::runtime_error("index beyond the colour table");
        if (c != transparent)
          canvas[static_cast<size_t>(f.y + rows[static_cast<size_t>(i)]) * gif.width + f.x + x] =
              table[static_cast<size_t>(c)];
      }
    f.canvas = canvas;
    f.delay_cs = delay;
    f.disposal = disposal;
    gif.frames.push_back(f);
    if (disposal == 2) {  // restore to background
      for (int y = f.y; y < f.y + f.h; ++y)
        for (int x = f.x; x < f.x + f.w; ++x) canvas[static_cast<size_t>(y) * gif.width + x] = background_rgb;
    } else if (disposal == 3) {  // restore to previous
      canvas = before;
    }
    delay = 0;
    disposal = 0;
    transparent = -1;
  }
  if (!r.at_end()) throw std::runtime_error("bytes after the trailer");
  return gif;
}

std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ----------------------------------------------------------------- frames

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgba;
  Image(int w_, int h_) : w(w_), h(h_), rgba(static_cast<size_t>(w_) * h_ * 4, 255) {}
  void set(int x, int y, uint32_t c) {
    unsigned char* p = &rgba[(static_cast<size_t>(y) * w + x) * 4];
    p[0] = static_cast<unsigned char>(c >> 16);
    p[1] = static_cast<unsigned char>(c >> 8);
    p[2] = static_cast<unsigned char>(c);
    p[3] = static_cast<unsigned char>(x * 7 + y);  // alpha is ignored
  }
  uint32_t at(int x, int y) const {
    const unsigned char* p = &rgba[(static_cast<size_t>(y) * w + x) * 4];
    return static_cast<uint32_t>(p[0]) << 16 | static_cast<uint32_t>(p[1]) << 8 | p[2];
  }
  std::vector<uint32_t> rgb() const {
    std::vector<uint32_t> v;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) v.push_back(at(x, y));
    return v;
  }
  size_t distinct() const {
    const std::vector<uint32_t> v = rgb();
    return std::set<uint32_t>(v.begin(), v.end()).size();
  }
};

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("cilab-gif-" + std::to_string(::getpid()) + "-" + name)).string();
}

struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name) : path(temp_path(name)) {}
  ~TempFile() { std::remove(path.c_str()); }
};

// A frame of flat rectangles with colours from a palette of at most `colours` colours.
Image flat_frame(std::mt19937& rng, int w, int h, int colours) {
  std::uniform_int_distribution<uint32_t> any_colour(0, 0xFFFFFF);
  std::vector<uint32_t> palette(static_cast<size_t>(colours));
  for (auto& c : palette) c = any_colour(rng);
  Image im(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) im.set(x, y, palette[0]);
  const int rects = std::uniform_int_distribution<int>(0, 3 * colours)(rng);
  for (int i = 0; i < rects; ++i) {
    const int x0 = std::uniform_int_distribution<int>(0, w - 1)(rng);
    const int y0 = std::uniform_int_distribution<int>(0, h - 1)(rng);
    const int x1 = std::uniform_int_distribution<int>(x0 + 1, w)(rng);
    const int y1 = std::uniform_int_distribution<int>(y0 + 1, h)(rng);
    const uint32_t c = palette[static_cast<size_t>(i) % palette.size()];
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) im.set(x, y, c);
  }
  return im;
}

// Writes `frames` with their delays and decodes the file.
DecodedGif round_trip(const std::vector<Image>& frames, const std::vector<int>& delays, int loop,
                      const std::string& name) {
  TempFile f(name);
  GifWriter gw;
  std::string error;
  REQUIRE(gw.open(f.path, frames[0].w, frames[0].h, &error, loop));
  for (size_t i = 0; i < frames.size(); ++i) REQUIRE_MESSAGE(gw.add_frame(frames[i].rgba.data(), delays[i], &error), error);
  CHECK(gw.frames() == static_cast<int>(frames.size()));
  REQUIRE_MESSAGE(gw.close(&error), error);
  const std::vector<unsigned char> bytes = read_bytes(f.path);
  CHECK(static_cast<long long>(bytes.size()) == gw.bytes());
  return decode_gif(bytes);
}

}  // namespace

TEST_CASE("gif writer: flat-colour frames of random sizes round-trip exactly, with delays and loop count") {
  std::mt19937 rng(14);
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {1, 7}, {9, 1}, {2, 3}, {17, 13}, {64, 48}, {101, 37}, {255, 129}};
  int total_frames = 0;
  for (const auto& [w, h] : sizes) {
    std::vector<Image> frames;
    std::vector<int> delays;
    const int n = 12;
    for (int i = 0; i < n; ++i) {
      // 1, 2, 3, 4, 5, ..., 256 colours; some frames repeat the previous one,
      // some change a single pixel.
      const int colours = std::vector<int>{1, 2, 3, 4, 5, 16, 17, 100, 255, 256}[static_cast<size_t>(i) % 10];
      if (i > 0 && i % 5 == 0) {
        frames.push_back(frames.back());
      } else if (i > 0 && i % 7 == 0) {
        frames.push_back(frames.back());
        frames.back().set(w / 2, h / 2, 0x123456);
      } else {
        frames.push_back(flat_frame(rng, w, h, colours));
      }
      delays.push_back(std::uniform_int_distribution<int>(0, 65535)(rng));
    }
    const int loop = std::uniform_int_distribution<int>(0, 65535)(rng);
    const DecodedGif gif = round_trip(frames, delays, loop, "flat.gif");
    CHECK(gif.version == "89a");
    CHECK(gif.width == w);
    CHECK(gif.height == h);
    CHECK(gif.loop == loop);
    REQUIRE(gif.frames.size() == frames.size());
    for (size_t i = 0; i < frames.size(); ++i) {
      INFO("size " << w << "x" << h << ", frame " << i << " with " << frames[i].distinct() << " colours");
      REQUIRE(frames[i].distinct() <= 256);
      CHECK(gif.frames[i].canvas == frames[i].rgb());
      CHECK(gif.frames[i].delay_cs == delays[i]);
      CHECK(gif.frames[i].local_table);
    }
    // Only what changed is written: a repeated frame is one pixel, a one-pixel change one pixel.
    CHECK(gif.frames[0].w * gif.frames[0].h == w * h);
    CHECK(gif.frames[5].w * gif.frames[5].h == 1);
    if (frames[7].rgb() != frames[6].rgb()) {
      CHECK(gif.frames[7].w == 1);
      CHECK(gif.frames[7].h == 1);
      CHECK(gif.frames[7].x == w / 2);
      CHECK(gif.frames[7].y == h / 2);
    }
    total_frames += static_cast<int>(frames.size());
  }
  CHECK(total_frames == 96);
}

TEST_CASE("gif writer: many frames of a moving picture round-trip exactly") {
  // A plot-like animation: a background, a growing curve and a moving marker.
  const int w = 160, h = 90, n = 60;
  std::vector<Image> frames;
  std::vector<int> delays;
  for (int i = 0; i < n; ++i) {
    Image im(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) im.set(x, y, (x % 20 == 0 || y % 15 == 0) ? 0xDDDDDD : 0xFFFFFF);
    for (int x = 0; x <= i * w / n; ++x) {
      const int y = h / 2 + static_cast<int>(30 * std::sin(x * 0.08));
      im.set(x, y, 0x1F77B4);
    }
    for (int d = -2; d <= 2; ++d) im.set(std::min(w - 1, i * w / n), std::clamp(h / 2 + d, 0, h - 1), 0xD62728);
    frames.push_back(im);
    delays.push_back(4);
  }
  const DecodedGif gif = round_trip(frames, delays, 0, "plot.gif");
  CHECK(gif.loop == 0);
  REQUIRE(gif.frames.size() == static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) CHECK(gif.frames[static_cast<size_t>(i)].canvas == frames[static_cast<size_t>(i)].rgb());
  // Every later frame writes less than the whole screen.
  for (int i = 1; i < n; ++i) CHECK(gif.frames[static_cast<size_t>(i)].w < w);
}

TEST_CASE("gif writer: a noisy 300x300 frame uses 12-bit codes and clear codes and round-trips") {
  std::mt19937 rng(3);
  for (const int colours : {256, 4, 2}) {
    std::vector<uint32_t> palette(static_cast<size_t>(colours));
    for (int i = 0; i < colours; ++i) palette[static_cast<size_t>(i)] = static_cast<uint32_t>(i) * 0x010203u + 7;
    Image im(300, 300);
    std::uniform_int_distribution<int> pick(0, colours - 1);
    for (int y = 0; y < 300; ++y)
      for (int x = 0; x < 300; ++x) im.set(x, y, palette[static_cast<size_t>(pick(rng))]);
    Image second = im;  // a second frame: noise in a sub-rectangle
    for (int y = 11; y < 250; ++y)
      for (int x = 33; x < 299; ++x) second.set(x, y, palette[static_cast<size_t>(pick(rng))]);
    const DecodedGif gif = round_trip({im, second}, {10, 20}, 0, "noise.gif");
    INFO(colours << " colours");
    REQUIRE(gif.frames.size() == 2);
    CHECK(gif.frames[0].canvas == im.rgb());
    CHECK(gif.frames[1].canvas == second.rgb());
    CHECK(gif.frames[0].table_size == std::max(2, colours));
    CHECK(gif.max_code_width == 12);
    CHECK(gif.clear_codes >= 1);  // 90 000 noisy pixels need more than one table of 4096 codes
  }
}

TEST_CASE("gif writer: frames of more than 256 colours decode within a bounded colour error") {
  // A smooth two-colour ramp (65 536 colours on a plane) and a photo-like
  // frame: 40 flat colours with +-3 noise, so ~40 x 343 colours in small clusters.
  std::mt19937 rng(5);
  Image ramp(256, 256);
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) ramp.set(x, y, static_cast<uint32_t>(x) << 16 | static_cast<uint32_t>(y) << 8 | 128);
  Image noisy(200, 120);
  std::uniform_int_distribution<uint32_t> any(0x101010, 0xEFEFEF);
  std::vector<uint32_t> base(40);
  for (auto& c : base) c = any(rng) & 0xF0F0F0;  // at least 16 apart per channel
  std::uniform_int_distribution<int> jitter(-3, 3);
  for (int y = 0; y < 120; ++y)
    for (int x = 0; x < 200; ++x) {
      const uint32_t c = base[static_cast<size_t>((x / 20 + y / 20 * 10) % 40)];
      const int r = static_cast<int>(c >> 16) + jitter(rng), g = static_cast<int>((c >> 8) & 255) + jitter(rng),
                b = static_cast<int>(c & 255) + jitter(rng);
      noisy.set(x, y, static_cast<uint32_t>(r) << 16 | static_cast<uint32_t>(g) << 8 | static_cast<uint32_t>(b));
    }
  // Bounds: 256 colours over the ramp's 256 x 256 plane leave squares of 16 x 16
  // colours, so an error of at most 8 per channel and 4 on average in red and
  // green (0 in blue): bounds 12 and 4 leave room for unequal boxes. A cluster
  // (7 wide) that no box shares with another maps to a mean of some of its own
  // pixels: at most 6 off, and on average less than the 12/7 of its centre.
  struct Case {
    const Image* im;
    double max_bound, mean_bound;
  };
  for (const Case& c : {Case{&ramp, 12, 4}, Case{&noisy, 6, 12.0 / 7}}) {
    REQUIRE(c.im->distinct() > 256);
    const DecodedGif gif = round_trip({*c.im}, {0}, -1, "many.gif");
    CHECK(gif.loop == -1);
    REQUIRE(gif.frames.size() == 1);
    CHECK(gif.frames[0].table_size == 256);
    const std::vector<uint32_t> want = c.im->rgb();
    const std::vector<uint32_t>& got = gif.frames[0].canvas;
    int max_err = 0;
    double sum = 0;
    for (size_t i = 0; i < want.size(); ++i)
      for (int shift : {16, 8, 0}) {
        const int e = std::abs(static_cast<int>((want[i] >> shift) & 255) - static_cast<int>((got[i] >> shift) & 255));
        max_err = std::max(max_err, e);
        sum += e;
      }
    const double mean = sum / (3.0 * static_cast<double>(want.size()));
    INFO("max error " << max_err << ", mean " << mean);
    CHECK(max_err <= c.max_bound);
    CHECK(mean <= c.mean_bound);
  }
}

TEST_CASE("gif writer: a quantised frame followed by an exact one: the canvas stays right") {
  // After a quantised frame the decoder shows the quantised pixels; the next
  // frame's changed rectangle is taken against those, so it is exact again.
  Image ramp(64, 64);
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) ramp.set(x, y, static_cast<uint32_t>(x * 4) << 16 | static_cast<uint32_t>(y * 4) << 8);
  Image flat(64, 64);
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) flat.set(x, y, x < 32 ? 0x00FF00 : 0x0000FF);
  const DecodedGif gif = round_trip({ramp, flat, ramp}, {1, 2, 3}, 2, "mixed.gif");
  CHECK(gif.loop == 2);
  REQUIRE(gif.frames.size() == 3);
  CHECK(gif.frames[1].canvas == flat.rgb());
  CHECK(gif.frames[2].canvas == gif.frames[0].canvas);  // the same picture quantised the same way
  CHECK(gif.frames[2].canvas != ramp.rgb());
}

TEST_CASE("gif writer: the output is a GIF89a the file command recognises") {
  TempFile f("magic.gif");
  Image im(33, 17);
  GifWriter gw;
  std::string error;
  REQUIRE(gw.open(f.path, im.w, im.h, &error));
  REQUIRE(gw.add_frame(im.rgba.data(), 5, &error));
  REQUIRE(gw.close(&error));
  const std::vector<unsigned char> bytes = read_bytes(f.path);
  REQUIRE(bytes.size() > 13);
  CHECK(std::string(bytes.begin(), bytes.begin() + 6) == "GIF89a");
  CHECK(bytes.back() == 0x3B);
  // file(1) ships with every Debian install used here; its absence is a failure, not a skip.
  const std::string cmd = "file -b '" + f.path + "'";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char line[256] = {};
  const bool read = std::fgets(line, sizeof line, p) != nullptr;
  ::pclose(p);
  REQUIRE(read);
  CHECK(std::string(line).find("GIF image data, version 89a, 33 x 17") != std::string::npos);
}

TEST_CASE("gif writer: failures are reported with the path and what to check") {
  std::string error;
  GifWriter gw;
  const std::string missing = "/nonexistent-cilab-folder/anim.gif";
  CHECK_FALSE(gw.open(missing, 10, 10, &error));
  CHECK(error.find("cannot write animation " + missing + ": ") == 0);
  CHECK(error.find("check") != std::string::npos);
  CHECK_FALSE(gw.is_open());

  const std::string dir = std::filesystem::temp_directory_path().string();  // a folder is not a file
  CHECK_FALSE(gw.open(dir, 10, 10, &error));
  CHECK(error.find("cannot write animation " + dir) == 0);

  TempFile f("bad.gif");
  CHECK_FALSE(gw.open(f.path, 0, 10, &error));
  CHECK(error.find("0x10") != std::string::npos);
  CHECK_FALSE(gw.open(f.path, 10, 10, &error, -2));
  CHECK(error.find("loop") != std::string::npos);

  Image im(10, 10);
  CHECK_FALSE(gw.add_frame(im.rgba.data(), 1, &error));  // not open
  CHECK(error.find("no animation is open") != std::string::npos);
  REQUIRE(gw.open(f.path, 10, 10, &error));
  CHECK_FALSE(gw.add_frame(im.rgba.data(), -1, &error));
  CHECK(error.find("delay") != std::string::npos);
  CHECK_FALSE(gw.add_frame(nullptr, 1, &error));
  // No frame: closing fails and leaves no file behind.
  CHECK_FALSE(gw.close(&error));
  CHECK(error.find("no frame") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(f.path));

  // A full disk: the write or the close fails with the system's reason.
  std::mt19937 rng(1);
  Image noise(300, 300);
  for (int y = 0; y < 300; ++y)
    for (int x = 0; x < 300; ++x) noise.set(x, y, rng() & 0xFFFFFF);
  REQUIRE(gw.open("/dev/full", 300, 300, &error));
  const bool added = gw.add_frame(noise.rgba.data(), 1, &error);
  const bool closed = gw.close(&error);
  CHECK_FALSE(added);
  CHECK_FALSE(closed);
  CHECK(error.find("cannot write animation /dev/full: ") == 0);
  CHECK(error.find("space") != std::string::npos);
}
