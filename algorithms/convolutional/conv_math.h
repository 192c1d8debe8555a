// The mathematics of the convolution lesson (course chapter 12.1, 12.2, 12.4, 12.5), as plain
// functions the `convolution` module and its tests share:
//   - padding (PyTorch's padding_mode: zeros, reflect, replicate, circular) and the output size
//       O = floor((I + 2P - d(K - 1) - 1) / S) + 1,
//   - the convolution itself through the network library's kernel (nn::conv2d_forward<double>,
//     a cross-correlation as in every deep-learning library; a convolution is the same with the
//     kernel rotated by 180 degrees),
//   - the terms w * x of one output position (the sliding window),
//   - the band (Toeplitz) matrix W with y = W x, built from its own formula,
//   - circular convolution direct and by FFT (Eigen's FFT, kissfft),
//   - pooling with its argmax and gradient routing (nn::max_pool2d_*),
//   - the receptive field and parameter counts of a layer stack (with the course notes' CNN,
//     fully-connected and locally-connected counts, corrected), and the empirical receptive field
//     from a one-hot backward pass.
// Shapes are row-major: an input is C x H x W, a signal is the case H = 1 (and a 1 x K kernel).
#pragma once

#include "algorithms/nn/layer_stack.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace cilab::convmath {

enum class Padding { Zeros = 0, Reflect, Replicate, Circular };  // torch.nn.Conv2d padding_mode
enum class SizeMode { Valid = 0, Same, Full, Explicit };

// O = floor((I + 2P - d(K - 1) - 1) / S) + 1 (< 1: the kernel does not fit).
int output_size(int in, int k, int pad, int stride, int dilation);
// The padding P of a size mode: valid 0, same d(K - 1) / 2, full d(K - 1), explicit `pad`.
// Throws std::invalid_argument for `same` with an even span d(K - 1) + 1 or with stride > 1 (torch
// refuses padding='same' for strided convolutions too).
int resolve_padding(SizeMode mode, int pad, int k, int dilation, int stride);

// The input index position i (in [-P, n + P)) of a padded axis of length n reads: i itself inside,
// and outside: -1 (a zero) for Zeros, the mirror without the edge for Reflect (torch: needs P < n),
// the edge for Replicate, i mod n for Circular.
int source_index(int i, int n, Padding mode);

// One layer of the explorer.
struct Setup {
  int c = 1, h = 1, w = 1;        // the input: channels x height x width (h = 1: a signal)
  int filters = 1, k = 3;         // kernels: filters x c x K x K (1 x K for a signal)
  int stride = 1, dilation = 1;
  int pad = 0;                    // P on each side (of both axes of an image)
  Padding padding = Padding::Zeros;

  bool signal() const { return h == 1; }
  int kh() const { return signal() ? 1 : k; }
  int pad_h() const { return signal() ? 0 : pad; }
  int out_h() const { return signal() ? 1 : output_size(h, k, pad, stride, dilation); }
  int out_w() const { return output_size(w, k, pad, stride, dilation); }
  int positions() const { return out_h() * out_w(); }
  int64_t kernel_size() const { return int64_t(filters) * c * kh() * k; }
  // Empty when the setup is valid, else what is wrong and what to try.
  std::string problem() const;
};

// The padded input: c x (h + 2 pad_h) x (w + 2 pad).
std::vector<double> pad_input(const std::vector<double>& x, const Setup& s);
// The kernels rotated by 180 degrees in both axes (a convolution's kernel, as correlation uses it).
std::vector<double> flip_kernels(const std::vector<double>& kernels, const Setup& s);
// y (filters x out_h x out_w) = bias + cross-correlation of the padded input with `kernels`
// (filters x c x kh x k); `convolution` flips every kernel first. Throws for an invalid setup.
std::vector<double> convolve(const Setup& s, const std::vector<double>& x, const std::vector<double>& kernels,
                             const std::vector<double>& bias, bool convolution);

// One product of an output position's window: kernel tap (channel, p, q) times the input value it
// meets at (row, col) of the unpadded input (row or col -1 where it meets a zero of the padding).
struct Term {
  int channel = 0, p = 0, q = 0;
  int row = -1, col = -1;
  double w = 0, x = 0;
};
// The window of output (filter, i, j): the taps of the kernel as applied (flipped for a convolution).
std::vector<Term> window_terms(const Setup& s, const std::vector<double>& x, const std::vector<double>& kernels,
                               bool convolution, int filter, int i, int j);

// The matrix W (out_h out_w x c h w) of filter `filter` with y = W x + b, from its band formula:
// W[(i, j), source(i S - P + p d, j S - P + q d)] += w[p, q] (each channel's block) - the Toeplitz
// matrix of a signal, the doubly block Toeplitz one of an image (circulant blocks with circular padding).
Eigen::MatrixXd conv_matrix(const Setup& s, const std::vector<double>& kernels, bool convolution, int filter);

// Circular convolution y[i] = sum_t h[t] x[(i - t) mod n] (h zero-padded to n, its length <= n):
// directly in O(n m) and by FFT (Eigen's kissfft) in O(n log n).
std::vector<double> circular_convolve_direct(const std::vector<double>& x, const std::vector<double>& h);
std::vector<double> circular_convolve_fft(const std::vector<double>& x, const std::vector<double>& h);

// Wall-clock time of one circular convolution, direct against FFT, for signal lengths n = 64, 128,
// ..., max_n: with a kernel of length m (direct O(n m)) and with one as long as the signal (direct
// O(n^2), measured up to n = 2048). Each time is the mean over enough repetitions to last >= 1 ms.
struct FftTiming {
  int n = 0;
  double direct_ms = 0, fft_ms = 0, direct_full_ms = 0, fft_full_ms = 0;  // NaN: not measured
};
std::vector<FftTiming> time_direct_fft(int m, int max_n);

// Pooling each of `c` maps of h x w (torch.nn.functional.max_pool2d / avg_pool2d, no padding): the
// pooled maps, the argmax of every window (index in its h x w plane; max only), and the gradient the
// backward pass routes to the input for dL/dy = 1 everywhere.
struct Pooled {
  int c = 0, h = 0, w = 0, out_h = 0, out_w = 0;
  std::vector<double> y;
  std::vector<int32_t> argmax;
  std::vector<double> grad;   // c x h x w
  double routing_error = 0;   // max pooling: gradient mass outside the argmaxes (0 when it holds)
};
// kernel x kernel windows (1 x kernel on a signal), stride `stride`. Throws when the window does not fit.
Pooled pool(const std::vector<double>& x, int c, int h, int w, int kernel, int stride, bool max);

// The receptive field and parameter counts of a layer stack (12.5) on an input of c x size x size.
struct StackRow {
  std::string name;          // the token ("conv8k3s2") or "input"
  int channels = 0, size = 0;  // output channels and side
  int rf = 1;                // receptive field r_l = r_{l-1} + (k_l - 1) d_l j_{l-1}
  int jump = 1;              // j_l = prod of the strides so far
  // Conv layers: K(pqc + 1) shared weights; a fully connected layer with the same outputs
  // (mnc + 1) O_h O_w K; a locally connected one (pqc + 1) O_h O_w K (0 for a pool).
  double params_cnn = 0, params_fc = 0, params_lc = 0;
};
// One row per layer (the first is the input). fc tokens are refused (the calculator is about
// the conv part); throws std::invalid_argument naming the token whose input is too small.
std::vector<StackRow> receptive_fields(const std::vector<nn::LayerToken>& tokens, int c, int size);
// The empirical receptive field of the centre output of the last layer: the side of the bounding
// box of the input positions a one-hot dL/dy reaches through backward passes with all-ones kernels
// (average pooling's backward for every pool: it reaches the whole window).
int empirical_receptive_field(const std::vector<nn::LayerToken>& tokens, int size);

// Named kernels (identity, box, gaussian, sobel_x, sobel_y, laplacian, sharpen, emboss; for a
// signal their 1-D versions - sobel_x and sobel_y the difference (-1, 0, 1), laplacian (1, -2, 1),
// sharpen (-1, 3, -1), emboss (-1, 1, 1) - and derivative (-1/2, 0, 1/2)) or typed rows "1,0,-1;2,0,-2;1,0,-1".
// Several kernels separated by '|' (one per filter). Each is returned row-major with its size.
struct KernelSpec {
  std::vector<double> values;
  int rows = 0, cols = 0;
  std::string name;  // "sobel_x", or "typed"
};
// `text` split at `sep`, each item trimmed of spaces and tabs ("" gives one empty item): the
// parameters' lists (kernels, rows, cells, biases).
std::vector<std::string> split_trimmed(const std::string& text, char sep);
// `text` as a finite number, all of it (false: not one).
bool parse_number(const std::string& text, double* out);
// `size` is the side of box and gaussian (sigma = size / 4). Throws std::invalid_argument naming
// the item and what to try.
std::vector<KernelSpec> parse_kernels(const std::string& text, int size, bool signal);
// The names parse_kernels knows, for help texts.
const char* kernel_names(bool signal);

}  // namespace cilab::convmath
