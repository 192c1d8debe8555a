#!/bin/sh
# Runs the libFuzzer targets of a CILAB_FUZZ=ON build, each for SECONDS, one after
# the other (make test-fuzz: 45 s each on a fresh working corpus; make fuzz:
# FUZZ_SECONDS each, keeping the working corpus between runs).
#
#   tests/fuzz/run_fuzz.sh BUILD_DIR SECONDS test|long TARGET...
#
# Seeds: tests/fuzz/corpus/<target>/ and tests/data/files/bad/ (read, never written).
# A finding (crash, sanitizer report, broken contract, leak, hang > 10 s, an
# allocation > 256 MB, RSS > 2 GB) is saved as BUILD_DIR/findings/<target>-<kind>-<sha1>;
# replay it with `BUILD_DIR/<target> FILE` (CILAB_FUZZ_VERBOSE=1 also prints the
# error message of an input that is rejected cleanly). Every target runs; the
# exit status is non-zero when any of them found something.
set -u
build=$1 seconds=$2 mode=$3
shift 3
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$build/findings" "$build/logs"
status=0
for t in "$@"; do
  work="$build/corpus/$t"
  [ "$mode" = test ] && rm -rf "$work"
  mkdir -p "$work"
  dict=""
  [ -f "$src/tests/fuzz/$t.dict" ] && dict="-dict=$src/tests/fuzz/$t.dict"
  log="$build/logs/$t.log"
  echo "== $t: $seconds s (log: $log)"
  # shellcheck disable=SC2086
  if "$build/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
       -print_final_stats=1 -artifact_prefix="$build/findings/$t-" $dict \
       "$work" "$src/tests/fuzz/corpus/$t" "$src/tests/data/files/bad" >"$log" 2>&1; then
    grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$log" | tr '\n' ' '
    echo
  else
    status=1
    echo "!! $t: FINDING (see $log; the input is in $build/findings/)"
    tail -n 60 "$log"
  fi
done
exit $status
