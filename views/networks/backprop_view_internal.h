// Private helpers shared by the backprop view's files (backprop_view*.cpp).
#pragma once

#include "algorithms/networks/backprop.h"

#include <string>

namespace cilab::backprop_view {

// A number as the view writes it ("%.4g"; "n/a" for NaN).
std::string num(double v);
// Three significant digits (node and edge labels, where room is short).
std::string short_num(double v);
// num(v), in parentheses when negative (a factor in a product).
std::string term(double v);
// Index of a node's step in g.walk (-1 if none); Loss and Update ignore l, j.
int walk_index(const BackpropGraph& g, WalkStep::Kind kind, int l, int j);
// Whether that step is among the snapshot's revealed ones.
bool revealed(const BackpropSnapshot& s, WalkStep::Kind kind, int l, int j);
// The last revealed step (the one the view highlights), or nullptr.
const WalkStep* current_step(const BackpropSnapshot& s);
// "sigmoid", "tanh", "relu"; and f'(z) written with a = f(z).
std::string activation_formula(int activation);
std::string derivative_formula(int activation);
// The name of input i of layer l: "x[i]" for layer 1, else "a{l-1}[i]".
std::string prev_name(int l, int i);

}  // namespace cilab::backprop_view
