// The network library's layers: forward/backward pairs written out, as the
// course derives them (chapters 9 and 11). No UI; Eigen only.
//
// Shapes: a batch is a row-major matrix, one sample per row (B x features),
// PyTorch's layout. Every layer is a template on the scalar: float to train,
// double for gradient checks (explicitly instantiated for both in layers.cpp).
//
//   forward(x, y, train)  y = f(x); keeps what backward needs (a pointer to x,
//                         which must stay unchanged until backward: Sequential
//                         owns the activations), and in train mode draws its
//                         randomness (dropout) / uses batch statistics (batch norm).
//   backward(dy, dx)      ADDS dL/dtheta to the layer's gradient slots (call
//                         Sequential::zero_grad() between steps, as torch's
//                         zero_grad) and, when dx != nullptr, writes dL/dx: the
//                         input gradient (the GAN trains its generator through
//                         the discriminator with it).
//
// Parameters live in one flat buffer owned by the container (the optimizer
// steps it whole); a layer holds Eigen::Maps into it, set by bind().
//
// Threads and determinism: Linear's three products (y = x W^T + b,
// dW += dy^T x, dx = dy W) each run over a fixed partition of their output's
// columns (core/parallel.h; at most 4 blocks of ~64 columns, from the shapes
// only), every block owning its columns: no reduction across threads, so 1 or
// 2 threads give bit-identical weights. Gradient sums are formed in a fixed
// order that does not depend on the buffers' addresses either. The products
// are small register-tiled kernels (gemm_kernels.h, included by layers.cpp
// only) that read the operands in place: at a GAN's or an MLP's sizes Eigen's
// general GEMM spent a third of its time packing.
//
// Conventions followed (PyTorch names and defaults): Linear y = x W^T + b, W is
// out x in (torch.nn.Linear); LeakyReLU slope 0.01; ELU alpha 1; Softplus beta 1,
// threshold 20 (linear above); GELU the exact erf form (approximate='none');
// Dropout scales kept units by 1/(1-p) in training and is the identity in eval;
// BatchNorm1d eps 1e-5, momentum 0.1, normalises with the biased batch variance
// and keeps the unbiased one in running_var; LayerNorm eps 1e-5 over the features
// of each sample, elementwise affine.
#pragma once

#include "algorithms/core/npz.h"
#include "algorithms/core/rng.h"

#include <Eigen/Core>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cilab::nn {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

// Weight initialisation of Linear layers.
enum class Init {
  Torch,   // torch.nn.Linear's default: W, b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))
  Glorot,  // W ~ U(-a, a), a = sqrt(6 / (fan_in + fan_out)) (xavier_uniform_); b = 0
  He,      // W ~ N(0, 2 / fan_in) (kaiming_normal_, relu); b = 0
};
const char* init_name(Init init);  // "torch", "glorot", "he"

enum class Activation { Identity, ReLU, LeakyReLU, ELU, Sigmoid, Tanh, Softplus, GELU };
constexpr int kNumActivations = 8;
// "identity", "relu", "leaky_relu", "elu", "sigmoid", "tanh", "softplus", "gelu".
const char* activation_name(Activation a);
// Every activation's name in enum order: the options of an `activation` Choice parameter.
std::vector<std::string> activation_names();
// f(z) and f'(z) of an activation, one value (plots, the activations lesson).
double activation_value(Activation a, double z);
double activation_derivative(Activation a, double z);
// f''(z) (the gradient penalty's second-order pass; 0 for the piecewise-linear ones).
double activation_second_derivative(Activation a, double z);

// The shape of one sample (rows of a batch hold samples flattened in row-major order):
// {features}, or {channels, height, width} for images (PyTorch's (C, H, W) without the batch).
using Shape = std::vector<int>;
int64_t shape_size(const Shape& s);     // the product of the dimensions
std::string shape_text(const Shape& s);  // "6 x 14 x 14"

template <class T>
class Layer {
 public:
  virtual ~Layer() = default;
  // "linear", "relu", "batch_norm", ...
  virtual std::string name() const = 0;
  // Output features for `in` input features (throws std::invalid_argument if
  // the layer cannot take them); called once by the container before bind().
  virtual int configure(int in) = 0;
  // The output shape for input shape `in` (throws std::invalid_argument if the layer cannot take
  // it); what the container calls. Default: a layer of flat features, configure(size); one that
  // keeps the size (an activation, dropout) keeps the shape too. Linear and the norms take flat
  // features only; convolution and pooling take {C, H, W}.
  virtual Shape configure_shape(const Shape& in);
  // Trainable parameters (size of its slice of the flat buffers).
  virtual int num_params() const { return 0; }
  // Points the layer at its slices of the container's parameter and gradient buffers.
  virtual void bind(T* /*params*/, T* /*grads*/) {}
  // Draws initial parameters.
  virtual void init(Rng& /*rng*/, Init /*init*/) {}
  virtual void forward(const Mat<T>& x, Mat<T>& y, bool train) = 0;
  virtual void backward(const Mat<T>& dy, Mat<T>* dx) = 0;
  // The input gradient alone, dx = dL/dx, with no parameter gradients (the
  // GAN's generator step back-propagates through the discriminator this way:
  // half a Linear's backward). Layers without parameters need not override
  // it; batch and layer norm do not, and add their parameter gradients too.
  virtual void backward_input(const Mat<T>& dy, Mat<T>& dx) { backward(dy, &dx); }
  // Second order (WGAN-GP's gradient penalty differentiates an input
  // gradient). The input-gradient map of this layer is u_in = B(theta, x, u_out)
  // (u_out: the dy a backward_input got; x: the forward input). Given
  // ubar_in = dP/du_in for a scalar P, writes ubar_out = (dB/du_out)^T ubar_in,
  // ADDS (dB/dtheta)^T ubar_in to the parameter gradients and (dB/dx)^T ubar_in
  // to *xbar (when given), and returns whether that last term can be nonzero
  // (false for Linear and for piecewise-linear activations, whose slope is
  // constant almost everywhere). Linear and the elementwise activations
  // implement it; the others throw std::invalid_argument naming the layer.
  virtual bool double_backward(const Mat<T>& u_out, const Mat<T>& ubar_in, Mat<T>& ubar_out, Mat<T>* xbar);
  // Optionally runs this layer and `next` in one pass: z = this(x),
  // y = next(z), both kept for backward exactly as two forward() calls would
  // (and the same values). Returns false (nothing done) when the pair cannot
  // be fused; Sequential then calls forward() on each. Linear fuses with an
  // activation (bias, GEMM and activation per block of columns).
  virtual bool forward_fused(const Mat<T>& /*x*/, Mat<T>& /*z*/, Layer<T>& /*next*/, Mat<T>& /*y*/,
                             bool /*train*/) {
    return false;
  }
  // Optionally runs this layer's backward and then that of `prev` (the layer
  // below it) in one pass: dz = dL/d(this layer's input), kept as backward()
  // would write it, then prev.backward(dz, dx) (the same values). With
  // params = false, the input gradients alone (backward_input). Returns false
  // (nothing done) when the pair cannot be fused; Sequential then calls each.
  // Linear fuses with a ReLU below it (the mask applied as dz is stored).
  virtual bool backward_fused(const Mat<T>& /*dy*/, Mat<T>& /*dz*/, Layer<T>& /*prev*/, Mat<T>* /*dx*/,
                              bool /*params*/) {
    return false;
  }
  // A copy (unbound: the container rebinds it to its own buffers).
  virtual std::unique_ptr<Layer> clone() const = 0;
  // Its tensors as PyTorch's state_dict names and shapes them, each name after `prefix`
  // ("2."), as float32: Linear weight (out, in) and bias (out); batch norm weight, bias,
  // running_mean, running_var and num_batches_tracked (int64); layer norm weight and bias.
  // Layers without tensors (activations, dropout) add nothing.
  virtual void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const {
    (void)prefix;
    (void)out;
  }
};

template <class T>
bool Layer<T>::double_backward(const Mat<T>&, const Mat<T>&, Mat<T>&, Mat<T>*) {
  throw std::invalid_argument("layer '" + name() +
                              "' has no second-order pass (the gradient penalty supports linear and activation "
                              "layers); remove it from the discriminator or choose another loss");
}

// y = x W^T + b, W out x in (row-major in the flat buffer, then b).
template <class T>
std::unique_ptr<Layer<T>> make_linear(int out_features);
// An elementwise activation.
template <class T>
std::unique_ptr<Layer<T>> make_activation(Activation a);
// Inverted dropout with probability p of zeroing a unit (train mode only); its
// own Rng, seeded by seed. freeze_mask(true) keeps the last mask (gradient checks).
template <class T>
std::unique_ptr<Layer<T>> make_dropout(double p, uint64_t seed);
// Batch normalisation over the batch (torch.nn.BatchNorm1d): gamma = 1, beta = 0 initially.
template <class T>
std::unique_ptr<Layer<T>> make_batch_norm();
// Layer normalisation over the features of each sample (torch.nn.LayerNorm).
template <class T>
std::unique_ptr<Layer<T>> make_layer_norm();

// Convolution (torch.nn.Conv2d(in_channels from the input shape, out_channels, kernel_size,
// stride, padding, dilation, groups), square kernels): {C, H, W} -> {out_channels, OH, OW}; its
// state_dict weight is (out, C / groups, k, k). Initialised as Linear with fan_in = C k^2 / groups.
template <class T>
std::unique_ptr<Layer<T>> make_conv2d(int out_channels, int kernel, int stride = 1, int padding = 0, int dilation = 1,
                                      int groups = 1);
// torch.nn.Conv1d on {C, L} samples (sequences, signals): {C, L} -> {out_channels, OL}, the same
// kernels as conv2d with H = 1; state_dict weight (out, C / groups, k).
template <class T>
std::unique_ptr<Layer<T>> make_conv1d(int out_channels, int kernel, int stride = 1, int padding = 0, int dilation = 1,
                                      int groups = 1);
// Max and average pooling (torch.nn.MaxPool2d / AvgPool2d, stride defaults to the kernel):
// {C, H, W} -> {C, OH, OW}.
template <class T>
std::unique_ptr<Layer<T>> make_max_pool2d(int kernel, int stride = 0);
template <class T>
std::unique_ptr<Layer<T>> make_avg_pool2d(int kernel, int stride = 0);
// torch.nn.Flatten: any shape -> {its size} (the values unchanged), before a Linear.
template <class T>
std::unique_ptr<Layer<T>> make_flatten();

// Batch normalisation of each channel of {C, H, W} samples over the batch and every position
// (torch.nn.BatchNorm2d: eps 1e-5, momentum 0.1; gamma = 1, beta = 0 initially; running_mean,
// running_var and num_batches_tracked in its state_dict).
template <class T>
std::unique_ptr<Layer<T>> make_batch_norm2d();

// A masked Linear y = x (W .* M)^T + b (MADE's layer): M[o, i] = keep(o, i) ? 1 : 0, computed
// when the layer learns its input width; masked weights never reach the output and get no
// gradient. Initialised and named as torch.nn.Linear, plus the mask as a buffer (PREFIX + "mask").
template <class T>
std::unique_ptr<Layer<T>> make_masked_linear(int out_features, std::function<bool(int, int)> keep);

// A residual block y = x + f(x) (He et al. 2016), f the chain `inner` in order (at least one layer;
// it must keep the sample's shape, else configuring throws naming both shapes). Its parameters are
// the inner layers' in order, a slice of the container's buffer; its state_dict names them
// "PREFIX" + "fn." + the inner index ("2.fn.0.weight"), as a torch module holding f as
// nn.Sequential attribute `fn`.
template <class T>
std::unique_ptr<Layer<T>> make_residual(std::vector<std::unique_ptr<Layer<T>>> inner);

// A chain of layers as one layer (torch.nn.Sequential nested in another: a block written once,
// placed as a unit in a Sequential, a residual block or a concat branch); at least one layer. Its
// parameters are the inner layers' in order, a slice of the owner's buffer; state_dict names
// "PREFIX" + the inner index ("2.0.weight").
template <class T>
std::unique_ptr<Layer<T>> make_sequential(std::vector<std::unique_ptr<Layer<T>>> layers);

// Branches side by side: y = [f_1(x), f_2(x), ...] concatenated along the first dimension of the
// sample's shape (features, or channels of {C, H, W}: torch.cat(dim=1) on a batch; Inception's
// and DenseNet's blocks), each f_b a chain of layers (at least two branches, each with a layer;
// the branches must agree in every other dimension, else configuring throws naming both shapes).
// dL/dx is the sum of the branches' input gradients. Parameters: every branch's layers in order,
// a slice of the container's buffer; state_dict names "PREFIX" + "branches.B.J." (an nn.ModuleList
// `branches` of nn.Sequential).
template <class T>
std::unique_ptr<Layer<T>> make_concat(std::vector<std::vector<std::unique_ptr<Layer<T>>>> branches);

// The initial parameters of a layer with weights and biases (Linear: fan_in = in, fan_out = out;
// Conv2d: fan_in = C k^2 / groups, fan_out = C_out k^2 / groups): the nw weights, then the nb
// biases, drawn from rng in that order as Init says (torch: both U(+-1/sqrt(fan_in)); glorot, he:
// the biases zero).
template <class T>
void init_weights(Rng& rng, Init init, T* w, int64_t nw, T* b, int nb, double fan_in, double fan_out);

// Dropout control (no-op for other layers): keep the current mask on later forwards.
template <class T>
void freeze_dropout_mask(Layer<T>& layer, bool frozen);

// One kind of layer the library has, as a factory with example arguments.
template <class T>
struct LayerKind {
  std::string name;  // "linear", "relu", ..., "dropout", "batch_norm", "layer_norm", "conv2d", ...
  std::function<std::unique_ptr<Layer<T>>()> make;
  Shape example_in = {5};  // an input shape it takes ({C, H, W} for convolution and pooling)
};
// Every kind of layer the library has (a Linear of 3 outputs, each activation, dropout p = 0.3,
// the norms, convolutions with stride, padding, dilation and groups, both poolings, flatten): a layer added to the library is added here, and the library's tests check its
// gradients the day it is (check_network in gradcheck.h; tests/algorithms/nn/test_nn.cpp).
template <class T>
std::vector<LayerKind<T>> layer_kinds();

}  // namespace cilab::nn
