// The plsa module's view: topics emerging from a corpus, EM step by EM step.
//
// Header: the position, the method, K, the corpus, the four live oracles of course 7.2 (green
// holds, red broken, grey n/a or pending; the formula in each tooltip: l never falls, U, V and q
// stochastic, l <= the saturated bound, K = 1 gives the unigram) and the "Add a topic" button
// (the module's add_topic intent). Tabs (keys 1-5):
//   Curves      log-likelihood per iteration (with the E-step half points seen while
//               sub-stepping), training and held-out perplexity;
//   Topics      the top-10 words per topic with p(w|z), a live table whose changed words are
//               highlighted; a topic's header gives its share of the corpus;
//   Documents   K = 3: every document at p(z|d) on the simplex (ternary plot), else the first two
//               principal axes of p(z|d); coloured by category (clickable key); hover a point for
//               the document's text and its p(z|d);
//   Matrices    U (top terms x K) and V (K x a sample of the documents, sorted by topic) as
//               heatmaps with colour bars and hover values;
//   Categories  categories (rows) against topics (columns): documents by argmax_z p(z|d), or the
//               probability mass, normalised per row; a note when the corpus has no labels.
// The pictures (projection, sorting, confusion) are computed once per snapshot: inline for small
// corpora, else in a background job at most kPicturesHz times a second.
#pragma once

#include "views/common/picture_job.h"
#include "views/plot/plot.h"
#include "views/topics/plsa_pictures.h"
#include "views/common/view.h"

#include <imgui.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct PlsaSnapshot;

class PlsaView : public ModuleView {
 public:
  enum class Tab { Curves = 0, Topics, Documents, Matrices, Categories };
  static constexpr int kNumTabs = 5;
  static constexpr double kPicturesHz = 4.0;
  static constexpr int kHeatmapDocs = 240;  // documents in V's heatmap

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void on_reset() override;
  bool pictures_pending() const override { return job_.pending(); }

  // Where a plot was drawn in the last frame (screen rectangle and data limits), for tests.
  struct PlotPlace {
    ImVec2 pos{0, 0}, size{0, 0};
    plot::Limits lim;
    bool drawn = false;
    ImVec2 to_screen(double x, double y) const;
  };

  // Tests: the tab, the header lines, the oracles, the hover read-out of the last frame, the
  // pictures and the serial they come from, the word changes of the topics table.
  Tab tab() const { return tab_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<PlsaOracle>& oracles() const { return oracles_; }
  const std::vector<std::string>& hover_lines() const { return hover_lines_; }
  const PlsaPictures& pictures() const { return pic_; }
  const std::vector<std::vector<int>>& word_changes() const { return changes_; }
  const PlotPlace& documents_plot() const { return docs_place_; }
  const PlotPlace& u_plot() const { return u_place_; }
  const PlotPlace& v_plot() const { return v_place_; }
  const PlotPlace& confusion_plot() const { return conf_place_; }
  // Screen centre of topic z's header in the topics table (last frame).
  ImVec2 topic_header(int z) const {
    return z >= 0 && static_cast<size_t>(z) < topic_headers_.size() ? topic_headers_[static_cast<size_t>(z)]
                                                                    : ImVec2(-1, -1);
  }
  ImVec2 add_topic_button() const { return add_button_; }
  bool confusion_by_mass = false;  // Categories tab: mass instead of argmax counts
  // Snapshots with more document x topic values than this get their pictures from a job.
  size_t inline_values = 150000;

 private:
  // A pictures job reads a copy of the snapshot (sharing the problem and the factors) and
  // remembers the serial of the one copied (a copy gets its own).
  struct PicturesRequest {
    std::shared_ptr<const PlsaSnapshot> snap;
    uint64_t serial = 0;
  };
  static PlsaPictures compute_pictures(const PicturesRequest& r);
  void update_pictures(const PlsaSnapshot& s, const ViewContext& ctx);
  void update_words(const PlsaSnapshot& s);
  void draw_header(const PlsaSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_curves(const PlsaSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_topics(const PlsaSnapshot& s, ImVec2 size);
  void draw_documents(const PlsaSnapshot& s, ImVec2 size);
  void draw_matrices(const PlsaSnapshot& s, ImVec2 size);
  void draw_categories(const PlsaSnapshot& s, ImVec2 size);
  void document_tooltip(const PlsaSnapshot& s, int row, const char* extra);
  std::string topic_name(const PlsaSnapshot& s, int z, int words) const;
  void tooltip_lines();

  Tab tab_ = Tab::Curves;
  std::vector<std::string> header_, hover_lines_;
  std::vector<PlsaOracle> oracles_;
  // Pictures of the snapshot pic_.serial (0: none yet), and the job computing the next.
  PlsaPictures pic_;
  PictureJob<PicturesRequest, PlsaPictures> job_{"plsa pictures", compute_pictures, kPicturesHz};
  // The top words of the last two distinct snapshots shown, and what changed between them.
  uint64_t words_serial_ = 0;
  std::vector<std::vector<int>> words_now_, words_before_, changes_;
  // l seen right after an E-step sub-step, by the iteration it belongs to (drawn at t - 1/2).
  std::map<int, double> e_step_ll_;
  std::vector<char> hidden_categories_;
  std::vector<ImVec2> topic_headers_;
  ImVec2 add_button_{-1, -1};
  PlotPlace docs_place_, u_place_, v_place_, conf_place_;
};

}  // namespace cilab
