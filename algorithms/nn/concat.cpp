// The concatenation container (layers.h: make_concat): y = [f_1(x), f_2(x), ...] along the first
// dimension of the sample's shape (features of a flat sample, channels of an image: torch.cat(dim=1)
// on a batch), each f_b a chain of layers whose parameters are a slice of the container's one flat
// buffer. The input gradient is the sum of the branches' input gradients.
#include "algorithms/nn/chain.h"
#include "algorithms/nn/layers.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace cilab::nn {

namespace {

template <class T>
class Concat final : public Layer<T> {
 public:
  using Chain = std::vector<std::unique_ptr<Layer<T>>>;
  explicit Concat(std::vector<Chain> branches) {
    if (branches.size() < 2) throw std::invalid_argument("concat: needs at least two branches");
    for (size_t b = 0; b < branches.size(); ++b) {
      if (branches[b].empty()) throw std::invalid_argument("concat: branch " + std::to_string(b) + " has no layer");
      branches_.emplace_back(std::move(branches[b]));
    }
  }
  std::string name() const override { return "concat"; }
  int configure(int in) override { return static_cast<int>(shape_size(configure_shape(Shape{in}))); }
  Shape configure_shape(const Shape& in) override {
    int total = 0;
    Shape out;
    for (size_t b = 0; b < branches_.size(); ++b) {
      const Shape s = branches_[b].configure(in, total);
      total += branches_[b].num_params();
      if (b == 0) {
        out = s;
        continue;
      }
      if (s.size() != out.size() || !std::equal(s.begin() + 1, s.end(), out.begin() + 1))
        throw std::invalid_argument("concat: branch " + std::to_string(b) + " gives " + shape_text(s) +
                                    " but branch 0 gives " + shape_text(out) +
                                    "; the branches must agree in every dimension but the first");
      out[0] += s[0];
    }
    params_ = total;
    return out;
  }
  int num_params() const override { return params_; }
  void bind(T* params, T* grads) override {
    for (auto& chain : branches_) chain.bind(params, grads);
  }
  void init(Rng& rng, Init init) override {
    for (auto& chain : branches_) chain.init(rng, init);
  }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override {
    outs_.clear();
    Eigen::Index width = 0;
    for (auto& chain : branches_) {
      outs_.push_back(&chain.forward(x, train));
      width += outs_.back()->cols();
    }
    y.resize(x.rows(), width);
    Eigen::Index col = 0;
    for (const Mat<T>* out : outs_) {
      y.middleCols(col, out->cols()) = *out;
      col += out->cols();
    }
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override { chain(dy, dx, true); }
  void backward_input(const Mat<T>& dy, Mat<T>& dx) override { chain(dy, &dx, false); }
  std::unique_ptr<Layer<T>> clone() const override {
    auto c = std::unique_ptr<Concat>(new Concat(*this));
    c->outs_.clear();
    return c;
  }
  // PyTorch's names for a module holding its branches as an nn.ModuleList `branches` of
  // nn.Sequential: "2.branches.1.0.weight".
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    for (size_t b = 0; b < branches_.size(); ++b)
      branches_[b].state_dict(prefix + "branches." + std::to_string(b) + ".", out);
  }

 private:
  Concat(const Concat&) = default;
  // Each branch back from its columns of dy (parameter gradients added when `params`); dx is the
  // sum of the branches' input gradients, added in branch order.
  void chain(const Mat<T>& dy, Mat<T>* dx, bool params) {
    Eigen::Index col = 0;
    Mat<T> d;
    for (size_t b = 0; b < branches_.size(); ++b) {
      const Eigen::Index w = outs_[b]->cols();
      branches_[b].backward(dy.middleCols(col, w), dx ? &d : nullptr, params);
      col += w;
      if (!dx) continue;
      if (b == 0) *dx = d;
      else *dx += d;
    }
  }

  std::vector<detail::LayerChain<T>> branches_;
  int params_ = 0;
  std::vector<const Mat<T>*> outs_;  // each branch's output of the last forward
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_concat(std::vector<std::vector<std::unique_ptr<Layer<T>>>> branches) {
  return std::make_unique<Concat<T>>(std::move(branches));
}

template std::unique_ptr<Layer<float>> make_concat<float>(std::vector<std::vector<std::unique_ptr<Layer<float>>>>);
template std::unique_ptr<Layer<double>> make_concat<double>(std::vector<std::vector<std::unique_ptr<Layer<double>>>>);

}  // namespace cilab::nn
