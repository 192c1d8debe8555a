#!/usr/bin/env bash
# The convolution module's output map against PyTorch: `cilab run convolution` writes the map
# (filter,row,col,value) of a Fashion-MNIST test item for typed kernels under every padding_mode,
# size, stride, dilation and both modes; convolution_torch.py recomputes each with
# torch.nn.functional.pad + conv2d (the kernel flipped for mode=convolution) and prints the
# largest difference per case (must stay under 1e-9: both sides work in double).
#   bench/run_convolution_torch.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_convolution_torch.sh BUILD_DIR}
py=/usr/bin/python3
have_py_module "$py" torch || exit 0
"$py" "$here/convolution_torch.py" "$build/cilab"
