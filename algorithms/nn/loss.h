// Losses of the network library, each returning the loss and (when the
// pointer is given) writing its gradient with respect to the predictions.
// PyTorch's definitions and reductions ('mean'):
//   mse_loss                 (1/(B D)) sum (pred - target)^2            torch.nn.MSELoss
//   bce_with_logits_loss     (1/(B D)) sum max(z, 0) - z y + log(1 + e^-|z|)
//                            (stable form; d/dz = sigmoid(z) - y)        torch.nn.BCEWithLogitsLoss
//   softmax_cross_entropy    (1/B) sum_i logsumexp(z_i) - z_{i, y_i}
//                            (d/dz = softmax(z) - onehot(y), over B)     torch.nn.CrossEntropyLoss
// Sums run in double whatever T is.
#pragma once

#include "algorithms/nn/layers.h"

#include <vector>

namespace cilab::nn {

template <class T>
double mse_loss(const Mat<T>& pred, const Mat<T>& target, Mat<T>* dpred);

template <class T>
double bce_with_logits_loss(const Mat<T>& logits, const Mat<T>& target, Mat<T>* dlogits);

// labels[i] in [0, logits.cols()) (std::invalid_argument otherwise, naming the row).
template <class T>
double softmax_cross_entropy(const Mat<T>& logits, const std::vector<int>& labels, Mat<T>* dlogits);

}  // namespace cilab::nn
