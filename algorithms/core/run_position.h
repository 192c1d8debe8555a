// Where a run is, as every snapshot reports it: iteration, sub-step phase, status
// and message (Snapshot's fields of the same names). A module's State holds these
// by deriving from RunPosition (TrainLoop does too) and writes them into each
// snapshot with describe(), so no module copies them field by field.
#pragma once

#include "algorithms/core/module.h"

#include <string>

namespace cilab {

struct RunPosition {
  int iteration = 0;  // completed iterations
  int phase = 0;      // 0 at an iteration boundary, p > 0 after sub-step p
  Status status = Status::Running;
  std::string message;

  // Writes iteration, phase, status and message into `out`.
  void describe(Snapshot& out) const {
    out.iteration = iteration;
    out.phase = phase;
    out.status = status;
    out.message = message;
  }
  // The start of a run: iteration 0 at a boundary, Running, no message.
  void restart() {
    iteration = 0;
    phase = 0;
    status = Status::Running;
    message.clear();
  }
};

// The snapshot of a module that was never reset: Failed, "<module>: not reset yet<why>"
// and the metric table's blank row.
inline void describe_not_reset(Snapshot& out, const std::string& module, const MetricTable& metrics,
                               const char* why = "") {
  out.status = Status::Failed;
  out.message = module + ": not reset yet" + why;
  out.metrics = metrics.blank();
}

}  // namespace cilab
