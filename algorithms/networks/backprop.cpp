// Backpropagation step by step: see backprop.h for the network, the walk, the
// sub-steps and the gradient check.
//
// Shapes: a mini-batch is B x d (B <= kMaxRows), layer l holds B x width_l
// matrices, the flat parameter vector theta has the library's layout (per
// Linear layer W row-major, then b). The scalar walk is written with plain
// loops over samples and neurons, independently of the library's GEMMs, so
// the two gradients check each other.
#include "algorithms/networks/backprop.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/core/rng.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/gradcheck.h"
#include "algorithms/nn/layers.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/sequential.h"
#include "algorithms/optim/optim_params.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using MatD = nn::Mat<double>;

nn::Activation library_activation(Backprop::Act a) {
  switch (a) {
    case Backprop::Act::Sigmoid: return nn::Activation::Sigmoid;
    case Backprop::Act::Tanh: return nn::Activation::Tanh;
    default: return nn::Activation::ReLU;
  }
}

nn::Init library_init(Backprop::InitKind k) {
  switch (k) {
    case Backprop::InitKind::Glorot: return nn::Init::Glorot;
    case Backprop::InitKind::He: return nn::Init::He;
    default: return nn::Init::Torch;
  }
}

double sigmoid(double v) { return v >= 0 ? 1.0 / (1.0 + std::exp(-v)) : std::exp(v) / (1.0 + std::exp(v)); }

const ParamTable<Backprop::Params>& param_table() {
  using P = Backprop::Params;
  static const ParamTable<P> kTable = {
      Choice("data", &P::data, {"xor4", "loaded"})
          .choice_help({"the four XOR points (0,0)->0, (0,1)->1, (1,0)->1, (1,1)->0",
                        "the loaded dataset (app: the current data; CLI: --dataset / --data): at most 64 rows, "
                        "1 to 4 features, labels 0/1 or a regression target"})
          .help("the training points"),
      IntList("layers", &P::layers, 1, Backprop::kMaxWidth)
          .max_items(Backprop::kMaxHiddenLayers)
          .help("hidden layer widths, e.g. 3 (a 2-3-1 network) or 3,2 (2-3-2-1); at most 2 hidden layers of "
                "1 to 4 neurons, so the graph stays readable")
          .formula("z_l = W_l a_{l-1} + b_l,  a_l = f(z_l)"),
      Choice("activation", &P::activation, {"sigmoid", "tanh", "relu"})
          .choice_help({"f(z) = 1 / (1 + e^-z),  f'(z) = f(z) (1 - f(z))", "f(z) = tanh z,  f'(z) = 1 - f(z)^2",
                        "f(z) = max(0, z),  f'(z) = 1 if z > 0 else 0"})
          .help("activation f of the hidden neurons (the output is linear)"),
      Choice("loss", &P::loss, {"mse", "bce"})
          .choice_help({"L = (1/B) sum (y - t)^2,  dL/dy = 2 (y - t) / B (torch.nn.MSELoss)",
                        "binary cross-entropy with logits: L = (1/B) sum max(y,0) - y t + log(1 + e^-|y|),  "
                        "dL/dy = (sigmoid(y) - t) / B (torch.nn.BCEWithLogitsLoss)"})
          .help("loss of the output y against the target t, averaged over the mini-batch"),
      Choice("init", &P::init, {"torch", "glorot", "he"})
          .choice_help({"W, b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (torch.nn.Linear)",
                        "W ~ U(-a, a), a = sqrt(6 / (fan_in + fan_out)); b = 0", "W ~ N(0, 2 / fan_in); b = 0"})
          .help("initial weights (seeded)"),
      Int("batch", &P::batch, 1, Backprop::kMaxRows)
          .help("points per training step (at most the number of points); 1 = the textbook walk-through on one "
                "point, all points = full-batch gradient descent")
          .formula("dL/dW = sum over the batch of delta a_prev"),
      Real("fd_step", &P::fd_step, 1e-9, 1e-1)
          .log_scale()
          .live()
          .help("step h of the central differences of the gradient check")
          .formula("g_fd = (L(theta + h e_p) - L(theta - h e_p)) / (2 h)"),
      optimizer_params(&P::optim),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Backprop::kMetricLoss, "loss", "mini-batch loss L of this step, before its update", true},
      {Backprop::kMetricTrainLoss, "train_loss", "loss over all the points after the update", true},
      {Backprop::kMetricTrainAccuracy, "train_accuracy",
       "fraction of the points classified right after the update (y > 0 for bce, y > 0.5 for mse; n/a for a "
       "regression target)",
       false},
      {Backprop::kMetricMaxRelError, "max_rel_error",
       "largest relative error of the gradient check: max_p |g_p - g_fd,p| / max(|g_p|, |g_fd,p|, 1e-8)", true},
      {Backprop::kMetricWalkVsLibrary, "walk_vs_library",
       "max_p |g_walk,p - g_lib,p|: the node-by-node walk against the network library's backward pass", true},
      {Backprop::kMetricGradNorm, "grad_norm", "||dL/dtheta|| of this step", true},
  };
  return kMetrics;
}

ModuleInfo make_info(const BackpropGraph* g) {
  ModuleInfo m;
  m.name = "backprop";
  m.title = "Backpropagation step by step (with a gradient check)";
  m.chapter = "Neural networks";
  m.summary =
      "A tiny network (2-3-1 by default) on the four XOR points. Sub-steps walk the computational graph: the "
      "forward pass neuron by neuron (z = W a + b, a = f(z)), the loss, then the backward pass with each local "
      "derivative and the chain-rule product dL/dz, then the optimizer's update. A gradient check compares every "
      "backprop gradient with a central finite difference.";
  m.metrics = metric_table().infos();
  if (g)
    for (const WalkStep& w : g->walk) m.sub_steps.push_back(w.name);
  m.default_dataset = "xor:n=8";
  m.needs_dataset = false;
  m.table_columns = {"parameter", "backprop", "finite_difference", "relative_error"};
  m.default_cli_steps = 4;  // one epoch of the XOR points: the table is the check of the 4th step
  m.epoch_columns = {"train_loss", "train_accuracy"};
  return m;
}

std::shared_ptr<BackpropGraph> make_graph(const Backprop::Params& p, int d,
                                          const std::vector<std::string>& input_names, bool classification) {
  auto g = std::make_shared<BackpropGraph>();
  g->widths.push_back(d);
  for (int w : p.layers) g->widths.push_back(w);
  g->widths.push_back(1);
  g->activation = static_cast<int>(p.activation);
  g->loss = static_cast<int>(p.loss);
  g->input_names = input_names;
  g->classification = classification;
  const int L = g->layers();
  for (int l = 1; l <= L; ++l) {
    const int in = g->widths[static_cast<size_t>(l - 1)], out = g->widths[static_cast<size_t>(l)];
    for (int j = 0; j < out; ++j)
      for (int i = 0; i < in; ++i)
        g->param_names.push_back("W" + std::to_string(l) + "[" + std::to_string(j) + "," + std::to_string(i) + "]");
    for (int j = 0; j < out; ++j) g->param_names.push_back("b" + std::to_string(l) + "[" + std::to_string(j) + "]");
  }
  for (int l = 1; l <= L; ++l)
    for (int j = 0; j < g->widths[static_cast<size_t>(l)]; ++j)
      g->walk.push_back({WalkStep::Kind::Forward, l, j, "forward " + g->neuron_name(l, j)});
  g->walk.push_back({WalkStep::Kind::Loss, L, 0, "loss"});
  for (int l = L; l >= 1; --l)
    for (int j = 0; j < g->widths[static_cast<size_t>(l)]; ++j)
      g->walk.push_back({WalkStep::Kind::Backward, l, j, "backward " + g->neuron_name(l, j)});
  g->walk.push_back({WalkStep::Kind::Update, 0, 0, "update"});
  return g;
}

// The network of a graph in the library (double), parameters not drawn.
nn::Sequential<double> make_network(const BackpropGraph& g) {
  nn::Sequential<double> net;
  const int L = g.layers();
  for (int l = 1; l <= L; ++l) {
    net.add(nn::make_linear<double>(g.widths[static_cast<size_t>(l)]));
    if (l < L) net.add(nn::make_activation<double>(library_activation(static_cast<Backprop::Act>(g.activation))));
  }
  net.build(g.widths[0]);
  return net;
}

// The library's loss of `pred` against `t` (B x 1), and its gradient when asked.
double library_loss(Backprop::Loss loss, const MatD& pred, const MatD& t, MatD* dpred) {
  return loss == Backprop::Loss::MSE ? nn::mse_loss(pred, t, dpred) : nn::bce_with_logits_loss(pred, t, dpred);
}

// The scalar walk: forward, loss and backward with loops, into tr (x, target set).
void scalar_walk(const BackpropGraph& g, const double* theta, BackpropTrace& tr) {
  const int L = g.layers();
  const Eigen::Index B = tr.x.rows();
  const Backprop::Act act = static_cast<Backprop::Act>(g.activation);
  const nn::Activation f = library_activation(act);
  tr.z.assign(static_cast<size_t>(L), {});
  tr.a.assign(static_cast<size_t>(L), {});
  tr.fprime.assign(static_cast<size_t>(L), {});
  tr.da.assign(static_cast<size_t>(L), {});
  tr.delta.assign(static_cast<size_t>(L), {});
  for (int l = 1; l <= L; ++l) {
    const size_t k = static_cast<size_t>(l - 1);
    const int in = g.widths[k], out = g.widths[k + 1];
    const Eigen::MatrixXd& prev = l == 1 ? tr.x : tr.a[k - 1];
    tr.z[k].resize(B, out);
    tr.a[k].resize(B, out);
    tr.fprime[k].resize(B, out);
    for (Eigen::Index n = 0; n < B; ++n)
      for (int j = 0; j < out; ++j) {
        double s = theta[g.b_index(l, j)];
        for (int i = 0; i < in; ++i) s += theta[g.w_index(l, j, i)] * prev(n, i);
        tr.z[k](n, j) = s;
        tr.a[k](n, j) = l < L ? nn::activation_value(f, s) : s;
        tr.fprime[k](n, j) = l < L ? nn::activation_derivative(f, s) : 1.0;
      }
  }
  const size_t out_k = static_cast<size_t>(L - 1);
  const Backprop::Loss loss = static_cast<Backprop::Loss>(g.loss);
  tr.loss_terms.resize(B);
  tr.da[out_k].resize(B, 1);
  double sum = 0;
  for (Eigen::Index n = 0; n < B; ++n) {
    const double y = tr.a[out_k](n, 0), t = tr.target[n];
    if (loss == Backprop::Loss::MSE) {
      tr.loss_terms[n] = (y - t) * (y - t);
      tr.da[out_k](n, 0) = 2.0 * (y - t) / static_cast<double>(B);
    } else {
      tr.loss_terms[n] = std::max(y, 0.0) - y * t + std::log1p(std::exp(-std::abs(y)));
      tr.da[out_k](n, 0) = (sigmoid(y) - t) / static_cast<double>(B);
    }
    sum += tr.loss_terms[n];
  }
  tr.loss = sum / static_cast<double>(B);
  tr.delta[out_k] = tr.da[out_k];  // the output is linear: f' = 1
  for (int l = L - 1; l >= 1; --l) {
    const size_t k = static_cast<size_t>(l - 1);
    const int out = g.widths[k + 1], next = g.widths[k + 2];
    tr.da[k].resize(B, out);
    tr.delta[k].resize(B, out);
    for (Eigen::Index n = 0; n < B; ++n)
      for (int i = 0; i < out; ++i) {
        double s = 0;
        for (int j = 0; j < next; ++j) s += tr.delta[k + 1](n, j) * theta[g.w_index(l + 1, j, i)];
        tr.da[k](n, i) = s;
        tr.delta[k](n, i) = s * tr.fprime[k](n, i);
      }
  }
  tr.grad_walk = Eigen::VectorXd::Zero(g.num_params());
  for (int l = 1; l <= L; ++l) {
    const size_t k = static_cast<size_t>(l - 1);
    const int in = g.widths[k], out = g.widths[k + 1];
    const Eigen::MatrixXd& prev = l == 1 ? tr.x : tr.a[k - 1];
    for (int j = 0; j < out; ++j) {
      double gb = 0;
      for (Eigen::Index n = 0; n < B; ++n) gb += tr.delta[k](n, j);
      tr.grad_walk[g.b_index(l, j)] = gb;
      for (int i = 0; i < in; ++i) {
        double gw = 0;
        for (Eigen::Index n = 0; n < B; ++n) gw += tr.delta[k](n, j) * prev(n, i);
        tr.grad_walk[g.w_index(l, j, i)] = gw;
      }
    }
  }
}

}  // namespace

// ------------------------------------------------------------------ graph

int BackpropGraph::w_index(int l, int j, int i) const {
  int off = 0;
  for (int m = 1; m < l; ++m) off += widths[static_cast<size_t>(m)] * (widths[static_cast<size_t>(m - 1)] + 1);
  return off + j * widths[static_cast<size_t>(l - 1)] + i;
}

int BackpropGraph::b_index(int l, int j) const {
  return w_index(l, 0, 0) + widths[static_cast<size_t>(l)] * widths[static_cast<size_t>(l - 1)] + j;
}

std::string BackpropGraph::neuron_name(int l, int j) const {
  if (l == layers()) return "out";
  return "h" + std::to_string(l) + "[" + std::to_string(j) + "]";
}

size_t BackpropTrace::byte_size() const {
  size_t b = sizeof(*this) + rows.size() * sizeof(int);
  b += static_cast<size_t>(x.size() + target.size() + loss_terms.size() + grad_walk.size() + grad_lib.size() +
                           grad_fd.size() + rel_error.size() + theta_before.size() + theta_after.size()) *
       sizeof(double);
  for (const auto* v : {&z, &a, &fprime, &da, &delta})
    for (const Eigen::MatrixXd& m : *v) b += static_cast<size_t>(m.size()) * sizeof(double);
  return b;
}

size_t BackpropSnapshot::byte_size() const {
  // The graph, the trace and the data are shared with neighbouring snapshots;
  // count the trace (one per iteration) and the own vectors.
  return Snapshot::byte_size() + static_cast<size_t>(theta.size() + predictions.size()) * sizeof(double) +
         (trace ? trace->byte_size() : 0);
}

// ------------------------------------------------------------------ state

namespace {

// The info of the default network (before reset: the module browser, the CLI's probe).
ModuleInfo default_info() {
  const Backprop::Params p;
  return make_info(make_graph(p, 2, {"x0", "x1"}, true).get());
}

}  // namespace

struct Backprop::State : RunPosition {
  Params p;
  ModuleInfo info = default_info();
  std::shared_ptr<const BackpropGraph> graph;
  std::shared_ptr<const Eigen::MatrixXd> data_x;
  std::shared_ptr<const Eigen::VectorXd> data_t;
  nn::Sequential<double> net;
  Optimizer opt;
  std::optional<nn::Batcher> batcher;
  std::shared_ptr<const BackpropTrace> trace;
  Eigen::VectorXd predictions;
  std::vector<double> metrics;
  int epoch = 0;  // epochs completed at the last iteration boundary

  mutable std::shared_ptr<const BackpropSnapshot> cache;

  Eigen::Map<Eigen::VectorXd> theta() {
    return Eigen::Map<Eigen::VectorXd>(net.params(), static_cast<Eigen::Index>(net.num_params()));
  }
  double batch_loss(const MatD& x, const MatD& t) {
    return library_loss(p.loss, net.forward(x, true), t, nullptr);
  }
  void compute_iteration();
  void finish_iteration();
  void evaluate_all();  // predictions, train_loss, accuracy at the current theta
};

void Backprop::State::compute_iteration() {
  const BackpropGraph& g = *graph;
  auto tr = std::make_shared<BackpropTrace>();
  tr->rows = batcher->next();
  const Eigen::Index B = static_cast<Eigen::Index>(tr->rows.size());
  tr->x.resize(B, data_x->cols());
  tr->target.resize(B);
  for (Eigen::Index n = 0; n < B; ++n) {
    tr->x.row(n) = data_x->row(tr->rows[static_cast<size_t>(n)]);
    tr->target[n] = (*data_t)[tr->rows[static_cast<size_t>(n)]];
  }
  tr->theta_before = theta();
  scalar_walk(g, net.params(), *tr);

  // The library: forward, loss, backward (the gradient the optimizer uses).
  const MatD xb = tr->x;
  const MatD tb = tr->target;
  MatD dpred;
  library_loss(p.loss, net.forward(xb, true), tb, &dpred);
  net.zero_grad();
  net.backward(dpred);
  tr->grad_lib = Eigen::Map<const Eigen::VectorXd>(net.grads(), static_cast<Eigen::Index>(net.num_params()));

  // Central differences on the same mini-batch.
  const int P = g.num_params();
  tr->grad_fd.resize(P);
  tr->rel_error.resize(P);
  const double h = p.fd_step;
  for (int k = 0; k < P; ++k) {
    tr->grad_fd[k] = nn::central_difference(net.params(), static_cast<size_t>(k), h, [&] { return batch_loss(xb, tb); });
    tr->rel_error[k] = nn::floored_relative_error(tr->grad_lib[k], tr->grad_fd[k], kTinyGradient);
  }

  // The update: the shared optimizer on the library's gradient.
  tr->lr = p.optim.lr;
  tr->optimizer = static_cast<int>(p.optim.kind);
  Eigen::VectorXd after = tr->theta_before;
  const bool finite = std::isfinite(tr->loss) && tr->grad_lib.allFinite();
  if (finite) opt.step(after.data(), tr->grad_lib.data(), p.optim.lr);
  tr->theta_after = after;
  trace = tr;
}

void Backprop::State::evaluate_all() {
  const MatD x = *data_x;
  const MatD t = *data_t;
  const MatD& y = net.forward(x, false);
  predictions = Eigen::Map<const Eigen::VectorXd>(y.data(), y.rows());
  metrics[kMetricTrainLoss] = library_loss(p.loss, y, t, nullptr);
  if (graph->classification) {
    const double threshold = p.loss == Loss::BCE ? 0.0 : 0.5;
    int right = 0;
    for (Eigen::Index n = 0; n < predictions.size(); ++n)
      right += (predictions[n] > threshold) == ((*data_t)[n] > 0.5);
    metrics[kMetricTrainAccuracy] = static_cast<double>(right) / static_cast<double>(predictions.size());
  }
}

void Backprop::State::finish_iteration() {
  const BackpropTrace& tr = *trace;
  ++iteration;
  phase = 0;
  epoch = batcher->epoch();
  cache.reset();
  metrics = metric_table().blank();
  metrics[kMetricLoss] = tr.loss;
  metrics[kMetricMaxRelError] = tr.rel_error.size() ? tr.rel_error.maxCoeff() : kNaN;
  metrics[kMetricWalkVsLibrary] = (tr.grad_walk - tr.grad_lib).cwiseAbs().maxCoeff();
  metrics[kMetricGradNorm] = tr.grad_lib.norm();
  if (!std::isfinite(tr.loss) || !tr.grad_lib.allFinite() || !tr.theta_after.allFinite()) {
    status = Status::Diverged;
    message = "the loss or a gradient is not finite at iteration " + std::to_string(iteration) +
              "; rewind and halve the learning rate (lr)";
    return;
  }
  theta() = tr.theta_after;
  evaluate_all();
  if (!std::isfinite(metrics[kMetricTrainLoss])) {
    status = Status::Diverged;
    message = "the loss over the points is not finite after the update at iteration " + std::to_string(iteration) +
              "; rewind and halve the learning rate (lr)";
  }
}

// ------------------------------------------------------------------ module

OptimizerConfig Backprop::default_optimizer() {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::SGD);
  c.lr = 0.5;
  return c;
}

void Backprop::xor_points(Eigen::MatrixXd& x, Eigen::VectorXd& t) {
  x.resize(4, 2);
  x << 0, 0, 0, 1, 1, 0, 1, 1;
  t.resize(4);
  t << 0, 1, 1, 0;
}


const ModuleInfo& Backprop::info() const { return st_->info; }
const ParamTable<Backprop::Params>& module_params(const Backprop*) { return param_table(); }
Backprop::Params Backprop::params_from(const ParamValues& values) { return param_table().read(values); }

void Backprop::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = params_from(values);
  auto x = std::make_shared<Eigen::MatrixXd>();
  auto t = std::make_shared<Eigen::VectorXd>();
  std::vector<std::string> names;
  bool classification = true;
  if (p.data == Data::Xor4) {
    xor_points(*x, *t);
    names = {"x0", "x1"};
  } else {
    require_usable_data(data.get(), "backprop: parameter 'data' = loaded");
    const int n = data->rows(), d = data->cols();
    if (n > kMaxRows)
      throw std::invalid_argument("parameter 'data' = loaded: the dataset has " + std::to_string(n) +
                                  " rows; the walk-through takes at most " + std::to_string(kMaxRows) +
                                  " points; try a generator with n <= " + std::to_string(kMaxRows) +
                                  " (e.g. xor:n=8), or data=xor4");
    if (d > kMaxInputs)
      throw std::invalid_argument("parameter 'data' = loaded: the dataset has " + std::to_string(d) +
                                  " features; the graph takes 1 to " + std::to_string(kMaxInputs) +
                                  " inputs; try a 2-D dataset, or data=xor4");
    *x = data->x;
    t->resize(n);
    if (data->has_target()) {
      classification = false;
      for (int i = 0; i < n; ++i) (*t)[i] = data->target[static_cast<size_t>(i)];
      if (p.loss == Loss::BCE)
        throw std::invalid_argument("parameter 'loss' = bce needs 0/1 class labels, and the dataset has a "
                                    "regression target '" + data->target_name + "'; try loss=mse");
    } else {
      for (int i = 0; i < n; ++i) {
        const int lab = data->has_labels() ? data->labels[static_cast<size_t>(i)] : -1;
        if (lab != 0 && lab != 1)
          throw std::invalid_argument("parameter 'data' = loaded: row " + std::to_string(i) + " has " +
                                      (lab < 0 ? std::string("no label") : "label " + std::to_string(lab)) +
                                      "; the network has one output and needs labels 0/1 (two classes) or a "
                                      "regression target; try xor:n=8, moons:n=32, or data=xor4");
        (*t)[i] = lab;
      }
    }
    for (int c = 0; c < d; ++c)
      names.push_back(c < static_cast<int>(data->column_names.size()) && !data->column_names[static_cast<size_t>(c)].empty()
                          ? data->column_names[static_cast<size_t>(c)]
                          : "x" + std::to_string(c));
  }
  const int n = static_cast<int>(x->rows());
  if (p.batch > n)
    throw std::invalid_argument("parameter 'batch' = " + std::to_string(p.batch) + " exceeds the " +
                                std::to_string(n) + " training points; try batch <= " + std::to_string(n));
  p.optim.validate();  // names the field torch would reject

  auto s = std::make_unique<State>();
  s->p = p;
  s->graph = make_graph(p, static_cast<int>(x->cols()), names, classification);
  s->info = make_info(s->graph.get());
  s->data_x = x;
  s->data_t = t;
  s->net = make_network(*s->graph);
  Rng rng(seed);
  s->net.init(rng, library_init(p.init));
  s->opt = Optimizer(p.optim, s->net.num_params());
  s->batcher.emplace(n, p.batch, seed ^ 0xba7c4e5ULL);
  s->metrics = metric_table().blank();
  s->evaluate_all();
  st_ = std::move(s);
}

void Backprop::step() {
  State& s = *st_;
  if (!s.graph || is_terminal(s.status)) return;
  if (s.phase == 0) s.compute_iteration();
  s.finish_iteration();
}

void Backprop::sub_step() {
  State& s = *st_;
  if (!s.graph || is_terminal(s.status)) return;
  s.cache.reset();
  if (s.phase == 0) {
    s.compute_iteration();
    s.phase = 1;
    return;
  }
  if (++s.phase == static_cast<int>(s.graph->walk.size())) s.finish_iteration();
}

void Backprop::set_live(const std::string& name, double value) {
  Params p = st_->p;
  param_table().set_live(p, name, value, info().name);  // throws: unknown, rebuild or out of range
  st_->opt.set_config(p.optim);  // throws for a combination torch rejects; nothing changed then
  st_->p = p;
  st_->cache.reset();
}

std::shared_ptr<const BackpropSnapshot> Backprop::backprop_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto snap = std::make_shared<BackpropSnapshot>();
  s.describe(*snap);
  snap->epoch = s.epoch;
  snap->metrics = s.metrics.empty() ? metric_table().blank() : s.metrics;
  snap->graph = s.graph;
  snap->trace = s.trace;
  snap->data_x = s.data_x;
  snap->data_t = s.data_t;
  snap->predictions = s.predictions;
  if (s.graph)
    snap->theta = Eigen::Map<const Eigen::VectorXd>(s.net.params(), static_cast<Eigen::Index>(s.net.num_params()));
  if (s.trace) {
    const BackpropTrace& tr = *s.trace;
    snap->table_row_names = s.graph->param_names;
    for (Eigen::Index k = 0; k < tr.grad_lib.size(); ++k)
      snap->table.push_back({tr.grad_lib[k], tr.grad_fd[k], tr.rel_error[k]});
  }
  s.cache = snap;
  return snap;
}

std::shared_ptr<const Snapshot> Backprop::snapshot() const { return backprop_snapshot(); }

CILAB_MODULE_STATE(Backprop)

}  // namespace cilab
