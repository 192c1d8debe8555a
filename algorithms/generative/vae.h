// The variational autoencoder trained live (course chapter 16), on the
// network library's VaeNet (algorithms/nn/elbo.h: the model, the
// reparameterisation and the ELBO's gradients) and the shared optimizers.
//
// Model (PyTorch's examples/vae at its defaults: 784-400-20, ReLU):
//   encoder  x -> Linear(hidden) -> act -> Linear(2 latent) = [mu, log sigma^2]
//   decoder  z -> Linear(hidden) -> act -> Linear(D)  (Bernoulli logits or Gaussian means)
// likelihood bernoulli (images in [0, 1]: BCE summed over the pixels, as the
// example) or gaussian (a fixed sigma_x; any data, z-scored by default);
// auto picks bernoulli for images, gaussian otherwise.
//
// Objective: the batch mean of rec + beta * kl (elbo.h); beta = 1 is the
// ELBO, beta is live (the trade-off moves without a restart: Higgins et al.'s
// beta-VAE). One Adam over encoder and decoder (the shared optimizer group;
// default Adam lr 1e-3, torch's). The reported `loss` is the mean per-sample
// negative ELBO over the epoch's mini-batches (the example's
// train_loss / len(dataset)); the test loss is the same on the test set, one
// sample of z per row from a seeded noise stream (the same numbers every run).
//
// Data (algorithms/nn/train_data.h): a seeded split by test_fraction, Fashion-MNIST's
// training split tested on t10k; labels only colour the latent space.
//
// One iteration = one mini-batch step; sub-steps forward (the batch's ELBO
// and, computed ahead, its gradients: see mlp.h), backward, update. The last
// batch of an epoch evaluates the test set. Snapshots hold shared pointers
// and a copy of the network refreshed at most every kNetRefreshMs of
// training, at sub-steps, epoch ends and settle(): views compute their
// pictures (latent means, decoded grids, samples) from it off the UI thread.
// A non-finite loss or weight makes the run Diverged.
#pragma once

#include "algorithms/nn/trainer.h"
#include "algorithms/nn/elbo.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/optim/schedule.h"
#include "algorithms/nn/train_data.h"

#include <memory>
#include <string>
#include <vector>

namespace cilab {

// One row of the per-epoch log (epoch 0: the initial network).
struct VaeEpochRow : EpochRow {
  double beta = 1;
  nn::ElboTerms train;  // means over the epoch's batches (epoch 0: the training set)
  nn::ElboTerms test;   // the test set at the epoch's end (NaN when there is none)
  // The oracle log p(x) >= ELBO on the first kOracleRows test rows (the
  // training rows when there is no test set): importance-sampled log p(x)
  // with kOracleSamples draws, and the ELBO (beta = 1) from the same draws.
  nn::LikelihoodEstimate oracle;
};

// net (a copy of the model for pictures), epochs, architecture
// ("784-400-(2x20) | 20-400-784 relu, bernoulli"), num_params: EpochSnapshot's (trainer.h).
struct VaeSnapshot : EpochSnapshot<nn::VaeNet<float>, VaeEpochRow> {
  std::shared_ptr<const TrainData> data;
  int batch_index = 0;
  double beta = 1;
  double lr = 0;
  nn::Likelihood likelihood = nn::Likelihood::Bernoulli;
  double sigma_x = 1;
  int latent = 0;

  size_t byte_size() const override;
  void shared_parts(std::vector<SharedPart>& out) const override;
};

// vae module. Parameters (PyTorch example / torch names where they exist):
// latent, hidden, activation, likelihood, sigma_x, beta (live), batch,
// test_fraction, standardize, init, max_epochs (live) and the shared
// optimizer and schedule groups.
class Vae : public Trainer<Vae> {
 public:
  enum class LikelihoodChoice { Auto = 0, Bernoulli = 1, Gaussian = 2 };

  struct Params {
    int latent = 2;
    int hidden = 400;
    nn::Activation activation = nn::Activation::ReLU;
    LikelihoodChoice likelihood = LikelihoodChoice::Auto;
    double sigma_x = 0.1;
    double beta = 1.0;
    int batch = 128;
    double test_fraction = 0.2;
    bool standardize = true;
    nn::Init init = nn::Init::Torch;
    int max_epochs = 1000;
    OptimizerConfig optim = default_optimizer();
    ScheduleConfig schedule;

    static OptimizerConfig default_optimizer();
  };

  enum Metric : int {
    kMetricBatchLoss,   // this step's batch: rec + beta kl
    kMetricBatchRec,
    kMetricBatchKl,
    kMetricLoss,        // running mean -ELBO over the epoch's batches (at its end: the epoch's mean)
    kMetricRec,
    kMetricKl,
    kMetricTestLoss,    // last completed epoch: the test set
    kMetricTestRec,
    kMetricTestKl,
    kMetricLogPx,       // last completed epoch: importance-sampled log p(x) (oracle rows)
    kMetricElboGap,     // log p(x) - ELBO on the same rows and draws (>= 0 in expectation)
    kMetricMeanSigma,   // mean posterior sigma of this batch (collapse indicator)
    kMetricBeta,
    kMetricGradNorm,
    kMetricLr,
    kNumMetrics
  };

  static constexpr double kNetRefreshMs = 100.0;
  // Seed offset of the test evaluation's noise stream (the same eps every evaluation).
  static constexpr uint64_t kTestNoiseSeed = 0x7e57ULL;
  static constexpr int kOracleRows = 100;
  static constexpr int kOracleSamples = 32;

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  size_t state_bytes() const override;

  std::shared_ptr<const VaeSnapshot> vae_snapshot() const;
  static Params params_from(const ParamValues& values);
  // The trained model itself (tests).
  const nn::VaeNet<float>& network() const;
  // The model of `p` for D features (weights zero until init).
  static nn::VaeNet<float> make_network(const Params& p, int d, nn::Likelihood lik);
  // Evaluates rows x (chunks, eval mode) with noise from Rng(seed): per-sample mean terms.
  static nn::ElboTerms evaluate(nn::VaeNet<float>& net, const nn::Mat<float>& x, double beta, uint64_t seed);

 private:
  friend class Trainer<Vae>;  // it steps the State
  struct State;
  StatePtr<State> st_;
};

CILAB_TRAINER_EXTERN(Vae)

}  // namespace cilab
