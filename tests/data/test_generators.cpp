// Generators through make_dataset specs: shapes, label counts, determinism per
// seed, difference across seeds, parameters taking effect, spec errors.
#include "algorithms/data/datasets.h"
#include "algorithms/data/generators.h"

#include <doctest/doctest.h>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using cilab::Dataset;
using cilab::DataError;
using cilab::make_dataset;

std::vector<int> class_counts(const Dataset& d) {
  std::vector<int> c(static_cast<size_t>(d.num_classes()), 0);
  for (int l : d.labels) ++c[static_cast<size_t>(l)];
  return c;
}

std::string error_of(const std::string& spec) {
  try {
    make_dataset(spec);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("generators: every generator has the right shape, labels and column names") {
  struct Case {
    const char* spec;
    int rows, cols, classes;
  };
  const Case cases[] = {
      {"blobs:n=301,centers=4,dim=3", 301, 3, 4}, {"anisotropic:n=200,centers=3", 200, 2, 3},
      {"moons:n=101", 101, 2, 2},                 {"circles:n=100", 100, 2, 2},
      {"spirals:n=300,arms=3", 300, 2, 3},       {"uniform:n=50,dim=5", 50, 5, 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.spec);
    const auto d = make_dataset(c.spec);
    CHECK(d->rows() == c.rows);
    CHECK(d->cols() == c.cols);
    CHECK(d->num_classes() == c.classes);
    CHECK(static_cast<int>(d->labels.size()) == c.rows);
    CHECK(static_cast<int>(d->class_names.size()) == c.classes);
    REQUIRE(static_cast<int>(d->column_names.size()) == c.cols);
    CHECK(d->column_names[0] == "x0");
    CHECK(d->x.allFinite());
    // Samples are split as evenly as possible over the components.
    const std::vector<int> counts = class_counts(*d);
    for (int k : counts) CHECK(std::abs(k - c.rows / c.classes) <= 1);
  }
}

TEST_CASE("generators: same seed gives identical data, different seeds differ") {
  for (const char* name : {"blobs", "anisotropic", "moons", "circles", "spirals", "uniform"}) {
    CAPTURE(name);
    const auto a = make_dataset(std::string(name) + ":seed=5");
    const auto b = make_dataset(std::string(name) + ":seed=5");
    const auto c = make_dataset(std::string(name) + ":seed=6");
    CHECK(a->x == b->x);
    CHECK(a->labels == b->labels);
    CHECK(a->x != c->x);
    // The spec in `source` regenerates the same data.
    CHECK(make_dataset(a->source)->x == a->x);
  }
}

TEST_CASE("generators: defaults and scikit-learn aliases") {
  const auto d = make_dataset("blobs");
  CHECK(d->rows() == 500);
  CHECK(d->cols() == 2);
  CHECK(d->num_classes() == 3);
  const auto a = make_dataset("blobs:n_samples=90,n_features=4,cluster_std=0.5,random_state=2");
  const auto b = make_dataset("blobs:n=90,dim=4,noise=0.5,seed=2");
  CHECK(a->x == b->x);
  CHECK(make_dataset("  Blobs : n = 10 ")->rows() == 10);
}

TEST_CASE("generators: blobs noise is the within-cluster standard deviation") {
  const double noise = 0.6;
  const auto d = make_dataset("blobs:n=100000,centers=5,noise=0.6,seed=3");
  REQUIRE(d->rows() == 100000);
  // Pooled within-class variance per coordinate ~ noise^2.
  const int k = d->num_classes();
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(k, 2), sq = Eigen::MatrixXd::Zero(k, 2);
  std::vector<int> cnt(static_cast<size_t>(k), 0);
  for (int i = 0; i < d->rows(); ++i) {
    const int l = d->labels[static_cast<size_t>(i)];
    sum.row(l) += d->x.row(i);
    sq.row(l) += d->x.row(i).cwiseAbs2();
    ++cnt[static_cast<size_t>(l)];
  }
  for (int c = 0; c < k; ++c)
    for (int j = 0; j < 2; ++j) {
      const double m = sum(c, j) / cnt[static_cast<size_t>(c)];
      const double var = sq(c, j) / cnt[static_cast<size_t>(c)] - m * m;
      CHECK(std::sqrt(var) == doctest::Approx(noise).epsilon(0.03));
      CHECK(std::abs(m) <= 10.0 + 0.1);  // centres inside the box
    }
}

TEST_CASE("generators: noise-free moons and circles lie on their curves") {
  const auto m = make_dataset("moons:n=200,noise=0");
  for (int i = 0; i < m->rows(); ++i) {
    const double x = m->x(i, 0), y = m->x(i, 1);
    const bool upper = m->labels[static_cast<size_t>(i)] == 0;
    const double r = upper ? std::hypot(x, y) : std::hypot(x - 1.0, y - 0.5);
    CHECK(r == doctest::Approx(1.0));
    CHECK((upper ? y >= -1e-12 : y <= 0.5 + 1e-12));
  }
  const auto c = make_dataset("circles:n=200,noise=0,factor=0.3");
  for (int i = 0; i < c->rows(); ++i) {
    const double r = std::hypot(c->x(i, 0), c->x(i, 1));
    CHECK(r == doctest::Approx(c->labels[static_cast<size_t>(i)] == 0 ? 1.0 : 0.3));
  }
}

TEST_CASE("generators: anisotropic is the blobs data sheared by the fixed map") {
  const auto b = make_dataset("blobs:n=50,seed=9");
  const auto a = make_dataset("anisotropic:n=50,seed=9");
  Eigen::Matrix2d t;
  t << 0.6, -0.6, -0.4, 0.8;
  const Eigen::MatrixXd expect = b->x * t;
  CHECK((a->x - expect).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(a->labels == b->labels);
}

TEST_CASE("generators: noise-free spirals stay in the unit disc, uniform in the unit cube") {
  const auto s = make_dataset("spirals:n=400,noise=0,arms=2");
  for (int i = 0; i < s->rows(); ++i) CHECK(std::hypot(s->x(i, 0), s->x(i, 1)) <= 1.0 + 1e-12);
  const auto u = make_dataset("uniform:n=2000,dim=3,seed=1");
  CHECK(u->x.minCoeff() >= 0.0);
  CHECK(u->x.maxCoeff() < 1.0);
  CHECK(u->x.mean() == doctest::Approx(0.5).epsilon(0.05));
}

TEST_CASE("make_dataset: spec errors name the problem and the valid choices") {
  const std::string unknown = error_of("blobz:n=3");
  CHECK(unknown.find("unknown dataset") != std::string::npos);
  CHECK(unknown.find("blobs, anisotropic, moons, circles, spirals, xor, curve, uniform, ratings, photo-holes, "
                     "tiny-text, iris, faithful, photo, fashion-mnist, fortunes, gcide") != std::string::npos);
  const std::string opt = error_of("moons:centers=3");
  CHECK(opt.find("unknown option for moons: expected one of n, noise, seed, found 'centers'") != std::string::npos);
  const std::string range = error_of("blobs:centers=0");
  CHECK(range.find("option 'centers': expected an integer in [1, 100], found '0'") != std::string::npos);
  CHECK(error_of("blobs:n=2.5").find("expected an integer") != std::string::npos);
  CHECK(error_of("circles:factor=1.5").find("expected a number in [0.01, 0.99]") != std::string::npos);
  CHECK(error_of("blobs:noise=abc").find("found 'abc'") != std::string::npos);
  CHECK(error_of("blobs:n").find("expected key=value") != std::string::npos);
  CHECK(error_of("blobs:n=5,n=6").find("given twice") != std::string::npos);
  CHECK(error_of("blobs:n=5000000,dim=1000").find("n x dim") != std::string::npos);
  CHECK(error_of("").find("unknown dataset") != std::string::npos);
  CHECK(error_of("fashion-mnist:split=val").find("expected train or test (or 0 / 1), found 'val'") !=
        std::string::npos);
  CHECK(error_of("iris:n=5").find("expected one of (none)") != std::string::npos);
  for (const std::string& msg : {unknown, opt, range}) CHECK(msg.find("try:") != std::string::npos);
}

TEST_CASE("builtin_datasets: table lists the seventeen datasets with valid option ranges") {
  const auto& all = cilab::builtin_datasets();
  std::vector<std::string> names;
  for (const auto& info : all) {
    names.push_back(info.name);
    CHECK(!info.description.empty());
    for (const auto& o : info.options) {
      CAPTURE(o.name);
      CHECK(o.min <= o.def);
      CHECK(o.def <= o.max);
      CHECK(!o.help.empty());
    }
    if (info.generated) {
      bool has_n = false, has_seed = false;
      for (const auto& o : info.options) {
        has_n = has_n || o.name == "n";
        has_seed = has_seed || o.name == "seed";
      }
      // Point sets have a size n; the partially observed matrices have their shape instead, the
      // generated text its documents.
      const bool matrix = info.name == "ratings" || info.name == "photo-holes";
      const bool text = info.name == "tiny-text";
      CHECK(has_n != (matrix || text));
      CHECK(has_seed);
    }
  }
  CHECK(names == std::vector<std::string>{"blobs", "anisotropic", "moons", "circles", "spirals", "xor", "curve",
                                          "uniform", "ratings", "photo-holes", "tiny-text", "iris", "faithful",
                                          "photo", "fashion-mnist", "fortunes", "gcide"});
}

TEST_CASE("xor: the label is 1 exactly where the coordinates of the noiseless point have opposite signs") {
  const auto d = cilab::make_dataset("xor:n=400,noise=0");
  REQUIRE(d->rows() == 400);
  int ones = 0;
  for (int i = 0; i < d->rows(); ++i) {
    const double x = d->x(i, 0), y = d->x(i, 1);
    CHECK(std::fabs(x) >= 0.1);
    CHECK(std::fabs(y) >= 0.1);
    CHECK(d->labels[static_cast<size_t>(i)] == ((x < 0) != (y < 0) ? 1 : 0));
    ones += d->labels[static_cast<size_t>(i)];
  }
  CHECK(ones > 150);  // about half of 400 (binomial sd 10)
  CHECK(ones < 250);
}

TEST_CASE("curve: y - f(x) has the requested noise level, x covers [-3, 3], no labels, a target") {
  for (int f = 0; f < 4; ++f) {
    const char* names[] = {"sin", "step", "abs", "cubic"};
    CAPTURE(names[f]);
    const auto d = cilab::make_dataset(std::string("curve:n=4000,noise=0.2,function=") + names[f]);
    REQUIRE(d->cols() == 1);
    REQUIRE(d->target.size() == 4000);
    CHECK_FALSE(d->has_labels());
    CHECK(d->target_name == "y");
    CHECK(d->source.find(names[f]) != std::string::npos);  // the choice is spelled out
    double s = 0, s2 = 0, lo = 1e9, hi = -1e9;
    for (int i = 0; i < d->rows(); ++i) {
      const double x = d->x(i, 0), e = d->target[static_cast<size_t>(i)] - cilab::data_detail::curve_value(f, x);
      s += e;
      s2 += e * e;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    const double mean = s / 4000, sd = std::sqrt(s2 / 4000 - mean * mean);
    CHECK(std::fabs(mean) < 4 * 0.2 / std::sqrt(4000.0));
    CHECK(sd == doctest::Approx(0.2).epsilon(0.05));
    CHECK(lo >= -3.0);
    CHECK(hi <= 3.0);
    CHECK(hi - lo > 5.9);
  }
  // A clicked point on a 1-D regression set is (x, target); removing a row keeps x and target aligned.
  const auto d = cilab::make_dataset("curve:n=10");
  const auto added = cilab::with_point_added(*d, 0.5, 2.0, -1);
  REQUIRE(added->rows() == 11);
  CHECK(added->x(10, 0) == 0.5);
  CHECK(added->target.back() == 2.0);
  const auto removed = cilab::with_point_removed(*added, 3);
  CHECK(removed->rows() == 10);
  CHECK(removed->target.size() == 10);
  CHECK(removed->target[3] == added->target[4]);
}
