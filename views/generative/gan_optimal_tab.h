// gan_optimal_tab.h - the gan view's "Optimal discriminator (1-D)" tab (issue 13; course catalogue
// 17.2): p_data (one or two Gaussians) and p_g (one Gaussian) set by sliders, D*(x) =
// p_data / (p_data + p_g) drawn over them, a logistic discriminator D(x) = sigmoid(a + b x + c x^2)
// trained live with G fixed (algorithms/generative/gan_optimal.h), and the identity V(G, D*) = 2 JS - log 4
// read out as the densities move. Self-contained: it owns its state (no module, no runner) and
// draws inside the current ImGui window; the gan view calls draw() from one of its tabs.
#pragma once

#include <imgui.h>

#include "algorithms/generative/gan_optimal.h"
#include "views/common/ui.h"

namespace cilab {

// How the tab trains D with G fixed.
enum class GanOptimalOptimizer {
  Bound,   // ascend_discriminator: the minorise-maximise step, lr (slow enough to watch)
  Newton,  // newton_ascend_discriminator: damped Newton (a handful of steps)
};

// What the sliders set: the densities and the discriminator's training.
struct GanOptimalSettings {
  double data_mean = default_data_density().components[0].mean;  // p_data's first component
  double data_sd = default_data_density().components[0].sd;
  bool data_bimodal = false;                                    // p_data has a second component
  double data2_weight = 0.3, data2_mean = 3.0, data2_sd = 0.6;  // the second component
  double gen_mean = default_gen_density().components[0].mean;   // p_g
  double gen_sd = default_gen_density().components[0].sd;
  int degree = 2;  // D's logit: 1 = a + b x, 2 = a + b x + c x^2 (capacity)
  GanOptimalOptimizer optimizer = GanOptimalOptimizer::Bound;
  double lr = kDefaultAscentRate;  // the bound step's rate, in (0, 2)
  int steps_per_frame = 1;         // training steps per drawn frame while training
};

// Screen centres of the tab's main controls in the last drawn frame (tests, --script clicks).
struct GanOptimalTargets {
  ImVec2 train{0, 0};                     // "Train D (G fixed)" / "Stop training"
  ImVec2 reset{0, 0};                     // "Reset D"
  ImVec2 match{0, 0};                     // "p_g = p_data"
  ImVec2 gen_mean{0, 0};                  // p_g's mean slider
  ImVec2 plot_min{0, 0}, plot_max{0, 0};  // the plot's frame
};

// Slider ranges of the tab.
constexpr double kGanOptimalMeanRange = 5.0;  // means in [-5, 5]
constexpr double kGanOptimalSdMin = 0.2, kGanOptimalSdMax = 3.0;

// The tab: settings, the quadrature grid and report of the current densities, the trained D.
class GanOptimalTab {
 public:
  GanOptimalTab();

  // Draws the tab in a child region of `size` pixels at the cursor (a component <= 0 takes the
  // available width or height): controls on the left, read-outs and the plot on the right. Trains
  // D for steps_per_frame steps first while training is on.
  void draw(const ImVec2& size);

  // The current settings.
  const GanOptimalSettings& settings() const { return settings_; }
  // Replace the settings and rebuild the densities, grid and read-outs at once (D keeps its
  // parameters: it is left behind until trained again). Throws std::invalid_argument naming what
  // failed (p_data or p_g for a bad density, degree, lr, steps_per_frame, data2_weight) and keeps
  // the old settings.
  void set_settings(const GanOptimalSettings& s);
  // Train D while drawing (the "Train D (G fixed)" toggle).
  void set_training(bool on) { training_ = on; }
  bool training() const { return training_; }
  // D back to a = b = c = 0 (D = 1/2), step count 0 (the "Reset D" button).
  void reset_discriminator();
  // Run n training steps now (what a frame does while training).
  void train_steps(int n);

  // The densities of the current settings.
  const Mixture1d& data_density() const { return data_; }
  const Mixture1d& gen_density() const { return gen_; }
  // V(G, D*), JS, 2 JS - log 4, both KLs of the current densities.
  const DivergenceReport& report() const { return report_; }
  // The trained discriminator, its steps since the last reset, V(G, D) and max |D - D*| where the
  // densities carry mass (kGapMassFloor of the mixture's peak).
  const QuadraticLogistic& discriminator() const { return d_; }
  int discriminator_steps() const { return d_steps_; }
  double trained_value() const { return trained_value_; }
  double trained_gap() const { return trained_gap_; }

  // Where the controls were drawn last frame.
  const GanOptimalTargets& targets() const { return targets_; }

  // Where max |D - D*| is read: nodes whose mixture density is at least this share of its peak.
  static constexpr double kGapMassFloor = 1e-3;

 private:
  void refresh_trained();
  void draw_controls(float width, float height);
  void draw_readouts();
  void draw_plot(const ImVec2& size);

  GanOptimalSettings settings_;
  Mixture1d data_, gen_;
  QuadratureGrid grid_;
  DivergenceReport report_;
  QuadraticLogistic d_;
  int d_steps_ = 0;
  double trained_value_ = 0.0, trained_gap_ = 0.0, last_grad_norm_ = 0.0;
  bool training_ = false;
  SliderEditState slider_state_;
  GanOptimalTargets targets_;
};

}  // namespace cilab
