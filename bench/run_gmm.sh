#!/usr/bin/env bash
# Gaussian mixture EM beside scikit-learn, in one invocation (same machine state):
#   bench/run_gmm.sh BUILD_DIR [ITERS]
# Runs BUILD_DIR/bench_gmm per case (it writes the data, the iteration-0
# weights/means/covariances and its log-likelihood trajectory as .npy), then
# bench/bench_gmm.py with /usr/bin/python3, which starts scikit-learn's
# GaussianMixture from the same parameters and runs the same ITERS EM
# iterations (E + M). Prints a table:
#   case | cilab ms/iter | sklearn ms/iter | ratio | max |ll diff| over the trajectory
# Target: ratio <= 0.25 and max |ll diff| <= 1e-8.
# Cases: blobs (1e5 x 2, K = 4, full) and fashion-pca20 (Fashion-MNIST train
# projected to 20 principal components, K = 10, full); missing data are skipped.
# On a busy machine (other builds) compare only numbers from the same invocation.
set -euo pipefail
build=${1:?usage: run_gmm.sh BUILD_DIR [ITERS]}
iters=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_gmm
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_gmm.sh: $exe not found; build it: cmake --build $build --target bench_gmm" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-gmm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

have_sklearn=1
have_py_module "$py" sklearn || have_sklearn=0
load_before=$(loadavg)

rows=()
for case in blobs fashion-pca20; do
  out=$("$exe" --iters "$iters" --out "$tmp" --case "$case")
  echo "$out"
  line=$(grep '^RESULT' <<<"$out" || true)
  [ -n "$line" ] || continue
  c_ms=$(field ms_per_iter "$line")
  s_ms=-; ratio=-; diff=-; fit_ms=-
  if [ $have_sklearn = 1 ]; then
    sk=$("$py" "$here/bench_gmm.py" "$tmp" "$case" "$iters")
    echo "$sk"
    sl=$(grep '^RESULT' <<<"$sk" || true)
    if [ -n "$sl" ]; then
      s_ms=$(field ms_per_iter "$sl"); diff=$(field max_ll_diff "$sl"); fit_ms=$(field fit_ms_per_iter "$sl")
      ratio=$("$py" -c "print('%.3f' % ($c_ms / $s_ms))")
    fi
  fi
  rows+=("$(printf '%-14s | %13s | %15s | %6s | %19s | %s' "$case" "$c_ms" "$s_ms" "$ratio" "$diff" "$fit_ms")")
  rm -f "$tmp"/*.npy
done
echo
echo "GMM EM (full covariance, reg 1e-6), $iters iterations from the same start; load average $load_before -> $(loadavg)"
echo "target: ratio <= 0.25, max |ll diff| <= 1e-8 (ll = mean log-likelihood per sample of each iteration)"
printf '%-14s | %13s | %15s | %6s | %19s | %s\n' case "cilab ms/iter" "sklearn ms/iter" ratio "max |ll diff|" "sklearn fit() ms/iter"
for r in "${rows[@]}"; do echo "$r"; done
