#!/usr/bin/env bash
# The autoencoder module on the issue's command (linear, m = 10, Fashion-MNIST)
# beside the same linear autoencoder in PyTorch, in one invocation:
#   bench/run_autoencoder.sh BUILD_DIR [EPOCHS]
# cilab: BUILD_DIR/bench_autoencoder --threads N (the module itself: its epoch
# also computes the principal angles every step and the test loss); torch:
# bench/bench_autoencoder.py with torch.set_num_threads(N) (training only).
# One row per thread count (1 and 2): epoch ms both sides, their ratio, the
# loss beside the Eckart-Young value and the largest principal angle. The
# machine may be shared: the load average is printed before and after.
set -euo pipefail
build=${1:?usage: run_autoencoder.sh BUILD_DIR [EPOCHS]}
epochs=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_autoencoder
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_autoencoder.sh: $exe not found; build it: cmake --build $build --target bench_autoencoder" >&2; exit 1; }
load_before=$(loadavg)
have_torch=1
have_py_module "$py" torch || have_torch=0
fmt='%-7s | %-12s | %13s | %6s | %10s | %10s | %12s | %11s | %s\n'
rows=()
for threads in 1 2; do
  out=$("$exe" --epochs "$epochs" --threads "$threads")
  echo "$out"
  line=$(grep '^RESULT' <<<"$out")
  c_ms=$(field epoch_ms "$line"); c_loss=$(field loss "$line"); c_angle=$(field max_angle "$line")
  t_ms=-; t_loss=-; t_angle=-; ratio=-
  if [ "$have_torch" = 1 ]; then
    tout=$("$py" "$here/bench_autoencoder.py" "$epochs" "$threads")
    echo "$tout"
    tl=$(grep '^RESULT' <<<"$tout" || true)
    t_ms=$(field epoch_ms " $tl"); t_loss=$(field loss " $tl"); t_angle=$(field max_angle " $tl")
    ratio=$("$py" -c "print('%.3f' % ($c_ms / $t_ms))")
  fi
  rows+=("$(printf "$fmt" "$threads" "$c_ms" "$t_ms" "$ratio" "$c_loss" "$t_loss" "$(field eckart_young "$line")" \
    "$c_angle" "$t_angle")")
done
echo
echo "Linear autoencoder 784-10-784 on Fashion-MNIST, $epochs epoch(s), batch 64, Adam 0.01; load average $load_before -> $(loadavg)"
printf "$fmt" threads "cilab ms/ep" "torch ms/ep" ratio "cilab loss" "torch loss" "Eckart-Young" "cilab angle" "torch angle"
printf '%s\n' "${rows[@]}"
