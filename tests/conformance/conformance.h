// The module conformance suite: the contract every registry entry must keep
// (docs/ARCHITECTURE.md, "Adding a module"). Each check runs one entry and
// returns "" when it holds, otherwise what failed; test_conformance.cpp runs
// every check over every entry of module_registry(), so a new module is
// covered from its first commit, and shows with a deliberately broken entry
// that a failing module is reported.
#pragma once

#include "algorithms/core/registry.h"

#include <string>
#include <vector>

namespace cilab::conformance {

struct Check {
  const char* name;
  std::string (*run)(const ModuleEntry& entry);
};

// Every check, in the order of the list.
const std::vector<Check>& checks();

// The failures of every check on `entry` ("check: what failed"); empty if it conforms.
std::vector<std::string> failures(const ModuleEntry& entry);

}  // namespace cilab::conformance
