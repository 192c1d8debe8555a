// Images through the generic loader: a PNG or PGM file becomes a one-row
// image dataset (svd-lowrank decomposes it); CSV headers that start like a
// PGM magic stay CSV.
#include "algorithms/data/datasets.h"
#include "algorithms/data/image_loader.h"
#include "tests/data/test_util.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <zlib.h>

using namespace cilab;

TEST_CASE("image files: the shipped PNG loads through load_file as a one-row image") {
  const std::shared_ptr<const Dataset> d = load_file(asset_path(kPhotoAsset));
  REQUIRE(d->rows() == 1);
  CHECK(d->image_h > 0);
  CHECK(d->image_w > 0);
  CHECK(d->cols() == d->image_h * d->image_w);
  CHECK(d->x.minCoeff() >= 0.0);
  CHECK(d->x.maxCoeff() <= 1.0);
  CHECK(d->x.maxCoeff() > d->x.minCoeff());
  const std::shared_ptr<const Dataset> p = make_dataset("photo");
  CHECK(p->x == d->x);
}

TEST_CASE("image files: a PGM written here round-trips - CSV headers like P2,P3 stay CSV") {
  {
    std::ofstream pgm("tiny.pgm", std::ios::binary);
    pgm << "P2\n# a comment\n3 2\n255\n0 128 255\n255 0 64\n";
  }
  const std::shared_ptr<const Dataset> d = load_file("tiny.pgm");
  REQUIRE(d->rows() == 1);
  CHECK(d->image_h == 2);
  CHECK(d->image_w == 3);
  CHECK(d->x(0, 2) == doctest::Approx(1.0));
  CHECK(d->x(0, 5) == doctest::Approx(64.0 / 255.0));
  {
    std::ofstream csv("p2header.csv");
    csv << "P2,P3\n1,2\n3,4\n";
  }
  const std::shared_ptr<const Dataset> c = load_file("p2header.csv");
  CHECK(c->rows() == 2);
  CHECK(c->cols() == 2);
  CHECK(c->column_names[0] == "P2");
  std::remove("tiny.pgm");
  std::remove("p2header.csv");
}

namespace {

// A PNG chunk: length, type, body, CRC-32 of type + body.
std::string png_chunk(const std::string& type, const std::string& body) {
  std::string out;
  cilab_test::put_be32(out, static_cast<uint32_t>(body.size()));
  out += type + body;
  const std::string crc_in = type + body;
  cilab_test::put_be32(out, static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(crc_in.data()),
                                                        static_cast<uInt>(crc_in.size()))));
  return out;
}

// An 8-bit gray PNG of `rows` (h rows of w pixels); `empty_idat` puts a
// zero-length IDAT chunk before the data.
std::string gray_png(const std::vector<std::string>& rows, bool empty_idat) {
  std::string raw;
  for (const std::string& r : rows) raw += '\0' + r;  // filter type 0 per scanline
  uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
  std::string packed(packed_size, '\0');
  REQUIRE(compress(reinterpret_cast<Bytef*>(&packed[0]), &packed_size,
                   reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size())) == Z_OK);
  packed.resize(packed_size);
  std::string ihdr;
  cilab_test::put_be32(ihdr, static_cast<uint32_t>(rows[0].size()));
  cilab_test::put_be32(ihdr, static_cast<uint32_t>(rows.size()));
  ihdr += std::string("\x08\x00\x00\x00\x00", 5);  // 8-bit gray, no interlace
  return std::string("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) +
         (empty_idat ? png_chunk("IDAT", "") : std::string()) + png_chunk("IDAT", packed) + png_chunk("IEND", "");
}

}  // namespace

// libFuzzer finding (tests/fuzz/fuzz_image.cpp): stb_image copied the empty chunk
// into a null buffer (undefined behaviour, caught by the UBSan build). Empty IDAT
// chunks are legal PNG and must decode like the file without them.
TEST_CASE("image files: a PNG with an empty first IDAT chunk decodes like the file without it") {
  const std::vector<std::string> rows = {std::string("\x00\x80\xff", 3), std::string("\x0a\x14\x1e", 3)};
  const std::string with = gray_png(rows, true), without = gray_png(rows, false);
  REQUIRE(with.size() == without.size() + 12);
  const Eigen::MatrixXd a = decode_gray_image(reinterpret_cast<const unsigned char*>(with.data()), with.size(), "with.png");
  const Eigen::MatrixXd b = decode_gray_image(reinterpret_cast<const unsigned char*>(without.data()), without.size(), "without.png");
  REQUIRE(a.rows() == 2);
  REQUIRE(a.cols() == 3);
  CHECK(a == b);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      CHECK(a(r, c) == static_cast<unsigned char>(rows[static_cast<size_t>(r)][static_cast<size_t>(c)]) / 255.0);
}

TEST_CASE("image files: a folder of class folders loads as torchvision's ImageFolder, and bad folders say why") {
  cilab_test::TempDir root;
  using cilab_test::write_bytes;
  std::filesystem::create_directories(root.file("shapes/ring"));
  std::filesystem::create_directories(root.file("shapes/bar"));
  std::filesystem::create_directories(root.file("shapes/.hidden"));
  // 3 x 2 grey images: pixel value v / 255 everywhere but the first.
  auto pgm = [](int v) { return "P2\n3 2\n255\n0 " + std::to_string(v) + " " + std::to_string(v) + "\n1 2 3\n"; };
  write_bytes(root.file("shapes/ring/b.pgm"), pgm(20));
  write_bytes(root.file("shapes/ring/a.PGM"), pgm(10));
  write_bytes(root.file("shapes/ring/notes.txt"), "not an image");
  write_bytes(root.file("shapes/bar/x.pgm"), pgm(30));
  const std::shared_ptr<const Dataset> d = load_file(root.file("shapes/"));
  REQUIRE(d->rows() == 3);
  CHECK(d->image_h == 2);
  CHECK(d->image_w == 3);
  CHECK(d->name == "shapes");
  // Classes sorted by name (bar = 0, ring = 1), files sorted within each (a before b).
  CHECK(d->class_names == std::vector<std::string>{"bar", "ring"});
  CHECK(d->labels == std::vector<int>{0, 1, 1});
  CHECK(d->x(0, 1) == doctest::Approx(30.0 / 255.0));
  CHECK(d->x(1, 1) == doctest::Approx(10.0 / 255.0));
  CHECK(d->x(2, 1) == doctest::Approx(20.0 / 255.0));
  CHECK(d->source.find("image folder: 3 images of 2 x 3 in 2 classes") != std::string::npos);

  auto error_of = [](const std::string& path) {
    try {
      load_file(path);
    } catch (const DataError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  write_bytes(root.file("shapes/ring/z.pgm"), "P2\n2 2\n255\n0 0\n0 0\n");  // after x.pgm, the first
  CHECK(error_of(root.file("shapes")).find("z.pgm: expected 2 x 3 pixels") != std::string::npos);
  std::filesystem::remove(root.file("shapes/ring/z.pgm"));
  std::filesystem::create_directories(root.file("shapes/empty"));
  CHECK(error_of(root.file("shapes")).find("class folder 'empty' holds no PNG") != std::string::npos);
  std::filesystem::create_directories(root.file("flat"));
  write_bytes(root.file("flat/a.pgm"), pgm(1));
  CHECK(error_of(root.file("flat")).find("found a directory without class folders of images") != std::string::npos);
}
