// Images through the generic loader: a PNG or PGM file becomes a one-row
// image dataset (svd-lowrank decomposes it); CSV headers that start like a
// PGM magic stay CSV.
#include "algorithms/data/datasets.h"
#include "algorithms/data/image_loader.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

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
