// The stateless kernel pairs (nn/kernels.h): every backward against central differences in
// double (L = sum(R .* output) for a random R), and each kernel's own identities - softmax rows
// sum to 1, layer norm's invariances, a repeated embedding index sums its rows, the masked linear
// ignores masked weights, and attention's oracles (rows of P sum to 1, permutation equivariance,
// causality, Q = 0 is mean pooling).
#include "algorithms/nn/kernels.h"

#include "algorithms/core/rng.h"
#include "algorithms/nn/gradcheck.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

namespace cilab::nn {
namespace {

using V = std::vector<double>;

V random(Rng& rng, size_t n, double scale = 1.0) {
  V v(n);
  for (double& e : v) e = rng.uniform(-scale, scale);
  return v;
}

double dot(const V& a, const V& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Checks `analytic` (the gradient of L with respect to `theta`) against central differences of L.
void check(V& theta, const V& analytic, const std::function<double()>& loss, const char* what) {
  const GradientError e = check_gradient(theta.data(), theta.size(), analytic.data(), 1e-6, loss, relative_error);
  CHECK_MESSAGE(e.error < 1e-6, what, ": ", e.describe());
}

TEST_CASE("kernels: softmax - rows sum to 1, invariant to a shift, backward equals central differences") {
  Rng rng(1);
  const int rows = 4, n = 7;
  V x = random(rng, rows * n, 3.0), r = random(rng, rows * n), y(rows * n), dx(rows * n);
  softmax_forward(x.data(), rows, n, y.data());
  for (int i = 0; i < rows; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += y[static_cast<size_t>(i * n + j)];
    CHECK(s == doctest::Approx(1.0).epsilon(1e-14));
  }
  V shifted = x, ys(rows * n);
  for (double& e : shifted) e += 100.0;
  softmax_forward(shifted.data(), rows, n, ys.data());
  for (size_t i = 0; i < y.size(); ++i) CHECK(std::abs(ys[i] - y[i]) < 1e-14);
  softmax_backward(y.data(), r.data(), rows, n, dx.data());
  check(x, dx, [&] { V out(rows * n); softmax_forward(x.data(), rows, n, out.data()); return dot(r, out); }, "softmax");
}

TEST_CASE("kernels: layer norm per row - zero mean, unit variance, invariances, gradients of x, gamma, beta") {
  Rng rng(2);
  const int rows = 3, n = 6;
  const double eps = 1e-5;
  V x = random(rng, rows * n, 2.0), g = random(rng, n), b = random(rng, n), r = random(rng, rows * n);
  V y(rows * n), mean(rows), rstd(rows);
  layernorm_forward(x.data(), static_cast<const double*>(nullptr), static_cast<const double*>(nullptr), rows, n, eps,
                    y.data(), mean.data(), rstd.data());
  for (int i = 0; i < rows; ++i) {
    double m = 0, v = 0;
    for (int j = 0; j < n; ++j) m += y[static_cast<size_t>(i * n + j)] / n;
    for (int j = 0; j < n; ++j) v += (y[static_cast<size_t>(i * n + j)] - m) * (y[static_cast<size_t>(i * n + j)] - m) / n;
    CHECK(std::abs(m) < 1e-12);
    CHECK(v == doctest::Approx(1.0).epsilon(1e-4));  // var / (var + eps)
  }
  // LN(a x + c) = LN(x) per row (up to eps): adding a constant or scaling the row changes nothing.
  V x2 = x, y2(rows * n), m2(rows), s2(rows);
  for (double& e : x2) e = 3.0 * e + 7.0;
  layernorm_forward(x2.data(), g.data(), b.data(), rows, n, 0.0, y2.data(), m2.data(), s2.data());
  layernorm_forward(x.data(), g.data(), b.data(), rows, n, 0.0, y.data(), mean.data(), rstd.data());
  for (size_t i = 0; i < y.size(); ++i) CHECK(std::abs(y2[i] - y[i]) < 1e-12);

  auto loss = [&] {
    V out(rows * n), m(rows), s(rows);
    layernorm_forward(x.data(), g.data(), b.data(), rows, n, eps, out.data(), m.data(), s.data());
    return dot(r, out);
  };
  layernorm_forward(x.data(), g.data(), b.data(), rows, n, eps, y.data(), mean.data(), rstd.data());
  V dx(rows * n), dg(n, 0.0), db(n, 0.0);
  layernorm_backward(x.data(), g.data(), mean.data(), rstd.data(), r.data(), rows, n, dx.data(), dg.data(), db.data());
  check(x, dx, loss, "layer norm dx");
  check(g, dg, loss, "layer norm dgamma");
  check(b, db, loss, "layer norm dbeta");
}

TEST_CASE("kernels: embedding - a lookup, a repeated index sums its rows, an index out of range is named") {
  Rng rng(3);
  const int vocab = 5, dim = 3;
  V table = random(rng, vocab * dim), r = random(rng, 4 * dim), y(4 * dim);
  const int32_t idx[4] = {2, 0, 2, 4};
  embedding_forward(idx, 4, table.data(), vocab, dim, y.data());
  CHECK(y[3] == table[0]);
  CHECK(y[6] == table[6]);
  V dt(vocab * dim, 0.0);
  embedding_backward(idx, 4, r.data(), dim, dt.data());
  CHECK(dt[6] == r[0] + r[6]);  // row 2 was looked up twice
  CHECK(dt[3] == 0.0);          // row 1 never
  check(table, dt, [&] { V out(4 * dim); embedding_forward(idx, 4, table.data(), vocab, dim, out.data()); return dot(r, out); },
        "embedding");
  const int32_t bad[1] = {5};
  CHECK_THROWS_WITH_AS(embedding_forward(bad, 1, table.data(), vocab, dim, y.data()), doctest::Contains("row 0 has index 5"),
                       std::invalid_argument);
}

TEST_CASE("kernels: linear and masked linear - y = x (W .* M)^T + b, gradients, masked weights never matter") {
  Rng rng(4);
  const int rows = 3, in = 5, out = 4;
  V x = random(rng, rows * in), w = random(rng, out * in), b = random(rng, out), r = random(rng, rows * out);
  V mask(out * in);
  for (int o = 0; o < out; ++o)
    for (int i = 0; i < in; ++i) mask[static_cast<size_t>(o * in + i)] = (i <= o) ? 1.0 : 0.0;  // MADE-like
  for (const double* m : {static_cast<const double*>(nullptr), static_cast<const double*>(mask.data())}) {
    auto loss = [&] {
      V y(rows * out);
      linear_forward(x.data(), w.data(), m, b.data(), rows, in, out, y.data());
      return dot(r, y);
    };
    V dx(rows * in), dw(out * in, 0.0), db(out, 0.0);
    linear_backward(x.data(), w.data(), m, r.data(), rows, in, out, dx.data(), dw.data(), db.data());
    check(x, dx, loss, "linear dx");
    check(w, dw, loss, "linear dw");
    check(b, db, loss, "linear db");
    if (m) {
      for (size_t k = 0; k < mask.size(); ++k)
        if (mask[k] == 0) CHECK(dw[k] == 0.0);
      // Output o depends on inputs 0..o only: perturb input o + 1 and outputs 0..o stay.
      V y0(rows * out), y1(rows * out);
      linear_forward(x.data(), w.data(), m, b.data(), rows, in, out, y0.data());
      V x2 = x;
      x2[2] += 1.0;  // input 2 of row 0
      linear_forward(x2.data(), w.data(), m, b.data(), rows, in, out, y1.data());
      CHECK(y1[0] == y0[0]);
      CHECK(y1[1] == y0[1]);
      CHECK(y1[2] != y0[2]);
    }
  }
}

TEST_CASE("kernels: attention - P rows sum to 1, permutation equivariant, causal, Q = 0 pools, gradients") {
  Rng rng(5);
  const int t = 5, dk = 3, dv = 4;
  V q = random(rng, t * dk, 2.0), k = random(rng, t * dk, 2.0), v = random(rng, t * dv), r = random(rng, t * dv);
  for (bool causal : {false, true})
    for (bool scale : {true, false}) {
      V p(t * t), z(t * dv);
      attention_forward(q.data(), k.data(), v.data(), t, dk, dv, causal, scale, p.data(), z.data());
      for (int i = 0; i < t; ++i) {
        double s = 0;
        for (int j = 0; j < t; ++j) s += p[static_cast<size_t>(i * t + j)];
        CHECK(s == doctest::Approx(1.0).epsilon(1e-14));
        if (causal)
          for (int j = i + 1; j < t; ++j) CHECK(p[static_cast<size_t>(i * t + j)] == 0.0);
      }
      auto loss = [&] {
        V pp(t * t), zz(t * dv);
        attention_forward(q.data(), k.data(), v.data(), t, dk, dv, causal, scale, pp.data(), zz.data());
        return dot(r, zz);
      };
      V dq(t * dk), dkk(t * dk), dvv(t * dv);
      attention_backward(q.data(), k.data(), v.data(), p.data(), r.data(), t, dk, dv, scale, dq.data(), dkk.data(), dvv.data());
      check(q, dq, loss, "attention dQ");
      check(k, dkk, loss, "attention dK");
      check(v, dvv, loss, "attention dV");
    }
  // Permutation: permuting the tokens (rows of Q, K, V) permutes Z the same way (no causal mask).
  const int perm[t] = {3, 0, 4, 1, 2};
  V qp(t * dk), kp(t * dk), vp(t * dv), p(t * t), z(t * dv), pp(t * t), zp(t * dv);
  for (int i = 0; i < t; ++i) {
    std::copy_n(q.begin() + perm[i] * dk, dk, qp.begin() + i * dk);
    std::copy_n(k.begin() + perm[i] * dk, dk, kp.begin() + i * dk);
    std::copy_n(v.begin() + perm[i] * dv, dv, vp.begin() + i * dv);
  }
  attention_forward(q.data(), k.data(), v.data(), t, dk, dv, false, true, p.data(), z.data());
  attention_forward(qp.data(), kp.data(), vp.data(), t, dk, dv, false, true, pp.data(), zp.data());
  for (int i = 0; i < t; ++i)
    for (int b = 0; b < dv; ++b) CHECK(std::abs(zp[static_cast<size_t>(i * dv + b)] - z[static_cast<size_t>(perm[i] * dv + b)]) < 1e-14);
  // Causality: with the mask, z_0 does not change when a later token changes.
  V v2 = v;
  v2[static_cast<size_t>(3 * dv)] += 5.0;
  V zc(t * dv), zc2(t * dv);
  attention_forward(q.data(), k.data(), v.data(), t, dk, dv, true, true, p.data(), zc.data());
  attention_forward(q.data(), k.data(), v2.data(), t, dk, dv, true, true, p.data(), zc2.data());
  for (int b = 0; b < dv; ++b) CHECK(zc2[static_cast<size_t>(b)] == zc[static_cast<size_t>(b)]);
  CHECK(zc2[static_cast<size_t>(3 * dv)] != zc[static_cast<size_t>(3 * dv)]);
  // Q = 0: every score is 0, P is uniform, each z_i is the mean of the values.
  V q0(t * dk, 0.0);
  attention_forward(q0.data(), k.data(), v.data(), t, dk, dv, false, true, p.data(), z.data());
  for (int b = 0; b < dv; ++b) {
    double mean = 0;
    for (int j = 0; j < t; ++j) mean += v[static_cast<size_t>(j * dv + b)] / t;
    for (int i = 0; i < t; ++i) CHECK(z[static_cast<size_t>(i * dv + b)] == doctest::Approx(mean).epsilon(1e-14));
  }
}

TEST_CASE("kernels: float and double agree (the float instantiation is the same computation)") {
  Rng rng(6);
  const int t = 4, dk = 3, dv = 2;
  V q = random(rng, t * dk), k = random(rng, t * dk), v = random(rng, t * dv);
  std::vector<float> qf(q.begin(), q.end()), kf(k.begin(), k.end()), vf(v.begin(), v.end()), pf(t * t), zf(t * dv);
  V p(t * t), z(t * dv);
  attention_forward(q.data(), k.data(), v.data(), t, dk, dv, true, true, p.data(), z.data());
  attention_forward(qf.data(), kf.data(), vf.data(), t, dk, dv, true, true, pf.data(), zf.data());
  for (size_t i = 0; i < z.size(); ++i) CHECK(std::abs(zf[i] - z[i]) < 1e-6);
}

}  // namespace
}  // namespace cilab::nn
