// ImGui-free pieces of the completion view (unit-tested in
// tests/views/completion/test_completion_view.cpp): the mask of a problem as a grid
// (train / held-out / missing) with each cell's entry, the step function
// rank(shrink_tau) of a spectrum, and the live oracles read from the metric
// history of a run.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cilab {

struct CompletionProblem;
struct CompletionSnapshot;

// Which entries of an m x n problem are known, cell by cell (row-major, row 0 first).
struct CompletionMask {
  static constexpr int kMissing = -1;
  int m = 0, n = 0;
  // entry[i n + j]: e >= 0 the training entry e (train_*[e]), e <= -2 the held-out entry -e - 2
  // (test_*[-e - 2]), kMissing when (i, j) is not observed.
  std::vector<int> entry;
  // The mask as a heatmap of a categorical colormap of N colours over [0, N]: training entries
  // 0.5 (colour 0), held-out 1.5 (colour 1), missing NaN (transparent: the plot's background).
  std::vector<float> codes;
  size_t train = 0, test = 0;
};
// The mask of problem p.
CompletionMask completion_mask(const CompletionProblem& p);

// What a cell holds: kind 0 train, 1 held-out, 2 missing; the observed value (NaN when missing).
struct CellEntry {
  int kind = 2;
  double observed = 0;
};
CellEntry cell_entry(const CompletionProblem& p, const CompletionMask& mask, int i, int j);

// rank(shrink_tau(Y)) = #{i : sigma_i > tau} as a step function of tau over [0, tau_max]
// (tau_max > 0; sigma in any order): points (tau, rank) of a staircase falling at every sigma_i,
// drawn as a line. Non-increasing in tau by construction; the caller checks the spectrum's order
// with spectrum_descending().
void rank_staircase(const std::vector<double>& sigma, double tau_max, std::vector<double>& taus,
                    std::vector<double>& ranks);
int rank_above(const std::vector<double>& sigma, double tau);
bool spectrum_descending(const std::vector<double>& sigma);

// A live change of a parameter that enters the objective (lambda, tau: LiveRole::Objective),
// made at `iteration` after sub-step `phase`: the objective after it is another function, so the
// oracle compares nothing across it (it re-bases) and the curve marks it at x = iteration + phase / 2.
struct ObjectiveChange {
  int iteration = 0;
  int phase = 0;
  std::string label;  // "lambda = 5"
};

// A live oracle of the method, judged on the metric history (phase-0 metrics, ModuleInfo order).
struct OracleStatus {
  bool applies = false;        // the method has a monotonicity oracle here
  std::string text;            // one line for the header ("observed loss never rose: holds (12 steps)")
  int violations = 0;          // steps that broke it
  int first_violation = -1;    // the first iteration where it broke (-1 none)
  // Points where it broke, for markers: x (iteration, or t - 1/2 for an ALS half-step), y.
  std::vector<double> bad_x, bad_y;
  // The objective changes inside the history judged (the oracle re-based there): x and label.
  std::vector<double> rebase_x;
  std::vector<std::string> rebase_label;
};
// method: Completion::Method as int; eta: the step size in use (svd_impute);
// y_support, train: the svt support check (|Y's stored values| against |Omega|).
// changes: the objective changes of the run (any order; those past the history are ignored).
OracleStatus completion_oracle(int method, double eta, const std::vector<std::vector<double>>& history,
                               size_t y_support, size_t train, const std::vector<ObjectiveChange>& changes = {});

// Nearest-neighbour subsample of a row-major m x n grid to at most max_rows x max_cols cells
// (*rows x *cols): cell (r, c) is values[floor((r + 1/2) m / rows), floor((c + 1/2) n / cols)], so
// categorical codes stay codes. Used where a grid cannot go through a texture.
std::vector<float> subsample_grid(const float* values, int m, int n, int max_rows, int max_cols, int* rows, int* cols);

// The rows and columns a picture of an m x n matrix shows: all of them when m n <= max_cells,
// else an evenly spaced subset of about max_cells cells in the matrix's proportions (index
// floor((2a + 1) m / (2 R)) for picture row a of R). Pictures above a screen's resolution
// gain nothing and cost memory and texture uploads (MovieLens-1M: 22 million cells).
void picture_grid(int m, int n, size_t max_cells, std::vector<int>& rows, std::vector<int>& cols);
// The estimate (X's units) at the picture's cells: row-major rows.size() x cols.size().
std::vector<float> estimate_grid(const CompletionSnapshot& s, const std::vector<int>& rows,
                                 const std::vector<int>& cols);

// A rise of b over a beyond rounding: b > a + 1e-9 max(|a|, |b|) + 1e-12.
bool rises(double a, double b);

}  // namespace cilab
