#!/usr/bin/env bash
# Topic models beside scikit-learn, in one invocation (same machine state):
#   bench/run_plsa.sh BUILD_DIR [STEPS]
# Runs BUILD_DIR/bench_plsa (the fortune cookies, the module's default
# vocabulary, K = 20: STEPS = 50 iterations of pLSA's EM and of the KL
# multiplicative updates, method=nmf_kl), then bench/plsa_sklearn.py with
# /usr/bin/python3: scikit-learn's NMF(beta_loss='kullback-leibler',
# solver='mu', init='custom', tol=0) on the same training counts from the same
# start. Prints a table:
#   what | ms/iter | ratio to scikit-learn | objective after STEPS | rel. diff to scikit-learn
# Targets: pLSA's iteration <= 0.25x scikit-learn's; nmf_kl's objective equal
# to scikit-learn's (same updates, same start) to ~1e-9 relative.
# Same thread count: OMP/OPENBLAS_NUM_THREADS and CILab's pool both get
# THREADS (default 2).
set -euo pipefail
build=${1:?usage: run_plsa.sh BUILD_DIR [STEPS]}
steps=${2:-50}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_plsa
py=/usr/bin/python3
threads=${THREADS:-2}
[ -x "$exe" ] || { echo "run_plsa.sh: $exe not found; build it: cmake --build $build --target bench_plsa" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-plsa.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

out=$("$exe" --out "$tmp" --steps "$steps" --threads "$threads")
echo "$out"
ref=""
if have_py_module "$py" sklearn scikit-learn; then
  ref=$(OPENBLAS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads "$py" "$here/plsa_sklearn.py" "$tmp" "$steps")
  echo "$ref"
fi
p=$(grep '^RESULT method=plsa ' <<<"$out")
n=$(grep '^RESULT method=nmf_kl ' <<<"$out")
r_ms=-; r_obj=-; diff=-
if [ -n "$ref" ]; then r_ms=$(field iter_ms "$ref"); r_obj=$(field objective "$ref"); diff=$(field rel_objective_diff "$ref"); fi
ratio() { if [ "$r_ms" = - ]; then echo -; else "$py" -c "print('%.3f' % ($1 / $r_ms))"; fi; }
echo
echo "Topic models, fortunes: $(field docs "$p") documents x $(field terms "$p") terms, $(field nnz "$p") nonzeros, K = $(field k "$p"), $steps iterations, $threads threads (load $(loadavg))"
echo "targets: pLSA ratio <= 0.25; nmf_kl objective equal to scikit-learn's from the same start (~1e-9 relative)"
printf '%-30s | %8s | %6s | %24s | %s\n' what "ms/iter" ratio "objective after $steps" "rel. diff"
printf '%-30s | %8s | %6s | %24s | %s\n' "cilab plsa (EM)" "$(field iter_ms "$p")" "$(ratio "$(field iter_ms "$p")")" "$(field objective "$p") (-l)" -
printf '%-30s | %8s | %6s | %24s | %s\n' "cilab nmf_kl" "$(field iter_ms "$n")" "$(ratio "$(field iter_ms "$n")")" "$(field objective "$n")" "$diff"
printf '%-30s | %8s | %6s | %24s | %s\n' "scikit-learn NMF kl, mu" "$r_ms" 1 "$r_obj" -
