// The generative adversarial network trained live (course chapter 17): the
// 2-D GAN laboratory (GAN Lab's lesson) and an MLP GAN on images, on the
// network library's GanNet (algorithms/nn/adversarial.h: both networks, the
// four losses and WGAN-GP's gradient penalty) and the shared optimizers.
//
// Model: generator z ~ N(0, I_latent) -> [Linear(g_width) -> g_activation] x g_depth
// -> Linear(D) (then tanh for images, whose pixels are mapped to [-1, 1] as
// PyTorch's GAN examples do with Normalize(0.5, 0.5)); discriminator
// x -> [Linear(d_width) -> d_activation] x d_depth -> Linear(1), a logit (or a
// critic value for least_squares and wgan_gp). Each network has its own
// optimizer group (g_optimizer, g_lr, ... and d_optimizer, d_lr, ...; torch.optim
// names; default Adam lr 1e-3 for both). The default loss is the textbook's
// minimax game: with these defaults it covers the ring of 8 on every seed we
// tried, where the non-saturating loss often collapses (assets/presets/gan-*.json has both).
//
// One iteration (Goodfellow et al. 2014, Algorithm 1; the sub-steps):
//   D step  d_steps times: draw batch z and batch real rows, fake = G(z), one
//           optimizer step of D on its loss (the real rows, then the fake rows, gradients added);
//   G step  one optimizer step of G on its loss through D, on the last D
//           step's noise batch (PyTorch's DCGAN example: G has not changed since).
// Real rows are drawn with replacement from the target's pool (gan_targets.h:
// ring8, grid25, moons, spiral drawn once from the seed; `data`: the loaded
// dataset, two z-scored features, or every pixel of an image dataset,
// optionally one class).
//
// Measures: every kEvalEvery iterations (and at iteration 0) the generator
// maps kEvalSamples fixed noise vectors; on 2-D targets their mode coverage
// (modes_covered, high_quality) and the grid KL/JS against the target's pool
// (gan_targets.h) are the per-iteration metrics until the next evaluation.
//
// Snapshots hold shared pointers and a copy of both networks refreshed at
// most every kNetRefreshMs of training, at sub-steps and on settle(): views
// compute the discriminator's heatmap, the generator's warped grid, the
// gradient arrows and image grids from it off the UI thread. A non-finite loss
// or weight makes the run Diverged.
#pragma once

#include "algorithms/nn/trainer.h"
#include "algorithms/generative/gan_targets.h"
#include "algorithms/nn/adversarial.h"
#include "algorithms/optim/optimizer.h"

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cilab {

// net (a copy of both networks for pictures), architecture ("G 2-64-64-2 relu |
// D 2-64-64-1 relu"): TrainerSnapshot's (trainer.h).
struct GanSnapshot : TrainerSnapshot<nn::GanNet<float>> {
  GanTarget target = GanTarget::Ring8;
  GanTargetSpec spec;  // modes, their sd and the box (network units)
  // The real rows in network units (2-D: rows x 2; images: rows x pixels in [-1, 1]).
  std::shared_ptr<const GanRows> pool;
  bool image = false;
  int image_h = 0, image_w = 0;
  // data units = network units * scale + offset, per feature (2-D data target: the z-score undone).
  std::array<double, 2> offset{0, 0}, scale{1, 1};
  std::array<std::string, 2> axis_names{"x1", "x2"};
  // The last evaluation: G of the fixed noise (kEvalSamples x D) and its mode coverage.
  std::shared_ptr<const GanRows> eval_fake;
  std::shared_ptr<const GanRows> eval_noise;  // the fixed noise itself (kEvalSamples x latent)
  int eval_iteration = 0;
  ModeCoverage coverage;
  nn::GanLoss loss = nn::GanLoss::NonSaturating;
  int d_steps = 1;
  int latent = 2;
  int batch = 0;
  double lr_g = 0, lr_d = 0;
  size_t g_params = 0, d_params = 0;

  size_t byte_size() const override;
  void shared_parts(std::vector<SharedPart>& out) const override;
};

// A known-good setting of the gan module: what to set, and what to show the class.

// gan module. Parameters: target, feature_x, feature_y, label, loss,
// gp_lambda, latent, g_depth, g_width, g_activation, d_depth, d_width,
// d_activation, d_steps (live), batch, init, max_steps (live), and the
// g_ / d_ optimizer groups (live except the kind).
class Gan : public Trainer<Gan> {
 public:
  struct Params {
    GanTarget target = GanTarget::Ring8;
    int feature_x = 0, feature_y = 1;
    int label = -1;
    nn::GanLoss loss = nn::GanLoss::Minimax;
    double gp_lambda = 10;
    int latent = 2;
    int g_depth = 2, g_width = 64;
    nn::Activation g_activation = nn::Activation::ReLU;
    int d_depth = 2, d_width = 64;
    nn::Activation d_activation = nn::Activation::ReLU;
    int d_steps = 1;
    int batch = 256;
    nn::Init init = nn::Init::Torch;
    int max_steps = 1000000;
    OptimizerConfig g_optim = default_optimizer();
    OptimizerConfig d_optim = default_optimizer();

    static OptimizerConfig default_optimizer();
  };

  enum Metric : int {
    kMetricDLoss,          // the last D step's loss (penalty included)
    kMetricGLoss,          // the G step's loss
    kMetricDReal,          // mean D(x_real) of the last D step
    kMetricDFake,          // mean D(G(z)) of the last D step
    kMetricModesCovered,   // last evaluation (NaN without modes)
    kMetricHighQuality,    // share of evaluation samples within 3 sd of a mode
    kMetricKl,             // grid KL(p_data || p_g) at the last evaluation
    kMetricJs,             // grid JS at the last evaluation
    kMetricWasserstein,    // wgan_gp: mean critic(real) - mean critic(fake)
    kMetricPenalty,        // wgan_gp: the gradient penalty term
    kMetricGGradNorm,      // ||dL_G / dtheta_G|| of the G step
    kMetricDGradNorm,      // ||dL_D / dtheta_D|| of the last D step
    kMetricLrG,
    kMetricLrD,
    kNumMetrics
  };

  static constexpr double kNetRefreshMs = 100.0;
  static constexpr int kEvalEvery = 25;
  static constexpr int kEvalSamples = 2000;
  static constexpr uint64_t kEvalNoiseSeed = 0xe7a1ULL;

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  size_t state_bytes() const override;

  std::shared_ptr<const GanSnapshot> gan_snapshot() const;
  static Params params_from(const ParamValues& values);
  // The networks being trained (tests).
  const nn::GanNet<float>& network() const;

 private:
  friend class Trainer<Gan>;  // it steps the State
  struct State;
  StatePtr<State> st_;
};

CILAB_TRAINER_EXTERN(Gan)

}  // namespace cilab
