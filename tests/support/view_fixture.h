// One fixture for every view test: a module M run as the app's runner would
// run it, and the ViewContext the shell would hand its view.
//
//   ViewFixture<KMeans> f(make_dataset("blobs"), {"k=4", "init=kmeans++"}, 3);  // seed 3
//   f.run(10);                       // ten steps, each iteration recorded
//   view.draw(*f.mod.snapshot(), f.context(), intents);
//
// It keeps what the runner keeps: the metrics of iterations 0..last (phase-0
// snapshots, one row per iteration as MetricHistory) and every iteration's
// snapshot for ViewContext::stored_snapshot; after stepping it settles the
// module (a trainer's picture copy reaches the last iteration). A test that wants
// the app's background jobs points `jobs` at its own BackgroundJobs.
//
// check_rewind_button() is the one test of a training view's Diverged banner.
#pragma once

#include "algorithms/core/params.h"
#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "views/common/view.h"

#include <doctest/doctest.h>

#include <cmath>
#include <utility>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab::test_support {

template <class M>
struct ViewFixture {
  std::shared_ptr<const Dataset> data;
  M mod;
  ParamValues values;  // the run's parameters (ViewContext::values)
  uint64_t seed = 1;
  std::vector<std::vector<double>> history;
  std::vector<std::shared_ptr<const Snapshot>> stored;
  std::vector<int> keys;           // ViewContext::keys: push a key code before a frame
  BackgroundJobs* jobs = nullptr;  // ViewContext::jobs (none: views refuse background work)

  // Resets the module on `d` (nullptr for modules without data) with its defaults and the
  // assignments `sets` ("name=value", as --set) under `seed`, and records iteration 0.
  explicit ViewFixture(std::shared_ptr<const Dataset> d, const std::vector<std::string>& sets = {},
                       uint64_t seed_ = 1)
      : data(std::move(d)), seed(seed_) {
    values = default_values(mod.params());
    for (const std::string& s : sets) apply_assignment(mod.params(), values, s, mod.info().name);
    mod.reset(data, values, seed);
    record();
  }

  // Up to n steps, each recorded; stops early at a terminal status; then settles.
  void run(int n) {
    for (int i = 0; i < n && !is_terminal(mod.snapshot()->status); ++i) {
      mod.step();
      record();
    }
    mod.settle();
  }

  // The current snapshot into the history at its iteration (a sub-step's is not recorded).
  void record() {
    const std::shared_ptr<const Snapshot> s = mod.snapshot();
    if (s->phase != 0 || s->iteration < 0) return;
    const size_t at = static_cast<size_t>(s->iteration);
    if (stored.size() <= at) {
      stored.resize(at + 1);
      history.resize(at + 1);
    }
    stored[at] = s;
    history[at] = s->metrics;
  }

  ViewContext context() {
    ViewContext ctx;
    ctx.data = data.get();
    ctx.info = &mod.info();
    ctx.metric_history = &history;
    ctx.stored_snapshot = [this](int i) {
      return i >= 0 && i < static_cast<int>(stored.size()) ? stored[static_cast<size_t>(i)] : nullptr;
    };
    ctx.data_version = 1;
    ctx.values = &values;
    ctx.seed = seed;
    ctx.keys = &keys;
    ctx.jobs = jobs;
    return ctx;
  }

  // One frame of the view (draw, then its controls) with `key` pressed (0: none); returns the
  // frame's text; the intents go to `out`.
  template <class View>
  std::string frame(ImGuiHeadless& ui, View& view, int key, std::vector<ViewIntent>& out) {
    keys.clear();
    if (key) keys.push_back(key);
    return frame_text(ui, [&] {
      view.draw(*mod.snapshot(), context(), out);
      view.draw_controls(*mod.snapshot(), context());
    });
  }
  // ... a frame that must emit no intent.
  template <class View>
  std::string frame(ImGuiHeadless& ui, View& view, int key = 0) {
    std::vector<ViewIntent> intents;
    const std::string text = frame(ui, view, key, intents);
    CHECK(intents.empty());
    return text;
  }

  // The training view's Diverged banner, on a run that diverged: it shows `advice`, and its
  // rewind button emits a Seek to an iteration before the blow-up (whose `loss_metric` is
  // finite) and then, for each learning rate named in `lrs`, a SetParam to half its value.
  template <class View>
  void check_rewind_button(View& view, const char* advice, int loss_metric, const std::vector<std::string>& lrs) {
    REQUIRE(mod.snapshot()->status == Status::Diverged);
    ImGuiHeadless ui;
    std::vector<ViewIntent> intents;
    const ViewContext ctx = context();
    const std::string text = frame_text(ui, [&] { view.draw(*mod.snapshot(), ctx, intents); });
    CHECK(text.find(advice) != std::string::npos);
    const ImVec2 b = view.rewind_button();
    REQUIRE(std::isfinite(b.x));
    ui.mouse_move(b.x, b.y);
    ui.frame_in_window([&] { view.draw(*mod.snapshot(), ctx, intents); });
    ui.mouse_button(0, true);
    ui.frame_in_window([&] { view.draw(*mod.snapshot(), ctx, intents); });
    ui.mouse_button(0, false);
    ui.frame_in_window([&] { view.draw(*mod.snapshot(), ctx, intents); });
    REQUIRE(intents.size() == 1 + lrs.size());
    CHECK(intents[0].kind == ViewIntent::Kind::Seek);
    CHECK(intents[0].iteration < mod.snapshot()->iteration);
    REQUIRE(static_cast<size_t>(intents[0].iteration) < history.size());
    CHECK(std::isfinite(history[static_cast<size_t>(intents[0].iteration)][static_cast<size_t>(loss_metric)]));
    for (size_t i = 0; i < lrs.size(); ++i) {
      CHECK(intents[i + 1].kind == ViewIntent::Kind::SetParam);
      CHECK(intents[i + 1].param == lrs[i]);
      CHECK(intents[i + 1].value == values.at(lrs[i]) / 2);
    }
  }
};

}  // namespace cilab::test_support
