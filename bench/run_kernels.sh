#!/usr/bin/env bash
# The stateless kernels (nn/kernels.h) against PyTorch in float64: bench_kernels writes each case
# with CILab's outputs and gradients; kernels_torch.py recomputes them with torch.nn.functional and
# autograd and prints the largest relative difference per tensor (must stay under 1e-12).
#   bench/run_kernels.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_kernels.sh BUILD_DIR}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bench_kernels" "$tmp"
have_py_module "$py" torch || exit 0
"$py" "$here/kernels_torch.py" "$tmp"
