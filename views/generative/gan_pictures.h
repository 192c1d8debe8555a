// What the gan view draws from a network copy, computed off the UI thread (a
// BackgroundJob) a few times a second: ImGui-free, unit-tested.
//
// From private copies of GanSnapshot::net's two networks (eval mode; their
// forward passes write buffers), all in network units:
//   - 2-D targets: the discriminator over a res x res grid of cell centres of
//     the target's box (D = sigmoid(l) for minimax/nonsaturating, the raw
//     output l for least_squares and wgan_gp), row 0 at the top;
//   - the generator's image of a regular z grid: mesh_lines lines per
//     direction over [-mesh_z, mesh_z]^2 in (z1, z2) (latent > 2: the other
//     coordinates 0; latent 1: one line), each line sampled mesh_sub times
//     per grid cell so that the warp is drawn smooth;
//   - generated samples G(z) of the first fake_count fixed noise rows, and on
//     the first arrow_count of them the direction the G step moves each
//     sample: -d l_G(x) / dx with l_G the per-sample generator loss of the
//     discriminator's output (gan_g_sample_loss), through D's input gradient;
//   - image targets: an 8 x 8 mosaic of G of the fixed noise and one of real rows.
#pragma once

#include "algorithms/generative/gan_targets.h"
#include "algorithms/nn/adversarial.h"
#include "views/generative/vae_pictures.h"

#include <memory>
#include <vector>

namespace cilab {

// The generator's loss of one generated sample whose discriminator output is l
// (the batch losses of adversarial.h are means of it):
//   minimax log(1 - sigmoid(l)), nonsaturating -log sigmoid(l),
//   least_squares 1/2 (l - 1)^2, wgan_gp -l.
double gan_g_sample_loss(nn::GanLoss loss, double l);
// Its derivative d loss / d l.
double gan_g_sample_dloss(nn::GanLoss loss, double l);

// What the view asks for.
struct GanPictureRequest {
  bool image = false;  // an image target: the mosaics only
  int image_h = 0, image_w = 0;
  int res = 48;           // heatmap cells per axis
  int mesh_lines = 21;    // z grid lines per direction
  int mesh_sub = 2;       // points per grid cell along each line
  double mesh_z = 3.0;    // the z grid spans [-mesh_z, mesh_z]^2
  int fake_count = 600;   // generated samples drawn (rows of the fixed noise)
  int arrow_count = 120;  // of which carry an arrow
  int image_count = 64;   // image targets: tiles per mosaic
  int image_cols = 8;
};

struct GanPictures {
  int net_iteration = -1;
  nn::GanLoss loss = nn::GanLoss::NonSaturating;
  bool probability = true;  // heat holds D = sigmoid(l) (else the raw output l)
  GanBox box;
  // The discriminator over the box: res x res, row-major, row 0 at the top (y1).
  int res = 0;
  std::vector<double> heat;
  double heat_min = 0, heat_max = 0, heat_median = 0;
  // The generator's image of the z grid: mesh_n2 rows of mesh_n1 points
  // (z2 = mesh_z at row 0 down to -mesh_z; latent 1: one row), point (r, c) at
  // index r * mesh_n1 + c; the grid's nodes are every mesh_sub-th point.
  int mesh_n1 = 0, mesh_n2 = 0, mesh_sub = 1;
  double mesh_z = 3;
  std::vector<double> mesh_x, mesh_y;
  // Generated samples G(z) of the fixed noise.
  std::vector<double> fake_x, fake_y;
  // -d l_G / dx on the first arrow_count generated samples.
  std::vector<double> arrow_dx, arrow_dy;
  // Image targets: G of the fixed noise and real rows, tiled (pixels in [-1, 1]).
  Mosaic fake_mosaic, real_mosaic;
};

// The z coordinate of mesh point k (0 .. n - 1) along an axis of the grid: -mesh_z .. mesh_z.
double gan_mesh_z(const GanPictures& pic, int k);

// Computes the pictures of `req` from a copy of `net`. `box`: the plane (2-D);
// `noise`: the fixed noise rows (kEvalSamples x latent); `pool`: the real rows (images).
GanPictures compute_gan_pictures(const nn::GanNet<float>& net, int net_iteration, const GanBox& box,
                                 const GanRows& noise, const GanRows* pool,
                                 const GanPictureRequest& req);

}  // namespace cilab
