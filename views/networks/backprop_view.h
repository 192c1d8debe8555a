// The backprop view: the walk through one training step on the computational graph.
//
// Left: the network drawn as a graph, one column per layer (inputs x, hidden
// neurons h_l[j] with z and a, the output y, the loss L). Edges are coloured
// by the sign of their weight and as wide as its size. Sub-steps (S) reveal
// the forward values node by node, then the backward pass: each node gets its
// error signal dL/dz; the edges of the current node carry their local
// derivative (forward: the weight w; backward: dL/dw = dL/dz * dz/dw) - or
// every edge, with "label every edge" (E). The current node is outlined in
// yellow. With a mini-batch of several points the node values are those of
// one sample (N: the next one); parameter gradients are summed over the batch.
// Below it: the loss over all the points per iteration.
// Right: the current step's equation in words and numbers ("dL/dW1[0,1] =
// dL/dz * dz/dw = 0.12 * 0.53 = 0.064") and the gradient-check table: per
// parameter backprop, central finite difference and their relative error,
// coloured by size (the same table `cilab run backprop` writes).
#pragma once

#include "views/common/view.h"

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cilab {

struct BackpropSnapshot;

class BackpropView : public ModuleView {
 public:
  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;

  // View options (public: tests set them).
  bool all_edge_labels = false;  // E: a label on every edge, not only the current node's
  int sample = 0;                // which sample of the mini-batch the graph shows (N: next)

  // The equation lines of the current step for sample `sample` (what the side
  // panel shows; pure text, tests read it).
  static std::vector<std::string> step_equations(const BackpropSnapshot& s, int sample);
  // How many walk sub-steps the snapshot has revealed (walk.size() at an
  // iteration boundary after the first iteration, 0 before it).
  static int revealed_steps(const BackpropSnapshot& s);

  // Screen rectangle of a node in the last frame (layer 0 = inputs, L + 1 =
  // the loss); tests and scripts. Empty (0,0,0,0) when not drawn.
  ImVec4 node_rect(int layer, int neuron) const;

 private:
  void draw_graph(const BackpropSnapshot& s, ImVec2 size);
  void draw_side_panel(const BackpropSnapshot& s, ImVec2 size);
  void draw_check_table(const BackpropSnapshot& s, float height);

  struct NodeRect {
    int layer, neuron;
    ImVec4 rect;
  };
  std::vector<NodeRect> node_rects_;
};

}  // namespace cilab
