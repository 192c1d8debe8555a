#!/usr/bin/env bash
# The vae module's training throughput with the window open against the CLI
# (issue 12: >= 80 %): Fashion-MNIST (first 20 000 training rows; tested on
# t10k), 784-400-2 ReLU Bernoulli (latent 2: the latent-space picture the
# view draws), batch 128, Adam 1e-3.
#   bench/run_vae_gui.sh BUILD_DIR [STEPS] [ROUNDS]      (see bench/train_gui.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/train_gui.sh" "${1:-build}" vae "${2:-600}" "${3:-3}" \
  "VAE 784-400-2 (Bernoulli) on Fashion-MNIST (20 000 rows), batch 128, Adam 1e-3" -- \
  --dataset fashion-mnist:n=20000 --set latent=2 --set hidden=400 --set batch=128 --set lr=0.001
