// bench_completion: the completion module on the MovieLens-100k-sized synthetic
// problem (ratings: 943 x 1682, 100 000 observed, true rank 5, noise 0.5),
// k = 10, lambda = 0.1, test_fraction = 0.1, normalize = columns, seed 0.
//
// For each method (svd_impute, als, svt) it runs `steps` iterations (20) from a
// fresh reset and reports the median iteration time and the held-out RMSE per
// iteration. It writes what bench/completion_numpy.py needs to run the same
// algorithms from the same start (the training entries in normalised units, the
// held-out entries, the offsets, ALS's initial factors, SVT's tau, delta and Y_0),
// and the module's test_rmse per iteration, as .npy files into --out. One line
//   RESULT method=.. m=.. n=.. train=.. test=.. k=.. steps=.. iter_ms=.. min_ms=..
//          test_rmse=.. threads=..
// per method.
// Usage: bench_completion [--out DIR] [--steps N] [--threads T] [--methods a,b,c]
#include "algorithms/completion/completion.h"
#include "algorithms/core/observed_matrix.h"
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"
#include "bench/npy.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace cilab;

namespace {

Eigen::MatrixXd column(const std::vector<double>& v) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
  for (size_t i = 0; i < v.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = v[i];
  return m;
}
Eigen::MatrixXd column(const std::vector<int>& v) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
  for (size_t i = 0; i < v.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = v[i];
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 20, threads = 0;
  std::string out = ".", methods = "svd_impute,als,svt";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_completion: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--out") out = next();
    else if (a == "--steps") steps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--threads") threads = std::atoi(next().c_str());
    else if (a == "--methods") methods = next();
    else {
      std::fprintf(stderr, "usage: bench_completion [--out DIR] [--steps N] [--threads T] [--methods a,b,c]\n");
      return 2;
    }
  }
  set_max_threads(threads);
  try {
    const auto data = make_dataset("ratings:users=943,items=1682,observed=100000,rank=5,noise=0.5");
    const Completion probe;
    size_t start = 0;
    bool wrote_problem = false;
    while (start <= methods.size()) {
      size_t comma = methods.find(',', start);
      if (comma == std::string::npos) comma = methods.size();
      const std::string method = methods.substr(start, comma - start);
      start = comma + 1;
      if (method.empty()) continue;
      ParamValues v = default_values(probe.params());
      apply_assignment(probe.params(), v, "method=" + method, "completion");
      apply_assignment(probe.params(), v, "k=10", "completion");
      apply_assignment(probe.params(), v, "lambda=0.1", "completion");
      apply_assignment(probe.params(), v, "max_iter=100000", "completion");
      apply_assignment(probe.params(), v, "tol=0", "completion");
      Completion c;
      c.reset(data, v, 0);
      auto s0 = c.completion_snapshot();
      const CompletionProblem& q = *s0->problem;
      if (!wrote_problem) {
        wrote_problem = true;
        write_npy(out + "/train_row.npy", column(q.train_row), true);
        write_npy(out + "/train_col.npy", column(q.train_col), true);
        write_npy(out + "/train_z.npy", column(q.train_z), true);
        write_npy(out + "/test_row.npy", column(q.test_row), true);
        write_npy(out + "/test_col.npy", column(q.test_col), true);
        write_npy(out + "/test_value.npy", column(q.test_value), true);
        write_npy(out + "/col_mean.npy", q.col_mean, true);
      }
      if (method == "als") {
        write_npy(out + "/als_u0.npy", c.user_factors());
        write_npy(out + "/als_v0.npy", c.item_factors());
      }
      if (method == "svt") {
        write_npy(out + "/svt_y0.npy", column(c.svt_y()), true);
        Eigen::MatrixXd td(2, 1);
        td << s0->tau, s0->delta;
        write_npy(out + "/svt_tau_delta.npy", td, true);
      }
      std::vector<double> ms, rmse;
      for (int t = 0; t < steps; ++t) {
        const auto t0 = std::chrono::steady_clock::now();
        c.step();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        rmse.push_back(c.completion_snapshot()->metrics[Completion::kMetricTestRmse]);
      }
      write_npy(out + "/" + method + "_test_rmse.npy", column(rmse), true);
      std::vector<double> sorted = ms;
      std::sort(sorted.begin(), sorted.end());
      std::printf("RESULT method=%s m=%d n=%d train=%zu test=%zu k=10 steps=%d iter_ms=%.3f min_ms=%.3f "
                  "test_rmse=%.10f threads=%d\n",
                  method.c_str(), q.m, q.n, q.train_z.size(), q.test_value.size(), steps,
                  sorted[sorted.size() / 2], sorted.front(), rmse.back(), max_threads());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_completion: %s\n", e.what());
    return 1;
  }
  return 0;
}
