// A matrix drawn as a picture: shared by the matrix views (svd-lowrank, shrinkage).
#pragma once

#include <Eigen/Core>
#include <imgui.h>

#include <vector>

namespace cilab {

// One titled matrix panel of `size` (title line included): a gray image (pictures,
// `image` true, equal aspect, no ticks) or a heatmap with labelled axes (data
// matrices: sample rows, feature columns), with its colour bar over [vmin, vmax].
// `values` is m x n row-major; signed panels pass a symmetric range [-L, L]
// (mid-gray / mid-colour = 0). `help` is the title's tooltip. The axes refit to
// the matrix whenever its shape changes (a new input).
void matrix_panel(const char* title, const char* help, const char* id, const float* values, int m, int n, bool image,
                  float vmin, float vmax, ImVec2 size);

// A column-major (Eigen) float matrix copied row-major into out (m * n entries).
void row_major(const Eigen::MatrixXf& m, std::vector<float>& out);

// max |v_i|, or 1 when every entry is 0 (a symmetric colour range that never collapses).
float max_abs(const std::vector<float>& v);

}  // namespace cilab
