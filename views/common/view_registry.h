// Which view draws which module. A view registers itself in its own .cpp,
// keyed by its module's type, so the module's name is written once (in the
// module's info()) and a new module touches only its own files plus the one
// line in algorithms/core/registry.cpp:
//
//   CILAB_REGISTER_VIEW(KMeans, KMeansView);   // at namespace scope in kmeans_view.cpp
//
// cilab_views is a CMake OBJECT library, so every view object (and with it its
// registration) is linked into the app and the tests; a static archive would
// drop them. The conformance suite (tests/conformance) fails for a module of
// the registry without a view of its own.
#pragma once

#include "algorithms/core/module.h"
#include "views/common/view.h"

#include <memory>
#include <string>
#include <vector>

namespace cilab {

struct ViewEntry {
  std::unique_ptr<Module> (*probe)();     // a fresh module: its info().name keys the entry
  std::unique_ptr<ModuleView> (*make)();  // a fresh view
};

// Adds an entry (called by CILAB_REGISTER_VIEW during static initialisation).
struct ViewRegistration {
  ViewRegistration(std::unique_ptr<Module> (*probe)(), std::unique_ptr<ModuleView> (*make)());
};

// Every registered view, in registration (link) order.
const std::vector<ViewEntry>& view_registry();

// True when a view registered itself for `module_name`.
bool has_own_view(const std::string& module_name);

}  // namespace cilab

#define CILAB_REGISTER_VIEW(ModuleType, ViewType)                                                 \
  static const ::cilab::ViewRegistration cilab_view_registration_##ViewType(                      \
      [] { return std::unique_ptr<::cilab::Module>(std::make_unique<ModuleType>()); },          \
      [] { return std::unique_ptr<::cilab::ModuleView>(std::make_unique<ViewType>()); })
