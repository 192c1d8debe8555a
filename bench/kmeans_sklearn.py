#!/usr/bin/python3
"""scikit-learn's KMeans on the data bench_kmeans wrote, for the side-by-side table.

Usage: kmeans_sklearn.py X.npy INIT.npy ITERS
Runs KMeans(n_clusters=k, init=INIT, n_init=1, tol=0, max_iter=ITERS) with
algorithm='lloyd' and 'elkan' and prints one line per algorithm:
  RESULT alg=lloyd n_iter=.. ms_per_iter=.. inertia=..
ms_per_iter = wall time of fit() / n_iter_ (fit includes sklearn's own input
checks, centring and first distances, as scikit-learn users pay them).
Exit code 3 (and a SKIP line) when scikit-learn is not installed.
"""
import sys
import time

try:
    import numpy as np
    from sklearn.cluster import KMeans
except ImportError as e:  # pragma: no cover - depends on the machine
    print("SKIP reason=scikit-learn not importable (%s); install python3-sklearn" % e)
    sys.exit(3)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    x = np.load(sys.argv[1])
    init = np.load(sys.argv[2])
    iters = int(sys.argv[3])
    k = init.shape[0]
    for alg in ("lloyd", "elkan"):
        t0 = time.perf_counter()
        km = KMeans(n_clusters=k, init=init, n_init=1, tol=0.0, max_iter=iters,
                    algorithm=alg).fit(x)
        dt = time.perf_counter() - t0
        print("RESULT alg=%s n_iter=%d ms_per_iter=%.3f inertia=%.17g" %
              (alg, km.n_iter_, dt * 1e3 / km.n_iter_, km.inertia_))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
