// Activations and initialisation: see activations.h for the equations, the
// loss of the backward pass and what one run computes.
//
// Shapes: X n x w, G n x w (float, row-major as the network library), W_l
// w x w. The pass (run_activations_pass) builds a Sequential<float> of L
// (Linear w, activation) pairs, draws X, the weights and G from one Rng seeded
// by the run's seed (in that order), runs forward and backward once, and reduces
// every layer to statistics and histograms in double. The module keeps only
// the snapshot: the network (up to 50 x 256 x 256 weights plus 2L activation
// buffers) is dropped after the pass, so clones (the runner's keyframes) stay
// small.
#include "algorithms/networks/activations.h"
#include "algorithms/core/module_base_impl.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kGridPoints = 2000;  // saturation_intervals: grid before bisection

// Mean and population std of the finite entries; NaN when any is not finite.
void moments(const nn::Mat<float>& m, double* mean, double* std) {
  double s = 0.0, s2 = 0.0;
  const size_t count = static_cast<size_t>(m.size());
  const float* v = m.data();
  for (size_t i = 0; i < count; ++i) s += v[i];
  const double mu = count ? s / static_cast<double>(count) : kNaN;
  for (size_t i = 0; i < count; ++i) s2 += (v[i] - mu) * (v[i] - mu);
  *mean = mu;
  *std = count ? std::sqrt(s2 / static_cast<double>(count)) : kNaN;
}

double frobenius(const float* v, size_t count) {
  double s = 0.0;
  for (size_t i = 0; i < count; ++i) s += static_cast<double>(v[i]) * v[i];
  return std::sqrt(s);
}

bool all_finite(const nn::Mat<float>& m) {
  const float* v = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

// Widens [lo, hi] to the finite entries of m.
void extend_range(const nn::Mat<float>& m, double* lo, double* hi) {
  const float* v = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    if (!std::isfinite(v[i])) continue;
    *lo = std::min(*lo, static_cast<double>(v[i]));
    *hi = std::max(*hi, static_cast<double>(v[i]));
  }
}

double max_abs(const nn::Mat<float>& m) {
  double a = 0.0;
  const float* v = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i)
    if (std::isfinite(v[i])) a = std::max(a, std::abs(static_cast<double>(v[i])));
  return a;
}

// A degenerate or empty range made usable (a constant layer: one bin around it).
void usable_range(double* lo, double* hi) {
  if (!(*lo <= *hi)) {  // no finite value at all
    *lo = 0.0;
    *hi = 0.0;
  }
  if (*hi - *lo < 1e-12 * std::max(1.0, std::abs(*lo))) {
    const double pad = std::max(0.5, 0.1 * std::abs(*lo));
    *lo -= pad;
    *hi += pad;
  }
}

}  // namespace

// ---------------------------------------------------------------- free functions

double activation_derivative_max(nn::Activation a) {
  switch (a) {
    case nn::Activation::Sigmoid: return 0.25;  // at z = 0
    // GELU'' = phi(z) (2 - z^2): the maximum of GELU' is at z = sqrt(2).
    case nn::Activation::GELU: return nn::activation_derivative(a, std::sqrt(2.0));
    default: return 1.0;  // identity, (leaky) ReLU and ELU for z > 0, tanh at 0, softplus as z -> inf
  }
}

std::vector<ZInterval> saturation_intervals(nn::Activation a, double fraction, double lo, double hi) {
  std::vector<ZInterval> out;
  if (!(hi > lo)) return out;
  const double threshold = fraction * activation_derivative_max(a);
  auto saturated = [&](double z) { return std::abs(nn::activation_derivative(a, z)) < threshold; };
  // The boundary between z0 (state s0) and z1 (the other state), by bisection.
  auto boundary = [&](double z0, double z1, bool s0) {
    for (int it = 0; it < 60 && std::abs(z1 - z0) > 1e-9 * (hi - lo); ++it) {
      const double m = 0.5 * (z0 + z1);
      (saturated(m) == s0 ? z0 : z1) = m;
    }
    return 0.5 * (z0 + z1);
  };
  const double dz = (hi - lo) / kGridPoints;
  double prev_z = lo;
  bool prev = saturated(lo);
  double start = lo;
  for (int i = 1; i <= kGridPoints; ++i) {
    const double z = i == kGridPoints ? hi : lo + i * dz;
    const bool s = saturated(z);
    if (s != prev) {
      const double b = boundary(prev_z, z, prev);
      if (s)
        start = b;
      else
        out.push_back({start, b});
    }
    prev = s;
    prev_z = z;
  }
  if (prev) out.push_back({start, hi});
  return out;
}

const char* activation_formula(nn::Activation a) {
  switch (a) {
    case nn::Activation::Identity: return "f(z) = z";
    case nn::Activation::ReLU: return "f(z) = max(0, z)";
    case nn::Activation::LeakyReLU: return "f(z) = z if z > 0, else 0.01 z";
    case nn::Activation::ELU: return "f(z) = z if z > 0, else e^z - 1 (alpha = 1)";
    case nn::Activation::Sigmoid: return "f(z) = sigma(z) = 1 / (1 + e^-z)";
    case nn::Activation::Tanh: return "f(z) = tanh z = (e^z - e^-z) / (e^z + e^-z)";
    case nn::Activation::Softplus: return "f(z) = log(1 + e^z) (= z above 20)";
    case nn::Activation::GELU: return "f(z) = z Phi(z) = z (1 + erf(z / sqrt 2)) / 2";
  }
  return "";
}

const char* activation_derivative_formula(nn::Activation a) {
  switch (a) {
    case nn::Activation::Identity: return "f'(z) = 1";
    case nn::Activation::ReLU: return "f'(z) = 1 if z > 0, else 0 (0 at z = 0, as torch)";
    case nn::Activation::LeakyReLU: return "f'(z) = 1 if z > 0, else 0.01";
    case nn::Activation::ELU: return "f'(z) = 1 if z > 0, else e^z";
    case nn::Activation::Sigmoid: return "f'(z) = f(z) (1 - f(z)) <= 1/4";
    case nn::Activation::Tanh: return "f'(z) = 1 - f(z)^2 <= 1";
    case nn::Activation::Softplus: return "f'(z) = sigma(z) = 1 / (1 + e^-z) < 1";
    case nn::Activation::GELU: return "f'(z) = Phi(z) + z phi(z) (max 1.129 at z = sqrt 2)";
  }
  return "";
}

size_t histogram_counts(const float* values, size_t count, double lo, double hi, int bins, double* out) {
  std::fill(out, out + bins, 0.0);
  const double scale = bins / (hi - lo);
  size_t finite = 0;
  for (size_t i = 0; i < count; ++i) {
    const double v = values[i];
    if (!std::isfinite(v)) continue;
    const double k = std::floor((v - lo) * scale);
    out[static_cast<int>(std::clamp(k, 0.0, static_cast<double>(bins - 1)))] += 1.0;
    ++finite;
  }
  return finite;
}

size_t ActivationsSnapshot::byte_size() const {
  size_t b = Snapshot::byte_size() + message.capacity() + per_layer.size() * sizeof(ActivationsLayer);
  if (hist)
    b += sizeof(*hist) + (hist->pre.size() + hist->act.size() + hist->grad.size() + hist->grad_own.size() +
                          hist->grad_own_max.size()) * sizeof(double);
  return b;
}

// ---------------------------------------------------------------- description

namespace {

const ParamTable<Activations::Params>& param_table() {
  using P = Activations::Params;
  static const ParamTable<P> kTable = {
      Choice("activation", &P::activation,
             {"identity", "relu", "leaky_relu", "elu", "sigmoid", "tanh", "softplus", "gelu"})
          .choice_help({activation_formula(nn::Activation::Identity), activation_formula(nn::Activation::ReLU),
                        activation_formula(nn::Activation::LeakyReLU), activation_formula(nn::Activation::ELU),
                        activation_formula(nn::Activation::Sigmoid), activation_formula(nn::Activation::Tanh),
                        activation_formula(nn::Activation::Softplus), activation_formula(nn::Activation::GELU)})
          .help("the activation f after every Linear layer (PyTorch's definitions and constants)")
          .formula("h_l = f(z_l)")
          .live(),
      Choice("init", &P::init, {"torch", "glorot", "he"})
          .choice_help({"torch.nn.Linear's default: W, b ~ U(-1/sqrt(w), 1/sqrt(w)), Var(W) = 1/(3w)",
                        "xavier_uniform_: W ~ U(-a, a), a = sqrt(6 / (w + w)), Var(W) = 1/w; b = 0",
                        "kaiming_normal_ (relu): W ~ N(0, 2/w); b = 0"})
          .help("initialisation of every Linear layer's weights before the gain")
          .formula("Var(z_{l+1}) = w Var(W) E[h_l^2]")
          .live(),
      Real("gain", &P::gain, 0.05, 5.0)
          .log_scale()
          .help("multiplies every weight matrix after init: 'bad init' in one slider (biases unscaled)")
          .formula("W_l <- gain * W_l")
          .live(),
      Int("layers", &P::layers, 1, 50).help("depth L: number of (Linear, activation) layers").formula("l = 1..L").live(),
      Int("width", &P::width, 2, 256).help("units w of every layer (and of the input)").formula("W_l: w x w").live(),
      Int("batch", &P::batch, 1, 1000).help("rows n of the input batch X").formula("X: n x w").live(),
      Real("mean", &P::mean, -5.0, 5.0).help("mean of the input entries").formula("X_ij ~ N(mean, std^2)").live(),
      Real("std", &P::std, 0.01, 10.0)
          .log_scale()
          .help("standard deviation (spread) of the input entries")
          .formula("X_ij ~ N(mean, std^2)")
          .live(),
      Real("saturation", &P::saturation, 0.001, 0.5)
          .log_scale()
          .help("a unit counts as saturated where its derivative is below this fraction of the largest")
          .formula("|f'(z)| < s max|f'|")
          .live(),
      Int("bins", &P::bins, 5, 101).help("bins of the per-layer histograms").live(),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Activations::kMetricGradRatio, "grad_ratio",
       "||dL/dh_1|| / ||dL/dh_L||: the backward signal reaching layer 1's output against the upstream "
       "gradient dL/dh_L = G / n (<< 1 vanishing, >> 1 exploding)",
       true},
      {Activations::kMetricGradFactor, "grad_factor",
       "grad_ratio^(1/(L-1)): the mean factor by which the backward signal changes per layer (NaN for L = 1)",
       true},
      {Activations::kMetricWeightGradRatio, "weight_grad_ratio",
       "||dL/dW_1|| / ||dL/dW_L||, dL/dW_l = dL/dz_l^T h_{l-1}: what the optimiser sees in the first layer "
       "against the last (mixes the forward and the backward pass)",
       true},
      {Activations::kMetricSignalRatio, "signal_ratio", "std(h_L) / std(h_1): growth of the forward signal", true},
      {Activations::kMetricOutputStd, "output_std", "std of the last layer's activations h_L over the batch", true},
      {Activations::kMetricSaturated, "saturated",
       "mean over the layers of the fraction of units with |f'(z)| < s max|f'|", false},
  };
  return kMetrics;
}

}  // namespace

const ModuleInfo& Activations::info() const {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "activations";
    m.title = "Activations and initialisation (vanishing gradients)";
    m.chapter = "Neural networks";
    m.summary =
        "Each activation f and its derivative, with the saturated regions (|f'| small) shaded. A batch "
        "X ~ N(mean, std^2) is pushed through L layers h_l = f(W_l h_{l-1} + b_l) with the chosen "
        "initialisation times a gain, then a random linear loss is back-propagated: per layer the "
        "histograms of activations and gradients and the gradient norms show vanishing (sigmoid, "
        "torch init) or exploding (gain > 1) gradients, and how ReLU with He init keeps them level. "
        "One-shot: every change recomputes at once.";
    m.metrics = metric_table().infos();
    m.needs_dataset = false;
    m.table_columns = {"layer",     "pre_mean",    "pre_std",     "act_mean",   "act_std",
                       "saturated", "grad_norm_w", "grad_norm_h", "grad_norm_z"};
    m.default_cli_steps = 0;  // reset computes everything
    m.iterative = false;
    return m;
  }();
  return kInfo;
}

const ParamTable<Activations::Params>& module_params(const Activations*) { return param_table(); }

Activations::Params Activations::params_from(const ParamValues& values) { return param_table().read(values); }

// ---------------------------------------------------------------- the pass

std::unique_ptr<ActivationsPass> run_activations_pass(const Activations::Params& p, uint64_t seed) {
  auto pass = std::make_unique<ActivationsPass>();
  const int n = p.batch, w = p.width, depth = p.layers;
  Rng rng(seed);
  pass->x.resize(n, w);
  for (Eigen::Index i = 0; i < pass->x.size(); ++i)
    pass->x.data()[i] = static_cast<float>(p.mean + p.std * rng.normal());
  nn::Sequential<float>& net = pass->net;
  for (int l = 0; l < depth; ++l) {
    net.add(nn::make_linear<float>(w));
    net.add(nn::make_activation<float>(p.activation));
  }
  net.build(w);
  net.init(rng, p.init);
  for (int l = 0; l < depth; ++l) {  // W first in each Linear's slice, then b
    float* wl = net.params() + net.param_offset(static_cast<size_t>(2 * l));
    for (size_t i = 0; i < static_cast<size_t>(w) * w; ++i) wl[i] = static_cast<float>(wl[i] * p.gain);
  }
  pass->upstream.resize(n, w);
  for (Eigen::Index i = 0; i < pass->upstream.size(); ++i)
    pass->upstream.data()[i] = static_cast<float>(rng.normal() / n);
  net.forward(pass->x, true);
  net.zero_grad();
  net.backward(pass->upstream);

  // ---- reduce every layer.
  auto snap = std::make_shared<ActivationsSnapshot>();
  ActivationsSnapshot& s = *snap;
  s.activation = p.activation;
  s.init = p.init;
  s.gain = p.gain;
  s.mean = p.mean;
  s.std = p.std;
  s.saturation = p.saturation;
  s.layers = depth;
  s.width = w;
  s.batch = n;
  s.derivative_max = activation_derivative_max(p.activation);
  moments(pass->x, &s.input_mean, &s.input_std);
  const double threshold = p.saturation * s.derivative_max;
  auto z_of = [&](int l) -> const nn::Mat<float>& { return net.activation(static_cast<size_t>(2 * l)); };
  auto h_of = [&](int l) -> const nn::Mat<float>& { return net.activation(static_cast<size_t>(2 * l + 1)); };
  auto dz_of = [&](int l) -> const nn::Mat<float>& { return net.input_gradient(static_cast<size_t>(2 * l + 1)); };
  auto dh_of = [&](int l) -> const nn::Mat<float>& {
    return l + 1 < depth ? net.input_gradient(static_cast<size_t>(2 * l + 2)) : pass->upstream;
  };
  auto hist = std::make_shared<ActivationsHistograms>();
  hist->layers = depth;
  hist->bins = p.bins;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double pre_lo = kInf, pre_hi = -kInf, act_lo = kInf, act_hi = -kInf, grad_max = 0.0;
  s.per_layer.resize(static_cast<size_t>(depth));
  int fwd_overflow = 0;  // first layer whose z or h is not finite
  int bwd_overflow = 0;  // last layer (the first reached going back) whose gradient is not finite
  for (int l = 0; l < depth; ++l) {
    ActivationsLayer& r = s.per_layer[static_cast<size_t>(l)];
    const nn::Mat<float>&z = z_of(l), &h = h_of(l), &dz = dz_of(l);
    moments(z, &r.pre_mean, &r.pre_std);
    moments(h, &r.act_mean, &r.act_std);
    size_t sat = 0;
    for (Eigen::Index i = 0; i < z.size(); ++i)
      sat += std::abs(nn::activation_derivative(p.activation, z.data()[i])) < threshold;
    r.saturated = static_cast<double>(sat) / static_cast<double>(z.size());
    r.grad_norm_w = frobenius(net.grads() + net.param_offset(static_cast<size_t>(2 * l)), static_cast<size_t>(w) * w);
    r.grad_norm_h = frobenius(dh_of(l).data(), static_cast<size_t>(dh_of(l).size()));
    r.grad_norm_z = frobenius(dz.data(), static_cast<size_t>(dz.size()));
    if (fwd_overflow == 0 && !(all_finite(z) && all_finite(h))) fwd_overflow = l + 1;
    if (!(all_finite(dz) && all_finite(dh_of(l)) && std::isfinite(r.grad_norm_w))) bwd_overflow = l + 1;
    extend_range(z, &pre_lo, &pre_hi);
    extend_range(h, &act_lo, &act_hi);
    grad_max = std::max(grad_max, max_abs(dz));
  }
  usable_range(&pre_lo, &pre_hi);
  usable_range(&act_lo, &act_hi);
  if (!(grad_max > 0.0)) grad_max = 1.0;
  hist->pre_lo = pre_lo;
  hist->pre_hi = pre_hi;
  hist->act_lo = act_lo;
  hist->act_hi = act_hi;
  hist->grad_lo = -grad_max;
  hist->grad_hi = grad_max;
  const size_t cells = static_cast<size_t>(depth) * static_cast<size_t>(p.bins);
  hist->pre.resize(cells);
  hist->act.resize(cells);
  hist->grad.resize(cells);
  hist->grad_own.resize(cells);
  hist->grad_own_max.resize(static_cast<size_t>(depth));
  for (int l = 0; l < depth; ++l) {
    const size_t off = static_cast<size_t>(l) * static_cast<size_t>(p.bins);
    const size_t count = static_cast<size_t>(z_of(l).size());
    histogram_counts(z_of(l).data(), count, pre_lo, pre_hi, p.bins, hist->pre.data() + off);
    histogram_counts(h_of(l).data(), count, act_lo, act_hi, p.bins, hist->act.data() + off);
    histogram_counts(dz_of(l).data(), count, -grad_max, grad_max, p.bins, hist->grad.data() + off);
    double own = max_abs(dz_of(l));
    if (!(own > 0.0)) own = 1.0;
    hist->grad_own_max[static_cast<size_t>(l)] = own;
    histogram_counts(dz_of(l).data(), count, -own, own, p.bins, hist->grad_own.data() + off);
  }
  s.hist = std::move(hist);

  // ---- metrics, table, status.
  const ActivationsLayer &first = s.per_layer.front(), &last = s.per_layer.back();
  s.metrics = metric_table().blank();
  const double ratio = first.grad_norm_h / last.grad_norm_h;
  s.metrics[Activations::kMetricGradRatio] = ratio;
  s.metrics[Activations::kMetricGradFactor] = depth > 1 ? std::pow(ratio, 1.0 / (depth - 1)) : kNaN;
  s.metrics[Activations::kMetricWeightGradRatio] = first.grad_norm_w / last.grad_norm_w;
  s.metrics[Activations::kMetricSignalRatio] = last.act_std / first.act_std;
  s.metrics[Activations::kMetricOutputStd] = last.act_std;
  double sat_sum = 0.0;
  for (const ActivationsLayer& r : s.per_layer) sat_sum += r.saturated;
  s.metrics[Activations::kMetricSaturated] = sat_sum / depth;
  for (int l = 0; l < depth; ++l) {
    const ActivationsLayer& r = s.per_layer[static_cast<size_t>(l)];
    s.table.push_back({static_cast<double>(l + 1), r.pre_mean, r.pre_std, r.act_mean, r.act_std, r.saturated,
                       r.grad_norm_w, r.grad_norm_h, r.grad_norm_z});
  }
  s.overflow_layer = fwd_overflow > 0 ? fwd_overflow : bwd_overflow;
  if (fwd_overflow > 0) {
    s.status = Status::Diverged;
    s.message = "the activations overflowed the float range at layer " + std::to_string(fwd_overflow) +
                " (an exploding signal); try a smaller gain or input std, or fewer layers";
  } else if (bwd_overflow > 0) {
    s.status = Status::Diverged;
    s.message = "the gradients overflowed the float range at layer " + std::to_string(bwd_overflow) +
                ", going back from layer " + std::to_string(depth) +
                " (an exploding gradient); try a smaller gain or fewer layers";
  } else {
    s.status = Status::Converged;
  }
  pass->snapshot = std::move(snap);
  return pass;
}

// ---------------------------------------------------------------- lifecycle

// Everything an Activations module holds (a value type: clone() copies it).
struct Activations::State {
  Params p;
  uint64_t seed = 0;
  bool ready = false;
  // Before reset: a snapshot with no layers.
  std::shared_ptr<const ActivationsSnapshot> snap = [] {
    auto empty = std::make_shared<ActivationsSnapshot>();
    empty->metrics = metric_table().blank();
    return empty;
  }();

  void compute() { snap = run_activations_pass(p, seed)->snapshot; }
};

void Activations::reset(std::shared_ptr<const Dataset>, const ParamValues& values, uint64_t seed) {
  State& s = *st_;
  const Params p = params_from(values);
  s.p = p;
  s.seed = seed;
  s.compute();
  s.ready = true;
}

void Activations::step() {}

void Activations::set_live(const std::string& name, double value) {
  State& s = *st_;
  Params p = s.p;
  param_table().set_live(p, name, value, info().name);  // throws: unknown or out of range
  s.p = p;
  if (s.ready) s.compute();
}

std::shared_ptr<const ActivationsSnapshot> Activations::activations_snapshot() const { return st_->snap; }

std::shared_ptr<const Snapshot> Activations::snapshot() const { return activations_snapshot(); }

CILAB_MODULE_STATE(Activations)

}  // namespace cilab
