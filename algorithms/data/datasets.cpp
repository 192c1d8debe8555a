// Dataset front door: built-in table, spec parsing, file loading, assets,
// Fashion-MNIST, clicked-point edits and one-line descriptions.
#include "algorithms/data/datasets.h"
#include "algorithms/core/progress.h"
#include "algorithms/data/image_loader.h"

#include "algorithms/data/byte_stream.h"
#include "algorithms/data/corpora.h"
#include "algorithms/data/generators.h"
#include "algorithms/data/loaders.h"
#include "algorithms/data/ratings.h"
#include "algorithms/core/observed_matrix.h"
#include "algorithms/core/text_corpus.h"


#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <set>

namespace cilab {

namespace fs = std::filesystem;
using data_detail::ByteStream;

namespace {

constexpr double kMaxSeed = 2147483647.0;  // fits an int (GUI sliders)
constexpr double kMaxValues = 5e7;  // n * dim cap for generators (400 MB of doubles)

DatasetOption opt_n(double def) {
  return {"n", def, 1, 5e6, true, "number of samples (alias n_samples)"};
}
DatasetOption opt_seed() {
  return {"seed", 0, 0, kMaxSeed, true, "random seed: same seed, same data (alias random_state)"};
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "NAME:key=value,..." with every option of `info` (choices by name): a dataset's source.
std::string canonical_spec(const std::string& name, const DatasetInfo& info, const std::map<std::string, double>& values) {
  std::string canon = name;
  char sep = ':';
  for (const DatasetOption& o : info.options) {
    const double v = values.at(o.name);
    canon += sep + o.name + "=" + (o.choices.empty() ? fmt(v) : o.choices[static_cast<size_t>(v)]);
    sep = ',';
  }
  return canon;
}

const DatasetInfo* find_info(const std::string& name) {
  for (const DatasetInfo& info : builtin_datasets())
    if (info.name == name) return &info;
  return nullptr;
}

std::string known_names() {
  std::string s;
  for (const DatasetInfo& info : builtin_datasets()) s += (s.empty() ? "" : ", ") + info.name;
  return s;
}

std::string option_names(const DatasetInfo& info) {
  std::string s;
  for (const DatasetOption& o : info.options) s += (s.empty() ? "" : ", ") + o.name;
  return s.empty() ? std::string("(none)") : s;
}

// scikit-learn spellings -> our option names.
std::string canonical_key(const std::string& key) {
  static const std::map<std::string, std::string> kAliases = {
      {"n_samples", "n"}, {"n_features", "dim"}, {"cluster_std", "noise"},
      {"random_state", "seed"}, {"center_box", "box"}, {"std", "noise"}};
  const auto it = kAliases.find(key);
  return it == kAliases.end() ? key : it->second;
}

std::shared_ptr<const Dataset> load_asset_csv(const std::string& file, const std::string& name,
                                              const std::string& origin) {
  const std::string path = asset_path(file);
  std::shared_ptr<Dataset> d;
  try {
    d = std::const_pointer_cast<Dataset>(load_file(path));
  } catch (const DataError& e) {
    throw DataError(std::string(e.what()) +
                    " (shipped asset; try: set CILAB_ASSET_DIR to the folder holding " + file + ")");
  }
  d->name = name;
  d->source = origin + ", " + path;
  return d;
}

std::string edit_note(const std::string& source, int added, int removed) {
  // Keeps one trailing " [edited: +A -R points]" note, updated in place.
  static const std::string kTag = " [edited: +";
  std::string base = source;
  int a = 0, r = 0;
  const size_t at = source.rfind(kTag);
  if (at != std::string::npos &&
      std::sscanf(source.c_str() + at, " [edited: +%d -%d points]", &a, &r) == 2) {
    base = source.substr(0, at);
  } else {
    a = r = 0;
  }
  return base + kTag + std::to_string(a + added) + " -" + std::to_string(r + removed) + " points]";
}

}  // namespace

const std::vector<DatasetInfo>& builtin_datasets() {
  static const std::vector<DatasetInfo> kInfos = {
      {"blobs", "isotropic Gaussian blobs (scikit-learn make_blobs)",
       {opt_n(500),
        {"centers", 3, 1, 100, true, "number of blobs (clusters)"},
        {"noise", 1.0, 0, 50, false, "standard deviation of each blob (alias cluster_std)"},
        {"dim", 2, 1, 1000, true, "number of features (alias n_features)"},
        {"box", 10, 0, 1000, false, "centres drawn uniformly in [-box, box]^dim (alias center_box)"},
        opt_seed()},
       true},
      {"anisotropic", "blobs sheared by a fixed linear map: elongated, tilted clusters",
       {opt_n(500),
        {"centers", 3, 1, 100, true, "number of blobs (clusters)"},
        {"noise", 1.0, 0, 50, false, "standard deviation of each blob before the shear"},
        {"box", 10, 0, 1000, false, "centres drawn uniformly in [-box, box]^2"},
        opt_seed()},
       true},
      {"moons", "two interleaving half circles (scikit-learn make_moons)",
       {opt_n(300), {"noise", 0.1, 0, 5, false, "standard deviation of the Gaussian noise"}, opt_seed()},
       true},
      {"circles", "a small circle inside a large one (scikit-learn make_circles)",
       {opt_n(300),
        {"noise", 0.05, 0, 5, false, "standard deviation of the Gaussian noise"},
        {"factor", 0.5, 0.01, 0.99, false, "inner radius / outer radius"},
        opt_seed()},
       true},
      {"spirals", "interleaved spiral arms (hard for linear models)",
       {opt_n(600),
        {"arms", 2, 1, 12, true, "number of spiral arms (classes)"},
        {"noise", 0.03, 0, 5, false, "standard deviation of the Gaussian noise"},
        {"turns", 1.5, 0.1, 10, false, "turns of each arm"},
        opt_seed()},
       true},
      {"xor", "four quadrant blobs, class = sign(x) xor sign(y) (not linearly separable)",
       {opt_n(400), {"noise", 0.1, 0, 5, false, "standard deviation of the Gaussian noise"}, opt_seed()},
       true},
      {"curve", "1-D regression: y = f(x) + noise for x uniform in [-3, 3] (no labels; target y)",
       {opt_n(200),
        {"function", 0, 0, 3, true, "the curve f: sin(x), step sign(x), |x| - 1.5, or x^3/9 - x/3",
         {"sin", "step", "abs", "cubic"}},
        {"noise", 0.1, 0, 5, false, "standard deviation of the Gaussian noise on y"},
        opt_seed()},
       true},
      {"uniform", "points uniform in the unit cube (no cluster structure)",
       {opt_n(500), {"dim", 2, 1, 1000, true, "number of features (alias n_features)"}, opt_seed()},
       true},
      {"ratings",
       "synthetic user x item ratings (1-5) of true rank r, items in latent genres; a few observed "
       "(matrix completion)",
       {{"users", 943, 1, 100000, true, "number of users (rows); MovieLens-100k has 943"},
        {"items", 1682, 1, 100000, true, "number of items (columns); MovieLens-100k has 1682"},
        {"observed", 100000, 1, 2.5e7, true, "number of observed ratings, drawn uniformly without replacement"},
        {"rank", 5, 1, 100, true, "true rank of the rating matrix (3 + U V^T)"},
        {"noise", 0.5, 0, 10, false, "standard deviation of the Gaussian noise on each observed rating"},
        {"genres", 6, 1, 12, true, "latent genres the items cluster around (their colours in embeddings)"},
        opt_seed()},
       true},
      {"photo-holes", "the 512x512 photograph with a fraction of its pixels missing (matrix completion)",
       {{"missing", 0.7, 0, 0.99, false, "fraction of the pixels removed"},
        {"pattern", 0, 0, 1, true, "random pixels, or square blocks; pattern=random|blocks", {"random", "blocks"}},
        {"block", 8, 1, 128, true, "side of a square hole in pixels (pattern=blocks)"},
        opt_seed()},
       true},
      {"tiny-text",
       "a tiny generated text corpus: a Markov chain over a few words, each with one strong successor (word "
       "embeddings: the SGNS / PMI identities)",
       {{"words", 12, 2, 17576, true, "vocabulary size (words wa, wb, ... letters only)"},
        {"docs", 200, 1, 100000, true, "number of documents"},
        {"length", 30, 1, 10000, true, "tokens per document"},
        opt_seed()},
       true},
      {"iris", "Fisher's iris: 150 flowers x 4 measurements, 3 species", {}, false},
      {"faithful", "Old Faithful geyser: 272 eruptions x (duration, waiting time)", {}, false},
      {"photo", "a 512x512 grey photograph (scikit-image's 'camera', CC0) as a one-row image", {}, false},
      {"fashion-mnist", "Zalando's Fashion-MNIST: 28x28 grey clothing images, 10 classes",
       {{"split", 0, 0, 1, true, "train (60000 rows) or test (10000 rows); split=train|test", {"train", "test"}},
        {"n", 0, 0, 60000, true, "keep the first n rows (0 = all)"}},
       false},
      {"fortunes",
       "fortune cookies (Debian package fortunes): about 15 000 short texts in 43 categories (topic models)",
       {{"n", 0, 0, 20000, true, "keep n fortunes spread over every category (0 = all)"}},
       false},
      {"gcide",
       "the Collaborative International Dictionary of English (Debian package dict-gcide): 126 000 entries, "
       "4.7 M tokens (word embeddings)",
       {{"tokens", 0, 0, 1e7, true, "stop after this many tokens (0 = the whole dictionary)"}},
       false},
  };
  return kInfos;
}

std::vector<double> dataset_option_values(const DatasetInfo& info, const Dataset& d) {
  const std::string& src = d.source;
  std::vector<double> values;
  for (const DatasetOption& o : info.options) {
    double v = o.def;
    const std::string key = o.name + "=";
    for (size_t pos = src.find(':'); pos != std::string::npos; pos = src.find(',', pos + 1)) {
      if (src.compare(pos + 1, key.size(), key) != 0) continue;
      const std::string text = src.substr(pos + 1 + key.size(), src.find(',', pos + 1) - pos - 1 - key.size());
      v = std::strtod(text.c_str(), nullptr);
      for (size_t c = 0; c < o.choices.size(); ++c)
        if (text == o.choices[c]) v = static_cast<double>(c);
      break;
    }
    if (info.name == "fashion-mnist" && src.rfind("Fashion-MNIST ", 0) == 0) {
      if (o.name == "split") v = src.compare(14, 4, "test") == 0 ? 1.0 : 0.0;
      const size_t first = src.find("first ");
      if (o.name == "n") v = first == std::string::npos ? 0.0 : std::strtod(src.c_str() + first + 6, nullptr);
    }
    values.push_back(std::clamp(v, o.min, o.max));
  }
  return values;
}

std::shared_ptr<const Dataset> make_dataset(const std::string& spec) {
  const size_t colon = spec.find(':');
  const std::string name = lower(trim(spec.substr(0, colon)));
  const std::string where = "dataset spec '" + spec + "'";
  report_progress("loading " + spec);
  const DatasetInfo* info = find_info(name);
  if (!info)
    throw DataError(where + ": unknown dataset: expected one of " + known_names() + ", found '" +
                    name + "'; try: " + known_names().substr(0, known_names().find(',')) +
                    ":n=500, or load a file instead");
  std::map<std::string, double> values;
  for (const DatasetOption& o : info->options) values[o.name] = o.def;
  std::set<std::string> given;
  if (colon != std::string::npos) {
    const std::string rest = spec.substr(colon + 1);
    size_t start = 0;
    while (start <= rest.size()) {
      size_t comma = rest.find(',', start);
      if (comma == std::string::npos) comma = rest.size();
      const std::string item = trim(rest.substr(start, comma - start));
      start = comma + 1;
      if (item.empty()) continue;
      const size_t eq = item.find('=');
      if (eq == std::string::npos)
        throw DataError(where + ": expected key=value, found '" + item + "'; try: " + name +
                        (info->options.empty() ? std::string(" (it has no options)")
                                               : ":" + info->options[0].name + "=" + fmt(info->options[0].def)));
      const std::string key = canonical_key(lower(trim(item.substr(0, eq))));
      const std::string text = trim(item.substr(eq + 1));
      const DatasetOption* opt = nullptr;
      for (const DatasetOption& o : info->options)
        if (o.name == key) opt = &o;
      if (!opt)
        throw DataError(where + ": unknown option for " + name + ": expected one of " +
                        option_names(*info) + ", found '" + key + "'; try: one of those names");
      if (!given.insert(key).second)
        throw DataError(where + ": option '" + key + "' given twice; try: keep one");
      double v = 0.0;
      if (!opt->choices.empty()) {
        const std::string t = lower(text);
        int index = -1;
        std::string names, indices;
        for (size_t c = 0; c < opt->choices.size(); ++c) {
          if (t == opt->choices[c] || t == std::to_string(c)) index = static_cast<int>(c);
          names += (c == 0 ? "" : (c + 1 == opt->choices.size() ? " or " : ", ")) + opt->choices[c];
          indices += (c == 0 ? "" : " / ") + std::to_string(c);
        }
        if (index < 0)
          throw DataError(where + ": option '" + key + "': expected " + names + " (or " + indices + "), found '" +
                          text + "'; try: " + key + "=" + opt->choices[0]);
        v = index;
      } else {
        char* end = nullptr;
        v = std::strtod(text.c_str(), &end);
        const bool ok = !text.empty() && end && *end == '\0' && std::isfinite(v) &&
                        (!opt->is_int || v == std::floor(v)) && v >= opt->min && v <= opt->max;
        if (!ok)
          throw DataError(where + ": option '" + key + "': expected " +
                          (opt->is_int ? "an integer" : "a number") + " in [" + fmt(opt->min) + ", " +
                          fmt(opt->max) + "], found '" + text + "'; try: " + key + "=" + fmt(opt->def) +
                          " (" + opt->help + ")");
      }
      values[key] = v;
    }
  }
  auto get_int = [&](const char* k) { return static_cast<int>(values.at(k)); };
  auto get = [&](const char* k) { return values.at(k); };

  if (name == "ratings" || name == "photo-holes") {
    const std::string canon = canonical_spec(name, *info, values);
    const uint64_t seed = static_cast<uint64_t>(get("seed"));
    try {
      if (name == "ratings") {
        RatingsSpec r;
        r.users = get_int("users");
        r.items = get_int("items");
        r.observed = get_int("observed");
        r.rank = get_int("rank");
        r.noise = get("noise");
        r.genres = get_int("genres");
        r.seed = seed;
        return partial_dataset(synthetic_ratings(r), "ratings", canon);
      }
      const std::shared_ptr<const Dataset> photo = photo_dataset();
      auto m = with_holes(complete_matrix(*photo, 0, nullptr), get("missing"),
                          get_int("pattern") == 1 ? HolePattern::Blocks : HolePattern::Random, get_int("block"), seed);
      m->image_h = photo->image_h;
      m->image_w = photo->image_w;
      m->row_kind = "pixel row";
      m->col_kind = "pixel column";
      return partial_dataset(std::move(m), "photo-holes", canon);
    } catch (const DataError& e) {
      throw DataError(where + ": " + e.what());
    } catch (const std::bad_alloc&) {
      throw DataError(where + ": out of memory; try: fewer users or items");
    }
  }
  if (name == "tiny-text" || name == "fortunes" || name == "gcide") {
    const std::string canon = canonical_spec(name, *info, values);
    try {
      if (name == "tiny-text") {
        TinyTextSpec t;
        t.words = get_int("words");
        t.docs = get_int("docs");
        t.length = get_int("length");
        t.seed = static_cast<uint64_t>(get("seed"));
        if (static_cast<double>(t.docs) * t.length > kMaxValues)
          throw DataError("expected docs x length <= " + fmt(kMaxValues) + " tokens, found " + std::to_string(t.docs) +
                          " x " + std::to_string(t.length) + "; try: fewer or shorter documents");
        return text_dataset(tiny_corpus(t), name, canon);
      }
      if (name == "fortunes") {
        const auto c = load_fortunes(get_int("n"));
        return text_dataset(c, name, canon + ", " + std::to_string(c->label_names.size()) + " category files in " +
                                         fortunes_dir());
      }
      return text_dataset(load_gcide(static_cast<int64_t>(get("tokens"))), name, canon + ", " + gcide_path());
    } catch (const std::bad_alloc&) {
      throw DataError(where + ": out of memory; try: a smaller corpus");
    }
  }
  if (info->generated) {
    const int n = get_int("n");
    const int dim = values.count("dim") ? get_int("dim") : 2;
    if (static_cast<double>(n) * dim > kMaxValues)
      throw DataError(where + ": expected n x dim <= " + fmt(kMaxValues) + " values, found " +
                      std::to_string(n) + " x " + std::to_string(dim) + "; try: fewer samples or features");
    const uint64_t seed = static_cast<uint64_t>(get("seed"));
    Dataset d;
    try {
      if (name == "blobs")
        d = data_detail::gen_blobs(n, get_int("centers"), get("noise"), dim, get("box"), seed);
      else if (name == "anisotropic")
        d = data_detail::gen_anisotropic(n, get_int("centers"), get("noise"), get("box"), seed);
      else if (name == "moons")
        d = data_detail::gen_moons(n, get("noise"), seed);
      else if (name == "circles")
        d = data_detail::gen_circles(n, get("noise"), get("factor"), seed);
      else if (name == "spirals")
        d = data_detail::gen_spirals(n, get_int("arms"), get("noise"), get("turns"), seed);
      else if (name == "xor")
        d = data_detail::gen_xor(n, get("noise"), seed);
      else if (name == "curve")
        d = data_detail::gen_curve(n, get_int("function"), get("noise"), seed);
      else
        d = data_detail::gen_uniform(n, dim, seed);
    } catch (const std::bad_alloc&) {
      throw DataError(where + ": out of memory generating " + std::to_string(n) + " x " +
                      std::to_string(dim) + "; try: fewer samples");
    }
    const std::string canon = canonical_spec(name, *info, values);
    d.source = canon;
    return std::make_shared<const Dataset>(std::move(d));
  }
  if (name == "iris")
    return load_asset_csv("iris.csv", "iris", "iris (Fisher 1936, scikit-learn's copy)");
  if (name == "faithful")
    return load_asset_csv("faithful.csv", "faithful", "faithful (Old Faithful geyser, R datasets::faithful)");
  if (name == "photo") return photo_dataset();
  // fashion-mnist
  const int n = get_int("n");
  return load_fashion_mnist(get_int("split") == 1 ? "test" : "train", n > 0 ? n : -1);
}

std::shared_ptr<const Dataset> load_file(const std::string& path, const LoadOptions& opts) {
  if (opts.text) {
    std::string trimmed = path;
    while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
    return text_dataset(load_text(path, opts), data_detail::file_stem(trimmed), path);
  }
  if (opts.ratings != RatingsLayout::Table) return load_ratings(path, opts);
  {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return load_image_folder(path);  // torchvision's ImageFolder layout
  }
  try {
    ByteStream in(path, opts.max_file_bytes);
    const std::vector<uint8_t>& head = in.peek(8);
    if (head.empty())
      throw DataError(path + ": byte 0: empty " + std::string(in.gzip() ? "(after gunzip) " : "") +
                      "file: expected a CSV/TSV table, IDX or gzip data, found 0 bytes; try: choose "
                      "a file with data");
    if (head.size() >= 2 && ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF)))
      throw DataError(path + ": byte 0: expected UTF-8 text, found a UTF-16 byte-order mark; try: "
                             "save the file as UTF-8 CSV");
    if (head.size() >= 2 && head[0] == 0 && head[1] == 0) return data_detail::load_idx(in, opts);
    if (!in.gzip() && looks_like_image(head.data(), head.size())) return load_image_dataset(path);
    return data_detail::load_csv(in, opts);
  } catch (const std::bad_alloc&) {
    throw DataError(path + ": out of memory while loading: expected the data to fit in memory; "
                           "try: a smaller file or a subset of its rows");
  }
}

std::shared_ptr<const Dataset> load_fashion_mnist(const std::string& split, int n) {
  if (split != "train" && split != "test")
    throw DataError("fashion-mnist: expected split 'train' or 'test', found '" + split +
                    "'; try: split=train");
  const char* env = std::getenv("CILAB_FASHION_MNIST_DIR");
  const std::string dir = env && *env ? env : "/usr/share/datasets/fashion-mnist";
  const std::string prefix = split == "train" ? "train" : "t10k";
  auto find = [&](const std::string& base) {
    for (const std::string& p : {dir + "/" + base + ".gz", dir + "/" + base}) {
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) return p;
    }
    throw DataError(dir + "/" + base + ".gz: Fashion-MNIST not found: expected the files of the "
                    "Debian package dataset-fashion-mnist, found no such file; try: install it with: "
                    "sudo apt-get install dataset-fashion-mnist (or set CILAB_FASHION_MNIST_DIR to a "
                    "folder holding the four *-ubyte.gz files)");
  };
  const std::string images_path = find(prefix + "-images-idx3-ubyte");
  const std::string labels_path = find(prefix + "-labels-idx1-ubyte");

  // Small cache: the same split stays shared while anyone holds it.
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Dataset>> cache;
  const std::string key = images_path + "#" + std::to_string(n > 0 ? n : -1);
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = cache.find(key);
    if (it != cache.end())
      if (std::shared_ptr<const Dataset> hit = it->second.lock()) return hit;
  }

  const uint64_t max_rows = n > 0 ? static_cast<uint64_t>(n) : 0;
  const size_t kMax = size_t(1) << 30;
  data_detail::IdxArray images, labels;
  try {
    ByteStream in(images_path, kMax);
    images = data_detail::read_idx(in, max_rows);
    ByteStream lin(labels_path, kMax);
    labels = data_detail::read_idx(lin, max_rows);
  } catch (const std::bad_alloc&) {
    throw DataError(images_path + ": out of memory loading Fashion-MNIST; try: a smaller n");
  }
  if (images.type != 0x08 || images.dims.size() != 3 || images.dims[1] != 28 || images.dims[2] != 28)
    throw DataError(images_path + ": byte 0: expected Fashion-MNIST images (ubyte, n x 28 x 28), "
                    "found another IDX shape; try: reinstall dataset-fashion-mnist");
  if (labels.type != 0x08 || labels.dims.size() != 1 || labels.dims[0] != images.dims[0])
    throw DataError(labels_path + ": byte 0: expected " + std::to_string(images.dims[0]) +
                    " ubyte labels to match the images, found another IDX shape; try: reinstall "
                    "dataset-fashion-mnist");
  if (n > 0 && static_cast<uint64_t>(n) > images.dims[0])
    throw DataError(images_path + ": expected n <= " + std::to_string(images.dims[0]) + " rows in the " +
                    split + " split, found n=" + std::to_string(n) + "; try: n=" +
                    std::to_string(images.dims[0]) + " or split=train");
  auto d = std::make_shared<Dataset>();
  const Eigen::Index rows = static_cast<Eigen::Index>(images.dims[0]);
  data_detail::bytes_to_matrix(images.payload.data(), rows, 28 * 28, 1.0 / 255.0, d->x);
  d->labels.resize(static_cast<size_t>(rows));
  for (Eigen::Index i = 0; i < rows; ++i) {
    const int lab = labels.payload[static_cast<size_t>(i)];
    if (lab > 9)
      throw DataError(labels_path + ": byte " + std::to_string(labels.header_bytes + static_cast<uint64_t>(i)) +
                      ": expected a class id 0..9, found " + std::to_string(lab) +
                      "; try: reinstall dataset-fashion-mnist");
    d->labels[static_cast<size_t>(i)] = lab;
  }
  d->class_names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                    "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  d->column_names.reserve(28 * 28);
  for (int j = 0; j < 28 * 28; ++j) d->column_names.push_back("x" + std::to_string(j));
  d->image_h = 28;
  d->image_w = 28;
  d->name = "fashion-mnist";
  d->source = "Fashion-MNIST " + split + (n > 0 ? ", first " + std::to_string(n) + " rows" : std::string()) +
              ", pixels scaled to [0,1] (value/255), " + images_path;
  std::shared_ptr<const Dataset> out = d;
  {
    std::lock_guard<std::mutex> lock(mutex);
    cache[key] = out;
  }
  return out;
}

// Where an installed binary's assets are, relative to its folder: GNUInstallDirs'
// bin/ -> share/cilab/assets. CMake passes the same relative path computed from
// CMAKE_INSTALL_BINDIR and CMAKE_INSTALL_DATADIR (CMakeLists.txt), so it holds
// for any prefix (make install PREFIX=..., DESTDIR, the Debian package's /usr).
#ifndef CILAB_INSTALLED_ASSET_RELDIR
#define CILAB_INSTALLED_ASSET_RELDIR "../share/cilab/assets"
#endif

std::string pick_asset_dir(const char* env_dir, const std::string& exe_path, const std::string& compiled_dir) {
  if (env_dir && *env_dir) return env_dir;
  std::error_code ec;
  const fs::path exe_dir = fs::path(exe_path).parent_path();
  if (!exe_path.empty()) {
    const fs::path installed = (exe_dir / CILAB_INSTALLED_ASSET_RELDIR).lexically_normal();
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  if (!compiled_dir.empty() && fs::is_directory(compiled_dir, ec)) return compiled_dir;
  if (!exe_path.empty()) return (exe_dir.parent_path() / "assets").string();
  return "assets";
}

std::string asset_path(const std::string& file) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
#ifdef CILAB_ASSET_DIR
  const std::string compiled = CILAB_ASSET_DIR;
#else
  const std::string compiled;
#endif
  return (fs::path(pick_asset_dir(std::getenv("CILAB_ASSET_DIR"), ec ? std::string() : exe.string(), compiled)) /
          file)
      .string();
}

std::shared_ptr<const Dataset> with_point_added(const Dataset& d, double x, double y, int label) {
  if (!std::isfinite(x) || !std::isfinite(y))
    throw DataError("add point to '" + d.name + "': expected finite coordinates, found (" + fmt(x) +
                    ", " + fmt(y) + "); try: click inside the plot");
  if (d.has_target() && d.cols() == 1) {
    // A 1-D regression set: the point is (feature, target).
    auto out = std::make_shared<Dataset>(d);
    const Eigen::Index n = d.rows();
    out->x.conservativeResize(n + 1, 1);
    out->x(n, 0) = x;
    out->target.push_back(y);
    if (!out->labels.empty()) out->labels.push_back(-1);
    out->source = edit_note(d.source, 1, 0);
    return out;
  }
  const bool blank = d.rows() == 0 && d.cols() == 0;
  if (!blank && d.cols() != 2)
    throw DataError("add point to '" + d.name + "': expected a 2-column dataset, found " +
                    std::to_string(d.cols()) + " columns; try: start from a 2-D dataset or a blank canvas");
  auto out = std::make_shared<Dataset>(d);
  const Eigen::Index n = d.rows();
  out->x.conservativeResize(n + 1, 2);
  out->x(n, 0) = x;
  out->x(n, 1) = y;
  if (out->column_names.size() != 2) out->column_names = {"x0", "x1"};
  if (out->name.empty()) out->name = "points";
  if (label < -1) label = -1;
  if (label >= 0 && out->labels.empty()) out->labels.assign(static_cast<size_t>(n), -1);
  if (!out->labels.empty()) out->labels.push_back(label);
  if (label >= 0 && !out->class_names.empty())
    while (static_cast<int>(out->class_names.size()) <= label)
      out->class_names.push_back("class " + std::to_string(out->class_names.size()));
  if (out->image_h * out->image_w != 2) out->image_h = out->image_w = 0;
  out->target.clear();  // a drawn 2-D point has a class, not a regression target
  out->target_name.clear();
  out->source = edit_note(d.source.empty() ? std::string("clicked points") : d.source, 1, 0);
  return out;
}

std::shared_ptr<const Dataset> with_point_removed(const Dataset& d, int row) {
  if (row < 0 || row >= d.rows())
    throw DataError("remove point from '" + d.name + "': expected a row in [0, " +
                    std::to_string(d.rows()) + "), found " + std::to_string(row) +
                    "; try: pick an existing point");
  auto out = std::make_shared<Dataset>();
  const Eigen::Index n = d.rows(), c = d.cols();
  out->x.resize(n - 1, c);
  if (row > 0) out->x.topRows(row) = d.x.topRows(row);
  if (row < n - 1) out->x.bottomRows(n - 1 - row) = d.x.bottomRows(n - 1 - row);
  if (!d.labels.empty()) {
    out->labels = d.labels;
    out->labels.erase(out->labels.begin() + row);
  }
  if (d.has_target()) {
    out->target = d.target;
    out->target.erase(out->target.begin() + row);
  }
  out->target_name = d.target_name;
  out->class_names = d.class_names;
  out->column_names = d.column_names;
  out->image_h = d.image_h;
  out->image_w = d.image_w;
  out->name = d.name;
  out->source = edit_note(d.source, 0, 1);
  return out;
}

bool points_editable(const Dataset& d) {
  return d.cols() == 2 || (d.rows() == 0 && d.cols() == 0) || (d.cols() == 1 && d.has_target());
}

int nearest_point(const Dataset& d, double x, double y) {
  if (!(d.cols() == 1 && d.has_target())) return d.cols() >= 2 ? nearest_row(d, x, y) : -1;
  int best = -1;
  double best_d2 = 0.0;
  for (int i = 0; i < d.rows(); ++i) {
    const double dx = d.x(i, 0) - x, dy = d.target[static_cast<size_t>(i)] - y;
    const double d2 = dx * dx + dy * dy;
    if (best < 0 || d2 < best_d2) {
      best = i;
      best_d2 = d2;
    }
  }
  return best;
}

int nearest_row(const Dataset& d, double x, double y, int col_x, int col_y) {
  if (d.rows() == 0) return -1;
  if (col_x < 0 || col_y < 0 || col_x >= d.cols() || col_y >= d.cols())
    throw DataError("nearest point in '" + d.name + "': expected columns in [0, " +
                    std::to_string(d.cols()) + "), found (" + std::to_string(col_x) + ", " +
                    std::to_string(col_y) + "); try: choose existing columns");
  int best = -1;
  double best_d2 = 0.0;
  for (int i = 0; i < d.rows(); ++i) {
    const double dx = d.x(i, col_x) - x, dy = d.x(i, col_y) - y;
    const double d2 = dx * dx + dy * dy;
    if (best < 0 || d2 < best_d2) {
      best = i;
      best_d2 = d2;
    }
  }
  return best;
}

std::string describe(const Dataset& d) {
  if (d.is_text()) return describe_corpus(*d.text, d.name.empty() ? std::string("text") : d.name);
  if (d.is_partial()) {
    const ObservedMatrix& m = *d.observed;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.3g", 100.0 * m.fraction());
    return (d.name.empty() ? std::string("data") : d.name) + ": " + std::to_string(m.rows) + " x " +
           std::to_string(m.cols) + (m.is_image() ? " picture" : "") + ", " + std::to_string(m.observed()) +
           " observed (" + pct + " %)";
  }
  std::string s = (d.name.empty() ? std::string("data") : d.name) + ": " + std::to_string(d.rows()) +
                  " x " + std::to_string(d.cols());
  if (d.is_image()) s += " (" + std::to_string(d.image_h) + "x" + std::to_string(d.image_w) + " images)";
  if (d.has_labels()) {
    const int k = d.num_classes();
    s += ", " + std::to_string(k) + (k == 1 ? " class" : " classes");
  } else {
    s += ", unlabelled";
  }
  return s;
}

}  // namespace cilab
