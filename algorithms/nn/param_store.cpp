// The parameter store (param_store.h).
#include "algorithms/nn/param_store.h"

#include <algorithm>
#include <stdexcept>

namespace cilab::nn {

namespace {

constexpr size_t kAlign = 16;  // entries: one AVX-512 float vector

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ")";
}

}  // namespace

template <class T>
int ParamStore<T>::find(const std::string& name) const {
  for (size_t i = 0; i < tensors_.size(); ++i)
    if (tensors_[i].name == name) return static_cast<int>(i);
  return -1;
}

template <class T>
int ParamStore<T>::add(const std::string& name, std::vector<int64_t> shape) {
  if (allocated_) throw std::invalid_argument("parameter store: '" + name + "' added after allocate()");
  if (name.empty()) throw std::invalid_argument("parameter store: a tensor needs a name");
  if (find(name) >= 0) throw std::invalid_argument("parameter store: the name '" + name + "' is already taken");
  int64_t numel = 1;
  for (int64_t d : shape) {
    if (d < 1)
      throw std::invalid_argument("parameter store: '" + name + "' has shape " + shape_string(shape) +
                                  "; every dimension must be at least 1");
    numel *= d;
  }
  Tensor t;
  t.name = name;
  t.shape = std::move(shape);
  t.numel = numel;
  t.offset = next_;
  next_ += (static_cast<size_t>(numel) + kAlign - 1) / kAlign * kAlign;
  tensors_.push_back(std::move(t));
  return count() - 1;
}

template <class T>
int ParamStore<T>::tie(const std::string& name, int target) {
  if (allocated_) throw std::invalid_argument("parameter store: '" + name + "' tied after allocate()");
  if (target < 0 || target >= count())
    throw std::invalid_argument("parameter store: '" + name + "' tied to tensor " + std::to_string(target) +
                                ", which does not exist");
  if (name.empty()) throw std::invalid_argument("parameter store: a tensor needs a name");
  if (find(name) >= 0) throw std::invalid_argument("parameter store: the name '" + name + "' is already taken");
  const Tensor& owner = tensors_[static_cast<size_t>(target)];
  Tensor t = owner;
  t.name = name;
  t.shares = owner.shares >= 0 ? owner.shares : target;
  tensors_.push_back(std::move(t));
  return count() - 1;
}

template <class T>
void ParamStore<T>::allocate() {
  if (allocated_) throw std::invalid_argument("parameter store: allocate() called twice");
  params_.assign(next_, T(0));
  grads_.assign(next_, T(0));
  allocated_ = true;
}

template <class T>
void ParamStore<T>::zero_grad() {
  std::fill(grads_.begin(), grads_.end(), T(0));
}

template <class T>
int64_t ParamStore<T>::num_parameters() const {
  int64_t n = 0;
  for (const Tensor& t : tensors_)
    if (t.shares < 0) n += t.numel;
  return n;
}

template <class T>
void ParamStore<T>::state_dict(const std::string& prefix, std::vector<NpyArray>& out) const {
  if (!allocated_) throw std::invalid_argument("parameter store: state_dict() before allocate()");
  for (const Tensor& t : tensors_) {
    const T* v = params_.data() + t.offset;
    out.push_back(NpyArray::floats(prefix + t.name, t.shape, std::vector<float>(v, v + t.numel)));
  }
}

template class ParamStore<float>;
template class ParamStore<double>;

}  // namespace cilab::nn
