// The multi-layer perceptron playground (course chapters 9 and 11), on the
// network library (algorithms/nn/) and the shared optimizers (algorithms/optim/).
//
// Network: for hidden widths layers = h_1,...,h_L (IntList, e.g. "64,32"):
//   x -> [Linear(h_l) -> BatchNorm1d? -> act -> Dropout(p)?] x L -> Linear(out)
// with out = number of classes (classification: softmax cross-entropy, torch's
// nn.CrossEntropyLoss) or 1 (regression: MSE, nn.MSELoss). Initialisation
// torch (nn.Linear's default U(+-1/sqrt(fan_in))), glorot or he.
//
// Data (mlp reads any labelled dataset; task=auto picks classification when
// the rows have class labels, regression when they have a target column):
//   - a seeded train/test split: round(test_fraction * n) rows go to the test
//     set (scikit-learn's train_test_split(test_size, shuffle=True)), except
//     Fashion-MNIST's training split, which is tested on its own t10k set;
//   - standardize: features z-scored with the training set's mean and
//     standard deviation (StandardScaler; image rows are kept as loaded, in
//     [0, 1]); a regression target is z-scored too and every reported loss
//     is converted back to the target's units (MSE * sd^2);
//   - rows whose label is -1 (unlabelled, e.g. drawn without a class) are
//     left out of a classification.
//
// One iteration = one optimizer step on one mini-batch (a seeded permutation
// per epoch, torch's DataLoader(shuffle=True, drop_last=False)). Sub-steps:
//   forward   the batch's outputs and loss (and, computed ahead, the
//             gradients: a clone between sub-steps must behave like the
//             original, and the layers keep pointers into their buffers);
//   backward  the gradients are shown (grad_norm, per-layer norms);
//   update    theta <- optimizer step with lr_t (the schedule at t).
// After the last batch of an epoch the update also evaluates the model (eval
// mode) on the test set: test_loss, test_accuracy (classification) or test_r2
// (regression: R^2 = 1 - SS_res / SS_tot), the confusion matrix. The per-epoch
// columns are `cilab run --epochs N`'s (ModuleInfo::epoch_columns).
//
// The UI never slows training: a step's snapshot holds metrics and shared
// pointers only. The network copy views draw from (MlpSnapshot::net) is taken
// at most every kNetRefreshMs of training time, at the end of every epoch, at
// every sub-step boundary and when the runner stops (settle()); views compute
// their pictures from it off the UI thread. A non-finite loss or weight makes the run Diverged.
#pragma once

#include "algorithms/nn/trainer.h"
#include "algorithms/nn/sequential.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/optim/schedule.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// The data as the network sees it (standardised, split); shared by the
// module, its clones and every snapshot of a run.
struct MlpProblem {
  bool regression = false;
  int d = 0;                     // input features
  int outputs = 0;               // classes, or 1 for regression
  nn::Mat<float> x_train, x_test;        // standardised rows
  std::vector<int> y_train, y_test;      // classification: class ids
  nn::Mat<float> t_train, t_test;        // regression: standardised targets (n x 1)
  std::vector<int> train_rows, test_rows;  // rows of the source dataset (-1: t10k row)
  Eigen::RowVectorXd mean, scale;        // x_std = (x - mean) / scale
  double t_mean = 0, t_scale = 1;        // regression target standardisation
  std::vector<std::string> class_names;  // size outputs (classification)
  std::vector<std::string> feature_names;
  std::string target_name;
  int image_h = 0, image_w = 0;          // > 0: rows are images (thumbnails)
  bool own_test_set = false;             // Fashion-MNIST's t10k
  std::string what;                      // "moons: 240 train / 60 test rows, 2 classes"

  int n_train() const { return static_cast<int>(x_train.rows()); }
  int n_test() const { return static_cast<int>(x_test.rows()); }
  // Standardised features of a point given in the dataset's units.
  void standardise(const double* x, float* out) const;
  // A standardised regression prediction back in the target's units.
  double target_value(double t_std) const { return t_mean + t_scale * t_std; }
};

// One row of the per-epoch log (epoch 0 = the initial network).
struct MlpEpochRow : EpochRow {
  double train_loss = 0;    // mean mini-batch loss over the epoch (epoch 0: full training set)
  double train_score = 0;   // accuracy of the epoch's batches (train mode), or R^2
  double test_loss = 0;     // eval mode over the test set (NaN if there is none)
  double test_score = 0;    // accuracy or R^2 (NaN if there is no test set)
};

// The latest evaluation on the test set (the training set when there is none).
struct MlpEvaluation {
  int epoch = 0;
  bool on_test = true;
  std::vector<int> predicted;        // classification: per evaluated row
  std::vector<float> values;         // regression: predictions (target units)
  std::vector<int> confusion;        // outputs x outputs, row = true class, col = predicted
};

// net (a copy for pictures: eval mode forward on a private copy), epochs,
// architecture ("2-16-16-2 relu"), num_params: EpochSnapshot's (trainer.h).
struct MlpSnapshot : EpochSnapshot<nn::Sequential<float>, MlpEpochRow> {
  std::shared_ptr<const MlpProblem> problem;
  std::shared_ptr<const MlpEvaluation> evaluation;
  std::shared_ptr<const std::vector<int>> batch;  // training rows of the current/last batch
  int batch_index = 0;                    // batch within the epoch (0-based) of that batch
  std::vector<double> layer_grad_norms;   // ||dL/dW_l|| per Linear layer (after backward)
  double lr = 0;                          // the learning rate of the update (schedule)

  size_t byte_size() const override;
  void shared_parts(std::vector<SharedPart>& out) const override;
};

// mlp module. Parameters (scikit-learn's MLPClassifier / PyTorch names where
// they exist): layers (hidden widths), activation, init, batch_norm, dropout,
// batch (batch_size), test_fraction (test_size), standardize, task, max_epochs,
// and the shared optimizer and schedule groups (optimizer, lr, weight_decay,
// ...; the playground's default is Adam with lr 0.01 - torch's default 1e-3
// is a slider away - so small 2-D problems train in seconds).
// Intents: none (architecture edits go through the parameters: they restart).
class Mlp : public Trainer<Mlp> {
 public:
  enum class Task { Auto = 0, Classification = 1, Regression = 2 };

  struct Params {
    std::vector<int> layers = {16, 16};
    nn::Activation activation = nn::Activation::ReLU;
    nn::Init init = nn::Init::Torch;
    bool batch_norm = false;
    double dropout = 0.0;
    int batch = 32;
    double test_fraction = 0.2;
    bool standardize = true;
    Task task = Task::Auto;
    int max_epochs = 1000;
    int train_size = 0;  // > 0: train on that many rows of the shuffled training split (cnn's subset)
    OptimizerConfig optim = default_optimizer();
    ScheduleConfig schedule;

    static OptimizerConfig default_optimizer();
  };

  enum Metric : int {
    kMetricLoss,        // this step's mini-batch loss
    kMetricTrainLoss,   // per epoch
    kMetricTestLoss,    // per epoch
    kMetricTestScore,   // per epoch: test_accuracy or test_r2
    kMetricTrainScore,  // per epoch: train_accuracy or train_r2
    kMetricGradNorm,    // ||grad|| of this step
    kMetricLr,          // learning rate of this step's update
    kNumMetrics
  };

  // Most weights + optimizer state a run may hold (bytes): a bigger network
  // is refused at reset, naming `layers`.
  static constexpr double kMaxNetworkBytes = 1024.0 * 1024 * 1024;
  // The pictures' network copy is refreshed at most this often while playing.
  static constexpr double kNetRefreshMs = 100.0;

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  // Weights, gradients, optimizer state and the batch buffers.
  size_t state_bytes() const override;

  std::shared_ptr<const MlpSnapshot> mlp_snapshot() const;
  static Params params_from(const ParamValues& values);
  // The metrics of a classification or a regression run (cnn reports the classification's).
  static const MetricTable& metric_table(bool regression);
  // The trained network itself (tests: bit-identity across runs and threads).
  const nn::Sequential<float>& network() const;

  // Builds the network of `p` for d inputs and `outputs` outputs (unbound
  // weights until init; views and tests rebuild the same shape with it).
  static nn::Sequential<float> make_network(const Params& p, int d, int outputs, uint64_t seed);

 private:
  friend class Trainer<Mlp>;  // it steps the State
  struct State;
  StatePtr<State> st_;
};

CILAB_TRAINER_EXTERN(Mlp)

}  // namespace cilab
