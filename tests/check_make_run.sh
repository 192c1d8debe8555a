#!/usr/bin/env bash
# `make run` builds the app alone (the tests are for `make test`): the dry run of
# `make run` must build the target cilab and nothing else, and `make test` must
# still build everything. Usage: check_make_run.sh SOURCE_DIR
set -u
src=$1
failures=0
dry() { make --no-print-directory -n -C "$src" "$1" BUILD=/nonexistent-build 2>&1; }

run_plan=$(dry run)
builds=$(grep -E 'cmake --build /nonexistent-build' <<<"$run_plan")
if ! grep -q -- '--target cilab$' <<<"$builds"; then
  echo "make run: does not build the target cilab:"; echo "$builds"; failures=$((failures + 1))
fi
if grep -v -- '--target cilab$' <<<"$builds" | grep -q .; then
  echo "make run: builds more than the app:"; grep -v -- '--target cilab$' <<<"$builds"; failures=$((failures + 1))
fi
test_plan=$(dry test)
if ! grep -E 'cmake --build /nonexistent-build -j [0-9]+$' <<<"$test_plan" >/dev/null; then
  echo "make test: does not build every target:"; grep 'cmake --build' <<<"$test_plan"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "make run builds the app alone; make test builds everything"
exit $(( failures > 0 ))
