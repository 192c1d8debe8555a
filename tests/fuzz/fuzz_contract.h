// The parsers' contract, checked by every libFuzzer target (tests/fuzz/).
//
// A parser given any bytes either returns a valid result or throws the
// exception type it documents, whose message is one non-empty line. Anything
// else is a finding: check_contract prints what broke and aborts, so libFuzzer
// saves the input (crashes, sanitizer reports, hangs and huge allocations are
// caught by libFuzzer and the sanitizers themselves).
#pragma once

#include "algorithms/core/dataset.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>
#include <typeinfo>

namespace cilab_fuzz {

// Prints "contract broken: WHAT" and aborts (libFuzzer reports a crash).
[[noreturn]] inline void broken(const std::string& what) {
  std::fprintf(stderr, "contract broken: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Checks an error message: non-empty, one line.
inline void check_message(const char* msg) {
  const std::string m = msg ? msg : "";
  if (m.empty()) broken("an exception with an empty message");
  if (m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
    broken("a message of more than one line: " + m);
}

// Runs `parse` (returning nothing; it checks its own result); `Expected` is the documented exception type.
// Any other exception, or a bad message, breaks the contract.
template <class Expected, class Parse>
void check_contract(Parse&& parse) {
  try {
    parse();
  } catch (const Expected& e) {
    check_message(e.what());
    // CILAB_FUZZ_VERBOSE=1 prints each message (to look at a corpus or a finding's error).
    if (std::getenv("CILAB_FUZZ_VERBOSE")) std::fprintf(stderr, "error: %s\n", e.what());
  } catch (const std::exception& e) {
    broken(std::string("threw ") + typeid(e).name() + " instead of the documented type: " + e.what());
  } catch (...) {
    broken("threw something that is not a std::exception");
  }
}

// The Dataset invariants (algorithms/core/dataset.h) a loader promises: at
// least one row and one column, names and labels sized to match, label ids
// below the class count, finite features and target; an image shape that
// matches the columns.
inline void check_dataset(const cilab::Dataset& d) {
  const long n = d.x.rows(), cols = d.x.cols();
  if (n < 1 || cols < 1) broken("a dataset of " + std::to_string(n) + " x " + std::to_string(cols));
  if (static_cast<long>(d.column_names.size()) != cols)
    broken(std::to_string(d.column_names.size()) + " column names for " + std::to_string(cols) + " columns");
  const std::set<std::string> distinct(d.column_names.begin(), d.column_names.end());
  if (distinct.size() != d.column_names.size()) broken("duplicate column names");
  if (distinct.count("")) broken("an empty column name");
  if (!d.x.allFinite()) broken("a non-finite feature value");
  if (!d.labels.empty()) {
    if (static_cast<long>(d.labels.size()) != n) broken("labels not one per row");
    for (int l : d.labels)
      if (l < -1 || l >= static_cast<int>(d.class_names.size()))
        broken("label " + std::to_string(l) + " outside [-1, " + std::to_string(d.class_names.size()) + ")");
  }
  if (!d.target.empty()) {
    if (static_cast<long>(d.target.size()) != n) broken("target not one per row");
    for (double t : d.target)
      if (!std::isfinite(t)) broken("a non-finite target");
    if (d.target_name.empty()) broken("a target without a name");
  }
  if (d.image_h != 0 || d.image_w != 0) {
    if (!d.is_image() || static_cast<long>(d.image_h) * d.image_w != cols)
      broken("image shape " + std::to_string(d.image_h) + " x " + std::to_string(d.image_w) + " for " +
             std::to_string(cols) + " columns");
  }
  if (d.name.empty() || d.source.empty()) broken("a dataset without a name or source");
}

}  // namespace cilab_fuzz
