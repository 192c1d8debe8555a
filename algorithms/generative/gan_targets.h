// The 2-D GAN's target distributions and its two measures of how well the
// generator matches them (course chapter 17; GAN Lab's measures):
//
//   ring8    8 Gaussians, sd 0.05, centres on the circle of radius 2 (the
//            unrolled-GAN / VEEGAN benchmark's ring, with a wider sd)
//   grid25   25 Gaussians, sd 0.05, centres {-4, -2, 0, 2, 4}^2
//   moons    scikit-learn make_moons (noise 0.05), centred on the origin, scaled by 2
//   spiral   two interleaved spiral arms (the data layer's spirals, noise 0.03), scaled by 3
//
// Every target is a fixed pool of kTargetPool rows drawn once from the run's
// seed; mini-batches are drawn from the pool with replacement.
//
// Mode coverage (mixtures only): a mode is covered when at least 1 % of the
// generated samples lie within 3 sd of its centre; "high quality" is the
// share of samples within 3 sd of some centre.
//
// KL and JS on a grid: both sample sets are binned on a kDivergenceBins^2
// grid over the target's box, each histogram smoothed by adding
// kDivergenceSmoothing to every cell and normalised; KL(p_data || p_g) and
// JS(p_data || p_g) of the two histograms (nats).
#pragma once

#include "algorithms/core/rng.h"

#include <Eigen/Core>

#include <array>
#include <string>
#include <vector>

namespace cilab {

enum class GanTarget { Ring8, Grid25, Moons, Spiral, Data };
constexpr int kNumGanTargets = 5;
// "ring8", "grid25", "moons", "spiral", "data".
const char* gan_target_name(GanTarget t);

using GanRows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct GanBox {
  double x0 = -1, x1 = 1, y0 = -1, y1 = 1;
};

// A target's known structure.
struct GanTargetSpec {
  std::vector<std::array<double, 2>> modes;  // mixture centres (empty: no modes)
  double sd = 0;                             // each mode's standard deviation
  GanBox box;                                // the plane shown and binned
};

constexpr int kTargetPool = 20000;
constexpr double kModeRadiusSds = 3.0;      // a sample "hits" a mode within 3 sd
constexpr double kModeMinShare = 0.01;      // a mode is covered with >= 1 % of the samples
constexpr int kDivergenceBins = 40;
constexpr double kDivergenceSmoothing = 0.5;

// The structure of a built-in target (Data: no modes, a unit box).
GanTargetSpec gan_target_spec(GanTarget t);
// kTargetPool rows of a built-in target (not Data), drawn from `seed`.
GanRows gan_target_pool(GanTarget t, uint64_t seed);

struct ModeCoverage {
  std::vector<int> counts;  // samples within 3 sd of each mode
  int covered = 0;          // modes with counts >= 1 % of the samples
  double high_quality = 0;  // share of samples within 3 sd of some mode
};
// Mode coverage of 2-D samples (rows x 2) for the target's modes.
ModeCoverage mode_coverage(const GanRows& samples, const GanTargetSpec& spec);

struct GridDivergence {
  double kl = 0;  // KL(p_data || p_g) of the smoothed histograms
  double js = 0;  // JS(p_data || p_g), in [0, log 2]
};
// The smoothed, normalised histogram of 2-D samples on a bins x bins grid
// over `box` (row-major, y then x); samples outside the box are clamped into
// its edge cells, non-finite ones skipped.
std::vector<double> grid_histogram(const GanRows& samples, const GanBox& box, int bins = kDivergenceBins,
                                   double smoothing = kDivergenceSmoothing);
// KL and JS between the binned real and generated samples (rows x 2) on `box`.
GridDivergence grid_divergence(const GanRows& real, const GanRows& fake, const GanBox& box,
                               int bins = kDivergenceBins, double smoothing = kDivergenceSmoothing);
// The same with the real samples' histogram computed once (grid_histogram).
GridDivergence grid_divergence(const std::vector<double>& real_histogram, const GanRows& fake, const GanBox& box,
                               int bins = kDivergenceBins, double smoothing = kDivergenceSmoothing);

}  // namespace cilab
