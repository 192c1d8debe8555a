#!/usr/bin/env bash
# Training throughput of the vae module with the window open and the view
# drawing (its latent space: the posterior means of 2000 test rows, recomputed
# by a background job up to 5 times a second), against the CLI on the same
# configuration (issue 12: >= 80 %).
#   bench/run_vae_gui.sh BUILD_DIR [STEPS] [ROUNDS]
# Configuration: the issue's benchmark VAE 784-400-20 (ReLU, Bernoulli
# decoder), batch 128, Adam 1e-3, on Fashion-MNIST (first 20 000 training rows,
# so loading is quick; tested on t10k). The measurement: bench/gui_throughput.sh.
set -euo pipefail
build=${1:-build}
steps=${2:-1000}
rounds=${3:-3}
bin=$build/cilab
module=vae
cfg=(--dataset fashion-mnist:n=20000 --set latent=20 --set hidden=400 --set batch=128 --set optimizer=adam
     --set lr=0.001)
title="VAE 784-400-20 on Fashion-MNIST (20 000 rows), batch 128, Adam 1e-3"
case_name="window open, vae view drawing"
source "$(dirname "$0")/gui_throughput.sh"
gui_throughput
