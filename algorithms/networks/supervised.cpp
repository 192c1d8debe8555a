// The supervised trainer mlp and cnn share: see supervised.h (the data handling and
// the sub-steps are documented in mlp.h).
#include "algorithms/networks/supervised.h"

#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/convolutional/cnn.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/train_checks.h"
#include "algorithms/nn/train_params.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace cilab {

using nn::Mat;

namespace {

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
std::shared_ptr<const MlpProblem> make_problem(const Dataset& data, const Mlp::Params& p, uint64_t seed,
                                                const std::string& module) {
  auto pr = std::make_shared<MlpProblem>();
  bool has_class = false;
  for (int l : data.labels) has_class = has_class || l >= 0;
  switch (p.task) {
    case Mlp::Task::Auto:
      if (has_class) pr->regression = false;
      else if (data.has_target()) pr->regression = true;
      else
        throw std::invalid_argument(module + ": dataset '" + data.name +
                                    "' has neither class labels nor a target column; try a labelled dataset "
                                    "(moons, spirals, a CSV with a 'label' column) or a regression curve (curve)");
      break;
    case Mlp::Task::Classification:
      if (!has_class)
        throw std::invalid_argument(module + ": parameter 'task' = classification needs class labels, but dataset '" +
                                    data.name + "' has none; try a labelled dataset (a CSV with a 'label' "
                                    "column) or task=regression");
      pr->regression = false;
      break;
    case Mlp::Task::Regression:
      if (!data.has_target())
        throw std::invalid_argument(module + ": parameter 'task' = regression needs a target column, but dataset '" +
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
    throw std::invalid_argument(module + ": dataset '" + data.name + "' has no feature column besides the target; "
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
    throw std::invalid_argument(module + ": no training rows left (" + std::to_string(n_usable) + " usable rows, test_fraction = " +
                                fmt_g(p.test_fraction) + "); try a larger dataset or a smaller test_fraction");
  // The test rows first in the shuffled order, then the training rows, each kept in dataset order.
  std::vector<int> test(order.begin(), order.begin() + n_test), train(order.begin() + n_test, order.end());
  // A training subset: the first train_size rows of the shuffled remainder (the same test set).
  if (p.train_size > 0 && p.train_size < static_cast<int>(train.size())) train.resize(static_cast<size_t>(p.train_size));
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
      throw std::invalid_argument(module + ": the training rows of '" + data.name +
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
      throw std::invalid_argument(module + ": Fashion-MNIST's t10k set has " + std::to_string(t10k->cols()) +
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

std::shared_ptr<const MlpProblem> make_supervised_problem(const Dataset& data, const Mlp::Params& p, uint64_t seed,
                                                          const std::string& module, bool image_only) {
  if (image_only && !data.is_image())
    throw std::invalid_argument(module + ": dataset '" + data.name + "' holds no images (" + std::to_string(data.cols()) +
                                " feature columns); try fashion-mnist, an IDX file or a folder of PNGs per class");
  return make_problem(data, p, seed, module);
}

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

// ---------------------------------------------------------------- the shared state

// Evaluates the network in eval mode on (x, y | t), in chunks: mean loss and
// accuracy / R^2; fills ev's predictions and confusion matrix when given.
template <class P>
void SupervisedState<P>::evaluate(const Mat<float>& x, const std::vector<int>& y, const Mat<float>& t, double* loss,
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
    const Mat<float>& out = this->net.forward(chunk, false);
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

template <class P>
MlpEpochRow SupervisedState<P>::evaluate_initial() {
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
template <class P>
void SupervisedState<P>::forward_half() {
  const MlpProblem& pr = *problem;
  batch_index = this->batcher->position() / this->batcher->batch_size();
  const std::vector<int>& idx = this->batcher->next();
  batch = std::make_shared<const std::vector<int>>(idx);
  nn::Batcher::gather(pr.x_train, idx, xb);
  const Mat<float>& out = this->net.forward(xb, true);
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
  this->net.zero_grad();
  this->net.backward(dout);
  const Eigen::Map<const Eigen::VectorXf> g(this->net.grads(), static_cast<Eigen::Index>(this->net.num_params()));
  grad_norm = std::sqrt(g.cast<double>().squaredNorm());
  layer_grad_norms.clear();
  for (size_t l = 0; l < this->net.size(); ++l) {
    const std::string kind = this->net.layer(l).name();
    if (kind != "linear" && kind != "conv2d") continue;
    const Eigen::Map<const Eigen::VectorXf> gl(this->net.grads() + this->net.param_offset(l), this->net.layer(l).num_params());
    layer_grad_norms.push_back(std::sqrt(gl.cast<double>().squaredNorm()));
  }
  this->loop.check_forward(batch_loss, std::isfinite(grad_norm), this->p.optim.lr);
}

template <class P>
void SupervisedState<P>::update_half() {
  this->last_lr = lr_at(this->p.schedule, this->p.optim.lr, this->loop.iteration);
  opt.step(this->net.params(), this->net.grads(), this->last_lr);
  this->loop.advance();
  const Eigen::Map<const Eigen::VectorXf> w(this->net.params(), static_cast<Eigen::Index>(this->net.num_params()));
  if (!this->loop.check_update(w.allFinite(), this->p.optim.lr)) return;
  if (this->batcher->position() == 0) end_epoch();
}

template <class P>
void SupervisedState<P>::end_epoch() {
  const MlpProblem& pr = *problem;
  MlpEpochRow row = this->epoch_row();
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
  this->append_epoch(row);
  epoch_loss_sum = 0;
  epoch_seen = epoch_correct = 0;
  epoch_ss_res = epoch_t_sum = epoch_t_sum2 = 0;
  this->loop.stop_at_budget(row.epoch, this->p.max_epochs);
}

template <class P>
void SupervisedState<P>::start(const std::function<nn::Sequential<float>(const MlpProblem&)>& make_net,
                               std::string arch) {
  const MlpProblem& pr = *problem;
  const P& q = this->p;
  check_batch_fits(module, q.batch, pr.n_train(), " after test_fraction = " + fmt_g(q.test_fraction));
  if (q.batch_norm && q.batch < 2)
    throw std::invalid_argument(module + ": parameter 'batch' = 1 with batch_norm: batch statistics need at least 2 "
                                "rows (torch raises the same); try batch >= 2 or batch_norm=false");
  const OptimizerConfig oc = checked_group_config(q.optim);
  this->net = make_net(pr);
  Rng rng(this->seed);
  this->net.init(rng, q.init);
  opt = Optimizer(oc, this->net.num_params());
  this->batcher.emplace(pr.n_train(), q.batch, this->seed + 1);
  this->architecture = std::move(arch);
  this->log = std::make_shared<const std::vector<MlpEpochRow>>(1, evaluate_initial());
  this->last_lr = q.optim.lr;
  Base::start();
}

template <class P>
size_t SupervisedState<P>::bytes() const {
  if (!this->ready) return sizeof(*this);
  // params + grads + up to three optimizer buffers, and the batch in flight.
  return sizeof(*this) + 5 * this->net.num_params() * sizeof(float) +
         static_cast<size_t>(xb.size() + tb.size() + dout.size()) * sizeof(float);
}

template <class P>
std::shared_ptr<const MlpSnapshot> SupervisedState<P>::snapshot(const MetricTable& metrics) const {
  const SupervisedState& s = *this;
  return cached_snapshot(s, metrics, [&s](MlpSnapshot& out) {
    out.num_params = s.net.num_params();
    out.problem = s.problem;
    out.evaluation = s.evaluation;
    out.batch = s.batch;
    out.batch_index = s.batch_index;
    if (s.loop.phase != 1) out.layer_grad_norms = s.layer_grad_norms;
    out.lr = s.last_lr;
    const MlpEpochRow& last = s.log->back();
    out.metrics[Mlp::kMetricTrainLoss] = last.train_loss;
    out.metrics[Mlp::kMetricTestLoss] = last.test_loss;
    out.metrics[Mlp::kMetricTestScore] = last.test_score;
    out.metrics[Mlp::kMetricTrainScore] = last.train_score;
    if (s.loop.started()) {
      out.metrics[Mlp::kMetricLoss] = s.batch_loss;
      if (s.loop.phase != 1) out.metrics[Mlp::kMetricGradNorm] = s.grad_norm;
    } else {
      out.metrics[Mlp::kMetricLoss] = last.train_loss;
    }
    out.metrics[Mlp::kMetricLr] = s.last_lr;
  });
}

template struct SupervisedState<Mlp::Params>;
template struct SupervisedState<Cnn::Params>;

}  // namespace cilab
