// The data a representation-learning module trains on (autoencoder, vae):
// every feature column of a dataset as float rows, split into a training and
// a test set, optionally standardised. Labels are carried along for colouring
// (-1 = none); they are never trained on.
//
//   - Split: round(test_fraction * n) rows, chosen by a seeded shuffle, form
//     the test set (scikit-learn's train_test_split(test_size, shuffle=True));
//     each part keeps dataset order. Fashion-MNIST's training split is tested
//     on its own t10k set instead (test_fraction is then unused).
//   - Standardise: z-score every feature with the training rows' mean and
//     standard deviation (StandardScaler, 1/n); image rows are never
//     standardised (they stay in the dataset's [0, 1]).
//
// Shared, immutable, by every clone and snapshot of a run.
#pragma once

#include "algorithms/core/dataset.h"
#include "algorithms/nn/layers.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct TrainData {
  int d = 0;                            // features
  nn::Mat<float> x_train, x_test;       // rows as trained on (standardised if asked)
  std::vector<int> y_train, y_test;     // class ids, -1 = unlabelled
  std::vector<int> train_rows, test_rows;  // source dataset rows (-1: a t10k row)
  Eigen::RowVectorXd mean, scale;       // x_used = (x - mean) / scale (0 and 1 when not standardised)
  bool standardized = false;
  std::vector<std::string> class_names; // one per class id (may be empty: no labels)
  std::vector<std::string> feature_names;
  int image_h = 0, image_w = 0;         // > 0: rows are images
  bool own_test_set = false;            // Fashion-MNIST's t10k
  float min_value = 0, max_value = 0;   // range of x_train and x_test as trained on
  std::string what;                     // "fashion-mnist: 60000 train / 10000 t10k test rows, 784 features"

  int n_train() const { return static_cast<int>(x_train.rows()); }
  int n_test() const { return static_cast<int>(x_test.rows()); }
  int num_classes() const { return static_cast<int>(class_names.size()); }
  bool is_image() const { return image_h > 0; }
  // Back from the trained-on space to the dataset's units (one row of d values).
  void unstandardise(const float* z, double* out) const;
};

struct TrainDataOptions {
  double test_fraction = 0.2;
  bool standardize = false;
  uint64_t seed = 0;
  std::string module;  // prefixes error messages ("vae")
};

// Builds the split (throws std::invalid_argument naming the parameter and the
// fix when no training row is left).
std::shared_ptr<const TrainData> make_train_data(const Dataset& data, const TrainDataOptions& opts);

}  // namespace cilab
