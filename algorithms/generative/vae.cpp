// The vae module: see vae.h for the model, the objective and the sub-steps.
#include "algorithms/generative/vae.h"
#include "algorithms/nn/trainer_impl.h"

#include "algorithms/core/rng.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/train_checks.h"
#include "algorithms/nn/train_params.h"
#include "algorithms/nn/trainer_state.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cilab {

using nn::Mat;

namespace {


const ParamTable<Vae::Params>& param_table() {
  using P = Vae::Params;
  static const ParamTable<P> kTable = {
      Int("latent", &P::latent, 1, 256)
          .help("latent dimension: the size of z (PyTorch's example: 20; 2 draws the latent space as it is); "
                "changing it restarts the run")
          .formula("q(z | x) = N(mu(x), diag sigma^2(x)),  p(z) = N(0, I)"),
      Int("hidden", &P::hidden, 1, 4096)
          .help("width of the encoder's and the decoder's hidden layer (PyTorch's example: 400)")
          .formula("x -> Linear(hidden) -> act -> Linear(2 latent);  z -> Linear(hidden) -> act -> Linear(D)"),
      activation_param(&P::activation, "activation of the hidden layers (torch.nn names and constants; the example: relu)",
                       /*with_formulas=*/false),
      Choice("likelihood", &P::likelihood, {"auto", "bernoulli", "gaussian"})
          .choice_help({"bernoulli for images (values in [0, 1]), gaussian otherwise",
                        "-log p(x|z) = sum_j BCE(sigmoid(l_j), x_j): the decoder outputs logits; data in [0, 1]",
                        "-log p(x|z) = sum_j (x_j - m_j)^2 / (2 sigma_x^2) + D/2 log(2 pi sigma_x^2)"})
          .help("the decoder's likelihood p(x | z)"),
      Real("sigma_x", &P::sigma_x, 1e-3, 100)
          .help("standard deviation of the Gaussian likelihood (fixed; in the units the network sees: "
                "z-scored features by default); small sigma_x weighs reconstruction over the prior")
          .formula("p(x | z) = N(m(z), sigma_x^2 I)"),
      Real("beta", &P::beta, 0, 100)
          .live()
          .help("weight of the KL term (beta-VAE, Higgins et al. 2017; 1 = the ELBO); live: move it while "
                "training to watch reconstruction and KL trade off")
          .formula("loss = E_q[-log p(x|z)] + beta KL(q(z|x) || N(0, I))"),
      batch_param(&P::batch, "mini-batch size (torch DataLoader batch_size; the example: 128)"),
      test_fraction_param(&P::test_fraction, "share of the rows held out as the test set (train_test_split test_size, "
                                             "seeded); Fashion-MNIST's training split is tested on its t10k set instead"),
      standardize_param(&P::standardize,
                        "z-score the features with the training rows' mean and standard deviation (images stay in [0, 1])"),
      init_param(&P::init),
      max_epochs_param(&P::max_epochs, "training budget in epochs; the run stops there"),
      optimizer_rows(&P::optim, &P::schedule,
                     {"the optimizer stepping encoder and decoder (torch.optim class; the example: Adam)",
                      "learning rate (the example: Adam with torch's default 0.001)", "", ""}),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Vae::kMetricBatchLoss, "batch_loss", "this step's batch: mean of rec + beta KL over its samples", true},
      {Vae::kMetricBatchRec, "batch_reconstruction", "this step's batch: mean -log p(x|z) (one z per sample)", true},
      {Vae::kMetricBatchKl, "batch_kl", "this step's batch: mean KL(q(z|x) || N(0, I)) = 1/2 sum(mu^2 + sigma^2 - log sigma^2 - 1)", true},
      {Vae::kMetricLoss, "loss", "mean per-sample negative ELBO (rec + beta KL) over the epoch's batches so far (running mean; at an epoch's end the epoch's mean; iteration 0: the initial model on the training set)", true},
      {Vae::kMetricRec, "reconstruction", "mean -log p(x|z) over the epoch's batches so far (running mean)", true},
      {Vae::kMetricKl, "kl", "mean KL(q(z|x) || p(z)) over the epoch's batches so far (running mean)", true},
      {Vae::kMetricTestLoss, "test_loss", "mean negative ELBO (rec + beta KL) on the test set at the last epoch's end (one seeded z per row)", true},
      {Vae::kMetricTestRec, "test_reconstruction", "mean -log p(x|z) on the test set at the last epoch's end", true},
      {Vae::kMetricTestKl, "test_kl", "mean KL on the test set at the last epoch's end", true},
      {Vae::kMetricLogPx, "log_px", "log p(x) estimated by importance sampling with the encoder as proposal (k = 32 draws, the first 100 test rows) at the last epoch's end: the ELBO lies below it", false},
      {Vae::kMetricElboGap, "elbo_gap", "log p(x) - ELBO on the same rows and draws: KL(q(z|x) || p(z|x)) >= 0, how far the encoder is from the true posterior", true},
      {Vae::kMetricMeanSigma, "mean_sigma", "mean posterior sigma over this batch and the latent axes (near 1: the posterior collapsed onto the prior)", false},
      {Vae::kMetricBeta, "beta", "the KL weight of this step", false},
      {Vae::kMetricGradNorm, "grad_norm", "||dL/dtheta|| of this step's batch (encoder and decoder)", true},
      {Vae::kMetricLr, "lr", "learning rate of this step's update (after the schedule)", true},
  };
  return kMetrics;
}

const ModuleInfo& module_info() {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "vae";
    m.title = "Variational autoencoder";
    m.chapter = "Generative models";
    m.summary =
        "Train a VAE live (the reparameterisation trick, Bernoulli or Gaussian likelihood): the ELBO split into "
        "reconstruction and KL per step and per epoch, with the test ELBO; the 2-D latent space of posterior "
        "means with sigma ellipses, the decoded manifold over the prior, reconstructions, prior samples and "
        "interpolations. Move beta while it trains. Fashion-MNIST or 2-D toy data.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"forward", "backward", "update"};
    m.default_dataset = "fashion-mnist:n=10000";
    m.default_cli_steps = 200;
    m.epoch_columns = {"loss", "reconstruction", "kl", "test_loss"};
    return m;
  }();
  return kInfo;
}

nn::Likelihood resolve_likelihood(const Vae::Params& p, const TrainData& td) {
  switch (p.likelihood) {
    case Vae::LikelihoodChoice::Bernoulli: return nn::Likelihood::Bernoulli;
    case Vae::LikelihoodChoice::Gaussian: return nn::Likelihood::Gaussian;
    case Vae::LikelihoodChoice::Auto: break;
  }
  return td.is_image() && td.min_value >= 0.0f && td.max_value <= 1.0f ? nn::Likelihood::Bernoulli
                                                                        : nn::Likelihood::Gaussian;
}

// Fills eps (rows x latent) with standard normal draws, row by row.
void draw_noise(Rng& rng, int rows, int latent, Mat<float>& eps) {
  eps.resize(rows, latent);
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < latent; ++k) eps(i, k) = static_cast<float>(rng.normal());
}

double flat_norm(const float* g, size_t n) {
  const Eigen::Map<const Eigen::VectorXf> v(g, static_cast<Eigen::Index>(n));
  return std::sqrt(v.cast<double>().squaredNorm());
}

// The log p(x) >= ELBO oracle on the first rows of the test set (or of the training set).
nn::LikelihoodEstimate oracle_estimate(nn::VaeNet<float>& net, const TrainData& td, uint64_t seed) {
  const Mat<float>& x = td.n_test() > 0 ? td.x_test : td.x_train;
  const Mat<float> rows = x.topRows(std::min<Eigen::Index>(x.rows(), Vae::kOracleRows));
  Rng rng(seed ^ Vae::kTestNoiseSeed ^ 0x10c9ULL);
  return nn::importance_log_likelihood(net, rows, Vae::kOracleSamples, rng);
}

bool all_finite(const float* w, size_t n) {
  return Eigen::Map<const Eigen::VectorXf>(w, static_cast<Eigen::Index>(n)).allFinite();
}

}  // namespace

OptimizerConfig Vae::Params::default_optimizer() { return OptimizerConfig::defaults(OptimizerKind::Adam); }

size_t VaeSnapshot::byte_size() const {
  // The network copy is shared by ~100 ms of snapshots (shared_parts(), counted
  // once by the history budget); the data are the run's.
  return Snapshot::byte_size() + sizeof(*this) + architecture.size();
}

void VaeSnapshot::shared_parts(std::vector<SharedPart>& out) const {
  if (net) out.push_back({net.get(), 2 * (net->encoder.num_params() + net->decoder.num_params()) * sizeof(float)});
  if (epochs) out.push_back({epochs.get(), epochs->size() * sizeof(VaeEpochRow)});
}

// ---------------------------------------------------------------- state

// p, seed, ready, net, loop, net_copy, architecture, cache, batcher, last_lr and
// the epoch log: EpochTrainerState's (trainer_state.h).
struct Vae::State : EpochTrainerState<Params, nn::VaeNet<float>, VaeEpochRow, VaeSnapshot> {
  std::shared_ptr<const TrainData> data;
  Optimizer enc_opt, dec_opt;  // one configuration, one state buffer per network
  Rng noise{0};

  Mat<float> xb, eps;
  int batch_index = 0;
  nn::ElboTerms batch_terms{std::nan(""), std::nan(""), std::nan("")};
  double mean_sigma = std::nan("");
  double grad_norm = std::nan("");
  double step_beta = 1;

  double epoch_rec = 0, epoch_kl = 0, epoch_loss = 0;
  int epoch_seen = 0;

  State() : EpochTrainerState(Vae::kNetRefreshMs) {}
  // Trainer's live-change hook (trainer.h): both optimizers take the new settings
  // (validating them).
  void live_changed(const Params& next) {
    const OptimizerConfig oc = group_config(next.optim);
    enc_opt.set_config(oc);
    dec_opt.set_config(oc);
  }

  void forward_half() override;
  void update_half() override;
  void end_epoch();
  void fail(const std::string& why) { loop.fail(why, p.optim.lr); }
};

nn::VaeNet<float> Vae::make_network(const Params& p, int d, nn::Likelihood lik) {
  nn::VaeNet<float> v;
  v.latent = p.latent;
  v.likelihood = lik;
  v.sigma_x = p.sigma_x;
  v.encoder.add(nn::make_linear<float>(p.hidden));
  v.encoder.add(nn::make_activation<float>(p.activation));
  v.encoder.add(nn::make_linear<float>(2 * p.latent));
  v.encoder.build(d);
  v.decoder.add(nn::make_linear<float>(p.hidden));
  v.decoder.add(nn::make_activation<float>(p.activation));
  v.decoder.add(nn::make_linear<float>(d));
  v.decoder.build(p.latent);
  return v;
}

nn::ElboTerms Vae::evaluate(nn::VaeNet<float>& net, const Mat<float>& x, double beta, uint64_t seed) {
  const int n = static_cast<int>(x.rows());
  nn::ElboTerms sum;
  if (n == 0) return {std::nan(""), std::nan(""), std::nan("")};
  Rng rng(seed);
  Mat<float> eps;
  nn::for_each_chunk(x, [&](const Mat<float>& chunk, int) {
    const int m = static_cast<int>(chunk.rows());
    draw_noise(rng, m, net.latent, eps);
    const nn::ElboTerms t = net.run(chunk, eps, beta, false, false);
    sum.reconstruction += t.reconstruction * m;
    sum.kl += t.kl * m;
  });
  sum.reconstruction /= n;
  sum.kl /= n;
  sum.loss = sum.reconstruction + beta * sum.kl;
  return sum;
}

void Vae::State::forward_half() {
  batch_index = batcher->position() / batcher->batch_size();
  const std::vector<int>& idx = batcher->next();
  nn::Batcher::gather(data->x_train, idx, xb);
  const int b = static_cast<int>(idx.size());
  draw_noise(noise, b, p.latent, eps);
  step_beta = p.beta;
  batch_terms = net.run(xb, eps, step_beta, true, true);
  mean_sigma = static_cast<double>((net.logvar().array() * 0.5f).exp().mean());
  epoch_rec += batch_terms.reconstruction * b;
  epoch_kl += batch_terms.kl * b;
  epoch_loss += batch_terms.loss * b;
  epoch_seen += b;
  const double ge = flat_norm(net.encoder.grads(), net.encoder.num_params());
  const double gd = flat_norm(net.decoder.grads(), net.decoder.num_params());
  grad_norm = std::sqrt(ge * ge + gd * gd);
  loop.check_forward(batch_terms.loss, std::isfinite(grad_norm), p.optim.lr);
}

void Vae::State::update_half() {
  last_lr = lr_at(p.schedule, p.optim.lr, loop.iteration);
  enc_opt.step(net.encoder.params(), net.encoder.grads(), last_lr);
  dec_opt.step(net.decoder.params(), net.decoder.grads(), last_lr);
  loop.advance();
  if (!loop.check_update(all_finite(net.encoder.params(), net.encoder.num_params()) &&
                             all_finite(net.decoder.params(), net.decoder.num_params()),
                         p.optim.lr))
    return;
  if (batcher->position() == 0) end_epoch();
}

void Vae::State::end_epoch() {
  VaeEpochRow row = epoch_row();
  row.beta = p.beta;
  const double n = epoch_seen > 0 ? epoch_seen : std::nan("");
  row.train = {epoch_loss / n, epoch_rec / n, epoch_kl / n};
  row.test = Vae::evaluate(net, data->x_test, p.beta, seed ^ kTestNoiseSeed);
  row.oracle = oracle_estimate(net, *data, seed);
  append_epoch(row);
  epoch_rec = epoch_kl = epoch_loss = 0;
  epoch_seen = 0;
  if (!std::isfinite(row.test.loss) && data->n_test() > 0) {
    fail("non-finite test loss");
    return;
  }
  loop.stop_at_budget(row.epoch, p.max_epochs);
}

// ---------------------------------------------------------------- module

const ModuleInfo& Vae::info() const { return module_info(); }
const ParamTable<Vae::Params>& module_params(const Vae*) { return param_table(); }
Vae::Params Vae::params_from(const ParamValues& values) { return param_table().read(values); }
const nn::VaeNet<float>& Vae::network() const { return st_->net; }

void Vae::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  require_usable_data(data.get(), "vae");
  const OptimizerConfig oc = checked_group_config(p.optim);
  auto s = new_state<State>(p, seed);
  s->data = make_train_data(*data, {p.test_fraction, p.standardize, seed, "vae"});
  const TrainData& td = *s->data;
  const nn::Likelihood lik = resolve_likelihood(p, td);
  if (lik == nn::Likelihood::Bernoulli && (td.min_value < 0.0f || td.max_value > 1.0f))
    throw std::invalid_argument(
        "vae: parameter 'likelihood' = bernoulli needs every feature in [0, 1] (pixel intensities), but '" +
        data->name + "' ranges over [" + fmt_g(td.min_value) + ", " + fmt_g(td.max_value) + "]" +
        (td.standardized ? " after standardize" : "") + "; try likelihood=gaussian (or auto), or data in [0, 1]");
  const double n_params = static_cast<double>(td.d + 1) * p.hidden + static_cast<double>(p.hidden + 1) * 2 * p.latent +
                          static_cast<double>(p.latent + 1) * p.hidden + static_cast<double>(p.hidden + 1) * td.d;
  constexpr double kMaxBytes = 1024.0 * 1024 * 1024;
  if (n_params * 5 * sizeof(float) > kMaxBytes)
    throw std::invalid_argument("vae: parameter 'hidden' = " + std::to_string(p.hidden) + " gives " + fmt_g(n_params) +
                                " weights for " + std::to_string(td.d) +
                                " features (over 1 GiB with gradients and Adam's state); try a smaller hidden");
  check_batch_fits("vae", p.batch, td.n_train());
  s->net = make_network(p, td.d, lik);
  Rng rng(seed);
  s->net.encoder.init(rng, p.init);
  s->net.decoder.init(rng, p.init);
  s->enc_opt = Optimizer(oc, s->net.encoder.num_params());
  s->dec_opt = Optimizer(oc, s->net.decoder.num_params());
  s->batcher.emplace(td.n_train(), p.batch, seed + 1);
  s->noise = Rng(seed + 2);
  std::ostringstream arch;
  arch << td.d << "-" << p.hidden << "-(2x" << p.latent << ") | " << p.latent << "-" << p.hidden << "-" << td.d << " "
       << nn::activation_name(p.activation) << ", "
       << (lik == nn::Likelihood::Bernoulli ? "bernoulli" : "gaussian sigma_x = " + fmt_g(p.sigma_x));
  s->architecture = arch.str();
  VaeEpochRow row0;
  row0.beta = p.beta;
  row0.train = evaluate(s->net, td.x_train, p.beta, seed ^ kTestNoiseSeed ^ 1);
  row0.test = evaluate(s->net, td.x_test, p.beta, seed ^ kTestNoiseSeed);
  row0.oracle = oracle_estimate(s->net, td, seed);
  s->log = std::make_shared<const std::vector<VaeEpochRow>>(1, row0);
  s->last_lr = p.optim.lr;
  s->step_beta = p.beta;
  s->start();
  st_ = std::move(s);
}

size_t Vae::state_bytes() const {
  const State& s = *st_;
  if (!s.ready) return sizeof(State);
  return sizeof(State) + 5 * (s.net.encoder.num_params() + s.net.decoder.num_params()) * sizeof(float) +
         static_cast<size_t>(s.xb.size() * 4) * sizeof(float);
}

std::shared_ptr<const Snapshot> Vae::snapshot() const { return vae_snapshot(); }

std::shared_ptr<const VaeSnapshot> Vae::vae_snapshot() const {
  const State& s = *st_;
  return cached_snapshot(s, metric_table(), [&s](VaeSnapshot& out) {
    out.num_params = s.net.encoder.num_params() + s.net.decoder.num_params();
    out.data = s.data;
    out.batch_index = s.batch_index;
    out.beta = s.p.beta;
    out.lr = s.last_lr;
    out.likelihood = s.net.likelihood;
    out.sigma_x = s.p.sigma_x;
    out.latent = s.p.latent;
    const VaeEpochRow& last = s.log->back();
    out.metrics[kMetricLoss] = last.train.loss;
    out.metrics[kMetricRec] = last.train.reconstruction;
    out.metrics[kMetricKl] = last.train.kl;
    out.metrics[kMetricTestLoss] = last.test.loss;
    out.metrics[kMetricTestRec] = last.test.reconstruction;
    out.metrics[kMetricTestKl] = last.test.kl;
    out.metrics[kMetricBeta] = s.p.beta;
    out.metrics[kMetricLogPx] = last.oracle.log_px;
    out.metrics[kMetricElboGap] = last.oracle.log_px - last.oracle.elbo;
    if (s.epoch_seen > 0) {  // running means over the epoch so far (else the finished epoch's)
      out.metrics[kMetricLoss] = s.epoch_loss / s.epoch_seen;
      out.metrics[kMetricRec] = s.epoch_rec / s.epoch_seen;
      out.metrics[kMetricKl] = s.epoch_kl / s.epoch_seen;
    }
    if (s.loop.started()) {
      out.metrics[kMetricBatchLoss] = s.batch_terms.loss;
      out.metrics[kMetricBatchRec] = s.batch_terms.reconstruction;
      out.metrics[kMetricBatchKl] = s.batch_terms.kl;
      out.metrics[kMetricMeanSigma] = s.mean_sigma;
      out.metrics[kMetricBeta] = s.step_beta;
      if (s.loop.phase != 1) out.metrics[kMetricGradNorm] = s.grad_norm;
    }
    out.metrics[kMetricLr] = s.last_lr;
  });
}

CILAB_TRAINER_STATE(Vae)

}  // namespace cilab
