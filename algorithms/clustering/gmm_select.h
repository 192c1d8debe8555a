// Model selection for the Gaussian mixture: a sweep over the number of
// components K = 1..kmax with scikit-learn's information criteria
//
//   bic = -2 n l + p ln n,     aic = -2 n l + 2 p,
//
// where l is the mean log-likelihood per sample at the fitted parameters
// (scikit-learn's score(X)), n the number of samples and p the free
// parameters (Gmm::n_parameters). Lower is better for both.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/params.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace cilab {

// One fitted K of the sweep.
struct GmmSweepRow {
  int k = 0;
  double log_likelihood = 0.0;  // mean per sample at the final parameters (score)
  double bic = 0.0;
  double aic = 0.0;
  int n_parameters = 0;
  int n_iter = 0;               // EM iterations run
  bool converged = false;       // |delta| < tol within max_iter
  bool diverged = false;        // a component collapsed (reg = 0): values are of the last good parameters
};

// Fits K = 1..kmax with the given base params (k overridden; compare_kmeans
// off; init=manual is replaced by kmeans) and seed, each run to Converged,
// Stopped (max_iter) or Diverged. progress(k_done, kmax) is called after each K;
// returning false cancels (the rows so far are returned). Thread-safe: no
// shared mutable state, so it may run on a worker thread. Throws
// std::invalid_argument for bad params or data, or kmax outside [1, n].
std::vector<GmmSweepRow> gmm_sweep(std::shared_ptr<const Dataset> data, const ParamValues& base,
                                   int kmax, uint64_t seed,
                                   const std::function<bool(int, int)>& progress = {});

}  // namespace cilab
