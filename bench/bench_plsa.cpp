// bench_plsa: the plsa module on the fortune cookies (every category file,
// default vocabulary: min_count 2, max_df 0.5, English stop words, 5000
// terms), K = 20, seed 0, test_fraction 0.1: `steps` iterations of pLSA's EM
// and of scikit-learn's KL multiplicative updates (method=nmf_kl) from the
// same start, each from a fresh reset.
//
// It writes what bench/plsa_sklearn.py needs to run scikit-learn's
// NMF(beta_loss='kullback-leibler', solver='mu', init='custom') on the same
// training counts from the same start, as .npy files into --out: the CSR
// arrays of N (x_data, x_indices, x_indptr, x_shape), the start W0 = diag(s)
// theta0 (docs x K) and H0 = phi0^T (K x terms), and the module's nmf_kl
// objective D(X || WH) after the last iteration. One line per method:
//   RESULT method=.. docs=.. terms=.. nnz=.. k=.. steps=.. iter_ms=.. min_ms=..
//          objective=.. log_likelihood=.. test_perplexity=.. threads=..
// Usage: bench_plsa [--out DIR] [--steps N] [--threads T] [--k K]
#include "algorithms/core/parallel.h"
#include "algorithms/data/corpora.h"
#include "algorithms/topics/plsa.h"
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

template <class T>
Eigen::MatrixXd column(const std::vector<T>& v) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
  for (size_t i = 0; i < v.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = static_cast<double>(v[i]);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 50, threads = 0, k = 20;
  std::string out = ".";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_plsa: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--out") out = next();
    else if (a == "--steps") steps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--threads") threads = std::atoi(next().c_str());
    else if (a == "--k") k = std::max(1, std::atoi(next().c_str()));
    else {
      std::fprintf(stderr, "usage: bench_plsa [--out DIR] [--steps N] [--threads T] [--k K]\n");
      return 2;
    }
  }
  set_max_threads(threads);
  try {
    const auto data = text_dataset(load_fortunes(), "fortunes", "bench_plsa");
    const Plsa probe;
    bool wrote = false;
    for (const std::string method : {"plsa", "nmf_kl"}) {
      ParamValues v = default_values(probe.params());
      apply_assignment(probe.params(), v, "method=" + method, "plsa");
      apply_assignment(probe.params(), v, "k=" + std::to_string(k), "plsa");
      apply_assignment(probe.params(), v, "max_iter=100000", "plsa");
      apply_assignment(probe.params(), v, "tol=0", "plsa");
      Plsa m;
      m.reset(data, v, 0);
      const PlsaProblem& q = m.problem();
      if (method == "nmf_kl" && !wrote) {
        wrote = true;
        const DocTermMatrix& n = q.train;
        write_npy(out + "/x_data.npy", column(n.count), true);
        write_npy(out + "/x_indices.npy", column(n.col), true);
        write_npy(out + "/x_indptr.npy", column(n.row_start), true);
        write_npy(out + "/x_shape.npy", column(std::vector<int>{n.docs, n.terms}), true);
        Eigen::MatrixXd w0(n.docs, k), h0(k, n.terms);
        for (int i = 0; i < n.docs; ++i)
          for (int z = 0; z < k; ++z) w0(i, z) = m.theta()[static_cast<size_t>(i) * k + z];
        for (int j = 0; j < n.terms; ++j)
          for (int z = 0; z < k; ++z) h0(z, j) = m.phi()[static_cast<size_t>(j) * k + z];
        write_npy(out + "/w0.npy", w0);
        write_npy(out + "/h0.npy", h0);
      }
      std::vector<double> ms;
      for (int t = 0; t < steps; ++t) {
        const auto t0 = std::chrono::steady_clock::now();
        m.step();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
      const std::vector<double>& mt = m.snapshot()->metrics;
      const double objective = mt[Plsa::kMetricObjective];
      if (method == "nmf_kl") write_npy(out + "/objective.npy", column(std::vector<double>{objective}), true);
      std::vector<double> sorted = ms;
      std::sort(sorted.begin(), sorted.end());
      std::printf("RESULT method=%s docs=%d terms=%d nnz=%lld k=%d steps=%d iter_ms=%.3f min_ms=%.3f "
                  "objective=%.17g log_likelihood=%.17g test_perplexity=%.6f threads=%d\n",
                  method.c_str(), q.docs(), q.terms(), static_cast<long long>(q.train.nnz()), k, steps,
                  sorted[sorted.size() / 2], sorted.front(), objective, mt[Plsa::kMetricLogLikelihood],
                  mt[Plsa::kMetricTestPerplexity], max_threads());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_plsa: %s\n", e.what());
    return 1;
  }
  return 0;
}
