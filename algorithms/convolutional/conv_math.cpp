// The convolution lesson's mathematics: see conv_math.h.
#include "algorithms/convolutional/conv_math.h"

#include "algorithms/nn/conv.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cmath>
#include <complex>
#include <sstream>
#include <stdexcept>

namespace cilab::convmath {

int output_size(int in, int k, int pad, int stride, int dilation) {
  const int span = in + 2 * pad - dilation * (k - 1) - 1;
  if (span < 0 || stride < 1) return 0;
  return span / stride + 1;
}

int resolve_padding(SizeMode mode, int pad, int k, int dilation, int stride) {
  const int reach = dilation * (k - 1);  // the kernel's span minus one
  switch (mode) {
    case SizeMode::Valid: return 0;
    case SizeMode::Full: return reach;
    case SizeMode::Explicit: return pad;
    case SizeMode::Same:
      if (stride > 1)
        throw std::invalid_argument("parameter 'size' = same keeps the size only with stride 1 (torch refuses padding='same' "
                                    "for strided convolutions); try stride=1, or size=explicit");
      if (reach % 2 != 0)
        throw std::invalid_argument("parameter 'size' = same needs an odd kernel span d(K - 1) + 1 (K = " + std::to_string(k) +
                                    ", d = " + std::to_string(dilation) +
                                    " spans " + std::to_string(reach + 1) +
                                    ": the padding would differ left and right); try an odd kernel_size, or size=explicit");
      return reach / 2;
  }
  return 0;
}

int source_index(int i, int n, Padding mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case Padding::Zeros: return -1;
    case Padding::Replicate: return i < 0 ? 0 : n - 1;
    case Padding::Circular: return ((i % n) + n) % n;
    case Padding::Reflect: {
      if (n == 1) return 0;
      const int period = 2 * (n - 1);
      int m = ((i % period) + period) % period;
      return m < n ? m : period - m;
    }
  }
  return -1;
}

std::string Setup::problem() const {
  if (c < 1 || h < 1 || w < 1) return "the input is empty";
  if (filters < 1 || k < 1) return "the kernel is empty";
  if (stride < 1) return "parameter 'stride' must be at least 1";
  if (dilation < 1) return "parameter 'dilation' must be at least 1";
  if (pad < 0) return "parameter 'padding' must not be negative";
  const int need = (padding == Padding::Reflect) ? 1 : 0;  // reflect mirrors without the edge: P < n
  if (padding == Padding::Reflect && pad > 0 && (pad > w - need || (!signal() && pad > h - need)))
    return "reflect padding needs P < the input size (torch's rule): P = " + std::to_string(pad) + " on a " +
           (signal() ? std::to_string(w) : std::to_string(h) + " x " + std::to_string(w)) +
           " input; pad less or take padding_mode=replicate";
  if (padding == Padding::Circular && (pad > w || (!signal() && pad > h)))
    return "circular padding wraps at most once: P = " + std::to_string(pad) + " exceeds the input size; pad less";
  if (out_w() < 1 || out_h() < 1) {
    std::ostringstream o;
    o << "a " << (signal() ? "1 x " : std::to_string(k) + " x ") << k << " kernel with dilation " << dilation
      << " spans " << dilation * (k - 1) + 1 << " and does not fit the "
      << (signal() ? std::to_string(w) : std::to_string(h) + " x " + std::to_string(w))
      << " input with padding " << pad << " (O = floor((I + 2P - d(K - 1) - 1) / S) + 1 < 1); pad more, take a "
      << "smaller kernel_size or dilation";
    return o.str();
  }
  return "";
}

std::vector<double> pad_input(const std::vector<double>& x, const Setup& s) {
  const int ph = s.pad_h(), pw = s.pad;
  const int H = s.h + 2 * ph, W = s.w + 2 * pw;
  std::vector<double> out(static_cast<size_t>(s.c) * H * W, 0.0);
  for (int ch = 0; ch < s.c; ++ch)
    for (int r = 0; r < H; ++r) {
      const int sr = source_index(r - ph, s.h, s.padding);
      for (int q = 0; q < W; ++q) {
        const int sc = source_index(q - pw, s.w, s.padding);
        if (sr >= 0 && sc >= 0)
          out[(static_cast<size_t>(ch) * H + r) * W + q] = x[(static_cast<size_t>(ch) * s.h + sr) * s.w + sc];
      }
    }
  return out;
}

std::vector<double> flip_kernels(const std::vector<double>& kernels, const Setup& s) {
  std::vector<double> out(kernels.size());
  const int kh = s.kh(), kw = s.k;
  const size_t plane = static_cast<size_t>(kh) * kw;
  for (size_t b = 0; b + plane <= kernels.size(); b += plane)
    for (int p = 0; p < kh; ++p)
      for (int q = 0; q < kw; ++q)
        out[b + static_cast<size_t>(p) * kw + q] = kernels[b + static_cast<size_t>(kh - 1 - p) * kw + (kw - 1 - q)];
  return out;
}

namespace {
void require(const Setup& s) {
  const std::string p = s.problem();
  if (!p.empty()) throw std::invalid_argument(p);
}
}  // namespace

std::vector<double> convolve(const Setup& s, const std::vector<double>& x, const std::vector<double>& kernels,
                             const std::vector<double>& bias, bool convolution) {
  require(s);
  const std::vector<double> padded = pad_input(x, s);
  nn::ConvShape cs;
  cs.n = 1;
  cs.c_in = s.c;
  cs.h = s.h + 2 * s.pad_h();
  cs.w = s.w + 2 * s.pad;
  cs.c_out = s.filters;
  cs.kh = s.kh();
  cs.kw = s.k;
  cs.stride_h = cs.stride_w = s.stride;
  cs.dil_h = cs.dil_w = s.dilation;
  std::vector<double> y(static_cast<size_t>(cs.y_size()));
  const std::vector<double> k = convolution ? flip_kernels(kernels, s) : kernels;
  nn::conv2d_forward<double>(padded.data(), k.data(), bias.empty() ? nullptr : bias.data(), cs, y.data());
  return y;
}

std::vector<Term> window_terms(const Setup& s, const std::vector<double>& x, const std::vector<double>& kernels,
                               bool convolution, int filter, int i, int j) {
  std::vector<Term> terms;
  const int kh = s.kh(), kw = s.k;
  for (int ch = 0; ch < s.c; ++ch)
    for (int p = 0; p < kh; ++p)
      for (int q = 0; q < kw; ++q) {
        Term t;
        t.channel = ch;
        t.p = p;
        t.q = q;
        const int pp = convolution ? kh - 1 - p : p, qq = convolution ? kw - 1 - q : q;
        t.w = kernels[((static_cast<size_t>(filter) * s.c + ch) * kh + pp) * kw + qq];
        const int r = s.signal() ? 0 : source_index(i * s.stride - s.pad_h() + p * s.dilation, s.h, s.padding);
        const int c = source_index(j * s.stride - s.pad + q * s.dilation, s.w, s.padding);
        if (r >= 0 && c >= 0) {
          t.row = r;
          t.col = c;
          t.x = x[(static_cast<size_t>(ch) * s.h + r) * s.w + c];
        }
        terms.push_back(t);
      }
  return terms;
}

Eigen::MatrixXd conv_matrix(const Setup& s, const std::vector<double>& kernels, bool convolution, int filter) {
  require(s);
  const int oh = s.out_h(), ow = s.out_w(), kh = s.kh(), kw = s.k;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(oh * ow, static_cast<Eigen::Index>(s.c) * s.h * s.w);
  for (int i = 0; i < oh; ++i)
    for (int j = 0; j < ow; ++j)
      for (int ch = 0; ch < s.c; ++ch)
        for (int p = 0; p < kh; ++p) {
          const int r = s.signal() ? 0 : source_index(i * s.stride - s.pad_h() + p * s.dilation, s.h, s.padding);
          if (r < 0) continue;
          for (int q = 0; q < kw; ++q) {
            const int c = source_index(j * s.stride - s.pad + q * s.dilation, s.w, s.padding);
            if (c < 0) continue;
            const int pp = convolution ? kh - 1 - p : p, qq = convolution ? kw - 1 - q : q;
            W(i * ow + j, (static_cast<Eigen::Index>(ch) * s.h + r) * s.w + c) +=
                kernels[((static_cast<size_t>(filter) * s.c + ch) * kh + pp) * kw + qq];
          }
        }
  return W;
}

std::vector<double> circular_convolve_direct(const std::vector<double>& x, const std::vector<double>& h) {
  const int n = static_cast<int>(x.size()), m = static_cast<int>(h.size());
  if (m > n) throw std::invalid_argument("circular convolution: the kernel is longer than the signal");
  std::vector<double> y(static_cast<size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) {
    double acc = 0;
    for (int t = 0; t < m; ++t) acc += h[static_cast<size_t>(t)] * x[static_cast<size_t>(((i - t) % n + n) % n)];
    y[static_cast<size_t>(i)] = acc;
  }
  return y;
}

std::vector<double> circular_convolve_fft(const std::vector<double>& x, const std::vector<double>& h) {
  const size_t n = x.size();
  if (h.size() > n) throw std::invalid_argument("circular convolution: the kernel is longer than the signal");
  std::vector<double> hp(h);
  hp.resize(n, 0.0);
  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> X, Hf;
  fft.fwd(X, x);
  fft.fwd(Hf, hp);
  for (size_t i = 0; i < X.size(); ++i) X[i] *= Hf[i];
  std::vector<double> y;
  fft.inv(y, X);
  y.resize(n);
  return y;
}

namespace {
double time_ms(const std::function<void()>& f) {
  using Clock = std::chrono::steady_clock;
  int reps = 1;
  for (;;) {
    const auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) f();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (ms > 1.0 || reps >= 1 << 12) return ms / reps;
    reps *= 4;
  }
}
}  // namespace

std::vector<FftTiming> time_direct_fft(int m, int max_n) {
  std::vector<FftTiming> out;
  uint64_t state = 0x9e3779b97f4a7c15ULL;  // a fixed LCG: the inputs do not matter, only their size
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  };
  for (int n = 64; n <= max_n; n *= 2) {
    std::vector<double> x(static_cast<size_t>(n)), h(static_cast<size_t>(std::max(1, std::min(m, n)))),
        hf(static_cast<size_t>(n));
    for (double& v : x) v = next();
    for (double& v : h) v = next();
    for (double& v : hf) v = next();
    volatile double sink = 0;
    FftTiming t;
    t.n = n;
    t.direct_ms = time_ms([&] { sink = sink + circular_convolve_direct(x, h)[0]; });
    t.fft_ms = time_ms([&] { sink = sink + circular_convolve_fft(x, h)[0]; });
    t.direct_full_ms = n <= 2048 ? time_ms([&] { sink = sink + circular_convolve_direct(x, hf)[0]; }) : NAN;
    t.fft_full_ms = time_ms([&] { sink = sink + circular_convolve_fft(x, hf)[0]; });
    out.push_back(t);
  }
  return out;
}

Pooled pool(const std::vector<double>& x, int c, int h, int w, int kernel, int stride, bool max) {
  const bool signal = h == 1;
  const int kh = signal ? 1 : kernel, sh = signal ? 1 : stride;
  if (kernel < 1 || stride < 1) throw std::invalid_argument("the pooling window and stride must be at least 1");
  if (kernel > w || kh > h)
    throw std::invalid_argument("a pooling window of " + std::to_string(kernel) + " does not fit the " +
                                (signal ? std::to_string(w) : std::to_string(h) + " x " + std::to_string(w)) +
                                " output map; take a smaller pool_size");
  Pooled r;
  r.c = c;
  r.h = h;
  r.w = w;
  r.out_h = (h - kh) / sh + 1;
  r.out_w = (w - kernel) / stride + 1;
  const size_t outs = static_cast<size_t>(c) * r.out_h * r.out_w;
  r.y.assign(outs, 0.0);
  r.grad.assign(static_cast<size_t>(c) * h * w, 0.0);
  if (max) r.argmax.assign(outs, -1);
  for (int ch = 0; ch < c; ++ch)
    for (int i = 0; i < r.out_h; ++i)
      for (int j = 0; j < r.out_w; ++j) {
        const size_t o = (static_cast<size_t>(ch) * r.out_h + i) * r.out_w + j;
        double best = -INFINITY, sum = 0;
        int arg = -1;
        for (int p = 0; p < kh; ++p)
          for (int q = 0; q < kernel; ++q) {
            const int idx = (i * sh + p) * w + j * stride + q;
            const double v = x[static_cast<size_t>(ch) * h * w + static_cast<size_t>(idx)];
            sum += v;
            if (v > best || arg < 0) {  // the first maximum in row order on a tie, as torch
              best = v;
              arg = idx;
            }
          }
        if (max) {
          r.y[o] = best;
          r.argmax[o] = arg;
          r.grad[static_cast<size_t>(ch) * h * w + static_cast<size_t>(arg)] += 1.0;
        } else {
          const double share = 1.0 / (kh * kernel);
          r.y[o] = sum * share;
          for (int p = 0; p < kh; ++p)
            for (int q = 0; q < kernel; ++q)
              r.grad[static_cast<size_t>(ch) * h * w + static_cast<size_t>((i * sh + p) * w + j * stride + q)] += share;
        }
      }
  if (max) {
    // The oracle: the gradient sits only at argmaxes (mass elsewhere is an error).
    std::vector<char> is_arg(r.grad.size(), 0);
    for (int ch = 0; ch < c; ++ch)
      for (int o = 0; o < r.out_h * r.out_w; ++o)
        is_arg[static_cast<size_t>(ch) * h * w + static_cast<size_t>(r.argmax[static_cast<size_t>(ch) * r.out_h * r.out_w + o])] = 1;
    for (size_t k = 0; k < r.grad.size(); ++k)
      if (!is_arg[k]) r.routing_error = std::max(r.routing_error, std::abs(r.grad[k]));
  }
  return r;
}

std::vector<StackRow> receptive_fields(const std::vector<nn::LayerToken>& tokens, int c, int size) {
  std::vector<StackRow> rows;
  StackRow in;
  in.name = "input";
  in.channels = c;
  in.size = size;
  rows.push_back(in);
  for (size_t l = 0; l < tokens.size(); ++l) {
    const nn::LayerToken& t = tokens[l];
    const StackRow& prev = rows.back();
    if (t.kind == nn::LayerToken::Kind::Linear)
      throw std::invalid_argument("item " + std::to_string(l + 1) + " '" + t.text +
                                  "': the calculator takes conv and pool layers only (the receptive field of an fc "
                                  "layer is the whole input); remove it");
    StackRow r;
    r.name = t.text;
    const bool conv = t.kind == nn::LayerToken::Kind::Conv;
    const int k = conv ? t.kernel : t.size;
    const int stride = t.stride > 0 ? t.stride : (conv ? 1 : t.size);
    const int pad = conv ? t.padding : 0;
    const int dil = conv ? t.dilation : 1;
    r.channels = conv ? t.size : prev.channels;
    r.size = output_size(prev.size, k, pad, stride, dil);
    if (r.size < 1)
      throw std::invalid_argument("item " + std::to_string(l + 1) + " '" + t.text + "' on a " +
                                  std::to_string(prev.channels) + " x " + std::to_string(prev.size) + " x " +
                                  std::to_string(prev.size) + " input: the window spans " +
                                  std::to_string(dil * (k - 1) + 1) + " and does not fit; pad or remove a layer");
    r.rf = prev.rf + (k - 1) * dil * prev.jump;
    r.jump = prev.jump * stride;
    if (conv) {
      const double pqc = double(k) * k * prev.channels, K = r.channels, O = double(r.size) * r.size;
      const double mnc = double(prev.size) * prev.size * prev.channels;
      r.params_cnn = K * (pqc + 1);
      r.params_fc = (mnc + 1) * O * K;
      r.params_lc = (pqc + 1) * O * K;
    }
    rows.push_back(r);
  }
  return rows;
}

int empirical_receptive_field(const std::vector<nn::LayerToken>& tokens, int size) {
  const std::vector<StackRow> rows = receptive_fields(tokens, 1, size);
  // The one-hot gradient at the centre of the last map, carried back layer by layer.
  const int last = rows.back().size;
  std::vector<double> g(static_cast<size_t>(last) * last, 0.0);
  g[static_cast<size_t>(last / 2) * last + last / 2] = 1.0;
  for (size_t l = tokens.size(); l-- > 0;) {
    const nn::LayerToken& t = tokens[l];
    const int in = rows[l].size;
    std::vector<double> dx(static_cast<size_t>(in) * in, 0.0);
    if (t.kind == nn::LayerToken::Kind::Conv) {
      nn::ConvShape cs;
      cs.h = cs.w = in;
      cs.kh = cs.kw = t.kernel;
      cs.stride_h = cs.stride_w = t.stride > 0 ? t.stride : 1;
      cs.pad_h = cs.pad_w = t.padding;
      cs.dil_h = cs.dil_w = t.dilation;
      const std::vector<double> ones(static_cast<size_t>(t.kernel) * t.kernel, 1.0);
      const std::vector<double> x(dx.size(), 0.0);
      nn::conv2d_backward<double>(x.data(), ones.data(), g.data(), cs, dx.data(), nullptr, nullptr);
    } else {
      nn::PoolShape ps;
      ps.h = ps.w = in;
      ps.kernel = t.size;
      ps.stride = t.stride > 0 ? t.stride : t.size;
      nn::avg_pool2d_backward<double>(g.data(), ps, dx.data());
    }
    for (double& v : dx) v = v != 0.0 ? 1.0 : 0.0;  // reached or not (sums of ones stay positive)
    g.swap(dx);
  }
  int lo = size, hi = -1;
  for (int r = 0; r < size; ++r)
    for (int q = 0; q < size; ++q)
      if (g[static_cast<size_t>(r) * size + q] != 0.0) {
        lo = std::min(lo, q);
        hi = std::max(hi, q);
      }
  return hi < lo ? 0 : hi - lo + 1;
}

std::vector<std::string> split_trimmed(const std::string& text, char sep) {
  std::vector<std::string> items;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(sep, start);
    const std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
    items.push_back(a == std::string::npos ? "" : item.substr(a, b - a + 1));
    if (end == std::string::npos) return items;
    start = end + 1;
  }
}

bool parse_number(const std::string& text, double* out) {
  size_t used = 0;
  try {
    *out = std::stod(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return !text.empty() && used == text.size() && std::isfinite(*out);
}

namespace {

KernelSpec named_kernel(const std::string& name, int size, bool signal) {
  KernelSpec k;
  k.name = name;
  auto set = [&](int rows, int cols, std::vector<double> v) {
    k.rows = rows;
    k.cols = cols;
    k.values = std::move(v);
  };
  const int n = std::max(1, size);
  if (name == "identity") {
    if (signal) {
      std::vector<double> v(static_cast<size_t>(n), 0.0);
      v[static_cast<size_t>(n / 2)] = 1;
      set(1, n, v);
    } else {
      std::vector<double> v(static_cast<size_t>(n) * n, 0.0);
      v[static_cast<size_t>(n / 2) * n + n / 2] = 1;
      set(n, n, v);
    }
  } else if (name == "box") {
    const int cells = signal ? n : n * n;
    set(signal ? 1 : n, n, std::vector<double>(static_cast<size_t>(cells), 1.0 / cells));
  } else if (name == "gaussian") {
    const double sigma = std::max(0.5, n / 4.0), mid = (n - 1) / 2.0;
    std::vector<double> g1(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) g1[static_cast<size_t>(i)] = std::exp(-0.5 * (i - mid) * (i - mid) / (sigma * sigma));
    std::vector<double> v;
    if (signal) v = g1;
    else
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) v.push_back(g1[static_cast<size_t>(i)] * g1[static_cast<size_t>(j)]);
    double sum = 0;
    for (double e : v) sum += e;
    for (double& e : v) e /= sum;
    set(signal ? 1 : n, n, v);
  } else if (signal && name == "derivative") {
    set(1, 3, {-0.5, 0, 0.5});
  } else if (signal && (name == "sobel_x" || name == "sobel_y")) {
    set(1, 3, {-1, 0, 1});  // Sobel's differencing along the signal
  } else if (signal && name == "laplacian") {
    set(1, 3, {1, -2, 1});
  } else if (signal && name == "sharpen") {
    set(1, 3, {-1, 3, -1});  // identity minus the Laplacian, as in 2-D
  } else if (signal && name == "emboss") {
    set(1, 3, {-1, 1, 1});
  } else if (!signal && name == "sobel_x") {
    set(3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1});
  } else if (!signal && name == "sobel_y") {
    set(3, 3, {-1, -2, -1, 0, 0, 0, 1, 2, 1});
  } else if (!signal && name == "laplacian") {
    set(3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});
  } else if (!signal && name == "sharpen") {
    set(3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0});
  } else if (!signal && name == "emboss") {
    set(3, 3, {-2, -1, 0, -1, 1, 1, 0, 1, 2});
  }
  return k;
}

}  // namespace

const char* kernel_names(bool signal) {
  return signal ? "identity, box, gaussian, derivative, sobel_x, sobel_y, laplacian, sharpen, emboss, random"
                : "identity, box, gaussian, sobel_x, sobel_y, laplacian, sharpen, emboss, random";
}

std::vector<KernelSpec> parse_kernels(const std::string& text, int size, bool signal) {
  std::vector<KernelSpec> out;
  const std::vector<std::string> items = split_trimmed(text, '|');
  for (size_t n = 0; n < items.size(); ++n) {
    const std::string& item = items[n];
    const std::string where = items.size() > 1 ? "kernel " + std::to_string(n + 1) + " '" + item + "'" : "'" + item + "'";
    if (item.empty())
      throw std::invalid_argument("parameter 'kernel': " + where + " is empty; name one (" +
                                  std::string(kernel_names(signal)) + ") or type rows as 1,0,-1;2,0,-2;1,0,-1");
    if (std::isalpha(static_cast<unsigned char>(item[0]))) {
      KernelSpec k = named_kernel(item, size, signal);
      if (k.values.empty())
        throw std::invalid_argument("parameter 'kernel': " + where + " is no kernel " +
                                    (signal ? "for a signal" : "for an image") + "; known: " + kernel_names(signal) +
                                    ", or typed rows as 1,0,-1;2,0,-2;1,0,-1");
      out.push_back(k);
      continue;
    }
    KernelSpec k;
    k.name = "typed";
    for (const std::string& row : split_trimmed(item, ';')) {
      int cols = 0;
      for (const std::string& c : split_trimmed(row, ',')) {
        double v = 0;
        if (!parse_number(c, &v))
          throw std::invalid_argument("parameter 'kernel': " + where + ", row " + std::to_string(k.rows + 1) +
                                      ": '" + c + "' is not a number; write rows of numbers as 1,0,-1;2,0,-2;1,0,-1");
        k.values.push_back(v);
        ++cols;
      }
      if (k.rows > 0 && cols != k.cols)
        throw std::invalid_argument("parameter 'kernel': " + where + ": row " + std::to_string(k.rows + 1) + " has " +
                                    std::to_string(cols) + " numbers and row 1 has " + std::to_string(k.cols) +
                                    "; every row needs the same length");
      k.cols = cols;
      ++k.rows;
    }
    if (signal && k.rows != 1)
      throw std::invalid_argument("parameter 'kernel': " + where + " has " + std::to_string(k.rows) +
                                  " rows; a signal's kernel is one row, e.g. 1,0,-1");
    if (!signal && k.rows != k.cols)
      throw std::invalid_argument("parameter 'kernel': " + where + " is " + std::to_string(k.rows) + " x " +
                                  std::to_string(k.cols) + "; an image's kernel is square, e.g. 1,0,-1;2,0,-2;1,0,-1");
    out.push_back(k);
  }
  for (const KernelSpec& k : out)
    if (k.cols != out.front().cols)
      throw std::invalid_argument("parameter 'kernel': the kernels have different sizes (" +
                                  std::to_string(out.front().cols) + " and " + std::to_string(k.cols) +
                                  "); every filter of a layer has the same size");
  return out;
}

}  // namespace cilab::convmath
