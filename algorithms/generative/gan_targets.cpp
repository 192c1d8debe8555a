// The GAN's targets and measures (gan_targets.h).
#include "algorithms/generative/gan_targets.h"

#include "algorithms/data/datasets.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cilab {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMixtureSd = 0.05;

// Rows of a built-in dataset spec, shifted by -centre and scaled.
GanRows rows_of(const std::string& spec, double cx, double cy, double scale) {
  const std::shared_ptr<const Dataset> d = make_dataset(spec);
  GanRows out(d->rows(), 2);
  for (int i = 0; i < d->rows(); ++i) {
    out(i, 0) = static_cast<float>((d->x(i, 0) - cx) * scale);
    out(i, 1) = static_cast<float>((d->x(i, 1) - cy) * scale);
  }
  return out;
}

}  // namespace

const char* gan_target_name(GanTarget t) {
  switch (t) {
    case GanTarget::Ring8: return "ring8";
    case GanTarget::Grid25: return "grid25";
    case GanTarget::Moons: return "moons";
    case GanTarget::Spiral: return "spiral";
    case GanTarget::Data: return "data";
  }
  return "?";
}

GanTargetSpec gan_target_spec(GanTarget t) {
  GanTargetSpec s;
  switch (t) {
    case GanTarget::Ring8:
      for (int k = 0; k < 8; ++k) s.modes.push_back({2.0 * std::cos(2 * kPi * k / 8), 2.0 * std::sin(2 * kPi * k / 8)});
      s.sd = kMixtureSd;
      s.box = {-3, 3, -3, 3};
      break;
    case GanTarget::Grid25:
      for (int i = -2; i <= 2; ++i)
        for (int j = -2; j <= 2; ++j) s.modes.push_back({2.0 * i, 2.0 * j});
      s.sd = kMixtureSd;
      s.box = {-5.5, 5.5, -5.5, 5.5};
      break;
    case GanTarget::Moons: s.box = {-3.5, 3.5, -2.5, 2.5}; break;
    case GanTarget::Spiral: s.box = {-3.5, 3.5, -3.5, 3.5}; break;
    case GanTarget::Data: break;
  }
  return s;
}

GanRows gan_target_pool(GanTarget t, uint64_t seed) {
  const std::string n = std::to_string(kTargetPool);
  const std::string sd = ",seed=" + std::to_string(seed % (1ULL << 53));
  switch (t) {
    case GanTarget::Ring8:
    case GanTarget::Grid25: {
      const GanTargetSpec spec = gan_target_spec(t);
      Rng rng(seed);
      GanRows out(kTargetPool, 2);
      const int m = static_cast<int>(spec.modes.size());
      for (int i = 0; i < kTargetPool; ++i) {
        const auto& c = spec.modes[static_cast<size_t>(rng.below(static_cast<uint64_t>(m)))];
        out(i, 0) = static_cast<float>(c[0] + spec.sd * rng.normal());
        out(i, 1) = static_cast<float>(c[1] + spec.sd * rng.normal());
      }
      return out;
    }
    case GanTarget::Moons: return rows_of("moons:n=" + n + ",noise=0.05" + sd, 0.5, 0.25, 2.0);
    case GanTarget::Spiral: return rows_of("spirals:n=" + n + ",arms=2,noise=0.03,turns=1.5" + sd, 0.0, 0.0, 3.0);
    case GanTarget::Data: break;
  }
  throw std::logic_error("gan_target_pool: the data target has no built-in pool");
}

ModeCoverage mode_coverage(const GanRows& samples, const GanTargetSpec& spec) {
  ModeCoverage out;
  const size_t m = spec.modes.size();
  out.counts.assign(m, 0);
  const Eigen::Index n = samples.rows();
  if (m == 0 || n == 0) return out;
  const double r2 = (kModeRadiusSds * spec.sd) * (kModeRadiusSds * spec.sd);
  int hits = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double x = samples(i, 0), y = samples(i, 1);
    size_t best = m;
    double best_d2 = r2;
    for (size_t k = 0; k < m; ++k) {
      const double dx = x - spec.modes[k][0], dy = y - spec.modes[k][1];
      const double d2 = dx * dx + dy * dy;
      if (d2 <= best_d2) {
        best_d2 = d2;
        best = k;
      }
    }
    if (best < m) {
      ++out.counts[best];
      ++hits;
    }
  }
  const double need = kModeMinShare * static_cast<double>(n);
  for (int c : out.counts) out.covered += c >= need;
  out.high_quality = static_cast<double>(hits) / static_cast<double>(n);
  return out;
}

std::vector<double> grid_histogram(const GanRows& s, const GanBox& box, int bins, double smoothing) {
  if (bins < 1) throw std::invalid_argument("grid_histogram: bins must be >= 1");
  std::vector<double> h(static_cast<size_t>(bins) * bins, smoothing);
  const double sx = bins / (box.x1 - box.x0), sy = bins / (box.y1 - box.y0);
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    if (!std::isfinite(s(i, 0)) || !std::isfinite(s(i, 1))) continue;
    const int cx = std::clamp(static_cast<int>(std::floor((s(i, 0) - box.x0) * sx)), 0, bins - 1);
    const int cy = std::clamp(static_cast<int>(std::floor((s(i, 1) - box.y0) * sy)), 0, bins - 1);
    h[static_cast<size_t>(cy) * bins + cx] += 1.0;
  }
  double total = 0;
  for (double v : h) total += v;
  if (total > 0)
    for (double& v : h) v /= total;
  return h;
}

GridDivergence grid_divergence(const std::vector<double>& p, const GanRows& fake, const GanBox& box, int bins,
                               double smoothing) {
  const std::vector<double> q = grid_histogram(fake, box, bins, smoothing);
  if (p.size() != q.size()) throw std::invalid_argument("grid_divergence: histograms of different grids");
  GridDivergence out;
  for (size_t i = 0; i < p.size(); ++i) {
    const double m = 0.5 * (p[i] + q[i]);
    if (p[i] > 0) {
      out.kl += p[i] * std::log(p[i] / q[i]);
      out.js += 0.5 * p[i] * std::log(p[i] / m);
    }
    if (q[i] > 0) out.js += 0.5 * q[i] * std::log(q[i] / m);
  }
  return out;
}

GridDivergence grid_divergence(const GanRows& real, const GanRows& fake, const GanBox& box, int bins,
                               double smoothing) {
  return grid_divergence(grid_histogram(real, box, bins, smoothing), fake, box, bins, smoothing);
}

}  // namespace cilab
