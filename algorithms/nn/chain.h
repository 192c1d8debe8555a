// A chain of layers inside a container layer (internal to the network library: residual.cpp,
// concat.cpp, sequential_layer.cpp): configured in order, its parameters the layers' slices laid
// end to end inside the container's slice, its activations kept for the backward pass.
#pragma once

#include "algorithms/nn/layers.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cilab::nn::detail {

template <class T>
class LayerChain {
 public:
  using Layers = std::vector<std::unique_ptr<Layer<T>>>;
  LayerChain() = default;
  explicit LayerChain(Layers layers) : layers_(std::move(layers)) {}
  LayerChain(const LayerChain& o) : offsets_(o.offsets_), params_(o.params_) {
    for (const auto& l : o.layers_) layers_.push_back(l->clone());
  }
  LayerChain& operator=(const LayerChain&) = delete;
  LayerChain(LayerChain&&) noexcept = default;

  bool empty() const { return layers_.empty(); }
  // Configures every layer for input shape `in`, its parameters starting at `first` within the
  // container's slice; returns the output shape. num_params() is the chain's total afterwards.
  Shape configure(const Shape& in, int first) {
    Shape s = in;
    offsets_.clear();
    int total = first;
    for (const auto& l : layers_) {
      s = l->configure_shape(s);
      offsets_.push_back(total);
      total += l->num_params();
    }
    params_ = total - first;
    return s;
  }
  int num_params() const { return params_; }
  // params and grads: the container's slice (the chain's offsets are within it).
  void bind(T* params, T* grads) {
    for (size_t i = 0; i < layers_.size(); ++i) layers_[i]->bind(params + offsets_[i], grads + offsets_[i]);
  }
  void init(Rng& rng, Init init) {
    for (const auto& l : layers_) l->init(rng, init);
  }
  // Runs every layer; returns the last one's output (valid until the next forward).
  const Mat<T>& forward(const Mat<T>& x, bool train) {
    acts_.resize(layers_.size());
    const Mat<T>* in = &x;
    for (size_t i = 0; i < layers_.size(); ++i) {
      layers_[i]->forward(*in, acts_[i], train);
      in = &acts_[i];
    }
    return acts_.back();
  }
  // Back through every layer from dy: the parameter gradients added when `params` (else the input
  // gradients alone, Layer::backward_input); dx (when given) gets dL/d(chain input).
  void backward(const Mat<T>& dy, Mat<T>* dx, bool params) {
    Mat<T> d = dy, next;
    for (size_t i = layers_.size(); i-- > 0;) {
      const bool need = i > 0 || dx != nullptr;
      if (params)
        layers_[i]->backward(d, need ? &next : nullptr);
      else
        layers_[i]->backward_input(d, next);
      if (need) d.swap(next);
    }
    if (dx) dx->swap(d);
  }
  // Each layer's tensors as PREFIX + its index + "." (nn.Sequential's names).
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const {
    for (size_t i = 0; i < layers_.size(); ++i) layers_[i]->state_dict(prefix + std::to_string(i) + ".", out);
  }

 private:
  Layers layers_;
  std::vector<int> offsets_;
  int params_ = 0;
  std::vector<Mat<T>> acts_;  // each layer's output of the last forward
};

}  // namespace cilab::nn::detail
