// Model selection for the Gaussian mixture: see gmm_select.h. Each K is a
// fresh Gmm (its own state, its own threads), so concurrent sweeps share
// nothing mutable.
#include "algorithms/clustering/gmm_select.h"

#include "algorithms/clustering/gmm.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace cilab {

std::vector<GmmSweepRow> gmm_sweep(std::shared_ptr<const Dataset> data, const ParamValues& base,
                                   int kmax, uint64_t seed,
                                   const std::function<bool(int, int)>& progress) {
  require_usable_data(data.get(), "gmm sweep");
  const int n = data->rows(), d = data->cols();
  if (kmax < 1 || kmax > n)
    throw std::invalid_argument("gmm sweep: kmax = " + std::to_string(kmax) +
                                " must be in [1, n = " + std::to_string(n) +
                                "]; try a smaller kmax");
  Gmm proto;
  ParamValues v = base;
  for (const ParamSpec& s : proto.params())
    if (v.find(s.name) == v.end()) v[s.name] = s.def;
  v["compare_kmeans"] = 0;
  if (static_cast<Gmm::Init>(static_cast<int>(v["init"])) == Gmm::Init::Manual)
    v["init"] = static_cast<double>(static_cast<int>(Gmm::Init::KMeans));
  const Gmm::Params p0 = Gmm::params_from(v);  // validates (k is overridden below)
  std::vector<GmmSweepRow> rows;
  for (int k = 1; k <= kmax; ++k) {
    v["k"] = k;
    Gmm m;
    m.reset(data, v, seed);
    while (!is_terminal(m.status())) m.step();
    const std::shared_ptr<const GmmSnapshot> s = m.gmm_snapshot();
    GmmSweepRow r;
    r.k = k;
    r.n_iter = s->iteration;
    r.converged = s->status == Status::Converged;
    r.diverged = s->status == Status::Diverged;
    r.n_parameters = Gmm::n_parameters(p0.covariance, k, d);
    r.log_likelihood = m.score();  // at the last good parameters
    const double total = r.log_likelihood * n;
    r.bic = -2.0 * total + r.n_parameters * std::log(static_cast<double>(n));
    r.aic = -2.0 * total + 2.0 * r.n_parameters;
    rows.push_back(r);
    if (progress && !progress(k, kmax)) break;
  }
  return rows;
}

}  // namespace cilab
