// The checks a trainer's reset makes before it allocates (mlp, autoencoder,
// vae): each throws std::invalid_argument naming the module, the parameter and
// what to try, in one wording for every trainer.
#pragma once

#include <string>
#include <vector>

namespace cilab {

// `batch` must not exceed the training rows: "<module>: parameter 'batch' = B
// is larger than the training set (N rows<where>); try batch <= N" (where:
// e.g. " after test_fraction = 0.2").
void check_batch_fits(const std::string& module, int batch, int n_train, const std::string& where = "");

// The network's n_params weights with their gradients and up to three optimizer
// buffers (5 floats each) must fit in max_bytes: else "<module>: parameter
// 'layers' = L gives N weights (X MiB ..., at most Y MiB); try narrower layers<also>".
void check_network_size(const std::string& module, double n_params, const std::vector<int>& layers, double max_bytes,
                        const std::string& also = "");

}  // namespace cilab
