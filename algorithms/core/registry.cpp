#include "algorithms/core/registry.h"

#include "algorithms/activations.h"
#include "algorithms/autoencoder.h"
#include "algorithms/backprop.h"
#include "algorithms/completion.h"
#include "algorithms/gan.h"
#include "algorithms/gmm.h"
#include "algorithms/kmeans.h"
#include "algorithms/mlp.h"
#include "algorithms/optimizers.h"
#include "algorithms/pca.h"
#include "algorithms/plsa.h"
#include "algorithms/power_iteration.h"
#include "algorithms/shrinkage.h"
#include "algorithms/svd_lowrank.h"
#include "algorithms/vae.h"

#include <stdexcept>

namespace cilab {

const std::vector<ModuleEntry>& module_registry() {
  static const std::vector<ModuleEntry> entries = {
      {"kmeans", [] { return std::make_unique<KMeans>(); }},
      {"gmm", [] { return std::make_unique<Gmm>(); }},
      {"pca", [] { return std::make_unique<PCA>(); }},
      {"svd-lowrank", [] { return std::make_unique<SvdLowRank>(); }},
      {"shrinkage", [] { return std::make_unique<Shrinkage>(); }},
      {"power-iteration", [] { return std::make_unique<PowerIteration>(); }},
      {"completion", [] { return std::make_unique<Completion>(); }},
      {"plsa", [] { return std::make_unique<Plsa>(); }},
      {"optimizers", [] { return std::make_unique<Optimizers>(); }},
      {"activations", [] { return std::make_unique<Activations>(); }},
      {"mlp", [] { return std::make_unique<Mlp>(); }},
      {"backprop", [] { return std::make_unique<Backprop>(); }},
      {"autoencoder", [] { return std::make_unique<Autoencoder>(); }},
      {"vae", [] { return std::make_unique<Vae>(); }},
      {"gan", [] { return std::make_unique<Gan>(); }},
  };
  return entries;
}

std::unique_ptr<Module> make_module(const std::string& name) {
  std::string known;
  for (const ModuleEntry& e : module_registry()) {
    if (e.name == name) return e.make();
    known += (known.empty() ? "" : ", ") + e.name;
  }
  throw std::invalid_argument("unknown module '" + name + "'; known modules: " + known +
                              " (see: cilab list)");
}

}  // namespace cilab
