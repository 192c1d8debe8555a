#!/usr/bin/env bash
# conv2d forward and backward against PyTorch: bench_conv writes six cases (LeNet's two layers,
# stride, padding, dilation, groups, a 1-D signal) with CILab's outputs and gradients; conv_torch.py
# recomputes them with torch.nn.functional.conv2d and autograd and prints the largest relative
# difference per tensor (must stay under 1e-5), with both libraries' times (1 thread each).
#   bench/run_conv.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_conv.sh BUILD_DIR}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bench_conv" "$tmp"
have_py_module "$py" torch || exit 0
"$py" "$here/conv_torch.py" "$tmp"
