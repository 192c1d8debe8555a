// One parameter store for a model written with the stateless kernels (kernels.h, conv.h, gemm.h):
// named tensors in one flat parameter buffer and one flat gradient buffer, stepped whole by the
// one Optimizer (Optimizer::step(store.params(), store.grads(), lr)), as Sequential's buffers
// are. Names and shapes are PyTorch's ("rnn.weight_ih_l0", "tok_emb.weight"), so the export is a
// state_dict as it is.
//
// Shared tensors. tie(name, target) gives tensor `target` a second name: the same values and the
// same gradient slot. Every use of a shared tensor ADDS its gradient into that one slot (the
// kernels' backward passes add parameter gradients), which is how autograd sums the gradients of
// a tensor used twice: a language model's input embedding tied to its output layer, or a
// recurrent cell's weights used at every time step of the unrolled sequence (one tensor, T uses,
// one gradient: the sum over t of each step's contribution).
//
//   ParamStore<float> ps;
//   const int emb = ps.add("tok_emb.weight", {vocab, d});
//   const int head = ps.tie("lm_head.weight", emb);  // the output layer reads the same matrix
//   const int b = ps.add("lm_head.bias", {vocab});
//   ps.allocate();                                   // both buffers, zero
//   init_weights(rng, Init::Torch, ps.value(emb), ps.numel(emb), ps.value(b), vocab, d, vocab);
//   ... forward and backward with ps.value(i) / ps.grad(i) ...
//   optimizer.step(ps.params(), ps.grads(), lr);  ps.zero_grad();
//
// The buffers are aligned as Sequential's (same alignment in every run: the same bits). Tensors
// lie in the order they were added, each starting on a 16-entry boundary (one AVX-512 float
// vector); the padding between them stays 0 in values and gradients.
#pragma once

#include "algorithms/core/npz.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace cilab::nn {

template <class T>
class ParamStore {
 public:
  struct Tensor {
    std::string name;
    std::vector<int64_t> shape;  // PyTorch's (out, in) for a weight
    size_t offset = 0;           // into params() and grads()
    int64_t numel = 0;
    int shares = -1;             // the tensor whose storage this name uses (-1: its own)
  };

  // Declares a tensor (before allocate()); returns its index. Throws std::invalid_argument for a
  // duplicate or empty name, a dimension below 1, or a call after allocate().
  int add(const std::string& name, std::vector<int64_t> shape);
  // Declares `name` as a second name of tensor `target` (tied weights; see the top): same shape,
  // same storage, same gradient. Throws for a duplicate name or an unknown target.
  int tie(const std::string& name, int target);
  // Allocates the buffers, every value and gradient 0. Once.
  void allocate();
  bool allocated() const { return allocated_; }

  int count() const { return static_cast<int>(tensors_.size()); }
  const Tensor& tensor(int i) const { return tensors_.at(static_cast<size_t>(i)); }
  // The index of the tensor with this name, or -1.
  int find(const std::string& name) const;
  int64_t numel(int i) const { return tensor(i).numel; }
  // A tensor's values and gradient (after allocate()).
  T* value(int i) { return params_.data() + tensor(i).offset; }
  const T* value(int i) const { return params_.data() + tensor(i).offset; }
  T* grad(int i) { return grads_.data() + tensor(i).offset; }
  const T* grad(int i) const { return grads_.data() + tensor(i).offset; }

  // The flat buffers (shared tensors counted once), for the optimizer.
  size_t size() const { return params_.size(); }
  T* params() { return params_.data(); }
  const T* params() const { return params_.data(); }
  T* grads() { return grads_.data(); }
  const T* grads() const { return grads_.data(); }
  void zero_grad();
  // Trainable values (shared tensors counted once, padding not counted): torch's
  // sum(p.numel() for p in model.parameters()).
  int64_t num_parameters() const;

  // Every name with its values as float32, in declaration order, a tied name under its own name
  // too (torch's state_dict lists a shared tensor under each of its names; load_state_dict then
  // takes the file as it is). write_npz saves them.
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const;

 private:
  std::vector<Tensor> tensors_;
  std::vector<T, Eigen::aligned_allocator<T>> params_, grads_;
  size_t next_ = 0;
  bool allocated_ = false;
};

extern template class ParamStore<float>;
extern template class ParamStore<double>;

}  // namespace cilab::nn
