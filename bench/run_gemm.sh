#!/usr/bin/env bash
# The public GEMM (nn/gemm.h) beside numpy's float32 matmul (OpenBLAS, 1 thread), same shapes, same
# invocation: per shape and form (NN, TN, NT) the tiled and the packed path's times, the path gemm()
# takes, and the ratio of that path's time to numpy's (lower is faster). The table is how
# kPackedMinWork and kPackedMinSide were placed: the tiled path where it wins or ties.
#   bench/run_gemm.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_gemm.sh BUILD_DIR}
py=/usr/bin/python3
echo "load average: $(loadavg)"
if have_py_module "$py" numpy; then
  "$build/bench_gemm" | OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$py" "$here/gemm_numpy.py"
else
  "$build/bench_gemm"
fi
