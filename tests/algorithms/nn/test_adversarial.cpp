// The GAN passes of the network library (algorithms/nn/adversarial.h): the
// input-gradient-only backward, the second-order pass behind WGAN-GP's
// gradient penalty, and both networks' gradients under every loss, each
// against central finite differences in double.
#include "algorithms/nn/adversarial.h"
#include "algorithms/nn/gradcheck.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace cilab;
using namespace cilab::nn;

namespace {

Mat<double> random_mat(Rng& rng, int r, int c, double scale = 1.0) {
  Mat<double> m(r, c);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal(0.0, scale);
  return m;
}


Sequential<double> mlp(int in, std::vector<int> widths, int out, Activation act, uint64_t seed) {
  Sequential<double> net;
  for (int w : widths) {
    net.add(make_linear<double>(w));
    net.add(make_activation<double>(act));
  }
  net.add(make_linear<double>(out));
  net.build(in);
  Rng rng(seed);
  net.init(rng, Init::Torch);
  return net;
}

// The largest relative error between `grads` (the analytic gradient of f
// w.r.t. net's parameters) and central differences of f.
double max_param_error(Sequential<double>& net, const std::vector<double>& grads, const std::function<double()>& f,
                       std::string* where) {
  GradientError e = check_gradient(net.params(), net.num_params(), grads.data(), 1e-6, f, relative_error);
  e.where = "parameter";
  *where = e.describe();
  return e.error;
}

std::vector<double> grads_of(const Sequential<double>& net) {
  return std::vector<double>(net.grads(), net.grads() + net.num_params());
}

}  // namespace

TEST_CASE("adversarial: backward_input gives backward's input gradient and adds no parameter gradient") {
  Sequential<double> net = mlp(3, {5, 4}, 2, Activation::Tanh, 7);
  Rng rng(1);
  const Mat<double> x = random_mat(rng, 6, 3), dy = random_mat(rng, 6, 2);
  net.forward(x, true);
  net.zero_grad();
  Mat<double> dx_full, dx_input;
  net.backward(dy, &dx_full);
  const std::vector<double> after_full = grads_of(net);
  net.zero_grad();
  net.backward_input(dy, dx_input);
  CHECK((dx_full - dx_input).cwiseAbs().maxCoeff() < 1e-14);
  for (size_t i = 0; i < net.num_params(); ++i) CHECK(net.grads()[i] == 0.0);
  double full_norm = 0;
  for (double g : after_full) full_norm += g * g;
  CHECK(full_norm > 0);  // the full backward did write parameter gradients
}

TEST_CASE("adversarial: the gradient penalty's parameter gradient matches finite differences for every activation") {
  for (int a = 0; a < kNumActivations; ++a) {
    const Activation act = static_cast<Activation>(a);
    INFO(activation_name(act));
    Sequential<double> critic = mlp(2, {6, 5}, 1, act, 20 + a);
    Rng rng(2 + a);
    const Mat<double> x = random_mat(rng, 7, 2);
    critic.zero_grad();
    const double p = gradient_penalty(critic, x, 10.0);
    CHECK(p > 0);
    const std::vector<double> g = grads_of(critic);
    std::string where;
    const double err = max_param_error(critic, g, [&] { return gradient_penalty(critic, x, 10.0); }, &where);
    INFO(where);
    CHECK(err < 1e-5);
  }
}

TEST_CASE("adversarial: the penalty is lambda mean (||grad_x l|| - 1)^2 of the critic's input gradient") {
  // A linear critic l(x) = w.x + b has grad_x l = w on every row.
  Sequential<double> critic;
  critic.add(make_linear<double>(1));
  critic.build(2);
  critic.params()[0] = 3.0;
  critic.params()[1] = 4.0;  // ||w|| = 5
  critic.params()[2] = 0.5;
  Rng rng(3);
  const Mat<double> x = random_mat(rng, 4, 2);
  critic.zero_grad();
  double norm = 0;
  CHECK(gradient_penalty(critic, x, 2.0, &norm) == doctest::Approx(2.0 * 16.0));
  CHECK(norm == doctest::Approx(5.0));
  // d/dw lambda (||w|| - 1)^2 = 2 lambda (||w|| - 1) w / ||w||; the bias gets none.
  CHECK(critic.grads()[0] == doctest::Approx(2 * 2.0 * 4.0 * 3.0 / 5.0));
  CHECK(critic.grads()[1] == doctest::Approx(2 * 2.0 * 4.0 * 4.0 / 5.0));
  CHECK(critic.grads()[2] == 0.0);
}

TEST_CASE("adversarial: both networks' gradients match finite differences under every loss") {
  for (int k = 0; k < kNumGanLosses; ++k) {
    const GanLoss loss = static_cast<GanLoss>(k);
    INFO(gan_loss_name(loss));
    GanNet<double> gan;
    gan.loss = loss;
    gan.gp_lambda = 5.0;
    gan.generator = mlp(2, {6}, 2, Activation::Tanh, 31);
    gan.discriminator = mlp(2, {7, 5}, 1, Activation::Softplus, 32);
    Rng rng(4);
    const Mat<double> z = random_mat(rng, 5, 2), real = random_mat(rng, 6, 2);
    Mat<double> eps(6, 1);
    for (int i = 0; i < 6; ++i) eps(i, 0) = rng.uniform();

    // The discriminator's loss as a function of D's parameters (fake rows fixed).
    const Mat<double> fake = gan.generate(z);
    const GanDTerms d = gan.discriminator_pass(real, fake, eps);
    CHECK(std::isfinite(d.loss));
    const std::vector<double> gd = grads_of(gan.discriminator);
    std::string where;
    double err = max_param_error(gan.discriminator, gd, [&] { return gan.discriminator_pass(real, fake, eps).loss; }, &where);
    INFO(where);
    CHECK(err < 1e-5);
    if (loss == GanLoss::WassersteinGP) CHECK(d.penalty > 0);

    // The generator's loss as a function of G's parameters, through D.
    gan.generate(z);
    const GanGTerms g = gan.generator_pass();
    CHECK(std::isfinite(g.loss));
    const std::vector<double> gg = grads_of(gan.generator);
    const std::vector<double> d_before = grads_of(gan.discriminator);
    err = max_param_error(gan.generator, gg, [&] {
      gan.generate(z);
      return gan.generator_pass().loss;
    }, &where);
    INFO(where);
    CHECK(err < 1e-5);
    CHECK(grads_of(gan.discriminator) == d_before);  // the G step leaves D's gradients alone
  }
}

TEST_CASE("adversarial: with D = 1/2 everywhere the minimax value is -log 4 and the losses take their textbook values") {
  // A discriminator whose logit is 0 for every input: weights and bias zero.
  GanNet<double> gan;
  gan.generator = mlp(2, {4}, 2, Activation::ReLU, 5);
  gan.discriminator = mlp(2, {4}, 1, Activation::ReLU, 6);
  for (size_t i = 0; i < gan.discriminator.num_params(); ++i) gan.discriminator.params()[i] = 0;
  Rng rng(8);
  const Mat<double> z = random_mat(rng, 5, 2), real = random_mat(rng, 5, 2), eps = Mat<double>::Constant(5, 1, 0.5);
  const Mat<double> fake = gan.generate(z);
  gan.loss = GanLoss::Minimax;
  GanDTerms d = gan.discriminator_pass(real, fake, eps);
  CHECK(d.loss == doctest::Approx(std::log(4.0)));  // -V(D, G) = log 4
  CHECK(d.real == doctest::Approx(0.5));
  CHECK(d.fake == doctest::Approx(0.5));
  gan.generate(z);
  CHECK(gan.generator_pass().loss == doctest::Approx(-std::log(2.0)));
  gan.loss = GanLoss::NonSaturating;
  gan.generate(z);
  CHECK(gan.generator_pass().loss == doctest::Approx(std::log(2.0)));
  gan.loss = GanLoss::LeastSquares;
  d = gan.discriminator_pass(real, fake, eps);
  CHECK(d.loss == doctest::Approx(0.5));
  gan.loss = GanLoss::WassersteinGP;
  gan.gp_lambda = 3.0;
  d = gan.discriminator_pass(real, fake, eps);
  CHECK(d.penalty == doctest::Approx(3.0));  // ||grad|| = 0 on every row: lambda (0 - 1)^2
  CHECK(d.loss == doctest::Approx(3.0));
}

TEST_CASE("adversarial: a layer without a second-order pass is refused by name") {
  Sequential<double> critic;
  critic.add(make_linear<double>(4));
  critic.add(make_batch_norm<double>());
  critic.add(make_linear<double>(1));
  critic.build(2);
  Rng rng(9);
  critic.init(rng, Init::Torch);
  const Mat<double> x = random_mat(rng, 4, 2);
  CHECK_THROWS_WITH_AS(gradient_penalty(critic, x, 1.0), doctest::Contains("batch_norm"), std::invalid_argument);
}
