// The VAE: the ELBO's written-out gradients against finite differences (the
// whole model, the reparameterised path with fixed noise, both likelihoods),
// the KL term against its closed form and a Monte Carlo estimate, the
// reconstruction terms against the densities written directly; the vae module
// (training lowers the loss, the epoch log, sub-steps and clones, live beta,
// determinism across runs and thread counts, bad input).
#include "algorithms/generative/vae.h"
#include "algorithms/nn/gradcheck.h"

#include "algorithms/core/parallel.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/elbo.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

using namespace cilab;
using nn::Mat;

namespace {

// A tiny VAE in double: d inputs, `hidden` tanh units, `latent` latent units.
nn::VaeNet<double> tiny_vae(int d, int hidden, int latent, nn::Likelihood lik, uint64_t seed) {
  nn::VaeNet<double> v;
  v.latent = latent;
  v.likelihood = lik;
  v.sigma_x = 0.7;
  v.encoder.add(nn::make_linear<double>(hidden));
  v.encoder.add(nn::make_activation<double>(nn::Activation::Tanh));
  v.encoder.add(nn::make_linear<double>(2 * latent));
  v.encoder.build(d);
  v.decoder.add(nn::make_linear<double>(hidden));
  v.decoder.add(nn::make_activation<double>(nn::Activation::Tanh));
  v.decoder.add(nn::make_linear<double>(d));
  v.decoder.build(latent);
  Rng rng(seed);
  v.encoder.init(rng, nn::Init::Glorot);
  v.decoder.init(rng, nn::Init::Glorot);
  // Non-zero biases, so every parameter's gradient is exercised.
  for (size_t i = 0; i < v.encoder.num_params(); ++i) v.encoder.params()[i] += 0.1 * rng.normal();
  for (size_t i = 0; i < v.decoder.num_params(); ++i) v.decoder.params()[i] += 0.1 * rng.normal();
  return v;
}

// Largest |analytic - central difference| / max(1, |fd|) over every parameter of one network.
double max_gradient_error(nn::VaeNet<double>& v, nn::Sequential<double>& net, const Mat<double>& x,
                          const Mat<double>& eps, double beta) {
  v.run(x, eps, beta, true, true);
  const std::vector<double> analytic(net.grads(), net.grads() + net.num_params());
  return nn::check_gradient(net.params(), net.num_params(), analytic.data(), 1e-6,
                                      [&] { return v.run(x, eps, beta, false, true).loss; },
                                      nn::scaled_error)
      .error;
}

ParamValues vals(const Vae& m, std::initializer_list<const char*> sets) {
  ParamValues v = default_values(m.params());
  for (const char* s : sets) apply_assignment(m.params(), v, s, "vae");
  return v;
}

std::string reset_error(const std::shared_ptr<const Dataset>& d, std::initializer_list<const char*> sets) {
  Vae m;
  try {
    ParamValues v = vals(m, sets);
    m.reset(d, v, 0);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool same_weights(const nn::VaeNet<float>& a, const nn::VaeNet<float>& b) {
  return std::memcmp(a.encoder.params(), b.encoder.params(), a.encoder.num_params() * sizeof(float)) == 0 &&
         std::memcmp(a.decoder.params(), b.decoder.params(), a.decoder.num_params() * sizeof(float)) == 0;
}

void train_epochs(Vae& m, int epochs) {
  while (m.snapshot()->epoch < epochs && !is_terminal(m.snapshot()->status)) m.step();
}

}  // namespace

TEST_CASE("vae: the gradients of the whole model match central differences, fixed noise, both likelihoods") {
  Rng rng(3);
  for (nn::Likelihood lik : {nn::Likelihood::Bernoulli, nn::Likelihood::Gaussian}) {
    CAPTURE(static_cast<int>(lik));
    nn::VaeNet<double> v = tiny_vae(5, 4, 2, lik, 11);
    Mat<double> x(6, 5), eps(6, 2);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = lik == nn::Likelihood::Bernoulli ? rng.uniform() : rng.normal();
    for (Eigen::Index i = 0; i < eps.size(); ++i) eps.data()[i] = rng.normal();
    for (double beta : {1.0, 0.3}) {
      CAPTURE(beta);
      CHECK(max_gradient_error(v, v.encoder, x, eps, beta) < 1e-6);
      CHECK(max_gradient_error(v, v.decoder, x, eps, beta) < 1e-6);
    }
    // The reparameterised path matters: with other noise the encoder's gradient changes.
    v.run(x, eps, 1.0, true, true);
    std::vector<double> g1(v.encoder.grads(), v.encoder.grads() + v.encoder.num_params());
    Mat<double> eps2 = eps * 2.0;
    v.run(x, eps2, 1.0, true, true);
    double diff = 0;
    for (size_t i = 0; i < g1.size(); ++i) diff = std::max(diff, std::fabs(g1[i] - v.encoder.grads()[i]));
    CHECK(diff > 1e-3);
  }
}

TEST_CASE("vae: the reconstruction terms are -log p(x|z) written directly, the loss is rec + beta kl") {
  Rng rng(5);
  for (nn::Likelihood lik : {nn::Likelihood::Bernoulli, nn::Likelihood::Gaussian}) {
    nn::VaeNet<double> v = tiny_vae(4, 3, 2, lik, 2);
    Mat<double> x(3, 4), eps(3, 2);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = rng.uniform();
    for (Eigen::Index i = 0; i < eps.size(); ++i) eps.data()[i] = rng.normal();
    const nn::ElboTerms t = v.run(x, eps, 0.5, false, true);
    double rec = 0, kl = 0;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 4; ++j) {
        const double out = v.decoded()(i, j);
        if (lik == nn::Likelihood::Bernoulli) {
          const double p = 1 / (1 + std::exp(-out));
          rec -= x(i, j) * std::log(p) + (1 - x(i, j)) * std::log(1 - p);
        } else {
          const double s = v.sigma_x;
          rec -= -0.5 * std::log(2 * M_PI * s * s) - (x(i, j) - out) * (x(i, j) - out) / (2 * s * s);
        }
      }
      kl += nn::gaussian_kl(&v.mu()(i, 0), &v.logvar()(i, 0), 2);
      // z is the reparameterised sample.
      for (int k = 0; k < 2; ++k)
        CHECK(v.z()(i, k) == doctest::Approx(v.mu()(i, k) + std::exp(0.5 * v.logvar()(i, k)) * eps(i, k)));
    }
    CHECK(t.reconstruction == doctest::Approx(rec / 3).epsilon(1e-12));
    CHECK(t.kl == doctest::Approx(kl / 3).epsilon(1e-12));
    CHECK(t.loss == doctest::Approx(t.reconstruction + 0.5 * t.kl).epsilon(1e-12));
  }
}

TEST_CASE("vae: the closed-form KL equals its Monte Carlo estimate and is >= 0, zero only at the prior") {
  const double mu[3] = {0.4, -1.2, 0.0};
  const double logvar[3] = {-0.7, 0.5, 0.0};
  const double kl = nn::gaussian_kl(mu, logvar, 3);
  // E_q[log q(z) - log p(z)] with z ~ q, estimated from 400 000 samples.
  Rng rng(17);
  double s = 0, s2 = 0;
  const int n = 400000;
  for (int r = 0; r < n; ++r) {
    double log_ratio = 0;
    for (int k = 0; k < 3; ++k) {
      const double sd = std::exp(0.5 * logvar[k]);
      const double e = rng.normal();
      const double z = mu[k] + sd * e;
      log_ratio += (-0.5 * e * e - std::log(sd)) - (-0.5 * z * z);
    }
    s += log_ratio;
    s2 += log_ratio * log_ratio;
  }
  const double mean = s / n, se = std::sqrt((s2 / n - mean * mean) / n);
  CHECK(std::fabs(mean - kl) < 4 * se);
  CHECK(kl > 0);
  const double zero[3] = {0, 0, 0};
  CHECK(nn::gaussian_kl(zero, zero, 3) == 0.0);
}

TEST_CASE("vae: training lowers the negative ELBO, the epoch log is the mean of its batches") {
  Vae m;
  m.reset(make_dataset("moons:n=400,noise=0.05,seed=1"), vals(m, {"hidden=32", "batch=32", "lr=0.01"}), 4);
  auto s0 = m.vae_snapshot();
  CHECK(s0->likelihood == nn::Likelihood::Gaussian);  // auto: not images
  REQUIRE(s0->epochs->size() == 1);
  const double initial = s0->epochs->back().test.loss;
  double batch_sum = 0;
  int seen = 0;
  const int per_epoch = s0->batches_per_epoch;
  CHECK(per_epoch == 10);  // ceil(320 / 32)
  for (int b = 0; b < per_epoch; ++b) {
    m.step();
    auto s = m.vae_snapshot();
    const int rows = b + 1 < per_epoch ? 32 : 320 - 32 * (per_epoch - 1);
    batch_sum += s->metrics[Vae::kMetricBatchLoss] * rows;
    seen += rows;
    CHECK(s->metrics[Vae::kMetricBatchLoss] ==
          doctest::Approx(s->metrics[Vae::kMetricBatchRec] + s->metrics[Vae::kMetricBatchKl]));
  }
  auto s1 = m.vae_snapshot();
  REQUIRE(s1->epochs->size() == 2);
  CHECK(s1->epochs->back().train.loss == doctest::Approx(batch_sum / seen).epsilon(1e-9));
  CHECK(s1->metrics[Vae::kMetricLoss] == s1->epochs->back().train.loss);
  m.step();  // the next epoch's first batch: the running mean is that batch's loss
  CHECK(m.vae_snapshot()->metrics[Vae::kMetricLoss] ==
        doctest::Approx(m.vae_snapshot()->metrics[Vae::kMetricBatchLoss]).epsilon(1e-12));
  train_epochs(m, 30);
  auto s2 = m.vae_snapshot();
  CHECK(s2->epochs->back().test.loss < initial - 50);  // from a few hundred nats to tens
  CHECK(s2->epochs->back().test.kl > 0.1);             // the latent space is used
  // The live oracle: log p(x) (importance-sampled) above the ELBO on the same rows.
  CHECK(s2->metrics[Vae::kMetricElboGap] > 0);
  CHECK(s2->metrics[Vae::kMetricLogPx] > -s2->epochs->back().test.loss - 5);
}

TEST_CASE("vae: beta is live - the next step optimises rec + beta kl without a restart") {
  Vae m;
  m.reset(make_dataset("moons:n=200,seed=2"), vals(m, {"hidden=16", "batch=50"}), 1);
  for (int i = 0; i < 5; ++i) m.step();
  const int it = m.snapshot()->iteration;
  m.set_live("beta", 4.0);
  m.step();
  auto s = m.vae_snapshot();
  CHECK(s->iteration == it + 1);
  CHECK(s->metrics[Vae::kMetricBeta] == 4.0);
  CHECK(s->metrics[Vae::kMetricBatchLoss] ==
        doctest::Approx(s->metrics[Vae::kMetricBatchRec] + 4.0 * s->metrics[Vae::kMetricBatchKl]));
  CHECK_THROWS_AS(m.set_live("latent", 3), std::invalid_argument);  // a rebuild parameter
}

TEST_CASE("vae: sub-steps equal a step, a clone between them continues identically") {
  auto data = make_dataset("blobs:n=120,dim=3,seed=5");
  Vae a, b;
  a.reset(data, vals(a, {"hidden=8", "batch=16"}), 9);
  b.reset(data, vals(b, {"hidden=8", "batch=16"}), 9);
  for (int i = 0; i < 3; ++i) a.step();
  for (int i = 0; i < 2; ++i) b.step();
  b.sub_step();
  auto c = b.clone();
  b.sub_step();
  b.sub_step();
  c->sub_step();
  c->sub_step();
  CHECK(same_weights(a.network(), b.network()));
  CHECK(same_weights(a.network(), static_cast<Vae&>(*c).network()));
  CHECK(a.snapshot()->iteration == c->snapshot()->iteration);
}

TEST_CASE("vae: the same seed gives bit-identical weights with 1 and 2 threads, another seed does not") {
  auto data = make_dataset("fashion-mnist:n=600");
  auto run = [&](int threads, uint64_t seed) {
    set_max_threads(threads);
    Vae m;
    m.reset(data, vals(m, {"latent=4", "hidden=64", "batch=64"}), seed);
    for (int i = 0; i < 12; ++i) m.step();
    set_max_threads(0);
    return m.network();
  };
  const nn::VaeNet<float> one = run(1, 3), two = run(2, 3), other = run(2, 4);
  CHECK(same_weights(one, two));
  CHECK_FALSE(same_weights(one, other));
}

TEST_CASE("vae: bad input names the parameter and what to try") {
  auto moons = make_dataset("moons:n=100");
  const std::string bern = reset_error(moons, {"likelihood=bernoulli"});
  CHECK(bern.find("likelihood") != std::string::npos);
  CHECK(bern.find("[0, 1]") != std::string::npos);
  CHECK(bern.find("gaussian") != std::string::npos);
  CHECK(reset_error(moons, {"batch=500"}).find("batch") != std::string::npos);
  Vae m;
  for (const char* bad : {"latent=0", "hidden=0", "beta=-1"}) {
    CAPTURE(bad);
    ParamValues v = default_values(m.params());
    try {
      apply_assignment(m.params(), v, bad, "vae");
      FAIL("accepted " << bad);
    } catch (const std::invalid_argument& e) {
      const std::string name(bad, std::strchr(bad, '=') - bad);
      CHECK(std::string(e.what()).find("'" + name + "'") != std::string::npos);
    }
  }
  // Images in [0, 1] take the Bernoulli likelihood by default.
  Vae img;
  img.reset(make_dataset("fashion-mnist:n=200"), vals(img, {"hidden=16"}), 0);
  CHECK(img.vae_snapshot()->likelihood == nn::Likelihood::Bernoulli);
}

TEST_CASE("vae: a non-finite loss makes the run Diverged with the rewind-and-halve advice") {
  Vae m;
  m.reset(make_dataset("moons:n=200"), vals(m, {"hidden=16", "optimizer=sgd", "lr=10", "sigma_x=0.01"}), 0);
  for (int i = 0; i < 500 && !is_terminal(m.snapshot()->status); ++i) m.step();
  auto s = m.snapshot();
  REQUIRE(s->status == Status::Diverged);
  CHECK(s->message.find("non-finite") != std::string::npos);
  CHECK(s->message.find("halve the learning rate") != std::string::npos);
  const int it = s->iteration;
  m.step();  // a terminal run does not move
  CHECK(m.snapshot()->iteration == it);
}

TEST_CASE("vae: the ELBO lies below the importance-sampled log p(x), which rises with the samples") {
  Vae m;
  m.reset(make_dataset("moons:n=300,noise=0.05,seed=3"), vals(m, {"hidden=32", "batch=30", "lr=0.01"}), 2);
  train_epochs(m, 15);
  nn::VaeNet<float> net = m.network();
  const nn::Mat<float>& x = m.vae_snapshot()->data->x_test;
  Rng r1(1), r2(1);
  const nn::LikelihoodEstimate one = nn::importance_log_likelihood(net, x, 1, r1);
  const nn::LikelihoodEstimate many = nn::importance_log_likelihood(net, x, 256, r2);
  // k = 1 is a one-draw ELBO with the KL estimated by Monte Carlo: over many
  // draws it averages to the closed-form ELBO.
  double mc = 0, closed = 0;
  for (uint64_t seed = 10; seed < 50; ++seed) {
    Rng r(seed);
    const nn::LikelihoodEstimate e = nn::importance_log_likelihood(net, x, 1, r);
    mc += e.log_px / 40;
    closed += e.elbo / 40;
  }
  CHECK(std::fabs(mc - closed) < 0.05 * std::max(1.0, std::fabs(closed)));
  CHECK(many.elbo < many.log_px);
  CHECK(many.log_px > one.log_px);
  // The gap is KL(q(z|x) || p(z|x)) > 0: the encoder is not the exact posterior.
  CHECK(many.log_px - many.elbo > 0.01);
}
