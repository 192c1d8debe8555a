// Good CSV/TSV files: delimiters, header detection, label detection, quoting,
// BOM/CRLF, gzip, blank lines and comments. Each case writes its file to a
// temp dir so the content sits next to the assertions.
#include "algorithms/data/csv_writer.h"
#include "algorithms/data/datasets.h"
#include "tests/data/test_util.h"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

namespace {

using cilab::Dataset;
using cilab::load_file;
using cilab_test::TempDir;
using cilab_test::write_bytes;

std::shared_ptr<const Dataset> load_text(const std::string& name, const std::string& text) {
  TempDir tmp;
  return load_file(write_bytes(tmp.file(name), text));
}

}  // namespace

TEST_CASE("csv: comma, semicolon and tab delimiters give the same matrix") {
  const auto comma = load_text("c.csv", "a,b,c\n1,2,3\n4,5,6\n");
  const auto semi = load_text("s.csv", "a;b;c\n1;2;3\n4;5;6\n");
  const auto tab = load_text("t.tsv", "a\tb\tc\n1\t2\t3\n4\t5\t6\n");
  for (const auto& d : {comma, semi, tab}) {
    REQUIRE(d->rows() == 2);
    REQUIRE(d->cols() == 3);
    CHECK(d->column_names == std::vector<std::string>{"a", "b", "c"});
    CHECK(!d->has_labels());
  }
  CHECK(comma->x == semi->x);
  CHECK(comma->x == tab->x);
  CHECK(comma->x(1, 2) == 6.0);
  CHECK(comma->x(0, 1) == 2.0);
  CHECK(semi->source.find("semicolon") != std::string::npos);
  CHECK(tab->source.find("tab") != std::string::npos);
}

TEST_CASE("csv: whitespace-separated columns are accepted") {
  const auto d = load_text("w.txt", "1.5  2.5 3\n  4 5   6\n");
  REQUIRE(d->rows() == 2);
  REQUIRE(d->cols() == 3);
  CHECK(d->x(1, 0) == 4.0);
  CHECK(d->x(0, 1) == 2.5);
}

TEST_CASE("csv: semicolon files may use a decimal comma") {
  const auto d = load_text("eu.csv", "x;y\n1,5;-2,25\n3;4\n");
  REQUIRE(d->rows() == 2);
  CHECK(d->x(0, 0) == 1.5);
  CHECK(d->x(0, 1) == -2.25);
}

TEST_CASE("csv: header detected only when row 1 is non-numeric and row 2 numeric") {
  const auto with = load_text("h.csv", "x,y\n1,2\n3,4\n");
  CHECK(with->rows() == 2);
  CHECK(with->column_names == std::vector<std::string>{"x", "y"});
  const auto without = load_text("n.csv", "1,2\n3,4\n5,6\n");
  CHECK(without->rows() == 3);
  CHECK(without->column_names == std::vector<std::string>{"x0", "x1"});
  CHECK(without->x(0, 0) == 1.0);
  // A single numeric row is data, not a header.
  const auto one = load_text("one.csv", "7,8,9\n");
  CHECK(one->rows() == 1);
  CHECK(one->cols() == 3);
}

TEST_CASE("csv: a named label column becomes the labels wherever it is") {
  for (const char* name : {"label", "Class", "SPECIES", "target"}) {
    CAPTURE(name);
    const auto d = load_text("l.csv", std::string(name) + ",f1,f2\ncat,1,2\ndog,3,4\ncat,5,6\n");
    REQUIRE(d->cols() == 2);
    CHECK(d->column_names == std::vector<std::string>{"f1", "f2"});
    CHECK(d->labels == std::vector<int>{0, 1, 0});
    CHECK(d->class_names == std::vector<std::string>{"cat", "dog"});
    CHECK(d->x(1, 0) == 3.0);
  }
}

TEST_CASE("csv: a non-numeric last column without header becomes the labels") {
  const auto d = load_text("iris_like.csv", "5.1,3.5,setosa\n7.0,3.2,versicolor\n6.3,3.3,virginica\n4.9,3.0,setosa\n");
  REQUIRE(d->rows() == 4);
  REQUIRE(d->cols() == 2);
  // Class ids in order of first appearance.
  CHECK(d->class_names == std::vector<std::string>{"setosa", "versicolor", "virginica"});
  CHECK(d->labels == std::vector<int>{0, 1, 2, 0});
  CHECK(d->num_classes() == 3);
}

TEST_CASE("csv: a numeric label column maps sorted values to ids named by the numbers") {
  const auto d = load_text("num.csv", "x,y,label\n0.5,1,1\n0.7,2,-1\n0.1,3,1\n0.2,4,3\n");
  REQUIRE(d->cols() == 2);
  CHECK(d->class_names == std::vector<std::string>{"-1", "1", "3"});
  CHECK(d->labels == std::vector<int>{1, 0, 1, 2});
  // Empty label cells are unlabelled (-1); non-integer "labels" stay features.
  const auto partial = load_text("p.csv", "x,class\n1,a\n2,\n3,b\n");
  CHECK(partial->labels == std::vector<int>{0, -1, 1});
  const auto reg = load_text("r.csv", "x,target\n1,0.5\n2,1.25\n");
  CHECK(!reg->has_labels());
  REQUIRE(reg->cols() == 2);
  CHECK(reg->x(1, 1) == 1.25);
  CHECK(reg->column_names[1] == "target");
}

TEST_CASE("csv: quoted fields, doubled quotes and padded cells") {
  const auto d = load_text("q.csv",
                           "\"x\",\"y, with comma\",name\n"
                           "\"1\", 2 ,\"a \"\"quoted\"\" name\"\n"
                           " 3 ,\"4\",\"plain, comma\"\n");
  REQUIRE(d->rows() == 2);
  REQUIRE(d->cols() == 2);
  CHECK(d->column_names[1] == "y, with comma");
  CHECK(d->class_names == std::vector<std::string>{"a \"quoted\" name", "plain, comma"});
  CHECK(d->x(0, 1) == 2.0);
  CHECK(d->x(1, 0) == 3.0);
}

TEST_CASE("csv: UTF-8 BOM, CRLF, blank and comment lines, no final newline") {
  const std::string text = "\xEF\xBB\xBFx,y\r\n# a comment\r\n1,2\r\n\r\n3,+4e-1\r\n\r\n\r\n";
  const auto d = load_text("bom.csv", text);
  REQUIRE(d->rows() == 2);
  CHECK(d->column_names == std::vector<std::string>{"x", "y"});
  CHECK(d->x(1, 1) == doctest::Approx(0.4));
  const auto last = load_text("nonl.csv", "1,2\n3,4");
  CHECK(last->rows() == 2);
  CHECK(last->x(1, 1) == 4.0);
}

TEST_CASE("csv: gzip-compressed CSV loads like the plain file") {
  TempDir tmp;
  std::string text = "a,b,label\n";
  for (int i = 0; i < 5000; ++i)
    text += std::to_string(i) + "," + std::to_string(i * 0.25) + "," + (i % 3 ? "odd" : "three") + "\n";
  const auto plain = load_file(write_bytes(tmp.file("p.csv"), text));
  const auto packed = load_file(cilab_test::write_gzip(tmp.file("p.csv.gz"), text));
  CHECK(plain->x == packed->x);
  CHECK(plain->labels == packed->labels);
  CHECK(packed->rows() == 5000);
  CHECK(packed->name == "p");
  CHECK(packed->source.find("gzip") != std::string::npos);
}

TEST_CASE("csv: lines split across read chunks are reassembled exactly") {
  // ~3 MB of rows crosses the 1 MiB chunk boundary several times.
  TempDir tmp;
  std::string text;
  const int n = 150000;
  for (int i = 0; i < n; ++i) text += std::to_string(i) + ",0.125," + std::to_string(-i) + "\n";
  const auto d = load_file(write_bytes(tmp.file("big.csv"), text));
  REQUIRE(d->rows() == n);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    sum += d->x(i, 0) + d->x(i, 2);
    if (d->x(i, 0) != i) {
      FAIL("row ", i, " read as ", d->x(i, 0));
    }
  }
  CHECK(sum == 0.0);
  CHECK((d->x.col(1).array() == 0.125).all());
}

TEST_CASE("csv: error messages carry the file path given by the caller") {
  TempDir tmp;
  const std::string path = write_bytes(tmp.file("x.csv"), "a,b,c\n1,zz,3\n");
  try {
    load_file(path);
    FAIL("expected a DataError");
  } catch (const cilab::DataError& e) {
    CHECK(std::string(e.what()).rfind(path + ":2:3:", 0) == 0);
  }
}

TEST_CASE("csv writer: a dataset written as CSV loads back exactly (labels, class names, target)") {
  cilab_test::TempDir dir;
  cilab::Dataset d;
  d.x.resize(4, 2);
  d.x << 0.1, -2.5e-300, 1.0 / 3.0, 7.0, 1e300, -0.5, 2.0, 3.0;
  d.column_names = {"width", "height, cm"};
  d.labels = {0, 1, -1, 0};
  d.class_names = {"setosa", "vir\"ginica"};
  const std::string path = dir.file("labelled.csv");
  {
    std::ofstream out(path);
    cilab::write_dataset_csv(d, out);
  }
  const std::shared_ptr<const cilab::Dataset> back = cilab::load_file(path);
  CHECK(back->x == d.x);
  CHECK(back->column_names == d.column_names);
  CHECK(back->labels == d.labels);  // names in order of first appearance: the same ids here
  CHECK(back->class_names == d.class_names);

  cilab::Dataset r;  // a regression set: the target becomes the `target` column and comes back as the target
  r.x.resize(3, 1);
  r.x << 1.0, 2.0, 3.5;
  r.column_names = {"x"};
  r.target = {0.25, -1.0 / 3.0, 9.0};
  r.target_name = "y";
  const std::string rpath = dir.file("regression.csv");
  {
    std::ofstream out(rpath);
    cilab::write_dataset_csv(r, out);
  }
  const std::shared_ptr<const cilab::Dataset> rb = cilab::load_file(rpath);
  CHECK(rb->x == r.x);
  CHECK(rb->target == r.target);
}
