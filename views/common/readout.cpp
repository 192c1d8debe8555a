// Read-outs of the training views (readout.h).
#include "views/common/readout.h"

#include <cmath>
#include <cstdio>

namespace cilab {

std::string format_number(double v, const char* format) {
  if (std::isnan(v)) return "n/a";
  char b[64];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

std::string readout_number(double v, const char* format) {
  return std::isfinite(v) ? format_number(v, format) : "n/a";
}

}  // namespace cilab
