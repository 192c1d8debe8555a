// Read-outs of the training views (readout.h).
#include "views/common/readout.h"

#include <cmath>
#include <cstdio>

namespace cilab {

std::string readout_number(double v, const char* format) {
  if (!std::isfinite(v)) return "n/a";
  char b[64];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

}  // namespace cilab
