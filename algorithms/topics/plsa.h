// Topic models on a document-term matrix (course chapter 7.2 and 7.4): pLSA
// fitted by EM, and the two multiplicative-update NMFs of scikit-learn on the
// same counts, chosen with `method`, from the same start.
//
// Data: a text corpus (Dataset::text; default the fortune cookies). The module
// builds its Vocabulary (algorithms/text/text.h: min_count, max_df, stop_words,
// max_features, scikit-learn's CountVectorizer names) and the document-term
// matrix N (n documents x m terms, CSR; documents with no word left are
// dropped). `test_fraction` of every document's tokens is held out, drawn per
// token (each of the N_ij tokens of a cell independently, seeded): training
// counts N_ij and held-out counts T_ij; every document and every word keeps at
// least one training token. s_i = sum_j N_ij.
// The held-out perplexity uses each document's trained p(z|d) ("document
// completion"), smoothed for the evaluation only by `test_smoothing` eps:
// p_eps(w|d) = (p(w|d) + eps) / (1 + m eps) (training and l are untouched, so
// l's monotonicity holds; eps = 0 is the raw model): with ~10 words per fortune pLSA overfits p(z|d), and the test
// perplexity rises after a few iterations while l keeps rising; it becomes
// infinite once a held-out word has p(w|z) = 0 (underflow) in every topic of
// its document - soon for nmf_kl, which zeroes entries of H below 2.2e-16 as
// scikit-learn does - unless test_smoothing > 0 (the default 1e-6 keeps it finite).
//
// pLSA (method=plsa):
//   p(w_j | d_i) = sum_z p(w_j | z) p(z | d_i),  U = [p(w|z)] (m x K), V = [p(z|d)] (K x n)
//   l = sum_ij N_ij log p(w_j | d_i)
//   E-step  q_ijz = p(w_j|z) p(z|d_i) / sum_z' p(w_j|z') p(z'|d_i)   (on the nonzeros of N)
//   M-step  p(w_j|z) = sum_i N_ij q_ijz / sum_i sum_j' N_ij' q_ij'z,
//           p(z|d_i) = sum_j N_ij q_ijz / s_i
//   l never falls; U's and V's columns and q over z sum to 1;
//   l <= sum_ij N_ij log(N_ij / s_i) (the saturated model); with K = 1 one
//   M-step gives p(w|z) = the corpus unigram frequencies.
// Sub-steps: "E-step" (computes and keeps q, nnz x K) and "M-step" (uses it);
// step() fuses the two without storing q.
//
// NMF (method=nmf_kl | nmf_frobenius): X = N (docs x terms) ~ W H, W >= 0
// (n x K), H >= 0 (K x m): scikit-learn's NMF(solver='mu',
// beta_loss='kullback-leibler' | 'frobenius') multiplicative updates, W first,
// then H with the new W, with scikit-learn's epsilon conventions. The
// normalised factors shown as U and V: U_jz = H_zj / h_z (h_z = sum_j H_zj),
// V_zi = W_iz h_z / sum_z' W_iz' h_z' (so p(w|d) = the row of WH normalised).
// From (theta = V^T, phi = U) pLSA's step equals one *simultaneous* KL update of
// W = diag(s) theta, H = phi^T, normalised. For NMF one iteration is the
// W update and the H update; sub_step() of an NMF method is a whole step.
//
// Every method measures l = sum_ij N_ij log p(w_j | d_i) with p(w|d) the rows
// of the model normalised, the perplexities exp(-l / sum N) (training) and
// exp(-sum T_ij log p(w_j|d_i) / sum T) (held out, with the document's trained
// p(z|d)), and its own objective: pLSA -l; nmf_kl the generalised KL
// D(X || WH) = sum_ij (X_ij log(X_ij / (WH)_ij) - X_ij + (WH)_ij); nmf_frobenius
// 1/2 ||X - WH||_F^2.
//
// init: `random` draws every column of U (and V) from the flat Dirichlet
// (normalised -log u, seeded: a uniform random point of the simplex); `uniform`
// starts every topic at the same point (U = 1/m, V = 1/K): a fixed point of EM
// where all topics stay identical, showing why EM needs a random start.
// Converged when the objective's relative change is <= tol; Stopped at
// max_iter; Diverged on a non-finite value.
//
// Intent "add_topic" (no index, no values): K -> K + 1 keeping the current
// topics: the topic with the most mass (sum_i s_i p(z|d_i)) is split in two
// halves of its document weight, its word distribution perturbed by a seeded
// +-1 % in opposite directions for the two halves (renormalised), so the
// model's p(w|d) barely moves and EM separates the pair afterwards. Refused
// (false) at K = the vocabulary size or kMaxTopics.
#pragma once

#include "algorithms/core/module_base.h"
#include "algorithms/core/text_corpus.h"
#include "algorithms/text/text.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cilab {

// The data every snapshot of a run shares (built at reset, never changed).
struct PlsaProblem {
  std::shared_ptr<const TextCorpus> corpus;  // documents' text: corpus->doc_text[train.doc_index[i]]
  std::string corpus_name;                   // "fortunes"
  std::string what;                          // "fortunes: 15218 documents, 4980 terms, ..."
  Vocabulary vocab;                          // vocab.words[j]: term j (column j of N)
  DocTermMatrix train;                       // N: training counts (docs x terms, CSR)
  DocTermMatrix test;                        // T: held-out counts, same rows and shape
  double train_total = 0, test_total = 0;    // sum N, sum T
  double saturated_bound = 0;                // sum_ij N_ij log(N_ij / s_i)
  std::vector<double> unigram;               // m: sum_i N_ij / sum N (the K = 1 answer)
  // Per row of N: the document's category (-1 = none) and the category names
  // (empty when the corpus has no labels).
  std::vector<int> doc_label;
  std::vector<std::string> label_names;
  // Constants of N: sum N_ij log N_ij and sum N_ij^2 (the NMF objectives).
  double sum_x_log_x = 0, sum_x_squared = 0;
  // Column access to N: the nonzeros of term j are the CSR positions
  // csc_pos[col_start[j] .. col_start[j + 1]) of documents csc_doc[...] (increasing).
  std::vector<int64_t> col_start;
  std::vector<int32_t> csc_doc;
  std::vector<int64_t> csc_pos;
  // The parallel partition (from the data only): documents doc_block[b] ..
  // doc_block[b + 1], terms term_block[b] .. term_block[b + 1], ~16k nonzeros each.
  std::vector<int> doc_block, term_block;
  int docs() const { return train.docs; }
  int terms() const { return train.terms; }
  // The document's original text ("" when the corpus kept none).
  const std::string& doc_text(int row) const;
  size_t byte_size() const;
};

// The model of one snapshot: K x (terms + docs) values.
struct PlsaFactors {
  int k = 0, terms = 0, docs = 0;
  std::vector<double> u;  // terms x K row-major: u[j * k + z] = p(w_j | z)
  std::vector<double> v;  // docs x K row-major:  v[i * k + z] = p(z | d_i)
  // NMF only (empty for pLSA): h_z = sum_j H_zj and w_i = sum_z W_iz h_z (the
  // row sums of W H): H_zj = u_jz h_z, W_iz = v_zi w_i / h_z.
  std::vector<double> h_scale, w_scale;
  double p_word(int i, int j) const;  // p(w_j | d_i) = sum_z u_jz v_zi
  size_t byte_size() const;
};

struct PlsaSnapshot : Snapshot {
  std::shared_ptr<const PlsaProblem> problem;
  std::shared_ptr<const PlsaFactors> factors;
  int method = 0;  // Plsa::Method
  int k = 0;       // topics now (k of the parameters, plus topics added)
  // Top words per topic: top_words[z] = term ids by descending p(w|z) (up to kTopWords).
  static constexpr int kTopWords = 10;
  std::vector<std::vector<int>> top_words;
  // Topics against categories (empty without labels): k x label_names.size()
  // row-major. confusion_argmax[z * L + c] = documents of category c whose
  // argmax_z p(z|d) is z; confusion_mass[z * L + c] = sum over those documents
  // of p(z|d) (every document's mass spread over its topics).
  std::vector<int> confusion_argmax;
  std::vector<double> confusion_mass;
  std::vector<double> topic_mass;  // k: sum_i s_i p(z|d_i) / sum N, the topics' share of the tokens
  // Oracles (also metrics): the largest rise of the objective so far (pLSA:
  // the largest fall of l; 0 for pLSA and nmf_kl, Lee-Seung), max |col sum - 1|
  // of U, of V and of q over z (q: NaN unless the E-step sub-step has just
  // run), the saturated bound, and with K = 1 the max deviation of p(w|z) from
  // the unigram frequencies (NaN otherwise).
  double largest_rise = 0;
  double u_sum_error = 0, v_sum_error = 0, q_sum_error = 0;
  double saturated_bound = 0;
  double unigram_error = 0;
  double u(int j, int z) const { return factors->u[static_cast<size_t>(j) * factors->k + z]; }
  double v(int z, int i) const { return factors->v[static_cast<size_t>(i) * factors->k + z]; }
  size_t byte_size() const override;
};

class Plsa : public ModuleBase<Plsa> {
 public:
  enum class Method : int { Plsa, NmfKl, NmfFrobenius };
  enum class Init : int { Random, Uniform };
  static constexpr int kMaxTopics = 200;

  // Defaults live here (member initialisers); the ParamTable in the .cpp reads them.
  struct Params {
    Method method = Method::Plsa;
    int k = 10;
    Init init = Init::Random;
    int min_count = 2;
    double max_df = 0.5;
    bool stop_words = true;
    int max_features = 5000;
    double test_fraction = 0.1;
    double test_smoothing = 1e-6;  // held-out evaluation only (see test_perplexity)
    int max_iter = 200;
    double tol = 1e-7;
  };

  enum Metric : int {
    kMetricLogLikelihood,
    kMetricPerplexity,
    kMetricTestPerplexity,
    kMetricObjective,
    kMetricChange,          // relative change of the objective in this iteration
    kMetricLargestRise,     // largest rise of the objective so far (pLSA: fall of l)
    kMetricStochasticError, // max of the U, V, q column-sum deviations
    kMetricSaturatedGap,    // saturated bound - l (>= 0)
    kMetricUnigramError,    // K = 1: max |p(w|z) - unigram|, NaN otherwise
    kNumMetrics
  };


  Plsa() = default;
  Plsa(const Plsa& other);  // the copy allocates its own scratch when it steps

  const ModuleInfo& info() const override;
  void reset(std::shared_ptr<const Dataset> data, const ParamValues& params, uint64_t seed) override;
  void step() override;
  void sub_step() override;
  std::shared_ptr<const Snapshot> snapshot() const override;
  void set_live(const std::string& name, double value) override;
  bool apply(const Intent& intent) override;
  size_t state_bytes() const override;

  std::shared_ptr<const PlsaSnapshot> plsa_snapshot() const;
  static Params params_from(const ParamValues& values);

  // For tests. The start: replaces the factors (theta: docs x K row-major,
  // p(z|d); phi: terms x K row-major, p(w|z)); for NMF W = diag(s) theta,
  // H = phi^T. Resets the iteration count's oracles, not the data.
  void set_start(const std::vector<double>& theta, const std::vector<double>& phi);
  // The current factors, row-major with K contiguous: pLSA's theta (docs x K,
  // p(z|d)) and phi (terms x K, p(w|z)); for NMF the same buffers hold W
  // (docs x K) and H^T (terms x K).
  const std::vector<double>& theta() const;
  const std::vector<double>& phi() const;
  const PlsaProblem& problem() const;
  int topics() const;
  // q after the E-step sub-step (nnz x K, in the order of N's nonzeros; empty
  // otherwise).
  const std::vector<double>& responsibilities() const;

 private:
  struct State;
  StatePtr<State> st_;
};

CILAB_MODULE_EXTERN(Plsa)

}  // namespace cilab
