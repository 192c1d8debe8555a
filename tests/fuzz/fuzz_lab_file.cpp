// libFuzzer target: the preset and session file parser (app/headless/lab_file.h).
// Contract: a LabFile with a module (and a title for a preset, not a session), that write_lab_file writes
// back to text parse_lab_file reads to an equal value; or a one-line
// std::invalid_argument.
#include "app/headless/lab_file.h"
#include "tests/fuzz/fuzz_contract.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

bool same_edit(const cilab::LabEdit& a, const cilab::LabEdit& b) {
  return a.iteration == b.iteration && a.phase == b.phase && a.param == b.param && a.value == b.value &&
         a.intent == b.intent && a.index == b.index && a.values == b.values;
}

bool same_data(const cilab::Dataset* a, const cilab::Dataset* b) {
  if (!a || !b) return a == b;
  return a->x.rows() == b->x.rows() && a->x.cols() == b->x.cols() && a->x == b->x && a->labels == b->labels &&
         a->class_names == b->class_names && a->column_names == b->column_names && a->target == b->target &&
         a->target_name == b->target_name && a->name == b->name && a->source == b->source;
}

bool same(const cilab::LabFile& a, const cilab::LabFile& b) {
  bool edits = a.edits.size() == b.edits.size();
  for (size_t i = 0; edits && i < a.edits.size(); ++i) edits = same_edit(a.edits[i], b.edits[i]);
  return a.session == b.session && a.title == b.title && a.chapter == b.chapter && a.note == b.note &&
         a.module == b.module && a.dataset == b.dataset && a.data_file == b.data_file && a.params == b.params &&
         a.seed == b.seed && a.iteration == b.iteration && a.tab == b.tab && a.panels == b.panels &&
         a.phase == b.phase && a.last_iteration == b.last_iteration && edits &&
         same_data(a.data_embedded.get(), b.data_embedded.get());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  cilab_fuzz::check_contract<std::invalid_argument>([&] {
    const cilab::LabFile lab = cilab::parse_lab_file(text, "fuzz.json");
    if (lab.module.empty() || (!lab.session && lab.title.empty()))
      cilab_fuzz::broken("a lab file without a module, or a preset without a title");
    std::string written;
    try {
      written = cilab::write_lab_file(lab);
    } catch (const std::exception& e) {
      cilab_fuzz::broken(std::string("write_lab_file threw: ") + e.what());
    }
    cilab::LabFile back;
    try {
      back = cilab::parse_lab_file(written, "written.json");
    } catch (const std::exception& e) {
      cilab_fuzz::broken(std::string("the written lab file does not parse: ") + e.what() + "\n" + written);
    }
    if (!same(lab, back)) cilab_fuzz::broken("the written lab file reads back different:\n" + written);
  });
  return 0;
}
