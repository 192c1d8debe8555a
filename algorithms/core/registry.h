// The list of modules the lab knows, in module-browser order. Adding a module
// is one line in registry.cpp (explicit: static-init registration is dropped
// by static linking).
#pragma once

#include "algorithms/core/module.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct ModuleEntry {
  std::string name;
  std::function<std::unique_ptr<Module>()> make;
};

const std::vector<ModuleEntry>& module_registry();

// A fresh module by CLI name. Throws std::invalid_argument listing the known names.
std::unique_ptr<Module> make_module(const std::string& name);

}  // namespace cilab
