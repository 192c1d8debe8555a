#!/usr/bin/env python3
"""Matrix completion as a student would write it in numpy, on bench_completion's data.

Usage: completion_numpy.py DIR STEPS K LAMBDA METHODS
Reads DIR/*.npy written by bench_completion (training entries in normalised units,
held-out entries, column offsets, ALS's initial factors, SVT's tau, delta and Y_0),
runs the same iterations from the same start and prints per method one line
  REF method=.. iter_ms=.. test_rmse=.. max_rmse_diff=..
where max_rmse_diff is the largest |held-out RMSE difference| to CILab's, over
every iteration.
  svd_impute  A <- [A + Pi(Z - A)]_k with a dense numpy.linalg.svd of the m x n matrix
  svt         B = shrink_tau(Y) with a dense numpy.linalg.svd, Y += delta Pi(Z - B)
  als         per-row numpy.linalg.solve of (sum u u^T + lambda I) v = sum z u, items then users
"""
import sys
import time

import numpy as np


def main():
    d, steps, k, lam, methods = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
    ld = lambda name: np.load(f"{d}/{name}.npy")
    tr, tc, z = ld("train_row").astype(int), ld("train_col").astype(int), ld("train_z")
    er, ec, ev = ld("test_row").astype(int), ld("test_col").astype(int), ld("test_value")
    mu = ld("col_mean")
    m, n = int(max(tr.max(), er.max())) + 1, mu.shape[0]
    m = max(m, 943)

    def rmse(pred_test):
        return float(np.sqrt(np.mean((ev - (mu[ec] + pred_test)) ** 2)))

    for method in methods.split(","):
        times, errs = [], []
        if method == "svd_impute":
            a = np.zeros((m, n))
            for _ in range(steps):
                t0 = time.perf_counter()
                zt = a.copy()
                zt[tr, tc] += z - a[tr, tc]
                u, s, vt = np.linalg.svd(zt, full_matrices=False)
                a = (u[:, :k] * s[:k]) @ vt[:k]
                times.append(time.perf_counter() - t0)
                errs.append(rmse(a[er, ec]))
        elif method == "svt":
            tau, delta = ld("svt_tau_delta")
            y = np.zeros((m, n))
            y[tr, tc] = ld("svt_y0")
            for _ in range(steps):
                t0 = time.perf_counter()
                u, s, vt = np.linalg.svd(y, full_matrices=False)
                s = np.maximum(s - tau, 0.0)
                r = int(np.count_nonzero(s))
                b = (u[:, :r] * s[:r]) @ vt[:r]
                y[tr, tc] += delta * (z - b[tr, tc])
                times.append(time.perf_counter() - t0)
                errs.append(rmse(b[er, ec]))
        elif method == "als":
            u, v = ld("als_u0").copy(), ld("als_v0").copy()
            rows = [np.flatnonzero(tr == i) for i in range(m)]
            order = np.argsort(tc, kind="stable")
            bounds = np.searchsorted(tc[order], np.arange(n + 1))
            cols = [order[bounds[j]:bounds[j + 1]] for j in range(n)]
            eye = lam * np.eye(k)
            for _ in range(steps):
                t0 = time.perf_counter()
                for j in range(n):
                    e = cols[j]
                    w = u[tr[e]]
                    g = w.T @ w + eye
                    if lam == 0 and len(e) < k:
                        v[j] = np.linalg.lstsq(g, w.T @ z[e], rcond=None)[0]
                    else:
                        v[j] = np.linalg.solve(g, w.T @ z[e])
                for i in range(m):
                    e = rows[i]
                    w = v[tc[e]]
                    u[i] = np.linalg.solve(w.T @ w + eye, w.T @ z[e])
                times.append(time.perf_counter() - t0)
                errs.append(rmse(np.einsum("ij,ij->i", u[er], v[ec])))
        else:
            continue
        ours = ld(f"{method}_test_rmse")
        diff = float(np.max(np.abs(np.array(errs) - ours[: len(errs)])))
        print(f"REF method={method} iter_ms={1000 * float(np.median(times)):.3f} test_rmse={errs[-1]:.10f} "
              f"max_rmse_diff={diff:.3g}")


if __name__ == "__main__":
    main()
