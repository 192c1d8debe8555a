#!/usr/bin/env bash
# The gan module beside the same GAN in PyTorch, in one invocation:
#   bench/run_gan.sh BUILD_DIR [STEPS]
# Speed: 2-D GAN on the ring of 8, G and D both 2-64-64-out ReLU MLPs, batch
# 256, Adam 1e-3, one D step and one G step per iteration, non-saturating loss,
# at 1 and at 2 threads on both sides (BUILD_DIR/bench_gan --threads N beside
# bench/bench_gan.py with torch.set_num_threads(N)). Coverage: the
# ring-converge preset, 5 000 iterations, seeds 0..4, modes covered (>= 1 % of
# 2 000 samples within 3 sd of a centre). Targets (issue 13): >= 10x PyTorch's
# steps per second at the same thread count; >= 7 of 8 modes for each seed.
# The machine may be shared: the load average is printed before and after.
set -euo pipefail
build=${1:?usage: run_gan.sh BUILD_DIR [STEPS]}
steps=${2:-2000}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_gan
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_gan.sh: $exe not found; build it: cmake --build $build --target bench_gan" >&2; exit 1; }
load_before=$(loadavg)
have_torch=1
have_py_module "$py" torch || have_torch=0
fmt='%-7s | %-13s | %-13s | %-12s | %-12s | %s\n'
rows=()
cs=()
ts=()
for threads in 1 2; do
  out=$("$exe" --steps "$steps" --threads "$threads" --set loss=nonsaturating)
  echo "$out"
  line=$(grep '^RESULT' <<<"$out")
  c_ms=$(field step_ms "$line"); c_sps=$(field steps_per_s "$line")
  t_ms=-; t_sps=-; speedup=-
  if [ "$have_torch" = 1 ]; then
    # torch is ~10x slower: a fifth of the steps keeps the run short
    tout=$("$py" "$here/bench_gan.py" "$(( steps / 5 > 100 ? steps / 5 : 100 ))" "$threads")
    echo "$tout"
    tl=$(grep '^RESULT' <<<"$tout" || true)
    t_ms=$(field step_ms " $tl"); t_sps=$(field steps_per_s " $tl")
    speedup=$("$py" -c "print('%.1fx' % ($t_ms / $c_ms))")
  fi
  cs+=("$c_ms"); ts+=("$t_ms")
  rows+=("$(printf "$fmt" "$threads" "$c_ms" "$t_ms" "$c_sps" "$t_sps" "$speedup")")
done
cov=$("$exe" --steps 1 --threads 2 --preset gan-ring-converge --seeds 5 --coverage-steps 5000)
echo "$cov"
modes=$(grep '^COVERAGE' <<<"$cov" | sed -n 's/.*modes=\([0-9]*\).*/\1/p' | tr '\n' ' ')
echo
echo "2-D GAN 2-64-64 ReLU, batch 256, Adam 1e-3, non-saturating; load average $load_before -> $(loadavg)"
echo "target (issue 30): >= 10x PyTorch's steps per second at its faster thread count (last line)"
printf "$fmt" threads "cilab ms/step" "torch ms/step" "cilab step/s" "torch step/s" "cilab speed-up"
printf '%s\n' "${rows[@]}"
echo "ring-converge preset, 5 000 iterations, seeds 0-4: modes covered $modes(target: >= 7 of 8 each)"
if [ "$have_torch" = 1 ]; then
  "$py" -c "
c = min(float(v) for v in '${cs[*]}'.split()); t = min(float(v) for v in '${ts[*]}'.split())
print(f'against PyTorch at its faster thread count: cilab best {1e3 / c:.0f} steps/s / pytorch best {1e3 / t:.0f} steps/s = {t / c:.1f}x  (target >= 10x)')"
fi
