#!/usr/bin/env bash
# Power iteration beside numpy, in one invocation (same machine state):
#   bench/run_power.sh BUILD_DIR [STEPS]
# Runs BUILD_DIR/bench_power (the power-iteration module on the 784 x 784
# covariance of Fashion-MNIST train; writes the covariance and the start
# vector as .npy), then bench/power_numpy.py with /usr/bin/python3 on the same
# files (v = C @ v; v /= norm(v), STEPS times, same start), and prints both
# times, the ratio cilab / numpy (target <= 1.0) and whether the Rayleigh
# quotients after the last step agree (relative difference).
set -euo pipefail
build=${1:?usage: run_power.sh BUILD_DIR [STEPS]}
steps=${2:-200}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_power
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_power.sh: $exe not found; build it: cmake --build $build --target bench_power" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-power.XXXXXX")
trap 'rm -rf "$tmp"' EXIT


out=$("$exe" --steps "$steps" --out "$tmp")
echo "$out"
line=$(grep '^RESULT' <<<"$out")
c_ms=$(field ms "$line"); c_rho=$(field rayleigh "$line"); d=$(field d "$line")
n_ms=-; ratio=-; agree=-; verdict=""
if np=$("$py" "$here/power_numpy.py" "$tmp/power_C.npy" "$tmp/power_v0.npy" "$steps"); then
  echo "$np"
  nl=$(grep '^RESULT' <<<"$np")
  n_ms=$(field ms "$nl"); n_rho=$(field rayleigh "$nl")
  read -r ratio agree verdict <<<"$("$py" -c "
c, n, cr, nr = $c_ms, $n_ms, $c_rho, $n_rho
rel = abs(cr - nr) / max(abs(nr), 1e-300)
print('%.3f %.2e %s' % (c / n, rel, 'agree' if rel < 1e-12 else 'DIFFER'))")"
else
  echo "numpy side skipped (see above)"
fi
echo
echo "power iteration, $steps steps on the ${d}x${d} covariance of Fashion-MNIST (target ratio <= 1.0)"
printf '%-14s | %-14s | %-16s | %s\n' "cilab ms" "numpy ms" "ratio cilab/np" "Rayleigh quotients (rel diff)"
printf '%-14s | %-14s | %-16s | %s %s\n' "$c_ms" "$n_ms" "$ratio" "$agree" "$verdict"
