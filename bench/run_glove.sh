#!/usr/bin/env bash
# GloVe on GCIDE: the epoch time of both solvers (the issue asks for it to be
# reported; there is no packaged reference implementation to run beside it):
#   bench/run_glove.sh BUILD_DIR [EPOCHS]
# Runs `cilab run glove --dataset gcide` (the module's defaults: vector_size 50,
# window 10, x_max 100, alpha 0.75, min_count 5, max_vocab 20 000) for EPOCHS
# epochs (default 3) with solver=adagrad (GloVe's own per-entry AdaGrad, one
# thread as GloVe's C code with -threads 1) and solver=als (exact alternating
# least squares, rows solved on every core: `cilab run` uses them all). Prints a table:
#   solver | epoch ms (mean) | entries/s | recall@10 after EPOCHS | load + set-up s
# load + set-up = wall time minus the epochs: reading GCIDE, the vocabulary, the
# co-occurrence counts (about 11.5 M nonzero entries).
set -euo pipefail
build=${1:?usage: run_glove.sh BUILD_DIR [EPOCHS]}
epochs=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/cilab
[ -x "$exe" ] || { echo "run_glove.sh: $exe not found; build it: cmake --build $build --target cilab" >&2; exit 1; }
rows=""
for solver in adagrad als; do
  t0=$(date +%s.%N)
  out=$("$exe" run glove --dataset gcide --epochs "$epochs" --set solver=$solver --set probe=king)
  t1=$(date +%s.%N)
  echo "$out"
  rows+="$solver $t0 $t1"$'\n'"$out"$'\n'
done
echo
echo "GloVe on GCIDE (vector_size 50, window 10, max_vocab 20 000), $epochs epochs, ALS on $(nproc) cores (load $(loadavg))"
ROWS="$rows" /usr/bin/python3 - <<'PY'
import os
blocks, cur = [], None
for line in os.environ["ROWS"].splitlines():
    f = line.split()
    if len(f) == 3 and f[0] in ("adagrad", "als"):
        cur = {"solver": f[0], "wall": float(f[2]) - float(f[1]), "rows": []}
        blocks.append(cur)
    elif cur is not None and line and line[0].isdigit():
        cur["rows"].append([float(x) for x in line.split(",")])
print("%-8s | %15s | %13s | %21s | %15s" % ("solver", "epoch ms (mean)", "entries/s", "recall@10 at the end", "load + set-up s"))
for b in blocks:
    r = b["rows"]
    if not r:
        continue
    ms = sum(x[5] for x in r) / len(r)
    eps = sum(x[3] for x in r) / len(r)
    setup = b["wall"] - sum(x[5] for x in r) / 1000.0
    print("%-8s | %15.0f | %13.0f | %21.4f | %15.1f" % (b["solver"], ms, eps, r[-1][4], setup))
PY
