#!/usr/bin/env bash
# GUI frame time of the optimizer race view under xvfb-run with Mesa's
# software renderer (llvmpipe): eight racers on Rosenbrock with 10 000-point
# trajectories against the same view with 100-point trajectories, measured in
# the same run (alternating, best of ROUNDS medians per case, to ride out a
# busy machine). Target: <= 1.5x. The contours are cached (recomputed only
# when the landscape or the window changes) and the paths are decimated in
# pixel space and cached per racer, so the long race should cost about what
# the short one does.
#   bench/run_gui_frames_optimizers.sh BUILD_DIR [FRAMES] [ROUNDS]
set -euo pipefail
build=${1:-build}
frames=${2:-150}
rounds=${3:-3}
bin=$build/cilab
export LIBGL_ALWAYS_SOFTWARE=1
export CILAB_CONFIG_DIR=$(mktemp -d)
# All eight optimizers race; tol=0 so nobody stops early; step sizes small
# enough that nobody diverges on Rosenbrock from the default start.
race=(--module optimizers --set function=rosenbrock --set optimizer=adam --set lr=0.01 --set tol=0
      --set race_gd=true --set race_sgd=true --set race_momentum=true --set race_nesterov=true
      --set race_adagrad=true --set race_rmsprop=true --set race_adam=true --set race_adamw=true
      --set lr_gd=0.0005 --set lr_sgd=0.0005 --set lr_momentum=0.0002 --set lr_nesterov=0.0002
      --set noise=0.2)
measure() {  # steps -> "median p95"
  xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" "${race[@]}" --steps "$1" --frames "$frames" 2>/dev/null |
    awk '/^frames/ {print $4, $6}'
}
best() {  # "a b" lines -> the line with the smallest first field
  sort -g | head -1
}
short=() long=()
for ((r = 0; r < rounds; ++r)); do
  short+=("$(measure 100)")
  long+=("$(measure 10000)")
done
read -r s_med s_p95 < <(printf '%s\n' "${short[@]}" | best)
read -r l_med l_p95 < <(printf '%s\n' "${long[@]}" | best)
ratio=$(awk -v a="$l_med" -v b="$s_med" 'BEGIN {printf "%.2f", a / b}')
verdict=$(awk -v r="$ratio" 'BEGIN {print (r <= 1.5) ? "ok" : "MISSED"}')
printf '%-44s %10s %10s %7s %7s %s\n' "case" "median_ms" "p95_ms" "ratio" "target" "verdict"
printf '%-44s %10.2f %10.2f %7s %7s\n' "race view, 8 racers x 100 points" "$s_med" "$s_p95" "1.00" "-"
printf '%-44s %10.2f %10.2f %7s %7s %s\n' "race view, 8 racers x 10 000 points" "$l_med" "$l_p95" "$ratio" "<= 1.5" "$verdict"
printf 'all medians (ms): 100 pts: %s | 10 000 pts: %s\n' "$(printf '%s ' "${short[@]}" | awk '{for(i=1;i<=NF;i+=2) printf "%s ", $i}')" \
  "$(printf '%s ' "${long[@]}" | awk '{for(i=1;i<=NF;i+=2) printf "%s ", $i}')"
