#!/usr/bin/env python3
"""gensim 4.2's SGNS on the corpus bench_word2vec wrote (bench/run_word2vec.sh).

    word2vec_gensim.py CORPUS.txt THREADS VECTORS_OUT.txt [EPOCHS] [SEED]

Word2Vec(sg=1, vector_size=100, window=5, negative=5, min_count=5,
sample=1e-3, epochs, workers=THREADS, seed=SEED (default 1)) on
LineSentence(CORPUS): the vocabulary is built first (not timed), then train()
is timed. Prints
    REF threads=T seed=S words=W train_s=S words_per_s=R vocab=V
with words = the corpus words kept by min_count (before subsampling) times
epochs, the same definition as bench_word2vec's, and saves the vectors in
word2vec's text format for bench_word2vec --recall.
"""
import sys
import time

from gensim.models import Word2Vec
from gensim.models.word2vec import LineSentence


def main():
    corpus, threads, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    epochs = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    model = Word2Vec(sg=1, vector_size=100, window=5, negative=5, min_count=5, sample=1e-3, epochs=epochs,
                     workers=threads, seed=seed)
    model.build_vocab(LineSentence(corpus))
    words = sum(model.wv.get_vecattr(w, "count") for w in model.wv.index_to_key) * epochs
    t0 = time.perf_counter()
    model.train(LineSentence(corpus), total_examples=model.corpus_count, epochs=epochs)
    train_s = time.perf_counter() - t0
    model.wv.save_word2vec_format(out)
    print("REF threads=%d seed=%d words=%d train_s=%.3f words_per_s=%.0f vocab=%d" %
          (threads, seed, words, train_s, words / train_s, len(model.wv.index_to_key)))


if __name__ == "__main__":
    main()
