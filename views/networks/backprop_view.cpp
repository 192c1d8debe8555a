// The backprop view: layout, the computational graph, the side panel (the
// current step's equation, the gradient-check table) and the loss curve.
#include "views/common/class_key.h"
#include "views/networks/backprop_view.h"
#include "views/networks/backprop_view_internal.h"
#include "views/common/metrics_view.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include "algorithms/networks/backprop.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace cilab {

using namespace backprop_view;

namespace {

// ViewContext::keys holds GLFW key codes; GLFW_KEY_N == 'N'.
constexpr int kKeyNextSample = 'N';
constexpr int kKeyEdgeLabels = 'E';

ImU32 positive_colour() { return colors().positive; }  // w > 0
ImU32 negative_colour() { return colors().negative; }  // w < 0
ImU32 current_colour() { return colors().accent; }     // the node of this step
ImU32 forward_colour() {
  return with_alpha(colors().positive, 200);
}  // computed in the forward pass
ImU32 backward_colour() { return with_alpha(colors().error, 220); }  // dL/dz known
ImU32 node_fill_colour() { return colors().node_fill; }
ImU32 node_idle_colour() { return with_alpha(colors().node_border, 200); }
ImU32 label_bg_colour() { return colors().overlay_bg; }
ImVec4 good_colour() { return colour_vec(colors().good); }
ImVec4 fair_colour() { return colour_vec(colors().warning); }
ImVec4 bad_colour() { return colour_vec(colors().error); }

// The colour of a relative error: < 1e-6 good, < 1e-3 suspicious, else wrong.
ImVec4 error_colour(double e) {
  return !(e < 1e-3) ? bad_colour() : e < 1e-6 ? good_colour() : fair_colour();
}

std::string caption(const BackpropSnapshot& s, const ModuleInfo* info) {
  const std::string at = position_label(s, info, true);
  if (!s.trace) return at + ": the network at its initial weights. S: next node, Right: the whole step.";
  if (s.phase == 0) return at + ": step done (forward, loss, backward, update). S walks the next one node by node.";
  const WalkStep* w = current_step(s);
  return at + (w ? ": " + w->name : std::string());
}

// One text item at `pos` (an item, so the frame's log - and the tests - read it).
void text_at(ImVec2 pos, const std::string& text, ImU32 colour = 0) {
  ImGui::SetCursorScreenPos(pos);
  if (colour) ImGui::PushStyleColor(ImGuiCol_Text, colour);
  fit_text_unformatted(text.c_str());
  if (colour) ImGui::PopStyleColor();
}

// `text` wrapped at spaces only to `width` (ImGui's own wrap also breaks after '.', which
// would split "8.591e-05"); continuation lines are indented.
void wrapped_equation(const std::string& text, float width) {
  std::string line, word;
  const float indent = ImGui::CalcTextSize("    ").x;
  bool first = true;
  auto flush = [&] {
    if (!first) ImGui::Indent(indent);
    fit_text_unformatted(line.c_str());
    if (!first) ImGui::Unindent(indent);
    first = false;
    line.clear();
  };
  size_t i = 0;
  while (i <= text.size()) {
    const size_t sp = std::min(text.find(' ', i), text.size());
    word = text.substr(i, sp - i);
    const std::string candidate = line.empty() ? word : line + " " + word;
    const float limit = first ? width : width - indent;
    if (!line.empty() && ImGui::CalcTextSize(candidate.c_str()).x > limit) {
      flush();
      line = word;
    } else {
      line = candidate;
    }
    i = sp + 1;
  }
  if (!line.empty()) flush();
}

// A label on the overlay background centred at `c` (edge annotations).
void edge_label(ImDrawList* dl, ImVec2 c, const std::string& text, ImU32 colour) {
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  const ImVec2 p(c.x - ts.x * 0.5f, c.y - ts.y * 0.5f);
  dl->AddRectFilled(ImVec2(p.x - 2, p.y - 1), ImVec2(p.x + ts.x + 2, p.y + ts.y + 1),
                    label_bg_colour(), 3.0f);
  ImGui::SetCursorScreenPos(p);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  fit_text_unformatted(text.c_str());
  ImGui::PopStyleColor();
}

}  // namespace

void BackpropView::on_reset() {
  sample = 0;
  node_rects_.clear();
}

ImVec4 BackpropView::node_rect(int layer, int neuron) const {
  for (const NodeRect& r : node_rects_)
    if (r.layer == layer && r.neuron == neuron) return r.rect;
  return ImVec4(0, 0, 0, 0);
}

void BackpropView::draw_controls(const Snapshot& snap_base, const ViewContext&) {
  const auto* s = dynamic_cast<const BackpropSnapshot*>(&snap_base);
  if (!s || !s->graph) return;
  fit_text_disabled("View");
  ImGui::PushTextWrapPos(0.0f);
  fit_text_disabled(
      "Edges: blue w > 0, orange w < 0, width ~ |w|. Labels: w in the forward pass; backward, "
      "highlighted: dL/dw = dL/dz * a_prev on the current neuron's inputs and w = dz_next/da on "
      "its "
      "outputs (a narrow gap shows the number only). Nodes: blue = computed, red = dL/dz known, "
      "highlighted = this step.");
  ImGui::PopTextWrapPos();
  ImGui::Checkbox("label every edge (E)", &all_edge_labels);
  tooltip_text("Off: only the edges of the current node carry labels (forward: the weight w; backward: "
               "dL/dw = dL/dz * a_prev). On: every edge.");
  const int B = s->trace ? static_cast<int>(s->trace->x.rows()) : 1;
  if (B > 1) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    int shown = std::clamp(sample, 0, B - 1) + 1;
    if (ImGui::SliderInt("sample (N)", &shown, 1, B)) sample = shown - 1;
    tooltip_text("Which point of the mini-batch the graph shows. The loss is the mean over the batch and each "
                 "parameter's gradient the sum of its per-sample terms.");
  }
}

void BackpropView::draw(const Snapshot& snap_base, const ViewContext& ctx, std::vector<ViewIntent>&) {
  const auto* sp = dynamic_cast<const BackpropSnapshot*>(&snap_base);
  if (!sp || !sp->graph) {
    fit_text_disabled("No backprop state to show yet.");
    return;
  }
  const BackpropSnapshot& s = *sp;
  const int B = s.trace ? static_cast<int>(s.trace->x.rows()) : 1;
  sample = (sample + key_presses(ctx, kKeyNextSample)) % std::max(1, B);
  if (key_presses(ctx, kKeyEdgeLabels) % 2 == 1) all_edge_labels = !all_edge_labels;

  // ---- header: position, what this step does, the sample shown.
  ImGui::PushTextWrapPos(0.0f);
  fit_text_unformatted(caption(s, ctx.info).c_str());
  ImGui::PopTextWrapPos();
  tooltip_text("One iteration = one training step on one mini-batch. Its sub-steps (S) walk the graph: the "
               "forward pass neuron by neuron, the loss, the backward pass from the output back, the update. "
               "Right arrow: a whole step; Left: back.");
  if (!s.message.empty()) fit_text_colored(bad_colour(), "%s", s.message.c_str());
  if (s.trace) {
    const BackpropTrace& tr = *s.trace;
    const int n = std::clamp(sample, 0, B - 1);
    std::string pt = B > 1 ? "sample " + std::to_string(n + 1) + " of " + std::to_string(B) + ": x = (" : "the point of this step: x = (";
    for (Eigen::Index i = 0; i < tr.x.cols(); ++i) pt += (i ? ", " : "") + num(tr.x(n, i));
    pt += "), t = " + num(tr.target[n]) + "   (point " + std::to_string(tr.rows[static_cast<size_t>(n)]) + " of " +
          std::to_string(s.data_x ? s.data_x->rows() : 0) + ")";
    fit_text_disabled("%s", pt.c_str());
    tooltip_text(B > 1 ? "The graph shows this sample's values (N: the next sample). Parameter gradients are "
                         "summed over the batch."
                       : "The point of this step (one point per step: batch = 1).");
  }

  // The key of the graph's colours (its tooltip and the panel under the parameters say more).
  colour_key({{positive_colour(), "w > 0"}, {negative_colour(), "w < 0"}, {forward_colour(), "node computed"},
              {backward_colour(), "dL/dz known"}, {current_colour(), "this sub-step"}},
             "edge width ~ |w|");

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  // The graph gets what its columns need (boxes and edge labels between them), the side panel the rest.
  const int cols = s.graph->layers() + 1;
  const float graph_need = cols * (ImGui::CalcTextSize("dL/dz -0.00000").x + ImGui::GetFontSize()) +
                           (cols - 1) * ImGui::CalcTextSize("dL/dw -0.000").x * 0.9f + ImGui::GetFontSize();
  const float side_w = std::clamp(avail.x - graph_need - spacing, std::min(avail.x * 0.4f, ImGui::GetFontSize() * 17),
                                  std::max(avail.x * 0.5f, ImGui::GetFontSize() * 17));
  const float graph_w = avail.x - side_w - spacing;
  const float loss_h = metric_plot_min_height();  // the caption line and a readable plot
  const bool loss_fits = avail.y - loss_h > ImGui::GetFontSize() * 16;
  const float graph_h = loss_fits ? avail.y - loss_h - ImGui::GetStyle().ItemSpacing.y : avail.y;

  ImGui::BeginGroup();
  draw_graph(s, ImVec2(graph_w, graph_h));
  if (loss_fits && ctx.metric_history && ctx.info) {
    draw_metric_plot("##bp_loss", ctx.info->metrics[Backprop::kMetricTrainLoss], *ctx.metric_history,
                     Backprop::kMetricTrainLoss, s.iteration, graph_w, loss_h);
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  draw_side_panel(s, ImVec2(side_w, avail.y));
}

void BackpropView::draw_graph(const BackpropSnapshot& s, ImVec2 size) {
  node_rects_.clear();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  if (!ImGui::BeginChild("##bp_graph", size, true, flags)) {
    ImGui::EndChild();
    return;
  }
  const BackpropGraph& g = *s.graph;
  const BackpropTrace* tr = s.trace.get();
  const int L = g.layers();
  const int cols = L + 1;  // inputs, layers 1..L (the loss sits under the output)
  const int B = tr ? static_cast<int>(tr->x.rows()) : 1;
  const int n = std::clamp(sample, 0, B - 1);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 area = ImGui::GetContentRegionAvail();
  int max_nodes = 2;  // the output column holds y and the loss
  for (int w : g.widths) max_nodes = std::max(max_nodes, w);
  // A column of four-line boxes that does not fit (a projector, a 4-4 network) is drawn with a
  // smaller font, down to 70 %, rather than cut off.
  {
    const float f0 = ImGui::GetFontSize();
    const float need_h = max_nodes * (4 * ImGui::GetTextLineHeight() + 0.6f * f0) + (max_nodes - 1) * 0.25f * f0;
    const float need_w = cols * (ImGui::CalcTextSize("dL/dz -0.00000").x + 0.6f * f0) +
                         (cols - 1) * ImGui::CalcTextSize("-0.000").x;
    ImGui::SetWindowFontScale(std::clamp(std::min(area.y / need_h, area.x / need_w), 0.7f, 1.0f));
  }
  const float F = ImGui::GetFontSize();
  const float line = ImGui::GetTextLineHeight();
  const float pad = F * 0.3f;
  // Boxes as wide as their longest line ("dL/dz -0.123"), the rest between the columns for the edge labels.
  const float box_w = std::min(ImGui::CalcTextSize("dL/dz -0.00000").x + 2 * pad, area.x / (cols + (cols - 1) * 0.5f));
  const float box_h = 4 * line + 2 * pad;
  const float gap_y = std::max(F * 0.25f, (area.y - max_nodes * box_h) / (max_nodes + 1));
  const float col_step = cols > 1 ? (area.x - box_w) / (cols - 1) : 0.0f;
  auto node_pos = [&](int c, int j, int count) {
    const float total = count * box_h + (count - 1) * gap_y;
    const float y0 = origin.y + std::max(0.0f, (area.y - total) * 0.5f);
    return ImVec2(origin.x + c * col_step, y0 + j * (box_h + gap_y));
  };
  const Eigen::VectorXd& theta = tr ? tr->theta_before : s.theta;
  const WalkStep* cur = current_step(s);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // ---- edges: colour = sign of w, width ~ |w|.
  double wmax = 1e-12;
  for (int l = 1; l <= L; ++l)
    for (int j = 0; j < g.widths[static_cast<size_t>(l)]; ++j)
      for (int i = 0; i < g.widths[static_cast<size_t>(l - 1)]; ++i) wmax = std::max(wmax, std::abs(theta[g.w_index(l, j, i)]));
  struct Label {
    ImVec2 at;
    std::string text;
    ImU32 colour;
  };
  std::vector<Label> labels;
  for (int l = 1; l <= L; ++l) {
    const int in = g.widths[static_cast<size_t>(l - 1)], out = g.widths[static_cast<size_t>(l)];
    for (int j = 0; j < out; ++j)
      for (int i = 0; i < in; ++i) {
        const double wv = theta[g.w_index(l, j, i)];
        const ImVec2 a = node_pos(l - 1, i, in), b = l == L ? node_pos(L, 0, 2) : node_pos(l, j, out);
        const ImVec2 p0(a.x + box_w, a.y + box_h * 0.5f), p1(b.x, b.y + box_h * 0.5f);
        const float thick = 1.0f + 3.5f * static_cast<float>(std::abs(wv) / wmax);
        dl->AddLine(p0, p1, with_alpha(wv >= 0 ? positive_colour() : negative_colour(), 170),
                    thick);
        const bool fwd_here = cur && cur->kind == WalkStep::Kind::Forward && cur->layer == l && cur->neuron == j;
        const bool bwd_here = cur && cur->kind == WalkStep::Kind::Backward && cur->layer == l && cur->neuron == j;
        const bool bwd_out = cur && cur->kind == WalkStep::Kind::Backward && cur->layer == l - 1 && cur->neuron == i;
        const bool grad_known = tr && revealed(s, WalkStep::Kind::Backward, l, j);
        std::string text;
        // In the middle of the gap between the columns; every edge labelled: spread by target.
        const float t = all_edge_labels && !(bwd_here || bwd_out || fwd_here)
                            ? static_cast<float>(j + 1) / static_cast<float>(out + 1)
                            : 0.5f;
        if (bwd_here || (all_edge_labels && grad_known && !bwd_out)) {
          text = "dL/dw " + short_num(tr->grad_walk[g.w_index(l, j, i)]);
        } else if (bwd_out) {
          text = "w " + short_num(wv);  // dz_next/da: the local derivative the sum dL/da uses
        } else if (fwd_here || all_edge_labels) {
          text = "w " + short_num(wv);
        }
        // A narrow gap keeps only the number (the colour says which: the accent = this step's dL/dw
        // or w).
        const float gap_w = p1.x - p0.x;
        if (!text.empty() && ImGui::CalcTextSize(text.c_str()).x > gap_w * 1.1f) text = text.substr(text.find(' ') + 1);
        if (!text.empty())
          labels.push_back({ImVec2(p0.x + (p1.x - p0.x) * t, p0.y + (p1.y - p0.y) * t), text,
                            (bwd_here || bwd_out) ? current_colour() : colors().text});
      }
  }
  // The output feeds the loss, drawn under it.
  const ImVec2 out_pos = node_pos(L, 0, 2), loss_pos = node_pos(L, 1, 2);
  dl->AddLine(ImVec2(out_pos.x + box_w * 0.5f, out_pos.y + box_h),
              ImVec2(loss_pos.x + box_w * 0.5f, loss_pos.y), node_idle_colour(), 2.0f);

  // ---- nodes.
  // Node (layer c, neuron j); the output and the loss share column L.
  auto node = [&](int c, int j, int count, const std::vector<std::string>& lines, const std::string& tip,
                  ImU32 border, bool current) {
    const ImVec2 p = c > L ? node_pos(L, 1, 2) : c == L ? node_pos(L, 0, 2) : node_pos(c, j, count);
    const ImVec2 q(p.x + box_w, p.y + box_h);
    node_rects_.push_back({c, j, ImVec4(p.x, p.y, q.x, q.y)});
    dl->AddRectFilled(p, q, node_fill_colour(), F * 0.4f);
    dl->AddRect(p, q, current ? current_colour() : border, F * 0.4f, 0, current ? 3.0f : 1.5f);
    ImGui::PushClipRect(p, q, true);
    for (size_t k = 0; k < lines.size(); ++k)
      if (!lines[k].empty())
        text_at(ImVec2(p.x + pad, p.y + pad + static_cast<float>(k) * line), lines[k],
                k == 0 ? colors().text : 0);
    ImGui::PopClipRect();
    // The whole box shows the tooltip.
    if (ImGui::IsMouseHoveringRect(p, q) && ImGui::IsWindowHovered() && !tip.empty()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(F * 26);
      fit_text_unformatted(tip.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  };
  const std::string fname = activation_formula(g.activation);
  for (int i = 0; i < g.widths[0]; ++i) {
    std::vector<std::string> lines = {g.input_names[static_cast<size_t>(i)]};
    if (tr) lines.push_back("= " + short_num(tr->x(n, i)));
    node(0, i, g.widths[0], lines,
         "Input x[" + std::to_string(i) + "]: a feature of the sample, a_0 = x.",
         tr ? forward_colour() : node_idle_colour(), false);
  }
  for (int l = 1; l <= L; ++l) {
    const int count = g.widths[static_cast<size_t>(l)];
    const size_t k = static_cast<size_t>(l - 1);
    for (int j = 0; j < count; ++j) {
      const bool fwd = tr && revealed(s, WalkStep::Kind::Forward, l, j);
      const bool bwd = tr && revealed(s, WalkStep::Kind::Backward, l, j);
      const bool here = cur && (cur->kind == WalkStep::Kind::Forward || cur->kind == WalkStep::Kind::Backward) &&
                        cur->layer == l && cur->neuron == j;
      std::vector<std::string> lines = {l == L ? "out  y" : g.neuron_name(l, j)};
      std::string tip;
      if (l < L) {
        tip = "Hidden neuron " + g.neuron_name(l, j) + ": z = sum_i W" + std::to_string(l) + "[" + std::to_string(j) +
              ",i] a_prev[i] + b, a = " + fname + "(z). Backward: dL/dz = (sum_k dL/dz_next[k] W_next[k," +
              std::to_string(j) + "]) * f'(z), f'(z) = " + derivative_formula(g.activation) + ".";
        lines.push_back(fwd ? "z " + short_num(tr->z[k](n, j)) : "");
        lines.push_back(fwd ? "a " + short_num(tr->a[k](n, j)) : "");
      } else {
        tip = std::string("Output y = sum_i W") + std::to_string(l) + "[0,i] a_prev[i] + b (linear)" +
              (g.loss == 1 ? ", a logit: p = sigmoid(y) is the probability of class 1." : ".") +
              " Backward: dL/dz = dL/dy.";
        lines.push_back(fwd ? "y " + short_num(tr->z[k](n, j)) : "");
        lines.push_back(fwd && g.loss == 1 ? "p " + short_num(1.0 / (1.0 + std::exp(-tr->z[k](n, j)))) : "");
      }
      lines.push_back(bwd ? "dL/dz " + short_num(tr->delta[k](n, j)) : "");
      node(l, j, count, lines, tip,
           bwd   ? backward_colour()
           : fwd ? forward_colour()
                 : node_idle_colour(),
           here);
    }
  }
  {
    const bool lv = tr && revealed(s, WalkStep::Kind::Loss, 0, 0);
    const bool here = cur && cur->kind == WalkStep::Kind::Loss;
    std::vector<std::string> lines = {"loss L"};
    lines.push_back(lv ? "l " + short_num(tr->loss_terms[n]) : "");
    lines.push_back(lv ? "L " + short_num(tr->loss) : "");
    lines.push_back(tr ? "t " + short_num(tr->target[n]) : "");
    const std::string tip = g.loss == 1 ? "Binary cross-entropy with logits: l = max(y,0) - y t + log(1 + e^-|y|); "
                                          "L = (1/B) sum_n l_n. dL/dy = (sigmoid(y) - t) / B."
                                        : "Squared error l = (y - t)^2; L = (1/B) sum_n l_n. dL/dy = 2 (y - t) / B.";
    node(L + 1, 0, 1, lines, tip, lv ? backward_colour() : node_idle_colour(), here);
  }
  for (const Label& lab : labels) edge_label(dl, lab.at, lab.text, lab.colour);
  ImGui::SetWindowFontScale(1.0f);
  ImGui::EndChild();
}

void BackpropView::draw_side_panel(const BackpropSnapshot& s, ImVec2 size) {
  ImGui::BeginGroup();
  const float eq_h = std::max(ImGui::GetFontSize() * 7, size.y * 0.55f);
  if (ImGui::BeginChild("##bp_equation", ImVec2(size.x, eq_h), true)) {
    fit_text_disabled("This step");
    tooltip_text("The current sub-step's equation in symbols, then in numbers (%.4g).");
    const float w = ImGui::GetContentRegionAvail().x;
    for (const std::string& l : step_equations(s, sample)) wrapped_equation(l, w);
  }
  ImGui::EndChild();
  draw_check_table(s, size.y - eq_h - ImGui::GetStyle().ItemSpacing.y);
  ImGui::EndGroup();
}

void BackpropView::draw_check_table(const BackpropSnapshot& s, float height) {
  fit_text_disabled("Gradient check");
  tooltip_text(
      "For every parameter: the backprop gradient (the network library's backward pass), the "
      "central "
      "finite difference (L(theta + h e_p) - L(theta - h e_p)) / 2h on the same mini-batch (h = "
      "fd_step), "
      "and the relative error |g - g_fd| / max(|g|, |g_fd|, 1e-8). Green < 1e-6, amber < 1e-3, "
      "red: "
      "wrong (or a ReLU kink within h). The same table as `cilab run backprop`.");
  if (s.trace && !s.table.empty()) {
    double worst = 0;
    for (const std::vector<double>& r : s.table) worst = std::max(worst, r[2]);
    const std::string worst_text = "max relative error " + num(worst);
    same_line_if_fits(ImGui::CalcTextSize(worst_text.c_str()).x);
    fit_text_colored(error_colour(worst), "%s", worst_text.c_str());
  }
  const BackpropGraph& g = *s.graph;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit;
  // What is left of the panel under the header lines (which may have wrapped).
  const float h = std::max(std::min(height - ImGui::GetTextLineHeightWithSpacing(), ImGui::GetContentRegionAvail().y),
                           ImGui::GetFontSize() * 4);
  // A narrow panel (a projector) draws the table smaller rather than cut its last column.
  if (!ImGui::BeginChild("##bp_check_area", ImVec2(0, h), false)) {
    ImGui::EndChild();
    return;
  }
  // Measured at full size: the window keeps the scale set last frame (measuring under it made the
  // scale alternate between two values, a flicker).
  ImGui::SetWindowFontScale(1.0f);
  const float need = ImGui::CalcTextSize("W1[0,0]-7.29e-06-7.29e-06-7.29e-06").x + ImGui::GetFontSize() * 3.5f;
  ImGui::SetWindowFontScale(std::clamp(ImGui::GetContentRegionAvail().x / need, 0.75f, 1.0f));
  if (!ImGui::BeginTable("##bp_check", 4, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) {
    ImGui::EndChild();
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("param");
  ImGui::TableSetupColumn("backprop");
  ImGui::TableSetupColumn("fin. diff");
  ImGui::TableSetupColumn("rel err");
  ImGui::TableHeadersRow();
  const WalkStep* cur = current_step(s);
  for (int p = 0; p < g.num_params(); ++p) {
    // The layer and neuron whose backward step computes this parameter's gradient.
    int layer = 1, neuron = 0;
    for (int l = 1; l <= g.layers(); ++l)
      for (int j = 0; j < g.widths[static_cast<size_t>(l)]; ++j) {
        if (p == g.b_index(l, j)) layer = l, neuron = j;
        for (int i = 0; i < g.widths[static_cast<size_t>(l - 1)]; ++i)
          if (p == g.w_index(l, j, i)) layer = l, neuron = j;
      }
    const bool known = s.trace && revealed(s, WalkStep::Kind::Backward, layer, neuron);
    const bool here = cur && cur->kind == WalkStep::Kind::Backward && cur->layer == layer && cur->neuron == neuron;
    ImGui::TableNextRow();
    if (here) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, with_alpha(current_colour(), 60));
    ImGui::TableNextColumn();
    fit_text_unformatted(g.param_names[static_cast<size_t>(p)].c_str());
    const size_t r = static_cast<size_t>(p);
    ImGui::TableNextColumn();
    if (known && r < s.table.size()) fit_text_unformatted(short_num(s.table[r][0]).c_str());
    else fit_text_disabled("-");
    ImGui::TableNextColumn();
    if (s.trace && r < s.table.size()) fit_text_unformatted(short_num(s.table[r][1]).c_str());
    else fit_text_disabled("-");
    ImGui::TableNextColumn();
    if (known && r < s.table.size()) fit_text_colored(error_colour(s.table[r][2]), "%s", short_num(s.table[r][2]).c_str());
    else fit_text_disabled("-");
  }
  ImGui::EndTable();
  ImGui::EndChild();
}

CILAB_REGISTER_VIEW(Backprop, BackpropView);

}  // namespace cilab
