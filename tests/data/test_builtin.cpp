// Shipped and installed data: iris and faithful (statistics computed from the
// files vs the documented values), Fashion-MNIST from the Debian package (or
// its clear error), asset_path, clicked-point edits and describe().
#include "algorithms/data/datasets.h"
#include "tests/data/test_util.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace {

using cilab::Dataset;
using cilab::DataError;

// Restores an environment variable on scope exit.
class EnvGuard {
 public:
  EnvGuard(const char* name, const std::string& value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~EnvGuard() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

// Column means of a plain numeric CSV computed independently of the loader
// (std::stringstream parsing), for cross-checking.
std::vector<double> independent_means(const std::string& path, int ncols, int* rows) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<double> sum(static_cast<size_t>(ncols), 0.0);
  *rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string cell;
    for (int j = 0; j < ncols && std::getline(ss, cell, ','); ++j) sum[static_cast<size_t>(j)] += std::stod(cell);
    ++*rows;
  }
  for (double& s : sum) s /= *rows;
  return sum;
}

// The Fashion-MNIST folder the loader reads (CILAB_FASHION_MNIST_DIR or Debian's).
std::string fashion_dir() {
  const char* d = std::getenv("CILAB_FASHION_MNIST_DIR");
  return d && *d ? d : "/usr/share/datasets/fashion-mnist";
}

}  // namespace

TEST_CASE("iris: 150 x 4, three species of 50, documented column means") {
  const auto d = cilab::make_dataset("iris");
  REQUIRE(d->rows() == 150);
  REQUIRE(d->cols() == 4);
  CHECK(d->name == "iris");
  CHECK(d->column_names == std::vector<std::string>{"sepal_length", "sepal_width", "petal_length", "petal_width"});
  CHECK(d->class_names == std::vector<std::string>{"setosa", "versicolor", "virginica"});
  std::vector<int> counts(3, 0);
  for (int l : d->labels) ++counts[static_cast<size_t>(l)];
  CHECK(counts == std::vector<int>{50, 50, 50});
  // Documented means (Fisher 1936; scikit-learn's DESCR): 5.84, 3.06, 3.76, 1.20.
  const double documented[] = {5.843, 3.057, 3.758, 1.199};
  int rows = 0;
  const std::vector<double> indep = independent_means(cilab::asset_path("iris.csv"), 4, &rows);
  CHECK(rows == 150);
  for (int j = 0; j < 4; ++j) {
    const double m = d->x.col(j).mean();
    CHECK(m == doctest::Approx(documented[j]).epsilon(0.001));
    CHECK(m == doctest::Approx(indep[static_cast<size_t>(j)]).epsilon(1e-12));
  }
}

TEST_CASE("faithful: 272 x 2, documented means of eruptions and waiting") {
  const auto d = cilab::make_dataset("faithful");
  REQUIRE(d->rows() == 272);
  REQUIRE(d->cols() == 2);
  CHECK(d->column_names == std::vector<std::string>{"eruptions", "waiting"});
  CHECK(!d->has_labels());
  int rows = 0;
  const std::vector<double> indep = independent_means(cilab::asset_path("faithful.csv"), 2, &rows);
  CHECK(rows == 272);
  CHECK(d->x.col(0).mean() == doctest::Approx(3.487783).epsilon(1e-5));
  CHECK(d->x.col(1).mean() == doctest::Approx(70.897059).epsilon(1e-6));
  CHECK(d->x.col(0).mean() == doctest::Approx(indep[0]).epsilon(1e-12));
  CHECK(d->x.col(1).mean() == doctest::Approx(indep[1]).epsilon(1e-12));
  // Durations in minutes (1.6..5.1), waits 43..96 as documented in R.
  CHECK(d->x.col(0).minCoeff() == doctest::Approx(1.6));
  CHECK(d->x.col(0).maxCoeff() == doctest::Approx(5.1));
  CHECK(d->x.col(1).minCoeff() == 43.0);
  CHECK(d->x.col(1).maxCoeff() == 96.0);
}

TEST_CASE("asset_path: env override, else the compile-time assets dir") {
  CHECK(std::filesystem::exists(cilab::asset_path("iris.csv")));
  {
    EnvGuard env("CILAB_ASSET_DIR", "/nonexistent/assets");
    CHECK(cilab::asset_path("iris.csv") == "/nonexistent/assets/iris.csv");
    try {
      cilab::make_dataset("iris");
      FAIL("expected a DataError");
    } catch (const DataError& e) {
      const std::string msg = e.what();
      CHECK(msg.find("/nonexistent/assets/iris.csv") != std::string::npos);
      CHECK(msg.find("CILAB_ASSET_DIR") != std::string::npos);
    }
  }
  CHECK(std::filesystem::exists(cilab::asset_path("faithful.csv")));
}

TEST_CASE("pick_asset_dir: env, then the installed share/cilab/assets, then the source tree") {
  cilab_test::TempDir tmp;
  namespace fs = std::filesystem;
  const fs::path root = tmp.dir();
  const std::string exe = (root / "prefix" / "bin" / "cilab").string();
  const std::string installed = (root / "prefix" / "share" / "cilab" / "assets").string();
  const std::string source = (root / "src" / "assets").string();
  fs::create_directories(root / "prefix" / "bin");
  fs::create_directories(source);
  // Not installed: the source tree's folder, then <exe dir>/../assets once that is gone too.
  CHECK(cilab::pick_asset_dir(nullptr, exe, source) == source);
  CHECK(cilab::pick_asset_dir(nullptr, exe, (root / "gone").string()) == (root / "prefix" / "assets").string());
  CHECK(cilab::pick_asset_dir(nullptr, "", (root / "gone").string()) == "assets");
  // Installed: its own assets win over a source tree that still exists.
  fs::create_directories(installed);
  CHECK(cilab::pick_asset_dir(nullptr, exe, source) == installed);
  CHECK(cilab::pick_asset_dir("", exe, source) == installed);
  CHECK(cilab::pick_asset_dir(nullptr, exe, "") == installed);
  // The environment wins over both.
  CHECK(cilab::pick_asset_dir("/elsewhere/assets", exe, source) == "/elsewhere/assets");
}

TEST_CASE("fashion-mnist: a directory without the files gives the install hint") {
  cilab_test::TempDir empty;
  EnvGuard env("CILAB_FASHION_MNIST_DIR", empty.dir());
  for (const char* split : {"train", "test"}) {
    try {
      cilab::load_fashion_mnist(split);
      FAIL("expected a DataError");
    } catch (const DataError& e) {
      const std::string msg = e.what();
      CHECK(msg.find(empty.dir()) != std::string::npos);
      CHECK(msg.find("install it with: sudo apt-get install dataset-fashion-mnist") != std::string::npos);
    }
  }
  CHECK_THROWS_AS(cilab::make_dataset("fashion-mnist:split=test"), DataError);
  CHECK_THROWS_AS(cilab::load_fashion_mnist("validation"), DataError);
}

TEST_CASE("fashion-mnist: the packaged train and test splits load with the right shape and classes") {
  // dataset-fashion-mnist is a declared dependency (Makefile PACKAGES): missing is a failure.
  REQUIRE_MESSAGE(std::filesystem::exists(fashion_dir() + "/train-images-idx3-ubyte.gz"),
                  "Fashion-MNIST missing in " << fashion_dir()
                                              << "; install it with: apt-get install dataset-fashion-mnist");
  const auto t0 = std::chrono::steady_clock::now();
  const auto train = cilab::load_fashion_mnist("train");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE("Fashion-MNIST train loaded in " << secs << " s");
  REQUIRE(train->rows() == 60000);
  REQUIRE(train->cols() == 784);
  CHECK(train->image_h == 28);
  CHECK(train->image_w == 28);
  CHECK(train->x.minCoeff() == 0.0);
  CHECK(train->x.maxCoeff() == 1.0);
  CHECK(train->class_names.size() == 10);
  CHECK(train->class_names[0] == "T-shirt/top");
  CHECK(train->class_names[9] == "Ankle boot");
  std::vector<int> counts(10, 0);
  for (int l : train->labels) ++counts[static_cast<size_t>(l)];
  CHECK(counts == std::vector<int>(10, 6000));
  CHECK(train->source.find("[0,1]") != std::string::npos);

  const auto test = cilab::make_dataset("fashion-mnist:split=test");
  REQUIRE(test->rows() == 10000);
  REQUIRE(test->cols() == 784);
  // The first n rows equal the head of the full split.
  const auto head = cilab::make_dataset("fashion-mnist:split=test,n=500");
  REQUIRE(head->rows() == 500);
  CHECK(head->x == test->x.topRows(500));
  CHECK(std::vector<int>(test->labels.begin(), test->labels.begin() + 500) == head->labels);
  // Same pixels through the generic IDX loader (raw 0..255, paired labels).
  const auto raw = cilab::load_file(fashion_dir() + "/t10k-images-idx3-ubyte.gz");
  CHECK(raw->labels == test->labels);
  CHECK((raw->x / 255.0 - test->x).cwiseAbs().maxCoeff() < 1e-12);
  CHECK_THROWS_AS(cilab::make_dataset("fashion-mnist:split=test,n=20000"), DataError);
}

TEST_CASE("points: add, remove and nearest on a 2-D dataset") {
  const auto d = cilab::make_dataset("moons:n=10,seed=1");
  const auto added = cilab::with_point_added(*d, 5.0, -5.0, 1);
  REQUIRE(added->rows() == 11);
  CHECK(d->rows() == 10);  // the input is untouched
  CHECK(added->x(10, 0) == 5.0);
  CHECK(added->labels.back() == 1);
  CHECK(added->x.topRows(10) == d->x);
  CHECK(cilab::nearest_row(*added, 4.9, -5.1) == 10);
  CHECK(added->source.find("[edited: +1 -0 points]") != std::string::npos);

  const auto removed = cilab::with_point_removed(*added, 3);
  REQUIRE(removed->rows() == 10);
  CHECK(removed->x.row(2) == added->x.row(2));
  CHECK(removed->x.row(3) == added->x.row(4));
  CHECK(removed->labels[3] == added->labels[4]);
  CHECK(removed->source.find("[edited: +1 -1 points]") != std::string::npos);
  CHECK_THROWS_AS(cilab::with_point_removed(*removed, 10), DataError);
  CHECK_THROWS_AS(cilab::with_point_removed(*removed, -1), DataError);

  // Nearest agrees with a brute-force scan.
  for (double qx : {-1.0, 0.3, 2.0}) {
    int best = 0;
    for (int i = 1; i < d->rows(); ++i)
      if ((d->x.row(i) - Eigen::RowVector2d(qx, 0.2)).squaredNorm() <
          (d->x.row(best) - Eigen::RowVector2d(qx, 0.2)).squaredNorm())
        best = i;
    CHECK(cilab::nearest_row(*d, qx, 0.2) == best);
  }
}

TEST_CASE("points: a blank canvas becomes 2-D, unlabelled points keep -1, bad inputs throw") {
  Dataset blank;
  auto p = cilab::with_point_added(blank, 1.0, 2.0);
  p = cilab::with_point_added(*p, 3.0, 4.0);
  REQUIRE(p->rows() == 2);
  REQUIRE(p->cols() == 2);
  CHECK(!p->has_labels());
  p = cilab::with_point_added(*p, 0.0, 0.0, 2);
  CHECK(p->labels == std::vector<int>{-1, -1, 2});
  CHECK(cilab::nearest_row(blank, 0.0, 0.0) == -1);
  CHECK_THROWS_AS(cilab::with_point_added(*cilab::make_dataset("iris"), 1.0, 2.0), DataError);
  CHECK_THROWS_AS(cilab::with_point_added(*p, std::numeric_limits<double>::quiet_NaN(), 0.0), DataError);
  CHECK_THROWS_AS(cilab::nearest_row(*p, 0.0, 0.0, 0, 5), DataError);
  // Removing every point leaves an empty dataset; nearest then is -1.
  auto q = cilab::with_point_removed(*p, 0);
  q = cilab::with_point_removed(*q, 0);
  q = cilab::with_point_removed(*q, 0);
  CHECK(q->rows() == 0);
  CHECK(cilab::nearest_row(*q, 0.0, 0.0) == -1);
}

TEST_CASE("describe: one line with shape, images and classes") {
  CHECK(cilab::describe(*cilab::make_dataset("iris")) == "iris: 150 x 4, 3 classes");
  CHECK(cilab::describe(*cilab::make_dataset("faithful")) == "faithful: 272 x 2, unlabelled");
  CHECK(cilab::describe(*cilab::make_dataset("uniform:n=7")) == "uniform: 7 x 2, 1 class");
  Dataset img;
  img.x.resize(3, 4);
  img.image_h = 2;
  img.image_w = 2;
  img.name = "tiny";
  img.labels = {0, 1, 1};
  CHECK(cilab::describe(img) == "tiny: 3 x 4 (2x2 images), 2 classes");
}
