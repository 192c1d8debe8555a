// The shared Optimizer (every kind against the course's equations, written
// out independently here), schedules / Robbins-Monro, Polyak averaging and the
// landscapes (analytic gradients vs central differences, muParser errors,
// finite-sum batches).
#include "algorithms/core/parallel.h"
#include "algorithms/optim/landscape.h"
#include "algorithms/optim/optimizer.h"
#include "algorithms/optim/schedule.h"

#include <doctest/doctest.h>

#include <Eigen/Core>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace cilab;

namespace {

// f = 1/2 (a x^2 + b y^2): grad = (a x, b y).
Eigen::Vector2d qgrad(const Eigen::Vector2d& p) { return Eigen::Vector2d(4.0 * p.x(), 0.5 * p.y()); }

void check_close(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double rel = 1e-13) {
  for (int i = 0; i < 2; ++i) {
    INFO("component ", i, ": ", a[i], " vs ", b[i]);
    CHECK(std::abs(a[i] - b[i]) <= rel * (1.0 + std::abs(b[i])));
  }
}

// Runs `steps` steps of an Optimizer on the quadratic from p0.
std::vector<Eigen::Vector2d> run(const OptimizerConfig& c, Eigen::Vector2d p, int steps, double lr) {
  Optimizer opt(c, 2);
  std::vector<Eigen::Vector2d> out{p};
  for (int k = 0; k < steps; ++k) {
    const Eigen::Vector2d g = qgrad(p);
    opt.step(p, g, lr);
    out.push_back(p);
  }
  return out;
}

const Eigen::Vector2d kP0(1.0, -2.0);

}  // namespace

TEST_CASE("optimizer: gd and sgd follow theta <- theta - lr grad") {
  for (OptimizerKind k : {OptimizerKind::GD, OptimizerKind::SGD}) {
    const double lr = 0.1;
    const std::vector<Eigen::Vector2d> got = run(OptimizerConfig::defaults(k), kP0, 5, lr);
    Eigen::Vector2d p = kP0;
    for (int t = 1; t <= 5; ++t) {
      p = p - lr * qgrad(p);
      check_close(got[static_cast<size_t>(t)], p);
    }
  }
}

TEST_CASE("optimizer: momentum equals the course's heavy ball theta + beta (theta - theta_prev)") {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::Momentum);
  c.momentum = 0.7;
  const double lr = 0.05;
  const std::vector<Eigen::Vector2d> got = run(c, kP0, 50, lr);
  Eigen::Vector2d prev = kP0, cur = kP0;
  for (int t = 1; t <= 50; ++t) {
    const Eigen::Vector2d next = cur - lr * qgrad(cur) + 0.7 * (cur - prev);
    prev = cur;
    cur = next;
    check_close(got[static_cast<size_t>(t)], cur, 1e-12);
  }
}

TEST_CASE("optimizer: momentum with dampening follows torch's buffer b = m b + (1 - d) g, b_1 = g") {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::Momentum);
  c.momentum = 0.9;
  c.dampening = 0.3;
  const std::vector<Eigen::Vector2d> got = run(c, kP0, 4, 0.05);
  Eigen::Vector2d p = kP0, b;
  for (int t = 1; t <= 4; ++t) {
    const Eigen::Vector2d g = qgrad(p);
    b = t == 1 ? g : Eigen::Vector2d(0.9 * b + 0.7 * g);
    p = p - 0.05 * b;
    check_close(got[static_cast<size_t>(t)], p);
  }
}

TEST_CASE("optimizer: nesterov iterates are the course's look-ahead points") {
  // Course: theta'_{k+1} = theta_k + beta (theta_k - theta_{k-1}),
  //         theta_{k+1} = theta'_{k+1} - lr grad(theta'_{k+1}).
  // torch's nesterov parameter p_k equals the look-ahead point theta'_{k+1}.
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::Nesterov);
  c.momentum = 0.8;
  const double lr = 0.05, beta = 0.8;
  const std::vector<Eigen::Vector2d> got = run(c, kP0, 60, lr);
  Eigen::Vector2d prev = kP0, cur = kP0;
  for (int k = 0; k <= 60; ++k) {
    const Eigen::Vector2d look = cur + beta * (cur - prev);
    check_close(got[static_cast<size_t>(k)], look, 1e-11);
    const Eigen::Vector2d next = look - lr * qgrad(look);
    prev = cur;
    cur = next;
  }
}

TEST_CASE("optimizer: adagrad accumulates g^2 and divides by sqrt(sum) + eps") {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::AdaGrad);
  c.eps = 1e-3;
  c.initial_accumulator_value = 0.25;
  const std::vector<Eigen::Vector2d> got = run(c, kP0, 5, 0.3);
  Eigen::Vector2d p = kP0;
  Eigen::Array2d gamma(0.25, 0.25);
  for (int t = 1; t <= 5; ++t) {
    const Eigen::Array2d g = qgrad(p).array();
    gamma += g * g;
    p = (p.array() - 0.3 * g / (gamma.sqrt() + 1e-3)).matrix();
    check_close(got[static_cast<size_t>(t)], p);
  }
  // The effective step size never grows.
  Optimizer opt(c, 2);
  Eigen::Vector2d q = kP0;
  Eigen::VectorXd prev_eff = Eigen::VectorXd::Constant(2, 1e300);
  for (int t = 0; t < 20; ++t) {
    const Eigen::Vector2d g = qgrad(q);
    opt.step(q, g, 0.3);
    const Eigen::VectorXd eff = opt.effective_lr();
    CHECK((eff.array() <= prev_eff.array()).all());
    prev_eff = eff;
  }
}

TEST_CASE("optimizer: rmsprop keeps E[g^2] = rho E + (1 - rho) g^2") {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::RMSProp);
  c.alpha = 0.9;
  c.eps = 1e-6;
  const std::vector<Eigen::Vector2d> got = run(c, kP0, 5, 0.01);
  Eigen::Vector2d p = kP0;
  Eigen::Array2d e(0.0, 0.0);
  for (int t = 1; t <= 5; ++t) {
    const Eigen::Array2d g = qgrad(p).array();
    e = 0.9 * e + 0.1 * g * g;
    p = (p.array() - 0.01 * g / (e.sqrt() + 1e-6)).matrix();
    check_close(got[static_cast<size_t>(t)], p);
  }
}

TEST_CASE("optimizer: adam's bias correction makes step one lr g / (|g| + eps)") {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::Adam);
  c.eps = 1e-3;
  const double lr = 0.1;
  Optimizer opt(c, 2);
  Eigen::Vector2d p = kP0;
  const Eigen::Vector2d g = qgrad(p);
  opt.step(p, g, lr);
  const Eigen::Array2d expect = kP0.array() - lr * g.array() / (g.array().abs() + 1e-3);
  check_close(p, expect.matrix(), 1e-15);
  // Without the correction the step would be (1 - beta1) / sqrt(1 - beta2) ~ 3.16 times larger:
  // the check above cannot pass by accident.
  const Eigen::VectorXd mhat = opt.velocity();
  check_close(Eigen::Vector2d(mhat[0], mhat[1]), g, 1e-15);
}

TEST_CASE("optimizer: adam and adamw follow m_hat / (sqrt(v_hat) + eps) for several steps") {
  for (OptimizerKind k : {OptimizerKind::Adam, OptimizerKind::AdamW}) {
    OptimizerConfig c = OptimizerConfig::defaults(k);
    c.beta1 = 0.8;
    c.beta2 = 0.95;
    c.eps = 1e-4;
    c.weight_decay = 0.1;
    const double lr = 0.05;
    const std::vector<Eigen::Vector2d> got = run(c, kP0, 6, lr);
    Eigen::Vector2d p = kP0;
    Eigen::Array2d m(0, 0), v(0, 0);
    for (int t = 1; t <= 6; ++t) {
      Eigen::Array2d g = qgrad(p).array();
      if (k == OptimizerKind::AdamW) p *= 1.0 - lr * 0.1;  // decoupled decay first
      else g += 0.1 * p.array();                            // L2 in the gradient
      m = 0.8 * m + 0.2 * g;
      v = 0.95 * v + 0.05 * g * g;
      const Eigen::Array2d mh = m / (1 - std::pow(0.8, t)), vh = v / (1 - std::pow(0.95, t));
      p = (p.array() - lr * mh / (vh.sqrt() + 1e-4)).matrix();
      INFO(optimizer_name(k), " step ", t);
      check_close(got[static_cast<size_t>(t)], p, 1e-12);
    }
  }
}

TEST_CASE("optimizer: a network-sized step runs in chunks on the pool with the same bits as one thread, element by element") {
  // 100 003 parameters (past the parallel threshold, a ragged last chunk): each element's update is
  // the 2-parameter optimizer's, and 1 and 2 threads agree to the bit, for adam, adamw, amsgrad,
  // sgd and nesterov momentum.
  const size_t n = 100003;
  std::vector<float> p0(n), g(n);
  for (size_t i = 0; i < n; ++i) {
    p0[i] = std::sin(0.37f * static_cast<float>(i));
    g[i] = std::cos(0.11f * static_cast<float>(i)) * (i % 7 == 0 ? 10.0f : 0.1f);
  }
  for (int variant = 0; variant < 5; ++variant) {
    const OptimizerKind kinds[] = {OptimizerKind::Adam, OptimizerKind::AdamW, OptimizerKind::Adam, OptimizerKind::SGD,
                                   OptimizerKind::Nesterov};
    OptimizerConfig c = OptimizerConfig::defaults(kinds[variant]);
    c.amsgrad = variant == 2;
    c.weight_decay = variant == 0 || variant == 4 ? 0.01 : c.weight_decay;
    auto steps = [&](int threads) {
      set_max_threads(threads);
      Optimizer opt(c, n);
      std::vector<float> p = p0;
      for (int t = 0; t < 3; ++t) opt.step(p.data(), g.data(), 1e-3);
      set_max_threads(0);
      return p;
    };
    const std::vector<float> one = steps(1), two = steps(2);
    CHECK(one == two);
    // Element i alone (a 2-parameter optimizer on (p0[i], p0[0])) takes the same steps.
    for (size_t i : {size_t(0), size_t(16383), size_t(16384), size_t(65537), n - 1}) {
      Optimizer small(c, 2);
      float q[2] = {p0[i], p0[0]}, h[2] = {g[i], g[0]};
      for (int t = 0; t < 3; ++t) small.step(q, h, 1e-3);
      CHECK(q[0] == one[i]);
    }
  }
}

TEST_CASE("optimizer: float and double give the same steps to float precision") {
  for (int i = 0; i < kNumOptimizerKinds; ++i) {
    const OptimizerKind k = static_cast<OptimizerKind>(i);
    OptimizerConfig c = OptimizerConfig::defaults(k);
    c.weight_decay = 0.01;
    Optimizer od(c, 2), of(c, 2);
    Eigen::Vector2d pd = kP0;
    Eigen::Vector2f pf = kP0.cast<float>();
    for (int t = 0; t < 30; ++t) {
      const Eigen::Vector2d gd = qgrad(pd);
      const Eigen::Vector2f gf = qgrad(pf.cast<double>()).cast<float>();
      od.step(pd, gd, 0.02);
      of.step(pf, gf, 0.02);
    }
    INFO(optimizer_name(k), ": ", pd.transpose(), " vs ", pf.transpose());
    CHECK((pd - pf.cast<double>()).norm() <= 1e-5 * (1.0 + pd.norm()));
    CHECK((pd - kP0).norm() > 1e-3);  // it moved
  }
}

TEST_CASE("optimizer: step_rows equals a dense step whose gradient is zero outside the rows") {
  // Rows of 3 parameters; steps touch different row sets (GloVe's per-entry AdaGrad).
  const size_t rows = 6, len = 3, n = rows * len;
  for (OptimizerKind kind : {OptimizerKind::SGD, OptimizerKind::AdaGrad}) {
    INFO(optimizer_name(kind));
    OptimizerConfig c = OptimizerConfig::defaults(kind);
    c.initial_accumulator_value = 0.1;
    Optimizer dense(c, n), sparse(c, n);
    Eigen::VectorXf a = Eigen::VectorXf::LinSpaced(static_cast<Eigen::Index>(n), -1.0f, 2.0f), b = a;
    const std::vector<std::vector<int32_t>> touched = {{0, 4}, {4, 5, 1}, {2}, {0, 4}};
    for (size_t t = 0; t < touched.size(); ++t) {
      Eigen::VectorXf g = Eigen::VectorXf::Zero(static_cast<Eigen::Index>(n));
      std::vector<float> packed;
      for (int32_t r : touched[t])
        for (size_t j = 0; j < len; ++j) {
          const float v = 0.3f * static_cast<float>(r + 1) - 0.7f * static_cast<float>(j) + 0.1f * static_cast<float>(t);
          g[static_cast<Eigen::Index>(static_cast<size_t>(r) * len + j)] = v;
          packed.push_back(v);
        }
      dense.step(a, g, 0.05);
      sparse.step_rows(b.data(), packed.data(), 0.05, touched[t].data(), touched[t].size(), len);
      for (Eigen::Index i = 0; i < a.size(); ++i) REQUIRE(a[i] == b[i]);  // bit-identical
    }
    CHECK(sparse.steps() == dense.steps());
  }
  // Kinds where a zero gradient still moves a parameter refuse sparse steps.
  for (OptimizerKind kind : {OptimizerKind::Momentum, OptimizerKind::Adam, OptimizerKind::RMSProp}) {
    Optimizer o(OptimizerConfig::defaults(kind), 3);
    CHECK_FALSE(o.supports_sparse_steps());
    float p[3] = {1, 2, 3}, g[3] = {1, 1, 1};
    const int32_t r = 0;
    CHECK_THROWS_AS(o.step_rows(p, g, 0.1, &r, 1, 3), std::logic_error);
  }
  OptimizerConfig decay = OptimizerConfig::defaults(OptimizerKind::AdaGrad);
  decay.weight_decay = 0.01;
  CHECK_FALSE(Optimizer(decay, 3).supports_sparse_steps());
}

TEST_CASE("optimizer: mixing float and double on one optimizer is refused") {
  Optimizer opt(OptimizerConfig::defaults(OptimizerKind::Adam), 2);
  Eigen::Vector2d pd = kP0;
  opt.step(pd, Eigen::Vector2d(1, 1), 0.1);
  Eigen::Vector2f pf(1, 1);
  CHECK_THROWS_AS(opt.step(pf, Eigen::Vector2f(1, 1), 0.1), std::logic_error);
  CHECK_THROWS_AS(opt.step(pd, Eigen::Vector3d(1, 1, 1), 0.1), std::invalid_argument);
}

TEST_CASE("optimizer: invalid configs are rejected with the field name") {
  OptimizerConfig c = OptimizerConfig::defaults(OptimizerKind::Nesterov);
  c.dampening = 0.5;
  CHECK_THROWS_WITH_AS(Optimizer(c, 2), doctest::Contains("nesterov"), std::invalid_argument);
  c = OptimizerConfig::defaults(OptimizerKind::Adam);
  c.beta2 = 1.0;
  CHECK_THROWS_WITH_AS(Optimizer(c, 2), doctest::Contains("beta2"), std::invalid_argument);
  c = OptimizerConfig::defaults(OptimizerKind::GD);
  c.lr = -1;
  CHECK_THROWS_WITH_AS(Optimizer(c, 2), doctest::Contains("lr"), std::invalid_argument);
  CHECK_THROWS_AS(optimizer_from_name("adamax"), std::invalid_argument);
  CHECK(optimizer_from_name("rmsprop") == OptimizerKind::RMSProp);
}

TEST_CASE("optimizer: torch defaults per class") {
  CHECK(OptimizerConfig::defaults(OptimizerKind::AdaGrad).eps == 1e-10);
  CHECK(OptimizerConfig::defaults(OptimizerKind::AdaGrad).lr == 1e-2);
  CHECK(OptimizerConfig::defaults(OptimizerKind::RMSProp).alpha == 0.99);
  CHECK(OptimizerConfig::defaults(OptimizerKind::AdamW).weight_decay == 1e-2);
  CHECK(OptimizerConfig::defaults(OptimizerKind::Adam).beta2 == 0.999);
  CHECK(OptimizerConfig::defaults(OptimizerKind::Nesterov).nesterov);
}

TEST_CASE("optimizer: gd at lr = 2/(L+mu) contracts the error by (kappa-1)/(kappa+1) per step") {
  // f = 1/2 (L x^2 + mu y^2) with L = 4, mu = 0.5 (qgrad): kappa = 8.
  const double L = 4.0, mu = 0.5, kappa = L / mu;
  const double lr = 2.0 / (L + mu), rate = (kappa - 1) / (kappa + 1);
  Optimizer opt(OptimizerConfig::defaults(OptimizerKind::GD), 2);
  Eigen::Vector2d p = kP0;
  double e = p.norm();
  for (int t = 0; t < 40; ++t) {
    const Eigen::Vector2d g = qgrad(p);
    opt.step(p, g, lr);
    CHECK(p.norm() / e == doctest::Approx(rate).epsilon(1e-9));
    e = p.norm();
  }
}

TEST_CASE("optimizer: heavy ball with Polyak's parameters beats gd's iteration count") {
  const double L = 4.0, mu = 0.5, kappa = L / mu;
  auto iterations = [&](OptimizerConfig c, double lr) {
    Optimizer opt(c, 2);
    Eigen::Vector2d p = kP0;
    for (int t = 1; t <= 100000; ++t) {
      const Eigen::Vector2d g = qgrad(p);
      opt.step(p, g, lr);
      if (p.norm() < 1e-10) return t;
    }
    return 100000;
  };
  const int gd = iterations(OptimizerConfig::defaults(OptimizerKind::GD), 2.0 / (L + mu));
  OptimizerConfig hb = OptimizerConfig::defaults(OptimizerKind::Momentum);
  const double sk = std::sqrt(kappa);
  hb.momentum = ((sk - 1) / (sk + 1)) * ((sk - 1) / (sk + 1));
  const int hbi = iterations(hb, 4.0 / ((std::sqrt(L) + std::sqrt(mu)) * (std::sqrt(L) + std::sqrt(mu))));
  INFO("gd ", gd, " heavy ball ", hbi);
  CHECK(hbi < gd);
  // Predicted counts: log(1e-10 / |p0|) / log(rate); heavy ball within a small polynomial factor.
  const double need = std::log(1e-10 / kP0.norm());
  CHECK(gd == static_cast<int>(std::ceil(need / std::log((kappa - 1) / (kappa + 1)))));
  CHECK(hbi <= 2 * std::ceil(need / std::log((sk - 1) / (sk + 1))));
}

TEST_CASE("schedule: each schedule produces its sequence") {
  ScheduleConfig c;
  c.kind = ScheduleKind::Constant;
  CHECK(lr_at(c, 0.1, 12345) == 0.1);
  c.kind = ScheduleKind::Step;
  c.step_size = 10;
  c.gamma = 0.5;
  CHECK(lr_at(c, 0.1, 0) == 0.1);
  CHECK(lr_at(c, 0.1, 9) == 0.1);
  CHECK(lr_at(c, 0.1, 10) == doctest::Approx(0.05));
  CHECK(lr_at(c, 0.1, 25) == doctest::Approx(0.025));
  c.kind = ScheduleKind::InvT;
  c.decay = 0.5;
  for (int t : {0, 1, 2, 10, 1000}) CHECK(lr_at(c, 0.2, t) == doctest::Approx(0.2 / (1 + 0.5 * t)));
  c.kind = ScheduleKind::InvSqrtT;
  for (int t : {0, 1, 2, 10, 1000})
    CHECK(lr_at(c, 0.2, t) == doctest::Approx(0.2 / std::sqrt(1 + 0.5 * t)));
  c.kind = ScheduleKind::Cosine;
  c.t_max = 100;
  c.eta_min = 0.01;
  CHECK(lr_at(c, 0.1, 0) == doctest::Approx(0.1));
  CHECK(lr_at(c, 0.1, 50) == doctest::Approx(0.055));
  CHECK(lr_at(c, 0.1, 100) == doctest::Approx(0.01));
  double prev = 1;
  for (int t = 0; t <= 100; ++t) {
    CHECK(lr_at(c, 0.1, t) <= prev);
    prev = lr_at(c, 0.1, t);
  }
}

TEST_CASE("schedule: Robbins-Monro holds for 1/t and fails for 1/sqrt(t), constant and step") {
  ScheduleConfig c;
  c.decay = 1.0;
  c.kind = ScheduleKind::InvT;
  CHECK(robbins_monro(c).satisfied);
  c.kind = ScheduleKind::InvSqrtT;
  const RobbinsMonro r = robbins_monro(c);
  CHECK(r.sum_diverges);
  CHECK_FALSE(r.sum_sq_converges);
  CHECK_FALSE(r.satisfied);
  CHECK(r.note.find("NOT") != std::string::npos);
  // Numerically: sum of eta^2 for 1/sqrt(1+t) keeps growing like log t
  // (each decade adds ~ln 10), while for 1/(1+t) it has converged.
  auto sum_sq = [&](ScheduleKind k, int n) {
    ScheduleConfig s;
    s.kind = k;
    s.decay = 1.0;
    double acc = 0;
    for (int t = 0; t < n; ++t) acc += lr_at(s, 1.0, t) * lr_at(s, 1.0, t);
    return acc;
  };
  CHECK(sum_sq(ScheduleKind::InvSqrtT, 1000000) - sum_sq(ScheduleKind::InvSqrtT, 100000) ==
        doctest::Approx(std::log(10.0)).epsilon(1e-3));
  CHECK(sum_sq(ScheduleKind::InvT, 1000000) - sum_sq(ScheduleKind::InvT, 100000) < 1e-5);
  c.kind = ScheduleKind::Constant;
  CHECK_FALSE(robbins_monro(c).satisfied);
  c.kind = ScheduleKind::Step;
  c.gamma = 0.5;
  CHECK_FALSE(robbins_monro(c).sum_diverges);
  c.kind = ScheduleKind::Cosine;
  CHECK_FALSE(robbins_monro(c).satisfied);
}

TEST_CASE("polyak: the running mean equals the batch mean of the iterates") {
  PolyakAverage a;
  std::vector<Eigen::Vector2d> xs;
  for (int i = 0; i < 37; ++i) xs.emplace_back(std::sin(i * 1.3), i * 0.25 - 3.0);
  a.reset(xs[0]);
  for (size_t i = 1; i < xs.size(); ++i) a.add(xs[i]);
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (const Eigen::Vector2d& x : xs) mean += x;
  mean /= static_cast<double>(xs.size());
  CHECK(a.count() == 37);
  CHECK((a.mean() - mean).norm() < 1e-13);
}

TEST_CASE("landscape: analytic gradients of every built-in function agree with central differences") {
  for (int i = 0; i < kNumLandscapeKinds; ++i) {
    const LandscapeKind k = static_cast<LandscapeKind>(i);
    if (k == LandscapeKind::Custom) continue;
    for (bool stdz : {true, false}) {
      if (!stdz && k != LandscapeKind::LeastSquares) continue;
      LandscapeConfig c;
      c.kind = k;
      c.kappa = 25;
      c.angle = 20;
      c.standardize = stdz;
      const std::shared_ptr<const Landscape> f = make_landscape(c);
      CHECK_FALSE(f->numeric_gradient());
      const std::array<double, 4> b = f->view_bounds();
      for (int a = 0; a < 5; ++a)
        for (int bb = 0; bb < 5; ++bb) {
          const double x = b[0] + (b[1] - b[0]) * (0.13 + 0.19 * a);
          const double y = b[2] + (b[3] - b[2]) * (0.11 + 0.2 * bb);
          const Eigen::Vector2d g = f->gradient(x, y), n = central_difference_gradient(*f, x, y);
          INFO(f->name(), " at (", x, ", ", y, "): ", g.transpose(), " vs ", n.transpose());
          CHECK((g - n).norm() <= 1e-6 * (1.0 + g.norm()));
        }
      // The listed minima are stationary points with the stated value.
      for (const Eigen::Vector2d& m : f->minima()) {
        INFO(f->name(), " minimum ", m.transpose());
        CHECK(f->gradient(m).norm() < 1e-8 * (1 + std::abs(f->value(m))));
        CHECK(f->value(m) == doctest::Approx(f->min_value()).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("landscape: the quadratic's Hessian has eigenvalues kappa and 1") {
  LandscapeConfig c;
  c.kind = LandscapeKind::Quadratic;
  c.kappa = 50;
  c.angle = 35;
  Eigen::Matrix2d h;
  REQUIRE(make_landscape(c)->constant_hessian(&h));
  CHECK(h.trace() == doctest::Approx(51.0));
  CHECK(h(0, 0) * h(1, 1) - h(0, 1) * h(1, 0) == doctest::Approx(50.0));
}

TEST_CASE("landscape: custom f(x, y) evaluates with muParser and uses numeric gradients") {
  LandscapeConfig c;
  c.kind = LandscapeKind::Custom;
  c.expr = "x^2 + 3*y^2 + sin(x*y)";
  const std::shared_ptr<const Landscape> f = make_landscape(c);
  CHECK(f->numeric_gradient());
  const double x = 0.7, y = -1.1;
  CHECK(f->value(x, y) == doctest::Approx(x * x + 3 * y * y + std::sin(x * y)).epsilon(1e-14));
  const Eigen::Vector2d g = f->gradient(x, y);
  CHECK(g.x() == doctest::Approx(2 * x + y * std::cos(x * y)).epsilon(1e-8));
  CHECK(g.y() == doctest::Approx(6 * y + x * std::cos(x * y)).epsilon(1e-8));
}

TEST_CASE("landscape: a bad expression names 'expr', the position and an example") {
  for (const char* bad : {"x^2 +", "x^2 + z", "sin(x", "", "x ** 2"}) {
    LandscapeConfig c;
    c.kind = LandscapeKind::Custom;
    c.expr = bad;
    INFO("expr '", bad, "'");
    try {
      make_landscape(c);
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      CHECK(m.rfind("parameter 'expr': ", 0) == 0);
      CHECK(m.find("example: x^2 + 3*y^2") != std::string::npos);
      CHECK(m.find('\n') == std::string::npos);
      if (*bad) CHECK(m.find("position") != std::string::npos);
    }
  }
}

TEST_CASE("landscape: custom f is safe to evaluate from several threads at once") {
  LandscapeConfig c;
  c.kind = LandscapeKind::Custom;
  c.expr = "x*x - y + cos(x)";
  const std::shared_ptr<const Landscape> f = make_landscape(c);
  // Expected values computed on this thread first; then 4 threads evaluate
  // the same points concurrently (each through its own parser).
  std::vector<std::vector<double>> expect(4);
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < 20000; ++i) {
      const double x = t + i * 1e-4, y = -t + i * 2e-4;
      expect[static_cast<size_t>(t)].push_back(f->value(x, y));
      CHECK(expect[static_cast<size_t>(t)].back() ==
            doctest::Approx(x * x - y + std::cos(x)).epsilon(1e-13));
    }
  std::vector<int> bad(4, 0);
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        const double x = t + i * 1e-4, y = -t + i * 2e-4;
        if (f->value(x, y) != expect[static_cast<size_t>(t)][static_cast<size_t>(i)])
          ++bad[static_cast<size_t>(t)];
      }
    });
  for (std::thread& t : ts) t.join();
  CHECK(bad == std::vector<int>(4, 0));
}

TEST_CASE("finite sum: a shuffled batch of all rows gives the full gradient bit for bit") {
  for (LandscapeKind k : {LandscapeKind::LeastSquares, LandscapeKind::Logistic}) {
    LandscapeConfig c;
    c.kind = k;
    const std::shared_ptr<const Landscape> f = make_landscape(c);
    REQUIRE(f->finite_sum());
    const FiniteSumLandscape& fs = static_cast<const FiniteSumLandscape&>(*f);
    std::vector<int> idx(static_cast<size_t>(fs.num_samples()));
    std::iota(idx.begin(), idx.end(), 0);
    std::reverse(idx.begin(), idx.end());
    std::swap(idx[3], idx[40]);
    const Eigen::Vector2d g = fs.batch_gradient(0.3, -0.7, idx.data(), static_cast<int>(idx.size()));
    const Eigen::Vector2d full = fs.gradient(0.3, -0.7);
    CHECK(g.x() == full.x());
    CHECK(g.y() == full.y());
    CHECK(fs.batch_value(0.3, -0.7, idx.data(), static_cast<int>(idx.size())) == fs.value(0.3, -0.7));
    // The mean of the gradients over an equal-size partition is the full gradient.
    const int n = fs.num_samples();
    int parts = 0;
    for (int b : {2, 4, 8, 17, 25}) {
      if (n % b) continue;
      Eigen::Vector2d mean = Eigen::Vector2d::Zero();
      for (int s = 0; s < n; s += b) mean += fs.batch_gradient(0.3, -0.7, idx.data() + s, b);
      mean /= static_cast<double>(n / b);
      CHECK((mean - full).norm() < 1e-12 * (1 + full.norm()));
      ++parts;
    }
    CHECK(parts > 0);
  }
}

TEST_CASE("finite sum: least squares optimum is the normal-equation solution") {
  LandscapeConfig c;
  c.kind = LandscapeKind::LeastSquares;
  c.standardize = true;
  const std::shared_ptr<const Landscape> f = make_landscape(c);
  const Eigen::Vector2d m = f->minima().front();
  // Standardised: slope = correlation (~0.90 for Old Faithful), intercept 0.
  CHECK(m.x() == doctest::Approx(0.9008).epsilon(1e-3));
  CHECK(std::abs(m.y()) < 1e-12);
  Eigen::Matrix2d h;
  REQUIRE(f->constant_hessian(&h));
  CHECK((h - 2.0 * Eigen::Matrix2d::Identity()).norm() < 1e-12);
}
