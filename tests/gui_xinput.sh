#!/usr/bin/env bash
# Real X input for the end-to-end GUI tests: runs the app under its own Xvfb (with_xvfb.sh),
# waits for its window, sends key taps with xdotool (press and release with no
# delay, as a presenter remote or a quick finger does), then creates FLAG so
# that the app's --script (`wait-file FLAG`) checks what the taps did.
#   tests/gui_xinput.sh BINARY FLAG "KEY KEY ..." [cilab args...]
# KEY_DELAY (ms between taps, default 1: several taps within one frame; 300 puts
# each tap in a frame of its own, as a person types).
# Exit status: the app's (the script's expectations decide it).
set -euo pipefail
bin=$1
flag=$2
keys=$3
shift 3
command -v xdotool >/dev/null || { echo "gui_xinput.sh: xdotool is missing (apt-get install xdotool; make deps)" >&2; exit 3; }
export CILAB_CONFIG_DIR=${CILAB_CONFIG_DIR:-$(mktemp -d)}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"  # Mesa, see gui_smoke.sh
rm -f "$flag"
inner=$(cat <<'INNER'
set -euo pipefail
"$BIN" "$@" &
app=$!
# The window (the app maps it once its start-up state is ready), focused.
win=$(timeout 120 xdotool search --sync --onlyvisible --name '^CILab$' | head -n 1)
xdotool windowfocus --sync "$win"
# shellcheck disable=SC2086
xdotool key --delay "${KEY_DELAY:-1}" $KEYS  # XTEST: real input through the X server, as a keyboard sends it
touch "$FLAG"
wait $app
INNER
)
BIN=$bin FLAG=$flag KEYS=$keys exec "$(dirname "$0")/with_xvfb.sh" 1280x720 bash -c "$inner" bash "$@"
