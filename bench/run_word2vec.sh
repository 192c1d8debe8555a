#!/usr/bin/env bash
# SGNS word2vec on GCIDE beside gensim 4.2, in one invocation (same machine state):
#   bench/run_word2vec.sh BUILD_DIR [THREADS_LIST] [MAX_TOKENS] [SEEDS]
# BUILD_DIR/bench_word2vec writes the corpus exactly as CILab tokenises it (one
# document per line) and trains word2vec (vector_size 100, window 5, negative 5,
# min_count 5, sample 1e-3, 1 epoch) with workers = T for each T of
# THREADS_LIST (default 1,2) and each seed of SEEDS (default 1,2,3);
# bench/word2vec_gensim.py trains gensim's Word2Vec(sg=1, same settings,
# workers=T, seed=S) on LineSentence of that file; both sides' vectors are
# scored by the same C++ code (WordNet synonym recall@10, bench_word2vec
# --recall on gensim's exported vectors).
# words/s = corpus words kept by min_count (before subsampling) per second of
# training on both sides (CILab: every step() call; gensim: train()). The table
# gives the means over the seeds (one epoch's recall moves by several per cent
# from seed to seed, on both sides) and the seeds' range.
# Targets: CILab's words/s >= 1x gensim's with the same threads; recall within
# 10 % of gensim's.
set -euo pipefail
build=${1:?usage: run_word2vec.sh BUILD_DIR [THREADS_LIST] [MAX_TOKENS] [SEEDS]}
threads=${2:-1,2}
max_tokens=${3:-0}
seeds=${4:-1,2,3}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
exe=$build/bench_word2vec
py=/usr/bin/python3
[ -x "$exe" ] || { echo "run_word2vec.sh: $exe not found; build it: cmake --build $build --target bench_word2vec" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cilab-bench-word2vec.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

out=$("$exe" --out "$tmp" --threads "$threads" --seeds "$seeds" --max-tokens "$max_tokens")
echo "$out"
ref=""
if have_py_module "$py" gensim; then
  for t in ${threads//,/ }; do
    for s in ${seeds//,/ }; do
      line=$(OPENBLAS_NUM_THREADS=1 "$py" "$here/word2vec_gensim.py" "$tmp/gcide.txt" "$t" "$tmp/gensim.txt" 1 "$s")
      rec=$("$exe" --recall "$tmp/gensim.txt" --max-tokens "$max_tokens")
      echo "$line $rec"
      ref+="$line $(sed 's/^RECALL //' <<<"$rec")"$'\n'
    done
  done
fi
echo
echo "SGNS, one epoch of GCIDE (vector_size 100, window 5, negative 5, min_count 5, sample 1e-3), seeds $seeds (load $(loadavg))"
echo "targets: words/s ratio >= 1; recall@10 within 10 % of gensim's (means over the seeds; range in brackets)"
CILAB_OUT="$out" GENSIM_OUT="$ref" THREADS="$threads" "$py" - <<'PY'
import os, re, statistics as st

def rows(text, tag):
    out = {}
    for line in text.splitlines():
        if not line.startswith(tag + " "):
            continue
        f = dict(re.findall(r"(\w+)=([^\s]+)", line))
        out.setdefault(int(f["threads"]), []).append((float(f["words_per_s"]), float(f["recall"])))
    return out

def summary(v):
    if not v:
        return "-", "-", None, None
    wps = st.mean(x[0] for x in v)
    rec = [x[1] for x in v]
    return "%.0f" % wps, "%.4f [%.4f-%.4f]" % (st.mean(rec), min(rec), max(rec)), wps, st.mean(rec)

cilab, gensim = rows(os.environ["CILAB_OUT"], "RESULT"), rows(os.environ["GENSIM_OUT"], "REF")
print("%-7s | %13s | %14s | %6s | %24s | %24s | %12s" % ("threads", "cilab words/s", "gensim words/s", "ratio",
      "cilab recall@10", "gensim recall@10", "recall ratio"))
for t in [int(x) for x in os.environ["THREADS"].split(",") if x]:
    cw, cr, cwv, crv = summary(cilab.get(t, []))
    gw, gr, gwv, grv = summary(gensim.get(t, []))
    ratio = "%.2f" % (cwv / gwv) if cwv and gwv else "-"
    rratio = "%.2f" % (crv / grv) if crv is not None and grv else "-"
    print("%-7d | %13s | %14s | %6s | %24s | %24s | %12s" % (t, cw, gw, ratio, cr, gr, rratio))
PY

# The export: gensim reads the vectors `cilab run word2vec --save-vectors` writes
# (the word2vec text format) and finds the same nearest neighbours.
app=$build/cilab
if [ -x "$app" ] && have_py_module "$py" gensim; then
  "$app" run word2vec --dataset tiny-text --set min_count=1 --set vector_size=16 --set probe=wa --epochs 2 \
    --save-vectors "$tmp/cilab_vectors.txt" > "$tmp/cilab_run.csv"
  report=$(grep '^# wa (iteration' "$tmp/cilab_run.csv" | sed 's/^[^:]*: //')
  REPORT="$report" "$py" - "$tmp/cilab_vectors.txt" <<'PY'
import os, sys
from gensim.models import KeyedVectors
kv = KeyedVectors.load_word2vec_format(sys.argv[1])
ours = [w.split()[0] for w in os.environ["REPORT"].split(", ")][:3]
theirs = [w for w, _ in kv.most_similar("wa", topn=3)]
print("export: gensim read %d words x %d from --save-vectors; wa's 3 nearest: cilab %s, gensim %s: %s"
      % (len(kv.index_to_key), kv.vector_size, ours, theirs, "agree" if ours == theirs else "DIFFER"))
PY
fi
