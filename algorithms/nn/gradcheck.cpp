// check_network: a network's backward against central differences (gradcheck.h).
#include "algorithms/nn/gradcheck.h"

namespace cilab::nn {

GradientError check_network(Sequential<double>& net, Mat<double> x, bool train, double h, uint64_t seed) {
  // The mask of the first forward pass stays for every later one (a dropout layer's function
  // is then fixed).
  const Mat<double> y0 = net.forward(x, train);
  for (size_t i = 0; i < net.size(); ++i) freeze_dropout_mask(net.layer(i), true);
  Rng rng(seed);
  Mat<double> r(y0.rows(), y0.cols());
  for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = rng.normal(0.0, 1.0);
  auto loss = [&]() { return (net.forward(x, train).array() * r.array()).sum(); };
  net.forward(x, train);
  net.zero_grad();
  Mat<double> dx;
  net.backward(r, &dx);
  const std::vector<double> g(net.grads(), net.grads() + net.num_params());
  GradientError params = check_gradient(net.params(), net.num_params(), g.data(), h, loss,
                                        relative_error);
  params.where = "parameter";
  const std::vector<double> gx(dx.data(), dx.data() + dx.size());
  GradientError input = check_gradient(x.data(), static_cast<size_t>(x.size()), gx.data(), h, loss,
                                       relative_error);
  input.where = "input";
  for (size_t i = 0; i < net.size(); ++i) freeze_dropout_mask(net.layer(i), false);
  return net.num_params() == 0 ? input : worse(params, input);
}

}  // namespace cilab::nn
