// The autoencoder view's pictures, computed from a network copy off the UI
// thread: see autoencoder_pictures.h.
#include "algorithms/core/rng.h"
#include "algorithms/linalg/projection.h"
#include "views/networks/autoencoder_pictures.h"

#include <algorithm>
#include <cmath>

namespace cilab {

namespace {

// The corruption of the pictured rows is drawn from this fixed seed (the same every refresh).
constexpr uint64_t kPictureNoiseSeed = 0x9e3779b97f4a7c15ULL;
// Grid lines of the decoded latent grid (m = 2) and points per line.
constexpr int kMeshLines = 11;
constexpr int kMeshPoints = 48;

// Projects a row of d values (trained-on space) onto the view's plane.
struct Plane {
  Eigen::RowVectorXd mean;
  Eigen::MatrixXd axes;  // d x 2
  void project(const float* x, float* px, float* py) const {
    double a = 0, b = 0;
    for (Eigen::Index j = 0; j < axes.rows(); ++j) {
      const double v = x[j] - mean(j);
      a += v * axes(j, 0);
      b += v * axes(j, 1);
    }
    *px = static_cast<float>(a);
    *py = static_cast<float>(b);
  }
};

}  // namespace

AutoencoderPictures compute_autoencoder_pictures(const AutoencoderSnapshot& s, int samples) {
  AutoencoderPictures pic;
  if (!s.net || !s.data) return pic;
  const TrainData& td = *s.data;
  pic.net_iteration = s.net_iteration;
  pic.on_test = td.n_test() > 0;
  const nn::Mat<float>& src = pic.on_test ? td.x_test : td.x_train;
  const std::vector<int>& ys = pic.on_test ? td.y_test : td.y_train;
  const int n_all = static_cast<int>(src.rows());
  const int n = std::min(n_all, kAutoencoderPictureRows);
  const int d = td.d;
  pic.rows = n;
  // Evenly spaced rows (the first n when they all fit).
  std::vector<int> rows(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) rows[static_cast<size_t>(i)] = static_cast<int>(static_cast<int64_t>(i) * n_all / n);
  nn::Mat<float> x(n, d);
  for (int i = 0; i < n; ++i) {
    x.row(i) = src.row(rows[static_cast<size_t>(i)]);
    pic.labels.push_back(ys[static_cast<size_t>(rows[static_cast<size_t>(i)])]);
  }
  // The network's input: centred (linear) and corrupted (noise > 0).
  nn::Mat<float> in = x.rowwise() - s.center;
  Rng rng(kPictureNoiseSeed);
  if (s.noise > 0)
    for (Eigen::Index k = 0; k < in.size(); ++k) in.data()[k] += static_cast<float>(s.noise * rng.normal());
  nn::Sequential<float> net = *s.net;
  const nn::Mat<float> out = net.forward(in, false).rowwise() + s.center;
  const nn::Mat<float>& codes = net.activation(s.code_layer);
  pic.ae_error = n > 0 ? 0.5 * (out - x).cast<double>().squaredNorm() / n : NAN;

  // Codes in the plane.
  const int m = static_cast<int>(codes.cols());
  pic.code_x.resize(static_cast<size_t>(n));
  pic.code_y.assign(static_cast<size_t>(n), 0.0f);
  if (m <= 2) {
    for (int i = 0; i < n; ++i) {
      pic.code_x[static_cast<size_t>(i)] = codes(i, 0);
      if (m == 2) pic.code_y[static_cast<size_t>(i)] = codes(i, 1);
    }
  } else if (n > 2) {
    const Eigen::MatrixXd c = codes.cast<double>();
    const Projection2d pr = principal_axes_2d(c);
    const Eigen::MatrixXd sc = project_2d(pr, c);
    pic.code_projected = true;
    for (int k = 0; k < 2; ++k)
      pic.code_axis_variance[k] = pr.total_variance > 0 ? pr.variance(k) / pr.total_variance : 0.0;
    for (int i = 0; i < n; ++i) {
      pic.code_x[static_cast<size_t>(i)] = static_cast<float>(sc(i, 0));
      pic.code_y[static_cast<size_t>(i)] = static_cast<float>(sc(i, 1));
    }
  }

  // PCA: scores on the top two components and the rank-m reconstruction error.
  if (s.pca) {
    const AutoencoderPca& pca = *s.pca;
    const Eigen::MatrixXd xc = x.cast<double>().rowwise() - pca.mean;
    const Eigen::MatrixXd sc = xc * pca.components;  // n x m
    pic.pca_x.resize(static_cast<size_t>(n));
    pic.pca_y.assign(static_cast<size_t>(n), 0.0f);
    for (int i = 0; i < n; ++i) {
      pic.pca_x[static_cast<size_t>(i)] = static_cast<float>(sc(i, 0));
      if (sc.cols() > 1) pic.pca_y[static_cast<size_t>(i)] = static_cast<float>(sc(i, 1));
    }
    pic.pca_error = n > 0 ? 0.5 * (xc - sc * pca.components.transpose()).squaredNorm() / n : NAN;
    if (s.linear && pca.eigenvectors.cols() == d && pca.total_variance > 0) {
      // (P - Q) E with E the eigenvectors: Q E = [U_m, 0]; then weight column j by lambda_j.
      const Eigen::MatrixXd& e = pca.eigenvectors;
      Eigen::MatrixXd pe = Autoencoder::decoder_matrix(*s.net) * (Autoencoder::encoder_matrix(*s.net) * e);
      pe.leftCols(pca.m) -= e.leftCols(pca.m);
      double sum = 0;
      for (int j = 0; j < d; ++j) sum += pca.eigenvalues(j) * pe.col(j).squaredNorm();
      pic.product_error_weighted = std::sqrt(sum / pca.total_variance);
    }
  }

  // Toy data: the plane, the rows, their reconstructions, the decoded latent grid.
  if (d == 2 || (d == 3 && s.pca && s.pca->eigenvalues.size() == 3)) {
    Plane pl;
    if (d == 2) {
      pl.mean = Eigen::RowVectorXd::Zero(2);
      pl.axes = Eigen::MatrixXd::Identity(2, 2);
      pic.plane_x = td.feature_names[0];
      pic.plane_y = td.feature_names[1];
    } else {
      // The top two principal axes of the training rows (the full eigenbasis is in pca for d = 3).
      pl.mean = s.pca->mean;
      pl.axes = Eigen::MatrixXd(3, 2);
      pl.axes.col(0) = s.pca->components.col(0);
      if (s.pca->components.cols() > 1) {
        pl.axes.col(1) = s.pca->components.col(1);
      } else {  // m = 1: the second axis orthogonal to the first, in the features' plane of least weight
        const Eigen::VectorXd a = s.pca->components.col(0);
        Eigen::VectorXd e = Eigen::VectorXd::Zero(3);
        Eigen::Index k = 0;
        a.cwiseAbs().minCoeff(&k);
        e(k) = 1;
        e -= a * a.dot(e);
        pl.axes.col(1) = e / e.norm();
      }
      pic.plane_x = "principal axis 1";
      pic.plane_y = s.pca->components.cols() > 1 ? "principal axis 2" : "an orthogonal axis";
    }
    pic.plane = true;
    pic.data_x.resize(static_cast<size_t>(n));
    pic.data_y.resize(static_cast<size_t>(n));
    pic.rec_x.resize(static_cast<size_t>(n));
    pic.rec_y.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      pl.project(x.row(i).data(), &pic.data_x[static_cast<size_t>(i)], &pic.data_y[static_cast<size_t>(i)]);
      pl.project(out.row(i).data(), &pic.rec_x[static_cast<size_t>(i)], &pic.rec_y[static_cast<size_t>(i)]);
    }
    if (m <= 2 && n > 0) {
      // The codes' range (+10 %), decoded along grid lines.
      Eigen::VectorXf lo = codes.colwise().minCoeff().transpose(), hi = codes.colwise().maxCoeff().transpose();
      const Eigen::VectorXf pad = 0.1f * (hi - lo);
      lo -= pad;
      hi += pad;
      const nn::Sequential<float> dec0 = Autoencoder::decoder_of(*s.net, s.code_layer);
      nn::Sequential<float> dec = dec0;
      const int lines = m == 1 ? 1 : 2 * kMeshLines;
      const int pts = m == 1 ? 4 * kMeshPoints : kMeshPoints;
      nn::Mat<float> z(static_cast<Eigen::Index>(lines) * pts, m);
      for (int l = 0; l < lines; ++l)
        for (int p = 0; p < pts; ++p) {
          const float t = static_cast<float>(p) / (pts - 1);
          const Eigen::Index r = static_cast<Eigen::Index>(l) * pts + p;
          if (m == 1) {
            z(r, 0) = lo(0) + t * (hi(0) - lo(0));
          } else {
            const bool vertical = l >= kMeshLines;
            const float u = static_cast<float>(l % kMeshLines) / (kMeshLines - 1);
            z(r, 0) = vertical ? lo(0) + u * (hi(0) - lo(0)) : lo(0) + t * (hi(0) - lo(0));
            z(r, 1) = vertical ? lo(1) + t * (hi(1) - lo(1)) : lo(1) + u * (hi(1) - lo(1));
          }
        }
      const nn::Mat<float> img = dec.forward(z, false).rowwise() + s.center;
      pic.mesh_x.assign(static_cast<size_t>(lines), std::vector<float>(static_cast<size_t>(pts)));
      pic.mesh_y = pic.mesh_x;
      for (int l = 0; l < lines; ++l)
        for (int p = 0; p < pts; ++p)
          pl.project(img.row(static_cast<Eigen::Index>(l) * pts + p).data(), &pic.mesh_x[static_cast<size_t>(l)][static_cast<size_t>(p)],
                     &pic.mesh_y[static_cast<size_t>(l)][static_cast<size_t>(p)]);
    }
  }

  // Images: chosen rows spread over the pictured ones.
  if (td.is_image() && n > 0) {
    pic.samples = std::min(samples, n);
    for (int k = 0; k < pic.samples; ++k) {
      const int i = static_cast<int>(static_cast<int64_t>(k) * n / pic.samples);
      for (int j = 0; j < d; ++j) {
        pic.clean.push_back(x(i, j));
        pic.noisy.push_back(in(i, j) + s.center(j));
        pic.recon.push_back(out(i, j));
      }
    }
  }
  return pic;
}

}  // namespace cilab
