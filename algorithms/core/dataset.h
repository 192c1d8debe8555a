// Dataset: the one data type every module consumes.
//
// Samples are rows: `x` is n x d (n samples, d features), double precision.
// Labels are optional (empty, or one integer class id per row, -1 = unlabelled);
// `class_names[c]` names class c when known. Image rows (e.g. Fashion-MNIST)
// carry their shape (image_h x image_w == d, row-major pixels). A regression
// target is optional too: one real value per row (`target`, named
// `target_name`), kept out of the features.
//
// A partially observed matrix (ratings, a photo with holes) is a Dataset whose
// `observed` is set (algorithms/core/observed_matrix.h); `x` then lists the
// observed entries as rows (row, col, value).
//
// A text corpus (fortunes, GCIDE, the user's own documents) is a Dataset whose
// `text` is set (algorithms/core/text_corpus.h); `x` is then empty (0 x 0) and
// modules that read features refuse it with a message naming the text modules.
#pragma once

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct ObservedMatrix;
struct TextCorpus;

struct Dataset {
  Eigen::MatrixXd x;                      // n x d features, samples in rows
  std::vector<int> labels;                // empty or size n; -1 = no label
  std::vector<std::string> class_names;   // class id -> name (may be empty)
  std::vector<std::string> column_names;  // size d (generated "x0".. if unnamed)
  std::vector<double> target;             // empty or size n: regression target
  std::string target_name;                // its column name ("y", "target", ...)
  int image_h = 0;                        // > 0 when rows are images
  int image_w = 0;
  std::string name;    // short name: "blobs", "iris", "fashion-mnist", file stem
  std::string source;  // human description: generator + options, or the file path
  std::shared_ptr<const ObservedMatrix> observed;  // set for a partially observed matrix
  std::shared_ptr<const TextCorpus> text;          // set for a text corpus

  int rows() const { return static_cast<int>(x.rows()); }
  int cols() const { return static_cast<int>(x.cols()); }
  bool has_labels() const { return !labels.empty(); }
  bool has_target() const { return !target.empty(); }
  bool is_image() const { return image_h > 0 && image_w > 0; }
  bool is_partial() const { return observed != nullptr; }
  bool is_text() const { return text != nullptr; }
  // Number of classes: max(label) + 1, or class_names.size() if larger.
  int num_classes() const;
};

// Checks the data a module is about to use: throws std::invalid_argument,
// prefixed with `module`, for a missing dataset, an empty one, or the first
// non-finite value (naming its row and column) - each with what to try.
void require_usable_data(const Dataset* data, const std::string& module);

}  // namespace cilab
