// Helpers shared by the optimizer race view's files (optimizers_view*.cpp).
// Internal to the view: not part of the views API.
#pragma once

#include "algorithms/optim/optimizer.h"
#include "algorithms/gradient_methods/optimizers.h"
#include "views/common/ui.h"

#include <imgui.h>

#include <string>

namespace cilab::optview {

// The colour of an optimizer kind, the same in every panel.
ImU32 racer_color(OptimizerKind kind);
using cilab::with_alpha;  // views/common/ui.h
// "%.4g", "n/a" for NaN, "inf" for infinities.
std::string fmt(double v, const char* format = "%.4g");
// The parameter holding a racer's base lr: "lr" for the primary, "lr_<name>" otherwise.
std::string lr_param(const RacerState& r);
// The parameter holding the lr of `kind` given the primary kind.
std::string lr_param(OptimizerKind kind, OptimizerKind primary);
// torch.optim update equations of a kind (tooltip text).
const char* update_equations(OptimizerKind kind);
// Last index of the path with a finite point and loss (-1 if none).
long last_finite(const PathBuffer& path);
// GD's linear rate on a quadratic with Hessian eigenvalues mu..L at step eta: max(|1 - eta mu|, |1 - eta L|).
double gd_rate(double eta, double mu, double L);
// Heavy ball's asymptotic rate (spectral radius of the 2x2 iteration per eigenvalue) at (eta, beta).
double heavy_ball_rate(double eta, double beta, double mu, double L);

}  // namespace cilab::optview
