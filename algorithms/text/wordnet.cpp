#include "algorithms/text/wordnet.h"

#include "algorithms/data/datasets.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace cilab {

namespace {

// "Able(a)" -> "able"; empty when the lemma is not letters only.
std::string clean_lemma(std::string w) {
  const size_t paren = w.find('(');
  if (paren != std::string::npos) w.resize(paren);
  if (w.empty()) return {};
  for (char& c : w) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    else if (c < 'a' || c > 'z') return {};
  }
  return w;
}

void read_data_file(const std::string& path, WordNet& wn) {
  std::ifstream in(path);
  if (!in)
    throw DataError(path + ": WordNet not found: expected the data files of the Debian package wordnet-base; "
                    "try: install it: apt install wordnet-base (or set CILAB_WORDNET_DIR to a folder holding "
                    "data.noun, data.verb, data.adj and data.adv)");
  std::string line;
  int64_t line_no = 0;
  std::vector<int> members;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == ' ') continue;  // the licence header lines start with two spaces
    std::istringstream ls(line);
    std::string offset, lex_file, ss_type, w_cnt_hex;
    if (!(ls >> offset >> lex_file >> ss_type >> w_cnt_hex))
      throw DataError(path + ":" + std::to_string(line_no) +
                      ": expected 'offset lex_filenum ss_type w_cnt word lex_id ...', found a short line; "
                      "try: reinstall wordnet-base");
    char* end = nullptr;
    const long w_cnt = std::strtol(w_cnt_hex.c_str(), &end, 16);
    if (end == w_cnt_hex.c_str() || *end != '\0' || w_cnt <= 0 || w_cnt > 255)
      throw DataError(path + ":" + std::to_string(line_no) + ": expected a two-digit hexadecimal word count, found '" +
                      w_cnt_hex + "'; try: reinstall wordnet-base");
    members.clear();
    for (long i = 0; i < w_cnt; ++i) {
      std::string word, lex_id;
      if (!(ls >> word >> lex_id))
        throw DataError(path + ":" + std::to_string(line_no) + ": expected " + std::to_string(w_cnt) +
                        " words, found fewer; try: reinstall wordnet-base");
      if (word.find('_') != std::string::npos) continue;
      const std::string w = clean_lemma(word);
      if (w.empty()) continue;
      auto [it, added] = wn.index.emplace(w, wn.size());
      if (added) {
        wn.lemmas.push_back(w);
        wn.lemma_synsets.emplace_back();
      }
      if (std::find(members.begin(), members.end(), it->second) == members.end()) members.push_back(it->second);
    }
    if (members.empty()) continue;
    const int s = static_cast<int>(wn.synsets.size());
    for (int m : members) wn.lemma_synsets[static_cast<size_t>(m)].push_back(s);
    wn.synsets.push_back(members);
  }
}

}  // namespace

std::vector<std::string> WordNet::synonyms(std::string_view word) const {
  std::vector<std::string> out;
  const auto it = index.find(std::string(word));
  if (it == index.end()) return out;
  for (int s : lemma_synsets[static_cast<size_t>(it->second)])
    for (int m : synsets[static_cast<size_t>(s)])
      if (m != it->second) out.push_back(lemmas[static_cast<size_t>(m)]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

WordNet read_wordnet(const std::string& dir) {
  WordNet wn;
  wn.source = dir;
  for (const char* part : {"noun", "verb", "adj", "adv"}) read_data_file(dir + "/data." + part, wn);
  return wn;
}

std::string wordnet_dir() {
  const char* env = std::getenv("CILAB_WORDNET_DIR");
  return env && *env ? std::string(env) : std::string("/usr/share/wordnet");
}

std::shared_ptr<const WordNet> load_wordnet() {
  // Process-wide cache (documented in the header): each folder is read once
  // per process (about 10 MB for WordNet 3.0).
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const WordNet>> cache;
  const std::string dir = wordnet_dir();
  std::lock_guard<std::mutex> lock(mutex);  // held while reading: one reader, the others wait for its result
  if (std::shared_ptr<const WordNet> hit = cache[dir]) return hit;
  auto wn = std::make_shared<const WordNet>(read_wordnet(dir));
  cache[dir] = wn;
  return wn;
}

std::future<std::shared_ptr<const WordNet>> load_wordnet_async() {
  return std::async(std::launch::async, [] { return load_wordnet(); });
}

SynonymProbes synonym_probes(const Vocabulary& vocab, const WordNet& wordnet, int max_probes) {
  SynonymProbes p;
  std::vector<int> syn;
  for (int w = 0; w < vocab.size() && p.size() < max_probes; ++w) {
    const std::string& word = vocab.words[static_cast<size_t>(w)];
    if (is_stop_word(word)) continue;
    syn.clear();
    for (const std::string& s : wordnet.synonyms(word)) {
      const int id = vocab.find(s);
      if (id >= 0 && id != w) syn.push_back(id);
    }
    if (syn.empty()) continue;
    std::sort(syn.begin(), syn.end());
    p.words.push_back(w);
    p.synonyms.push_back(syn);
  }
  return p;
}

}  // namespace cilab
