// The GAN's two networks and their losses (course chapter 17), written out
// as forward/backward passes on the network library, like elbo.h for the VAE.
//
// The discriminator outputs one logit (or critic value) l per row. Losses,
// as batch means (PyTorch conventions: the DCGAN example sums the BCE of the
// real and of the fake half, each a mean; LSGAN Mao et al. 2017 with the
// 0/1 codes; WGAN-GP Gulrajani et al. 2017):
//
//   loss            discriminator                                   generator
//   minimax         -mean log D(x) - mean log(1 - D(G(z)))          mean log(1 - D(G(z)))   (saturates)
//   nonsaturating   the same                                         -mean log D(G(z))
//   least_squares   1/2 mean (l_real - 1)^2 + 1/2 mean l_fake^2      1/2 mean (l_fake - 1)^2
//   wgan_gp         mean l_fake - mean l_real + GP                   -mean l_fake
//
// with D = sigmoid(l), every log term in the stable softplus form
// (-log sigmoid(l) = softplus(-l)), and GP = lambda mean (||grad_x l(x_hat)|| - 1)^2
// on x_hat = eps x_real + (1 - eps) x_fake, eps ~ U(0, 1) per row (the
// penalty's gradient is a second-order pass: Sequential::double_backward).
//
//   GanNet<float> gan;  ... build both networks ...
//   const Mat<float>& fake = gan.generate(z);        // G(z), kept for the G step
//   GanDTerms d = gan.discriminator_pass(real, fake, eps);   // grads in D
//   d_opt.step(D.params(), D.grads(), lr);
//   GanGTerms g = gan.generator_pass();               // grads in G, through D
//   g_opt.step(G.params(), G.grads(), lr);
#pragma once

#include "algorithms/nn/sequential.h"

namespace cilab::nn {

enum class GanLoss { Minimax, NonSaturating, LeastSquares, WassersteinGP };
constexpr int kNumGanLosses = 4;
// "minimax", "nonsaturating", "least_squares", "wgan_gp".
const char* gan_loss_name(GanLoss loss);
// Whether the discriminator's output is a probability logit (D = sigmoid(l)).
inline bool gan_loss_is_probabilistic(GanLoss loss) {
  return loss == GanLoss::Minimax || loss == GanLoss::NonSaturating;
}

// What a discriminator pass measured (means over the rows).
struct GanDTerms {
  double loss = 0;       // the discriminator's loss, penalty included
  double real = 0;       // mean D(x_real): sigmoid(l) for minimax/nonsaturating, else mean l
  double fake = 0;       // mean D(G(z)) alike
  double penalty = 0;    // wgan_gp: lambda mean (||grad|| - 1)^2, else 0
  double grad_norm = 0;  // wgan_gp: mean ||grad_x l(x_hat)||, else NaN
};

// What a generator pass measured.
struct GanGTerms {
  double loss = 0;  // the generator's loss
  double fake = 0;  // mean D(G(z)) (as GanDTerms::fake) before the update
};

// lambda mean_i (||g_i|| - 1)^2 with g_i = d l(x_i) / d x_i for a critic with
// one output; ADDS its gradient w.r.t. the critic's parameters to
// critic.grads() (a forward, an input-gradient pass and a double backward:
// the critic's activation buffers are overwritten). *mean_norm gets the mean
// ||g_i||. A zero gradient row contributes lambda and no gradient (its norm's
// derivative is undefined there).
template <class T>
double gradient_penalty(Sequential<T>& critic, const Mat<T>& x, double lambda, double* mean_norm = nullptr);

template <class T>
struct GanNet {
  Sequential<T> generator;      // latent -> data
  Sequential<T> discriminator;  // data -> 1
  // Both networks' tensors, "generator.0.weight", ..., "discriminator.0.weight", ...
  void state_dict(std::vector<NpyArray>& out) const {
    generator.state_dict("generator.", out);
    discriminator.state_dict("discriminator.", out);
  }
  GanLoss loss = GanLoss::NonSaturating;
  double gp_lambda = 10;  // wgan_gp's lambda (the paper's 10)

  // G(z) in train mode, kept (with z, which must outlive generator_pass) for generator_pass.
  const Mat<T>& generate(const Mat<T>& z);
  // The discriminator's loss on real rows and fake rows, and its gradients
  // (zeroed first) in discriminator.grads(). eps: one U(0, 1) per row of
  // min(real, fake) rows, read by wgan_gp only.
  GanDTerms discriminator_pass(const Mat<T>& real, const Mat<T>& fake, const Mat<T>& eps);
  // The generator's loss on the last generate()'s rows and its gradients
  // (zeroed first) in generator.grads(), back-propagated through the
  // discriminator without touching the discriminator's gradients.
  GanGTerms generator_pass();

 private:
  Mat<T> dlogits_, dfake_, interp_;
  Vec<T> exp_, log1p_;  // exp(-|l|) and log1p of it per logit (the loss terms)
};

extern template struct GanNet<float>;
extern template struct GanNet<double>;

}  // namespace cilab::nn
