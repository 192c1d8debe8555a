#include "algorithms/core/module.h"

#include <algorithm>
#include <stdexcept>

namespace cilab {

const char* status_name(Status s) {
  switch (s) {
    case Status::Running: return "running";
    case Status::Converged: return "converged";
    case Status::Stopped: return "stopped";
    case Status::Diverged: return "diverged";
    case Status::Failed: return "failed";
  }
  return "?";
}

void Module::set_live(const std::string& name, double) {
  const ParamSpec* s = find_param(params(), name);
  if (!s) throw std::invalid_argument("unknown parameter '" + name + "' for module " + info().name);
  throw std::invalid_argument("parameter '" + name + "' of " + info().name +
                              " cannot change mid-run; changing it restarts the run");
}

bool Module::apply(const Intent&) { return false; }

int Dataset::num_classes() const {
  int m = 0;
  for (int l : labels) m = std::max(m, l + 1);
  return std::max(m, static_cast<int>(class_names.size()));
}

}  // namespace cilab
