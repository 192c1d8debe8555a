// The module contract, checked per registry entry (conformance.h).
#include "conformance.h"

#include "../support/imgui_headless.h"
#include "../support/screen_text.h"
#include "algorithms/core/parallel.h"
#include "algorithms/data/datasets.h"
#include "algorithms/nn/trainer.h"
#include "app/headless/cli.h"
#include "app/headless/runner.h"
#include "views/common/fonts.h"
#include "views/common/view_registry.h"
#include "cilab_test_paths.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace cilab::conformance {
namespace {

constexpr uint64_t kSeed = 7;

// The data the contract is checked on: the module's default, except for the
// text modules whose default corpus takes seconds per reset (GCIDE's 5 M
// tokens: a vocabulary, co-occurrences, WordNet probes), which run on a small
// corpus of the same kind (the checks reset a module dozens of times, also
// under ASan), and cnn, whose default (12 000 images and the 10 000 of t10k,
// evaluated at every reset) runs on 300 test-split images.
std::string contract_dataset(const ModuleInfo& info) {
  if (info.name == "word2vec" || info.name == "glove") return "tiny-text";
  if (info.name == "plsa") return "fortunes:n=400";
  if (info.name == "cnn") return "fashion-mnist:split=test,n=300";
  return info.default_dataset;
}

std::shared_ptr<const Dataset> default_data(const ModuleInfo& info) {
  const std::string spec = contract_dataset(info);
  return spec.empty() ? nullptr : make_dataset(spec);
}

// A module reset on its default data and parameters (throws what reset throws).
std::unique_ptr<Module> fresh(const ModuleEntry& e, const ParamValues* values = nullptr) {
  std::unique_ptr<Module> m = e.make();
  const ParamValues v = values ? *values : default_values(m->params());
  m->reset(default_data(m->info()), v, kSeed);
  return m;
}

// Bitwise equality of two metric vectors (NaN equals NaN with the same bits).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// The metrics with the wall-clock throughputs (names ending in "_per_s":
// word2vec's words_per_s, glove's entries_per_s) blanked: a measured speed is
// the one kind of metric a replay may not reproduce; everything else must.
std::vector<double> replayable(const ModuleInfo& info, std::vector<double> m) {
  for (size_t i = 0; i < m.size() && i < info.metrics.size(); ++i) {
    const std::string& n = info.metrics[i].name;
    if (n.size() > 6 && n.compare(n.size() - 6, 6, "_per_s") == 0) m[i] = 0.0;
  }
  return m;
}

bool same_replay(const ModuleInfo& info, const std::vector<double>& a, const std::vector<double>& b) {
  return same_bits(replayable(info, a), replayable(info, b));
}

std::string describe(const std::vector<double>& v) {
  std::ostringstream os;
  os.precision(17);
  for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  return "[" + os.str() + "]";
}

std::string what_of(const std::exception_ptr& p) {
  try {
    std::rethrow_exception(p);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
    return "(not a std::exception)";
  }
}

// "" if f throws std::invalid_argument whose message names 'param'; else why not.
template <class F>
std::string throws_naming(const std::string& param, const std::string& action, F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& ex) {
    if (std::string(ex.what()).find("'" + param + "'") != std::string::npos) return "";
    return action + ": the error does not name '" + param + "': " + ex.what();
  } catch (...) {
    return action + ": threw something other than std::invalid_argument: " + what_of(std::current_exception());
  }
  return action + ": did not throw";
}

std::string check_defaults_validate(const ModuleEntry& e) {
  std::unique_ptr<Module> m = e.make();
  if (m->info().name != e.name)
    return "registry name '" + e.name + "' differs from info().name '" + m->info().name + "'";
  try {
    validated(m->params(), default_values(m->params()));
    fresh(e);
  } catch (const std::exception& ex) {
    return std::string("the defaults do not reset: ") + ex.what();
  }
  return "";
}

std::string check_metric_sizes(const ModuleEntry& e) {
  std::unique_ptr<Module> m = fresh(e);
  const size_t want = m->info().metrics.size();
  auto size_ok = [&](const char* when, int k) -> std::string {
    const size_t got = m->snapshot()->metrics.size();
    if (got == want) return "";
    return std::string(when) + " " + std::to_string(k) + ": " + std::to_string(got) + " metrics, info() declares " +
           std::to_string(want);
  };
  if (std::string f = size_ok("after reset", 0); !f.empty()) return f;
  for (int i = 1; i <= 4; ++i) {
    m->sub_step();
    if (std::string f = size_ok("after sub-step", i); !f.empty()) return f;
    m->step();
    if (std::string f = size_ok("after step", i); !f.empty()) return f;
  }
  return "";
}

std::string check_clone_then_step(const ModuleEntry& e) {
  std::unique_ptr<Module> a = fresh(e);
  a->step();
  a->sub_step();
  std::unique_ptr<Module> b = a->clone();
  for (int i = 0; i < 4; ++i) {
    a->step();
    b->step();
    const Snapshot &sa = *a->snapshot(), &sb = *b->snapshot();
    if (sa.iteration != sb.iteration || sa.phase != sb.phase || sa.status != sb.status || sa.message != sb.message ||
        !same_replay(a->info(), sa.metrics, sb.metrics))
      return "step " + std::to_string(i + 1) + " after the clone: original " + describe(sa.metrics) + " at " +
             std::to_string(sa.iteration) + ", clone " + describe(sb.metrics) + " at " + std::to_string(sb.iteration);
  }
  return "";
}

// Equal to 1e-12 relative (1e-12 absolute near 0), or both not finite alike: a fused step may
// fold its sums in another order than its sub-steps (plsa's step never stores q).
bool close_metrics(const ModuleInfo& info, const std::vector<double>& a, const std::vector<double>& b) {
  const std::vector<double> x = replayable(info, a), y = replayable(info, b);
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) {
      if (std::isnan(x[i]) != std::isnan(y[i])) return false;
      continue;
    }
    if (x[i] == y[i]) continue;
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) return false;
    if (std::abs(x[i] - y[i]) > 1e-12 * std::max({1.0, std::abs(x[i]), std::abs(y[i])})) return false;
  }
  return true;
}

// From an iteration boundary, sub-steps until the next boundary reach what one step reaches.
std::string check_sub_steps_make_a_step(const ModuleEntry& e) {
  std::unique_ptr<Module> a = fresh(e);
  a->step();  // past iteration 0, which some modules treat apart
  std::unique_ptr<Module> b = a->clone();
  const int from = a->snapshot()->iteration;
  a->step();
  int calls = 0;
  do {
    b->sub_step();
    ++calls;
  } while (b->snapshot()->phase != 0 && calls < 64);
  const Snapshot &sa = *a->snapshot(), &sb = *b->snapshot();
  if (sb.phase != 0) return std::to_string(calls) + " sub-steps from iteration " + std::to_string(from) + " did not end it";
  if (sa.iteration != sb.iteration || sa.status != sb.status || sa.message != sb.message ||
      !close_metrics(a->info(), sa.metrics, sb.metrics))
    return "a step from iteration " + std::to_string(from) + " gives " + describe(sa.metrics) + " at " +
           std::to_string(sa.iteration) + ", its " + std::to_string(calls) + " sub-steps " + describe(sb.metrics) +
           " at " + std::to_string(sb.iteration);
  return "";
}

// The same seed gives the same run on 1 thread and on 2 (parallel loops fold their partial
// results in a fixed block order, never by thread).
std::string check_threads(const ModuleEntry& e) {
  auto run = [&](int threads) {
    set_max_threads(threads);
    std::vector<double> metrics;
    try {
      std::unique_ptr<Module> m = fresh(e);
      for (int i = 0; i < 3; ++i) m->step();
      metrics = m->snapshot()->metrics;
    } catch (...) {
      set_max_threads(0);
      throw;
    }
    set_max_threads(0);
    return metrics;
  };
  const std::vector<double> one = run(1), two = run(2);
  if (!same_replay(e.make()->info(), one, two))
    return "after 3 steps, 1 thread gives " + describe(one) + ", 2 threads " + describe(two);
  return "";
}

// The trainer contract (nn/trainer.h): a run whose loss, gradient or weights stop being
// finite ends Diverged with the advice to rewind and halve the learning rate, and does
// not move after that. Provoked the same way for every trainer: the default data with
// every feature times 1e30 (labels kept), no standardising, every optimizer plain SGD at
// its largest learning rate. Modules that are not trainers pass.
std::string check_trainer_diverges(const ModuleEntry& e) {
  std::unique_ptr<Module> m = e.make();
  if (!dynamic_cast<const TrainerModule*>(m.get())) return "";
  const std::shared_ptr<const Dataset> base = default_data(m->info());
  if (!base) return "a trainer without data: the check has no data to blow up";
  auto huge = std::make_shared<Dataset>(*base);
  huge->x *= 1e30;
  const ParamSpecs& specs = m->params();
  ParamValues v = default_values(specs);
  auto ends_with = [](const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  int lrs = 0;
  for (const ParamSpec& s : specs) {
    if (s.name == "standardize") v[s.name] = 0;
    if (s.name == "optimizer" || ends_with(s.name, "_optimizer")) apply_assignment(specs, v, s.name + "=sgd", e.name);
    if (s.name == "lr" || ends_with(s.name, "_lr")) {
      v[s.name] = s.max;
      ++lrs;
    }
  }
  if (lrs == 0) return "a trainer without a learning rate ('lr' or '*_lr')";
  m->reset(huge, v, kSeed);
  for (int i = 0; i < 200 && !is_terminal(m->snapshot()->status); ++i) m->step();
  const std::shared_ptr<const Snapshot> s = m->snapshot();
  if (s->status != Status::Diverged)
    return "on data times 1e30 at the largest SGD learning rate the run is " + std::string(status_name(s->status)) +
           " after " + std::to_string(s->iteration) + " iterations, not Diverged";
  if (s->message.find("rewind and halve the learning rate") == std::string::npos)
    return "Diverged without the advice 'rewind and halve the learning rate': '" + s->message + "'";
  m->step();
  if (m->snapshot()->iteration != s->iteration) return "a Diverged run moved on a step";
  return "";
}

// A trainer's weights export as PyTorch's state_dict (Snapshot::weights; File > Export > Weights):
// after a step, every tensor has a unique name ending in a torch parameter or buffer name, data
// that fills its shape, finite values; a module that trains nothing has none to export.
std::string check_trainer_weights(const ModuleEntry& e) {
  std::unique_ptr<Module> m = fresh(e);
  m->step();
  m->settle();
  const std::shared_ptr<const Snapshot> s = m->snapshot();
  std::vector<NpyArray> w;
  const bool trainer = dynamic_cast<const TrainerModule*>(m.get()) != nullptr;
  if (!trainer) return s->has_weights() || s->weights(w) ? "not a trainer, but it has weights to export" : "";
  if (!s->has_weights() || !s->weights(w) || w.empty()) return "a trainer whose snapshot exports no weights";
  std::set<std::string> names;
  for (const NpyArray& a : w) {
    if (!names.insert(a.name).second) return "two tensors named '" + a.name + "'";
    const size_t dot = a.name.rfind('.');
    const std::string tail = dot == std::string::npos ? a.name : a.name.substr(dot + 1);
    if (tail != "weight" && tail != "bias" && tail != "running_mean" && tail != "running_var" &&
        tail != "num_batches_tracked")
      return "tensor '" + a.name + "' is not named as a torch parameter or buffer";
    int64_t n = 1;
    for (int64_t d : a.shape) n *= d;
    if (static_cast<size_t>(n) != a.f32.size() + a.i64.size()) return "tensor '" + a.name + "' does not fill its shape";
    for (float v : a.f32)
      if (!std::isfinite(v)) return "tensor '" + a.name + "' has a non-finite value";
  }
  return "";
}

std::string check_set_live(const ModuleEntry& e) {
  std::unique_ptr<Module> m = fresh(e);
  const ParamValues v = default_values(m->params());
  for (const ParamSpec& s : m->params()) {
    if (is_compound(s)) continue;
    const double current = is_text_valued(s) ? 0.0 : v.at(s.name);
    if (s.update == ParamUpdate::Rebuild || is_text_valued(s)) {
      if (std::string f = throws_naming(s.name, "set_live on rebuild parameter '" + s.name + "'",
                                        [&] { m->set_live(s.name, current); });
          !f.empty())
        return f;
      continue;
    }
    try {  // a Live parameter takes its own current value
      m->set_live(s.name, current);
    } catch (const std::exception& ex) {
      return "set_live('" + s.name + "', its default) threw: " + ex.what();
    }
    const double bad = s.type == ParamType::Choice ? static_cast<double>(s.choices.size())
                       : s.type == ParamType::Bool ? 2.0
                                                   : s.max + std::max(1.0, std::abs(s.max));
    if (std::string f = throws_naming(s.name, "set_live on live parameter '" + s.name + "' out of range",
                                      [&] { m->set_live(s.name, bad); });
        !f.empty())
      return f;
  }
  return throws_naming("no_such_parameter", "set_live on an unknown parameter",
                       [&] { m->set_live("no_such_parameter", 1.0); });
}

// A budget (LiveRole::Budget: max_iter, epochs, max_epochs, max_steps) stops the run when it is
// spent, and raised after that, the run continues from where it stopped: the same iteration
// count goes on, nothing restarts (issue 29: word2vec's epochs restarted from iteration 0 and
// lost the 2 180 iterations trained). Every parameter named like a budget must be declared one.
std::string check_budget_continues(const ModuleEntry& e) {
  std::unique_ptr<Module> probe = e.make();
  const ParamSpecs& specs = probe->params();
  for (const ParamSpec& s : specs) {
    const bool budget_name = s.name == "max_iter" || s.name == "epochs" || s.name == "max_epochs" || s.name == "max_steps";
    if (budget_name && s.role != LiveRole::Budget)
      return "'" + s.name + "' is a budget but not declared one (.budget(): live, raised after a stop it continues)";
    if (s.role == LiveRole::Budget && s.update != ParamUpdate::Live) return "budget '" + s.name + "' is not live";
  }
  for (const ParamSpec& s : specs) {
    if (s.role != LiveRole::Budget) continue;
    ParamValues v = default_values(specs);
    v[s.name] = s.min;
    std::unique_ptr<Module> m = fresh(e, &v);
    constexpr int kCap = 20000;
    for (int i = 0; i < kCap && !is_terminal(m->snapshot()->status); ++i) m->step();
    const std::shared_ptr<const Snapshot> stopped = m->snapshot();
    if (stopped->status != Status::Stopped)
      return "with " + s.name + " = " + format_value(s, s.min) + " the run is " + status_name(stopped->status) +
             " after " + std::to_string(stopped->iteration) + " iterations, not Stopped at its budget";
    const double raised = std::min(s.max, s.min + 2);
    try {
      m->set_live(s.name, raised);
    } catch (const std::exception& ex) {
      return "raising " + s.name + " after the stop threw: " + ex.what();
    }
    if (is_terminal(m->snapshot()->status))
      return "raising " + s.name + " to " + format_value(s, raised) + " left the run " +
             status_name(m->snapshot()->status) + ": '" + m->snapshot()->message + "'";
    m->step();
    const std::shared_ptr<const Snapshot> next = m->snapshot();
    if (next->iteration != stopped->iteration + 1)
      return "raising " + s.name + " after the stop at iteration " + std::to_string(stopped->iteration) +
             ", one step reached iteration " + std::to_string(next->iteration) + " (not the next one)";
    if (next->status == Status::Diverged || next->status == Status::Failed)
      return "the continued run is " + std::string(status_name(next->status)) + ": " + next->message;
  }
  return "";
}

std::string check_bad_values(const ModuleEntry& e) {
  std::unique_ptr<Module> m = e.make();
  const ParamSpecs& specs = m->params();
  const std::shared_ptr<const Dataset> data = default_data(m->info());
  for (const ParamSpec& s : specs) {
    ParamValues v = default_values(specs);
    if (is_compound(s)) {  // one number for a compound of several
      if (std::string f = throws_naming(s.name, "--set " + s.name + "=1",
                                        [&] { apply_assignment(specs, v, s.name + "=1", e.name); });
          !f.empty())
        return f;
      continue;
    }
    if (s.type == ParamType::Text) continue;  // any text is a value; the module judges it (tested per module)
    if (s.type == ParamType::IntList) {
      v.text[s.name] = "x";
    } else {
      v[s.name] = s.type == ParamType::Choice ? static_cast<double>(s.choices.size())
                  : s.type == ParamType::Bool ? 2.0
                                              : s.max + std::max(1.0, std::abs(s.max));
    }
    if (std::string f = throws_naming(s.name, "reset with '" + s.name + "' out of range",
                                      [&] { e.make()->reset(data, v, kSeed); });
        !f.empty())
      return f;
  }
  return "";
}

std::string check_own_view(const ModuleEntry& e) {
  if (has_own_view(e.name)) return "";
  return "module '" + e.name + "' has no view of its own (add CILAB_REGISTER_VIEW(Module, View) to its view's .cpp); "
         "it would get the generic view";
}

// The folder of each chapter of the module browser (ModuleInfo::chapter), the same in
// algorithms/, views/, tests/algorithms/ and tests/views/ (docs/ARCHITECTURE.md, section 0).
// A module of a new chapter fails here until its chapter has a row and its folders.
const std::map<std::string, std::string> kChapterFolders = {
    {"Clustering and mixtures", "clustering"},
    {"Dimensionality reduction", "dimensionality"},
    {"SVD and eigenvectors", "svd"},
    {"Matrix completion", "completion"},
    {"Topic models", "topics"},
    {"Word embeddings", "embeddings"},
    {"Gradient methods and optimisers", "gradient_methods"},
    {"Neural networks", "networks"},
    {"Convolutional networks", "convolutional"},
    {"Generative models", "generative"},
};

bool file_contains(const std::filesystem::path& p, const std::string& text) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str().find(text) != std::string::npos;
}

// The module's files sit in its chapter's folder in every layer: its header in
// algorithms/<chapter>/, the view that registers for it in views/<chapter>/ (it
// includes that header), its tests in tests/algorithms/<chapter>/ and tests/views/<chapter>/.
std::string check_chapter_folder(const ModuleEntry& e) {
  namespace fs = std::filesystem;
  const std::unique_ptr<Module> m = e.make();  // alive while its info is read
  const ModuleInfo& info = m->info();
  const auto it = kChapterFolders.find(info.chapter);
  if (it == kChapterFolders.end())
    return "chapter '" + info.chapter + "' has no folder: add it to kChapterFolders (tests/conformance/conformance.cpp) "
           "and create algorithms/, views/, tests/algorithms/ and tests/views/ folders of that name";
  const std::string folder = it->second;
  std::string stem = info.name;
  std::replace(stem.begin(), stem.end(), '-', '_');
  const fs::path root(CILAB_SOURCE_DIR);
  const std::string header = "algorithms/" + folder + "/" + stem + ".h";
  if (!fs::exists(root / header)) return header + " not found: a module's header sits in its chapter's folder";
  bool viewed = false;
  if (fs::is_directory(root / "views" / folder))
    for (const auto& f : fs::directory_iterator(root / "views" / folder))
      if (f.path().extension() == ".cpp" && file_contains(f.path(), "CILAB_REGISTER_VIEW") &&
          (file_contains(f.path(), "#include \"" + header + "\"") ||
           file_contains(fs::path(f.path()).replace_extension(".h"), "#include \"" + header + "\"")))
        viewed = true;
  if (!viewed) return "no view in views/" + folder + "/ registers for it (a .cpp with CILAB_REGISTER_VIEW that, or whose header, includes " + header + ")";
  const std::string test = "tests/algorithms/" + folder + "/test_" + stem + ".cpp";
  if (!fs::exists(root / test)) return test + " not found: a module's tests sit in its chapter's folder";
  bool view_test = false;
  if (fs::is_directory(root / "tests/views" / folder))
    for (const auto& f : fs::directory_iterator(root / "tests/views" / folder))
      if (f.path().extension() == ".cpp" && file_contains(f.path(), "#include \"views/" + folder + "/")) view_test = true;
  if (!view_test) return "no test in tests/views/" + folder + "/ includes a view of views/" + folder + "/";
  return "";
}

std::string check_frames(const ModuleEntry& e) {
  std::unique_ptr<Module> m = fresh(e);
  std::unique_ptr<ModuleView> view = make_view(e.name);
  const std::shared_ptr<const Dataset> data = default_data(m->info());
  const ParamValues values = default_values(m->params());
  std::vector<std::vector<double>> history;
  ImGuiHeadless ui;
  auto frames = [&](const char* when) -> std::string {
    const std::shared_ptr<const Snapshot> snap = m->snapshot();
    if (snap->phase == 0) history.push_back(snap->metrics);
    ViewContext ctx;
    ctx.data = data.get();
    ctx.info = &m->info();
    ctx.metric_history = &history;
    ctx.values = &values;
    ctx.seed = kSeed;
    ctx.data_version = 1;
    ctx.stored_snapshot = [](int) { return std::shared_ptr<const Snapshot>(); };
    for (int f = 0; f < 3; ++f) {
      std::vector<ViewIntent> intents;
      const FrameStats st = ui.frame_in_window([&] {
        view->draw(*snap, ctx, intents);
        view->draw_controls(*snap, ctx);
      });
      if (st.vertices <= ui.empty_vertices())
        return std::string("frame ") + std::to_string(f + 1) + " " + when + " drew nothing (no more than an empty window)";
    }
    return "";
  };
  if (std::string f = frames("before a step"); !f.empty()) return f;
  m->step();
  if (std::string f = frames("after a step"); !f.empty()) return f;
  m->sub_step();
  return frames("after a sub-step");
}

// The labels the view draws, on every tab its number keys choose (1..6), have their glyphs in
// the lab's font (views/common/fonts.h): nothing is drawn as "?" (issue 29).
std::string check_view_glyphs(const ModuleEntry& e) {
  static ImFontAtlas* atlas = [] {
    auto* a = new ImFontAtlas();
    add_lab_font(a, 15.0f);
    a->Build();
    return a;
  }();
  if (atlas->Fonts.empty()) return "DejaVu Sans (fonts-dejavu-core) is not installed";
  const ImFont& font = *atlas->Fonts[0];
  std::unique_ptr<Module> m = fresh(e);
  std::unique_ptr<ModuleView> view = make_view(e.name);
  const std::shared_ptr<const Dataset> data = default_data(m->info());
  const ParamValues values = default_values(m->params());
  std::vector<std::vector<double>> history;
  ImGuiHeadless ui;
  std::string missing;
  auto frames = [&](int tab) {
    const std::shared_ptr<const Snapshot> snap = m->snapshot();
    std::vector<int> keys{'0' + tab};
    ViewContext ctx;
    ctx.data = data.get();
    ctx.info = &m->info();
    ctx.metric_history = &history;
    ctx.values = &values;
    ctx.seed = kSeed;
    ctx.data_version = 1;
    ctx.stored_snapshot = [](int) { return std::shared_ptr<const Snapshot>(); };
    std::string text;
    for (int f = 0; f < 2; ++f) {
      ctx.keys = f == 0 && tab > 0 ? &keys : nullptr;
      std::vector<ViewIntent> intents;
      ui.frame_in_window([&] {
        ImGui::LogToBuffer();
        view->draw(*snap, ctx, intents);
        view->draw_controls(*snap, ctx);
        if (GImGui->LogEnabled) text = GImGui->LogBuffer.c_str();
        ImGui::LogFinish();
      });
    }
    for (unsigned c : missing_glyphs(font, text)) {
      char b[48];
      std::snprintf(b, sizeof b, "%sU+%04X (key %d)", missing.empty() ? "" : ", ", c, tab);
      if (missing.find(b + (missing.empty() ? 0 : 2)) == std::string::npos) missing += b;
    }
  };
  history.push_back(m->snapshot()->metrics);
  frames(0);
  m->step();
  if (m->snapshot()->phase == 0) history.push_back(m->snapshot()->metrics);
  for (int tab = 1; tab <= 6; ++tab) frames(tab);
  return missing.empty() ? "" : "the view draws glyphs the lab font lacks: " + missing;
}

std::string check_cli_columns(const ModuleEntry& e) {
  std::unique_ptr<Module> m = e.make();
  const ModuleInfo& info = m->info();
  const std::string path =
      (std::filesystem::temp_directory_path() / ("cilab_conformance_" + e.name + ".csv")).string();
  const std::string spec = contract_dataset(info);
  const bool own_data = spec != info.default_dataset;  // run on the contract's small corpus
  std::vector<const char*> args = {"cilab", "run", e.name.c_str(), "--steps", "3", "--out", path.c_str()};
  if (own_data) args.insert(args.end(), {"--dataset", spec.c_str()});
  std::ostringstream out, err;
  const CliResult r = run_cli(static_cast<int>(args.size()), args.data(), out, err);
  if (r.exit_code != 0) return "cilab run " + e.name + " exited " + std::to_string(r.exit_code) + ": " + err.str();
  std::ifstream in(path);
  std::string header, row;
  std::getline(in, header);
  std::vector<std::string> want;
  if (!info.table_columns.empty()) {
    want = info.table_columns;
  } else {
    want.push_back("iteration");
    if (info.iteration_columns.empty())
      for (const MetricInfo& mi : info.metrics) want.push_back(mi.name);
    for (const std::string& c : info.iteration_columns) {
      bool found = false;
      for (const MetricInfo& mi : info.metrics) found = found || mi.name == c;
      if (!found) return "iteration column '" + c + "' is not one of the module's metrics";
      want.push_back(c);
    }
  }
  want.push_back("step_ms");
  std::string expected;
  for (size_t i = 0; i < want.size(); ++i) expected += (i ? "," : "") + want[i];
  std::remove(path.c_str());
  if (header != expected) return "cilab run header '" + header + "', declared '" + expected + "'";
  // A training module also writes one row per epoch under --epochs; the
  // others refuse the option (exit 2, one line naming it).
  std::vector<const char*> eargs = {"cilab", "run", e.name.c_str(), "--epochs", "1", "--steps", "2", "--out", path.c_str()};
  if (own_data) eargs.insert(eargs.end(), {"--dataset", spec.c_str()});
  std::ostringstream eout, eerr;
  const CliResult er = run_cli(static_cast<int>(eargs.size()), eargs.data(), eout, eerr);
  if (info.epoch_columns.empty()) {
    std::remove(path.c_str());
    if (er.exit_code != 2 || eerr.str().find("--epochs") == std::string::npos)
      return "cilab run " + e.name + " --epochs: expected exit 2 naming --epochs (no epoch_columns), got " +
             std::to_string(er.exit_code) + ": " + eerr.str();
    return "";
  }
  if (er.exit_code != 0)
    return "cilab run " + e.name + " --epochs 1 exited " + std::to_string(er.exit_code) + ": " + eerr.str();
  std::ifstream ein(path);
  std::getline(ein, header);
  std::remove(path.c_str());
  expected = "epoch,iteration";
  for (const std::string& c : info.epoch_columns) {
    bool found = false;
    for (const MetricInfo& mi : info.metrics) found = found || mi.name == c;
    if (!found) return "epoch column '" + c + "' is not one of the module's metrics";
    expected += "," + c;
  }
  expected += ",epoch_ms";
  if (header != expected) return "cilab run --epochs header '" + header + "', expected '" + expected + "'";
  return "";
}

std::string check_rewind(const ModuleEntry& e) {
  std::unique_ptr<Module> probe = e.make();
  RunnerConfig cfg;
  cfg.threaded = false;
  cfg.history_budget_bytes = 0;  // keep no snapshots: seeking back must re-simulate
  cfg.keyframe_interval = 3;
  Runner runner([&e] { return e.make(); }, cfg);
  runner.reset(default_data(probe->info()), default_values(probe->params()), kSeed);
  runner.step_n(8);
  const std::vector<IterationRecord> records = runner.history();
  const int last = runner.last_iteration();
  for (int target : {last / 2, std::max(0, last - 1), 0}) {
    runner.seek(target);
    const std::shared_ptr<const Snapshot> s = runner.latest();
    if (!s || s->iteration != target) return "seek(" + std::to_string(target) + ") did not show that iteration";
    if (!same_replay(probe->info(), s->metrics, records[static_cast<size_t>(target)].metrics))
      return "seek(" + std::to_string(target) + "): metrics " + describe(s->metrics) + ", first run " +
             describe(records[static_cast<size_t>(target)].metrics);
  }
  return "";
}

// Runs a check, turning an exception into a failure.
std::string guarded(const Check& c, const ModuleEntry& e) {
  try {
    return c.run(e);
  } catch (...) {
    return std::string("threw: ") + what_of(std::current_exception());
  }
}

}  // namespace

const std::vector<Check>& checks() {
  static const std::vector<Check> kChecks = {
      {"defaults validate and reset", check_defaults_validate},
      {"metric vector has the declared size", check_metric_sizes},
      {"clone-then-step equals step", check_clone_then_step},
      {"sub-steps make a step", check_sub_steps_make_a_step},
      {"1 and 2 threads give the same run", check_threads},
      {"set_live: rebuild throws, live takes its value", check_set_live},
      {"a bad value names the parameter", check_bad_values},
      {"has its own view", check_own_view},
      {"three headless frames draw", check_frames},
      {"cilab run writes the declared columns", check_cli_columns},
      {"runner rewind reproduces the metrics", check_rewind},
      {"sits in its chapter's folder", check_chapter_folder},
      {"a trainer diverges with the rewind advice", check_trainer_diverges},
      {"a trainer exports its weights as PyTorch names them", check_trainer_weights},
      {"a budget raised after the stop continues the run", check_budget_continues},
      {"view labels have their glyphs", check_view_glyphs},
  };
  return kChecks;
}

std::vector<std::string> failures(const ModuleEntry& entry) {
  std::vector<std::string> out;
  for (const Check& c : checks())
    if (std::string f = guarded(c, entry); !f.empty()) out.push_back(std::string(c.name) + ": " + f);
  return out;
}

}  // namespace cilab::conformance
