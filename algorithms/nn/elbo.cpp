// The VAE's ELBO and its gradients: see elbo.h for the equations.
#include "algorithms/nn/elbo.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <stdexcept>
#include <string>

namespace cilab::nn {

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

double gaussian_kl(const double* mu, const double* logvar, int latent) {
  double s = 0;
  for (int k = 0; k < latent; ++k) s += mu[k] * mu[k] + std::exp(logvar[k]) - logvar[k] - 1.0;
  return 0.5 * s;
}

template <class T>
ElboTerms VaeNet<T>::run(const Mat<T>& x, const Mat<T>& eps, double beta, bool backward, bool train) {
  const Eigen::Index b = x.rows(), l = latent;
  if (eps.rows() != b || eps.cols() != l)
    throw std::invalid_argument("VaeNet: noise is " + std::to_string(eps.rows()) + " x " + std::to_string(eps.cols()) +
                                ", expected " + std::to_string(b) + " x " + std::to_string(l));
  const Mat<T>& stats = encoder.forward(x, train);
  mu_ = stats.leftCols(l);
  logvar_ = stats.rightCols(l);
  sigma_ = (logvar_.array() * T(0.5)).exp().matrix();
  z_ = (mu_.array() + sigma_.array() * eps.array()).matrix();
  const Mat<T>& out = decoder.forward(z_, train);
  const T inv_b = T(1) / static_cast<T>(b);

  // Reconstruction term per sample and its gradient w.r.t. the decoder output.
  drec_.resize(b, out.cols());
  if (likelihood == Likelihood::Bernoulli) {
    // e = exp(-|l|): loss = max(l, 0) - l x + log1p(e); sigmoid(l) = 1/(1+e) (l >= 0) or e/(1+e).
    auto la = out.array();
    drec_.array() = (-la.abs()).exp();  // e, reused below
    rec_ = (la.max(T(0)) - la * x.array() + drec_.array().log1p()).rowwise().sum().matrix();
    if (backward)
      drec_.array() = ((la >= T(0)).select(T(1), drec_.array()) / (T(1) + drec_.array()) - x.array()) * inv_b;
  } else {
    const T inv_var = static_cast<T>(1.0 / (sigma_x * sigma_x));
    const T norm = static_cast<T>(0.5 * static_cast<double>(out.cols()) *
                                  std::log(2.0 * kPi * sigma_x * sigma_x));
    drec_.array() = out.array() - x.array();
    rec_ = (drec_.array().square().rowwise().sum() * (T(0.5) * inv_var) + norm).matrix();
    if (backward) drec_.array() *= inv_var * inv_b;
  }
  // KL per sample: 1/2 sum (mu^2 + sigma^2 - logvar - 1).
  kl_ = ((mu_.array().square() + sigma_.array().square() - logvar_.array() - T(1)).rowwise().sum() * T(0.5)).matrix();

  ElboTerms t;
  double rs = 0, ks = 0;
  for (Eigen::Index i = 0; i < b; ++i) {
    rs += static_cast<double>(rec_(i));
    ks += static_cast<double>(kl_(i));
  }
  t.reconstruction = rs / static_cast<double>(b);
  t.kl = ks / static_cast<double>(b);
  t.loss = t.reconstruction + beta * t.kl;
  if (!backward) return t;

  encoder.zero_grad();
  decoder.zero_grad();
  decoder.backward(drec_, &dz_);
  const T bt = static_cast<T>(beta) * inv_b;
  dstats_.resize(b, 2 * l);
  dstats_.leftCols(l).array() = dz_.array() + bt * mu_.array();
  dstats_.rightCols(l).array() =
      dz_.array() * eps.array() * sigma_.array() * T(0.5) + bt * T(0.5) * (sigma_.array().square() - T(1));
  encoder.backward(dstats_);
  return t;
}

template <class T>
void VaeNet<T>::decode_mean(const Mat<T>& z, Mat<T>& out) {
  const Mat<T>& o = decoder.forward(z, false);
  if (likelihood == Likelihood::Bernoulli) out = (T(1) / (T(1) + (-o.array()).exp())).matrix();
  else out = o;
}

template <class T>
void VaeNet<T>::encode(const Mat<T>& x, Mat<T>& mu, Mat<T>& sigma) {
  const Mat<T>& stats = encoder.forward(x, false);
  mu = stats.leftCols(latent);
  sigma = (stats.rightCols(latent).array() * T(0.5)).exp().matrix();
}

template <class T>
LikelihoodEstimate importance_log_likelihood(VaeNet<T>& net, const Mat<T>& x, int k, Rng& rng) {
  LikelihoodEstimate out;
  const int n = static_cast<int>(x.rows()), l = net.latent;
  if (n == 0 || k < 1) return out;
  // Rows are processed in groups whose k copies fit one batch of about 1024.
  const int group = std::max(1, 1024 / k);
  Mat<T> rep, eps;
  std::vector<double> logw(static_cast<size_t>(k));
  double sum_log_px = 0, sum_elbo = 0;
  for (int r0 = 0; r0 < n; r0 += group) {
    const int m = std::min(group, n - r0);
    rep.resize(static_cast<Eigen::Index>(m) * k, x.cols());
    eps.resize(rep.rows(), l);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < k; ++j) {
        rep.row(static_cast<Eigen::Index>(i) * k + j) = x.row(r0 + i);
        for (int c = 0; c < l; ++c) eps(static_cast<Eigen::Index>(i) * k + j, c) = static_cast<T>(rng.normal());
      }
    net.run(rep, eps, 1.0, false, false);
    for (int i = 0; i < m; ++i) {
      double rec_mean = 0, best = -std::numeric_limits<double>::infinity();
      for (int j = 0; j < k; ++j) {
        const Eigen::Index row = static_cast<Eigen::Index>(i) * k + j;
        double w = -static_cast<double>(net.sample_reconstruction()(row));
        rec_mean += w;
        for (int c = 0; c < l; ++c) {
          const double z = net.z()(row, c), e = eps(row, c);
          w += -0.5 * z * z + 0.5 * e * e + 0.5 * static_cast<double>(net.logvar()(row, c));
        }
        logw[static_cast<size_t>(j)] = w;
        best = std::max(best, w);
      }
      double s = 0;
      for (double w : logw) s += std::exp(w - best);
      sum_log_px += best + std::log(s / k);
      sum_elbo += rec_mean / k - static_cast<double>(net.sample_kl()(static_cast<Eigen::Index>(i) * k));
    }
  }
  out.rows = n;
  out.samples = k;
  out.log_px = sum_log_px / n;
  out.elbo = sum_elbo / n;
  return out;
}

template class VaeNet<float>;
template class VaeNet<double>;
template LikelihoodEstimate importance_log_likelihood(VaeNet<float>&, const Mat<float>&, int, Rng&);
template LikelihoodEstimate importance_log_likelihood(VaeNet<double>&, const Mat<double>&, int, Rng&);

}  // namespace cilab::nn
