// WordNet synsets (Princeton WordNet 3.0, Debian package wordnet-base), the
// embeddings' oracle: two words are synonyms when they share a synset.
//
// Read from data.noun, data.verb, data.adj and data.adv of the WordNet
// folder (/usr/share/wordnet, env CILAB_WORDNET_DIR overrides). Each synset
// keeps its single-word lemmas, lowercased; lemmas that are not made of ASCII
// letters only (multi-word lemmas with '_', hyphens, digits) are skipped, and
// adjective markers ("(a)", "(p)", "(ip)") removed.
#pragma once

#include "algorithms/text/embedding.h"
#include "algorithms/text/text.h"

#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cilab {

struct WordNet {
  std::vector<std::string> lemmas;               // lemma id -> word
  std::unordered_map<std::string, int> index;    // word -> lemma id
  std::vector<std::vector<int>> synsets;         // synset -> its lemma ids (at least one)
  std::vector<std::vector<int>> lemma_synsets;   // lemma id -> the synsets holding it
  std::string source;                            // the folder read

  int size() const { return static_cast<int>(lemmas.size()); }
  // The union of the other lemmas of every synset holding `word` (sorted,
  // `word` itself excluded); empty for a word WordNet does not know.
  std::vector<std::string> synonyms(std::string_view word) const;
};

// Reads the four data files of `dir`. A missing folder or file is a DataError
// saying how to install WordNet; a malformed line is a DataError naming the
// file and line.
WordNet read_wordnet(const std::string& dir);

// The WordNet of the default folder (CILAB_WORDNET_DIR, else
// /usr/share/wordnet), read once per process: a process-wide cache behind a
// mutex (as the data layer's Fashion-MNIST cache), kept until exit. A failed
// read is not cached (the next call tries again).
std::shared_ptr<const WordNet> load_wordnet();
// load_wordnet() on a thread of its own, started now: a module's reset starts it before its
// own corpus work, so the oracle's WordNet (about 0.5 s) is read while the vocabulary and
// the counts are built, not after them. get() returns the WordNet or rethrows the DataError;
// a future that is dropped unread waits for the read (it lands in the cache).
std::future<std::shared_ptr<const WordNet>> load_wordnet_async();

// The default folder: CILAB_WORDNET_DIR when set, else /usr/share/wordnet.
std::string wordnet_dir();

// The synonym oracle's fixed probe set: the `max_probes` most frequent
// vocabulary words (vocabulary order), English stop words excluded, that have
// at least one WordNet synonym in the vocabulary; with those synonyms' ids.
SynonymProbes synonym_probes(const Vocabulary& vocab, const WordNet& wordnet, int max_probes = 1000);

}  // namespace cilab
