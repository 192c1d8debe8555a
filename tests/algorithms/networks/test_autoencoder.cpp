// The autoencoder module: the linear model rediscovers PCA (principal angles,
// Eckart-Young, the product V W, not the weights), the tied model's gradients
// against central differences, the denoising noise floor, epoch bookkeeping,
// sub-steps and clones, determinism, divergence and the bad-input errors.
#include "algorithms/networks/autoencoder.h"
#include "algorithms/nn/gradcheck.h"

#include "algorithms/core/parallel.h"
#include "tests/support/thread_split.h"
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"

#include <doctest/doctest.h>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

using namespace cilab;

namespace {

ParamValues vals(const Autoencoder& a, std::initializer_list<const char*> sets) {
  ParamValues v = default_values(a.params());
  for (const char* s : sets) apply_assignment(a.params(), v, s, "autoencoder");
  return v;
}

void train_epochs(Autoencoder& a, int epochs) {
  while (a.snapshot()->epoch < epochs && !is_terminal(a.status())) a.step();
}

// n rows of a d-dimensional Gaussian with standard deviations sd along a random
// orthonormal basis, shifted by a non-zero mean (the linear model centres it).
std::shared_ptr<const Dataset> gaussian(int n, const std::vector<double>& sd, uint64_t seed) {
  const int d = static_cast<int>(sd.size());
  Rng rng(seed);
  Eigen::MatrixXd g(d, d), z(n, d);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) g(i, j) = rng.normal();
  const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) z(i, j) = sd[static_cast<size_t>(j)] * rng.normal();
  Dataset ds;
  ds.name = "gaussian";
  ds.x = z * q.transpose();
  ds.x.rowwise() += Eigen::RowVectorXd::LinSpaced(d, 1.0, 3.0);
  return std::make_shared<const Dataset>(ds);
}

std::string reset_error(const std::shared_ptr<const Dataset>& d, std::initializer_list<const char*> sets) {
  Autoencoder a;
  try {
    a.reset(d, vals(a, sets), 0);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool same_weights(const nn::Sequential<float>& a, const nn::Sequential<float>& b) {
  return a.num_params() == b.num_params() && std::memcmp(a.params(), b.params(), a.num_params() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("autoencoder: the PCA reference is Eckart-Young of the centred training rows") {
  const auto data = gaussian(300, {3, 2, 1.5, 0.4, 0.2, 0.1}, 1);
  Autoencoder a;
  a.reset(data, vals(a, {"linear=true", "m=2", "test_fraction=0", "standardize=false"}), 1);
  const auto s = a.ae_snapshot();
  REQUIRE(s->pca);
  // Oracle: the singular values of the centred data matrix, (1/2N) sum_{i>m} sigma_i^2.
  const Eigen::MatrixXd xc = data->x.rowwise() - data->x.colwise().mean();
  const Eigen::VectorXd sv = Eigen::JacobiSVD<Eigen::MatrixXd>(xc).singularValues();
  const double ey = sv.tail(4).squaredNorm() / (2.0 * 300);
  CHECK(s->metrics[Autoencoder::kMetricEckartYoung] == doctest::Approx(ey).epsilon(1e-5));
  // U_m spans the top right-singular vectors: zero principal angles to them.
  const Eigen::MatrixXd top = Eigen::JacobiSVD<Eigen::MatrixXd>(xc, Eigen::ComputeThinV).matrixV().leftCols(2);
  for (double t : Autoencoder::principal_angles(top, s->pca->components)) CHECK(t < 1e-5);
  // The angles of a subspace to itself are 0, of an orthogonal one pi/2.
  const Eigen::MatrixXd other = Eigen::JacobiSVD<Eigen::MatrixXd>(xc, Eigen::ComputeThinV).matrixV().rightCols(2);
  for (double t : Autoencoder::principal_angles(other, s->pca->components))
    CHECK(t == doctest::Approx(M_PI / 2).epsilon(1e-6));
}

TEST_CASE("autoencoder: linear (untied and tied) reaches the PCA subspace and Eckart-Young, the weights do not equal U_m") {
  const auto data = gaussian(400, {3, 2, 1.5, 0.3, 0.2, 0.1}, 2);
  for (const char* tied : {"tied=false", "tied=true"}) {
    INFO(tied);
    Autoencoder a;
    a.reset(data,
            vals(a, {"linear=true", tied, "m=3", "test_fraction=0", "standardize=false", "batch=400", "optimizer=gd",
                     "lr=0.05", "max_epochs=100000"}),
            3);
    const double angle0 = a.ae_snapshot()->metrics[Autoencoder::kMetricMaxAngle];
    CHECK(angle0 > 0.1);
    for (int k = 0; k < 20000; ++k) a.step();
    const auto s = a.ae_snapshot();
    const double ey = s->metrics[Autoencoder::kMetricEckartYoung];
    CHECK(s->metrics[Autoencoder::kMetricMaxAngle] < 1e-3);
    CHECK(s->metrics[Autoencoder::kMetricBatchLoss] == doctest::Approx(ey).epsilon(1e-3));
    CHECK(s->metrics[Autoencoder::kMetricBatchLoss] >= ey * (1 - 1e-5));  // never below the optimum
    CHECK(s->metrics[Autoencoder::kMetricProductError] < 1e-3);
    const Eigen::MatrixXd w = Autoencoder::encoder_matrix(a.network());
    const Eigen::MatrixXd v = Autoencoder::decoder_matrix(a.network());
    const double defect = (w * w.transpose() - Eigen::MatrixXd::Identity(3, 3)).norm();
    if (std::string(tied) == "tied=true") {
      CHECK(v == w.transpose());  // kept equal bit for bit
      CHECK(s->metrics[Autoencoder::kMetricOrthoDefect] < 1e-3);
      CHECK(defect < 1e-3);
    } else {
      // Only the product is identified: W = A^-1 U_m^T with A not orthogonal.
      CHECK(std::isnan(s->metrics[Autoencoder::kMetricOrthoDefect]));
      CHECK(defect > 0.05);
      CHECK((v - s->pca->components).norm() > 0.05);
      // The product error is ||VW - U U^T||_F computed directly.
      const Eigen::MatrixXd uut = s->pca->components * s->pca->components.transpose();
      CHECK(s->metrics[Autoencoder::kMetricProductError] ==
            doctest::Approx((v * w - uut).norm()).epsilon(1e-3).scale(1e-6));
    }
  }
}

TEST_CASE("autoencoder: gradients (tied linear, untied linear, nonlinear, denoising) match central differences") {
  Rng rng(11);
  const int d = 5, b = 7;
  nn::Mat<double> x(b, d), target(b, d);
  for (int i = 0; i < b; ++i)
    for (int j = 0; j < d; ++j) {
      target(i, j) = rng.normal();
      x(i, j) = target(i, j) + 0.3 * rng.normal();  // a corrupted input: the target is the clean row
    }
  struct Case {
    const char* name;
    std::vector<const char*> sets;
  };
  for (const Case& c : {Case{"tied", {"linear=true", "tied=true", "m=2"}}, Case{"untied", {"linear=true", "m=2"}},
                        Case{"nonlinear", {"m=2", "layers=4", "activation=tanh"}}}) {
    INFO(c.name);
    Autoencoder a;
    ParamValues v = default_values(a.params());
    for (const char* s : c.sets) apply_assignment(a.params(), v, s, "autoencoder");
    const Autoencoder::Params p = Autoencoder::params_from(v);
    size_t code = 0;
    nn::Sequential<double> net = Autoencoder::make_network<double>(p, d, &code);
    Autoencoder::init_network(net, p, 5);
    nn::Mat<double> dout;
    Autoencoder::loss_and_gradients(net, p, x, target, dout);
    const std::vector<double> grad(net.grads(), net.grads() + net.num_params());
    const std::vector<double> theta(net.params(), net.params() + net.num_params());
    auto loss_at = [&](const std::vector<double>& t) {
      std::copy(t.begin(), t.end(), net.params());
      nn::Mat<double> dd;
      return Autoencoder::loss_and_gradients(net, p, x, target, dd);
    };
    const int m = 2;
    double worst = 0;
    if (p.linear) {
      // Parameters of the model: W (tied: V follows as W^T); biases are held at 0.
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < d; ++j) {
          std::vector<double> tp = theta, tm = theta;
          const size_t w = static_cast<size_t>(i * d + j), vij = net.param_offset(1) + static_cast<size_t>(j * m + i);
          const double h = 1e-6;
          tp[w] += h;
          tm[w] -= h;
          if (p.tied) {
            tp[vij] += h;
            tm[vij] -= h;
          }
          const double fd = (loss_at(tp) - loss_at(tm)) / (2 * h);
          worst = std::max(worst, std::fabs(fd - grad[w]) / std::max(1.0, std::fabs(fd)));
          if (p.tied) CHECK(grad[vij] == grad[w]);  // the shared gradient in both slots
        }
      for (size_t k = static_cast<size_t>(m * d); k < static_cast<size_t>(m * d + m); ++k) CHECK(grad[k] == 0.0);
    } else {
      std::vector<double> t = theta;
      worst = nn::check_gradient(t.data(), t.size(), grad.data(), 1e-6, [&] { return loss_at(t); },
                                           nn::scaled_error)
                  .error;
    }
    CHECK(worst < 1e-6);
  }
}

TEST_CASE("autoencoder: the reported loss is the mean of 1/2 ||x - x_hat||^2, the epoch loss the mean of the batches") {
  Autoencoder a;
  a.reset(make_dataset("blobs:n=250,dim=4,seed=3"), vals(a, {"batch=32", "test_fraction=0.2"}), 4);
  // Initial train_loss: 1/2 ||x - F(x)||^2 averaged over the training rows, computed here.
  {
    const auto s = a.ae_snapshot();
    nn::Sequential<float> net = a.network();
    const nn::Mat<float>& out = net.forward(s->data->x_train, false);
    const double direct = 0.5 * (out - s->data->x_train).cast<double>().squaredNorm() / s->data->n_train();
    CHECK(s->metrics[Autoencoder::kMetricTrainLoss] == doctest::Approx(direct).epsilon(1e-6));
  }
  const int bpe = (200 + 31) / 32;
  double sum = 0;
  for (int k = 0; k < bpe; ++k) {
    CHECK(a.snapshot()->epoch == 0);
    a.step();
    const int rows = k + 1 < bpe ? 32 : 200 - 32 * (bpe - 1);
    sum += a.snapshot()->metrics[Autoencoder::kMetricBatchLoss] * rows;
  }
  const auto s = a.ae_snapshot();
  CHECK(s->epoch == 1);
  CHECK(s->metrics[Autoencoder::kMetricLoss] == doctest::Approx(sum / 200).epsilon(1e-12));
  CHECK(s->metrics[Autoencoder::kMetricTrainLoss] == doctest::Approx(sum / 200).epsilon(1e-12));
  // Test loss: the network on the 50 test rows.
  nn::Sequential<float> net = a.network();
  const nn::Mat<float>& out = net.forward(s->data->x_test, false);
  const double direct = 0.5 * (out - s->data->x_test).cast<double>().squaredNorm() / 50;
  CHECK(s->metrics[Autoencoder::kMetricTestLoss] == doctest::Approx(direct).epsilon(1e-6));
  CHECK(std::isnan(s->metrics[Autoencoder::kMetricMaxAngle]));  // nonlinear
  CHECK(std::isnan(s->metrics[Autoencoder::kMetricNoiseFloor]));  // noise = 0
}

TEST_CASE("autoencoder: denoising - the measured noise floor is d sigma^2 / 2 and the model beats it") {
  const auto data = make_dataset("blobs:n=2000,dim=8,centers=3,seed=2");
  Autoencoder a;
  const double sigma = 0.5;
  a.reset(data, vals(a, {"noise=0.5", "m=2", "layers=32", "batch=64", "standardize=true"}), 6);
  CHECK(a.ae_snapshot()->metrics[Autoencoder::kMetricNoiseFloor] == doctest::Approx(8 * sigma * sigma / 2));
  train_epochs(a, 15);
  const auto s = a.ae_snapshot();
  // Mean of 1/2 ||eta||^2 over N = 1600 rows: sd = sigma^2 sqrt(d / (2N)), relative sqrt(2 / (dN)) = 1.25%.
  const AutoencoderEpochRow& first = (*s->epochs)[1];
  CHECK(first.input_noise_error == doctest::Approx(8 * sigma * sigma / 2).epsilon(0.06));
  // Denoising succeeds: ||x - F(x_eta)||^2 < ||x - x_eta||^2 on the test rows.
  CHECK(s->metrics[Autoencoder::kMetricTestLoss] < 0.7 * s->metrics[Autoencoder::kMetricNoiseFloor]);
  // noise is live: 0 makes the test loss the clean reconstruction error.
  a.set_live("noise", 0);
  CHECK(std::isnan(a.ae_snapshot()->metrics[Autoencoder::kMetricNoiseFloor]));
  train_epochs(a, 16);
  const auto s2 = a.ae_snapshot();
  nn::Sequential<float> net = a.network();
  const nn::Mat<float>& out = net.forward(s2->data->x_test, false);
  const double clean = 0.5 * (out - s2->data->x_test).cast<double>().squaredNorm() / s2->data->n_test();
  CHECK(s2->metrics[Autoencoder::kMetricTestLoss] == doctest::Approx(clean).epsilon(1e-6));
  CHECK(s2->epochs->back().input_noise_error == 0.0);
}

TEST_CASE("autoencoder: sub-steps equal a step, a clone between them continues identically") {
  const auto data = make_dataset("blobs:n=200,dim=3");
  for (const char* extra : {"linear=false", "linear=true", "tied=true"}) {
    INFO(std::string(extra));
    Autoencoder a, b;
    const std::vector<const char*> sets = {extra, std::string(extra) == "tied=true" ? "linear=true" : "noise=0.2"};
    ParamValues v = default_values(a.params());
    for (const char* s : sets) apply_assignment(a.params(), v, s, "autoencoder");
    a.reset(data, v, 5);
    b.reset(data, v, 5);
    for (int k = 0; k < 7; ++k) a.step();
    for (int k = 0; k < 7; ++k) {
      b.sub_step();
      CHECK(b.snapshot()->phase == 1);
      std::unique_ptr<Module> c = b.clone();
      b.sub_step();
      b.sub_step();
      CHECK(b.snapshot()->phase == 0);
      c->step();
      CHECK(same_weights(static_cast<Autoencoder&>(*c).network(), b.network()));
    }
    CHECK(same_weights(a.network(), b.network()));
  }
}

TEST_CASE("autoencoder: the same seed gives bit-identical weights with 1 and 2 threads, another seed does not") {
  // Sized so that the encoder's and decoder's products (256 x 256 x 64 = 4.2M multiply-adds
  // and more, several column blocks) are above the GEMMs' parallel threshold: with 2 threads
  // the pool really splits them, which the pool's statistics confirm.
  const auto data = make_dataset("blobs:n=1200,dim=64");
  auto run = [&](int threads, uint64_t seed) {
    set_max_threads(threads);
    Autoencoder a;
    a.reset(data, vals(a, {"layers=256,128", "batch=256", "noise=0.1"}), seed);
    for (int k = 0; k < 20; ++k) a.step();
    set_max_threads(0);
    return a.network();
  };
  const auto [one, two] = test_support::one_and_two_threads([&](int threads) { return run(threads, 7); }, 20);
  const nn::Sequential<float> other = run(1, 8);
  CHECK(same_weights(one, two));
  CHECK_FALSE(same_weights(one, other));
}

TEST_CASE("autoencoder: a non-finite loss makes the run Diverged with the rewind-and-halve advice") {
  Autoencoder a;
  a.reset(make_dataset("blobs:n=200,dim=4"), vals(a, {"linear=true", "optimizer=sgd", "lr=10"}), 1);
  for (int k = 0; k < 5000 && !is_terminal(a.status()); ++k) a.step();
  const auto s = a.snapshot();
  REQUIRE(s->status == Status::Diverged);
  CHECK(s->message.find("non-finite") != std::string::npos);
  CHECK(s->message.find("halve the learning rate") != std::string::npos);
}

TEST_CASE("autoencoder: bad input names the parameter and what to try") {
  const auto blobs = make_dataset("blobs:n=100,dim=3");
  Autoencoder a;
  CHECK_THROWS_WITH_AS(vals(a, {"m=0"}), doctest::Contains("m"), std::invalid_argument);
  const std::string wide = reset_error(blobs, {"m=4"});
  CHECK(wide.find("'m'") != std::string::npos);
  CHECK(wide.find("m <= 3") != std::string::npos);
  const std::string tied = reset_error(blobs, {"tied=true"});
  CHECK(tied.find("'tied'") != std::string::npos);
  CHECK(tied.find("linear=true") != std::string::npos);
  const std::string big_batch = reset_error(blobs, {"batch=90", "test_fraction=0.2"});
  CHECK(big_batch.find("'batch'") != std::string::npos);
  CHECK(big_batch.find("batch <= 80") != std::string::npos);
  // linear with layers set is fine: the layers are ignored.
  CHECK(reset_error(blobs, {"linear=true", "layers=128,64"}).empty());
}
