#!/usr/bin/env bash
# PCA beside scikit-learn, in one invocation (same machine state):
#   bench/run_pca.sh BUILD_DIR [REPS]
# Runs BUILD_DIR/bench_pca (top 50 components of Fashion-MNIST train,
# 60000 x 784; writes its explained-variance ratios), then bench/pca_sklearn.py
# with /usr/bin/python3 (PCA(n_components=50) with svd_solver='full' and
# 'randomized' on the same pixels / 255), and prints a table:
#   case | cilab ms | sklearn full ms | sklearn randomized ms | ratio to randomized | max |ratio diff|
# where max |ratio diff| compares cilab's explained_variance_ratio_ with the
# exact ('full') ones. Target: ratio <= 0.5 and diff <= 1e-6.
# numpy/scikit-learn run on whatever BLAS Debian's libblas.so.3 alternative
# points to; `make bench` installs libopenblas0-pthread so they get OpenBLAS.
set -euo pipefail
build=${1:?usage: run_pca.sh BUILD_DIR [REPS]}
reps=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_pca
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_pca.sh: $exe not found; build it: cmake --build $build --target bench_pca" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-pca.XXXXXX")
trap 'rm -rf "$tmp"' EXIT


out=$("$exe" --reps "$reps" --out "$tmp")
echo "$out"
line=$(grep '^RESULT' <<<"$out" || true)
if [ -z "$line" ]; then
  echo "run_pca.sh: bench_pca produced no result (data missing?)"
  exit 0
fi
c_ms=$(field fit_ms "$line")
f_ms=-; r_ms=-; ratio=-; diff=-
if "$py" -c 'import sklearn' 2>/dev/null; then
  sk=$("$py" "$here/pca_sklearn.py" "$tmp/pca_ratios.txt" 50 full,randomized)
  echo "$sk"
  fl=$(grep 'solver=full' <<<"$sk"); rl=$(grep 'solver=randomized' <<<"$sk")
  f_ms=$(field ms "$fl"); r_ms=$(field ms "$rl"); diff=$(field max_diff_cilab "$fl")
  ratio=$("$py" -c "print('%.3f' % ($c_ms / $r_ms))")
  echo "(sklearn randomized vs full: max |ratio diff| = $(field max_diff_full "$rl"))"
else
  echo "scikit-learn not importable by $py (install python3-sklearn): printing CILab times only"
fi
echo
echo "PCA, top 50 components of Fashion-MNIST train (60000 x 784), fit wall time (cilab: median of $reps)"
echo "target: ratio to randomized <= 0.5, max |ratio diff| vs exact <= 1e-6"
printf '%-14s | %9s | %15s | %21s | %19s | %s\n' case "cilab ms" "sklearn full ms" "sklearn randomized ms" "ratio to randomized" "max |ratio diff|"
printf '%-14s | %9s | %15s | %21s | %19s | %s\n' fashion-mnist "$c_ms" "$f_ms" "$r_ms" "$ratio" "$diff"
