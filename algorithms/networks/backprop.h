// Backpropagation step by step on a tiny network, with a gradient check
// (course chapter 9.3/9.4; seeds 000-003).
//
// Network: d inputs -> hidden layers of widths `layers` (1 or 2 of them, each
// 1..4 neurons, one activation f: sigmoid, tanh or relu) -> one linear output
// y. Layer l = 1..L (L = hidden layers + 1) computes, for neuron j,
//   z_l[j] = sum_i W_l[j,i] a_{l-1}[i] + b_l[j]      (a_0 = x)
//   a_l[j] = f(z_l[j])  (hidden layers),   y = z_L[0]  (the output is linear).
// Loss over a mini-batch of B points (torch's 'mean' reductions):
//   mse   L = (1/B) sum_n (y_n - t_n)^2                      torch.nn.MSELoss
//   bce   L = (1/B) sum_n max(y,0) - y t + log(1 + e^-|y|)   torch.nn.BCEWithLogitsLoss
//         (y is a logit, p = sigmoid(y)).
// Backward pass (the error signals delta = dL/dz, per sample n):
//   delta_L = dL/dy = 2 (y - t) / B (mse)  or  (sigmoid(y) - t) / B (bce)
//   dL/da_l[i] = sum_j delta_{l+1}[j] W_{l+1}[j,i]
//   delta_l[i] = dL/da_l[i] * f'(z_l[i])
//   dL/dW_l[j,i] = sum_n delta_l[j] a_{l-1}[i],   dL/db_l[j] = sum_n delta_l[j].
//
// One iteration = one training step on one mini-batch (a seeded permutation
// per epoch, torch's DataLoader(shuffle=True)): forward, loss, backward,
// update. Its sub-steps walk the computational graph node by node: "forward
// h1[0]" (z and a of hidden neuron 0 of layer 1), ..., "forward out", "loss",
// "backward out" (delta of the output and the gradients of its weights),
// "backward h1[0]", ... (the hidden layers from the last one back), "update".
// ModuleInfo::sub_steps names them for the network chosen, so info() depends
// on the parameters (the runner keeps every distinct ModuleInfo).
//
// The whole iteration is computed at its first sub-step; sub-steps reveal it
// (snapshot phase p = sub-steps done). Gradients come twice: from the scalar
// walk above (the numbers the view shows on the graph) and from the network
// library (nn::Sequential<double> backward); the update is the shared
// Optimizer's step on the library's gradient (one optimizer implementation).
// Gradient check per parameter: backprop g, central difference
//   g_fd = (L(theta + h e_p) - L(theta - h e_p)) / (2 h)   (h = fd_step)
// on the same mini-batch, relative error |g - g_fd| / max(|g|, |g_fd|, 1e-8).
// It is the module's result table (cilab run backprop writes it).
//
// Data: `data=xor4` the four XOR points (0,0)->0, (0,1)->1, (1,0)->1,
// (1,1)->0; `data=loaded` the run's dataset: at most kMaxRows rows, 1..4
// features, two classes (labels 0/1) or a regression target.
// Parameters are named as in PyTorch: W_l is out x in (torch.nn.Linear),
// "W1[2,0]" = weight from input 0 to hidden neuron 2 of layer 1.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/optim/optimizer.h"

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// What one sub-step of the walk computes.
struct WalkStep {
  enum class Kind { Forward, Loss, Backward, Update };
  Kind kind = Kind::Forward;
  int layer = 0;   // 1..L (Forward / Backward); L is the output layer
  int neuron = 0;  // neuron index in that layer
  std::string name;  // "forward h1[0]", "loss", "backward out", "update"
};

// The network's shape and naming (shared by snapshots; fixed per run).
struct BackpropGraph {
  std::vector<int> widths;   // d, hidden widths..., 1
  int activation = 0;        // Backprop::Act index (sigmoid, tanh, relu)
  int loss = 0;              // Backprop::Loss index (mse, bce)
  std::vector<std::string> input_names;  // "x0", "x1" (or the dataset's column names)
  std::vector<std::string> param_names;  // "W1[0,1]", "b1[0]", ... in the flat order
  std::vector<WalkStep> walk;            // the sub-steps of one iteration, in order
  bool classification = true;            // targets are 0/1 labels (accuracy is defined)

  int layers() const { return static_cast<int>(widths.size()) - 1; }  // L
  int num_params() const { return static_cast<int>(param_names.size()); }
  // Flat index of W_l[j,i] and b_l[j] (torch's layout: W row-major, then b, layer by layer).
  int w_index(int l, int j, int i) const;
  int b_index(int l, int j) const;
  // "h1[0]" for hidden neurons, "out" for the output.
  std::string neuron_name(int l, int j) const;
};

// Everything one iteration computed (shared by the snapshots of its sub-steps).
// Per layer l = 1..L, index l - 1; matrices are B x width_l, one row per sample.
struct BackpropTrace {
  std::vector<int> rows;                // dataset rows of the mini-batch
  Eigen::MatrixXd x;                    // B x d
  Eigen::VectorXd target;               // B
  std::vector<Eigen::MatrixXd> z, a;    // weighted sums and activations (a_L = z_L = y)
  Eigen::VectorXd loss_terms;           // per-sample loss (before the 1/B)
  double loss = 0;                      // mini-batch loss L
  std::vector<Eigen::MatrixXd> fprime;  // f'(z_l) (output layer: 1)
  std::vector<Eigen::MatrixXd> da;      // dL/da_l (the sum over the next layer)
  std::vector<Eigen::MatrixXd> delta;   // dL/dz_l, the error signals
  Eigen::VectorXd grad_walk;            // dL/dtheta from the scalar walk
  Eigen::VectorXd grad_lib;             // dL/dtheta from nn::Sequential<double>::backward
  Eigen::VectorXd grad_fd;              // central differences
  Eigen::VectorXd rel_error;            // |grad_lib - grad_fd| / max(|.|, |.|, 1e-8)
  Eigen::VectorXd theta_before, theta_after;
  double lr = 0;                        // learning rate of this step
  int optimizer = 0;                    // OptimizerKind index of this step

  size_t byte_size() const;
};

struct BackpropSnapshot : Snapshot {
  std::shared_ptr<const BackpropGraph> graph;
  std::shared_ptr<const BackpropTrace> trace;  // null before the first iteration
  Eigen::VectorXd theta;                       // current parameters (after the last update)
  std::shared_ptr<const Eigen::MatrixXd> data_x;     // all points (n x d)
  std::shared_ptr<const Eigen::VectorXd> data_t;     // their targets
  Eigen::VectorXd predictions;                 // y of every point at theta

  size_t byte_size() const override;
};

// backprop module. Parameters: data (xor4 | loaded), layers (hidden widths),
// activation, loss, init, batch, fd_step, the shared optimizer group.
// Metrics: loss, train_loss, train_accuracy, max_rel_error, walk_vs_library, grad_norm.
class Backprop : public ModuleBase<Backprop> {
 public:
  enum class Act { Sigmoid = 0, Tanh = 1, ReLU = 2 };
  enum class Loss { MSE = 0, BCE = 1 };
  enum class Data { Xor4 = 0, Loaded = 1 };
  enum class InitKind { Torch = 0, Glorot = 1, He = 2 };

  static constexpr int kMaxHiddenLayers = 2;
  static constexpr int kMaxWidth = 4;
  static constexpr int kMaxInputs = 4;
  static constexpr int kMaxRows = 64;
  static constexpr double kTinyGradient = 1e-8;  // floor of the relative error's denominator

  // Defaults: 2-3-1 sigmoid on the four XOR points, BCE with logits, plain
  // SGD with lr 0.5 and one point per step (the textbook walk-through); it
  // learns XOR within 1000 epochs from 20 of 20 seeds tried (tanh: 8 of 20).
  struct Params {
    Data data = Data::Xor4;
    std::vector<int> layers = {3};
    Act activation = Act::Sigmoid;
    Loss loss = Loss::BCE;
    InitKind init = InitKind::Torch;
    int batch = 1;
    double fd_step = 1e-5;
    OptimizerConfig optim = default_optimizer();
  };
  static OptimizerConfig default_optimizer();

  enum Metric : int {
    kMetricLoss,
    kMetricTrainLoss,
    kMetricTrainAccuracy,
    kMetricMaxRelError,
    kMetricWalkVsLibrary,
    kMetricGradNorm,
    kNumMetrics
  };

  const ModuleInfo& info() const override;
  // Validates (the parameter named in the message), builds the network and draws its weights.
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  // One training step (or the rest of the current one after sub-steps).
  void step() override;
  // The next node of the walk; the first computes the whole step, the last ("update") applies it.
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;

  std::shared_ptr<const BackpropSnapshot> backprop_snapshot() const;
  static Params params_from(const ParamValues& values);

  // The four XOR points (inputs 4 x 2, targets 0/1).
  static void xor_points(Eigen::MatrixXd& x, Eigen::VectorXd& t);

 private:
  struct State;
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Backprop)

}  // namespace cilab
