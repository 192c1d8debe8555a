// The .npz writer (algorithms/core/npz.h) read back as numpy reads it (tests/support/npz_reader.h),
// and the network library's state_dict names and shapes (PyTorch's).
#include "algorithms/core/npz.h"
#include "algorithms/core/rng.h"
#include "algorithms/nn/elbo.h"
#include "algorithms/nn/sequential.h"
#include "tests/support/npz_reader.h"

#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

using namespace cilab;
using namespace cilab::test_support;

TEST_CASE("npz: arrays of every rank and every type read back as written (names, shapes, values, CRC-32)") {
  std::vector<NpyArray> arrays;
  arrays.push_back(NpyArray::floats("0.weight", {2, 3}, {1.5f, -2.0f, 0.25f, 3e-8f, -0.0f, 1e30f}));
  arrays.push_back(NpyArray::floats("0.bias", {3}, {0.1f, 0.2f, 0.3f}));
  arrays.push_back(NpyArray::floats("empty", {0, 4}, {}));
  arrays.push_back(NpyArray::int64_scalar("1.num_batches_tracked", 123456789012LL));
  arrays.push_back(NpyArray::doubles("grad", {2}, {0.1, -1e-300}));
  std::ostringstream out;
  write_npz(out, arrays);
  const std::map<std::string, NpyRead> back = read_npz(out.str());
  REQUIRE(back.size() == 5);
  CHECK(back.at("grad").descr == "<f8");
  CHECK(back.at("grad").values == std::vector<double>{0.1, -1e-300});  // every bit of a double
  const NpyRead& w = back.at("0.weight");
  CHECK(w.descr == "<f4");
  CHECK(w.shape == std::vector<int64_t>{2, 3});
  REQUIRE(w.values.size() == 6);
  for (size_t i = 0; i < 6; ++i) CHECK(w.values[i] == static_cast<double>(arrays[0].f32[i]));
  CHECK(back.at("0.bias").shape == std::vector<int64_t>{3});
  CHECK(back.at("empty").shape == std::vector<int64_t>{0, 4});
  const NpyRead& n = back.at("1.num_batches_tracked");
  CHECK(n.descr == "<i8");
  CHECK(n.shape.empty());  // 0-d, as torch's num_batches_tracked
  CHECK(n.values == std::vector<double>{123456789012.0});
  // A header numpy accepts: "(3,)" for one dimension, "()" for a scalar.
  CHECK(npy_bytes(arrays[1]).find("'shape': (3,)") != std::string::npos);
  CHECK(npy_bytes(arrays[3]).find("'shape': ()") != std::string::npos);
}

TEST_CASE("npz: refuses data that does not match its shape, a duplicate name and an empty one") {
  std::ostringstream out;
  CHECK_THROWS_AS(write_npz(out, {NpyArray::floats("w", {2, 2}, {1, 2, 3})}), std::invalid_argument);
  CHECK_THROWS_AS(write_npz(out, {NpyArray::floats("w", {1}, {1}), NpyArray::floats("w", {1}, {2})}),
                  std::invalid_argument);
  CHECK_THROWS_AS(write_npz(out, {NpyArray::floats("", {1}, {1})}), std::invalid_argument);
}

TEST_CASE("nn state_dict: torch.nn.Sequential's names and shapes - W (out, in) row-major, biases, norms' buffers") {
  nn::Sequential<float> net;
  net.add(nn::make_linear<float>(4));
  net.add(nn::make_activation<float>(nn::Activation::ReLU));
  net.add(nn::make_batch_norm<float>());
  net.add(nn::make_dropout<float>(0.5, 1));
  net.add(nn::make_linear<float>(2));
  net.add(nn::make_layer_norm<float>());
  net.build(3);
  Rng rng(5);
  net.init(rng, nn::Init::Torch);
  nn::Mat<float> x(8, 3);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(rng.normal(0.0, 1.0));
  net.forward(x, true);
  net.forward(x, true);  // two training batches: num_batches_tracked = 2, running stats moved
  std::vector<NpyArray> sd;
  net.state_dict("", sd);
  std::vector<std::string> names;
  for (const NpyArray& a : sd) names.push_back(a.name);
  CHECK(names == std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias", "2.running_mean",
                                          "2.running_var", "2.num_batches_tracked", "4.weight", "4.bias",
                                          "5.weight", "5.bias"});
  CHECK(sd[0].shape == std::vector<int64_t>{4, 3});
  CHECK(sd[7].shape == std::vector<int64_t>{2, 4});
  CHECK(sd[6].i64 == std::vector<int64_t>{2});
  // The values are the parameters, in the flat buffer's order: W row-major then b.
  const float* p = net.params();
  for (size_t i = 0; i < 12; ++i) CHECK(sd[0].f32[i] == p[i]);
  for (size_t i = 0; i < 4; ++i) CHECK(sd[1].f32[i] == p[12 + i]);
  for (float v : sd[4].f32) CHECK(v != 0.0f);  // running_mean moved off its zeros
  // A model's two networks carry their attribute names.
  nn::VaeNet<float> vae;
  vae.encoder.add(nn::make_linear<float>(4));
  vae.encoder.build(6);
  vae.decoder.add(nn::make_linear<float>(6));
  vae.decoder.build(2);
  std::vector<NpyArray> v;
  vae.state_dict(v);
  REQUIRE(v.size() == 4);
  CHECK(v[0].name == "encoder.0.weight");
  CHECK(v[3].name == "decoder.0.bias");
}
