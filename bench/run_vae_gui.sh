#!/usr/bin/env bash
# The vae module's training throughput with the window open against the CLI
# (issue 12: >= 80 %): the issue's benchmark VAE 784-400-20 (ReLU, Bernoulli),
# batch 128, Adam 1e-3, on Fashion-MNIST (first 20 000 training rows, so
# loading is quick; tested on t10k), the view drawing its latent space (the
# posterior means of 2000 test rows, recomputed by a background job).
#   bench/run_vae_gui.sh BUILD_DIR [STEPS] [ROUNDS]      (see bench/train_gui.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/train_gui.sh" "${1:-build}" vae "${2:-1000}" "${3:-3}" \
  "VAE 784-400-20 (Bernoulli) on Fashion-MNIST (20 000 rows), batch 128, Adam 1e-3" -- \
  --dataset fashion-mnist:n=20000 --set latent=20 --set hidden=400 --set batch=128 --set lr=0.001
