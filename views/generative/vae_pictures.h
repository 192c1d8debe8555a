// What the vae view draws from a network copy, computed off the UI thread (a
// BackgroundJob) a few times a second: ImGui-free, unit-tested.
//
// From a private copy of VaeSnapshot::net (eval mode; its forward passes write
// buffers) and the run's TrainData:
//   - the latent space: posterior means mu(x) and standard deviations sigma(x)
//     of up to max_points test rows (training rows when there is no test set);
//     latent > 2: their principal-axes projection (algorithms/linalg/projection.h);
//   - the decoded manifold: decode_mean(z) over a grid x grid lattice of z at the
//     N(0, 1) quantiles Phi^-1((k + 1/2) / grid) along latent axes i and j, the
//     other axes held at 0 (Kingma & Welling 2014, figure 4);
//   - reconstructions decode_mean(mu(x)) of chosen test rows, samples
//     decode_mean(z), z ~ N(0, I) from a fixed seed, and the interpolation
//     decode_mean((1 - t) mu(a) + t mu(b)), t = 0 .. 1;
//   - toy 2-D data (d == 2, not images): the decoder's image of a regular z grid
//     and the encoder's image (mu) of a regular x grid, as line segments, and
//     decoded prior samples, all in the dataset's units (TrainData::unstandardise).
// Images are tiled into mosaics (one grey image each) ready to draw.
#pragma once

#include "algorithms/nn/elbo.h"
#include "algorithms/nn/train_data.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace cilab {

// Standard normal quantile Phi^-1(p), p in (0, 1) (Acklam's rational
// approximation refined by one Halley step: |error| ~ 1e-15).
double normal_quantile(double p);

// A grey image of tiles (row-major, row 0 at the top).
struct Mosaic {
  int h = 0, w = 0;
  std::vector<float> pixels;
  bool empty() const { return pixels.empty(); }
};

// Tiles `count` images (rows of `images`, each tile_h x tile_w row-major) into
// a mosaic of `cols` tiles per row with a `gap`-pixel border of `background`.
Mosaic tile_mosaic(const nn::Mat<float>& images, int tile_h, int tile_w, int cols, int gap,
                   float background);

// What the view asks for (its controls and the tab shown).
struct VaePictureRequest {
  bool latent_space = true;  // encode the scatter's rows
  bool images = true;        // manifold, reconstructions, samples, interpolation (image data)
  bool maps = true;          // toy 2-D maps (d == 2, not images)
  int max_points = 2000;     // rows of the latent scatter
  int grid = 12;             // decoded manifold: grid x grid
  // Latent axes of the manifold grid (clamped to the latent size); -1: the two axes whose
  // posterior means vary most over up to kActiveRows rows (the "active" ones; the rest collapse
  // onto the prior).
  int axis_i = 0, axis_j = 1;
  std::vector<int> recon_rows;  // test rows (indices into x_test, or x_train without a test set)
  int interp_a = 0, interp_b = 1;
  int interp_steps = 10;  // decoded points from mu(a) to mu(b), both included
  int prior_samples = 36;
  uint64_t prior_seed = 0x5eedULL;
  int mesh_lines = 21;    // toy maps: lines per direction
  int mesh_samples = 48;  // points per line
  double mesh_z = 3.0;    // toy maps: the z grid spans [-mesh_z, mesh_z]^2
  int toy_prior_samples = 400;
};

struct VaePictures {
  int net_iteration = -1;
  int latent = 0, d = 0;
  int image_h = 0, image_w = 0;
  bool from_test = true;  // the rows below index x_test (else x_train)

  // Latent space: rows (indices into the set above), mu and sigma (n x latent).
  std::vector<int> rows;
  nn::Mat<float> mu, sigma;
  // latent > 2: the principal axes of mu (latent x 2, orthonormal), their mean and variances.
  bool projected = false;
  Eigen::MatrixXd axes;
  Eigen::RowVectorXd axes_mean;
  Eigen::Vector2d axes_variance = Eigen::Vector2d::Zero();
  double total_variance = 0;
  std::vector<float> px, py;  // the plotted 2-D positions (mu itself for latent <= 2)

  // Decoded manifold (image data): grid^2 z rows (grid row-major, row 0 at the top: largest z_j).
  int grid = 0, axis_i = 0, axis_j = 1;
  bool auto_axes = false;               // axis_i, axis_j were chosen as the most active axes
  std::vector<double> axis_variance;    // auto_axes: variance of mu along each latent axis
  std::vector<double> grid_values;      // the quantiles along each axis, increasing
  nn::Mat<float> grid_z, grid_decoded;  // grid^2 x latent, grid^2 x d
  Mosaic manifold;

  // Reconstructions: originals (data units) and decode_mean(mu).
  std::vector<int> recon_rows;
  nn::Mat<float> recon_x, recon;
  int recon_cols = 5;  // recon_mosaic: blocks of recon_cols originals above their reconstructions
  Mosaic recon_mosaic;
  // Prior samples z ~ N(0, I) (fixed seed) and their decoded means.
  nn::Mat<float> prior_z, prior_decoded;
  int prior_cols = 6;
  Mosaic prior_mosaic;
  // Interpolation from row a to row b (originals at both ends of the mosaic).
  int interp_a = -1, interp_b = -1;
  nn::Mat<float> interp_z, interp_decoded;
  Mosaic interp_mosaic;

  // Toy 2-D maps (dataset units): segments (x0, y0, x1, y1) per entry.
  std::vector<double> decoder_mesh;  // decoder means of the regular z grid (data plane)
  std::vector<double>
      encoder_mesh;  // mu of a regular x grid (latent plane; projected when latent > 2)
  std::vector<double> prior_x, prior_y;               // decoder means of z ~ N(0, I) (data plane)
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;  // the x grid's bounds (data units)
};

// Rows whose posterior means choose the most active axes (VaePictureRequest::axis_i = -1).
constexpr int kActiveRows = 500;

// Rows to reconstruct: `count` test rows, one per class in class order (the
// `offset`-th row of each class) when there are labels, else count
// consecutive rows from offset * count. Indices into x_test (x_train without a test set).
std::vector<int> vae_sample_rows(const TrainData& data, int count, int offset);

// The 2 x 2 covariance of a projected posterior: A^T diag(sigma_i^2) A for
// point i (A = axes; diag(sigma^2) of its two axes when not projected).
void vae_point_covariance(const VaePictures& pic, int point, double* a, double* b, double* c);

// Computes the pictures of `req` from a copy of `net` over `data`.
VaePictures compute_vae_pictures(const nn::VaeNet<float>& net, const TrainData& data,
                                 int net_iteration, const VaePictureRequest& req);

}  // namespace cilab
