// The plsa view: the pictures job, the header (oracles, "Add a topic"), the tabs, the Curves and
// Topics tabs (Documents, Matrices, Categories: plsa_view_tabs.cpp).
#include "views/topics/plsa_view.h"

#include "algorithms/topics/plsa.h"
#include "views/common/curves.h"
#include "views/common/readout.h"
#include "views/common/tab_bar.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

PlsaPictures PlsaView::compute_pictures(const PicturesRequest& r) {
  PlsaPictures p = make_plsa_pictures(*r.snap, PlsaSnapshot::kTopWords, kHeatmapDocs);
  p.serial = r.serial;
  return p;
}

namespace {

const char* const kMethodTitles[] = {"pLSA by EM", "NMF, KL loss (scikit-learn mu)",
                                     "NMF, Frobenius loss (scikit-learn mu)"};
// Below this many font sizes of height, the header keeps the data and the oracles to a line each.
constexpr float kCompactHeaderEm = 26.0f;

const char* const kTabNames[] = {"Curves", "Topics", "Documents", "Matrices", "Categories"};
const char* const kTabHelp[] = {
    "Log-likelihood, training and held-out perplexity per iteration",
    "The top-10 words of every topic with p(w|z), live; changed words highlighted",
    "Every document at p(z|d): the simplex for K = 3, else a PCA projection; hover for the text",
    "U = [p(w|z)] on the top terms and V = [p(z|d)] on a sample of the documents, as heatmaps",
    "Categories against topics (confusion matrix, normalised per row)"};

ImVec4 oracle_colour(PlsaOracle::State st) {
  switch (st) {
    case PlsaOracle::State::Holds: return colour_vec(colors().good);
    case PlsaOracle::State::Broken: return colour_vec(colors().error);
    default: return colour_vec(colors().text_dim);
  }
}

const char* oracle_word(PlsaOracle::State st) {
  switch (st) {
    case PlsaOracle::State::Holds: return "holds";
    case PlsaOracle::State::Broken: return "BROKEN";
    case PlsaOracle::State::Pending: return "pending";
    default: return "n/a";
  }
}

}  // namespace

ImVec2 PlsaView::PlotPlace::to_screen(double x, double y) const {
  const double fx = (x - lim.x_min) / (lim.x_max - lim.x_min), fy = (y - lim.y_min) / (lim.y_max - lim.y_min);
  return ImVec2(pos.x + static_cast<float>(fx) * size.x, pos.y + static_cast<float>(1.0 - fy) * size.y);
}

void PlsaView::on_reset() {
  job_.reset();
  pic_ = PlsaPictures();
  words_serial_ = 0;
  words_now_.clear();
  words_before_.clear();
  changes_.clear();
  e_step_ll_.clear();
  hover_lines_.clear();
}

void PlsaView::update_pictures(const PlsaSnapshot& s, const ViewContext& ctx) {
  // Collect a finished job (possibly of an older snapshot of the run: the next job follows).
  if (auto done = job_.collect())
    if (done->request.snap->problem == s.problem) pic_ = std::move(done->result);
  if (s.serial.value == pic_.serial || job_.busy()) return;
  const size_t values = static_cast<size_t>(s.factors->docs) * static_cast<size_t>(s.k);
  // Inline when small, in tests without jobs, and when the shown pictures are of another K
  // (a topic added): never draw a K that is not the snapshot's.
  if (values <= inline_values || !ctx.jobs || pic_.k != s.k) {
    pic_ = make_plsa_pictures(s, PlsaSnapshot::kTopWords, kHeatmapDocs);
    return;
  }
  const double now = ImGui::GetTime();
  if (job_.hold_back(now, true)) return;
  job_.submit(*ctx.jobs, PicturesRequest{std::make_shared<const PlsaSnapshot>(s), s.serial.value}, now);
}

void PlsaView::update_words(const PlsaSnapshot& s) {
  if (s.serial.value == words_serial_) return;
  words_serial_ = s.serial.value;
  if (s.top_words != words_now_) {
    words_before_ = std::move(words_now_);
    words_now_ = s.top_words;
    changes_ = top_word_changes(words_before_, words_now_);
  } else if (changes_.size() != words_now_.size()) {
    changes_ = top_word_changes({}, words_now_);
  }
}

std::string PlsaView::topic_name(const PlsaSnapshot& s, int z, int words) const {
  std::string name = "topic " + std::to_string(z);
  if (z < 0 || static_cast<size_t>(z) >= s.top_words.size()) return name;
  const std::vector<int>& t = s.top_words[static_cast<size_t>(z)];
  name += " (";
  for (int r = 0; r < words && static_cast<size_t>(r) < t.size(); ++r)
    name += (r ? ", " : "") + s.problem->vocab.words[static_cast<size_t>(t[static_cast<size_t>(r)])];
  return name + ")";
}

void PlsaView::tooltip_lines() {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
  for (const std::string& l : hover_lines_) fit_text_unformatted(l.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void PlsaView::draw_header(const PlsaSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const PlsaProblem& p = *s.problem;
  header_.clear();
  char line[512];
  std::snprintf(line, sizeof line, "%s - %s, K = %d", position_label(s, ctx.info, true).c_str(),
                s.method >= 0 && s.method < 3 ? kMethodTitles[s.method] : "?", s.k);
  header_.push_back(line);
  fit_text_unformatted(line);
  if (s.phase == 1) {
    ImGui::SameLine();
    fit_text_colored(readout_warn(), "E-step done: the M-step runs next");
    header_.push_back("E-step done: the M-step runs next");
  }
  // "Add a topic": the module's add_topic intent.
  same_line_if_fits(ImGui::CalcTextSize("Add a topic").x + ImGui::GetStyle().FramePadding.x * 2);
  const bool can_add = s.k < std::min(Plsa::kMaxTopics, p.terms());
  if (!can_add) ImGui::BeginDisabled();
  if (ImGui::Button("Add a topic")) {
    ViewIntent vi;
    vi.intent.kind = "add_topic";
    out.push_back(vi);
  }
  if (!can_add) ImGui::EndDisabled();
  add_button_ = ImVec2(0.5f * (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x),
                       0.5f * (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y));
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", can_add ? "K -> K + 1 keeping the topics: the topic with the most tokens is split in two "
                                      "halves of its document weight, their word distributions nudged +-1 % apart, so "
                                      "p(w|d) barely moves and EM separates the pair in the next iterations."
                                    : "K is at its limit (the vocabulary size or 200 topics).");

  // Short of height (1280 x 720 at a large UI scale) the data and the oracles keep to a line each:
  // the data's line cut at the view's edge, the oracles by name in their colour (all in tooltips).
  const bool compact = ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * kCompactHeaderEm;
  // The data.
  ImGui::PushTextWrapPos(compact ? -1.0f : 0.0f);
  fit_text_disabled("%s", p.what.c_str());
  ImGui::PopTextWrapPos();
  if (compact) tooltip_text(p.what.c_str());
  header_.push_back(p.what);

  // The oracles on one wrapping row.
  oracles_ = plsa_oracles(s);
  fit_text_unformatted("Oracles:");
  tooltip_text(
      "Checked live on the snapshot shown (course 7.2). Green: holds; red: broken; grey: not applicable "
      "or waiting for a step. Hover an oracle for its formula.");
  std::string all = "Oracles:";
  for (const PlsaOracle& o : oracles_) {
    char text[256];
    std::snprintf(text, sizeof text, "%s: %s (%s)", o.name.c_str(), oracle_word(o.state), o.value.c_str());
    all += std::string("  ") + text;
    // Compact: the name and its verdict ("l never falls: holds"), the value in the tooltip.
    const std::string brief = o.name + ": " + oracle_word(o.state);
    const char* shown = compact ? brief.c_str() : text;
    same_line_if_fits(ImGui::CalcTextSize(shown).x, ImGui::GetFontSize());
    fit_text_colored(oracle_colour(o.state), "%s", shown);
    tooltip_text(compact ? (std::string(text) + "\n" + o.formula).c_str() : o.formula.c_str());
  }
  header_.push_back(all);
  if (!s.message.empty()) {
    header_.push_back(s.message);
    fit_text_colored(
        s.status == Status::Diverged || s.status == Status::Failed ? colour_vec(colors().error) : readout_warn(), "%s",
        s.message.c_str());
  }
}

void PlsaView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const PlsaSnapshot*>(&snap);
  if (!sp || !sp->problem || !sp->factors) {
    fit_text_disabled("No topic model yet: %s",
                        snap.message.empty() ? "load a text corpus (fortunes) and reset" : snap.message.c_str());
    return;
  }
  const PlsaSnapshot& s = *sp;
  // Half points: l right after an E-step belongs to iteration t + 1; a rewind forgets later ones.
  e_step_ll_.erase(e_step_ll_.upper_bound(s.iteration + s.phase), e_step_ll_.end());
  if (s.phase == 1 && s.method == static_cast<int>(Plsa::Method::Plsa))
    e_step_ll_[s.iteration + 1] = s.metrics[Plsa::kMetricLogLikelihood];
  update_pictures(s, ctx);
  update_words(s);
  hover_lines_.clear();
  draw_header(s, ctx, out);

  TabItem tabs[kNumTabs];
  for (int t = 0; t < kNumTabs; ++t) tabs[t] = {kTabNames[t], kTabHelp[t]};
  tab_ = static_cast<Tab>(tab_bar_with_keys("##plsa_tabs", ctx, tabs, kNumTabs, static_cast<int>(tab_)));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(avail.x, std::max(min_plot_height(true) + ImGui::GetTextLineHeightWithSpacing() * 2,
                                      avail.y - 2 * ImGui::GetStyle().ItemSpacing.y));
  switch (tab_) {
    case Tab::Curves: draw_curves(s, ctx, size); break;
    case Tab::Topics: draw_topics(s, size); break;
    case Tab::Documents: draw_documents(s, size); break;
    case Tab::Matrices: draw_matrices(s, size); break;
    case Tab::Categories: draw_categories(s, size); break;
  }
}

void PlsaView::draw_curves(const PlsaSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float w = (size.x - spacing) * 0.5f;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float h = std::max(min_plot_height(), size.y - 2 * line);
  const std::vector<std::vector<double>> none;
  const std::vector<std::vector<double>>& hist = ctx.metric_history ? *ctx.metric_history : none;
  std::vector<double> it, ll, perp_it, perp, test_it, test;
  history_series(hist, Plsa::kMetricLogLikelihood, s.iteration, it, ll);
  history_series(hist, Plsa::kMetricPerplexity, s.iteration, perp_it, perp);
  history_series(hist, Plsa::kMetricTestPerplexity, s.iteration, test_it, test);
  std::vector<double> hx, hy;  // E-step half points
  for (const auto& [t, v] : e_step_ll_) {
    hx.push_back(t - 0.5);
    hy.push_back(v);
  }
  const bool plsa = s.method == static_cast<int>(Plsa::Method::Plsa);

  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);  // the read-outs wrap inside the column
  fit_text_unformatted("log-likelihood l per iteration");
  tooltip_text(
      "l = sum_ij N_ij log sum_z p(w_j|z) p(z|d_i) on the training counts. pLSA's EM never lowers it: "
      "the E-step leaves l where it is (the bound touches l: the points at t - 1/2 when you sub-step), "
      "the M-step raises it. It converges to a local optimum, not the global one (try another seed).");
  if (plot::BeginPlot("##plsa_ll", ImVec2(w, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::SouthEast);
    plot::SetupAxes("iteration", "log-likelihood l", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec a;
    a.color = plot::GetColormapColor(0);
    a.line_weight = 2.0f;
    if (it.size() < 60) {
      a.marker = plot::Marker::Circle;
      a.marker_size = 2.5f;
    }
    plot::PlotLine("l after the M-step", it.data(), ll.data(), static_cast<int>(it.size()), a);
    if (plsa && !hx.empty()) {
      plot::Spec e;
      e.color = plot::GetColormapColor(3);
      e.marker = plot::Marker::Diamond;
      e.marker_size = 4.5f;
      plot::PlotScatter("after the E-step (l unchanged)", hx.data(), hy.data(), static_cast<int>(hx.size()), e);
    }
    plot::PlotGuideX("##now", s.iteration + 0.5 * s.phase, colors().guide, 1.5f);
    plot::EndPlot();
  }
  fit_text("l = %s, saturated bound %s", readout_number(s.metrics[Plsa::kMetricLogLikelihood], "%.6g").c_str(),
              readout_number(s.saturated_bound, "%.6g").c_str());
  tooltip_text(
      "The saturated bound sum_ij N_ij log(N_ij / s_i): the largest l any p(w|d) can reach (each "
      "document its own word frequencies). pLSA's l stays below it.");
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::SameLine();

  ImGui::BeginGroup();
  fit_text_unformatted("perplexity per token: training and held out");
  tooltip_text(
      "perplexity = exp(-l / sum N): the model is as unsure of the next token as a fair die with that "
      "many faces. Held out: exp(-sum T log p(w|d) / sum T) on the test_fraction of every document's "
      "tokens the fit never saw, with the document's trained p(z|d). A held-out curve that turns up while "
      "the training one falls is overfitting: fewer topics.");
  if (plot::BeginPlot("##plsa_perplexity", ImVec2(size.x - w - spacing, h), plot::PlotFlags_NoTitle)) {
    plot::SetupLegend(plot::Location::NorthEast);
    plot::SetupAxes("iteration", "perplexity", plot::AxisFlags_AutoFit,
                    plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
    plot::Spec a;
    a.color = plot::GetColormapColor(1);
    a.line_weight = 2.0f;
    plot::PlotLine("perplexity (training)", perp_it.data(), perp.data(), static_cast<int>(perp.size()), a);
    plot::Spec b;
    b.color = plot::GetColormapColor(2);
    b.line_weight = 2.0f;
    plot::PlotLine("test_perplexity (held out)", test_it.data(), test.data(), static_cast<int>(test.size()), b);
    plot::PlotGuideX("##now", s.iteration + 0.5 * s.phase, colors().guide, 1.5f);
    plot::EndPlot();
  }
  fit_text("training %s, held out %s", readout_number(s.metrics[Plsa::kMetricPerplexity], "%.5g").c_str(),
              readout_number(s.metrics[Plsa::kMetricTestPerplexity], "%.5g").c_str());
  ImGui::EndGroup();
}

void PlsaView::draw_topics(const PlsaSnapshot& s, ImVec2 size) {
  const PlsaProblem& p = *s.problem;
  const int K = s.k;
  fit_text_unformatted("top words per topic: p(w|z)");
  tooltip_text(
      "Each column is a topic z: its words by decreasing p(w|z) (a column of U). Highlighted: words new in "
      "the topic's top 10 since the previous snapshot (strong) or moved within it (light). Hover a "
      "topic's header for its share of the corpus.");
  ImGui::SameLine(0, ImGui::GetFontSize());
  fit_text_disabled("new word in the list: strong highlight; moved: light");
  const float col_w = ImGui::GetFontSize() * 8.5f;
  const float table_h = std::max(min_plot_height(), size.y - ImGui::GetTextLineHeightWithSpacing());
  topic_headers_.assign(static_cast<size_t>(K), ImVec2(-1, -1));
  // Columns of col_w scrolled sideways when K of them do not fit, else stretched over the width.
  const bool fits = static_cast<float>(K) * col_w + ImGui::GetFontSize() * 3 <= size.x;
  const ImGuiTableFlags sizing =
      fits ? ImGuiTableFlags_SizingStretchSame : ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | sizing;
  if (!ImGui::BeginTable("##plsa_topics", K + 1, flags, ImVec2(size.x, table_h))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("rank", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 2.5f);
  for (int z = 0; z < K; ++z) {
    char name[32];
    std::snprintf(name, sizeof name, "topic %d", z);
    ImGui::TableSetupColumn(name, fits ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed,
                            fits ? 1.0f : col_w);
  }
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableSetColumnIndex(0);
  ImGui::TableHeader("rank");
  for (int z = 0; z < K; ++z) {
    ImGui::TableSetColumnIndex(z + 1);
    char name[64];
    const double share = static_cast<size_t>(z) < s.topic_mass.size() ? s.topic_mass[static_cast<size_t>(z)] : NAN;
    std::snprintf(name, sizeof name, "topic %d  %.1f%%", z, 100.0 * share);
    ImGui::TableHeader(name);
    topic_headers_[static_cast<size_t>(z)] = ImVec2(0.5f * (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x),
                                                    0.5f * (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y));
    if (ImGui::IsItemHovered()) {
      char l[160];
      std::snprintf(l, sizeof l, "topic %d: %.2f %% of the corpus's tokens", z, 100.0 * share);
      hover_lines_.push_back(l);
      hover_lines_.push_back("share = sum_i s_i p(z|d_i) / sum N (the tokens EM assigns to the topic)");
      hover_lines_.push_back(topic_name(s, z, 5));
      tooltip_lines();
    }
  }
  const int rows = PlsaSnapshot::kTopWords;
  for (int r = 0; r < rows; ++r) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    fit_text_disabled("%d", r + 1);
    for (int z = 0; z < K; ++z) {
      ImGui::TableSetColumnIndex(z + 1);
      const std::vector<int>& t = s.top_words[static_cast<size_t>(z)];
      if (static_cast<size_t>(r) >= t.size()) continue;
      const int j = t[static_cast<size_t>(r)];
      const int change =
          static_cast<size_t>(z) < changes_.size() && static_cast<size_t>(r) < changes_[static_cast<size_t>(z)].size()
              ? changes_[static_cast<size_t>(z)][static_cast<size_t>(r)]
              : kWordSame;
      if (change != kWordSame)
        ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, with_alpha(colors().accent, change == kWordNew ? 110 : 40));
      const std::string& word = p.vocab.words[static_cast<size_t>(j)];
      fit_text("%s %.3f", word.c_str(), s.u(j, z));
      if (ImGui::IsItemHovered()) {
        char l[200];
        std::snprintf(l, sizeof l, "'%s' in topic %d: p(w|z) = %.5g (rank %d)", word.c_str(), z, s.u(j, z), r + 1);
        hover_lines_.push_back(l);
        std::snprintf(l, sizeof l, "corpus frequency p(w) = %.5g", p.unigram[static_cast<size_t>(j)]);
        hover_lines_.push_back(l);
        hover_lines_.push_back(change == kWordNew     ? "new in this topic's top 10 since the previous snapshot"
                               : change == kWordMoved ? "moved within the top 10 since the previous snapshot"
                                                      : "same rank as in the previous snapshot");
        tooltip_lines();
      }
    }
  }
  ImGui::EndTable();
}

CILAB_REGISTER_VIEW(Plsa, PlsaView);

}  // namespace cilab
