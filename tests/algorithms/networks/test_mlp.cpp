// The mlp module: learning (XOR, spirals, moons, a 1-D curve), the epoch
// bookkeeping, sub-steps and clones, determinism across runs and thread
// counts, divergence, and the bad-input errors.
#include "algorithms/networks/mlp.h"

#include "algorithms/core/parallel.h"
#include "tests/support/thread_split.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/loss.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cilab;

namespace {

ParamValues vals(const Mlp& m, std::initializer_list<const char*> sets) {
  ParamValues v = default_values(m.params());
  for (const char* s : sets) apply_assignment(m.params(), v, s, "mlp");
  return v;
}

// Trains until `epochs` epochs are complete (or the run ends).
void train_epochs(Mlp& m, int epochs) {
  while (m.snapshot()->epoch < epochs && !is_terminal(m.status())) m.step();
}

// Accuracy of the module's network on its own training rows (eval mode).
double train_accuracy(const Mlp& m) {
  const MlpProblem& pr = *m.mlp_snapshot()->problem;
  nn::Sequential<float> net = m.network();
  const nn::Mat<float>& out = net.forward(pr.x_train, false);
  int ok = 0;
  for (int i = 0; i < pr.n_train(); ++i) {
    Eigen::Index k = 0;
    out.row(i).maxCoeff(&k);
    ok += static_cast<int>(k) == pr.y_train[static_cast<size_t>(i)];
  }
  return static_cast<double>(ok) / pr.n_train();
}

std::string reset_error(const std::shared_ptr<const Dataset>& d, std::initializer_list<const char*> sets) {
  Mlp m;
  try {
    m.reset(d, vals(m, sets), 0);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool same_weights(const nn::Sequential<float>& a, const nn::Sequential<float>& b) {
  return a.num_params() == b.num_params() &&
         std::memcmp(a.params(), b.params(), a.num_params() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("mlp: XOR and spirals reach 100% training accuracy, moons at least 97% test accuracy") {
  {
    Mlp m;
    m.reset(make_dataset("xor:n=200,noise=0.05"), vals(m, {"layers=8", "activation=tanh", "test_fraction=0"}), 1);
    train_epochs(m, 150);
    CHECK(train_accuracy(m) == 1.0);
  }
  {
    Mlp m;
    m.reset(make_dataset("spirals:n=300,noise=0,turns=1"),
            vals(m, {"layers=32,32", "activation=relu", "test_fraction=0", "lr=0.01"}), 1);
    train_epochs(m, 400);
    CHECK(train_accuracy(m) == 1.0);
  }
  {
    Mlp m;
    m.reset(make_dataset("moons:n=500,noise=0.1"), vals(m, {"layers=16,16", "test_fraction=0.3"}), 1);
    train_epochs(m, 60);
    const auto s = m.mlp_snapshot();
    CHECK(s->metrics[Mlp::kMetricTestScore] >= 0.97);
    CHECK(s->problem->n_test() == 150);
  }
}

TEST_CASE("mlp: a 1-D regression curve is fitted (R^2 on the test rows) and reported in the target's units") {
  Mlp m;
  m.reset(make_dataset("curve:function=sin,n=300,noise=0.05"), vals(m, {"layers=32,32", "activation=tanh"}), 2);
  CHECK(m.info().metrics[Mlp::kMetricTestScore].name == "test_r2");
  CHECK(m.info().epoch_columns.back() == "test_r2");
  train_epochs(m, 150);
  const auto s = m.mlp_snapshot();
  CHECK(s->metrics[Mlp::kMetricTestScore] > 0.95);
  // Test MSE in the target's units: near the noise variance, far below Var(sin x) ~ 0.5.
  CHECK(s->metrics[Mlp::kMetricTestLoss] < 0.05);
  // The reported test loss is the mean squared error of the evaluation's predictions.
  const MlpProblem& pr = *s->problem;
  double sse = 0;
  for (int i = 0; i < pr.n_test(); ++i) {
    const double e = s->evaluation->values[static_cast<size_t>(i)] - pr.target_value(pr.t_test(i, 0));
    sse += e * e;
  }
  CHECK(sse / pr.n_test() == doctest::Approx(s->metrics[Mlp::kMetricTestLoss]).epsilon(1e-4));
}

TEST_CASE("mlp: an epoch is ceil(n_train / batch) steps, its train_loss is the mean of its batch losses") {
  Mlp m;
  m.reset(make_dataset("moons:n=100"), vals(m, {"batch=16", "test_fraction=0.2"}), 3);
  const int bpe = (80 + 15) / 16;
  CHECK(m.mlp_snapshot()->batches_per_epoch == bpe);
  double sum = 0;
  int rows = 0;
  for (int k = 0; k < bpe; ++k) {
    CHECK(m.snapshot()->epoch == 0);
    m.step();
    const auto s = m.mlp_snapshot();
    const int b = static_cast<int>(s->batch->size());
    CHECK(b == (k + 1 < bpe ? 16 : 80 - 16 * (bpe - 1)));
    sum += s->metrics[Mlp::kMetricLoss] * b;
    rows += b;
  }
  const auto s = m.mlp_snapshot();
  CHECK(s->epoch == 1);
  CHECK(rows == 80);
  REQUIRE(s->epochs->size() == 2);
  CHECK(s->epochs->back().iteration == bpe);
  CHECK(s->metrics[Mlp::kMetricTrainLoss] == doctest::Approx(sum / rows).epsilon(1e-12));
  // The confusion matrix counts every test row once.
  int total = 0;
  for (int c : s->evaluation->confusion) total += c;
  CHECK(total == 20);
}

TEST_CASE("mlp: forward/backward/update sub-steps equal a step, a clone between them continues identically") {
  const auto data = make_dataset("moons:n=200");
  for (const char* extra : {"dropout=0", "dropout=0.3", "batch_norm=true"}) {
    INFO(std::string(extra));
    Mlp a, b;
    a.reset(data, vals(a, {extra}), 5);
    b.reset(data, vals(b, {extra}), 5);
    for (int k = 0; k < 7; ++k) a.step();
    for (int k = 0; k < 7; ++k) {
      b.sub_step();
      CHECK(b.snapshot()->phase == 1);
      std::unique_ptr<Module> c = b.clone();
      b.sub_step();
      CHECK(b.snapshot()->phase == 2);
      b.sub_step();
      CHECK(b.snapshot()->phase == 0);
      c->step();  // finishes the clone's iteration
      CHECK(same_weights(static_cast<Mlp&>(*c).network(), b.network()));
    }
    CHECK(same_weights(a.network(), b.network()));
    CHECK(a.snapshot()->metrics == b.snapshot()->metrics);
  }
}

TEST_CASE("mlp: the same seed gives bit-identical weights with 1 and 2 threads, another seed does not") {
  // Sized so that the hidden layers' products (256 x 128 x 128 = 4.2M multiply-adds, two
  // column blocks) are above the GEMMs' parallel threshold: with 2 threads the pool really
  // splits them, which the pool's statistics confirm.
  const auto data = make_dataset("spirals:n=400");
  auto run = [&](int threads, uint64_t seed) {
    set_max_threads(threads);
    Mlp m;
    m.reset(data, vals(m, {"layers=128,128", "batch=256", "dropout=0.1"}), seed);
    for (int k = 0; k < 30; ++k) m.step();
    set_max_threads(0);
    return m.network();
  };
  const auto [one, two] = test_support::one_and_two_threads([&](int threads) { return run(threads, 7); }, 30);
  const nn::Sequential<float> again = run(2, 7), other = run(1, 8);
  CHECK(same_weights(one, two));
  CHECK(same_weights(two, again));
  CHECK_FALSE(same_weights(one, other));
}

TEST_CASE("mlp: a non-finite loss makes the run Diverged with the rewind-and-halve advice") {
  Mlp m;
  m.reset(make_dataset("curve:n=200"), vals(m, {"optimizer=sgd", "lr=10", "layers=32,32"}), 1);
  for (int k = 0; k < 5000 && !is_terminal(m.status()); ++k) m.step();
  const auto s = m.snapshot();
  REQUIRE(s->status == Status::Diverged);
  CHECK(s->message.find("non-finite") != std::string::npos);
  CHECK(s->message.find("halve the learning rate") != std::string::npos);
  const int it = s->iteration;
  m.step();  // a terminal run does not move
  CHECK(m.snapshot()->iteration == it);
}

TEST_CASE("mlp: max_epochs stops the run, raising it live resumes") {
  Mlp m;
  m.reset(make_dataset("moons:n=100"), vals(m, {"max_epochs=2", "batch=40"}), 1);
  train_epochs(m, 10);
  CHECK(m.status() == Status::Stopped);
  CHECK(m.snapshot()->epoch == 2);
  m.set_live("max_epochs", 3);
  CHECK(m.status() == Status::Running);
  train_epochs(m, 10);
  CHECK(m.snapshot()->epoch == 3);
}

TEST_CASE("mlp: bad input names the parameter and what to try") {
  const auto moons = make_dataset("moons:n=100");
  Mlp m;
  CHECK_THROWS_WITH_AS(vals(m, {"layers=0"}), doctest::Contains("layers"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(vals(m, {"layers=abc"}), doctest::Contains("layers"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(vals(m, {"layers=1000000,1000000"}), doctest::Contains("layers"), std::invalid_argument);
  const std::string huge = reset_error(moons, {"layers=4096,4096,4096,4096,4096,4096,4096,4096"});
  CHECK(huge.find("'layers'") != std::string::npos);
  CHECK(huge.find("MiB") != std::string::npos);
  const std::string big_batch = reset_error(moons, {"batch=90", "test_fraction=0.2"});
  CHECK(big_batch.find("'batch'") != std::string::npos);
  CHECK(big_batch.find("batch <= 80") != std::string::npos);
  CHECK(reset_error(moons, {"task=regression"}).find("target column") != std::string::npos);
  CHECK(reset_error(make_dataset("curve:n=50"), {"task=classification"}).find("class labels") != std::string::npos);
  CHECK(reset_error(make_dataset("uniform:n=50"), {}).find("fewer than 2 classes") != std::string::npos);
  Dataset none;
  none.x = Eigen::MatrixXd::Random(20, 2);
  none.name = "plain";
  CHECK(reset_error(std::make_shared<const Dataset>(none), {}).find("neither class labels nor a target") !=
        std::string::npos);
}
