// The plsa view's Documents, Matrices and Categories tabs (see plsa_view.h).
#include "views/topics/plsa_view.h"

#include "algorithms/topics/plsa.h"
#include "views/common/class_key.h"
#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

namespace cilab {
namespace {

constexpr float kHoverPixels = 9.0f;  // a document is hovered within this distance of its point
constexpr size_t kTextChars = 420;    // a document's text in its tooltip, at most

// The plot area of the current plot (inside BeginPlot/EndPlot).
PlsaView::PlotPlace place_of_plot() {
  PlsaView::PlotPlace pl;
  pl.pos = plot::GetPlotPos();
  pl.size = plot::GetPlotSize();
  pl.lim = plot::GetPlotLimits();
  pl.drawn = true;
  return pl;
}

// Names of the rows of a heatmap drawn at `pl` (row 0 at the top, `rows` rows), right-aligned
// left of its plot area; every step-th name when the rows are lower than a line.
void row_labels(const PlsaView::PlotPlace& pl, const std::vector<std::string>& names, int rows) {
  if (rows <= 0 || !pl.drawn) return;
  const float row_h = pl.size.y / static_cast<float>(rows), font = ImGui::GetFontSize();
  const int step = std::max(1, static_cast<int>(std::ceil(font / std::max(row_h, 1.0f))));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int r = 0; r < rows && static_cast<size_t>(r) < names.size(); r += step) {
    const char* name = names[static_cast<size_t>(r)].c_str();
    const ImVec2 ts = ImGui::CalcTextSize(name);
    const float y = pl.pos.y + (static_cast<float>(r) + 0.5f) * row_h - 0.5f * ts.y;
    dl->AddText(ImVec2(pl.pos.x - ts.x - ImGui::GetStyle().ItemInnerSpacing.x, y), colors().text, name);
  }
}

// Column numbers 0..cols-1 under the plot area at `pl` (every step-th when narrow), with
// `caption` right-aligned left of them; the caller keeps a line free below the plot.
void column_labels(const PlsaView::PlotPlace& pl, int cols, const char* caption) {
  if (cols <= 0 || !pl.drawn) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cell = pl.size.x / static_cast<float>(cols), y = pl.pos.y + pl.size.y + 2.0f;
  const float need = ImGui::CalcTextSize("000").x;
  const int step = std::max(1, static_cast<int>(std::ceil(need / std::max(cell, 1.0f))));
  for (int c = 0; c < cols; c += step) {
    const std::string t = std::to_string(c);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    dl->AddText(ImVec2(pl.pos.x + (static_cast<float>(c) + 0.5f) * cell - 0.5f * w, y), colors().text, t.c_str());
  }
  const float cw = ImGui::CalcTextSize(caption).x;
  dl->AddText(ImVec2(pl.pos.x - cw - ImGui::GetStyle().ItemInnerSpacing.x, y), colors().text_dim, caption);
}

float widest(const std::vector<std::string>& names) {
  float w = 0;
  for (const std::string& n : names) w = std::max(w, ImGui::CalcTextSize(n.c_str()).x);
  return w;
}

// A heatmap cell under the mouse: (row from the top, column), or false.
bool hovered_cell(int rows, int cols, double x0, double y0, int* r, int* c) {
  if (!plot::IsPlotHovered()) return false;
  const plot::Point mp = plot::GetPlotMousePos();
  const int cc = static_cast<int>(std::floor(mp.x - x0)), rr = rows - 1 - static_cast<int>(std::floor(mp.y - y0));
  if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) return false;
  *r = rr;
  *c = cc;
  return true;
}

// Outlines heatmap cell (r from the top, c) of a grid whose cell (0, 0) spans [x0, x0 + 1] and
// the top row [y0 + rows - 1, y0 + rows].
void outline_cell(int rows, double x0, double y0, int r, int c) {
  const ImVec2 a = plot::PlotToPixels(x0 + c, y0 + rows - r), b = plot::PlotToPixels(x0 + c + 1, y0 + rows - 1 - r);
  plot::GetPlotDrawList()->AddRect(ImVec2(std::min(a.x, b.x) - 1, std::min(a.y, b.y) - 1),
                                   ImVec2(std::max(a.x, b.x) + 1, std::max(a.y, b.y) + 1), colors().selection, 0, 0,
                                   2.0f);
}

}  // namespace

void PlsaView::document_tooltip(const PlsaSnapshot& s, int row, const char* extra) {
  const PlsaProblem& p = *s.problem;
  const TextCorpus* c = p.corpus.get();
  const int doc =
      static_cast<size_t>(row) < p.train.doc_index.size() ? p.train.doc_index[static_cast<size_t>(row)] : -1;
  char l[256];
  std::string head = "document " + std::to_string(row);
  if (c && doc >= 0 && static_cast<size_t>(doc) < c->doc_names.size())
    head += " (" + c->doc_names[static_cast<size_t>(doc)] + ")";
  const int label = static_cast<size_t>(row) < p.doc_label.size() ? p.doc_label[static_cast<size_t>(row)] : -1;
  if (label >= 0 && static_cast<size_t>(label) < p.label_names.size())
    head += ", category " + p.label_names[static_cast<size_t>(label)];
  std::snprintf(l, sizeof l, ", %g tokens", p.train.doc_length[static_cast<size_t>(row)]);
  head += l;
  hover_lines_.push_back(head);
  if (extra) hover_lines_.push_back(extra);
  std::string text = p.doc_text(row);
  if (text.size() > kTextChars) text = text.substr(0, kTextChars) + " ...";
  hover_lines_.push_back(text.empty() ? std::string("(the corpus kept no text)") : text);
  // p(z|d): every topic up to 8, else the five largest.
  const int K = s.k;
  std::vector<int> order(static_cast<size_t>(K));
  std::iota(order.begin(), order.end(), 0);
  if (K > 8) {
    std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                      [&](int a, int b) { return s.v(a, row) > s.v(b, row); });
    order.resize(5);
    hover_lines_.push_back("p(z|d), the five largest of " + std::to_string(K) + ":");
  } else {
    hover_lines_.push_back("p(z|d):");
  }
  for (int z : order) {
    std::snprintf(l, sizeof l, "  %.4f  %s", s.v(z, row), topic_name(s, z, 3).c_str());
    hover_lines_.push_back(l);
  }
  tooltip_lines();
}

void PlsaView::draw_documents(const PlsaSnapshot& s, ImVec2 size) {
  const PlsaProblem& p = *s.problem;
  const DocPoints& pts = pic_.points;
  const int n = static_cast<int>(pts.x.size());
  const bool labels = !p.label_names.empty();
  const float spacing = ImGui::GetStyle().ItemSpacing.x, font = ImGui::GetFontSize();
  const float key_w = labels ? std::clamp(size.x * 0.3f, font * 12, font * 24) : 0.0f;
  const float plot_w = size.x - key_w - (labels ? spacing : 0.0f);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(), size.y - line);

  ImGui::BeginGroup();
  char caption[256];
  if (pts.ternary)
    std::snprintf(caption, sizeof caption, "the document-topic simplex: each of the %d documents at p(z|d)", n);
  else if (pts.k >= 4)
    std::snprintf(caption, sizeof caption,
                  "%d documents: p(z|d) on 2 principal axes (%.0f%% of variance)", n,
                  100.0 * pts.explained);
  else
    std::snprintf(caption, sizeof caption, "K = %d: p(z|d) of the %d documents (the simplex needs K = 3)", pts.k, n);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + plot_w);  // the key stays beside the plot
  fit_text_unformatted(caption);
  ImGui::PopTextWrapPos();
  tooltip_text(pts.ternary ? "Each document is a point of the triangle with barycentric coordinates (p(z=0|d), "
                             "p(z=1|d), p(z=2|d)): near a corner = one topic, the centre = all three alike. Hover a "
                             "point for the document's text."
                           : "K != 3: p(z|d) lives in a (K-1)-simplex; shown are the scores of every document on the "
                             "two principal axes of the rows p(z|d) (PCA). Set k = 3 for the ternary plot.");
  const bool same_k = pic_.k == s.k && n == s.factors->docs;
  if (plot::BeginPlot(
          "##plsa_docs", ImVec2(plot_w, h - line),
          pts.ternary ? (plot::PlotFlags_CanvasOnly | plot::PlotFlags_EqualAspect) : plot::PlotFlags_NoTitle)) {
    if (pts.ternary) {
      const plot::AxisFlags off = plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines | plot::AxisFlags_NoLabel;
      plot::SetupAxes(nullptr, nullptr, off, off);
      plot::SetupAxesLimits(-0.1, 1.1, -0.16, kTernaryHeight + 0.12, plot::Cond::Once);
      plot::SetupAxesFitKey(3);
    } else {
      plot::SetupLegend(plot::Location::NorthEast);
      plot::SetupAxes(pts.x_label.c_str(), pts.y_label.empty() ? nullptr : pts.y_label.c_str(), plot::AxisFlags_AutoFit,
                      plot::AxisFlags_AutoFit);
    }
    std::vector<char> shown(static_cast<size_t>(n), 1);
    std::vector<double> x, y;
    std::vector<ImU32> col;
    x.reserve(static_cast<size_t>(n));
    y.reserve(static_cast<size_t>(n));
    col.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const int c = labels && static_cast<size_t>(i) < p.doc_label.size() ? p.doc_label[static_cast<size_t>(i)] : -1;
      if (!class_shown(hidden_categories_, c)) {
        shown[static_cast<size_t>(i)] = 0;
        continue;
      }
      x.push_back(pts.x[static_cast<size_t>(i)]);
      y.push_back(pts.y[static_cast<size_t>(i)]);
      col.push_back(labels ? class_colour(c) : plot::GetColormapColor(0, plot::Colormap::Categorical));
    }
    if (pts.ternary) {  // the triangle and its corners
      const double tx[] = {0, 1, 0.5, 0}, ty[] = {0, 0, kTernaryHeight, 0};
      plot::Spec edge;
      edge.color = colors().outline;
      edge.line_weight = 1.5f;
      edge.flags = plot::ItemFlags_NoLegend;
      plot::PlotLine("##simplex", tx, ty, 4, edge);
      // Corner labels outside the triangle: topic 0 to the lower left, 1 to the lower right, 2 above.
      for (int z = 0; z < 3; ++z) {
        const std::string name = topic_name(s, z, 3);
        const float half = 0.5f * ImGui::CalcTextSize(name.c_str()).x;
        const float out = std::max(0.0f, half - font);  // the label's near end under its corner
        const ImVec2 off = z == 0 ? ImVec2(-out, font * 0.9f) : z == 1 ? ImVec2(out, font * 0.9f) : ImVec2(0, -font * 0.9f);
        plot::PlotText(name.c_str(), tx[z], ty[z], off, colors().text);
      }
    }
    plot::Spec sp;
    sp.colors = col.data();
    sp.marker_size = n > 3000 ? 2.0f : 3.0f;
    sp.fill_alpha = 0.75f;
    sp.flags = plot::ItemFlags_NoLegend;
    plot::PlotScatter("##docs", x.data(), y.data(), static_cast<int>(x.size()), sp);
    docs_place_ = place_of_plot();
    if (same_k && plot::IsPlotHovered() && !ImGui::IsMouseDown(0)) {
      const plot::Point mp = plot::GetPlotMousePos();
      const plot::Limits& lim = docs_place_.lim;
      const double sx = docs_place_.size.x / (lim.x_max - lim.x_min), sy = docs_place_.size.y / (lim.y_max - lim.y_min);
      const int i = nearest_point(pts.x, pts.y, shown, mp.x, mp.y, sx, sy, kHoverPixels);
      if (i >= 0) {
        plot::GetPlotDrawList()->AddCircle(
            plot::PlotToPixels(pts.x[static_cast<size_t>(i)], pts.y[static_cast<size_t>(i)]), 6.0f, colors().selection,
            16, 2.0f);
        document_tooltip(s, i, nullptr);
      }
    }
    plot::EndPlot();
  }
  // Wrapped at the plot's width: a longer line would widen the group and push the key off the panel.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + plot_w);
  fit_text_disabled("%s", labels ? "colour: category (click a key name to hide it)"
                                   : "the corpus has no categories; hover a point for its text");
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  if (!labels) return;
  ImGui::SameLine();
  ImGui::BeginGroup();
  fit_text_unformatted("categories");
  ImGui::SameLine();
  if (ImGui::SmallButton("all")) std::fill(hidden_categories_.begin(), hidden_categories_.end(), 0);
  tooltip_text("Show every category.");
  ImGui::SameLine();
  if (ImGui::SmallButton("none")) hidden_categories_.assign(p.label_names.size(), 1);
  tooltip_text("Hide every category (then click the ones to show).");
  if (ImGui::BeginChild("##plsa_key", ImVec2(key_w, h - line - ImGui::GetStyle().ItemSpacing.y), false)) {
    class_key(p.label_names, key_w - ImGui::GetStyle().ScrollbarSize, hidden_categories_, {}, /*column=*/true);
  }
  ImGui::EndChild();
  ImGui::EndGroup();
}

void PlsaView::draw_matrices(const PlsaSnapshot& s, ImVec2 size) {
  const PlsaProblem& p = *s.problem;
  const int K = s.k;
  if (pic_.k != K) return;
  const float spacing = ImGui::GetStyle().ItemSpacing.x, font = ImGui::GetFontSize();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(true), size.y - line);
  const int R = static_cast<int>(pic_.u_terms.size());
  std::vector<std::string> term_names;
  for (int j : pic_.u_terms) term_names.push_back(p.vocab.words[static_cast<size_t>(j)]);
  const float names_w = widest(term_names) + ImGui::GetStyle().ItemInnerSpacing.x;
  const float u_w = std::clamp(names_w + font * (5.5f + 1.6f * static_cast<float>(K)), font * 14, size.x * 0.42f);

  // U: top terms x K.
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + u_w);
  fit_text("U = p(w|z), top words (%d terms)", R);
  ImGui::PopTextWrapPos();
  tooltip_text(
      "U (terms x K): column z is topic z's distribution over the vocabulary, sum_j p(w_j|z) = 1. Only the "
      "union of the topics' top words is shown (the other terms are near 0). Hover a cell.");
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + names_w);
  if (plot::BeginPlot("##plsa_u", ImVec2(u_w - names_w, h - 2 * line), plot::PlotFlags_CanvasOnly)) {
    plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoGridLines | plot::AxisFlags_NoTickLabels,
                    plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
    plot::SetupAxesLimits(-0.5, K - 0.5, 0, std::max(1, R), plot::Cond::Always);
    plot::SetupColorBar("p(w|z)", 0.0, std::max(1e-12f, pic_.u_max), plot::Colormap::Viridis);
    plot::PlotHeatmap("##u", pic_.u_values.data(), R, K, 0.0, std::max(1e-12f, pic_.u_max), plot::Point{-0.5, 0},
                      plot::Point{K - 0.5, static_cast<double>(R)}, plot::Colormap::Viridis);
    u_place_ = place_of_plot();
    int r = 0, z = 0;
    if (hovered_cell(R, K, -0.5, 0, &r, &z)) {
      outline_cell(R, -0.5, 0, r, z);
      const int j = pic_.u_terms[static_cast<size_t>(r)];
      char l[200];
      std::snprintf(l, sizeof l, "p(w = '%s' | z = %d) = %.5g", p.vocab.words[static_cast<size_t>(j)].c_str(), z,
                    s.u(j, z));
      hover_lines_.push_back(l);
      hover_lines_.push_back(topic_name(s, z, 4));
      std::snprintf(l, sizeof l, "corpus frequency p(w) = %.5g", p.unigram[static_cast<size_t>(j)]);
      hover_lines_.push_back(l);
      tooltip_lines();
    }
    plot::EndPlot();
  }
  row_labels(u_place_, term_names, R);
  column_labels(u_place_, K, "topic z");
  ImGui::Dummy(ImVec2(1, line));
  ImGui::EndGroup();
  ImGui::SameLine();

  // V: K x a sample of the documents.
  const int D = static_cast<int>(pic_.v_docs.size());
  ImGui::BeginGroup();
  fit_text("V = p(z|d), %d of %d documents by top topic", D, s.factors->docs);
  tooltip_text(
      "V (K x documents): column d is the document's mixture of topics, sum_z p(z|d) = 1. An evenly "
      "spaced sample of the documents, grouped by argmax_z p(z|d) and sorted within a group: the blocks "
      "show how many documents each topic owns. Hover a cell for the document.");
  std::vector<std::string> topic_labels;
  for (int z = 0; z < K; ++z) topic_labels.push_back("topic " + std::to_string(z));
  const float tl_w = widest(topic_labels) + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + tl_w);
  if (plot::BeginPlot("##plsa_v", ImVec2(size.x - u_w - spacing - tl_w, h - line), plot::PlotFlags_CanvasOnly)) {
    plot::SetupAxes("document (sample, by top topic)", nullptr,
                    plot::AxisFlags_NoGridLines | plot::AxisFlags_NoTickLabels,
                    plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
    plot::SetupAxesLimits(0, std::max(1, D), 0, K, plot::Cond::Always);
    plot::SetupColorBar("p(z|d)", 0.0, 1.0, plot::Colormap::Viridis);
    plot::PlotHeatmap("##v", pic_.v_values.data(), K, D, 0.0, 1.0, plot::Point{0, 0},
                      plot::Point{static_cast<double>(D), static_cast<double>(K)}, plot::Colormap::Viridis);
    v_place_ = place_of_plot();
    int z = 0, c = 0;
    if (hovered_cell(K, D, 0, 0, &z, &c)) {
      outline_cell(K, 0, 0, z, c);
      const int row = pic_.v_docs[static_cast<size_t>(c)];
      char l[160];
      std::snprintf(l, sizeof l, "p(z = %d | d = %d) = %.5g", z, row, s.v(z, row));
      document_tooltip(s, row, l);
    }
    plot::EndPlot();
  }
  row_labels(v_place_, topic_labels, K);
  ImGui::EndGroup();
}

void PlsaView::draw_categories(const PlsaSnapshot& s, ImVec2 size) {
  const PlsaProblem& p = *s.problem;
  const int K = s.k, L = static_cast<int>(p.label_names.size());
  if (L == 0) {
    ImGui::Spacing();
    ImGui::TextWrapped(
        "This corpus (%s) has no categories, so there is nothing to compare the topics with. The "
        "fortunes are labelled by their category file (art, computers, love, ...): load the fortunes "
        "dataset to see topics against categories.",
        p.corpus_name.c_str());
    return;
  }
  if (pic_.k != K) return;
  const Confusion& cf = confusion_by_mass ? pic_.by_mass : pic_.by_argmax;
  fit_text_unformatted("categories (rows) against topics (columns), each row normalised");
  tooltip_text(
      "Row c: how the documents of category c spread over the topics. By argmax: the share of the "
      "category's documents whose most likely topic is z. By mass: sum over the category's documents of "
      "p(z|d), divided by their number. A topic that matches a category makes a bright cell in its row.");
  ImGui::SameLine(0, ImGui::GetFontSize());
  int mode = confusion_by_mass ? 1 : 0;
  const char* const modes[] = {"documents by argmax_z p(z|d)", "probability mass sum_d p(z|d)"};
  for (int m = 0; m < 2; ++m) {
    if (m > 0) same_line_if_fits(ImGui::CalcTextSize(modes[m]).x + ImGui::GetFrameHeight() * 1.5f);
    ImGui::RadioButton(modes[m], &mode, m);
  }
  confusion_by_mass = mode == 1;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(), size.y - 2 * line);
  const float names_w = widest(p.label_names) + ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + names_w);
  if (plot::BeginPlot("##plsa_confusion", ImVec2(size.x - names_w, h - line), plot::PlotFlags_CanvasOnly)) {
    plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoGridLines | plot::AxisFlags_NoTickLabels,
                    plot::AxisFlags_NoTickLabels | plot::AxisFlags_NoGridLines);
    plot::SetupAxesLimits(-0.5, K - 0.5, 0, L, plot::Cond::Always);
    plot::SetupColorBar(confusion_by_mass ? "row share (mass)" : "row share (documents)", 0.0,
                        1.0, plot::Colormap::Viridis);
    plot::PlotHeatmap("##conf", cf.value.data(), L, K, 0.0, 1.0, plot::Point{-0.5, 0},
                      plot::Point{K - 0.5, static_cast<double>(L)}, plot::Colormap::Viridis);
    conf_place_ = place_of_plot();
    // Values in the cells when they are large enough to hold them.
    const float cw = conf_place_.size.x / static_cast<float>(K), ch = conf_place_.size.y / static_cast<float>(L);
    if (cw > ImGui::CalcTextSize("0.00").x * 1.3f && ch > ImGui::GetFontSize() * 1.1f)
      for (int r = 0; r < L; ++r)
        for (int z = 0; z < K; ++z) {
          const double v = cf.value[static_cast<size_t>(r) * K + z];
          char t[16];
          std::snprintf(t, sizeof t, "%.2f", v);
          // Dark text on the bright half of Viridis, light on the dark half: legible on every theme.
          plot::PlotText(t, z, L - 0.5 - r, ImVec2(0, 0),
                         v > 0.55 ? IM_COL32(20, 20, 20, 255) : IM_COL32(235, 235, 235, 255));
        }
    int r = 0, z = 0;
    if (hovered_cell(L, K, -0.5, 0, &r, &z)) {
      outline_cell(L, -0.5, 0, r, z);
      const double v = cf.value[static_cast<size_t>(r) * K + z];
      const double total = cf.row_total[static_cast<size_t>(r)];
      char l[240];
      std::snprintf(l, sizeof l, "category %s, %s", p.label_names[static_cast<size_t>(r)].c_str(),
                    topic_name(s, z, 3).c_str());
      hover_lines_.push_back(l);
      if (confusion_by_mass)
        std::snprintf(l, sizeof l, "%.4f of the category's probability mass (%.4g of %.4g)", v, v * total, total);
      else
        std::snprintf(l, sizeof l, "%.4f of the category's documents (%.0f of %.0f have argmax_z p(z|d) = %d)", v,
                      v * total, total, z);
      hover_lines_.push_back(l);
      tooltip_lines();
    }
    plot::EndPlot();
  }
  std::vector<std::string> names = p.label_names;
  row_labels(conf_place_, names, L);
  column_labels(conf_place_, K, "topic z");
  ImGui::Dummy(ImVec2(1, line));
  fit_text_disabled("hover a cell for the category, the topic's words and the share");
}

}  // namespace cilab
