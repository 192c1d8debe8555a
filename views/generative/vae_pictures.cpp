#include "views/generative/vae_pictures.h"

#include "algorithms/core/rng.h"
#include "algorithms/linalg/projection.h"

#include <algorithm>
#include <cmath>

namespace cilab {

using nn::Mat;

constexpr double kPi = 3.14159265358979323846;
// Acklam's coefficients (central region A/B, tails C/D).
constexpr double kAcklamA[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                -2.759285104469687e+02, 1.383577518672690e+02,
                                -3.066479806614716e+01, 2.506628277459239e+00};
constexpr double kAcklamB[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                -1.556989798598866e+02, 6.680131188771972e+01,
                                -1.328068155288572e+01};
constexpr double kAcklamC[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                -2.400758277161838e+00, -2.549732539343734e+00,
                                4.374664141464968e+00,  2.938163982698783e+00};
constexpr double kAcklamD[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                3.754408661907416e+00};

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) return p == 0.0 ? -INFINITY : p == 1.0 ? INFINITY : NAN;
  constexpr double kLow = 0.02425;
  double x;
  if (p < kLow || p > 1.0 - kLow) {
    const double q = std::sqrt(-2.0 * std::log(p < kLow ? p : 1.0 - p));
    x = (((((kAcklamC[0] * q + kAcklamC[1]) * q + kAcklamC[2]) * q + kAcklamC[3]) * q +
          kAcklamC[4]) *
             q +
         kAcklamC[5]) /
        ((((kAcklamD[0] * q + kAcklamD[1]) * q + kAcklamD[2]) * q + kAcklamD[3]) * q + 1.0);
    if (p > kLow) x = -x;
  } else {
    const double q = p - 0.5, r = q * q;
    x = (((((kAcklamA[0] * r + kAcklamA[1]) * r + kAcklamA[2]) * r + kAcklamA[3]) * r +
          kAcklamA[4]) *
             r +
         kAcklamA[5]) *
        q /
        (((((kAcklamB[0] * r + kAcklamB[1]) * r + kAcklamB[2]) * r + kAcklamB[3]) * r +
          kAcklamB[4]) *
             r +
         1.0);
  }
  // One Halley step on Phi(x) - p.
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2.0 * kPi) * std::exp(x * x / 2.0);
  return x - u / (1.0 + x * u / 2.0);
}

Mosaic tile_mosaic(const Mat<float>& images, int tile_h, int tile_w, int cols, int gap,
                   float background) {
  Mosaic m;
  const int count = static_cast<int>(images.rows());
  if (count == 0 || tile_h <= 0 || tile_w <= 0 ||
      images.cols() != static_cast<Eigen::Index>(tile_h) * tile_w)
    return m;
  cols = std::max(1, std::min(cols, count));
  const int rows = (count + cols - 1) / cols;
  m.w = cols * (tile_w + gap) - gap;
  m.h = rows * (tile_h + gap) - gap;
  m.pixels.assign(static_cast<size_t>(m.w) * m.h, background);
  for (int t = 0; t < count; ++t) {
    const int r0 = (t / cols) * (tile_h + gap), c0 = (t % cols) * (tile_w + gap);
    for (int y = 0; y < tile_h; ++y)
      for (int x = 0; x < tile_w; ++x)
        m.pixels[static_cast<size_t>(r0 + y) * m.w + c0 + x] = images(t, y * tile_w + x);
  }
  return m;
}

std::vector<int> vae_sample_rows(const TrainData& data, int count, int offset) {
  const bool test = data.n_test() > 0;
  const std::vector<int>& y = test ? data.y_test : data.y_train;
  const int n = test ? data.n_test() : data.n_train();
  std::vector<int> out;
  if (n == 0 || count <= 0) return out;
  offset = std::max(0, offset);
  const int k = data.num_classes();
  if (k > 0) {
    // The offset-th row of each class (wrapping within the class), classes in order.
    for (int c = 0; c < k && static_cast<int>(out.size()) < count; ++c) {
      std::vector<int> of_c;
      for (int i = 0; i < n; ++i)
        if (y[static_cast<size_t>(i)] == c) of_c.push_back(i);
      if (!of_c.empty()) out.push_back(of_c[static_cast<size_t>(offset) % of_c.size()]);
    }
  }
  // Unlabelled data (or fewer classes than count): consecutive rows.
  for (int i = 0; static_cast<int>(out.size()) < std::min(count, n) && i < n; ++i) {
    const int r = (offset * count + i) % n;
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  return out;
}

void vae_point_covariance(const VaePictures& pic, int point, double* a, double* b, double* c) {
  *a = *b = *c = 0;
  if (point < 0 || point >= pic.sigma.rows()) return;
  if (!pic.projected) {
    const double s0 = pic.sigma(point, 0), s1 = pic.latent > 1 ? pic.sigma(point, 1) : 0.0;
    *a = s0 * s0;
    *c = s1 * s1;
    return;
  }
  for (int k = 0; k < pic.latent; ++k) {
    const double v = static_cast<double>(pic.sigma(point, k)) * pic.sigma(point, k);
    const double u0 = pic.axes(k, 0), u1 = pic.axes(k, 1);
    *a += v * u0 * u0;
    *b += v * u0 * u1;
    *c += v * u1 * u1;
  }
}

namespace {

// Rows `idx` of x.
Mat<float> gather_rows(const Mat<float>& x, const std::vector<int>& idx) {
  Mat<float> out(static_cast<Eigen::Index>(idx.size()), x.cols());
  for (size_t i = 0; i < idx.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = x.row(idx[i]);
  return out;
}

// Rows as trained on -> dataset units, in place.
void to_data_units(const TrainData& data, Mat<float>& rows) {
  if (!data.standardized) return;
  std::vector<double> tmp(static_cast<size_t>(data.d));
  for (Eigen::Index i = 0; i < rows.rows(); ++i) {
    data.unstandardise(rows.row(i).data(), tmp.data());
    for (int j = 0; j < data.d; ++j) rows(i, j) = static_cast<float>(tmp[static_cast<size_t>(j)]);
  }
}

// 2-D position of a latent row: itself (latent <= 2) or its principal-axes scores.
void latent_xy(const VaePictures& pic, const float* z, double* x, double* y) {
  if (!pic.projected) {
    *x = z[0];
    *y = pic.latent > 1 ? z[1] : 0.0;
    return;
  }
  *x = *y = 0;
  for (int k = 0; k < pic.latent; ++k) {
    const double v = z[k] - pic.axes_mean(k);
    *x += v * pic.axes(k, 0);
    *y += v * pic.axes(k, 1);
  }
}

// Segments joining consecutive points of each polyline (lines x samples points, xy interleaved).
void append_polylines(const std::vector<double>& xy, int lines, int samples,
                      std::vector<double>& out) {
  for (int l = 0; l < lines; ++l)
    for (int s = 0; s + 1 < samples; ++s) {
      const size_t p = (static_cast<size_t>(l) * samples + s) * 2;
      if (!std::isfinite(xy[p]) || !std::isfinite(xy[p + 1]) || !std::isfinite(xy[p + 2]) ||
          !std::isfinite(xy[p + 3]))
        continue;
      out.insert(out.end(), {xy[p], xy[p + 1], xy[p + 2], xy[p + 3]});
    }
}

// A regular mesh of `lines` lines per direction through [lo0, hi0] x [lo1, hi1],
// `samples` points per line: rows of 2 values (horizontal lines first).
std::vector<double> mesh_points(double lo0, double hi0, double lo1, double hi1, int lines,
                                int samples) {
  std::vector<double> pts;
  pts.reserve(static_cast<size_t>(lines) * samples * 4);
  for (int dir = 0; dir < 2; ++dir)
    for (int l = 0; l < lines; ++l)
      for (int s = 0; s < samples; ++s) {
        const double a = static_cast<double>(l) / std::max(1, lines - 1),
                     t = static_cast<double>(s) / std::max(1, samples - 1);
        const double u = dir == 0 ? t : a, v = dir == 0 ? a : t;
        pts.push_back(lo0 + (hi0 - lo0) * u);
        pts.push_back(lo1 + (hi1 - lo1) * v);
      }
  return pts;
}

}  // namespace

VaePictures compute_vae_pictures(const nn::VaeNet<float>& net_in, const TrainData& data,
                                 int net_iteration, const VaePictureRequest& req) {
  VaePictures pic;
  pic.net_iteration = net_iteration;
  pic.latent = net_in.latent;
  pic.d = data.d;
  pic.image_h = data.image_h;
  pic.image_w = data.image_w;
  pic.from_test = data.n_test() > 0;
  const Mat<float>& x = pic.from_test ? data.x_test : data.x_train;
  const int n = static_cast<int>(x.rows());
  const int latent = pic.latent;
  if (latent <= 0 || n == 0) return pic;
  nn::VaeNet<float> net = net_in;  // a private copy: forward passes write its buffers
  Mat<float> mu, sigma, out;

  // The latent space: evenly spaced rows (every class mixed in), their mu and sigma.
  const int count = std::clamp(req.max_points, 1, n);
  if (req.latent_space || req.maps) {
    pic.rows.resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i)
      pic.rows[static_cast<size_t>(i)] = static_cast<int>(static_cast<int64_t>(i) * n / count);
    net.encode(gather_rows(x, pic.rows), pic.mu, pic.sigma);
    pic.projected = latent > 2;
    if (pic.projected) {
      const Projection2d p = principal_axes_2d(pic.mu.cast<double>(), count);
      pic.axes = p.axes;
      pic.axes_mean = p.mean;
      pic.axes_variance = p.variance;
      pic.total_variance = p.total_variance;
    }
    pic.px.resize(static_cast<size_t>(count));
    pic.py.resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      double a, b;
      latent_xy(pic, pic.mu.row(i).data(), &a, &b);
      pic.px[static_cast<size_t>(i)] = static_cast<float>(a);
      pic.py[static_cast<size_t>(i)] = static_cast<float>(b);
    }
  }

  const bool images = data.is_image();
  const bool toy = data.d == 2 && !images;
  // The latent axes of the decoded grid (images) or the decoder's z mesh (toy data).
  if ((req.images && images) || (req.maps && toy)) {
    if (req.axis_i < 0 && latent > 1) {
      // The most active axes: the largest variance of mu over the first kActiveRows rows (or the
      // scatter's).
      Mat<float> m = pic.mu;
      if (m.rows() == 0) {
        std::vector<int> rows(static_cast<size_t>(std::min(n, kActiveRows)));
        for (size_t i = 0; i < rows.size(); ++i)
          rows[i] = static_cast<int>(i * static_cast<size_t>(n) / rows.size());
        net.encode(gather_rows(x, rows), m, sigma);
      }
      const Eigen::MatrixXd md = m.cast<double>();
      const Eigen::RowVectorXd mean = md.colwise().mean();
      pic.axis_variance.resize(static_cast<size_t>(latent));
      for (int k = 0; k < latent; ++k)
        pic.axis_variance[static_cast<size_t>(k)] =
            (md.col(k).array() - mean(k)).square().sum() / std::max<Eigen::Index>(1, md.rows() - 1);
      std::vector<int> order(static_cast<size_t>(latent));
      for (int k = 0; k < latent; ++k) order[static_cast<size_t>(k)] = k;
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return pic.axis_variance[static_cast<size_t>(a)] >
               pic.axis_variance[static_cast<size_t>(b)];
      });
      pic.axis_i = order[0];
      pic.axis_j = order[1];
      pic.auto_axes = true;
    } else {
      pic.axis_i = std::clamp(req.axis_i, 0, latent - 1);
      pic.axis_j = latent > 1 ? std::clamp(req.axis_j, 0, latent - 1) : pic.axis_i;
      if (pic.axis_j == pic.axis_i && latent > 1) pic.axis_j = (pic.axis_i + 1) % latent;
    }
  }

  if (req.images && images) {
    const int h = data.image_h, w = data.image_w;
    const float bg = data.min_value;
    // The decoded manifold over the prior's quantiles along axes i and j.
    pic.grid = std::max(2, req.grid);
    const int g = pic.grid;
    pic.grid_values.resize(static_cast<size_t>(g));
    for (int k = 0; k < g; ++k)
      pic.grid_values[static_cast<size_t>(k)] = normal_quantile((k + 0.5) / g);
    pic.grid_z = Mat<float>::Zero(g * g, latent);
    for (int r = 0; r < g; ++r)
      for (int c = 0; c < g; ++c) {
        pic.grid_z(r * g + c, pic.axis_i) =
            static_cast<float>(pic.grid_values[static_cast<size_t>(c)]);
        if (pic.axis_j != pic.axis_i)
          pic.grid_z(r * g + c, pic.axis_j) =
              static_cast<float>(pic.grid_values[static_cast<size_t>(g - 1 - r)]);
      }
    net.decode_mean(pic.grid_z, pic.grid_decoded);
    pic.manifold = tile_mosaic(pic.grid_decoded, h, w, g, 0, bg);

    // Reconstructions decode_mean(mu(x)) under the originals.
    pic.recon_rows.clear();
    for (int r : req.recon_rows)
      if (r >= 0 && r < n) pic.recon_rows.push_back(r);
    if (!pic.recon_rows.empty()) {
      pic.recon_x = gather_rows(x, pic.recon_rows);
      net.encode(pic.recon_x, mu, sigma);
      net.decode_mean(mu, pic.recon);
      // Blocks of recon_cols originals with their reconstructions on the row below.
      const int nr = static_cast<int>(pic.recon_x.rows()), cols = std::min(pic.recon_cols, nr);
      const int blocks = (nr + cols - 1) / cols;
      Mat<float> both = Mat<float>::Constant(2 * blocks * cols, pic.recon_x.cols(), bg);
      for (int i = 0; i < nr; ++i) {
        both.row((i / cols) * 2 * cols + i % cols) = pic.recon_x.row(i);
        both.row((i / cols) * 2 * cols + cols + i % cols) = pic.recon.row(i);
      }
      pic.recon_mosaic = tile_mosaic(both, h, w, cols, 2, bg);
    }

    // Samples from the prior, a fixed seed: the same z at every refresh.
    const int ns = std::max(0, req.prior_samples);
    if (ns > 0) {
      Rng rng(req.prior_seed);
      pic.prior_z.resize(ns, latent);
      for (int i = 0; i < ns; ++i)
        for (int k = 0; k < latent; ++k) pic.prior_z(i, k) = static_cast<float>(rng.normal());
      net.decode_mean(pic.prior_z, pic.prior_decoded);
      pic.prior_mosaic = tile_mosaic(pic.prior_decoded, h, w, pic.prior_cols, 2, bg);
    }

    // Interpolation linear in mu, the originals at both ends.
    pic.interp_a = std::clamp(req.interp_a, 0, n - 1);
    pic.interp_b = std::clamp(req.interp_b, 0, n - 1);
    const int steps = std::max(2, req.interp_steps);
    const Mat<float> ends = gather_rows(x, {pic.interp_a, pic.interp_b});
    net.encode(ends, mu, sigma);
    pic.interp_z.resize(steps, latent);
    for (int s = 0; s < steps; ++s) {
      const float t = static_cast<float>(s) / static_cast<float>(steps - 1);
      pic.interp_z.row(s) = (1.0f - t) * mu.row(0) + t * mu.row(1);
    }
    net.decode_mean(pic.interp_z, pic.interp_decoded);
    Mat<float> strip(steps + 2, x.cols());
    strip << ends.row(0), pic.interp_decoded, ends.row(1);
    pic.interp_mosaic = tile_mosaic(strip, h, w, steps + 2, 2, bg);
  }

  if (req.maps && toy) {
    const int lines = std::max(2, req.mesh_lines), samples = std::max(2, req.mesh_samples);
    // The data's bounds (data units) plus 10 %.
    Mat<float> all(data.n_train() + data.n_test(), 2);
    all << data.x_train, data.x_test;
    to_data_units(data, all);
    const float x0 = all.col(0).minCoeff(), x1 = all.col(0).maxCoeff(), y0 = all.col(1).minCoeff(),
                y1 = all.col(1).maxCoeff();
    const double px = std::max(0.1 * (x1 - x0), 1e-6), py = std::max(0.1 * (y1 - y0), 1e-6);
    pic.x_min = x0 - px;
    pic.x_max = x1 + px;
    pic.y_min = y0 - py;
    pic.y_max = y1 + py;
    const int m = 2 * lines * samples;
    // Decoder: a regular z grid (axes i and j, the rest 0) mapped to the data plane.
    const double zr = req.mesh_z;
    const std::vector<double> zpts = mesh_points(-zr, zr, -zr, zr, lines, samples);
    Mat<float> z = Mat<float>::Zero(m, latent);
    for (int i = 0; i < m; ++i) {
      z(i, pic.axis_i) = static_cast<float>(zpts[static_cast<size_t>(i) * 2]);
      if (pic.axis_j != pic.axis_i)
        z(i, pic.axis_j) = static_cast<float>(zpts[static_cast<size_t>(i) * 2 + 1]);
    }
    net.decode_mean(z, out);
    to_data_units(data, out);
    std::vector<double> xy(static_cast<size_t>(m) * 2);
    for (int i = 0; i < m; ++i) {
      xy[static_cast<size_t>(i) * 2] = out(i, 0);
      xy[static_cast<size_t>(i) * 2 + 1] = out(i, 1);
    }
    append_polylines(xy, 2 * lines, samples, pic.decoder_mesh);
    // Encoder: a regular x grid over the data's bounds mapped to mu (projected when latent > 2).
    const std::vector<double> xpts =
        mesh_points(pic.x_min, pic.x_max, pic.y_min, pic.y_max, lines, samples);
    Mat<float> xg(m, 2);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < 2; ++j)
        xg(i, j) = static_cast<float>((xpts[static_cast<size_t>(i) * 2 + j] - data.mean(j)) /
                                      data.scale(j));
    net.encode(xg, mu, sigma);
    for (int i = 0; i < m; ++i)
      latent_xy(pic, mu.row(i).data(), &xy[static_cast<size_t>(i) * 2],
                &xy[static_cast<size_t>(i) * 2 + 1]);
    append_polylines(xy, 2 * lines, samples, pic.encoder_mesh);
    // Prior samples, decoded.
    const int ns = std::max(0, req.toy_prior_samples);
    Rng rng(req.prior_seed);
    Mat<float> zs(ns, latent);
    for (int i = 0; i < ns; ++i)
      for (int k = 0; k < latent; ++k) zs(i, k) = static_cast<float>(rng.normal());
    net.decode_mean(zs, out);
    to_data_units(data, out);
    pic.prior_x.resize(static_cast<size_t>(ns));
    pic.prior_y.resize(static_cast<size_t>(ns));
    for (int i = 0; i < ns; ++i) {
      pic.prior_x[static_cast<size_t>(i)] = out(i, 0);
      pic.prior_y[static_cast<size_t>(i)] = out(i, 1);
    }
  }
  return pic;
}

}  // namespace cilab
