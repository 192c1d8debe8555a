#!/usr/bin/env bash
# The gan module's training throughput with the window open against the CLI
# (issue 13: >= 80 %): the issue's benchmark GAN on the ring of 8 (G and D
# 2-64-64 ReLU, batch 256, Adam 1e-3, non-saturating), the view drawing the
# plane (discriminator heatmap, warped mesh and gradient arrows recomputed by a
# background job a few times per second).
#   bench/run_gan_gui.sh BUILD_DIR [STEPS] [ROUNDS]      (see bench/train_gui.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/train_gui.sh" "${1:-build}" gan "${2:-20000}" "${3:-3}" \
  "2-D GAN 2-64-64 ReLU on the ring of 8, batch 256, Adam 1e-3, non-saturating" -- \
  --set target=ring8 --set loss=nonsaturating --set batch=256
