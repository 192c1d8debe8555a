// The completion view: the estimate job, the header and parameters, the tabs and the
// matrix panels with the hover read-out (spectrum, curves, embeddings:
// completion_view_plots.cpp).
#include "views/completion/completion_view.h"

#include "algorithms/completion/completion.h"
#include "algorithms/core/observed_matrix.h"
#include "views/common/matrix_panel.h"
#include "views/common/readout.h"
#include "views/common/tab_bar.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"
#include "views/plot/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

std::vector<float> CompletionView::compute_estimate(const EstimateRequest& r) {
  return estimate_grid(*r.snap, r.rows, r.cols);
}

namespace {

const char* const kMethodTitles[] = {"svd_impute (singular value projection)", "als (alternating least squares)",
                                     "sgd (SGD factorisation)", "svt (singular value thresholding)"};
const char* const kMethodNames[] = {"svd_impute", "als", "sgd", "svt"};
const char* const kTabNames[] = {"Matrices", "Spectrum", "Curves", "Embeddings"};
const char* const kTabHelp[] = {
    "The truth (when known), the mask (train / held-out / missing) and the estimate; hover a cell",
    "Singular values of the iterate and of the matrix the step truncated or thresholded",
    "Train and held-out RMSE, the objective and the method's oracle",
    "Item and user factors (columns 0 and 1) coloured by genre"};

enum PanelKind { kTruthPanel, kMaskPanel, kEstimatePanel };

// A small filled square of colour c (outlined) and a label, on the current line.
void swatch(ImU32 c, const char* label) {
  const float sw = ImGui::GetTextLineHeight() * 0.7f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float pad = (ImGui::GetTextLineHeight() - sw) / 2;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(p.x, p.y + pad), ImVec2(p.x + sw, p.y + pad + sw), c);
  dl->AddRect(ImVec2(p.x, p.y + pad), ImVec2(p.x + sw, p.y + pad + sw), colors().outline);
  ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
  ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
  fit_text_unformatted(label);
}

}  // namespace

void CompletionView::on_reset() {
  job_.reset();
  problem_.reset();
  est_.clear();
  est_serial_ = 0;
  hover_lines_.clear();
}

void CompletionView::update_problem(const CompletionSnapshot& s) {
  if (s.problem == problem_) return;
  problem_ = s.problem;
  const CompletionProblem& p = *problem_;
  picture_grid(p.m, p.n, max_picture_cells, pic_rows_, pic_cols_);
  const size_t pr = pic_rows_.size(), pc = pic_cols_.size();
  mask_ = completion_mask(p);
  if (pr * pc != mask_.codes.size()) {  // the mask's picture on the picture's cells only
    std::vector<float> codes(pr * pc);
    for (size_t a = 0; a < pr; ++a)
      for (size_t b = 0; b < pc; ++b)
        codes[a * pc + b] = mask_.codes[static_cast<size_t>(pic_rows_[a]) * static_cast<size_t>(p.n) +
                                        static_cast<size_t>(pic_cols_[b])];
    mask_.codes = std::move(codes);
  }
  truth_.clear();
  if (p.data && p.data->has_truth()) {
    truth_.resize(pr * pc);
    for (size_t a = 0; a < pr; ++a)
      for (size_t b = 0; b < pc; ++b) truth_[a * pc + b] = static_cast<float>(p.data->truth(pic_rows_[a], pic_cols_[b]));
  }
  est_.clear();
  est_serial_ = 0;
}

void CompletionView::update_estimate(const CompletionSnapshot& s, const ViewContext& ctx) {
  // Collect a finished job (its snapshot may be older than the one shown: it is still a picture
  // of this run's problem, and the next job follows).
  if (auto done = job_.collect()) {
    if (done->request.snap->problem == problem_ && done->result.size() == pic_rows_.size() * pic_cols_.size()) {
      est_ = std::move(done->result);
      est_serial_ = done->request.serial;
    }
  }
  if (s.serial.value == est_serial_ || job_.busy()) return;
  const size_t cells = pic_rows_.size() * pic_cols_.size();  // the cells the picture computes
  if (cells <= kInlineCells || !ctx.jobs) {  // small, or tests without background jobs
    est_ = estimate_grid(s, pic_rows_, pic_cols_);
    est_serial_ = s.serial.value;
    return;
  }
  const double now = ImGui::GetTime();
  if (job_.hold_back(now, !est_.empty())) return;
  job_.submit(*ctx.jobs, EstimateRequest{std::make_shared<const CompletionSnapshot>(s), s.serial.value, pic_rows_, pic_cols_},
              now);
}

void CompletionView::draw_controls(const Snapshot& snap, const ViewContext&) {
  if (!dynamic_cast<const CompletionSnapshot*>(&snap)) return;
  fit_text_disabled("View");
  ImGui::Checkbox("singular values on a log axis", &log_spectrum);
}

void CompletionView::draw_header(const CompletionSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const CompletionProblem& p = *s.problem;
  header_.clear();
  char line[512];
  std::snprintf(line, sizeof line, "%s - %s", position_label(s, ctx.info, true).c_str(),
                s.method >= 0 && s.method < 4 ? kMethodTitles[s.method] : "?");
  header_.push_back(line);
  fit_text_unformatted(line);
  // The live oracle, on the first line when it fits.
  if (ctx.metric_history) {
    std::vector<ObjectiveChange> changes;  // lambda, tau changed live: the oracle re-bases there
    if (ctx.live_changes)
      for (const LiveChange& c : *ctx.live_changes)
        if (c.role == LiveRole::Objective) {
          char label[96];
          std::snprintf(label, sizeof label, "%s = %g", c.name.c_str(), c.value);
          changes.push_back({c.iteration, c.phase, label});
        }
    oracle_ = completion_oracle(s.method, s.eta, *ctx.metric_history, s.y_support, p.train_row.size(), changes);
  }
  header_.push_back(oracle_.text);
  const ImVec4 oc = oracle_.violations > 0 ? colour_vec(colors().error)
                    : oracle_.applies      ? colour_vec(colors().good)
                                           : colour_vec(colors().text_dim);
  same_line_if_fits(ImGui::CalcTextSize(oracle_.text.c_str()).x, ImGui::GetFontSize() * 1.5f);
  fit_text_colored(oc, "%s", oracle_.text.c_str());
  tooltip_text("Checked live on every iteration of this run: svd_impute with eta <= 1 never raises the observed "
               "loss 1/2 ||Pi_Omega(Z - A)||^2; ALS's l(U, V) never rises after a half-step (V-sweep, U-sweep); "
               "SVT's Y_t is supported on Omega. A violation is marked red on the Curves tab. A live change of lambda or "
               "tau changes the objective itself: the oracle re-bases there (compares nothing across it) and the "
               "Curves tab marks it with a blue line labelled with the new value.");
  // The data: its description, then what it does not say already (m x n, observed %).
  std::string data = p.what;
  const std::string shape = std::to_string(p.m) + " x " + std::to_string(p.n);
  if (data.find(shape) == std::string::npos) data += ", m x n = " + shape;
  const double cells = static_cast<double>(p.m) * p.n;
  std::snprintf(line, sizeof line, "; |train| = %zu, |test| = %zu", p.train_row.size(), p.test_row.size());
  data += line;
  if (p.what.find('%') == std::string::npos) {
    std::snprintf(line, sizeof line, ", observed %.3g %%",
                  cells > 0 ? 100.0 * static_cast<double>(p.train_row.size() + p.test_row.size()) / cells : 0.0);
    data += line;
  }
  header_.push_back(data);
  ImGui::PushTextWrapPos(0.0f);  // wraps in a narrow window
  fit_text_disabled("%s", data.c_str());
  ImGui::PopTextWrapPos();
  tooltip_text("Omega: the training entries the method sees; the held-out entries (test_fraction of the observed "
               "ones) only score test_rmse. Every method works on the normalised Z = (X - mu) / s and is scored "
               "back in X's units.");
  if (!s.message.empty()) {
    header_.push_back(s.message);
    fit_text_colored(s.status == Status::Diverged || s.status == Status::Failed ? colour_vec(colors().error)
                                                                                   : readout_warn(),
                       "%s", s.message.c_str());
  }

  // The method's parameters, exactly as the parameter panel changes them.
  const float w = ImGui::GetFontSize() * 9;
  ImGui::SetNextItemWidth(w);
  int method = s.method;
  if (ImGui::Combo("method##completion", &method, kMethodNames, 4) && method != s.method)
    out.push_back(ViewIntent::set_param("method", method));
  tooltip_text("The completion algorithm; a change restarts the run on the same data and split.");
  if (s.method != static_cast<int>(Completion::Method::Svt)) {
    same_line_if_fits(labelled_width(w, "k##completion"));
    ImGui::SetNextItemWidth(w);
    int k = s.k;
    if (int_slider("k##completion", &k, 1, std::max(2, std::min(100, std::min(p.m, p.n))), 0, k_slider_) && k != s.k)
      out.push_back(ViewIntent::set_param("k", k));
    tooltip_text("Rank of the factorisation A = U V^T (restarts the run).");
  }
  const double lambda = ctx.values && ctx.values->count("lambda") ? ctx.values->at("lambda") : NAN;
  if ((s.method == static_cast<int>(Completion::Method::Als) || s.method == static_cast<int>(Completion::Method::Sgd)) &&
      std::isfinite(lambda)) {
    same_line_if_fits(labelled_width(w, "lambda##completion"));
    ImGui::SetNextItemWidth(w);
    double v = lambda;
    if (real_slider("lambda##completion", &v, 0.0, std::max(10.0, lambda), "%.3g", 0, real_slider_) && v != lambda)
      out.push_back(ViewIntent::set_param("lambda", v));
    tooltip_text("Ridge penalty lambda/2 (||U||^2 + ||V||^2), live: the next steps use it (l itself changes).");
  }
  if (s.method == static_cast<int>(Completion::Method::SvdImpute)) {
    same_line_if_fits(labelled_width(w, "eta##completion"));
    ImGui::SetNextItemWidth(w);
    double v = s.eta;
    if (real_slider("eta##completion", &v, 0.05, 2.0, "%.3g", 0, real_slider_) && v != s.eta)
      out.push_back(ViewIntent::set_param("eta", v));
    tooltip_text("A <- [A + eta Pi_Omega(Z - A)]_k, live; eta <= 1 never raises the observed loss.");
  }
  if (s.method == static_cast<int>(Completion::Method::Svt)) {
    same_line_if_fits(labelled_width(w, "tau##completion"));
    ImGui::SetNextItemWidth(w);
    double v = s.tau;
    const double hi = std::max(2.0 * s.tau, s.spectrum_before.empty() ? 1.0 : 1.2 * s.spectrum_before.front());
    if (real_slider("tau##completion", &v, 0.0, hi, "%.4g", 0, real_slider_) && v != s.tau)
      out.push_back(ViewIntent::set_param("tau", v));
    tooltip_text("The threshold of shrink_tau(Y) = U diag((sigma_i - tau)_+) V^T, live (normalised units). "
                 "0 in the parameter panel = Cai-Candes-Shen's 5 sqrt(m n) s_Z.");
  }
  // The compare hint on the same line: the long form when it fits, else the short one (never a line of its own).
  const char* hint = "(Run > Compare A/B, Ctrl+B: two methods side by side)";
  const float room = ImGui::GetContentRegionAvail().x - ImGui::GetItemRectMax().x + ImGui::GetCursorScreenPos().x -
                     ImGui::GetStyle().ItemSpacing.x;
  if (ImGui::CalcTextSize(hint).x > room) hint = "(Ctrl+B: A/B)";
  ImGui::SameLine();
  fit_text_disabled("%s", hint);
  tooltip_text("Compare A/B runs a second copy (B) on the same data and split; switch B's method and the "
               "held-out RMSE curves of both are overlaid in the metrics strip.");
}

void CompletionView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const CompletionSnapshot*>(&snap);
  if (!sp || !sp->problem || !sp->problem->data) {
    fit_text_disabled("No matrix yet: %s", snap.message.empty() ? "load ratings or a picture and reset"
                                                                   : snap.message.c_str());
    return;
  }
  const CompletionSnapshot& s = *sp;
  update_problem(s);
  update_estimate(s, ctx);
  draw_header(s, ctx, out);

  TabItem tabs[kNumTabs];
  for (int t = 0; t < kNumTabs; ++t) tabs[t] = {kTabNames[t], kTabHelp[t]};
  tab_ = static_cast<Tab>(tab_bar_with_keys("##completion_tabs", ctx, tabs, kNumTabs, static_cast<int>(tab_)));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Less the spacing the tab's last line and the group end take: nothing clipped at the bottom.
  const ImVec2 size(avail.x, std::max(min_plot_height(true) + ImGui::GetTextLineHeightWithSpacing() * 2,
                                      avail.y - 2 * ImGui::GetStyle().ItemSpacing.y));
  switch (tab_) {
    case Tab::Matrices: draw_matrices(s, size); break;
    case Tab::Spectrum: draw_spectrum(s, size); break;
    case Tab::Curves: draw_curves(s, ctx, size); break;
    case Tab::Embeddings: draw_embeddings(s, size); break;
  }
}

// One matrix panel (views/common/matrix_panel.h); returns true while the mouse is over a cell
// (the read-out is then set).
bool CompletionView::matrix_panel(const char* title, const char* help, const char* id, const float* values, int kind,
                                  const CompletionSnapshot& s, ImVec2 size) {
  const CompletionProblem& p = *s.problem;
  const ObservedMatrix& d = *p.data;
  const bool image = d.is_image();
  const float vmin = static_cast<float>(d.value_min), vmax = static_cast<float>(
                                                          d.value_max > d.value_min ? d.value_max : d.value_min + 1);
  MatrixPanelStyle style;
  style.col_axis = d.col_kind.c_str();
  style.row_axis = d.row_kind.c_str();
  style.top_down = true;  // row 0 at the top (the matrix as written): hover gives the row
  style.scale = kind == kMaskPanel ? nullptr : image ? "grey value" : "rating";
  style.categories = kind == kMaskPanel;
  style.empty = "computing the estimate ...";
  style.hover = true;
  // The picture's grid (every cell, or a subset of a huge matrix) spans the whole matrix.
  // Without a texture provider every cell is a quad: a large grid is subsampled further.
  const int pm = static_cast<int>(pic_rows_.size()), pn = static_cast<int>(pic_cols_.size());
  style.grid_m = pm;
  style.grid_n = pn;
  std::vector<float> sub;
  if (values && plot::GetTextureProvider() == nullptr && (pm > kNoTextureSide || pn > kNoTextureSide)) {
    sub = subsample_grid(values, pm, pn, kNoTextureSide, kNoTextureSide, &style.grid_m, &style.grid_n);
    values = sub.data();
  }
  const MatrixPanelHit hit = cilab::matrix_panel(title, help, id, values, p.m, p.n, image, vmin, vmax, size, style);
  if (kind == kEstimatePanel && hit.drawn) {
    est_min_ = hit.min;
    est_max_ = hit.max;
  }
  if (hit.row < 0) return false;
  hover_readout(s, hit.row, hit.col);
  return true;
}

void CompletionView::hover_readout(const CompletionSnapshot& s, int i, int j) {
  const CompletionProblem& p = *s.problem;
  const ObservedMatrix& d = *p.data;
  hover_lines_.clear();
  char line[256];
  std::string row = d.row_kind + " " + std::to_string(i);
  if (static_cast<size_t>(i) < d.row_ids.size()) row += " (id " + d.row_ids[static_cast<size_t>(i)] + ")";
  if (static_cast<size_t>(i) < d.row_group.size()) {
    const int g = d.row_group[static_cast<size_t>(i)];
    if (g >= 0 && static_cast<size_t>(g) < d.group_names.size())
      row += ", favourite genre " + d.group_names[static_cast<size_t>(g)];
  }
  std::string col = d.col_kind + " " + std::to_string(j);
  if (static_cast<size_t>(j) < d.col_ids.size()) col += " (id " + d.col_ids[static_cast<size_t>(j)] + ")";
  if (static_cast<size_t>(j) < d.col_group.size()) {
    const int g = d.col_group[static_cast<size_t>(j)];
    if (g >= 0 && static_cast<size_t>(g) < d.group_names.size()) col += ", genre " + d.group_names[static_cast<size_t>(g)];
  }
  hover_lines_.push_back(row);
  hover_lines_.push_back(col);
  const CellEntry c = cell_entry(p, mask_, i, j);
  if (c.kind == 0)
    std::snprintf(line, sizeof line, "observed (train): %s", readout_number(c.observed).c_str());
  else if (c.kind == 1)
    std::snprintf(line, sizeof line, "observed (held out): %s", readout_number(c.observed).c_str());
  else
    std::snprintf(line, sizeof line, "not observed");
  hover_lines_.push_back(line);
  std::snprintf(line, sizeof line, "estimate: %s", readout_number(s.predict(i, j)).c_str());
  hover_lines_.push_back(line);
  if (d.has_truth()) {
    std::snprintf(line, sizeof line, "truth: %s", readout_number(d.truth(i, j)).c_str());
    hover_lines_.push_back(line);
  }
  ImGui::BeginTooltip();
  for (const std::string& l : hover_lines_) fit_text_unformatted(l.c_str());
  ImGui::EndTooltip();
}

void CompletionView::draw_matrices(const CompletionSnapshot& s, ImVec2 size) {
  const CompletionProblem& p = *s.problem;
  const ObservedMatrix& d = *p.data;
  const bool truth = !truth_.empty();
  hover_lines_.clear();
  const int panels = truth ? 3 : 2;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  // The key of the mask under the panels, one line.
  const float key_h = ImGui::GetTextLineHeightWithSpacing();
  float cell_w = (size.x - spacing * static_cast<float>(panels - 1)) / static_cast<float>(panels);
  const float cell_h = std::max(min_plot_height(true), size.y - key_h);
  if (d.is_image())  // pictures: no wider than their height needs (+ the colour bar)
    cell_w = std::min(cell_w, (cell_h - ImGui::GetTextLineHeightWithSpacing()) * static_cast<float>(p.n) /
                                      static_cast<float>(std::max(1, p.m)) +
                                  ImGui::GetFontSize() * 5.0f);
  const ImVec2 psize(cell_w, cell_h);
  const char* unit = d.is_image() ? "grey values on the picture's range" : "ratings on the data's scale";
  char help[300];
  if (truth) {
    std::snprintf(help, sizeof help, "The complete matrix X the observed entries were taken from (%s).", unit);
    matrix_panel("truth X", help, "##cmp_truth", truth_.data(), kTruthPanel, s, psize);
    ImGui::SameLine();
  }
  char title[128];
  std::snprintf(title, sizeof title, "mask: %.3g%% observed", 100.0 * d.fraction());
  matrix_panel(title,
               "Which entries the method sees: training entries (Omega), held-out entries (scored by test_rmse "
               "only) and missing ones (the background).",
               "##cmp_mask", mask_.codes.data(), kMaskPanel, s,
               ImVec2(std::max(psize.x * 0.5f, psize.x - ImGui::GetFontSize() * 3.5f), psize.y));  // no colour bar
  ImGui::SameLine();
  std::snprintf(title, sizeof title, "estimate (rank %d)", static_cast<int>(s.metrics[Completion::kMetricRank]));
  std::snprintf(help, sizeof help,
                "The completed matrix x_hat_ij = mu_ij + s_ij (U V^T)_ij in the data's units (%s), every entry "
                "filled in.",
                unit);
  matrix_panel(title, help, "##cmp_est", est_.empty() ? nullptr : est_.data(), kEstimatePanel, s, psize);
  // The mask's key.
  swatch(plot::GetColormapColor(0, plot::Colormap::Categorical), "train (Omega)");
  ImGui::SameLine(0, ImGui::GetFontSize());
  swatch(plot::GetColormapColor(1, plot::Colormap::Categorical), "held out");
  ImGui::SameLine(0, ImGui::GetFontSize());
  swatch(colors().plot_bg, "missing");
  ImGui::SameLine(0, ImGui::GetFontSize());
  fit_text_disabled("hover a cell for its values (row 0 at the top)");
}

CILAB_REGISTER_VIEW(Completion, CompletionView);

}  // namespace cilab
