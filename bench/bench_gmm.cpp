// bench_gmm: time per EM iteration (E + M sub-steps) of the gmm module.
//
// Cases (covariance full, reg = 1e-6, tol = 0 so every iteration runs):
//   blobs          make_dataset("blobs:n=100000,centers=4,seed=0"), 1e5 x 2, K = 4
//   fashion-pca20  Fashion-MNIST train (60000 x 784, pixels in [0, 1]) projected
//                  onto its top 20 principal components (centred), K = 10
// The start is the module's init=kmeans state (seed 0). For each case it writes
// <out>/<case>_x.npy (n x d), _weights.npy (k), _means.npy (k x d),
// _covs.npy (k*d x d, the k covariances stacked) - the parameters at iteration
// 0, for bench/bench_gmm.py to start scikit-learn from - and _ll.npy (the
// log-likelihood trajectory: l of the parameters entering each iteration,
// scikit-learn's lower_bound per iteration). It runs `iters` iterations timing
// each step and prints one line
//   RESULT case=.. n=.. d=.. k=.. iters=.. reset_ms=.. ms_per_iter=.. median_ms=..
//          cpu_ms_per_iter=.. ll_final=.. status=..
// cpu_ms_per_iter is process CPU time (all threads), a check on a busy machine.
// Usage: bench_gmm [--iters N] [--out DIR] [--threads T] [--case NAME] [--no-npy]
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"
#include "algorithms/clustering/gmm.h"
#include "bench/npy.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

using namespace cilab;

namespace {

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::shared_ptr<const Dataset> fashion_pca20() {
  const std::shared_ptr<const Dataset> f = load_fashion_mnist("train");
  const Eigen::MatrixXd xc = f->x.rowwise() - f->x.colwise().mean();
  Eigen::MatrixXd cov(xc.cols(), xc.cols());
  cov.setZero();
  cov.selfadjointView<Eigen::Lower>().rankUpdate(xc.transpose());
  cov = cov.selfadjointView<Eigen::Lower>();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  const Eigen::MatrixXd top = es.eigenvectors().rightCols(20).rowwise().reverse();
  auto d = std::make_shared<Dataset>();
  d->x = xc * top;
  d->name = "fashion-pca20";
  for (int c = 0; c < 20; ++c) d->column_names.push_back("pc" + std::to_string(c + 1));
  return d;
}

struct Case {
  std::string name;
  int k;
  std::shared_ptr<const Dataset> (*load)();
};

}  // namespace

int main(int argc, char** argv) {
  int iters = 20;
  std::string out, only;
  bool npy = true;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    auto next = [&]() -> std::string {
      if (a + 1 >= argc) {
        std::fprintf(stderr, "bench_gmm: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++a];
    };
    if (arg == "--iters") iters = std::max(1, std::atoi(next().c_str()));
    else if (arg == "--out") out = next();
    else if (arg == "--threads") set_max_threads(std::atoi(next().c_str()));
    else if (arg == "--case") only = next();
    else if (arg == "--no-npy") npy = false;
    else {
      std::fprintf(stderr,
                   "usage: bench_gmm [--iters N] [--out DIR] [--threads T] [--case NAME] [--no-npy]\n");
      return 2;
    }
  }
  if (out.empty()) npy = false;

  const std::vector<Case> cases = {
      {"blobs", 4, [] { return make_dataset("blobs:n=100000,centers=4,seed=0"); }},
      {"fashion-pca20", 10, [] { return fashion_pca20(); }},
  };
  for (const Case& c : cases) {
    if (!only.empty() && only != c.name) continue;
    std::shared_ptr<const Dataset> data;
    try {
      data = c.load();
    } catch (const std::exception& e) {
      std::printf("SKIP case=%s reason=%s\n", c.name.c_str(), e.what());
      std::fflush(stdout);
      continue;
    }
    Gmm m;
    ParamValues v = default_values(m.params());
    v["k"] = c.k;
    v["covariance"] = 0;  // full
    v["init"] = 0;        // kmeans
    v["reg"] = 1e-6;
    v["tol"] = 0.0;
    v["max_iter"] = iters;
    auto t0 = std::chrono::steady_clock::now();
    m.reset(data, v, 0);
    const double reset_ms = ms_since(t0);
    if (npy) {
      const auto s0 = m.gmm_snapshot();
      const int k = s0->k(), d = data->cols();
      Eigen::MatrixXd covs(k * d, d);
      for (int j = 0; j < k; ++j) covs.middleRows(j * d, d) = s0->covariances[static_cast<size_t>(j)];
      const std::string base = out + "/" + c.name;
      if (!write_npy(base + "_x.npy", data->x) || !write_npy(base + "_weights.npy", s0->weights, true) ||
          !write_npy(base + "_means.npy", s0->means) || !write_npy(base + "_covs.npy", covs)) {
        std::fprintf(stderr, "bench_gmm: cannot write %s_*.npy; check --out\n", base.c_str());
        return 1;
      }
    }
    std::vector<double> times, lls;
    const double cpu0 = cpu_ms();
    while (!is_terminal(m.status()) && static_cast<int>(times.size()) < iters) {
      t0 = std::chrono::steady_clock::now();
      m.step();
      times.push_back(ms_since(t0));
      lls.push_back(m.gmm_snapshot()->metrics[Gmm::kMetricLogLikelihood]);
    }
    const double cpu_total = cpu_ms() - cpu0;
    if (npy) {
      const Eigen::Map<const Eigen::VectorXd> llv(lls.data(), static_cast<Eigen::Index>(lls.size()));
      write_npy(out + "/" + c.name + "_ll.npy", Eigen::MatrixXd(llv), true);
    }
    double total = 0.0;
    for (double t : times) total += t;
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    std::printf(
        "RESULT case=%s n=%d d=%d k=%d iters=%d reset_ms=%.1f ms_per_iter=%.3f median_ms=%.3f "
        "cpu_ms_per_iter=%.3f ll_final=%.17g status=%s\n",
        c.name.c_str(), data->rows(), data->cols(), c.k, static_cast<int>(times.size()), reset_ms,
        total / static_cast<double>(times.size()), sorted[sorted.size() / 2],
        cpu_total / static_cast<double>(times.size()), lls.back(), status_name(m.status()));
    std::fflush(stdout);
  }
  return 0;
}
