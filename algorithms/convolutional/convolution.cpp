// The convolution explorer: see convolution.h (the lesson, the stepping, the oracles) and
// conv_math.h (the mathematics).
#include "algorithms/convolutional/convolution.h"
#include "algorithms/core/module_base_impl.h"
#include "algorithms/core/run_position.h"

#include "algorithms/core/rng.h"
#include "algorithms/data/image_loader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace cilab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using convmath::Padding;

const ParamTable<Convolution::Params>& param_table() {
  using P = Convolution::Params;
  static const ParamTable<P> kTable = {
      Choice("input", &P::input, {"step", "ramp", "sine", "impulse", "image", "photo", "seeds", "matrix"})
          .choice_help({"a step signal: 0 then 1 from the middle on (length n)", "a ramp signal 0 .. 1 (length n)",
                        "one period of a sine with Gaussian noise (length n, noise, seeded)",
                        "a single 1 in the middle (length n): the output is the kernel itself (flipped by a "
                        "convolution, as written by a correlation)",
                        "an item of the loaded image set (Fashion-MNIST by default; image_index)",
                        "the shipped photograph, box-averaged to 64 x 64",
                        "the course notes' example: a 5 x 5 x 3 input of integers 0..2 (seeded); with padding 1, "
                        "two 3 x 3 x 3 filters and stride 2 the output is 3 x 3 x 2",
                        "the loaded data matrix itself (a CSV: rows x columns as one channel; at most its first 256 "
                        "rows and columns)"})
          .help("what the kernel slides over"),
      Int("length", &P::length, 4, 512)
          .help("signal length n (inputs step, ramp, sine, impulse)")
          .shown_if("input=step|ramp|sine|impulse"),
      Real("noise", &P::noise, 0, 1).help("standard deviation of the sine's noise (seeded)").shown_if("input=sine"),
      Int("image_index", &P::image_index, 0, 1000000)
          .help("which item of the loaded image set (row number)")
          .shown_if("input=image"),
      Text("kernel", &P::kernel)
          .help("the kernel: a name (images: identity, box, gaussian, sobel_x, sobel_y, laplacian, sharpen, emboss, "
                "random; on a signal their 1-D versions, and derivative), or typed rows "
                "1,0,-1;2,0,-2;1,0,-1 (a signal: one row); one per filter separated by '|' (sobel_x|sobel_y); "
                "filters without one get a seeded random kernel of integers -1..1; the same kernel on every "
                "input channel")
          .formula("y[f,i,j] = b[f] + sum_{c,p,q} w[f,c,p,q] x[c, iS + pd, jS + qd]"),
      Int("kernel_size", &P::kernel_size, 1, Convolution::kMaxKernel)
          .help("side K of the named kernels identity, box, gaussian (sigma = K / 4) and random; the others are "
                "3 x 3 and typed ones have their own size (torch.nn.Conv2d: kernel_size)"),
      Int("filters", &P::filters, 1, Convolution::kMaxFilters)
          .help("output channels F (torch: out_channels); each filter sums over every input channel")
          .formula("output: F x O_h x O_w"),
      Text("bias", &P::bias).help("bias per filter, comma-separated (1,0: the notes' example); missing ones are 0"),
      Choice("mode", &P::mode, {"correlation", "convolution"})
          .choice_help({"cross-correlation (h * f)[u] = sum_t h[t] f[u + t]: what torch.nn.Conv2d computes",
                        "convolution (f * h)[u] = sum_t f[t] h[u - t]: correlation with the kernel rotated by 180 "
                        "degrees (the same for a symmetric kernel)"})
          .help("correlation (the deep-learning convention) or the textbook convolution"),
      Choice("padding_mode", &P::padding_mode, {"zeros", "reflect", "replicate", "circular"})
          .choice_help({"zeros outside the input (torch's default)", "mirror without the edge: d c b | a b c d | c b a",
                        "repeat the edge: a a | a b c d | d d", "wrap around: c d | a b c d | a b (shift equivariant)"})
          .help("what the window sees outside the input (torch.nn.Conv2d padding_mode)"),
      Choice("size", &P::size, {"valid", "same", "full", "explicit"})
          .choice_help({"P = 0: only windows inside the input", "P = d(K - 1) / 2: output as large as the input (stride 1)",
                        "P = d(K - 1): every window that touches the input", "P = the parameter padding"})
          .help("the padding P on each side, by the output size it gives")
          .formula("O = floor((I + 2P - d(K - 1) - 1) / S) + 1"),
      Int("padding", &P::padding, 0, 32).help("P on each side when size = explicit (torch: padding)").shown_if("size=explicit"),
      Int("stride", &P::stride, 1, 8).help("step S of the window (torch: stride): subsampling"),
      Int("dilation", &P::dilation, 1, 8).help("gap d between kernel taps (torch: dilation): a K kernel spans d(K - 1) + 1"),
      Choice("pool", &P::pool, {"max", "average"})
          .choice_help({"the window's maximum; the gradient goes to the argmax only (torch: max_pool2d)",
                        "the window's mean; the gradient is spread evenly (torch: avg_pool2d)"})
          .live()
          .help("pooling of the output map (the Pooling tab)"),
      Int("pool_size", &P::pool_size, 1, 8).live().help("pooling window r (r x r; r on a signal)"),
      Int("pool_stride", &P::pool_stride, 0, 8).live().help("pooling stride, 0 = the window (torch's default)"),
      Text("layers", &P::layers)
          .help("the receptive-field calculator's stack: conv8k3 = 8 filters 3 x 3 (suffixes s stride, p padding, "
                "d dilation), pool2 = 2 x 2 pooling, as the cnn module writes it")
          .formula("r_l = r_{l-1} + (k_l - 1) d_l j_{l-1},  j_l = j_{l-1} s_l"),
      Int("stack_size", &P::stack_size, 4, 512).help("the calculator's input side m = n (pixels)"),
      Int("stack_channels", &P::stack_channels, 1, 512).help("the calculator's input channels c"),
  };
  return kTable;
}

const MetricTable& metric_table() {
  static const MetricTable kMetrics = {
      {Convolution::kMetricValue, "value", "the output value written at this step: b + sum of the window's products w x",
       false},
      {Convolution::kMetricWritten, "written", "output positions written so far (of F x O_h x O_w)", false},
      {Convolution::kMetricSizeError, "size_error",
       "|O from the formula floor((I + 2P - d(K - 1) - 1) / S) + 1 - the window positions counted| (0 when it holds)",
       false},
      {Convolution::kMetricFlipError, "flip_error",
       "max |correlation with the flipped kernel - the convolution's definition sum_t f[t] h[u - t]| (the mode "
       "the run does not use computed both ways)",
       true},
      {Convolution::kMetricMatrixError, "matrix_error",
       "max |W x + b - y|: the band (Toeplitz) matrix built from its formula against the convolution", true},
      {Convolution::kMetricEquivarianceError, "equivariance_error",
       "max |conv(shift x) - shift conv(x)| for a shift by one column; defined with circular padding, stride 1 "
       "and size same (n/a otherwise: zero padding breaks it at the edges)",
       true},
      {Convolution::kMetricFftError, "fft_error",
       "max |direct circular convolution - FFT product| on the signal (an image's middle row), relative to its "
       "largest value",
       true},
      {Convolution::kMetricRoutingError, "routing_error",
       "max-pool gradient outside the windows' argmaxes (0 when it holds; n/a for average pooling)", false},
  };
  return kMetrics;
}

ModuleInfo make_info() {
  ModuleInfo m;
  m.name = "convolution";
  m.title = "Convolution explorer (padding, stride, Toeplitz, FFT, pooling)";
  m.chapter = "Convolutional networks";
  m.summary =
      "Slide a kernel over a signal, a Fashion-MNIST item or a photograph, one output position per step (the "
      "products, then their sum). Kernel presets (Sobel, Laplacian, Gaussian...) or typed, correlation or "
      "convolution, padding zeros/reflect/replicate/circular with valid/same/full, stride, dilation, several "
      "filters over several channels. Tabs: the Toeplitz matrix (y = W x), direct against FFT, pooling with "
      "its argmax and gradient routing, and a receptive-field and parameter-count calculator.";
  m.metrics = metric_table().infos();
  m.sub_steps = {"products", "sum"};
  m.default_dataset = "fashion-mnist:split=test,n=100";
  m.table_columns = {"filter", "row", "col", "value"};
  m.default_cli_steps = 1000000;  // runs until every position is written (Converged)
  m.data_use = [](const ParamValues& v) -> std::string {
    const std::string in = choice_name(param_table().specs(), v, "input");
    if (in == "image" || in == "matrix") return "";
    if (in == "photo") return "convolution uses the shipped photograph (input=photo, 64 x 64); input=image takes "
                              "an item of the dataset below";
    if (in == "seeds") return "convolution uses the course notes' 5 x 5 x 3 example (input=seeds); input=image "
                              "takes an item of the dataset below";
    return "convolution uses a " + in + " signal (input=" + in + "); input=image takes an item of the dataset below";
  };
  return m;
}

std::vector<double> parse_bias(const std::string& text, int filters) {
  std::vector<double> b(static_cast<size_t>(filters), 0.0);
  int k = 0;
  for (const std::string& t : convmath::split_trimmed(text, ',')) {
    double v = 0;
    if (!convmath::parse_number(t, &v))
      throw std::invalid_argument("parameter 'bias': item " + std::to_string(k + 1) + " '" + t +
                                  "' is not a number; write one number per filter, e.g. 1,0");
    if (k >= filters)
      throw std::invalid_argument("parameter 'bias' lists " + std::to_string(k + 1) + " values for " +
                                  std::to_string(filters) + " filter(s); give at most one per filter");
    b[static_cast<size_t>(k++)] = v;
  }
  return b;
}

// The input of `p`: x (c x h x w) and its name.
void make_input(const Convolution::Params& p, const Dataset* data, Rng& rng, convmath::Setup& s,
                std::vector<double>& x, std::string& name) {
  using In = Convolution::Input;
  s.c = 1;
  s.h = 1;
  const int n = p.length;
  switch (p.input) {
    case In::Step:
    case In::Ramp:
    case In::Sine:
    case In::Impulse: {
      s.w = n;
      x.assign(static_cast<size_t>(n), 0.0);
      for (int i = 0; i < n; ++i) {
        double v = 0;
        if (p.input == In::Step) v = i >= n / 2 ? 1.0 : 0.0;
        else if (p.input == In::Ramp) v = n > 1 ? double(i) / (n - 1) : 0.0;
        else if (p.input == In::Sine) v = std::sin(2 * 3.14159265358979323846 * i / n) + p.noise * rng.normal();
        else v = i == n / 2 ? 1.0 : 0.0;
        x[static_cast<size_t>(i)] = v;
      }
      static const char* kNames[] = {"step", "ramp", "noisy sine", "impulse"};
      name = std::string(kNames[static_cast<int>(p.input)]) + " signal, n = " + std::to_string(n);
      return;
    }
    case In::Image: {
      if (data) require_usable_data(data, "convolution: parameter 'input' = image");  // names a text corpus, NaNs
      if (!data || !data->is_image() || data->rows() < 1)
        throw std::invalid_argument(
            "parameter 'input' = image needs an image dataset (rows of pixels with a height and width), and the "
            "loaded data " + (data ? "'" + data->name + "' is not one" : std::string("is missing")) +
            "; load fashion-mnist (cilab run convolution --dataset fashion-mnist:split=test,n=100) or choose "
            "input=photo");
      if (p.image_index >= data->rows())
        throw std::invalid_argument("parameter 'image_index' = " + std::to_string(p.image_index) + ": the image set '" +
                                    data->name + "' has " + std::to_string(data->rows()) + " items; try 0 to " +
                                    std::to_string(data->rows() - 1));
      s.h = data->image_h;
      s.w = data->image_w;
      s.c = data->cols() / (s.h * s.w);
      if (s.c < 1 || s.c * s.h * s.w != data->cols()) s.c = 1;
      x.resize(static_cast<size_t>(s.c) * s.h * s.w);
      for (size_t k = 0; k < x.size(); ++k) x[k] = data->x(p.image_index, static_cast<Eigen::Index>(k));
      std::ostringstream o;
      o << data->name << " item " << p.image_index;
      const int lab = data->has_labels() ? data->labels[static_cast<size_t>(p.image_index)] : -1;
      if (lab >= 0 && lab < static_cast<int>(data->class_names.size()))
        o << " (" << data->class_names[static_cast<size_t>(lab)] << ")";
      o << ", " << s.c << " x " << s.h << " x " << s.w;
      name = o.str();
      return;
    }
    case In::Matrix: {
      if (!data)
        throw std::invalid_argument("parameter 'input' = matrix convolves the loaded data matrix, and there is none; "
                                    "load a CSV (--data FILE) or choose input=image or photo");
      require_usable_data(data, "convolution: parameter 'input' = matrix");
      if (data->is_partial())
        throw std::invalid_argument("parameter 'input' = matrix: '" + data->name + "' is a partially observed matrix "
                                    "(ratings); load a complete CSV matrix, or choose input=image or photo");
      s.h = std::min(data->rows(), Convolution::kMatrixSide);
      s.w = std::min(data->cols(), Convolution::kMatrixSide);
      x.resize(static_cast<size_t>(s.h) * s.w);
      for (int r = 0; r < s.h; ++r)
        for (int c = 0; c < s.w; ++c) x[static_cast<size_t>(r) * s.w + c] = data->x(r, c);
      std::ostringstream o;
      o << data->name << " as a matrix, " << data->rows() << " x " << data->cols();
      if (s.h < data->rows() || s.w < data->cols()) o << " (its first " << s.h << " x " << s.w << ")";
      name = o.str();
      if (s.h == 1) {  // one row: a signal
        name += ", a signal";
      }
      return;
    }
    case In::Photo: {
      const std::shared_ptr<const Dataset> photo = photo_dataset();
      const int H = photo->image_h, W = photo->image_w, f = std::max(1, std::min(H, W) / Convolution::kPhotoSide);
      s.h = H / f;
      s.w = W / f;
      x.assign(static_cast<size_t>(s.h) * s.w, 0.0);
      for (int r = 0; r < s.h; ++r)
        for (int c = 0; c < s.w; ++c) {
          double acc = 0;
          for (int a = 0; a < f; ++a)
            for (int b = 0; b < f; ++b) acc += photo->x(0, static_cast<Eigen::Index>((r * f + a) * W + c * f + b));
          x[static_cast<size_t>(r) * s.w + c] = acc / (f * f);
        }
      name = "photograph, box-averaged to " + std::to_string(s.h) + " x " + std::to_string(s.w);
      return;
    }
    case In::Seeds: {
      s.c = 3;
      s.h = s.w = 5;
      x.resize(75);
      for (double& v : x) v = static_cast<double>(rng.below(3));
      name = "the notes' 5 x 5 x 3 example (integers 0..2)";
      return;
    }
  }
}

// The kernels (filters x c x kh x k) of `p` for input `s` (s.k set here).
void make_kernels(const Convolution::Params& p, Rng& rng, convmath::Setup& s, std::vector<double>& kernels,
                  std::vector<std::string>& names) {
  // "random" stands for the seeded integer kernels; every other item is parsed.
  const std::vector<std::string> items = convmath::split_trimmed(p.kernel, '|');
  std::string parsed_text;
  bool any_named = false;
  for (const std::string& it : items)
    if (it != "random") {
      parsed_text += (any_named ? "|" : "") + it;
      any_named = true;
    }
  std::vector<convmath::KernelSpec> specs;
  if (any_named) specs = convmath::parse_kernels(parsed_text, p.kernel_size, s.signal());  // throws for an empty item
  const int k = specs.empty() ? p.kernel_size : specs.front().cols;
  if (k > Convolution::kMaxKernel)
    throw std::invalid_argument("parameter 'kernel': a " + std::to_string(k) + "-wide kernel; at most " +
                                std::to_string(Convolution::kMaxKernel));
  s.k = k;
  s.filters = p.filters;
  const int kh = s.kh();
  kernels.assign(static_cast<size_t>(s.kernel_size()), 0.0);
  names.clear();
  size_t next_spec = 0;
  for (int f = 0; f < s.filters; ++f) {
    const bool listed = f < static_cast<int>(items.size());
    const bool random = !listed || items[static_cast<size_t>(f)] == "random";
    const convmath::KernelSpec* spec = random ? nullptr : &specs[next_spec++];
    names.push_back(random ? "random" : spec->name);
    for (int c = 0; c < s.c; ++c)
      for (int i = 0; i < kh; ++i)
        for (int j = 0; j < k; ++j) {
          const double v = random ? static_cast<double>(rng.below(3)) - 1.0 : spec->values[static_cast<size_t>(i) * k + j];
          kernels[((static_cast<size_t>(f) * s.c + c) * kh + i) * k + j] = v;
        }
  }
}

// The convolution from its definition (f * h)[u] = sum_t f[t] h[u - t], written with the
// kernel's taps reversed in the loop (no flipped copy): the flip oracle's second path.
std::vector<double> convolution_by_definition(const convmath::Setup& s, const std::vector<double>& x,
                                              const std::vector<double>& kernels, const std::vector<double>& bias) {
  const int oh = s.out_h(), ow = s.out_w(), kh = s.kh(), kw = s.k;
  std::vector<double> y(static_cast<size_t>(s.filters) * oh * ow, 0.0);
  for (int f = 0; f < s.filters; ++f)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        double acc = bias.empty() ? 0.0 : bias[static_cast<size_t>(f)];
        for (int c = 0; c < s.c; ++c)
          for (int p = 0; p < kh; ++p)
            for (int q = 0; q < kw; ++q) {
              // tap (p, q) of the window meets h at (kh - 1 - p, kw - 1 - q): h[u - t]
              const int r = s.signal() ? 0 : convmath::source_index(i * s.stride - s.pad_h() + p * s.dilation, s.h, s.padding);
              const int col = convmath::source_index(j * s.stride - s.pad + q * s.dilation, s.w, s.padding);
              if (r < 0 || col < 0) continue;
              acc += kernels[((static_cast<size_t>(f) * s.c + c) * kh + (kh - 1 - p)) * kw + (kw - 1 - q)] *
                     x[(static_cast<size_t>(c) * s.h + r) * s.w + col];
            }
        y[(static_cast<size_t>(f) * oh + i) * ow + j] = acc;
      }
  return y;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return a.size() == b.size() ? m : kNaN;
}

// Window positions along one axis that fit, counted one by one (the size oracle's measurement).
int count_positions(int in, int k, int pad, int stride, int dilation) {
  int count = 0;
  for (int start = 0; start + dilation * (k - 1) < in + 2 * pad; start += stride) ++count;
  return count;
}

void fill_pooling(ConvLesson& L, const Convolution::Params& p) {
  L.max_pool = p.pool == Convolution::Pool::Max;
  L.pool_size = p.pool_size;
  L.pool_stride = p.pool_stride > 0 ? p.pool_stride : p.pool_size;
  L.pool_problem.clear();
  L.pooled = {};
  try {
    L.pooled = convmath::pool(L.y, L.setup.filters, L.setup.out_h(), L.setup.out_w(), L.pool_size, L.pool_stride,
                              L.max_pool);
  } catch (const std::invalid_argument& e) {
    L.pool_problem = e.what();
  }
}

}  // namespace

size_t ConvLesson::byte_size() const {
  size_t b = sizeof(*this);
  b += (x.size() + padded.size() + kernels.size() + bias.size() + y.size()) * sizeof(double);
  b += static_cast<size_t>(matrix.size() + toeplitz.size()) * sizeof(double);
  b += (row_signal.size() + row_kernel.size() + row_output.size() + circular_direct.size() + circular_fft.size()) *
       sizeof(double);
  b += (pooled.y.size() + pooled.grad.size()) * sizeof(double) + pooled.argmax.size() * sizeof(int32_t);
  return b;
}

size_t ConvolutionSnapshot::byte_size() const { return Snapshot::byte_size() + sizeof(*this) - sizeof(Snapshot); }

void ConvolutionSnapshot::shared_parts(std::vector<SharedPart>& out) const {
  if (lesson) out.push_back({lesson.get(), lesson->byte_size()});
}

std::shared_ptr<ConvLesson> Convolution::make_lesson(const Params& p, const Dataset* data, uint64_t seed) {
  auto L = std::make_shared<ConvLesson>();
  Rng rng(seed);
  convmath::Setup& s = L->setup;
  make_input(p, data, rng, s, L->x, L->input_name);
  make_kernels(p, rng, s, L->kernels, L->kernel_names);
  L->bias = parse_bias(p.bias, s.filters);
  s.stride = p.stride;
  s.dilation = p.dilation;
  s.padding = p.padding_mode;
  s.pad = convmath::resolve_padding(static_cast<convmath::SizeMode>(p.size), p.padding, s.k, s.dilation, s.stride);
  const std::string problem = s.problem();
  if (!problem.empty()) throw std::invalid_argument("convolution: " + problem);
  L->size_mode = static_cast<int>(p.size);
  L->convolution = p.mode == Mode::Convolution;
  L->padded = convmath::pad_input(L->x, s);
  L->y = convmath::convolve(s, L->x, L->kernels, L->bias, L->convolution);
  L->measured_h = s.signal() ? 1 : count_positions(s.h, s.k, s.pad, s.stride, s.dilation);
  L->measured_w = count_positions(s.w, s.k, s.pad, s.stride, s.dilation);

  // The matrix of filter 0 when small; the 1-D Toeplitz case always.
  const int64_t in_size = int64_t(s.c) * s.h * s.w;
  if (in_size <= kMatrixLimit && s.positions() <= kMatrixLimit) L->matrix = convmath::conv_matrix(s, L->kernels, L->convolution, 0);
  convmath::Setup r = s;
  r.c = 1;
  r.h = 1;
  r.filters = 1;
  const int mid = s.h / 2, kmid = s.kh() / 2;
  L->row_signal.assign(L->x.begin() + static_cast<long>(mid) * s.w, L->x.begin() + static_cast<long>(mid + 1) * s.w);
  L->row_kernel.assign(L->kernels.begin() + static_cast<long>(kmid) * s.k, L->kernels.begin() + static_cast<long>(kmid + 1) * s.k);
  if (r.problem().empty()) {
    L->toeplitz = convmath::conv_matrix(r, L->row_kernel, L->convolution, 0);
    L->row_output = convmath::convolve(r, L->row_signal, L->row_kernel, {}, L->convolution);
  }
  if (L->row_kernel.size() <= L->row_signal.size()) {
    L->circular_direct = convmath::circular_convolve_direct(L->row_signal, L->row_kernel);
    L->circular_fft = convmath::circular_convolve_fft(L->row_signal, L->row_kernel);
  }
  fill_pooling(*L, p);

  try {
    const std::vector<nn::LayerToken> tokens = nn::parse_layer_stack(p.layers);
    L->stack = convmath::receptive_fields(tokens, p.stack_channels, p.stack_size);
    L->empirical_rf = convmath::empirical_receptive_field(tokens, p.stack_size);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("convolution: parameter 'layers' = '" + p.layers + "': " + e.what());
  }
  return L;
}

struct Convolution::State : RunPosition {
  Params p;
  std::shared_ptr<const ConvLesson> lesson;
  int written = 0;
  std::vector<double> oracles;  // the constant oracle metrics
  double value = kNaN;          // the value written last
  mutable std::shared_ptr<const ConvolutionSnapshot> cache;

  void compute_oracles();
  void write_next();
};

void Convolution::State::compute_oracles() {
  const ConvLesson& L = *lesson;
  const convmath::Setup& s = L.setup;
  oracles = metric_table().blank();
  oracles[kMetricSizeError] = std::abs(s.out_h() - L.measured_h) + std::abs(s.out_w() - L.measured_w);
  // The mode not in use is checked too: both are the same numbers read two ways.
  const std::vector<double> by_flip = convmath::convolve(s, L.x, L.kernels, L.bias, true);
  oracles[kMetricFlipError] = max_abs_diff(by_flip, convolution_by_definition(s, L.x, L.kernels, L.bias));
  double merr = 0;
  if (L.matrix.size() > 0) {
    const Eigen::Map<const Eigen::VectorXd> xv(L.x.data(), static_cast<Eigen::Index>(L.x.size()));
    const Eigen::VectorXd wx = L.matrix * xv;
    for (Eigen::Index k = 0; k < wx.size(); ++k) merr = std::max(merr, std::abs(wx[k] + L.bias[0] - L.y[static_cast<size_t>(k)]));
  } else if (L.toeplitz.size() > 0) {
    const Eigen::Map<const Eigen::VectorXd> xv(L.row_signal.data(), static_cast<Eigen::Index>(L.row_signal.size()));
    const Eigen::VectorXd wx = L.toeplitz * xv;
    for (Eigen::Index k = 0; k < wx.size(); ++k) merr = std::max(merr, std::abs(wx[k] - L.row_output[static_cast<size_t>(k)]));
  } else {
    merr = kNaN;
  }
  oracles[kMetricMatrixError] = merr;
  if (s.padding == Padding::Circular && s.stride == 1 && s.out_w() == s.w && s.out_h() == s.h) {
    std::vector<double> shifted(L.x.size());
    for (int c = 0; c < s.c; ++c)
      for (int r = 0; r < s.h; ++r)
        for (int q = 0; q < s.w; ++q)
          shifted[(static_cast<size_t>(c) * s.h + r) * s.w + (q + 1) % s.w] = L.x[(static_cast<size_t>(c) * s.h + r) * s.w + q];
    const std::vector<double> ys = convmath::convolve(s, shifted, L.kernels, L.bias, L.convolution);
    double e = 0;
    for (int f = 0; f < s.filters; ++f)
      for (int r = 0; r < s.h; ++r)
        for (int q = 0; q < s.w; ++q)
          e = std::max(e, std::abs(ys[(static_cast<size_t>(f) * s.h + r) * s.w + (q + 1) % s.w] -
                                   L.y[(static_cast<size_t>(f) * s.h + r) * s.w + q]));
    oracles[kMetricEquivarianceError] = e;
  }
  if (!L.circular_direct.empty()) {
    double scale = 0;
    for (double v : L.circular_direct) scale = std::max(scale, std::abs(v));
    oracles[kMetricFftError] = max_abs_diff(L.circular_direct, L.circular_fft) / std::max(scale, 1e-300);
  }
  if (L.max_pool && L.pool_problem.empty()) oracles[kMetricRoutingError] = L.pooled.routing_error;
}

void Convolution::State::write_next() {
  value = lesson->y[static_cast<size_t>(written)];
  ++written;
  ++iteration;
  phase = 0;
  if (written >= lesson->positions()) {
    status = Status::Converged;
    message = "every output position is written (" + std::to_string(written) + ")";
  }
}

const ModuleInfo& Convolution::info() const {
  static const ModuleInfo kInfo = make_info();
  return kInfo;
}
const ParamTable<Convolution::Params>& module_params(const Convolution*) { return param_table(); }
Convolution::Params Convolution::params_from(const ParamValues& values) { return param_table().read(values); }

void Convolution::reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) {
  const Params p = params_from(values);
  auto s = std::make_unique<State>();
  s->p = p;
  s->lesson = make_lesson(p, data.get(), seed);
  s->compute_oracles();
  st_ = std::move(s);
}

void Convolution::step() {
  State& s = *st_;
  if (!s.lesson || is_terminal(s.status)) return;
  s.cache.reset();
  s.write_next();
}

void Convolution::sub_step() {
  State& s = *st_;
  if (!s.lesson || is_terminal(s.status)) return;
  s.cache.reset();
  if (s.phase == 0) {
    s.phase = 1;  // the products of the next position shown
    return;
  }
  s.write_next();
}

void Convolution::set_live(const std::string& name, double value) {
  Params p = st_->p;
  param_table().set_live(p, name, value, info().name);  // throws: unknown, rebuild or out of range
  auto L = std::make_shared<ConvLesson>(*st_->lesson);
  fill_pooling(*L, p);
  st_->p = p;
  st_->lesson = L;
  st_->compute_oracles();
  st_->cache.reset();
}

std::shared_ptr<const ConvolutionSnapshot> Convolution::convolution_snapshot() const {
  const State& s = *st_;
  if (s.cache) return s.cache;
  auto snap = std::make_shared<ConvolutionSnapshot>();
  if (!s.lesson) {
    describe_not_reset(*snap, "convolution", metric_table());
    return snap;
  }
  s.describe(*snap);
  snap->lesson = s.lesson;
  snap->written = s.written;
  snap->metrics = s.oracles;
  snap->metrics[kMetricWritten] = s.written;
  snap->metrics[kMetricValue] = s.value;
  const convmath::Setup& st = s.lesson->setup;
  const int at = s.phase > 0 ? s.written : s.written - 1;  // the position computed or written last
  if (at >= 0 && at < s.lesson->positions()) {
    const int per = st.positions();
    snap->filter = at / per;
    snap->row = (at % per) / st.out_w();
    snap->col = at % st.out_w();
  }
  // The output map as a table: at the start and once complete (cilab run writes the last one).
  if (s.written == 0 || s.status == Status::Converged) {
    const int oh = st.out_h(), ow = st.out_w();
    for (int f = 0; f < st.filters; ++f)
      for (int i = 0; i < oh; ++i)
        for (int j = 0; j < ow; ++j)
          snap->table.push_back({double(f), double(i), double(j), s.lesson->y[(static_cast<size_t>(f) * oh + i) * ow + j]});
  }
  s.cache = snap;
  return snap;
}

std::shared_ptr<const Snapshot> Convolution::snapshot() const { return convolution_snapshot(); }

CILAB_MODULE_STATE(Convolution)

}  // namespace cilab
