// Convolution kernels (conv.h): im2col, one GEMM per sample and group, col2im.
#include "algorithms/nn/conv.h"

#include "algorithms/core/parallel.h"

#include <Eigen/Core>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace cilab::nn {

namespace {

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using MapM = Eigen::Map<RowMat<T>>;
template <class T>
using CMapM = Eigen::Map<const RowMat<T>>;

void check(const ConvShape& s) {
  const std::string p = s.problem();
  if (!p.empty()) throw std::invalid_argument(p);
}

}  // namespace

std::string ConvShape::problem() const {
  if (n < 1 || c_in < 1 || h < 1 || w < 1 || c_out < 1 || kh < 1 || kw < 1)
    return "conv2d: every size must be at least 1 (batch, channels, height, width, kernel)";
  if (stride_h < 1 || stride_w < 1) return "conv2d: the stride must be at least 1";
  if (dil_h < 1 || dil_w < 1) return "conv2d: the dilation must be at least 1";
  if (pad_h < 0 || pad_w < 0) return "conv2d: the padding must not be negative";
  if (groups < 1 || c_in % groups != 0 || c_out % groups != 0)
    return "conv2d: groups = " + std::to_string(groups) + " must divide the input channels (" + std::to_string(c_in) +
           ") and the output channels (" + std::to_string(c_out) + ")";
  if (out_h() < 1 || out_w() < 1)
    return "conv2d: a " + std::to_string(kh) + " x " + std::to_string(kw) + " kernel (dilation " +
           std::to_string(dil_h) + " x " + std::to_string(dil_w) + ") does not fit a " + std::to_string(h) + " x " +
           std::to_string(w) + " input with padding " + std::to_string(pad_h) + " x " + std::to_string(pad_w) +
           "; pad more or take a smaller kernel";
  return "";
}

namespace {

// The output columns j whose input column j s - pad + q d lies inside [0, w): [lo, hi).
void valid_columns(int ow, int w, int stride, int pad, int offset, int& lo, int& hi) {
  // j stride + offset - pad >= 0  and  < w
  const int start = pad - offset;  // j stride >= start
  lo = start <= 0 ? 0 : (start + stride - 1) / stride;
  const int end = w + pad - offset;  // j stride < end
  hi = end <= 0 ? 0 : std::min(ow, (end + stride - 1) / stride);
  if (hi < lo) hi = lo;
}

}  // namespace

template <class T>
void im2col(const T* x_sample, const ConvShape& s, int group, T* col) {
  const int cg = s.c_in / s.groups, oh = s.out_h(), ow = s.out_w();
  const T* xg = x_sample + int64_t(group) * cg * s.h * s.w;
  int64_t row = 0;
  for (int c = 0; c < cg; ++c)
    for (int p = 0; p < s.kh; ++p)
      for (int q = 0; q < s.kw; ++q, ++row) {
        T* out = col + row * oh * ow;
        // The valid output columns of this kernel tap, once: no test per element.
        int lo = 0, hi = 0;
        valid_columns(ow, s.w, s.stride_w, s.pad_w, q * s.dil_w, lo, hi);
        for (int i = 0; i < oh; ++i) {
          T* o = out + int64_t(i) * ow;
          const int yy = i * s.stride_h - s.pad_h + p * s.dil_h;
          if (yy < 0 || yy >= s.h || lo >= hi) {
            std::fill(o, o + ow, T(0));
            continue;
          }
          std::fill(o, o + lo, T(0));
          const T* src = xg + (int64_t(c) * s.h + yy) * s.w + (lo * s.stride_w - s.pad_w + q * s.dil_w);
          if (s.stride_w == 1) {
            std::copy(src, src + (hi - lo), o + lo);
          } else {
            for (int j = lo; j < hi; ++j) o[j] = src[int64_t(j - lo) * s.stride_w];
          }
          std::fill(o + hi, o + ow, T(0));
        }
      }
}

template <class T>
void col2im(const T* col, const ConvShape& s, int group, T* dx_sample) {
  const int cg = s.c_in / s.groups, oh = s.out_h(), ow = s.out_w();
  T* dg = dx_sample + int64_t(group) * cg * s.h * s.w;
  int64_t row = 0;
  for (int c = 0; c < cg; ++c)
    for (int p = 0; p < s.kh; ++p)
      for (int q = 0; q < s.kw; ++q, ++row) {
        const T* in = col + row * oh * ow;
        int lo = 0, hi = 0;
        valid_columns(ow, s.w, s.stride_w, s.pad_w, q * s.dil_w, lo, hi);
        for (int i = 0; i < oh; ++i) {
          const int yy = i * s.stride_h - s.pad_h + p * s.dil_h;
          if (yy < 0 || yy >= s.h) continue;
          T* dst = dg + (int64_t(c) * s.h + yy) * s.w + (lo * s.stride_w - s.pad_w + q * s.dil_w);
          const T* src = in + int64_t(i) * ow;
          for (int j = lo; j < hi; ++j) dst[int64_t(j - lo) * s.stride_w] += src[j];
        }
      }
}

namespace {

// Samples per block of the parallel loops: fixed (never from the thread count), so the sums over
// the batch (dw, db: per-block partials folded in block order) give the same bits on any number
// of threads.
constexpr int kConvBlockSamples = 8;

int conv_blocks(int n) { return (n + kConvBlockSamples - 1) / kConvBlockSamples; }

// Threads for a loop over `blocks` blocks of about `flops` multiply-adds in all.
int conv_threads(int blocks, double flops) { return parallel_threads(blocks, flops, 2e6); }

}  // namespace

template <class T>
void conv2d_forward(const T* x, const T* w, const T* b, const ConvShape& s, T* y) {
  check(s);
  const int cg = s.c_in / s.groups, og = s.c_out / s.groups;
  const int64_t k = int64_t(cg) * s.kh * s.kw, m = int64_t(s.out_h()) * s.out_w();
  const int blocks = conv_blocks(s.n);
  parallel_for_blocks(blocks, conv_threads(blocks, double(s.n) * s.c_out * k * m), [&](int blk) {
    std::vector<T> col(static_cast<size_t>(k * m));
    const int n_end = std::min(s.n, (blk + 1) * kConvBlockSamples);
    for (int n = blk * kConvBlockSamples; n < n_end; ++n) {
      const T* xs = x + int64_t(n) * s.c_in * s.h * s.w;
      T* ys = y + int64_t(n) * s.c_out * m;
      for (int g = 0; g < s.groups; ++g) {
        im2col(xs, s, g, col.data());
        // Y_g (og x m) = W_g (og x k) * col (k x m)
        MapM<T> yg(ys + int64_t(g) * og * m, og, m);
        yg.noalias() = CMapM<T>(w + int64_t(g) * og * k, og, k) * CMapM<T>(col.data(), k, m);
        if (b)
          for (int o = 0; o < og; ++o) yg.row(o).array() += b[g * og + o];
      }
    }
  });
}

template <class T>
void conv2d_backward(const T* x, const T* w, const T* dy, const ConvShape& s, T* dx, T* dw, T* db) {
  check(s);
  const int cg = s.c_in / s.groups, og = s.c_out / s.groups;
  const int64_t k = int64_t(cg) * s.kh * s.kw, m = int64_t(s.out_h()) * s.out_w();
  const int blocks = conv_blocks(s.n);
  struct Partial {
    std::vector<T> dw, db;
  };
  // Each block of samples: its dx rows (its own), and its partial dw, db (folded below in order).
  parallel_reduce_blocks(
      blocks, conv_threads(blocks, 2.0 * s.n * s.c_out * k * m),
      [&](int blk) {
        Partial part;
        if (dw) part.dw.assign(static_cast<size_t>(s.w_size()), T(0));
        if (db) part.db.assign(static_cast<size_t>(s.c_out), T(0));
        std::vector<T> col(static_cast<size_t>(k * m));
        const int n_end = std::min(s.n, (blk + 1) * kConvBlockSamples);
        for (int n = blk * kConvBlockSamples; n < n_end; ++n) {
          const T* xs = x + int64_t(n) * s.c_in * s.h * s.w;
          const T* dys = dy + int64_t(n) * s.c_out * m;
          T* dxs = dx ? dx + int64_t(n) * s.c_in * s.h * s.w : nullptr;
          if (dxs) std::fill(dxs, dxs + int64_t(s.c_in) * s.h * s.w, T(0));
          for (int g = 0; g < s.groups; ++g) {
            const CMapM<T> dyg(dys + int64_t(g) * og * m, og, m);
            if (db)
              for (int o = 0; o < og; ++o) part.db[static_cast<size_t>(g * og + o)] += dyg.row(o).sum();
            if (dw) {
              // dW_g (og x k) += dY_g (og x m) col^T (m x k)
              im2col(xs, s, g, col.data());
              MapM<T>(part.dw.data() + int64_t(g) * og * k, og, k).noalias() +=
                  dyg * CMapM<T>(col.data(), k, m).transpose();
            }
            if (dxs) {
              // dcol (k x m) = W_g^T dY_g, scattered back to the input positions
              MapM<T>(col.data(), k, m).noalias() = CMapM<T>(w + int64_t(g) * og * k, og, k).transpose() * dyg;
              col2im(col.data(), s, g, dxs);
            }
          }
        }
        return part;
      },
      [&](int, Partial&& part) {
        for (size_t i = 0; i < part.dw.size(); ++i) dw[i] += part.dw[i];
        for (size_t i = 0; i < part.db.size(); ++i) db[i] += part.db[i];
      });
}

std::string PoolShape::problem() const {
  if (n < 1 || c < 1 || h < 1 || w < 1) return "pool2d: every size must be at least 1";
  if (kernel < 1 || stride < 1) return "pool2d: the kernel and the stride must be at least 1";
  if (kernel > h || kernel > w)
    return "pool2d: a " + std::to_string(kernel) + " x " + std::to_string(kernel) + " window does not fit a " +
           std::to_string(h) + " x " + std::to_string(w) + " map; take a smaller kernel";
  return "";
}

namespace {
void check(const PoolShape& s) {
  const std::string p = s.problem();
  if (!p.empty()) throw std::invalid_argument(p);
}
}  // namespace

template <class T>
void max_pool2d_forward(const T* x, const PoolShape& s, T* y, int32_t* argmax) {
  check(s);
  const int oh = s.out_h(), ow = s.out_w();
  for (int64_t plane = 0; plane < int64_t(s.n) * s.c; ++plane) {
    const T* xp = x + plane * s.h * s.w;
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        int best = (i * s.stride) * s.w + j * s.stride;
        for (int p = 0; p < s.kernel; ++p)
          for (int q = 0; q < s.kernel; ++q) {
            const int at = (i * s.stride + p) * s.w + j * s.stride + q;
            if (xp[at] > xp[best]) best = at;  // strict: the first maximum stays
          }
        const int64_t o = (plane * oh + i) * ow + j;
        y[o] = xp[best];
        if (argmax) argmax[o] = best;
      }
  }
}

template <class T>
void max_pool2d_backward(const T* dy, const int32_t* argmax, const PoolShape& s, T* dx) {
  check(s);
  std::fill(dx, dx + s.x_size(), T(0));
  const int64_t per = int64_t(s.out_h()) * s.out_w();
  for (int64_t plane = 0; plane < int64_t(s.n) * s.c; ++plane)
    for (int64_t k = 0; k < per; ++k) dx[plane * s.h * s.w + argmax[plane * per + k]] += dy[plane * per + k];
}

template <class T>
void avg_pool2d_forward(const T* x, const PoolShape& s, T* y) {
  check(s);
  const int oh = s.out_h(), ow = s.out_w();
  const T inv = T(1) / T(s.kernel * s.kernel);
  for (int64_t plane = 0; plane < int64_t(s.n) * s.c; ++plane) {
    const T* xp = x + plane * s.h * s.w;
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        T sum = 0;
        for (int p = 0; p < s.kernel; ++p)
          for (int q = 0; q < s.kernel; ++q) sum += xp[(i * s.stride + p) * s.w + j * s.stride + q];
        y[(plane * oh + i) * ow + j] = sum * inv;
      }
  }
}

template <class T>
void avg_pool2d_backward(const T* dy, const PoolShape& s, T* dx) {
  check(s);
  std::fill(dx, dx + s.x_size(), T(0));
  const int oh = s.out_h(), ow = s.out_w();
  const T inv = T(1) / T(s.kernel * s.kernel);
  for (int64_t plane = 0; plane < int64_t(s.n) * s.c; ++plane) {
    T* dp = dx + plane * s.h * s.w;
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        const T g = dy[(plane * oh + i) * ow + j] * inv;
        for (int p = 0; p < s.kernel; ++p)
          for (int q = 0; q < s.kernel; ++q) dp[(i * s.stride + p) * s.w + j * s.stride + q] += g;
      }
  }
}

#define CILAB_CONV_INSTANTIATE(T)                                                                   \
  template void conv2d_forward<T>(const T*, const T*, const T*, const ConvShape&, T*);              \
  template void conv2d_backward<T>(const T*, const T*, const T*, const ConvShape&, T*, T*, T*);     \
  template void im2col<T>(const T*, const ConvShape&, int, T*);                                     \
  template void col2im<T>(const T*, const ConvShape&, int, T*);                                     \
  template void max_pool2d_forward<T>(const T*, const PoolShape&, T*, int32_t*);                    \
  template void max_pool2d_backward<T>(const T*, const int32_t*, const PoolShape&, T*);             \
  template void avg_pool2d_forward<T>(const T*, const PoolShape&, T*);                              \
  template void avg_pool2d_backward<T>(const T*, const PoolShape&, T*);
CILAB_CONV_INSTANTIATE(float)
CILAB_CONV_INSTANTIATE(double)
#undef CILAB_CONV_INSTANTIATE

}  // namespace cilab::nn
