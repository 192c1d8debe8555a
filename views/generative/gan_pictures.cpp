// The gan view's pictures from a network copy (see gan_pictures.h).
#include "views/generative/gan_pictures.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cilab {

namespace {

double sigmoid(double l) { return 1.0 / (1.0 + std::exp(-l)); }
// log(1 + e^x) without overflow.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

}  // namespace

double gan_g_sample_loss(nn::GanLoss loss, double l) {
  switch (loss) {
    case nn::GanLoss::Minimax: return -softplus(l);  // log(1 - sigmoid(l)) = -softplus(l)
    case nn::GanLoss::NonSaturating: return softplus(-l);
    case nn::GanLoss::LeastSquares: return 0.5 * (l - 1) * (l - 1);
    case nn::GanLoss::WassersteinGP: return -l;
  }
  return 0;
}

double gan_g_sample_dloss(nn::GanLoss loss, double l) {
  switch (loss) {
    case nn::GanLoss::Minimax: return -sigmoid(l);
    case nn::GanLoss::NonSaturating: return sigmoid(l) - 1;
    case nn::GanLoss::LeastSquares: return l - 1;
    case nn::GanLoss::WassersteinGP: return -1;
  }
  return 0;
}

double gan_mesh_z(const GanPictures& pic, int k) {
  const int n = pic.mesh_n1;
  return n > 1 ? -pic.mesh_z + 2 * pic.mesh_z * k / (n - 1) : 0.0;
}

GanPictures compute_gan_pictures(const nn::GanNet<float>& net, int net_iteration, const GanBox& box,
                                 const GanRows& noise, const GanRows* pool,
                                 const GanPictureRequest& req) {
  GanPictures pic;
  pic.net_iteration = net_iteration;
  pic.loss = net.loss;
  pic.probability = nn::gan_loss_is_probabilistic(net.loss);
  pic.box = box;
  nn::Sequential<float> g = net.generator;
  nn::Sequential<float> d = net.discriminator;
  const int latent = g.in_features();
  const Eigen::Index rows =
      std::min<Eigen::Index>(noise.rows(), std::max(req.fake_count, req.image_count));
  if (noise.cols() != latent)
    throw std::invalid_argument("gan pictures: the noise has " + std::to_string(noise.cols()) +
                                " columns, the generator " + std::to_string(latent) + " inputs");
  if (req.image) {
    const int count = static_cast<int>(std::min<Eigen::Index>(rows, req.image_count));
    const nn::Mat<float> z = noise.topRows(count);
    const nn::Mat<float>& fake = g.forward(z, false);
    pic.fake_mosaic = tile_mosaic(fake, req.image_h, req.image_w, req.image_cols, 1, -1.0f);
    if (pool && pool->rows() > 0) {
      nn::Mat<float> real(count, pool->cols());
      for (int i = 0; i < count; ++i)
        real.row(i) = pool->row(static_cast<Eigen::Index>(i) * pool->rows() / count);
      pic.real_mosaic = tile_mosaic(real, req.image_h, req.image_w, req.image_cols, 1, -1.0f);
    }
    return pic;
  }
  if (g.out_features() != 2 || d.in_features() != 2) return pic;

  // The discriminator over the box's cell centres.
  const int res = std::max(2, req.res);
  pic.res = res;
  nn::Mat<float> grid(res * res, 2);
  for (int r = 0; r < res; ++r)
    for (int c = 0; c < res; ++c) {
      grid(r * res + c, 0) = static_cast<float>(box.x0 + (c + 0.5) / res * (box.x1 - box.x0));
      grid(r * res + c, 1) = static_cast<float>(box.y1 - (r + 0.5) / res * (box.y1 - box.y0));
    }
  const nn::Mat<float>& out = d.forward(grid, false);
  pic.heat.resize(static_cast<size_t>(res) * res);
  for (int i = 0; i < res * res; ++i)
    pic.heat[static_cast<size_t>(i)] = pic.probability ? sigmoid(out(i, 0)) : out(i, 0);
  std::vector<double> sorted = pic.heat;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2),
                   sorted.end());
  pic.heat_median = sorted[sorted.size() / 2];
  const auto mm = std::minmax_element(pic.heat.begin(), pic.heat.end());
  pic.heat_min = *mm.first;
  pic.heat_max = *mm.second;

  // The generator's image of the z grid.
  pic.mesh_sub = std::max(1, req.mesh_sub);
  pic.mesh_z = req.mesh_z;
  pic.mesh_n1 = (std::max(2, req.mesh_lines) - 1) * pic.mesh_sub + 1;
  pic.mesh_n2 = latent >= 2 ? pic.mesh_n1 : 1;
  nn::Mat<float> zg = nn::Mat<float>::Zero(pic.mesh_n1 * pic.mesh_n2, latent);
  for (int r = 0; r < pic.mesh_n2; ++r)
    for (int c = 0; c < pic.mesh_n1; ++c) {
      zg(r * pic.mesh_n1 + c, 0) = static_cast<float>(gan_mesh_z(pic, c));
      if (latent >= 2) zg(r * pic.mesh_n1 + c, 1) = static_cast<float>(-gan_mesh_z(pic, r));
    }
  const nn::Mat<float>& mesh = g.forward(zg, false);
  pic.mesh_x.resize(static_cast<size_t>(mesh.rows()));
  pic.mesh_y.resize(static_cast<size_t>(mesh.rows()));
  for (Eigen::Index i = 0; i < mesh.rows(); ++i) {
    pic.mesh_x[static_cast<size_t>(i)] = mesh(i, 0);
    pic.mesh_y[static_cast<size_t>(i)] = mesh(i, 1);
  }

  // Generated samples and the G step's direction on the first of them.
  const int n = static_cast<int>(std::min<Eigen::Index>(rows, req.fake_count));
  if (n <= 0) return pic;
  const nn::Mat<float> z = noise.topRows(n);
  const nn::Mat<float> fake = g.forward(z, false);
  pic.fake_x.resize(static_cast<size_t>(n));
  pic.fake_y.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    pic.fake_x[static_cast<size_t>(i)] = fake(i, 0);
    pic.fake_y[static_cast<size_t>(i)] = fake(i, 1);
  }
  const int na = std::min(n, std::max(0, req.arrow_count));
  if (na == 0) return pic;
  const nn::Mat<float> xa = fake.topRows(na);
  const nn::Mat<float>& l = d.forward(xa, false);
  nn::Mat<float> dy(na, 1), dx;
  for (int i = 0; i < na; ++i) dy(i, 0) = static_cast<float>(gan_g_sample_dloss(net.loss, l(i, 0)));
  d.backward_input(dy, dx);
  pic.arrow_dx.resize(static_cast<size_t>(na));
  pic.arrow_dy.resize(static_cast<size_t>(na));
  for (int i = 0; i < na; ++i) {
    pic.arrow_dx[static_cast<size_t>(i)] = -dx(i, 0);
    pic.arrow_dy[static_cast<size_t>(i)] = -dx(i, 1);
  }
  return pic;
}

}  // namespace cilab
