// The cnn module: see cnn.h (the model) and supervised.h (the trainer it shares with mlp).
#include "algorithms/convolutional/cnn.h"
#include "algorithms/networks/supervised.h"
#include "algorithms/nn/trainer_impl.h"

#include "algorithms/nn/layer_stack.h"
#include "algorithms/nn/train_params.h"

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

CILAB_TRAINER_STATE(Cnn)

}  // namespace cilab
