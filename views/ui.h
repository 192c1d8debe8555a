// Small ImGui helpers shared by the module views.
#pragma once

#include <imgui.h>

namespace cilab {

// A wrapped tooltip (about 32 characters wide per em) for the last item, when it is hovered.
void tooltip_text(const char* text);

// An integer slider with fine control: "-" and "+" buttons step by one (hold to repeat), and
// above 50 values the slider is log-spaced (every small value reachable by dragging).
// Returns true when *v changed. plus_centre (optional) receives the "+" button's centre.
bool slider_int_stepped(const char* label, int* v, int lo, int hi, ImVec2* plus_centre = nullptr);

// Smallest plot area (pixels) a view lays out: below it a plot is unreadable (issue 9, A4).
constexpr float kMinPlotArea = 90.0f;
// Frame height of a plot whose plot area is at least kMinPlotArea: tick labels and an x-axis
// label below it (and a title line above it when `title`) at the current font size.
float min_plot_height(bool title = false);

// Puts the next item of width `width` on the current line if it fits, else on a new line:
// a row of read-outs wraps instead of running off a narrow window.
void same_line_if_fits(float width, float spacing = -1.0f);

}  // namespace cilab
