#!/usr/bin/env bash
# The cnn module trains as PyTorch does: its initial LeNet-5 weights exported (--save-weights at
# iteration 0), then STEPS full-batch Adam steps on the first ROWS Fashion-MNIST images in CILab and,
# from the same weights, in PyTorch (cnn_steps_torch.py); the largest relative difference of the
# per-step losses is printed (float32 on both sides: about 1e-7 expected; fails above 1e-4).
#   bench/run_cnn_parity.sh BUILD_DIR [ROWS] [STEPS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
build=${1:?usage: run_cnn_parity.sh BUILD_DIR [ROWS] [STEPS]}
rows=${2:-256}
steps=${3:-20}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(--dataset "fashion-mnist:n=$rows" --set batch="$rows" --set lr=0.001 --set max_epochs=1000000)
"$build/cilab" run cnn "${common[@]}" --steps 0 --save-weights "$tmp/init.npz" > /dev/null
"$build/cilab" run cnn "${common[@]}" --steps "$steps" | grep -v '^#' | tail -n +2 | cut -d, -f1,2 | tr , ' ' > "$tmp/cilab.txt"
echo "cilab:   LeNet-5, $rows rows full-batch, $steps Adam steps: loss $(head -n 1 "$tmp/cilab.txt" | cut -d' ' -f2) -> $(tail -n 1 "$tmp/cilab.txt" | cut -d' ' -f2)"
have_py_module "$py" torch || exit 0
(cd "$here" && "$py" cnn_steps_torch.py "$tmp/init.npz" "$rows" "$steps") > "$tmp/torch.txt"
echo "pytorch: the same weights (load_state_dict strict): loss $(head -n 1 "$tmp/torch.txt" | cut -d' ' -f2) -> $(tail -n 1 "$tmp/torch.txt" | cut -d' ' -f2)"
"$py" - "$tmp/cilab.txt" "$tmp/torch.txt" <<'PY'
import sys
a = [float(l.split()[1]) for l in open(sys.argv[1])]
b = [float(l.split()[1]) for l in open(sys.argv[2])]
assert len(a) == len(b) and a, (len(a), len(b))
d = max(abs(x - y) / max(abs(y), 1e-12) for x, y in zip(a, b))
print(f"largest relative difference of the {len(a)} step losses: {d:.2e}")
sys.exit(0 if d < 1e-4 else 1)
PY
