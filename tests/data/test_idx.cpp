// IDX round trips: small arrays of every element type written raw and gzip to
// a temp dir, read back through load_file; shapes, values, image shape and
// auto-paired labels.
#include "algorithms/data/datasets.h"
#include "tests/data/test_util.h"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace {

using cilab::load_file;
using cilab_test::idx_bytes;
using cilab_test::TempDir;
using cilab_test::write_bytes;
using cilab_test::write_gzip;

std::string be_bytes(const void* p, size_t n) {
  std::string s(static_cast<const char*>(p), n);
  return std::string(s.rbegin(), s.rend());  // little-endian host -> big-endian file
}

}  // namespace

TEST_CASE("idx: 3-D ubyte images round-trip raw and gzip with image shape") {
  TempDir tmp;
  const int n = 5, h = 3, w = 4;
  std::string payload;
  for (int i = 0; i < n * h * w; ++i) payload += static_cast<char>((i * 7) % 256);
  const std::string bytes = idx_bytes(0x08, {n, h, w}, payload);
  for (const std::string& path : {write_bytes(tmp.file("toy-images.idx3"), bytes),
                                  write_gzip(tmp.file("toy-images.idx3.gz"), bytes)}) {
    CAPTURE(path);
    const auto d = load_file(path);
    REQUIRE(d->rows() == n);
    REQUIRE(d->cols() == h * w);
    CHECK(d->image_h == h);
    CHECK(d->image_w == w);
    CHECK(d->is_image());
    CHECK(!d->has_labels());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < h * w; ++j) CHECK(d->x(i, j) == static_cast<double>(((i * h * w + j) * 7) % 256));
  }
}

TEST_CASE("idx: every element type decodes big-endian values") {
  TempDir tmp;
  const std::vector<double> want = {-3, 0, 1, 2, 100, -100};
  std::string sbyte, sshort, sint, sfloat, sdouble;
  for (double v : want) {
    sbyte += static_cast<char>(static_cast<int8_t>(v));
    const int16_t s16 = static_cast<int16_t>(v * 300);
    sshort += be_bytes(&s16, 2);
    const int32_t s32 = static_cast<int32_t>(v * 100000);
    sint += be_bytes(&s32, 4);
    const float f = static_cast<float>(v * 0.5);
    sfloat += be_bytes(&f, 4);
    const double dd = v * 0.001;
    sdouble += be_bytes(&dd, 8);
  }
  struct Case {
    uint8_t type;
    std::string payload;
    double scale;
  };
  const Case cases[] = {{0x09, sbyte, 1}, {0x0B, sshort, 300}, {0x0C, sint, 100000},
                        {0x0D, sfloat, 0.5}, {0x0E, sdouble, 0.001}};
  for (const Case& c : cases) {
    CAPTURE(int(c.type));
    const std::string path = write_bytes(tmp.file("t.idx"), idx_bytes(c.type, {3, 2}, c.payload));
    const auto d = load_file(path);
    REQUIRE(d->rows() == 3);
    REQUIRE(d->cols() == 2);
    CHECK(!d->is_image());
    for (int i = 0; i < 6; ++i) CHECK(d->x(i / 2, i % 2) == doctest::Approx(want[static_cast<size_t>(i)] * c.scale));
  }
}

TEST_CASE("idx: a 1-D file alone is a label vector loaded as n x 1") {
  TempDir tmp;
  const std::string payload = std::string("\x02\x00\x01\x02\x09", 5);
  const auto d = load_file(write_gzip(tmp.file("x-labels-idx1-ubyte.gz"), idx_bytes(0x08, {5}, payload)));
  REQUIRE(d->rows() == 5);
  REQUIRE(d->cols() == 1);
  CHECK(d->labels == std::vector<int>{2, 0, 1, 2, 9});
  CHECK(d->num_classes() == 10);
  CHECK(d->x(4, 0) == 9.0);
}

TEST_CASE("idx: an images file is paired with its sibling labels file") {
  TempDir tmp;
  std::string pixels(4 * 2 * 2, '\0');
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<char>(i);
  write_gzip(tmp.file("mini-images-idx3-ubyte.gz"), idx_bytes(0x08, {4, 2, 2}, pixels));
  write_gzip(tmp.file("mini-labels-idx1-ubyte.gz"), idx_bytes(0x08, {4}, std::string("\x03\x01\x00\x03", 4)));
  const auto d = load_file(tmp.file("mini-images-idx3-ubyte.gz"));
  REQUIRE(d->rows() == 4);
  CHECK(d->labels == std::vector<int>{3, 1, 0, 3});
  CHECK(d->source.find("mini-labels-idx1-ubyte.gz") != std::string::npos);
  // Raw images with a gzip sibling pair too.
  write_bytes(tmp.file("raw-images-idx3-ubyte"), idx_bytes(0x08, {4, 2, 2}, pixels));
  write_gzip(tmp.file("raw-labels-idx1-ubyte.gz"), idx_bytes(0x08, {4}, std::string("\x01\x01\x00\x00", 4)));
  CHECK(load_file(tmp.file("raw-images-idx3-ubyte"))->labels == std::vector<int>{1, 1, 0, 0});
  // Without a sibling there are no labels.
  write_bytes(tmp.file("lonely-images-idx3-ubyte"), idx_bytes(0x08, {4, 2, 2}, pixels));
  CHECK(!load_file(tmp.file("lonely-images-idx3-ubyte"))->has_labels());
}

TEST_CASE("idx: concatenated gzip members are read as one stream") {
  TempDir tmp;
  const std::string whole = idx_bytes(0x08, {2, 3}, "abcdef");
  const std::string a = tmp.file("a.gz"), b = tmp.file("b.gz");
  write_gzip(a, whole.substr(0, 7));
  write_gzip(b, whole.substr(7));
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  const std::string joined = std::string(std::istreambuf_iterator<char>(fa), {}) +
                             std::string(std::istreambuf_iterator<char>(fb), {});
  const auto d = load_file(write_bytes(tmp.file("joined.idx.gz"), joined));
  REQUIRE(d->rows() == 2);
  CHECK(d->x(1, 2) == static_cast<double>('f'));
}
