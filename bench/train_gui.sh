#!/usr/bin/env bash
# Training throughput of a training module with the window open and its view
# drawing, against the CLI on the same configuration (issues 11 and 12: >= 80 %).
#   bench/train_gui.sh BUILD_DIR MODULE STEPS ROUNDS TITLE -- --dataset ... --set ...
# (bench/run_mlp_gui.sh and bench/run_vae_gui.sh call it with their configuration.)
# CLI: `cilab run MODULE --steps STEPS`, throughput = STEPS / (its wall time minus
# that of the same command with --steps 0: loading and the initial evaluation).
# GUI: the real app under xvfb-run (Mesa llvmpipe), a --script that runs
# `step STEPS` as one burst while the frames keep drawing the module's view
# (`drain` waits frame by frame, unlike `idle`), timed by `progress` lines
# (no --frames: the window paces its redraws as for a user watching):
# throughput = STEPS / (t_after - t_before). Best of ROUNDS for each side.
# Both sides use the same threads (the machine's cores) and the same runner
# (history, keyframes, snapshots); the GUI adds the window and the view.
set -euo pipefail
build=${1:?usage: train_gui.sh BUILD MODULE STEPS ROUNDS TITLE -- ARGS...}
module=$2
steps=$3
rounds=$4
title=$5
shift 5
[ "${1:-}" = "--" ] && shift
cfg=("$@")
bin=$build/cilab
export LIBGL_ALWAYS_SOFTWARE=1
export CILAB_CONFIG_DIR=$(mktemp -d)
script=$(mktemp)
cat >"$script" <<EOF
wait 5
progress
step $steps
drain
progress
quit
EOF
now() { date +%s.%N; }
cli_rate() {  # steps per second of wall time: (run with STEPS) - (the same run with 0 steps)
  local t0 t1 t2 t3
  t0=$(now); "$bin" run "$module" "${cfg[@]}" --steps 0 >/dev/null; t1=$(now)
  t2=$(now); "$bin" run "$module" "${cfg[@]}" --steps "$steps" >/dev/null; t3=$(now)
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v n="$steps" 'BEGIN {printf "%.2f\n", n / ((d - c) - (b - a))}'
}
gui_rate() {
  xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --module "$module" "${cfg[@]}" --script "$script" \
    2>/dev/null | awk -F'[ =]' -v n="$steps" '/^progress/ {t[++k] = $5; it[k] = $3} END {printf "%.2f %d\n", n / (t[2] - t[1]), it[2] - it[1]}'
}
best_cli=0 best_gui=0 moved=0
for ((r = 0; r < rounds; ++r)); do
  c=$(cli_rate)
  read -r g m < <(gui_rate)
  echo "round $((r + 1)): cli $c steps/s, gui $g steps/s ($m steps seen)"
  best_cli=$(awk -v a="$best_cli" -v b="$c" 'BEGIN {print (b > a) ? b : a}')
  best_gui=$(awk -v a="$best_gui" -v b="$g" 'BEGIN {print (b > a) ? b : a}')
  moved=$m
done
rm -f "$script"
ratio=$(awk -v g="$best_gui" -v c="$best_cli" 'BEGIN {printf "%.2f", g / c}')
target=${TRAIN_GUI_TARGET:-0.8}  # the issue's share of the CLI's steps/s (cnn: 0.9)
verdict=$(awk -v r="$ratio" -v t="$target" 'BEGIN {print (r >= t) ? "ok" : "MISSED"}')
echo
echo "$title, $steps steps; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %14s %14s %7s %7s %s\n' "case" "cli steps/s" "gui steps/s" "ratio" "target" "verdict"
printf '%-34s %14s %14s %7s %7s %s\n' "window open, $module view drawing" "$best_cli" "$best_gui" "$ratio" ">= $target" "$verdict"
[ "$moved" -eq "$steps" ] || echo "warning: the GUI burst moved $moved of $steps steps"
