// The autoencoder module (course chapter 2: items 2.4 linear, 2.5 tied, 2.6
// nonlinear, 2.8 denoising), on the network library (algorithms/nn/), the
// shared optimizers (algorithms/optim/) and the shared split (train_data.h).
//
// Models, for rows x in R^d and a bottleneck of m units:
//   linear     z = W x, x_hat = V z with W m x d, V d x m and no biases, on
//              CENTRED rows (x - mean of the training rows; added back for
//              display): the optimum is P = V W = U_m U_m^T, the projector on
//              the top-m principal subspace, and the loss reaches Eckart-Young.
//              Two nn Linear layers whose biases are held at 0 (initialised
//              to 0, their gradients zeroed before every update).
//   tied       (linear only) V = W^T: x_hat = W^T W x. Both layers keep a copy;
//              the shared gradient g_W + g_V^T is written to both slots, so the
//              optimizer (elementwise) keeps them equal bit for bit.
//   nonlinear  x -> [Linear(h_l) -> act] x L -> Linear(m) = z -> [Linear(h_l)
//              -> act] in reverse -> Linear(d) = x_hat (layers = h_1..h_L,
//              mirrored; the code and the output are linear).
//   denoising  noise = sigma > 0: the network sees x_eta = x + sigma eps,
//              eps ~ N(0, I), and is trained to return the clean x.
//
// Loss: the per-sample l = 1/2 ||x - x_hat||^2, reported as its mean over the
// rows (the catalogue's R = (1/2N) sum ||x - F(x)||^2). torch.nn.MSELoss is
// the mean over B*d entries: loss = d/2 * MSELoss. At the linear optimum it is
// Eckart-Young's (1/2N) sum_{i>m} sigma_i^2 = 1/2 sum_{i>m} lambda_i, lambda =
// the eigenvalues of the 1/N covariance of the (centred) training rows.
//
// The reference (computed once in reset): that covariance's eigenvectors
// (SelfAdjointEigenSolver on d x d, as the pca module) give U_m. The linear
// model's metrics per step: the principal angles between col(V) and span(U_m)
// (theta_i = asin of the singular values of (I - U_m U_m^T) Q_V, Q_V an
// orthonormal basis of col(V): the same angles as acos of those of Q_V^T U_m,
// accurate when small), ||V W - U_m U_m^T||_F and, tied, ||W W^T - I||_F. All
// O(d m^2): cheap enough for every step.
//
// Data: make_train_data (split by test_fraction, Fashion-MNIST tested on its
// t10k set, standardize z-scores non-image features). One iteration = one
// optimizer step on one mini-batch (nn::Batcher). Sub-steps: forward (outputs,
// loss and, computed ahead, the gradients: layers keep pointers into their own
// buffers, so the whole step is computed at the first sub-step), backward,
// update. The last batch of an epoch also evaluates the test set (eval mode;
// with noise > 0 on inputs corrupted by a fixed-seed noise: the denoised error).
//
// Snapshots carry metrics and shared pointers only; the network copy views
// draw from (AutoencoderSnapshot::net) is refreshed at most every
// kNetRefreshMs of training, at sub-steps, epoch ends and settle(), as mlp.
#pragma once

#include "algorithms/nn/trainer.h"
#include "algorithms/nn/sequential.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/optim/schedule.h"
#include "algorithms/nn/train_data.h"

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// PCA of the training rows (centred), the linear model's reference.
struct AutoencoderPca {
  int m = 0;
  Eigen::RowVectorXd mean;        // 1 x d, the training rows' mean
  Eigen::VectorXd eigenvalues;    // of the 1/N covariance, descending (d)
  Eigen::MatrixXd components;     // d x m: U_m, orthonormal columns (descending)
  Eigen::MatrixXd eigenvectors;   // d x d, columns in descending eigenvalue order (the first m are U_m)
  double eckart_young = 0;        // 1/2 sum_{i>m} lambda_i: PCA's training loss at m
  double total_variance = 0;      // sum_i lambda_i
};

// One row of the per-epoch log (epoch 0 = the initial network).
struct AutoencoderEpochRow : EpochRow {
  double train_loss = 0;          // mean 1/2||x - x_hat||^2 over the epoch's batches (epoch 0: training set)
  double test_loss = 0;           // on the test set (noisy inputs when noise > 0); NaN without one
  double input_noise_error = 0;   // mean 1/2||x - x_eta||^2 of the epoch's corrupted inputs (noise floor, measured)
  double max_principal_angle = 0; // linear: at the epoch's end (NaN otherwise)
  double product_error = 0;       // linear: ||VW - U_m U_m^T||_F at the epoch's end
};

// net (the picture copy: eval-mode forward on a private copy), epochs,
// architecture ("3-64-2-64-3 relu"), num_params: EpochSnapshot's (trainer.h).
struct AutoencoderSnapshot : EpochSnapshot<nn::Sequential<float>, AutoencoderEpochRow> {
  std::shared_ptr<const TrainData> data;
  std::shared_ptr<const AutoencoderPca> pca;        // null when d is too large for the reference
  Eigen::RowVectorXf center;                        // subtracted before the network (linear: the mean)
  size_t code_layer = 0;                            // layer of net whose output is the code z
  std::vector<double> principal_angles;             // linear: all m angles (radians), ascending
  bool linear = false, tied = false;
  int m = 0;
  double noise = 0;

  size_t byte_size() const override;
  void shared_parts(std::vector<SharedPart>& out) const override;
};

// autoencoder module. Parameters: linear, tied, m, layers, activation, init,
// noise (live), batch, test_fraction, standardize, max_epochs (live) and the
// shared optimizer and schedule groups (Adam, lr 0.01 by default).
class Autoencoder : public Trainer<Autoencoder> {
 public:
  struct Params {
    bool linear = false;
    bool tied = false;
    int m = 2;
    std::vector<int> layers = {64};
    nn::Activation activation = nn::Activation::ReLU;
    nn::Init init = nn::Init::Torch;
    double noise = 0.0;
    int batch = 64;
    double test_fraction = 0.2;
    bool standardize = true;
    int max_epochs = 1000;
    OptimizerConfig optim = default_optimizer();
    ScheduleConfig schedule;

    static OptimizerConfig default_optimizer();
  };

  enum Metric : int {
    kMetricLoss,          // mean l over the current epoch's batches so far (Keras' running loss)
    kMetricBatchLoss,     // this step's mini-batch mean l
    kMetricTrainLoss,     // per epoch
    kMetricTestLoss,      // per epoch
    kMetricEckartYoung,   // PCA's loss at m (constant)
    kMetricMaxAngle,      // linear
    kMetricProductError,  // linear
    kMetricOrthoDefect,   // tied
    kMetricNoiseFloor,    // d sigma^2 / 2 (noise > 0)
    kMetricLr,
    kNumMetrics
  };

  // Most weights + gradients + optimizer state a run may hold (bytes): a bigger
  // network is refused at reset, naming `layers`.
  static constexpr double kMaxNetworkBytes = 1024.0 * 1024 * 1024;
  // The pictures' network copy is refreshed at most this often while playing.
  static constexpr double kNetRefreshMs = 100.0;
  // Above this many features no PCA reference is computed (the d x d eigenproblem).
  static constexpr int kMaxPcaFeatures = 2048;

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  // Weights, gradients, optimizer state and the batch buffers.
  size_t state_bytes() const override;

  // The typed snapshot (views, tests).
  std::shared_ptr<const AutoencoderSnapshot> ae_snapshot() const;
  // The parameter struct of validated values.
  static Params params_from(const ParamValues& values);
  // The trained network itself (tests: bit-identity across runs and threads).
  const nn::Sequential<float>& network() const;

  // The network of p for d features (built, parameters zero until init);
  // *code_layer receives the index of the layer whose output is the code.
  template <class T>
  static nn::Sequential<T> make_network(const Params& p, int d, size_t* code_layer);
  // Initialises the network as reset does (linear: biases 0; tied: V = W^T).
  template <class T>
  static void init_network(nn::Sequential<T>& net, const Params& p, uint64_t seed);
  // One batch: forward of `input`, loss = mean 1/2||target - x_hat||^2,
  // zero_grad + backward, then the linear model's constraints on the
  // gradients (bias gradients 0; tied: g_W + g_V^T in both slots). Returns the loss.
  template <class T>
  static double loss_and_gradients(nn::Sequential<T>& net, const Params& p, const nn::Mat<T>& input,
                                   const nn::Mat<T>& target, nn::Mat<T>& dout);
  // The decoder (layers after code_layer) as its own network with the same weights.
  static nn::Sequential<float> decoder_of(const nn::Sequential<float>& net, size_t code_layer);
  // Linear model: W (m x d, the encoder) and V (d x m, the decoder) of net.
  static Eigen::MatrixXd encoder_matrix(const nn::Sequential<float>& net);
  static Eigen::MatrixXd decoder_matrix(const nn::Sequential<float>& net);
  // The m principal angles (ascending, radians) between col(V) and span(U) (U orthonormal d x m).
  static std::vector<double> principal_angles(const Eigen::MatrixXd& v, const Eigen::MatrixXd& u);

 private:
  friend class Trainer<Autoencoder>;  // it steps the State
  struct State;
  StatePtr<State> st_;
};

CILAB_TRAINER_EXTERN(Autoencoder)

}  // namespace cilab
