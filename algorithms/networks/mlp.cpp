// The mlp module: see mlp.h for the model, the data handling and the sub-steps.
#include "algorithms/networks/mlp.h"
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

const MetricTable& metric_table(bool regression) {
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
  m.metrics = metric_table(regression).infos();
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

// Fisher-Yates shuffle of 0..n-1 with the given generator.
std::vector<int> permutation(int n, Rng& rng) {
  std::vector<int> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(p[static_cast<size_t>(i)], p[rng.below(static_cast<uint64_t>(i) + 1)]);
  return p;
}

bool is_fashion_train(const Dataset& d) {
  return d.name == "fashion-mnist" && d.source.rfind("Fashion-MNIST train", 0) == 0;
}

// Builds the standardised, split problem (throws std::invalid_argument naming what to change).
std::shared_ptr<const MlpProblem> make_problem(const Dataset& data, const Mlp::Params& p, uint64_t seed) {
  auto pr = std::make_shared<MlpProblem>();
  bool has_class = false;
  for (int l : data.labels) has_class = has_class || l >= 0;
  switch (p.task) {
    case Mlp::Task::Auto:
      if (has_class) pr->regression = false;
      else if (data.has_target()) pr->regression = true;
      else
        throw std::invalid_argument("mlp: dataset '" + data.name +
                                    "' has neither class labels nor a target column; try a labelled dataset "
                                    "(moons, spirals, a CSV with a 'label' column) or a regression curve (curve)");
      break;
    case Mlp::Task::Classification:
      if (!has_class)
        throw std::invalid_argument("mlp: parameter 'task' = classification needs class labels, but dataset '" +
                                    data.name + "' has none; try a labelled dataset (a CSV with a 'label' "
                                    "column) or task=regression");
      pr->regression = false;
      break;
    case Mlp::Task::Regression:
      if (!data.has_target())
        throw std::invalid_argument("mlp: parameter 'task' = regression needs a target column, but dataset '" +
                                    data.name + "' has none; try the curve dataset, a CSV with a numeric "
                                    "'target' column, or task=classification");
      pr->regression = true;
      break;
  }
  // Features: every column but a regression target kept as a feature.
  std::vector<int> cols;
  for (int j = 0; j < data.cols(); ++j) {
    const bool is_target = pr->regression && !data.target_name.empty() &&
                           j < static_cast<int>(data.column_names.size()) &&
                           data.column_names[static_cast<size_t>(j)] == data.target_name;
    if (!is_target) cols.push_back(j);
  }
  if (cols.empty())
    throw std::invalid_argument("mlp: dataset '" + data.name + "' has no feature column besides the target; "
                                "try a dataset with inputs");
  pr->d = static_cast<int>(cols.size());
  for (int j : cols)
    pr->feature_names.push_back(j < static_cast<int>(data.column_names.size())
                                    ? data.column_names[static_cast<size_t>(j)]
                                    : "x" + std::to_string(j));
  pr->target_name = data.target_name.empty() ? std::string("y") : data.target_name;
  if (data.is_image() && pr->d == data.cols()) {
    pr->image_h = data.image_h;
    pr->image_w = data.image_w;
  }

  // Usable rows (a classification leaves unlabelled rows out).
  std::vector<int> usable;
  for (int i = 0; i < data.rows(); ++i)
    if (pr->regression || data.labels[static_cast<size_t>(i)] >= 0) usable.push_back(i);
  std::shared_ptr<const Dataset> t10k;
  if (is_fashion_train(data)) {
    t10k = load_fashion_mnist("test");
    pr->own_test_set = true;
  }
  Rng rng(seed ^ 0x5eed5eedULL);
  std::vector<int> order = permutation(static_cast<int>(usable.size()), rng);
  const int n_usable = static_cast<int>(usable.size());
  const int n_test = pr->own_test_set ? 0 : static_cast<int>(std::lround(p.test_fraction * n_usable));
  if (n_usable - n_test < 1)
    throw std::invalid_argument("mlp: no training rows left (" + std::to_string(n_usable) + " usable rows, test_fraction = " +
                                fmt_g(p.test_fraction) + "); try a larger dataset or a smaller test_fraction");
  // The test rows first in the shuffled order, then the training rows, each kept in dataset order.
  std::vector<int> test(order.begin(), order.begin() + n_test), train(order.begin() + n_test, order.end());
  std::sort(test.begin(), test.end());
  std::sort(train.begin(), train.end());
  for (int& i : test) i = usable[static_cast<size_t>(i)];
  for (int& i : train) i = usable[static_cast<size_t>(i)];
  pr->train_rows = train;
  pr->test_rows = test;

  // Classes: ids as in the dataset (0..k-1), at least 2.
  if (!pr->regression) {
    int k = 0;
    for (int i : usable) k = std::max(k, data.labels[static_cast<size_t>(i)] + 1);
    k = std::max(k, static_cast<int>(data.class_names.size()));
    if (t10k) k = std::max(k, t10k->num_classes());
    std::vector<int> seen(static_cast<size_t>(k), 0);
    for (int i : train) seen[static_cast<size_t>(data.labels[static_cast<size_t>(i)])] = 1;
    if (std::accumulate(seen.begin(), seen.end(), 0) < 2)
      throw std::invalid_argument("mlp: the training rows of '" + data.name +
                                  "' hold fewer than 2 classes; try adding points of another class or a "
                                  "smaller test_fraction");
    pr->outputs = k;
    for (int c = 0; c < k; ++c)
      pr->class_names.push_back(c < static_cast<int>(data.class_names.size()) ? data.class_names[static_cast<size_t>(c)]
                                                                            : "class " + std::to_string(c));
  } else {
    pr->outputs = 1;
  }

  // Standardisation from the training rows.
  pr->mean = Eigen::RowVectorXd::Zero(pr->d);
  pr->scale = Eigen::RowVectorXd::Ones(pr->d);
  if (p.standardize && !pr->image_h) {
    for (int c = 0; c < pr->d; ++c) {
      double s = 0, s2 = 0;
      for (int i : train) s += data.x(i, cols[static_cast<size_t>(c)]);
      const double m = s / static_cast<double>(train.size());
      for (int i : train) {
        const double v = data.x(i, cols[static_cast<size_t>(c)]) - m;
        s2 += v * v;
      }
      const double sd = std::sqrt(s2 / static_cast<double>(train.size()));
      pr->mean(c) = m;
      pr->scale(c) = sd > 1e-12 * std::max(1.0, std::fabs(m)) ? sd : 1.0;
    }
  }
  auto fill = [&](const Dataset& src, const std::vector<int>& rows, Mat<float>& x, std::vector<int>* y,
                  Mat<float>* t) {
    x.resize(static_cast<Eigen::Index>(rows.size()), pr->d);
    for (size_t r = 0; r < rows.size(); ++r) {
      for (int c = 0; c < pr->d; ++c)
        x(static_cast<Eigen::Index>(r), c) =
            static_cast<float>((src.x(rows[r], cols[static_cast<size_t>(c)]) - pr->mean(c)) / pr->scale(c));
      if (y) y->push_back(src.labels[static_cast<size_t>(rows[r])]);
    }
    if (t) {
      t->resize(static_cast<Eigen::Index>(rows.size()), 1);
      for (size_t r = 0; r < rows.size(); ++r)
        (*t)(static_cast<Eigen::Index>(r), 0) =
            static_cast<float>((src.target[static_cast<size_t>(rows[r])] - pr->t_mean) / pr->t_scale);
    }
  };
  if (pr->regression && p.standardize) {
    double s = 0, s2 = 0;
    for (int i : train) s += data.target[static_cast<size_t>(i)];
    pr->t_mean = s / static_cast<double>(train.size());
    for (int i : train) s2 += (data.target[static_cast<size_t>(i)] - pr->t_mean) * (data.target[static_cast<size_t>(i)] - pr->t_mean);
    const double sd = std::sqrt(s2 / static_cast<double>(train.size()));
    pr->t_scale = sd > 1e-12 * std::max(1.0, std::fabs(pr->t_mean)) ? sd : 1.0;
  }
  fill(data, train, pr->x_train, pr->regression ? nullptr : &pr->y_train, pr->regression ? &pr->t_train : nullptr);
  if (t10k) {
    std::vector<int> all(static_cast<size_t>(t10k->rows()));
    std::iota(all.begin(), all.end(), 0);
    if (t10k->cols() != data.cols())
      throw std::invalid_argument("mlp: Fashion-MNIST's t10k set has " + std::to_string(t10k->cols()) +
                                  " columns, the training set " + std::to_string(data.cols()) + "; reinstall dataset-fashion-mnist");
    fill(*t10k, all, pr->x_test, &pr->y_test, nullptr);
    pr->test_rows.assign(all.size(), -1);
  } else {
    fill(data, test, pr->x_test, pr->regression ? nullptr : &pr->y_test, pr->regression ? &pr->t_test : nullptr);
  }
  std::ostringstream what;
  what << data.name << ": " << pr->n_train() << " train / " << pr->n_test() << (pr->own_test_set ? " t10k" : "")
       << " test rows, " << pr->d << " features, ";
  if (pr->regression) what << "regression on '" << pr->target_name << "'";
  else what << pr->outputs << " classes";
  pr->what = what.str();
  return pr;
}

// R^2 = 1 - SS_res / SS_tot (NaN when the targets are constant or there are none).
double r_squared(double ss_res, double sum, double sum2, double n) {
  if (n <= 0) return std::nan("");
  const double ss_tot = sum2 - sum * sum / n;
  return ss_tot > 0 ? 1.0 - ss_res / ss_tot : std::nan("");
}

}  // namespace

void MlpProblem::standardise(const double* x, float* out) const {
  for (int c = 0; c < d; ++c) out[c] = static_cast<float>((x[c] - mean(c)) / scale(c));
}

size_t MlpSnapshot::byte_size() const {
  // The network copy, the evaluation and the batch are shared by the snapshots of
  // ~100 ms (of an epoch): shared_parts(), counted once by the history budget. The
  // problem (the data) is the run's, not the history's.
  return Snapshot::byte_size() + sizeof(*this) + layer_grad_norms.size() * sizeof(double) + architecture.size();
}

void MlpSnapshot::shared_parts(std::vector<SharedPart>& out) const {
  if (net) out.push_back({net.get(), 2 * net->num_params() * sizeof(float)});  // params and grads
  if (evaluation)
    out.push_back({evaluation.get(), (evaluation->predicted.size() + evaluation->confusion.size()) * sizeof(int) +
                                         evaluation->values.size() * sizeof(float)});
  if (batch) out.push_back({batch.get(), batch->size() * sizeof(int)});
  if (epochs) out.push_back({epochs.get(), epochs->size() * sizeof(MlpEpochRow)});
}

OptimizerConfig Mlp::Params::default_optimizer() { return playground_optimizer(); }

// ---------------------------------------------------------------- state

// p, seed, ready, net, loop, net_copy, architecture, cache, batcher, last_lr and
// the epoch log: EpochTrainerState's (trainer_state.h).
struct Mlp::State : EpochTrainerState<Params, nn::Sequential<float>, MlpEpochRow, MlpSnapshot> {
  std::shared_ptr<const MlpProblem> problem;
  Optimizer opt;

  // The batch in flight (forward done, update pending).
  Mat<float> xb, tb, dout;
  std::vector<int> yb;
  std::shared_ptr<const std::vector<int>> batch;
  int batch_index = 0;
  double batch_loss = std::nan("");
  double grad_norm = std::nan("");
  std::vector<double> layer_grad_norms;

  // The epoch in progress.
  double epoch_loss_sum = 0;
  int epoch_seen = 0;
  int epoch_correct = 0;
  double epoch_ss_res = 0, epoch_t_sum = 0, epoch_t_sum2 = 0;

  std::shared_ptr<const MlpEvaluation> evaluation;

  State() : EpochTrainerState(Mlp::kNetRefreshMs) {}
  // Trainer's live-change hook (trainer.h): the optimizer takes the new settings
  // (validating them).
  void live_changed(const Params& next) { opt.set_config(group_config(next.optim)); }

  double loss_scale() const { return problem->regression ? problem->t_scale * problem->t_scale : 1.0; }
  void forward_half() override;
  void update_half() override;
  void end_epoch();
  MlpEpochRow evaluate_initial();
  void evaluate(const Mat<float>& x, const std::vector<int>& y, const Mat<float>& t, double* loss, double* score,
                MlpEvaluation* ev);
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

// Evaluates the network in eval mode on (x, y | t), in chunks: mean loss and
// accuracy / R^2; fills ev's predictions and confusion matrix when given.
void Mlp::State::evaluate(const Mat<float>& x, const std::vector<int>& y, const Mat<float>& t, double* loss,
                          double* score, MlpEvaluation* ev) {
  const int n = static_cast<int>(x.rows());
  if (n == 0) {
    *loss = *score = std::nan("");
    return;
  }
  const MlpProblem& pr = *problem;
  double loss_sum = 0, ss_res = 0, t_sum = 0, t_sum2 = 0;
  int correct = 0;
  if (ev && !pr.regression) ev->confusion.assign(static_cast<size_t>(pr.outputs * pr.outputs), 0);
  nn::for_each_chunk(x, [&](const Mat<float>& chunk, int r0) {
    const int m = static_cast<int>(chunk.rows());
    const Mat<float>& out = net.forward(chunk, false);
    if (pr.regression) {
      Mat<float> tc = t.middleRows(r0, m);
      loss_sum += nn::mse_loss<float>(out, tc, nullptr) * m;
      for (int i = 0; i < m; ++i) {
        const double e = static_cast<double>(out(i, 0)) - tc(i, 0);
        ss_res += e * e;
        t_sum += tc(i, 0);
        t_sum2 += static_cast<double>(tc(i, 0)) * tc(i, 0);
        if (ev) ev->values.push_back(static_cast<float>(pr.target_value(out(i, 0))));
      }
    } else {
      std::vector<int> yc(y.begin() + r0, y.begin() + r0 + m);
      loss_sum += nn::softmax_cross_entropy<float>(out, yc, nullptr) * m;
      for (int i = 0; i < m; ++i) {
        Eigen::Index k = 0;
        out.row(i).maxCoeff(&k);
        correct += static_cast<int>(k) == yc[static_cast<size_t>(i)];
        if (ev) {
          ev->predicted.push_back(static_cast<int>(k));
          ev->confusion[static_cast<size_t>(yc[static_cast<size_t>(i)] * pr.outputs + static_cast<int>(k))]++;
        }
      }
    }
  });
  *loss = loss_sum / n * loss_scale();
  *score = pr.regression ? r_squared(ss_res, t_sum, t_sum2, n) : static_cast<double>(correct) / n;
}

MlpEpochRow Mlp::State::evaluate_initial() {
  MlpEpochRow row;
  const MlpProblem& pr = *problem;
  double loss = 0, score = 0;
  evaluate(pr.x_train, pr.y_train, pr.t_train, &loss, &score, nullptr);
  row.train_loss = loss;
  row.train_score = score;
  auto ev = std::make_shared<MlpEvaluation>();
  const bool on_test = pr.n_test() > 0;
  ev->on_test = on_test;
  if (on_test) {
    evaluate(pr.x_test, pr.y_test, pr.t_test, &row.test_loss, &row.test_score, ev.get());
  } else {
    row.test_loss = row.test_score = std::nan("");
    evaluate(pr.x_train, pr.y_train, pr.t_train, &loss, &score, ev.get());
  }
  evaluation = ev;
  return row;
}

// Forward (and, ahead, backward) of the next mini-batch.
void Mlp::State::forward_half() {
  const MlpProblem& pr = *problem;
  batch_index = batcher->position() / batcher->batch_size();
  const std::vector<int>& idx = batcher->next();
  batch = std::make_shared<const std::vector<int>>(idx);
  nn::Batcher::gather(pr.x_train, idx, xb);
  const Mat<float>& out = net.forward(xb, true);
  const int b = static_cast<int>(idx.size());
  if (pr.regression) {
    nn::Batcher::gather(pr.t_train, idx, tb);
    batch_loss = nn::mse_loss(out, tb, &dout) * loss_scale();
    for (int i = 0; i < b; ++i) {
      const double e = static_cast<double>(out(i, 0)) - tb(i, 0);
      epoch_ss_res += e * e;
      epoch_t_sum += tb(i, 0);
      epoch_t_sum2 += static_cast<double>(tb(i, 0)) * tb(i, 0);
    }
  } else {
    yb.resize(idx.size());
    for (size_t i = 0; i < idx.size(); ++i) yb[i] = pr.y_train[static_cast<size_t>(idx[i])];
    batch_loss = nn::softmax_cross_entropy(out, yb, &dout);
    for (int i = 0; i < b; ++i) {
      Eigen::Index k = 0;
      out.row(i).maxCoeff(&k);
      epoch_correct += static_cast<int>(k) == yb[static_cast<size_t>(i)];
    }
  }
  epoch_loss_sum += batch_loss * b;
  epoch_seen += b;
  net.zero_grad();
  net.backward(dout);
  const Eigen::Map<const Eigen::VectorXf> g(net.grads(), static_cast<Eigen::Index>(net.num_params()));
  grad_norm = std::sqrt(g.cast<double>().squaredNorm());
  layer_grad_norms.clear();
  for (size_t l = 0; l < net.size(); ++l) {
    if (net.layer(l).name() != "linear") continue;
    const Eigen::Map<const Eigen::VectorXf> gl(net.grads() + net.param_offset(l), net.layer(l).num_params());
    layer_grad_norms.push_back(std::sqrt(gl.cast<double>().squaredNorm()));
  }
  loop.check_forward(batch_loss, std::isfinite(grad_norm), p.optim.lr);
}

void Mlp::State::update_half() {
  last_lr = lr_at(p.schedule, p.optim.lr, loop.iteration);
  opt.step(net.params(), net.grads(), last_lr);
  loop.advance();
  const Eigen::Map<const Eigen::VectorXf> w(net.params(), static_cast<Eigen::Index>(net.num_params()));
  if (!loop.check_update(w.allFinite(), p.optim.lr)) return;
  if (batcher->position() == 0) end_epoch();
}

void Mlp::State::end_epoch() {
  const MlpProblem& pr = *problem;
  MlpEpochRow row = epoch_row();
  row.train_loss = epoch_seen ? epoch_loss_sum / epoch_seen : std::nan("");
  row.train_score = pr.regression ? r_squared(epoch_ss_res, epoch_t_sum, epoch_t_sum2, epoch_seen)
                                  : (epoch_seen ? static_cast<double>(epoch_correct) / epoch_seen : std::nan(""));
  auto ev = std::make_shared<MlpEvaluation>();
  ev->epoch = row.epoch;
  if (pr.n_test() > 0) {
    evaluate(pr.x_test, pr.y_test, pr.t_test, &row.test_loss, &row.test_score, ev.get());
  } else {
    ev->on_test = false;
    row.test_loss = row.test_score = std::nan("");
    double l = 0, s = 0;
    evaluate(pr.x_train, pr.y_train, pr.t_train, &l, &s, ev.get());
  }
  evaluation = ev;
  append_epoch(row);
  epoch_loss_sum = 0;
  epoch_seen = epoch_correct = 0;
  epoch_ss_res = epoch_t_sum = epoch_t_sum2 = 0;
  loop.stop_at_budget(row.epoch, p.max_epochs);
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
  const OptimizerConfig oc = checked_group_config(p.optim);
  auto s = new_state<State>(p, seed);
  s->problem = make_problem(*data, p, seed);
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
  check_batch_fits("mlp", p.batch, pr.n_train(), " after test_fraction = " + fmt_g(p.test_fraction));
  if (p.batch_norm && p.batch < 2)
    throw std::invalid_argument("mlp: parameter 'batch' = 1 with batch_norm: batch statistics need at least 2 "
                                "rows (torch raises the same); try batch >= 2 or batch_norm=false");
  s->net = make_network(p, pr.d, pr.outputs, seed);
  Rng rng(seed);
  s->net.init(rng, p.init);
  s->opt = Optimizer(oc, s->net.num_params());
  s->batcher.emplace(pr.n_train(), p.batch, seed + 1);
  std::ostringstream arch;
  arch << join_widths(pr.d, p.layers, pr.outputs) << " " << nn::activation_name(p.activation);
  if (p.batch_norm) arch << " + batch norm";
  if (p.dropout > 0) arch << " + dropout " << fmt_g(p.dropout);
  s->architecture = arch.str();
  s->log = std::make_shared<const std::vector<MlpEpochRow>>(1, s->evaluate_initial());
  s->last_lr = p.optim.lr;
  s->start();
  st_ = std::move(s);
}

size_t Mlp::state_bytes() const {
  const State& s = *st_;
  if (!s.ready) return sizeof(State);
  // params + grads + up to three optimizer buffers, and the batch in flight.
  return sizeof(State) + 5 * s.net.num_params() * sizeof(float) +
         static_cast<size_t>(s.xb.size() + s.tb.size() + s.dout.size()) * sizeof(float);
}

std::shared_ptr<const Snapshot> Mlp::snapshot() const { return mlp_snapshot(); }

std::shared_ptr<const MlpSnapshot> Mlp::mlp_snapshot() const {
  const State& s = *st_;
  const bool regression = s.problem && s.problem->regression;
  return cached_snapshot(s, metric_table(regression), [&s](MlpSnapshot& out) {
    out.num_params = s.net.num_params();
    out.problem = s.problem;
    out.evaluation = s.evaluation;
    out.batch = s.batch;
    out.batch_index = s.batch_index;
    if (s.loop.phase != 1) out.layer_grad_norms = s.layer_grad_norms;
    out.lr = s.last_lr;
    const MlpEpochRow& last = s.log->back();
    out.metrics[kMetricTrainLoss] = last.train_loss;
    out.metrics[kMetricTestLoss] = last.test_loss;
    out.metrics[kMetricTestScore] = last.test_score;
    out.metrics[kMetricTrainScore] = last.train_score;
    if (s.loop.started()) {
      out.metrics[kMetricLoss] = s.batch_loss;
      if (s.loop.phase != 1) out.metrics[kMetricGradNorm] = s.grad_norm;
    } else {
      out.metrics[kMetricLoss] = last.train_loss;
    }
    out.metrics[kMetricLr] = s.last_lr;
  });
}

CILAB_TRAINER_STATE(Mlp)

}  // namespace cilab
