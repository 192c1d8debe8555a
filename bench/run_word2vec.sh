#!/usr/bin/env bash
# SGNS word2vec on GCIDE beside gensim 4.2, in one invocation (same machine state):
#   bench/run_word2vec.sh BUILD_DIR [THREADS_LIST] [MAX_TOKENS]
# BUILD_DIR/bench_word2vec writes the corpus exactly as CILab tokenises it (one
# document per line) and trains word2vec (vector_size 100, window 5, negative 5,
# min_count 5, sample 1e-3, 1 epoch) with workers = T for each T of
# THREADS_LIST (default 1,2); bench/word2vec_gensim.py trains gensim's
# Word2Vec(sg=1, same settings, workers=T) on LineSentence of that file; both
# sides' vectors are scored by the same C++ code (WordNet synonym recall@10,
# bench_word2vec --recall on gensim's exported vectors).
# words/s = corpus words kept by min_count (before subsampling) per second of
# training on both sides (CILab: every step() call; gensim: train()).
# Targets: CILab's words/s >= 1x gensim's with the same threads; recall within
# 10 % of gensim's.
set -euo pipefail
build=${1:?usage: run_word2vec.sh BUILD_DIR [THREADS_LIST] [MAX_TOKENS]}
threads=${2:-1,2}
max_tokens=${3:-0}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_word2vec
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_word2vec.sh: $exe not found; build it: cmake --build $build --target bench_word2vec" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-word2vec.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

out=$("$exe" --out "$tmp" --threads "$threads" --max-tokens "$max_tokens")
echo "$out"
ref=""
if have_py_module "$py" gensim; then
  for t in ${threads//,/ }; do
    line=$(OPENBLAS_NUM_THREADS=1 "$py" "$here/word2vec_gensim.py" "$tmp/gcide.txt" "$t" "$tmp/gensim_$t.txt")
    rec=$("$exe" --recall "$tmp/gensim_$t.txt" --max-tokens "$max_tokens")
    echo "$line $rec"
    ref+="$line $(sed 's/^RECALL //' <<<"$rec")"$'\n'
  done
fi
echo
echo "SGNS, one epoch of GCIDE (vector_size 100, window 5, negative 5, min_count 5, sample 1e-3) (load $(loadavg))"
echo "targets: words/s ratio >= 1; recall@10 within 10 % of gensim's"
printf '%-7s | %13s | %14s | %6s | %12s | %13s\n' threads "cilab words/s" "gensim words/s" ratio "cilab recall" "gensim recall"
for t in ${threads//,/ }; do
  line=$(grep "^RESULT threads=$t " <<<"$out" || true)
  [ -n "$line" ] || continue
  c_wps=$(field words_per_s "$line"); c_rec=$(field recall "$line")
  r_wps=-; r_rec=-; ratio=-
  rl=$(grep "^REF threads=$t " <<<"$ref" || true)
  if [ -n "$rl" ]; then
    r_wps=$(field words_per_s "$rl"); r_rec=$(field recall "$rl")
    ratio=$("$py" -c "print('%.2f' % ($c_wps / $r_wps))")
  fi
  printf '%-7s | %13s | %14s | %6s | %12s | %13s\n' "$t" "$c_wps" "$r_wps" "$ratio" "$c_rec" "$r_rec"
done
