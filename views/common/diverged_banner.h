// The Diverged banner of the training views (mlp, vae): the run's message in
// red and a button "rewind to iteration N and halve the learning rate" that
// sends Seek(N) then SetParam lr = lr / 2 (the app rewinds, then changes the
// live rate: training goes on from N with the new rate).
#pragma once

#include "views/common/view.h"

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

namespace cilab {

// The last iteration before `iteration` whose metric `loss_metric` in the history was finite and
// at most 100x the first one's (0 when there is none or no history).
int rewind_target(const std::vector<std::vector<double>>* history, int loss_metric, int iteration);

// Draws the banner for a Diverged snapshot (nothing otherwise). `lr` is the rate to halve (the
// running value, ctx.values' "lr" when present). Returns the button's centre (tests, scripts),
// (NaN, NaN) when nothing was drawn.
ImVec2 draw_diverged_banner(const Snapshot& s, const ViewContext& ctx, int loss_metric, double lr,
                            std::vector<ViewIntent>& out);
// The same for a model with several learning rates (the gan's g_lr and d_lr): the button halves
// each (parameter name, running value) of `rates`.
ImVec2 draw_diverged_banner(const Snapshot& s, const ViewContext& ctx, int loss_metric,
                            const std::vector<std::pair<std::string, double>>& rates,
                            std::vector<ViewIntent>& out);

}  // namespace cilab
