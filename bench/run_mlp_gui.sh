#!/usr/bin/env bash
# Training throughput of the mlp module with the window open and the view
# drawing, against the CLI on the same configuration (issue 11: >= 80 %).
#   bench/run_mlp_gui.sh BUILD_DIR [STEPS] [ROUNDS]
# Configuration: Fashion-MNIST (first 20 000 training rows, so loading is
# quick; tested on t10k), 784-256-128-10 ReLU, batch 128, Adam 1e-3.
# The measurement: bench/gui_throughput.sh.
set -euo pipefail
build=${1:-build}
steps=${2:-1000}
rounds=${3:-3}
bin=$build/cilab
module=mlp
cfg=(--dataset fashion-mnist:n=20000 --set layers=256,128 --set activation=relu --set batch=128
     --set optimizer=adam --set lr=0.001)
title="MLP 784-256-128-10 on Fashion-MNIST (20 000 rows), batch 128, Adam 1e-3"
case_name="window open, mlp view drawing"
source "$(dirname "$0")/gui_throughput.sh"
gui_throughput
