#!/usr/bin/env bash
# Soak benchmark (issue 14; `make soak` = 60 minutes, `make bench` runs the
# 5-minute default): the heaviest training module, the vae (the issue-12
# benchmark VAE 784-400-20, Bernoulli, batch 128, Adam 1e-3) on all 60 000
# Fashion-MNIST training rows, in the real window under Xvfb (tests/with_xvfb.sh), with its view
# drawing (latent space, decoded manifold and reconstructions: background
# picture jobs). A generated --script loops for MINUTES: play ~PERIOD seconds,
# pause, scrub back to a random earlier iteration (seek P%), sometimes step
# from there (the later history is cut), back to the end, change a live
# parameter (lr, beta), switch the view's tab, and every ~10 minutes change a
# rebuild parameter (batch 128 <-> 256: the run restarts from iteration 0).
# Every 8 cycles it compares A/B for two cycles (B with another lr: two vae
# runs sharing the one history budget), and every ~10 minutes (twice in a
# short run) it switches to kmeans on the same 60 000 images, steps it, and
# comes back to the vae (a new run, its parameters set again).
# Wall-clock pacing: the script waits for tick files that this script creates.
#
# Every SAMPLE seconds it reads VmRSS and VmHWM of the app from /proc/PID/status
# and the app's last `progress` line (iteration shown, last iteration, the
# runner's history bytes); the samples go to BUILD/soak_MINUTESmin.csv.
# Verdict: the peak RSS (VmHWM) must stay below
#   RSS after the first minute - the history bytes the runner held then
#   + the history budget (RunnerConfig's 512 MiB, which the app's runners use
#   unchanged) + a margin of 179 + 128 MiB.
# The vae fills most of the budget within the first minute, so the RSS at one
# minute already holds most of it: subtracting what it held keeps the bound from
# counting the history twice. 2 x 179 MiB of the margin are a module's float copy
# of the training data (60 000 x 784 x 4 bytes): once for a rebuild's transient
# (the new module is reset - a failed reset keeps the old one - before the old
# module is freed) and once for run B's module while comparing. A module switch
# stays within the same margin because the leaving run keeps only 32 MiB of
# history while the new module opens (App::kLeavingHistoryBytes). The other 128 MiB are for what malloc keeps and does not
# return: glibc raises its mmap threshold (up to 32 MiB) after the first freed
# multi-MiB block, so the multi-MiB network copies of the snapshots the budget
# thins out come from the heap and per-thread arenas (runner, picture jobs),
# where freed blocks are reused but fragment; and the view's textures.
# It also fails when the app exits non-zero (a script expectation failed, or
# it crashed) or does not finish within MINUTES + 5 minutes.
#   bench/run_soak.sh BUILD_DIR [MINUTES] [PERIOD_S]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
build=${1:-build}
minutes=${2:-5}
period=${3:-10}
sample=5
budget_mib=512
rows=60000 features=784
# A rebuild builds the new module (with its own float copy of the training data,
# rows x features x 4 bytes) before the old one and its history are freed.
rebuild_mib=$((rows * features * 4 / 1048576))
margin_mib=${SOAK_MARGIN_MIB:-$((2 * rebuild_mib + 128))}  # SOAK_MARGIN_MIB overrides (to see the check fail)
bin=$build/cilab
[ -x "$bin" ] || { echo "run_soak: $bin is missing; build it first (make build)"; exit 1; }
export LIBGL_ALWAYS_SOFTWARE=1
work=$(mktemp -d)
export CILAB_CONFIG_DIR=$work/config
csv=$build/soak_${minutes}min.csv
out=$work/stdout
pidfile=$work/pid
app_pid=

cleanup() {
  if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then kill "$app_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# --- the script: one cycle per PERIOD seconds
cycles=$((minutes * 60 / period))
rebuild_every=$((600 / period))  # a rebuild parameter change every ~10 minutes
[ "$minutes" -le 10 ] && rebuild_every=$((cycles / 2 > 0 ? cycles / 2 : 1))
RANDOM=14
{
  echo "wait 3"
  echo "progress"
  for ((c = 1; c <= cycles; ++c)); do
    echo "play"
    echo "wait-file $work/tick-$c"
    echo "pause"
    echo "progress"
    echo "seek $((5 + RANDOM % 90))%"  # scrub back
    echo "wait 5"
    echo "seek $((5 + RANDOM % 90))%"
    echo "wait 5"
    if ((c % 4 == 0)); then  # step from the past: the later history is cut
      echo "step"
      echo "back"
      echo "step 3"
    else
      echo "seek 100%"  # back to the end
    fi
    case $((c % 3)) in
      0) echo "set lr=0.001" ;;
      1) echo "set lr=0.0005" ;;
      2) echo "set lr=0.002" ;;
    esac
    ((c % 5 == 0)) && echo "set beta=$(((c / 5) % 2 == 0 ? 1 : 2))"
    ((c % 6 == 0)) && echo "key $((1 + (c / 6) % 3))"  # the view's tabs: latent, manifold, reconstructions
    if ((c % rebuild_every == 0 && c < cycles)); then
      echo "set batch=$(((c / rebuild_every) % 2 == 1 ? 256 : 128))"
    fi
    case $((c % 8)) in  # Compare A/B for two cycles: B learns at another rate
      3) echo "compare on"; echo "settle"; echo "set-b lr=0.003" ;;
      5) echo "compare off" ;;
    esac
    if ((c % rebuild_every == rebuild_every / 2 && c < cycles)); then  # another module, then back
      echo "module kmeans"
      echo "settle"
      echo "expect module kmeans"
      echo "step 5"
      echo "wait 10"
      echo "module vae"
      echo "settle"
      echo "set latent=20"
      echo "set hidden=400"
      echo "set batch=128"
      echo "settle"
      echo "expect param latent=20"
    fi
    echo "expect no-error"
  done
  echo "progress"
  echo "expect no-error"
  echo "quit"
} >"$work/script"

# --- the app
"$here/../tests/with_xvfb.sh" 1600x1000 sh -c 'echo $$ >"$0"; exec "$@"' "$pidfile" \
  "$bin" --module vae --dataset fashion-mnist:n=$rows --set latent=20 --set hidden=400 --set batch=128 \
  --set lr=0.001 --script "$work/script" >"$out" 2>"$work/stderr" &
xvfb_pid=$!
for _ in $(seq 600); do [ -s "$pidfile" ] && break; sleep 0.1; done
app_pid=$(cat "$pidfile" 2>/dev/null || true)
[ -n "$app_pid" ] || { echo "run_soak: the app did not start"; cat "$work/stderr"; exit 1; }
# The clock starts at the script's first progress line (after the data loaded).
for _ in $(seq 1200); do grep -q '^progress' "$out" 2>/dev/null && break; kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done

status_kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$app_pid/status" 2>/dev/null || true; }
echo "seconds,vmrss_kb,vmhwm_kb,iteration,last_iteration,history_bytes" >"$csv"
start=$(date +%s.%N)
deadline=$((minutes * 60 + 300))
next_tick=1
next_sample=0
while kill -0 "$app_pid" 2>/dev/null; do
  now=$(date +%s.%N)
  t=$(awk -v a="$start" -v b="$now" 'BEGIN {printf "%.1f", b - a}')
  while [ "$next_tick" -le "$cycles" ] && awk -v t="$t" -v n="$((next_tick * period))" 'BEGIN {exit !(t >= n)}'; do
    touch "$work/tick-$next_tick"
    next_tick=$((next_tick + 1))
  done
  if awk -v t="$t" -v n="$next_sample" 'BEGIN {exit !(t >= n)}'; then
    rss=$(status_kb VmRSS)
    hwm=$(status_kb VmHWM)
    line=$(grep '^progress' "$out" | tail -1)
    [ -n "$rss" ] && echo "$t,$rss,$hwm,$(field iteration "$line"),$(field last "$line"),$(field history_bytes "$line")" >>"$csv"
    next_sample=$((next_sample + sample))
  fi
  if awk -v t="$t" -v d="$deadline" 'BEGIN {exit !(t > d)}'; then
    echo "run_soak: the app still runs after $deadline s; stopping it"
    kill "$app_pid" 2>/dev/null || true
    break
  fi
  sleep 1
done
rc=0
wait "$xvfb_pid" || rc=$?

# --- the report
echo
echo "Soak: vae 784-400-20 (Bernoulli) on Fashion-MNIST (60 000 rows), batch 128/256, Adam; $minutes min,"
echo "a cycle every $period s (play, pause, scrub, step from the past, lr/beta changes, tabs, a rebuild every"
echo "$((rebuild_every * period)) s, Compare A/B 2 cycles in 8, kmeans and back every $((rebuild_every * period)) s);"
echo "samples every $sample s in $csv; load $(loadavg)"
awk -F, -v budget="$budget_mib" -v margin="$margin_mib" '
  NR == 1 { next }
  { t[++n] = $1; rss[n] = $2; hwm[n] = $3; it[n] = $4; last[n] = $5; hist[n] = $6
    if ($5 + 0 > maxit) maxit = $5 + 0 }
  END {
    if (n == 0) { print "no samples"; exit 2 }
    printf "%-10s %12s %12s %10s %12s %14s\n", "at", "VmRSS MiB", "VmHWM MiB", "iteration", "last iter", "history MiB"
    split("60 600 3600", marks, " ")
    for (m = 1; m <= 3; ++m) {
      for (i = 1; i <= n && t[i] < marks[m]; ++i) {}
      if (i > n) continue
      printf "%-10s %12.1f %12.1f %10d %12d %14.1f\n", (marks[m] / 60) " min", rss[i] / 1024, hwm[i] / 1024, it[i], last[i], hist[i] / 1048576
      if (m == 1) { base = rss[i]; base_hist = hist[i] }
    }
    printf "%-10s %12.1f %12.1f %10d %12d %14.1f\n", "end " int(t[n] / 60) ":" sprintf("%02d", t[n] % 60), rss[n] / 1024, hwm[n] / 1024, it[n], last[n], hist[n] / 1048576
    if (base == 0) { print "the run ended before its first minute: no baseline"; exit 2 }
    limit = base / 1024 - base_hist / 1048576 + budget + margin
    printf "peak RSS %.1f MiB; furthest iteration %d\n", hwm[n] / 1024, maxit
    printf "limit %.1f MiB = RSS at 1 min (%.1f) - the history it held (%.1f) + %d MiB budget + %d MiB margin: headroom %.1f MiB\n", limit, base / 1024, base_hist / 1048576, budget, margin, limit - hwm[n] / 1024
    exit (hwm[n] / 1024 > limit) ? 1 : 0
  }' "$csv" || { echo "run_soak: FAILED: memory beyond the bound (or no samples)"; exit 1; }
if [ "$rc" -ne 0 ]; then
  echo "run_soak: FAILED: the app exited with status $rc"
  tail -20 "$work/stderr"
  exit 1
fi
if grep -q 'script line' "$work/stderr"; then
  echo "run_soak: FAILED: a script expectation failed"
  grep 'script line' "$work/stderr" | head
  exit 1
fi
echo "run_soak: ok"
