#!/usr/bin/env bash
# k-means beside scikit-learn, in one invocation (same machine state):
#   bench/run_kmeans.sh BUILD_DIR [ITERS]
# Runs BUILD_DIR/bench_kmeans (which writes the data and the initial centroids
# as .npy), then bench/kmeans_sklearn.py with /usr/bin/python3 on the same
# files, and prints a table: case | cilab ms/iter | sklearn lloyd | sklearn
# elkan | ratio to the faster | objectives agree (relative difference).
# Target: ratio <= 0.5. Cases whose data are missing are skipped with a message.
# The load average is printed before and after: on a busy machine (other
# builds) compare only numbers from the same invocation, and repeat.
set -euo pipefail
build=${1:?usage: run_kmeans.sh BUILD_DIR [ITERS]}
iters=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_kmeans
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_kmeans.sh: $exe not found; build it: cmake --build $build --target bench_kmeans" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

have_sklearn=1
have_py_module "$py" sklearn || have_sklearn=0


load_before=$(loadavg)

rows=()
for case in fashion-mnist blobs; do
  out=$("$exe" --iters "$iters" --out "$tmp" --case "$case")
  echo "$out"
  line=$(grep '^RESULT' <<<"$out" || true)
  [ -n "$line" ] || continue
  c_ms=$(field ms_per_iter "$line"); c_it=$(field iters "$line"); c_obj=$(field objective "$line")
  l_ms=-; e_ms=-; ratio=-; agree=-; note=""
  if [ $have_sklearn = 1 ]; then
    sk=$("$py" "$here/kmeans_sklearn.py" "$tmp/${case}_x.npy" "$tmp/${case}_init.npy" "$iters")
    echo "$sk"
    ll=$(grep 'alg=lloyd' <<<"$sk"); el=$(grep 'alg=elkan' <<<"$sk")
    l_ms=$(field ms_per_iter "$ll"); e_ms=$(field ms_per_iter "$el")
    l_it=$(field n_iter "$ll"); e_it=$(field n_iter "$el"); l_obj=$(field inertia "$ll")
    read -r ratio agree <<<"$("$py" -c "
c, l, e, co, lo = $c_ms, $l_ms, $e_ms, $c_obj, $l_obj
print('%.3f %.2e' % (c / min(l, e), abs(co - lo) / max(abs(lo), 1e-300)))")"
    [ "$c_it" = "$l_it" ] && [ "$c_it" = "$e_it" ] || note=" (iterations: cilab $c_it, lloyd $l_it, elkan $e_it)"
  fi
  rows+=("$(printf '%-14s | %13s | %13s | %13s | %15s | %s%s' "$case" "$c_ms" "$l_ms" "$e_ms" "$ratio" "$agree" "$note")")
  rm -f "$tmp/${case}"_*.npy
done

echo
echo "k-means, ms per Lloyd iteration ($iters iterations, init = first k rows; target ratio <= 0.5)"
echo "load average ($(nproc 2>/dev/null || echo ?) cores): before $load_before, after $(loadavg)"
printf '%-14s | %13s | %13s | %13s | %15s | %s\n' case "cilab ms/iter" "sklearn lloyd" "sklearn elkan" "ratio to faster" "objectives agree (rel diff)"
for r in "${rows[@]}"; do echo "$r"; done
