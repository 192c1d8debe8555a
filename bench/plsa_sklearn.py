#!/usr/bin/env python3
"""scikit-learn's KL NMF on bench_plsa's fortunes document-term matrix, from the same start.

Usage: plsa_sklearn.py DIR STEPS
Reads DIR/*.npy written by bench_plsa (the CSR arrays of the training counts N,
the start W0 = diag(s) theta0 and H0 = phi0^T, CILab's nmf_kl objective after
STEPS iterations), runs
  NMF(n_components=K, beta_loss='kullback-leibler', solver='mu', init='custom',
      max_iter=STEPS, tol=0)
and prints one line
  REF iter_ms=.. objective=.. rel_objective_diff=..
iter_ms: the fit's wall time / STEPS (best of 3 fits); objective: D(X || WH)
after STEPS iterations; rel_objective_diff: |CILab's - scikit-learn's| / scikit-learn's.
"""
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import NMF
from sklearn.exceptions import ConvergenceWarning


def kl(x, w, h):
    """Generalized KL D(X || WH) on a sparse X (zeros contribute (WH)_ij)."""
    coo = x.tocoo()
    wh = np.einsum("ij,ij->i", w[coo.row], h.T[coo.col])
    return float(np.dot(coo.data, np.log(coo.data / wh)) - coo.data.sum() + w.sum(axis=0).dot(h.sum(axis=1)))


def main():
    d, steps = sys.argv[1], int(sys.argv[2])
    ld = lambda name: np.load(f"{d}/{name}.npy")
    shape = tuple(int(v) for v in ld("x_shape"))
    x = sp.csr_matrix((ld("x_data"), ld("x_indices").astype(np.int32), ld("x_indptr").astype(np.int64)), shape=shape)
    w0, h0 = ld("w0"), ld("h0")
    cilab = float(ld("objective")[0])
    best, w, h = None, None, None
    warnings.simplefilter("ignore", ConvergenceWarning)
    for _ in range(3):
        model = NMF(n_components=w0.shape[1], beta_loss="kullback-leibler", solver="mu", init="custom",
                    max_iter=steps, tol=0)
        t0 = time.perf_counter()
        w = model.fit_transform(x, W=w0.copy(), H=h0.copy())
        dt = time.perf_counter() - t0
        h = model.components_
        best = dt if best is None else min(best, dt)
    ref = kl(x, w, h)
    print("REF iter_ms=%.3f objective=%.17g rel_objective_diff=%.3e" % (1000 * best / steps, ref, abs(cilab - ref) / ref))


if __name__ == "__main__":
    main()
