#!/usr/bin/env bash
# GUI frame time of the k-means view under xvfb-run with Mesa's software
# renderer (llvmpipe: what a lecture-hall VM or remote desktop gives you):
# 100 000 and 1 000 000 points, each against the same view with 1 000 points
# in the same run. Targets: <= 1.5x at 100 000, <= 3x at 1 000 000.
#   bench/run_gui_frames.sh BUILD_DIR [FRAMES]
set -euo pipefail
build=${1:-build}
frames=${2:-150}
bin=$build/cilab
export LIBGL_ALWAYS_SOFTWARE=1
export CILAB_CONFIG_DIR=$(mktemp -d)
measure() {  # n -> "median p95"
  local n=$1
  xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --dataset "blobs:n=$n,centers=8,seed=1" \
    --set k=8 --set init=first --steps 5 --frames "$frames" 2>/dev/null |
    awk '/^frames/ {print $4, $6}'
}
read -r base_med base_p95 < <(measure 1000)
printf '%-28s %12s %12s %10s %8s %s\n' "case" "median_ms" "p95_ms" "ratio" "target" "verdict"
printf '%-28s %12.2f %12.2f %10s %8s\n' "k-means view, 1 000 pts" "$base_med" "$base_p95" "1.00" "-"
for case in "100000 1.5" "1000000 3.0"; do
  set -- $case
  read -r med p95 < <(measure "$1")
  ratio=$(awk -v a="$med" -v b="$base_med" 'BEGIN {printf "%.2f", a / b}')
  verdict=$(awk -v r="$ratio" -v t="$2" 'BEGIN {print (r <= t) ? "ok" : "MISSED"}')
  printf '%-28s %12.2f %12.2f %10s %8s %s\n' "k-means view, $1 pts" "$med" "$p95" "$ratio" "<= $2" "$verdict"
done
