#!/usr/bin/env bash
# The include fences (docs/ARCHITECTURE.md, section 1): a library's include path
# (its directory of links in build/fence/) lets it include its own layer and the
# layers below it, and no other. Each probe compiles one #include against the
# include path a target really gets: the allowed ones must compile, the fenced
# ones must fail with "No such file".
# Usage: check_layering.sh CXX FENCE_DIR [compiler flags for system headers...]
set -u
cxx=$1
fence=$2
shift 2
flags=("$@")
failures=0

probe() {  # probe ok|fenced TARGET HEADER
  local expect=$1 target=$2 header=$3 dirs=()
  case $target in
    algorithms) dirs=(-I"$fence/cilab_algorithms") ;;
    headless) dirs=(-I"$fence/cilab_headless" -I"$fence/cilab_algorithms") ;;
    plot) dirs=(-I"$fence/cilab_plot") ;;
    views) dirs=(-I"$fence/cilab_views" -I"$fence/cilab_plot" -I"$fence/cilab_algorithms") ;;
  esac
  local out rc
  # From an empty directory: a quoted include looks in the includer's folder first.
  out=$(cd "$(mktemp -d)" && printf '#include "%s"\n' "$header" |
        "$cxx" -std=c++17 -fsyntax-only "${flags[@]}" "${dirs[@]}" -x c++ - 2>&1)
  rc=$?
  if [ "$expect" = ok ] && [ $rc -ne 0 ]; then
    echo "FAIL: $target must be able to include $header:"; echo "$out" | head -5; failures=$((failures + 1))
  elif [ "$expect" = fenced ] && { [ $rc -eq 0 ] || ! grep -q "No such file" <<< "$out"; }; then
    echo "FAIL: $target must not see $header (rc $rc)"; echo "$out" | head -5; failures=$((failures + 1))
  else
    echo "ok: $target $expect $header"
  fi
}

probe ok algorithms algorithms/core/module.h
probe fenced algorithms views/common/view.h
probe fenced algorithms app/headless/runner.h
probe fenced algorithms app/app.h
probe ok headless app/headless/runner.h
probe fenced headless views/common/view.h
probe ok plot views/plot/plot.h
probe fenced plot algorithms/core/module.h
probe fenced plot views/common/view.h
probe ok views views/common/view.h
probe fenced views app/headless/runner.h
probe fenced views app/app.h

echo "$((12 - failures)) passed, $failures failed"
[ $failures -eq 0 ]
