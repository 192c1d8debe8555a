#include "algorithms/core/registry.h"

#include "algorithms/networks/activations.h"
#include "algorithms/networks/autoencoder.h"
#include "algorithms/networks/backprop.h"
#include "algorithms/completion/completion.h"
#include "algorithms/generative/gan.h"
#include "algorithms/embeddings/glove.h"
#include "algorithms/clustering/gmm.h"
#include "algorithms/clustering/kmeans.h"
#include "algorithms/convolutional/cnn.h"
#include "algorithms/convolutional/convolution.h"
#include "algorithms/networks/mlp.h"
#include "algorithms/gradient_methods/optimizers.h"
#include "algorithms/dimensionality/pca.h"
#include "algorithms/topics/plsa.h"
#include "algorithms/svd/power_iteration.h"
#include "algorithms/svd/shrinkage.h"
#include "algorithms/svd/svd_lowrank.h"
#include "algorithms/generative/vae.h"
#include "algorithms/embeddings/word2vec.h"

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
      {"word2vec", [] { return std::make_unique<Word2Vec>(); }},
      {"glove", [] { return std::make_unique<Glove>(); }},
      {"optimizers", [] { return std::make_unique<Optimizers>(); }},
      {"activations", [] { return std::make_unique<Activations>(); }},
      {"mlp", [] { return std::make_unique<Mlp>(); }},
      {"backprop", [] { return std::make_unique<Backprop>(); }},
      {"autoencoder", [] { return std::make_unique<Autoencoder>(); }},
      {"convolution", [] { return std::make_unique<Convolution>(); }},
      {"cnn", [] { return std::make_unique<Cnn>(); }},
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
