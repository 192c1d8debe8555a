// The autoencoder view's pictures (ImGui-free, computed from a network copy off
// the UI thread by the view's job, unit-tested): the codes and PCA's scores of the
// pictured rows, both reconstruction errors, the plane of toy data with the
// decoder's image of the latent grid, and a few image rows.
#pragma once

#include "algorithms/networks/autoencoder.h"

#include <cmath>
#include <string>
#include <vector>

namespace cilab {

// Rows in the scatters (at most).
constexpr int kAutoencoderPictureRows = 2000;

// What the view draws from one network copy (ImGui-free; computed off the UI thread).
struct AutoencoderPictures {
  int net_iteration = -1;
  bool on_test = true;              // the pictured rows are test rows (else training rows)
  int rows = 0;                     // pictured rows (at most kAutoencoderPictureRows)
  std::vector<int> labels;          // their classes (-1: none)
  // Codes: m = 1 (x, 0), m = 2 as is, m > 2 the first two principal axes of the codes.
  std::vector<float> code_x, code_y;
  bool code_projected = false;
  double code_axis_variance[2] = {0, 0};  // m > 2: share of the codes' variance on each axis
  // PCA's scores on its top two components (m = 1: (score, 0)).
  std::vector<float> pca_x, pca_y;
  // Mean 1/2 ||x - x_hat||^2 over the pictured rows: the network (noisy inputs when
  // noise > 0) and PCA's rank-m reconstruction (NaN without the reference).
  double ae_error = NAN, pca_error = NAN;
  // Linear: ||(V W - U_m U_m^T) C^(1/2)||_F / ||C^(1/2)||_F, the product error weighted by the
  // training covariance C (directions the data never visit do not count).
  double product_error_weighted = NAN;
  // Toy data (2 or 3 features): rows and reconstructions in the plane (d = 2: the
  // features; d = 3: the top two PCA axes), and the decoder's image of the
  // latent grid (m = 2) or line (m = 1) as polylines of the same plane.
  bool plane = false;
  std::string plane_x, plane_y;     // axis labels
  std::vector<float> data_x, data_y, rec_x, rec_y;
  std::vector<std::vector<float>> mesh_x, mesh_y;
  // Images: a few chosen rows, clean / corrupted input / reconstruction (d each, as trained on).
  int samples = 0;
  std::vector<float> clean, noisy, recon;
};

// Computes the pictures (the net copy is copied again: forward writes its buffers).
AutoencoderPictures compute_autoencoder_pictures(const AutoencoderSnapshot& s, int samples);

}  // namespace cilab
