// Writes conv2d cases for bench/conv_torch.py to check against PyTorch: for each of a fixed list
// of shapes (stride, padding, dilation, groups, a 1-D case), random x, w, b and dL/dy, and CILab's
// y, dx, dw, db (float32), as one .npz per case, plus the timing of forward + backward.
// Usage: bench_conv OUT_DIR
#include "algorithms/core/npz.h"
#include "algorithms/core/rng.h"
#include "algorithms/nn/conv.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace cilab;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_conv OUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  // n, c_in, h, w, c_out, kh, kw, stride, pad, dil, groups
  const int cases[][11] = {{8, 1, 28, 28, 6, 5, 5, 1, 2, 1, 1},   {8, 6, 14, 14, 16, 5, 5, 1, 0, 1, 1},
                           {4, 3, 17, 13, 4, 3, 3, 2, 1, 1, 1},   {4, 4, 16, 16, 8, 3, 3, 1, 2, 2, 2},
                           {2, 3, 9, 11, 6, 2, 4, 3, 1, 1, 3},    {16, 2, 1, 64, 4, 1, 7, 2, 3, 2, 1}};
  Rng rng(1);
  int index = 0;
  for (const auto& c : cases) {
    nn::ConvShape s;
    s.n = c[0], s.c_in = c[1], s.h = c[2], s.w = c[3], s.c_out = c[4], s.kh = c[5], s.kw = c[6];
    s.stride_h = s.stride_w = c[7];
    s.pad_h = s.pad_w = c[8];
    s.dil_h = s.dil_w = c[9];
    s.groups = c[10];
    if (s.h == 1) s.pad_h = 0, s.dil_h = 1, s.stride_h = 1;
    auto draw = [&](int64_t n) {
      std::vector<float> v(static_cast<size_t>(n));
      for (float& x : v) x = static_cast<float>(rng.normal(0.0, 1.0));
      return v;
    };
    const std::vector<float> x = draw(s.x_size()), w = draw(s.w_size()), b = draw(s.c_out), dy = draw(s.y_size());
    std::vector<float> y(static_cast<size_t>(s.y_size())), dx(x.size()), dw(w.size(), 0.0f), db(b.size(), 0.0f);
    const auto t0 = std::chrono::steady_clock::now();
    nn::conv2d_forward(x.data(), w.data(), b.data(), s, y.data());
    nn::conv2d_backward(x.data(), w.data(), dy.data(), s, dx.data(), dw.data(), db.data());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const std::vector<int64_t> xs = {s.n, s.c_in, s.h, s.w}, ws = {s.c_out, s.c_in / s.groups, s.kh, s.kw},
                               ys = {s.n, s.c_out, s.out_h(), s.out_w()};
    std::vector<NpyArray> a = {NpyArray::floats("x", xs, x),   NpyArray::floats("w", ws, w),
                               NpyArray::floats("b", {s.c_out}, b), NpyArray::floats("dy", ys, dy),
                               NpyArray::floats("y", ys, y),   NpyArray::floats("dx", xs, dx),
                               NpyArray::floats("dw", ws, dw), NpyArray::floats("db", {s.c_out}, db)};
    a.push_back(NpyArray::int64_scalar("stride", s.stride_w));
    a.push_back(NpyArray::int64_scalar("stride_h", s.stride_h));
    a.push_back(NpyArray::int64_scalar("pad", s.pad_w));
    a.push_back(NpyArray::int64_scalar("pad_h", s.pad_h));
    a.push_back(NpyArray::int64_scalar("dil", s.dil_w));
    a.push_back(NpyArray::int64_scalar("dil_h", s.dil_h));
    a.push_back(NpyArray::int64_scalar("groups", s.groups));
    std::ofstream f(dir + "/case" + std::to_string(index) + ".npz", std::ios::binary);
    write_npz(f, a);
    std::printf("case%d n=%d c=%d->%d %dx%d k=%dx%d s=%d p=%d d=%d g=%d cilab_ms=%.3f\n", index, s.n, s.c_in, s.c_out,
                s.h, s.w, s.kh, s.kw, s.stride_w, s.pad_w, s.dil_w, s.groups, ms);
    ++index;
  }
  return 0;
}
