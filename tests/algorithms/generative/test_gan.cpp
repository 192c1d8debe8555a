// The gan module (algorithms/generative/gan.h) and its targets and measures
// (algorithms/generative/gan_targets.h): the mode-coverage count and the grid
// divergences against constructed samples, the D step / G step protocol,
// determinism, copies taken mid-iteration, divergence and bad input.
#include "algorithms/generative/gan.h"

#include "algorithms/data/datasets.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

using namespace cilab;

namespace {

ParamValues vals(const Gan& m, std::initializer_list<const char*> sets) {
  ParamValues v = default_values(m.params());
  for (const char* s : sets) apply_assignment(m.params(), v, s, "gan");
  return v;
}

std::string reset_error(const std::shared_ptr<const Dataset>& d, std::initializer_list<const char*> sets) {
  Gan m;
  try {
    m.reset(d, vals(m, sets), 0);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool same_weights(const nn::GanNet<float>& a, const nn::GanNet<float>& b) {
  return std::memcmp(a.generator.params(), b.generator.params(), a.generator.num_params() * sizeof(float)) == 0 &&
         std::memcmp(a.discriminator.params(), b.discriminator.params(),
                     a.discriminator.num_params() * sizeof(float)) == 0;
}

const std::shared_ptr<const Dataset>& moons() {
  static const std::shared_ptr<const Dataset> d = make_dataset("moons:n=300,seed=1");
  return d;
}

}  // namespace

TEST_CASE("gan targets: a mode counts as covered from 1 % of the samples within 3 sd of its centre") {
  const GanTargetSpec ring = gan_target_spec(GanTarget::Ring8);
  REQUIRE(ring.modes.size() == 8);
  // 2000 samples: 1980 on mode 0, 20 (exactly 1 %) on mode 1 just inside 3 sd, none elsewhere.
  GanRows s(2000, 2);
  for (int i = 0; i < 2000; ++i) {
    const auto& c = ring.modes[i < 1980 ? 0 : 1];
    const double r = i < 1980 ? 0.0 : 2.99 * ring.sd;
    s(i, 0) = static_cast<float>(c[0] + r);
    s(i, 1) = static_cast<float>(c[1]);
  }
  ModeCoverage m = mode_coverage(s, ring);
  CHECK(m.counts[0] == 1980);
  CHECK(m.counts[1] == 20);
  CHECK(m.covered == 2);
  CHECK(m.high_quality == doctest::Approx(1.0));
  // One sample fewer on mode 1 (moved far away): 19 < 1 % of 2000, mode 1 is lost.
  s(1999, 0) = 100.0f;
  m = mode_coverage(s, ring);
  CHECK(m.counts[1] == 19);
  CHECK(m.covered == 1);
  CHECK(m.high_quality == doctest::Approx(1999.0 / 2000.0));
  // Just outside 3 sd: not a hit.
  s(1998, 0) = static_cast<float>(ring.modes[1][0] + 3.05 * ring.sd);
  CHECK(mode_coverage(s, ring).counts[1] == 18);
}

TEST_CASE("gan targets: the pools sample their mixtures (every mode about 1/8 or 1/25, all within 5 sd)") {
  for (GanTarget t : {GanTarget::Ring8, GanTarget::Grid25}) {
    CAPTURE(gan_target_name(t));
    const GanTargetSpec spec = gan_target_spec(t);
    const GanRows pool = gan_target_pool(t, 5);
    REQUIRE(pool.rows() == kTargetPool);
    const ModeCoverage m = mode_coverage(pool, spec);
    CHECK(m.covered == static_cast<int>(spec.modes.size()));
    CHECK(m.high_quality > 0.985);  // P(|N(0, I_2)| < 3) = 1 - e^{-4.5} = 0.989
    const double share = 1.0 / static_cast<double>(spec.modes.size());
    for (int c : m.counts) CHECK(std::abs(c / static_cast<double>(kTargetPool) - share) < 0.25 * share);
    CHECK(((pool.array() - gan_target_pool(t, 5).array()) == 0).all());  // seeded
  }
  const GanRows moons_pool = gan_target_pool(GanTarget::Moons, 1);
  const GanBox box = gan_target_spec(GanTarget::Moons).box;
  CHECK(moons_pool.col(0).minCoeff() > box.x0);
  CHECK(moons_pool.col(0).maxCoeff() < box.x1);
}

TEST_CASE("gan targets: grid KL and JS are 0 for equal samples, symmetric JS, and JS near log 2 for disjoint ones") {
  const GanBox box{-3, 3, -3, 3};
  const GanRows a = gan_target_pool(GanTarget::Ring8, 1);
  GridDivergence d = grid_divergence(a, a, box);
  CHECK(d.kl == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(d.js == doctest::Approx(0.0).epsilon(1e-12));
  // All fake mass on one far corner cell: nearly disjoint.
  GanRows far = GanRows::Constant(kTargetPool, 2, 2.95f);
  d = grid_divergence(a, far, box, 40, 1e-6);
  CHECK(d.js > 0.99 * std::log(2.0));
  CHECK(d.js <= std::log(2.0) + 1e-12);
  CHECK(d.kl > 5.0);
  const GridDivergence back = grid_divergence(far, a, box, 40, 1e-6);
  CHECK(back.js == doctest::Approx(d.js).epsilon(1e-12));
  // A half-and-half mixture of the two lies between.
  GanRows half = a;
  half.bottomRows(kTargetPool / 2).setConstant(2.95f);
  const GridDivergence mid = grid_divergence(a, half, box, 40, 1e-6);
  CHECK(mid.js > 0.01);
  CHECK(mid.js < d.js);
}

TEST_CASE("gan: an iteration is a D step then a G step, and two sub-steps equal one step, bit for bit") {
  Gan a, b;
  a.reset(moons(), vals(a, {"target=ring8", "batch=64", "g_width=16", "d_width=16"}), 3);
  b.reset(moons(), vals(b, {"target=ring8", "batch=64", "g_width=16", "d_width=16"}), 3);
  const std::vector<float> g0(a.network().generator.params(),
                              a.network().generator.params() + a.network().generator.num_params());
  a.sub_step();  // the D step: D moves, G does not
  auto s = a.gan_snapshot();
  CHECK(s->phase == 1);
  CHECK(s->iteration == 0);
  CHECK(std::isfinite(s->metrics[Gan::kMetricDLoss]));
  CHECK(std::isnan(s->metrics[Gan::kMetricGLoss]));
  CHECK(std::memcmp(g0.data(), a.network().generator.params(), g0.size() * sizeof(float)) == 0);
  a.sub_step();  // the G step
  s = a.gan_snapshot();
  CHECK(s->phase == 0);
  CHECK(s->iteration == 1);
  CHECK(std::isfinite(s->metrics[Gan::kMetricGLoss]));
  CHECK(std::memcmp(g0.data(), a.network().generator.params(), g0.size() * sizeof(float)) != 0);
  b.step();
  CHECK(same_weights(a.network(), b.network()));
}

TEST_CASE("gan: same seed, same run, and a copy taken between the D and the G step finishes the same iteration") {
  for (const char* loss : {"loss=nonsaturating", "loss=wgan_gp"}) {
    CAPTURE(loss);
    Gan a, b;
    a.reset(moons(), vals(a, {"batch=32", "g_width=16", "d_width=16", "d_steps=2", loss}), 11);
    b.reset(moons(), vals(b, {"batch=32", "g_width=16", "d_width=16", "d_steps=2", loss}), 11);
    for (int i = 0; i < 30; ++i) {
      a.step();
      b.step();
    }
    CHECK(same_weights(a.network(), b.network()));
    CHECK(a.snapshot()->metrics[Gan::kMetricDLoss] == b.snapshot()->metrics[Gan::kMetricDLoss]);
    a.sub_step();
    std::unique_ptr<Module> c = a.clone();
    a.sub_step();
    c->sub_step();
    CHECK(same_weights(a.network(), dynamic_cast<Gan&>(*c).network()));
    Gan other;
    other.reset(moons(), vals(other, {"batch=32", "g_width=16", "d_width=16", "d_steps=2", loss}), 12);
    other.step();
    CHECK_FALSE(same_weights(other.network(), b.network()));
  }
}

TEST_CASE("gan: the evaluation runs every 25 iterations on fixed noise, and modes_covered is NaN without modes") {
  Gan m;
  m.reset(moons(), vals(m, {"target=ring8", "batch=64", "g_width=16", "d_width=16"}), 2);
  auto s = m.gan_snapshot();
  REQUIRE(s->eval_fake);
  CHECK(s->eval_fake->rows() == Gan::kEvalSamples);
  CHECK(s->metrics[Gan::kMetricModesCovered] == mode_coverage(*s->eval_fake, s->spec).covered);
  const auto first = s->eval_fake;
  for (int i = 0; i < 24; ++i) m.step();
  CHECK(m.gan_snapshot()->eval_fake == first);
  m.step();
  s = m.gan_snapshot();
  CHECK(s->eval_iteration == 25);
  CHECK(s->eval_fake != first);
  CHECK(s->metrics[Gan::kMetricJs] >= 0);
  CHECK(s->metrics[Gan::kMetricJs] <= std::log(2.0));

  Gan spiral;
  spiral.reset(moons(), vals(spiral, {"target=spiral", "batch=16", "g_width=8", "d_width=8"}), 2);
  spiral.step();
  CHECK(std::isnan(spiral.snapshot()->metrics[Gan::kMetricModesCovered]));
  CHECK(std::isfinite(spiral.snapshot()->metrics[Gan::kMetricKl]));
}

TEST_CASE("gan: the loss switches live and wgan_gp reports its penalty and the Wasserstein estimate") {
  Gan m;
  m.reset(moons(), vals(m, {"batch=32", "g_width=16", "d_width=16"}), 4);
  m.step();
  CHECK(std::isnan(m.snapshot()->metrics[Gan::kMetricPenalty]));
  m.set_live("loss", static_cast<double>(nn::GanLoss::WassersteinGP));
  m.step();
  auto s = m.snapshot();
  CHECK(s->status == Status::Running);
  CHECK(s->metrics[Gan::kMetricPenalty] > 0);
  CHECK(s->metrics[Gan::kMetricWasserstein] ==
        doctest::Approx(s->metrics[Gan::kMetricDReal] - s->metrics[Gan::kMetricDFake]));
  CHECK_THROWS_AS(m.set_live("latent", 3), std::invalid_argument);  // a rebuild parameter
}

TEST_CASE("gan: on a loaded dataset it learns two z-scored features, or the pixels of one class in [-1, 1]") {
  Gan m;
  m.reset(make_dataset("iris"), vals(m, {"target=data", "feature_x=2", "feature_y=3", "batch=32", "g_width=8", "d_width=8"}), 0);
  auto s = m.gan_snapshot();
  REQUIRE(s->pool);
  CHECK(s->pool->cols() == 2);
  CHECK(std::abs(s->pool->col(0).mean()) < 1e-5);
  CHECK(s->pool->col(0).cast<double>().squaredNorm() / static_cast<double>(s->pool->rows()) == doctest::Approx(1.0));
  CHECK(s->axis_names[0] == make_dataset("iris")->column_names[2]);
  m.step();
  CHECK(m.snapshot()->status == Status::Running);

  Gan img;
  img.reset(make_dataset("fashion-mnist:n=300"), vals(img, {"target=data", "label=3", "batch=16", "g_width=32", "d_width=32"}), 0);
  s = img.gan_snapshot();
  CHECK(s->image);
  CHECK(s->pool->cols() == 784);
  CHECK(s->pool->minCoeff() >= -1.0f);
  CHECK(s->pool->maxCoeff() <= 1.0f);
  const auto fm = make_dataset("fashion-mnist:n=300");
  int class3 = 0;
  for (int l : fm->labels) class3 += l == 3;
  CHECK(s->pool->rows() == class3);
  img.step();
  CHECK(img.snapshot()->status == Status::Running);
  CHECK(std::isnan(img.snapshot()->metrics[Gan::kMetricKl]));
}

TEST_CASE("gan: bad input names the parameter and what to try") {
  Gan m;
  for (const char* bad : {"g_width=0", "d_width=0", "batch=0", "latent=0", "d_steps=0"}) {
    CAPTURE(bad);
    ParamValues v = default_values(m.params());
    try {
      apply_assignment(m.params(), v, bad, "gan");
      FAIL("accepted " << bad);
    } catch (const std::invalid_argument& e) {
      const std::string name(bad, std::strchr(bad, '=') - bad);
      CHECK(std::string(e.what()).find("'" + name + "'") != std::string::npos);
    }
  }
  const std::string one_col = reset_error(make_dataset("uniform:n=50,dim=1"), {"target=data"});
  CHECK(one_col.find("'target'") != std::string::npos);
  CHECK(one_col.find("at least 2") != std::string::npos);
  CHECK(reset_error(moons(), {"target=data", "feature_y=7"}).find("'feature_y'") != std::string::npos);
  CHECK(reset_error(moons(), {"target=data", "feature_y=0"}).find("different") != std::string::npos);
  CHECK(reset_error(moons(), {"target=data", "label=9"}).find("'label'") != std::string::npos);
  CHECK(reset_error(moons(), {"target=ring8"}).empty());
}

TEST_CASE("gan: a non-finite loss makes the run Diverged with the rewind-and-halve advice") {
  Gan m;
  m.reset(moons(), vals(m, {"loss=least_squares", "g_optimizer=sgd", "d_optimizer=sgd", "g_lr=10", "d_lr=10",
                             "batch=32", "g_width=16", "d_width=16"}), 0);
  for (int i = 0; i < 500 && !is_terminal(m.snapshot()->status); ++i) m.step();
  auto s = m.snapshot();
  REQUIRE(s->status == Status::Diverged);
  CHECK(s->message.find("non-finite") != std::string::npos);
  CHECK(s->message.find("halve the learning rate") != std::string::npos);
  const int it = s->iteration;
  m.step();
  CHECK(m.snapshot()->iteration == it);
}

TEST_CASE("gan: max_steps stops the run and raising it live resumes it") {
  Gan m;
  m.reset(moons(), vals(m, {"batch=16", "g_width=8", "d_width=8", "max_steps=3"}), 0);
  for (int i = 0; i < 5; ++i) m.step();
  auto s = m.snapshot();
  CHECK(s->iteration == 3);
  CHECK(s->status == Status::Stopped);
  CHECK(s->message.find("max_steps") != std::string::npos);
  m.set_live("max_steps", 5);
  m.step();
  CHECK(m.snapshot()->iteration == 4);
}

