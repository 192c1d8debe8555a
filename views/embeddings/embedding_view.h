// The embedding view, shared by word2vec and glove (issue 16: "word2vec and
// glove share one embedding view"): word vectors learned live.
//
// Header: the corpus and vocabulary size, the epoch and the progress through
// it, words (entries) per second live, the WordNet synonym recall@10 oracle
// live with its description (kSynonymRecallHelp), the loss. Tabs (keys 1-5):
//   Curves      loss per iteration; word2vec: mean sigma(score) on positive
//               and on negative pairs; recall@10 per epoch;
//   Neighbours  probe words typed in a field (comma-separated; starts from
//               the run's `probe`; key 2 puts the keyboard in it, Enter gives
//               it back to the tab keys), each with its 10 nearest neighbours and
//               cosines, live; a word not in the vocabulary says so and
//               names the closest spelling;
//   Map         a 2-D PCA map of the probes and their neighbours (or a typed
//               list), with the explained variance on the axes;
//   Analogies   a - b + c (king - man + woman), the top 5 with cosines, the
//               expected answer highlighted;
//   word2vec    q_alpha against p by rank (log-log) and, on small
//               vocabularies, the learned score against PMI(w, v) - log k;
//   GloVe       f(N) with x_max marked, the residual against log N and, on
//               small vocabularies, the score against log N.
// The view reads only the published snapshots. The neighbour table, the map
// and the analogy are computed from the snapshot's unit vectors by a
// background job (SerialScope: never the training's thread pool) whenever a
// new copy of the vectors arrives or the request changes, at most kJobHz
// times a second; without background jobs (tests) they are computed inline.
#pragma once

#include "views/embeddings/embedding_pictures.h"
#include "views/common/picture_job.h"
#include "views/common/view.h"

#include <imgui.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct EmbeddingSnapshot;

class EmbeddingView : public ModuleView {
 public:
  enum class Tab { Curves = 0, Neighbours, Map, Analogies, Model };
  static constexpr int kNumTabs = 5;
  static constexpr double kJobHz = 4.0;
  static constexpr int kNeighbours = 10;
  static constexpr int kAnalogyAnswers = 5;

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void on_reset() override;
  bool pictures_pending() const override { return job_.pending(); }

  // Tests: the tab shown, the header lines of the last frame, the pictures in
  // use (computed from the vectors of iteration pictures().vectors_iteration)
  // and the request the fields make.
  Tab tab() const { return tab_; }
  const std::vector<std::string>& header() const { return header_; }
  const EmbeddingPictures& pictures() const { return pics_; }
  const EmbeddingRequest& request() const { return req_; }
  // Tests and scripts: set the fields as typing would.
  void set_probe_text(const std::string& text);
  void set_map_text(const std::string& text);
  void set_analogy(const std::string& a, const std::string& b, const std::string& c, const std::string& expected);

 private:
  // What a pictures job reads (shared copies) and what it answers.
  struct PicturesRequest {
    std::shared_ptr<const Vocabulary> vocab;
    std::shared_ptr<const EmbeddingMatrix> unit;
    int vectors_iteration = 0;
    EmbeddingRequest request;
  };
  static EmbeddingPictures compute_pictures(const PicturesRequest& r);
  void update_request(const EmbeddingSnapshot& s);
  void update_pictures(const EmbeddingSnapshot& s, const ViewContext& ctx);
  void draw_header(const EmbeddingSnapshot& s, const ViewContext& ctx);
  void draw_curves(const EmbeddingSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_neighbours(const EmbeddingSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_map(const EmbeddingSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_analogies(const EmbeddingSnapshot& s, ImVec2 size);
  void draw_word2vec_model(const EmbeddingSnapshot& s, ImVec2 size);
  void draw_glove_model(const EmbeddingSnapshot& s, ImVec2 size);
  void draw_score_scatter(const EmbeddingSnapshot& s, const char* id, const char* x_label, const char* tip,
                          ImVec2 size);
  bool is_glove(const EmbeddingSnapshot& s) const;

  Tab tab_ = Tab::Curves;
  std::vector<std::string> header_;
  bool probes_seeded_ = false;  // the probe field starts from the snapshot's probes, once per run
  std::array<char, 512> probe_buf_{};
  std::array<char, 512> map_buf_{};
  std::array<char, 64> a_buf_{}, b_buf_{}, c_buf_{}, expected_buf_{};
  bool analogy_seeded_ = false;
  EmbeddingRequest req_;
  // The pictures shown and the job computing the next ones.
  EmbeddingPictures pics_;
  std::shared_ptr<const Vocabulary> pics_vocab_;        // the vocabulary the pictures' ids refer to
  std::shared_ptr<const EmbeddingMatrix> pics_unit_;    // the vectors they were computed from (held: no reuse)
  PictureJob<PicturesRequest, EmbeddingPictures> job_{"embedding neighbours", compute_pictures, kJobHz};
};

}  // namespace cilab
