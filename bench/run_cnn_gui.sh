#!/usr/bin/env bash
# The cnn module's training throughput with the window open against the CLI (issue 30: >= 90 %).
#   bench/run_cnn_gui.sh [BUILD_DIR] [STEPS] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TRAIN_GUI_TARGET=0.9 exec "$here/train_gui.sh" "${1:-build}" cnn "${2:-300}" "${3:-3}" \
  "LeNet-5 on Fashion-MNIST (12 000 rows), batch 128, Adam 1e-3" -- \
  --dataset fashion-mnist:n=12000 --set batch=128 --set lr=0.001
