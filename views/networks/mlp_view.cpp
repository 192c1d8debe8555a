#include "views/common/curves.h"
#include "views/common/training_header.h"
#include "views/common/readout.h"
#include "views/networks/mlp_view.h"

#include "views/common/class_key.h"
#include "views/common/diverged_banner.h"
#include "views/plot/plot.h"
#include "views/common/point_edit.h"
#include "views/common/scatter_projection.h"
#include "views/common/tab_bar.h"
#include "views/common/theme.h"
#include "views/common/ui.h"
#include "views/common/view_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cilab {

std::shared_ptr<const MlpPictures> MlpView::compute_pictures(const PictureRequest& r) {
  return std::make_shared<const MlpPictures>(
      compute_mlp_pictures(*r.net, *r.problem, r.net_iteration, kGridRes, r.x_min, r.x_max, r.y_min, r.y_max));
}

void MlpView::on_reset() {
  job_.reset();
  pictures_.reset();
  pictured_net_.reset();
  colours_version_key_ = ~uint64_t(0);
  rgb_of_ = nullptr;
}

void MlpView::update_pictures(const MlpSnapshot& s, const ViewContext& ctx) {
  if (auto done = job_.collect()) pictures_ = std::move(done->result);
  if (!s.net || !s.problem || (s.problem->d != 1 && s.problem->d != 2) || !ctx.data) return;
  if (s.net == pictured_net_ || job_.busy()) return;
  const double now = ImGui::GetTime();
  if (job_.hold_back(now, pictures_ != nullptr)) return;
  PictureRequest r{s.net, s.problem, s.net_iteration};
  mlp_grid_bounds(*ctx.data, s.problem->d, &r.x_min, &r.x_max, &r.y_min, &r.y_max);
  pictured_net_ = s.net;
  if (!ctx.jobs) {  // tests without background jobs: compute here (small grids)
    pictures_ = job_.compute_here(r, now);
    return;
  }
  job_.submit(*ctx.jobs, std::move(r), now);
}

void MlpView::draw_controls(const Snapshot& snap, const ViewContext&) {
  const auto* s = dynamic_cast<const MlpSnapshot*>(&snap);
  if (!s || !s->problem) return;
  if (!s->problem->regression && s->problem->d == 2) {
    ImGui::Checkbox("confidence shading", &show_probability);
    tooltip_text("Decision regions: colour of argmax_k p(k | x), faded where the network is unsure "
                 "(alpha ~ max_k p(k | x)); off: argmax only.");
  }
  if (s->problem->n_test() > 0 && s->problem->d <= 2) {
    ImGui::Checkbox("show test rows", &show_test);
    tooltip_text("Test rows (held out by test_fraction) drawn as hollow squares; training rows as dots.");
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderInt("neurons per layer shown", &max_neurons, 4, 64);
  tooltip_text("How many neurons of each hidden layer the Neurons and Network tabs draw.");
}

void MlpView::draw_header(const MlpSnapshot& s, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  header_.clear();
  rewind_button_ = ImVec2(NAN, NAN);
  const MlpProblem& pr = *s.problem;
  char line[400];
  std::snprintf(line, sizeof line, "%s, epoch %d (batch %d of %d)", position_label(s, ctx.info, true).c_str(),
                s.epoch + (s.iteration > 0 && s.phase == 0 && s.batch_index + 1 == s.batches_per_epoch ? 0 : 1),
                s.iteration == 0 && s.phase == 0 ? 0 : s.batch_index + 1, s.batches_per_epoch);
  header_.push_back(line);
  fit_text_unformatted(line);
  ImGui::SameLine(0, ImGui::GetFontSize());
  std::snprintf(line, sizeof line, "%s, %zu weights", s.architecture.c_str(), s.num_params);
  header_.push_back(line);
  fit_text_disabled("%s", line);
  tooltip_text((pr.what + ". Network: " + s.architecture + ", then a Linear output layer " +
                (pr.regression ? std::string("(MSE loss).") : std::string("(softmax cross-entropy loss)."))).c_str());
  // The step's numbers, and what the sub-step just did.
  const char* what = s.phase == 1   ? "forward done: outputs and loss of the batch computed"
                     : s.phase == 2 ? "backward done: dL/dtheta by the chain rule, layer by layer"
                                    : nullptr;
  const double loss = s.metrics[Mlp::kMetricLoss];
  const double test = s.metrics[Mlp::kMetricTestScore];
  std::snprintf(line, sizeof line, "batch loss %s   test %s %s   test loss %s   lr %s", readout_number(loss).c_str(),
                pr.regression ? "R^2" : "accuracy", readout_number(test).c_str(), readout_number(s.metrics[Mlp::kMetricTestLoss]).c_str(),
                readout_number(s.lr, "%.3g").c_str());
  header_.push_back(line);
  fit_text_unformatted(line);
  tooltip_text(pr.regression
                   ? "batch loss: MSE of this step's mini-batch. Test: R^2 = 1 - SS_res / SS_tot and MSE on the test "
                     "set, evaluated at the end of each epoch (eval mode)."
                   : "batch loss: (1/B) sum -log softmax(z_i)[y_i] of this step's mini-batch. Test accuracy and loss "
                     "on the test set, evaluated at the end of each epoch (eval mode).");
  // `what` on its own line: the header row above is full at 1280 px.
  rewind_button_ = draw_training_status(s, ctx, what, Mlp::kMetricLoss, {{"lr", running_value(ctx, "lr", s.lr)}},
                                        header_, out);
}

void MlpView::draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) {
  const auto* sp = dynamic_cast<const MlpSnapshot*>(&snap);
  if (!sp || !sp->problem) {
    draw_no_model_yet(snap, "network");
    return;
  }
  const MlpSnapshot& s = *sp;
  update_pictures(s, ctx);
  draw_header(s, ctx, out);

  const TrainingColumns cols = training_columns(0.32f);
  const float main_w = cols.main_w;
  ImGui::BeginGroup();
  // Keys 1-4 choose a tab (the lecturer's remote has no mouse).
  const bool images = s.problem->image_h > 0;
  const TabItem tabs[] = {
      {"Model", "The model's output over the data: decision regions, fitted curve or confusion matrix"},
      {"Neurons", "What each hidden neuron computes"},
      {"Network", "The network drawn as a graph of weights"},
      {"Errors", "Misclassified test images"}};
  tab_ = static_cast<Tab>(tab_bar_with_keys("##mlp_tabs", ctx, tabs, images ? 4 : 3, static_cast<int>(tab_)));
  if (tab_ == Tab::Errors && !images) tab_ = Tab::Model;
  const ImVec2 size(main_w, std::max(min_plot_height(), ImGui::GetContentRegionAvail().y));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + main_w);  // captions wrap inside the column
  switch (tab_) {
    case Tab::Model: draw_model(s, ctx, size, out); break;
    case Tab::Neurons: draw_neurons(s, size); break;
    case Tab::Network: draw_network(s, size); break;
    case Tab::Errors: draw_errors(s, size); break;
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::SameLine();
  draw_curves(s, ctx, training_side_size(cols));
}

void MlpView::draw_model(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out) {
  const MlpProblem& pr = *s.problem;
  if (pr.d == 2 && !pr.regression && ctx.data && ctx.data->cols() == 2) {
    draw_boundary(s, ctx, size, out);
  } else if (pr.d == 1 && pr.regression && ctx.data) {
    draw_curve(s, ctx, size, out);
  } else if (!pr.regression) {
    draw_confusion(s, size);
  } else {
    // Regression on several features: predicted against true on the evaluated rows.
    if (plot::BeginPlot("predicted vs true##mlp", size)) {
      plot::SetupAxes(("true " + pr.target_name).c_str(), ("predicted " + pr.target_name).c_str());
      if (s.evaluation && !s.evaluation->values.empty()) {
        const MlpEvaluation& ev = *s.evaluation;
        const nn::Mat<float>& t = ev.on_test ? pr.t_test : pr.t_train;
        std::vector<float> xs(ev.values.size());
        for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(pr.target_value(t(static_cast<Eigen::Index>(i), 0)));
        plot::PlotScatter(ev.on_test ? "test rows" : "training rows", xs.data(), ev.values.data(),
                          static_cast<int>(xs.size()));
        const auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
        const double line[2] = {*lo, *hi};
        plot::Spec sp;
        sp.line_style = plot::LineStyle::Dashed;
        plot::PlotLine("y = x (perfect)", line, line, 2, sp);
      }
      plot::EndPlot();
    }
  }
}

void MlpView::draw_boundary(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out) {
  const MlpProblem& pr = *s.problem;
  const Dataset& data = *ctx.data;
  plot::PlotFlags flags = plot::PlotFlags_NoTitle | plot::PlotFlags_EqualAspect;
  if (ctx.edit_points) flags |= plot::PlotFlags_NoMenus;
  if (!plot::BeginPlot("decision regions##mlp", size, flags)) return;
  plot::SetupAxes(pr.feature_names.size() > 0 ? pr.feature_names[0].c_str() : "x0",
                  pr.feature_names.size() > 1 ? pr.feature_names[1].c_str() : "x1");
  // Decision regions: class colour of argmax p, alpha by confidence.
  if (pictures_ && pictures_->d == 2 && pictures_->outputs == pr.outputs) {
    const MlpPictures& pic = *pictures_;
    if (rgb_of_ != pictures_.get() || rgb_probability_ != show_probability ||
        rgb_theme_ != theme_serial()) {
      const ImVec4 bg =
          colour_vec(colors().plot_bg);  // the regions fade into the plot's background
      const int n = pic.res * pic.res;
      rgb_.assign(static_cast<size_t>(n) * 3, 1.0f);
      for (int i = 0; i < n; ++i) {
        const float* p = &pic.output[static_cast<size_t>(i) * pic.outputs];
        const int k = static_cast<int>(std::max_element(p, p + pic.outputs) - p);
        const ImVec4 c = ImGui::ColorConvertU32ToFloat4(class_colour(k));
        // Confidence shading: 1/K (unsure) -> white-ish, 1 -> the class colour at 55 %.
        const float conf = show_probability ? (p[k] - 1.0f / pic.outputs) / (1.0f - 1.0f / pic.outputs) : 1.0f;
        const float a = 0.12f + 0.43f * std::clamp(conf, 0.0f, 1.0f);
        rgb_[static_cast<size_t>(i) * 3 + 0] = bg.x + (c.x - bg.x) * a;
        rgb_[static_cast<size_t>(i) * 3 + 1] = bg.y + (c.y - bg.y) * a;
        rgb_[static_cast<size_t>(i) * 3 + 2] = bg.z + (c.z - bg.z) * a;
      }
      rgb_of_ = pictures_.get();
      rgb_probability_ = show_probability;
      rgb_theme_ = theme_serial();
    }
    // A background over the data's square: the view follows the data, not the picture's margin.
    plot::Spec bg;
    bg.flags = plot::ItemFlags_NoFit;
    plot::PlotImageRGB("##regions", rgb_.data(), pic.res, pic.res, plot::Point{pic.x_min, pic.y_min},
                       plot::Point{pic.x_max, pic.y_max}, bg);
  }
  // The data: training rows as dots, test rows as hollow squares, the current batch ringed.
  const int n = data.rows();
  std::vector<float> xs(static_cast<size_t>(n)), ys(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    xs[static_cast<size_t>(i)] = static_cast<float>(data.x(i, 0));
    ys[static_cast<size_t>(i)] = static_cast<float>(data.x(i, 1));
  }
  for (int c = 0; c < pr.outputs; ++c) {
    plot::Spec leg;
    leg.color = class_colour(c);
    leg.marker = plot::Marker::Circle;
    plot::PlotLegendEntry(pr.class_names[static_cast<size_t>(c)].c_str(), leg);
  }
  auto draw_rows = [&](const std::vector<int>& rows, const char* id, plot::Marker marker, float size_px, bool hollow) {
    std::vector<float> rx, ry;
    std::vector<ImU32> col;
    for (int r : rows) {
      if (r < 0 || r >= n) continue;
      rx.push_back(xs[static_cast<size_t>(r)]);
      ry.push_back(ys[static_cast<size_t>(r)]);
      const int l = data.labels.empty() ? -1 : data.labels[static_cast<size_t>(r)];
      col.push_back(l >= 0 ? (hollow ? with_alpha(class_colour(l), 140) : class_colour(l))
                           : with_alpha(colors().neutral, 255));
    }
    plot::Spec sp;
    sp.marker = marker;
    sp.marker_size = size_px;
    sp.colors = col.data();
    sp.flags = plot::ItemFlags_NoLegend;
    plot::PlotScatter(id, rx.data(), ry.data(), static_cast<int>(rx.size()), sp);
  };
  const float dot = n > 3000 ? 2.0f : 3.5f;
  draw_rows(pr.train_rows, "##train", plot::Marker::Circle, dot, false);
  if (show_test) draw_rows(pr.test_rows, "##test", kLabelMarker, dot + 0.5f, true);
  if (s.batch && s.phase != 0) {
    std::vector<int> rows;
    for (int b : *s.batch) rows.push_back(pr.train_rows[static_cast<size_t>(b)]);
    std::vector<float> rx, ry;
    for (int r : rows) {
      rx.push_back(xs[static_cast<size_t>(r)]);
      ry.push_back(ys[static_cast<size_t>(r)]);
    }
    plot::Spec ring;
    ring.marker = plot::Marker::Circle;
    ring.marker_size = dot + 3.0f;
    ring.color = colors().selection;
    ring.fill_alpha = 0.0f;
    plot::PlotScatter("this batch", rx.data(), ry.data(), static_cast<int>(rx.size()), ring);
  }
  // Clicks add (left) / remove (right) points in the "click to add" mode or with Shift.
  if (plot::IsPlotHovered()) {
    const plot::Point m = plot::GetPlotMousePos();
    if (!point_edit_click(ctx, m, out) && pictures_ && pictures_->d == 2) {
      // Tooltip: the class probabilities at the mouse.
      const MlpPictures& pic = *pictures_;
      const int c = static_cast<int>((m.x - pic.x_min) / (pic.x_max - pic.x_min) * pic.res);
      const int r = static_cast<int>((pic.y_max - m.y) / (pic.y_max - pic.y_min) * pic.res);
      if (c >= 0 && c < pic.res && r >= 0 && r < pic.res && !ImGui::IsMouseDown(0)) {
        ImGui::BeginTooltip();
        fit_text("p(class | x) at (%.3g, %.3g), network of iteration %d:", m.x, m.y, pic.net_iteration);
        for (int k = 0; k < pic.outputs; ++k)
          fit_text_colored(legible(class_colour(k)), "  %s: %.3f",
                             pr.class_names[static_cast<size_t>(k)].c_str(),
                             pic.output[static_cast<size_t>(r * pic.res + c) * pic.outputs + k]);
        fit_text_disabled("softmax(z)_k = e^{z_k} / sum_j e^{z_j}");
        ImGui::EndTooltip();
      }
    }
  }
  plot::EndPlot();
}

void MlpView::draw_curve(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size, std::vector<ViewIntent>& out) {
  const MlpProblem& pr = *s.problem;
  const Dataset& data = *ctx.data;
  if (!plot::BeginPlot("fitted curve##mlp", size, plot::PlotFlags_NoTitle | (ctx.edit_points ? plot::PlotFlags_NoMenus : 0))) return;
  plot::SetupAxes(pr.feature_names.empty() ? "x" : pr.feature_names[0].c_str(), pr.target_name.c_str());
  auto rows_xy = [&](const std::vector<int>& rows, std::vector<float>& x, std::vector<float>& y) {
    for (int r : rows) {
      if (r < 0 || r >= data.rows() || !data.has_target()) continue;
      x.push_back(static_cast<float>(data.x(r, 0)));
      y.push_back(static_cast<float>(data.target[static_cast<size_t>(r)]));
    }
  };
  std::vector<float> tx, ty, sx, sy;
  rows_xy(pr.train_rows, tx, ty);
  plot::Spec dots;
  dots.marker_size = 3.0f;
  dots.color = class_colour(0);
  plot::PlotScatter("training rows", tx.data(), ty.data(), static_cast<int>(tx.size()), dots);
  if (show_test) {
    rows_xy(pr.test_rows, sx, sy);
    plot::Spec sq;
    sq.marker = kLabelMarker;
    sq.marker_size = 3.0f;
    sq.color = class_colour(1);
    plot::PlotScatter("test rows", sx.data(), sy.data(), static_cast<int>(sx.size()), sq);
  }
  if (pictures_ && pictures_->d == 1 && pictures_->res > 0) {
    const MlpPictures& pic = *pictures_;
    std::vector<double> gx(static_cast<size_t>(pic.res)), gy(static_cast<size_t>(pic.res));
    for (int i = 0; i < pic.res; ++i) {
      gx[static_cast<size_t>(i)] = pic.x_min + (pic.x_max - pic.x_min) * (i + 0.5) / pic.res;
      gy[static_cast<size_t>(i)] = pic.output[static_cast<size_t>(i)];
    }
    plot::Spec line;
    line.color = colors().text;
    line.line_weight = 2.5f;
    line.flags = plot::ItemFlags_NoFit;
    plot::PlotLine("network f(x)", gx.data(), gy.data(), pic.res, line);
  }
  // Clicks add (left) / remove (right) points (x, y) in the "click to add" mode or with Shift.
  if (plot::IsPlotHovered()) point_edit_click(ctx, plot::GetPlotMousePos(), out);
  if (s.batch && s.phase != 0) {
    std::vector<int> rows;
    for (int b : *s.batch) rows.push_back(pr.train_rows[static_cast<size_t>(b)]);
    std::vector<float> bx, by;
    rows_xy(rows, bx, by);
    plot::Spec ring;
    ring.marker_size = 6.0f;
    ring.color = colors().selection;
    ring.fill_alpha = 0.0f;
    plot::PlotScatter("this batch", bx.data(), by.data(), static_cast<int>(bx.size()), ring);
  }
  plot::EndPlot();
}

void MlpView::draw_confusion(const MlpSnapshot& s, ImVec2 size) {
  const MlpProblem& pr = *s.problem;
  if (!s.evaluation || s.evaluation->confusion.empty()) {
    fit_text_disabled("The confusion matrix appears after the first evaluation.");
    return;
  }
  const MlpEvaluation& ev = *s.evaluation;
  const int k = pr.outputs;
  // Row-normalised: the share of each true class predicted as each class.
  std::vector<double> share(static_cast<size_t>(k * k), 0.0);
  for (int t = 0; t < k; ++t) {
    double row = 0;
    for (int p = 0; p < k; ++p) row += ev.confusion[static_cast<size_t>(t * k + p)];
    for (int p = 0; p < k; ++p)
      share[static_cast<size_t>(t * k + p)] = row > 0 ? ev.confusion[static_cast<size_t>(t * k + p)] / row : 0.0;
  }
  char title[160];
  std::snprintf(title, sizeof title, "Confusion matrix, %s set after epoch %d (rows: true class, columns: predicted)",
                ev.on_test ? (pr.own_test_set ? "t10k test" : "test") : "training", ev.epoch);
  fit_text_unformatted(title);
  tooltip_text("Cell (i, j): rows of true class i predicted as class j, as a share of class i's rows (the number "
               "is the count). The diagonal is each class's recall.");
  // The recall key beside the plot takes the width of its longest line; the plot keeps the rest.
  float key_w = ImGui::CalcTextSize("class (recall)").x;
  for (int c = 0; c < k; ++c) {
    char line[160];
    std::snprintf(line, sizeof line, "%d %s (0.00)", c, pr.class_names[static_cast<size_t>(c)].c_str());
    key_w = std::max(key_w, ImGui::CalcTextSize(line).x);
  }
  key_w += ImGui::GetStyle().ItemSpacing.x;
  // Narrow (a Compare half, a large UI scale): the key goes under the matrix as wrapped text, and
  // the matrix takes the width.
  std::string key_text = "classes:";
  for (int c = 0; c < k; ++c)
    key_text += std::string(c ? ", " : " ") + std::to_string(c) + " " + pr.class_names[static_cast<size_t>(c)];
  const bool key_below = size.x - key_w < ImGui::GetFontSize() * 18;
  const float below_h = key_below ? ImGui::CalcTextSize(key_text.c_str(), nullptr, false, size.x).y +
                                        ImGui::GetStyle().ItemSpacing.y
                                  : 0.0f;
  const ImVec2 psize(std::max(key_below ? size.x : size.x - key_w, min_plot_height()),
                     std::max(min_plot_height(), size.y - ImGui::GetFrameHeightWithSpacing() - below_h));
  if (plot::BeginPlot("confusion##mlp", psize, plot::PlotFlags_NoTitle | plot::PlotFlags_NoLegend | plot::PlotFlags_EqualAspect)) {
    plot::SetupAxes("predicted class", "true class");
    plot::SetupAxesLimits(0, k, 0, k, plot::Cond::Always);
    // One tick per cell, at its centre, named by its class; class 0's row at the top (reading order).
    // Columns take the names when the widest fits a cell, else the class numbers (the key beside
    // the plot names them).
    std::vector<double> col_at(static_cast<size_t>(k)), row_at(static_cast<size_t>(k));
    std::vector<std::string> numbers(static_cast<size_t>(k));
    std::vector<const char*> names(static_cast<size_t>(k)), cols(static_cast<size_t>(k));
    float widest = 0.0f;
    for (int c = 0; c < k; ++c) {
      col_at[static_cast<size_t>(c)] = c + 0.5;
      row_at[static_cast<size_t>(c)] = k - c - 0.5;
      numbers[static_cast<size_t>(c)] = std::to_string(c);
      names[static_cast<size_t>(c)] = pr.class_names[static_cast<size_t>(c)].c_str();
      widest = std::max(widest, ImGui::CalcTextSize(names[static_cast<size_t>(c)]).x);
    }
    const bool named_cols = widest + ImGui::GetFontSize() < psize.x * 0.7f / static_cast<float>(k);
    // Rows take the names while they leave the matrix most of the width, else the numbers too.
    const bool named_rows = widest < psize.x * 0.22f;
    std::vector<const char*> rows(static_cast<size_t>(k));
    for (int c = 0; c < k; ++c) {
      cols[static_cast<size_t>(c)] = named_cols ? names[static_cast<size_t>(c)] : numbers[static_cast<size_t>(c)].c_str();
      rows[static_cast<size_t>(c)] = named_rows ? names[static_cast<size_t>(c)] : numbers[static_cast<size_t>(c)].c_str();
    }
    plot::SetupAxisTicks(plot::AxisId::X, col_at.data(), k, cols.data());
    plot::SetupAxisTicks(plot::AxisId::Y, row_at.data(), k, rows.data());
    // The colour bar's title only where it leaves the matrix room (its tooltip says the same).
    plot::SetupColorBar(psize.x > ImGui::GetFontSize() * 24 ? "share of the true class" : "##share", 0.0, 1.0,
                        plot::Colormap::Viridis);
    plot::PlotHeatmap("##cm", share.data(), k, k, 0.0, 1.0, plot::Point{0, 0}, plot::Point{double(k), double(k)});
    // Counts in the cells when they fit (about 4 digits per cell).
    if (k <= 12 && psize.x / (k + 3) > ImGui::CalcTextSize("0000").x) {
      for (int t = 0; t < k; ++t)
        for (int p = 0; p < k; ++p) {
          char b[16];
          std::snprintf(b, sizeof b, "%d", ev.confusion[static_cast<size_t>(t * k + p)]);
          const double v = share[static_cast<size_t>(t * k + p)];
          // on the viridis cells: black on the bright end, white on the dark end (any theme)
          plot::PlotText(b, p + 0.5, k - t - 0.5, ImVec2(0, 0), v > 0.6 ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255));
        }
    }
    plot::EndPlot();
  }
  if (key_below) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
    fit_text_unformatted(key_text.c_str());
    ImGui::PopTextWrapPos();
    std::string recall = "The classes by number (the matrix's ticks). Recall (the diagonal cell of each row):";
    for (int c = 0; c < k; ++c) {
      char r[160];
      std::snprintf(r, sizeof r, "\n%d %s: %.2f", c, pr.class_names[static_cast<size_t>(c)].c_str(),
                    share[static_cast<size_t>(c * k + c)]);
      recall += r;
    }
    tooltip_text(recall.c_str());
    return;
  }
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(-1.0f);  // each line whole (the key is as wide as its longest line)
  fit_text_disabled("class (recall)");
  for (int c = 0; c < k; ++c) {
    const double recall = share[static_cast<size_t>(c * k + c)];
    fit_text("%d %s (%.2f)", c, pr.class_names[static_cast<size_t>(c)].c_str(), recall);
  }
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

void MlpView::draw_curves(const MlpSnapshot& s, const ViewContext& ctx, ImVec2 size) {
  const MlpProblem& pr = *s.problem;
  ImGui::BeginGroup();
  // One colour key for both plots, above them: their legends would cover the curves of this narrow
  // column (a key tab at 150 %); train and test keep their colours in both plots.
  const ImU32 train = plot::GetColormapColor(1), test = plot::GetColormapColor(0);
  const float key_top = ImGui::GetCursorPosY();
  std::vector<ColourMeaning> key = {{with_alpha(colors().neutral, 140), "every batch"}, {train, "train"}};
  if (pr.n_test() > 0) key.push_back({test, "test"});
  colour_key(key);
  tooltip_text("Every batch: each step's mini-batch loss (grey, loss plot only). Train: per epoch, as the weights "
               "moved (train mode). Test: the held-out rows at each epoch's end (eval mode).");
  const float key_h = ImGui::GetCursorPosY() - key_top;
  const float h = std::max(min_plot_height(true), (size.y - key_h - ImGui::GetStyle().ItemSpacing.y) / 2);
  const std::vector<MlpEpochRow>& rows = *s.epochs;
  std::vector<double> ep, trl, tel, trs, tes;
  for (const MlpEpochRow& r : rows) {
    ep.push_back(r.epoch);
    trl.push_back(r.train_loss);
    tel.push_back(r.test_loss);
    trs.push_back(r.train_score);
    tes.push_back(r.test_score);
  }
  const int n = static_cast<int>(ep.size());
  const double bpe = std::max(1, s.batches_per_epoch);
  if (plot::BeginPlot("Loss per epoch##mlp", ImVec2(size.x, h), plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("epoch", pr.regression ? "MSE" : "cross-entropy", plot::AxisFlags_AutoFit,
                    plot::AxisFlags_LogScale | plot::AxisFlags_AutoFit);
    // The mini-batch losses of every step (x = iteration / batches per epoch), thinned to ~600 points.
    if (ctx.metric_history && ctx.metric_history->size() > 1) {
      std::vector<double> bx, by;
      batch_series(*ctx.metric_history, Mlp::kMetricLoss, s.iteration, bpe, bx, by);  // never past the iteration shown
      plot::Spec faint;
      faint.color = with_alpha(colors().neutral, 140);
      faint.line_weight = 1.0f;
      plot::PlotLine("batch", bx.data(), by.data(), static_cast<int>(bx.size()), faint);
    }
    plot::Spec m;
    m.marker = plot::Marker::Circle;
    m.color = train;
    plot::PlotLine("train", ep.data(), trl.data(), n, m);
    m.color = test;
    if (pr.n_test() > 0) plot::PlotLine("test", ep.data(), tel.data(), n, m);
    plot::EndPlot();
  }
  tooltip_text("Train: the mean mini-batch loss over each epoch (train mode, as the weights moved; epoch 0: the "
               "initial network). Test: the loss on the held-out rows at each epoch's end (eval mode). Grey: every "
               "step's mini-batch loss.");
  if (plot::BeginPlot(pr.regression ? "R^2 per epoch##mlp" : "Accuracy per epoch##mlp", ImVec2(size.x, h),
                      plot::PlotFlags_NoLegend)) {
    plot::SetupAxes("epoch", pr.regression ? "R^2" : "accuracy", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
    plot::Spec m;
    m.marker = plot::Marker::Circle;
    m.color = train;
    plot::PlotLine("train", ep.data(), trs.data(), n, m);
    m.color = test;
    if (pr.n_test() > 0) plot::PlotLine("test", ep.data(), tes.data(), n, m);
    plot::EndPlot();
  }
  tooltip_text(pr.regression ? "R^2 = 1 - sum (y - f(x))^2 / sum (y - mean y)^2: 1 is a perfect fit, 0 the mean's."
                             : "Accuracy: share of rows whose argmax_k p(k | x) is the true class. Train: as each "
                               "batch was trained (train mode); test: at the epoch's end (eval mode).");
  ImGui::EndGroup();
}

CILAB_REGISTER_VIEW(Mlp, MlpView);

}  // namespace cilab
