#!/usr/bin/python3
"""scikit-learn's GaussianMixture on the data and start bench_gmm wrote.

Usage: bench_gmm.py DIR CASE ITERS
Reads DIR/CASE_{x,weights,means,covs,ll}.npy. Starts GaussianMixture
(covariance_type='full', reg_covar=1e-6) from exactly those weights, means and
covariances (precisions_cholesky_ from _compute_precision_cholesky, as its own
M-step computes them) and runs ITERS iterations of its own fit loop body,
    log_prob_norm, log_resp = gm._e_step(X); gm._m_step(X, log_resp)
timing each (the same iterations CILab times: E + M, no init, no final E).
lower_bound per iteration = log_prob_norm, compared with CILab's trajectory.
As a public-API check it also times
    GaussianMixture(weights_init=, means_init=, precisions_init=inv(covs),
                    max_iter=ITERS, tol=0, init_params='random_from_data').fit(X)
(includes input checks, initialisation and the final E-step) and reports
fit_ms_per_iter = its wall time / n_iter_ and its lower_bound_ difference.
Prints:
  RESULT case=.. ms_per_iter=.. median_ms=.. max_ll_diff=.. fit_ms_per_iter=.. fit_ll_diff=..
Exit code 3 (and a SKIP line) when scikit-learn is not installed.
"""
import sys
import time
import warnings

try:
    import numpy as np
    from sklearn.mixture import GaussianMixture
    from sklearn.mixture._gaussian_mixture import _compute_precision_cholesky
except ImportError as e:  # pragma: no cover - depends on the machine
    print("SKIP reason=scikit-learn not importable (%s); install python3-sklearn" % e)
    sys.exit(3)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    d, case, iters = sys.argv[1], sys.argv[2], int(sys.argv[3])
    x = np.load("%s/%s_x.npy" % (d, case))
    w = np.load("%s/%s_weights.npy" % (d, case))
    m = np.load("%s/%s_means.npy" % (d, case))
    k, nf = m.shape
    covs = np.load("%s/%s_covs.npy" % (d, case)).reshape(k, nf, nf)
    ll_c = np.load("%s/%s_ll.npy" % (d, case))

    gm = GaussianMixture(n_components=k, covariance_type="full", reg_covar=1e-6, tol=0.0,
                         max_iter=iters)
    gm.weights_ = w.copy()
    gm.means_ = m.copy()
    gm.covariances_ = covs.copy()
    gm.precisions_cholesky_ = _compute_precision_cholesky(covs, "full")
    times, lls = [], []
    for _ in range(iters):
        t0 = time.perf_counter()
        log_prob_norm, log_resp = gm._e_step(x)
        gm._m_step(x, log_resp)
        times.append((time.perf_counter() - t0) * 1e3)
        lls.append(log_prob_norm)
    lls = np.array(lls)
    n = min(len(lls), len(ll_c))
    max_diff = float(np.max(np.abs(lls[:n] - ll_c[:n])))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        g2 = GaussianMixture(n_components=k, covariance_type="full", reg_covar=1e-6, tol=0.0,
                             max_iter=iters, init_params="random_from_data", weights_init=w,
                             means_init=m, precisions_init=np.linalg.inv(covs),
                             random_state=0).fit(x)
        fit_ms = (time.perf_counter() - t0) * 1e3 / g2.n_iter_
    fit_diff = abs(g2.lower_bound_ - ll_c[g2.n_iter_ - 1]) if g2.n_iter_ <= len(ll_c) else float("nan")
    print("RESULT case=%s ms_per_iter=%.3f median_ms=%.3f max_ll_diff=%.3g fit_ms_per_iter=%.3f "
          "fit_ll_diff=%.3g ll_final=%.17g" %
          (case, float(np.mean(times)), float(np.median(times)), max_diff, fit_ms, fit_diff,
           lls[-1]))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
