// The plsa view, drawn with real ImGui frames (no renderer) over snapshots of real runs on a
// small labelled corpus (three categories with their own words): every tab at K = 3 and K = 5,
// the hover read-outs against the snapshot, the "Add a topic" intent, the E-step half points,
// the pictures job; and the ImGui-free pieces (simplex coordinates, the PCA projection, the
// confusion normalisation, the top words' changes, the heatmaps' rows and columns, the oracles).
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "tests/support/view_fixture.h"
#include "algorithms/core/dataset.h"
#include "algorithms/core/text_corpus.h"
#include "algorithms/topics/plsa.h"
#include "views/common/jobs.h"
#include "views/topics/plsa_pictures.h"
#include "views/topics/plsa_view.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <set>
#include <string>

using namespace cilab;

namespace {

// 90 documents of 12 tokens in three categories, each mostly from its own five words plus two
// shared ones: three topics to find. With labels = false the corpus has no categories.
std::shared_ptr<const Dataset> small_corpus(bool labels = true) {
  const std::vector<std::vector<std::string>> own = {{"cat", "dog", "horse", "cow", "sheep"},
                                                     {"star", "planet", "moon", "orbit", "comet"},
                                                     {"bread", "cheese", "apple", "soup", "rice"}};
  const std::vector<std::string> shared = {"good", "day"};
  auto c = std::make_shared<TextCorpus>();
  c->kind = "generated";
  const auto word_id = [&](const std::string& w) {
    const auto it = std::find(c->words.begin(), c->words.end(), w);
    if (it != c->words.end()) return static_cast<int>(it - c->words.begin());
    c->words.push_back(w);
    c->word_count.push_back(0);
    c->doc_freq.push_back(0);
    return static_cast<int>(c->words.size()) - 1;
  };
  uint64_t state = 12345;
  const auto next = [&](int n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % static_cast<uint64_t>(n));
  };
  c->doc_start.push_back(0);
  for (int d = 0; d < 90; ++d) {
    const int cat = d % 3;
    std::string text;
    std::set<int> seen;
    for (int t = 0; t < 12; ++t) {
      const std::string& w = next(6) == 0 ? shared[static_cast<size_t>(next(2))]
                                          : own[static_cast<size_t>(cat)][static_cast<size_t>(next(5))];
      const int id = word_id(w);
      c->tokens.push_back(id);
      ++c->word_count[static_cast<size_t>(id)];
      if (seen.insert(id).second) ++c->doc_freq[static_cast<size_t>(id)];
      text += (t ? " " : "") + w;
    }
    c->doc_start.push_back(static_cast<int64_t>(c->tokens.size()));
    c->doc_text.push_back("doc" + std::to_string(d) + ": " + text);
    c->doc_names.push_back("fortune #" + std::to_string(d));
    if (labels) c->doc_label.push_back(cat);
  }
  if (labels) c->label_names = {"animals", "space", "food"};
  auto data = std::make_shared<Dataset>();
  data->name = labels ? "small" : "small-unlabelled";
  data->text = c;
  return data;
}

// The module as the runner runs it (ViewFixture): every word of the small corpus kept, seed 3.
struct Fixture : test_support::ViewFixture<Plsa> {
  Fixture(int k, int steps, bool labels = true, const std::string& method = "plsa")
      : ViewFixture(small_corpus(labels),
                    {"k=" + std::to_string(k), "method=" + method, "min_count=1", "max_df=1", "stop_words=false",
                     "max_features=0"},
                    3) {
    run(steps);
  }
  void step(int n) { run(n); }
  std::shared_ptr<const PlsaSnapshot> snap() const { return mod.plsa_snapshot(); }
  // The shell's context, with these keys pressed and these background jobs.
  ViewContext context(const std::vector<int>* pressed = nullptr, BackgroundJobs* with_jobs = nullptr) {
    ViewContext ctx = ViewFixture::context();
    ctx.keys = pressed;
    ctx.jobs = with_jobs;
    return ctx;
  }
};

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// Draws every tab (keys 1-5) and returns the text of each.
std::vector<std::string> all_tabs(Fixture& f, PlsaView& view, ImGuiHeadless& ui) {
  std::vector<std::string> texts;
  std::vector<ViewIntent> out;
  for (int t = 0; t < PlsaView::kNumTabs; ++t) {
    const std::vector<int> keys = {'1' + t};
    ui.frame_in_window([&] { view.draw(*f.snap(), f.context(&keys), out); });
    CHECK(static_cast<int>(view.tab()) == t);
    texts.push_back(frame_text(ui, [&] { view.draw(*f.snap(), f.context(), out); }));
  }
  CHECK(out.empty());  // drawing alone asks for nothing
  return texts;
}

// A few frames with the mouse at p (hover needs a frame to settle).
void hover(Fixture& f, PlsaView& view, ImGuiHeadless& ui, ImVec2 p) {
  std::vector<ViewIntent> out;
  ui.mouse_move(p.x, p.y);
  for (int i = 0; i < 3; ++i) ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

}  // namespace

TEST_CASE("plsa view: K = 3 and K = 5 draw every tab, the header and the oracles") {
  for (int k : {3, 5}) {
    CAPTURE(k);
    Fixture f(k, 6);
    ImGuiHeadless ui;
    PlsaView view;
    const std::vector<std::string> t = all_tabs(f, view, ui);
    const auto s = f.snap();
    // Header: method, K, the corpus, the oracles, the button.
    CHECK(has(t[0], "pLSA by EM, K = " + std::to_string(k)));
    CHECK(has(t[0], s->problem->what));
    CHECK(has(t[0], "Add a topic"));
    CHECK(has(t[0], "l never falls: holds"));
    CHECK(has(t[0], "U, V, q stochastic: holds"));
    CHECK(has(t[0], "l <= saturated bound: holds"));
    CHECK(has(t[0], "K = 1 unigram: n/a"));
    // Curves: labelled axes and legend.
    CHECK(has(t[0], "log-likelihood l"));
    CHECK(has(t[0], "iteration"));
    CHECK(has(t[0], "perplexity (training)"));
    CHECK(has(t[0], "test_perplexity (held out)"));
    // Topics: every topic's column with its top word and p(w|z).
    for (int z = 0; z < k; ++z) {
      const int j = s->top_words[static_cast<size_t>(z)][0];
      char cell[64];
      std::snprintf(cell, sizeof cell, "%s %.3f", s->problem->vocab.words[static_cast<size_t>(j)].c_str(), s->u(j, z));
      CHECK(has(t[1], cell));
      CHECK(has(t[1], "topic " + std::to_string(z)));
    }
    // Documents: the simplex for K = 3, the projection otherwise; the category key.
    CHECK(has(t[2], k == 3 ? "document-topic simplex" : "principal axes"));
    CHECK(has(t[2], "animals"));
    CHECK(view.pictures().points.ternary == (k == 3));
    // Matrices and categories.
    CHECK(has(t[3], "U = p(w|z)"));
    CHECK(has(t[3], "V = p(z|d)"));
    CHECK(has(t[3], "p(w|z)"));
    CHECK(has(t[4], "categories (rows) against topics (columns)"));
    CHECK(has(t[4], "row share (documents)"));
    CHECK(view.pictures().serial == s->serial.value);
    for (const PlsaOracle& o : view.oracles()) CHECK(o.state != PlsaOracle::State::Broken);
  }
}

TEST_CASE("plsa view: the documents' hover gives the document's text and its p(z|d)") {
  for (int k : {3, 5}) {
    CAPTURE(k);
    Fixture f(k, 8);
    ImGuiHeadless ui;
    PlsaView view;
    std::vector<ViewIntent> out;
    const std::vector<int> keys = {'3'};
    ui.frame_in_window([&] { view.draw(*f.snap(), f.context(&keys), out); });
    ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });  // limits settle
    ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
    const auto s = f.snap();
    const DocPoints& pts = view.pictures().points;
    REQUIRE(view.documents_plot().drawn);
    // The point of document i on screen: the nearest document there is i or one at the same place.
    const int i = 17;
    hover(f, view, ui, view.documents_plot().to_screen(pts.x[i], pts.y[i]));
    const std::vector<std::string>& lines = view.hover_lines();
    REQUIRE(lines.size() >= 3);
    const std::string all = joined(lines);
    // The hovered document: its row is named in the first line; its text and p(z|d) follow.
    int row = -1;
    REQUIRE(std::sscanf(lines[0].c_str(), "document %d", &row) == 1);
    CHECK(std::hypot(pts.x[row] - pts.x[i], pts.y[row] - pts.y[i]) < 0.05);
    CHECK(has(all, s->problem->doc_text(row)));
    CHECK(has(all, "category " + s->problem->label_names[static_cast<size_t>(s->problem->doc_label[row])]));
    for (int z = 0; z < k; ++z) {
      char v[32];
      std::snprintf(v, sizeof v, "%.4f  topic %d", s->v(z, row), z);
      CHECK(has(all, v));
    }
    if (k == 3) {  // the ternary point is p(z|d) in barycentric coordinates
      double x = 0, y = 0;
      ternary_xy(s->v(0, row), s->v(1, row), s->v(2, row), &x, &y);
      CHECK(pts.x[row] == doctest::Approx(x));
      CHECK(pts.y[row] == doctest::Approx(y));
    }
  }
}

TEST_CASE("plsa view: heatmap, confusion and topic hovers read the snapshot") {
  Fixture f(3, 8);
  ImGuiHeadless ui;
  PlsaView view;
  std::vector<ViewIntent> out;
  const auto s = f.snap();
  // Matrices: the U cell (row 0, topic 2) and the V cell (topic 1, column 0).
  const std::vector<int> k4 = {'4'};
  ui.frame_in_window([&] { view.draw(*s, f.context(&k4), out); });
  ui.frame_in_window([&] { view.draw(*s, f.context(), out); });
  const PlsaPictures& pic = view.pictures();
  const int R = static_cast<int>(pic.u_terms.size());
  REQUIRE(R >= 3);
  // Cell (r, z) spans x in [z - 1/2, z + 1/2], y in [R - 1 - r, R - r].
  hover(f, view, ui, view.u_plot().to_screen(2.0, R - 0.5));
  {
    const int j = pic.u_terms[0];
    char want[128];
    std::snprintf(want, sizeof want, "p(w = '%s' | z = 2) = %.5g",
                  s->problem->vocab.words[static_cast<size_t>(j)].c_str(), s->u(j, 2));
    REQUIRE_FALSE(view.hover_lines().empty());
    CHECK(view.hover_lines()[0] == want);
    CHECK(pic.u_values[0 * 3 + 2] == doctest::Approx(s->u(j, 2)).epsilon(1e-6));
  }
  hover(f, view, ui, view.v_plot().to_screen(0.5, 3 - 1.5));
  {
    const int row = pic.v_docs[0];
    char want[128];
    std::snprintf(want, sizeof want, "p(z = 1 | d = %d) = %.5g", row, s->v(1, row));
    CHECK(has(joined(view.hover_lines()), want));
    CHECK(has(joined(view.hover_lines()), s->problem->doc_text(row)));
  }
  // Categories: row "space" (1), topic 0.
  const std::vector<int> k5 = {'5'};
  ui.frame_in_window([&] { view.draw(*s, f.context(&k5), out); });
  ui.frame_in_window([&] { view.draw(*s, f.context(), out); });
  hover(f, view, ui, view.confusion_plot().to_screen(0.0, 3 - 1.5));
  {
    const Confusion c = confusion_table(s->confusion_argmax, 3, 3);
    char want[160];
    std::snprintf(want, sizeof want, "%.4f of the category's documents (%.0f of %.0f", c.value[1 * 3 + 0],
                  c.value[1 * 3 + 0] * c.row_total[1], c.row_total[1]);
    REQUIRE(view.hover_lines().size() >= 2);
    CHECK(has(view.hover_lines()[0], "category space"));
    CHECK(has(view.hover_lines()[1], want));
  }
  // Topics: a header's share of the corpus.
  const std::vector<int> k2 = {'2'};
  ui.frame_in_window([&] { view.draw(*s, f.context(&k2), out); });
  ui.frame_in_window([&] { view.draw(*s, f.context(), out); });
  hover(f, view, ui, view.topic_header(1));
  {
    char want[96];
    std::snprintf(want, sizeof want, "topic 1: %.2f %% of the corpus's tokens", 100.0 * s->topic_mass[1]);
    REQUIRE_FALSE(view.hover_lines().empty());
    CHECK(view.hover_lines()[0] == want);
  }
  CHECK(out.empty());
}

TEST_CASE("plsa view: Add a topic sends the module's intent, and K + 1 topics are drawn") {
  Fixture f(3, 5);
  ImGuiHeadless ui;
  PlsaView view;
  std::vector<ViewIntent> out;
  ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
  const ImVec2 b = view.add_topic_button();
  REQUIRE(b.x > 0);
  ui.mouse_move(b.x, b.y);
  ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
  ui.mouse_button(0, true);
  ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
  ui.mouse_button(0, false);
  ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == ViewIntent::Kind::Module);
  CHECK(out[0].intent.kind == "add_topic");
  REQUIRE(f.mod.apply(out[0].intent));
  CHECK(f.snap()->k == 4);
  out.clear();
  ui.mouse_move(-100, -100);
  const std::vector<std::string> t = all_tabs(f, view, ui);
  CHECK(has(t[0], "K = 4"));
  CHECK(has(t[1], "topic 3"));
  CHECK(view.pictures().k == 4);
  CHECK(view.pictures().points.k == 4);
  CHECK(view.pictures().by_argmax.topics == 4);
}

TEST_CASE("plsa view: E-step sub-steps leave half points at t - 1/2 with l unchanged") {
  Fixture f(3, 2);
  ImGuiHeadless ui;
  PlsaView view;
  std::vector<ViewIntent> out;
  const double ll = f.snap()->metrics[Plsa::kMetricLogLikelihood];
  f.mod.sub_step();  // the E-step of iteration 3
  std::string text = frame_text(ui, [&] { view.draw(*f.snap(), f.context(), out); });
  CHECK(has(text, "E-step done: the M-step runs next"));
  CHECK(has(text, "after the E-step (l unchanged)"));
  // q is judged right after the E-step.
  CHECK(std::isfinite(f.snap()->q_sum_error));
  CHECK(has(view.header().back(), "U, V, q stochastic: holds"));
  CHECK(f.snap()->metrics[Plsa::kMetricLogLikelihood] == ll);
  f.mod.sub_step();  // the M-step
  f.history.push_back(f.snap()->metrics);
  text = frame_text(ui, [&] { view.draw(*f.snap(), f.context(), out); });
  CHECK_FALSE(has(text, "E-step done"));
  CHECK(has(text, "after the E-step (l unchanged)"));  // the half point stays
  CHECK(f.snap()->metrics[Plsa::kMetricLogLikelihood] >= ll);
}

TEST_CASE("plsa view: a corpus without categories says so on the Categories tab") {
  Fixture f(3, 3, false);
  ImGuiHeadless ui;
  PlsaView view;
  const std::vector<std::string> t = all_tabs(f, view, ui);
  CHECK(has(t[4], "has no categories"));
  CHECK_FALSE(has(t[4], "row share (documents)"));
  CHECK(has(t[2], "the corpus has no categories"));
  CHECK(view.pictures().by_argmax.value.empty());
}

TEST_CASE("plsa view: the NMF methods draw every tab with their own monotonicity oracle") {
  for (const char* method : {"nmf_kl", "nmf_frobenius"}) {
    CAPTURE(method);
    Fixture f(3, 5, true, method);
    ImGuiHeadless ui;
    PlsaView view;
    const std::vector<std::string> t = all_tabs(f, view, ui);
    CHECK(has(t[0], std::string(method) == "nmf_kl" ? "D never rises: holds" : "loss monotone: n/a"));
    CHECK(has(t[0], "U, V, q stochastic: holds"));
  }
}

TEST_CASE("plsa view: the pictures come from a background job above the inline size") {
  Fixture f(5, 4);
  ImGuiHeadless ui;
  PlsaView view;
  view.inline_values = 0;  // every snapshot through the job
  BackgroundJobs jobs(BackgroundJobs::Mode::Inline);
  std::vector<ViewIntent> out;
  ui.frame_in_window([&] { view.draw(*f.snap(), f.context(nullptr, &jobs), out); });
  // The first picture of a K is computed at once (never draw another K); the next via the job.
  CHECK(view.pictures().serial == f.snap()->serial.value);
  f.step(1);
  for (int i = 0; i < 3 && view.pictures().serial != f.snap()->serial.value; ++i) {
    ui.frame_in_window([&] { view.draw(*f.snap(), f.context(nullptr, &jobs), out); });
  }
  CHECK(view.pictures().serial == f.snap()->serial.value);
  const PlsaPictures direct = make_plsa_pictures(*f.snap(), PlsaSnapshot::kTopWords, PlsaView::kHeatmapDocs);
  CHECK(view.pictures().v_values == direct.v_values);
  CHECK(view.pictures().points.x == direct.points.x);
}

TEST_CASE("plsa view: the top-word table marks words that moved or are new since the previous snapshot") {
  Fixture f(3, 0);
  ImGuiHeadless ui;
  PlsaView view;
  std::vector<ViewIntent> out;
  ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
  const auto before = f.snap()->top_words;
  f.step(3);
  ui.frame_in_window([&] { view.draw(*f.snap(), f.context(), out); });
  CHECK(view.word_changes() == top_word_changes(before, f.snap()->top_words));
}

// ---- the ImGui-free pieces ----------------------------------------------------------------------

TEST_CASE("plsa pictures: ternary coordinates put the corners at the vertices and are barycentric") {
  double x = 0, y = 0;
  ternary_xy(1, 0, 0, &x, &y);
  CHECK(x == doctest::Approx(0));
  CHECK(y == doctest::Approx(0));
  ternary_xy(0, 1, 0, &x, &y);
  CHECK(x == doctest::Approx(1));
  CHECK(y == doctest::Approx(0));
  ternary_xy(0, 0, 1, &x, &y);
  CHECK(x == doctest::Approx(0.5));
  CHECK(y == doctest::Approx(std::sqrt(3.0) / 2));
  // Any point is the same convex combination of the vertices: (x, y) = sum_z p_z vertex_z.
  const double vx[] = {0, 1, 0.5}, vy[] = {0, 0, kTernaryHeight};
  for (const auto& p : {std::array<double, 3>{0.2, 0.3, 0.5}, std::array<double, 3>{1.0 / 3, 1.0 / 3, 1.0 / 3},
                        std::array<double, 3>{0.7, 0.0, 0.3}}) {
    ternary_xy(p[0], p[1], p[2], &x, &y);
    CHECK(x == doctest::Approx(p[0] * vx[0] + p[1] * vx[1] + p[2] * vx[2]));
    CHECK(y == doctest::Approx(p[0] * vy[0] + p[1] * vy[1] + p[2] * vy[2]));
  }
}

TEST_CASE("plsa pictures: the projection for K != 3 is centred and never stretches distances") {
  Fixture f(5, 6);
  const auto s = f.snap();
  const DocPoints d = document_points(*s->factors);
  const int n = s->factors->docs, K = 5;
  REQUIRE(static_cast<int>(d.x.size()) == n);
  CHECK_FALSE(d.ternary);
  CHECK(d.explained > 0);
  CHECK(d.explained <= 1 + 1e-12);
  double mx = 0, my = 0;
  for (int i = 0; i < n; ++i) {
    mx += d.x[static_cast<size_t>(i)];
    my += d.y[static_cast<size_t>(i)];
  }
  CHECK(std::abs(mx / n) < 1e-10);
  CHECK(std::abs(my / n) < 1e-10);
  // An orthogonal projection: planar distances at most the distances between the p(z|d).
  for (int a = 0; a < n; a += 7)
    for (int b = a + 1; b < n; b += 11) {
      double d2 = 0;
      for (int z = 0; z < K; ++z) d2 += std::pow(s->v(z, a) - s->v(z, b), 2);
      const double p2 = std::pow(d.x[static_cast<size_t>(a)] - d.x[static_cast<size_t>(b)], 2) +
                        std::pow(d.y[static_cast<size_t>(a)] - d.y[static_cast<size_t>(b)], 2);
      CHECK(p2 <= d2 + 1e-12);
    }
}

TEST_CASE("plsa pictures: confusion rows are the snapshot's table transposed and normalised per row") {
  // 2 topics x 3 categories, topic-major; category 2 has no document.
  const std::vector<int> counts = {3, 0, 0, 1, 4, 0};
  const Confusion c = confusion_table(counts, 2, 3);
  REQUIRE(c.categories == 3);
  REQUIRE(c.topics == 2);
  for (int r = 0; r < 3; ++r) {
    double sum = 0;
    for (int z = 0; z < 2; ++z) {
      sum += c.value[static_cast<size_t>(r) * 2 + z];
      CHECK(c.value[static_cast<size_t>(r) * 2 + z] * c.row_total[static_cast<size_t>(r)] ==
            doctest::Approx(counts[static_cast<size_t>(z) * 3 + r]));
    }
    CHECK(sum == doctest::Approx(r == 2 ? 0.0 : 1.0));
  }
  CHECK(c.row_total[0] == 4);
  CHECK(c.row_total[1] == 4);
  CHECK(confusion_table(counts, 3, 3).value.empty());  // a shape that does not match
  // On a run: the argmax table counts every labelled document once; the mass rows sum to 1.
  Fixture f(3, 5);
  const auto s = f.snap();
  const Confusion a = confusion_table(s->confusion_argmax, 3, 3), m = confusion_table(s->confusion_mass, 3, 3);
  double docs = 0;
  for (int r = 0; r < 3; ++r) {
    docs += a.row_total[static_cast<size_t>(r)];
    CHECK(m.row_total[static_cast<size_t>(r)] ==
          doctest::Approx(a.row_total[static_cast<size_t>(r)]));  // sum_z p(z|d) = 1
    double sa = 0, sm = 0;
    for (int z = 0; z < 3; ++z) {
      sa += a.value[static_cast<size_t>(r) * 3 + z];
      sm += m.value[static_cast<size_t>(r) * 3 + z];
    }
    CHECK(sa == doctest::Approx(1.0));
    CHECK(sm == doctest::Approx(1.0));
  }
  CHECK(docs == s->factors->docs);
}

TEST_CASE("plsa pictures: top-word changes, the U terms and the V documents") {
  const std::vector<std::vector<int>> before = {{1, 2, 3}, {4, 5, 6}};
  const std::vector<std::vector<int>> now = {{1, 3, 2}, {4, 5, 9}};
  const auto c = top_word_changes(before, now);
  CHECK(c == std::vector<std::vector<int>>{{kWordSame, kWordMoved, kWordMoved}, {kWordSame, kWordSame, kWordNew}});
  CHECK(top_word_changes({}, now) == std::vector<std::vector<int>>{{0, 0, 0}, {0, 0, 0}});
  CHECK(top_word_changes(now, now) == std::vector<std::vector<int>>{{0, 0, 0}, {0, 0, 0}});
  // U's rows: each topic's first words, each term once, topic by topic.
  CHECK(heatmap_terms({{1, 2, 3}, {2, 7, 8}}, 2) == std::vector<int>{1, 2, 7});
  // V's columns: grouped by argmax topic, by decreasing p(z|d) inside a group.
  Fixture f(3, 6);
  const auto s = f.snap();
  const PlsaFactors& fa = *s->factors;
  const std::vector<int> all = heatmap_docs(fa, 1000);
  CHECK(static_cast<int>(all.size()) == fa.docs);
  CHECK(std::set<int>(all.begin(), all.end()).size() == all.size());
  const auto top = [&](int i) {
    int best = 0;
    for (int z = 1; z < 3; ++z)
      if (s->v(z, i) > s->v(best, i)) best = z;
    return best;
  };
  for (size_t a = 1; a < all.size(); ++a) {
    const int za = top(all[a - 1]), zb = top(all[a]);
    CHECK(za <= zb);
    if (za == zb) CHECK(s->v(za, all[a - 1]) >= s->v(zb, all[a]));
  }
  CHECK(heatmap_docs(fa, 10).size() == 10);
}

TEST_CASE("plsa pictures: the oracles hold on a run, the unigram one at K = 1, and break on bad values") {
  Fixture one(1, 0);
  std::vector<PlsaOracle> o = plsa_oracles(*one.snap());
  REQUIRE(o.size() == 4);
  CHECK(o[0].state == PlsaOracle::State::Pending);
  CHECK(o[3].state == PlsaOracle::State::Pending);  // before the first M-step
  one.step(1);
  o = plsa_oracles(*one.snap());
  CHECK(o[3].state == PlsaOracle::State::Holds);
  CHECK(one.snap()->unigram_error <= kOracleSlack);
  Fixture f(3, 6);
  o = plsa_oracles(*f.snap());
  CHECK(o[0].state == PlsaOracle::State::Holds);
  CHECK(o[1].state == PlsaOracle::State::Holds);
  CHECK(o[2].state == PlsaOracle::State::Holds);
  CHECK(o[3].state == PlsaOracle::State::NotApplicable);
  // A doctored snapshot: l fell, a column of U sums to 1.1, l above the saturated bound.
  PlsaSnapshot bad = *f.snap();
  bad.largest_rise = 1.0;
  bad.u_sum_error = 0.1;
  bad.metrics[Plsa::kMetricSaturatedGap] = -1.0;
  o = plsa_oracles(bad);
  CHECK(o[0].state == PlsaOracle::State::Broken);
  CHECK(o[1].state == PlsaOracle::State::Broken);
  CHECK(o[2].state == PlsaOracle::State::Broken);
  CHECK(has(o[1].value, "0.1"));
  // A fall at rounding level is not a violation.
  bad = *f.snap();
  bad.largest_rise = 0.1 * kOracleSlack * std::abs(bad.metrics[Plsa::kMetricObjective]);
  CHECK(plsa_oracles(bad)[0].state == PlsaOracle::State::Holds);
}

TEST_CASE("plsa pictures: nearest_point picks the closest shown point within the radius") {
  const std::vector<double> x = {0, 1, 2}, y = {0, 0, 0};
  CHECK(nearest_point(x, y, {}, 0.9, 0, 10, 10, 5) == 1);
  CHECK(nearest_point(x, y, {1, 0, 1}, 0.9, 0, 10, 10, 5) == -1);  // 1 hidden, 0 and 2 too far
  CHECK(nearest_point(x, y, {1, 0, 1}, 0.9, 0, 10, 10, 10) == 0);
  CHECK(nearest_point(x, y, {}, 5, 5, 10, 10, 5) == -1);
}
