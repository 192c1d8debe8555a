#!/usr/bin/env bash
# The autoencoder module on the command (linear, m = 10, Fashion-MNIST):
#   bench/run_autoencoder.sh BUILD_DIR [EPOCHS]
# One RESULT line per thread count (1 and 2): load, reset (split, PCA
# reference, initial evaluation) and mean epoch time, the loss beside the
# Eckart-Young value and the largest principal angle. The machine may be
# shared: the load average is printed before and after.
set -euo pipefail
build=${1:?usage: run_autoencoder.sh BUILD_DIR [EPOCHS]}
epochs=${2:-3}
exe=$build/bench_autoencoder
[ -x "$exe" ] || { echo "run_autoencoder.sh: $exe not found; build it: cmake --build $build --target bench_autoencoder" >&2; exit 1; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
for threads in 1 2; do
  "$exe" --epochs "$epochs" --threads "$threads"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
