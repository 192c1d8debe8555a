// The GAN's passes (adversarial.h).
#include "algorithms/nn/adversarial.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cilab::nn {
namespace {

// sigmoid(v), softplus(v) and softplus(-v) from e = exp(-|v|) and
// lp = log1p(e), in T's precision (the per-row loss terms of a batch of
// logits; exp_terms computes e and lp for the whole batch at once).
template <class T>
struct LogitTerms {
  T sigmoid, softplus_pos, softplus_neg;
};
template <class T>
LogitTerms<T> logit_terms(T v, T e, T lp) {
  const T s = v >= T(0) ? T(1) / (T(1) + e) : e / (T(1) + e);
  return {s, std::max(v, T(0)) + lp, std::max(-v, T(0)) + lp};
}
// e = exp(-|l|) and lp = log1p(e) for a column of logits (vectorised).
template <class T>
void exp_terms(const Mat<T>& l, Vec<T>& e, Vec<T>& lp) {
  const Eigen::Map<const Vec<T>> v(l.data(), l.rows());
  e = (-v.array().abs()).exp().matrix();
  lp = e.array().log1p().matrix();
}

}  // namespace

const char* gan_loss_name(GanLoss loss) {
  switch (loss) {
    case GanLoss::Minimax: return "minimax";
    case GanLoss::NonSaturating: return "nonsaturating";
    case GanLoss::LeastSquares: return "least_squares";
    case GanLoss::WassersteinGP: return "wgan_gp";
  }
  return "?";
}

template <class T>
double gradient_penalty(Sequential<T>& critic, const Mat<T>& x, double lambda, double* mean_norm) {
  if (critic.out_features() != 1)
    throw std::invalid_argument("gradient penalty: the critic must have one output, it has " +
                                std::to_string(critic.out_features()));
  const Eigen::Index n = x.rows();
  if (n == 0) return 0.0;
  critic.forward(x, true);
  Mat<T> ones = Mat<T>::Ones(n, 1);
  Mat<T> g;
  critic.backward_input(ones, g);
  Mat<T> gbar(n, g.cols());
  double sum = 0, norms = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double norm = std::sqrt(g.row(i).template cast<double>().squaredNorm());
    sum += (norm - 1.0) * (norm - 1.0);
    norms += norm;
    const double c = norm > 0 ? 2.0 * lambda * (norm - 1.0) / (norm * static_cast<double>(n)) : 0.0;
    gbar.row(i) = g.row(i) * static_cast<T>(c);
  }
  critic.double_backward(gbar);
  if (mean_norm) *mean_norm = norms / static_cast<double>(n);
  return lambda * sum / static_cast<double>(n);
}

template <class T>
const Mat<T>& GanNet<T>::generate(const Mat<T>& z) {
  return generator.forward(z, true);
}

template <class T>
GanDTerms GanNet<T>::discriminator_pass(const Mat<T>& real, const Mat<T>& fake, const Mat<T>& eps) {
  const Eigen::Index nr = real.rows(), nf = fake.rows(), d = real.cols();
  if (fake.cols() != d)
    throw std::invalid_argument("discriminator pass: real rows have " + std::to_string(d) + " features, fake rows " +
                                std::to_string(fake.cols()));
  GanDTerms out;
  out.grad_norm = std::nan("");
  discriminator.zero_grad();
  if (loss == GanLoss::WassersteinGP) {
    const Eigen::Index m = std::min(nr, nf);
    if (eps.rows() < m) throw std::invalid_argument("discriminator pass: wgan_gp needs one eps per row");
    interp_.resize(m, d);
    for (Eigen::Index i = 0; i < m; ++i) {
      const T e = eps(i, 0);
      interp_.row(i) = e * real.row(i) + (T(1) - e) * fake.row(i);
    }
    out.penalty = gradient_penalty(discriminator, interp_, gp_lambda, &out.grad_norm);
  }
  // The real rows, then the fake rows, each a forward and a backward whose
  // gradients add up (as the DCGAN example's errD_real.backward() and
  // errD_fake.backward()): the discriminator's buffers keep the batch's size
  // in both passes and in the G step, so nothing is reallocated per step.
  double sum[2] = {0, 0}, shown[2] = {0, 0};
  for (int half = 0; half < 2; ++half) {
    const bool is_real = half == 0;
    const Mat<T>& x = is_real ? real : fake;
    const Eigen::Index n = x.rows();
    if (n == 0) continue;
    const Mat<T>& l = discriminator.forward(x, true);
    dlogits_.resize(n, 1);
    if (gan_loss_is_probabilistic(loss)) exp_terms(l, exp_, log1p_);
    const double w = 1.0 / static_cast<double>(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const T v = l(i, 0);
      double term = 0, grad = 0, seen = v;
      switch (loss) {
        case GanLoss::Minimax:
        case GanLoss::NonSaturating: {
          const LogitTerms<T> t = logit_terms(v, exp_[i], log1p_[i]);
          seen = t.sigmoid;
          term = is_real ? t.softplus_neg : t.softplus_pos;
          grad = is_real ? t.sigmoid - T(1) : t.sigmoid;
          break;
        }
        case GanLoss::LeastSquares:
          term = is_real ? 0.5 * (v - 1.0) * (v - 1.0) : 0.5 * v * v;
          grad = is_real ? v - 1.0 : v;
          break;
        case GanLoss::WassersteinGP:
          term = is_real ? -v : v;
          grad = is_real ? -1.0 : 1.0;
          break;
      }
      dlogits_(i, 0) = static_cast<T>(grad * w);
      sum[half] += term;
      shown[half] += seen;
    }
    discriminator.backward(dlogits_);
    sum[half] *= w;
    shown[half] *= w;
  }
  out.loss = sum[0] + sum[1] + out.penalty;
  out.real = shown[0];
  out.fake = shown[1];
  return out;
}

template <class T>
GanGTerms GanNet<T>::generator_pass() {
  const Mat<T>& fake = generator.activation(generator.size() - 1);
  const Eigen::Index n = fake.rows();
  const Mat<T>& l = discriminator.forward(fake, true);
  dlogits_.resize(n, 1);
  const double w = 1.0 / static_cast<double>(std::max<Eigen::Index>(n, 1));
  double sum = 0, shown = 0;
  const bool prob = gan_loss_is_probabilistic(loss);
  if (prob) exp_terms(l, exp_, log1p_);
  for (Eigen::Index i = 0; i < n; ++i) {
    const T v = l(i, 0);
    double term = 0, grad = 0;
    const LogitTerms<T> t = prob ? logit_terms(v, exp_[i], log1p_[i]) : LogitTerms<T>{T(0), T(0), T(0)};
    switch (loss) {
      case GanLoss::Minimax:
        term = -t.softplus_pos;  // log(1 - sigmoid(v))
        grad = -t.sigmoid;
        break;
      case GanLoss::NonSaturating:
        term = t.softplus_neg;  // -log sigmoid(v)
        grad = t.sigmoid - T(1);
        break;
      case GanLoss::LeastSquares:
        term = 0.5 * (v - 1.0) * (v - 1.0);
        grad = v - 1.0;
        break;
      case GanLoss::WassersteinGP:
        term = -v;
        grad = -1.0;
        break;
    }
    dlogits_(i, 0) = static_cast<T>(grad * w);
    sum += term;
    shown += prob ? static_cast<double>(t.sigmoid) : static_cast<double>(v);
  }
  discriminator.backward_input(dlogits_, dfake_);
  generator.zero_grad();
  generator.backward(dfake_);
  return {sum * w, shown * w};
}

template double gradient_penalty<float>(Sequential<float>&, const Mat<float>&, double, double*);
template double gradient_penalty<double>(Sequential<double>&, const Mat<double>&, double, double*);
template struct GanNet<float>;
template struct GanNet<double>;

}  // namespace cilab::nn
