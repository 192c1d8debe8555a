// A network written as a line of text (the cnn module's `layers`, the benches and
// tests that build LeNet-5): comma-separated tokens, input to output,
//
//   conv6k5p2     Conv2d(out_channels 6, kernel 5, padding 2); more suffixes:
//                 s<stride>, d<dilation> (conv16k3s2p1d1), any order after k
//   pool2         MaxPool2d(2) (stride = kernel); pool3s2: kernel 3, stride 2
//   maxpool2      the same; avgpool2: AvgPool2d(2)
//   fc120         Linear(120)
//
// Every conv and fc is followed by the activation; a flatten goes in before the
// first fc (and before the classifier when there is none); the last layer is a
// Linear to `outputs` logits, added here. LeNet-5 (LeCun et al. 1998, with ReLU
// and max pooling as PyTorch's tutorials write it) is
// "conv6k5p2,pool2,conv16k5,pool2,fc120,fc84" on 1 x 28 x 28: 61 706 parameters.
#pragma once

#include "algorithms/nn/layers.h"
#include "algorithms/nn/sequential.h"

#include <string>
#include <vector>

namespace cilab::nn {

struct LayerToken {
  enum class Kind { Conv, MaxPool, AvgPool, Linear };
  Kind kind = Kind::Linear;
  int size = 0;      // conv: out_channels; fc: out_features; pool: kernel
  int kernel = 0;    // conv only
  int stride = 0;    // conv: 1 by default; pool: the kernel by default
  int padding = 0;   // conv
  int dilation = 1;  // conv
  std::string text;  // the token as written ("conv6k5p2")
};

// The default of the cnn module, LeNet-5.
inline constexpr const char* kLeNet5 = "conv6k5p2,pool2,conv16k5,pool2,fc120,fc84";

// Parses a layer line. Throws std::invalid_argument "item 2 'conv6x5': ..., try
// conv6k5p2, pool2, avgpool2 or fc120" (the caller prefixes the parameter).
std::vector<LayerToken> parse_layer_stack(const std::string& text);

// The network of `tokens` with `activation` after every conv and fc, a flatten before
// the first fc, and a final Linear(outputs); built for samples of shape `in` (throws
// std::invalid_argument naming the token whose input is too small, with the shape it got).
// max_params > 0: refuses, before anything is allocated, a network with more parameters.
template <class T>
Sequential<T> make_layer_stack(const std::vector<LayerToken>& tokens, Activation activation, int outputs,
                               const Shape& in, double max_params = 0);

}  // namespace cilab::nn
