// Batcher (batches.h).
#include "algorithms/nn/batches.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace cilab::nn {

Batcher::Batcher(int n, int batch, uint64_t seed) : n_(n), batch_(batch), rng_(seed) {
  if (n < 1) throw std::invalid_argument("batches: the training set is empty");
  if (batch < 1) throw std::invalid_argument("parameter 'batch': expected at least 1, got " + std::to_string(batch));
  perm_.resize(static_cast<size_t>(n));
}

const std::vector<int>& Batcher::next() {
  if (pos_ == 0) {
    std::iota(perm_.begin(), perm_.end(), 0);
    for (int i = n_ - 1; i > 0; --i) std::swap(perm_[static_cast<size_t>(i)], perm_[rng_.below(static_cast<uint64_t>(i) + 1)]);
  }
  const int end = std::min(n_, pos_ + batch_);
  idx_.assign(perm_.begin() + pos_, perm_.begin() + end);
  pos_ = end;
  if (pos_ == n_) {
    pos_ = 0;
    ++epoch_;
  }
  return idx_;
}

}  // namespace cilab::nn
