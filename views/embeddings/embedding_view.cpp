// The embedding view (word2vec, glove): the pictures job, the header, the
// tabs, the Neighbours and Analogies tabs and the registration (the plots:
// embedding_view_plots.cpp).
#include "views/embeddings/embedding_view.h"

#include "algorithms/embeddings/glove.h"
#include "algorithms/text/embedding.h"
#include "algorithms/embeddings/word2vec.h"
#include "views/common/readout.h"
#include "views/common/tab_bar.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace cilab {

EmbeddingPictures EmbeddingView::compute_pictures(const PicturesRequest& r) {
  EmbeddingPictures p = compute_embedding_pictures(*r.vocab, *r.unit, r.request);
  p.vectors_iteration = r.vectors_iteration;
  return p;
}

namespace {

const char* const kTabNames[] = {"Curves", "Neighbours", "Map", "Analogies", "word2vec: q and PMI"};
const char* const kGloveModelTab = "GloVe: f(N) and residuals";
const char* const kTabHelp[] = {
    "The loss per iteration, the mean sigma(score) on positive and negative pairs (word2vec) and the synonym "
    "recall@10 per epoch",
    "Type probe words (comma-separated): each one's 10 nearest neighbours by cosine, updating as training goes",
    "A 2-D PCA map of the probes and their neighbours (or of the words you type)",
    "a - b + c: the words nearest to unit(a) - unit(b) + unit(c) (king - man + woman = queen?)",
    "word2vec: the noise distribution q_alpha against the unigram p; the learned scores against PMI - log k"};
const char* const kGloveModelHelp =
    "GloVe: the weight f(N), the residual of each entry against log N, the learned scores against log N";

void set_buf(char* buf, size_t size, const std::string& text) {
  std::snprintf(buf, size, "%s", text.c_str());
}

// "12.3 k", "1.2 M": a count for the header.
std::string human_count(double v) {
  char b[32];
  if (!std::isfinite(v)) return "n/a";
  if (v >= 1e6)
    std::snprintf(b, sizeof b, "%.3g M", v / 1e6);
  else if (v >= 1e4)
    std::snprintf(b, sizeof b, "%.3g k", v / 1e3);
  else
    std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

}  // namespace

bool EmbeddingView::is_glove(const EmbeddingSnapshot& s) const {
  return dynamic_cast<const GloveSnapshot*>(&s) != nullptr;
}

void EmbeddingView::on_reset() {
  job_.reset();
  pics_ = EmbeddingPictures();
  pics_vocab_.reset();
  pics_unit_.reset();
  probes_seeded_ = false;
}

void EmbeddingView::set_probe_text(const std::string& text) {
  set_buf(probe_buf_.data(), probe_buf_.size(), text);
  probes_seeded_ = true;
}

void EmbeddingView::set_map_text(const std::string& text) { set_buf(map_buf_.data(), map_buf_.size(), text); }

void EmbeddingView::set_analogy(const std::string& a, const std::string& b, const std::string& c,
                                const std::string& expected) {
  set_buf(a_buf_.data(), a_buf_.size(), a);
  set_buf(b_buf_.data(), b_buf_.size(), b);
  set_buf(c_buf_.data(), c_buf_.size(), c);
  set_buf(expected_buf_.data(), expected_buf_.size(), expected);
  analogy_seeded_ = true;
}

void EmbeddingView::update_request(const EmbeddingSnapshot& s) {
  if (!probes_seeded_) {
    std::string text;
    for (const std::string& p : s.probes) text += (text.empty() ? "" : ", ") + p;
    set_buf(probe_buf_.data(), probe_buf_.size(), text);
    probes_seeded_ = true;
  }
  if (!analogy_seeded_) set_analogy("king", "man", "woman", "queen");
  req_.probes = parse_probe_words(probe_buf_.data());
  req_.k = kNeighbours;
  req_.map_words = map_buf_.data();
  const auto one = [](const char* buf) {
    const std::vector<std::string> w = parse_probe_words(buf);
    return w.empty() ? std::string() : w.front();
  };
  req_.a = one(a_buf_.data());
  req_.b = one(b_buf_.data());
  req_.c = one(c_buf_.data());
  req_.expected = one(expected_buf_.data());
  req_.analogy_k = kAnalogyAnswers;
}

void EmbeddingView::update_pictures(const EmbeddingSnapshot& s, const ViewContext& ctx) {
  // Collect a finished job (its vectors may be older than the snapshot's: the next job follows).
  if (auto done = job_.collect()) {
    pics_ = std::move(done->result);
    pics_vocab_ = done->request.vocab;
    pics_unit_ = done->request.unit;
  }
  if (!s.vocab || !s.unit || job_.busy()) return;
  const bool fresh = s.unit == pics_unit_ && s.vocab == pics_vocab_ && pics_.request == req_;
  if (fresh) return;
  if (!ctx.jobs) {  // tests without background jobs: at once, on this thread
    pics_ = compute_embedding_pictures(*s.vocab, *s.unit, req_);
    pics_.vectors_iteration = s.vectors_iteration;
    pics_vocab_ = s.vocab;
    pics_unit_ = s.unit;
    return;
  }
  const double now = ImGui::GetTime();
  if (job_.hold_back(now, pics_unit_ != nullptr)) return;
  job_.submit(*ctx.jobs, PicturesRequest{s.vocab, s.unit, s.vectors_iteration, req_}, now);
}

void EmbeddingView::draw_header(const EmbeddingSnapshot& s, const ViewContext& ctx) {
  header_.clear();
  const bool glove = is_glove(s);
  char line[512];
  std::string title = ctx.info ? ctx.info->title : (glove ? "GloVe" : "word2vec");
  std::snprintf(line, sizeof line, "%s - %s", position_label(s, ctx.info, true).c_str(), title.c_str());
  header_.push_back(line);
  fit_text_unformatted(line);

  // The corpus and the vocabulary.
  std::string corpus = ctx.data ? ctx.data->name : std::string("corpus");
  if (ctx.data && ctx.data->text) corpus += ", " + human_count(static_cast<double>(ctx.data->text->size())) + " tokens";
  const int vocab = s.vocab ? s.vocab->size() : 0;
  const int dim = s.vectors ? s.vectors->dim : 0;
  std::snprintf(line, sizeof line, "%s; |V| = %d words, d = %d", corpus.c_str(), vocab, dim);
  header_.push_back(line);
  same_line_if_fits(ImGui::CalcTextSize(line).x, ImGui::GetFontSize() * 1.5f);
  fit_text_disabled("%s", line);
  tooltip_text("The corpus the run trains on and its vocabulary: the words seen at least min_count times, ids by "
               "descending count; d = vector_size, the dimension of every word vector.");

  // Epoch and progress, speed, the oracle, the loss.
  const double epochs = ctx.values && ctx.values->count("epochs") ? ctx.values->at("epochs") : NAN;
  double progress = NAN;
  if (const auto* w = dynamic_cast<const Word2VecSnapshot*>(&s)) {
    if (s.epoch_words > 0)
      progress = static_cast<double>(w->words_done - static_cast<int64_t>(s.epoch) * s.epoch_words) /
                 static_cast<double>(s.epoch_words);
  } else if (const auto* g = dynamic_cast<const GloveSnapshot*>(&s)) {
    const double batch = ctx.values && ctx.values->count("batch_entries") ? ctx.values->at("batch_entries") : NAN;
    if (g->solver == static_cast<int>(Glove::Solver::AdaGrad) && g->entries > 0 && std::isfinite(batch))
      progress = s.iteration * batch / static_cast<double>(g->entries) - s.epoch;  // about: chunks end at epochs
  }
  std::string pos = "epoch " + std::to_string(s.epoch + (s.status == Status::Running ? 1 : 0));
  if (std::isfinite(epochs)) pos += " of " + std::to_string(static_cast<int>(epochs));
  if (std::isfinite(progress) && progress >= 0 && progress <= 1 && s.status == Status::Running) {
    char p[32];
    std::snprintf(p, sizeof p, ", %.0f %%", 100.0 * std::clamp(progress, 0.0, 1.0));
    pos += p;
  }
  const double loss = s.metrics.empty() ? NAN : s.metrics[0];
  std::snprintf(line, sizeof line, "%s  |  %s %s/s  |  loss %s", pos.c_str(),
                human_count(s.live_words_per_s).c_str(), glove ? "entries" : "words",
                readout_number(loss).c_str());
  header_.push_back(line);
  fit_text_unformatted(line);
  tooltip_text(glove ? "Epoch: one pass over the nonzero co-occurrence entries. entries/s: wall clock over the "
                       "recent chunks. loss: J / |entries| = mean f(N) (<x, y> + b + c - log N)^2 (the chunk's "
                       "entries as visited for AdaGrad, all entries after an ALS sweep)."
                     : "Epoch: one pass over the corpus. words/s: corpus words trained per second of wall clock "
                       "over the recent chunks. loss: the chunk's mean of -log sigma(<x_w, y_v>) - sum_u log "
                       "sigma(-<x_w, y_u>), sigma(z) = 1/(1+e^-z).");
  // The oracle, live, with its description on screen.
  std::string recall;
  if (std::isfinite(s.live_recall))
    std::snprintf(line, sizeof line, "WordNet synonym recall@10 = %.3f (iteration %d, %d probes)", s.live_recall,
                  s.recall_iteration, s.synonym_probes ? s.synonym_probes->size() : 0);
  else
    std::snprintf(line, sizeof line, "WordNet synonym recall@10: not measured yet (%d probes)",
                  s.synonym_probes ? s.synonym_probes->size() : 0);
  header_.push_back(line);
  same_line_if_fits(ImGui::CalcTextSize(line).x, ImGui::GetFontSize() * 1.5f);
  fit_text_colored(colour_vec(std::isfinite(s.live_recall) ? colors().good : colors().text_dim), "%s", line);
  tooltip_text(kSynonymRecallHelp);
  // The description on screen: whole when the view has room, else one line, and
  // in a short view (a 1280 x 720 projector at a large UI scale) a few words
  // beside the recall (the whole text in its tooltip), so the tabs keep their plots.
  const float avail_em = ImGui::GetContentRegionAvail().y / ImGui::GetFontSize();
  const bool roomy = avail_em > 30.0f, tight = avail_em < 24.0f;
  const char* what = roomy   ? kSynonymRecallHelp
                     : tight ? "(synonyms among the 10 nearest; hover)"
                             : "recall@10: the share of the WordNet synonyms of the 1000 most frequent words found "
                               "among their 10 nearest neighbours (hover for the formula)";
  header_.push_back(what);
  if (tight) {
    same_line_if_fits(ImGui::CalcTextSize(what).x);
    fit_text_disabled("%s", what);
  } else {
    ImGui::PushTextWrapPos(0.0f);
    fit_text_disabled("%s", what);
    ImGui::PopTextWrapPos();
  }
  tooltip_text(kSynonymRecallHelp);
  if (!s.message.empty()) {
    header_.push_back(s.message);
    if (tight) same_line_if_fits(ImGui::CalcTextSize(s.message.c_str()).x, ImGui::GetFontSize() * 1.5f);
    fit_text_colored(s.status == Status::Diverged || s.status == Status::Failed ? colour_vec(colors().error)
                                                                                   : readout_warn(),
                       "%s", s.message.c_str());
  }
}

void EmbeddingView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>&) {
  const auto* sp = dynamic_cast<const EmbeddingSnapshot*>(&snap);
  if (!sp || !sp->vocab) {
    fit_text_disabled("No vocabulary yet: %s",
                        snap.message.empty() ? "choose a text corpus (gcide, fortunes, tiny-text) and reset"
                                             : snap.message.c_str());
    return;
  }
  const EmbeddingSnapshot& s = *sp;
  update_request(s);
  update_pictures(s, ctx);
  draw_header(s, ctx);

  char labels[kNumTabs][96];
  TabItem tabs[kNumTabs];
  for (int t = 0; t < kNumTabs; ++t) {
    const bool model = t == static_cast<int>(Tab::Model) && is_glove(s);
    std::snprintf(labels[t], sizeof labels[t], "%s##emb_tab%d", model ? kGloveModelTab : kTabNames[t], t);
    tabs[t] = {labels[t], model ? kGloveModelHelp : kTabHelp[t]};
  }
  // Number keys only switch tabs: a text field takes the keyboard when clicked, never by itself.
  tab_ = static_cast<Tab>(tab_bar_with_keys("##embedding_tabs", ctx, tabs, kNumTabs, static_cast<int>(tab_)));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(avail.x, std::max(min_plot_height(true) + ImGui::GetTextLineHeightWithSpacing() * 2,
                                      avail.y - 2 * ImGui::GetStyle().ItemSpacing.y));
  switch (tab_) {
    case Tab::Curves: draw_curves(s, ctx, size); break;
    case Tab::Neighbours: draw_neighbours(s, ctx, size); break;
    case Tab::Map: draw_map(s, ctx, size); break;
    case Tab::Analogies: draw_analogies(s, size); break;
    case Tab::Model:
      if (is_glove(s))
        draw_glove_model(s, size);
      else
        draw_word2vec_model(s, size);
      break;
  }
}

void EmbeddingView::draw_neighbours(const EmbeddingSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  // A probe whose 10th neighbour is still at cosine > 0.98: the vectors share one direction.
  static constexpr const char* kNearOne = "cosines near 1";
  bool near_one = false;
  for (const NeighbourRow& r : pics_.table)
    near_one = near_one || (!r.neighbours.empty() && r.neighbours.back().cosine > 0.98f);
  fit_text_unformatted("probe words:");
  ImGui::SameLine();
  // The field leaves room for "vectors of iteration N" and the note on the same line.
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float after = ImGui::CalcTextSize("vectors of iteration 000000").x + spacing +
                      (near_one ? ImGui::CalcTextSize(kNearOne).x + spacing : 0.0f);
  ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 8,
                                   std::min({size.x * 0.6f, ImGui::GetFontSize() * 40,
                                             ImGui::GetContentRegionAvail().x - after - spacing})));
  ImGui::InputText("##emb_probes", probe_buf_.data(), probe_buf_.size());
  mark_item(ctx, "field:probes");
  tooltip_text("Comma-separated words (case is ignored; click to type, Enter or Escape gives the keys back). Each one's 10 nearest neighbours by cosine "
               "cos(x_w, x_v) = <x_w, x_v> / (|x_w| |x_v|), recomputed from the latest vectors a few times a second.");
  ImGui::SameLine();
  if (pics_.vectors_iteration >= 0)
    fit_text_disabled("vectors of iteration %d", pics_.vectors_iteration);
  else
    fit_text_disabled("computing ...");
  const std::vector<NeighbourRow>& rows = pics_.table;
  if (rows.empty()) {
    fit_text_disabled(req_.probes.empty() ? "type a word above" : "computing the neighbours ...");
    return;
  }
  if (near_one) {
    ImGui::SameLine();
    fit_text_colored(readout_warn(), "%s", kNearOne);
    tooltip_text("The vectors still point along one common direction (the first thing training learns: the largest "
                 "singular direction of the co-occurrence statistics), so every cosine is near 1 and the ranking is "
                 "noisy. It sharpens as the other directions are learned: word2vec within an epoch; GloVe by AdaGrad "
                 "over tens of epochs, by ALS in a few.");
  }
  const Vocabulary& v = pics_vocab_ ? *pics_vocab_ : *s.vocab;
  // One column per probe (up to a readable width), ranks down the rows.
  const int cols = static_cast<int>(rows.size()) + 1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
  const float col_w = ImGui::GetFontSize() * 10;
  if (ImGui::BeginTable("##emb_neighbours", std::min(cols, 64), flags, ImVec2(size.x, size.y - ImGui::GetFrameHeightWithSpacing()))) {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("rank", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 2.5f);
    for (int c = 1; c < std::min(cols, 64); ++c)
      ImGui::TableSetupColumn(rows[static_cast<size_t>(c - 1)].word.c_str(), ImGuiTableColumnFlags_WidthFixed, col_w);
    ImGui::TableHeadersRow();
    // Row 0 under the header: the probe's frequency or why it has no neighbours.
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    fit_text_disabled("count");
    for (int c = 1; c < std::min(cols, 64); ++c) {
      const NeighbourRow& r = rows[static_cast<size_t>(c - 1)];
      ImGui::TableSetColumnIndex(c);
      if (r.id >= 0) {
        fit_text_disabled("%lld x", static_cast<long long>(r.id < static_cast<int>(v.counts.size())
                                                                 ? v.counts[static_cast<size_t>(r.id)]
                                                                 : 0));
      } else {
        fit_text_colored(readout_warn(), "not in the vocabulary");
        if (!r.suggestion.empty()) {
          std::string did = "did you mean '" + r.suggestion + "'?";
          tooltip_text(("'" + r.word + "' is not among the |V| words (rare words are dropped by min_count). " +
                        did)
                           .c_str());
        }
      }
    }
    for (int rank = 0; rank < kNeighbours; ++rank) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      fit_text("%d", rank + 1);
      for (int c = 1; c < std::min(cols, 64); ++c) {
        const NeighbourRow& r = rows[static_cast<size_t>(c - 1)];
        ImGui::TableSetColumnIndex(c);
        if (r.id < 0) {
          if (rank == 0 && !r.suggestion.empty()) fit_text_disabled("did you mean '%s'?", r.suggestion.c_str());
          continue;
        }
        if (static_cast<size_t>(rank) >= r.neighbours.size()) continue;
        const Neighbour& n = r.neighbours[static_cast<size_t>(rank)];
        fit_text("%s", vocab_word(v, n.id).c_str());
        ImGui::SameLine(col_w - ImGui::CalcTextSize("0.000").x);
        fit_text_disabled("%.3f", n.cosine);
        if (ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          fit_text("cos(%s, %s) = %.4f", r.word.c_str(), vocab_word(v, n.id).c_str(), n.cosine);
          fit_text_disabled("cosine = <x_w, x_v> / (|x_w| |x_v|); count(%s) = %lld", vocab_word(v, n.id).c_str(),
                              static_cast<long long>(n.id < static_cast<int>(v.counts.size())
                                                         ? v.counts[static_cast<size_t>(n.id)]
                                                         : 0));
          ImGui::EndTooltip();
        }
      }
    }
    ImGui::EndTable();
  }
}

void EmbeddingView::draw_analogies(const EmbeddingSnapshot& s, ImVec2 size) {
  const float w = std::min(size.x / 6, ImGui::GetFontSize() * 7);
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("##emb_a", a_buf_.data(), a_buf_.size());
  tooltip_text("a: the word whose relation is moved (king)");
  ImGui::SameLine();
  fit_text_unformatted("-");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("##emb_b", b_buf_.data(), b_buf_.size());
  tooltip_text("b: subtracted (man)");
  ImGui::SameLine();
  fit_text_unformatted("+");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("##emb_c", c_buf_.data(), c_buf_.size());
  tooltip_text("c: added (woman)");
  ImGui::SameLine();
  fit_text_unformatted("=  expected:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  ImGui::InputText("##emb_expected", expected_buf_.data(), expected_buf_.size());
  tooltip_text("The answer you expect (optional): highlighted when it is among the top 5.");
  fit_text_disabled("answers: the words v (not a, b, c) of largest cos(x_v, unit(a) - unit(b) + unit(c)), as "
                      "gensim's most_similar(positive=[a, c], negative=[b])");
  const AnalogyResult& r = pics_.analogy;
  if (!r.message.empty()) fit_text_colored(readout_warn(), "%s", r.message.c_str());
  if (r.answers.empty()) return;
  const Vocabulary& v = pics_vocab_ ? *pics_vocab_ : *s.vocab;
  fit_text("%s - %s + %s =", r.a.c_str(), r.b.c_str(), r.c.c_str());
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("##emb_analogy", 3, flags, ImVec2(std::min(size.x, ImGui::GetFontSize() * 20), 0))) {
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 2);
    ImGui::TableSetupColumn("word", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 10);
    ImGui::TableSetupColumn("cosine", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 5);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < r.answers.size(); ++i) {
      const bool hit = static_cast<int>(i) == r.expected_rank;
      ImGui::TableNextRow();
      if (hit) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, with_alpha(colors().good, 90));
      ImGui::TableSetColumnIndex(0);
      fit_text("%zu", i + 1);
      ImGui::TableSetColumnIndex(1);
      if (hit)
        fit_text_colored(colour_vec(colors().good), "%s  (expected)", vocab_word(v, r.answers[i].id).c_str());
      else
        fit_text_unformatted(vocab_word(v, r.answers[i].id).c_str());
      ImGui::TableSetColumnIndex(2);
      fit_text("%.3f", r.answers[i].cosine);
    }
    ImGui::EndTable();
  }
  if (!r.expected.empty() && r.iexpected >= 0 && r.expected_rank < 0)
    fit_text_colored(readout_warn(), "'%s' is not in the top %d yet", r.expected.c_str(), kAnalogyAnswers);
  else if (r.expected_rank >= 0)
    fit_text_colored(colour_vec(colors().good), "'%s' is answer %d", r.expected.c_str(), r.expected_rank + 1);
}

CILAB_REGISTER_VIEW(Word2Vec, EmbeddingView);
// glove draws with the same view (a second registration, keyed by glove's name).
namespace {
class GloveEmbeddingView : public EmbeddingView {};
}  // namespace
CILAB_REGISTER_VIEW(Glove, GloveEmbeddingView);

}  // namespace cilab
