#!/usr/bin/env bash
# The weight export continues in PyTorch: cilab run mlp, cnn (LeNet-5) and autoencoder on
# Fashion-MNIST with --save-weights, each file loaded into the same torch.nn.Sequential
# (load_state_dict, strict), the t10k test loss recomputed there and set beside the one CILab
# reported (relative difference < 1e-4, else the script fails).
#   bench/run_weights.sh BUILD_DIR [EPOCHS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_weights.sh BUILD_DIR [EPOCHS]}
epochs=${2:-1}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# compare NAME TORCH_LAYERS -- CILAB_RUN_ARGS...: runs cilab, then weights_torch.py on its export.
compare() {
  local name=$1 torch_layers=$2
  shift 3
  "$build/cilab" run "$@" --epochs "$epochs" --save-weights "$tmp/$name.npz" > "$tmp/$name.csv"
  local header last col c_loss c_acc line t_loss
  header=$(grep -v '^#' "$tmp/$name.csv" | head -n 1)
  last=$(grep -v '^#' "$tmp/$name.csv" | tail -n 1)
  # the columns by name: test_loss (every training module), test_accuracy (classifiers)
  col() { tr ',' '\n' <<<"$header" | grep -nx "$1" | cut -d: -f1; }
  c_loss=$(cut -d, -f"$(col test_loss)" <<<"$last")
  c_acc=nan
  [ -n "$(col test_accuracy)" ] && c_acc=$(cut -d, -f"$(col test_accuracy)" <<<"$last")
  echo "$name cilab:   test_loss=$c_loss test_accuracy=$c_acc ($epochs epoch(s), weights $(stat -c %s "$tmp/$name.npz") bytes)"
  have_py_module "$py" torch || return 0
  line=$("$py" "$here/weights_torch.py" "$tmp/$name.npz" "$torch_layers" relu)
  t_loss=$(field test_loss "$line")
  echo "$name pytorch: test_loss=$t_loss test_accuracy=$(field test_accuracy "$line") (the same weights, load_state_dict strict)"
  "$py" -c "import sys; c, t = float('$c_loss'), float('$t_loss'); d = abs(c - t) / max(abs(t), 1e-12); print(f'$name relative difference {d:.2e}'); sys.exit(0 if d < 1e-4 else 1)"
}

compare mlp 256,128 -- mlp --dataset fashion-mnist --set layers=256,128 --set batch=128 --set lr=0.001
compare cnn lenet5 -- cnn --dataset fashion-mnist --set batch=128 --set lr=0.001
compare autoencoder autoencoder -- autoencoder --dataset fashion-mnist
