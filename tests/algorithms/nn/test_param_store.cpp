// The parameter store (nn/param_store.h): the layout (aligned tensors in declaration order, a tied
// name on its owner's storage, shared tensors counted once), the refusals, the state_dict; and what
// tying means for gradients, checked against central differences in double: a language model's
// embedding tied to its output layer (two uses, one gradient: the sum), and a linear recurrent
// cell unrolled over T steps with one context per step (one weight, T uses).
#include "algorithms/nn/param_store.h"

#include "algorithms/core/rng.h"
#include "algorithms/nn/gradcheck.h"
#include "algorithms/nn/kernels.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cilab::nn {

TEST_CASE("param store: tensors in order on 16-entry boundaries, a tied name on its owner's storage, counted once") {
  ParamStore<float> ps;
  const int w = ps.add("fc.weight", {3, 5});
  const int b = ps.add("fc.bias", {3});
  const int t = ps.tie("head.weight", w);
  const int tt = ps.tie("head2.weight", t);  // a tie of a tie shares the first owner
  ps.allocate();
  CHECK(ps.tensor(w).offset == 0);
  CHECK(ps.tensor(b).offset == 16);
  CHECK(ps.size() == 32);
  CHECK(ps.value(t) == ps.value(w));
  CHECK(ps.grad(tt) == ps.grad(w));
  CHECK(ps.tensor(tt).shares == w);
  CHECK(ps.tensor(t).shape == std::vector<int64_t>{3, 5});
  CHECK(ps.num_parameters() == 18);
  CHECK(ps.find("fc.bias") == b);
  CHECK(ps.find("nope") == -1);
  for (size_t i = 0; i < ps.size(); ++i) CHECK(ps.params()[i] == 0.0f);
  ps.value(w)[4] = 2.5f;
  ps.grad(b)[1] = 1.0f;
  std::vector<NpyArray> sd;
  ps.state_dict("model.", sd);
  REQUIRE(sd.size() == 4);
  CHECK(sd[0].name == "model.fc.weight");
  CHECK(sd[2].name == "model.head.weight");
  CHECK(sd[2].f32[4] == 2.5f);  // the tied name carries the same values
  CHECK(sd[1].shape == std::vector<int64_t>{3});
  ps.zero_grad();
  CHECK(ps.grad(b)[1] == 0.0f);
}

TEST_CASE("param store: refuses a taken name, an empty or non-positive shape entry, a tie to nothing, changes after allocate") {
  ParamStore<double> ps;
  ps.add("a", {2});
  CHECK_THROWS_AS(ps.add("a", {3}), std::invalid_argument);
  CHECK_THROWS_AS(ps.add("", {3}), std::invalid_argument);
  CHECK_THROWS_AS(ps.add("z", {2, 0}), std::invalid_argument);
  CHECK_THROWS_AS(ps.tie("b", 7), std::invalid_argument);
  CHECK_THROWS_AS(ps.tie("a", 0), std::invalid_argument);
  std::vector<NpyArray> sd;
  CHECK_THROWS_AS(ps.state_dict("", sd), std::invalid_argument);
  ps.allocate();
  CHECK_THROWS_AS(ps.add("c", {1}), std::invalid_argument);
  CHECK_THROWS_AS(ps.tie("d", 0), std::invalid_argument);
  CHECK_THROWS_AS(ps.allocate(), std::invalid_argument);
}

namespace {

void fill(Rng& rng, double* v, int64_t n, double scale) {
  for (int64_t i = 0; i < n; ++i) v[i] = rng.uniform(-scale, scale);
}

}  // namespace

TEST_CASE("param store: an embedding tied to the output layer gets the sum of both uses' gradients") {
  // logits = E[tokens] E^T + b: the table E is read by the lookup and by the output layer.
  const int vocab = 7, dim = 4, rows = 5;
  ParamStore<double> ps;
  const int emb = ps.add("tok_emb.weight", {vocab, dim});
  const int head = ps.tie("lm_head.weight", emb);
  const int bias = ps.add("lm_head.bias", {vocab});
  ps.allocate();
  Rng rng(3);
  fill(rng, ps.value(emb), ps.numel(emb), 1.0);
  fill(rng, ps.value(bias), vocab, 0.5);
  const std::vector<int32_t> tokens = {1, 4, 4, 0, 6};
  std::vector<double> r(static_cast<size_t>(rows * vocab));
  fill(rng, r.data(), static_cast<int64_t>(r.size()), 1.0);
  std::vector<double> h(static_cast<size_t>(rows * dim)), logits(r.size());
  auto loss = [&] {
    embedding_forward(tokens.data(), rows, ps.value(emb), vocab, dim, h.data());
    linear_forward(h.data(), ps.value(head), static_cast<const double*>(nullptr), ps.value(bias), rows, dim, vocab,
                   logits.data());
    double l = 0;
    for (size_t i = 0; i < r.size(); ++i) l += r[i] * logits[i];
    return l;
  };
  loss();
  ps.zero_grad();
  std::vector<double> dh(h.size());
  // Each use adds into the one gradient slot: the output layer's dW, then the lookup's rows.
  linear_backward(h.data(), ps.value(head), static_cast<const double*>(nullptr), r.data(), rows, dim, vocab, dh.data(),
                  ps.grad(head), ps.grad(bias));
  embedding_backward(tokens.data(), rows, dh.data(), dim, ps.grad(emb));
  const std::vector<double> analytic(ps.grads(), ps.grads() + ps.size());
  const GradientError e = check_gradient(ps.params(), ps.size(), analytic.data(), 1e-6, loss, relative_error);
  CHECK_MESSAGE(e.error < 1e-7, e.describe());
  // Without the lookup's share the check fails: the test can tell.
  std::vector<double> one_use(analytic);
  std::fill(one_use.begin(), one_use.end(), 0.0);
  std::vector<double> scratch(h.size());
  linear_backward(h.data(), ps.value(head), static_cast<const double*>(nullptr), r.data(), rows, dim, vocab,
                  scratch.data(), one_use.data() + ps.tensor(head).offset, one_use.data() + ps.tensor(bias).offset);
  CHECK(check_gradient(ps.params(), ps.size(), one_use.data(), 1e-6, loss, relative_error).error > 1e-3);
}

TEST_CASE("param store: a recurrent cell unrolled over T steps, one context per step, one weight for every step") {
  // h_t = tanh(x_t U^T + h_{t-1} W^T + b), h_0 = 0, L = sum_t R_t . h_t: W, U and b are used at
  // every step; backpropagation through time adds each step's share into their one gradient.
  const int steps = 6, in = 3, hid = 4, batch = 2;
  ParamStore<double> ps;
  const int w = ps.add("weight_hh_l0", {hid, hid});
  const int u = ps.add("weight_ih_l0", {hid, in});
  const int b = ps.add("bias_ih_l0", {hid});
  ps.allocate();
  Rng rng(5);
  fill(rng, ps.value(w), ps.numel(w), 0.6);
  fill(rng, ps.value(u), ps.numel(u), 0.6);
  fill(rng, ps.value(b), hid, 0.3);
  std::vector<std::vector<double>> x(steps, std::vector<double>(batch * in)), r(steps, std::vector<double>(batch * hid));
  for (int t = 0; t < steps; ++t) {
    fill(rng, x[t].data(), batch * in, 1.0);
    fill(rng, r[t].data(), batch * hid, 1.0);
  }
  // The per-step contexts: each step's input state and output (what its backward needs).
  std::vector<std::vector<double>> hs(steps + 1, std::vector<double>(batch * hid, 0.0));
  std::vector<double> a(batch * hid), c(batch * hid);
  auto loss = [&] {
    double l = 0;
    for (int t = 0; t < steps; ++t) {
      linear_forward(x[t].data(), ps.value(u), static_cast<const double*>(nullptr), ps.value(b), batch, in, hid, a.data());
      linear_forward(hs[t].data(), ps.value(w), static_cast<const double*>(nullptr), static_cast<const double*>(nullptr),
                     batch, hid, hid, c.data());
      for (int i = 0; i < batch * hid; ++i) hs[t + 1][i] = std::tanh(a[i] + c[i]);
      for (int i = 0; i < batch * hid; ++i) l += r[t][i] * hs[t + 1][i];
    }
    return l;
  };
  loss();
  ps.zero_grad();
  std::vector<double> dh(batch * hid, 0.0), dz(batch * hid), dprev(batch * hid), dx(batch * in);
  for (int t = steps - 1; t >= 0; --t) {
    for (int i = 0; i < batch * hid; ++i) {
      const double g = dh[i] + r[t][i];
      dz[i] = g * (1.0 - hs[t + 1][i] * hs[t + 1][i]);
    }
    linear_backward(x[t].data(), ps.value(u), static_cast<const double*>(nullptr), dz.data(), batch, in, hid, dx.data(),
                    ps.grad(u), ps.grad(b));
    linear_backward(hs[t].data(), ps.value(w), static_cast<const double*>(nullptr), dz.data(), batch, hid, hid,
                    dprev.data(), ps.grad(w), static_cast<double*>(nullptr));
    dh = dprev;
  }
  const std::vector<double> analytic(ps.grads(), ps.grads() + ps.size());
  const GradientError e = check_gradient(ps.params(), ps.size(), analytic.data(), 1e-6, loss, relative_error);
  CHECK_MESSAGE(e.error < 1e-7, e.describe());
}

}  // namespace cilab::nn
