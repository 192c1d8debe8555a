// The layer line of layer_stack.h.
#include "algorithms/nn/layer_stack.h"

#include <cctype>
#include <stdexcept>

namespace cilab::nn {
namespace {

const char* kTry = "; try conv6k5p2 (6 filters 5x5, padding 2; s<stride>, d<dilation>), pool2, avgpool2 or fc120";

// Reads the digits at s[i...] (advancing i); -1 when there are none or too many.
int read_number(const std::string& s, size_t& i) {
  const size_t start = i;
  long v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    v = v * 10 + (s[i] - '0');
    if (v > 100000) return -1;
    ++i;
  }
  return i == start ? -1 : static_cast<int>(v);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

LayerToken parse_token(const std::string& tok, int item) {
  const std::string where = "item " + std::to_string(item) + " '" + tok + "'";
  auto fail = [&](const std::string& what) -> LayerToken { throw std::invalid_argument(where + ": " + what + kTry); };
  LayerToken t;
  t.text = tok;
  size_t i = 0;
  if (starts_with(tok, "conv")) {
    t.kind = LayerToken::Kind::Conv;
    i = 4;
    t.size = read_number(tok, i);
    if (t.size < 1) return fail("expected the number of filters after 'conv'");
    t.stride = 1;
    bool has_kernel = false;
    while (i < tok.size()) {
      const char c = tok[i++];
      if (c != 'k' && c != 's' && c != 'p' && c != 'd')
        return fail(std::string("unknown suffix '") + c + "' (k kernel, s stride, p padding, d dilation)");
      const int v = read_number(tok, i);
      if (v < 0) return fail(std::string("expected a number after '") + c + "'");
      switch (c) {
        case 'k': t.kernel = v, has_kernel = true; break;
        case 's': t.stride = v; break;
        case 'p': t.padding = v; break;
        default: t.dilation = v; break;
      }
    }
    if (!has_kernel || t.kernel < 1) return fail("expected a kernel size k >= 1");
    if (t.stride < 1 || t.dilation < 1) return fail("stride and dilation must be >= 1");
    return t;
  }
  if (starts_with(tok, "pool") || starts_with(tok, "maxpool") || starts_with(tok, "avgpool")) {
    t.kind = starts_with(tok, "avgpool") ? LayerToken::Kind::AvgPool : LayerToken::Kind::MaxPool;
    i = starts_with(tok, "pool") ? 4 : 7;
    t.size = read_number(tok, i);
    if (t.size < 1) return fail("expected the pooling window after the name");
    t.stride = t.size;
    if (i < tok.size()) {
      if (tok[i] != 's') return fail(std::string("unknown suffix '") + tok[i] + "' (s stride)");
      ++i;
      t.stride = read_number(tok, i);
      if (t.stride < 1 || i != tok.size()) return fail("expected a stride >= 1 after 's'");
    }
    return t;
  }
  if (starts_with(tok, "fc")) {
    t.kind = LayerToken::Kind::Linear;
    i = 2;
    t.size = read_number(tok, i);
    if (t.size < 1 || i != tok.size()) return fail("expected the number of units after 'fc'");
    return t;
  }
  return fail("not a layer");
}

}  // namespace

std::vector<LayerToken> parse_layer_stack(const std::string& text) {
  std::vector<LayerToken> out;
  std::string tok;
  int item = 0;
  auto flush = [&] {
    ++item;
    if (tok.empty()) throw std::invalid_argument("item " + std::to_string(item) + " is empty" + kTry);
    out.push_back(parse_token(tok, item));
    tok.clear();
  };
  for (char c : text) {
    if (c == ',') flush();
    else if (!std::isspace(static_cast<unsigned char>(c))) tok += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (!tok.empty() || !out.empty()) flush();
  if (out.empty()) throw std::invalid_argument(std::string("no layers") + kTry);
  if (out.size() > 32) throw std::invalid_argument("at most 32 layers, got " + std::to_string(out.size()));
  return out;
}

template <class T>
Sequential<T> make_layer_stack(const std::vector<LayerToken>& tokens, Activation activation, int outputs,
                               const Shape& in, double max_params) {
  Sequential<T> net;
  Shape shape = in;
  double params = 0;
  // Adds a layer, configured here first so that a shape it cannot take names the token.
  auto add = [&](std::unique_ptr<Layer<T>> layer, const std::string& where) {
    try {
      shape = layer->configure_shape(shape);
      params += layer->num_params();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
    net.add(std::move(layer));
  };
  auto flatten = [&] {
    if (shape.size() > 1) add(make_flatten<T>(), "flatten");
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    const LayerToken& t = tokens[i];
    const std::string where = "item " + std::to_string(i + 1) + " '" + t.text + "' on a " + shape_text(shape) + " input";
    switch (t.kind) {
      case LayerToken::Kind::Conv:
      case LayerToken::Kind::MaxPool:
      case LayerToken::Kind::AvgPool:
        if (shape.size() == 1 && i > 0)
          throw std::invalid_argument(where + ": a conv or pool layer cannot follow an fc layer (its output is flat "
                                      "features); put the fc layers last");
        break;
      case LayerToken::Kind::Linear: break;
    }
    switch (t.kind) {
      case LayerToken::Kind::Conv:
        add(make_conv2d<T>(t.size, t.kernel, t.stride, t.padding, t.dilation), where);
        add(make_activation<T>(activation), where);
        break;
      case LayerToken::Kind::MaxPool: add(make_max_pool2d<T>(t.size, t.stride), where); break;
      case LayerToken::Kind::AvgPool: add(make_avg_pool2d<T>(t.size, t.stride), where); break;
      case LayerToken::Kind::Linear:
        flatten();
        add(make_linear<T>(t.size), where);
        add(make_activation<T>(activation), where);
        break;
    }
  }
  flatten();
  add(make_linear<T>(outputs), "the classifier");
  if (max_params > 0 && params > max_params)
    throw std::invalid_argument("the network has " + std::to_string(static_cast<long long>(params)) +
                                " parameters, at most " + std::to_string(static_cast<long long>(max_params)) +
                                " fit; try fewer filters or units");
  net.build(in);
  return net;
}

template Sequential<float> make_layer_stack<float>(const std::vector<LayerToken>&, Activation, int, const Shape&, double);
template Sequential<double> make_layer_stack<double>(const std::vector<LayerToken>&, Activation, int, const Shape&, double);

}  // namespace cilab::nn
