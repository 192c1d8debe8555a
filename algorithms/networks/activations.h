// Activations and initialisation: vanishing and exploding gradients, seen.
//
// Part 1, the functions: each activation f of the network library
// (nn::Activation: identity, relu, leaky_relu (slope 0.01), elu (alpha 1),
// sigmoid, tanh, softplus (beta 1, threshold 20), gelu (exact erf form), as
// PyTorch defines them) and its derivative f'. A unit is *saturated* where its
// gradient is nearly gone:
//   |f'(z)| < s * max_z |f'(z)|,    s = `saturation` (default 0.05),
// e.g. sigmoid (max f' = 1/4) for |z| > 4.4, tanh for |z| > 2.2, ReLU for
// z < 0 (a dead unit), never for the identity.
//
// Part 2, the lesson: a batch X (n x w, n = `batch` rows, w = `width`) with
// entries drawn from N(mean, std^2) is pushed through L = `layers` layers
//   z_l = h_{l-1} W_l^T + b_l,   h_l = f(z_l),   h_0 = X,   l = 1..L,
// every Linear w -> w, initialised as `init` says (torch: W, b ~ U(+-1/sqrt(w));
// glorot: W ~ U(+-sqrt(6 / 2w)), b = 0; he: W ~ N(0, 2/w), b = 0) and then
// W_l multiplied by `gain` (so "bad init" is one slider; biases unscaled).
// Forward variance, for zero-mean independent weights of variance v_W:
//   Var(z_{l+1}) = w v_W E[h_l^2]   (+ Var(b))
// so glorot (w v_W = 1) keeps the identity's E[h^2] at gain^2 per layer and he
// (w v_W = 2) keeps ReLU's Var(z) constant (E[relu(z)^2] = Var(z) / 2).
// Backward pass: the loss is a fixed random linear read-out of the output,
//   L = (1/n) sum_ij G_ij h_L,ij,   G_ij ~ N(0, 1) (seeded),
// so dL/dh_L = G / n (zero-mean, as the variance analysis assumes), and the
// network library's Sequential<float>::backward gives, per layer,
//   dL/dz_l = dL/dh_l * f'(z_l),   dL/dh_{l-1} = dL/dz_l W_l,
//   dL/dW_l = dL/dz_l^T h_{l-1}    (torch's W.grad; w x w).
// Hence ||dL/dz_l|| <= max|f'| ||dL/dh_l|| in every layer (sigmoid: 1/4).
//
// Per layer the module reports: mean and std of z_l and h_l, the saturated
// fraction of units (over the batch), the Frobenius norms ||dL/dW_l||,
// ||dL/dh_l|| and ||dL/dz_l||, and histograms (`bins` bins) of z_l, h_l and
// dL/dz_l (the gradient w.r.t. the pre-activations), each on one range common to
// all layers (so a vanishing gradient shows as mass collapsing onto 0), the
// gradients also on each layer's own range (its shape).
//
// Iteration: none. The module is one-shot (ModuleInfo::iterative = false): reset
// computes the whole forward and backward pass at iteration 0 and the status is
// Converged (Diverged if a value overflowed the float range: exploding). Every
// parameter is Live: a change recomputes at once from the same seed, so the
// inputs, weights and G are the same draws (rescaled) and only the change shows.
// `cilab run activations` writes the per-layer table (table_columns); its
// step_ms is 0 because nothing is left to step.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/nn/layers.h"
#include "algorithms/nn/sequential.h"

#include <memory>
#include <string>
#include <vector>

namespace cilab {

// Per-layer results (l = 1..L).
struct ActivationsLayer {
  double pre_mean = 0, pre_std = 0;  // of z_l over the batch and units
  double act_mean = 0, act_std = 0;  // of h_l = f(z_l)
  double saturated = 0;              // fraction of units with |f'(z)| < s max|f'|
  double grad_norm_w = 0;            // ||dL/dW_l||_F
  double grad_norm_h = 0;            // ||dL/dh_l||_F
  double grad_norm_z = 0;            // ||dL/dz_l||_F
};

// Histograms, one row of `bins` counts per layer (row-major, layers x bins).
// Bin k of a range [lo, hi] holds values in [lo + k dx, lo + (k+1) dx),
// dx = (hi - lo) / bins, the last bin closed; a row sums to the finite values
// of that layer (n * w when nothing overflowed).
struct ActivationsHistograms {
  int layers = 0, bins = 0;
  double pre_lo = 0, pre_hi = 1;    // z_l, common range
  double act_lo = 0, act_hi = 1;    // h_l, common range
  double grad_lo = 0, grad_hi = 1;  // dL/dz_l, common symmetric range
  std::vector<double> pre, act, grad;
  // dL/dz_l on its own symmetric range [-grad_own_max[l], grad_own_max[l]].
  std::vector<double> grad_own;
  std::vector<double> grad_own_max;
  // Row l (0-based) of one of the tables above.
  const double* row(const std::vector<double>& table, int l) const {
    return table.data() + static_cast<size_t>(l) * static_cast<size_t>(bins);
  }
};


// Interval [lo, hi] of z.
struct ZInterval {
  double lo = 0, hi = 0;
};

// The largest |f'(z)| over all z (sigmoid 1/4, gelu ~1.129, others 1).
double activation_derivative_max(nn::Activation a);
// The saturated stretches of [lo, hi]: where |f'(z)| < fraction * max|f'|,
// located on a fine grid and refined by bisection (to ~1e-9 of the range).
std::vector<ZInterval> saturation_intervals(nn::Activation a, double fraction, double lo, double hi);
// "f(z) = 1 / (1 + e^-z)" and "f'(z) = f(z) (1 - f(z))": the formulas for tooltips.
const char* activation_formula(nn::Activation a);
const char* activation_derivative_formula(nn::Activation a);

// Counts of `values` (finite ones) in `bins` equal bins over [lo, hi] (values
// outside are clamped into the end bins); returns the finite count.
size_t histogram_counts(const float* values, size_t count, double lo, double hi, int bins, double* out);

// The state after reset: everything (one-shot).
struct ActivationsSnapshot : Snapshot {
  nn::Activation activation = nn::Activation::Sigmoid;
  nn::Init init = nn::Init::Torch;
  double gain = 1, mean = 0, std = 1, saturation = 0.05;
  int layers = 0, width = 0, batch = 0;
  double derivative_max = 1;      // max |f'|: the saturation threshold is saturation * this
  double input_mean = 0, input_std = 0;  // measured on X
  // First layer (1-based) whose z or h is not finite, else the first layer reached
  // going back whose gradient is not finite; 0 = everything finite.
  int overflow_layer = 0;
  std::vector<ActivationsLayer> per_layer;  // L entries
  std::shared_ptr<const ActivationsHistograms> hist;
  size_t byte_size() const override;
};

// The activations module. Parameters (all Live; defaults = the vanishing lesson):
//   activation  identity | relu | leaky_relu | elu | sigmoid | tanh | softplus |
//               gelu (default sigmoid);
//   init        torch | glorot | he (default torch: nn.Linear's default);
//   gain        multiplies every W_l after init (0.05..5, default 1);
//   layers      L, 1..50 (default 10);  width  w, 2..256 (default 128);
//   batch       n rows, 1..1000 (default 256);
//   mean, std   of the input entries (defaults 0, 1);
//   saturation  s of the saturation test (0.001..0.5, default 0.05);
//   bins        histogram bins (5..101, default 41).
// Metrics: grad_ratio = ||dL/dh_1|| / ||dL/dh_L||, the backward signal after
// L - 1 layers against the upstream one (<< 1 vanishing, >> 1 exploding),
// grad_factor = grad_ratio^(1/(L-1)) (the mean factor per layer; NaN for L = 1),
// weight_grad_ratio = ||dL/dW_1|| / ||dL/dW_L|| (dL/dW_l = dz_l^T h_{l-1}
// mixes both passes: with ReLU, He and gain 2 the forward growth of h cancels the
// backward growth of dz and this ratio stays near 1 while both signals explode),
// signal_ratio = std(h_L) / std(h_1) (the forward pass), output_std = std(h_L),
// saturated = the mean saturated fraction over the layers.
class Activations : public ModuleBase<Activations> {
 public:
  struct Params {
    nn::Activation activation = nn::Activation::Sigmoid;
    nn::Init init = nn::Init::Torch;
    double gain = 1.0;
    int layers = 10;
    int width = 128;
    int batch = 256;
    double mean = 0.0;
    double std = 1.0;
    double saturation = 0.05;
    int bins = 41;
  };

  // Metric slots in info().metrics / Snapshot::metrics.
  enum Metric : int {
    kMetricGradRatio, kMetricGradFactor, kMetricWeightGradRatio, kMetricSignalRatio, kMetricOutputStd,
    kMetricSaturated, kNumMetrics
  };

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  void step() override;  // nothing left to do (one-shot)
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;

  std::shared_ptr<const ActivationsSnapshot> activations_snapshot() const;
  static Params params_from(const ParamValues& values);

 private:
  struct State;  // activations.cpp
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Activations)

// One forward and backward pass (what the module computes; tests inspect the
// network): X, the network after the passes (2L layers: Linear, activation, ...;
// grads() hold dL/dtheta, input_gradient(2l - 1) = dL/dz_l and input_gradient(2l)
// = dL/dh_l for l < L, 1-based), G / n and the snapshot built from them.
struct ActivationsPass {
  nn::Mat<float> x;
  nn::Sequential<float> net;
  nn::Mat<float> upstream;  // dL/dh_L = G / n
  std::shared_ptr<ActivationsSnapshot> snapshot;
};
// Runs the pass for validated parameters and a seed (deterministic per seed).
std::unique_ptr<ActivationsPass> run_activations_pass(const Activations::Params& p, uint64_t seed);

}  // namespace cilab
