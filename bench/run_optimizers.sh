#!/usr/bin/env bash
# The eight optimizers beside torch.optim, in one invocation:
#   bench/run_optimizers.sh BUILD_DIR [STEPS] [REPS]
# Runs BUILD_DIR/bench_optimizers (8 optimizers x STEPS steps on Rosenbrock
# from (-1.5, 2): the Optimizer kernel alone, and the optimizers module racing
# all eight), then bench/bench_optimizers.py with /usr/bin/python3 (torch.optim
# on a 2-element float64 tensor, same hyper-parameters and start), and prints
# a table: per optimizer the torch time and max |trajectory difference|, and
# the totals with the ratio torch / cilab.
# Targets: module_ms well under a frame (16 ms); max |diff| <= 1e-10.
set -euo pipefail
build=${1:?usage: run_optimizers.sh BUILD_DIR [STEPS] [REPS]}
steps=${2:-10000}
reps=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_optimizers
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_optimizers.sh: $exe not found; build it: cmake --build $build --target bench_optimizers" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-opt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT


out=$("$exe" --steps "$steps" --reps "$reps" --out "$tmp")
echo "$out"
line=$(grep '^RESULT' <<<"$out")
k_ms=$(field kernel_ms "$line")
m_ms=$(field module_ms "$line")
if ! "$py" -c 'import torch' 2>/dev/null; then
  echo "torch not importable by $py (install python3-torch): CILab times only"
  echo "kernel_ms=$k_ms module_ms=$m_ms"
  exit 0
fi
tout=$("$py" "$here/bench_optimizers.py" "$tmp")
echo "$tout"
echo
echo "8 optimizers x $steps steps on Rosenbrock from (-1.5, 2), float64 (cilab: median of $reps)"
printf '%-9s | %12s | %14s | %s\n' optimizer "final loss" "torch ms" "max |theta diff| vs torch"
while read -r l; do
  n=$(field name "$l")
  ol=$(grep "^OPT name=$n " <<<"$out")
  printf '%-9s | %12s | %14s | %s\n' "$n" "$(field final_loss "$ol")" "$(field ms "$l")" "$(field max_abs_diff "$l")"
done < <(grep '^TORCH' <<<"$tout")
tl=$(grep '^TOTAL' <<<"$tout")
t_ms=$(field ms "$tl")
diff=$(field max_abs_diff "$tl")
printf '\n%-34s | %10s | %10s | %18s | %s\n' case "cilab ms" "torch ms" "ratio torch/cilab" "max |diff|"
printf '%-34s | %10s | %10s | %18s | %s\n' "Optimizer kernel, all 8" "$k_ms" "$t_ms" \
  "$("$py" -c "print('%.0f' % ($t_ms / $k_ms))")" "$diff"
printf '%-34s | %10s | %10s | %18s | %s\n' "optimizers module, 8 racers" "$m_ms" "$t_ms" \
  "$("$py" -c "print('%.0f' % ($t_ms / $m_ms))")" "$diff"
