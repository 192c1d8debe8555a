// Convolution as stateless kernel pairs (llm.c's style): functions on pointers
// and a shape, no layer object, no cache; the caller owns every buffer. The
// first of the library's shaped kernels (issue 30): the convolution lesson and
// the CNN build on them.
//
// Layout and conventions are PyTorch's (torch.nn.functional.conv2d):
//   x  (N, C_in, H, W)                 row-major, one sample after another
//   w  (C_out, C_in / groups, KH, KW)  the weight as torch stores it
//   b  (C_out) or nullptr
//   y  (N, C_out, OH, OW),  OH = floor((H + 2 pad_h - dil_h (KH - 1) - 1) / stride_h) + 1
// and it is a cross-correlation, as in every deep-learning library:
//   y[n, o, i, j] = b[o] + sum_{c, p, q} w[o, c, p, q] x[n, g C_in/groups + c, i s_h - pad_h + p d_h,
//                                                                        j s_w - pad_w + q d_w]
// (g the group of output channel o; x is zero outside the image: zero padding).
// A 1-D convolution is the case H = KH = 1 (conv1d's (N, C, L) is (N, C, 1, L)).
//
// Computation: im2col (each output position's receptive field as a column,
// (C_in/groups KH KW) x (OH OW) per sample and group), then one matrix product
// with the weight (gemm.h); backward is the transposed products and col2im
// (the adjoint of im2col: a scatter-add). Threads run over fixed blocks of samples
// (core/parallel.h); dw and db are summed per block and the partials added in block
// order: the same inputs give the same bits on any number of threads.
#pragma once

#include <cstdint>
#include <string>

namespace cilab::nn {

struct ConvShape {
  int n = 1;                       // batch
  int c_in = 1, h = 1, w = 1;      // input channels and size
  int c_out = 1, kh = 1, kw = 1;   // output channels, kernel size
  int stride_h = 1, stride_w = 1;
  int pad_h = 0, pad_w = 0;        // zero padding on each side
  int dil_h = 1, dil_w = 1;        // dilation (1: a plain kernel)
  int groups = 1;                  // c_in and c_out split into this many independent groups

  // The output size, from the formula above (< 1: the kernel does not fit).
  int out_h() const { return (h + 2 * pad_h - dil_h * (kh - 1) - 1) / stride_h + 1; }
  int out_w() const { return (w + 2 * pad_w - dil_w * (kw - 1) - 1) / stride_w + 1; }
  int64_t x_size() const { return int64_t(n) * c_in * h * w; }
  int64_t w_size() const { return int64_t(c_out) * (c_in / groups) * kh * kw; }
  int64_t y_size() const { return int64_t(n) * c_out * out_h() * out_w(); }
  // Empty when the shape is valid, else what is wrong and what to try ("conv2d: ...").
  std::string problem() const;
};

template <class T>
class Layer;
// The geometry of a conv2d layer (layers.h: make_conv2d) as configured, one sample (n = 1):
// false for any other layer.
template <class T>
bool conv2d_geometry(const Layer<T>& layer, ConvShape* out);

// y = conv2d(x, w, b) (b may be nullptr). Throws std::invalid_argument for an invalid shape.
// cols (optional, conv_cols_size(s) entries): keeps every sample's im2col columns there for
// conv2d_backward, which then does not rebuild them (a layer's activation cache).
template <class T>
void conv2d_forward(const T* x, const T* w, const T* b, const ConvShape& s, T* y, T* cols = nullptr);

// The gradients for dL/dy = dy: dx = dL/dx is WRITTEN (when dx != nullptr); dw and db
// (when not nullptr) are ADDED TO, as a layer's backward adds its parameter gradients. cols: the
// columns conv2d_forward kept for this x (or nullptr: rebuilt from x).
template <class T>
void conv2d_backward(const T* x, const T* w, const T* dy, const ConvShape& s, T* dx, T* dw, T* db,
                     const T* cols = nullptr);

// Entries of the kept columns: n groups (C_in / groups) KH KW OH OW.
inline int64_t conv_cols_size(const ConvShape& s) {
  return int64_t(s.n) * s.c_in * s.kh * s.kw * s.out_h() * s.out_w();
}

// The columns of one sample and one group: col ((C_in/groups) KH KW) x (OH OW), row-major; the
// entries that fall in the padding are 0. (Public for the lesson's Toeplitz picture and tests.)
template <class T>
void im2col(const T* x_sample, const ConvShape& s, int group, T* col);
// Its adjoint: ADDS each column entry back to the input position it came from.
template <class T>
void col2im(const T* col, const ConvShape& s, int group, T* dx_sample);

// Pooling over windows of each channel (torch.nn.functional.max_pool2d / avg_pool2d with no
// padding): x (N, C, H, W) -> y (N, C, OH, OW), OH = floor((H - K) / S) + 1.
struct PoolShape {
  int n = 1, c = 1, h = 1, w = 1;
  int kernel = 2, stride = 2;  // torch's default stride is the kernel size
  int out_h() const { return (h - kernel) / stride + 1; }
  int out_w() const { return (w - kernel) / stride + 1; }
  int64_t x_size() const { return int64_t(n) * c * h * w; }
  int64_t y_size() const { return int64_t(n) * c * out_h() * out_w(); }
  std::string problem() const;  // empty when valid
};

// Max pooling: y = the window's maximum (the first one in row order on a tie, as torch), and
// argmax[k] = the index of that input element within its (h, w) plane (the picture of "where the
// gradient goes"). Backward: dx (WRITTEN) is dy at each window's argmax, 0 elsewhere.
template <class T>
void max_pool2d_forward(const T* x, const PoolShape& s, T* y, int32_t* argmax);
template <class T>
void max_pool2d_backward(const T* dy, const int32_t* argmax, const PoolShape& s, T* dx);
// Average pooling: y = the window's mean; backward spreads dy / K^2 over the window (dx WRITTEN).
template <class T>
void avg_pool2d_forward(const T* x, const PoolShape& s, T* y);
template <class T>
void avg_pool2d_backward(const T* dy, const PoolShape& s, T* dx);

}  // namespace cilab::nn
