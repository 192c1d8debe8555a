// An independent GIF decoder for the tests, written from the GIF89a specification
// (blocks, LZW with growing code widths and clear codes, global and local colour
// tables, sub-rectangles, interlacing, the four disposal methods): it checks
// GifWriter (tests/app/test_gif_writer.cpp) and the app's animated export.
// Header-only; throws std::runtime_error on a malformed file.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace cilab::test_support {

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

inline std::vector<uint32_t> read_table(Reader& r, int n) {
  std::vector<uint32_t> t(static_cast<size_t>(n));
  for (auto& c : t) {
    const uint32_t red = static_cast<uint32_t>(r.u8()), green = static_cast<uint32_t>(r.u8());
    c = red << 16 | green << 8 | static_cast<uint32_t>(r.u8());
  }
  return t;
}

// LZW decoding as in the GIF89a specification, appendix F.
inline std::vector<int> lzw_decode(const std::vector<unsigned char>& data, int min_size, size_t pixels, DecodedGif* gif) {
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

inline DecodedGif decode_gif(const std::vector<unsigned char>& bytes) {
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

inline std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}


}  // namespace cilab::test_support
