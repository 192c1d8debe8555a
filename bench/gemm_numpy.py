#!/usr/bin/env python3
"""numpy's float32 matmul (OpenBLAS; run with OPENBLAS_NUM_THREADS=1) on the shapes and forms
bench_gemm times. Reads bench_gemm's RESULT lines on stdin, prints each with numpy's time and the
ratio (CILab's chosen path / numpy) appended."""
import sys
import time

import numpy as np

rng = np.random.default_rng(1)
for line in sys.stdin:
    if not line.startswith("RESULT"):
        continue
    f = dict(kv.split("=") for kv in line.split()[1:])
    m, n, k, form = int(f["m"]), int(f["n"]), int(f["k"]), f["form"]
    a = rng.uniform(-1, 1, (m, k) if form[0] == "N" else (k, m)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n) if form[1] == "N" else (n, k)).astype(np.float32)
    opa = a if form[0] == "N" else a.T
    opb = b if form[1] == "N" else b.T
    c = np.empty((m, n), np.float32)
    reps = max(1, int(2e8 / (2.0 * m * n * k)))
    best = 1e30
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            np.matmul(opa, opb, out=c)
        best = min(best, (time.perf_counter() - t0) * 1e3 / reps)
    ours = float(f["packed_ms"] if f["path"] == "packed" else f["tiled_ms"])
    print(f"{line.strip()} numpy_ms={best:.4f} ratio={ours / best:.2f}")
