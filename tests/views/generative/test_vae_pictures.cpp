// The vae view's pictures (ImGui-free): each picture against the network it
// came from (an independent copy run by hand), the prior's quantiles against
// Phi, the principal axes of the posterior means against their covariance,
// the fixed-seed prior samples, and the toy maps against the decoder/encoder.
#include "algorithms/core/rng.h"
#include "algorithms/data/datasets.h"
#include "algorithms/generative/vae.h"
#include "views/generative/vae_pictures.h"

#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <memory>
#include <set>

using namespace cilab;
using nn::Mat;

namespace {

// Small 8x8 "images" of three classes (a bright band at the top, middle or bottom) in [0, 1].
std::shared_ptr<const Dataset> tiny_images(int n) {
  Dataset d;
  d.x = Eigen::MatrixXd::Zero(n, 64);
  d.labels.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int c = i % 3;
    for (int p = 0; p < 64; ++p)
      d.x(i, p) = (p / 8 / 3 == c ? 0.85 : 0.1) + 0.03 * ((i * 7 + p) % 4);
    d.labels[static_cast<size_t>(i)] = c;
  }
  d.class_names = {"top", "middle", "bottom"};
  d.image_h = d.image_w = 8;
  d.name = "tiny-images";
  return std::make_shared<const Dataset>(d);
}

// A trained run's snapshot.
std::shared_ptr<const VaeSnapshot> trained(std::shared_ptr<const Dataset> data,
                                           std::initializer_list<const char*> sets, int steps) {
  Vae mod;
  ParamValues v = default_values(mod.params());
  for (const char* s : sets) apply_assignment(mod.params(), v, s, "vae");
  mod.reset(std::move(data), v, 3);
  for (int i = 0; i < steps; ++i) mod.step();
  mod.settle();
  return mod.vae_snapshot();
}

double max_abs_diff(const Mat<float>& a, const Mat<float>& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  return a.size() ? static_cast<double>((a - b).cwiseAbs().maxCoeff()) : 0.0;
}

}  // namespace

TEST_CASE("vae pictures: normal_quantile inverts Phi and is odd") {
  for (double p :
       {1e-12, 1e-6, 0.001, 0.02, 0.02425, 0.1, 0.3, 0.5, 0.77, 0.97575, 0.99, 1 - 1e-9}) {
    const double z = normal_quantile(p);
    const double phi = 0.5 * std::erfc(-z / std::sqrt(2.0));
    CHECK(phi == doctest::Approx(p).epsilon(1e-10));
    if (p >= 1e-3 && p <= 1 - 1e-3)
      CHECK(normal_quantile(1 - p) == doctest::Approx(-z).epsilon(1e-9));  // 1 - p exact enough
  }
  CHECK(normal_quantile(0.5) == doctest::Approx(0.0).epsilon(1e-15));
  CHECK(std::isinf(normal_quantile(0.0)));
  CHECK(std::isnan(normal_quantile(1.5)));
}

TEST_CASE("vae pictures: tile_mosaic puts each image at its tile with a background gap") {
  Mat<float> images(5, 6);  // 5 tiles of 2 x 3
  for (int t = 0; t < 5; ++t)
    for (int k = 0; k < 6; ++k) images(t, k) = static_cast<float>(t * 10 + k);
  const Mosaic m = tile_mosaic(images, 2, 3, 3, 1, -1.0f);
  CHECK(m.w == 3 * 3 + 2);
  CHECK(m.h == 2 * 2 + 1);
  for (int t = 0; t < 5; ++t)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x)
        CHECK(m.pixels[static_cast<size_t>((t / 3) * 3 + y) * m.w + (t % 3) * 4 + x] ==
              images(t, y * 3 + x));
  CHECK(m.pixels[3] == -1.0f);                                  // the gap after tile 0
  CHECK(m.pixels[static_cast<size_t>(2) * m.w] == -1.0f);       // the gap row
  CHECK(m.pixels[static_cast<size_t>(4) * m.w + 10] == -1.0f);  // the empty sixth tile
  CHECK(tile_mosaic(images, 4, 4, 3, 1, 0.0f).empty());         // wrong tile size
}

TEST_CASE("vae pictures: latent 2 on images - every picture equals the network run by hand") {
  const auto data = tiny_images(150);
  const auto s = trained(data, {"hidden=16", "batch=32", "test_fraction=0.4"}, 30);
  REQUIRE(s->net);
  const TrainData& td = *s->data;
  VaePictureRequest req;
  req.max_points = 40;
  req.grid = 5;
  req.recon_rows = vae_sample_rows(td, 3, 1);
  req.interp_a = 2;
  req.interp_b = 7;
  req.interp_steps = 6;
  req.prior_samples = 8;
  const VaePictures pic = compute_vae_pictures(*s->net, td, s->net_iteration, req);
  CHECK(pic.net_iteration == s->net_iteration);
  REQUIRE(pic.from_test);
  REQUIRE(pic.rows.size() == 40);
  CHECK(pic.mu.rows() == 40);
  CHECK(pic.mu.cols() == 2);
  CHECK_FALSE(pic.projected);

  nn::VaeNet<float> net = *s->net;  // an independent copy run by hand
  Mat<float> x(40, td.d), mu, sigma, out;
  for (int i = 0; i < 40; ++i) x.row(i) = td.x_test.row(pic.rows[static_cast<size_t>(i)]);
  net.encode(x, mu, sigma);
  CHECK(max_abs_diff(pic.mu, mu) < 1e-5);
  CHECK(max_abs_diff(pic.sigma, sigma) < 1e-5);
  CHECK(pic.px[7] == pic.mu(7, 0));  // latent 2: the plotted points are mu itself
  CHECK(pic.py[7] == pic.mu(7, 1));
  CHECK((pic.sigma.array() > 0).all());

  // The decoded grid: z at the N(0, 1) quantiles, decode_mean of exactly those z.
  REQUIRE(pic.grid == 5);
  REQUIRE(pic.grid_z.rows() == 25);
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c) {
      CHECK(pic.grid_z(r * 5 + c, 0) ==
            doctest::Approx(normal_quantile((c + 0.5) / 5)).epsilon(1e-6));
      CHECK(pic.grid_z(r * 5 + c, 1) ==
            doctest::Approx(normal_quantile((4 - r + 0.5) / 5)).epsilon(1e-6));  // top row: largest
    }
  net.decode_mean(pic.grid_z, out);
  CHECK(max_abs_diff(pic.grid_decoded, out) < 1e-5);
  CHECK(pic.grid_decoded.cols() == td.d);
  CHECK((pic.grid_decoded.array() >= 0).all());  // Bernoulli means
  CHECK((pic.grid_decoded.array() <= 1).all());
  CHECK(pic.manifold.w == 5 * 8);
  CHECK(pic.manifold.h == 5 * 8);
  CHECK(pic.manifold.pixels[static_cast<size_t>(8 + 2) * pic.manifold.w + 8 + 3] ==
        pic.grid_decoded(5 + 1, 2 * 8 + 3));

  // Reconstructions: decode_mean(mu(x)) of the chosen rows.
  REQUIRE(pic.recon_rows == req.recon_rows);
  Mat<float> xr(3, td.d);
  for (int i = 0; i < 3; ++i) xr.row(i) = td.x_test.row(req.recon_rows[static_cast<size_t>(i)]);
  net.encode(xr, mu, sigma);
  net.decode_mean(mu, out);
  CHECK(max_abs_diff(pic.recon, out) < 1e-5);
  CHECK(max_abs_diff(pic.recon_x, xr) == 0.0);

  // Interpolation: linear in mu, decoded; the ends are mu(a) and mu(b).
  Mat<float> ends(2, td.d);
  ends.row(0) = td.x_test.row(2);
  ends.row(1) = td.x_test.row(7);
  net.encode(ends, mu, sigma);
  REQUIRE(pic.interp_z.rows() == 6);
  CHECK(max_abs_diff(pic.interp_z.topRows(1), mu.topRows(1)) < 1e-5);
  CHECK(max_abs_diff(pic.interp_z.bottomRows(1), mu.bottomRows(1)) < 1e-5);
  for (int k = 0; k < 2; ++k)  // equal steps
    CHECK(pic.interp_z(3, k) - pic.interp_z(2, k) ==
          doctest::Approx(pic.interp_z(1, k) - pic.interp_z(0, k)).epsilon(1e-4));
  net.decode_mean(pic.interp_z, out);
  CHECK(max_abs_diff(pic.interp_decoded, out) < 1e-5);

  // Prior samples: the seeded normal draws, decoded; the same at every refresh.
  Rng rng(req.prior_seed);
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 2; ++k) CHECK(pic.prior_z(i, k) == static_cast<float>(rng.normal()));
  const VaePictures again = compute_vae_pictures(*s->net, td, s->net_iteration, req);
  CHECK(max_abs_diff(again.prior_z, pic.prior_z) == 0.0);
  CHECK(max_abs_diff(again.prior_decoded, pic.prior_decoded) == 0.0);
  net.decode_mean(pic.prior_z, out);
  CHECK(max_abs_diff(pic.prior_decoded, out) < 1e-5);

  // Posterior covariance of a point, unprojected: diag(sigma^2).
  double a, b, c;
  vae_point_covariance(pic, 4, &a, &b, &c);
  CHECK(a == doctest::Approx(pic.sigma(4, 0) * pic.sigma(4, 0)));
  CHECK(b == 0.0);
  CHECK(c == doctest::Approx(pic.sigma(4, 1) * pic.sigma(4, 1)));
  CHECK(pic.decoder_mesh.empty());  // image data: no toy maps
}

TEST_CASE(
    "vae pictures: latent > 2 - principal axes of the means, the grid along two chosen axes") {
  const auto data = tiny_images(150);
  const auto s = trained(data, {"hidden=16", "batch=32", "latent=5", "test_fraction=0.5"}, 30);
  const TrainData& td = *s->data;
  VaePictureRequest req;
  req.max_points = 60;
  req.grid = 4;
  req.axis_i = 1;
  req.axis_j = 3;
  const VaePictures pic = compute_vae_pictures(*s->net, td, s->net_iteration, req);
  REQUIRE(pic.projected);
  REQUIRE(pic.axes.rows() == 5);
  REQUIRE(pic.axes.cols() == 2);
  // Orthonormal axes ...
  const Eigen::Matrix2d gram = pic.axes.transpose() * pic.axes;
  CHECK((gram - Eigen::Matrix2d::Identity()).cwiseAbs().maxCoeff() < 1e-10);
  // ... the top two eigenvectors of the means' covariance.
  const Eigen::MatrixXd m = pic.mu.cast<double>();
  const Eigen::MatrixXd centred = m.rowwise() - m.colwise().mean();
  const Eigen::MatrixXd cov = centred.transpose() * centred / static_cast<double>(m.rows() - 1);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  for (int k = 0; k < 2; ++k) {
    CHECK(pic.axes_variance(k) == doctest::Approx(es.eigenvalues()(4 - k)).epsilon(1e-6));
    CHECK((cov * pic.axes.col(k) - pic.axes_variance(k) * pic.axes.col(k)).norm() <
          1e-6 * (1 + pic.axes_variance(k)));
  }
  // The plotted points are the scores (mu - mean) A, whose variances are the eigenvalues.
  Eigen::VectorXd sx(60);
  for (int i = 0; i < 60; ++i) {
    CHECK(pic.px[static_cast<size_t>(i)] ==
          doctest::Approx((centred.row(i) * pic.axes.col(0))(0)).epsilon(1e-4));
    sx(i) = pic.px[static_cast<size_t>(i)];
  }
  CHECK((sx.array() - sx.mean()).square().sum() / 59.0 ==
        doctest::Approx(pic.axes_variance(0)).epsilon(1e-4));
  // A projected posterior: A^T diag(sigma^2) A.
  double a, b, c;
  vae_point_covariance(pic, 9, &a, &b, &c);
  const Eigen::VectorXd s2 = pic.sigma.row(9).cast<double>().array().square();
  const Eigen::Matrix2d want = pic.axes.transpose() * s2.asDiagonal() * pic.axes;
  CHECK(a == doctest::Approx(want(0, 0)));
  CHECK(b == doctest::Approx(want(0, 1)));
  CHECK(c == doctest::Approx(want(1, 1)));
  // The grid varies axes 1 and 3 only; the others are held at 0.
  REQUIRE(pic.grid_z.rows() == 16);
  CHECK(pic.grid_z.col(0).isZero());
  CHECK(pic.grid_z.col(2).isZero());
  CHECK(pic.grid_z.col(4).isZero());
  CHECK(pic.grid_z(0 * 4 + 2, 1) == doctest::Approx(normal_quantile(2.5 / 4)).epsilon(1e-6));
  CHECK(pic.grid_z(3 * 4 + 0, 3) == doctest::Approx(normal_quantile(0.5 / 4)).epsilon(1e-6));
  nn::VaeNet<float> net = *s->net;
  Mat<float> out;
  net.decode_mean(pic.grid_z, out);
  CHECK(max_abs_diff(pic.grid_decoded, out) < 1e-5);

  // axis -1: the two axes along which mu varies most (over the test rows, encoded by hand here).
  VaePictureRequest act;
  act.latent_space = false;
  act.axis_i = act.axis_j = -1;
  const VaePictures pa = compute_vae_pictures(*s->net, td, s->net_iteration, act);
  REQUIRE(pa.auto_axes);
  Mat<float> mu, sigma;
  net.encode(td.x_test, mu, sigma);
  const Eigen::MatrixXd md = mu.cast<double>();
  const Eigen::RowVectorXd var =
      (md.rowwise() - md.colwise().mean()).array().square().colwise().sum() / (md.rows() - 1.0);
  REQUIRE(pa.axis_variance.size() == 5);
  for (int k = 0; k < 5; ++k)
    CHECK(pa.axis_variance[static_cast<size_t>(k)] == doctest::Approx(var(k)).epsilon(1e-4));
  Eigen::Index top = 0;
  var.maxCoeff(&top);
  CHECK(pa.axis_i == top);
  for (int k = 0; k < 5; ++k)
    if (k != pa.axis_i) CHECK(var(k) <= var(pa.axis_j) + 1e-12);
  CHECK(pa.grid_z.col(pa.axis_i).cwiseAbs().maxCoeff() > 0);
}

TEST_CASE(
    "vae pictures: 2-D toy data - the maps are the decoder's and the encoder's images of regular "
    "grids") {
  const auto s = trained(make_dataset("moons:n=200"), {"hidden=16", "batch=32"}, 40);
  const TrainData& td = *s->data;
  REQUIRE(td.standardized);
  VaePictureRequest req;
  req.mesh_lines = 5;
  req.mesh_samples = 7;
  req.toy_prior_samples = 30;
  const VaePictures pic = compute_vae_pictures(*s->net, td, s->net_iteration, req);
  CHECK(pic.manifold.empty());  // not images
  // 2 directions x 5 lines x 6 segments, 4 values each.
  REQUIRE(pic.decoder_mesh.size() == static_cast<size_t>(2 * 5 * 6 * 4));
  REQUIRE(pic.encoder_mesh.size() == static_cast<size_t>(2 * 5 * 6 * 4));
  nn::VaeNet<float> net = *s->net;
  // The first segment starts at the decoder's mean of z = (-3, -3), in the dataset's units.
  Mat<float> z(1, 2), out, mu, sigma;
  z << -3.0f, -3.0f;
  net.decode_mean(z, out);
  double xy[2];
  td.unstandardise(out.row(0).data(), xy);
  CHECK(pic.decoder_mesh[0] == doctest::Approx(xy[0]).epsilon(1e-5));
  CHECK(pic.decoder_mesh[1] == doctest::Approx(xy[1]).epsilon(1e-5));
  // The encoder mesh's first point: mu of the grid's corner (x_min, y_min), standardised as
  // trained.
  Mat<float> x(1, 2);
  x(0, 0) = static_cast<float>((pic.x_min - td.mean(0)) / td.scale(0));
  x(0, 1) = static_cast<float>((pic.y_min - td.mean(1)) / td.scale(1));
  net.encode(x, mu, sigma);
  CHECK(pic.encoder_mesh[0] == doctest::Approx(mu(0, 0)).epsilon(1e-4));
  CHECK(pic.encoder_mesh[1] == doctest::Approx(mu(0, 1)).epsilon(1e-4));
  // The x grid covers every row.
  for (int i = 0; i < td.n_train(); ++i) {
    td.unstandardise(td.x_train.row(i).data(), xy);
    CHECK((xy[0] > pic.x_min && xy[0] < pic.x_max && xy[1] > pic.y_min && xy[1] < pic.y_max));
  }
  CHECK(pic.prior_x.size() == 30);
  // Consecutive segments of one line join.
  CHECK(pic.decoder_mesh[2] == pic.decoder_mesh[4]);
  CHECK(pic.decoder_mesh[3] == pic.decoder_mesh[5]);
}

TEST_CASE("vae pictures: sample rows - one per class in class order, offset picks the next one") {
  const auto data = tiny_images(90);
  const auto s = trained(data, {"hidden=8", "batch=16", "test_fraction=0.5"}, 1);
  const TrainData& td = *s->data;
  const std::vector<int> r0 = vae_sample_rows(td, 3, 0), r1 = vae_sample_rows(td, 3, 1);
  REQUIRE(r0.size() == 3);
  REQUIRE(r1.size() == 3);
  for (int c = 0; c < 3; ++c) {
    CHECK(td.y_test[static_cast<size_t>(r0[static_cast<size_t>(c)])] == c);
    CHECK(td.y_test[static_cast<size_t>(r1[static_cast<size_t>(c)])] == c);
    CHECK(r1[static_cast<size_t>(c)] > r0[static_cast<size_t>(c)]);
  }
  // More rows than classes: the rest are distinct rows.
  const std::vector<int> r5 = vae_sample_rows(td, 5, 0);
  CHECK(r5.size() == 5);
  CHECK(std::set<int>(r5.begin(), r5.end()).size() == 5);
}
