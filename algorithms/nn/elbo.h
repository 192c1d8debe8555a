// The variational autoencoder's model and objective on the network library
// (course chapter 16; Kingma & Welling 2014; PyTorch's examples/vae):
//
//   encoder  x -> [mu, log sigma^2]          (a Sequential with 2 * latent outputs)
//   sample   z = mu + sigma * eps, eps ~ N(0, I)   (the reparameterisation trick:
//            the noise is an input, so z is differentiable in mu and sigma)
//   decoder  z -> logits (Bernoulli) or mean (Gaussian), D outputs
//
// Per sample, the negative ELBO the optimizer minimises is
//   -ELBO_beta = rec + beta * kl,
//   rec = -log p(x | z)  summed over the D features:
//         Bernoulli  sum_j max(l_j, 0) - l_j x_j + log(1 + e^-|l_j|)      (BCE with logits, summed)
//         Gaussian   sum_j (x_j - m_j)^2 / (2 s^2) + (D / 2) log(2 pi s^2)  (fixed s = sigma_x)
//   kl  = KL(N(mu, diag sigma^2) || N(0, I)) = 1/2 sum_k (mu_k^2 + sigma_k^2 - log sigma_k^2 - 1)
// and the batch objective is the mean over the B samples (the reported loss is
// PyTorch's example's: its sum over the data set divided by the rows). With
// beta = 1, -loss is a lower bound on log p(x) (one-sample estimate).
//
// Gradients (written out, all divided by B):
//   d rec / d l  = sigmoid(l) - x            (Bernoulli)  |  (m - x) / s^2   (Gaussian)
//   d / d mu     = dz + beta mu
//   d / d logvar = dz * eps * sigma / 2 + beta (sigma^2 - 1) / 2
// where dz = dL/dz comes back through the decoder (Sequential::backward's dx).
// Templated on the scalar: float trains, double checks gradients.
#pragma once

#include "algorithms/nn/sequential.h"

namespace cilab::nn {

enum class Likelihood { Bernoulli, Gaussian };

// Per-sample means over a batch (or a data set).
struct ElboTerms {
  double loss = 0;            // rec + beta * kl
  double reconstruction = 0;  // -E_q[log p(x | z)], one sample of z
  double kl = 0;              // KL(q(z | x) || p(z)), closed form
};

template <class T>
class VaeNet {
 public:
  Sequential<T> encoder;  // D -> 2 * latent: [mu, log sigma^2]
  Sequential<T> decoder;  // latent -> D
  // Both networks' tensors, "encoder.0.weight", ..., "decoder.0.weight", ... (a PyTorch module
  // with two nn.Sequential attributes named so loads them).
  void state_dict(std::vector<NpyArray>& out) const {
    encoder.state_dict("encoder.", out);
    decoder.state_dict("decoder.", out);
  }
  int latent = 0;
  Likelihood likelihood = Likelihood::Bernoulli;
  double sigma_x = 1.0;   // Gaussian likelihood's fixed standard deviation

  // Runs the encoder, the sample z = mu + sigma * eps (eps: B x latent) and the
  // decoder on the rows of x; returns the per-sample mean terms. With
  // backward, zeroes both networks' gradients and writes d(loss)/d(theta) of
  // the batch mean of rec + beta * kl. `train` is the layers' mode.
  ElboTerms run(const Mat<T>& x, const Mat<T>& eps, double beta, bool backward, bool train);

  // The last run's posterior parameters and sample (B x latent each).
  const Mat<T>& mu() const { return mu_; }
  const Mat<T>& logvar() const { return logvar_; }
  const Mat<T>& z() const { return z_; }
  // The last run's decoder output: logits or means (B x D).
  const Mat<T>& decoded() const { return decoder.activation(decoder.size() - 1); }
  // Per-sample reconstruction and KL terms of the last run (size B).
  const Vec<T>& sample_reconstruction() const { return rec_; }
  const Vec<T>& sample_kl() const { return kl_; }

  // Decoder output turned into the data's space: sigmoid(logits) (Bernoulli:
  // the pixel means) or the Gaussian means, for B latent rows.
  void decode_mean(const Mat<T>& z, Mat<T>& out);
  // Posterior means and standard deviations of rows x (eval mode).
  void encode(const Mat<T>& x, Mat<T>& mu, Mat<T>& sigma);

 private:
  Mat<T> mu_, logvar_, sigma_, z_, drec_, dz_, dstats_;
  Vec<T> rec_, kl_;
};

// The ELBO's oracle: log p(x) >= ELBO. An importance-sampled estimate with the
// encoder as proposal (Burda et al.'s IWAE bound with k samples, which rises
// towards log p(x) as k grows):
//   log p(x) ~ log (1/k) sum_j p(x | z_j) p(z_j) / q(z_j | x),  z_j ~ q(z | x),
// beside the ELBO (beta = 1) on the same draws: mean_j log p(x | z_j) - KL.
// Both are per-row means over the rows of x (eval mode), in nats.
struct LikelihoodEstimate {
  double log_px = 0;  // importance-sampled log p(x), k samples
  double elbo = 0;    // the ELBO from the same samples
  int rows = 0;
  int samples = 0;
};
template <class T>
LikelihoodEstimate importance_log_likelihood(VaeNet<T>& net, const Mat<T>& x, int k, Rng& rng);

// Closed-form KL(N(mu, diag exp(logvar)) || N(0, I)) of one sample.
double gaussian_kl(const double* mu, const double* logvar, int latent);

extern template class VaeNet<float>;
extern template class VaeNet<double>;
extern template LikelihoodEstimate importance_log_likelihood(VaeNet<float>&, const Mat<float>&, int, Rng&);
extern template LikelihoodEstimate importance_log_likelihood(VaeNet<double>&, const Mat<double>&, int, Rng&);

}  // namespace cilab::nn
