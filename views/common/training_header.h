// What every training view (mlp, autoencoder, vae, gan and the ones to come)
// draws the same way: the end of its header (the sub-step just done, then the
// Diverged banner with its rewind-and-halve button or the run's message), its
// two columns (the tabbed picture and the curves beside it) and the line shown
// before the first network exists.
#pragma once

#include "views/common/view.h"

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

namespace cilab {

// The running value of a live parameter: the panel's (ctx.values), else `fallback`
// (the snapshot's own copy).
double running_value(const ViewContext& ctx, const char* name, double fallback);

// The last lines of a training view's header: `phase_text` (what the sub-step just
// done computed; nullptr at an iteration boundary) in the warning colour, then for a
// Diverged run the banner whose button rewinds and halves each (parameter, running
// value) of `rates`, else the run's message. Each line drawn is appended to `header`
// (the views' tests read it). Returns the button's centre ((NaN, NaN): none).
ImVec2 draw_training_status(const Snapshot& s, const ViewContext& ctx, const char* phase_text, int loss_metric,
                            const std::vector<std::pair<std::string, double>>& rates,
                            std::vector<std::string>& header, std::vector<ViewIntent>& out);

// A training view's two columns in the region left under its header: the picture
// (tabs) on the left and the curves, `side_share` of the width (at least 16 em), on
// the right. When that would leave the picture less than kPictureMinEm font sizes, the
// curves narrow to keep it that wide, down to kSideMinEm; narrower still (a Compare half
// at 150 %), the picture takes the whole width and the curves go under it (`stacked`;
// the view scrolls to them).
constexpr float kPictureMinEm = 20.0f;
constexpr float kSideMinEm = 10.0f;
struct TrainingColumns {
  ImVec2 avail;          // the region under the header
  float main_w = 0;      // the picture's column
  float side_w = 0;      // the curves' column
  bool stacked = false;  // the curves under the picture, both the whole width
};
TrainingColumns training_columns(float side_share);
// The curves column's size, called after the picture's group and SameLine(): side_w, or
// what is left of the row when the picture's column came out wider than main_w (a tab bar
// wider than the column at 1280 x 720), so that the curves never run off the view.
// When the columns are stacked, or less than kSideMinEm font sizes are left beside the
// picture, the curves go under it (a new row), the whole width.
ImVec2 training_side_size(const TrainingColumns& c);

// The view's only line before the module has a model: "No <what> yet: <message>".
void draw_no_model_yet(const Snapshot& snap, const char* what);

}  // namespace cilab
