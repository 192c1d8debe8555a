#!/usr/bin/env bash
# Matrix completion beside numpy, in one invocation (same machine state):
#   bench/run_completion.sh BUILD_DIR [STEPS]
# Runs BUILD_DIR/bench_completion (the MovieLens-100k-sized synthetic problem:
# 943 x 1682, 100 000 observed, k = 10; svd_impute, als and svt for STEPS = 20
# iterations each), then bench/completion_numpy.py with /usr/bin/python3 on the
# same training entries, split and start: dense numpy.linalg.svd for svd_impute
# and svt, per-row numpy.linalg.solve for ALS, as a student would write them.
# Prints a table:
#   method | cilab ms/iter | numpy ms/iter | ratio | cilab test RMSE | numpy test RMSE | max |RMSE diff|
# Targets: ratio <= 0.25 for als and svt; the held-out RMSE equal within 1e-6.
# Same thread count: OPENBLAS_NUM_THREADS and CILab's pool both get THREADS
# (default: the machine's cores).
set -euo pipefail
build=${1:?usage: run_completion.sh BUILD_DIR [STEPS]}
steps=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_completion
py=/usr/bin/python3
threads=${THREADS:-$(nproc)}
[ -x "$exe" ] || { echo "run_completion.sh: $exe not found; build it: cmake --build $build --target bench_completion" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-completion.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

out=$("$exe" --out "$tmp" --steps "$steps" --threads "$threads")
echo "$out"
ref=""
if have_py_module "$py" numpy; then
  ref=$(OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads "$py" "$here/completion_numpy.py" "$tmp" "$steps" 10 0.1 svd_impute,als,svt)
  echo "$ref"
fi
echo
echo "Matrix completion, ratings 943 x 1682, 100 000 observed (90 % train), k = 10, lambda = 0.1, $steps iterations, $threads threads (load $(loadavg))"
echo "targets: als and svt ratio <= 0.25; held-out RMSE equal to the reference within 1e-6"
printf '%-10s | %13s | %13s | %6s | %15s | %15s | %s\n' method "cilab ms/iter" "numpy ms/iter" ratio "cilab test RMSE" "numpy test RMSE" "max |RMSE diff|"
for method in svd_impute als svt; do
  line=$(grep "^RESULT method=$method " <<<"$out" || true)
  [ -n "$line" ] || continue
  c_ms=$(field iter_ms "$line"); c_rmse=$(field test_rmse "$line")
  r_ms=-; r_rmse=-; diff=-; ratio=-
  rl=$(grep "^REF method=$method " <<<"$ref" || true)
  if [ -n "$rl" ]; then
    r_ms=$(field iter_ms "$rl"); r_rmse=$(field test_rmse "$rl"); diff=$(field max_rmse_diff "$rl")
    ratio=$("$py" -c "print('%.3f' % ($c_ms / $r_ms))")
  fi
  printf '%-10s | %13s | %13s | %6s | %15s | %15s | %s\n' "$method" "$c_ms" "$r_ms" "$ratio" "$c_rmse" "$r_rmse" "$diff"
done
