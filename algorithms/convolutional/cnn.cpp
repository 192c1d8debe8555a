// The cnn module: see cnn.h (the model) and supervised.h (the trainer it shares with mlp).
#include "algorithms/convolutional/cnn.h"
#include "algorithms/networks/supervised.h"
#include "algorithms/nn/trainer_impl.h"

#include "algorithms/convolutional/conv_math.h"
#include "algorithms/nn/conv.h"
#include "algorithms/nn/layer_stack.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/train_params.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace cilab {

namespace {

const ParamTable<Cnn::Params>& param_table() {
  using P = Cnn::Params;
  static const ParamTable<P> kTable = {
      Text<P>("layers", &P::layers_text)
          .help("the network, input to output: conv6k5p2 = 6 filters 5x5 with padding 2 (suffixes s stride, "
                "d dilation), pool2 = 2x2 max pooling (pool3s2, avgpool2), fc120 = a fully connected layer; "
                "the activation follows every conv and fc, a Linear to the classes ends it; changing it restarts")
          .formula("O = floor((I + 2P - d(K - 1) - 1) / S) + 1 per conv or pool"),
      activation_param<P>(&P::activation, "activation after every conv and fc layer (torch.nn names)"),
      init_param<P>(&P::init, InitHelp::Names,
                    "weight initialisation of the conv and Linear layers (torch: U(-1/sqrt(fan_in), "
                    "1/sqrt(fan_in)) with fan_in = C k^2 for a conv)"),
      batch_param<P>(&P::batch, "mini-batch size (torch DataLoader batch_size); at most the training rows")
          .formula("theta <- theta - lr * grad (1/B) sum_{i in batch} loss_i"),
      Int<P>("train_size", &P::train_size, 0, 1000000)
          .help("train on this many rows of the shuffled training split, 0 = all (a tiny set overfits: the "
                "training accuracy reaches 1 while the test accuracy stalls)"),
      test_fraction_param<P>(&P::test_fraction),
      max_epochs_param<P>(&P::max_epochs),
      optimizer_rows<P>(&P::optim, &P::schedule,
                        {"the optimizer stepping every weight (torch.optim class)",
                         "learning rate (torch: lr; torch.optim.Adam's default 0.001)", "", kPerUpdateScheduleHelp}),
  };
  return kTable;
}

ModuleInfo make_info() {
  ModuleInfo m;
  m.name = "cnn";
  m.title = "Convolutional network (LeNet) trained live";
  m.chapter = "Convolutional networks";
  m.summary =
      "Train a LeNet-style convolutional network on Fashion-MNIST or any image set, written as one line "
      "(conv6k5p2,pool2,conv16k5,pool2,fc120,fc84). The first layer's filters as images, the feature maps of "
      "every layer for a chosen test image, per-layer gradient norms, loss and accuracy per epoch, the "
      "confusion matrix and the misclassified images. Step by forward / backward / update.";
  m.metrics = Mlp::metric_table(false).infos();
  m.sub_steps = {"forward", "backward", "update"};
  m.default_dataset = "fashion-mnist:n=12000";
  m.default_cli_steps = 94;
  m.epoch_columns = {"train_loss", "test_loss", "test_accuracy"};
  return m;
}

}  // namespace

Cnn::Params::Params() {
  layers_text = nn::kLeNet5;
  task = Mlp::Task::Classification;
  standardize = false;
  batch = 128;
  max_epochs = 10;
  optim = OptimizerConfig::defaults(OptimizerKind::Adam);
  optim.momentum = 0.9;
}

struct Cnn::State : SupervisedState<Cnn::Params> {
  State() : SupervisedState("cnn") {}
};

const ParamTable<Cnn::Params>& module_params(const Cnn*) { return param_table(); }

Cnn::Params Cnn::params_from(const ParamValues& values) { return param_table().read(values); }

const ModuleInfo& Cnn::info() const {
  static const ModuleInfo kInfo = make_info();
  return kInfo;
}

const nn::Sequential<float>& Cnn::network() const { return st_->net; }

nn::Shape Cnn::input_shape(const MlpProblem& pr) {
  const int hw = pr.image_h * pr.image_w;
  if (hw <= 0 || pr.d % hw != 0) return {pr.d};
  return {pr.d / hw, pr.image_h, pr.image_w};
}

namespace {
// Names the parameter in the layer line's errors.
std::invalid_argument layers_error(const Cnn::Params& p, const std::invalid_argument& e) {
  return std::invalid_argument("cnn: parameter 'layers' = '" + p.layers_text + "': " + e.what());
}
}  // namespace

nn::Sequential<float> Cnn::make_network(const Params& p, const nn::Shape& in, int outputs) {
  try {
    return nn::make_layer_stack<float>(nn::parse_layer_stack(p.layers_text), p.activation, outputs, in, kMaxParams);
  } catch (const std::invalid_argument& e) {
    throw layers_error(p, e);
  }
}

ConvParamCheck conv_param_check(const nn::Sequential<float>& net, const std::string& layers, const nn::Shape& in) {
  ConvParamCheck c;
  c.total = static_cast<int>(net.num_params());
  if (in.size() != 3 || in[1] != in[2]) return c;
  std::vector<nn::LayerToken> tokens;
  try {
    for (const nn::LayerToken& t : nn::parse_layer_stack(layers)) {
      if (t.kind == nn::LayerToken::Kind::Linear) break;  // the calculator covers the conv part
      tokens.push_back(t);
    }
    const std::vector<convmath::StackRow> rows = convmath::receptive_fields(tokens, in[0], in[1]);
    for (size_t i = 0; i < tokens.size(); ++i)
      if (tokens[i].kind == nn::LayerToken::Kind::Conv) {
        c.names.push_back(tokens[i].text);
        c.formula.push_back(rows[i + 1].params_cnn);
      }
  } catch (const std::invalid_argument&) {
    return ConvParamCheck{{}, {}, {}, c.total, false};
  }
  for (size_t l = 0; l < net.size(); ++l)
    if (net.layer(l).name() == "conv2d") c.counted.push_back(net.layer(l).num_params());
  c.equal = !c.names.empty() && c.counted == c.formula;
  return c;
}

void Cnn::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  require_usable_data(data.get(), "cnn");
  try {
    nn::parse_layer_stack(p.layers_text);  // a bad line is named before the data are split
  } catch (const std::invalid_argument& e) {
    throw layers_error(p, e);
  }
  checked_group_config(p.optim);
  auto s = new_state<State>(p, seed);
  s->problem = make_supervised_problem(*data, p, seed, "cnn", true);
  const MlpProblem& pr = *s->problem;
  const nn::Shape in = input_shape(pr);
  if (in.size() != 3)
    throw std::invalid_argument("cnn: dataset '" + data->name + "' rows hold " + std::to_string(pr.d) +
                                " values, not C x " + std::to_string(pr.image_h) + " x " +
                                std::to_string(pr.image_w) + " images; try fashion-mnist or an image folder");
  std::ostringstream arch;
  arch << nn::shape_text(in) << " " << p.layers_text << " -> " << pr.outputs << " " << nn::activation_name(p.activation);
  s->start([&](const MlpProblem&) { return make_network(p, in, pr.outputs); }, arch.str());
  st_ = std::move(s);
}

size_t Cnn::state_bytes() const { return st_->bytes(); }

std::shared_ptr<const Snapshot> Cnn::snapshot() const { return cnn_snapshot(); }

std::shared_ptr<const MlpSnapshot> Cnn::cnn_snapshot() const { return st_->snapshot(Mlp::metric_table(false)); }

TiedGradient tied_gradient(const nn::Sequential<float>& net_in, const nn::Mat<float>& x, int row, int label,
                           int filter) {
  TiedGradient t;
  size_t l0 = net_in.size();
  nn::ConvShape g;
  for (size_t l = 0; l < net_in.size(); ++l)
    if (nn::conv2d_geometry(net_in.layer(l), &g)) {
      l0 = l;
      break;
    }
  if (l0 + 1 >= net_in.size() || x.rows() == 0) return t;
  nn::Sequential<float> net = net_in;
  row = std::clamp(row, 0, static_cast<int>(x.rows()) - 1);
  const nn::Mat<float> xr = x.row(row);
  const nn::Mat<float>& out = net.forward(xr, false);
  nn::Mat<float> dout;
  t.loss = nn::softmax_cross_entropy<float>(out, std::vector<int>{label}, &dout);
  net.zero_grad();
  net.backward(dout);
  const float* input = l0 == 0 ? xr.data() : net.activation(l0 - 1).data();
  const float* dy = net.input_gradient(l0 + 1).data();  // dL/d(the conv's output)
  const int cg = g.c_in / g.groups, o = std::clamp(filter, 0, g.c_out - 1);
  const int c0 = (o / (g.c_out / g.groups)) * cg;  // the filter's first input channel
  t.filter = o;
  t.channels = cg;
  t.k = g.kh;
  t.out_h = g.out_h();
  t.out_w = g.out_w();
  const int k = g.kh, kk = cg * k * k, positions = t.out_h * t.out_w;
  t.dy.assign(dy + static_cast<size_t>(o) * positions, dy + static_cast<size_t>(o + 1) * positions);
  const float* dw = net.grads() + net.param_offset(l0) + static_cast<size_t>(o) * kk;
  t.backprop.assign(dw, dw + kk);
  // The untied gradient of position p: dL/dy[o, p] times the input patch it saw (zero padding).
  auto untied = [&](int p, std::vector<double>& out_g) {
    out_g.assign(static_cast<size_t>(kk), 0.0);
    const int i = p / t.out_w, j = p % t.out_w;
    const double d = t.dy[static_cast<size_t>(p)];
    for (int c = 0; c < cg; ++c)
      for (int u = 0; u < k; ++u)
        for (int v = 0; v < k; ++v) {
          const int xi = i * g.stride_h - g.pad_h + u * g.dil_h, xj = j * g.stride_w - g.pad_w + v * g.dil_w;
          if (xi < 0 || xi >= g.h || xj < 0 || xj >= g.w) continue;
          out_g[static_cast<size_t>((c * k + u) * k + v)] =
              d * input[(static_cast<size_t>(c0 + c) * g.h + xi) * g.w + xj];
        }
  };
  t.untied_sum.assign(static_cast<size_t>(kk), 0.0);
  std::vector<double> gp;
  for (int p = 0; p < positions; ++p) {
    untied(p, gp);
    for (int q = 0; q < kk; ++q) t.untied_sum[static_cast<size_t>(q)] += gp[static_cast<size_t>(q)];
  }
  double scale = 0, diff = 0;
  for (int q = 0; q < kk; ++q) {
    scale = std::max(scale, std::fabs(t.backprop[static_cast<size_t>(q)]));
    diff = std::max(diff, std::fabs(t.untied_sum[static_cast<size_t>(q)] - t.backprop[static_cast<size_t>(q)]));
  }
  t.difference = scale > 0 ? diff / scale : diff;
  std::vector<int> order(static_cast<size_t>(positions));
  std::iota(order.begin(), order.end(), 0);
  const size_t top = std::min<size_t>(8, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(), [&](int a, int b) {
    const double fa = std::fabs(t.dy[static_cast<size_t>(a)]), fb = std::fabs(t.dy[static_cast<size_t>(b)]);
    return fa != fb ? fa > fb : a < b;
  });
  for (size_t i = 0; i < top; ++i) {
    t.top.push_back(order[i]);
    untied(order[i], gp);
    t.top_gradients.push_back(gp);
  }
  return t;
}

CILAB_TRAINER_STATE(Cnn)

}  // namespace cilab
