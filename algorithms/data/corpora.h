// Text corpora: the fortunes, the GCIDE dictionary, a tiny generated corpus
// and the user's own text, each as a TextCorpus (algorithms/core/text_corpus.h)
// wrapped in a Dataset (Dataset::text set, x empty).
//
// The installed corpora come from Debian packages the project's set-up installs
// (`make deps`): `fortunes` (/usr/share/games/fortunes) and `dict-gcide`
// (/usr/share/dictd/gcide.dict.dz). A missing package is a DataError saying how
// to install it. Every other failure is a DataError naming the file: binary
// data, an unreadable file, an empty corpus.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/core/text_corpus.h"
#include "algorithms/data/datasets.h"

#include <cstdint>
#include <memory>
#include <string>

namespace cilab {

// Where the installed corpora are read from: env CILAB_FORTUNES_DIR or
// /usr/share/games/fortunes; env CILAB_GCIDE_PATH or
// /usr/share/dictd/gcide.dict.dz.
std::string fortunes_dir();
std::string gcide_path();

// The fortune cookies: every category file of the fortunes directory (a file
// that has a sibling "<name>.dat"; env CILAB_FORTUNES_DIR overrides
// /usr/share/games/fortunes), split on lines holding only "%". One document per
// fortune, labelled with its category (the file name), original text kept.
// max_docs > 0 keeps max_docs fortunes spread over the categories: each
// category in proportion to its size, at least one each when max_docs >= 43,
// evenly spaced in its file. Fortunes with no word are skipped.
std::shared_ptr<const TextCorpus> load_fortunes(int max_docs = 0);

// The Collaborative International Dictionary of English from dict-gcide
// (env CILAB_GCIDE_PATH overrides /usr/share/dictd/gcide.dict.dz; gzip or
// plain): one document per entry (an entry starts at a line that is not
// indented, after a blank line), the database's own 00-database-* entries and
// the licence text before the first headword skipped, pronunciations between backslashes and "[1913 Webster]"-style
// source brackets removed, character entities ("[a^]", "[oe]") replaced by
// their letters. max_tokens > 0 stops after the entry that reaches that many
// tokens. A loaded corpus is shared while anyone holds it (so is a fortunes one).
std::shared_ptr<const TextCorpus> load_gcide(int64_t max_tokens = 0);

// The user's own text: a folder of .txt files (one document each, sorted by
// name, subfolders ignored) or one text file split on blank lines (gzip read
// too). Throws DataError naming the file for binary data, an unreadable file,
// or no word at all.
std::shared_ptr<const TextCorpus> load_text(const std::string& path, const LoadOptions& opts = {});

// A tiny seeded corpus where the SGNS / PMI identities can be checked: `docs`
// documents of `length` tokens over a vocabulary of `words` words ("w00",
// "w01", ...: letters only, "wa", "wb", ...), drawn from a first-order Markov
// chain with a few strong transitions, so that PMI varies widely.
struct TinyTextSpec {
  int words = 12;
  int docs = 200;
  int length = 30;
  uint64_t seed = 0;
};
std::shared_ptr<const TextCorpus> tiny_corpus(const TinyTextSpec& spec);

// Wraps a corpus as a Dataset (x empty, `text` set).
std::shared_ptr<const Dataset> text_dataset(std::shared_ptr<const TextCorpus> corpus, std::string name,
                                            std::string source);

// "fortunes: 15218 documents, 43 categories, 1.2 M tokens, 48 k word types".
std::string describe_corpus(const TextCorpus& c, const std::string& name);

}  // namespace cilab
