#!/usr/bin/env bash
# The word2vec module's training throughput with the window open against the CLI
# (the same target as the training modules: >= 80 %): SGNS with the defaults
# (vector_size 100, window 5, negative 5, 1 worker) on the first million tokens
# of GCIDE (~100 chunks of 10 000 words per epoch), the embedding view drawing
# its curves and the header's live recall; the vector copies and the recall run
# inside step() on both sides.
#   bench/run_word2vec_gui.sh BUILD_DIR [STEPS] [ROUNDS]      (see bench/train_gui.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/train_gui.sh" "${1:-build}" word2vec "${2:-150}" "${3:-2}" \
  "word2vec (SGNS, d = 100, 1 worker) on GCIDE's first 1 M tokens, chunks of 10 000 words" -- \
  --dataset gcide:tokens=1000000
