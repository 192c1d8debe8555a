#!/usr/bin/env bash
# The weight export continues in PyTorch: cilab run mlp on Fashion-MNIST with --save-weights, the
# file loaded into the same torch.nn.Sequential (load_state_dict, strict), the t10k test loss
# recomputed there and set beside the one CILab reported.
#   bench/run_weights.sh BUILD_DIR [EPOCHS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_weights.sh BUILD_DIR [EPOCHS]}
epochs=${2:-1}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
layers=256,128
"$build/cilab" run mlp --dataset fashion-mnist --set layers=$layers --set batch=128 --set lr=0.001 \
  --epochs "$epochs" --save-weights "$tmp/w.npz" > "$tmp/run.csv"
last=$(grep -v '^#' "$tmp/run.csv" | tail -n 1)
c_loss=$(cut -d, -f4 <<<"$last")
c_acc=$(cut -d, -f5 <<<"$last")
echo "cilab:   test_loss=$c_loss test_accuracy=$c_acc (mlp 784-$layers-10 relu, $epochs epoch(s), weights $(stat -c %s "$tmp/w.npz") bytes)"
have_py_module "$py" torch || exit 0
line=$("$py" "$here/weights_torch.py" "$tmp/w.npz" "$layers" relu)
t_loss=$(field test_loss "$line")
echo "pytorch: test_loss=$t_loss test_accuracy=$(field test_accuracy "$line") (the same weights, load_state_dict strict)"
"$py" -c "import sys; c, t = float('$c_loss'), float('$t_loss'); d = abs(c - t) / max(abs(t), 1e-12); print(f'relative difference {d:.2e}'); sys.exit(0 if d < 1e-4 else 1)"
