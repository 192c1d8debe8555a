// Partially observed matrices: ratings files (triplets, MovieLens u.data, a
// wide matrix with empty cells) good and bad, the synthetic ratings generator
// and pictures with holes.
#include "algorithms/core/observed_matrix.h"
#include "algorithms/data/datasets.h"
#include "algorithms/data/ratings.h"
#include "tests/data/test_util.h"

#include <Eigen/SVD>
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>

namespace {

using cilab::DataError;
using cilab::Dataset;
using cilab::LoadOptions;
using cilab::ObservedMatrix;
using cilab::RatingsLayout;
using cilab_test::TempDir;
using cilab_test::write_bytes;

std::shared_ptr<const Dataset> load_text(const std::string& name, const std::string& text,
                                         RatingsLayout layout = RatingsLayout::Triplets) {
  TempDir tmp;
  LoadOptions o;
  o.ratings = layout;
  return cilab::load_file(write_bytes(tmp.file(name), text), o);
}

std::string load_error(const std::string& text, RatingsLayout layout = RatingsLayout::Triplets) {
  try {
    load_text("bad.csv", text, layout);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

// The value at (row, col), NaN when unobserved.
double at(const ObservedMatrix& m, int r, int c) {
  for (size_t e = 0; e < m.observed(); ++e)
    if (m.row[e] == r && m.col[e] == c) return m.value[e];
  return NAN;
}

}  // namespace

TEST_CASE("ratings: MovieLens u.data (tab-separated, a timestamp column) loads as triplets") {
  const auto d = load_text("u.data", "196\t242\t3\t881250949\n186\t302\t3\t891717742\n22\t377\t1\t878887116\n"
                                     "196\t302\t5\t881250950\n");
  REQUIRE(d->is_partial());
  const ObservedMatrix& m = *d->observed;
  CHECK(m.rows == 3);
  CHECK(m.cols == 3);
  CHECK(m.observed() == 4);
  // Integer ids sort numerically: users 22, 186, 196; items 242, 302, 377.
  CHECK(m.row_ids == std::vector<std::string>{"22", "186", "196"});
  CHECK(m.col_ids == std::vector<std::string>{"242", "302", "377"});
  CHECK(at(m, 2, 0) == 3.0);
  CHECK(at(m, 2, 1) == 5.0);
  CHECK(at(m, 0, 2) == 1.0);
  CHECK(std::isnan(at(m, 0, 0)));
  CHECK(m.value_min == 1.0);
  CHECK(m.value_max == 5.0);
  // Entries sorted by (row, col), and x lists them.
  for (size_t e = 1; e < m.observed(); ++e)
    CHECK((m.row[e - 1] < m.row[e] || (m.row[e - 1] == m.row[e] && m.col[e - 1] < m.col[e])));
  CHECK(d->rows() == 4);
  CHECK(d->cols() == 3);
  CHECK(d->x(3, 2) == m.value[3]);
  CHECK(cilab::describe(*d).find("4 observed") != std::string::npos);
}

TEST_CASE("ratings: a CSV with a header, string ids and extra columns") {
  const auto d = load_text("r.csv", "userId,movieId,rating,timestamp\nalice,Heat,4.5,1\nbob,Heat,2,2\n"
                                    "alice,Up,3.5,3\n");
  const ObservedMatrix& m = *d->observed;
  CHECK(m.row_ids == std::vector<std::string>{"alice", "bob"});  // first appearance
  CHECK(m.col_ids == std::vector<std::string>{"Heat", "Up"});
  CHECK(at(m, 0, 0) == 4.5);
  CHECK(at(m, 1, 0) == 2.0);
  CHECK(at(m, 0, 1) == 3.5);
}

TEST_CASE("ratings: a wide matrix with empty cells") {
  const auto d = load_text("w.csv", "user,A,B,C\nu1,5,,3\nu2,,4,NA\nu3,1,?,\n", RatingsLayout::Wide);
  const ObservedMatrix& m = *d->observed;
  CHECK(m.rows == 3);
  CHECK(m.cols == 3);
  CHECK(m.observed() == 4);
  CHECK(m.row_ids == std::vector<std::string>{"u1", "u2", "u3"});
  CHECK(m.col_ids == std::vector<std::string>{"A", "B", "C"});
  CHECK(at(m, 0, 2) == 3.0);
  CHECK(at(m, 1, 1) == 4.0);
  CHECK(std::isnan(at(m, 1, 2)));
  // No header, no ids: numbers only.
  const auto n = load_text("n.csv", "1,,2\n,3,\n", RatingsLayout::Wide);
  CHECK(n->observed->rows == 2);
  CHECK(n->observed->cols == 3);
  CHECK(n->observed->observed() == 3);
}

TEST_CASE("ratings: bad files name the line and what to try") {
  const std::string dup = load_error("1,10,4\n2,10,3\n1,10,5\n");
  CHECK(dup.find(":3:") != std::string::npos);
  CHECK(dup.find("duplicate") != std::string::npos);
  CHECK(dup.find("line 1") != std::string::npos);
  const std::string text = load_error("1,10,4\n2,10,good\n");
  CHECK(text.find(":2:") != std::string::npos);
  CHECK(text.find("numeric rating") != std::string::npos);
  CHECK(load_error("").find("empty") != std::string::npos);
  CHECK(load_error("user,item,rating\n").find("header only") != std::string::npos);
  CHECK(load_error("1,10\n").find("triplets") != std::string::npos);
  CHECK(load_error("1,10,4\n2,20\n").find(":2:") != std::string::npos);
  CHECK(load_error("1,10,inf\n").find("finite") != std::string::npos);
  CHECK(load_error("a,b\n1,x\n", RatingsLayout::Wide).find("number or an empty cell") != std::string::npos);
  CHECK(load_error(",\n,\n", RatingsLayout::Wide).find("no observed entry") != std::string::npos);
  CHECK(load_error("u,A\nx,1\nx,2\n", RatingsLayout::Wide).find("duplicate row id") != std::string::npos);
  CHECK(load_error("1,2\n3,4,5\n", RatingsLayout::Wide).find("at most 2") != std::string::npos);
  // Binary data is refused as such.
  CHECK(load_error(std::string("1,2,3\n\x01\x02\x03", 9)).find("binary") != std::string::npos);
}

TEST_CASE("ratings: the synthetic generator has MovieLens-100k's shape, its genres and its truth") {
  const auto d = cilab::make_dataset("ratings");
  const ObservedMatrix& m = *d->observed;
  CHECK(m.rows == 943);
  CHECK(m.cols == 1682);
  CHECK(m.observed() == 100000);
  std::set<std::pair<int, int>> seen;
  for (size_t e = 0; e < m.observed(); ++e) seen.insert({m.row[e], m.col[e]});
  CHECK(seen.size() == 100000);  // without replacement
  REQUIRE(m.has_truth());
  // The truth is 3 + a rank-5 matrix.
  Eigen::MatrixXd centred = m.truth.array() - 3.0;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(centred.topLeftCorner(200, 300));
  CHECK(svd.singularValues()[5] < 1e-9 * svd.singularValues()[0]);
  CHECK(svd.singularValues()[4] > 1e-3 * svd.singularValues()[0]);
  CHECK(std::abs(m.truth.mean() - 3.0) < 0.1);
  CHECK(((m.truth.array() - 3.0).square().mean()) == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(m.col_group.size() == 1682u);
  CHECK(m.group_names.size() == 6u);
  // Observed = truth + noise 0.5.
  double sq = 0;
  for (size_t e = 0; e < m.observed(); ++e) sq += std::pow(m.value[e] - m.truth(m.row[e], m.col[e]), 2);
  CHECK(std::sqrt(sq / 100000) == doctest::Approx(0.5).epsilon(0.02));
  // Same seed, same data.
  CHECK(cilab::make_dataset("ratings")->observed->value == m.value);
  CHECK(cilab::make_dataset("ratings:seed=1")->observed->value != m.value);
  CHECK_THROWS_AS(cilab::make_dataset("ratings:users=10,items=10,observed=101"), DataError);
}

TEST_CASE("ratings: the photo with holes keeps the truth and the asked fraction") {
  const auto d = cilab::make_dataset("photo-holes:missing=0.7");
  const ObservedMatrix& m = *d->observed;
  CHECK(m.is_image());
  CHECK(m.rows == 512);
  CHECK(m.observed() == static_cast<size_t>(std::llround(0.3 * 512 * 512)));
  for (size_t e = 0; e < m.observed(); e += 997) CHECK(m.value[e] == m.truth(m.row[e], m.col[e]));
  const auto b = cilab::make_dataset("photo-holes:missing=0.5,pattern=blocks,block=16");
  CHECK(b->observed->fraction() <= 0.5 + 1e-12);
  CHECK(b->observed->fraction() > 0.4);
}

TEST_CASE("ratings: the window's guess reads triplets unless the first lines look like a wide matrix") {
  // Triplets with a duplicate keep the triplets' error (never a silent 2 x 3 "matrix").
  CHECK(load_error("1,10,4\n1,10,5\n", RatingsLayout::Guess).find("duplicate") != std::string::npos);
  const auto t = load_text("u.data", "196\t242\t3\t881250949\n186\t302\t3\t891717742\n", RatingsLayout::Guess);
  CHECK(t->observed->rows == 2);
  CHECK(t->observed->observed() == 2);
  const auto w = load_text("w.csv", "user,A,B,C\nu1,5,,3\nu2,,4,1\n", RatingsLayout::Guess);
  CHECK(w->observed->cols == 3);
  CHECK(w->observed->observed() == 4);
  const auto five = load_text("f.csv", "1,2,3,4,5\n5,4,3,2,1\n", RatingsLayout::Guess);
  CHECK(five->observed->cols == 5);  // more than 4 fields: wide
}
