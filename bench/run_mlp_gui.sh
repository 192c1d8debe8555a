#!/usr/bin/env bash
# The mlp module's training throughput with the window open against the CLI
# (issue 11: >= 80 %): Fashion-MNIST (first 20 000 training rows, so loading
# is quick; tested on t10k), 784-256-128-10 ReLU, batch 128, Adam 1e-3.
#   bench/run_mlp_gui.sh BUILD_DIR [STEPS] [ROUNDS]      (see bench/train_gui.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/train_gui.sh" "${1:-build}" mlp "${2:-1000}" "${3:-3}" \
  "MLP 784-256-128-10 on Fashion-MNIST (20 000 rows), batch 128, Adam 1e-3" -- \
  --dataset fashion-mnist:n=20000 --set layers=256,128 --set activation=relu --set batch=128 \
  --set optimizer=adam --set lr=0.001
