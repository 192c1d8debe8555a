// The trainers' reset checks: see train_checks.h.
#include "algorithms/nn/train_checks.h"

#include "algorithms/core/module.h"
#include "algorithms/core/params.h"

#include <stdexcept>

namespace cilab {

void check_batch_fits(const std::string& module, int batch, int n_train, const std::string& where) {
  if (batch <= n_train) return;
  throw std::invalid_argument(module + ": parameter 'batch' = " + std::to_string(batch) +
                              " is larger than the training set (" + std::to_string(n_train) + " rows" + where +
                              "); try batch <= " + std::to_string(n_train));
}

void check_network_size(const std::string& module, double n_params, const std::vector<int>& layers, double max_bytes,
                        const std::string& also) {
  const double bytes = n_params * 5 * sizeof(float);
  if (bytes <= max_bytes) return;
  throw std::invalid_argument(module + ": parameter 'layers' = " + format_int_list(layers) + " gives " +
                              fmt_g(n_params) + " weights (" + fmt_g(bytes / 1048576.0) +
                              " MiB with gradients and optimizer state, at most " + fmt_g(max_bytes / 1048576.0) +
                              " MiB); try narrower layers" + also);
}

}  // namespace cilab
