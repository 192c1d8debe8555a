// Writes cases of the stateless kernels (nn/kernels.h) for bench/kernels_torch.py to check against
// PyTorch: softmax, layer norm (with affine), embedding, masked linear and scaled dot-product
// attention (plain, unscaled, causal), each with random inputs and a random dL/doutput, CILab's
// outputs and every gradient (float64), one .npz per case.
// Usage: bench_kernels OUT_DIR
#include "algorithms/core/npz.h"
#include "algorithms/core/rng.h"
#include "algorithms/nn/kernels.h"
#include "algorithms/nn/sequential.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace cilab;

namespace {

using V = std::vector<double>;

V draw(Rng& rng, size_t n) {
  V v(n);
  for (double& x : v) x = rng.normal(0.0, 1.0);
  return v;
}

NpyArray arr(const char* name, std::vector<int64_t> shape, const V& v) { return NpyArray::doubles(name, shape, v); }

void write(const std::string& path, const std::vector<NpyArray>& a) {
  std::ofstream f(path, std::ios::binary);
  write_npz(f, a);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_kernels OUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  Rng rng(7);
  {  // softmax over the last axis
    const int rows = 6, n = 9;
    const V x = draw(rng, rows * n), dy = draw(rng, rows * n);
    V y(x.size()), dx(x.size());
    nn::softmax_forward(x.data(), rows, n, y.data());
    nn::softmax_backward(y.data(), dy.data(), rows, n, dx.data());
    write(dir + "/softmax.npz", {arr("x", {rows, n}, x), arr("dy", {rows, n}, dy), arr("y", {rows, n}, y), arr("dx", {rows, n}, dx)});
  }
  {  // layer norm per row, eps 1e-5, affine
    const int rows = 5, n = 8;
    const V x = draw(rng, rows * n), g = draw(rng, n), b = draw(rng, n), dy = draw(rng, rows * n);
    V y(x.size()), mean(rows), rstd(rows), dx(x.size()), dg(n, 0.0), db(n, 0.0);
    nn::layernorm_forward(x.data(), g.data(), b.data(), rows, n, 1e-5, y.data(), mean.data(), rstd.data());
    nn::layernorm_backward(x.data(), g.data(), mean.data(), rstd.data(), dy.data(), rows, n, dx.data(), dg.data(), db.data());
    write(dir + "/layernorm.npz", {arr("x", {rows, n}, x), arr("gamma", {n}, g), arr("beta", {n}, b), arr("dy", {rows, n}, dy),
                                   arr("y", {rows, n}, y), arr("dx", {rows, n}, dx), arr("dgamma", {n}, dg), arr("dbeta", {n}, db)});
  }
  {  // embedding with repeated indices
    const int vocab = 7, dim = 4, rows = 9;
    const V table = draw(rng, vocab * dim), dy = draw(rng, rows * dim);
    std::vector<int32_t> idx(rows);
    V idx_d(rows);
    for (int r = 0; r < rows; ++r) idx_d[static_cast<size_t>(r)] = idx[static_cast<size_t>(r)] = static_cast<int32_t>(rng.below(vocab));
    V y(rows * dim), dt(vocab * dim, 0.0);
    nn::embedding_forward(idx.data(), rows, table.data(), vocab, dim, y.data());
    nn::embedding_backward(idx.data(), rows, dy.data(), dim, dt.data());
    write(dir + "/embedding.npz", {arr("table", {vocab, dim}, table), arr("index", {rows}, idx_d), arr("dy", {rows, dim}, dy),
                                   arr("y", {rows, dim}, y), arr("dtable", {vocab, dim}, dt)});
  }
  {  // masked linear (a MADE-like lower-triangular mask)
    const int rows = 4, in = 6, out = 5;
    const V x = draw(rng, rows * in), w = draw(rng, out * in), b = draw(rng, out), dy = draw(rng, rows * out);
    V mask(out * in);
    for (int o = 0; o < out; ++o)
      for (int i = 0; i < in; ++i) mask[static_cast<size_t>(o * in + i)] = i <= o ? 1.0 : 0.0;
    V y(rows * out), dx(rows * in), dw(out * in, 0.0), db(out, 0.0);
    nn::linear_forward(x.data(), w.data(), mask.data(), b.data(), rows, in, out, y.data());
    nn::linear_backward(x.data(), w.data(), mask.data(), dy.data(), rows, in, out, dx.data(), dw.data(), db.data());
    write(dir + "/masked_linear.npz", {arr("x", {rows, in}, x), arr("w", {out, in}, w), arr("mask", {out, in}, mask),
                                       arr("b", {out}, b), arr("dy", {rows, out}, dy), arr("y", {rows, out}, y),
                                       arr("dx", {rows, in}, dx), arr("dw", {out, in}, dw), arr("db", {out}, db)});
  }
  for (int variant = 0; variant < 3; ++variant) {  // attention: plain, causal, unscaled
    const int t = 7, dk = 4, dv = 3;
    const bool causal = variant == 1, scale = variant != 2;
    const V q = draw(rng, t * dk), k = draw(rng, t * dk), v = draw(rng, t * dv), dz = draw(rng, t * dv);
    V p(t * t), z(t * dv), dq(t * dk), dkk(t * dk), dvv(t * dv);
    nn::attention_forward(q.data(), k.data(), v.data(), t, dk, dv, causal, scale, p.data(), z.data());
    nn::attention_backward(q.data(), k.data(), v.data(), p.data(), dz.data(), t, dk, dv, scale, dq.data(), dkk.data(), dvv.data());
    std::vector<NpyArray> a = {arr("q", {t, dk}, q), arr("k", {t, dk}, k), arr("v", {t, dv}, v), arr("dz", {t, dv}, dz),
                               arr("z", {t, dv}, z), arr("dq", {t, dk}, dq), arr("dk", {t, dk}, dkk), arr("dv", {t, dv}, dvv)};
    a.push_back(NpyArray::int64_scalar("causal", causal));
    a.push_back(NpyArray::int64_scalar("scale", scale));
    write(dir + "/attention" + std::to_string(variant) + ".npz", a);
  }
  {  // torch.nn.BatchNorm2d in training mode: output, gradients, running statistics after one step
    const int b = 4, c = 3, h = 5, w = 4;
    nn::Sequential<double> net;
    net.add(nn::make_batch_norm2d<double>());
    net.build(nn::Shape{c, h, w});
    net.init(rng, nn::Init::Torch);
    const V g = draw(rng, c), be = draw(rng, c);
    std::copy(g.begin(), g.end(), net.params());
    std::copy(be.begin(), be.end(), net.params() + c);
    nn::Mat<double> x(b, c * h * w), dy(b, c * h * w), dx;
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = 2.0 * rng.normal(0.0, 1.0) + 0.5;
    for (Eigen::Index i = 0; i < dy.size(); ++i) dy.data()[i] = rng.normal(0.0, 1.0);
    const nn::Mat<double> y = net.forward(x, true);
    net.zero_grad();
    net.backward(dy, &dx);
    std::vector<NpyArray> sd;
    net.state_dict("", sd);
    auto vec = [](const nn::Mat<double>& m) { return V(m.data(), m.data() + m.size()); };
    auto f64 = [](const NpyArray& a) { return V(a.f32.begin(), a.f32.end()); };
    write(dir + "/batch_norm2d.npz",
          {arr("x", {b, c, h, w}, vec(x)), arr("gamma", {c}, g), arr("beta", {c}, be), arr("dy", {b, c, h, w}, vec(dy)),
           arr("y", {b, c, h, w}, vec(y)), arr("dx", {b, c, h, w}, vec(dx)), arr("dgamma", {c}, V(net.grads(), net.grads() + c)),
           arr("dbeta", {c}, V(net.grads() + c, net.grads() + 2 * c)), arr("running_mean", {c}, f64(sd[2])),
           arr("running_var", {c}, f64(sd[3]))});
  }
  {  // torch.nn.Conv1d: stride 2, padding 3, dilation 2, groups 2
    const int b = 3, c = 4, l = 19, out = 6, k = 3;
    nn::Sequential<double> net;
    net.add(nn::make_conv1d<double>(out, k, 2, 3, 2, 2));
    net.build(nn::Shape{c, l});
    net.init(rng, nn::Init::Torch);
    nn::Mat<double> x(b, c * l), dx;
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = rng.normal(0.0, 1.0);
    const nn::Mat<double> y = net.forward(x, true);
    const int ol = net.out_shape()[1];
    nn::Mat<double> dy(b, out * ol);
    for (Eigen::Index i = 0; i < dy.size(); ++i) dy.data()[i] = rng.normal(0.0, 1.0);
    net.zero_grad();
    net.backward(dy, &dx);
    auto vec = [](const nn::Mat<double>& m) { return V(m.data(), m.data() + m.size()); };
    const int nw = out * (c / 2) * k;
    write(dir + "/conv1d.npz", {arr("x", {b, c, l}, vec(x)), arr("w", {out, c / 2, k}, V(net.params(), net.params() + nw)),
                                arr("b", {out}, V(net.params() + nw, net.params() + nw + out)), arr("dy", {b, out, ol}, vec(dy)),
                                arr("y", {b, out, ol}, vec(y)), arr("dx", {b, c, l}, vec(dx)),
                                arr("dw", {out, c / 2, k}, V(net.grads(), net.grads() + nw)),
                                arr("db", {out}, V(net.grads() + nw, net.grads() + nw + out))});
  }
  std::printf("bench_kernels: wrote softmax, layernorm, embedding, masked_linear, attention0-2, batch_norm2d, conv1d to %s\n", dir.c_str());
  return 0;
}
