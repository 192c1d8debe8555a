#!/usr/bin/env bash
# LeNet-5 on Fashion-MNIST (Adam 1e-3, batch 128): CILab's shaped layers (bench_cnn) beside
# PyTorch's same network (bench_cnn.py), 1 and 2 threads each; the ratio is against PyTorch's
# faster run (its 2-thread runs are often the slower on these machines).
#   bench/run_cnn.sh BUILD_DIR [EPOCHS] [ROWS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_cnn.sh BUILD_DIR [EPOCHS] [ROWS]}
epochs=${2:-1}
rows=${3:-60000}
py=/usr/bin/python3
echo "load average: $(loadavg)"
declare -A c_ms t_ms
for threads in 1 2; do
  line=$("$build/bench_cnn" --epochs "$epochs" --threads "$threads" --limit "$rows" | grep RESULT)
  c_ms[$threads]=$(field epoch_ms "$line")
  echo "cilab   threads=$threads epoch_ms=${c_ms[$threads]} test_accuracy=$(field test_accuracy "$line")"
done
have_py_module "$py" torch || exit 0
for threads in 1 2; do
  line=$("$py" "$here/bench_cnn.py" "$epochs" "$threads" "$rows" | grep RESULT)
  t_ms[$threads]=$(field epoch_ms "$line")
  echo "pytorch threads=$threads epoch_ms=${t_ms[$threads]} test_accuracy=$(field test_accuracy "$line")"
done
"$py" -c "
c = min(${c_ms[1]}, ${c_ms[2]}); t = min(${t_ms[1]}, ${t_ms[2]})
print(f'ratio (cilab best / pytorch best) = {c / t:.2f}  (target <= 0.5)')"
