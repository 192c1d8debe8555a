// The backprop view's words and numbers: the equation of each walk step
// (BackpropView::step_equations) and what has been revealed.
#include "views/networks/backprop_view.h"
#include "views/networks/backprop_view_internal.h"
#include "views/common/readout.h"

#include "algorithms/networks/backprop.h"
#include "algorithms/optim/optimizer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace cilab {
namespace backprop_view {

std::string num(double v) { return format_number(v, "%.4g"); }

std::string short_num(double v) { return format_number(v, "%.3g"); }

std::string term(double v) { return v < 0 ? "(" + num(v) + ")" : num(v); }

int walk_index(const BackpropGraph& g, WalkStep::Kind kind, int l, int j) {
  for (size_t k = 0; k < g.walk.size(); ++k) {
    const WalkStep& w = g.walk[k];
    if (w.kind == kind && (kind == WalkStep::Kind::Loss || kind == WalkStep::Kind::Update || (w.layer == l && w.neuron == j)))
      return static_cast<int>(k);
  }
  return -1;
}

bool revealed(const BackpropSnapshot& s, WalkStep::Kind kind, int l, int j) {
  const int k = walk_index(*s.graph, kind, l, j);
  return k >= 0 && BackpropView::revealed_steps(s) > k;
}

const WalkStep* current_step(const BackpropSnapshot& s) {
  const int done = BackpropView::revealed_steps(s);
  return done > 0 ? &s.graph->walk[static_cast<size_t>(done - 1)] : nullptr;
}

std::string activation_formula(int activation) {
  switch (activation) {
    case 0: return "sigmoid";
    case 1: return "tanh";
    default: return "relu";
  }
}

std::string derivative_formula(int activation) {
  switch (activation) {
    case 0: return "a (1 - a)";
    case 1: return "1 - a^2";
    default: return "1 if z > 0, else 0";
  }
}

std::string prev_name(int l, int i) {
  return l == 1 ? "x[" + std::to_string(i) + "]" : "a" + std::to_string(l - 1) + "[" + std::to_string(i) + "]";
}

}  // namespace backprop_view

using namespace backprop_view;

int BackpropView::revealed_steps(const BackpropSnapshot& s) {
  if (!s.graph || !s.trace) return 0;
  return s.phase > 0 ? s.phase : static_cast<int>(s.graph->walk.size());
}

std::vector<std::string> BackpropView::step_equations(const BackpropSnapshot& s, int sample) {
  std::vector<std::string> out;
  if (!s.graph) return out;
  const WalkStep* step = current_step(s);
  if (!step || !s.trace) {
    out.push_back("Nothing computed yet. S walks the first training step node by node: the forward pass "
                  "(z = W a + b, a = f(z)), the loss, the backward pass (dL/dz by the chain rule), the update. "
                  "Right arrow: the whole step.");
    return out;
  }
  const BackpropGraph& g = *s.graph;
  const BackpropTrace& tr = *s.trace;
  const int L = g.layers();
  const int B = static_cast<int>(tr.x.rows());
  const int n = std::clamp(sample, 0, B - 1);
  const std::string who = B > 1 ? " (sample " + std::to_string(n + 1) + " of " + std::to_string(B) + ")" : "";
  const bool bce = g.loss == 1;
  auto a_prev = [&](int l, int i) { return l == 1 ? tr.x(n, i) : tr.a[static_cast<size_t>(l - 2)](n, i); };
  auto w = [&](int l, int j, int i) { return tr.theta_before[g.w_index(l, j, i)]; };
  auto b = [&](int l, int j) { return tr.theta_before[g.b_index(l, j)]; };
  switch (step->kind) {
    case WalkStep::Kind::Forward: {
      const int l = step->layer, j = step->neuron;
      const size_t k = static_cast<size_t>(l - 1);
      const int in = g.widths[k];
      const std::string ls = std::to_string(l), js = std::to_string(j);
      out.push_back("Forward pass, neuron " + g.neuron_name(l, j) + who +
                    (l < L ? ": weighted sum, then activation." : ": weighted sum (the output is linear)."));
      std::string sum = "z = sum_i W" + ls + "[" + js + ",i] * " + (l == 1 ? "x[i]" : "a" + std::to_string(l - 1) + "[i]") +
                        " + b" + ls + "[" + js + "]";
      out.push_back(sum);
      std::string terms = "  = ";
      for (int i = 0; i < in; ++i) terms += term(w(l, j, i)) + " * " + term(a_prev(l, i)) + " + ";
      terms += term(b(l, j)) + " = " + num(tr.z[k](n, j));
      out.push_back(terms);
      if (l < L) {
        out.push_back("a = f(z) = " + activation_formula(g.activation) + "(" + num(tr.z[k](n, j)) + ") = " +
                      num(tr.a[k](n, j)));
      } else {
        out.push_back("y = z = " + num(tr.z[k](n, j)) + " (the output is linear)");
        if (bce)
          out.push_back("p = sigmoid(y) = " + num(1.0 / (1.0 + std::exp(-tr.z[k](n, j)))) +
                        ": the predicted probability of class 1");
      }
      break;
    }
    case WalkStep::Kind::Loss: {
      const double y = tr.a.back()(n, 0), t = tr.target[n];
      out.push_back("Loss" + who + ": target t = " + num(t) + ", output y = " + num(y) + ".");
      if (bce)
        out.push_back("l = max(y, 0) - y t + log(1 + e^-|y|) = " + num(std::max(y, 0.0)) + " - " + term(y) + " * " +
                      term(t) + " + " + num(std::log1p(std::exp(-std::abs(y)))) + " = " + num(tr.loss_terms[n]));
      else
        out.push_back("l = (y - t)^2 = (" + num(y) + " - " + term(t) + ")^2 = " + num(tr.loss_terms[n]));
      out.push_back("L = (1/B) sum_n l_n = " + num(tr.loss) + "  (mean over the B = " + std::to_string(B) +
                    " points of the mini-batch)");
      break;
    }
    case WalkStep::Kind::Backward: {
      const int l = step->layer, j = step->neuron;
      const size_t k = static_cast<size_t>(l - 1);
      const std::string ls = std::to_string(l), js = std::to_string(j);
      const double delta = tr.delta[k](n, j);
      out.push_back("Backward pass, neuron " + g.neuron_name(l, j) + who + ": local derivatives times dL/d(node).");
      if (l == L) {
        const double y = tr.a.back()(n, 0), t = tr.target[n];
        if (bce)
          out.push_back("dL/dy = (sigmoid(y) - t) / B = (" + num(1.0 / (1.0 + std::exp(-y))) + " - " + term(t) + ") / " +
                        std::to_string(B) + " = " + num(tr.da[k](n, 0)));
        else
          out.push_back("dL/dy = 2 (y - t) / B = 2 (" + num(y) + " - " + term(t) + ") / " + std::to_string(B) + " = " +
                        num(tr.da[k](n, 0)));
        out.push_back("dL/dz = dL/dy * dy/dz = " + term(tr.da[k](n, 0)) + " * 1 = " + num(delta) +
                      "  (y = z: the output is linear)");
      } else {
        const int next = g.widths[k + 2];
        std::string sum = "dL/da = sum_k dL/dz" + std::to_string(l + 1) + "[k] * W" + std::to_string(l + 1) + "[k," +
                          js + "] = ";
        for (int q = 0; q < next; ++q)
          sum += (q ? " + " : "") + term(tr.delta[k + 1](n, q)) + " * " + term(w(l + 1, q, j));
        out.push_back(sum + " = " + num(tr.da[k](n, j)));
        out.push_back("da/dz = f'(z) = " + derivative_formula(g.activation) + " = " + num(tr.fprime[k](n, j)));
        out.push_back("dL/dz = dL/da * da/dz = " + term(tr.da[k](n, j)) + " * " + term(tr.fprime[k](n, j)) + " = " +
                      num(delta));
      }
      const int in = g.widths[k];
      for (int i = 0; i < in; ++i) {
        const std::string pname = g.param_names[static_cast<size_t>(g.w_index(l, j, i))];
        std::string line = "dL/d" + pname + " = dL/dz * dz/dw = dL/dz * " + prev_name(l, i) + " = " + term(delta) +
                           " * " + term(a_prev(l, i)) + " = " + num(delta * a_prev(l, i));
        if (B > 1) line += "; batch sum " + num(tr.grad_walk[g.w_index(l, j, i)]);
        out.push_back(line);
      }
      std::string line = "dL/db" + ls + "[" + js + "] = dL/dz * 1 = " + num(delta);
      if (B > 1) line += "; batch sum " + num(tr.grad_walk[g.b_index(l, j)]);
      out.push_back(line);
      break;
    }
    case WalkStep::Kind::Update: {
      const OptimizerKind kind = static_cast<OptimizerKind>(tr.optimizer);
      const bool plain = kind == OptimizerKind::GD || kind == OptimizerKind::SGD;
      out.push_back(std::string("Update (") + optimizer_name(kind) + ", lr = " + num(tr.lr) + "):");
      out.push_back(plain ? "theta <- theta - lr * dL/dtheta" : optimizer_help(kind));
      for (int p = 0; p < g.num_params(); ++p) {
        const double before = tr.theta_before[p], after = tr.theta_after[p], grad = tr.grad_lib[p];
        const bool exact = plain && std::abs(before - tr.lr * grad - after) <= 1e-12 * std::max(1.0, std::abs(after));
        if (exact)
          out.push_back(g.param_names[static_cast<size_t>(p)] + " = " + num(before) + " - " + num(tr.lr) + " * " +
                        term(grad) + " = " + num(after));
        else
          out.push_back(g.param_names[static_cast<size_t>(p)] + ": " + num(before) + " -> " + num(after) +
                        "  (dL/dtheta = " + num(grad) + ")");
      }
      break;
    }
  }
  return out;
}

}  // namespace cilab
