// The residual container (layers.h: make_residual): y = x + f(x), f an inner chain of layers whose
// parameters are a slice of the container's one flat buffer (bound like any layer's), so the one
// optimizer steps them with the rest. The skip connection's gradient is the identity:
// dL/dx = dL/dy + (df/dx)^T dL/dy.
#include "algorithms/nn/layers.h"

#include <stdexcept>
#include <utility>

namespace cilab::nn {

namespace {

template <class T>
class Residual final : public Layer<T> {
 public:
  explicit Residual(std::vector<std::unique_ptr<Layer<T>>> inner) : inner_(std::move(inner)) {
    if (inner_.empty()) throw std::invalid_argument("residual: f has no layer (y = x + f(x) needs at least one)");
  }
  std::string name() const override { return "residual"; }
  int configure(int in) override {
    configure_shape(Shape{in});
    return in;
  }
  Shape configure_shape(const Shape& in) override {
    Shape s = in;
    offsets_.clear();
    int total = 0;
    for (const auto& l : inner_) {
      s = l->configure_shape(s);
      offsets_.push_back(total);
      total += l->num_params();
    }
    if (s != in)
      throw std::invalid_argument("residual: its layers map " + shape_text(in) + " to " + shape_text(s) +
                                  "; x + f(x) needs f to keep the shape (end f with a layer of " + shape_text(in) + ")");
    params_ = total;
    return in;
  }
  int num_params() const override { return params_; }
  void bind(T* params, T* grads) override {
    for (size_t i = 0; i < inner_.size(); ++i) inner_[i]->bind(params + offsets_[i], grads + offsets_[i]);
  }
  void init(Rng& rng, Init init) override {
    for (const auto& l : inner_) l->init(rng, init);
  }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override {
    acts_.resize(inner_.size());
    const Mat<T>* in = &x;
    for (size_t i = 0; i < inner_.size(); ++i) {
      inner_[i]->forward(*in, acts_[i], train);
      in = &acts_[i];
    }
    y = x + acts_.back();
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override { chain(dy, dx, true); }
  void backward_input(const Mat<T>& dy, Mat<T>& dx) override { chain(dy, &dx, false); }
  std::unique_ptr<Layer<T>> clone() const override {
    std::vector<std::unique_ptr<Layer<T>>> inner;
    for (const auto& l : inner_) inner.push_back(l->clone());
    auto c = std::make_unique<Residual>(std::move(inner));
    c->offsets_ = offsets_;
    c->params_ = params_;
    return c;
  }
  // PyTorch's names for a module holding its f as an nn.Sequential attribute `fn`: "3.fn.0.weight".
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    for (size_t i = 0; i < inner_.size(); ++i) inner_[i]->state_dict(prefix + "fn." + std::to_string(i) + ".", out);
  }

 private:
  // Back through f (parameter gradients added when `params`), then dx = dy + df's input gradient.
  void chain(const Mat<T>& dy, Mat<T>* dx, bool params) {
    Mat<T> d = dy, next;
    for (size_t i = inner_.size(); i-- > 0;) {
      const bool need = i > 0 || dx != nullptr;
      if (params)
        inner_[i]->backward(d, need ? &next : nullptr);
      else
        inner_[i]->backward_input(d, next);
      if (need) d.swap(next);
    }
    if (dx) *dx = dy + d;
  }

  std::vector<std::unique_ptr<Layer<T>>> inner_;
  std::vector<int> offsets_;
  int params_ = 0;
  std::vector<Mat<T>> acts_;  // each inner layer's output of the last forward
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_residual(std::vector<std::unique_ptr<Layer<T>>> inner) {
  return std::make_unique<Residual<T>>(std::move(inner));
}

template std::unique_ptr<Layer<float>> make_residual<float>(std::vector<std::unique_ptr<Layer<float>>>);
template std::unique_ptr<Layer<double>> make_residual<double>(std::vector<std::unique_ptr<Layer<double>>>);

}  // namespace cilab::nn
