#!/usr/bin/env bash
# The network library beside PyTorch, in one invocation (same machine state):
#   bench/run_nn.sh BUILD_DIR [EPOCHS]
# Fashion-MNIST, 784-256-128-10 ReLU MLP, batch 128, Adam 1e-3, softmax
# cross-entropy, at 1 and at 2 threads on both sides (BUILD_DIR/bench_nn
# --threads N, then bench/bench_nn.py with torch.set_num_threads(N)). Prints a
# table row per thread count:
#   threads | epoch ms | torch epoch ms | ratio | test accuracy (cilab, torch) | GFLOP/s | SGEMM peak
# Targets (issue 11): ratio <= 0.5 at the same thread count, test accuracy
# after 3 epochs >= 0.85. The machine may be shared: the load average is
# printed before and after; repeat runs and compare the best.
set -euo pipefail
build=${1:?usage: run_nn.sh BUILD_DIR [EPOCHS]}
epochs=${2:-1}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_nn
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_nn.sh: $exe not found; build it: cmake --build $build --target bench_nn" >&2; exit 1; }
load_before=$(loadavg)
have_torch=1
have_py_module "$py" torch || have_torch=0

rows=()
cs=()
ts=()
for threads in 1 2; do
  out=$("$exe" --epochs "$epochs" --threads "$threads")
  echo "$out"
  line=$(grep '^RESULT' <<<"$out")
  c_ms=$(field epoch_ms "$line"); c_acc=$(field test_accuracy "$line")
  t_ms=-; t_acc=-; ratio=-
  if [ "$have_torch" = 1 ]; then
    tout=$("$py" "$here/bench_nn.py" "$epochs" "$threads")
    echo "$tout"
    tl=$(grep '^RESULT' <<<"$tout" || true)
    t_ms=$(field epoch_ms " $tl"); t_acc=$(field test_accuracy " $tl")
    ratio=$("$py" -c "print('%.3f' % ($c_ms / $t_ms))")
  fi
  cs+=("$c_ms"); ts+=("$t_ms")
  rows+=("$(printf '%-7s | %-12s | %14s | %6s | %10s | %10s | %8s | %s' "$threads" "$c_ms" "$t_ms" "$ratio" \
    "$c_acc" "$t_acc" "$(field gflops "$line")" "$(field sgemm_peak_gflops "$line")")")
done
echo
echo "MLP 784-256-128-10 on Fashion-MNIST, $epochs epoch(s), batch 128, Adam 1e-3; load average $load_before -> $(loadavg)"
echo "targets (issue 30): <= 0.3x PyTorch at its faster thread count (last line), <= 0.5x at 1 thread each, 2 threads faster than 1; test accuracy after 3 epochs >= 0.85"
printf '%-7s | %-12s | %14s | %6s | %10s | %10s | %8s | %s\n' threads "cilab ms/ep" "torch ms/ep" ratio "cilab acc" \
  "torch acc" "GFLOP/s" "SGEMM peak GFLOP/s"
printf '%s\n' "${rows[@]}"
if [ "$have_torch" = 1 ]; then
  "$py" -c "
c = min(float(v) for v in '${cs[*]}'.split()); t = min(float(v) for v in '${ts[*]}'.split())
print(f'against PyTorch at its faster thread count: cilab best {c:.1f} ms / pytorch best {t:.1f} ms = {c / t:.3f}  (target <= 0.3)')"
fi
