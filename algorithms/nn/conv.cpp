// Convolution kernels (conv.h): im2col, one GEMM per sample and group (gemm.h), col2im.
#include "algorithms/nn/conv.h"

#include "algorithms/core/parallel.h"
#include "algorithms/nn/gemm.h"

#include <Eigen/Core>
#ifdef EIGEN_VECTORIZE_AVX512
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace cilab::nn {

namespace {

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

// Stride and dilation 1 (LeNet's case): the output rows [i0, i1) and columns [lo, hi) of kernel
// tap (p, q) that read inside the map, and where that block starts in the input plane of channel 0.
struct UnitTap {
  int i0, i1, lo, hi;
  int64_t offset;
};
inline UnitTap unit_tap(int h, int w, int oh, int ow, int pad_h, int pad_w, int p, int q) {
  UnitTap t;
  t.i0 = std::clamp(pad_h - p, 0, oh);
  t.i1 = std::clamp(h + pad_h - p, t.i0, oh);
  t.lo = std::clamp(pad_w - q, 0, ow);
  t.hi = std::clamp(w + pad_w - q, t.lo, ow);
  t.offset = int64_t(t.i0 - pad_h + p) * w + (t.lo - pad_w + q);
  return t;
}

// o[0, n) = 0 for a row's few padding entries (or a whole row): with AVX-512 packets and one
// masked packet (no memset call per run); else std::fill.
template <class T>
inline void zero_few(T* o, int n) {
#ifdef EIGEN_VECTORIZE_AVX512
  if constexpr (std::is_same_v<T, float>) {
    using P = Eigen::internal::Packet16f;
    const P zero = Eigen::internal::pset1<P>(0.0f);
    int j = 0;
    for (; j + 16 <= n; j += 16) Eigen::internal::pstoreu(o + j, zero);
    if (j < n) Eigen::internal::pstoreu<float>(o + j, zero, static_cast<uint16_t>((1u << (n - j)) - 1u));
    return;
  }
#endif
  std::fill(o, o + n, T(0));
}

// dst[0, n) = src[0, n) for a short run: with AVX-512, whole packets and one masked packet for
// the rest (a memmove call per run of ten floats cost five times the copy); else std::copy.
template <class T>
inline void copy_run(T* dst, const T* src, int n) {
#ifdef EIGEN_VECTORIZE_AVX512
  if constexpr (std::is_same_v<T, float>) {
    using P = Eigen::internal::Packet16f;
    int j = 0;
    for (; j + 16 <= n; j += 16) Eigen::internal::pstoreu(dst + j, Eigen::internal::ploadu<P>(src + j));
    if (j < n) {
      const auto mask = static_cast<uint16_t>((1u << (n - j)) - 1u);
      Eigen::internal::pstoreu<float>(dst + j, Eigen::internal::ploadu<P>(src + j, mask), mask);
    }
    return;
  }
#endif
  std::copy(src, src + n, dst);
}

// dst[j] += src[j] for j < n: col2im's run at stride 1 (the two never overlap). A plain loop:
// masked packets here were slower (the next tap's loads overlap this tap's stores).
template <class T>
inline void add_run(T* __restrict dst, const T* __restrict src, int n) {
  for (int j = 0; j < n; ++j) dst[j] += src[j];
}

}  // namespace

template <class T>
void im2col(const T* x_sample, const ConvShape& s, int group, T* col) {
  // The shape in locals: the vector stores below may alias anything as far as the compiler knows,
  // and reloading the fields after each store cost more than the copies.
  const int cg = s.c_in / s.groups, oh = s.out_h(), ow = s.out_w(), h = s.h, w = s.w, kh = s.kh, kw = s.kw;
  const int stride_h = s.stride_h, stride_w = s.stride_w, pad_h = s.pad_h, pad_w = s.pad_w, dil_h = s.dil_h,
            dil_w = s.dil_w;
  const T* xg = x_sample + int64_t(group) * cg * h * w;
  T* out = col;
  if (stride_h == 1 && stride_w == 1 && dil_h == 1 && dil_w == 1) {
    // The common case (LeNet's), its loops bare: per tap, the valid rows and columns once, the
    // rows above and below as one run of zeros, each valid row a short copy between its zeros.
    for (int c = 0; c < cg; ++c)
      for (int p = 0; p < kh; ++p)
        for (int q = 0; q < kw; ++q, out += int64_t(oh) * ow) {
          const UnitTap t = unit_tap(h, w, oh, ow, pad_h, pad_w, p, q);
          const T* src = xg + int64_t(c) * h * w + t.offset;
          zero_few(out, t.i0 * ow);
          for (int i = t.i0; i < t.i1; ++i, src += w) {
            T* o = out + int64_t(i) * ow;
            if (t.lo > 0) zero_few(o, t.lo);
            copy_run(o + t.lo, src, t.hi - t.lo);
            if (t.hi < ow) zero_few(o + t.hi, ow - t.hi);
          }
          zero_few(out + int64_t(t.i1) * ow, (oh - t.i1) * ow);
        }
    return;
  }
  for (int c = 0; c < cg; ++c)
    for (int p = 0; p < kh; ++p)
      for (int q = 0; q < kw; ++q) {
        // The valid output columns of this kernel tap, once: no test per element.
        int lo = 0, hi = 0;
        valid_columns(ow, w, stride_w, pad_w, q * dil_w, lo, hi);
        const T* plane = xg + int64_t(c) * h * w + (lo * stride_w - pad_w + q * dil_w);
        for (int i = 0; i < oh; ++i, out += ow) {
          const int yy = i * stride_h - pad_h + p * dil_h;
          if (yy < 0 || yy >= h || lo >= hi) {
            zero_few(out, ow);
            continue;
          }
          const T* src = plane + int64_t(yy) * w;
          // The runs are short (a row of a small map): the padding's few zeros as a loop, never a
          // memset call (three library calls per run cost 5x the copy itself).
          zero_few(out, lo);
          if (stride_w == 1) copy_run(out + lo, src, hi - lo);
          else
            for (int j = lo; j < hi; ++j) out[j] = src[int64_t(j - lo) * stride_w];
          zero_few(out + hi, ow - hi);
        }
      }
}

template <class T>
void col2im(const T* col, const ConvShape& s, int group, T* dx_sample) {
  const int cg = s.c_in / s.groups, oh = s.out_h(), ow = s.out_w(), h = s.h, w = s.w, kh = s.kh, kw = s.kw;
  const int stride_h = s.stride_h, stride_w = s.stride_w, pad_h = s.pad_h, pad_w = s.pad_w, dil_h = s.dil_h,
            dil_w = s.dil_w;
  T* dg = dx_sample + int64_t(group) * cg * h * w;
  const T* in = col;
  if (stride_h == 1 && stride_w == 1 && dil_h == 1 && dil_w == 1) {
    // The adjoint of im2col's bare loops: per tap, each valid row's run added back.
    for (int c = 0; c < cg; ++c)
      for (int p = 0; p < kh; ++p)
        for (int q = 0; q < kw; ++q, in += int64_t(oh) * ow) {
          const UnitTap t = unit_tap(h, w, oh, ow, pad_h, pad_w, p, q);
          T* dst = dg + int64_t(c) * h * w + t.offset;
          for (int i = t.i0; i < t.i1; ++i, dst += w) add_run(dst, in + int64_t(i) * ow + t.lo, t.hi - t.lo);
        }
    return;
  }
  for (int c = 0; c < cg; ++c)
    for (int p = 0; p < kh; ++p)
      for (int q = 0; q < kw; ++q, in += int64_t(oh) * ow) {
        int lo = 0, hi = 0;
        valid_columns(ow, w, stride_w, pad_w, q * dil_w, lo, hi);
        for (int i = 0; i < oh; ++i) {
          const int yy = i * stride_h - pad_h + p * dil_h;
          if (yy < 0 || yy >= h) continue;
          T* dst = dg + (int64_t(c) * h + yy) * w + (lo * stride_w - pad_w + q * dil_w);
          const T* src = in + int64_t(i) * ow;
          for (int j = lo; j < hi; ++j) dst[int64_t(j - lo) * stride_w] += src[j];
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

// A thread's column buffer for im2col (reused from call to call, never cleared: im2col writes
// every entry, the padding's zeros included).
template <class T>
T* col_scratch(int64_t n) {
  thread_local std::vector<T> buf;
  if (buf.size() < static_cast<size_t>(n)) buf.resize(static_cast<size_t>(n));
  return buf.data();
}

}  // namespace

template <class T>
void conv2d_forward(const T* x, const T* w, const T* b, const ConvShape& s, T* y, T* cols) {
  check(s);
  const int cg = s.c_in / s.groups, og = s.c_out / s.groups;
  const int64_t k = int64_t(cg) * s.kh * s.kw, m = int64_t(s.out_h()) * s.out_w();
  const int blocks = conv_blocks(s.n);
  parallel_for_blocks(blocks, conv_threads(blocks, double(s.n) * s.c_out * k * m), [&](int blk) {
    T* scratch = cols ? nullptr : col_scratch<T>(k * m);
    const int n_end = std::min(s.n, (blk + 1) * kConvBlockSamples);
    for (int n = blk * kConvBlockSamples; n < n_end; ++n) {
      const T* xs = x + int64_t(n) * s.c_in * s.h * s.w;
      T* ys = y + int64_t(n) * s.c_out * m;
      for (int g = 0; g < s.groups; ++g) {
        T* col = cols ? cols + (int64_t(n) * s.groups + g) * k * m : scratch;
        im2col(xs, s, g, col);
        // Y_g (og x m) = b + W_g (og x k) col (k x m): the bias first, the product added to it
        T* yg = ys + int64_t(g) * og * m;
        for (int o = 0; o < og; ++o) std::fill(yg + o * m, yg + (o + 1) * m, b ? b[g * og + o] : T(0));
        gemm<T>(Op::N, Op::N, og, m, k, w + int64_t(g) * og * k, k, col, m, true, yg, m);
      }
    }
  });
}

template <class T>
void conv2d_backward(const T* x, const T* w, const T* dy, const ConvShape& s, T* dx, T* dw, T* db, const T* cols) {
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
        T* col = col_scratch<T>(k * m);
        const int n_end = std::min(s.n, (blk + 1) * kConvBlockSamples);
        for (int n = blk * kConvBlockSamples; n < n_end; ++n) {
          const T* xs = x + int64_t(n) * s.c_in * s.h * s.w;
          const T* dys = dy + int64_t(n) * s.c_out * m;
          T* dxs = dx ? dx + int64_t(n) * s.c_in * s.h * s.w : nullptr;
          if (dxs) std::fill(dxs, dxs + int64_t(s.c_in) * s.h * s.w, T(0));
          for (int g = 0; g < s.groups; ++g) {
            const T* dyg = dys + int64_t(g) * og * m;
            if (db)
              for (int o = 0; o < og; ++o) {
                T sum = T(0);
                for (int64_t j = 0; j < m; ++j) sum += dyg[o * m + j];
                part.db[static_cast<size_t>(g * og + o)] += sum;
              }
            if (dw) {
              // dW_g (og x k) += dY_g (og x m) col^T (m x k), col kept by the forward pass or rebuilt
              const T* cg_ = col;
              if (cols) cg_ = cols + (int64_t(n) * s.groups + g) * k * m;
              else im2col(xs, s, g, col);
              gemm<T>(Op::N, Op::T, og, k, m, dyg, m, cg_, m, true, part.dw.data() + int64_t(g) * og * k, k);
            }
            if (dxs) {
              // dcol (k x m) = W_g^T dY_g, scattered back to the input positions
              gemm<T>(Op::T, Op::N, k, m, og, w + int64_t(g) * og * k, k, dyg, m, false, col, m);
              col2im(col, s, g, dxs);
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

// The pooling loops run over fixed blocks of kPoolBlockPlanes (h, w) planes, each block owning its
// planes' outputs: the same values on any number of threads.
constexpr int64_t kPoolBlockPlanes = 64;

template <class F>
void for_plane_blocks(int64_t planes, int64_t plane_work, const F& f) {
  const int blocks = static_cast<int>((planes + kPoolBlockPlanes - 1) / kPoolBlockPlanes);
  parallel_for_blocks(blocks, parallel_threads(blocks, double(planes) * double(plane_work), 2e5), [&](int blk) {
    const int64_t p0 = blk * kPoolBlockPlanes, p1 = std::min(planes, p0 + kPoolBlockPlanes);
    for (int64_t plane = p0; plane < p1; ++plane) f(plane);
  });
}

#ifdef EIGEN_VECTORIZE_AVX512
// One output row of the 2 x 2, stride 2 max pool, 16 windows at a time: each row pair's 32 floats
// split into even and odd columns (two permutes), then the general loop's comparisons in its order
// (ordered >, so a NaN never replaces the maximum, and a NaN first element stays), as mask blends.
inline void max_pool2x2_row_avx512(const float* r0, const float* r1, int ow, int base, int w, float* yr,
                                   int32_t* ar) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  const __m512i lane2 = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i one = _mm512_set1_epi32(1), wv = _mm512_set1_epi32(w);
  for (int j0 = 0; j0 < ow; j0 += 16) {
    const int n = std::min(16, ow - j0), m = 2 * n;  // windows, and floats of each row
    const auto lo = static_cast<__mmask16>(m >= 16 ? 0xffffu : (1u << m) - 1u);
    const auto hi = static_cast<__mmask16>(m > 16 ? (1u << (m - 16)) - 1u : 0u);
    const __m512 x0 = _mm512_maskz_loadu_ps(lo, r0 + 2 * j0), x1 = _mm512_maskz_loadu_ps(hi, r0 + 2 * j0 + 16);
    const __m512 y0 = _mm512_maskz_loadu_ps(lo, r1 + 2 * j0), y1 = _mm512_maskz_loadu_ps(hi, r1 + 2 * j0 + 16);
    const __m512 a0 = _mm512_permutex2var_ps(x0, even, x1), a1 = _mm512_permutex2var_ps(x0, odd, x1);
    const __m512 b0 = _mm512_permutex2var_ps(y0, even, y1), b1 = _mm512_permutex2var_ps(y0, odd, y1);
    // v = a0; then a1, b0, b1 each replace it when strictly greater (in row order, as the loop).
    const __mmask16 c1 = _mm512_cmp_ps_mask(a1, a0, _CMP_GT_OQ);
    __m512 v = _mm512_mask_blend_ps(c1, a0, a1);
    __m512i at = _mm512_maskz_mov_epi32(c1, one);
    const __mmask16 c2 = _mm512_cmp_ps_mask(b0, v, _CMP_GT_OQ);
    v = _mm512_mask_blend_ps(c2, v, b0);
    at = _mm512_mask_blend_epi32(c2, at, wv);
    const __mmask16 c3 = _mm512_cmp_ps_mask(b1, v, _CMP_GT_OQ);
    v = _mm512_mask_blend_ps(c3, v, b1);
    at = _mm512_mask_blend_epi32(c3, at, _mm512_add_epi32(wv, one));
    const auto out = static_cast<__mmask16>(n == 16 ? 0xffffu : (1u << n) - 1u);
    _mm512_mask_storeu_ps(yr + j0, out, v);
    if (ar)
      _mm512_mask_storeu_epi32(ar + j0, out, _mm512_add_epi32(_mm512_set1_epi32(base + 2 * j0), _mm512_add_epi32(lane2, at)));
  }
}
#endif

template <class T>
void max_pool2d_forward(const T* x, const PoolShape& s, T* y, int32_t* argmax) {
  check(s);
  const int oh = s.out_h(), ow = s.out_w();
  for_plane_blocks(int64_t(s.n) * s.c, int64_t(oh) * ow * s.kernel * s.kernel, [&](int64_t plane) {
    const T* xp = x + plane * s.h * s.w;
    T* yp = y + plane * oh * ow;
    int32_t* ap = argmax ? argmax + plane * oh * ow : nullptr;
    if (s.kernel == 2 && s.stride == 2) {
      // The common 2 x 2 window, stride 2 (LeNet's): the same comparisons in the same order as
      // below, as selects rather than branches (their outcomes are data, branches mispredict), the
      // sizes in locals (the stores could alias the shape), the argmax test out of the loop.
      const int w = s.w;
      auto rows = [&](auto keep_argmax) {
        for (int i = 0; i < oh; ++i) {
          const int base = 2 * i * w;
          const T* __restrict r0 = xp + base;
          const T* __restrict r1 = r0 + w;
          T* __restrict yr = yp + i * ow;
          int32_t* __restrict ar = ap ? ap + i * ow : nullptr;
          // The first maximum in row order, as the loop below finds it: each later element
          // replaces the current one only when strictly greater.
#ifdef EIGEN_VECTORIZE_AVX512
          if constexpr (std::is_same_v<T, float>) {
            max_pool2x2_row_avx512(r0, r1, ow, base, w, yr, decltype(keep_argmax)::value ? ar : nullptr);
            continue;
          }
#endif
          for (int j = 0; j < ow; ++j) {
            const T a1 = r0[2 * j + 1], b0 = r1[2 * j], b1 = r1[2 * j + 1];
            T v = r0[2 * j];
            int at = 0;
            at = a1 > v ? 1 : at;
            v = a1 > v ? a1 : v;
            at = b0 > v ? w : at;
            v = b0 > v ? b0 : v;
            at = b1 > v ? w + 1 : at;
            v = b1 > v ? b1 : v;
            yr[j] = v;
            if constexpr (decltype(keep_argmax)::value) ar[j] = base + 2 * j + at;
          }
        }
      };
      if (ap) rows(std::true_type{});
      else rows(std::false_type{});
      return;
    }
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        int best = (i * s.stride) * s.w + j * s.stride;
        for (int p = 0; p < s.kernel; ++p)
          for (int q = 0; q < s.kernel; ++q) {
            const int at = (i * s.stride + p) * s.w + j * s.stride + q;
            if (xp[at] > xp[best]) best = at;  // strict: the first maximum stays
          }
        yp[i * ow + j] = xp[best];
        if (ap) ap[i * ow + j] = best;
      }
  });
}

template <class T>
void max_pool2d_backward(const T* dy, const int32_t* argmax, const PoolShape& s, T* dx) {
  check(s);
  const int64_t per = int64_t(s.out_h()) * s.out_w();
  for_plane_blocks(int64_t(s.n) * s.c, per, [&](int64_t plane) {
    T* dp = dx + plane * s.h * s.w;
    std::fill(dp, dp + int64_t(s.h) * s.w, T(0));
    for (int64_t k = 0; k < per; ++k) dp[argmax[plane * per + k]] += dy[plane * per + k];
  });
}

template <class T>
void avg_pool2d_forward(const T* x, const PoolShape& s, T* y) {
  check(s);
  const int oh = s.out_h(), ow = s.out_w();
  const T inv = T(1) / T(s.kernel * s.kernel);
  for_plane_blocks(int64_t(s.n) * s.c, int64_t(oh) * ow * s.kernel * s.kernel, [&](int64_t plane) {
    const T* xp = x + plane * s.h * s.w;
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        T sum = 0;
        for (int p = 0; p < s.kernel; ++p)
          for (int q = 0; q < s.kernel; ++q) sum += xp[(i * s.stride + p) * s.w + j * s.stride + q];
        y[(plane * oh + i) * ow + j] = sum * inv;
      }
  });
}

template <class T>
void avg_pool2d_backward(const T* dy, const PoolShape& s, T* dx) {
  check(s);
  const int oh = s.out_h(), ow = s.out_w();
  const T inv = T(1) / T(s.kernel * s.kernel);
  for_plane_blocks(int64_t(s.n) * s.c, int64_t(oh) * ow * s.kernel * s.kernel, [&](int64_t plane) {
    T* dp = dx + plane * s.h * s.w;
    std::fill(dp, dp + int64_t(s.h) * s.w, T(0));
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        const T g = dy[(plane * oh + i) * ow + j] * inv;
        for (int p = 0; p < s.kernel; ++p)
          for (int q = 0; q < s.kernel; ++q) dp[(i * s.stride + p) * s.w + j * s.stride + q] += g;
      }
  });
}

#define CILAB_CONV_INSTANTIATE(T)                                                                   \
  template void conv2d_forward<T>(const T*, const T*, const T*, const ConvShape&, T*, T*);          \
  template void conv2d_backward<T>(const T*, const T*, const T*, const ConvShape&, T*, T*, T*, const T*); \
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
