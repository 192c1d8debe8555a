// The gan module: see gan.h for the model, the iteration and the measures.
#include "algorithms/generative/gan.h"
#include "algorithms/nn/trainer_impl.h"

#include "algorithms/core/rng.h"
#include "algorithms/nn/train_params.h"
#include "algorithms/nn/trainer_state.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace cilab {

using nn::Mat;

namespace {

const ParamTable<Gan::Params>& param_table() {
  static const ParamTable<Gan::Params> kTable = [] {
    using P = Gan::Params;
    std::vector<ParamField<P>> rows = {
        Choice("target", &P::target, {"ring8", "grid25", "moons", "spiral", "data"})
            .choice_help({"8 Gaussians (sd 0.05) on the circle of radius 2: the mode-collapse benchmark",
                          "25 Gaussians (sd 0.05) on the grid {-4, -2, 0, 2, 4}^2",
                          "two interleaving half circles (make_moons, noise 0.05), scaled by 2",
                          "two interleaved spiral arms (noise 0.03), scaled by 3",
                          "the loaded dataset: two z-scored features (click points in to draw your own), or "
                          "every pixel of an image dataset (the image GAN)"})
            .help("the distribution the generator learns (built-in targets ignore the loaded dataset)"),
        Int("feature_x", &P::feature_x, 0, 1000000)
            .shown_if("target=data")
            .help("target = data: the dataset column on the horizontal axis"),
        Int("feature_y", &P::feature_y, 0, 1000000)
            .shown_if("target=data")
            .help("target = data: the dataset column on the vertical axis"),
        Int("label", &P::label, -1, 1000000)
            .shown_if("target=data")
            .help("target = data: train on the rows of this class only (-1: every row), e.g. one "
                  "Fashion-MNIST class"),
        Choice("loss", &P::loss, {"minimax", "nonsaturating", "least_squares", "wgan_gp"})
            .choice_help({"Goodfellow's min-max game: G minimises mean log(1 - D(G(z))); its gradient vanishes "
                          "when D rejects the fakes confidently (saturates)",
                          "G maximises mean log D(G(z)) instead (the paper's practical fix); D as minimax",
                          "LSGAN (Mao et al. 2017): D: 1/2 (l_real - 1)^2 + 1/2 l_fake^2, G: 1/2 (l_fake - 1)^2",
                          "WGAN-GP (Gulrajani et al. 2017): critic mean l_fake - mean l_real + lambda "
                          "(||grad l(x_hat)|| - 1)^2, G: -mean l_fake"})
            .live()
            .help("the losses of D and G (live: switch it while training)")
            .formula("min_G max_D E_data log D(x) + E_z log(1 - D(G(z)))"),
        Real("gp_lambda", &P::gp_lambda, 0, 1000)
            .live()
            .shown_if("loss=wgan_gp")
            .help("weight of WGAN-GP's gradient penalty on x_hat = eps x_real + (1 - eps) x_fake (the paper: 10)")
            .formula("GP = lambda mean (||grad_x D(x_hat)|| - 1)^2"),
        Int("latent", &P::latent, 1, 256)
            .help("size of the noise z ~ N(0, I) fed to the generator (2: the view draws its image of a z grid)"),
        Int("g_depth", &P::g_depth, 0, 8).help("hidden layers of the generator"),
        Int("g_width", &P::g_width, 1, 4096).help("units per hidden layer of the generator"),
        Choice("g_activation", &P::g_activation, nn::activation_names())
            .help("activation of the generator's hidden layers (torch.nn names)"),
        Int("d_depth", &P::d_depth, 0, 8).help("hidden layers of the discriminator"),
        Int("d_width", &P::d_width, 1, 4096).help("units per hidden layer of the discriminator"),
        Choice("d_activation", &P::d_activation, nn::activation_names())
            .help("activation of the discriminator's hidden layers (torch.nn names)"),
        Int("d_steps", &P::d_steps, 1, 100)
            .live()
            .help("discriminator steps per generator step (k in Goodfellow et al.'s Algorithm 1; WGAN-GP: 5)"),
        batch_param(&P::batch, "mini-batch size m: real rows and noise vectors per step"),
        init_param(&P::init),
        Int("max_steps", &P::max_steps, 1, 100000000)
            .budget()
            .help("training budget in iterations (one iteration = d_steps D steps + one G step); the run stops there"),
    };
    std::vector<ParamField<P>> g = prefixed_optimizer_params(&P::g_optim, "g_", "generator");
    std::vector<ParamField<P>> d = prefixed_optimizer_params(&P::d_optim, "d_", "discriminator");
    rows.insert(rows.end(), g.begin(), g.end());
    rows.insert(rows.end(), d.begin(), d.end());
    return ParamTable<P>(std::move(rows));
  }();
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Gan::kMetricDLoss, "d_loss", "the discriminator's loss on the last D step's batch (minimax/nonsaturating: -mean log D(x) - mean log(1 - D(G(z))), log 4 at D = 1/2; wgan_gp: penalty included)", false},
      {Gan::kMetricGLoss, "g_loss", "the generator's loss on the G step's batch (minimax: mean log(1 - D(G(z))); nonsaturating: -mean log D(G(z)); least_squares: 1/2 mean (D(G(z)) - 1)^2; wgan_gp: -mean D(G(z)))", false},
      {Gan::kMetricDReal, "d_real", "mean D(x) on the real rows of the last D step (a probability for minimax/nonsaturating; the raw output for least_squares and wgan_gp)", false},
      {Gan::kMetricDFake, "d_fake", "mean D(G(z)) on the generated rows of the last D step (1/2 = 1/2 at the equilibrium p_g = p_data)", false},
      {Gan::kMetricModesCovered, "modes_covered", "modes with >= 1 % of 2 000 generated samples (fixed noise, every 25 iterations) within 3 sd of their centre (NaN: the target has no modes)", false},
      {Gan::kMetricHighQuality, "high_quality", "share of the 2 000 generated samples within 3 sd of some mode (NaN: no modes)", false},
      {Gan::kMetricKl, "kl", "KL(p_data || p_g) between histograms of the target's 20 000 rows and 2 000 generated samples on a 40 x 40 grid over the plot (0.5 added to every cell): GAN Lab's measure", false},
      {Gan::kMetricJs, "js", "JS(p_data || p_g) of the same histograms, in [0, log 2]", false},
      {Gan::kMetricWasserstein, "wasserstein", "wgan_gp: mean critic(real) - mean critic(fake) on the last D step, the critic's estimate of the Wasserstein-1 distance (NaN for other losses)", false},
      {Gan::kMetricPenalty, "penalty", "wgan_gp: lambda mean (||grad_x D(x_hat)|| - 1)^2 on the last D step (NaN for other losses)", false},
      {Gan::kMetricGGradNorm, "g_grad_norm", "||dL_G/dtheta_G|| of the G step: near 0 while the minimax loss saturates", true},
      {Gan::kMetricDGradNorm, "d_grad_norm", "||dL_D/dtheta_D|| of the last D step", true},
      {Gan::kMetricLrG, "lr_g", "the generator's learning rate", true},
      {Gan::kMetricLrD, "lr_d", "the discriminator's learning rate", true},
  };
  return kMetrics;
}

const ModuleInfo& module_info() {
  static const ModuleInfo kInfo = [] {
    ModuleInfo m;
    m.name = "gan";
    m.title = "Generative adversarial network";
    m.chapter = "Generative models";
    m.summary =
        "Train a GAN live, GAN Lab's lesson and more: real and generated samples over the discriminator's "
        "heatmap, the generator's image of a z grid as a warped mesh, gradient arrows, D and G losses, mode "
        "coverage, KL/JS on a grid; minimax, non-saturating, least-squares and WGAN-GP losses; the optimal "
        "discriminator's identity V(G, D*) = 2 JS - log 4 in 1-D; an MLP GAN on Fashion-MNIST.";
    m.metrics = metric_table().infos();
    m.sub_steps = {"D step", "G step"};
    m.default_dataset = "moons";
    m.default_cli_steps = 1000;
    m.data_use = [](const ParamValues& v) -> std::string {
      const std::string t = choice_name(param_table().specs(), v, "target");
      if (t == "data" || t.empty()) return "";
      return "gan learns the built-in target " + t + " (target=" + t +
             "); target=data learns the dataset below instead";
    };
    m.iteration_columns = {"d_loss", "g_loss", "d_real", "d_fake", "modes_covered"};
    return m;
  }();
  return kInfo;
}

// ||g|| summed in double, in 8 interleaved partial sums (vectorised; a fixed
// order), NaN or inf when an entry is.
double flat_norm(const float* g, size_t n) {
  constexpr size_t kLanes = 8;
  double part[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (size_t k = 0; k < kLanes; ++k) part[k] += static_cast<double>(g[i + k]) * static_cast<double>(g[i + k]);
  double sum = 0;
  for (; i < n; ++i) sum += static_cast<double>(g[i]) * static_cast<double>(g[i]);
  for (double p : part) sum += p;
  return std::sqrt(sum);
}

// Whether every entry is finite (its exponent bits not all ones; an integer
// reduction, vectorised).
bool all_finite(const float* w, size_t n) {
  constexpr uint32_t kExp = 0x7f800000u;
  uint32_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, w + i, sizeof bits);
    bad |= static_cast<uint32_t>((bits & kExp) == kExp);
  }
  return bad == 0;
}

void fill_normal(Rng& rng, Mat<float>& m) {
  float* p = m.data();
  for (Eigen::Index i = 0; i < m.size(); ++i) p[i] = static_cast<float>(rng.normal());
}

nn::Sequential<float> make_mlp(int in, int depth, int width, nn::Activation act, int out, bool tanh_out) {
  nn::Sequential<float> net;
  for (int k = 0; k < depth; ++k) {
    net.add(nn::make_linear<float>(width));
    net.add(nn::make_activation<float>(act));
  }
  net.add(nn::make_linear<float>(out));
  if (tanh_out) net.add(nn::make_activation<float>(nn::Activation::Tanh));
  net.build(in);
  return net;
}

std::string layer_string(int in, int depth, int width, int out) {
  std::ostringstream s;
  s << in;
  for (int k = 0; k < depth; ++k) s << "-" << width;
  s << "-" << out;
  return s.str();
}

}  // namespace

OptimizerConfig Gan::Params::default_optimizer() { return OptimizerConfig::defaults(OptimizerKind::Adam); }

size_t GanSnapshot::byte_size() const {
  // The network copy is shared by ~100 ms of snapshots (shared_parts(), counted
  // once by the history budget); the pool and the evaluation by every snapshot
  // between evaluations.
  return Snapshot::byte_size() + sizeof(*this) + architecture.size();
}

void GanSnapshot::shared_parts(std::vector<SharedPart>& out) const {
  if (net)
    out.push_back({net.get(), (net->generator.num_params() + net->discriminator.num_params()) * 2 * sizeof(float)});
}

// ---------------------------------------------------------------- state

// p, seed, ready, net (both networks), loop, net_copy, architecture, cache:
// TrainerState's (trainer_state.h).
struct Gan::State : TrainerState<Params, nn::GanNet<float>, GanSnapshot> {
  GanTarget target = GanTarget::Ring8;
  GanTargetSpec spec;
  std::shared_ptr<const GanRows> pool;
  std::shared_ptr<const std::vector<double>> pool_histogram;  // grid_histogram of the pool (2-D)
  bool image = false;
  int image_h = 0, image_w = 0;
  std::array<double, 2> offset{0, 0}, scale{1, 1};
  std::array<std::string, 2> axis_names{"x1", "x2"};
  nn::Sequential<float> eval_g;  // G's architecture for the evaluation (its own buffers)
  Optimizer g_opt, d_opt;
  Rng noise{0}, picks{0}, mix{0};

  Mat<float> z, real, eps, eval_z;
  bool g_forward_valid = false;  // net.generator's last forward was on z (not after a copy)
  nn::GanDTerms d_terms;
  nn::GanGTerms g_terms;
  double g_grad_norm = std::nan(""), d_grad_norm = std::nan("");
  bool stepped_d = false, stepped_g = false;

  std::shared_ptr<const GanRows> eval_fake, eval_noise;
  int eval_iteration = 0;
  ModeCoverage coverage;
  GridDivergence divergence{std::nan(""), std::nan("")};

  // Trainer's live-change hooks (trainer.h): each network's optimizer takes its new
  // settings (validating them), the model its loss; the loop the step budget.
  void live_changed(const Params& next) {
    g_opt.set_config(group_config(next.g_optim));
    d_opt.set_config(group_config(next.d_optim));
    net.loss = next.loss;
    net.gp_lambda = next.gp_lambda;
  }
  void budget_changed() { loop.budget_changed(loop.iteration, p.max_steps, "max_steps"); }

  State() : TrainerState(Gan::kNetRefreshMs, 2) {}
  State(const State& o)
      : TrainerState(o), target(o.target), spec(o.spec), pool(o.pool), pool_histogram(o.pool_histogram),
        image(o.image), image_h(o.image_h), image_w(o.image_w), offset(o.offset), scale(o.scale),
        axis_names(o.axis_names), eval_g(o.eval_g), g_opt(o.g_opt), d_opt(o.d_opt), noise(o.noise),
        picks(o.picks), mix(o.mix), z(o.z), real(o.real), eps(o.eps), eval_z(o.eval_z), g_forward_valid(false),
        d_terms(o.d_terms), g_terms(o.g_terms), g_grad_norm(o.g_grad_norm), d_grad_norm(o.d_grad_norm),
        stepped_d(o.stepped_d), stepped_g(o.stepped_g), eval_fake(o.eval_fake), eval_noise(o.eval_noise),
        eval_iteration(o.eval_iteration), coverage(o.coverage), divergence(o.divergence) {}

  void forward_half() override;
  void update_half() override;
  bool epoch_completed() const override { return false; }
  void draw_real();
  void evaluate();
  void fail(const std::string& why) { loop.fail(why, p.d_optim.lr); }
};

void Gan::State::draw_real() {
  const int b = p.batch;
  const GanRows& x = *pool;
  const Eigen::Index d = x.cols();
  real.resize(b, d);
  const uint64_t n = static_cast<uint64_t>(x.rows());
  const float* src = x.data();
  float* dst = real.data();
  for (int i = 0; i < b; ++i, dst += d) {  // both row-major: copy row pointers' contents
    const float* row = src + static_cast<Eigen::Index>(picks.below(n)) * d;
    for (Eigen::Index k = 0; k < d; ++k) dst[k] = row[k];
  }
}

void Gan::State::forward_half() {
  for (int k = 0; k < p.d_steps; ++k) {
    fill_normal(noise, z);
    const Mat<float>& fake = net.generate(z);
    draw_real();
    if (net.loss == nn::GanLoss::WassersteinGP)
      for (Eigen::Index i = 0; i < eps.rows(); ++i) eps(i, 0) = static_cast<float>(mix.uniform());
    d_terms = net.discriminator_pass(real, fake, eps);
    d_grad_norm = flat_norm(net.discriminator.grads(), net.discriminator.num_params());
    if (!std::isfinite(d_terms.loss) || !std::isfinite(d_grad_norm)) {
      g_forward_valid = false;
      loop.advance();
      fail(std::string("non-finite discriminator ") + (std::isfinite(d_terms.loss) ? "gradient" : "loss"));
      return;
    }
    d_opt.step(net.discriminator.params(), net.discriminator.grads(), p.d_optim.lr);
  }
  g_forward_valid = true;
  stepped_d = true;
  if (!all_finite(net.discriminator.params(), net.discriminator.num_params())) {
    loop.advance();
    fail("non-finite discriminator weights after the update");
  }
}

void Gan::State::update_half() {
  if (!g_forward_valid) net.generate(z);  // after a copy mid-iteration: the same rows again
  g_terms = net.generator_pass();
  g_forward_valid = false;
  g_grad_norm = flat_norm(net.generator.grads(), net.generator.num_params());
  stepped_g = true;
  if (!std::isfinite(g_terms.loss) || !std::isfinite(g_grad_norm)) {
    loop.advance();
    fail(std::string("non-finite generator ") + (std::isfinite(g_terms.loss) ? "gradient" : "loss"));
    return;
  }
  g_opt.step(net.generator.params(), net.generator.grads(), p.g_optim.lr);
  loop.advance();
  if (!all_finite(net.generator.params(), net.generator.num_params())) {
    fail("non-finite generator weights after the update");
    return;
  }
  if (loop.iteration % Gan::kEvalEvery == 0) evaluate();
  loop.stop_at_budget(loop.iteration, p.max_steps, "max_steps");
}

void Gan::State::evaluate() {
  eval_iteration = loop.iteration;
  if (image) return;  // the view draws the fixed-noise grid from the network copy
  std::memcpy(eval_g.params(), net.generator.params(), net.generator.num_params() * sizeof(float));
  auto fake = std::make_shared<GanRows>(eval_g.forward(eval_z, false));
  if (!spec.modes.empty()) coverage = mode_coverage(*fake, spec);
  divergence = grid_divergence(*pool_histogram, *fake, spec.box);
  eval_fake = fake;
}

// ---------------------------------------------------------------- module

const ModuleInfo& Gan::info() const { return module_info(); }
const ParamTable<Gan::Params>& module_params(const Gan*) { return param_table(); }
Gan::Params Gan::params_from(const ParamValues& values) { return param_table().read(values); }
const nn::GanNet<float>& Gan::network() const { return st_->net; }

namespace {

// The data target's rows in network units (see gan.h), with what the snapshot needs to undo the scaling.
void load_data_target(const Dataset& d, const Gan::Params& p, GanRows& rows, bool& image, std::array<double, 2>& offset,
                      std::array<double, 2>& scale, std::array<std::string, 2>& names, GanBox& box) {
  std::vector<int> keep;
  for (int i = 0; i < d.rows(); ++i)
    if (p.label < 0 || (d.has_labels() && d.labels[static_cast<size_t>(i)] == p.label)) keep.push_back(i);
  if (keep.empty())
    throw std::invalid_argument("gan: parameter 'label' = " + std::to_string(p.label) + " selects no row of '" +
                                d.name + "'" + (d.has_labels() ? "" : " (it has no labels)") +
                                "; try label=-1 (every row)");
  const int n = static_cast<int>(keep.size());
  image = d.is_image();
  if (image) {
    const double lo = d.x.minCoeff(), hi = d.x.maxCoeff();
    const double span = hi > lo ? hi - lo : 1.0;
    rows.resize(n, d.cols());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < d.cols(); ++j)
        rows(i, j) = static_cast<float>(2.0 * (d.x(keep[static_cast<size_t>(i)], j) - lo) / span - 1.0);
    offset = {lo + 0.5 * span, lo + 0.5 * span};
    scale = {0.5 * span, 0.5 * span};
    return;
  }
  if (d.cols() < 2)
    throw std::invalid_argument("gan: parameter 'target' = data needs a dataset with at least 2 feature columns, "
                                "but '" + d.name + "' has " + std::to_string(d.cols()) +
                                "; load one with 2 or more, or choose target=ring8, grid25, moons or spiral");
  const int cols[2] = {p.feature_x, p.feature_y};
  const char* names_of[2] = {"feature_x", "feature_y"};
  for (int k = 0; k < 2; ++k)
    if (cols[k] >= d.cols())
      throw std::invalid_argument("gan: parameter '" + std::string(names_of[k]) + "' = " + std::to_string(cols[k]) +
                                  " is not a column of '" + d.name + "' (0.." + std::to_string(d.cols() - 1) + ")");
  if (cols[0] == cols[1])
    throw std::invalid_argument("gan: parameters 'feature_x' and 'feature_y' are both " + std::to_string(cols[0]) +
                                "; choose two different columns");
  rows.resize(n, 2);
  for (int k = 0; k < 2; ++k) {
    double mean = 0, sq = 0;
    for (int i : keep) mean += d.x(i, cols[k]);
    mean /= n;
    for (int i : keep) sq += (d.x(i, cols[k]) - mean) * (d.x(i, cols[k]) - mean);
    const double sd = n > 1 && sq > 0 ? std::sqrt(sq / n) : 1.0;
    offset[static_cast<size_t>(k)] = mean;
    scale[static_cast<size_t>(k)] = sd;
    names[static_cast<size_t>(k)] = static_cast<size_t>(cols[k]) < d.column_names.size()
                                        ? d.column_names[static_cast<size_t>(cols[k])]
                                        : "x" + std::to_string(cols[k]);
    for (int i = 0; i < n; ++i) rows(i, k) = static_cast<float>((d.x(keep[static_cast<size_t>(i)], cols[k]) - mean) / sd);
  }
  const Eigen::Vector2f lo = rows.colwise().minCoeff().transpose(), hi = rows.colwise().maxCoeff().transpose();
  const double pad = 0.15;
  const double wx = std::max(1e-3, static_cast<double>(hi[0] - lo[0])), wy = std::max(1e-3, static_cast<double>(hi[1] - lo[1]));
  box = {lo[0] - pad * wx, hi[0] + pad * wx, lo[1] - pad * wy, hi[1] + pad * wy};
}

}  // namespace

void Gan::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = param_table().read(values);
  const OptimizerConfig gc = checked_group_config(p.g_optim), dc = checked_group_config(p.d_optim);
  auto s = new_state<State>(p, seed);
  s->target = p.target;
  s->spec = gan_target_spec(p.target);
  if (p.target == GanTarget::Data) {
    require_usable_data(data.get(), "gan");
    auto rows = std::make_shared<GanRows>();
    load_data_target(*data, p, *rows, s->image, s->offset, s->scale, s->axis_names, s->spec.box);
    if (s->image) {
      s->image_h = data->image_h;
      s->image_w = data->image_w;
    }
    s->pool = rows;
  } else {
    s->pool = std::make_shared<const GanRows>(gan_target_pool(p.target, seed ^ 0x7a29e7ULL));
  }
  const int d = static_cast<int>(s->pool->cols());
  if (!s->image) s->pool_histogram = std::make_shared<const std::vector<double>>(grid_histogram(*s->pool, s->spec.box));
  const double n_params = static_cast<double>(p.latent + 1) * p.g_width + static_cast<double>(p.g_width + 1) * p.g_width * std::max(0, p.g_depth - 1) +
                          static_cast<double>(p.g_width + 1) * d + static_cast<double>(d + 1) * p.d_width +
                          static_cast<double>(p.d_width + 1) * p.d_width * std::max(0, p.d_depth - 1);
  constexpr double kMaxBytes = 1024.0 * 1024 * 1024;
  if (n_params * 5 * sizeof(float) > kMaxBytes)
    throw std::invalid_argument("gan: parameters 'g_width' = " + std::to_string(p.g_width) + " and 'd_width' = " +
                                std::to_string(p.d_width) + " give " + fmt_g(n_params) +
                                " weights (over 1 GiB with gradients and Adam's state); try smaller widths");
  s->net.loss = p.loss;
  s->net.gp_lambda = p.gp_lambda;
  s->net.generator = make_mlp(p.latent, p.g_depth, p.g_width, p.g_activation, d, s->image);
  s->net.discriminator = make_mlp(d, p.d_depth, p.d_width, p.d_activation, 1, false);
  Rng rng(seed);
  s->net.generator.init(rng, p.init);
  s->net.discriminator.init(rng, p.init);
  s->eval_g = s->net.generator;
  s->g_opt = Optimizer(gc, s->net.generator.num_params());
  s->d_opt = Optimizer(dc, s->net.discriminator.num_params());
  s->noise = Rng(seed + 1);
  s->picks = Rng(seed + 2);
  s->mix = Rng(seed + 3);
  s->z.resize(p.batch, p.latent);
  s->eps.resize(p.batch, 1);
  s->eval_z.resize(kEvalSamples, p.latent);
  Rng eval_rng(seed ^ kEvalNoiseSeed);
  fill_normal(eval_rng, s->eval_z);
  s->eval_noise = std::make_shared<const GanRows>(s->eval_z);
  std::ostringstream arch;
  arch << "G " << layer_string(p.latent, p.g_depth, p.g_width, d) << " " << nn::activation_name(p.g_activation)
       << (s->image ? " + tanh" : "") << " | D " << layer_string(d, p.d_depth, p.d_width, 1) << " "
       << nn::activation_name(p.d_activation);
  s->architecture = arch.str();
  s->coverage.counts.assign(s->spec.modes.size(), 0);
  s->evaluate();
  s->start();
  st_ = std::move(s);
}

size_t Gan::state_bytes() const {
  const State& s = *st_;
  if (!s.ready) return sizeof(State);
  return sizeof(State) + 6 * (s.net.generator.num_params() + s.net.discriminator.num_params()) * sizeof(float) +
         static_cast<size_t>(s.z.size() + s.real.size() * 4 + s.eval_z.size() * 2) * sizeof(float);
}

std::shared_ptr<const Snapshot> Gan::snapshot() const { return gan_snapshot(); }

std::shared_ptr<const GanSnapshot> Gan::gan_snapshot() const {
  const State& s = *st_;
  return cached_snapshot(s, metric_table(), [&s](GanSnapshot& out) {
    out.target = s.target;
    out.spec = s.spec;
    out.pool = s.pool;
    out.image = s.image;
    out.image_h = s.image_h;
    out.image_w = s.image_w;
    out.offset = s.offset;
    out.scale = s.scale;
    out.axis_names = s.axis_names;
    out.eval_fake = s.eval_fake;
    out.eval_noise = s.eval_noise;
    out.eval_iteration = s.eval_iteration;
    out.coverage = s.coverage;
    out.loss = s.p.loss;
    out.d_steps = s.p.d_steps;
    out.latent = s.p.latent;
    out.batch = s.p.batch;
    out.lr_g = s.p.g_optim.lr;
    out.lr_d = s.p.d_optim.lr;
    out.g_params = s.net.generator.num_params();
    out.d_params = s.net.discriminator.num_params();
    std::vector<double>& m = out.metrics;
    if (s.stepped_d) {
      m[kMetricDLoss] = s.d_terms.loss;
      m[kMetricDReal] = s.d_terms.real;
      m[kMetricDFake] = s.d_terms.fake;
      m[kMetricDGradNorm] = s.d_grad_norm;
      if (s.net.loss == nn::GanLoss::WassersteinGP) {
        m[kMetricPenalty] = s.d_terms.penalty;
        m[kMetricWasserstein] = s.d_terms.real - s.d_terms.fake;
      }
    }
    if (s.stepped_g) {
      m[kMetricGLoss] = s.g_terms.loss;
      m[kMetricGGradNorm] = s.g_grad_norm;
    }
    if (!s.spec.modes.empty()) {
      m[kMetricModesCovered] = s.coverage.covered;
      m[kMetricHighQuality] = s.coverage.high_quality;
    }
    if (!s.image) {
      m[kMetricKl] = s.divergence.kl;
      m[kMetricJs] = s.divergence.js;
    }
    m[kMetricLrG] = s.p.g_optim.lr;
    m[kMetricLrD] = s.p.d_optim.lr;
  });
}

CILAB_TRAINER_STATE(Gan)

}  // namespace cilab
