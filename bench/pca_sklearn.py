#!/usr/bin/python3
"""scikit-learn's PCA on Fashion-MNIST train, for the side-by-side table of run_pca.sh.

Usage: pca_sklearn.py RATIOS.txt [N_COMPONENTS] [SOLVERS]
Loads the same data as bench_pca (Debian's dataset-fashion-mnist, train
images, pixels / 255, 60000 x 784 float64), fits
PCA(n_components=N, svd_solver=S, random_state=0) for S in SOLVERS
(comma-separated, default "full,randomized") and prints one line per solver:
  RESULT solver=full ms=.. max_diff_cilab=.. max_diff_full=..
ms = wall time of fit() (input checks, centring and the solver: what a
scikit-learn user pays). max_diff_cilab = max_i |ratio_i(cilab) -
ratio_i(this solver)| over the explained_variance_ratio_ entries;
max_diff_full = the same for this solver against the exact ('full') ratios.
Exit code 3 (and a SKIP line) when numpy/scikit-learn are not importable.
"""
import gzip
import os
import sys
import time

try:
    import numpy as np
    from sklearn.decomposition import PCA
except ImportError as e:  # pragma: no cover - depends on the machine
    print("SKIP reason=numpy/scikit-learn not importable (%s); install python3-sklearn" % e)
    sys.exit(3)


def load_images():
    base = os.environ.get("CILAB_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")
    path = os.path.join(base, "train-images-idx3-ubyte.gz")
    with gzip.open(path, "rb") as f:
        raw = f.read()
    n, h, w = (int.from_bytes(raw[i:i + 4], "big") for i in (4, 8, 12))
    x = np.frombuffer(raw, dtype=np.uint8, offset=16).reshape(n, h * w)
    return x.astype(np.float64) / 255.0


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    cilab = np.loadtxt(sys.argv[1], ndmin=1)
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    solvers = (sys.argv[3] if len(sys.argv) > 3 else "full,randomized").split(",")
    x = load_images()
    exact = None
    for solver in solvers:
        t0 = time.perf_counter()
        p = PCA(n_components=k, svd_solver=solver, random_state=0).fit(x)
        dt = time.perf_counter() - t0
        r = p.explained_variance_ratio_
        if solver == "full":
            exact = r
        diff_full = float(np.max(np.abs(r - exact))) if exact is not None else float("nan")
        print("RESULT solver=%s ms=%.1f max_diff_cilab=%.3e max_diff_full=%.3e" %
              (solver, dt * 1e3, float(np.max(np.abs(cilab[:k] - r))), diff_full))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
