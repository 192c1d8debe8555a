// The completion view, drawn with real ImGui frames (no renderer) over snapshots of real runs:
// every method on synthetic ratings, a picture with holes, the tabs by key, the hover read-out,
// the estimate job; and its ImGui-free pieces (the mask, rank(shrink_tau), the oracles).
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "tests/support/view_fixture.h"
#include "algorithms/completion/completion.h"
#include "algorithms/core/observed_matrix.h"
#include "algorithms/data/datasets.h"
#include "views/completion/completion_pictures.h"
#include "views/completion/completion_view.h"
#include "views/common/jobs.h"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

using namespace cilab;

namespace {

const char* const kMethods[] = {"svd_impute", "als", "sgd", "svt"};

// The module as the runner runs it (ViewFixture), seed 1.
struct Fixture : test_support::ViewFixture<Completion> {
  Fixture(const std::string& spec, const std::string& method, int steps, int k = 3)
      : ViewFixture(make_dataset(spec), {"method=" + method, "k=" + std::to_string(k)}, 1) {
    run(steps);
  }
  // The shell's context, with these keys pressed.
  ViewContext context(const std::vector<int>* pressed = nullptr) {
    ViewContext ctx = ViewFixture::context();
    ctx.keys = pressed;
    return ctx;
  }
};

const std::string kRatings = "ratings:users=60,items=80,observed=1500,rank=3,noise=0.3,seed=4";

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// Draws every tab (keys 1-4) and returns the text of each.
std::vector<std::string> all_tabs(Fixture& f, CompletionView& view, ImGuiHeadless& ui) {
  std::vector<std::string> texts;
  std::vector<ViewIntent> out;
  for (int t = 0; t < CompletionView::kNumTabs; ++t) {
    const std::vector<int> keys = {'1' + t};
    ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(&keys), out); });
    CHECK(static_cast<int>(view.tab()) == t);
    texts.push_back(frame_text(ui, [&] { view.draw(*f.mod.snapshot(), f.context(), out); }));
  }
  CHECK(out.empty());  // drawing alone asks for nothing
  return texts;
}

}  // namespace

TEST_CASE("completion view: every method on ratings draws its tabs, header and oracle") {
  for (const char* method : kMethods) {
    const std::string name = method;
    CAPTURE(name);
    Fixture f(kRatings, method, 4);
    ImGuiHeadless ui;
    CompletionView view;
    const std::vector<std::string> t = all_tabs(f, view, ui);
    // The header: position, method, data, sizes, oracle.
    CHECK(has(t[0], std::string(method)));
    CHECK(has(t[0], "60 x 80"));
    CHECK(has(t[0], "|train| = "));
    CHECK(has(t[0], "observed"));
    CHECK(has(t[0], "Compare A/B"));
    // Matrices: synthetic ratings have a truth, so three panels and the mask's key.
    CHECK(has(t[0], "truth X"));
    CHECK(has(t[0], "mask:"));
    CHECK(has(t[0], "estimate (rank"));
    CHECK(has(t[0], "held out"));
    CHECK(view.estimate_serial() == f.mod.snapshot()->serial.value);
    // Spectrum, curves, embeddings.
    CHECK(has(t[1], "singular values"));
    CHECK(has(t[1], std::string(method) == "svt" ? "tau = " : "k = 3"));
    if (std::string(method) == "svt") CHECK(has(t[1], "rank(shrink_tau"));
    CHECK(has(t[2], "RMSE"));
    CHECK((has(t[2], "oracle") || has(t[2], "no monotone oracle")));
    // The embeddings: the first two of k = 3 columns; svt's iterate has as many columns as
    // singular values above tau, one here after 4 steps.
    const auto snap = f.mod.completion_snapshot();
    const int cols = static_cast<int>(snap->estimate->item_factors.cols());
    if (name == "svt") {
      CHECK(cols == static_cast<int>(snap->metrics[Completion::kMetricRank]));
      if (cols < 2) CHECK(has(t[3], "the iterate has rank " + std::to_string(cols) + " so far"));
    } else {
      CHECK(has(t[3], "columns 0 and 1 of the 3 factor columns"));
      // The synthetic genres are the class key.
      CHECK(has(t[3], snap->problem->data->group_names.at(0)));
    }
    // The oracle holds on a correct run (sgd has none).
    const bool oracle = std::string(method) != "sgd";
    CHECK(view.header().size() >= 3);
    CHECK(has(view.header()[1], oracle ? "holds" : "no monotone oracle"));
  }
}

TEST_CASE("completion view: a picture with holes is drawn as grey images, no genres") {
  // A 48 x 40 picture (its complete matrix hidden 60 % by the module).
  auto d = std::make_shared<Dataset>();
  d->image_h = 40;
  d->image_w = 48;
  d->x.resize(1, 40 * 48);
  for (int i = 0; i < 40; ++i)
    for (int j = 0; j < 48; ++j) d->x(0, i * 48 + j) = 0.5 + 0.4 * std::sin(0.2 * i) * std::cos(0.15 * j);
  d->name = "picture";
  Completion mod;
  ParamValues v = default_values(mod.params());
  v["method"] = parse_value(*find_param(mod.params(), "method"), "svt");
  v["missing"] = 0.6;
  mod.reset(d, v, 2);
  std::vector<std::vector<double>> hist{mod.snapshot()->metrics};
  for (int i = 0; i < 3; ++i) {
    mod.step();
    hist.push_back(mod.snapshot()->metrics);
  }
  const auto snap = mod.completion_snapshot();
  REQUIRE(snap->problem->data->is_image());
  ViewContext ctx;
  ctx.data = d.get();
  ctx.info = &mod.info();
  ctx.metric_history = &hist;
  ctx.values = &v;
  ImGuiHeadless ui;
  CompletionView view;
  std::vector<ViewIntent> out;
  const FrameStats s = ui.frame_in_window([&] { view.draw(*snap, ctx, out); });
  // Three 40 x 48 panels drawn as cells (no texture provider).
  CHECK(s.vertices > 3 * 40 * 48 * 4 / 2);
  const std::string text = frame_text(ui, [&] { view.draw(*snap, ctx, out); });
  CHECK(has(text, "40 x 48"));
  CHECK(has(text, "Y_t stored on Omega"));
  CHECK(has(text, "grey value"));
  CHECK(out.empty());
}

TEST_CASE("completion view: hovering a cell of the estimate reads out observed, estimate and truth") {
  Fixture f(kRatings, "als", 3);
  ImGuiHeadless ui;
  CompletionView view;
  std::vector<ViewIntent> out;
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  const ImVec2 a = view.estimate_min(), b = view.estimate_max();
  REQUIRE(b.x > a.x);
  REQUIRE(b.y > a.y);
  // The top-left cell: row 0, column 0 (row 0 is drawn at the top).
  const float cw = (b.x - a.x) / 80.0f, ch = (b.y - a.y) / 60.0f;
  ui.mouse_move(a.x + 0.5f * cw, a.y + 0.5f * ch);
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  const std::vector<std::string>& lines = view.hover_lines();
  REQUIRE(lines.size() == 5);
  CHECK(has(lines[0], "user 0"));
  CHECK(has(lines[0], "favourite genre"));
  CHECK(has(lines[1], "item 0"));
  CHECK(has(lines[1], ", genre "));
  const auto snap = f.mod.completion_snapshot();
  const CompletionMask mask = completion_mask(*snap->problem);
  const CellEntry c = cell_entry(*snap->problem, mask, 0, 0);
  CHECK(has(lines[2], c.kind == 0 ? "observed (train)" : c.kind == 1 ? "observed (held out)" : "not observed"));
  char want[64];
  std::snprintf(want, sizeof want, "estimate: %.4g", snap->predict(0, 0));
  CHECK(lines[3] == want);
  std::snprintf(want, sizeof want, "truth: %.4g", snap->problem->data->truth(0, 0));
  CHECK(lines[4] == want);
}

TEST_CASE("completion view: the estimate picture follows the snapshot, through a job for large matrices") {
  // Small: computed on the UI thread when the snapshot changes. Large (> kInlineCells cells): by a
  // background job (inline here), whose result is the snapshot's dense estimate.
  for (const std::string& spec : {kRatings, std::string("ratings:users=560,items=560,observed=20000,rank=3,seed=2")}) {
    CAPTURE(spec);
    Fixture f(spec, "svd_impute", 2);
    ImGuiHeadless ui;
    CompletionView view;
    std::vector<ViewIntent> out;
    BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
    // On the Spectrum tab: the estimate is kept up to date whatever the tab (no texture provider
    // here, so the matrices are not drawn cell by cell).
    const std::vector<int> key2 = {'2'};
    ViewContext ctx = f.context(&key2);
    ctx.jobs = &jobs;
    ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), ctx, out); });
    ctx.keys = nullptr;
    CHECK(view.tab() == CompletionView::Tab::Spectrum);
    ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), ctx, out); });  // collects the job
    CHECK(view.estimate_serial() == f.mod.snapshot()->serial.value);
    CHECK(view.estimate_picture() == f.mod.completion_snapshot()->dense_estimate());
    f.mod.step();
    f.history.push_back(f.mod.snapshot()->metrics);
    ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), ctx, out); });
    ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), ctx, out); });
    const auto snap = f.mod.completion_snapshot();
    const size_t cells = static_cast<size_t>(snap->problem->m) * static_cast<size_t>(snap->problem->n);
    // A large matrix waits up to 1 / kEstimateHz after the last submit: at most one snapshot behind.
    if (cells <= CompletionView::kInlineCells) CHECK(view.estimate_serial() == snap->serial.value);
    CHECK(view.estimate_serial() != 0);
    CHECK(out.empty());
  }
}

TEST_CASE("completion view: k's + button sends SetParam k, as the parameter panel does, and the module takes it") {
  Fixture f(kRatings, "als", 1);
  ImGuiHeadless ui;
  CompletionView view;
  std::vector<ViewIntent> out;
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  const SliderEditState& ks = view.k_slider();
  REQUIRE(ks.plus_x > 0);
  ui.mouse_move(ks.plus_x, ks.plus_y);
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  ui.mouse_button(0, true);
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  ui.mouse_button(0, false);
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  REQUIRE_FALSE(out.empty());
  CHECK(out.back().kind == ViewIntent::Kind::SetParam);
  CHECK(out.back().param == "k");
  CHECK(out.back().value == 4.0);
  // The module accepts it: a restart with k = 4 has 4 factor columns.
  ParamValues v = f.values;
  v[out.back().param] = out.back().value;
  Completion again;
  again.reset(f.data, v, 1);
  again.step();
  CHECK(again.completion_snapshot()->estimate->item_factors.cols() == 4);
}

TEST_CASE("completion view: a matrix above max_picture_cells is pictured on an even subset, hover reads every cell") {
  Fixture f(kRatings, "als", 2);
  ImGuiHeadless ui;
  CompletionView view;
  view.max_picture_cells = 1200;  // 60 x 80 = 4800 cells: a quarter, 30 x 40
  std::vector<ViewIntent> out;
  ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  const std::vector<int>& rows = view.picture_rows();
  const std::vector<int>& cols = view.picture_cols();
  CHECK(rows.size() == 30);
  CHECK(cols.size() == 40);
  for (size_t a = 0; a < rows.size(); ++a) CHECK(rows[a] == static_cast<int>(2 * a + 1));  // every 2nd, centred
  const auto snap = f.mod.completion_snapshot();
  const std::vector<float>& pic = view.estimate_picture();
  REQUIRE(pic.size() == rows.size() * cols.size());
  for (size_t a = 0; a < rows.size(); a += 7)
    for (size_t b = 0; b < cols.size(); b += 5)
      CHECK(pic[a * cols.size() + b] == doctest::Approx(snap->predict(rows[a], cols[b])).epsilon(1e-6));
  // Hover maps the mouse to the full matrix: the top-left pixel is row 0, column 0.
  const ImVec2 lo = view.estimate_min();
  ui.mouse_move(lo.x + 1.0f, lo.y + 1.0f);
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*f.mod.snapshot(), f.context(), out); });
  REQUIRE(view.hover_lines().size() >= 2);
  CHECK(has(view.hover_lines()[0], "user 0"));
  CHECK(has(view.hover_lines()[1], "item 0"));
  // Below the threshold every cell is its own picture cell.
  std::vector<int> r, c;
  picture_grid(60, 80, 4800, r, c);
  CHECK(r.size() == 60);
  CHECK(c.size() == 80);
  CHECK(r.back() == 59);
}

TEST_CASE("completion pictures: the mask lists every training and held-out entry once") {
  Completion mod;
  ParamValues v = default_values(mod.params());
  v["k"] = 3;
  mod.reset(make_dataset(kRatings), v, 1);
  const auto snap = mod.completion_snapshot();
  const CompletionProblem& p = *snap->problem;
  const CompletionMask mk = completion_mask(p);
  size_t train = 0, test = 0, missing = 0;
  for (size_t c = 0; c < mk.entry.size(); ++c) {
    const int e = mk.entry[c];
    if (e >= 0) {
      ++train;
      CHECK(static_cast<size_t>(p.train_row[static_cast<size_t>(e)]) * static_cast<size_t>(p.n) +
                static_cast<size_t>(p.train_col[static_cast<size_t>(e)]) ==
            c);
      CHECK(mk.codes[c] < 1.0f);
    } else if (e <= -2) {
      ++test;
      CHECK(mk.codes[c] > 1.0f);
    } else {
      ++missing;
      CHECK(std::isnan(mk.codes[c]));
    }
  }
  CHECK(train == p.train_row.size());
  CHECK(test == p.test_row.size());
  CHECK(train + test == p.data->observed());
  CHECK(missing == static_cast<size_t>(p.m) * static_cast<size_t>(p.n) - p.data->observed());
  // The cell read-out returns the observed values.
  const CellEntry c0 = cell_entry(p, mk, p.train_row[0], p.train_col[0]);
  CHECK(c0.kind == 0);
  CHECK(c0.observed == p.train_value[0]);
  if (!p.test_row.empty()) {
    const CellEntry c1 = cell_entry(p, mk, p.test_row[0], p.test_col[0]);
    CHECK(c1.kind == 1);
    CHECK(c1.observed == p.test_value[0]);
  }
}

TEST_CASE("completion pictures: rank(shrink_tau) is the count of sigma_i above tau, non-increasing") {
  const std::vector<double> sigma = {9.0, 5.0, 5.0, 2.0, 0.5};
  std::vector<double> taus, ranks;
  rank_staircase(sigma, 12.0, taus, ranks);
  REQUIRE(taus.size() == ranks.size());
  for (size_t i = 1; i < taus.size(); ++i) {
    CHECK(taus[i] >= taus[i - 1]);
    CHECK(ranks[i] <= ranks[i - 1]);
  }
  // Every drawn point agrees with the definition just off its step.
  for (size_t i = 0; i + 1 < taus.size(); ++i)
    if (taus[i + 1] > taus[i]) CHECK(rank_above(sigma, 0.5 * (taus[i] + taus[i + 1])) == ranks[i + 1]);
  CHECK(ranks.front() == 5);
  CHECK(ranks.back() == 0);
  CHECK(spectrum_descending(sigma));
  CHECK_FALSE(spectrum_descending({1.0, 2.0}));
}

TEST_CASE("completion pictures: the oracles mark a rise and pass a fall") {
  const int n = Completion::kNumMetrics;
  auto row = [&](double obj, double half, double observed) {
    std::vector<double> r(static_cast<size_t>(n), NAN);
    r[Completion::kMetricObjective] = obj;
    r[Completion::kMetricHalfObjective] = half;
    r[Completion::kMetricObservedLoss] = observed;
    return r;
  };
  // ALS: 10 -> (8) -> 7 -> (7.5!) -> 6.
  const std::vector<std::vector<double>> als = {row(10, NAN, 10), row(7, 8, 7), row(6, 7.5, 6)};
  OracleStatus o = completion_oracle(static_cast<int>(Completion::Method::Als), 1.0, als, 0, 0);
  CHECK(o.applies);
  CHECK(o.violations == 1);
  CHECK(o.first_violation == 2);
  REQUIRE(o.bad_x.size() == 1);
  CHECK(o.bad_x[0] == 1.5);
  CHECK(o.bad_y[0] == 7.5);
  // svd_impute, eta <= 1: the observed loss falls, then rises once.
  const std::vector<std::vector<double>> svp = {row(5, NAN, 5), row(4, NAN, 4), row(4.5, NAN, 4.5)};
  o = completion_oracle(static_cast<int>(Completion::Method::SvdImpute), 1.0, svp, 0, 0);
  CHECK(o.violations == 1);
  CHECK(o.bad_x == std::vector<double>{2.0});
  // eta > 1: no guarantee, nothing marked.
  o = completion_oracle(static_cast<int>(Completion::Method::SvdImpute), 1.5, svp, 0, 0);
  CHECK_FALSE(o.applies);
  CHECK(o.violations == 0);
  // A fall with rounding noise passes.
  CHECK_FALSE(rises(1.0, 1.0 + 1e-13));
  CHECK(rises(1.0, 1.001));
  // svt: the support.
  CHECK(completion_oracle(static_cast<int>(Completion::Method::Svt), 1.0, svp, 100, 100).violations == 0);
  CHECK(completion_oracle(static_cast<int>(Completion::Method::Svt), 1.0, svp, 99, 100).violations == 1);
}

TEST_CASE("completion pictures: the subsampled grid picks cells of the grid, evenly") {
  const int m = 7, n = 300;
  std::vector<float> g(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) g[static_cast<size_t>(i) * n + j] = static_cast<float>(1000 * i + j);
  int r = 0, c = 0;
  const std::vector<float> s = subsample_grid(g.data(), m, n, 100, 100, &r, &c);
  CHECK(r == m);  // never more rows than the grid has
  CHECK(c == 100);
  REQUIRE(s.size() == static_cast<size_t>(r) * c);
  for (int a = 0; a < r; ++a)
    for (int b = 0; b < c; ++b) {
      const float v = s[static_cast<size_t>(a) * c + b];
      CHECK(static_cast<int>(v) / 1000 == a);               // row a of a grid with as many rows
      CHECK(static_cast<int>(v) % 1000 == 3 * b + 1);       // the middle column of each block of 3
    }
}

// Issue 29: raising lambda live makes l(U, V) another function, so its jump is no violation. The
// oracle compares nothing across an objective change (at an iteration boundary: the step after it
// is compared from its half-step on; between the half-steps: its second half is skipped) and lists
// the changes for the curve's marks. The old oracle reported "ROSE" here.
TEST_CASE("completion pictures: the oracle re-bases at a live change of the objective and marks it") {
  const int n = Completion::kNumMetrics;
  auto row = [&](double obj, double half, double observed) {
    std::vector<double> r(static_cast<size_t>(n), NAN);
    r[Completion::kMetricObjective] = obj;
    r[Completion::kMetricHalfObjective] = half;
    r[Completion::kMetricObservedLoss] = observed;
    return r;
  };
  const int als = static_cast<int>(Completion::Method::Als);
  // lambda raised after iteration 1: l jumps from 7 to 20 at the next half-step, then falls.
  const std::vector<std::vector<double>> jump = {row(10, NAN, 10), row(7, 8, 7), row(19, 20, 6), row(18, 18.5, 5)};
  OracleStatus o = completion_oracle(als, 1.0, jump, 0, 0);
  CHECK(o.violations == 1);  // unaware of the change: the jump reads as a rise
  CHECK(o.text.find("ROSE") != std::string::npos);
  o = completion_oracle(als, 1.0, jump, 0, 0, {{1, 0, "lambda = 5"}});
  CHECK(o.violations == 0);
  CHECK(o.text.find("ROSE") == std::string::npos);
  CHECK(o.text.find("re-based at 1 live change of the objective") != std::string::npos);
  CHECK(o.rebase_x == std::vector<double>{1.0});
  CHECK(o.rebase_label == std::vector<std::string>{"lambda = 5"});
  // A real rise after the change is still caught (18.5 -> 19 is not in the data; make one).
  std::vector<std::vector<double>> later = jump;
  later.push_back(row(21, 18, 4));
  o = completion_oracle(als, 1.0, later, 0, 0, {{1, 0, "lambda = 5"}});
  CHECK(o.violations == 1);
  CHECK(o.first_violation == 4);
  // Changed between the V- and the U-sweep of step 2 (iteration 1, phase 1): only that half is skipped.
  const std::vector<std::vector<double>> mid = {row(10, NAN, 10), row(6, 6.5, 6), row(19, 6.8, 6)};
  CHECK(completion_oracle(als, 1.0, mid, 0, 0, {{1, 1, "lambda = 5"}}).violations == 1);  // 6 -> 6.8 before it
  const std::vector<std::vector<double>> mid_ok = {row(10, NAN, 10), row(6, 6.5, 6), row(19, 5.5, 6)};
  o = completion_oracle(als, 1.0, mid_ok, 0, 0, {{1, 1, "lambda = 5"}});
  CHECK(o.violations == 0);
  CHECK(o.rebase_x == std::vector<double>{1.5});
  // A change past the history shown is not marked.
  CHECK(completion_oracle(als, 1.0, mid_ok, 0, 0, {{5, 0, "lambda = 1"}}).rebase_x.empty());
}
