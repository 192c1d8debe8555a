// bench_word2vec: SGNS on GCIDE beside gensim 4.2 (bench/run_word2vec.sh runs both).
//
//   bench_word2vec --out DIR [--threads 1,2] [--seeds 1] [--max-tokens N] [--epochs E]
//     writes DIR/gcide.txt, the corpus exactly as the text layer tokenises it
//     (one document per line, words separated by one space), then trains
//     word2vec (vector_size 100, window 5, negative 5, min_count 5, sample 1e-3,
//     E = 1 epoch) with workers = T for each T and each seed S, and prints
//       RESULT threads=T seed=S words=W train_s=S wall_s=S words_per_s=R recall=X vocab=V probes=P
//     words = corpus words after min_count (before subsampling) per epoch times
//     epochs; train_s = the module's own training time (words_per_s metric);
//     wall_s = every step() call, copies and live recall included (the ratio's
//     basis); recall = WordNet synonym recall@10 (algorithms/text/embedding.h).
//   bench_word2vec --recall VECTORS.txt [--max-tokens N]
//     reads word vectors in word2vec's text format (gensim's
//     wv.save_word2vec_format), maps them onto the same vocabulary and probe
//     set and prints  RECALL recall=X found=F missing=M
// Usage errors exit 2.
#include "algorithms/core/parallel.h"
#include "algorithms/data/corpora.h"
#include "algorithms/text/embedding.h"
#include "algorithms/text/text.h"
#include "algorithms/text/wordnet.h"
#include "algorithms/embeddings/word2vec.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace cilab;

namespace {

constexpr int kMinCount = 5;

// A comma-separated list of integers, each at least `at_least` ("1,2" -> {1, 2}).
std::vector<int> parse_ints(const std::string& s, int at_least) {
  std::vector<int> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(std::max(at_least, std::atoi(item.c_str())));
  return out;
}

void write_corpus(const TextCorpus& c, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write");
  std::string line;
  for (int d = 0; d < c.docs(); ++d) {
    line.clear();
    for (int64_t t = c.doc_start[static_cast<size_t>(d)]; t < c.doc_start[static_cast<size_t>(d) + 1]; ++t) {
      if (!line.empty()) line += ' ';
      line += c.words[static_cast<size_t>(c.tokens[static_cast<size_t>(t)])];
    }
    if (!line.empty()) out << line << '\n';
  }
}

int recall_mode(const std::string& path, int64_t max_tokens) {
  const auto corpus = load_gcide(max_tokens);
  VocabOptions vo;
  vo.min_count = kMinCount;
  const Vocabulary vocab = build_vocabulary(*corpus, vo);
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  int rows = 0, dim = 0;
  in >> rows >> dim;
  if (rows <= 0 || dim <= 0) throw std::runtime_error(path + ": expected 'rows dim' on the first line");
  EmbeddingMatrix m(vocab.size(), dim);
  int found = 0;
  std::string word;
  std::vector<float> v(static_cast<size_t>(dim));
  for (int r = 0; r < rows; ++r) {
    if (!(in >> word)) throw std::runtime_error(path + ": expected " + std::to_string(rows) + " rows");
    for (float& f : v) in >> f;
    const int id = vocab.find(word);
    if (id < 0) continue;
    std::copy(v.begin(), v.end(), m.row(id));
    ++found;
  }
  const WordNet wn = read_wordnet(wordnet_dir());
  const SynonymProbes probes = synonym_probes(vocab, wn, 1000);
  const double recall = synonym_recall(normalized(m), probes, 10);
  std::printf("RECALL recall=%.4f found=%d missing=%d vocab=%d\n", recall, found, vocab.size() - found, vocab.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out, threads_s = "1,2", seeds_s = "1", recall_path;
  int64_t max_tokens = 0;
  int epochs = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_word2vec: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--out") out = next();
    else if (a == "--threads") threads_s = next();
    else if (a == "--seeds") seeds_s = next();
    else if (a == "--max-tokens") max_tokens = std::atoll(next().c_str());
    else if (a == "--epochs") epochs = std::max(1, std::atoi(next().c_str()));
    else if (a == "--recall") recall_path = next();
    else {
      std::fprintf(stderr, "bench_word2vec: unknown argument %s; usage: --out DIR [--threads 1,2] [--seeds 1,2] | --recall FILE\n",
                   a.c_str());
      return 2;
    }
  }
  try {
    if (!recall_path.empty()) return recall_mode(recall_path, max_tokens);
    if (out.empty()) {
      std::fprintf(stderr, "bench_word2vec: --out DIR or --recall FILE needed\n");
      return 2;
    }
    const auto corpus = load_gcide(max_tokens);
    write_corpus(*corpus, out + "/gcide.txt");
    std::printf("CORPUS docs=%d tokens=%lld path=%s/gcide.txt\n", corpus->docs(), static_cast<long long>(corpus->size()),
                out.c_str());
    const auto data = text_dataset(corpus, "gcide", "gcide");
    std::vector<std::pair<int, int>> runs;  // (threads, seed)
    for (int t : parse_ints(threads_s, 1))
      for (int seed : parse_ints(seeds_s, 0)) runs.emplace_back(t, seed);
    for (const auto& [t, seed] : runs) {
      set_max_threads(t);
      Word2Vec m;
      ParamValues v = default_values(m.params());
      v["workers"] = t;
      v["epochs"] = epochs;
      v["min_count"] = kMinCount;
      m.reset(data, v, static_cast<uint64_t>(seed));
      const auto t0 = std::chrono::steady_clock::now();
      double train_s = 0;
      while (!is_terminal(m.status())) {
        m.step();
        const double wps = m.snapshot()->metrics[Word2Vec::kMetricWordsPerS];
        if (std::isfinite(wps)) train_s += static_cast<double>(m.word2vec_snapshot()->epoch_words) / wps;
      }
      const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const auto s = m.word2vec_snapshot();
      const double words = static_cast<double>(s->epoch_words) * epochs;
      std::printf(
          "RESULT threads=%d seed=%d words=%.0f train_s=%.3f wall_s=%.3f words_per_s=%.0f recall=%.4f vocab=%d "
          "probes=%d\n",
          t, seed, words, train_s, wall_s, words / wall_s, s->metrics[Word2Vec::kMetricRecall], s->vocab->size(),
          s->synonym_probes ? s->synonym_probes->size() : 0);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_word2vec: %s\n", e.what());
    return 1;
  }
  return 0;
}
