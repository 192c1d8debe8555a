// The embedding view's plots: the Curves and Map tabs and the module's own
// tab (word2vec: q_alpha against p, scores against PMI - log k; glove: f(N),
// residuals and scores against log N). See embedding_view.h.
#include "views/embeddings/embedding_view.h"

#include "algorithms/embeddings/glove.h"
#include "algorithms/text/embedding.h"
#include "algorithms/embeddings/word2vec.h"
#include "views/common/curves.h"
#include "views/plot/plot.h"
#include "views/common/readout.h"
#include "views/common/theme.h"
#include "views/common/ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {
namespace {

// The identity line y = x over the plot's visible range (in the legend as `label`).
void identity_line(const char* label, ImU32 colour) {
  plot::Spec sp;
  sp.color = colour;
  sp.line_style = plot::LineStyle::Dashed;
  sp.flags = plot::ItemFlags_NoFit;
  if (plot::BeginItem(label, sp)) {
    const plot::Limits lim = plot::GetPlotLimits();
    const double lo = std::max(lim.x_min, lim.y_min), hi = std::min(lim.x_max, lim.y_max);
    if (hi > lo) plot::GetPlotDrawList()->AddLine(plot::PlotToPixels(lo, lo), plot::PlotToPixels(hi, hi), colour, 2.0f);
    plot::EndItem();
  }
}

// A centred note inside the current plot.
void plot_note(const char* text) {
  const plot::Limits lim = plot::GetPlotLimits();
  plot::PlotText(text, 0.5 * (lim.x_min + lim.x_max), 0.5 * (lim.y_min + lim.y_max), ImVec2(0, 0), colors().text_dim);
}

}  // namespace

void EmbeddingView::draw_curves(const EmbeddingSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  const bool glove = is_glove(s);
  const int panels = glove ? 2 : 3;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float w = (size.x - spacing * static_cast<float>(panels - 1)) / static_cast<float>(panels);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(), size.y - 2 * line);
  const std::vector<std::vector<double>> none;
  const std::vector<std::vector<double>>& hist = ctx.metric_history ? *ctx.metric_history : none;
  std::vector<double> x, y;

  // Each panel's texts wrap at its width: a wider group would push the next panel off the view.
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
  fit_text_unformatted(glove ? "loss J / |entries| per iteration" : "SGNS loss per iteration");
  tooltip_text(glove ? "J = sum f(N_vw) (<x_v, y_w> + b_v + c_w - log N_vw)^2 over the nonzero entries, "
                       "f(N) = min(1, (N/x_max)^alpha); shown as the mean over the entries of each chunk (AdaGrad) "
                       "or of all entries (ALS)."
                     : "l(w, v) = -log sigma(<x_w, y_v>) - sum_{u ~ q_alpha} log sigma(-<x_w, y_u>), "
                       "sigma(z) = 1/(1+e^-z), averaged over the chunk's positive pairs. Its floor is not 0: the "
                       "same pair is both seen and drawn as noise.");
  if (plot::BeginPlot("##emb_loss", ImVec2(w, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("iteration (chunk)", "loss", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    history_series(hist, 0, s.iteration, x, y);
    plot::Spec a;
    a.color = plot::GetColormapColor(0);
    a.line_weight = 2.0f;
    plot::PlotLine("loss", x.data(), y.data(), static_cast<int>(x.size()), a);
    plot::PlotGuideX("##now", s.iteration, colors().guide, 1.5f);
    if (x.empty()) plot_note("step to see the loss");
    plot::EndPlot();
  }
  fit_text("loss %s", readout_number(s.metrics.empty() ? NAN : s.metrics[0]).c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();

  if (!glove) {
    ImGui::SameLine();
    ImGui::BeginGroup();
    // The title wraps inside the panel: a wider group would push the next panel off the view.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
    fit_text_unformatted("mean sigma(score) of the pairs");
    ImGui::PopTextWrapPos();
    tooltip_text("sigma(<x_w, y_v>) with sigma(z) = 1/(1+e^-z): the model's probability that (w, v) is a real "
                 "context pair. Training pushes it towards 1 on the positive pairs (seen in the window) and "
                 "towards 0 on the negative ones (v drawn from q_alpha).");
    if (plot::BeginPlot("##emb_sigma", ImVec2(w, h), plot::PlotFlags_NoTitle)) {
      plot::SetupLegend(plot::Location::SouthEast);
      plot::SetupAxes("iteration (chunk)", "mean sigma(<x_w, y_v>)", plot::AxisFlags_AutoFit, 0);
      plot::SetupAxesLimits(0, 1, 0, 1, plot::Cond::Once);
      plot::Spec p;
      p.color = plot::GetColormapColor(1);
      p.line_weight = 2.0f;
      history_series(hist, Word2Vec::kMetricSigmaPositive, s.iteration, x, y);
      plot::PlotLine("positive pairs", x.data(), y.data(), static_cast<int>(x.size()), p);
      plot::Spec n;
      n.color = plot::GetColormapColor(3);
      n.line_weight = 2.0f;
      history_series(hist, Word2Vec::kMetricSigmaNegative, s.iteration, x, y);
      plot::PlotLine("negative pairs", x.data(), y.data(), static_cast<int>(x.size()), n);
      plot::PlotGuideX("##now", s.iteration, colors().guide, 1.5f);
      plot::EndPlot();
    }
    const auto metric = [&](size_t m) { return readout_number(m < s.metrics.size() ? s.metrics[m] : NAN, "%.3f"); };
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
    fit_text("positive %s, negative %s", metric(Word2Vec::kMetricSigmaPositive).c_str(),
                metric(Word2Vec::kMetricSigmaNegative).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
  }

  ImGui::SameLine();
  ImGui::BeginGroup();
  const float recall_w = size.x - (w + spacing) * static_cast<float>(panels - 1);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + recall_w);
  fit_text_unformatted("synonym recall@10 per epoch");
  tooltip_text(kSynonymRecallHelp);
  std::vector<double> ex, ey;
  if (s.epochs) epoch_series(*s.epochs, glove ? static_cast<int>(Glove::kMetricRecall) : static_cast<int>(Word2Vec::kMetricRecall), ex, ey);
  if (plot::BeginPlot("##emb_recall", ImVec2(recall_w, h),
                      plot::PlotFlags_NoTitle)) {
    // Top left: the recall starts low and rises, and the live point sits low in the running epoch.
    plot::SetupLegend(plot::Location::NorthWest);
    plot::SetupAxes("epoch", "recall@10", 0, 0);
    const double last = std::max({1.0, ex.empty() ? 0.0 : ex.back(), static_cast<double>(s.epoch) + 1});
    double top = 0.1;
    for (double v : ey) top = std::max(top, v);
    if (std::isfinite(s.live_recall)) top = std::max(top, s.live_recall);
    plot::SetupAxesLimits(0, last + 0.5, 0, std::min(1.0, top * 1.2), plot::Cond::Always);
    plot::Spec r;
    r.color = plot::GetColormapColor(2);
    r.line_weight = 2.0f;
    r.marker = plot::Marker::Circle;
    r.marker_size = 4.0f;
    plot::PlotLine("at epoch end", ex.data(), ey.data(), static_cast<int>(ex.size()), r);
    if (std::isfinite(s.live_recall)) {
      // The live value, in the middle of the epoch that is running.
      const double at = s.epoch + (s.status == Status::Running ? 0.5 : 0.0);
      plot::Spec l;
      l.color = colors().accent;
      l.marker = plot::Marker::Diamond;
      l.marker_size = 5.0f;
      plot::PlotScatter("live", &at, &s.live_recall, 1, l);
    }
    if (ex.empty() && !std::isfinite(s.live_recall)) plot_note("measured at each epoch end");
    plot::EndPlot();
  }
  fit_text("live %s", readout_number(s.live_recall, "%.3f").c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

void EmbeddingView::draw_map(const EmbeddingSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  fit_text_unformatted("words:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(size.x * 0.6f, ImGui::GetFontSize() * 40));
  ImGui::InputTextWithHint("##emb_map_words", "empty: the probes and their neighbours", map_buf_.data(),
                           map_buf_.size());
  mark_item(ctx, "field:map-words");
  tooltip_text("Comma-separated words to map; empty: the probe words (large points) and their 6 nearest "
               "neighbours each.");
  const WordMap& m = pics_.map;
  const Vocabulary& v = pics_vocab_ ? *pics_vocab_ : *s.vocab;
  char xl[64], yl[64];
  std::snprintf(xl, sizeof xl, "PC 1 (%.1f %% of the variance)", 100.0 * m.map.explained[0]);
  std::snprintf(yl, sizeof yl, "PC 2 (%.1f %%)", 100.0 * m.map.explained[1]);
  const float h = std::max(min_plot_height(), size.y - ImGui::GetFrameHeightWithSpacing() -
                                                  ImGui::GetTextLineHeightWithSpacing());
  if (plot::BeginPlot("##emb_map", ImVec2(size.x, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes(xl, yl, plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    std::vector<double> px, py, nx, ny;
    for (size_t i = 0; i < m.ids.size() && i < m.map.x.size(); ++i) {
      (m.is_probe[i] ? px : nx).push_back(m.map.x[i]);
      (m.is_probe[i] ? py : ny).push_back(m.map.y[i]);
    }
    plot::Spec ns;
    ns.color = plot::GetColormapColor(0);
    ns.marker_size = 3.5f;
    plot::PlotScatter(map_buf_[0] ? "typed words" : "neighbours", nx.data(), ny.data(), static_cast<int>(nx.size()),
                      ns);
    plot::Spec ps;
    ps.color = colors().accent;
    ps.marker = plot::Marker::Diamond;
    ps.marker_size = 6.0f;
    if (!px.empty()) plot::PlotScatter("probe words", px.data(), py.data(), static_cast<int>(px.size()), ps);
    for (size_t i = 0; i < m.ids.size() && i < m.map.x.size(); ++i)
      plot::PlotText(vocab_word(v, m.ids[i]).c_str(), m.map.x[i], m.map.y[i], ImVec2(0, -ImGui::GetFontSize() * 0.8f),
                     m.is_probe[i] ? colors().accent : colors().text);
    if (m.ids.empty()) plot_note("no words of the vocabulary to map");
    plot::EndPlot();
  }
  fit_text_disabled("%zu words; PCA of their unit vectors x_w / |x_w| (centred): nearby points have a high cosine",
                      m.ids.size());
  tooltip_text("The words' unit vectors, centred on their mean, projected on their first two principal axes; the "
               "axis labels give the share of the chosen words' variance each axis keeps. A low total means the "
               "map flattens a lot: trust the Neighbours table over distances here.");
}

void EmbeddingView::draw_score_scatter(const EmbeddingSnapshot& s, const char* id, const char* x_label,
                                       const char* tip, ImVec2 size) {
  const ScoreScatter sc = s.score_pairs ? score_scatter(*s.score_pairs) : ScoreScatter();
  ImGui::BeginGroup();
  char title[160];
  if (sc.target.empty())
    std::snprintf(title, sizeof title, "learned score against %s (small vocabularies only)", x_label);
  else
    std::snprintf(title, sizeof title, "learned score against %s: correlation %s", x_label,
                  readout_number(sc.correlation, "%.3f").c_str());
  fit_text_unformatted(title);
  tooltip_text(tip);
  if (plot::BeginPlot(id, ImVec2(size.x, size.y - ImGui::GetTextLineHeightWithSpacing()), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthWest);
    plot::SetupAxes(x_label, "learned score", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    if (!sc.target.empty()) {
      plot::Spec p;
      p.color = plot::GetColormapColor(0);
      p.marker_size = 2.5f;
      p.fill_alpha = 0.7f;
      char label[64];
      std::snprintf(label, sizeof label, "co-occurring pairs (%zu)", sc.target.size());
      plot::PlotScatter(label, sc.target.data(), sc.score.data(), static_cast<int>(sc.target.size()), p);
      identity_line("identity y = x", colors().accent);
    } else {
      char note[160];
      std::snprintf(note, sizeof note, "only on vocabularies of at most %d words (tiny-text)",
                    EmbeddingSnapshot::kScorePairMaxWords);
      plot_note(note);
    }
    plot::EndPlot();
  }
  ImGui::EndGroup();
}

void EmbeddingView::draw_word2vec_model(const EmbeddingSnapshot& s, ImVec2 size) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const bool scores = s.score_pairs && !s.score_pairs->empty();
  const float w = scores ? (size.x - spacing) * 0.5f : size.x;  // large vocabularies: no score scatter
  const float h = std::max(min_plot_height(), size.y - ImGui::GetTextLineHeightWithSpacing());
  ImGui::BeginGroup();
  char title[128];
  std::snprintf(title, sizeof title, "noise q_alpha against unigram p by rank (alpha = ns_exponent = %.3g)",
                s.ns_exponent);
  fit_text_unformatted(title);
  tooltip_text("p(w) = count(w) / sum count; the negatives are drawn from q_alpha(w) = count(w)^alpha / "
               "sum_u count(u)^alpha (alpha = 0 uniform, 1 unigram, 0.75 word2vec's choice): it flattens p, "
               "so rare words are drawn more often than their frequency and frequent ones less. On log-log "
               "axes a Zipf p is a line of slope about -1 and q_alpha one of slope -alpha.");
  if (plot::BeginPlot("##emb_noise", ImVec2(w, h - ImGui::GetTextLineHeightWithSpacing()), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("rank of the word (by count)", "probability", plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale,
                    plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
    if (s.noise_q && s.unigram_p) {
      const RankCurves c = rank_curves(*s.noise_q, *s.unigram_p);
      plot::Spec p;
      p.color = plot::GetColormapColor(0);
      p.line_weight = 2.0f;
      plot::PlotLine("unigram p(w)", c.rank.data(), c.p.data(), static_cast<int>(c.rank.size()), p);
      plot::Spec q;
      q.color = plot::GetColormapColor(1);
      q.line_weight = 2.0f;
      char label[64];
      std::snprintf(label, sizeof label, "q_alpha(w), ns_exponent = %.3g", s.ns_exponent);
      plot::PlotLine(label, c.rank.data(), c.q.data(), static_cast<int>(c.rank.size()), q);
    } else {
      plot_note("no noise distribution in this snapshot");
    }
    plot::EndPlot();
  }
  if (!scores) {
    char note[200];
    std::snprintf(note, sizeof note,
                  "The learned scores <x_w, y_v> against PMI(w, v) - log k are shown on vocabularies of at most %d "
                  "words (tiny-text), where the identity can be checked.",
                  EmbeddingSnapshot::kScorePairMaxWords);
    fit_text_disabled("%s", note);
  }
  ImGui::EndGroup();
  if (!scores) return;
  ImGui::SameLine();
  const std::string target = s.score_target.empty() ? std::string("PMI(w, v) - log k") : s.score_target;
  draw_score_scatter(s, "##emb_pmi", target.c_str(),
                     "PMI(w, v) = log (N_wv N / (N_w N_v)) from the window's co-occurrence counts. Levy & Goldberg: "
                     "with enough dimensions SGNS with k negatives reaches <x_w, y_v> = PMI(w, v) - log k for every "
                     "co-occurring pair, so the points gather on the identity line (best on a tiny corpus with "
                     "d >= |V|).",
                     ImVec2(size.x - w - spacing, h));
}

void EmbeddingView::draw_glove_model(const EmbeddingSnapshot& s, ImVec2 size) {
  const auto& g = static_cast<const GloveSnapshot&>(s);
  const bool scores = s.score_pairs && !s.score_pairs->empty();
  const int panels = scores ? 3 : 2;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float w = (size.x - spacing * static_cast<float>(panels - 1)) / static_cast<float>(panels);
  const float h = std::max(min_plot_height(), size.y - ImGui::GetTextLineHeightWithSpacing());
  const float ph = h - ImGui::GetTextLineHeightWithSpacing();
  ImGui::BeginGroup();
  char title[128];
  std::snprintf(title, sizeof title, "weight f(N), x_max = %.4g, alpha = %.3g", g.x_max, g.alpha);
  fit_text_unformatted(title);
  tooltip_text("f(N) = min(1, (N/x_max)^alpha): rare co-occurrences (noisy counts) weigh little, and every pair "
               "with N >= x_max weighs 1, so the most frequent pairs do not dominate J.");
  if (plot::BeginPlot("##emb_fn", ImVec2(w, ph), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::SouthEast);
    plot::SetupAxes("co-occurrence count N", "f(N)", plot::AxisFlags_LogScale, 0);
    const double n_max = std::max(10.0, g.x_max * 10);
    plot::SetupAxesLimits(0.1, n_max, 0, 1.1, plot::Cond::Always);
    std::vector<double> n, f;
    glove_weight_curve(g.x_max, g.alpha, 0.1, n_max, 200, n, f);
    plot::Spec c;
    c.color = plot::GetColormapColor(0);
    c.line_weight = 2.0f;
    plot::PlotLine("f(N) = min(1, (N/x_max)^alpha)", n.data(), f.data(), static_cast<int>(n.size()), c);
    plot::PlotGuideX("##xmax", g.x_max, colors().accent, 1.5f);
    plot::PlotText("x_max", g.x_max, 0.5, ImVec2(ImGui::GetFontSize() * 1.6f, 0), colors().accent);
    plot::EndPlot();
  }
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  fit_text_unformatted("residual <x, y> + b + c - log N against log N");
  tooltip_text("A fixed sample of the nonzero entries: each entry's residual r = <x_v, y_w> + b_v + c_w - log N_vw "
               "at the current vectors; J = sum f(N) r^2. Small counts (left) weigh little, so their residuals stay "
               "wide; points darker with a larger weight f(N).");
  if (plot::BeginPlot("##emb_resid", ImVec2(w, ph), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("log N", "residual", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    if (g.residuals && !g.residuals->empty()) {
      std::vector<float> x, y;
      std::vector<ImU32> col;
      for (const GloveSnapshot::ResidualPoint& r : *g.residuals) {
        x.push_back(r.log_count);
        y.push_back(r.residual);
        col.push_back(with_alpha(plot::GetColormapColor(0), 60 + static_cast<int>(195 * std::clamp(r.weight, 0.0f, 1.0f))));
      }
      plot::Spec p;
      p.colors = col.data();
      p.color = plot::GetColormapColor(0);
      p.marker_size = 2.0f;
      char label[64];
      std::snprintf(label, sizeof label, "entries (sample of %zu)", x.size());
      plot::PlotScatter(label, x.data(), y.data(), static_cast<int>(x.size()), p);
      plot::Spec z;
      z.color = colors().accent;
      z.line_style = plot::LineStyle::Dashed;
      z.flags = plot::ItemFlags_NoFit;
      const float lo = *std::min_element(x.begin(), x.end()), hi = *std::max_element(x.begin(), x.end());
      const float zx[2] = {lo, hi}, zy[2] = {0, 0};
      plot::PlotLine("residual 0", zx, zy, 2, z);
    } else {
      plot_note("no residuals yet: step once");
    }
    plot::EndPlot();
  }
  ImGui::EndGroup();
  if (scores) {
    ImGui::SameLine();
    const std::string target = s.score_target.empty() ? std::string("log N_wv") : s.score_target;
    draw_score_scatter(s, "##emb_glove_scores", target.c_str(),
                       "GloVe fits <x_v, y_w> + b_v + c_w = log N_vw on every nonzero entry, weighted by f(N): on a "
                       "tiny corpus with d >= |V| the points reach the identity line.",
                       ImVec2(size.x - 2 * (w + spacing), h));
  }
}

}  // namespace cilab
