#include "views/networks/mlp_pictures.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace cilab {

void mlp_grid_bounds(const Dataset& data, int d, double* x_min, double* x_max, double* y_min, double* y_max) {
  *x_min = *y_min = -1;
  *x_max = *y_max = 1;
  if (data.rows() == 0 || data.cols() < 1) return;
  auto range = [&](const double* v, int n, int stride, double* lo, double* hi) {
    double a = v[0], b = v[0];
    for (int i = 1; i < n; ++i) {
      a = std::min(a, v[static_cast<size_t>(i) * stride]);
      b = std::max(b, v[static_cast<size_t>(i) * stride]);
    }
    const double pad = std::max(0.1 * (b - a), 1e-6 * std::max(1.0, std::fabs(a)) + 1e-9);
    *lo = a - pad;
    *hi = b + pad;
  };
  // x is column-major (Eigen default): column j is contiguous.
  range(data.x.col(0).data(), data.rows(), 1, x_min, x_max);
  if (d >= 2 && data.cols() >= 2) range(data.x.col(1).data(), data.rows(), 1, y_min, y_max);
  else if (data.has_target()) range(data.target.data(), data.rows(), 1, y_min, y_max);
}

MlpPictures compute_mlp_pictures(const nn::Sequential<float>& net_in, const MlpProblem& pr, int net_iteration,
                                 int res, double x_min, double x_max, double y_min, double y_max) {
  MlpPictures out;
  out.net_iteration = net_iteration;
  if (pr.d != 1 && pr.d != 2) return out;
  out.d = pr.d;
  out.res = res;
  out.x_min = x_min;
  out.x_max = x_max;
  out.y_min = y_min;
  out.y_max = y_max;
  out.outputs = pr.outputs;
  const int n = pr.d == 2 ? res * res : res;
  nn::Mat<float> x(n, pr.d);
  double point[2];
  for (int i = 0; i < n; ++i) {
    const int r = pr.d == 2 ? i / res : 0, c = pr.d == 2 ? i % res : i;
    point[0] = x_min + (x_max - x_min) * (c + 0.5) / res;
    // Row 0 at the top: y decreases with the row.
    point[1] = y_max - (y_max - y_min) * (r + 0.5) / res;
    pr.standardise(point, x.row(i).data());
  }
  nn::Sequential<float> net = net_in;  // a private copy: forward writes its buffers
  const nn::Mat<float>& y = net.forward(x, false);
  out.output.resize(static_cast<size_t>(n) * pr.outputs);
  for (int i = 0; i < n; ++i) {
    if (pr.regression) {
      out.output[static_cast<size_t>(i)] = static_cast<float>(pr.target_value(y(i, 0)));
      continue;
    }
    // Softmax of the logits.
    const float m = y.row(i).maxCoeff();
    double z = 0;
    for (int k = 0; k < pr.outputs; ++k) z += std::exp(static_cast<double>(y(i, k) - m));
    for (int k = 0; k < pr.outputs; ++k)
      out.output[static_cast<size_t>(i) * pr.outputs + k] = static_cast<float>(std::exp(static_cast<double>(y(i, k) - m)) / z);
  }
  for (size_t l = 0; l + 1 < net.size(); ++l) {
    const std::string name = net.layer(l).name();
    if (name == "linear" || name == "batch_norm" || name == "layer_norm" || name == "dropout") continue;
    const nn::Mat<float>& a = net.activation(l);
    out.hidden.emplace_back(a.data(), a.data() + a.size());
    out.hidden_width.push_back(static_cast<int>(a.cols()));
    out.hidden_min.push_back(a.size() ? a.minCoeff() : 0.f);
    out.hidden_max.push_back(a.size() ? a.maxCoeff() : 1.f);
  }
  return out;
}

}  // namespace cilab
