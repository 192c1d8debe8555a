// The activations module: saturation regions, variance propagation against the
// theory (identity with glorot / he, ReLU with he), the derivative bound on the
// backward pass, the gradient bookkeeping (dL/dW_l = dz_l^T h_{l-1}), histogram
// totals, overflow as Diverged, determinism per seed and live recomputation.
#include "algorithms/networks/activations.h"

#include <Eigen/Dense>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace cilab;
using nn::Activation;
using nn::Init;

namespace {

constexpr Activation kAll[] = {Activation::Identity, Activation::ReLU,     Activation::LeakyReLU, Activation::ELU,
                               Activation::Sigmoid,  Activation::Tanh,     Activation::Softplus,  Activation::GELU};

Activations::Params params(Activation a, Init init, int layers, int width, int batch, double gain = 1.0) {
  Activations::Params p;
  p.activation = a;
  p.init = init;
  p.layers = layers;
  p.width = width;
  p.batch = batch;
  p.gain = gain;
  return p;
}

// Mean of the squares of a float matrix, in double.
double second_moment(const nn::Mat<float>& m) {
  return m.cast<double>().squaredNorm() / static_cast<double>(m.size());
}

// Spectral norm of Linear layer l's weight (0-based l).
double spectral_norm(const nn::Sequential<float>& net, int l, int w) {
  const float* p = net.params() + net.param_offset(static_cast<size_t>(2 * l));
  Eigen::MatrixXd m(w, w);
  for (int i = 0; i < w; ++i)
    for (int j = 0; j < w; ++j) m(i, j) = p[i * w + j];
  return Eigen::JacobiSVD<Eigen::MatrixXd>(m).singularValues()[0];
}

std::vector<double> flat_table(const Snapshot& s) {
  std::vector<double> v;
  for (const std::vector<double>& r : s.table) v.insert(v.end(), r.begin(), r.end());
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("activations: the derivative maximum bounds |f'| on a grid and is attained") {
  for (Activation a : kAll) {
    CAPTURE(nn::activation_name(a));
    const double m = activation_derivative_max(a);
    double seen = 0.0;
    for (double z = -30.0; z <= 30.0; z += 1e-3) seen = std::max(seen, std::abs(nn::activation_derivative(a, z)));
    CHECK(seen <= m * (1 + 1e-12));
    CHECK(seen >= m * (1 - 1e-6));
  }
}

TEST_CASE("activations: saturation intervals are exactly where |f'| < s max|f'|") {
  const double s = 0.05, lo = -8.0, hi = 8.0;
  for (Activation a : kAll) {
    CAPTURE(nn::activation_name(a));
    const double thr = s * activation_derivative_max(a);
    const std::vector<ZInterval> iv = saturation_intervals(a, s, lo, hi);
    auto inside = [&](double z) {
      for (const ZInterval& i : iv)
        if (z >= i.lo && z <= i.hi) return true;
      return false;
    };
    // Every grid point away from a boundary agrees with the definition.
    for (double z = lo; z <= hi; z += 0.01) {
      bool near_boundary = false;
      for (const ZInterval& i : iv) near_boundary |= std::abs(z - i.lo) < 1e-6 || std::abs(z - i.hi) < 1e-6;
      if (near_boundary) continue;
      CHECK(inside(z) == (std::abs(nn::activation_derivative(a, z)) < thr));
    }
    for (size_t k = 0; k < iv.size(); ++k) {
      CHECK(iv[k].lo < iv[k].hi);
      if (k) CHECK(iv[k - 1].hi < iv[k].lo);
    }
  }
  // Sigmoid: two symmetric tails |z| > a with sigma'(a) = s / 4 (sigma' is continuous).
  const std::vector<ZInterval> sig = saturation_intervals(Activation::Sigmoid, s, lo, hi);
  REQUIRE(sig.size() == 2);
  CHECK(sig[0].lo == lo);
  CHECK(sig[1].hi == hi);
  CHECK(sig[0].hi == doctest::Approx(-sig[1].lo).epsilon(1e-6));
  CHECK(nn::activation_derivative(Activation::Sigmoid, sig[1].lo) == doctest::Approx(s / 4).epsilon(1e-6));
  // The identity never saturates; ReLU is dead exactly for z <= 0.
  CHECK(saturation_intervals(Activation::Identity, s, lo, hi).empty());
  const std::vector<ZInterval> relu = saturation_intervals(Activation::ReLU, s, lo, hi);
  REQUIRE(relu.size() == 1);
  CHECK(relu[0].hi == doctest::Approx(0.0).epsilon(1e-6).scale(1));
}

TEST_CASE("activations: histogram counts sum to the finite values, clamped into the end bins") {
  const float v[] = {-5.0f, 0.0f, 0.1f, 0.99f, 1.0f, 7.0f, NAN, INFINITY};
  double out[4];
  CHECK(histogram_counts(v, 8, 0.0, 1.0, 4, out) == 6);
  CHECK(out[0] == 3);  // -5 (clamped), 0, 0.1
  CHECK(out[1] == 0);
  CHECK(out[3] == 3);  // 0.99, 1 (closed last bin), 7 (clamped)
  // Every layer's histograms of a pass hold all n * w values.
  const auto pass = run_activations_pass(params(Activation::Tanh, Init::Torch, 6, 32, 50), 3);
  const ActivationsHistograms& h = *pass->snapshot->hist;
  for (int l = 0; l < 6; ++l)
    for (const std::vector<double>* t : {&h.pre, &h.act, &h.grad, &h.grad_own}) {
      double sum = 0.0;
      for (int k = 0; k < h.bins; ++k) sum += h.row(*t, l)[k];
      CHECK(sum == 32 * 50);
    }
}

TEST_CASE("activations: identity layers scale E[h^2] by w Var(W) gain^2 per layer (glorot 1, he 2)") {
  // For a fixed batch and iid zero-mean weights of variance v, ||h W^T||_F^2 has mean w v ||h||_F^2 and a
  // relative standard deviation of about sqrt(2) / w per layer (a sum of w row terms, each with relative sd
  // sqrt(2/w)); over L layers the log of the ratio wanders by about sqrt(L) sqrt(2) / w. Allow 6 of those.
  const int w = 64, n = 400, depth = 5;
  const double tol = 6.0 * std::sqrt(depth) * std::sqrt(2.0) / w;
  for (const double gain : {0.7, 1.0, 1.3}) {
    for (const Init init : {Init::Glorot, Init::He}) {
      CAPTURE(gain);
      CAPTURE(nn::init_name(init));
      const auto pass = run_activations_pass(params(Activation::Identity, init, depth, w, n, gain), 11);
      const double per_layer = (init == Init::He ? 2.0 : 1.0) * gain * gain;
      const double want = second_moment(pass->x) * std::pow(per_layer, depth);
      const double got = second_moment(pass->net.activation(static_cast<size_t>(2 * depth - 1)));
      CHECK(std::abs(std::log(got / want)) < tol);
    }
  }
}

TEST_CASE("activations: ReLU with He init keeps Var(z) level through the layers") {
  // E[relu(z)^2] = Var(z) / 2 for symmetric z and w Var(W) = 2, so Var(z_{l+1}) = Var(z_l). The per-layer
  // fluctuation is a little above the identity's sqrt(2) / w (ReLU halves the effective units); allow
  // 8 sqrt(L) sqrt(2) / w on the log.
  const int w = 128, n = 512, depth = 10;
  const auto pass = run_activations_pass(params(Activation::ReLU, Init::He, depth, w, n), 5);
  const std::vector<ActivationsLayer>& r = pass->snapshot->per_layer;
  const double tol = 8.0 * std::sqrt(depth) * std::sqrt(2.0) / w;
  // Layer 1: Var(z_1) = w (2/w) E[x^2] = 2 E[x^2].
  CHECK(std::abs(std::log(r[0].pre_std * r[0].pre_std / (2.0 * second_moment(pass->x)))) < tol);
  for (int l = 1; l < depth; ++l) {
    CAPTURE(l);
    CHECK(std::abs(std::log(r[static_cast<size_t>(l)].pre_std / r[0].pre_std)) < tol);
  }
  // The backward pass is level as well: ||dL/dh_l|| changes by well under 5 % per layer.
  CHECK(std::abs(std::log(pass->snapshot->metrics[Activations::kMetricGradFactor])) < 0.05);
  // With gain 2 both passes grow: Var(z) and Var(dL/dh) by w Var(W) gain^2 / 2 = 4 per layer, so the norms
  // by 2 per layer; the weight gradient dL/dW_l = dz_l^T h_{l-1} multiplies a shrinking-towards-the-input
  // forward factor by a growing backward one, and stays level.
  const auto big = run_activations_pass(params(Activation::ReLU, Init::He, depth, w, n, 2.0), 5);
  const double want = std::pow(2.0, depth - 1);
  CHECK(std::abs(std::log(big->snapshot->metrics[Activations::kMetricGradRatio] / want)) < 2 * tol);
  CHECK(std::abs(std::log(big->snapshot->metrics[Activations::kMetricSignalRatio] / want)) < 2 * tol);
  CHECK(std::abs(std::log(big->snapshot->metrics[Activations::kMetricWeightGradRatio])) < 2 * tol);
  // ... while sigmoid with torch's init vanishes (the module's default lesson).
  const auto sig = run_activations_pass(Activations::Params{}, 5);
  CHECK(sig->snapshot->metrics[Activations::kMetricGradRatio] < 1e-3);
}

TEST_CASE("activations: ||dL/dz_l|| <= max|f'| ||dL/dh_l|| in every layer, sigmoid shrinks by 1/4 ||W||_2") {
  for (Activation a : kAll) {
    CAPTURE(nn::activation_name(a));
    const auto pass = run_activations_pass(params(a, Init::Torch, 6, 48, 64), 9);
    const double m = activation_derivative_max(a);
    for (const ActivationsLayer& r : pass->snapshot->per_layer) CHECK(r.grad_norm_z <= m * r.grad_norm_h * (1 + 1e-5));
  }
  // dL/dz_l = (dL/dz_{l+1} W_{l+1}) * sigma'(z_l): ||dL/dz_l|| <= 1/4 ||W_{l+1}||_2 ||dL/dz_{l+1}||.
  const int w = 48, depth = 8;
  const auto pass = run_activations_pass(params(Activation::Sigmoid, Init::Torch, depth, w, 64), 4);
  const std::vector<ActivationsLayer>& r = pass->snapshot->per_layer;
  for (int l = 0; l + 1 < depth; ++l) {
    CAPTURE(l);
    const double bound = 0.25 * spectral_norm(pass->net, l + 1, w) * r[static_cast<size_t>(l + 1)].grad_norm_z;
    CHECK(r[static_cast<size_t>(l)].grad_norm_z <= bound * (1 + 1e-5));
  }
}

TEST_CASE("activations: the per-layer norms are the library's gradients (dL/dW_l = dz_l^T h_{l-1})") {
  const int w = 24, n = 30, depth = 4;
  const auto pass = run_activations_pass(params(Activation::GELU, Init::Glorot, depth, w, n, 1.5), 2);
  const nn::Sequential<float>& net = pass->net;
  for (int l = 0; l < depth; ++l) {
    CAPTURE(l);
    const Eigen::MatrixXd dz = net.input_gradient(static_cast<size_t>(2 * l + 1)).cast<double>();
    const Eigen::MatrixXd prev = l == 0 ? pass->x.cast<double>()
                                        : net.activation(static_cast<size_t>(2 * l - 1)).cast<double>();
    const ActivationsLayer& r = pass->snapshot->per_layer[static_cast<size_t>(l)];
    CHECK(r.grad_norm_w == doctest::Approx((dz.transpose() * prev).norm()).epsilon(1e-4));
    CHECK(r.grad_norm_z == doctest::Approx(dz.norm()).epsilon(1e-6));
    // dL/dz_l = dL/dh_l * f'(z_l), elementwise.
    const nn::Mat<float>& dh = l + 1 < depth ? net.input_gradient(static_cast<size_t>(2 * l + 2)) : pass->upstream;
    const nn::Mat<float>& z = net.activation(static_cast<size_t>(2 * l));
    const nn::Mat<float>& dzf = net.input_gradient(static_cast<size_t>(2 * l + 1));
    double err = 0.0;
    for (Eigen::Index i = 0; i < z.size(); ++i)
      err = std::max(err, std::abs(dzf.data()[i] - dh.data()[i] * nn::activation_derivative(Activation::GELU, z.data()[i])));
    CHECK(err <= 1e-5 * dh.cwiseAbs().maxCoeff());
  }
  // The upstream gradient is G / n with G ~ N(0, 1): E||G/n||^2 = w / n.
  CHECK(pass->upstream.cast<double>().squaredNorm() == doctest::Approx(static_cast<double>(w) / n).epsilon(0.2));
}

TEST_CASE("activations: an exploding signal is Diverged with the layer named, not an exception") {
  const auto pass = run_activations_pass(params(Activation::Identity, Init::He, 50, 64, 20, 5.0), 1);
  const ActivationsSnapshot& s = *pass->snapshot;
  CHECK(s.status == Status::Diverged);
  CHECK(s.overflow_layer > 1);
  CHECK(s.overflow_layer <= 50);
  CHECK(s.message.find("layer " + std::to_string(s.overflow_layer)) != std::string::npos);
  const auto ok = run_activations_pass(params(Activation::Identity, Init::He, 5, 64, 20), 1);
  CHECK(ok->snapshot->status == Status::Converged);
  CHECK(ok->snapshot->overflow_layer == 0);
}

TEST_CASE("activations: module determinism per seed, live changes recompute from the same draws") {
  const ParamValues defaults = default_values(Activations().params());
  Activations a, b, c;
  a.reset(nullptr, defaults, 42);
  b.reset(nullptr, defaults, 42);
  c.reset(nullptr, defaults, 43);
  CHECK(same_bits(flat_table(*a.snapshot()), flat_table(*b.snapshot())));
  CHECK(same_bits(a.snapshot()->metrics, b.snapshot()->metrics));
  CHECK(!same_bits(flat_table(*a.snapshot()), flat_table(*c.snapshot())));
  CHECK(a.snapshot()->table.size() == 10);
  CHECK(a.snapshot()->table[0].size() == a.info().table_columns.size());
  CHECK(a.snapshot()->status == Status::Converged);
  // A live change recomputes; changing it back gives the first result bit for bit.
  a.set_live("activation", 1.0);  // relu
  CHECK(a.snapshot()->table.size() == 10);
  CHECK(!same_bits(a.snapshot()->metrics, b.snapshot()->metrics));
  a.set_live("layers", 3);
  CHECK(a.snapshot()->table.size() == 3);
  a.set_live("layers", 10);
  a.set_live("activation", 4.0);  // sigmoid, the default
  CHECK(same_bits(flat_table(*a.snapshot()), flat_table(*b.snapshot())));
  // Steps change nothing (one-shot); a clone holds the same snapshot.
  const auto before = a.snapshot();
  a.step();
  CHECK(a.snapshot() == before);
  CHECK(same_bits(a.clone()->snapshot()->metrics, before->metrics));
  CHECK_THROWS_WITH_AS(a.set_live("layers", 51), doctest::Contains("'layers'"), std::invalid_argument);
}
