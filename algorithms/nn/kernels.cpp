// Stateless kernel pairs: see kernels.h. Plain loops in a fixed order (the sizes of the sequence
// lessons are small: a few dozen tokens, widths up to a few hundred); each sum is accumulated in T.
#include "algorithms/nn/kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace cilab::nn {

template <class T>
void softmax_forward(const T* x, int rows, int n, T* y) {
  for (int r = 0; r < rows; ++r) {
    const T* xr = x + static_cast<size_t>(r) * n;
    T* yr = y + static_cast<size_t>(r) * n;
    T m = -std::numeric_limits<T>::infinity();
    for (int j = 0; j < n; ++j) m = std::max(m, xr[j]);
    T sum = 0;
    for (int j = 0; j < n; ++j) {
      yr[j] = xr[j] == -std::numeric_limits<T>::infinity() ? T(0) : std::exp(xr[j] - m);
      sum += yr[j];
    }
    const T inv = T(1) / sum;
    for (int j = 0; j < n; ++j) yr[j] *= inv;
  }
}

template <class T>
void softmax_backward(const T* y, const T* dy, int rows, int n, T* dx) {
  for (int r = 0; r < rows; ++r) {
    const size_t o = static_cast<size_t>(r) * n;
    T dot = 0;
    for (int j = 0; j < n; ++j) dot += dy[o + j] * y[o + j];
    for (int j = 0; j < n; ++j) dx[o + j] = y[o + j] * (dy[o + j] - dot);
  }
}

template <class T>
void layernorm_forward(const T* x, const T* gamma, const T* beta, int rows, int n, T eps, T* y, T* mean, T* rstd) {
  for (int r = 0; r < rows; ++r) {
    const T* xr = x + static_cast<size_t>(r) * n;
    T* yr = y + static_cast<size_t>(r) * n;
    T m = 0;
    for (int j = 0; j < n; ++j) m += xr[j];
    m /= n;
    T v = 0;
    for (int j = 0; j < n; ++j) v += (xr[j] - m) * (xr[j] - m);
    v /= n;
    const T s = T(1) / std::sqrt(v + eps);
    for (int j = 0; j < n; ++j) {
      const T xhat = (xr[j] - m) * s;
      yr[j] = gamma ? xhat * gamma[j] + (beta ? beta[j] : T(0)) : xhat + (beta ? beta[j] : T(0));
    }
    mean[r] = m;
    rstd[r] = s;
  }
}

template <class T>
void layernorm_backward(const T* x, const T* gamma, const T* mean, const T* rstd, const T* dy, int rows, int n, T* dx,
                        T* dgamma, T* dbeta) {
  for (int r = 0; r < rows; ++r) {
    const size_t o = static_cast<size_t>(r) * n;
    const T m = mean[r], s = rstd[r];
    // dxhat = dy .* gamma; dx = s (dxhat - mean(dxhat) - xhat mean(dxhat .* xhat))   (llm.c's form)
    T mean_d = 0, mean_dx = 0;
    for (int j = 0; j < n; ++j) {
      const T xhat = (x[o + j] - m) * s;
      const T d = dy[o + j] * (gamma ? gamma[j] : T(1));
      mean_d += d;
      mean_dx += d * xhat;
    }
    mean_d /= n;
    mean_dx /= n;
    for (int j = 0; j < n; ++j) {
      const T xhat = (x[o + j] - m) * s;
      const T d = dy[o + j] * (gamma ? gamma[j] : T(1));
      dx[o + j] = s * (d - mean_d - xhat * mean_dx);
      if (gamma && dgamma) dgamma[j] += dy[o + j] * xhat;
      if (dbeta) dbeta[j] += dy[o + j];
    }
  }
}

template <class T>
void embedding_forward(const int32_t* index, int rows, const T* table, int vocab, int dim, T* y) {
  for (int r = 0; r < rows; ++r) {
    const int32_t i = index[r];
    if (i < 0 || i >= vocab)
      throw std::invalid_argument("embedding: row " + std::to_string(r) + " has index " + std::to_string(i) +
                                  " outside the table's " + std::to_string(vocab) + " rows");
    std::copy(table + static_cast<size_t>(i) * dim, table + static_cast<size_t>(i + 1) * dim,
              y + static_cast<size_t>(r) * dim);
  }
}

template <class T>
void embedding_backward(const int32_t* index, int rows, const T* dy, int dim, T* dtable) {
  for (int r = 0; r < rows; ++r) {
    T* d = dtable + static_cast<size_t>(index[r]) * dim;
    const T* g = dy + static_cast<size_t>(r) * dim;
    for (int j = 0; j < dim; ++j) d[j] += g[j];
  }
}

template <class T>
void linear_forward(const T* x, const T* w, const T* mask, const T* b, int rows, int in, int out, T* y) {
  for (int r = 0; r < rows; ++r) {
    const T* xr = x + static_cast<size_t>(r) * in;
    for (int o = 0; o < out; ++o) {
      const T* wo = w + static_cast<size_t>(o) * in;
      const T* mo = mask ? mask + static_cast<size_t>(o) * in : nullptr;
      T acc = b ? b[o] : T(0);
      if (mo)
        for (int i = 0; i < in; ++i) acc += xr[i] * wo[i] * mo[i];
      else
        for (int i = 0; i < in; ++i) acc += xr[i] * wo[i];
      y[static_cast<size_t>(r) * out + o] = acc;
    }
  }
}

template <class T>
void linear_backward(const T* x, const T* w, const T* mask, const T* dy, int rows, int in, int out, T* dx, T* dw,
                     T* db) {
  if (dx) {
    std::fill(dx, dx + static_cast<size_t>(rows) * in, T(0));
    for (int r = 0; r < rows; ++r)
      for (int o = 0; o < out; ++o) {
        const T g = dy[static_cast<size_t>(r) * out + o];
        const T* wo = w + static_cast<size_t>(o) * in;
        const T* mo = mask ? mask + static_cast<size_t>(o) * in : nullptr;
        T* dxr = dx + static_cast<size_t>(r) * in;
        for (int i = 0; i < in; ++i) dxr[i] += g * wo[i] * (mo ? mo[i] : T(1));
      }
  }
  if (dw)
    for (int o = 0; o < out; ++o) {
      T* dwo = dw + static_cast<size_t>(o) * in;
      const T* mo = mask ? mask + static_cast<size_t>(o) * in : nullptr;
      for (int i = 0; i < in; ++i) {
        T acc = 0;
        for (int r = 0; r < rows; ++r) acc += dy[static_cast<size_t>(r) * out + o] * x[static_cast<size_t>(r) * in + i];
        dwo[i] += mo ? acc * mo[i] : acc;
      }
    }
  if (db)
    for (int o = 0; o < out; ++o) {
      T acc = 0;
      for (int r = 0; r < rows; ++r) acc += dy[static_cast<size_t>(r) * out + o];
      db[o] += acc;
    }
}

template <class T>
void attention_forward(const T* q, const T* k, const T* v, int t, int d_k, int d_v, bool causal, bool scale, T* p,
                       T* z) {
  const T c = scale ? T(1) / std::sqrt(static_cast<T>(d_k)) : T(1);
  for (int i = 0; i < t; ++i)
    for (int j = 0; j < t; ++j) {
      T s = 0;
      for (int a = 0; a < d_k; ++a) s += q[static_cast<size_t>(i) * d_k + a] * k[static_cast<size_t>(j) * d_k + a];
      p[static_cast<size_t>(i) * t + j] = causal && j > i ? -std::numeric_limits<T>::infinity() : s * c;
    }
  softmax_forward(p, t, t, p);
  for (int i = 0; i < t; ++i)
    for (int b = 0; b < d_v; ++b) {
      T acc = 0;
      for (int j = 0; j < t; ++j) acc += p[static_cast<size_t>(i) * t + j] * v[static_cast<size_t>(j) * d_v + b];
      z[static_cast<size_t>(i) * d_v + b] = acc;
    }
}

template <class T>
void attention_backward(const T* q, const T* k, const T* v, const T* p, const T* dz, int t, int d_k, int d_v,
                        bool scale, T* dq, T* dk, T* dv) {
  const T c = scale ? T(1) / std::sqrt(static_cast<T>(d_k)) : T(1);
  // dV = P^T dZ
  for (int j = 0; j < t; ++j)
    for (int b = 0; b < d_v; ++b) {
      T acc = 0;
      for (int i = 0; i < t; ++i) acc += p[static_cast<size_t>(i) * t + j] * dz[static_cast<size_t>(i) * d_v + b];
      dv[static_cast<size_t>(j) * d_v + b] = acc;
    }
  // dP = dZ V^T, then dS through the softmax (masked entries have P = 0, hence dS = 0).
  std::vector<T> dp(static_cast<size_t>(t) * t), ds(static_cast<size_t>(t) * t);
  for (int i = 0; i < t; ++i)
    for (int j = 0; j < t; ++j) {
      T acc = 0;
      for (int b = 0; b < d_v; ++b) acc += dz[static_cast<size_t>(i) * d_v + b] * v[static_cast<size_t>(j) * d_v + b];
      dp[static_cast<size_t>(i) * t + j] = acc;
    }
  softmax_backward(p, dp.data(), t, t, ds.data());
  for (int i = 0; i < t; ++i)
    for (int a = 0; a < d_k; ++a) {
      T acc = 0;
      for (int j = 0; j < t; ++j) acc += ds[static_cast<size_t>(i) * t + j] * k[static_cast<size_t>(j) * d_k + a];
      dq[static_cast<size_t>(i) * d_k + a] = acc * c;
    }
  for (int j = 0; j < t; ++j)
    for (int a = 0; a < d_k; ++a) {
      T acc = 0;
      for (int i = 0; i < t; ++i) acc += ds[static_cast<size_t>(i) * t + j] * q[static_cast<size_t>(i) * d_k + a];
      dk[static_cast<size_t>(j) * d_k + a] = acc * c;
    }
}

#define CILAB_KERNELS(T)                                                                                         \
  template void softmax_forward<T>(const T*, int, int, T*);                                                      \
  template void softmax_backward<T>(const T*, const T*, int, int, T*);                                           \
  template void layernorm_forward<T>(const T*, const T*, const T*, int, int, T, T*, T*, T*);                     \
  template void layernorm_backward<T>(const T*, const T*, const T*, const T*, const T*, int, int, T*, T*, T*);   \
  template void embedding_forward<T>(const int32_t*, int, const T*, int, int, T*);                               \
  template void embedding_backward<T>(const int32_t*, int, const T*, int, T*);                                   \
  template void linear_forward<T>(const T*, const T*, const T*, const T*, int, int, int, T*);                    \
  template void linear_backward<T>(const T*, const T*, const T*, const T*, int, int, int, T*, T*, T*);           \
  template void attention_forward<T>(const T*, const T*, const T*, int, int, int, bool, bool, T*, T*);           \
  template void attention_backward<T>(const T*, const T*, const T*, const T*, const T*, int, int, int, bool, T*, \
                                      T*, T*);
CILAB_KERNELS(float)
CILAB_KERNELS(double)
#undef CILAB_KERNELS

}  // namespace cilab::nn
