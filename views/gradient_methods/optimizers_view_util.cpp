#include "views/gradient_methods/optimizers_view_util.h"
#include "views/common/readout.h"

#include "views/plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cilab::optview {

ImU32 racer_color(OptimizerKind kind) { return plot::GetColormapColor(static_cast<int>(kind)); }

std::string fmt(double v, const char* format) { return format_number(v, format); }

std::string lr_param(const RacerState& r) { return r.primary ? "lr" : std::string("lr_") + r.name; }

std::string lr_param(OptimizerKind kind, OptimizerKind primary) {
  return kind == primary ? "lr" : std::string("lr_") + optimizer_name(kind);
}

const char* update_equations(OptimizerKind kind) {
  switch (kind) {
    case OptimizerKind::GD:
      return "GD = torch.optim.SGD(lr), full-batch gradient:\n"
             "  g_t = grad f(theta_t)  (+ weight_decay * theta_t)\n"
             "  theta_{t+1} = theta_t - lr * g_t";
    case OptimizerKind::SGD:
      return "SGD = torch.optim.SGD(lr), stochastic gradient:\n"
             "  g_t = mean gradient over a shuffled mini-batch of `batch` rows\n"
             "        (analytic functions: grad f(theta_t) + Gaussian noise)\n"
             "  theta_{t+1} = theta_t - lr_t * g_t   (lr_t from the schedule)";
    case OptimizerKind::Momentum:
      return "Momentum = torch.optim.SGD(lr, momentum=beta, dampening):\n"
             "  b_1 = g_1,  b_t = beta * b_{t-1} + (1 - dampening) * g_t\n"
             "  theta_{t+1} = theta_t - lr * b_t\n"
             "With dampening = 0 this is Polyak's heavy ball:\n"
             "  theta_{t+1} = theta_t - lr * g_t + beta * (theta_t - theta_{t-1})";
    case OptimizerKind::Nesterov:
      return "Nesterov = torch.optim.SGD(lr, momentum=beta, nesterov=True):\n"
             "  b_t = beta * b_{t-1} + g_t\n"
             "  theta_{t+1} = theta_t - lr * (g_t + beta * b_t)\n"
             "(the look-ahead form theta' = theta_t + beta (theta_t - theta_{t-1}),\n"
             " theta_{t+1} = theta' - lr grad f(theta'), in shifted variables)";
    case OptimizerKind::AdaGrad:
      return "AdaGrad = torch.optim.Adagrad(lr, lr_decay, eps=1e-10):\n"
             "  sum_t = sum_{t-1} + g_t^2          (per coordinate)\n"
             "  clr = lr / (1 + (t - 1) * lr_decay)\n"
             "  theta_{t+1} = theta_t - clr * g_t / (sqrt(sum_t) + eps)";
    case OptimizerKind::RMSProp:
      return "RMSProp = torch.optim.RMSprop(lr, alpha, eps):\n"
             "  v_t = alpha * v_{t-1} + (1 - alpha) * g_t^2\n"
             "  theta_{t+1} = theta_t - lr * g_t / (sqrt(v_t) + eps)\n"
             "  (momentum > 0: buf = momentum * buf + g_t / (sqrt(v_t) + eps),\n"
             "   theta_{t+1} = theta_t - lr * buf)";
    case OptimizerKind::Adam:
      return "Adam = torch.optim.Adam(lr, betas=(beta1, beta2), eps):\n"
             "  m_t = beta1 * m_{t-1} + (1 - beta1) * g_t\n"
             "  v_t = beta2 * v_{t-1} + (1 - beta2) * g_t^2\n"
             "  m_hat = m_t / (1 - beta1^t),  v_hat = v_t / (1 - beta2^t)\n"
             "  theta_{t+1} = theta_t - lr * m_hat / (sqrt(v_hat) + eps)";
    case OptimizerKind::AdamW:
      return "AdamW = torch.optim.AdamW(lr, betas, eps, weight_decay):\n"
             "  theta_t <- theta_t * (1 - lr * weight_decay)   (decoupled decay)\n"
             "  then the Adam step with g_t = grad f(theta_t) (no decay term in g)";
  }
  return "";
}

long last_finite(const PathBuffer& path) {
  for (long i = static_cast<long>(path.size()) - 1; i >= 0; --i) {
    const Eigen::Vector2d p = path.point(static_cast<size_t>(i));
    if (std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(path.loss(static_cast<size_t>(i)))) return i;
  }
  return -1;
}

double gd_rate(double eta, double mu, double L) { return std::max(std::abs(1 - eta * mu), std::abs(1 - eta * L)); }

double heavy_ball_rate(double eta, double beta, double mu, double L) {
  double worst = 0.0;
  for (double lam : {mu, L}) {
    const double a = 1.0 + beta - eta * lam;
    const double disc = a * a - 4.0 * beta;
    const double r = disc < 0 ? std::sqrt(std::max(beta, 0.0))
                              : std::max(std::abs(0.5 * (a + std::sqrt(disc))), std::abs(0.5 * (a - std::sqrt(disc))));
    worst = std::max(worst, r);
  }
  return worst;
}

}  // namespace cilab::optview
