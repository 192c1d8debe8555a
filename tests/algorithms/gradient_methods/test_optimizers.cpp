// The "optimizers" module: race roster, per-racer divergence, theory vs
// measured rates, mini-batches, sub-steps, live parameters, clones and paths,
// and the finite-sum problems on loaded data (data=loaded).
#include "algorithms/gradient_methods/optimizers.h"

#include "algorithms/data/datasets.h"

#include <Eigen/Dense>
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

using namespace cilab;

namespace {

ParamValues vals(const Optimizers& m, std::initializer_list<std::pair<const char*, double>> kv,
                 const std::string& expr = "") {
  ParamValues v = default_values(m.params());
  for (int i = 0; i < kNumOptimizerKinds; ++i)
    v[std::string("race_") + optimizer_name(static_cast<OptimizerKind>(i))] = 0;
  for (const auto& p : kv) v[p.first] = p.second;
  if (!expr.empty()) v.text["expr"] = expr;
  return v;
}

double choice(const Optimizers& m, const std::string& param, const std::string& option) {
  const ParamSpec* s = find_param(m.params(), param);
  REQUIRE(s);
  for (size_t i = 0; i < s->choices.size(); ++i)
    if (s->choices[i] == option) return static_cast<double>(i);
  FAIL("no option " << option);
  return -1;
}

std::shared_ptr<const OptimizersSnapshot> snap(const Optimizers& m) { return m.optimizers_snapshot(); }

}  // namespace

TEST_CASE("optimizers module: gd on the quadratic converges at the predicted rate") {
  Optimizers m;
  const double kappa = 20;
  const double lr = 2.0 / (kappa + 1.0);
  m.reset(nullptr,
          vals(m, {{"function", choice(m, "function", "quadratic")},
                   {"optimizer", choice(m, "optimizer", "gd")},
                   {"kappa", kappa},
                   {"lr", lr}}),
          1);
  for (int i = 0; i < 60; ++i) m.step();
  const auto s = snap(m);
  REQUIRE(s->theory.valid);
  CHECK(s->theory.L == doctest::Approx(kappa));
  CHECK(s->theory.mu == doctest::Approx(1.0));
  CHECK(s->theory.eta_max == doctest::Approx(2.0 / kappa));
  CHECK(s->theory.eta_gd_opt == doctest::Approx(lr));
  CHECK(s->theory.rate_gd_at_lr == doctest::Approx(s->theory.rate_gd_opt));
  CHECK(s->measured_rate[0] == doctest::Approx(s->theory.rate_gd_opt).epsilon(1e-8));
  CHECK(s->theory.rate_hb == doctest::Approx((std::sqrt(kappa) - 1) / (std::sqrt(kappa) + 1)));
  CHECK(s->theory.beta_hb == doctest::Approx(s->theory.rate_hb * s->theory.rate_hb));
}

TEST_CASE("optimizers module: heavy ball with the theory's eta and beta needs fewer iterations than gd") {
  auto iterations = [](const char* opt, double lr, double momentum) {
    Optimizers m;
    m.reset(nullptr,
            vals(m, {{"function", choice(m, "function", "quadratic")},
                     {"optimizer", choice(m, "optimizer", opt)},
                     {"kappa", 100},
                     {"lr", lr},
                     {"momentum", momentum},
                     {"tol", 1e-8}}),
            1);
    while (m.status() == Status::Running && m.snapshot()->iteration < 100000) m.step();
    CHECK(m.status() == Status::Converged);
    return m.snapshot()->iteration;
  };
  Optimizers probe;
  probe.reset(nullptr, vals(probe, {{"function", choice(probe, "function", "quadratic")}, {"kappa", 100}}), 1);
  const QuadraticTheory th = snap(probe)->theory;
  const int gd = iterations("gd", th.eta_gd_opt, 0.9);
  const int hb = iterations("momentum", th.eta_hb, th.beta_hb);
  INFO("gd ", gd, " heavy ball ", hb);
  CHECK(hb * 3 < gd);
}

TEST_CASE("optimizers module: a diverging racer stops alone, the module follows the primary") {
  Optimizers m;
  // Primary adam (stable) races gd at lr 0.5 > 2/L = 0.2 on the quadratic (kappa 10).
  m.reset(nullptr,
          vals(m, {{"function", choice(m, "function", "quadratic")},
                   {"optimizer", choice(m, "optimizer", "adam")},
                   {"lr", 0.05},
                   {"race_gd", 1},
                   {"lr_gd", 0.5},
                   {"race_momentum", 1},
                   {"lr_momentum", 0.01}}),
          1);
  for (int i = 0; i < 200; ++i) m.step();
  auto s = snap(m);
  REQUIRE(s->racers.size() == 3);
  CHECK(s->racers[0].name == "adam");
  CHECK(s->racers[1].name == "gd");
  const RacerState& gd = s->racers[1];
  CHECK(gd.status == Status::Diverged);
  CHECK(gd.diverged_at > 0);
  // |1 - 0.5 * 10| = 4: the error grows 4x per step, f 16x; 1e6 * f0 is passed after ~5-6 steps.
  CHECK(gd.diverged_at <= 8);
  CHECK(gd.path->size() == static_cast<size_t>(gd.diverged_at) + 1);
  CHECK(s->racers[0].status == Status::Running);
  CHECK(s->racers[2].status == Status::Running);
  CHECK(s->status == Status::Running);
  CHECK(s->racers[0].iterations == 200);

  // Primary diverging: the module reports Diverged.
  Optimizers d;
  d.reset(nullptr,
          vals(d, {{"function", choice(d, "function", "quadratic")},
                   {"optimizer", choice(d, "optimizer", "gd")},
                   {"lr", 0.5}}),
          1);
  for (int i = 0; i < 50 && d.status() == Status::Running; ++i) d.step();
  CHECK(d.status() == Status::Diverged);
  CHECK(d.snapshot()->message.find("diverged at iteration") != std::string::npos);
  // Non-finite: overflow to inf on Rosenbrock with a huge step.
  Optimizers r;
  r.reset(nullptr, vals(r, {{"optimizer", choice(r, "optimizer", "gd")}, {"lr", 5}}), 1);
  for (int i = 0; i < 50 && r.status() == Status::Running; ++i) r.step();
  CHECK(r.status() == Status::Diverged);
}

TEST_CASE("optimizers module: sgd with batch = n is gd bit for bit on both finite-sum problems") {
  for (const char* fn : {"least_squares", "logistic"}) {
    auto trajectory = [&](const char* opt, int batch) {
      Optimizers m;
      m.reset(nullptr,
              vals(m, {{"function", choice(m, "function", fn)},
                       {"optimizer", choice(m, "optimizer", opt)},
                       {"lr", 0.1},
                       {"batch", batch},
                       {"start_x", -1},
                       {"start_y", 1.5}}),
              7);
      std::vector<double> xs;
      for (int i = 0; i < 50; ++i) {
        m.step();
        xs.push_back(snap(m)->racers[0].theta.x());
        xs.push_back(snap(m)->racers[0].theta.y());
      }
      return xs;
    };
    INFO(fn);
    CHECK(trajectory("sgd", 1000) == trajectory("gd", 1));
    CHECK(trajectory("sgd", 8) != trajectory("gd", 1));  // real mini-batch noise
  }
}

TEST_CASE("optimizers module: sgd epochs visit every row once (shuffled, last batch smaller)") {
  // Over one epoch of n = 272 rows with batch 50 (5 batches of 50, one of 22),
  // the sum of batch-size-weighted gradients at a fixed point equals n * full
  // gradient (lr 1e-5: theta moves ~1e-4 relative, far below the batch noise).
  Optimizers m;
  m.reset(nullptr,
          vals(m, {{"function", choice(m, "function", "least_squares")},
                   {"optimizer", choice(m, "optimizer", "sgd")},
                   {"lr", 1e-5},
                   {"batch", 50}}),
          3);
  const auto s0 = snap(m);
  const Eigen::Vector2d full = s0->landscape->gradient(s0->racers[0].theta);
  Eigen::Vector2d acc = Eigen::Vector2d::Zero();
  for (int b = 0; b < 6; ++b) {
    m.sub_step();  // gradient half: the mini-batch gradient at theta
    const auto s = snap(m);
    const int size = b < 5 ? 50 : 22;
    acc += size * s->racers[0].grad;
    CHECK((s->racers[0].grad - full).norm() > 1e-3 * full.norm());  // a real sample, not the mean
    m.sub_step();
  }
  CHECK((acc / 272.0 - full).norm() < 1e-3 * full.norm());
}

TEST_CASE("optimizers module: the gradient sub-step previews exactly the update that follows") {
  Optimizers m;
  m.reset(nullptr,
          vals(m, {{"optimizer", choice(m, "optimizer", "nesterov")}, {"lr", 1e-3}, {"race_adam", 1}}), 1);
  for (int i = 0; i < 5; ++i) m.step();
  m.sub_step();
  const auto a = snap(m);
  CHECK(a->phase == 1);
  CHECK(a->iteration == 5);
  m.sub_step();
  const auto b = snap(m);
  CHECK(b->phase == 0);
  CHECK(b->iteration == 6);
  for (size_t i = 0; i < a->racers.size(); ++i) {
    CHECK(a->racers[i].grad_at == a->racers[i].theta);
    CHECK(b->racers[i].theta == a->racers[i].theta + a->racers[i].step);
    CHECK(b->racers[i].velocity == a->racers[i].velocity);
  }
}

TEST_CASE("optimizers module: a racer joining mid-run catches up with the same trajectory") {
  const auto base = [](Optimizers& m, bool with_rms) {
    m.reset(nullptr,
            vals(m, {{"function", choice(m, "function", "least_squares")},
                     {"optimizer", choice(m, "optimizer", "gd")},
                     {"batch", 8},
                     {"race_rmsprop", with_rms ? 1.0 : 0.0}}),
            5);
  };
  Optimizers a, b;
  base(a, true);
  base(b, false);
  for (int i = 0; i < 40; ++i) {
    a.step();
    b.step();
  }
  b.set_live("race_rmsprop", 1);
  for (int i = 0; i < 10; ++i) {
    a.step();
    b.step();
  }
  const auto sa = snap(a), sb = snap(b);
  REQUIRE(sb->racers.size() == 2);
  CHECK(sb->racers[1].name == "rmsprop");
  CHECK(sb->racers[1].theta == sa->racers[1].theta);
  CHECK(sb->racers[1].path->size() == 51);
  b.set_live("race_rmsprop", 0);
  CHECK(snap(b)->racers.size() == 1);
}

TEST_CASE("optimizers module: live lr changes apply from the next step, bad values are refused") {
  Optimizers m;
  m.reset(nullptr, vals(m, {{"function", choice(m, "function", "quadratic")}, {"optimizer", choice(m, "optimizer", "gd")}, {"lr", 0.01}}), 1);
  m.step();
  m.set_live("lr", 0.02);
  const Eigen::Vector2d before = snap(m)->racers[0].theta;
  const Eigen::Vector2d g = snap(m)->landscape->gradient(before);
  m.step();
  CHECK((snap(m)->racers[0].theta - (before - 0.02 * g)).norm() < 1e-15);
  CHECK(snap(m)->metrics[Optimizers::kMetricLr] == 0.02);
  CHECK_THROWS_AS(m.set_live("lr", -1), std::invalid_argument);
  CHECK_THROWS_AS(m.set_live("function", 1), std::invalid_argument);
  CHECK_THROWS_AS(m.set_live("nosuch", 1), std::invalid_argument);
  m.set_live("dampening", 0.5);
  CHECK_THROWS_AS(m.set_live("nesterov", 1), std::invalid_argument);
}

TEST_CASE("optimizers module: reset rejects a bad expression and nesterov with dampening") {
  Optimizers m;
  try {
    m.reset(nullptr, vals(m, {{"function", choice(m, "function", "custom")}}, "x^2 + * y"), 1);
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("parameter 'expr'") == 0);
  }
  CHECK_THROWS_AS(m.reset(nullptr, vals(m, {{"nesterov", 1}, {"dampening", 0.2}}), 1),
                  std::invalid_argument);
  m.reset(nullptr, vals(m, {{"function", choice(m, "function", "custom")}}, "(x-1)^2 + 2*(y+0.5)^2"), 1);
  for (int i = 0; i < 3000 && m.status() == Status::Running; ++i) m.step();
  const auto s = snap(m);
  CHECK(s->landscape->numeric_gradient());
  CHECK((s->racers[0].theta - Eigen::Vector2d(1, -0.5)).norm() < 1e-3);
}

TEST_CASE("optimizers module: clones continue identically and snapshots keep their paths") {
  Optimizers m;
  m.reset(nullptr,
          vals(m, {{"function", choice(m, "function", "logistic")},
                   {"optimizer", choice(m, "optimizer", "sgd")},
                   {"batch", 4},
                   {"race_adam", 1}}),
          11);
  for (int i = 0; i < 700; ++i) m.step();  // > one path chunk
  const auto s700 = snap(m);
  const std::unique_ptr<Module> c = m.clone();
  for (int i = 0; i < 300; ++i) {
    m.step();
    c->step();
  }
  const auto a = snap(m);
  const auto b = std::static_pointer_cast<const OptimizersSnapshot>(c->snapshot());
  for (size_t r = 0; r < a->racers.size(); ++r) {
    CHECK(a->racers[r].theta == b->racers[r].theta);
    REQUIRE(a->racers[r].path->size() == 1001);
    CHECK(b->racers[r].path->size() == 1001);
    for (size_t i = 0; i < 1001; i += 37) CHECK(a->racers[r].path->point(i) == b->racers[r].path->point(i));
  }
  // The old snapshot still shows 701 points, the last one its own theta.
  CHECK(s700->racers[0].path->size() == 701);
  CHECK(s700->racers[0].path->point(700) == s700->racers[0].theta);
  // Diverging clone: a live lr change in the clone leaves the original's path alone.
  c->set_live("lr", 5.0);
  for (int i = 0; i < 5; ++i) c->step();
  const auto a2 = snap(m);
  CHECK(a2->racers[0].path->point(1000) == a->racers[0].path->point(1000));
  CHECK(a2->racers[0].path->size() == 1001);
  CHECK(s700->byte_size() < 20000);
}

TEST_CASE("optimizers module: path buffer copies share chunks and gather decimates") {
  PathBuffer p;
  for (int i = 0; i < 1500; ++i) p.push(Eigen::Vector2d(i, -i), i * 0.5);
  PathBuffer q = p;
  q.push(Eigen::Vector2d(-1, -1), 0);
  p.push(Eigen::Vector2d(7, 7), 1);
  CHECK(p.size() == 1501);
  CHECK(q.size() == 1501);
  CHECK(p.point(1500) == Eigen::Vector2d(7, 7));
  CHECK(q.point(1500) == Eigen::Vector2d(-1, -1));
  CHECK(q.point(1499) == Eigen::Vector2d(1499, -1499));
  CHECK(p.loss(1200) == 600.0);
  std::vector<double> xs, ys;
  p.gather(0, p.size(), 100, xs, ys);
  CHECK(xs.front() == 0);
  CHECK(xs.back() == 7);
  CHECK(xs.size() == 16);  // 0, 100, ..., 1500 (the last point is on the stride)
  xs.clear();
  ys.clear();
  p.gather(0, 1450, 100, xs, ys);
  CHECK(xs.back() == 1449);  // the last point is always included
  CHECK(xs.size() == 16);
}

TEST_CASE("optimizers module: metrics are the primary's loss, x, y, grad_norm, dist, lr") {
  Optimizers m;
  m.reset(nullptr, vals(m, {{"optimizer", choice(m, "optimizer", "adam")}, {"lr", 0.01}, {"race_gd", 1}}), 1);
  const auto s0 = snap(m);
  CHECK(s0->metrics.size() == m.info().metrics.size());
  CHECK(s0->metrics[Optimizers::kMetricX] == -1.5);
  CHECK(s0->metrics[Optimizers::kMetricY] == 2.0);
  CHECK(s0->metrics[Optimizers::kMetricLoss] == doctest::Approx(2.5 * 2.5 + 100 * 0.25 * 0.25));
  CHECK(s0->metrics[Optimizers::kMetricDist] == doctest::Approx(std::sqrt(6.25 + 1)));
  for (int i = 0; i < 5000; ++i) m.step();
  const auto s = snap(m);
  CHECK(s->metrics[Optimizers::kMetricLoss] < 1e-3);
  CHECK(s->racers[0].primary);
  CHECK_FALSE(s->racers[1].primary);
  CHECK(s->schedule_note.find("constant") == 0);
}

TEST_CASE("optimizers module: polyak averaging reports the mean of the iterates") {
  Optimizers m;
  m.reset(nullptr,
          vals(m, {{"function", choice(m, "function", "quadratic")},
                   {"optimizer", choice(m, "optimizer", "sgd")},
                   {"noise", 2.0},
                   {"lr", 0.05},
                   {"average", 1}}),
          1);
  for (int i = 0; i < 99; ++i) m.step();
  const auto s = snap(m);
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (size_t i = 0; i < s->racers[0].path->size(); ++i) mean += s->racers[0].path->point(i);
  mean /= static_cast<double>(s->racers[0].path->size());
  CHECK((s->racers[0].averaged - mean).norm() < 1e-12);
  CHECK(s->racers[0].averaged != s->racers[0].theta);
}

// ---------------------------------------------------------------- data=loaded

namespace {

std::shared_ptr<const FiniteSumLandscape> finite_sum_of(const Optimizers& m) {
  const auto s = snap(m);
  REQUIRE(s->landscape);
  REQUIRE(s->landscape->finite_sum());
  return std::static_pointer_cast<const FiniteSumLandscape>(s->landscape);
}

// A small labelled dataset from rows (x0, x1, ...) and labels.
std::shared_ptr<const Dataset> table(const std::vector<std::vector<double>>& rows, std::vector<int> labels,
                                     const std::string& name) {
  auto d = std::make_shared<Dataset>();
  d->x.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.front().size()));
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < rows[i].size(); ++j)
      d->x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
  d->labels = std::move(labels);
  d->name = name;
  return d;
}

}  // namespace

TEST_CASE("optimizers data=loaded: least squares minimum is the OLS normal-equation solution") {
  // 3 columns: x = column 0, y = column 1, column 2 ignored.
  const std::shared_ptr<const Dataset> d = make_dataset("blobs:n=150,centers=2,dim=3,seed=4");
  for (const bool standardize : {false, true}) {
    Optimizers m;
    m.reset(d,
            vals(m, {{"function", choice(m, "function", "least_squares")},
                     {"data", choice(m, "data", "loaded")},
                     {"standardize", standardize ? 1.0 : 0.0}}),
            1);
    const auto f = finite_sum_of(m);
    CHECK(f->num_samples() == d->rows());
    CHECK(f->data_description().find("blobs") != std::string::npos);
    CHECK(f->data_description().find("first two of 3 columns") != std::string::npos);
    // Direct solve: minimise ||A beta - y||^2, A = [x, 1] (QR on the design matrix).
    Eigen::VectorXd x = d->x.col(0), y = d->x.col(1);
    if (standardize) {
      for (Eigen::VectorXd* v : {&x, &y}) {
        v->array() -= v->mean();
        *v /= std::sqrt(v->squaredNorm() / static_cast<double>(v->size()));
      }
    }
    Eigen::MatrixXd a(x.size(), 2);
    a.col(0) = x;
    a.col(1).setOnes();
    const Eigen::Vector2d beta = a.colPivHouseholderQr().solve(y);
    REQUIRE(f->minima().size() == 1);
    const Eigen::Vector2d opt = f->minima().front();
    CHECK((opt - beta).norm() < 1e-9 * (1.0 + beta.norm()));
    CHECK(f->min_value() == doctest::Approx((a * beta - y).squaredNorm() / static_cast<double>(x.size())));
    CHECK(f->gradient(opt).norm() < 1e-9);
    if (standardize) {
      const double r = x.dot(y) / static_cast<double>(x.size());  // correlation of z-scores
      CHECK(opt.x() == doctest::Approx(r).epsilon(1e-12));
    }
    // GD at the optimal step from the theory reaches it.
    const QuadraticTheory th = snap(m)->theory;
    REQUIRE(th.valid);
    Optimizers g;
    g.reset(d,
            vals(g, {{"function", choice(g, "function", "least_squares")},
                     {"data", choice(g, "data", "loaded")},
                     {"standardize", standardize ? 1.0 : 0.0},
                     {"optimizer", choice(g, "optimizer", "gd")},
                     {"lr", th.eta_gd_opt},
                     {"start_x", 0.0},
                     {"start_y", 0.0},
                     {"max_iter", 200000},
                     {"tol", 1e-9}}),
            1);
    while (g.status() == Status::Running) g.step();
    CHECK(g.status() == Status::Converged);
    CHECK(snap(g)->racers[0].dist_to_opt < 1e-6 * (1.0 + beta.norm()));
    // The plotting window holds the optimum and the origin.
    const std::array<double, 4> b = f->view_bounds();
    CHECK(b[0] < std::min(0.0, opt.x()));
    CHECK(b[1] > std::max(0.0, opt.x()));
    CHECK(b[2] < std::min(0.0, opt.y()));
    CHECK(b[3] > std::max(0.0, opt.y()));
  }
}

TEST_CASE("optimizers data=loaded: logistic regression on moons has a zero gradient at the optimum") {
  const std::shared_ptr<const Dataset> d = make_dataset("moons:n=200,noise=0.3,seed=1");
  Optimizers m;
  m.reset(d,
          vals(m, {{"function", choice(m, "function", "logistic")}, {"data", choice(m, "data", "loaded")}}), 1);
  const auto f = finite_sum_of(m);
  CHECK(f->num_samples() == 200);
  CHECK(f->data_description().find("moons") != std::string::npos);
  CHECK(f->data_description().find("separable") == std::string::npos);
  // Labels: 0/1 by class id, features z-scored.
  for (int i = 0; i < 200; ++i) CHECK(f->labels()[static_cast<size_t>(i)] == d->labels[static_cast<size_t>(i)]);
  for (int c = 0; c < 2; ++c) {
    CHECK(std::abs(f->points().col(c).mean()) < 1e-12);
    CHECK(f->points().col(c).squaredNorm() / 200.0 == doctest::Approx(1.0));
  }
  REQUIRE(f->minima().size() == 1);
  const Eigen::Vector2d w = f->minima().front();
  CHECK(w.allFinite());
  CHECK(w.norm() > 0.1);  // moons: the classes differ along both features
  CHECK(f->gradient(w).norm() < 1e-8);
  CHECK(central_difference_gradient(*f, w.x(), w.y()).norm() < 1e-6);
  CHECK(f->min_value() == f->value(w));
  for (const Eigen::Vector2d& dir : {Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1), Eigen::Vector2d(1, -1)})
    CHECK(f->value(w + 0.05 * dir) > f->min_value());
  // The module measures the distance to that optimum; Adam approaches it.
  Optimizers a;
  a.reset(d,
          vals(a, {{"function", choice(a, "function", "logistic")},
                   {"data", choice(a, "data", "loaded")},
                   {"optimizer", choice(a, "optimizer", "adam")},
                   {"lr", 0.05}}),
          1);
  const double d0 = snap(a)->racers[0].dist_to_opt;
  CHECK(d0 == doctest::Approx((Eigen::Vector2d(-1.5, 2.0) - w).norm()));
  for (int i = 0; i < 2000; ++i) a.step();
  CHECK(snap(a)->racers[0].dist_to_opt < 0.01 * d0);
}

TEST_CASE("optimizers data=loaded: separable classes report no finite minimiser") {
  // After z-scoring, x0 separates the classes through the origin.
  const std::shared_ptr<const Dataset> d = table(
      {{-2, -1}, {-1, 1}, {-3, 0.5}, {-1.5, 2}, {2, 1}, {1, -1}, {3, 0}, {1.5, -2}}, {0, 0, 0, 0, 1, 1, 1, 1},
      "split");
  Optimizers m;
  m.reset(d,
          vals(m, {{"function", choice(m, "function", "logistic")},
                   {"data", choice(m, "data", "loaded")},
                   {"optimizer", choice(m, "optimizer", "gd")},
                   {"lr", 0.5}}),
          1);
  const auto f = finite_sum_of(m);
  CHECK(f->minima().empty());
  CHECK(std::isnan(f->min_value()));
  CHECK(f->data_description().find("classes are linearly separable: no finite minimiser") != std::string::npos);
  // The loss keeps falling towards 0 along the separating direction: no finite minimiser.
  const Eigen::Vector2d u(1, 0);
  double prev = f->value(u);
  for (double t : {2.0, 4.0, 8.0, 16.0}) {
    const double v = f->value(t * u);
    CHECK(v < prev);
    prev = v;
  }
  CHECK(prev < 1e-3);
  for (int i = 0; i < 50; ++i) m.step();
  CHECK(std::isnan(snap(m)->racers[0].dist_to_opt));
  CHECK(snap(m)->status != Status::Diverged);
  // Classes whose signed points (2 y_i - 1) x_i surround the origin (largest
  // angular gap ~113 degrees < 180) overlap: a finite optimum.
  const std::shared_ptr<const Dataset> o =
      table({{2, 0}, {0, -2}, {-1.5, -1.5}, {-1, 2}, {2.5, 0.3}, {0.2, -2.5}, {-1, -2}, {-1.2, 1.8}},
            {1, 0, 1, 0, 1, 0, 1, 0}, "overlap");
  Optimizers n;
  n.reset(o, vals(n, {{"function", choice(n, "function", "logistic")}, {"data", choice(n, "data", "loaded")}}), 1);
  const auto g = finite_sum_of(n);
  REQUIRE(g->minima().size() == 1);
  CHECK(g->gradient(g->minima().front()).norm() < 1e-8);
}

TEST_CASE("optimizers data=builtin: the built-in problems are unchanged and ignore a passed dataset") {
  const std::shared_ptr<const Dataset> moons = make_dataset("moons:n=200,noise=0.3,seed=1");
  const char* const expect[] = {"Old Faithful (n = 272): waiting ~ a eruptions + b, z-scored",
                                "iris versicolor (0) vs virginica (1), n = 100, z-scored petal length / width, "
                                "no bias"};
  int k = 0;
  for (const LandscapeKind kind : {LandscapeKind::LeastSquares, LandscapeKind::Logistic}) {
    LandscapeConfig c;
    c.kind = kind;
    const std::shared_ptr<const Landscape> ref = make_landscape(c);
    for (const std::shared_ptr<const Dataset>& data : {std::shared_ptr<const Dataset>(), moons}) {
      Optimizers m;
      m.reset(data, vals(m, {{"function", static_cast<double>(kind)}, {"data", choice(m, "data", "builtin")}}), 1);
      const auto f = finite_sum_of(m);
      CHECK(f->data_description() == expect[k]);
      REQUIRE(f->minima().size() == 1);
      CHECK(f->minima().front() == ref->minima().front());  // bit for bit
      CHECK(f->min_value() == ref->min_value());
      CHECK(f->gradient(f->minima().front()).norm() < 1e-8);
    }
    ++k;
  }
  // The analytic functions ignore `data`, even data=loaded without a dataset.
  Optimizers r;
  r.reset(nullptr,
          vals(r, {{"function", choice(r, "function", "rosenbrock")}, {"data", choice(r, "data", "loaded")}}), 1);
  r.step();
  CHECK(snap(r)->landscape->name() == "rosenbrock");
}

TEST_CASE("optimizers data=loaded: unusable data throws naming 'data' and what to try") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Bad {
    const char* function;
    std::shared_ptr<const Dataset> data;
    const char* expect;
  };
  const std::vector<Bad> bad = {
      {"least_squares", nullptr, "none is loaded"},
      {"logistic", nullptr, "none is loaded"},
      {"least_squares", table({{1}, {2}, {3}}, {}, "one"), "at least 2 columns"},
      {"least_squares", table({{1, 2}}, {}, "single"), "at least 2 rows"},
      {"least_squares", table({{1, 2}, {nan, 3}, {2, 1}}, {}, "holes"), "non-finite value at row 1"},
      {"least_squares", table({{1, 2}, {1, 3}, {1, 1}}, {}, "flat"), "constant"},
      {"logistic", table({{1, 2}, {2, 3}, {3, 1}}, {}, "plain"), "has no labels"},
      {"logistic", make_dataset("blobs:n=90,centers=3,seed=2"), "has 3 classes"},
      {"logistic", table({{1, 2}, {2, 3}, {3, 1}}, {1, 1, 1}, "mono"), "has 1 class"},
      {"logistic", table({{1, 2}, {2, 4}, {3, 6}, {4, 8}}, {0, 1, 0, 1}, "line"), "collinear"},
      {"logistic", table({{1, 2}, {1, 4}, {1, 6}, {1, 8}}, {0, 1, 0, 1}, "flatfeat"), "constant"},
  };
  for (const Bad& b : bad) {
    Optimizers m;
    const ParamValues v =
        vals(m, {{"function", choice(m, "function", b.function)}, {"data", choice(m, "data", "loaded")}});
    std::string msg;
    try {
      m.reset(b.data, v, 1);
    } catch (const std::invalid_argument& e) {
      msg = e.what();
    }
    INFO("function ", b.function, ", dataset ", b.data ? b.data->name : "(none)", ": ", msg);
    CHECK(msg.rfind("parameter 'data': ", 0) == 0);
    CHECK(msg.find(b.expect) != std::string::npos);
    CHECK(msg.find("data=builtin") != std::string::npos);
    if (b.data) CHECK(msg.find("'" + b.data->name + "'") != std::string::npos);
    CHECK(msg.find('\n') == std::string::npos);
  }
}
