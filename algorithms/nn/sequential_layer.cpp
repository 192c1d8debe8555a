// A chain of layers as one layer (layers.h: make_sequential): torch.nn.Sequential nested inside
// another, so a block written once (conv, norm, activation) is placed as a unit in a Sequential,
// a Residual or a Concat branch. Its parameters are the inner layers' in order, a slice of the
// owner's one buffer.
#include "algorithms/nn/chain.h"
#include "algorithms/nn/layers.h"

#include <stdexcept>
#include <utility>

namespace cilab::nn {

namespace {

template <class T>
class SequentialLayer final : public Layer<T> {
 public:
  explicit SequentialLayer(std::vector<std::unique_ptr<Layer<T>>> layers) : chain_(std::move(layers)) {
    if (chain_.empty()) throw std::invalid_argument("sequential: needs at least one layer");
  }
  std::string name() const override { return "sequential"; }
  int configure(int in) override { return static_cast<int>(shape_size(configure_shape(Shape{in}))); }
  Shape configure_shape(const Shape& in) override { return chain_.configure(in, 0); }
  int num_params() const override { return chain_.num_params(); }
  void bind(T* params, T* grads) override { chain_.bind(params, grads); }
  void init(Rng& rng, Init init) override { chain_.init(rng, init); }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override { y = chain_.forward(x, train); }
  void backward(const Mat<T>& dy, Mat<T>* dx) override { chain_.backward(dy, dx, true); }
  void backward_input(const Mat<T>& dy, Mat<T>& dx) override { chain_.backward(dy, &dx, false); }
  std::unique_ptr<Layer<T>> clone() const override { return std::make_unique<SequentialLayer>(*this); }
  // A nested torch.nn.Sequential's names: "2.0.weight".
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    chain_.state_dict(prefix, out);
  }

 private:
  detail::LayerChain<T> chain_;
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_sequential(std::vector<std::unique_ptr<Layer<T>>> layers) {
  return std::make_unique<SequentialLayer<T>>(std::move(layers));
}

template std::unique_ptr<Layer<float>> make_sequential<float>(std::vector<std::unique_ptr<Layer<float>>>);
template std::unique_ptr<Layer<double>> make_sequential<double>(std::vector<std::unique_ptr<Layer<double>>>);

}  // namespace cilab::nn
