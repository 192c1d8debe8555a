// The mlp module: see mlp.h for the model, the data handling and the sub-steps.
#include "algorithms/networks/mlp.h"
#include "algorithms/networks/supervised.h"
#include "algorithms/nn/trainer_impl.h"

#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/train_checks.h"
#include "algorithms/nn/train_params.h"
#include "algorithms/nn/trainer_state.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace cilab {

using nn::Mat;

namespace {

const ParamTable<Mlp::Params>& param_table() {
  using P = Mlp::Params;
  static const ParamTable<P> kTable = {
      IntList("layers", &P::layers, 1, 4096)
          .max_items(8)
          .help("hidden layer widths, input to output (scikit-learn: hidden_layer_sizes), e.g. 64,32; "
                "changing it restarts the run")
          .formula("x -> Linear(h_1) -> act -> ... -> Linear(h_L) -> act -> Linear(outputs)"),
      activation_param(&P::activation, "activation of every hidden layer (torch.nn names and constants)"),
      init_param(&P::init, InitHelp::Formulas),
      Bool("batch_norm", &P::batch_norm)
          .help("batch normalisation after each hidden Linear, before the activation (torch.nn.BatchNorm1d: "
                "batch statistics in training, running averages in evaluation)")
          .formula("y = gamma (z - mean_B) / sqrt(var_B + 1e-5) + beta"),
      Real("dropout", &P::dropout, 0, 0.9)
          .help("probability of zeroing a hidden unit in training (torch.nn.Dropout, inverted: kept units "
                "scaled by 1/(1-p)); 0 = none")
          .formula("h = m * a / (1 - p), m ~ Bernoulli(1 - p)"),
      batch_param(&P::batch, "mini-batch size (scikit-learn: batch_size; torch DataLoader batch_size); at most the "
                             "training set's rows")
          .formula("theta <- theta - lr * grad (1/B) sum_{i in batch} loss_i"),
      test_fraction_param(&P::test_fraction),
      standardize_param(&P::standardize, "z-score the features with the training set's mean and standard deviation "
                                         "(scikit-learn StandardScaler; images stay in [0, 1]); a regression target "
                                         "is z-scored too"),
      Choice("task", &P::task, {"auto", "classification", "regression"})
          .choice_help({"classification when the rows have class labels, else regression on the target column",
                        "softmax cross-entropy over the classes (torch.nn.CrossEntropyLoss)",
                        "one output, mean squared error on the target column (torch.nn.MSELoss)"})
          .help("what the network predicts"),
      max_epochs_param(&P::max_epochs),
      optimizer_rows(&P::optim, &P::schedule,
                     {"the optimizer stepping every weight (torch.optim class; the playground's default is Adam)",
                      "learning rate (torch: lr; the playground's default 0.01, torch's Adam default 0.001)",
                      "L2 penalty added to the gradient, g += wd theta (torch weight_decay; scikit-learn: alpha); "
                      "AdamW: decoupled theta *= 1 - lr wd",
                      kPerUpdateScheduleHelp}),
  };
  return kTable;
}

const MetricTable& metrics_for(bool regression) {
  static const MetricTable kClassification = {
      {Mlp::kMetricLoss, "loss", "mini-batch loss of this step: softmax cross-entropy (1/B) sum -log p(y_i | x_i)", true},
      {Mlp::kMetricTrainLoss, "train_loss", "mean mini-batch loss over the last completed epoch (epoch 0: the initial network on the training set)", true},
      {Mlp::kMetricTestLoss, "test_loss", "cross-entropy on the test set at the end of the last epoch (eval mode)", true},
      {Mlp::kMetricTestScore, "test_accuracy", "share of test rows whose argmax_k p(k | x) is the true class (end of the last epoch)", false},
      {Mlp::kMetricTrainScore, "train_accuracy", "share of the last epoch's training rows classified correctly as their batch was trained (train mode)", false},
      {Mlp::kMetricGradNorm, "grad_norm", "||dL/dtheta|| of this step's mini-batch (before the update)", true},
      {Mlp::kMetricLr, "lr", "learning rate of this step's update (after the schedule)", true},
  };
  static const MetricTable kRegression = {
      {Mlp::kMetricLoss, "loss", "mini-batch mean squared error of this step, in the target's units", true},
      {Mlp::kMetricTrainLoss, "train_loss", "mean mini-batch MSE over the last completed epoch (epoch 0: the initial network on the training set)", true},
      {Mlp::kMetricTestLoss, "test_loss", "MSE on the test set at the end of the last epoch (eval mode)", true},
      {Mlp::kMetricTestScore, "test_r2", "R^2 = 1 - SS_res / SS_tot on the test set (1 = perfect, 0 = the mean's prediction)", false},
      {Mlp::kMetricTrainScore, "train_r2", "R^2 of the last epoch's mini-batch predictions (train mode)", false},
      {Mlp::kMetricGradNorm, "grad_norm", "||dL/dtheta|| of this step's mini-batch (before the update)", true},
      {Mlp::kMetricLr, "lr", "learning rate of this step's update (after the schedule)", true},
  };
  return regression ? kRegression : kClassification;
}

ModuleInfo make_info(bool regression) {
  ModuleInfo m;
  m.name = "mlp";
  m.title = "Multi-layer perceptron playground";
  m.chapter = "Neural networks";
  m.summary =
      "Train a small neural network live: 2-D classification (moons, circles, spirals, xor, blobs, points you "
      "draw), 1-D regression curves, any labelled CSV, or Fashion-MNIST (784-256-128-10 trains in seconds per "
      "epoch). Decision boundary, fitted curve, neuron pictures, the network graph, loss and accuracy per "
      "epoch, confusion matrix and misclassified images. Step by forward / backward / update.";
  m.metrics = metrics_for(regression).infos();
  m.sub_steps = {"forward", "backward", "update"};
  m.default_dataset = "moons:n=300,noise=0.2";
  m.default_cli_steps = 200;
  m.epoch_columns = {"train_loss", "test_loss", regression ? "test_r2" : "test_accuracy"};
  return m;
}

std::string join_widths(int d, const std::vector<int>& layers, int out) {
  std::string s = std::to_string(d);
  for (int h : layers) s += "-" + std::to_string(h);
  return s + "-" + std::to_string(out);
}
}  // namespace

const MetricTable& Mlp::metric_table(bool regression) { return metrics_for(regression); }

OptimizerConfig Mlp::Params::default_optimizer() { return playground_optimizer(); }

// The shared supervised trainer (supervised.h) under mlp's name.
struct Mlp::State : SupervisedState<Mlp::Params> {
  State() : SupervisedState("mlp") {}
};

nn::Sequential<float> Mlp::make_network(const Params& p, int d, int outputs, uint64_t seed) {
  nn::Sequential<float> net;
  for (size_t l = 0; l < p.layers.size(); ++l) {
    net.add(nn::make_linear<float>(p.layers[l]));
    if (p.batch_norm) net.add(nn::make_batch_norm<float>());
    net.add(nn::make_activation<float>(p.activation));
    if (p.dropout > 0) net.add(nn::make_dropout<float>(p.dropout, seed + 1000003ULL * (l + 1)));
  }
  net.add(nn::make_linear<float>(outputs));
  net.build(d);
  return net;
}
// ---------------------------------------------------------------- module


const ModuleInfo& Mlp::info() const {
  static const ModuleInfo kClassification = make_info(false);
  static const ModuleInfo kRegression = make_info(true);
  return st_->problem && st_->problem->regression ? kRegression : kClassification;
}

const ParamTable<Mlp::Params>& module_params(const Mlp*) { return param_table(); }

Mlp::Params Mlp::params_from(const ParamValues& values) { return param_table().read(values); }

const nn::Sequential<float>& Mlp::network() const { return st_->net; }

void Mlp::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  require_usable_data(data.get(), "mlp");
  checked_group_config(p.optim);
  auto s = new_state<State>(p, seed);
  s->problem = make_supervised_problem(*data, p, seed, "mlp", false);
  const MlpProblem& pr = *s->problem;
  // Size check before allocating: weights, gradients and up to 3 optimizer buffers.
  double n_params = 0;
  int fan_in = pr.d;
  for (int h : p.layers) {
    n_params += static_cast<double>(fan_in + 1) * h + (p.batch_norm ? 2.0 * h : 0.0);
    fan_in = h;
  }
  n_params += static_cast<double>(fan_in + 1) * pr.outputs;
  check_network_size("mlp", n_params, p.layers, kMaxNetworkBytes);
  std::ostringstream arch;
  arch << join_widths(pr.d, p.layers, pr.outputs) << " " << nn::activation_name(p.activation);
  if (p.batch_norm) arch << " + batch norm";
  if (p.dropout > 0) arch << " + dropout " << fmt_g(p.dropout);
  s->start([&](const MlpProblem& q) { return make_network(p, q.d, q.outputs, seed); }, arch.str());
  st_ = std::move(s);
}

size_t Mlp::state_bytes() const { return st_->bytes(); }

std::shared_ptr<const Snapshot> Mlp::snapshot() const { return mlp_snapshot(); }
std::shared_ptr<const MlpSnapshot> Mlp::mlp_snapshot() const {
  const bool regression = st_->problem && st_->problem->regression;
  return st_->snapshot(metrics_for(regression));
}

CILAB_TRAINER_STATE(Mlp)

}  // namespace cilab
