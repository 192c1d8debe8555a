// backprop: the node-by-node walk against the network library's gradients,
// backprop against central differences, the update against the shared
// optimizer, the sub-step walk, determinism, learning XOR and validation.
#include "algorithms/networks/backprop.h"

#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/layers.h"
#include "algorithms/nn/loss.h"
#include "algorithms/nn/sequential.h"
#include "algorithms/optim/optimizer.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace cilab;

namespace {

ParamValues with(std::initializer_list<std::pair<const std::string, double>> nums,
                 std::vector<std::pair<std::string, std::string>> texts = {}) {
  Backprop m;
  ParamValues v = default_values(m.params());
  for (const auto& [k, x] : nums) v[k] = x;
  for (const auto& [k, t] : texts) v.text[k] = t;
  return v;
}

std::shared_ptr<const BackpropSnapshot> run(Backprop& m, int steps) {
  for (int i = 0; i < steps; ++i) m.step();
  return m.backprop_snapshot();
}

// Every combination of shape, activation and loss the module offers.
struct Case {
  const char* layers;
  int activation, loss, batch;
};
const Case kCases[] = {{"3", 0, 0, 1}, {"3", 1, 1, 4}, {"3", 2, 1, 2}, {"4,2", 0, 1, 3},
                       {"2,3", 1, 0, 4}, {"1", 2, 0, 1}, {"4,4", 1, 1, 4}};

}  // namespace

TEST_CASE("backprop: the node-by-node walk equals the library's gradient to 1e-12, every shape") {
  for (const Case& c : kCases) {
    CAPTURE(c.layers);
    CAPTURE(c.activation);
    CAPTURE(c.loss);
    Backprop m;
    m.reset(nullptr, with({{"activation", c.activation}, {"loss", c.loss}, {"batch", c.batch}}, {{"layers", c.layers}}),
            7);
    for (int it = 0; it < 5; ++it) {
      m.step();
      const auto s = m.backprop_snapshot();
      REQUIRE(s->trace);
      const BackpropTrace& tr = *s->trace;
      REQUIRE(tr.grad_walk.size() == s->graph->num_params());
      for (Eigen::Index k = 0; k < tr.grad_walk.size(); ++k) {
        CAPTURE(s->graph->param_names[static_cast<size_t>(k)]);
        CHECK(std::abs(tr.grad_walk[k] - tr.grad_lib[k]) <= 1e-12 * std::max(1.0, std::abs(tr.grad_lib[k])));
      }
      CHECK(s->metrics[Backprop::kMetricWalkVsLibrary] <= 1e-12);
    }
  }
}

TEST_CASE("backprop: the walk's forward values and loss equal a library forward pass") {
  Backprop m;
  m.reset(nullptr, with({{"batch", 4}, {"activation", 1}}, {{"layers", "3,2"}}), 3);
  m.step();
  const auto s = m.backprop_snapshot();
  const BackpropTrace& tr = *s->trace;
  nn::Sequential<double> net;
  net.add(nn::make_linear<double>(3));
  net.add(nn::make_activation<double>(nn::Activation::Tanh));
  net.add(nn::make_linear<double>(2));
  net.add(nn::make_activation<double>(nn::Activation::Tanh));
  net.add(nn::make_linear<double>(1));
  net.build(2);
  REQUIRE(static_cast<Eigen::Index>(net.num_params()) == tr.theta_before.size());
  for (Eigen::Index k = 0; k < tr.theta_before.size(); ++k) net.params()[k] = tr.theta_before[k];
  const nn::Mat<double> x = tr.x, t = tr.target;
  const nn::Mat<double>& y = net.forward(x, false);
  for (Eigen::Index n = 0; n < x.rows(); ++n) {
    CHECK(std::abs(y(n, 0) - tr.a.back()(n, 0)) <= 1e-12);
    for (int j = 0; j < 3; ++j) CHECK(std::abs(net.activation(1)(n, j) - tr.a[0](n, j)) <= 1e-12);
    for (int j = 0; j < 2; ++j) CHECK(std::abs(net.activation(2)(n, j) - tr.z[1](n, j)) <= 1e-12);
  }
  CHECK(std::abs(nn::bce_with_logits_loss(y, t, static_cast<nn::Mat<double>*>(nullptr)) - tr.loss) <= 1e-12);
  // The flat layout the names describe is the library's: W1[j,i] row-major, then b1, layer by layer.
  const BackpropGraph& g = *s->graph;
  CHECK(g.w_index(1, 0, 0) == static_cast<int>(net.param_offset(0)));
  CHECK(g.w_index(2, 0, 0) == static_cast<int>(net.param_offset(2)));
  CHECK(g.w_index(3, 0, 0) == static_cast<int>(net.param_offset(4)));
  CHECK(g.param_names[static_cast<size_t>(g.w_index(1, 2, 1))] == "W1[2,1]");
  CHECK(g.param_names[static_cast<size_t>(g.b_index(2, 1))] == "b2[1]");
}

TEST_CASE("backprop: backprop agrees with central differences, relative error < 1e-6") {
  for (const Case& c : kCases) {
    CAPTURE(c.layers);
    CAPTURE(c.activation);
    Backprop m;
    // Smooth activations everywhere; ReLU away from its kink (checked below).
    m.reset(nullptr, with({{"activation", c.activation}, {"loss", c.loss}, {"batch", c.batch}}, {{"layers", c.layers}}),
            11);
    for (int it = 0; it < 4; ++it) {
      m.step();
      const auto s = m.backprop_snapshot();
      const BackpropTrace& tr = *s->trace;
      bool near_kink = false;
      if (c.activation == 2)
        for (const Eigen::MatrixXd& z : tr.z) near_kink = near_kink || (z.array().abs() < 1e-4).any();
      if (near_kink) continue;
      CHECK(s->metrics[Backprop::kMetricMaxRelError] < 1e-6);
      // The table is the check: parameter names, then backprop, finite difference, relative error.
      REQUIRE(s->table.size() == s->table_row_names.size());
      REQUIRE(static_cast<int>(s->table.size()) == s->graph->num_params());
      for (size_t k = 0; k < s->table.size(); ++k) {
        const double a = s->table[k][0], b = s->table[k][1];
        CHECK(a == tr.grad_lib[static_cast<Eigen::Index>(k)]);
        CHECK(s->table[k][2] == doctest::Approx(std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-8})));
        CHECK(s->table[k][2] < 1e-6);
      }
    }
  }
}

TEST_CASE("backprop: a larger finite-difference step makes the check worse (O(h^2) truncation)") {
  Backprop fine, coarse;
  fine.reset(nullptr, with({{"fd_step", 1e-5}, {"activation", 0}}), 5);
  coarse.reset(nullptr, with({{"fd_step", 1e-1}, {"activation", 0}}), 5);
  const double e_fine = run(fine, 1)->metrics[Backprop::kMetricMaxRelError];
  const double e_coarse = run(coarse, 1)->metrics[Backprop::kMetricMaxRelError];
  CHECK(e_coarse > 100 * e_fine);
}

TEST_CASE("backprop: the update is the shared optimizer's step on the library gradient") {
  for (int kind : {0, 2, 6}) {  // gd, momentum, adam
    CAPTURE(kind);
    Backprop m;
    const ParamValues v = with({{"optimizer", kind}, {"lr", 0.05}, {"batch", 2}});
    m.reset(nullptr, v, 9);
    OptimizerConfig cfg = Backprop::params_from(v).optim;
    m.step();
    Optimizer opt(cfg, static_cast<size_t>(m.backprop_snapshot()->theta.size()));
    for (int it = 0; it < 6; ++it) {
      const auto s = m.backprop_snapshot();
      const BackpropTrace& tr = *s->trace;
      Eigen::VectorXd theta = tr.theta_before;
      opt.step(theta.data(), tr.grad_lib.data(), 0.05);
      CHECK(theta == tr.theta_after);
      CHECK(s->theta == tr.theta_after);
      m.step();
    }
  }
}

TEST_CASE("backprop: sub-steps walk forward, loss, backward, update and end where step() ends") {
  Backprop a, b;
  const ParamValues v = with({}, {{"layers", "3,2"}});
  a.reset(nullptr, v, 4);
  b.reset(nullptr, v, 4);
  const std::vector<std::string>& names = a.info().sub_steps;
  // 2-3-2-1: forward 3 + 2 + 1 neurons, the loss, backward 1 + 2 + 3, the update.
  REQUIRE(names.size() == 14);
  CHECK(names.front() == "forward h1[0]");
  CHECK(names[5] == "forward out");
  CHECK(names[6] == "loss");
  CHECK(names[7] == "backward out");
  CHECK(names[8] == "backward h2[0]");
  CHECK(names.back() == "update");
  for (int it = 0; it < 3; ++it) {
    const Eigen::VectorXd before = a.backprop_snapshot()->theta;
    for (size_t p = 1; p < names.size(); ++p) {
      a.sub_step();
      const auto s = a.backprop_snapshot();
      CHECK(s->phase == static_cast<int>(p));
      CHECK(s->iteration == it);
      CHECK(s->theta == before);  // nothing is updated before the update sub-step
      CHECK(position_label(*s, &a.info()) ==
            "iteration " + std::to_string(it + 1) + " (after " + names[p - 1] + ")");
    }
    a.sub_step();
    b.step();
    const auto sa = a.backprop_snapshot(), sb = b.backprop_snapshot();
    CHECK(sa->phase == 0);
    CHECK(sa->iteration == it + 1);
    CHECK(sa->theta == sb->theta);
    CHECK(sa->metrics == sb->metrics);
  }
}

TEST_CASE("backprop: the shape decides the named sub-steps and the parameter names") {
  Backprop m;
  const std::vector<std::string> before = m.info().sub_steps;  // the default network's, before any reset
  m.reset(nullptr, with({}), 1);
  CHECK(m.info().sub_steps == before);
  CHECK(m.info().sub_steps ==
        std::vector<std::string>{"forward h1[0]", "forward h1[1]", "forward h1[2]", "forward out", "loss",
                                 "backward out", "backward h1[0]", "backward h1[1]", "backward h1[2]", "update"});
  const auto s = run(m, 1);
  CHECK(s->graph->num_params() == 2 * 3 + 3 + 3 + 1);
  CHECK(s->table_row_names.front() == "W1[0,0]");
  CHECK(s->table_row_names.back() == "b2[0]");
}

TEST_CASE("backprop: same seed, same run bit for bit, another seed differs, clones continue identically") {
  const ParamValues v = with({{"batch", 2}, {"optimizer", 6}, {"lr", 0.05}});
  Backprop a, b, c;
  a.reset(nullptr, v, 21);
  b.reset(nullptr, v, 21);
  c.reset(nullptr, v, 22);
  run(a, 7);
  run(b, 7);
  run(c, 7);
  CHECK(a.backprop_snapshot()->theta == b.backprop_snapshot()->theta);
  CHECK(a.backprop_snapshot()->trace->rows == b.backprop_snapshot()->trace->rows);
  CHECK(a.backprop_snapshot()->theta != c.backprop_snapshot()->theta);
  a.sub_step();
  a.sub_step();
  std::unique_ptr<Module> d = a.clone();
  for (int i = 0; i < 30; ++i) {
    a.sub_step();
    d->sub_step();
  }
  const auto& sd = dynamic_cast<const BackpropSnapshot&>(*d->snapshot());
  CHECK(a.backprop_snapshot()->theta == sd.theta);
  CHECK(a.backprop_snapshot()->metrics == sd.metrics);
}

TEST_CASE("backprop: the default 2-3-1 sigmoid network learns XOR, the loss falls, epochs count passes") {
  Backprop m;  // the defaults: one point per step, plain SGD
  m.reset(nullptr, with({}), 2);
  const double start = m.backprop_snapshot()->metrics[Backprop::kMetricTrainLoss];
  auto s = run(m, 9);
  CHECK(s->epoch == 2);  // 4 points, batch 1: 4 steps per epoch
  s = run(m, 4000 - 9);
  CHECK(s->status == Status::Running);
  CHECK(s->metrics[Backprop::kMetricTrainLoss] < 0.1 * start);
  CHECK(s->metrics[Backprop::kMetricTrainAccuracy] == 1.0);

  Backprop full;  // the whole batch: one epoch per step, and gradient descent lowers the loss every step
  full.reset(nullptr, with({{"batch", 4}, {"lr", 0.2}}), 2);
  double prev = full.backprop_snapshot()->metrics[Backprop::kMetricTrainLoss];
  for (int i = 0; i < 200; ++i) {
    full.step();
    const double now = full.backprop_snapshot()->metrics[Backprop::kMetricTrainLoss];
    CHECK(now < prev);
    prev = now;
  }
  CHECK(full.backprop_snapshot()->epoch == 200);
}

TEST_CASE("backprop: a loaded dataset: 2-D labelled points, a 1-D regression target") {
  Backprop m;
  m.reset(make_dataset("xor:n=8"), with({{"data", 1}, {"batch", 8}}), 3);
  auto s = run(m, 2);
  CHECK(s->data_x->rows() == 8);
  CHECK(s->graph->widths == std::vector<int>{2, 3, 1});
  CHECK(s->metrics[Backprop::kMetricMaxRelError] < 1e-6);
  CHECK(std::isfinite(s->metrics[Backprop::kMetricTrainAccuracy]));

  Backprop r;
  r.reset(make_dataset("curve:n=16"), with({{"data", 1}, {"loss", 0}}), 3);
  s = run(r, 3);
  CHECK(s->graph->widths.front() == 1);
  CHECK(!s->graph->classification);
  CHECK(std::isnan(s->metrics[Backprop::kMetricTrainAccuracy]));
  CHECK(s->metrics[Backprop::kMetricMaxRelError] < 1e-6);
}

TEST_CASE("backprop: bad input names the parameter") {
  auto message = [](const ParamValues& v, std::shared_ptr<const Dataset> d = nullptr) {
    Backprop m;
    try {
      m.reset(std::move(d), v, 1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message(with({}, {{"layers", "0"}})).find("'layers'") != std::string::npos);
  CHECK(message(with({}, {{"layers", "abc"}})).find("'layers'") != std::string::npos);
  CHECK(message(with({}, {{"layers", "1000000,1000000"}})).find("'layers'") != std::string::npos);
  CHECK(message(with({}, {{"layers", "2,2,2"}})).find("'layers'") != std::string::npos);
  CHECK(message(with({{"batch", 5}})).find("'batch'") != std::string::npos);
  CHECK(message(with({{"data", 1}})).find("'data'") != std::string::npos);  // no dataset
  CHECK(message(with({{"data", 1}}), make_dataset("moons:n=200"))
            .find("'data'") != std::string::npos);
  CHECK(message(with({{"data", 1}}), make_dataset("blobs:n=30,centers=3"))
            .find("'data'") != std::string::npos);
  CHECK(message(with({{"data", 1}, {"loss", 1}}), make_dataset("curve:n=16"))
            .find("'loss'") != std::string::npos);
  // A failed reset keeps nothing half-built: the module still has its previous run.
  Backprop m;
  m.reset(nullptr, with({}), 1);
  run(m, 2);
  CHECK_THROWS_AS(m.reset(nullptr, with({{"batch", 9}}), 1), std::invalid_argument);
  CHECK(m.backprop_snapshot()->iteration == 2);
}

TEST_CASE("backprop: a huge learning rate diverges with the rewind advice, live lr applies next step") {
  Backprop m;
  m.reset(nullptr, with({{"lr", 10}, {"batch", 4}, {"activation", 1}, {"loss", 0}}, {{"layers", "4,4"}}), 3);
  for (int i = 0; i < 200 && m.status() == Status::Running; ++i) m.step();
  CHECK(m.status() == Status::Diverged);
  CHECK(m.snapshot()->message.find("halve the learning rate") != std::string::npos);

  Backprop l;
  l.reset(nullptr, with({}), 3);
  l.step();
  l.set_live("lr", 0.125);
  l.step();
  CHECK(l.backprop_snapshot()->trace->lr == 0.125);
  CHECK_THROWS_AS(l.set_live("layers", 2), std::invalid_argument);
  CHECK_THROWS_AS(l.set_live("lr", 100), std::invalid_argument);
}

TEST_CASE("backprop: registered, and named as its info") {
  CHECK(make_module("backprop")->info().name == "backprop");
}
