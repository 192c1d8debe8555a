// The shared training split of the representation-learning modules
// (algorithms/nn/train_data.h): sizes, a partition of the rows, determinism,
// standardisation from the training rows only, images left in [0, 1].
#include "algorithms/nn/train_data.h"

#include "algorithms/data/datasets.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

using namespace cilab;

TEST_CASE("train_data: the split partitions the rows, seeded, in dataset order") {
  auto data = make_dataset("blobs:n=101,dim=3,seed=4");
  TrainDataOptions o;
  o.test_fraction = 0.3;
  o.seed = 9;
  o.module = "test";
  auto a = make_train_data(*data, o);
  CHECK(a->n_test() == 30);  // round(0.3 * 101)
  CHECK(a->n_train() == 71);
  std::vector<int> all = a->train_rows;
  all.insert(all.end(), a->test_rows.begin(), a->test_rows.end());
  std::sort(all.begin(), all.end());
  for (int i = 0; i < 101; ++i) CHECK(all[static_cast<size_t>(i)] == i);
  CHECK(std::is_sorted(a->train_rows.begin(), a->train_rows.end()));
  for (int r = 0; r < a->n_train(); ++r) {
    CHECK(a->x_train(r, 2) == static_cast<float>(data->x(a->train_rows[static_cast<size_t>(r)], 2)));
    CHECK(a->y_train[static_cast<size_t>(r)] == data->labels[static_cast<size_t>(a->train_rows[static_cast<size_t>(r)])]);
  }
  auto b = make_train_data(*data, o);
  CHECK(b->train_rows == a->train_rows);
  o.seed = 10;
  auto c = make_train_data(*data, o);
  CHECK(c->train_rows != a->train_rows);
}

TEST_CASE("train_data: standardise uses the training rows' mean and 1/n deviation") {
  auto data = make_dataset("anisotropic:n=200,seed=2");
  TrainDataOptions o;
  o.standardize = true;
  o.module = "test";
  auto td = make_train_data(*data, o);
  REQUIRE(td->standardized);
  for (int c = 0; c < td->d; ++c) {
    const Eigen::VectorXd col = td->x_train.col(c).cast<double>();
    CHECK(std::fabs(col.mean()) < 1e-5);
    CHECK(std::sqrt((col.array() - col.mean()).square().mean()) == doctest::Approx(1.0).epsilon(1e-5));
  }
  double back[2];
  td->unstandardise(&td->x_test(0, 0), back);
  CHECK(back[0] == doctest::Approx(data->x(td->test_rows[0], 0)).epsilon(1e-5));
}

TEST_CASE("train_data: image rows are never standardised and an empty training set is refused") {
  auto img = make_dataset("photo");
  TrainDataOptions o;
  o.standardize = true;
  o.test_fraction = 0;
  o.module = "vae";
  auto td = make_train_data(*img, o);
  CHECK_FALSE(td->standardized);
  CHECK(td->min_value >= 0.0f);
  CHECK(td->max_value <= 1.0f);
  auto tiny = make_dataset("blobs:n=2");
  o.test_fraction = 0.9;
  CHECK_THROWS_WITH_AS(make_train_data(*tiny, o), doctest::Contains("test_fraction"), std::invalid_argument);
}
