// Metric histories as curves (views/common/curves.h): a curve ends at the iteration shown
// (never the future after a scrub back), long histories are strided, and the training views'
// batch line is on the epoch axis.
#include "views/common/curves.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace cilab;

namespace {

// Rows t = 0..n-1 of two metrics: t * 10 and, every fifth row, NaN (a metric not measured then).
std::vector<std::vector<double>> history(int n) {
  std::vector<std::vector<double>> h;
  for (int t = 0; t < n; ++t) h.push_back({t * 10.0, t % 5 == 0 ? std::nan("") : double(t)});
  return h;
}

}  // namespace

TEST_CASE("curves: history_series ends at the shown iteration, skips missing values and strides long runs") {
  const auto h = history(100);
  std::vector<double> x, y;
  history_series(h, 0, 40, x, y);  // scrubbed back to 40: rows 41..99 are the future
  REQUIRE(x.size() == 41);
  CHECK(x.back() == 40);
  CHECK(y.back() == 400);
  history_series(h, 1, 99, x, y);  // NaN rows left out
  CHECK(x.size() == 80);
  for (double v : y) CHECK(std::isfinite(v));
  history_series(h, 0, 99, x, y, 10);  // 100 rows at most ~10 points: every 10th
  REQUIRE(x.size() == 10);
  CHECK(x[1] == 10);
}

TEST_CASE("curves: batch_series puts step t at epoch t / batches_per_epoch, from step 1 to the shown one") {
  const auto h = history(1000);
  std::vector<double> x, y;
  batch_series(h, 0, 20, 8.0, x, y);
  REQUIRE(x.size() == 20);  // steps 1..20 (step 0 is the initial network: no batch yet)
  CHECK(x.front() == doctest::Approx(1.0 / 8));
  CHECK(x.back() == doctest::Approx(20.0 / 8));
  CHECK(y.back() == 200);
  const auto long_run = history(3000);
  batch_series(long_run, 0, 2999, 8.0, x, y);  // 3000 rows thinned to 600 points: every 5th step
  CHECK(x.size() == 600);
  CHECK(x[1] - x[0] == doctest::Approx(5.0 / 8));
}
