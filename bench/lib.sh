# Helpers shared by the bench/run_*.sh scripts (sourced, not run).
#   field NAME LINE          the value of NAME=... in a RESULT line
#   loadavg                  the 1, 5 and 15 minute load averages
#   have_py_module PY MOD    true when interpreter PY imports MOD; else says what to install
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<"$2"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
have_py_module() {
  if "$1" -c "import $2" 2>/dev/null; then return 0; fi
  echo "$2 not importable by $1 (install python3-${3:-$2}): printing CILab times only"
  return 1
}
