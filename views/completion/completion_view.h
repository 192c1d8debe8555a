// The completion module's view: a partially observed matrix being filled in.
//
// Header: the position, the method, the data (m x n, |train|, |test|, observed %) and the
// method's live oracle (views/completion/completion_pictures.h), the method's parameters (SetParam
// intents, as the parameter panel) and a hint at Run > Compare A/B. Tabs (keys 1-4):
//   Matrices    the truth (when known), the mask (train / held-out / missing) and the estimate,
//               as grey images on one value range for pictures, heatmaps with a colour bar
//               (1-5 stars) otherwise; hovering a cell gives its row and column (ids, genres),
//               observed, estimated and true value;
//   Spectrum    sigma_i of the iterate and of the matrix the step truncated or thresholded, with
//               the k line (svd_impute, als, sgd) or the tau line (svt); svt: rank(shrink_tau)
//               against tau;
//   Curves      train and held-out RMSE, and the objective with the oracle's violations marked;
//   Embeddings  item and user factors (columns 0 and 1) coloured by genre.
// The dense estimate (m x n) is computed only when the snapshot changes: on the UI thread for
// small matrices, in a background job at most kEstimateHz times a second for large ones.
#pragma once

#include "views/completion/completion_pictures.h"
#include "views/common/picture_job.h"
#include "views/common/ui.h"
#include "views/common/view.h"

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct CompletionProblem;
struct CompletionSnapshot;

class CompletionView : public ModuleView {
 public:
  enum class Tab { Matrices = 0, Spectrum, Curves, Embeddings };
  static constexpr int kNumTabs = 4;
  static constexpr double kEstimateHz = 4.0;
  // Pictures with more cells than this get their estimate from a background job.
  static constexpr size_t kInlineCells = 300000;
  // Without a texture provider (tests) grids are drawn cell by cell: subsampled to this side.
  static constexpr int kNoTextureSide = 160;

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;
  bool pictures_pending() const override { return job_.pending(); }

  bool log_spectrum = true;  // singular values on a log axis
  // Matrices with more cells are pictured on an evenly spaced subset of about this many cells
  // (hover still reads every cell).
  size_t max_picture_cells = size_t{1} << 22;

  // Tests: the tab shown, the header lines and the hover read-out of the last frame, the
  // serial of the snapshot the estimate picture comes from, and the screen rectangle of the
  // estimate panel's plot area.
  Tab tab() const { return tab_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<std::string>& hover_lines() const { return hover_lines_; }
  uint64_t estimate_serial() const { return est_serial_; }
  const std::vector<float>& estimate_picture() const { return est_; }
  // The matrix rows and columns the pictures show (all of them below max_picture_cells).
  const std::vector<int>& picture_rows() const { return pic_rows_; }
  const std::vector<int>& picture_cols() const { return pic_cols_; }
  ImVec2 estimate_min() const { return est_min_; }
  ImVec2 estimate_max() const { return est_max_; }
  // The k slider's state, with its widget centres (tests, --script).
  const SliderEditState& k_slider() const { return k_slider_; }

 private:
  // An estimate job reads a copy of the snapshot (sharing the problem and the estimate), the
  // serial of the one copied and the picture's cells.
  struct EstimateRequest {
    std::shared_ptr<const CompletionSnapshot> snap;
    uint64_t serial = 0;
    std::vector<int> rows, cols;
  };
  static std::vector<float> compute_estimate(const EstimateRequest& r);
  void update_problem(const CompletionSnapshot& s);
  void update_estimate(const CompletionSnapshot& s, const ViewContext& ctx);
  void draw_header(const CompletionSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out);
  void draw_matrices(const CompletionSnapshot& s, ImVec2 size);
  void draw_spectrum(const CompletionSnapshot& s, ImVec2 size);
  void draw_curves(const CompletionSnapshot& s, const ViewContext& ctx, ImVec2 size);
  void draw_embeddings(const CompletionSnapshot& s, ImVec2 size);
  bool matrix_panel(const char* title, const char* help, const char* id, const float* values, int kind,
                    const CompletionSnapshot& s, ImVec2 size);
  void hover_readout(const CompletionSnapshot& s, int i, int j);

  Tab tab_ = Tab::Matrices;
  std::vector<std::string> header_, hover_lines_;
  OracleStatus oracle_;
  // Per problem (held: no address reuse): the truth and the mask as pictures.
  std::shared_ptr<const CompletionProblem> problem_;
  std::vector<float> truth_;
  CompletionMask mask_;  // every cell's entry; codes on the picture's cells
  std::vector<int> pic_rows_, pic_cols_;
  // The estimate picture and the snapshot serial it comes from (0: none).
  std::vector<float> est_;
  uint64_t est_serial_ = 0;
  PictureJob<EstimateRequest, std::vector<float>> job_{"completion estimate", compute_estimate, kEstimateHz};
  ImVec2 est_min_{NAN, NAN}, est_max_{NAN, NAN};
  std::vector<char> hidden_genres_;
  SliderEditState k_slider_, real_slider_;  // k; lambda / eta / tau (one at a time)
};

}  // namespace cilab
