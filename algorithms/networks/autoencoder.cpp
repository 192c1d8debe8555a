// The autoencoder module: see autoencoder.h for the models, the loss and the reference.
#include "algorithms/networks/autoencoder.h"
#include "algorithms/nn/trainer_impl.h"

#include "algorithms/core/rng.h"
#include "algorithms/nn/batches.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/train_checks.h"
#include "algorithms/nn/train_params.h"
#include "algorithms/nn/trainer_state.h"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cilab {

using nn::Mat;

namespace {

// Rows per block of the covariance's rank updates.
constexpr int kCovBlock = 4096;
// The evaluation's corruption noise is drawn from this fixed seed (every epoch the same draws).
constexpr uint64_t kEvalNoiseSeed = 0xa5e0a5e0ULL;

const ParamTable<Autoencoder::Params>& param_table() {
  using P = Autoencoder::Params;
  static const ParamTable<P> kTable = {
      Bool("linear", &P::linear)
          .help("linear autoencoder: z = W x, x_hat = V z, no biases, on rows centred by the training mean; "
                "its optimum is PCA's subspace (layers and activation are then unused)")
          .formula("x_hat = V W (x - mean) + mean"),
      Bool("tied", &P::tied)
          .help("tied weights V = W^T (linear only): x_hat = W^T W x; the optimum has W W^T = I")
          .formula("x_hat = W^T W x"),
      Int("m", &P::m, 1, 1024)
          .help("bottleneck: units of the code z (at most the data's features); PCA at the same m is the reference")
          .formula("z in R^m"),
      IntList("layers", &P::layers, 1, 4096)
          .max_items(8)
          .help("hidden widths of the encoder, mirrored in the decoder, e.g. 64 or 128,32 (nonlinear only; "
                "ignored when linear)")
          .formula("x -> Linear(h_1) -> act -> ... -> Linear(m) = z -> ... -> Linear(h_1) -> act -> Linear(d)"),
      activation_param(&P::activation, "activation of every hidden layer (nonlinear only; torch.nn names and constants)"),
      init_param(&P::init, InitHelp::Formulas, "weight initialisation of the Linear layers (linear model: biases stay 0)"),
      Real("noise", &P::noise, 0, 5)
          .live()
          .help("denoising: standard deviation sigma of the Gaussian corruption of the INPUT (in the trained-on "
                "units); the target stays the clean x; 0 = a plain autoencoder")
          .formula("x_eta = x + sigma eps, eps ~ N(0, I); loss 1/2 ||x - F(x_eta)||^2"),
      batch_param(&P::batch, "mini-batch size (torch DataLoader batch_size); at most the training set's rows")
          .formula("theta <- theta - lr * grad (1/B) sum_{i in batch} 1/2 ||x_i - x_hat_i||^2"),
      test_fraction_param(&P::test_fraction),
      standardize_param(&P::standardize, "z-score the features with the training set's mean and standard deviation "
                                         "(StandardScaler; images stay in [0, 1]); losses are in the trained-on units"),
      max_epochs_param(&P::max_epochs),
      optimizer_rows(&P::optim, &P::schedule,
                     {"the optimizer stepping every weight (torch.optim class; default Adam)",
                      "learning rate (torch: lr; default 0.01, torch's Adam default 0.001)", "",
                      kPerUpdateScheduleHelp}),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kTable = {
      {Autoencoder::kMetricLoss, "loss",
       "mean per-sample loss 1/2 ||x - x_hat||^2 over the current epoch's mini-batches so far (at the epoch's last "
       "batch: the epoch's training loss; = d/2 x torch's MSELoss)",
       true},
      {Autoencoder::kMetricBatchLoss, "batch_loss", "this step's mini-batch mean of 1/2 ||x - x_hat||^2", true},
      {Autoencoder::kMetricTrainLoss, "train_loss",
       "mean 1/2 ||x - x_hat||^2 over the last completed epoch's batches (epoch 0: the initial network on the "
       "training set)",
       true},
      {Autoencoder::kMetricTestLoss, "test_loss",
       "mean 1/2 ||x - F(x_eta)||^2 on the test set at the end of the last epoch (eval mode; x_eta = x when noise = 0)",
       true},
      {Autoencoder::kMetricEckartYoung, "eckart_young_loss",
       "PCA's training loss at the same m: (1/2N) sum_{i>m} sigma_i^2 = 1/2 sum_{i>m} lambda_i (Eckart-Young; the "
       "linear autoencoder's optimum)",
       true},
      {Autoencoder::kMetricMaxAngle, "max_principal_angle",
       "linear: largest principal angle (radians) between col(V) and the top-m PCA subspace span(U_m)", true},
      {Autoencoder::kMetricProductError, "product_error",
       "linear: ||V W - U_m U_m^T||_F (0 at the optimum, although W and V need not equal U_m; directions in which "
       "the data barely vary get gradients ~ their variance, so on images it stalls at the initial weights' share "
       "there: the view also gives it weighted by the data's variance)",
       true},
      {Autoencoder::kMetricOrthoDefect, "orthogonality_defect", "tied: ||W W^T - I||_F (0 at the optimum)", true},
      {Autoencoder::kMetricNoiseFloor, "noise_floor",
       "denoising: E 1/2 ||x - x_eta||^2 = d sigma^2 / 2, the error of returning the noisy input", true},
      {Autoencoder::kMetricLr, "lr", "learning rate of this step's update (after the schedule)", true},
  };
  return kTable;
}

ModuleInfo make_info() {
  ModuleInfo m;
  m.name = "autoencoder";
  m.title = "Autoencoders: linear (PCA), nonlinear, denoising";
  m.chapter = "Neural networks";
  m.summary =
      "Train an autoencoder live. Linear (untied or tied): the decoder's column space converges to PCA's top-m "
      "subspace (principal angles, Eckart-Young loss line) while the weights themselves need not equal the "
      "eigenvectors. Nonlinear with a 2-D bottleneck: latent scatter by label beside PCA's, reconstructions. "
      "Denoising: a noise slider, noisy input / reconstruction / clean target side by side.";
  m.metrics = metric_table().infos();
  m.sub_steps = {"forward", "backward", "update"};
  m.default_dataset = "blobs:n=600,dim=3,centers=4,seed=1";
  m.default_cli_steps = 200;
  m.epoch_columns = {"loss", "test_loss", "eckart_young_loss", "max_principal_angle"};
  return m;
}

// PCA of the training rows (centred, 1/N covariance), the top m components.
std::shared_ptr<const AutoencoderPca> make_pca(const Mat<float>& x, int m) {
  auto pca = std::make_shared<AutoencoderPca>();
  const Eigen::Index n = x.rows(), d = x.cols();
  pca->m = m;
  pca->mean = x.cast<double>().colwise().mean();
  const Eigen::RowVectorXf mean_f = pca->mean.cast<float>();
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(d, d);
  Eigen::MatrixXf block, part(d, d);
  for (Eigen::Index r0 = 0; r0 < n; r0 += kCovBlock) {
    const Eigen::Index rows = std::min<Eigen::Index>(kCovBlock, n - r0);
    block = x.middleRows(r0, rows).rowwise() - mean_f;
    part.setZero();
    part.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose());
    cov += part.cast<double>();
  }
  cov = cov.selfadjointView<Eigen::Lower>();
  cov /= static_cast<double>(n);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  if (es.info() != Eigen::Success) return nullptr;
  pca->eigenvalues = es.eigenvalues().reverse().cwiseMax(0.0);
  pca->eigenvectors = es.eigenvectors().rowwise().reverse();
  pca->components = pca->eigenvectors.leftCols(m);
  pca->total_variance = pca->eigenvalues.sum();
  pca->eckart_young = 0.5 * pca->eigenvalues.tail(d - m).sum();
  return pca;
}

std::string join_widths(int d, const Autoencoder::Params& p) {
  std::string s = std::to_string(d);
  if (!p.linear)
    for (int h : p.layers) s += "-" + std::to_string(h);
  s += "-" + std::to_string(p.m);
  if (!p.linear)
    for (auto it = p.layers.rbegin(); it != p.layers.rend(); ++it) s += "-" + std::to_string(*it);
  return s + "-" + std::to_string(d);
}

}  // namespace

size_t AutoencoderSnapshot::byte_size() const {
  // The network copy is shared by the snapshots of ~100 ms (shared_parts(),
  // counted once by the history budget); the data and the PCA are the run's.
  return Snapshot::byte_size() + sizeof(*this) + principal_angles.size() * sizeof(double) + architecture.size() +
         static_cast<size_t>(center.size()) * sizeof(float);
}

void AutoencoderSnapshot::shared_parts(std::vector<SharedPart>& out) const {
  if (net) out.push_back({net.get(), 2 * net->num_params() * sizeof(float)});  // params and grads
  if (epochs) out.push_back({epochs.get(), epochs->size() * sizeof(AutoencoderEpochRow)});
}

OptimizerConfig Autoencoder::Params::default_optimizer() { return playground_optimizer(); }

// ---------------------------------------------------------------- the network

template <class T>
nn::Sequential<T> Autoencoder::make_network(const Params& p, int d, size_t* code_layer) {
  nn::Sequential<T> net;
  if (p.linear) {
    net.add(nn::make_linear<T>(p.m));
    if (code_layer) *code_layer = 0;
    net.add(nn::make_linear<T>(d));
  } else {
    for (int h : p.layers) {
      net.add(nn::make_linear<T>(h));
      net.add(nn::make_activation<T>(p.activation));
    }
    net.add(nn::make_linear<T>(p.m));
    if (code_layer) *code_layer = net.size() - 1;
    for (auto it = p.layers.rbegin(); it != p.layers.rend(); ++it) {
      net.add(nn::make_linear<T>(*it));
      net.add(nn::make_activation<T>(p.activation));
    }
    net.add(nn::make_linear<T>(d));
  }
  net.build(d);
  return net;
}

namespace {

// The linear model's two layers: W (m x d) then b_W, V (d x m) then b_V, in the flat buffer.
template <class T>
void linear_slices(nn::Sequential<T>& net, T** w, T** bw, T** v, T** bv, T* base) {
  const int d = net.in_features();
  const int m = net.layer(0).num_params() / (d + 1);
  *w = base + net.param_offset(0);
  *bw = *w + static_cast<size_t>(m) * d;
  *v = base + net.param_offset(1);
  *bv = *v + static_cast<size_t>(d) * m;
}

// Linear constraints on a buffer (parameters or gradients): biases 0; tied:
// both slots hold W's value (tie_sum: g_W + g_V^T in both).
template <class T>
void constrain_linear(nn::Sequential<T>& net, bool tied, bool tie_sum, T* base) {
  T *w, *bw, *v, *bv;
  linear_slices(net, &w, &bw, &v, &bv, base);
  const int d = net.in_features();
  const int m = net.layer(0).num_params() / (d + 1);
  std::fill(bw, bw + m, T(0));
  std::fill(bv, bv + d, T(0));
  if (!tied) return;
  Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> wm(w, m, d), vm(v, d, m);
  if (tie_sum) wm += vm.transpose();
  vm = wm.transpose();
}

}  // namespace

template <class T>
void Autoencoder::init_network(nn::Sequential<T>& net, const Params& p, uint64_t seed) {
  Rng rng(seed);
  net.init(rng, p.init);
  if (p.linear) constrain_linear(net, p.tied, false, net.params());
}

template <class T>
double Autoencoder::loss_and_gradients(nn::Sequential<T>& net, const Params& p, const Mat<T>& input,
                                       const Mat<T>& target, Mat<T>& dout) {
  const Mat<T>& out = net.forward(input, true);
  // mse_loss = (1/(B d)) sum (x_hat - x)^2; the reported loss is its d/2 multiple.
  const double half_d = 0.5 * static_cast<double>(target.cols());
  const double loss = nn::mse_loss(out, target, &dout) * half_d;
  dout *= static_cast<T>(half_d);
  net.zero_grad();
  net.backward(dout);
  if (p.linear) constrain_linear(net, p.tied, true, net.grads());
  return loss;
}

template nn::Sequential<float> Autoencoder::make_network<float>(const Params&, int, size_t*);
template nn::Sequential<double> Autoencoder::make_network<double>(const Params&, int, size_t*);
template void Autoencoder::init_network<float>(nn::Sequential<float>&, const Params&, uint64_t);
template void Autoencoder::init_network<double>(nn::Sequential<double>&, const Params&, uint64_t);
template double Autoencoder::loss_and_gradients<float>(nn::Sequential<float>&, const Params&, const Mat<float>&,
                                                       const Mat<float>&, Mat<float>&);
template double Autoencoder::loss_and_gradients<double>(nn::Sequential<double>&, const Params&, const Mat<double>&,
                                                        const Mat<double>&, Mat<double>&);

nn::Sequential<float> Autoencoder::decoder_of(const nn::Sequential<float>& net, size_t code_layer) {
  nn::Sequential<float> dec;
  for (size_t l = code_layer + 1; l < net.size(); ++l) dec.add(net.layer(l).clone());
  // The code width: the bottleneck Linear's outputs (its parameter count / (inputs + 1)).
  int fan_in = net.in_features();
  for (size_t l = 0; l < code_layer; ++l)
    if (net.layer(l).name() == "linear") fan_in = net.layer(l).num_params() / (fan_in + 1);
  const int code = net.layer(code_layer).num_params() / (fan_in + 1);
  dec.build(code);
  const size_t off = net.param_offset(code_layer + 1);
  std::copy(net.params() + off, net.params() + off + dec.num_params(), dec.params());
  return dec;
}

Eigen::MatrixXd Autoencoder::encoder_matrix(const nn::Sequential<float>& net) {
  const int d = net.in_features();
  const int m = net.layer(0).num_params() / (d + 1);
  return Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
             net.params() + net.param_offset(0), m, d)
      .cast<double>();
}

Eigen::MatrixXd Autoencoder::decoder_matrix(const nn::Sequential<float>& net) {
  const int d = net.in_features();
  const int m = net.layer(0).num_params() / (d + 1);
  return Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
             net.params() + net.param_offset(1), d, m)
      .cast<double>();
}

std::vector<double> Autoencoder::principal_angles(const Eigen::MatrixXd& v, const Eigen::MatrixXd& u) {
  const Eigen::Index m = v.cols();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(v);
  const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(v.rows(), m);
  const Eigen::MatrixXd r = q - u * (u.transpose() * q);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(r);
  std::vector<double> out;
  for (Eigen::Index i = 0; i < svd.singularValues().size(); ++i)
    out.push_back(std::asin(std::min(1.0, svd.singularValues()(i))));
  std::sort(out.begin(), out.end());
  return out;
}

// ---------------------------------------------------------------- state

// p, seed, ready, net, loop, net_copy, architecture, cache, batcher, last_lr and
// the epoch log: EpochTrainerState's (trainer_state.h).
struct Autoencoder::State
    : EpochTrainerState<Params, nn::Sequential<float>, AutoencoderEpochRow, AutoencoderSnapshot> {
  std::shared_ptr<const TrainData> data;
  std::shared_ptr<const AutoencoderPca> pca;
  Eigen::RowVectorXf center;  // subtracted from every row the network sees
  // Linear: the centred rows, shared by clones and snapshots (else null: the data's rows are used).
  std::shared_ptr<const Mat<float>> x_train, x_test;
  size_t code_layer = 0;
  Optimizer opt;
  Rng noise_rng;

  Mat<float> xb, xin, dout;
  double batch_loss = std::nan("");
  double angle = std::nan(""), product_error = std::nan(""), ortho_defect = std::nan("");
  std::vector<double> angles;

  double epoch_loss_sum = 0, epoch_noise_sum = 0;
  int epoch_seen = 0;

  State() : EpochTrainerState(Autoencoder::kNetRefreshMs) {}
  // Trainer's live-change hook (trainer.h): the optimizer takes the new settings
  // (validating them).
  void live_changed(const Params& next) { opt.set_config(group_config(next.optim)); }

  const Mat<float>& train_rows() const { return x_train ? *x_train : data->x_train; }
  const Mat<float>& test_rows() const { return x_test ? *x_test : data->x_test; }
  // Adds sigma * N(0, 1) to every entry of x (no-op for sigma = 0); returns sum of 1/2 ||noise_i||^2.
  static double corrupt(Mat<float>& x, double sigma, Rng& rng);
  double evaluate(const Mat<float>& x);
  void linear_metrics();
  void forward_half() override;
  void update_half() override;
  void end_epoch();
};

double Autoencoder::State::corrupt(Mat<float>& x, double sigma, Rng& rng) {
  if (sigma <= 0) return 0;
  double sum = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const float e = static_cast<float>(sigma * rng.normal());
    x.data()[i] += e;
    sum += 0.5 * static_cast<double>(e) * e;
  }
  return sum;
}

// Mean 1/2 ||x - F(x_eta)||^2 over the rows of x (eval mode, fixed-seed noise).
double Autoencoder::State::evaluate(const Mat<float>& x) {
  const int n = static_cast<int>(x.rows());
  if (n == 0) return std::nan("");
  Rng rng(kEvalNoiseSeed);
  double sum = 0;
  nn::for_each_chunk(x, [&](Mat<float>& chunk, int r0) {
    corrupt(chunk, p.noise, rng);
    const Mat<float>& out = net.forward(chunk, false);
    sum += 0.5 * (out - x.middleRows(r0, chunk.rows())).cast<double>().squaredNorm();
  });
  return sum / n;
}

void Autoencoder::State::linear_metrics() {
  if (!p.linear || !pca) return;
  const Eigen::MatrixXd w = encoder_matrix(net), v = decoder_matrix(net);
  const Eigen::MatrixXd& u = pca->components;
  angles = principal_angles(v, u);
  angle = angles.empty() ? std::nan("") : angles.back();
  // ||VW - UU^T||_F^2 = tr(V^T V W W^T) - 2 tr((WU)^T (V^T U)) + m, all m x m.
  const Eigen::MatrixXd vtv = v.transpose() * v, wwt = w * w.transpose();
  const double pp = (vtv.cwiseProduct(wwt)).sum();
  const double pq = ((w * u).cwiseProduct(v.transpose() * u)).sum();
  product_error = std::sqrt(std::max(0.0, pp - 2 * pq + static_cast<double>(p.m)));
  ortho_defect = p.tied ? (wwt - Eigen::MatrixXd::Identity(p.m, p.m)).norm() : std::nan("");
}

// Forward and, ahead, backward of the next mini-batch.
void Autoencoder::State::forward_half() {
  const std::vector<int>& idx = batcher->next();
  nn::Batcher::gather(train_rows(), idx, xb);
  xin = xb;
  epoch_noise_sum += corrupt(xin, p.noise, noise_rng);
  batch_loss = loss_and_gradients(net, p, xin, xb, dout);
  const int b = static_cast<int>(idx.size());
  epoch_loss_sum += batch_loss * b;
  epoch_seen += b;
  const Eigen::Map<const Eigen::VectorXf> g(net.grads(), static_cast<Eigen::Index>(net.num_params()));
  loop.check_forward(batch_loss, g.allFinite(), p.optim.lr);
}

void Autoencoder::State::update_half() {
  last_lr = lr_at(p.schedule, p.optim.lr, loop.iteration);
  opt.step(net.params(), net.grads(), last_lr);
  loop.advance();
  const Eigen::Map<const Eigen::VectorXf> w(net.params(), static_cast<Eigen::Index>(net.num_params()));
  if (!loop.check_update(w.allFinite(), p.optim.lr)) return;
  linear_metrics();
  if (batcher->position() == 0) end_epoch();
}

void Autoencoder::State::end_epoch() {
  AutoencoderEpochRow row = epoch_row();
  row.train_loss = epoch_seen ? epoch_loss_sum / epoch_seen : std::nan("");
  row.input_noise_error = epoch_seen ? epoch_noise_sum / epoch_seen : std::nan("");
  row.test_loss = evaluate(test_rows());
  row.max_principal_angle = angle;
  row.product_error = product_error;
  append_epoch(row);
  epoch_loss_sum = epoch_noise_sum = 0;
  epoch_seen = 0;
  loop.stop_at_budget(row.epoch, p.max_epochs);
}

// ---------------------------------------------------------------- module


const ModuleInfo& Autoencoder::info() const {
  static const ModuleInfo kInfo = make_info();
  return kInfo;
}

const ParamTable<Autoencoder::Params>& module_params(const Autoencoder*) { return param_table(); }

Autoencoder::Params Autoencoder::params_from(const ParamValues& values) { return param_table().read(values); }

const nn::Sequential<float>& Autoencoder::network() const { return st_->net; }

void Autoencoder::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  require_usable_data(data.get(), "autoencoder");
  const OptimizerConfig oc = checked_group_config(p.optim);
  if (p.tied && !p.linear)
    throw std::invalid_argument("autoencoder: parameter 'tied' = true needs linear = true (tied weights V = W^T "
                                "are the linear model's); try linear=true or tied=false");
  if (p.m > data->cols())
    throw std::invalid_argument("autoencoder: parameter 'm' = " + std::to_string(p.m) + " exceeds the data's " +
                                std::to_string(data->cols()) + " features (a bottleneck must not be wider than "
                                "the input); try m <= " + std::to_string(data->cols()));
  auto s = new_state<State>(p, seed);
  s->data = make_train_data(*data, {p.test_fraction, p.standardize, seed, "autoencoder"});
  const TrainData& td = *s->data;
  double n_params = 0;
  if (p.linear) {
    n_params = 2.0 * (td.d + 1) * p.m + td.d;
  } else {
    int fan_in = td.d;
    for (int h : p.layers) {
      n_params += static_cast<double>(fan_in + 1) * h;
      fan_in = h;
    }
    n_params = 2 * n_params + static_cast<double>(fan_in + 1) * p.m + static_cast<double>(p.m + 1) * td.d;
  }
  check_network_size("autoencoder", n_params, p.layers, kMaxNetworkBytes, " or a smaller m");
  check_batch_fits("autoencoder", p.batch, td.n_train(), " after test_fraction = " + fmt_g(p.test_fraction));
  if (td.d <= kMaxPcaFeatures) s->pca = make_pca(td.x_train, p.m);
  s->center = Eigen::RowVectorXf::Zero(td.d);
  if (p.linear) {
    if (!s->pca)
      throw std::invalid_argument("autoencoder: linear = true needs the PCA reference, which is computed for at most " +
                                  std::to_string(kMaxPcaFeatures) + " features (the data has " +
                                  std::to_string(td.d) + "); try linear=false");
    s->center = s->pca->mean.cast<float>();
    s->x_train = std::make_shared<const Mat<float>>(td.x_train.rowwise() - s->center);
    s->x_test = std::make_shared<const Mat<float>>(td.x_test.rowwise() - s->center);
  }
  s->net = make_network<float>(p, td.d, &s->code_layer);
  init_network(s->net, p, seed);
  s->opt = Optimizer(oc, s->net.num_params());
  s->batcher.emplace(td.n_train(), p.batch, seed + 1);
  s->noise_rng = Rng(seed + 2);
  std::ostringstream arch;
  arch << join_widths(td.d, p) << " ";
  if (p.linear) arch << (p.tied ? "linear, tied V = W^T" : "linear");
  else arch << nn::activation_name(p.activation);
  s->architecture = arch.str();
  AutoencoderEpochRow row;
  row.train_loss = s->evaluate(s->train_rows());
  row.test_loss = s->evaluate(s->test_rows());
  row.input_noise_error = std::nan("");
  s->linear_metrics();
  row.max_principal_angle = s->angle;
  row.product_error = s->product_error;
  s->log = std::make_shared<const std::vector<AutoencoderEpochRow>>(1, row);
  s->last_lr = p.optim.lr;
  s->start();
  st_ = std::move(s);
}

size_t Autoencoder::state_bytes() const {
  const State& s = *st_;
  if (!s.ready) return sizeof(State);
  return sizeof(State) + 5 * s.net.num_params() * sizeof(float) +
         static_cast<size_t>(s.xb.size() + s.xin.size() + s.dout.size()) *
             sizeof(float);
}

std::shared_ptr<const Snapshot> Autoencoder::snapshot() const { return ae_snapshot(); }

std::shared_ptr<const AutoencoderSnapshot> Autoencoder::ae_snapshot() const {
  const State& s = *st_;
  return cached_snapshot(s, metric_table(), [&s](AutoencoderSnapshot& out) {
    out.num_params = s.net.num_params();
    out.data = s.data;
    out.pca = s.pca;
    out.center = s.center;
    out.code_layer = s.code_layer;
    out.principal_angles = s.angles;
    out.linear = s.p.linear;
    out.tied = s.p.tied;
    out.m = s.p.m;
    out.noise = s.p.noise;
    const AutoencoderEpochRow& last = s.log->back();
    out.metrics[kMetricTrainLoss] = last.train_loss;
    out.metrics[kMetricTestLoss] = last.test_loss;
    if (s.pca) out.metrics[kMetricEckartYoung] = s.pca->eckart_young;
    out.metrics[kMetricMaxAngle] = s.angle;
    out.metrics[kMetricProductError] = s.product_error;
    out.metrics[kMetricOrthoDefect] = s.ortho_defect;
    if (s.p.noise > 0) out.metrics[kMetricNoiseFloor] = 0.5 * s.data->d * s.p.noise * s.p.noise;
    if (s.loop.started()) {
      out.metrics[kMetricBatchLoss] = s.batch_loss;
      // Running mean over the epoch; at an epoch boundary the finished epoch's mean.
      out.metrics[kMetricLoss] = s.epoch_seen ? s.epoch_loss_sum / s.epoch_seen : last.train_loss;
    } else {
      out.metrics[kMetricLoss] = last.train_loss;
    }
    out.metrics[kMetricLr] = s.last_lr;
  });
}

CILAB_TRAINER_STATE(Autoencoder)

}  // namespace cilab
