// Sequential: a stack of layers with one flat parameter buffer and one flat
// gradient buffer (the shared optimizer steps them whole:
// Optimizer::step(params(), grads(), lr)), and the activation buffers of the
// last forward pass, reused from batch to batch (no allocation in the training
// loop once the batch size is stable). forward() runs a Linear and the
// activation after it as one fused pass (Layer::forward_fused), and backward()
// and backward_input() a Linear and the ReLU below it (Layer::backward_fused):
// same values.
//
//   Sequential<float> net;
//   net.add(make_linear<float>(64)); net.add(make_activation<float>(Activation::ReLU));
//   net.add(make_linear<float>(10));
//   net.build(784);  net.init(rng, Init::Torch);
//   const Mat<float>& logits = net.forward(x, true);     // x must outlive backward()
//   net.zero_grad();  softmax_cross_entropy(logits, y, &dlogits);  net.backward(dlogits);
//
// Copies are deep (layers cloned, buffers copied, rebound); a copy has no
// forward pass of its own yet, so call forward() on it before backward().
#pragma once

#include "algorithms/nn/layers.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cilab::nn {

template <class T>
class Sequential {
 public:
  Sequential() = default;
  Sequential(const Sequential& o);
  Sequential& operator=(const Sequential& o);
  Sequential(Sequential&&) noexcept = default;
  Sequential& operator=(Sequential&&) noexcept = default;

  // Appends a layer (before build()).
  void add(std::unique_ptr<Layer<T>> layer);
  // Configures every layer for `in_features` inputs, allocates the buffers and
  // binds the layers to them (parameters zero until init()).
  void build(int in_features);
  // The same for samples of shape `in` ({C, H, W} for images: convolution and pooling layers
  // take it; a flatten layer goes before the first Linear). Throws std::invalid_argument naming
  // the layer that cannot take its input.
  void build(const Shape& in);
  const Shape& in_shape() const { return in_shape_; }
  const Shape& out_shape() const { return out_shape_; }
  // Draws every layer's initial parameters from rng, in layer order.
  void init(Rng& rng, Init init);

  int in_features() const { return in_; }
  int out_features() const { return out_; }
  size_t size() const { return layers_.size(); }
  Layer<T>& layer(size_t i) { return *layers_[i]; }
  const Layer<T>& layer(size_t i) const { return *layers_[i]; }
  // Offset of layer i's parameters in params() (its slice has num_params() entries).
  size_t param_offset(size_t i) const { return offsets_[i]; }

  size_t num_params() const { return params_.size(); }
  T* params() { return params_.data(); }
  const T* params() const { return params_.data(); }
  T* grads() { return grads_.data(); }
  const T* grads() const { return grads_.data(); }
  void zero_grad();

  // Runs every layer; returns the output (valid until the next forward).
  // train: dropout draws masks, batch norm uses batch statistics.
  const Mat<T>& forward(const Mat<T>& x, bool train);
  // Output of layer i of the last forward (i = size() - 1 is the network's output).
  const Mat<T>& activation(size_t i) const { return acts_[i]; }
  // Back-propagates dL/doutput through every layer: adds dL/dtheta to grads()
  // and, if dx is given, writes dL/dx (the input gradient).
  void backward(const Mat<T>& dy, Mat<T>* dx = nullptr);
  // dL/d(input of layer i) of the last backward, for 1 <= i < size() (layer 0's
  // input gradient is backward()'s dx): the activations lesson reads dL/dz per layer.
  const Mat<T>& input_gradient(size_t i) const { return dacts_[i]; }
  // The input gradient alone: dx = dL/dx for dL/doutput = dy, adding no
  // parameter gradients (Layer::backward_input). dy must stay unchanged until
  // double_backward(), which reads it with the per-layer input gradients.
  void backward_input(const Mat<T>& dy, Mat<T>& dx);
  // Second order, after forward(x) and backward_input(dy, dx): for a scalar P
  // that depends on dx, ADDS dP/dtheta to grads() given dxbar = dP/d(dx).
  // theta enters dx through the Linear weights of the backward pass and,
  // for curved activations, through the slopes f'(z) of the forward pass
  // (back-propagated by an ordinary backward). Linear and activation layers
  // only (std::invalid_argument otherwise). WGAN-GP's gradient penalty.
  void double_backward(const Mat<T>& dxbar);
  // Every layer's tensors named as torch.nn.Sequential's state_dict names them: "PREFIX" + the
  // layer's index + "." + the tensor ("0.weight", "encoder.2.bias"; activations and dropout
  // count in the index and add no tensor), float32 (NpyArray; write_npz saves them).
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const;

 private:
  void bind_all();

  std::vector<std::unique_ptr<Layer<T>>> layers_;
  std::vector<size_t> offsets_;
  // Aligned to Eigen's packet alignment: vectorised loops over a layer's
  // slice (Eigen's partial reductions peel unaligned heads with scalar code
  // that sums in another order) then see the same alignment in every run, so
  // the same architecture gives bit-identical results whatever malloc returns.
  std::vector<T, Eigen::aligned_allocator<T>> params_, grads_;
  std::vector<Mat<T>> acts_;   // output of each layer
  std::vector<Mat<T>> dacts_;  // gradient w.r.t. each layer's input (backward scratch)
  const Mat<T>* dy_ = nullptr;  // backward_input's dy (read by double_backward)
  std::vector<Mat<T>> xbar_;    // double_backward: dP/d(each layer's forward input)
  Mat<T> ubar_[2];              // double_backward: adjoints of the input-gradient chain
  int in_ = 0, out_ = 0;
  Shape in_shape_, out_shape_;
  bool built_ = false;
};

extern template class Sequential<float>;
extern template class Sequential<double>;

}  // namespace cilab::nn
