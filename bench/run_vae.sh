#!/usr/bin/env bash
# The vae module's model beside PyTorch's VAE example, in one invocation:
#   bench/run_vae.sh BUILD_DIR [EPOCHS]
# Fashion-MNIST, VAE 784-400-20 ReLU with the Bernoulli decoder, batch 128,
# Adam 1e-3, per-sample negative ELBO, at 1 and at 2 threads on both sides
# (BUILD_DIR/bench_vae --threads N, then bench/bench_vae.py with
# torch.set_num_threads(N)). Prints a table row per thread count:
#   threads | epoch ms | torch epoch ms | ratio | loss (cilab, torch) | loss diff | test loss (cilab, torch) | GFLOP/s
# Targets (issue 12): ratio <= 0.25 at the same thread count; the per-sample
# loss after one epoch within 2 % of PyTorch's. The machine may be shared: the
# load average is printed before and after; repeat runs and compare the best.
set -euo pipefail
build=${1:?usage: run_vae.sh BUILD_DIR [EPOCHS]}
epochs=${2:-1}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_vae
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_vae.sh: $exe not found; build it: cmake --build $build --target bench_vae" >&2; exit 1; }
load_before=$(loadavg)
have_torch=1
have_py_module "$py" torch || have_torch=0
fmt='%-7s | %-12s | %13s | %6s | %10s | %10s | %9s | %10s | %10s | %s\n'
rows=()
cs=()
ts=()
for threads in 1 2; do
  out=$("$exe" --epochs "$epochs" --threads "$threads")
  echo "$out"
  line=$(grep '^RESULT' <<<"$out")
  c_ms=$(field epoch_ms "$line"); c_loss=$(field loss "$line"); c_test=$(field test_loss "$line")
  t_ms=-; t_loss=-; t_test=-; ratio=-; diff=-
  if [ "$have_torch" = 1 ]; then
    tout=$("$py" "$here/bench_vae.py" "$epochs" "$threads")
    echo "$tout"
    tl=$(grep '^RESULT' <<<"$tout" || true)
    t_ms=$(field epoch_ms " $tl"); t_loss=$(field loss " $tl"); t_test=$(field test_loss " $tl")
    ratio=$("$py" -c "print('%.3f' % ($c_ms / $t_ms))")
    diff=$("$py" -c "print('%+.2f%%' % (100 * ($c_loss - $t_loss) / $t_loss))")
  fi
  cs+=("$c_ms"); ts+=("$t_ms")
  rows+=("$(printf "$fmt" "$threads" "$c_ms" "$t_ms" "$ratio" "$c_loss" "$t_loss" "$diff" "$c_test" "$t_test" \
    "$(field gflops "$line")")")
done
echo
echo "VAE 784-400-20 (Bernoulli) on Fashion-MNIST, $epochs epoch(s), batch 128, Adam 1e-3; load average $load_before -> $(loadavg)"
echo "targets (issue 30): <= 0.25x PyTorch at its faster thread count (last line); loss after one epoch within 2 % of torch's"
printf "$fmt" threads "cilab ms/ep" "torch ms/ep" ratio "cilab loss" "torch loss" "loss diff" "cilab test" "torch test" GFLOP/s
printf '%s\n' "${rows[@]}"
if [ "$have_torch" = 1 ]; then
  "$py" -c "
c = min(float(v) for v in '${cs[*]}'.split()); t = min(float(v) for v in '${ts[*]}'.split())
print(f'against PyTorch at its faster thread count: cilab best {c:.1f} ms / pytorch best {t:.1f} ms = {c / t:.3f}  (target <= 0.25)')"
fi
