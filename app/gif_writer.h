// Animated GIF (GIF89a) written frame by frame, with no library: LZW with
// variable code widths (3..12 bits) and clear codes, one local colour table per
// frame, a Graphic Control Extension per frame for its delay, and the
// NETSCAPE2.0 application extension for looping.
//
// Colours: a frame (or the part of it that changed) with at most 256 distinct
// RGB colours is written EXACTLY (its own colours, in order of first
// appearance). With more, median cut on a 5-bit-per-channel histogram picks 256
// colours (each the mean of the pixels of its box) and every pixel takes the
// palette colour nearest (squared RGB distance) to the mean of its histogram
// cell; no dithering (flat plot colours need none, and it would defeat the
// changed-rectangle saving below).
//
// Size: after the first frame only the bounding rectangle of the pixels that
// differ from what a decoder shows at that point (the previous frames as
// decoded) is written, with disposal "do not dispose", so unchanged pixels stay
// exactly as they were; an unchanged frame becomes a 1x1 frame that keeps its
// delay. Alpha is ignored: every pixel is opaque.
#pragma once

#include <memory>
#include <string>

namespace cilab {

// Writes an animated GIF frame by frame (all frames width x height).
class GifWriter {
 public:
  GifWriter();
  // Closes the file if still open (no error reported then).
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // The largest width or height GIF allows.
  static constexpr int kMaxSide = 65535;

  // Creates `path` for a width x height animation (1..kMaxSide each).
  // loop: 0 repeats forever; n in 1..65535 is written as NETSCAPE2.0 loop count
  // n, which browsers play n + 1 times (the first play, then n repeats);
  // -1 writes no loop extension (played once). A writer already open is closed
  // first. False with *error ("cannot write animation PATH: reason; check ...")
  // on failure.
  bool open(const std::string& path, int width, int height, std::string* error, int loop = 0);
  // rgba: width*height*4 bytes, top row first (alpha ignored). delay_cs: display
  // time in 1/100 s, 0..65535 (browsers show 0 and 1 as 10).
  // False with *error when not open, on a bad argument or a write error.
  bool add_frame(const unsigned char* rgba, int delay_cs, std::string* error);
  // Writes the trailer and closes. False on a write error (or when an earlier
  // write failed, or nothing is open); the file is closed in any case.
  bool close(std::string* error);
  // Frames added since open().
  int frames() const;
  // Bytes written to the file so far.
  long long bytes() const;
  // True between a successful open() and close().
  bool is_open() const;

 private:
  struct State;
  std::unique_ptr<State> st_;
};

}  // namespace cilab
