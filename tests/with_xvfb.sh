#!/usr/bin/env bash
# Runs one command under its own virtual X server and exits with the command's status.
#   tests/with_xvfb.sh WxH COMMAND [ARGS...]
# Used instead of xvfb-run by the GUI tests: xvfb-run picks a display number by looking for a
# free lock file (two parallel ctest cases can race for the same one) and, after the command,
# exits 5 instead of the command's status when it cannot remove its temporary directory. Here
# the server chooses a free display itself (-displayfd), so any number of tests run in parallel,
# and the status returned is always the command's.
set -uo pipefail
screen=$1
shift
command -v Xvfb >/dev/null || { echo "with_xvfb.sh: Xvfb is missing (apt-get install xvfb; make deps)" >&2; exit 3; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-xvfb.XXXXXX")
Xvfb -displayfd 3 -screen 0 "${screen}x24" -nolisten tcp 3>"$tmp/display" 2>"$tmp/log" &
xvfb=$!
cleanup() {
  kill "$xvfb" 2>/dev/null
  wait "$xvfb" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
# The server writes its display number once it accepts connections (at most 30 s here).
for _ in $(seq 600); do
  [ -s "$tmp/display" ] && break
  kill -0 "$xvfb" 2>/dev/null || break
  sleep 0.05
done
if ! [ -s "$tmp/display" ]; then
  echo "with_xvfb.sh: Xvfb did not start: $(tail -n 1 "$tmp/log" 2>/dev/null)" >&2
  exit 3
fi
DISPLAY=:$(head -n 1 "$tmp/display")
export DISPLAY
unset XAUTHORITY
"$@"
rc=$?
exit $rc
