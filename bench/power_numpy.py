#!/usr/bin/python3
"""numpy's power iteration on the matrix and start vector bench_power wrote.

Usage: power_numpy.py C.npy V0.npy STEPS [REPS]
Runs the textbook loop (the same as the power-iteration module's steps)
    v = C @ v; v /= np.linalg.norm(v)
STEPS times from V0, best of REPS repetitions (default 5), and prints
  RESULT steps=.. ms=.. ms_per_step=.. rayleigh=.. blas=..
rayleigh = v^T C v after the last step; blas = the BLAS library numpy loaded.
Exit code 3 (and a SKIP line) when numpy is not importable.
"""
import sys
import time

try:
    import numpy as np
except ImportError as e:  # pragma: no cover - depends on the machine
    print("SKIP reason=numpy not importable (%s); install python3-numpy" % e)
    sys.exit(3)


def blas_library():
    """The BLAS shared object mapped into this process (what C @ v runs on)."""
    try:
        with open("/proc/self/maps") as f:
            libs = {line.split()[-1] for line in f if "blas" in line.lower() and "/" in line}
        return ",".join(sorted(libs)) or "unknown"
    except OSError:
        return "unknown"


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__)
        sys.exit(2)
    c = np.load(sys.argv[1])
    v0 = np.load(sys.argv[2])
    steps = int(sys.argv[3])
    reps = int(sys.argv[4]) if len(sys.argv) == 5 else 5
    best = float("inf")
    v = v0
    for _ in range(reps):
        v = v0.copy()
        t0 = time.perf_counter()
        for _ in range(steps):
            v = c @ v
            v /= np.linalg.norm(v)
        best = min(best, time.perf_counter() - t0)
    rayleigh = float(v @ (c @ v))
    print("RESULT steps=%d ms=%.3f ms_per_step=%.4f rayleigh=%.17g blas=%s" %
          (steps, best * 1e3, best * 1e3 / steps, rayleigh, blas_library()))


if __name__ == "__main__":
    main()
