// The convolutional network trained live (course chapter 12.3, 12.6): LeNet-style
// networks on Fashion-MNIST or any loaded image set (IDX, or a folder with one
// subfolder of PNGs per class), on the shared supervised trainer of mlp
// (supervised.h: the split, the sub-steps forward / backward / update, the
// per-epoch evaluation on the test set, the confusion matrix).
//
// Network: the layer line `layers` (nn/layer_stack.h), e.g. the default LeNet-5
//   conv6k5p2,pool2,conv16k5,pool2,fc120,fc84
// = Conv2d(1, 6, 5, padding=2) -> ReLU -> MaxPool2d(2) -> Conv2d(6, 16, 5) -> ReLU
//   -> MaxPool2d(2) -> Flatten -> Linear(400, 120) -> ReLU -> Linear(120, 84) -> ReLU
//   -> Linear(84, 10), 61 706 parameters, torch.nn's default initialisation;
// softmax cross-entropy (torch.nn.CrossEntropyLoss); images stay in [0, 1] as
// loaded; C input channels when a row holds C x H x W values (C = columns / (H W)).
// Parameters follow PyTorch: batch (DataLoader batch_size), the shared optimizer
// group (default Adam, lr 1e-3: torch.optim.Adam's default), max_epochs; train_size
// takes a seeded subset of the training split (an overfitting lesson).
//
// The snapshot is mlp's (MlpSnapshot): the network copy (its conv layers give the
// filters and feature maps the view draws), the per-layer gradient norms (conv and
// linear layers, in order), the per-epoch log and the evaluation.
#pragma once

#include "algorithms/networks/mlp.h"

#include <memory>
#include <string>
#include <vector>

namespace cilab {

// Backprop through a convolution (12.3), for one image and one filter o of the network's first
// conv layer: the kernel is shared by every output position p, so its gradient is the sum of the
// untied per-position gradients, dL/dW[o] = sum_p dL/dy[o, p] x_patch(p) - which is also the
// cross-correlation of the input with dL/dy[o]. `backprop` is what the network's backward wrote,
// `untied_sum` that sum computed here position by position in double; `difference` compares them
// (the oracle: equal up to float rounding).
struct TiedGradient {
  int filter = 0, channels = 0, k = 0;  // filter o, its input channels (C / groups), kernel size
  int out_h = 0, out_w = 0;             // output positions
  double loss = 0;                      // the image's cross-entropy
  std::vector<double> dy;               // dL/dy[o] (out_h x out_w)
  std::vector<double> backprop;         // dL/dW[o] from backward (channels x k x k)
  std::vector<double> untied_sum;       // sum_p dL/dy[o, p] x_patch(p), in double (channels x k x k)
  std::vector<int> top;                 // the output positions with the largest |dL/dy[o, p]| (at most 8)
  std::vector<std::vector<double>> top_gradients;  // their untied gradients (channels x k x k each)
  double difference = 0;                // max |untied_sum - backprop| / max |backprop| (0 when both vanish)
};

// The tied-weight gradient of `filter` (clamped) of the first conv layer for row `row` of `x`
// with class `label`, on a private copy of `net` in eval mode. Empty (k = 0) without a conv layer.
TiedGradient tied_gradient(const nn::Sequential<float>& net, const nn::Mat<float>& x, int row, int label, int filter);

// 12.6's oracle: the parameter count of every conv layer of the network equals the calculator's
// K(pqc + 1) (the convolution module's, conv_math.h receptive_fields) for the same layer line on
// the same C x S x S input. `counted` is what the layers hold, `formula` the calculator's count.
struct ConvParamCheck {
  std::vector<std::string> names;      // the conv tokens, "conv6k5p2"
  std::vector<double> counted, formula;
  int total = 0;                       // every parameter of the network
  bool equal = false;                  // every conv layer agrees (false when there is none)
};
// Empty (names empty) for a non-square input or a line the calculator does not take.
ConvParamCheck conv_param_check(const nn::Sequential<float>& net, const std::string& layers, const nn::Shape& in);

class Cnn : public Trainer<Cnn> {
 public:
  struct Params : Mlp::Params {
    std::string layers_text;  // the layer line (`layers`)
    Params();
  };

  // Parameters above this many are refused at reset, naming `layers`.
  static constexpr double kMaxParams = 32.0 * 1024 * 1024;

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  size_t state_bytes() const override;

  std::shared_ptr<const MlpSnapshot> cnn_snapshot() const;
  static Params params_from(const ParamValues& values);
  // The trained network itself (tests).
  const nn::Sequential<float>& network() const;
  // The network of `p` for samples of shape `in` and `outputs` classes (unbound until init).
  static nn::Sequential<float> make_network(const Params& p, const nn::Shape& in, int outputs);
  // The sample shape of a problem's rows: {C, H, W}.
  static nn::Shape input_shape(const MlpProblem& problem);

 private:
  friend class Trainer<Cnn>;  // it steps the State
  struct State;
  StatePtr<State> st_;
};

CILAB_TRAINER_EXTERN(Cnn)

}  // namespace cilab
