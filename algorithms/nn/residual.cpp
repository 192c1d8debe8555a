// The residual container (layers.h: make_residual): y = x + f(x), f an inner chain of layers whose
// parameters are a slice of the container's one flat buffer (bound like any layer's), so the one
// optimizer steps them with the rest. The skip connection's gradient is the identity:
// dL/dx = dL/dy + (df/dx)^T dL/dy.
#include "algorithms/nn/chain.h"
#include "algorithms/nn/layers.h"

#include <stdexcept>
#include <utility>

namespace cilab::nn {

namespace {

template <class T>
class Residual final : public Layer<T> {
 public:
  explicit Residual(std::vector<std::unique_ptr<Layer<T>>> inner) : f_(std::move(inner)) {
    if (f_.empty()) throw std::invalid_argument("residual: f has no layer (y = x + f(x) needs at least one)");
  }
  std::string name() const override { return "residual"; }
  int configure(int in) override {
    configure_shape(Shape{in});
    return in;
  }
  Shape configure_shape(const Shape& in) override {
    const Shape s = f_.configure(in, 0);
    if (s != in)
      throw std::invalid_argument("residual: its layers map " + shape_text(in) + " to " + shape_text(s) +
                                  "; x + f(x) needs f to keep the shape (end f with a layer of " + shape_text(in) + ")");
    return in;
  }
  int num_params() const override { return f_.num_params(); }
  void bind(T* params, T* grads) override { f_.bind(params, grads); }
  void init(Rng& rng, Init init) override { f_.init(rng, init); }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override { y = x + f_.forward(x, train); }
  void backward(const Mat<T>& dy, Mat<T>* dx) override { chain(dy, dx, true); }
  void backward_input(const Mat<T>& dy, Mat<T>& dx) override { chain(dy, &dx, false); }
  std::unique_ptr<Layer<T>> clone() const override { return std::make_unique<Residual>(*this); }
  // PyTorch's names for a module holding its f as an nn.Sequential attribute `fn`: "3.fn.0.weight".
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    f_.state_dict(prefix + "fn.", out);
  }

 private:
  // Back through f (parameter gradients added when `params`), then dx = dy + df's input gradient.
  void chain(const Mat<T>& dy, Mat<T>* dx, bool params) {
    Mat<T> d;
    f_.backward(dy, dx ? &d : nullptr, params);
    if (dx) *dx = dy + d;
  }

  detail::LayerChain<T> f_;
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_residual(std::vector<std::unique_ptr<Layer<T>>> inner) {
  return std::make_unique<Residual<T>>(std::move(inner));
}

template std::unique_ptr<Layer<float>> make_residual<float>(std::vector<std::unique_ptr<Layer<float>>>);
template std::unique_ptr<Layer<double>> make_residual<double>(std::vector<std::unique_ptr<Layer<double>>>);

}  // namespace cilab::nn
