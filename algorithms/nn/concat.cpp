// The concatenation container (layers.h: make_concat): y = [f_1(x), f_2(x), ...] along the first
// dimension of the sample's shape (features of a flat sample, channels of an image: torch.cat(dim=1)
// on a batch), each f_b a chain of layers whose parameters are a slice of the container's one flat
// buffer. The input gradient is the sum of the branches' input gradients.
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
  explicit Concat(std::vector<Chain> branches) : branches_(std::move(branches)) {
    if (branches_.size() < 2) throw std::invalid_argument("concat: needs at least two branches");
    for (size_t b = 0; b < branches_.size(); ++b)
      if (branches_[b].empty())
        throw std::invalid_argument("concat: branch " + std::to_string(b) + " has no layer");
  }
  std::string name() const override { return "concat"; }
  int configure(int in) override { return static_cast<int>(shape_size(configure_shape(Shape{in}))); }
  Shape configure_shape(const Shape& in) override {
    offsets_.clear();
    widths_.clear();
    int total = 0;
    Shape out;
    for (size_t b = 0; b < branches_.size(); ++b) {
      Shape s = in;
      std::vector<int> offs;
      for (const auto& l : branches_[b]) {
        s = l->configure_shape(s);
        offs.push_back(total);
        total += l->num_params();
      }
      offsets_.push_back(std::move(offs));
      widths_.push_back(shape_size(s));
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
    for (size_t b = 0; b < branches_.size(); ++b)
      for (size_t i = 0; i < branches_[b].size(); ++i)
        branches_[b][i]->bind(params + offsets_[b][i], grads + offsets_[b][i]);
  }
  void init(Rng& rng, Init init) override {
    for (const auto& chain : branches_)
      for (const auto& l : chain) l->init(rng, init);
  }
  void forward(const Mat<T>& x, Mat<T>& y, bool train) override {
    acts_.resize(branches_.size());
    Eigen::Index width = 0;
    for (size_t b = 0; b < branches_.size(); ++b) {
      acts_[b].resize(branches_[b].size());
      const Mat<T>* in = &x;
      for (size_t i = 0; i < branches_[b].size(); ++i) {
        branches_[b][i]->forward(*in, acts_[b][i], train);
        in = &acts_[b][i];
      }
      width += in->cols();
    }
    y.resize(x.rows(), width);
    Eigen::Index col = 0;
    for (size_t b = 0; b < branches_.size(); ++b) {
      const Mat<T>& out = acts_[b].back();
      y.middleCols(col, out.cols()) = out;
      col += out.cols();
    }
  }
  void backward(const Mat<T>& dy, Mat<T>* dx) override { chain(dy, dx, true); }
  void backward_input(const Mat<T>& dy, Mat<T>& dx) override { chain(dy, &dx, false); }
  std::unique_ptr<Layer<T>> clone() const override {
    std::vector<Chain> copy;
    for (const auto& chain : branches_) {
      Chain c;
      for (const auto& l : chain) c.push_back(l->clone());
      copy.push_back(std::move(c));
    }
    auto c = std::make_unique<Concat>(std::move(copy));
    c->offsets_ = offsets_;
    c->widths_ = widths_;
    c->params_ = params_;
    return c;
  }
  // PyTorch's names for a module holding its branches as an nn.ModuleList `branches` of
  // nn.Sequential: "2.branches.1.0.weight".
  void state_dict(const std::string& prefix, std::vector<NpyArray>& out) const override {
    for (size_t b = 0; b < branches_.size(); ++b)
      for (size_t i = 0; i < branches_[b].size(); ++i)
        branches_[b][i]->state_dict(prefix + "branches." + std::to_string(b) + "." + std::to_string(i) + ".", out);
  }

 private:
  // Each branch back from its columns of dy (parameter gradients added when `params`); dx is the
  // sum of the branches' input gradients, added in branch order.
  void chain(const Mat<T>& dy, Mat<T>* dx, bool params) {
    Eigen::Index col = 0;
    for (size_t b = 0; b < branches_.size(); ++b) {
      const Eigen::Index w = acts_[b].back().cols();
      Mat<T> d = dy.middleCols(col, w), next;
      col += w;
      for (size_t i = branches_[b].size(); i-- > 0;) {
        const bool need = i > 0 || dx != nullptr;
        if (params)
          branches_[b][i]->backward(d, need ? &next : nullptr);
        else
          branches_[b][i]->backward_input(d, next);
        if (need) d.swap(next);
      }
      if (!dx) continue;
      if (b == 0) *dx = d;
      else *dx += d;
    }
  }

  std::vector<Chain> branches_;
  std::vector<std::vector<int>> offsets_;  // per branch, each layer's offset in the slice
  std::vector<int64_t> widths_;           // per branch, its output's values per sample
  int params_ = 0;
  std::vector<std::vector<Mat<T>>> acts_;  // per branch, each layer's output of the last forward
};

}  // namespace

template <class T>
std::unique_ptr<Layer<T>> make_concat(std::vector<std::vector<std::unique_ptr<Layer<T>>>> branches) {
  return std::make_unique<Concat<T>>(std::move(branches));
}

template std::unique_ptr<Layer<float>> make_concat<float>(std::vector<std::vector<std::unique_ptr<Layer<float>>>>);
template std::unique_ptr<Layer<double>> make_concat<double>(std::vector<std::vector<std::unique_ptr<Layer<double>>>>);

}  // namespace cilab::nn
