// The E-step of the GMM (see gmm.h / gmm.cpp for the model): per fixed block
// of rows (block_rows(d)) the log densities lp (B x k), their row-wise
// log-sum-exp, q = exp(lp - lse), and the shifted M statistics
//   N_j = sum q_ij,  S_j = sum q_ij D_ij,  T_j = sum q_ij D_ij D_ij^T
// with D_ij = x_i - a_j (T_j: only the diagonal for diag/spherical). Blocks are
// reduced in index order, so results do not depend on the thread count.
// d <= 4 uses fixed-size loops over rows; larger d gets x P_j from one GEMM
// (full/tied) or scaled differences (diag/spherical).
#include "algorithms/clustering/gmm_internal.h"

#include <algorithm>
#include <cmath>

#include "algorithms/core/parallel.h"

namespace cilab {
namespace gmm_detail {

namespace {

constexpr double kParallelMinWork = 1e5;  // n * k * (d + 8) below which one thread runs
const double kLog2Pi = std::log(2.0 * 3.14159265358979323846);

// One E pass over the centred data. Writes q into `resp` (n x k, may be null)
// and accumulates the statistics shifted by `means` when `stats` is set.
struct EInput {
  const Eigen::MatrixXd* x;
  const Eigen::MatrixXd* means;  // k x d
  const std::vector<Eigen::MatrixXd>* prec;
  Eigen::VectorXd log_c;         // k: log pi_j + log det P_j - d/2 log 2 pi
  bool diag;
  // d > 4, full/tied: (x - a_j) P_j = x P_j - a_j P_j from one GEMM x [P_1 .. P_k]
  // (tied: x P once). pall is d x (k d) (tied: d x d), mp row j = a_j P_j.
  bool shared = false;
  Eigen::MatrixXd pall;
  Eigen::MatrixXd mp;
};

// Rows per work block (fixed for a given d: results do not depend on threads).
int block_rows(int d) { return d <= 4 ? 1024 : 256; }

EInput make_einput(const Eigen::MatrixXd& x, const Eigen::MatrixXd& means,
                   const std::vector<Eigen::MatrixXd>& prec, const Eigen::VectorXd& weights,
                   const Eigen::VectorXd& log_det_prec, bool diag, bool tied) {
  const int k = static_cast<int>(means.rows()), d = static_cast<int>(means.cols());
  EInput in{&x, &means, &prec, Eigen::VectorXd(k), diag, false, Eigen::MatrixXd(), Eigen::MatrixXd()};
  for (int j = 0; j < k; ++j)
    in.log_c[j] = std::log(weights[j]) + log_det_prec[j] - 0.5 * d * kLog2Pi;
  if (d > 4 && !diag) {
    in.shared = tied;
    const int blocks = tied ? 1 : k;
    in.pall.resize(d, blocks * d);
    for (int j = 0; j < blocks; ++j) in.pall.middleCols(j * d, d) = prec[static_cast<size_t>(j)];
    in.mp.resize(k, d);
    for (int j = 0; j < k; ++j) in.mp.row(j) = means.row(j) * prec[static_cast<size_t>(j)];
  }
  return in;
}

// Log densities lp(i, j) = log_c_j - 1/2 ||(x_i - a_j) P_j||^2 for d = D <= 4
// (fixed sizes: the loop over rows vectorises).
template <int D>
void log_dens_low(const EInput& in, int r0, int b, Eigen::ArrayXXd& lp) {
  const Eigen::MatrixXd& x = *in.x;
  const int k = static_cast<int>(in.means->rows());
  const double* xc[D];
  for (int c = 0; c < D; ++c) xc[c] = x.col(c).data() + r0;
  for (int j = 0; j < k; ++j) {
    const Eigen::MatrixXd& p = (*in.prec)[static_cast<size_t>(j)];
    double m[D], pm[D][D];
    for (int r = 0; r < D; ++r) {
      m[r] = (*in.means)(j, r);
      for (int c = 0; c < D; ++c) pm[r][c] = in.diag ? (r == c ? p(r, 0) : 0.0) : p(r, c);
    }
    const double cj = in.log_c[j];
    double* out = &lp(0, j);
    for (int i = 0; i < b; ++i) {
      double u[D];
      for (int r = 0; r < D; ++r) u[r] = xc[r][i] - m[r];
      double sq = 0.0;
      for (int c = 0; c < D; ++c) {
        double y = 0.0;
        for (int r = 0; r <= c; ++r) y += u[r] * pm[r][c];
        sq += y * y;
      }
      out[i] = cj - 0.5 * sq;
    }
  }
}

// Shifted statistics of one block for d = D <= 4 (q: b x k responsibilities).
template <int D>
void stats_low(const EInput& in, int r0, int b, const Eigen::ArrayXXd& q, Stats& st) {
  const Eigen::MatrixXd& x = *in.x;
  const int k = static_cast<int>(in.means->rows());
  for (int j = 0; j < k; ++j) {
    Eigen::Array<double, Eigen::Dynamic, D> u(b, D);
    for (int c = 0; c < D; ++c)
      u.col(c) = x.col(c).segment(r0, b).array() - (*in.means)(j, c);
    const Eigen::ArrayXd qj = q.col(j);
    st.n[j] = qj.sum();
    Eigen::MatrixXd& t = st.t[static_cast<size_t>(j)];
    for (int r = 0; r < D; ++r) {
      const Eigen::ArrayXd w = qj * u.col(r);
      st.s(r, j) = w.sum();
      if (in.diag) {
        t(r, 0) = (w * u.col(r)).sum();
      } else {
        for (int c = r; c < D; ++c) t(r, c) = t(c, r) = (w * u.col(c)).sum();
      }
    }
  }
}

void e_block(const EInput& in, int r0, int r1, Eigen::MatrixXd* resp, Stats* stats) {
  const Eigen::MatrixXd& x = *in.x;
  const int b = r1 - r0, d = static_cast<int>(x.cols()), k = static_cast<int>(in.means->rows());
  Eigen::ArrayXXd lp(b, k);
  switch (d) {
    case 1: log_dens_low<1>(in, r0, b, lp); break;
    case 2: log_dens_low<2>(in, r0, b, lp); break;
    case 3: log_dens_low<3>(in, r0, b, lp); break;
    case 4: log_dens_low<4>(in, r0, b, lp); break;
    default:
      if (in.diag) {
        Eigen::MatrixXd dj(b, d), y(b, d);
        for (int j = 0; j < k; ++j) {
          dj.noalias() = x.middleRows(r0, b).rowwise() - in.means->row(j);
          const Eigen::MatrixXd& p = (*in.prec)[static_cast<size_t>(j)];
          y = (dj.array().rowwise() * p.col(0).transpose().array()).matrix();
          Eigen::ArrayXd sq = y.col(0).array().square();
          for (int c = 1; c < d; ++c) sq += y.col(c).array().square();
          lp.col(j) = in.log_c[j] - 0.5 * sq;
        }
      } else {
        Eigen::MatrixXd xp(b, in.pall.cols());
        xp.noalias() = x.middleRows(r0, b) * in.pall;
        for (int j = 0; j < k; ++j) {
          const int off = in.shared ? 0 : j * d;
          Eigen::ArrayXd sq = (xp.col(off).array() - in.mp(j, 0)).square();
          for (int c = 1; c < d; ++c) sq += (xp.col(off + c).array() - in.mp(j, c)).square();
          lp.col(j) = in.log_c[j] - 0.5 * sq;
        }
      }
  }
  Eigen::ArrayXd mx = lp.col(0);
  for (int j = 1; j < k; ++j) mx = mx.max(lp.col(j));
  for (int j = 0; j < k; ++j) lp.col(j) -= mx;
  Eigen::ArrayXXd e = lp.exp();  // a plain array: Eigen's vectorised exp
  Eigen::ArrayXd s = e.col(0);
  for (int j = 1; j < k; ++j) s += e.col(j);
  const Eigen::ArrayXd inv = s.inverse();
  e.colwise() *= inv;
  if (resp) resp->middleRows(r0, b) = e.matrix();
  if (!stats) return;
  stats->ll = (mx + s.log()).sum();
  if (stats->n.size() == 0) return;  // score(): the log-likelihood only
  switch (d) {
    case 1: stats_low<1>(in, r0, b, e, *stats); return;
    case 2: stats_low<2>(in, r0, b, e, *stats); return;
    case 3: stats_low<3>(in, r0, b, e, *stats); return;
    case 4: stats_low<4>(in, r0, b, e, *stats); return;
    default: break;
  }
  Eigen::MatrixXd dj(b, d), w(b, d);
  for (int j = 0; j < k; ++j) {
    dj.noalias() = x.middleRows(r0, b).rowwise() - in.means->row(j);
    stats->n[j] = e.col(j).sum();
    Eigen::MatrixXd& t = stats->t[static_cast<size_t>(j)];
    if (in.diag) {
      w = (dj.array().colwise() * e.col(j)).matrix();
      stats->s.col(j) = w.colwise().sum().transpose();
      t = (w.array() * dj.array()).colwise().sum().transpose().matrix();
    } else {
      // T_j = W^T W with W = sqrt(q_j) D_j (symmetric rank update: half the flops).
      const Eigen::ArrayXd sq = e.col(j).sqrt();
      w = (dj.array().colwise() * sq).matrix();
      stats->s.col(j) = (dj.transpose() * e.col(j).matrix());
      t.setZero();
      t.selfadjointView<Eigen::Lower>().rankUpdate(w.transpose());
      t.triangularView<Eigen::StrictlyUpper>() = t.transpose();
    }
  }
}

}  // namespace

Stats e_pass(const Eigen::MatrixXd& x, const Eigen::MatrixXd& means,
             const std::vector<Eigen::MatrixXd>& prec, const Eigen::VectorXd& weights,
             const Eigen::VectorXd& log_det_prec, bool diag, bool tied, Eigen::MatrixXd* resp,
             bool with_stats) {
  const int n = static_cast<int>(x.rows()), d = static_cast<int>(x.cols());
  const int k = static_cast<int>(means.rows());
  const EInput in = make_einput(x, means, prec, weights, log_det_prec, diag, tied);
  const int rows = block_rows(d);
  const int blocks = (n + rows - 1) / rows;
  const int threads = parallel_threads(
      blocks, static_cast<double>(n) * k * (d * (diag ? 1 : d) + 8), kParallelMinWork);
  Stats total;
  if (with_stats) total.init(k, d, diag);
  parallel_reduce_blocks(
      blocks, threads,
      [&](int bi) {
        Stats st;  // uninitialised without stats: e_block computes only the log-likelihood
        if (with_stats) st.init(k, d, diag);
        const int r0 = bi * rows, r1 = std::min(n, r0 + rows);
        e_block(in, r0, r1, resp, &st);
        return st;
      },
      [&](int, Stats&& st) {
        if (with_stats)
          total.add(st);
        else
          total.ll += st.ll;
      });
  return total;
}

}  // namespace gmm_detail
}  // namespace cilab
