#!/usr/bin/env bash
# Runs the real app for a few frames under a (virtual) display and saves a
# screenshot. Used by tests/app/test_gui_e2e.cpp, `make screenshot` and bench.
#   tests/gui_smoke.sh BINARY OUT.png [cilab args...]
# CILAB_SCREEN=WxH chooses the virtual screen (default 1600x1000; 1280x720 = a projector).
# Ignored when DISPLAY is set.
set -euo pipefail
bin=$1
out=$2
shift 2
export CILAB_CONFIG_DIR=${CILAB_CONFIG_DIR:-$(mktemp -d)}
# Under ASan: Mesa's dlopen'ed driver leaks a few bytes at exit from an unloaded module, which
# LeakSanitizer cannot attribute (so no suppression can name it). Leak checking stays on for
# every headless test; address and UB checks stay on here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
args=("$@")
[ $# -gt 0 ] || args=(--dataset blobs:n=800,centers=4 --steps 3)
has_frames=0
for a in "${args[@]}"; do [ "$a" = --frames ] && has_frames=1; done
[ $has_frames = 1 ] || args+=(--frames 30)
rm -f "$out"
if [ -n "${DISPLAY:-}" ]; then
  exec "$bin" "${args[@]}" --screenshot "$out"
else
  exec "$(dirname "$0")/with_xvfb.sh" "${CILAB_SCREEN:-1600x1000}" "$bin" "${args[@]}" --screenshot "$out"
fi
