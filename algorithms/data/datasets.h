// Datasets: built-in generators, shipped CSVs, user files and Fashion-MNIST.
//
// Every source produces the one `Dataset` type (algorithms/core/dataset.h):
// n x d features in rows, optional integer labels with class names, optional
// image shape. Generators are seeded (cilab::Rng) and deterministic. Loading is
// an I/O boundary: every failure is a DataError whose one-line message names
// the path, the line:column or byte offset, what was expected, what was found
// and what to try. Readers stream in bounded chunks, so a 1 GB line or a lying
// IDX header fails fast without allocating absurd memory.
#pragma once

#include "algorithms/core/dataset.h"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cilab {

// Error at an I/O boundary: one line naming the path, the line and column (or
// byte offset), what was expected, what was found, and what to try.
class DataError : public std::runtime_error {
 public:
  using runtime_error::runtime_error;
};

// One option of a built-in dataset (e.g. blobs' `centers`), inclusive range.
// An option with `choices` (Fashion-MNIST's split) takes one of those names
// (or its index); its value is the index, min = 0 and max = choices.size() - 1.
struct DatasetOption {
  std::string name;
  double def;
  double min;
  double max;
  bool is_int;
  std::string help;
  std::vector<std::string> choices = {};
};

// A built-in dataset: its spec name, one-line description and options.
struct DatasetInfo {
  std::string name;
  std::string description;
  std::vector<DatasetOption> options;
  bool generated;  // true for seeded generators, false for shipped/installed data
};

// The built-in datasets, in menu order: blobs, anisotropic, moons, circles,
// spirals, xor, curve, uniform, ratings, photo-holes, tiny-text, iris,
// faithful, photo, fashion-mnist, fortunes, gcide. The text corpora (tiny-text,
// fortunes, gcide: algorithms/data/corpora.h) are Datasets with `text` set.
const std::vector<DatasetInfo>& builtin_datasets();

// The options a built-in dataset was made with, aligned with info.options (the
// defaults where the dataset does not record one): read from its canonical
// source "NAME:key=value,...", or for Fashion-MNIST from "Fashion-MNIST test,
// first N rows". The data panel shows them after a load.
std::vector<double> dataset_option_values(const DatasetInfo& info, const Dataset& d);

// Builds a dataset from a spec "NAME" or "NAME:key=value,key=value", e.g.
// "blobs:n=100000,centers=5,noise=0.6,seed=3" or "fashion-mnist:split=test,n=5000".
// scikit-learn spellings are accepted as aliases (n_samples, n_features,
// cluster_std, random_state). Throws DataError (unknown name listing the known
// ones; unknown option listing the valid ones; bad or out-of-range value with
// the range).
std::shared_ptr<const Dataset> make_dataset(const std::string& spec);

// How a ratings file lays out a partially observed matrix (LoadOptions::ratings).
enum class RatingsLayout {
  Table,     // not ratings: a feature table (load_file's usual detection)
  Triplets,  // one observed entry per line: user,item,rating[,ignored...]
  Wide,      // a matrix with empty cells (or NA, NaN, ?) for the missing entries
  Guess,     // wide when the first records have an empty cell or not 3-4 fields, else triplets
};

// Limits for load_file (tests lower them), and how to read text.
struct LoadOptions {
  size_t max_line_bytes = size_t(64) << 20;  // longest accepted text line
  size_t max_file_bytes = size_t(4) << 30;   // most bytes read (after gunzip)
  // Triplets/Wide: the text is a partially observed matrix (the completion
  // module asks for one; `cilab run --layout wide`): load_file then returns a
  // Dataset with `observed` set (algorithms/data/ratings.h).
  RatingsLayout ratings = RatingsLayout::Table;
  // The file (or folder) is text for a text module (plsa, word2vec, glove):
  // load_file then returns a Dataset with `text` set (algorithms/data/corpora.h:
  // a folder of .txt files, or one file split on blank lines).
  bool text = false;
};

// Loads a user file; the format is detected from the content: gzip magic ->
// gunzip then detect; IDX magic 0x0000080T -> IDX; otherwise CSV/TSV text
// (comma, semicolon or tab; optional header; label column detected).
// An IDX images file "*-images-idx3-ubyte*" is paired with a sibling
// "*-labels-idx1-ubyte*" when one exists. IDX values are kept raw (not scaled).
// A folder is an image set in torchvision's ImageFolder layout (image_loader.h:
// load_image_folder). With LoadOptions::text, `path` is text instead (load_text: a
// folder of .txt files or one file split on blank lines). Throws DataError.
std::shared_ptr<const Dataset> load_file(const std::string& path, const LoadOptions& opts = {});

// Fashion-MNIST from Debian's dataset-fashion-mnist package
// (/usr/share/datasets/fashion-mnist, or env CILAB_FASHION_MNIST_DIR).
// split "train" (60000 x 784) or "test" (10000 x 784); pixels scaled to [0,1];
// labels 0..9 with the 10 class names; 28 x 28 images; n > 0 keeps the first
// n rows. Throws DataError (missing package: says how to install it).
std::shared_ptr<const Dataset> load_fashion_mnist(const std::string& split, int n = -1);

// Path of a shipped asset (iris.csv, faithful.csv, camera.png, stopwords-en.txt,
// presets/): the file in the folder pick_asset_dir chooses for this process
// (/proc/self/exe), env CILAB_ASSET_DIR and the compile-time CILAB_ASSET_DIR.
// Every asset lookup goes through here (datasets, the photograph, stop words,
// the shipped presets).
std::string asset_path(const std::string& file);

// The assets folder, first match wins:
//   1. env_dir (env CILAB_ASSET_DIR) when set and not empty, as it is;
//   2. <exe dir>/../share/cilab/assets when it is a folder: the installed layout
//      (make install, the Debian package), so an installed binary uses its own
//      assets even when the source tree it was built from still exists or is gone;
//   3. compiled_dir (the source tree's assets/, compiled into datasets.cpp) when it
//      is a folder: the binary in build/ and the tests;
//   4. <exe dir>/../assets (a copied tree), or "assets" when exe_path is empty.
std::string pick_asset_dir(const char* env_dir, const std::string& exe_path, const std::string& compiled_dir);

// A copy of `d` with the point (x, y) appended (label -1 = unlabelled). `d`
// must have 2 columns, or be empty with 0 columns (becomes 2-D). Throws DataError.
std::shared_ptr<const Dataset> with_point_added(const Dataset& d, double x, double y,
                                                int label = -1);

// A copy of `d` without row `row`. Throws DataError when row is out of range.
std::shared_ptr<const Dataset> with_point_removed(const Dataset& d, int row);

// Index of the row nearest to (x, y) in columns (col_x, col_y); -1 if `d` is
// empty. Throws DataError when a column index is out of range.
int nearest_row(const Dataset& d, double x, double y, int col_x = 0, int col_y = 1);
// Whether points can be clicked in: 2-D data (or an empty canvas), or 1-D data
// with a regression target (a point is then (x, target)).
bool points_editable(const Dataset& d);
// The row nearest to a clicked (x, y): nearest_row on 2-D data, nearest in
// (x, target) on 1-D regression data; -1 if none.
int nearest_point(const Dataset& d, double x, double y);

// A one-line description for status bars: "iris: 150 x 4, 3 classes".
std::string describe(const Dataset& d);

}  // namespace cilab
