// The convolution explorer (course chapter 12.1, 12.2, 12.4, 12.5; seeds 000-004).
//
// One layer, C input channels -> F filters, applied to a signal (step, ramp, noisy sine, impulse),
// a Fashion-MNIST item (any loaded image), the loaded data matrix (a CSV), the shipped photograph,
// or the course notes' 7 x 7 x 3 example (a 5 x 5 x 3
// input padded by 1, two 3 x 3 x 3 filters, stride 2: a 3 x 3 x 2 output):
//   y[f, i, j] = b[f] + sum_{c, p, q} w[f, c, p, q] x_pad[c, i S + p d, j S + q d]    (correlation)
// as in PyTorch's torch.nn.functional.conv2d (mode=correlation, the default of every deep-learning
// library); mode=convolution uses the kernel rotated by 180 degrees, (f * h)[u] = sum_t f[t] h[u - t].
// Parameter names follow torch.nn.Conv2d: kernel_size, stride, padding, dilation, padding_mode
// (zeros, reflect, replicate, circular); size = valid / same / full / explicit sets the padding P
// (0, d(K - 1) / 2, d(K - 1), or `padding`). The output size is O = floor((I + 2P - d(K - 1) - 1)/S) + 1.
//
// Stepping slides the window: one iteration = one output position (filter by filter, row by row);
// its sub-steps are "products" (the window's terms w x) and "sum" (their sum plus the bias written
// into the output map). The run is Converged when every position is written. The whole output is
// computed at reset through the network library's kernel (nn::conv2d_forward<double> on the padded
// input); the stepping reveals it.
//
// Oracles (metrics, constant over a run, live on screen): the output size from the formula against
// the count of window positions that fit; correlation with the flipped kernel against the
// convolution's own definition; y = W x + b with W the band (Toeplitz) matrix built from its formula;
// shift equivariance conv(shift x) = shift conv(x) (circular padding, stride 1, same size);
// circular convolution direct against FFT (1e-12) on the signal (an image's middle row); the
// max-pool gradient only at each window's argmax.
//
// `cilab run convolution` writes the output map as a table filter,row,col,value (at the start and
// once complete), comparable with any library.
#pragma once

#include "algorithms/convolutional/conv_math.h"
#include "algorithms/core/module_base.h"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace cilab {

// Everything one run computes (shared by its snapshots; fixed until a live pooling change).
struct ConvLesson {
  convmath::Setup setup;
  int size_mode = 0;                  // Convolution::Size
  bool convolution = false;           // mode: the kernel is flipped
  std::string input_name;             // "Fashion-MNIST test item 0 (Ankle boot)", "step signal"
  std::vector<double> x;              // c x h x w
  std::vector<double> padded;         // c x (h + 2 pad_h) x (w + 2 pad)
  std::vector<double> kernels;        // filters x c x kh x k, as given (before any flip)
  std::vector<std::string> kernel_names;  // per filter: "sobel_x", "typed", "random"
  std::vector<double> bias;           // per filter
  std::vector<double> y;              // filters x out_h x out_w
  int measured_h = 0, measured_w = 0; // window positions that fit, counted

  // The matrix view: W of filter 0 (out_h out_w x c h w) when it is small enough (else empty), and
  // always the Toeplitz matrix of the 1-D case (the signal, or the image's middle row with the
  // kernel's middle row) with its input and output.
  Eigen::MatrixXd matrix;
  Eigen::MatrixXd toeplitz;
  std::vector<double> row_signal, row_kernel, row_output;
  // Direct against FFT circular convolution of row_signal with row_kernel.
  std::vector<double> circular_direct, circular_fft;
  // Pooling of the output map (pool, pool_size, pool_stride).
  convmath::Pooled pooled;
  bool max_pool = true;
  int pool_size = 2, pool_stride = 2;
  std::string pool_problem;           // why the window does not fit (pooled empty then)

  // The receptive-field calculator (layers, stack_size, stack_channels).
  std::vector<convmath::StackRow> stack;
  int empirical_rf = 0;
  std::string stack_problem;          // why the line was refused (stack empty then)

  int positions() const { return setup.filters * setup.positions(); }
  size_t byte_size() const;
};

struct ConvolutionSnapshot : Snapshot {
  std::shared_ptr<const ConvLesson> lesson;  // null before a reset
  int written = 0;  // output positions written (in order: filter, row, column)
  // The position being computed (phase 1: its products shown, the sum not yet written) or the one
  // written last; -1 before the first step.
  int filter = -1, row = -1, col = -1;

  size_t byte_size() const override;
  void shared_parts(std::vector<SharedPart>& out) const override;
};

class Convolution : public ModuleBase<Convolution> {
 public:
  enum class Input { Step = 0, Ramp, Sine, Impulse, Image, Photo, Seeds, Matrix };
  enum class Mode { Correlation = 0, Convolution };
  enum class Size { Valid = 0, Same, Full, Explicit };
  enum class Pool { Max = 0, Average };

  static constexpr int kMaxFilters = 8;
  static constexpr int kMaxKernel = 15;
  static constexpr int kPhotoSide = 64;     // the photograph is box-averaged down to this side
  static constexpr int kMatrixLimit = 1024; // the full matrix W is kept up to this many rows and columns
  static constexpr int kMatrixSide = 256;   // input=matrix takes at most this many rows and columns

  struct Params {
    Input input = Input::Image;
    int length = 32;        // signal length n
    double noise = 0.1;     // the sine's noise standard deviation
    int image_index = 0;    // the loaded image set's item
    std::string kernel = "sobel_x";
    int kernel_size = 3;    // box, gaussian, identity, random
    int filters = 1;
    std::string bias = "0";
    Mode mode = Mode::Correlation;
    convmath::Padding padding_mode = convmath::Padding::Zeros;
    Size size = Size::Same;
    int padding = 1;        // size = explicit
    int stride = 1;
    int dilation = 1;
    Pool pool = Pool::Max;
    int pool_size = 2;
    int pool_stride = 0;    // 0: the window (torch's default)
    std::string layers = "conv8k3,conv8k3,pool2,conv16k3,conv16k3";
    int stack_size = 32;
    int stack_channels = 3;
  };

  enum Metric : int {
    kMetricValue,
    kMetricWritten,
    kMetricSizeError,
    kMetricFlipError,
    kMetricMatrixError,
    kMetricEquivarianceError,
    kMetricFftError,
    kMetricRoutingError,
    kNumMetrics
  };

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& values, uint64_t seed) override;
  void step() override;
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;

  std::shared_ptr<const ConvolutionSnapshot> convolution_snapshot() const;
  static Params params_from(const ParamValues& values);
  // The lesson of `p` on `data` (input=image reads it) - the module's reset without the stepping.
  static std::shared_ptr<ConvLesson> make_lesson(const Params& p, const Dataset* data, uint64_t seed);

 private:
  struct State;
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Convolution)

}  // namespace cilab
