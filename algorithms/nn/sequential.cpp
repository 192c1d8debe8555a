// Sequential (sequential.h).
#include "algorithms/nn/sequential.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cilab::nn {

template <class T>
Sequential<T>::Sequential(const Sequential& o)
    : offsets_(o.offsets_),
      params_(o.params_),
      grads_(o.grads_),
      in_(o.in_),
      out_(o.out_),
      in_shape_(o.in_shape_),
      out_shape_(o.out_shape_),
      built_(o.built_) {
  for (const auto& l : o.layers_) layers_.push_back(l->clone());
  acts_.resize(layers_.size());
  dacts_.resize(layers_.size());
  if (built_) bind_all();
}

template <class T>
Sequential<T>& Sequential<T>::operator=(const Sequential& o) {
  if (this != &o) *this = Sequential(o);
  return *this;
}

template <class T>
void Sequential<T>::add(std::unique_ptr<Layer<T>> layer) {
  if (built_) throw std::logic_error("Sequential::add after build()");
  layers_.push_back(std::move(layer));
}

template <class T>
void Sequential<T>::build(int in_features) {
  build(Shape{in_features});
}

template <class T>
void Sequential<T>::build(const Shape& in) {
  if (layers_.empty()) throw std::invalid_argument("network: no layers");
  in_shape_ = in;
  in_ = static_cast<int>(shape_size(in));
  Shape f = in;
  size_t total = 0;
  offsets_.clear();
  for (auto& l : layers_) {
    f = l->configure_shape(f);
    offsets_.push_back(total);
    total += static_cast<size_t>(l->num_params());
  }
  out_shape_ = f;
  out_ = static_cast<int>(shape_size(f));
  params_.assign(total, T(0));
  grads_.assign(total, T(0));
  acts_.assign(layers_.size(), Mat<T>());
  dacts_.assign(layers_.size(), Mat<T>());
  built_ = true;
  bind_all();
}

template <class T>
void Sequential<T>::bind_all() {
  for (size_t i = 0; i < layers_.size(); ++i) layers_[i]->bind(params_.data() + offsets_[i], grads_.data() + offsets_[i]);
}

template <class T>
void Sequential<T>::init(Rng& rng, Init init) {
  for (auto& l : layers_) l->init(rng, init);
}

template <class T>
void Sequential<T>::state_dict(const std::string& prefix, std::vector<NpyArray>& out) const {
  for (size_t i = 0; i < layers_.size(); ++i) layers_[i]->state_dict(prefix + std::to_string(i) + ".", out);
}

template <class T>
void Sequential<T>::zero_grad() {
  std::fill(grads_.begin(), grads_.end(), T(0));
}

template <class T>
const Mat<T>& Sequential<T>::forward(const Mat<T>& x, bool train) {
  if (!built_) throw std::logic_error("Sequential::forward before build()");
  if (x.cols() != in_)
    throw std::invalid_argument("network: expected " + std::to_string(in_) + " input features, got " +
                                std::to_string(x.cols()));
  const Mat<T>* in = &x;
  for (size_t i = 0; i < layers_.size(); ++i) {
    const bool pair = i + 1 < layers_.size();
    if (pair && layers_[i]->forward_fused(*in, acts_[i], *layers_[i + 1], acts_[i + 1], train))
      ++i;  // layer i + 1 ran too (Linear + activation in one pass)
    else
      layers_[i]->forward(*in, acts_[i], train);
    in = &acts_[i];
  }
  return acts_.back();
}

template <class T>
void Sequential<T>::backward(const Mat<T>& dy, Mat<T>* dx) {
  const Mat<T>* g = &dy;
  for (size_t i = layers_.size(); i-- > 0;) {
    Mat<T>* out = i > 0 ? &dacts_[i] : dx;
    if (i > 1 && layers_[i]->backward_fused(*g, dacts_[i], *layers_[i - 1], &dacts_[i - 1], true)) {
      g = &dacts_[--i];  // layer i - 1 ran too (Linear + the ReLU below it in one pass)
      continue;
    }
    layers_[i]->backward(*g, out);
    g = out;
  }
}

template <class T>
void Sequential<T>::backward_input(const Mat<T>& dy, Mat<T>& dx) {
  dy_ = &dy;
  const Mat<T>* g = &dy;
  for (size_t i = layers_.size(); i-- > 0;) {
    Mat<T>& out = i > 0 ? dacts_[i] : dx;
    if (i > 1 && layers_[i]->backward_fused(*g, dacts_[i], *layers_[i - 1], &dacts_[i - 1], false)) {
      g = &dacts_[--i];
      continue;
    }
    layers_[i]->backward_input(*g, out);
    g = &out;
  }
}

template <class T>
void Sequential<T>::double_backward(const Mat<T>& dxbar) {
  if (!dy_) throw std::logic_error("Sequential::double_backward before backward_input()");
  const size_t n = layers_.size();
  xbar_.resize(n);
  // Through the input-gradient chain, first layer to last: layer i mapped
  // u_out (dacts_[i + 1], or dy for the last) to its input gradient.
  size_t top = 0;  // 1 + the highest layer whose forward input got a nonzero adjoint
  const Mat<T>* ubar = &dxbar;
  for (size_t i = 0; i < n; ++i) {
    const Mat<T>& u_out = i + 1 < n ? dacts_[i + 1] : *dy_;
    Mat<T>* xb = nullptr;
    if (i > 0) {
      xbar_[i].setZero(acts_[i - 1].rows(), acts_[i - 1].cols());
      xb = &xbar_[i];
    }
    Mat<T>& next = ubar_[i % 2];
    if (layers_[i]->double_backward(u_out, *ubar, next, xb) && i > 0) top = i + 1;
    ubar = &next;
  }
  // The slopes' share: an ordinary backward from below the highest injected
  // adjoint (the network's output does not enter P), adding each layer's
  // xbar to the gradient flowing into its input.
  if (top == 0) return;
  Mat<T>* g = nullptr;  // gradient w.r.t. the output of layer i
  for (size_t i = top; i-- > 1;) {
    Mat<T>& in_grad = dacts_[i];
    if (g)
      layers_[i]->backward(*g, &in_grad);
    else
      in_grad.setZero(acts_[i - 1].rows(), acts_[i - 1].cols());
    in_grad += xbar_[i];
    g = &in_grad;
  }
  layers_[0]->backward(*g, nullptr);
}

template class Sequential<float>;
template class Sequential<double>;

}  // namespace cilab::nn
