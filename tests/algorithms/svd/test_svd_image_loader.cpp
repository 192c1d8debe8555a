// Grayscale image loading (PNG through stb_image, PGM/PPM) for svd-lowrank.
#include "algorithms/data/image_loader.h"

#include "algorithms/data/datasets.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace cilab;

namespace {

std::string temp_file(const std::string& name, const std::string& bytes) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "cilab_svd_image_tests";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

}  // namespace

TEST_CASE("svd image loader: binary PGM (P5) pixels are read row-major and scaled by 1/maxval") {
  std::string bytes = "P5\n# a comment\n3 2\n255\n";
  const unsigned char px[6] = {0, 51, 102, 153, 204, 255};
  bytes.append(reinterpret_cast<const char*>(px), 6);
  const Eigen::MatrixXd m = load_gray_image(temp_file("p5.pgm", bytes));
  REQUIRE(m.rows() == 2);
  REQUIRE(m.cols() == 3);
  for (int i = 0; i < 6; ++i) CHECK(m(i / 3, i % 3) == doctest::Approx(px[i] / 255.0));
}

TEST_CASE("svd image loader: ASCII PGM (P2) and PPM (P3, luma) are read") {
  const Eigen::MatrixXd g = load_gray_image(temp_file("p2.pgm", "P2\n2 2\n# max\n10\n0 5\n10 2\n"));
  REQUIRE(g.rows() == 2);
  CHECK(g(0, 1) == doctest::Approx(0.5));
  CHECK(g(1, 0) == doctest::Approx(1.0));
  CHECK(g(1, 1) == doctest::Approx(0.2));
  const Eigen::MatrixXd c = load_gray_image(temp_file("p3.ppm", "P3 1 1 255 255 255 255\n"));
  CHECK(c(0, 0) == doctest::Approx(1.0));  // (77 + 150 + 29) / 256 = 1
}

TEST_CASE("svd image loader: the shipped PNG photograph decodes to a 512 x 512 one-row image dataset") {
  const std::shared_ptr<const Dataset> d = photo_dataset();
  CHECK(d->rows() == 1);
  CHECK(d->image_h == 512);
  CHECK(d->image_w == 512);
  CHECK(d->cols() == 512 * 512);
  CHECK(d->x.minCoeff() >= 0.0);
  CHECK(d->x.maxCoeff() <= 1.0);
  CHECK(photo_dataset() == d);  // loaded once, shared
  const std::shared_ptr<const Dataset> again = load_image_dataset(asset_path(kPhotoAsset));
  CHECK(again->x == d->x);
  CHECK(again->name == "camera");
}

TEST_CASE("svd image loader: bad files give clear errors") {
  CHECK_THROWS_WITH_AS(load_gray_image("/nonexistent/photo.png"), doctest::Contains("image not found"),
                       DataError);
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("empty.png", "")), doctest::Contains("empty file"), DataError);
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("text.png", "hello,world\n1,2\n")),
                       doctest::Contains("expected a PNG signature"), DataError);
  // A PNG signature followed by junk: its first "chunk" claims more bytes than the file has.
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("junk.png", std::string("\x89PNG\r\n\x1a\n", 8) + "junkjunkjunk")),
                       doctest::Contains("byte 8: PNG chunk 'junk': expected 1786080875 data bytes"), DataError);
  // Chunks that fit but no image header: stb_image's own error.
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("noihdr.png", std::string("\x89PNG\r\n\x1a\n", 8) +
                                                                   std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12))),
                       doctest::Contains("cannot decode the image"), DataError);
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("over.pgm", "P2\n1 1\n10\n11\n")),
                       doctest::Contains("expected a gray value <= 10"), DataError);
  // Too few bytes for 4 values is refused before allocating; enough bytes but 3 values runs out.
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("short.pgm", "P2\n2 2\n10\n1 2 3\n")),
                       doctest::Contains("expected 4 ASCII sample values for 2 x 2"), DataError);
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("short.pgm", "P2\n2 2\n10\n1 2 3     \n")),
                       doctest::Contains("found the end of the file"), DataError);
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("huge.pgm", "P2\n100000 1\n10\n")),
                       doctest::Contains("expected width and height in [1, 8192]"), DataError);
  // Truncated binary PGM.
  CHECK_THROWS_WITH_AS(load_gray_image(temp_file("trunc.pgm", "P5\n4 4\n255\nab")),
                       doctest::Contains("truncated file"), DataError);
}
